"""The ``shotsmith`` command.

Sub-commands live next to what they drive; each module that offers one has an
``add_commands(subparsers)`` function registered in ``COMMAND_MODULES``.
"""

from __future__ import annotations

import argparse
import importlib
import re
import sys
from pathlib import Path

from .errors import ShotsmithError

COMMAND_MODULES = (
    "shotsmith.cli",  # design
    "shotsmith.server.cli",  # serve, keys, submit
    "shotsmith.batch",  # batch
    "shotsmith.stages.capture",  # capture
    "shotsmith.server.projects",  # projects
    "shotsmith.export.cli",  # export, validate
)


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "design",
        help="design a folder of raw screenshots into a store-ready set",
        description="Design one app's raw screenshots (a folder of PNGs, store "
        "order from file names like 01_home.png or a manifest.json) "
        "into store-ready PNGs plus design.json/design.csv.",
    )
    p.add_argument("folder", type=Path, help="folder of raw PNG screenshots")
    p.add_argument("--project-name", help="the app's name (default: manifest or folder name)")
    p.add_argument("--bundle-id", help="reverse-domain bundle id, e.g. com.example.app")
    p.add_argument(
        "--template",
        default="default",
        help="layout template name in layouts/ or a path to a template file",
    )
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
    p.add_argument("--no-ocr", action="store_true", help="do not OCR the screenshots")
    p.add_argument(
        "--copy-backend",
        default="grounded",
        choices=["grounded", "phrasebank", "llm", "auto"],
        help="where captions come from: grounded (default; every word from the screens, "
        "the app's name, --about or a neutral vocabulary), or llm/auto (an "
        "OpenAI-compatible endpoint from SHOTSMITH_LLM_* settings, held to the same check)",
    )
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
        "en-US); --copy rows of this locale are used and captions and store text are "
        "written in it",
    )
    p.add_argument(
        "--quiet", action="store_true", help="no progress on stderr (errors and warnings only)"
    )
    p.set_defaults(func=_design)


_LOCALE = re.compile(r"[^\W\d_]{2,3}([-_][^\W_]{2,8}){0,3}")


def _design(args: argparse.Namespace) -> int:
    from .pipeline import design

    out = args.out or Path("out")
    if args.locale is not None and not _LOCALE.fullmatch(args.locale.strip()):
        print(
            f"shotsmith design: --locale {args.locale!r} is not a locale code; use one such "
            "as ja-JP, ar-SA, de-DE or zh-Hans.",
            file=sys.stderr,
        )
        return 2
    _log_to_stderr(args.command)
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
        locale=args.locale.strip() if args.locale else None,
        progress=False if args.quiet else _progress_lines(args.command, source, args.size),
    )
    if args.copy_backend in ("llm", "auto"):
        _say_when_llm_unused(frame, args.command)
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
    from .export.validate import validate

    folders = dict.fromkeys(Path(p).parent for p in frame["render_path"])
    for folder in folders:
        print(f"table: {folder / 'design.json'}")
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
    from .stages.capture import capture

    return capture(folder, project_name=args.project_name, bundle_id=args.bundle_id)


def _progress_lines(command: str, source, sizes: list[str] | None):
    """Progress on stderr: a line per stage, then one per screenshot as it is written."""
    import time

    start = time.perf_counter()
    count = {"done": 0, "total": 0}

    def report(event: dict) -> None:
        elapsed = f"{time.perf_counter() - start:5.1f}s"
        if event["event"] == "stage":
            count["total"] = count["total"] or event["screenshots"] * max(1, len(sizes or []))
            print(
                f"shotsmith {command}: {elapsed} {event['stage']} "
                f"({event['screenshots']} screenshots)",
                file=sys.stderr,
                flush=True,
            )
        elif event["event"] == "rendered":
            count["done"] += 1
            print(
                f"shotsmith {command}: {elapsed} [{count['done']}/{count['total']}] "
                f"{event['path']} "
                f"{event['width']}x{event['height']} ({event['device']})",
                file=sys.stderr,
                flush=True,
            )

    return report


def _say_when_llm_unused(frame, command: str) -> None:
    """One line on stderr per set whose captions the asked-for LLM did not write."""
    for app_id, sources in frame.groupby("app_id", sort=False)["copy_source"]:
        values = [str(v) for v in sources]
        if any(v.startswith("llm:") for v in values):
            continue
        notes = [v.partition("(")[2].rstrip(")") for v in values if "(llm " in v]
        if notes:
            print(
                f"shotsmith {command}: {app_id}: the LLM was asked for but not used "
                f"({notes[0]}); the captions are shotsmith's own grounded copy.",
                file=sys.stderr,
            )


def _log_to_stderr(command: str) -> None:
    """shotsmith's warnings (a rejected LLM answer, a copy row matching no screen) go to
    stderr, once each, prefixed like the command's own messages."""
    import logging

    logger = logging.getLogger("shotsmith")
    if not any(getattr(h, "_shotsmith_cli", False) for h in logger.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter(f"shotsmith {command}: %(message)s"))
        handler._shotsmith_cli = True  # type: ignore[attr-defined]
        # the command sums up an unused LLM itself, once per set (_say_when_llm_unused)
        handler.addFilter(lambda record: not getattr(record, "llm_unused", False))
        logger.addHandler(handler)
        logger.propagate = False
    logger.setLevel(logging.WARNING)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="shotsmith",
        description="Turn raw app screenshots into store-ready App Store and Google Play "
        "marketing screenshots.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError as exc:
            if exc.name and name.startswith(exc.name):  # that part is not there
                continue
            raise
        register = getattr(module, "add_commands", None)
        if register is not None:
            register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except ShotsmithError as exc:
        print(f"shotsmith {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
