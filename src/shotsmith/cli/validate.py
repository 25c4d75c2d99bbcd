"""``shotsmith validate``: screenshots checked against the App Store and Google Play rules."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "check screenshots against the App Store and Google Play rules"
DESCRIPTION = (
    "Check a design output or a fastlane folder: accepted sizes per display class, 1-10 per "
    "App Store class and locale, 2-8 per Play device type, RGB without alpha, Play's side, "
    "aspect and file-size limits, files that are damaged or whose suffix names another "
    "format, locale folders deliver or supply refuse (each store's codes), and Play's "
    "feature graphic and icon sizes. Exits 1 naming every offending file and rule."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("folder", type=Path, help="a design output or a fastlane folder")


def run(args: argparse.Namespace) -> int:
    return report(args.folder)


def report(folder: Path) -> int:
    from ..export.validate import collect, validate, videos_in

    problems = validate(folder)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        files = len({p.path for p in problems})
        print(
            f"{len(problems)} store rule{'s' if len(problems) != 1 else ''} broken "
            f"in {files} place{'s' if files != 1 else ''} under {folder}",
            file=sys.stderr,
        )
        return 1
    videos = len(videos_in(folder))
    if videos:
        shots = 0 if folder.is_file() else len(collect(folder))
        said = f"{videos} video{'s' if videos != 1 else ''}"
        print(f"ok: {shots} screenshots, {said} under {folder} meet the store rules")
        return 0
    print(f"ok: {len(collect(folder))} screenshots under {folder} meet the store rules")
    return 0
