"""Verdicts on one page, without a browser: is it a screen at all?

Not HTML (a download, JSON, text), an error page served with 200, a sign-in wall, a
blank page: each is a :class:`Verdict` with the reason the user is shown. What the
in-page extract returned is coerced to the types the explorer expects first
(:func:`clean_info`): nothing in a page's markup can reach Python as a surprise.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import numpy as np
from PIL import Image

from .rules import phrase_in, rules
from .urls import is_sign_in_route


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


def error_page(title: str, heading: str, text: str) -> Verdict | None:
    """A page that came with status 200 but shows an error (404, 500, a traceback)."""
    table = rules()["error_page"]
    head = f"{title}\n{heading}"
    found = phrase_in(head, table["title_phrases"])
    words = len(text.split())
    if found and (words <= 4 * table["short_page_words"] or phrase_in(heading, [found])):
        return Verdict(f"an error page ({found!r} in its title), not a screen", "error-page")
    found = phrase_in(text, table["body_phrases"])
    if found:
        return Verdict(f"an error page (it says {found!r}), not a screen", "error-page")
    if words <= table["short_page_words"]:
        found = phrase_in(text, table["short_phrases"])
        if found:
            return Verdict(
                f"an error page (a short page saying {found!r}), not a screen", "error-page"
            )
    return None


def weak_page(info: Mapping[str, Any]) -> Verdict | None:
    """A page no marketer would pick although it is no error: a short page whose main
    content is a warning or diagnostic ("the backend is not configured"), or an empty state
    ("No reports yet"). A page listing a few items is never one."""
    table = rules()["weak_page"]
    text = str(info.get("text") or "")
    elements = info.get("elements") or []
    content = info.get("content")
    if isinstance(content, Mapping) and "items" in content:
        # items and table rows outside navigation and side panels
        rows = [int(t.get("rows") or 0) for t in content.get("tables") or [] if not t.get("form")]
        items = max([int(content.get("items") or 0), *rows])
    else:
        items = sum(1 for e in elements if e.get("role") == "listitem")
    if items >= 3:
        return None
    # a long page (a sidebar, an assistant panel around it) whose content is still empty:
    # its heading says so, or several of its parts do (charts saying "No data available")
    parts = [e for e in elements if e.get("role") in ("heading", "text")]
    for e in parts:
        if e.get("role") == "heading" and (found := _empty(str(e.get("text") or ""))):
            return Verdict(
                f"an empty state (its heading says {found!r}), not a screen", "empty-state"
            )
    saying = [found for e in parts if (found := _empty(str(e.get("text") or "")))]
    if len(saying) >= 2:
        return Verdict(
            f"an empty state ({len(saying)} of its parts say {saying[0]!r}), not a screen",
            "empty-state",
        )
    if len(text.split()) > table["short_page_words"]:
        return None
    found = phrase_in(text, table["warning_phrases"])
    if found:
        return Verdict(
            f"a warning or diagnostic as its main content (a short page saying {found!r}), "
            "not a screen",
            "warning-page",
        )
    found = _empty(text)
    if found:
        return Verdict(f"an empty state (it says {found!r}), not a screen", "empty-state")
    return None


def info_page(info: Mapping[str, Any], url: str) -> Verdict | None:
    """A page about the app rather than of it: About, version, licence, credits, legal,
    diagnostics (a path segment names one, or the main heading or title starts with one)."""
    table = rules()["info_page"]
    segments = [s.lower() for s in re.split(r"[/#?&=.]+", urlsplit(url).path) if s]
    route_words = {w.lower() for w in table["route_words"]}
    found = next((s for s in segments if s in route_words), "")
    if found:
        return Verdict(
            f"a page about the app (its address names {found!r}), not a screen", "about-page"
        )
    for head in (str(info.get("h1") or ""), str(info.get("title") or "")):
        start = " ".join(head.lower().split()[:4])
        for phrase in table["heading_phrases"]:
            if re.match(re.escape(phrase.lower()) + r"(?!\w)", start):
                return Verdict(
                    f"a page about the app (its heading {head[:60]!r}), not a screen",
                    "about-page",
                )
    return None


def unfinished_page(info: Mapping[str, Any]) -> Verdict | None:
    """A page still loading when judged: a spinner, skeleton or "Loading..." line in its
    main content, which lists few items and shows no picture or chart yet."""
    table = rules()["weak_page"]["loading"]
    content = info.get("content") or {}
    if int(info.get("words") or 0) and not any(
        content.get(key) for key in ("words", "items", "media", "backdrops", "fields", "tables")
    ):  # navigation and side panels around nothing: a skeleton, or a view not drawn yet
        return Verdict(
            "still loading when judged (nothing in its main content yet, only navigation and "
            "side panels), not a screen",
            "loading",
        )
    lines = content.get("loading") or []
    if not lines and not content.get("busy"):
        return None
    words = int(content.get("words") or 0)
    if not lines and words > rules()["weak_page"]["short_page_words"]:
        return None  # a spinner beside content that has arrived: a part still refreshing
    rows = max((t["rows"] for t in content.get("tables") or []), default=0)
    if content.get("media") or max(content.get("items", 0), rows) >= table["min_items"]:
        return None
    what = f"it says {lines[0]!r}" if lines else "a spinner or placeholder in its content"
    return Verdict(f"still loading when judged ({what}), not a screen", "loading")


def thin_page(info: Mapping[str, Any], url: str) -> Verdict | None:
    """A page whose main content is a table with a header and a row or none and little
    else, or only a form (settings, a new or edit form, a one-field import)."""
    weak = rules()["weak_page"]
    content = info.get("content") or {}
    tables = [t for t in content.get("tables") or [] if not t.get("form")]
    items = int(content.get("items") or 0)
    words = int(content.get("words") or 0)
    entries = int(content.get("entries") or 0)  # fields to type or choose in
    media = int(content.get("media") or 0)
    if entries >= 2:  # a frame beside a form (a lookup, a preview) is the form's helper
        media -= int(content.get("frames") or 0)
    if media > 0 or items >= 3:
        return None
    if tables:
        rows = max(t["rows"] for t in tables)
        limits = weak["near_empty_table"]
        if rows <= limits["max_rows"] and words <= limits["max_words"]:
            return Verdict(
                f"a near-empty table ({rows} row(s) below its header), not a screen",
                "near-empty",
            )
        if rows >= 3:
            return None
    form = weak["bare_form"]
    fields = int(content.get("fields") or 0)
    if not fields or words == 0:
        return None
    small = fields <= form["small_form_fields"]
    if 0 < entries <= form["small_form_fields"] and words <= form["small_form_words"]:
        # a field or three (and their checkboxes) and a paragraph
        return Verdict(
            f"only a form (a form of {fields} field(s) and {words} word(s) around it, "
            "nothing else to show), not a screen",
            "bare-form",
        )
    kinds = rules()["screen_kinds"]
    parts = urlsplit(url)
    route = " ".join(re.split(r"[/#?&=._-]+", f"{parts.path} {parts.fragment}".lower()))
    named = f"{route} {str(info.get('title') or '').lower()} {str(info.get('h1') or '').lower()}"
    settings = phrase_in(named, kinds["settings"])
    if settings:  # a settings page of fields and their descriptions, nothing else
        return Verdict(
            f"only a form (a {settings} page of {fields} field(s), nothing else to show), "
            "not a screen",
            "bare-form",
        )
    share = min(1.0, int(content.get("formWords") or 0) / words)
    kind = phrase_in(named, kinds["form"])
    # a page named a form (a new or edit form) shares its content with its buttons, a
    # heading and a link back: a lower share of the words is still all it shows
    if share < (form["named_form_share"] if kind else form["min_form_share"]):
        return None
    if kind or small:
        article = "an" if kind[:1] in ("a", "e", "i", "o", "u") else "a"
        what = f"{article} {kind} form" if kind else f"a form of {fields} field(s)"
        return Verdict(f"only a form ({what}, nothing else to show), not a screen", "bare-form")
    return None


def blank_media(image: Image.Image, boxes: list[dict[str, Any]], scale: float) -> list[str]:
    """The kinds of the pictures (``boxes`` in CSS px of the photographed viewport) that
    draw nothing: nearly one colour and next to no colour (an empty chart's axes and grid
    on a canvas, a frame left blank)."""
    table = rules()["weak_page"]["blank_media"]
    rgb = np.asarray(image.convert("RGB"), dtype=np.int16)
    out = []
    for media in boxes:
        x, y, w, h = (round(v * scale) for v in media["box"])
        part = rgb[max(0, y) : max(0, y + h), max(0, x) : max(0, x + w)]
        if part.shape[0] < 8 or part.shape[1] < 8:
            continue
        gray = part.mean(axis=2)
        one = float((np.abs(gray - np.median(gray)) <= 8).mean())
        colourful = float(((part.max(axis=2) - part.min(axis=2)) > table["chroma"]).mean())
        if one >= table["uniform"] and colourful <= table["colourful"]:
            out.append(media["kind"])
    return out


def empty_picture(info: Mapping[str, Any], blank: list[str], url: str) -> Verdict | None:
    """A page whose pictures draw nothing (``blank``: their kinds, see :func:`blank_media`):
    an empty chart as its main content (no other picture, no list or table of a few rows,
    little text), or, without the blank ones, a page with nothing else to show (a form
    beside a blank frame)."""
    content = info.get("content") or {}
    if not blank:
        return None
    media = int(content.get("media") or 0)
    rows = max((t["rows"] for t in content.get("tables") or [] if not t.get("form")), default=0)
    listed = (
        max(int(content.get("items") or 0), rows) >= rules()["weak_page"]["loading"]["min_items"]
    )
    words = int(content.get("words") or 0)
    few = words <= rules()["weak_page"]["near_empty_table"]["max_words"]
    if "canvas" in blank and len(blank) >= media and not listed and few:
        return Verdict("an empty chart (its canvas draws no data), not a screen", "empty-state")
    rest = {
        **content,
        "media": media - len(blank),
        "frames": int(content.get("frames") or 0) - blank.count("frame"),
    }
    return thin_page({**info, "content": rest}, url)


def _empty(text: str) -> str:
    """The empty-state phrase ``text`` says ('' if none)."""
    table = rules()["weak_page"]
    found = phrase_in(text, table["empty_phrases"])
    if not found:
        for pattern in table["empty_patterns"]:
            m = re.search(pattern, text, re.I)
            if m:
                return m.group(0)
    return found


def uniform_share(image: Image.Image) -> float:
    """How much of the image is its most common colour (near enough), 0..1."""
    g = np.asarray(image.convert("L").resize((64, 128), Image.Resampling.BOX), dtype=np.int16)
    med = int(np.median(g))
    return float((np.abs(g - med) <= 8).mean())


def near_empty(image: Image.Image, words: int) -> Verdict | None:
    """A page that shows next to nothing: a few words on a screen of one colour."""
    table = rules()["weak_page"]
    if words > table["near_empty_words"]:
        return None
    share = uniform_share(image)
    if share < table["near_empty_uniform"]:
        return None
    return Verdict(
        f"a near-empty page ({words} word(s), {share:.0%} of it one colour), not a screen",
        "near-empty",
    )


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


WIDE_KEYS = ("scrollWidth", "minWidth", "crushed", "layoutWidth", "mobileViewport")
WIDE_MARGIN = 8  # CSS px a page may stick out by (a scrollbar, a shadow) and still fit
#: a page this many times the screen's width is laid out for a wider screen; less is a
#: stray element sticking out of a phone layout (a long word, a wide code block)
DESKTOP_WIDTH = 1.25


def desktop_layout(info: Mapping[str, Any], width: int) -> str:
    """Why the page is a desktop layout on a screen ``width`` points wide ('' if it fits).

    A page made for phones fits the screen: no wider than it, no fixed minimum width, no
    text squeezed into columns a few letters wide, laid out at the device's width (a page
    without a mobile viewport meta is laid out about 980 px wide and shrunk to fit)."""
    wide = info.get("wide") or {}
    layout = int(wide.get("layoutWidth") or width)
    if layout > width + WIDE_MARGIN and not wide.get("mobileViewport"):
        return (
            f"it has no mobile viewport: laid out {layout} px wide and shrunk to the {width} "
            "pt screen"
        )
    min_width = int(wide.get("minWidth") or 0)
    if min_width >= width * DESKTOP_WIDTH:
        return f"it sets a fixed width of {min_width} px, wider than the {width} pt screen"
    scroll = max(int(wide.get("scrollWidth") or 0), layout)
    if scroll >= width * DESKTOP_WIDTH:
        return f"it is {scroll} px wide, wider than the {width} pt screen"
    if int(wide.get("crushed") or 0) >= 2:
        return f"its text is squeezed into columns a few letters wide on the {width} pt screen"
    return ""


def is_blank(image: Image.Image, words: int) -> bool:
    """No visible text and nearly one colour: a page that has not drawn anything."""
    if words > 0:
        return False
    g = np.asarray(image.convert("L").resize((64, 128), Image.Resampling.BOX), dtype=np.int16)
    med = int(np.median(g))
    return bool((np.abs(g - med) <= 8).mean() >= 0.97)


def clean_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, dict):  # an SVGAnimatedString that reached Python as an object
        value = value.get("baseVal", "")
    return re.sub(r"\s+", " ", str(value)).strip()


def dicts_in(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _labels(value: Any) -> list[str]:
    out = [clean_text(v)[:60] for v in value] if isinstance(value, list) else []
    return [v for v in out if v][:40]


def clean_info(raw: Any) -> dict[str, Any]:
    """The in-page extract, every value coerced to the type the explorer expects."""
    raw = raw if isinstance(raw, dict) else {}
    min_top = raw.get("minTop")
    shape_raw = _dict_in(raw, "shape")
    return {
        "shape": {str(k): int(v) for k, v in shape_raw.items() if isinstance(v, (int, float))},
        "url": clean_text(raw.get("url")),
        "title": clean_text(raw.get("title")),
        "h1": clean_text(raw.get("h1")),
        "appName": clean_text(raw.get("appName")),
        "text": "\n".join(
            line for line in (clean_text(t) for t in str(raw.get("text") or "").split("\n")) if line
        ),
        "elements": _clean_elements(raw.get("elements")),
        "links": _clean_links(raw.get("links")),
        "clicks": _clean_clicks(raw.get("clicks")),
        "formsSkipped": int(_number(raw, "formsSkipped")),
        "actions": _labels(raw.get("actions")),
        "unclear": _labels(raw.get("unclear")),
        "risky": int(_number(raw, "risky")),
        "words": int(_number(raw, "words")),
        "password": int(_number(raw, "password")),
        "passwordWords": int(_number(raw, "passwordWords")),
        "userField": bool(raw.get("userField")),
        "cover": bool(raw.get("cover")),
        "overflowX": bool(raw.get("overflowX")),
        "wide": {
            key: float(value)
            for key, value in _dict_in(raw, "wide").items()
            if key in WIDE_KEYS and isinstance(value, (int, float)) and value == value
        },
        "minTop": float(min_top) if isinstance(min_top, (int, float)) else None,
        "content": _clean_content(_dict_in(raw, "content")),
    }


def _dict_in(raw: dict[str, Any], key: str) -> dict[str, Any]:
    value = raw.get(key)
    return value if isinstance(value, dict) else {}


def _number(raw: dict[str, Any], key: str) -> float:
    try:
        return float(raw.get(key) or 0)
    except (TypeError, ValueError):
        return 0.0


def _clean_links(value: Any) -> list[dict[str, Any]]:
    """The page's links that have an address: where, what they say, whether shown."""
    links = []
    for link in dicts_in(value):
        href = link.get("href")
        if isinstance(href, dict):
            href = href.get("baseVal", "")
        href = str(href or "").strip()
        if href:
            links.append(
                {
                    "href": href,
                    "text": clean_text(link.get("text")),
                    "visible": bool(link.get("visible")),
                    "inList": bool(link.get("inList")),
                }
            )
    return links


