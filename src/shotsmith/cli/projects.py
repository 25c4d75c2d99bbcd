"""``shotsmith projects add|list|remove``: the projects a server's collections capture.

A project is registered by the server's operator in the data dir's database (the server
need not be stopped: it reads projects per request). Projects are server-wide: every API
key can create collections of every project; each collection belongs to the key that
created it. A project's source is a web app URL (explored in Chromium at each device size)
or a folder of screenshots simulators produced (fastlane snapshot/screengrab or a flat
folder), read again for every collection.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import NotFoundError
from ..locales import DEFAULT_LOCALE
from ..server.projects import check_project
from . import options
from .output import print_lines
from .serve import env_flag

HELP = "manage the projects of a server's data dir"
DESCRIPTION = (
    "Projects are what screenshot collections (POST /v1/projects/{id}/screenshots) capture: "
    "a web app URL or a folder of simulator screenshots. They are server-wide (every API "
    "key sees every project)."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    actions = p.add_subparsers(dest="projects_command", required=True, metavar="ACTION")

    a = actions.add_parser("add", help="register a project")
    options.data_dir(a)
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
    a.add_argument(
        "--locale", default=DEFAULT_LOCALE, help=f"primary locale (default {DEFAULT_LOCALE})"
    )
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
    a.add_argument(
        "--allow-private",
        action="store_true",
        default=None,
        help="let --url point at loopback, private or link-local addresses (local "
        "development and tests only; also SHOTSMITH_CAPTURE_ALLOW_PRIVATE=1)",
    )
    a.set_defaults(action=_add)

    ls = actions.add_parser("list", help="list projects")
    options.data_dir(ls)
    ls.set_defaults(action=_list)

    rm = actions.add_parser("remove", help="remove a project and its collections")
    options.data_dir(rm)
    rm.add_argument("--id", required=True, dest="project_id", help="the project's id")
    rm.set_defaults(action=_remove)


def run(args: argparse.Namespace) -> int:
    return args.action(args)


def _add(args: argparse.Namespace) -> int:
    from ..server.store import Store

    fields = check_project(
        args.project_id,
        args.name,
        args.platforms,
        args.locale,
        args.url,
        args.source_dir,
        args.bundle_id,
        args.max_screens,
        allow_private=bool(args.allow_private or env_flag("SHOTSMITH_CAPTURE_ALLOW_PRIVATE")),
    )
    with Store(args.data_dir) as store:
        project = store.add_project(**fields)
    print(
        f"project {project.project_id!r} added: {project.name}, "
        f"{', '.join(project.platforms)}, {project.locale}, source {project.source}",
        file=sys.stderr,
    )
    print(project.project_id)
    return 0


def _list(args: argparse.Namespace) -> int:
    from ..server.store import Store

    with Store(args.data_dir) as store:
        projects = store.list_projects()
    print_lines(
        [
            f"{p.project_id}\t{p.name}\t{','.join(p.platforms)}\t{p.locale}\t{p.source}"
            for p in projects
        ],
        f"no projects in {store.data_dir}; add one with `shotsmith projects add`.",
    )
    return 0


def _remove(args: argparse.Namespace) -> int:
    from ..server.store import Store

    with Store(args.data_dir) as store:
        removed = store.remove_project(args.project_id)
    if removed is None:
        raise NotFoundError(f"no project {args.project_id!r} in {store.data_dir}.")
    print(f"project {args.project_id!r} removed, with {removed} collection(s).", file=sys.stderr)
    return 0
