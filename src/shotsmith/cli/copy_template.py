"""``shotsmith copy-template``: a copy file to fill in, one row per screen, for ``--copy``.

``shotsmith copy-template APP --locale ja > ja.csv`` prints the CSV ``design --copy`` reads
(``screen, headline, subtitle, locale``) with the headline and subtitle left blank. When
APP is a design output, the captions it has now are added as ``current_headline`` and
``current_subtitle`` to translate from (``--copy`` ignores those columns).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

from ..errors import InputFileError

HELP = "print a copy file (CSV) to fill in for a set's screens, for design --copy"
DESCRIPTION = (
    "Print a CSV with one row per screen of APP (a folder of raw screenshots, or what "
    "`shotsmith design` wrote) and the columns screen, headline, subtitle, locale, as "
    "`shotsmith design --copy` reads it: fill in the headline and subtitle in the locale's "
    "language. Example: shotsmith copy-template raw/ --locale ja > ja.csv"
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("folder", type=Path, help="raw screenshots, or a design output (out/<app>)")
    p.add_argument("--locale", required=True, metavar="LOCALE", help="e.g. ja, de-DE, ar-SA")


def run(args: argparse.Namespace) -> int:
    from ..locales import check_locale

    locale = check_locale(args.locale)
    rows = _design_rows(args.folder)
    if rows is not None:
        current: dict[str, dict] = {}
        for row in sorted(rows, key=lambda r: int(r.get("position") or 0)):
            current.setdefault(str(row.get("screen") or ""), row)
        fields = ["screen", "headline", "subtitle", "locale", "current_headline"]
        fields.append("current_subtitle")
        out = csv.writer(sys.stdout, lineterminator="\n")
        out.writerow(fields)
        for screen, row in current.items():
            out.writerow(
                [screen, "", "", locale, row.get("copy_headline") or "", row.get("copy_subtitle")]
            )
        return 0
    from ..io import read_screenshots

    frame = read_screenshots(args.folder)
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["screen", "headline", "subtitle", "locale"])
    for screen in dict.fromkeys(str(s) for s in frame["screen"]):
        out.writerow([screen, "", "", locale])
    return 0


def _design_rows(folder: Path) -> list[dict] | None:
    """The rows of a design output's design.json (one set), or None for a raw folder."""
    table = folder / "design.json"
    if not table.is_file():
        return None
    try:
        rows = json.loads(table.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputFileError(f"copy-template: cannot read {table} ({exc}).") from exc
    return [r for r in rows if isinstance(r, dict)] if isinstance(rows, list) else None
