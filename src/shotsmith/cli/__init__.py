"""The ``shotsmith`` command: one module per sub-command.

Each module in ``COMMANDS`` reads like a small management command: a docstring, ``HELP``
(the line in ``shotsmith --help``), ``DESCRIPTION``, ``add_arguments(parser)`` and
``run(args) -> int``. It parses, calls the library and prints; what to do lives in the
library, so a notebook, the batch runner and the server do the same. Options several
commands share are in :mod:`.options`, progress and log lines in :mod:`.output`.

A module whose optional dependencies are not installed still registers: it imports them
in ``run``, and the library's error names the extra to install.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from ..errors import ShotsmithError
from ..settings import Settings, use

COMMANDS = (
    "design",
    "batch",
    "capture",
    "export",
    "validate",
    "copy-template",
    "serve",
    "submit",
    "keys",
    "projects",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="shotsmith",
        description="Turn raw app screenshots into store-ready App Store and Google Play "
        "marketing screenshots.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        command = importlib.import_module(f"{__name__}.{name.replace('-', '_')}")
        p = sub.add_parser(name, help=command.HELP, description=command.DESCRIPTION)
        command.add_arguments(p)
        p.set_defaults(func=command.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        try:
            with use(Settings.from_env()):  # the environment, read once for the command
                return int(args.func(args) or 0)
        except ShotsmithError as exc:
            print(f"shotsmith {args.command}: {exc}", file=sys.stderr)
            return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (`| head`, a closed pager): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # as a shell reports a command stopped by SIGPIPE
