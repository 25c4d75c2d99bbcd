"""What a capture finds: screens, their photos at each device, what it left out, and the
order a marketer would show the screens in.

:func:`screen_kind` says what a screen is (list, detail, search, settings, form,
sign-in); :func:`rank` puts the start page first, then prefers breadth: a kind and a
page template not shown yet, a distinct look, more content.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .rules import phrase_in, rules
from .similarity import DHASH_SIDE, hamming
from .urls import route_of

PER_TEMPLATE = 2  # at most this many screens of one page template in a set


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


@dataclass
class Skipped:
    """A page or action the explorer did not capture, and why."""

    url: str
    reason: str
    # "error" | "http" | "timeout" | "duplicate" | "other-origin" | "budget" | "form" |
    # "size" | "not-html" | "error-page" | "blank" | "transient" | "template" | "sign-in" |
    # "write" (a press tried to write) | "action" (controls not pressed) | "near-empty" |
    # "warning-page" | "empty-state" | "desktop-layout" (a desktop page at a phone's width) |
    # "loading" (still loading when judged) | "about-page" | "bare-form" (only a form)
    kind: str
    device: str = ""

    def __str__(self) -> str:
        return f"{self.url}: {self.reason}"


@dataclass
class Shot:
    """One chosen screen photographed at one device."""

    png: bytes  # the page as drawn, below a band of ``offset`` px
    text: str
    offset: int = 0
    elements: list[dict[str, Any]] = field(default_factory=list)
    url: str = ""
    title: str = ""


@dataclass
class ExploreResult:
    screens: list[Screen]  # ranked, start page first
    skipped: list[Skipped] = field(default_factory=list)
    visited: int = 0
    clicks: int = 0
    sign_in_url: str = ""  # where the app asked for a sign-in it did not get ("" if never)
    notes: list[str] = field(default_factory=list)
    stopped: str = ""  # why exploring ended (a budget, nothing more to follow, ...)
    # each control pressed: {"page", "control", "kind", "outcome"} (what was explored)
    pressed: list[dict[str, str]] = field(default_factory=list)


def screen_kind(screen: Screen) -> str:
    """What a marketer would call the screen: list, detail, search, settings, form, sign-in."""
    if screen.sign_in:
        return "sign-in"
    kinds = rules()["screen_kinds"]
    route = " ".join(re.split(r"[/#?&=._-]+", route_of(screen.url).lower()))
    words = f"{route} {screen.title.lower()} {screen.h1.lower()} {screen.via_label.lower()}"
    for kind in ("settings", "search"):
        if phrase_in(words, kinds[kind]):
            return kind
    if any(
        e.get("role") == "input" and phrase_in(str(e.get("text", "")), kinds["search"])
        for e in screen.elements
    ) and (screen.via or "q=" in screen.url or "query=" in screen.url):
        return "search"  # results of a query, or a search a press opened
    if phrase_in(route + " " + screen.h1.lower(), kinds["form"]):
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
