"""The explorer's rules, and the matchers built from them.

``data/capture/rules.json`` holds the word lists and selectors: what never to press,
which responses are not web pages, what an error page or a sign-in wall reads like, what
to clear off a page. One copy, read once here and handed to the in-page scripts
(``js/*.js``, loaded by :func:`script`) as arguments, so Python and JavaScript apply the
same lists. Phrases match case-insensitively as whole words.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from typing import Any
from urllib.parse import parse_qsl, urlsplit


@cache
def rules() -> dict[str, Any]:
    """``data/capture/rules.json``: the explorer's word lists and selectors."""
    text = resources.files("shotsmith").joinpath("data/capture/rules.json").read_text("utf-8")
    return json.loads(text)


_INCLUDE = re.compile(r"^[ \t]*// @include ([\w.-]+\.js)[ \t]*\n", re.M)


@cache
def script(name: str) -> str:
    """One in-page script, ``js/<name>.js`` beside this module (a JS function expression).

    A line ``// @include dom.js`` is replaced by that file's code (its leading comment
    lines left out): the helpers several scripts share are written once.
    """
    return _INCLUDE.sub(lambda m: _js_code(m.group(1)), _js_file(f"{name}.js"))


def _js_file(file_name: str) -> str:
    return resources.files(__package__).joinpath(f"js/{file_name}").read_text("utf-8")


def _js_code(file_name: str) -> str:
    lines = _js_file(file_name).splitlines(keepends=True)
    while lines and lines[0].startswith("//"):
        lines.pop(0)
    return "".join(lines)


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


@cache
def _href_action_words() -> frozenset[str]:
    return frozenset(w.lower() for w in rules()["risky_href_action_words"])


def is_risky_link(href: str, text: str = "") -> bool:
    """A link never to follow: its path or its text reads as a destructive action.

    A path word that is an action (``/refresh_all_stats``, ``/cache/purge``, ``/sync``)
    counts wherever it stands: apps do write on such a GET, so to a capture the link is a
    button.
    """
    raw = urlsplit(str(href)).path
    path = re.sub(r"[-_]", "", raw.lower())
    if _risky_href().search(path):
        return True
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", raw).lower()
    if _href_action_words() & set(re.findall(r"[a-z]+", spaced)):
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


def phrase_in(text: str, phrases: Iterable[str]) -> str:
    low = text.lower()
    for phrase in phrases:
        if re.search(r"(?<!\w)" + re.escape(phrase.lower()) + r"(?!\w)", low):
            return phrase
    return ""