def _clean_clicks(value: Any) -> list[dict[str, Any]]:
    """The things a press could open, each with the index the page numbered it by."""
    clicks = []
    for c in dicts_in(value):
        raw_index: Any = c.get("index")
        try:
            index = int(raw_index)
        except (TypeError, ValueError):
            continue
        clicks.append(
            {
                "index": index,
                "label": clean_text(c.get("label")),
                "key": str(c.get("key") or ""),
                "selected": bool(c.get("selected")),
                "kind": clean_text(c.get("kind")),
                # the value a choice (dropdown, slider, radio button) is set to
                "value": None if c.get("value") is None else str(c.get("value"))[:200],
                "header": bool(c.get("header")),  # a column header (sorts the table)
            }
        )
    return clicks


def _clean_elements(value: Any) -> list[dict[str, Any]]:
    """The page's text elements that say something, with their role, level and box."""
    elements = []
    for e in dicts_in(value):
        box = e.get("box")
        if not (isinstance(box, list) and len(box) == 4):
            continue
        try:
            box = [float(v) for v in box]
        except (TypeError, ValueError):
            continue
        item: dict[str, Any] = {
            "role": clean_text(e.get("role")) or "text",
            "text": clean_text(e.get("text")),
        }
        if isinstance(e.get("level"), (int, float)):
            item["level"] = int(e["level"])
        if e.get("current") is True:  # the page's own item of a menu or a tab bar
            item["current"] = True
        item["box"] = box
        if item["text"]:
            elements.append(item)
    return elements


