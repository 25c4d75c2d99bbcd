"""A screen read as a copywriter reads it: its title, headings, tabs, actions, labels, numbers.

From the DOM when capture recorded the page's elements with roles (``screen_elements``:
h1-h3, buttons, tabs and navigation, list items, labels), otherwise from OCR lines with
their boxes (the largest type near the top is the title; type clearly larger than the
body makes a heading; a short line led by an interface verb is an action; a line of two
or more navigation labels is a tab bar; short lines are labels; figures with their units
are numbers), otherwise from the visible text line by line. Chrome is left out: the
status bar, "Powered by", cookie banners, skip links, copyright lines, addresses, raw
JSON (the phrases and patterns are data: ``data/features.json``, ``chrome``).

Every piece is recorded with its role and source ("dom", "ocr" or "text"), in reading
order: what ``write_copy`` may draw on, and the record of why a caption says what it says.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from ... import ocr as ocr_mod
from ...grounding import vocabulary as copy_vocabulary
from ...words import can_be_noun, is_bare_verb, is_plural
from .intent import plausible_word
from .vocabulary import vocabulary

#: Roles of the evidence, as ``columns.FEATURES_EVIDENCE`` documents them.
ROLES = ("title", "heading", "tab", "action", "label", "number", "text")
#: A page's address written as a heading: a path of words joined by hyphens, no spaces.
_SLUG = re.compile(r"\s*[\w.]+(?:[-/_][\w.]+)*[/][\w.-]+\s*")
#: A label or action is short; longer lines are sentences (role "text").
SHORT_WORDS = 5
#: OCR: type this much larger than the body's median makes a heading.
HEADING_RATIO = 1.25


@dataclass
class Evidence:
    """One screen's evidence by role."""

    title: str = ""
    headings: list[str] = field(default_factory=list)
    tabs: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    numbers: list[str] = field(default_factory=list)
    items: list[dict] = field(default_factory=list)  # reading order: role, text, source, y, h
    inputs: int = 0  # text fields the DOM showed (a form)
    icons: list[str] = field(default_factory=list)  # icons' names, from their tooltips

    def add(
        self,
        role: str,
        text: str,
        source: str,
        where: tuple[float, float] | None = None,
        *,
        link: bool = False,
        current: bool = False,
        icon: bool = False,
        control: bool = False,
    ) -> None:
        """Record one piece; ``where``: its top and its type height as shares of the
        screenshot's height (the screen reading weighs position and size); ``link``: the
        DOM's link (a way elsewhere, never a form's field); ``current``: the page's own
        item of a menu or a tab bar (``aria-current``, a selected tab, an "active" class);
        ``icon``: an icon's name, read from its tooltip, not shown as words: kept apart in
        ``icons`` (what the screen's controls are called), never an item; ``control``: the
        DOM's label of a form control ("First Name" over its box, "Alerts" beside its
        switch): what a control holds, never an item of content."""
        text = _without_icon_names(" ".join(text.split()))
        if icon:
            if text and text not in self.icons:
                self.icons.append(text)
            return
        if not text or any(i["text"] == text and i["role"] == role for i in self.items):
            return
        if role == "title":
            if self.title:
                role = "heading"
            else:
                self.title = text
        target = {
            "heading": self.headings,
            "tab": self.tabs,
            "action": self.actions,
            "label": self.labels,
            "number": self.numbers,
        }.get(role)
        if target is not None and text not in target:
            target.append(text)
        item: dict = {"role": role, "text": text, "source": source}
        if where is not None:
            item["y"], item["h"] = round(where[0], 4), round(where[1], 4)
        if link:
            item["link"] = True
        if current:
            item["current"] = True
        if control:
            item["control"] = True
        self.items.append(item)


_SNAKE = re.compile(r"[a-z]+(?:_[a-z0-9]+)+")


