"""What the web-app explorer decides about pages, without a browser.

:mod:`shotsmith.capture_explore` drives Chromium; this module holds the judgement it
applies to what it sees, as plain functions a test can call directly:

* the rules (``data/capture/rules.json``): what never to press, which responses are not
  web pages, what an error page or a sign-in wall reads like. One copy, read here and
  handed to the in-page scripts (``data/capture/*.js``);
* URLs: normalisation, and the *template* a URL belongs to (``/items/17?sort=name`` and
  ``/items/4`` are one template), so a set shows breadth rather than one table twice;
* verdicts on a page (not HTML, an error page, a sign-in wall, a blank page);
* perceptual hashes, the kind of screen (list, detail, search, settings...), the ranking
  a marketer would choose, and the screens' names.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any
from urllib.parse import parse_qsl, urlsplit, urlunsplit

import numpy as np
from PIL import Image

DHASH_SIDE = 16  # 16x16 = 256-bit difference hash
DUPLICATE_DHASH = 14  # Hamming distance (of 256) at or below which two screens look the same
DUPLICATE_PHASH = 8  # ... and of the 64-bit DCT hash
PER_TEMPLATE = 2  # at most this many screens of one page template in a set

# --- rules and in-page scripts (package data, loaded once) ----------------------------


@cache
def rules() -> dict[str, Any]:
    """``data/capture/rules.json``: the explorer's word lists and selectors."""
    text = resources.files("shotsmith").joinpath("data/capture/rules.json").read_text("utf-8")
    return json.loads(text)


@cache
def script(name: str) -> str:
    """One in-page script from ``data/capture/<name>.js`` (a JS function expression)."""
    return resources.files("shotsmith").joinpath(f"data/capture/{name}.js").read_text("utf-8")


def risky_phrases(*categories: str) -> list[str]:
    """Labels never to press, from the named categories of ``risky_labels`` (all if none)."""
    table = rules()["risky_labels"]
    names = categories or tuple(k for k in table if k != "about")
    return [phrase for name in names for phrase in table[name]]


#: link texts never followed even though a link is a GET: they read as destroying
#: data, spending money or ending the session
LINK_RISK_CATEGORIES = ("destroys", "money", "session")


def words_pattern(phrases: Iterable[str]) -> re.Pattern[str]:
    """Whole-word, case-insensitive match of any phrase; a space also matches -, _ or nothing."""
    parts = [r"[\s_-]*".join(re.escape(w) for w in p.split()) for p in phrases if p.strip()]
    if not parts:
        return re.compile(r"(?!)")
    return re.compile(r"(?<![\w])(?:" + "|".join(parts) + r")(?![\w])", re.I)


@cache
def _risky_link() -> re.Pattern[str]:
    return words_pattern(risky_phrases(*LINK_RISK_CATEGORIES))


@cache
def _risky_label() -> re.Pattern[str]:
    return words_pattern(risky_phrases())


def is_risky_label(label: str) -> bool:
    """Would pressing a control with this label change the user's data, money or session?"""
    return bool(_risky_label().search(str(label or "")))


@cache
def _risky_href() -> re.Pattern[str]:
    words = sorted({re.sub(r"[-_]", "", w.lower()) for w in rules()["risky_href_words"]})
    return re.compile(r"(?<![a-z])(?:" + "|".join(map(re.escape, words)) + r")(?![a-z])")


def is_risky_link(href: str, text: str = "") -> bool:
    """A link never to follow: its path or its text reads as a destructive action."""
    path = re.sub(r"[-_]", "", urlsplit(str(href)).path.lower())
    if _risky_href().search(path):
        return True
    return bool(text and _risky_link().search(str(text)))


def is_language_link(href: str) -> bool:
    """A link that switches the app's interface language (/lang/de, ?lang=de, /i18n/setlang)."""
    table = rules()["language_links"]
    parts = urlsplit(str(href))
    segs = [s.lower() for s in parts.path.split("/") if s]
    if any(s in table["path_words"] for s in segs[:-1]) or (
        segs and segs[-1] in ("setlang", "set_language", "set-language")
    ):
        return True
    return any(k.lower() in table["query_keys"] for k, _ in parse_qsl(parts.query))


def store_links(links: Iterable[Mapping[str, Any]]) -> int:
    """How many app stores a page links to (a "get our mobile app" page links to several)."""
    hosts = rules()["store_hosts"]
    found = set()
    for link in links:
        href = str(link.get("href", "")).lower()
        host_path = href.split("://", 1)[-1]
        for host in hosts:
            if host_path.startswith(host):
                found.add(host)
    return len(found)


# --- URLs -----------------------------------------------------------------------------


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


SAME_SHAPE = 0.75  # pages under one path prefix this alike in structure are one template