CONTENT_COUNTS = (  # what the page holds, counted in the page (0 when it is not a number)
    "words",
    "formWords",
    "items",
    "media",
    "frames",
    "backdrops",
    "busy",
    "fields",
    "entries",
)


def _clean_content(content_raw: dict[str, Any]) -> dict[str, Any]:
    """What the page holds: counts, loading notes, tables and media boxes."""
    content: dict[str, Any] = {}
    for key in CONTENT_COUNTS:
        value = content_raw.get(key)
        content[key] = int(value) if isinstance(value, (int, float)) and value == value else 0
    content["loading"] = _labels(content_raw.get("loading"))[:5]
    content["tables"] = [
        {
            "rows": int(t.get("rows") or 0),
            "words": int(t.get("words") or 0),
            "form": bool(t.get("form")),
        }
        for t in dicts_in(content_raw.get("tables"))[:10]
        if isinstance(t.get("rows", 0), (int, float))
        and isinstance(t.get("words", 0), (int, float))
    ]
    content["mediaBoxes"] = [
        {"kind": clean_text(m.get("kind")), "box": [float(v) for v in m["box"]]}
        for m in dicts_in(content_raw.get("mediaBoxes"))[:5]
        if isinstance(m.get("box"), list)
        and len(m["box"]) == 4
        and all(isinstance(v, (int, float)) and v == v for v in m["box"])
    ]
    return content