def _without_icon_names(text: str) -> str:
    """A label without the icon font's name read before it as text ("play_arrow Now
    playing", "album My albums": Material Icons' ligatures): a ``snake_case`` word or a
    known icon's name, before a short capitalised label."""
    first, _, rest = text.partition(" ")
    icon = _SNAKE.fullmatch(first) or first in vocabulary().icon_names
    if icon and rest[:1].isupper() and len(rest.split()) <= 3:
        return rest
    return text


# --- chrome -------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _chrome_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    chrome = vocabulary().chrome
    phrases = re.compile(
        r"(?<!\w)(?:" + "|".join(re.escape(p) for p in chrome["phrases"]) + r")(?!\w)",
        re.IGNORECASE,
    )
    whole = re.compile(r"^(?:" + "|".join(chrome["patterns"]) + r")$", re.IGNORECASE)
    return phrases, whole


def is_chrome(text: str) -> bool:
    """Text that belongs to the device, the browser or the site's boilerplate, not the app."""
    t = " ".join(text.split())
    if not t or not any(ch.isalnum() for ch in t):
        return True
    phrases, whole = _chrome_patterns()
    return bool(whole.match(t) or phrases.search(t))


# --- reading helpers ----------------------------------------------------------------------------

_DIGIT = re.compile(r"\d")
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


def _words(text: str) -> list[str]:
    return _WORD.findall(text)


def _is_number(text: str) -> bool:
    """A figure with its unit ("$1,240", "12 trails", "4.2 km"): digits and few words."""
    return bool(_DIGIT.search(text)) and len(_words(text)) <= 3


def _is_action(text: str) -> bool:
    words = _words(text)
    if not words or len(words) > SHORT_WORDS or text.rstrip().endswith((".", "?", "!")):
        return False
    return words[0].casefold() in copy_vocabulary().ui_verbs


#: A line of source code read off pixels: a lower-case keyword, then a lower-case name or
#: a bracket ("import math", "return total", "print(rows)"); never "Import feeds".
_CODE = re.compile(
    r"^(?:import|from|def|class|return|const|let|var|function|print|echo)\b"
    r"(?:\s+[a-z_][\w.]*(?:\s.*)?|\s*[(\[{].*)$"
)


def _navigation_labels(text: str) -> list[str] | None:
    """A line of two or more navigation labels ("Home Search Profile"): the labels."""
    words = _words(text)
    nav = vocabulary().navigation
    if len(words) < 2 or len(words) > 8:
        return None
    hits = [w for w in words if w.casefold().rstrip("s") in nav or w.casefold() in nav]
    return words if len(hits) >= 2 and len(hits) * 2 >= len(words) else None


def _is_short(text: str) -> bool:
    return 0 < len(_words(text)) <= SHORT_WORDS and not text.rstrip().endswith((".", "!", "?"))


def _classify_line(
    ev: Evidence, text: str, source: str, where: tuple[float, float] | None = None
) -> None:
    """A line without a role of its own."""
    tabs = _navigation_labels(text)
    if tabs:
        for tab in tabs:
            ev.add("tab", tab, source, where)
    elif _is_number(text):
        ev.add("number", text, source, where)
    elif _is_action(text) and not (source == "ocr" and _not_a_button(text)):
        ev.add("action", text, source, where)
    elif _is_short(text):
        ev.add("label", text, source, where)
    else:
        ev.add("text", text, source, where)


def _not_a_button(line: str) -> bool:
    """A line read off pixels that only looks like a button's: a line of code ("import
    datetime": the DOM marks code as code, and "import feeds" there is a link), or two
    words whose first is a noun as well as a verb, the second one thing ("Start date",
    "Track number"): a field's name, where "Upload a file", "Add filter" or "Import
    feeds" is a command."""
    words = line.split()
    if _CODE.match(line.strip()):
        return True
    if len(words) != 2 or is_plural(words[1]):  # "Import feeds": a command
        return False
    return can_be_noun(words[0]) and not is_bare_verb(words[0])


# --- the three readers --------------------------------------------------------------------------

