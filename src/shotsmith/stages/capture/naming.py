"""Names: the app's, from its pages (a web-app meta tag, the title part every page
shares, else its host), and each screen's, short and lower case, from its title (minus
the app's name), its route or its main heading.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from ...words import title_parts
from .screens import Screen
from .urls import is_id_like

_GENERIC = {"index", "home page", "default", "main", "app", "untitled"}

_GENERIC_ROUTES = _GENERIC | {
    "home",
    "page",
    "view",
    "screen",
    "start",
    "welcome",
    "dashboard",
    "tab",
    "tabs",
    "app",
    "web",
    "mobile",
    "m",
    "www",
    "src",
    "dist",
    "public",
    "static",
    "build",
    "html",
}


def _clean_name(text: str, max_words: int = 4) -> str:
    text = re.sub(r"[^\w\s&'+]", " ", str(text).lower())
    words = text.split()
    if not words or len(words) > max_words:
        return ""
    name = " ".join(words)
    return name if len(name) <= 32 and name not in _GENERIC else ""


def app_name_from(screens: list[Screen]) -> str:
    """The app's name: a web-app meta tag, else the title part every page shares."""
    for s in screens:
        if s.app_name:
            return s.app_name
    parts = [title_parts(s.title) for s in screens if s.title]
    if len(parts) >= 2:
        common = set(parts[0]).intersection(*map(set, parts[1:]))
        if common:
            return next(p for p in parts[0] if p in common)
    if parts and len(parts[0]) >= 2:
        return parts[0][-1]
    return ""


def name_screens(screens: list[Screen], app_name: str = "") -> None:
    """Short lowercase names from title (minus the app's name), main heading, or route."""
    common = {app_name.lower()} if app_name else set()
    titles = [title_parts(s.title) for s in screens]
    if len(screens) >= 2:
        shared = set(titles[0]).intersection(*map(set, titles[1:])) if titles else set()
        common |= {p.lower() for p in shared}
    used: dict[str, int] = {}
    for i, s in enumerate(screens):
        own = [p for p in title_parts(s.title) if p.lower() not in common]
        candidates = []
        if s.sign_in:
            candidates.append("sign in")
        if s.via and s.via_label:
            candidates.append(s.via_label)
        route = _route_name(s.url)
        one_record = ":id" in s.template or ":name" in s.template  # name it by its title
        if (
            re.fullmatch(r"[a-z]+( [a-z]+)?", route)
            and route not in _GENERIC_ROUTES
            and not one_record
        ):
            candidates.append(route)  # developers name routes by what the screen is
        candidates += own[:1] + [s.h1, route]
        name = next((n for n in map(_clean_name, candidates) if n), "")
        if not name and i > 0 and s.kind in ("search", "settings", "list"):
            name = s.kind
        if not name:
            name = "home" if i == 0 else f"screen {i + 1}"
        if name in used:
            used[name] += 1
            name = f"{name} {used[name]}"
        else:
            used[name] = 1
        s.name = name


def _route_name(url: str) -> str:
    p = urlsplit(url)
    path = p.fragment.lstrip("/!") if p.fragment.startswith(("/", "!")) else p.path
    segs = [seg for seg in path.split("/") if seg and not is_id_like(seg)]
    if not segs:
        return ""
    last = re.sub(r"\.(html?|php|aspx?|jsp)$", "", segs[-1], flags=re.I)
    return re.sub(r"[-_.]+", " ", last)


def host_name(url: str) -> str:
    host = urlsplit(url).hostname or "web app"
    if re.fullmatch(r"[\d.]+|localhost|\[.*\]", host):
        return "Web App"
    label = host.split(".")[-2] if host.count(".") >= 1 else host
    return label.replace("-", " ").title()
