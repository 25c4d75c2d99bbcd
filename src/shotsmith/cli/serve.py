"""``shotsmith serve``: the /v1 HTTP server.

Environment (read here, at the edge): ``SHOTSMITH_API_KEYS`` (comma-separated keys the
server accepts besides those made with ``shotsmith keys create``; each at least 16
characters) and ``SHOTSMITH_WEBHOOK_ALLOW_PRIVATE=1`` (as ``--webhook-allow-private``).
The server's dependencies are imported when the command runs, so ``shotsmith`` works
without them.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys

from ..errors import InvalidOptionError, ToolMissingError
from . import options
from .options import DEFAULT_HOST, DEFAULT_PORT

HELP = "run the /v1 HTTP server (design jobs, collections)"
DESCRIPTION = (
    "Serve the /v1 API (FastAPI + uvicorn): design jobs, and screenshot collections of the "
    "projects added with `shotsmith projects add`. State (SQLite), inputs and outputs live "
    "under --data-dir. API keys: `shotsmith keys create`, or SHOTSMITH_API_KEYS=k1,k2."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default=DEFAULT_HOST, help=f"bind address (default {DEFAULT_HOST})")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    options.data_dir(p, help="folder for the database, inputs and outputs (default ./data)")
    p.add_argument(
        "--base-url",
        default=None,
        help="public URL prefix of every returned URL (default http://HOST:PORT; "
        "for 0.0.0.0 the URL each request came in on)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help="rendering worker processes (default min(2, CPUs))",
    )
    options.no_ocr(p, help="do not OCR the screenshots (faster; captions from screen names only)")
    p.add_argument(
        "--capture-workers",
        type=int,
        default=1,
        help="processes capturing screenshot collections (default 1)",
    )
    p.add_argument(
        "--capture-timeout",
        type=float,
        default=60.0,
        help="seconds one collection's capture may take (default 60)",
    )
    _webhook_options(p)
    _request_limits(p)


def _webhook_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--webhook-allow-private",
        action="store_true",
        default=None,
        help="let webhooks go to loopback, private and link-local addresses (local "
        "development and tests only; also SHOTSMITH_WEBHOOK_ALLOW_PRIVATE=1)",
    )
    p.add_argument(
        "--webhook-timeout",
        type=float,
        default=10.0,
        help="seconds one webhook delivery may take in all (default and maximum 10)",
    )
    p.add_argument(
        "--retention-days",
        type=float,
        default=30.0,
        help="delete finished jobs and collections (rows and files) this many days after "
        "they finished (default 30; 0 keeps them forever)",
    )


def _request_limits(p: argparse.ArgumentParser) -> None:
    """How much the server accepts at once, and how slow a client may be."""
    p.add_argument(
        "--max-uploads",
        type=int,
        default=4,
        help="large request bodies (over 1 MiB) received at once; more get 503 with "
        "Retry-After (default 4)",
    )
    p.add_argument(
        "--max-uploads-per-key",
        type=int,
        default=None,
        help="of those, how many one API key may send at once; more get 429 with "
        "Retry-After (default half of --max-uploads)",
    )
    p.add_argument(
        "--body-timeout",
        type=float,
        default=600.0,
        help="seconds a whole request body may take to arrive (default 600)",
    )
    p.add_argument(
        "--min-body-rate",
        type=float,
        default=1024.0,
        help="bytes per second a request body must average after its first 5 s; slower "
        "clients get 408 and are disconnected (default 1024; 0: no minimum)",
    )
    p.add_argument(
        "--header-timeout",
        type=float,
        default=15.0,
        help="seconds a connection has to send complete request headers (default 15)",
    )
    p.add_argument(
        "--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"]
    )


def default_base_url(host: str, port: int) -> str | None:
    """http://HOST:PORT, or None (use each request's own URL) for a wildcard address."""
    if host in ("", "0.0.0.0", "::", "[::]"):
        return None
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}"


def env_api_keys() -> list[str]:
    return [k.strip() for k in os.environ.get("SHOTSMITH_API_KEYS", "").split(",") if k.strip()]


def env_flag(name: str) -> bool:
    value = os.environ.get(name, "").strip().lower()
    if value in ("", "0", "false", "no", "off"):
        return False
    if value in ("1", "true", "yes", "on"):
        return True
    raise InvalidOptionError(f"{name}={value!r}: use 1 (yes) or 0 (no).")


def run(args: argparse.Namespace) -> int:
    try:
        from ..server.app import create_app
        from ..server.serve import run
    except ImportError as exc:
        raise ToolMissingError(
            f"serve needs the server extras ({exc.name} is missing): "
            "pip install 'shotsmith[server]'."
        ) from exc
    if args.workers is not None and args.workers < 1:
        raise InvalidOptionError("--workers must be at least 1.")
    if args.capture_workers < 1:
        raise InvalidOptionError("--capture-workers must be at least 1.")
    if not args.capture_timeout > 0:
        raise InvalidOptionError("--capture-timeout must be more than 0 seconds.")
    if not 0 < args.webhook_timeout <= 10:
        raise InvalidOptionError("--webhook-timeout must be more than 0 and at most 10 seconds.")
    if args.retention_days < 0:
        raise InvalidOptionError("--retention-days must be 0 (keep forever) or more.")
    if args.max_uploads < 1:
        raise InvalidOptionError("--max-uploads must be at least 1.")
    if args.max_uploads_per_key is not None and not (
        1 <= args.max_uploads_per_key <= args.max_uploads
    ):
        raise InvalidOptionError("--max-uploads-per-key must be from 1 to --max-uploads.")
    if not 0 < args.body_timeout <= 86400:
        raise InvalidOptionError("--body-timeout must be more than 0 and at most 86400 seconds.")
    if args.min_body_rate < 0:
        raise InvalidOptionError("--min-body-rate must be 0 (no minimum) or more bytes/s.")
    if not 0 < args.header_timeout <= 300:
        raise InvalidOptionError("--header-timeout must be more than 0 and at most 300 seconds.")
    allow_private = args.webhook_allow_private or env_flag("SHOTSMITH_WEBHOOK_ALLOW_PRIVATE")
    logging.basicConfig(
        level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    base_url = args.base_url or default_base_url(args.host, args.port)
    app = create_app(
        args.data_dir,
        base_url,
        env_api_keys(),
        args.workers,
        design_options={"ocr": False} if args.no_ocr else None,
        capture_workers=args.capture_workers,
        capture_timeout=args.capture_timeout,
        webhook_timeout=args.webhook_timeout,
        webhook_allow_private=allow_private,
        server_address=(args.host, args.port),
        retention_days=args.retention_days,
        max_uploads=args.max_uploads,
        max_uploads_per_key=args.max_uploads_per_key,
        body_timeout=args.body_timeout,
        min_body_rate=args.min_body_rate,
    )
    app.state.server.lock_data_dir()  # fail here, cleanly, if another server has the dir
    print(
        f"shotsmith serve: http://{args.host}:{args.port} (base URL "
        f"{base_url or 'from each request'}), data dir {args.data_dir.resolve()}"
        + (", webhooks to private addresses allowed" if allow_private else ""),
        file=sys.stderr,
        flush=True,
    )
    run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        header_timeout=args.header_timeout,
    )
    return 0