_DOM_ROLES = {
    "tab": "tab",
    "button": "action",
    "listitem": "label",
    "label": "label",
}


def _where(element: Mapping[str, object], height: float | None) -> tuple[float, float] | None:
    box = element.get("box")
    if not height or not isinstance(box, Sequence) or len(box) != 4:
        return None
    try:
        return float(box[1]) / height, float(box[3]) / height
    except (TypeError, ValueError):
        return None


def _beside(element: Mapping[str, object], width: float | None) -> bool:
    """Whether ``element`` lies wholly left or right of a screenshot ``width`` px wide (a
    desktop menu laid out past a phone's edge: in the page, not on the screen)."""
    box = element.get("box")
    if not width or not isinstance(box, Sequence) or len(box) != 4:
        return False
    try:
        left, wide = float(box[0]), float(box[2])
    except (TypeError, ValueError):
        return False
    return left >= width or left + wide <= 0


#: An icon's box: about square (not a narrow cell whose text runs over) and small (a
#: share of the screenshot's height).
ICON_SHAPE = 1.5
ICON_HEIGHT = 0.05
#: A toolbar: at least this many such boxes on one row, their widths this close.
TOOLBAR_ICONS = 3
TOOLBAR_SAME = 0.25
#: Visible type needs at least this share of its box's height per character; an icon's
#: name needs this many times its box's width (a short word may still be shown).
ICON_CHAR = 0.25
ICON_OVER = 1.5


def _square(element: Mapping[str, object], height: float) -> tuple[float, float, float] | None:
    """A small, about square control's box as (top, width, height), else None."""
    box = element.get("box")
    if element.get("role") not in ("link", "button", "listitem", "label", "tab"):
        return None
    if not isinstance(box, Sequence) or len(box) != 4:
        return None
    try:
        top, wide, tall = float(box[1]), float(box[2]), float(box[3])
    except (TypeError, ValueError):
        return None
    if 0 < tall <= height * ICON_HEIGHT and tall / ICON_SHAPE <= wide <= tall * ICON_SHAPE:
        return top, wide, tall
    return None


def _icon_names(elements: Sequence[Mapping[str, object]], height: float | None) -> set[int]:
    """The elements whose text is an icon's name, not words on the screen: buttons of a
    toolbar (a row of small, about square boxes of one size) far too narrow for their text
    ("Preformatted text / Code block (Tab indent)" in 51 px), read from a tooltip or a
    label. A narrow cell of a table whose words wrap is no toolbar's."""
    if not height:
        return set()
    boxes = {k: b for k, e in enumerate(elements) if (b := _square(e, height)) is not None}
    names: set[int] = set()
    for k, (top, wide, tall) in boxes.items():
        text = str(elements[k].get("text") or "")
        if len(text.split()) < 2:
            continue  # one word in a tall tab ("Lineage") may well be shown
        if len(text) * tall * ICON_CHAR <= wide * ICON_OVER:
            continue  # the words fit their box
        row = sum(
            abs(t - top) <= height * ROW_TOLERANCE and abs(w - wide) <= wide * TOOLBAR_SAME
            for t, w, _ in boxes.values()
        )
        if row >= TOOLBAR_ICONS:
            names.add(k)
    return names


