"""``shotsmith serve``, ``shotsmith keys ...`` and ``shotsmith submit`` (``shotsmith
projects ...`` is in :mod:`.projects`).

Environment (read here, at the edge): ``SHOTSMITH_API_KEYS`` (comma-separated keys the
server accepts besides those made with ``keys create``; each at least 16 characters),
``SHOTSMITH_WEBHOOK_ALLOW_PRIVATE=1`` (as ``serve --webhook-allow-private``),
``SHOTSMITH_API_KEY`` and ``SHOTSMITH_SERVER`` (defaults for ``submit``). Server
dependencies are imported only when a command needs them, so the ``shotsmith`` command
works without them.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

from ..errors import ShotsmithError

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8787
DEFAULT_DATA_DIR = Path("data")


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "serve",
        help="run the /v1 HTTP server (design jobs, collections)",
        description="Serve the /v1 API (FastAPI + uvicorn): design jobs, and "
        "screenshot collections of the projects added with "
        "`shotsmith projects add`. State (SQLite), inputs and "
        "outputs live under --data-dir. API keys: `shotsmith keys "
        "create`, or SHOTSMITH_API_KEYS=k1,k2.",
    )
    p.add_argument("--host", default=DEFAULT_HOST, help=f"bind address (default {DEFAULT_HOST})")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    p.add_argument(
        "--data-dir",
        type=Path,
        default=DEFAULT_DATA_DIR,
        help="folder for the database, inputs and outputs (default ./data)",
    )
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
    p.add_argument(
        "--no-ocr",
        action="store_true",
        help="do not OCR the screenshots (faster; captions from screen names only)",
    )
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
    p.add_argument(
        "--max-uploads",
        type=int,
        default=4,
        help="large request bodies (over 1 MiB) received at once; more get 503 with "
        "Retry-After (default 4)",
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
    p.set_defaults(func=_serve)

    keys = sub.add_parser(
        "keys",
        help="manage API keys of a server's data dir",
        description="API keys are stored as hashes in the data dir's "
        "database; a new key is printed once.",
    )
    ksub = keys.add_subparsers(dest="keys_command", required=True, metavar="ACTION")
    for name, helptext, func in (
        ("create", "create a key and print it (once)", _keys_create),
        ("list", "list keys (names and prefixes, never keys)", _keys_list),
        ("revoke", "revoke every active key with this name", _keys_revoke),
    ):
        kp = ksub.add_parser(name, help=helptext)
        kp.add_argument(
            "--data-dir",
            type=Path,
            default=DEFAULT_DATA_DIR,
            help="the server's data dir (default ./data)",
        )
        if name != "list":
            kp.add_argument("--name", required=True, help="a label for the key, e.g. ci")
        kp.set_defaults(func=func)

    s = sub.add_parser(
        "submit",
        help="send a folder of screenshots to a shotsmith server",
        description="POST a folder of raw PNG screenshots (names like "
        "01_home.png, or a manifest.json) as a design job.",
    )
    s.add_argument("folder", type=Path, help="folder of raw PNG screenshots")
    s.add_argument("--project-name", help="the app's name (default: manifest or folder name)")
    s.add_argument("--bundle-id", help="reverse-domain bundle id, e.g. com.example.app")
    s.add_argument("--webhook-url", help="URL to POST to when the job finishes")
    s.add_argument(
        "--server",
        default=os.environ.get("SHOTSMITH_SERVER", f"http://{DEFAULT_HOST}:{DEFAULT_PORT}"),
        help="server base URL (default $SHOTSMITH_SERVER or http://127.0.0.1:8787)",
    )
    s.add_argument("--api-key", default=None, help="API key (default $SHOTSMITH_API_KEY)")
    s.add_argument("--wait", action="store_true", help="wait until the job finishes")
    s.add_argument(
        "--out", type=Path, default=None, help="download the PNGs here when done (implies --wait)"
    )
    s.add_argument(
        "--timeout", type=float, default=600.0, help="seconds to wait with --wait (default 600)"
    )
    s.set_defaults(func=_submit)


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
    raise ShotsmithError(f"{name}={value!r}: use 1 (yes) or 0 (no).")


def _serve(args: argparse.Namespace) -> int:
    try:
        from .app import create_app
        from .serve import run
    except ImportError as exc:
        raise ShotsmithError(
            f"serve needs the server extras ({exc.name} is missing): "
            "pip install 'shotsmith[server]'."
        ) from exc
    if args.workers is not None and args.workers < 1:
        raise ShotsmithError("--workers must be at least 1.")
    if args.capture_workers < 1:
        raise ShotsmithError("--capture-workers must be at least 1.")
    if not args.capture_timeout > 0:
        raise ShotsmithError("--capture-timeout must be more than 0 seconds.")
    if not 0 < args.webhook_timeout <= 10:
        raise ShotsmithError("--webhook-timeout must be more than 0 and at most 10 seconds.")
    if args.retention_days < 0:
        raise ShotsmithError("--retention-days must be 0 (keep forever) or more.")
    if args.max_uploads < 1:
        raise ShotsmithError("--max-uploads must be at least 1.")
    if not 0 < args.header_timeout <= 300:
        raise ShotsmithError("--header-timeout must be more than 0 and at most 300 seconds.")
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


def _keys_create(args: argparse.Namespace) -> int:
    from .store import Store

    store = Store(args.data_dir)
    try:
        key = store.create_key(args.name)
    finally:
        store.close()
    print(key)
    print(
        f"API key {args.name!r} created in {store.data_dir}. It is shown only this once: "
        "store it now.",
        file=sys.stderr,
    )
    return 0


def _keys_list(args: argparse.Namespace) -> int:
    from .store import Store

    store = Store(args.data_dir)
    try:
        keys = store.list_keys()
    finally:
        store.close()
    if not keys:
        print(
            f"no API keys in {store.data_dir}; create one with `shotsmith keys create`.",
            file=sys.stderr,
        )
    for k in keys:
        state = f"revoked {k.revoked_at}" if k.revoked_at else "active"
        print(f"{k.name}\t{k.prefix}...\tcreated {k.created_at}\t{state}")
    return 0


def _keys_revoke(args: argparse.Namespace) -> int:
    from .store import Store

    store = Store(args.data_dir)
    try:
        count = store.revoke_keys(args.name)
    finally:
        store.close()
    if not count:
        raise ShotsmithError(f"no active API key named {args.name!r} in {store.data_dir}.")
    print(f"revoked {count} key(s) named {args.name!r}.", file=sys.stderr)
    return 0


def _submit(args: argparse.Namespace) -> int:
    from ..client import Client
    from ..io import read_screenshots

    api_key = args.api_key or os.environ.get("SHOTSMITH_API_KEY")
    if not api_key:
        raise ShotsmithError("give --api-key or set SHOTSMITH_API_KEY.")
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