def shape_similarity(a: Mapping[str, int], b: Mapping[str, int]) -> float:
    """Weighted Jaccard of two pages' shapes (element counts per tag and first class)."""
    keys = set(a) | set(b)
    top = sum(max(a.get(k, 0), b.get(k, 0)) for k in keys)
    return sum(min(a.get(k, 0), b.get(k, 0)) for k in keys) / top if top else 0.0


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


# --- verdicts on a page -------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """Why a page is not a screen: the reason shown to the user, and its kind."""

    reason: str
    kind: str  # see Skipped.kind


def not_html(headers: Mapping[str, str]) -> Verdict | None:
    """A response that is not a web page: a download, JSON, text, CSV, an image..."""
    low = {str(k).lower(): str(v) for k, v in headers.items()}
    disposition = low.get("content-disposition", "")
    if disposition.lower().startswith("attachment"):
        m = re.search(r'filename\*?=(?:UTF-8\'\')?"?([^";]+)', disposition, re.I)
        name = f" ({m.group(1)})" if m else ""
        return Verdict(f"a file download{name}, not a page", "not-html")
    kind = low.get("content-type", "").split(";")[0].strip().lower()
    if kind and kind not in rules()["html_types"]:
        return Verdict(f"not a web page ({kind})", "not-html")
    return None


def _phrase_in(text: str, phrases: Iterable[str]) -> str:
    low = text.lower()
    for phrase in phrases:
        if re.search(r"(?<!\w)" + re.escape(phrase.lower()) + r"(?!\w)", low):
            return phrase
    return ""


def error_page(title: str, heading: str, text: str) -> Verdict | None:
    """A page that came with status 200 but shows an error (404, 500, a traceback)."""
    table = rules()["error_page"]
    head = f"{title}\n{heading}"
    found = _phrase_in(head, table["title_phrases"])
    words = len(text.split())
    if found and (words <= 4 * table["short_page_words"] or _phrase_in(heading, [found])):
        return Verdict(f"an error page ({found!r} in its title), not a screen", "error-page")
    found = _phrase_in(text, table["body_phrases"])
    if found:
        return Verdict(f"an error page (it says {found!r}), not a screen", "error-page")
    if words <= table["short_page_words"]:
        found = _phrase_in(text, table["short_phrases"])
        if found:
            return Verdict(
                f"an error page (a short page saying {found!r}), not a screen", "error-page"
            )
    return None


SIGN_IN_OTHER_WORDS = 80  # a password form is the page's main content below this many others


def is_sign_in_page(info: Mapping[str, Any], url: str = "") -> bool:
    """The page is a sign-in wall: its main content is a password form (or step one of one).

    One visible password field and few words besides the form's own; a settings page
    with a "change password" form (two or three password fields) is not a wall.
    """
    password = int(info.get("password") or 0)
    words = int(info.get("words") or 0)
    if password == 1:
        others = words - int(info.get("passwordWords") or 0)
        return others < SIGN_IN_OTHER_WORDS
    if url and is_sign_in_route(url, account=True):
        return words < SIGN_IN_OTHER_WORDS  # step one of a sign-in, a reset or sign-up page
    return False


def is_blank(image: Image.Image, words: int) -> bool:
    """No visible text and nearly one colour: a page that has not drawn anything."""
    if words > 0:
        return False
    g = np.asarray(image.convert("L").resize((64, 128), Image.BOX), dtype=np.int16)
    med = int(np.median(g))
    return bool((np.abs(g - med) <= 8).mean() >= 0.97)


# --- perceptual hashes ----------------------------------------------------------------


def _gray(image: Image.Image, size: tuple[int, int]) -> np.ndarray:
    return np.asarray(image.convert("L").resize(size, Image.BOX), dtype=np.float32)


def dhash(image: Image.Image, side: int = DHASH_SIDE) -> int:
    """Difference hash: side x side bits, each 'is this cell brighter than its right neighbour'."""
    g = _gray(image, (side + 1, side))
    bits = (g[:, 1:] > g[:, :-1]).flatten()
    return int("".join("1" if b else "0" for b in bits), 2)


_DCT_CACHE: dict[int, np.ndarray] = {}


def _dct_matrix(n: int) -> np.ndarray:
    if n not in _DCT_CACHE:
        k = np.arange(n)[:, None]
        i = np.arange(n)[None, :]
        m = np.cos(np.pi * (2 * i + 1) * k / (2 * n)) * np.sqrt(2 / n)
        m[0] /= np.sqrt(2)
        _DCT_CACHE[n] = m
    return _DCT_CACHE[n]


def phash(image: Image.Image) -> int:
    """DCT perceptual hash: 64 bits, low frequencies of a 32x32 thumbnail against their median."""
    g = _gray(image, (32, 32))
    d = _dct_matrix(32)
    coeffs = (d @ g @ d.T)[:8, :8].flatten()
    med = np.median(coeffs[1:])
    return int("".join("1" if c > med else "0" for c in coeffs), 2)


def hamming(a: int, b: int) -> int:
    return (a ^ b).bit_count()


