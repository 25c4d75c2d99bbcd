"""The projects screenshot collections are made of, and the check of a new one.

A project is registered by the server's operator in the data dir's database (the
server need not be stopped: it reads projects per request). Projects are server-wide:
every API key can create collections of every project; each collection belongs to the
key that created it. A project's source is either a web app URL (explored in Chromium
at each device size) or a folder of screenshots simulators produced (fastlane
snapshot/screengrab or a flat folder), read again for every collection.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

from ..addresses import host_refusal
from ..errors import InvalidOptionError
from ..ids import BUNDLE_ID as _BUNDLE_ID
from ..ids import LOCALE as _LOCALE
from ..locales import normalize_locale

PROJECT_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"

_PROJECT_ID = re.compile(PROJECT_ID_PATTERN)


def check_project(
    project_id: str,
    name: str,
    platforms: list[str] | None,
    locale: str,
    url: str | None,
    source_dir: Path | None,
    bundle_id: str,
    max_screens: int,
    *,
    allow_private: bool = False,
) -> dict:
    """The project's fields, checked and normalised; ShotsmithError says what to fix.

    A capture URL is a page the server's browser opens, so by default it must not point
    at this machine or a private network (:func:`shotsmith.addresses.host_refusal`: the
    cloud metadata service, loopback, private addresses, in every spelling);
    ``allow_private`` (``--allow-private``) lifts that for local development."""
    from ..stages.capture import capture_report

    if not _PROJECT_ID.match(project_id or ""):
        raise InvalidOptionError(
            f"--id {project_id!r}: use 1-64 letters, digits, '.', '_' or '-', "
            "starting with a letter or digit (it appears in URLs)."
        )
    name = (name or "").strip()
    if not name or len(name) > 200:
        raise InvalidOptionError("--name: give the app's name (1-200 characters).")
    plats = list(dict.fromkeys(platforms or ["ios"]))
    if not _LOCALE.match(locale or ""):
        raise InvalidOptionError(f"--locale {locale!r} is not a BCP 47 tag; use e.g. en-US.")
    locale = normalize_locale(locale)
    bundle_id = (bundle_id or "").strip()
    if bundle_id and not _BUNDLE_ID.match(bundle_id):
        raise InvalidOptionError(
            f"--bundle-id {bundle_id!r} is not in reverse-domain form, e.g. com.example.app."
        )
    if not 1 <= max_screens <= 10:
        raise InvalidOptionError("--max-screens must be between 1 and 10.")
    source_url = source_path = None
    if url is not None:
        parts = urlsplit(url.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise InvalidOptionError(
                f"--url {url!r} is not an absolute http(s) URL, e.g. http://127.0.0.1:8000/."
            )
        refusal = None if allow_private else host_refusal(parts.hostname)
        if refusal:
            raise InvalidOptionError(
                f"--url {url!r} may not point at {parts.hostname}: {refusal}. The capture "
                "browser opens only public web apps by default; for local development add "
                "the project with --allow-private (or SHOTSMITH_CAPTURE_ALLOW_PRIVATE=1)."
            )
        source_url = url.strip()
    elif source_dir is not None:
        folder = source_dir.expanduser().resolve()
        if not folder.is_dir():
            raise InvalidOptionError(f"--source-dir {source_dir}: no such folder.")
        # read it once now, so a wrong folder is found here rather than in every collection
        capture_report(folder, platforms=plats, locale=locale, max_screens=max_screens)
        source_path = str(folder)
    else:
        raise InvalidOptionError("give the app's source: --url URL or --source-dir DIR.")
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
