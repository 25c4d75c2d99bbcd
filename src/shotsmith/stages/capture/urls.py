"""URLs as the explorer sees them: normalised, by origin, and by page *template*.

``/items/17?sort=name`` and ``/items/4`` are one template (id-like segments as ``:id``,
the query dropped unless it routes), so a set shows breadth rather than one table twice.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from .rules import rules


def normalize_url(url: str) -> str:
    """Scheme/host lower-case, default port dropped, plain #anchors dropped (#/routes kept)."""
    parts = urlsplit(str(url))
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    try:
        port = parts.port
    except ValueError:
        port = None
    netloc = (
        host
        if port is None or (scheme, port) in (("http", 80), ("https", 443))
        else f"{host}:{port}"
    )
    if parts.username:
        netloc = f"{parts.username}@{netloc}"
    frag = parts.fragment if parts.fragment.startswith(("/", "!")) else ""
    return urlunsplit((scheme, netloc, parts.path or "/", parts.query, frag))


def origin_of(url: str) -> str:
    p = urlsplit(normalize_url(url))
    return f"{p.scheme}://{p.netloc}"


def route_of(url: str) -> str:
    """The path (and #/route) a user would recognise: '/budgets.html', '/#/goals'."""
    p = urlsplit(str(url))
    route = p.path or "/"
    if p.query:
        route += "?" + p.query
    if p.fragment:
        route += "#" + p.fragment
    return route


def _route_path(url: str) -> str:
    p = urlsplit(str(url))
    if p.fragment.startswith(("/", "!")):  # a #/route, without its own ?query
        return p.path.rstrip("/") + "/#/" + p.fragment.lstrip("/!").split("?", 1)[0]
    return p.path or "/"


_UUID = re.compile(r"[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}", re.I)

_HEX = re.compile(r"[0-9a-f]{12,}", re.I)

_TOKEN = re.compile(r"[A-Za-z0-9_-]{20,}")


def is_id_like(segment: str) -> bool:
    """A path segment that names one record: a number, UUID, hash or a slug with digits."""
    seg = segment.strip()
    if not seg:
        return False
    stem = re.sub(r"\.(html?|php|aspx?|jsp)$", "", seg, flags=re.I)
    if stem.isdigit() or _UUID.fullmatch(stem) or _HEX.fullmatch(stem):
        return True
    if _TOKEN.fullmatch(stem) and re.search(r"\d", stem) and re.search(r"[A-Za-z]", stem):
        return True
    # a slug with digits ("trail-42", "2024-11-03", "item7"), not a word such as "v2api"
    return bool(re.search(r"\d", stem)) and bool(re.fullmatch(r"[\w.~%+-]+", stem))


def template_key(url: str, collections: Mapping[str, set[str]] | None = None) -> str:
    """The page template a URL shows: the path with id-like segments as ``:id``, no query.

    ``collections`` maps a parent path to the child segments seen linked from list
    content (``/recipes`` -> {"pad-thai", "tomato-soup", ...}); once a parent collects
    three or more, its children are one template (``/recipes/:name``). Query keys that
    route rather than filter (``?module=settings``, see ``route_query_keys``) are kept.
    """
    p = urlsplit(str(url))
    segs = [s for s in _route_path(url).split("/") if s]
    out = [":id" if is_id_like(s) else s.lower() for s in segs]
    if collections and len(out) >= 2 and out[-1] != ":id" and out[-2] != "#":
        parent = "/" + "/".join(out[:-1])
        if len(collections.get(parent, ())) >= 3:
            out[-1] = ":name"
    keys = set(rules()["route_query_keys"])
    query = sorted(
        (k.lower(), v.lower())
        for k, v in parse_qsl(p.query, keep_blank_values=True)
        if k.lower() in keys and v and not is_id_like(v)
    )
    key = "/" + "/".join(out)
    if query:
        key += "?" + "&".join(f"{k}={v}" for k, v in query)
    return key


def share_prefix(url_a: str, url_b: str) -> bool:
    """Both paths go below one common, non-root folder (``/detail/x`` and ``/detail/@s/y``)."""
    a = [s for s in _route_path(url_a).split("/") if s]
    b = [s for s in _route_path(url_b).split("/") if s]
    common = 0
    while common < min(len(a), len(b)) and a[common].lower() == b[common].lower():
        common += 1
    return common >= 1 and len(a) > common and len(b) > common


def collection_of(url: str) -> tuple[str, str] | None:
    """(parent path, child segment) of a URL linked from list content, for template_key."""
    segs = [s for s in _route_path(url).split("/") if s]
    if len(segs) < 2 or segs[-2] == "#":
        return None
    out = [":id" if is_id_like(s) else s.lower() for s in segs]
    if out[-1] == ":id":
        return None
    return "/" + "/".join(out[:-1]), out[-1]


def file_extension(url: str) -> str:
    """The file extension of a URL's path ('json' for /api/items.json), '' if none."""
    last = urlsplit(str(url)).path.rsplit("/", 1)[-1]
    return last.rsplit(".", 1)[-1].lower() if "." in last else ""


def is_sign_in_route(url: str, *, account: bool = False) -> bool:
    """A URL whose path names a sign-in page (``account``: or another page of that flow)."""
    table = rules()["sign_in"]
    words = set(table["route_words"]) | (set(table["account_route_words"]) if account else set())
    segs = [s.lower() for s in re.split(r"[/#?&=.]+", urlsplit(str(url)).path) if s]
    segs += [s.lower() for s in re.split(r"[/#?&=.]+", urlsplit(str(url)).fragment) if s]
    return any(s in words for s in segs)
