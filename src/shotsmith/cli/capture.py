"""``shotsmith capture``: raw screenshots of a web app, or a simulator folder checked."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

from .. import columns as C
from ..locales import DEFAULT_LOCALE
from ..stages.capture.devices import PLATFORMS
from . import options

HELP = "capture raw screenshots of a web app (URL) or check a screenshot folder"
DESCRIPTION = (
    "Capture raw screenshots: explore a web app in Chromium at each device size, or read a "
    "fastlane snapshot/screengrab/flat folder, and write NN_<screen>.png plus a "
    "manifest.json that `shotsmith design` reads."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    _add_what_to_capture(p)
    _add_write_guards(p)
    _add_run_options(p)


def _add_what_to_capture(p: argparse.ArgumentParser) -> None:
    """The source, the output folder, the devices, the locale, the limits and the app."""
    p.add_argument("source", help="web app URL (http://...) or folder of screenshots")
    p.add_argument("--out", type=Path, required=True, help="output folder")
    p.add_argument(
        "--platform",
        action="append",
        choices=PLATFORMS,
        dest="platforms",
        help="ios (default) and/or android; repeat for both",
    )
    p.add_argument(
        "--size",
        action="append",
        nargs="+",
        dest="sizes",
        metavar="SIZE",
        help="device size in inches: 6.9 (default), 6.5, 6.3, 6.1, 5.5, 13, 11; "
        "android 6.3 (default), 6.7; qualify as android:6.3",
    )
    p.add_argument("--ipad", action="store_true", help='the app supports iPad: add 13"')
    p.add_argument(
        "--locale", default=DEFAULT_LOCALE, help=f"browser locale (default {DEFAULT_LOCALE})"
    )
    p.add_argument("--max-screens", type=int, default=6, help="screens per device (default 6)")
    p.add_argument("--timeout", type=float, default=60, help="overall time limit, seconds")
    options.identity(p, name_help="the app's name (default: from the pages' titles)")
    p.add_argument("--no-status-bar", action="store_true", help="do not draw a status bar")


def _add_write_guards(p: argparse.ArgumentParser) -> None:
    """What a press may send and which origins may load (by default: nothing, the app's own)."""
    p.add_argument(
        "--allow-forms",
        action="store_true",
        help="allow pressing submit buttons (what they send is still blocked unless "
        "--allow-writes / --allow-write lets it through)",
    )
    p.add_argument(
        "--allow-writes",
        action="store_true",
        help="let every POST/PUT/PATCH/DELETE (and WebSocket message) a press causes "
        "through; by default they are blocked, so capture cannot change the app's data",
    )
    p.add_argument(
        "--allow-write",
        action="append",
        default=[],
        metavar="PATTERN",
        help="let writes to matching URLs through (a glob such as '*/api/search', or a "
        "regex as 're:/graphql$'); repeat for several",
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        dest="allow_origins",
        metavar="ORIGIN",
        help="let another origin load (https://cdn.example.com); by default only the app's "
        "own origin does; repeat for several",
    )


def _add_run_options(p: argparse.ArgumentParser) -> None:
    """How many screens must come out, signing in, a video and the browser to drive."""
    p.add_argument(
        "--min-screens",
        type=int,
        default=3,
        metavar="N",
        help="exit non-zero when a web capture gives fewer than N usable screens (default 3, "
        "at most --max-screens; 0 never fails)",
    )
    p.add_argument(
        "--login",
        metavar="USER:PASSWORD",
        help="sign in with the app's own sign-in form first (once); USER alone takes the "
        "password from $SHOTSMITH_LOGIN_PASSWORD",
    )
    p.add_argument(
        "--storage-state",
        metavar="FILE",
        type=Path,
        help="start from a Playwright storage state saved after signing in "
        "(context.storage_state(path=FILE))",
    )
    p.add_argument(
        "--video",
        action="store_true",
        help="also record the exploration and write OUT/video/app-preview.mp4 (App Store, "
        "886x1920) and OUT/video/play-promo.mp4 (Google Play, 1080x1920): H.264, 30 fps, "
        "15-30 s, silent stereo audio; needs ffmpeg",
    )
    p.add_argument(
        "--browser",
        default=os.environ.get("SHOTSMITH_CHROMIUM"),
        help="Chromium executable (default: $SHOTSMITH_CHROMIUM or system chromium)",
    )


def run(args: argparse.Namespace) -> int:
    from ..errors import InvalidOptionError
    from ..settings import current
    from ..stages.capture.stage import capture_report, log

    if args.min_screens < 0:
        raise InvalidOptionError(f"--min-screens must be 0 or more, got {args.min_screens}")

    sizes = [s for group in (args.sizes or []) for s in group] or None
    login: str | tuple[str, str] | None = args.login
    password = current().login_password
    if args.login and ":" not in args.login and password:
        login = (args.login, password)  # USER alone: the password from the settings
    if not log.handlers:  # the notes are printed below; the library's warnings need not be
        log.addHandler(logging.NullHandler())
    report = capture_report(
        args.source,
        platforms=args.platforms,
        device_sizes=sizes,
        locale=args.locale,
        max_screens=args.max_screens,
        timeout_s=args.timeout,
        project_name=args.project_name,
        bundle_id=args.bundle_id,
        status_bar=not args.no_status_bar,
        allow_forms=args.allow_forms,
        supports_ipad=args.ipad,
        out_dir=args.out,
        browser_path=args.browser,
        progress=True,
        login=login,
        storage_state=args.storage_state,
        allow_writes=args.allow_writes,
        allow_write=args.allow_write,
        allow_origins=args.allow_origins,
        video=args.video,
    )
    frame = report.frame
    print(f"{frame[C.PROJECT_NAME].iloc[0]}: {len(frame)} screenshot(s) in {report.seconds:.1f} s")
    for _, row in frame.iterrows():
        print(f"  {row[C.IMAGE]}  {row[C.IMAGE_WIDTH]}x{row[C.IMAGE_HEIGHT]}  {row[C.SCREEN]!r}")
    for store, path in report.videos.items():
        what = "App Store app preview" if store == "app_store" else "Google Play promo clip"
        print(f"  {path}  {what}")
    # what happened, on stderr: visited, stopped, skipped and rejected, blocked, notes
    print("shotsmith capture: " + report.summary(), file=sys.stderr)
    web = bool(report.network)  # a folder is checked, not explored: nothing to fall short of
    wanted = min(args.min_screens, args.max_screens)
    problem = report.too_few(wanted) if web else ""
    if problem:
        print(f"shotsmith capture: {problem}", file=sys.stderr)
        return 2
    return 0
