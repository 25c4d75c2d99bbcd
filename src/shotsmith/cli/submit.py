"""``shotsmith submit``: a folder of screenshots sent to a shotsmith server as a design job.

``SHOTSMITH_API_KEY`` and ``SHOTSMITH_SERVER`` are the defaults of ``--api-key`` and
``--server``.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..errors import InvalidOptionError
from . import options
from .options import DEFAULT_HOST, DEFAULT_PORT

HELP = "send a folder of screenshots to a shotsmith server"
DESCRIPTION = (
    "POST a folder of raw PNG screenshots (names like 01_home.png, or a manifest.json) as a "
    "design job."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("folder", type=Path, help="folder of raw PNG screenshots")
    options.identity(p)
    p.add_argument("--webhook-url", help="URL to POST to when the job finishes")
    p.add_argument(
        "--server",
        default=os.environ.get("SHOTSMITH_SERVER", f"http://{DEFAULT_HOST}:{DEFAULT_PORT}"),
        help="server base URL (default $SHOTSMITH_SERVER or http://127.0.0.1:8787)",
    )
    p.add_argument("--api-key", default=None, help="API key (default $SHOTSMITH_API_KEY)")
    p.add_argument("--wait", action="store_true", help="wait until the job finishes")
    p.add_argument(
        "--out", type=Path, default=None, help="download the PNGs here when done (implies --wait)"
    )
    p.add_argument(
        "--timeout", type=float, default=600.0, help="seconds to wait with --wait (default 600)"
    )


def run(args: argparse.Namespace) -> int:
    from ..client import Client
    from ..io import read_screenshots

    api_key = args.api_key or os.environ.get("SHOTSMITH_API_KEY")
    if not api_key:
        raise InvalidOptionError("give --api-key or set SHOTSMITH_API_KEY.")
    frame = read_screenshots(args.folder, project_name=args.project_name, bundle_id=args.bundle_id)
    with Client(args.server, api_key) as api:
        created = api.create_design_job(
            frame, args.project_name, bundle_id=args.bundle_id or None, webhook_url=args.webhook_url
        )
        print(f"job {created['job_id']} queued: {created['poll_url']}", flush=True)
        if not (args.wait or args.out):
            return 0
        job = api.wait(created["job_id"], timeout=args.timeout)
        if job["status"] == "failed":
            print(f"job {job['job_id']} failed: {job.get('error')}", file=sys.stderr)
            return 1
        print(f"job {job['job_id']} completed: {len(job['output_urls'])} screenshot(s)")
        if args.out:
            for path in api.download(job, args.out):
                print(f"  {path}")
        else:
            for url in job["output_urls"]:
                print(f"  {url}")
    return 0