def from_elements(
    elements: Iterable[object], height: float | None = None, width: float | None = None
) -> Evidence:
    """Evidence from the DOM's elements with roles (capture's ``screen_elements``).

    Elements that start below the screenshot's bottom edge, or lie wholly beside it, are
    not on the screen and are left out. The title is the first level-1 heading that is not
    also a navigation link (a logo), else the heading in the largest type; links led by a
    verb are actions, other links labels; text with figures is a number. A menu's row of
    labels becomes tabs (``_menu_rows``).
    """
    ev = Evidence()
    items = [
        e
        for e in elements
        if isinstance(e, Mapping) and isinstance(e.get("text"), str) and not _beside(e, width)
    ]
    items = [
        {**e, "text": _own_words(e, items)} if e.get("role") == "heading" else e for e in items
    ]
    nav_texts = {" ".join(e["text"].split()) for e in items if e.get("role") == "tab"}
    headings = [
        e
        for e in items
        if e.get("role") == "heading"
        and not is_chrome(e["text"])
        and " ".join(e["text"].split()) not in nav_texts
    ]
    footer = _copyright_rows(items)
    title = ""
    if headings:
        level_one = [h for h in headings if str(h.get("level") or "1") == "1"]
        # a page's path over its title ("Repair-Guides/Fixing-a-Flat-Tyre") is its address
        level_one = [h for h in level_one if not _SLUG.fullmatch(h["text"])] or level_one
        pick = level_one[0] if level_one else min(headings, key=_level_then_size)
        title = " ".join(pick["text"].split())
    icons = _icon_names(items, height)
    held = _containers(items)
    for k, e in enumerate(items):
        role, text = str(e.get("role") or "text"), " ".join(e["text"].split())
        where = _where(e, height)
        if where is not None and where[0] + where[1] / 2 >= 1.0:
            continue  # below the screenshot, or more than half of it: not on the screen
        if role == "input" and text:
            ev.inputs += 1
        if not text or role == "input" or is_chrome(text) or _in_rows(e, footer):
            continue
        if k in held:
            continue  # "Sales Sales invoices My invoicing plan": a menu's items, run together
        if k in icons and not _is_action(text):
            # an icon's tooltip ("Block quote", "Fullscreen (Press ESC exit)") names no
            # screen and no item; an icon that acts ("Add account") is still a control
            ev.add("label", text, "dom", where, icon=True)
            continue
        if role == "heading":
            if text == title:
                ev.add("title", text, "dom", where)
            elif text not in nav_texts:  # a logo that links home is navigation, not a heading
                ev.add("heading", text, "dom", where)
        elif role in _DOM_ROLES:
            kind = _DOM_ROLES[role]
            if kind == "label" and _is_number(text):
                kind = "number"
            current, control = e.get("current") is True, role == "label"
            ev.add(kind, text, "dom", where, current=current, control=control)
        elif role == "link":
            kind = "action" if _is_action(text) else "label"
            ev.add(kind, text, "dom", where, link=True, current=e.get("current") is True)
        elif _is_number(text):
            ev.add("number", text, "dom", where)
        else:
            ev.add("text", text, "dom", where)
    if not ev.title and title:
        ev.title = title
    _menu_rows(ev)
    return ev


#: The roles of a menu's items and of the boxes that hold them (not a paragraph's text).
_MENU_ROLES = frozenset(["link", "button", "listitem", "label", "tab"])
#: The longest text read as other elements' texts run together, in words.
CONTAINER_WORDS = 30


def _containers(items: Sequence[Mapping[str, object]]) -> set[int]:
    """The elements whose text is only other elements' texts run together: a menu's box
    ("Sales Sales invoices (SLS) My invoicing plan" over "Sales", "Sales invoices (SLS)"
    and "My invoicing plan"), a row's box over its cells. Their items stand on their own."""
    texts = [" ".join(str(e["text"]).split()) for e in items]
    parts = {t for e, t in zip(items, texts) if t and e.get("role") in _MENU_ROLES}
    out = set()
    for k, (e, text) in enumerate(zip(items, texts)):
        words = text.split()
        if e.get("role") not in _MENU_ROLES or not 3 <= len(words) <= CONTAINER_WORDS:
            continue  # a paragraph's links are part of its sentences
        if not any(text.startswith(f"{p} ") for p in parts):
            continue
        # reach: where words[:i] can be cut into other elements' texts; the whole text is
        # never one of its own parts, so a cut that reaches the end has two parts or more
        reach = {0}
        for i in range(1, len(words) + 1):
            pieces = (" ".join(words[j:i]) for j in range(i) if j in reach)
            if any(piece != text and piece in parts for piece in pieces):
                reach.add(i)
        if len(words) in reach:
            out.add(k)
    return out


