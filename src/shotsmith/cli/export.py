"""``shotsmith export``: a designed set into a fastlane folder, then checked."""

from __future__ import annotations

import argparse
from pathlib import Path

from .output import log_to_stderr
from .validate import report

HELP = "write a designed set into a fastlane folder (deliver / supply) or as SVG"
DESCRIPTION = (
    "Copy one app's designed screenshots where fastlane reads them: "
    "DEST/screenshots/<locale>/NN_<screen>.png for the App Store, "
    "DEST/metadata/android/<locale>/images/phoneScreenshots/N.png for Google Play, with "
    "each store's locale codes; the store text (App Store subtitle, promotional text, "
    "keywords; Play title, short and full description, feature graphic, icon) beside them. "
    "Export an app's iPhone, iPad and Android sets into one DEST one after another: each "
    "replaces only its own device's screenshots. Then check DEST against the stores' rules. "
    "With --svg, write each slide as an SVG instead (live text in the named font, the "
    "screenshot embedded, the device frame as vector shapes) to open in a browser, Inkscape "
    "or Figma: beside its PNG, or under the folder named."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("design_out", type=Path, help="what `shotsmith design` wrote (out/<app>)")
    p.add_argument("--fastlane", type=Path, default=None, metavar="DEST", help="fastlane folder")
    p.add_argument(
        "--svg",
        nargs="?",
        const="",
        default=None,
        metavar="DEST",
        help="write one editable SVG per slide, beside its PNG (or under DEST/<app>/)",
    )
    p.add_argument("--app", default=None, help="the set to export when DESIGN_OUT holds several")
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="replace the screenshots of the same device already in DEST",
    )
    p.add_argument(
        "--icon",
        type=Path,
        default=None,
        metavar="PNG",
        help="Google Play hi-res icon (512x512 32-bit PNG), placed as images/icon.png",
    )


def run(args: argparse.Namespace) -> int:
    from ..errors import InvalidOptionError
    from ..export.fastlane import export_fastlane
    from ..export.svg import export_svg

    log_to_stderr(args.command)
    if args.svg is not None:
        svgs = export_svg(args.design_out, args.svg or None, app_id=args.app)
        for path in svgs:
            print(f"  {path}")
        print(f"exported {len(svgs)} SVG slides")
        if args.fastlane is None:
            return 0
    if args.fastlane is None:
        raise InvalidOptionError("name where to write: --fastlane DEST or --svg [DEST]")
    written = export_fastlane(
        args.design_out, args.fastlane, app_id=args.app, overwrite=args.overwrite, icon=args.icon
    )
    for e in written:
        print(f"  {e.target}")
    shots = [e for e in written if e.store in ("app_store", "google_play")]
    texts = sum(e.store == "app-store-text" for e in written)
    play = sum(e.store == "play-listing" for e in written)
    extra = f" and {texts} App Store text files" if texts else ""
    extra += f" and {play} Play listing files" if play else ""
    print(f"exported {len(shots)} screenshots{extra} to {args.fastlane}")
    return report(args.fastlane)
