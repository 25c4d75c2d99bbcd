"""``shotsmith projects add|list|remove``: the projects screenshot collections are made of.

A project is registered by the server's operator in the data dir's database (the
server need not be stopped: it reads projects per request). Projects are server-wide:
every API key can create collections of every project; each collection belongs to the
key that created it. A project's source is either a web app URL (explored in Chromium
at each device size) or a folder of screenshots simulators produced (fastlane
snapshot/screengrab or a flat folder), read again for every collection.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from urllib.parse import urlsplit

from ..errors import ShotsmithError

PROJECT_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"
DEFAULT_DATA_DIR = Path("data")

_PROJECT_ID = re.compile(PROJECT_ID_PATTERN)
# the same rules as the API's (validation.py, which needs the server extras to import)
_LOCALE = re.compile(r"^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8}){0,3}$")
_BUNDLE_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]*(\.[A-Za-z0-9][A-Za-z0-9-]*)+$")


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "projects",
        help="manage the projects of a server's data dir",
        description="Projects are what screenshot collections "
        "(POST /v1/projects/{id}/screenshots) capture: a web app "
        "URL or a folder of simulator screenshots. They are "
        "server-wide (every API key sees every project).",
    )
    psub = p.add_subparsers(dest="projects_command", required=True, metavar="ACTION")

    a = psub.add_parser("add", help="register a project")
    a.add_argument(
        "--data-dir",
        type=Path,
        default=DEFAULT_DATA_DIR,
        help="the server's data dir (default ./data)",
    )
    a.add_argument(
        "--id",
        required=True,
        dest="project_id",
        help="identifier used in URLs: letters, digits, . _ - (at most 64)",
    )
    a.add_argument("--name", required=True, help='the app\'s name, e.g. "Pocket Budget"')
    a.add_argument(
        "--platform",
        action="append",
        dest="platforms",
        choices=("ios", "android"),
        help="ios (default) and/or android; repeat for both",
    )
    a.add_argument("--locale", default="en-US", help="primary locale (default en-US)")
    source = a.add_mutually_exclusive_group(required=True)
    source.add_argument("--url", help="web app to capture, http(s)://...")
    source.add_argument(
        "--source-dir", type=Path, help="folder of simulator screenshots (fastlane or flat)"
    )
    a.add_argument("--bundle-id", default="", help="reverse-domain bundle id, e.g. com.example.app")
    a.add_argument(
        "--max-screens",
        type=int,
        default=6,
        help="screenshots per device a collection captures (1-10, default 6)",
    )
    a.set_defaults(func=_add)

    ls = psub.add_parser("list", help="list projects")
    ls.add_argument(
        "--data-dir",
        type=Path,
        default=DEFAULT_DATA_DIR,
        help="the server's data dir (default ./data)",
    )
    ls.set_defaults(func=_list)

    rm = psub.add_parser("remove", help="remove a project and its collections")
    rm.add_argument(
        "--data-dir",
        type=Path,
        default=DEFAULT_DATA_DIR,
        help="the server's data dir (default ./data)",
    )
    rm.add_argument("--id", required=True, dest="project_id", help="the project's id")
    rm.set_defaults(func=_remove)


def check_project(
    project_id: str,
    name: str,
    platforms: list[str] | None,
    locale: str,
    url: str | None,
    source_dir: Path | None,
    bundle_id: str,
    max_screens: int,
) -> dict:
    """The project's fields, checked and normalised; ShotsmithError says what to fix."""
    from ..stages.capture import capture_report

    if not _PROJECT_ID.match(project_id or ""):
        raise ShotsmithError(
            f"--id {project_id!r}: use 1-64 letters, digits, '.', '_' or '-', "
            "starting with a letter or digit (it appears in URLs)."
        )
    name = (name or "").strip()
    if not name or len(name) > 200:
        raise ShotsmithError("--name: give the app's name (1-200 characters).")
    plats = list(dict.fromkeys(platforms or ["ios"]))
    if not _LOCALE.match(locale or ""):
        raise ShotsmithError(f"--locale {locale!r} is not a BCP 47 tag; use e.g. en-US.")
    locale = locale.replace("_", "-")
    bundle_id = (bundle_id or "").strip()
    if bundle_id and not _BUNDLE_ID.match(bundle_id):
        raise ShotsmithError(
            f"--bundle-id {bundle_id!r} is not in reverse-domain form, e.g. com.example.app."
        )
    if not 1 <= max_screens <= 10:
        raise ShotsmithError("--max-screens must be between 1 and 10.")
    source_url = source_path = None
    if url is not None:
        parts = urlsplit(url.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ShotsmithError(
                f"--url {url!r} is not an absolute http(s) URL, e.g. http://127.0.0.1:8000/."
            )
        source_url = url.strip()
    elif source_dir is not None:
        folder = source_dir.expanduser().resolve()
        if not folder.is_dir():
            raise ShotsmithError(f"--source-dir {source_dir}: no such folder.")
        # read it once now, so a wrong folder is found here rather than in every collection
        capture_report(folder, platforms=plats, locale=locale, max_screens=max_screens)
        source_path = str(folder)
    else:
        raise ShotsmithError("give the app's source: --url URL or --source-dir DIR.")
    return {
        "project_id": project_id,
        "name": name,
        "platforms": plats,
        "locale": locale,
        "source_url": source_url,
        "source_dir": source_path,
        "bundle_id": bundle_id,
        "max_screens": max_screens,
    }


def _add(args: argparse.Namespace) -> int:
    from .store import Store

    fields = check_project(
        args.project_id,
        args.name,
        args.platforms,
        args.locale,
        args.url,
        args.source_dir,
        args.bundle_id,
        args.max_screens,
    )
    store = Store(args.data_dir)
    try:
        project = store.add_project(**fields)
    finally:
        store.close()
    print(
        f"project {project.project_id!r} added: {project.name}, "
        f"{', '.join(project.platforms)}, {project.locale}, source {project.source}",
        file=sys.stderr,
    )
    print(project.project_id)
    return 0


def _list(args: argparse.Namespace) -> int:
    from .store import Store

    store = Store(args.data_dir)
    try:
        projects = store.list_projects()
    finally:
        store.close()
    if not projects:
        print(
            f"no projects in {store.data_dir}; add one with `shotsmith projects add`.",
            file=sys.stderr,
        )
    for p in projects:
        print(f"{p.project_id}\t{p.name}\t{','.join(p.platforms)}\t{p.locale}\t{p.source}")
    return 0


def _remove(args: argparse.Namespace) -> int:
    from .store import Store

    store = Store(args.data_dir)
    try:
        removed = store.remove_project(args.project_id)
    finally:
        store.close()
    if removed is None:
        raise ShotsmithError(f"no project {args.project_id!r} in {store.data_dir}.")
    print(f"project {args.project_id!r} removed, with {removed} collection(s).", file=sys.stderr)
    return 0