_COPYRIGHT = re.compile(r"©|\(c\)\s|\bcopyright\b", re.IGNORECASE)


def _copyright_rows(items: Sequence[Mapping[str, object]]) -> list[tuple[float, float]]:
    """The rows of a copyright line, as (top, bottom) in pixels: the line's own row and one
    row on each side, where a footer puts its links ("Website engine code is copyright ©
    by DigitalDruid.Net.", then "HotelDruid is free software")."""
    rows = []
    for e in items:
        box = e.get("box")
        if not _COPYRIGHT.search(str(e["text"])) or not isinstance(box, list) or len(box) < 4:
            continue
        top, tall = float(box[1]), float(box[3])
        rows.append((top - tall * 1.5, top + tall * 2.5))
    return rows


def _in_rows(element: Mapping[str, object], rows: Sequence[tuple[float, float]]) -> bool:
    """Whether an element's middle lies in one of ``rows``."""
    box = element.get("box")
    if not rows or not isinstance(box, list) or len(box) < 4:
        return False
    middle = float(box[1]) + float(box[3]) / 2
    return any(top <= middle <= bottom for top, bottom in rows)


def _inside(inner: object, outer: object, slack: float = 0.0) -> bool:
    """Whether one element's box ([left, top, width, height]) lies within another's, or
    sticks out of it by at most ``slack`` of its own height (a line's box set taller
    than the heading that holds it)."""
    if not isinstance(inner, (list, tuple)) or not isinstance(outer, (list, tuple)):
        return False
    try:
        x, y, w, h = (float(v) for v in inner)
        ox, oy, ow, oh = (float(v) for v in outer)
    except (TypeError, ValueError):
        return False
    d = slack * h
    return ox - d <= x and oy - d <= y and x + w <= ox + ow + d and y + h <= oy + oh + d


#: How far a line's box may stick out of its heading's, as a share of its height.
LINE_SLACK = 0.25
#: The most words of a byline under a title ("Beatrix Moorcombe").
BYLINE_WORDS = 3


def _own_words(heading: Mapping[str, object], items: Sequence[Mapping[str, object]]) -> str:
    """A heading's own words, without the links and buttons set inside its box at either
    end ("edit new delete Albums" -> "Albums"): a page's actions beside its title; of a
    heading set as lines of text (a book's title over its author), the first line."""
    text = " ".join(str(heading["text"]).split())
    inner = [
        str(e["text"]).split()
        for e in items
        if e.get("role") in ("link", "button") and _inside(e.get("box"), heading.get("box"))
    ]
    words = text.split()
    if not words:
        return text  # an icon alone ("⭐"), read without it
    icons = vocabulary().icon_names
    lines = [
        str(e["text"]).split()
        for e in items
        if e.get("role") == "text"
        and _inside(e.get("box"), heading.get("box"), LINE_SLACK)
        and str(e["text"]).strip() not in icons  # "album" of "album My albums": its icon
    ]
    first = lines[0] if lines else []
    rest = words[len(first) :]
    if 2 <= len(first) < len(words) and words[: len(first)] == first and _WORD.match(first[0]):
        if len(rest) <= BYLINE_WORDS and all(w[:1].isupper() for w in rest):
            # "Winter at Hollow Oak" over its author's line ("Beatrix Moorcombe"), read
            # apart or not; not "4" over "Answers"
            return " ".join(first)
    trimmed = True
    while trimmed:
        trimmed = False
        for part in (p for p in inner if 0 < len(p) < len(words)):
            if words[: len(part)] == part:
                words, trimmed = words[len(part) :], True
            elif words[-len(part) :] == part:
                words, trimmed = words[: -len(part)], True
    if words[-1].casefold() in copy_vocabulary().function_words:
        return text  # "Welcome to <a>Zoph</a>": the link is part of the heading's sentence
    return " ".join(words)


