"""``shotsmith design``: one app's raw screenshots into a store-ready set."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..locales import check_locale
from . import options
from .output import log_to_stderr, progress_lines, say_when_llm_unused

HELP = "design a folder of raw screenshots into a store-ready set"
DESCRIPTION = (
    "Design one app's raw screenshots (a folder of PNGs, store order from file names like "
    "01_home.png or a manifest.json) into store-ready PNGs plus design.json/design.csv."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("folder", type=Path, help="folder of raw PNG screenshots")
    options.identity(p)
    options.template(p)
    p.add_argument(
        "--size",
        action="append",
        default=None,
        metavar="SIZE",
        help="a store size to design at, instead of the screenshots' device's own (iPhone "
        '6.9" 1320x2868, iPad 13" 2064x2752, Android phone 1080x1920, tablet 1440x2560): '
        "6.9, 6.5, 6.3, 6.1, 5.5, 13, 11, android-phone, android-tablet or WxH. Repeat it "
        "for several sizes (--size 6.9 --size 6.5); each goes to OUT/<size>/<app>/",
    )
    p.add_argument("--out", type=Path, default=None, help="output folder (default: out/)")
    options.no_ocr(p)
    options.copy_backend(p)
    p.add_argument(
        "--about",
        metavar="TEXT",
        default=None,
        help="a sentence describing the app, in your words; captions may draw on it "
        '(e.g. "Browse and review 120 hiking trails in Colorado")',
    )
    p.add_argument(
        "--copy",
        metavar="FILE",
        type=Path,
        default=None,
        help="your own captions: a CSV with columns screen, headline, subtitle (optional "
        "locale), frameit's title.strings/keyword.strings (or fastlane's screenshots "
        "folder) or an Xcode .xcstrings catalogue; they are kept as written and the other "
        "screens are captioned around them",
    )
    p.add_argument(
        "--locale",
        metavar="LOCALE",
        default=None,
        help="the set's language, e.g. ja-JP, ar-SA, de-DE (default: the manifest's, else "
        "en-US), one the stores list; --copy rows of this locale are used and captions and "
        "store text are written in it",
    )
    p.add_argument(
        "--strict-locale",
        action="store_true",
        help="fail, before anything is written, when screens of a non-English set have no "
        "copy in its language (default: a warning naming them)",
    )
    p.add_argument(
        "--variants",
        metavar="N",
        default=1,
        help="design N sets for a store experiment (1-4: the original plus up to 3 "
        "treatments, as App Store product page optimization and Play store listing "
        "experiments allow), each in OUT/<app>/variant-K/: variant-2 leads with another "
        "screen, variant-3 takes another palette, variant-4 another template",
    )
    p.add_argument(
        "--quiet", action="store_true", help="no progress on stderr (errors and warnings only)"
    )


def run(args: argparse.Namespace) -> int:
    from ..pipeline import design

    out = args.out or Path("out")
    locale = check_locale(args.locale) if args.locale is not None else None
    from ..variants import check_variants

    variants = check_variants(args.variants)
    log_to_stderr(args.command)
    source = _read_source(args)
    frame = design(
        source,
        project_name=args.project_name,
        bundle_id=args.bundle_id,
        template=args.template,
        sizes=args.size,
        out_dir=out,
        ocr=False if args.no_ocr else "auto",
        copy_backend=args.copy_backend,
        about=args.about,
        copy=args.copy,
        locale=locale,
        strict_locale=args.strict_locale,
        variants=variants,
        progress=False if args.quiet else progress_lines(args.command, source, args.size),
    )
    if args.copy_backend in ("llm", "auto"):
        say_when_llm_unused(frame, args.command)
    first = frame.iloc[0]
    print(
        f"{first['project_name']}: {first['domain_category']} "
        f"(confidence {first['domain_confidence']:.2f}); tagline: {first['copy_tagline']}"
    )
    for _, row in frame.iterrows():
        print(
            f"  {row['render_path']}  {row['render_width']}x{row['render_height']}  "
            f"{row['copy_headline']!r}"
        )
    from ..export.validate import validate

    folders = dict.fromkeys(Path(p).parent for p in frame["render_path"])
    for folder in folders:
        print(f"tables: {folder / 'design.json'}, {folder / 'design.csv'}")
    for folder in folders:
        for problem in validate(folder):
            print(f"warning: {problem}", file=sys.stderr)
    return 0


def _read_source(args: argparse.Namespace):
    """The folder as ``design`` reads it; a fastlane folder (``screenshots/<locale>/`` from
    snapshot, ``metadata/android/<locale>/images/*Screenshots/`` from screengrab) is read by
    capture's folder reader, so each device's screenshots become a set of that device."""
    folder = Path(args.folder)
    if not folder.is_dir() or any(folder.glob("*.png")) or (folder / "manifest.json").exists():
        return folder
    if not any(p.is_dir() for p in folder.iterdir()):
        return folder  # read_screenshots says what is missing
    from ..stages.capture import capture

    return capture(folder, project_name=args.project_name, bundle_id=args.bundle_id)
