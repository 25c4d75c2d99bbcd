"""Options several commands share, defined once so their names, defaults and help agree."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..stages.copy.backends import BACKENDS, GROUNDED

DEFAULT_DATA_DIR = Path("data")
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8787


def data_dir(
    parser: argparse.ArgumentParser, help: str = "the server's data dir (default ./data)"
) -> None:
    parser.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR, help=help)


def identity(
    parser: argparse.ArgumentParser,
    name_help: str = "the app's name (default: manifest or folder name)",
) -> None:
    """--project-name and --bundle-id."""
    parser.add_argument("--project-name", help=name_help)
    parser.add_argument("--bundle-id", help="reverse-domain bundle id, e.g. com.example.app")


def template(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--template",
        default="default",
        help="layout template: a built-in name (default), one in ./layouts or "
        "$SHOTSMITH_LAYOUTS, or a path to a template file",
    )


def no_ocr(parser: argparse.ArgumentParser, help: str = "do not OCR the screenshots") -> None:
    parser.add_argument("--no-ocr", action="store_true", help=help)


def copy_backend(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--copy-backend",
        default=GROUNDED,
        choices=list(BACKENDS),
        help="where captions come from: grounded (default; every word from the screens, "
        "the app's name, --about or a neutral vocabulary; phrasebank is its earlier name), "
        "or llm/auto (an OpenAI-compatible endpoint from SHOTSMITH_LLM_* settings, held to "
        "the same check)",
    )