#: Items whose tops are this close (a share of the height) stand on one line.
ROW_TOLERANCE = 0.006
#: A menu's labels are one or two words each.
MENU_WORDS = 2
#: Where a header's menu stands when the screen has no title (a share of the height),
#: and how far below the title's line its tab bar may run.
MENU_TOP = 0.06
MENU_GAP = 0.04
#: Where a tab bar along the bottom edge starts (a share of the height).
MENU_BOTTOM = 0.92


def _menu_rows(ev: Evidence) -> None:
    """Three or more one- or two-word labels on one line level with the title or above
    it, or along the bottom edge, are the app's menu ("Home Books Terms Settings About"),
    not a form's fields or a list's items: they become tabs."""
    placed = [i for i in ev.items if i.get("y") is not None]
    top = next((i["y"] + i["h"] + MENU_GAP for i in placed if i["role"] == "title"), MENU_TOP)
    top = min(top, MENU_TOP * 2)  # a title read far down is no header's line
    rows: list[list[dict]] = []
    for item in sorted(placed, key=lambda i: i["y"]):
        if rows and abs(item["y"] - rows[-1][0]["y"]) <= ROW_TOLERANCE:
            rows[-1].append(item)
        else:
            rows.append([item])
    for k, row in enumerate(rows):
        members = [i for i in row if i["role"] in ("label", "text", "action", "tab")]
        header = len({i["text"].casefold() for i in members}) >= 3 and row[0]["y"] <= top
        tab_bar = row[0]["y"] >= MENU_BOTTOM and not any(i["role"] == "action" for i in members)
        if not (header or tab_bar):
            continue
        if not all(_menu_label(i["text"]) for i in members):
            continue
        if any(i["role"] == "number" for i in row):
            continue  # a line of figures or a count ("60 Trials"), not a menu
        below = rows[k + 1] if k + 1 < len(rows) else []
        if sum(i["role"] == "number" for i in below) >= 2:
            continue  # a table's column headers over its first row of figures
        for item in members:
            for kept in (ev.labels, ev.actions):
                if item["text"] in kept:
                    kept.remove(item["text"])
            if item["text"] not in ev.tabs:
                ev.tabs.append(item["text"])
            item["role"] = "tab"


def _menu_label(text: str) -> bool:
    words = _words(text)
    return 0 < len(words) <= MENU_WORDS and bool(_MENU_LABEL.fullmatch(text.strip()))


#: Words and spaces only: "Settings", "My albums" (not "(trial_id=", "Total:", "Page 2").
_MENU_LABEL = re.compile(r"[^\W\d_]+(?:[ &'’-]+[^\W\d_]+)*")


def _level_then_size(element: Mapping[str, object]) -> tuple[int, float]:
    level = element.get("level")
    box = element.get("box")
    height = float(box[3]) if isinstance(box, Sequence) and len(box) == 4 else 0.0
    return (int(level) if isinstance(level, (int, str)) and str(level).isdigit() else 6, -height)


def clean_ocr_line(text: str) -> str:
    """An OCR line without the noise at its ends (icons read as "Q", "@", "ay", "fa"),
    or "" when nothing word-like is left (a word of three letters, or a figure)."""
    tokens = text.split()

    def noise(token: str) -> bool:
        letters = sum(ch.isalpha() for ch in token)
        if any(ch.isdigit() for ch in token):
            return False
        return letters <= 1 or (letters == 2 and not token.isupper())

    while tokens and noise(tokens[0]):
        tokens.pop(0)
    while tokens and noise(tokens[-1]):
        tokens.pop()
    kept = " ".join(tokens)
    worded = any(plausible_word(t) for w in tokens for t in _WORD.findall(w))
    return kept if worded or _DIGIT.search(kept) else ""


