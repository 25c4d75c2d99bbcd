"""``shotsmith keys create|list|revoke``: the API keys of a server's data dir.

Keys are stored as hashes in the data dir's database; a new key is printed once.
"""

from __future__ import annotations

import argparse
import sys

from ..errors import NotFoundError
from . import options
from .output import print_lines

HELP = "manage API keys of a server's data dir"
DESCRIPTION = "API keys are stored as hashes in the data dir's database; a new key is printed once."


def add_arguments(p: argparse.ArgumentParser) -> None:
    actions = p.add_subparsers(dest="keys_command", required=True, metavar="ACTION")
    for name, helptext, func in (
        ("create", "create a key and print it (once)", _keys_create),
        ("list", "list keys (names and prefixes, never keys)", _keys_list),
        ("revoke", "revoke every active key with this name", _keys_revoke),
    ):
        action = actions.add_parser(name, help=helptext)
        options.data_dir(action)
        if name != "list":
            action.add_argument("--name", required=True, help="a label for the key, e.g. ci")
        action.set_defaults(action=func)


def run(args: argparse.Namespace) -> int:
    return args.action(args)


def _keys_create(args: argparse.Namespace) -> int:
    from ..server.store import Store

    with Store(args.data_dir) as store:
        key = store.create_key(args.name)
    print(key)
    print(
        f"API key {args.name!r} created in {store.data_dir}. It is shown only this once: "
        "store it now.",
        file=sys.stderr,
    )
    return 0


def _keys_list(args: argparse.Namespace) -> int:
    from ..server.store import Store

    with Store(args.data_dir) as store:
        keys = store.list_keys()
    print_lines(
        [
            f"{k.name}\t{k.prefix}...\tcreated {k.created_at}\t"
            + (f"revoked {k.revoked_at}" if k.revoked_at else "active")
            for k in keys
        ],
        f"no API keys in {store.data_dir}; create one with `shotsmith keys create`.",
    )
    return 0


def _keys_revoke(args: argparse.Namespace) -> int:
    from ..server.store import Store

    with Store(args.data_dir) as store:
        count = store.revoke_keys(args.name)
    if not count:
        raise NotFoundError(f"no active API key named {args.name!r} in {store.data_dir}.")
    print(f"revoked {count} key(s) named {args.name!r}.", file=sys.stderr)
    return 0
