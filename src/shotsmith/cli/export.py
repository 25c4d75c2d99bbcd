"""``shotsmith export``: a designed set into a fastlane folder, then checked."""

from __future__ import annotations

import argparse
from pathlib import Path

from .validate import report

HELP = "write a designed set into a fastlane folder (deliver / supply)"
DESCRIPTION = (
    "Copy one app's designed screenshots where fastlane reads them: "
    "DEST/screenshots/<locale>/NN_<screen>.png for the App Store, "
    "DEST/metadata/android/<locale>/images/phoneScreenshots/N.png for Google Play; "
    "then check DEST against the stores' rules."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("design_out", type=Path, help="what `shotsmith design` wrote (out/<app>)")
    p.add_argument("--fastlane", type=Path, required=True, metavar="DEST", help="fastlane folder")
    p.add_argument("--app", default=None, help="the set to export when DESIGN_OUT holds several")
    p.add_argument(
        "--overwrite", action="store_true", help="replace screenshots already in DEST's folders"
    )


def run(args: argparse.Namespace) -> int:
    from ..export.fastlane import export_fastlane

    written = export_fastlane(
        args.design_out, args.fastlane, app_id=args.app, overwrite=args.overwrite
    )
    for e in written:
        print(f"  {e.target}")
    shots = [e for e in written if e.store != "app-store-text"]
    texts = len(written) - len(shots)
    extra = f" and {texts} store text files (subtitle, promotional text, keywords)" if texts else ""
    print(f"exported {len(shots)} screenshots{extra} to {args.fastlane}")
    return report(args.fastlane)
