"""``shotsmith batch``: every app a manifest lists, on a process pool or a Dask cluster."""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

from ..batch import (
    CONTACT_SHEET,
    IF_CHANGED,
    SUMMARY_CSV,
    BatchInterrupted,
    run_batch,
    status_counts,
)
from ..batch.fanout import CONNECT_TIMEOUT
from . import options

HELP = "design every app listed in a manifest CSV"
DESCRIPTION = (
    "Design many apps from a manifest CSV (columns: source = folder of screenshots or web "
    "app URL; optional project_name, bundle_id, app_id, locale, about, copy, variants) on a "
    "local process pool or a Dask cluster. Writes OUT/<app_id>/ per app, OUT/summary.csv and "
    "OUT/contact-sheet.png. Re-running skips apps finished with the same inputs and settings "
    "and designs the others again."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("manifest", type=Path, help="manifest CSV")
    p.add_argument("--out", type=Path, required=True, help="output folder")
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help="local worker processes (default: CPU count; 0 = in this process)",
    )
    p.add_argument(
        "--scheduler",
        default=None,
        help="Dask scheduler address, e.g. tcp://10.0.0.5:8786 (OUT must be on a "
        "file system the workers share)",
    )
    p.add_argument(
        "--connect-timeout",
        type=float,
        default=CONNECT_TIMEOUT,
        metavar="SECONDS",
        help=f"seconds to wait for the Dask scheduler to answer (default {CONNECT_TIMEOUT:g})",
    )
    options.template(p)
    p.add_argument(
        "--size",
        default=None,
        help="one store size for every app (6.9, 6.5, 13, android-phone, WxH); default: "
        "each app's device's own (iPhone 6.9\", iPad 13\", Android Google Play sizes)",
    )
    options.no_ocr(p)
    options.copy_backend(p)
    p.add_argument(
        "--if-changed",
        default="redesign",
        choices=IF_CHANGED,
        help="an app finished earlier with other inputs or settings (template, size, "
        "options, shotsmith version...): design it again (default), or refuse: design "
        "nothing and list what changed",
    )
    p.add_argument(
        "--window",
        type=int,
        default=None,
        help="apps in flight at once (default: twice the workers)",
    )
    p.add_argument(
        "--variants",
        metavar="N",
        default=1,
        help="design N sets of each app for a store experiment (1-4), each in "
        "OUT/<app_id>/variant-K/ (as `shotsmith design --variants`); a manifest's variants "
        "column sets it per app",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    stopped_by: list[int] = []

    def on_term(signum: int, frame: object) -> None:
        stopped_by.append(signum)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, on_term)
    try:
        return _run(args)
    except BatchInterrupted as stop:
        print(stop, file=sys.stderr)
        return 143 if stopped_by else 130
    finally:
        signal.signal(signal.SIGTERM, previous)


def _run(args: argparse.Namespace) -> int:
    summary = run_batch(
        args.manifest,
        args.out,
        workers=args.workers,
        scheduler=args.scheduler,
        connect_timeout=args.connect_timeout,
        template=args.template,
        size=args.size,
        ocr=False if args.no_ocr else "auto",
        window=args.window,
        progress=not args.quiet,
        copy_backend=args.copy_backend,
        if_changed=args.if_changed,
        variants=args.variants,
    )
    counts = summary["status"].value_counts()
    print(status_counts(summary))
    again = summary[summary["note"].str.startswith("designed again", na=False)]
    for _, rec in again.iterrows():
        print(f"  {rec['app_id']}: {rec['note']}")
    for _, rec in summary[summary["status"] == "failed"].iterrows():
        print(f"  FAILED {rec['app_id']} ({rec['source']}): {rec['error']}", file=sys.stderr)
    print(
        f"summary: {Path(args.out) / SUMMARY_CSV}; contact sheet: {Path(args.out) / CONTACT_SHEET}"
    )
    return 1 if counts.get("failed", 0) else 0