def complexity(image: Image.Image) -> float:
    """Visual busyness 0..1: mean absolute gradient of a small grey thumbnail."""
    g = _gray(image, (72, 156)) / 255.0
    return float(np.abs(np.diff(g, axis=0)).mean() + np.abs(np.diff(g, axis=1)).mean())


# --- screens ----------------------------------------------------------------------------


@dataclass
class Screen:
    """One distinct screen: how to reach it and what it showed at the first device."""

    url: str  # normalised URL the screen lives at
    via: tuple[str, ...] = ()  # clickable keys to press after loading url (click states)
    via_label: str = ""
    title: str = ""
    h1: str = ""
    app_name: str = ""
    text: str = ""
    png: bytes = b""  # the page as the browser drew it (below the status-bar band)
    offset: int = 0  # px of the status-bar band above the page in the final image
    elements: list[dict[str, Any]] = field(default_factory=list)  # boxes in final-image px
    dhash: int = 0
    phash: int = 0
    complexity: float = 0.0
    depth: int = 0
    order: int = 0  # discovery order
    template: str = ""
    shape: dict[str, int] = field(default_factory=dict)  # element counts per tag.class
    sign_in: bool = False  # the page is a sign-in wall
    name: str = ""

    @property
    def words(self) -> int:
        return len(self.text.split())

    @property
    def kind(self) -> str:
        return screen_kind(self)


def looks_same(a: Screen, b: Screen) -> bool:
    return (
        hamming(a.dhash, b.dhash) <= DUPLICATE_DHASH
        and hamming(a.phash, b.phash) <= DUPLICATE_PHASH
    )


def screen_kind(screen: Screen) -> str:
    """What a marketer would call the screen: list, detail, search, settings, form, sign-in."""
    if screen.sign_in:
        return "sign-in"
    kinds = rules()["screen_kinds"]
    route = " ".join(re.split(r"[/#?&=._-]+", route_of(screen.url).lower()))
    words = f"{route} {screen.title.lower()} {screen.h1.lower()} {screen.via_label.lower()}"
    for kind in ("settings", "search"):
        if _phrase_in(words, kinds[kind]):
            return kind
    if any(
        e.get("role") == "input" and _phrase_in(str(e.get("text", "")), kinds["search"])
        for e in screen.elements
    ) and (screen.via or "q=" in screen.url or "query=" in screen.url):
        return "search"  # results of a query, or a search a press opened
    if _phrase_in(route + " " + screen.h1.lower(), kinds["form"]):
        return "form"
    if ":id" in screen.template or ":name" in screen.template:
        return "detail"
    items = sum(1 for e in screen.elements if e.get("role") == "listitem")
    if items >= 5:
        return "list"
    inputs = sum(1 for e in screen.elements if e.get("role") == "input")
    if inputs >= 3 and screen.words < 80:
        return "form"
    return "other"


def rank(screens: list[Screen]) -> list[Screen]:
    """The start page first, then greedily the screen a marketer would show next.

    Breadth first: a kind of screen not shown yet (list, detail, search, settings) and a
    page template not shown yet count most; then how distinct the screen looks from the
    chosen ones, how much it shows, and how directly it is reached. A sign-in form, when
    kept at all, comes last.
    """
    if len(screens) <= 1:
        return list(screens)
    order = rules()["screen_kinds"]["order"]
    preference = {k: 0.2 - 0.04 * i for i, k in enumerate(order)}
    first, rest = screens[0], list(screens[1:])
    max_words = max(s.words for s in screens) or 1
    max_cx = max(s.complexity for s in screens) or 1.0
    chosen = [first]
    while rest:
        kinds = {c.kind for c in chosen}
        templates = {c.template for c in chosen}

        def score(
            s: Screen, kinds: set[str] = kinds, templates: set[str] = templates
        ) -> tuple[float, int]:
            distinct = min(hamming(s.dhash, c.dhash) for c in chosen) / (DHASH_SIDE**2)
            kind = s.kind
            value = (
                0.45 * min(1.0, distinct * 2.5)
                + 0.35 * s.words / max_words
                + 0.20 * s.complexity / max_cx
                - 0.04 * max(0, s.depth - 1)
                - (0.2 if s.via else 0.0)
                + (0.3 if kind not in kinds else 0.0)
                + preference.get(kind, 0.0)
                - (0.35 if s.template in templates else 0.0)
                - (2.0 if s.sign_in else 0.0)
            )
            return value, -s.order

        best = max(rest, key=score)
        chosen.append(best)
        rest.remove(best)
    return chosen


# --- names --------------------------------------------------------------------------------

_SEPARATORS = re.compile(r"\s+[·|•—–-]\s+|\s*[|·•]\s*")
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


def title_parts(title: str) -> list[str]:
    return [p.strip() for p in _SEPARATORS.split(str(title)) if p.strip()]


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
