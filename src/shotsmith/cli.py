"""The ``shotsmith`` command.

Sub-commands live next to what they drive; each module that offers one has an
``add_commands(subparsers)`` function registered in ``COMMAND_MODULES``.
"""

from __future__ import annotations

import argparse
import importlib
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
        "--size", default=None, help="output store size: 6.9 (1320x2868, default), 6.5, 6.3, or WxH"
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
        "locale); they are kept as written and the other screens are captioned around them",
    )
    p.set_defaults(func=_design)


def _design(args: argparse.Namespace) -> int:
    from .pipeline import design

    out = args.out or Path("out")
    _log_to_stderr(args.command)
    frame = design(
        args.folder,
        project_name=args.project_name,
        bundle_id=args.bundle_id,
        template=args.template,
        size=args.size,
        out_dir=out,
        ocr=False if args.no_ocr else "auto",
        copy_backend=args.copy_backend,
        about=args.about,
        copy=args.copy,
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
    print(f"table: {out / str(first['app_id']) / 'design.json'}")
    from .export.validate import validate

    for problem in validate(out / str(first["app_id"])):
        print(f"warning: {problem}", file=sys.stderr)
    return 0


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
