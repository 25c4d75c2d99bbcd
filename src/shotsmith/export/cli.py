"""``shotsmith export`` and ``shotsmith validate``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "export",
        help="write a designed set into a fastlane folder (deliver / supply)",
        description="Copy one app's designed screenshots where fastlane reads them: "
        "DEST/screenshots/<locale>/NN_<screen>.png for the App Store, "
        "DEST/metadata/android/<locale>/images/phoneScreenshots/N.png for Google Play; "
        "then check DEST against the stores' rules.",
    )
    p.add_argument("design_out", type=Path, help="what `shotsmith design` wrote (out/<app>)")
    p.add_argument("--fastlane", type=Path, required=True, metavar="DEST", help="fastlane folder")
    p.add_argument("--app", default=None, help="the set to export when DESIGN_OUT holds several")
    p.add_argument(
        "--overwrite", action="store_true", help="replace screenshots already in DEST's folders"
    )
    p.set_defaults(func=_export)

    v = sub.add_parser(
        "validate",
        help="check screenshots against the App Store and Google Play rules",
        description="Check a design output or a fastlane folder: accepted sizes per "
        "display class, 1-10 per App Store class and locale, 2-8 per Play device type, "
        "RGB without alpha, Play's side, aspect and file-size limits. Exits 1 naming every "
        "offending file and rule.",
    )
    v.add_argument("folder", type=Path, help="a design output or a fastlane folder")
    v.set_defaults(func=_validate)


def _export(args: argparse.Namespace) -> int:
    from .fastlane import export_fastlane

    written = export_fastlane(
        args.design_out, args.fastlane, app_id=args.app, overwrite=args.overwrite
    )
    for e in written:
        print(f"  {e.target}")
    print(f"exported {len(written)} screenshots to {args.fastlane}")
    return _report(args.fastlane)


def _validate(args: argparse.Namespace) -> int:
    return _report(args.folder)


def _report(folder: Path) -> int:
    from .validate import collect, validate

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
    print(f"ok: {len(collect(folder))} screenshots under {folder} meet the store rules")
    return 0