def _same_line(title: str, tall: int, line: ocr_mod.OCRLine) -> bool:
    """Whether ``line`` is the whole of which the title is a piece read apart: the title
    inside one of its words ("outs" of "Workouts"), or inside it in type as large. The
    title as a whole word of a line in smaller type is another line: a menu naming the
    screen it is on ("entries feeds add" over "Entries")."""
    at = line.text.casefold().find(title.casefold())
    if at < 0 or line.text == title:
        return False
    end = at + len(title)
    whole_word = (at == 0 or not line.text[at - 1].isalnum()) and (
        end == len(line.text) or not line.text[end].isalnum()
    )
    return not whole_word or line.height >= tall * SAME_TYPE


#: A line this share of the title's height or more is set in the same type.
SAME_TYPE = 0.75


#: A title's next line, set in its type, starts this close to its left edge (a share of
#: the title's height) and at most this far below its last line (the same).
WRAP_LEFT = 0.5
WRAP_GAP = 1.0
#: Display type: this many times the body's height (a record's name over its page).
DISPLAY_TYPE = 2.5


def _wrapped_title(
    lines: list[ocr_mod.OCRLine], title: str, body: float
) -> tuple[list[ocr_mod.OCRLine], str]:
    """A title set in display type over several lines ("Barbell" / "Bench" / "Press") read
    as one: the lines below it in the same type, aligned on its left edge, join it."""
    at = next((k for k, b in enumerate(lines) if b.text == title), None)
    if at is None or lines[at].height < body * DISPLAY_TYPE:
        return lines, title
    first = last = lines[at]
    joined, taken = [title], {at}
    for k, line in enumerate(lines):
        if k in taken or line.top <= last.top:
            continue
        same_type = abs(line.height - first.height) <= first.height * (1 - SAME_TYPE)
        aligned = abs(line.left - first.left) <= first.height * WRAP_LEFT
        close = line.top - (last.top + last.height) <= first.height * WRAP_GAP
        if not (same_type and aligned and close):
            break
        joined.append(line.text)
        taken.add(k)
        last = line
    if len(joined) == 1:
        return lines, title
    whole = " ".join(joined)
    merged = replace(first, text=whole)
    kept = [merged if k == at else b for k, b in enumerate(lines) if k == at or k not in taken]
    return kept, whole


def from_ocr(result: ocr_mod.OCRResult, height: float | None = None) -> Evidence:
    """Evidence from OCR lines with boxes: size finds the title and the headings."""
    ev = Evidence()
    lines = []
    for box in result.boxes:
        text = clean_ocr_line(box.text)
        if text and not is_chrome(text):
            lines.append(replace(box, text=text))
    if not lines:
        return ev
    heights = sorted(b.height for b in lines)
    body = heights[len(heights) // 2]
    title = clean_ocr_line(result.title) if result.title else ""
    title = title if title and not is_chrome(title) else ""
    if title:  # a fragment read apart from its line ("outs" of "Workouts")
        tall = max((b.height for b in lines if b.text == title), default=0)
        longer = [b.text for b in lines if _same_line(title, tall, b)]
        title = max(longer, key=len) if longer else title
    lines, title = _wrapped_title(lines, title, body)
    for line in lines:
        text = line.text
        where = (line.top / height, line.height / height) if height else None
        if text == title:
            ev.add("title", text, "ocr", where)
        elif (
            line.height >= body * HEADING_RATIO
            and not _is_number(text)
            and len(_words(text)) <= 8
            and _navigation_labels(text) is None
        ):
            ev.add("heading", text, "ocr", where)
        else:
            _classify_line(ev, text, "ocr", where)
    _menu_rows(ev)
    return ev


def from_text(text: str) -> Evidence:
    """Evidence from visible text without roles or sizes (DOM text of an older capture)."""
    ev = Evidence()
    for line in text.splitlines():
        line = " ".join(line.split())
        if not line or is_chrome(line):
            continue
        if not ev.title and _is_short(line) and not _is_number(line) and len(_words(line)) >= 1:
            ev.add("title", line, "text")
        else:
            _classify_line(ev, line, "text")
    return ev
