"""The one reading of each screen: its kind, its subject, its examples and its fields.

Made once by ``extract_features`` and used by everything after it (copy, store text, the
LLM prompt, ``design.json``), so nobody reads a screen twice with other rules:

* **kind**: what sort of screen it is (list, table, detail, reader, player, form, chart,
  dashboard, search, settings, menu, conversation, calendar, map, sign-in), weighed from
  its layout (a row of column headers over figures is a table; long lines of prose a
  reader; text fields a form), the words it shows and the screen intent;
* **subject**: the feature as a person would name it, a whole phrase in the app's words
  ("Income Statement", "Harvest Log", "Members"): the title, the last step of a
  breadcrumb or a heading near the top, confirmed by the screen's file name when that
  names it. A title written as a name ("Treasure Island", "Everyday Checking") is content
  (the screen shows *one* thing), so it becomes an example, never the subject;
* **examples**: content items kept whole ("Treasure Island", "#3d-printing"): rows,
  cards, list items the screen shows, as they stand, never split into words;
* **fields**: the names of the data shown (column headers, form labels, the label
  beside a figure: "Date", "Payee", "Amount"), common words, never the values.

Chrome (tab bars repeated on every screen, buttons) is kept apart from content, and data
(numbers, dates, true/false, people's handles) is never a subject nor a field. The word
tables are data: ``data/screen_reading.json``.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

from ...grounding import vocabulary as copy_vocabulary
from ...words import (
    CURRENCY_NAMES,
    can_be_noun,
    can_be_verb,
    fold,
    is_bare_verb,
    is_common_word,
    is_full_name,
    is_given_name,
    is_plural,
    is_surname,
    is_verb_only,
    is_word,
    plural,
    title_parts,
    word_frequency,
)
from .evidence import Evidence, is_chrome
from .intent import plausible_word, singular, undated_lines

#: Two items whose tops differ by less than this share of the screen sit on one row.
ROW_TOLERANCE = 0.008
#: Candidates for the subject sit in the top part of the screen.
TOP_SHARE = 0.4
#: A one-word item this common in English (zipf frequency) is a label or a category chip
#: ("Published", "Beaches", "Upcoming"), not an item of content ("Dracula", "Sintel").
COMMON_WORD = 3.5


@dataclass(frozen=True)
class ReadingTables:
    feature_nouns: frozenset[str]
    data_words: frozenset[str]
    kind_cues: dict[str, tuple[str, ...]]
    intent_kinds: dict[str, str]
    given_names: frozenset[str]
    generic_subjects: frozenset[str]
    header_words: frozenset[str]
    control_verbs: frozenset[str]
    #: the noun a file goes by, per extension: {"photo": ("jpg", ...), "file": (...)}
    file_types: dict[str, tuple[str, ...]]
    #: nouns for one thing that holds many ("album", "folder", "inbox", "forum"), or
    #: for no countable thing ("music", "weather"): a page of one is a list of many
    collections: frozenset[str]


@lru_cache(maxsize=1)
def tables() -> ReadingTables:
    raw = json.loads(
        resources.files("shotsmith").joinpath("data/screen_reading.json").read_text("utf-8")
    )
    return ReadingTables(
        feature_nouns=frozenset(raw["feature_nouns"]),
        data_words=frozenset(raw["data_words"]),
        kind_cues={k: tuple(v) for k, v in raw["kind_cues"].items()},
        intent_kinds=dict(raw["intent_kinds"]),
        given_names=frozenset(raw.get("given_names", [])),
        generic_subjects=frozenset(raw.get("generic_subjects", [])),
        header_words=frozenset(raw.get("header_words", [])),
        control_verbs=frozenset(raw.get("control_verbs", [])),
        file_types={k: tuple(v) for k, v in raw.get("file_types", {}).items()},
        collections=frozenset(raw.get("collections", [])),
    )


@dataclass
class Reading:
    """What one screen is, in the app's words."""

    kind: str = "detail"
    subject: str = ""
    # "title", "breadcrumb", "heading", "page title", "screen name", "label", "record
    # links" (between "Previous Ticket" and "Next Ticket"), "results" (a search's count),
    # "current tab" (the menu item the page marks as its own), "file names" (a list of
    # files, or one file's own view), "count" ("4 products"), "shop" (one product's page),
    # "action" ("Refresh emails"), "set" (a search of what another screen lists)
    subject_from: str = ""
    examples: list[str] = field(default_factory=list)
    fields: list[str] = field(default_factory=list)


# --------------------------------------------------------------------------------------
# Words
# --------------------------------------------------------------------------------------

_LETTERS = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_DIGIT = re.compile(r"\d")
_EDGE = " \t/-–—•·|:;,.!?*>›»→←<«‹\"“”‘’'()[]↑↓▲▼△▽⇅↕⬆⬇¶§…"  # sort arrows, anchors
#: The marks between a breadcrumb's steps: "Ledger › Income Statement".
BREADCRUMB = re.compile(r"\s+(?:>|/|›|»|❯|→|\\)\s+")
#: A control's tooltip, its hint in brackets at the end: "Preformatted text / Code block
#: (Tab indent)", an editor's button, no breadcrumb; not a count ("Photos (12)").
_HINTED = re.compile(r"\((?!\d+\))[^()]*\)\s*$")
_CUT = re.compile(r"\s+[-–—:|]\s+|\s*\(")
#: What a subject may open with that is not its name: "All accounts", "List of bugs", and
#: a key's hint before a label ("h HELP": press h).
_LEAD = re.compile(
    r"^(?:all|my|your|the|to|our|this|that|these|those|list\s+of|(?-i:[a-z]))\s+(?=\S)", re.I
)
_VERB_LEAD = re.compile(
    r"^(?:search|filter|find|browse|view|manage|sort|show|see|explore)\s+(?:all\s+|your\s+)?(?=\S)",
    re.I,
)


def _words(text: str) -> list[str]:
    return _LETTERS.findall(text)


def _key(text: str) -> str:
    return " ".join(w.casefold() for w in _words(text))


_JOINS = frozenset("of by for per in on".split())
#: A session's buttons, never what a screen is for.
_ACCOUNT_CHROME = frozenset(
    ["log out", "logout", "sign out", "log in", "login", "sign in", "sign up", "register"]
)


def is_feature_phrase(text: str, *, strict: bool = False) -> bool:
    """A phrase naming a feature: its head noun is a feature noun ("Income Statement",
    "Expenses by month": the last word, or the word before "of", "by", "for"...); a short
    title may lead with one ("Jobs this week") unless ``strict``."""
    nouns = tables().feature_nouns
    words = [w.casefold() for w in _words(text)]
    if not words:
        return False
    heads = [words[-1]] + [words[i - 1] for i, w in enumerate(words) if w in _JOINS and i]
    if len(words) <= 3 and not strict:
        heads.append(words[0])  # "Jobs this week"
    return any(h in nouns or singular(h) in nouns for h in heads)


def is_generic(text: str) -> bool:
    """A word for a screen's furniture ("List", "Name"), not for its feature."""
    words = [w.casefold() for w in _words(text)]
    generic = tables().generic_subjects
    return len(words) == 1 and (words[0] in generic or singular(words[0]) in generic)


def is_person(text: str) -> bool:
    """A person's name ("Dana Whitfield", "Ana", "priya.raman", "Ines Duarte"): one or two
    words led by a common first name, a given name and a family name, or a user handle."""
    t = text.strip()
    if re.fullmatch(r"@?[a-z]+[._][a-z]+\d*", t):
        return True
    words = _words(t)
    if len(words) == 1 and t.islower() and t in tables().given_names:
        return word_frequency(t) < 4.0  # a user name ("maya"), not a word ("will", "grace")
    if len(words) == 1 and t.islower() and len(t) >= 4 and is_given_name(t):
        # "jonas", "keiko": a handle; not a word English writes ("grace", "mark"), nor a
        # short one a table's header may be ("max")
        return not is_common_word(t)
    if len(words) == 2 and all(w[:1].isupper() for w in words):
        # a given name no list holds only on a line that is nothing else ("Adaeze Obi",
        # not "Nigeria/NG-4370/2022")
        if is_full_name(*words, unlisted_given=not re.search(r"[\d/©@#(]", t)):
            return True
    return (
        1 <= len(words) <= 2
        and words[0].casefold() in tables().given_names
        and (words[0][:1].isupper() or t.startswith("@"))
        # "Victoria Station", "Jordan River": a name, then a word for a thing
        and (len(words) == 1 or not is_common_word(words[1]))
    )


def is_data(text: str) -> bool:
    """A value, not a name for anything: figures, dates, true/false, handles, addresses."""
    t = text.strip()
    if not t or _DIGIT.search(t) or "@" in t or "://" in t or "www." in t:
        return True
    words = [w.casefold() for w in _words(t)]
    if not words:
        return True
    voc = copy_vocabulary()
    dated = [w for w in words if w not in voc.function_words] or words  # "This Week"
    return all(w in tables().data_words or w in voc.calendar_words for w in dated)


def written_as_name(text: str) -> bool:
    """Title Case words that are not a feature ("Treasure Island", "Everyday Checking")."""
    fw = copy_vocabulary().function_words
    words = [w for w in _words(text) if w.casefold() not in fw]
    titled = len(words) >= 1 and all(w[:1].isupper() and not w.isupper() for w in words)
    # a work's title opens with its article: "A Ledger of Small Lies" is a book, even
    # with a feature's noun in it
    work = _WORK.match(text.strip()) is not None and len(_words(text)) >= WORK_WORDS
    return titled and (work or not is_feature_phrase(text))


#: An article a work's title opens with, capitalised.
_WORK = re.compile(r"(?:A|An|The)\s+[A-Z]")
#: The fewest words of a title read as a work's by its article ("The Lantern in the
#: Hollow Oak"; not "The Menu").
WORK_WORDS = 3


def _tab_row(text: str) -> bool:
    """Three or more one-word sections read as one line ("Entries Feeds Add"): a tab bar.
    Each is a name, capitalised: "Create new book" is a title."""
    voc = copy_vocabulary()
    written = _words(text)
    words = [w.casefold() for w in written]
    known = tables().feature_nouns | voc.ui_verbs | voc.generic_sections
    return (
        len(words) >= 3
        and all(w[:1].isupper() for w in written)
        and all(w in known or singular(w) in known for w in words)
    )


def _piped(text: str) -> bool:
    """Three or more short parts between bars ("Profiles | Remote | Movies"): a menu, or
    a view switch ("Banner | Poster | Landscape"), not a title."""
    parts = [p.strip() for p in re.split(r"\s[|·•]\s", text)]
    return len(parts) >= 3 and all(1 <= len(_words(p)) <= 2 for p in parts)


def _only_function_words(text: str) -> bool:
    fw = copy_vocabulary().function_words
    return all(w.casefold() in fw for w in _words(text))


#: A path or an address: a leading slash, two slashes, an @ inside a word
#: ("/bread/rye", "src/app/main", "sam@example.org"; not "free/busy" or "TCP/IP").
_PATH = re.compile(r"^/\w|\w/[^/\s]+/|\w@\w")


#: A year after a name of two or more words: "Reader satisfaction survey 2026".
YEAR_AFTER = re.compile(r"\s+(?:19|20)\d\d$")


#: A Markdown heading's marks, in an editor's text: "## Agenda" (not "#general").
_MARKDOWN_HEAD = re.compile(r"^#{1,6}\s+(?=\S)")


def clean_item(text: str, *, max_words: int = 5, place: bool = False) -> str:
    """An item as it may stand in a caption, or "": the part before a dash or a colon,
    without edge punctuation; no figures, no sentence, no OCR noise. ``place``: a title
    may be a place written with a comma ("Kyoto, Japan")."""
    t = _MARKDOWN_HEAD.sub("", " ".join(text.split()))  # "# Parents' evening" in an editor
    t = _CUT.split(t)[0].strip(_EDGE)
    named = YEAR_AFTER.sub("", t)  # "Reader survey 2026": a name with its year
    if not t or is_data(named if len(_words(named)) >= 2 else t) or t.endswith(("?", "!")):
        return ""
    if _PATH.search(t) or _MARKUP.search(t):
        return ""  # "/bread/rye", "a@b.org", 'series:"=Holmes"': a path, an address, a query
    words = t.split()
    if not 1 <= len(words) <= max_words:
        return ""
    letters = [w for w in _words(t)]
    if not letters or not all(plausible_word(w) or len(w) <= 2 for w in letters):
        return ""
    place = place and len(words) <= 4 and all(w[:1].isupper() for w in words)
    if any(w.endswith((".", ";")) or (w.endswith(",") and not place) for w in words[:-1]):
        return ""
    return t


# --------------------------------------------------------------------------------------
# The reading
# --------------------------------------------------------------------------------------


def _as_subject(text: str, *, max_words: int) -> str:
    """A phrase as a subject: "All accounts" -> "accounts", "To Budget" -> "Budget",
    "Search experiments" -> "experiments", "sam's Collections" -> "Collections"; "" when
    it cannot be one."""
    text = _OWNER.sub("", clean_item(text, max_words=max_words))
    text = _VERB_LEAD.sub("", _LEAD.sub("", text))
    words = text.split()
    if len(words) >= 2 and words[0].islower() and not is_word(words[0]):
        rest = " ".join(words[1:])  # "tomh comments": a member's handle, then what it is
        if is_feature_phrase(rest) and is_plural(rest):
            return rest
    return text


def _screen_words(screen: str) -> set[str]:
    stem = re.sub(r"\.(png|jpe?g|webp)$", "", str(screen or ""), flags=re.I)
    words = [w.casefold() for w in _words(stem.replace("_", " ").replace("-", " "))]
    skip = {"screen", "screenshot", "image", "shot", "page", "view", "tab", "png"}
    return {singular(w) for w in words if w not in skip}


def _a_deed(subject: str) -> bool:
    """A screen's name that is a deed, an interface verb and its object ("Ask question",
    "Edit profile"); not a thing named by a word that is also a verb ("Record details",
    "Post list")."""
    words = [w.casefold() for w in _words(subject)]
    voc = copy_vocabulary()
    return (
        2 <= len(words) <= 4 and words[0] in voc.ui_verbs and words[0] not in voc.verbs_also_nouns
    )


def _verb_led(text: str) -> bool:
    """A control's label: it starts with an interface verb ("Sort descending", "Reload")."""
    voc = copy_vocabulary()
    words = [w.casefold() for w in _words(text)]
    if len(words) > 2 and words[0] in _CONTROL_ADVERBS:
        words = words[1:]  # "Only display private links", "Always show the sidebar"
    return (
        bool(words)
        and words[0] in _interface_verbs()
        and (words[0] not in voc.verbs_also_nouns or len(words) > 1)
    )


#: Words a control's label may put before its verb.
_CONTROL_ADVERBS = frozenset("only always never also just".split())


@lru_cache(maxsize=1)
def _interface_verbs() -> frozenset[str]:
    """The verbs of an interface's controls ("reload", "share", "reply")."""
    return frozenset(copy_vocabulary().ui_verbs | tables().control_verbs)


def _header_rows(items: Sequence[dict]) -> list[list[str]]:
    """Rows of three or more short labels side by side: column headers, a summary bar."""
    placed = [
        i
        for i in items
        if i.get("y") is not None
        and i["role"] in ("label", "heading", "text")
        and 1 <= len(_words(i["text"])) <= 3
        and not _DIGIT.search(i["text"])
    ]
    rows: list[list[dict]] = []
    for item in sorted(placed, key=lambda i: i["y"]):
        if rows and abs(rows[-1][0]["y"] - item["y"]) <= ROW_TOLERANCE:
            rows[-1].append(item)
        else:
            rows.append([item])
    fw = copy_vocabulary().function_words
    headers = tables().header_words
    verbs = _interface_verbs()
    return [
        [i["text"] for i in row]
        for row in rows
        if len(row) >= 3
        and all(len(i["text"]) >= 3 and i["text"].casefold() not in fw for i in row)
        and any(w.casefold().rstrip("?:") in headers for i in row for w in _words(i["text"]))
        # "report share quote reply" under a post: its buttons, no columns
        and 2 * sum(i["text"].strip().casefold() in verbs for i in row) < len(row)
    ]


def _common(text: str) -> bool:
    """Every word an everyday word (a field name: "Date", "Payee"), not a name."""
    words = _words(text)
    return bool(words) and all(
        word_frequency(w.casefold()) >= 2.5 or w.casefold() in tables().feature_nouns for w in words
    )


#: Markup a formatting help shows ("Bold text: **Example**", "Horizontal rule: ----"),
#: never in a field's name.
_SYNTAX = re.compile(r"[*\[\]{}\\=<>]|''|-{3,}|^#{1,6}\s")


#: A question's answers to pick from are at most this many words each.
ANSWER_WORDS = 6


def _answers(items: Sequence[dict]) -> set[int]:
    """The answers to pick from under each question ("How easy is it to find what you
    are looking for?" then "Very easy", "Quite easy", ...): values, neither the form's
    fields nor items of content. Indices into ``items``."""
    out: set[int] = set()
    for k, item in enumerate(items):
        if not item["text"].strip().endswith("?"):
            continue
        run = []
        for j in range(k + 1, len(items)):
            text = items[j]["text"].strip()
            short = 1 <= len(_words(text)) <= ANSWER_WORDS
            if not short or text.endswith(("?", ".", ":")) or items[j]["role"] != "label":
                break  # an answer is a choice's label, never a line of text or a button
            run.append(j)
        if len(run) >= 2:
            out.update(run)
    return out


def _fields(ev: Evidence, kind_hint: str) -> list[str]:
    out: list[str] = []
    answers = _answers(ev.items)

    def add(text: str, *, control: bool = False) -> None:
        if _SYNTAX.search(text.rstrip("* ")):  # "Intro*" is a required field
            return  # "Bold text: **Example**": a formatting help's line, not a field
        if _SENTENCE_PART.match(text.strip()):
            return  # "or click here", "to upload files": the rest of a sentence
        t = clean_item(text, max_words=3)
        if t and (_verb_led(t) or is_person(t)):
            return  # "Sort descending", "Include pruned trials": controls; "Priya": a person
        if t and _words(t)[-1].casefold() in _NOT_AN_END:
            return  # "Alerts on", "Sign up": a setting's state or a control, not a field
        if _unit_or_joint(t):
            return
        if t and _common(t) and t.casefold() not in {f.casefold() for f in out}:
            if control or not written_as_name(t) or len(_words(t)) == 1:
                out.append(t)  # a control's own label names its field ("First Name")

    out += _header_fields(ev.items)
    headers = len(out)
    items = ev.items
    in_rows = len(file_names(items)) >= 2  # "Notes 906 B" beside "Price list.pdf": a row
    tabs = {_key(i["text"]) for i in items if i["role"] == "tab"}  # the menu: no fields
    for k, item in enumerate(items[:-1]):  # a label with its figure: "Balance 5,297.80"
        high = item.get("y") is None or item["y"] <= TOP_SHARE * 0.9  # a summary, not rows
        high = high and not in_rows
        if (
            item["role"] in ("label", "text")
            and high
            and not item.get("link")
            and _has_figure(items, k)
        ):
            words = _words(item["text"])
            if words and all(word_frequency(w.casefold()) >= 3.5 for w in words):
                add(item["text"])  # an everyday word, not a payee's name ("Chipotle")
    figures = set(out[headers:])
    if kind_hint in ("form", "sign-in") or ev.inputs >= 2:
        title_at = next((i.get("y") for i in items if i["role"] == "title"), None)
        # the controls' own labels first: what the form asks for, before other short text
        for k, item in sorted(enumerate(items), key=lambda ki: not ki[1].get("control")):
            raw = item["text"].strip()
            if item.get("link") or k in answers or _key(raw) in tabs:
                continue  # a way to another page (the menu), an answer: no field
            if title_at is not None and item.get("y") is not None and item["y"] < title_at:
                continue  # the header over the form's title ("User menu"), not a field
            of = _FIELD_OF.match(raw)  # "Summary of the problem": the summary
            raw = of.group(1) if of and item["role"] == "label" else raw
            asks = _ASKS_FOR.match(raw)  # "Please enter your question": the question
            raw = asks.group(1).capitalize() if asks and item["role"] in ("label", "text") else raw
            if item["role"] in ("label", "text") and len(_words(raw)) <= 2 and raw[:1].isupper():
                if not raw.endswith(("?", ".", "!")):
                    add(raw, control=bool(item.get("control")))
        # what the form asks for before a figure's label above it ("Deadline  1 June")
        out.sort(key=lambda f: f in figures)
    return out[:6]


def _paired(fields: list[str]) -> list[str]:
    """Two fields side by side that are two parts of one ("First Name", "Last Name";
    "Start date", "End date") as the one they are parts of: "Name", "Date"."""
    out: list[str] = []
    for f in fields:
        words = f.split()
        last = out[-1].split() if out else []
        if len(words) == len(last) == 2 and words[1].casefold() == last[1].casefold():
            out[-1] = words[1][:1].upper() + words[1][1:]
            continue
        out.append(f)
    return out


def _header_fields(items: list[dict]) -> list[str]:
    """The column headers of a table's header rows: any real word ("Payee")."""
    out: list[str] = []
    for row in _header_rows(items):
        for text in row:
            t = clean_item(text, max_words=3)
            if (t and (_verb_led(t) or is_person(t))) or _SYNTAX.search(text.rstrip("* ")):
                continue  # "Sort", "jonas": a control, a cell of a row read as a header
            if _SENTENCE_PART.match(text.strip()):
                continue  # "or click here": a sentence's rest, after a link
            if t and _unit_or_joint(t):
                continue
            if t and all(is_word(w) for w in _words(t)) and _key(t) not in map(_key, out):
                out.append(t)
    return out


#: A sentence's later part, split off by a link: "Drop files" / "or click here"; an
#: ordering's choice ("by name", "by popularity": sort by it).
_SENTENCE_PART = re.compile(r"^(?:or|and|to|then|but|nor|[Bb]y)\s")


def _unit_or_joint(text: str) -> bool:
    """A figure's unit ("Euros" beside "525") or a joining word ("from" before a date):
    beside a figure, but no field's name."""
    return text.casefold() in CURRENCY_NAMES or _only_function_words(text)


#: A field's label that says what it holds, then of what: "Description of your issue".
_FIELD_OF = re.compile(r"^([A-Z]\w+(?: \w+)?) of (?:the|your|this|a|an) \w+$")


#: A form's hint that asks for what a field holds: "Please enter your question", "Add
#: details below".
_ASKS_FOR = re.compile(
    r"^(?:please\s+)?(?:enter|add|type|choose|select|pick|provide|write)\s+"
    r"(?:(?:your|the|a|an|some)\s+)?(?!(?:enough|more|all|any|every)\b)"
    r"([a-z]+(?:\s(?!below|here)[a-z]+)?)(?:\s+(?:below|here))?\.?$",
    re.IGNORECASE,
)


#: A label's figure sits at most this share of the screen below it.
FIGURE_GAP = 0.05


def _has_figure(items: Sequence[dict], k: int) -> bool:
    """Whether the label ``items[k]`` has its figure next: the next item, or, where two
    tiles stand side by side and their lines interleave ("STEPS", "EXERCISE", "8,432",
    "28 min"), a figure among the next three items just below a label in capitals."""
    label = items[k]
    if items[k + 1]["role"] == "number":
        return True
    y = label.get("y")
    if y is None or not label["text"].isupper():
        return False  # tiles' labels are set in capitals; a section's name is not
    for other in items[k + 1 : k + 4]:
        below = other.get("y")
        if other["role"] == "number" and below is not None and 0 < below - y <= FIGURE_GAP:
            return True
    return False


def _kind(
    ev: Evidence, intent: str, subject: str, screen_words: set[str], examples: list[str]
) -> str:
    """The kind the screen's layout, words and intent weigh most for."""
    t = tables()
    scores: defaultdict[str, float] = defaultdict(float)
    if intent in t.intent_kinds:
        scores[t.intent_kinds[intent]] += 2
    named = " ".join([subject, ev.title, " ".join(sorted(screen_words))]).casefold()
    labels = [
        i["text"] for i in ev.items if i["role"] in ("title", "heading", "label", "action", "tab")
    ]
    labels += ev.icons  # an icon's name says what the screen does ("Table of Contents")
    shown = " ".join(labels).casefold()
    undated = undated_lines("\n".join(labels)).casefold()
    for kind, cues in t.kind_cues.items():
        seen = 0
        for cue in cues:
            pattern = rf"(?<!\w){re.escape(cue)}(?!\w)"
            if re.search(pattern, named):
                scores[kind] += 2
            elif re.search(pattern, undated if kind == "calendar" else shown):
                seen += 1
        if kind == "form":
            continue  # "New run", "Edit tags" buttons do not make a form: its fields do
        if seen >= 2 and (kind != "sign-in" or "password" in shown):
            scores[kind] += min(1.5, 0.5 * seen)
    signed = re.search(r"(?<!\w)(sign in|log in|login|sign-in)(?!\w)", named)
    if "password" not in shown and not signed:
        scores.pop("sign-in", None)  # a "Login" button on a list is no sign-in screen
    _weigh_layout(scores, ev, subject, examples)
    if not scores:
        return "list" if len(examples) >= 3 else "detail"
    kind, score = max(scores.items(), key=lambda kv: kv[1])
    if score < 1.5:
        kind = "list" if len(examples) >= 3 else kind
    return kind


def _weigh_layout(
    scores: defaultdict[str, float], ev: Evidence, subject: str, examples: list[str]
) -> None:
    """What the screen's layout adds to each kind: figures in rows make a table, prose a
    reader, a record's number a detail, inputs a form, many named items a list."""
    numbers = sum(i["role"] == "number" for i in ev.items)
    prose = sum(  # status lines full of figures ("Downloading from 3 of 8 peers") are data
        i["role"] == "text" and len(_words(i["text"])) >= 6 and not _DIGIT.search(i["text"])
        for i in ev.items
    )
    rows = _header_rows(ev.items)
    if rows and numbers >= 4:
        scores["table"] += 3
    elif rows:
        scores["table"] += 1
    if prose >= 4 and prose > len(examples):
        scores["reader"] += 2  # prose more than named items: an article, not cards of packages
    if not subject and ev.title and _key(ev.title) in {_key(e) for e in examples[:1]}:
        scores["detail"] += 2.5  # titled with a name ("Barbell Bench Press"): that one's page
    if _RECORD_ID.search(ev.title) or re.search(r"\w\s+details$", subject, re.IGNORECASE):
        scores["detail"] += 2.5  # "Bug #11", "Order details": one record's own page
    if ev.inputs >= 2 or _empty_labels(ev.items) >= 2:
        scores["form"] += 3
    if re.match(
        r"(new|add|create|edit|editing|compose|write|upload|publish|submit|post(?=\s+\S))\b",
        subject.casefold() or ev.title.casefold(),
    ):
        scores["form"] += 3
    elif subject and is_plural(subject) and not is_feature_phrase(subject, strict=True):
        scores["list"] += 1.5  # "Accounts", "Tags": many of a thing, not one thing's page
    elif subject and is_plural(subject):
        scores["list"] += 1
    if numbers >= 8 and len(examples) < 3:
        scores["chart"] += 1
        scores["dashboard"] += 1
    if len(examples) >= 4:
        scores["list"] += 2


def _empty_labels(items: Sequence[dict]) -> int:
    """Field names with no value beside them ("Title:" over an empty box, a control's own
    label "First Name" over its box): a form's fields, where a record's page puts its
    value on the label's line ("Owner: Nobody")."""
    count = controls = 0
    for k, item in enumerate(items):
        y, h = item.get("y"), item.get("h") or 0.0
        control = _a_field_label(item)
        if item["role"] != "label" or item.get("link"):
            continue
        if not (item["text"].rstrip().endswith(":") or control):
            continue
        after = items[k + 1] if k + 1 < len(items) else None
        below = after.get("y") if after is not None else None
        if y is not None and (below is None or below - y > 1.5 * h):
            # the next line is far below: room for the box to fill; a control's label
            # counts among three or more (two may head a table's columns)
            count += not control
            controls += control
    return count + (controls if controls >= FORM_CONTROLS else 0)


#: Labels of controls, each over room for its box, that make a screen a form.
FORM_CONTROLS = 3


def _a_field_label(item: dict) -> bool:
    """A control's own label that names what it holds ("First Name", "Tags"), not a line
    of content set in a label ("Tubeless setup: which sealant do you all use?")."""
    t = item["text"].strip()
    named = 1 <= len(_words(t)) <= FIELD_WORDS and not t.endswith(("?", ".", "!"))
    return bool(item.get("control")) and named


#: The longest name of a field, in words.
FIELD_WORDS = 3


#: A file's name with its extension: "Portfolio 2025.pdf", "boats-at-dusk.jpg".
_FILE_NAME = re.compile(r"^\S(?:.*\S)?\.([A-Za-z0-9]{2,4})$")
_SIZE_AFTER = re.compile(r"\s*\([^()]*\)$")


def file_names(items: Sequence[dict]) -> list[tuple[str, str]]:
    """The files a screen lists, by name, each with the noun its type goes by ("photo",
    "document", "file"): the names are content, the type says what the screen holds."""
    types = tables().file_types
    out: list[tuple[str, str]] = []
    for item in items:
        name = _SIZE_AFTER.sub("", item["text"].strip())  # "rides.csv (0KB)"
        found = _FILE_NAME.match(name)
        if item["role"] in ("title", "heading", "label", "text") and found:
            ext = found.group(1).casefold()
            noun = next((n for n, exts in types.items() if ext in exts), "")
            if noun and (name, noun) not in out:
                out.append((name, noun))
    return out


#: Kinds of screen a file's name does not make one file's view: it is a thumbnail's, an
#: attachment's, a cell's.
_NOT_ONE_FILE = frozenset("calendar chart map form search settings table sign-in".split())


def _of_files(
    ev: Evidence, kind: str, subject: str, source: str, cx: _SubjectContext
) -> tuple[str, str, list[str]] | None:
    """A screen of files, where no title names it (the subject is only a label): "photos"
    or "files" where it lists them; one file's own view ("boats-at-dusk.jpg" alone, at
    the top) shows a "photo". The noun is one the set shows; None otherwise."""
    files = file_names(ev.items)
    names = [name for name, _ in files]
    weak = not subject or (source == "label" and not _confirmed(subject, cx))
    shown = [n for n in (*dict.fromkeys(noun for _, noun in files), "file") if n in cx.visible]
    if len(files) >= 2 and weak and shown:
        kinds = {noun for _, noun in files}
        return "list", plural(shown[0] if len(kinds) == 1 else "file"), names
    if len(files) != 1:
        return None
    name, noun = files[0]
    stem = _key(name.rsplit(".", 1)[0])
    item = next(i for i in ev.items if _SIZE_AFTER.sub("", i["text"].strip()) == name)
    if kind in _NOT_ONE_FILE or (item.get("y") is not None and item["y"] > TOP_SHARE):
        return None  # a calendar's thumbnail, a form's attachment: not the page's one file
    if (weak or _key(subject) == stem) and noun in shown and noun != "file":
        return "detail", noun, names  # "garden.yaml" on a device's page: no file's own view
    if source == "label":  # "Notes > Garden plan 2026.md": one of the notes, open
        return "detail", singular(subject.casefold()) if is_plural(subject) else subject, names
    return None


#: A record's number in a title: "Bug #11", "Order № 1042".
_RECORD_ID = re.compile(r"(?:#|№)\s?\d+\b")
#: A label that names a field, not a thing: "Group by thread:", "Direction: MINIMIZE".
_FIELD_LABEL = re.compile(r":\s*$|[^\W\d_]:\s*\S")
#: A query or a piece of markup, not a name: 'series:"=Sherlock Holmes"', "{name}".
_MARKUP = re.compile(r"[=<>{}\"“”]")
#: A filter or a section with its count: "Pending (2)", "Valid (6)".
_COUNTED = re.compile(r"\(\d+\)$")
#: The owner before a possessive ("sam's Collections"): the subject is what is owned.
_OWNER = re.compile(r"^[\w.]+['’]s\s+(?=\S)")
#: A status or an empty state, not an item: "Username is empty", "No description",
#: "Showing books matching".
_STATUS = re.compile(r"^(?:no|showing|loading)\b|\b(?:is|are|was|were)\b", re.I)


def _is_control(item: dict) -> bool:
    """A label that is a control or a field's name ("Group by thread:", "Hide workouts",
    "Mark as read"), never what a screen is for."""
    raw = item["text"].strip()
    if _FIELD_LABEL.search(raw):
        return True
    return item["role"] in ("label", "text", "tab") and _verb_led(raw)


#: A link to the record before or after this one ("← Previous Ticket", "Next workout"):
#: the screen is one record, of the type the link names.
_RECORD_STEP = re.compile(
    r"^\W*(previous|prev|next|older|newer)\s+([^\W\d_]{3,})\W*$", re.IGNORECASE
)
#: Steps through time, pages or media, not between records: "Next month", "Next page",
#: "Next song" (a player's skip), "Next chapter" (a reader's).
_NOT_A_RECORD = frozenset(
    "page pages result results period day week month year step slide image song track "
    "episode chapter video item".split()
)


#: A link back up to the list a record came from: "Back to Query", "← Back to Roadmap".
_BACK_TO = re.compile(r"^\W*back\s+to\s+\S", re.IGNORECASE)


def record_type(ev: Evidence) -> str:
    """The type of record a screen shows one of, named by its links to the records before
    and after it ("Previous Ticket" and "Next Ticket": "ticket") or by its heading's id
    ("TASK-2 — …": "task"), "" when it has none."""
    steps: defaultdict[str, set[str]] = defaultdict(set)
    links = [i["text"] for i in ev.items if i["role"] in ("label", "action", "tab", "text")]
    for text in [*links, *ev.icons]:  # an arrow's tooltip too: "Next workout"
        found = _RECORD_STEP.match(text)
        if found and found.group(2).casefold() not in _NOT_A_RECORD:
            back = found.group(1).casefold() in ("previous", "prev", "older")
            steps[singular(found.group(2).casefold())].add("back" if back else "on")
    both = [noun for noun, ways in steps.items() if len(ways) == 2]
    if len(both) == 1:
        return both[0]
    for item in ev.items:  # "TASK-2 — Booking calendar for pet sitters": a task's page
        named = _ID_LED.match(item["text"].strip()) if item["role"] in _HEADS else None
        kind = named.group(0).split("-")[0].casefold() if named else ""
        if kind.isalpha() and is_common_word(kind) and can_be_noun(kind):
            return singular(kind)
    return ""


_HEADS = ("title", "heading")


#: A control that switches something on or off: "Hide presenter cursor", "Show all".
_TOGGLE = re.compile(
    r"(?:hide|show|toggle|enable|disable|switch|turn|mute|unmute|collapse|expand)\b", re.I
)


def _candidates(ev: Evidence, screen_words: set[str]) -> list[tuple[str, str, float]]:
    """Where a screen may name its feature, with a base weight: the title, the last step
    of a breadcrumb, a heading near the top, a label the file name confirms."""
    candidates: list[tuple[str, str, float]] = []
    if ev.title:
        candidates.append((ev.title, "title", 2.0))
    ordering = _ordering(ev)
    for item in ev.items:
        if item["role"] != "heading" and _in_rows_at(item, ordering, ORDERING_ROW):
            continue  # "Sort by  date  activity  votes": how the list is ordered, no name
        if item.get("current") and item["role"] in ("tab", "label", "action"):
            # the page's own item of the menu ("commit" among "summary log tree commit"),
            # not a pressed toggle ("Hide presenter cursor")
            if not _TOGGLE.match(item["text"]):
                candidates.append((item["text"], "current tab", 2.5))
            continue
        y = item.get("y")
        top = y is None or y <= TOP_SHARE
        parts = BREADCRUMB.split(item["text"])
        if len(parts) >= 2 and top and not _HINTED.search(item["text"]):
            candidates.append((parts[-1], "breadcrumb", 3.0))
        elif item["role"] == "heading" and top:
            candidates.append((item["text"], "heading", 1.0))
        elif item["role"] in ("label", "tab", "text") and top and screen_words:
            if _is_control(item) or _RECORD_STEP.match(item["text"]):
                continue
            if _forms(item["text"]) & screen_words:
                candidates.append((item["text"], "label", 0.0))
    return candidates


#: A list's ordering control's own label: the row beside it names orders, not screens.
_SORT_LABEL = re.compile(r"^\s*(?:sort|order)(?:ed)?(?:\s+by)?\s*[:»›>]?\s*$", re.IGNORECASE)
#: An ordering's row is looser than ROW_TOLERANCE: its label is set in smaller type than
#: its buttons, so their tops sit further apart.
ORDERING_ROW = 0.012


def _ordering(ev: Evidence) -> list[float]:
    """The rows, by their top, that hold an ordering control's label ("Sort by")."""
    return [i["y"] for i in ev.items if _SORT_LABEL.match(i["text"]) and i.get("y") is not None]


def _in_rows_at(item: dict, rows: Sequence[float], tolerance: float = ROW_TOLERANCE) -> bool:
    """Whether ``item`` stands on one of the rows whose tops are ``rows``."""
    y = item.get("y")
    return y is not None and any(abs(y - at) <= tolerance for at in rows)


#: Where a screen's own name for itself is read: its title, and its page's document title.
_TITLES = ("title", "page title")
#: Sources that name this one screen even in words every screen shows: the file name, and
#: the menu's item the page marks as its own.
_NAMES_ITSELF = ("screen name", "current tab")


def _shown_forms(ev: Evidence) -> set[str]:
    """Every word a screen shows, lower case and singular."""
    return {w for text in [*(i["text"] for i in ev.items), *ev.icons] for w in _forms(text)}


def _screen_name(screen: str) -> str:
    """The words of a screenshot's file name: "03_write-a-comment.png" -> "write a comment"."""
    name = " ".join(
        w for w in re.sub(r"^\d+[_\-. ]*", "", re.sub(r"\.\w+$", "", screen)).split() if w
    )
    return re.sub(r"[_\-]+", " ", name).strip()


@dataclass
class _SubjectContext:
    """What the set tells about one screen's subject."""

    screen_words: set[str]
    project_key: str
    repeated: set[str]
    content_keys: set[str]
    field_keys: set[str]
    visible: set[str]
    #: titles more than one screen bears (the set's header, not one screen's name)
    shared_titles: set[str] = field(default_factory=set)
    #: subjects another screen's file name claims
    taken: set[str] = field(default_factory=set)
    #: the page's own name in its document title, without the app's ("Statistic" of
    #: "Statistic - buku server"), "" when the title has none
    page: str = ""


def _forms(text: str) -> set[str]:
    """The words of ``text``, lower case and singular ("Top Artists" -> top, artist)."""
    return {singular(w.casefold()) for w in _words(text)}


def _confirmed(text: str, cx: _SubjectContext) -> bool:
    """Whether the screen's file name shares a word with ``text``."""
    return bool(cx.screen_words & _forms(text))


#: Marks no name of a feature holds: brackets, bars, a label's colon before its value.
_NOT_A_NAME = re.compile(r"[\[\]{}|<>]|:\s")
#: A command line's option: "diff --git", "ls -la".
_OPTION = re.compile(r"(?:^|\s)--?[a-z]")


def _score(text: str, source: str, base: float, cx: _SubjectContext) -> tuple[float, bool] | None:
    """A candidate's score and whether it is content (a name: an example, not the
    subject), or None when it cannot be a subject at all."""
    if not text or is_chrome(text) or is_person(text) or not _names_a_thing(text):
        return None
    if _NOT_A_NAME.search(text) or _OPTION.search(text):
        return None  # "home [places" (a menu read through its borders), "History: Day Week",
        # "diff --git" (a command line)
    key = _key(text)
    if not key or key == cx.project_key or _only_function_words(text) or is_generic(text):
        return None
    words = _words(text)
    if _only_function_words(words[-1]):
        return None  # "Availability only in rooms for": a line cut before its figure
    if key in _ACCOUNT_CHROME or _tab_row(text) or key in cx.taken:
        return None
    if _opens_no_subject(text):
        return None  # "by memory consumption", "About this run": a control's, a sort's or
        # a section's words, no thing the screen is for
    if _an_event(text):
        return None  # "Ticket Opened": an event of the record's history, no feature
    if _SEARCH_BOX.match(text):
        return None  # "Quick search": a search box's placeholder, read as the title
    lead = words[0].casefold()
    if len(words) >= 2 and is_bare_verb(lead) and lead not in _MAKES:
        return None  # "Delete clients without reservations" (a button), "Choose kitchen
        # worktop" (a task): what to do, no feature; not "Order details", "Print queue"
    if set(key.split()) <= set(cx.project_key.split()) and (
        source == "title" or len(key.split()) >= 2
    ):  # the logo ("money?" of I Hate Money, a wiki's name in its header), not what the
        return None  # screen is for; "Budget" of Actual Budget may still name a screen
    score = base
    feature = is_feature_phrase(text)
    if feature:
        score += 3
    confirmed = _confirmed(text, cx)
    if confirmed and source != "screen name":
        score += 3
    content = False
    own_title = source in _TITLES and key not in cx.shared_titles
    # one screen's own title in the plural ("Scrobbles") names a collection, even where
    # the set's menu lists it among other labels
    collection = own_title and len(_words(text)) == 1 and is_plural(text)
    long_name = len(_words(text)) > 3 and not feature  # "Aladino y la lámpara maravillosa"
    named = key in cx.content_keys and not collection
    if named or long_name or (written_as_name(text) and len(_words(text)) >= 2):
        content = source in (*_TITLES, "heading") and not confirmed
        score -= 4
    elif cx.page and source != "page title" and _forms(text) == _forms(cx.page):
        score += 2  # the page's document title names it too
    if key in cx.repeated and source not in _NAMES_ITSELF and not confirmed and not own_title:
        score -= 3  # the set's header or tab bar, on every screen: no one screen's feature
    return score, content


def _late_subject(ev: Evidence, cx: _SubjectContext) -> list[tuple[float, str]]:
    """Feature phrases anywhere on a screen whose titles name none, the ones the file
    name confirms first; never the set's navigation, a control or a field's name."""
    late: list[tuple[float, str]] = []
    ordering = _ordering(ev)
    for item in ev.items:
        if item["role"] not in ("heading", "label", "tab", "title", "text") or _is_control(item):
            continue
        if item["role"] != "heading" and _in_rows_at(item, ordering, ORDERING_ROW):
            continue  # "date", "activity": the orders a list may be sorted in
        text = _as_subject(item["text"], max_words=3)
        key = _key(text)
        if not text or not is_feature_phrase(text, strict=True) or written_as_name(text):
            continue
        if not _names_a_thing(text) or _opens_no_subject(text):
            continue
        capitals = [w for w in _words(text) if w[:1].isupper()]
        if item["role"] in ("label", "text") and len(capitals) >= 2:
            continue  # "Paper Lantern Books" in a list is a name, not a section
        low = item.get("y") is not None and item["y"] > TOP_SHARE
        if item["role"] in ("label", "text") and low:
            continue  # rows further down are content ("Books & music")
        if _only_function_words(text) or is_generic(text):
            continue
        if key == cx.project_key or is_chrome(text) or key in cx.field_keys | cx.taken:
            continue  # "Balance" beside its figure names a field, not the screen
        confirmed = _confirmed(text, cx)
        if key in cx.repeated and not confirmed:
            continue
        late.append((2.0 if confirmed else 1.0, text))
    late.sort(key=lambda c: -c[0])
    return late


def _subject(ev: Evidence, screen: str, cx: _SubjectContext) -> tuple[str, str, list[str]]:
    """The subject, where it came from, and titles that were content (examples)."""
    name = _screen_name(screen)
    candidates = _candidates(ev, cx.screen_words)
    bare = not re.fullmatch(r"(screen|screenshot|image|shot|page)?\s*\d*", name, re.I)
    if name and not ev.items and bare:
        # a file name confirms what the screen says; alone only on a bare screen
        candidates.append((name, "screen name", 1.0))
    here = frozenset(_shown_forms(ev))
    if cx.page and _forms(cx.page) <= here:  # the page's name, in words the screen shows
        candidates.append((cx.page, "page title", 2.0))
    best: tuple[float, str, str] | None = None
    entities: list[str] = []
    for raw, source, _ in candidates:
        record = _ID_LED.match(raw.strip())  # "TASK-2 — Booking calendar for pet
        if record and source in (*_TITLES, "heading"):  # sitters": one record's name
            entities.append(record.group(1).strip(_EDGE))
    if entities:  # one record's page, over the list it was opened from: named by it
        return "", "", entities
    files = {raw: _a_file(raw) for raw, source, _ in candidates if source != "screen name"}
    opened = [  # the stems of files open in an editor's tabs: "acids" of "Acids.md"
        _key(files[raw].rsplit(".", 1)[0])
        for raw, source, _ in candidates
        if source == "current tab" and files[raw]
    ]
    for raw, source, base in candidates:
        if _piped(raw):
            continue  # "Profiles | Remote | Movies": a menu read as one line off pixels
        if files.get(raw):
            entities.append(files[raw])  # "Acids.md" open in an editor's tab: one file,
            continue  # content the screen shows, no feature
        if source in _TITLES and any(_key(raw).startswith(f) for f in opened):
            entities.append(raw.strip())  # "Acids and alkalis", the title of "Acids.md"
            continue
        if source in (*_TITLES, "heading") and _a_named_part(raw):
            entities.append(raw.strip())  # "Harrow: the long shore": a chapter's title
            continue
        acting = _ACTING.match(raw.strip())
        if acting and source in _TITLES:  # "Editing Trip Leader Guide": what is edited is
            entities.append(acting.group(2).strip(_EDGE))  # content, the screen an editor
            continue
        spaced = source in _TITLES and _NAMESPACE.match(raw.strip()) is not None
        raw = _NAMESPACE.sub("", raw.strip())  # "Category:Trails": a wiki's page of trails
        undated = _UNDATED.sub("", raw)  # "Reservations table of 12-2026."
        text = re.sub(r"(?:\s+#?\d+)+$", "", undated).strip(_EDGE)  # "Garden Plan 2025"
        text = re.sub(r"^\d[\d,.]*\s+(?=[^\W\d_])", "", text)  # "6 Comments": comments
        text = _as_subject(text, max_words=5)
        scored = _score(text, source, base, cx)
        if scored is None:
            continue
        score, content = scored
        score += NAMESPACED if spaced and not content else 0.0  # the page's own name
        if content:
            entities.append(text)
        if best is None or score > best[0]:
            best = (score, text, source)
    if best is not None and best[0] >= 2:
        named = _named_subject(name, cx.project_key, cx.visible, here) if name else ""
        if named and _narrows(named, best[1]):
            return named, "screen name", entities  # "optimization history" over "History"
        return best[1], best[2], entities
    late = _late_subject(ev, cx)
    if late and late[0][0] >= 2:
        return late[0][1], "label", entities
    named = _named_subject(name, cx.project_key, cx.visible, here)
    if named:  # what the file is called, in words the app shows
        return named, "screen name", entities
    if late and not entities:  # a section further down ("Notes") is no subject of a page
        return late[0][1], "label", entities  # whose title names what it is about
    return "", "", entities


def _a_named_part(title: str) -> bool:
    """A title that names one part of a work: a name, a colon, what it is about
    ("Harrow: the long shore", "Fennick: pines and dunes"); not a field and its value
    ("History: Day Week", "Status: open"), whose first word is an everyday one."""
    head, colon, rest = title.strip().partition(": ")
    if not colon or not rest or _NOT_A_NAME.search(head) or _NOT_A_NAME.search(rest):
        return False
    words = _words(head)
    if not words or len(words) > 3 or not all(w[:1].isupper() for w in words):
        return False
    everyday = any(word_frequency(w.casefold()) >= _EVERYDAY for w in words)
    return not everyday and len(_words(rest)) >= 2


#: A search box's own words: "Quick search", "Global search", "Full-text search".
_SEARCH_BOX = re.compile(r"^(?:quick|global|instant|full[- ]text)\s+search\W*$", re.IGNORECASE)

#: Words a screen's name may not open with: what follows is the rest of a task.
_PREPOSITIONS = frozenset("in on at for to by of with from into".split())

#: A word this frequent (Zipf) is an everyday one ("History", "Status", "Chapter"), no name.
_EVERYDAY = 4.0


def _a_file(text: str) -> str:
    """The file a tab or a title names, without its close button's mark ("× Lisbon
    trip.md"), or "" when it names none."""
    name = re.sub(r"^[^\w\"“'‘(]+|\s*[×✕✖]$", "", text.strip())
    return name if file_names([{"role": "label", "text": name}]) else ""


#: A wiki's namespace before a page's name, no word between: "Category:Trails",
#: "Help:Editing". The name after it is what the page is about.
_NAMESPACE = re.compile(r"^(?:Category|Help|Portal|Project|Special|Template):(?=[^\W\d_])")

#: What a title's name after its wiki namespace adds: it names the page, over the
#: namespace's own label ("Category").
NAMESPACED = 5.0

#: A title's closing date or number after "of", "for" or "in": "Reservations table of
#: 12-2026." names the reservations table.
_UNDATED = re.compile(r"\s+(?:of|for|in|on)\s+\d[\d\-/.:]*\.?\s*$", re.IGNORECASE)

#: Verbs whose button names what a form makes ("Create ticket", "New thread").
_MAKES = frozenset("add create new compose write post publish submit start book edit".split())

#: A heading led by a record's id: "TASK-2 — Booking calendar", "BUG-104: Crash on save".
_ID_LED = re.compile(r"^[A-Z][A-Z0-9]{1,9}-\d+\s*[—–:-]\s*(\S.+)$")

#: A title that says what is being done to a named thing: "Editing Trip Leader Guide",
#: "Exploring: Crumb & Co. Bakery" (a name of two words or more, capitalised or quoted;
#: not "Editing profile", nor a feature such as "Reading list").
_ACTING = re.compile(r"^(editing|exploring)\b:?\s+([A-Z0-9\"“'‘][^\s]*\s+\S.*)$", re.IGNORECASE)


def _narrows(name: str, subject: str) -> bool:
    """Whether a file name names the subject more closely: every word of the subject and
    more ("optimization history" of "History", "sprint board" of "Board")."""
    subject_words, name_words = _forms(subject), _forms(name)
    more = name_words - subject_words
    function_words = copy_vocabulary().function_words
    # the words added must name something ("collections more" adds nothing)
    adds = any(w not in function_words and w not in _NOT_A_NOUN for w in more)
    return bool(subject_words) and subject_words < name_words and adds


#: Section names that say where, not what: never a subject alone, even as a file name
#: ("home", "today", "explore"); "library", "inbox" or "history" name what a screen holds.
_NOT_A_NOUN = frozenset(
    "home main start more all other me you today upcoming recent past saved explore "
    "discover browse total details info options search".split()
)


def _names_a_thing(text: str) -> bool:
    """Whether a phrase can name a thing ("Harvest Log", "Settings", "Now playing"), not an
    act or a state ("Settle", "Saved", "Downloading", "To do"). A lone word must be able
    to be a noun; a phrase must not end on a particle or a bare "do"."""
    words = [w.casefold() for w in _words(text)]
    if not words or words[-1] in _NOT_AN_END:
        return False
    if len(words) == 1 and words[0] in _OUTCOMES:
        return False  # "Success", "Failed": how a run ended, no screen's feature
    if len(words) == 1 and _a_participle(words[0]):
        return False  # "Favorited", "Archived": a state a thing is in
    # a word no dictionary knows is the app's own noun ("Scrobbles", "Tiddlers")
    # "commit" and "log" are nouns too, though the lexicon holds them as verbs only
    also_nouns = copy_vocabulary().verbs_also_nouns
    return (
        len(words) > 1 or can_be_noun(words[0]) or words[0] in also_nouns or not is_word(words[0])
    )


def _a_participle(word: str) -> bool:
    """A verb's past participle ("favorited", "archived", "shared"): its stem without
    "d" or "ed" is a word ("favorite", "archive"); not "hundred", nor a short "feed"."""
    return len(word) >= 6 and word.endswith("ed") and (is_word(word[:-1]) or is_word(word[:-2]))


#: How a run, a job or a check ended: a status, never what a screen is for.
_OUTCOMES = frozenset(
    "success succeeded successful failed failure canceled cancelled skipped queued".split()
)
#: Words that open a state or a value, not a thing's name ("On lead", "In stock").
_PLACE_WORDS = frozenset("on in at off by for with without to from under over into".split())

#: Words that open a section's heading, not a thing's name ("About this run", "Via
#: email"): no subject, though a book or a song may be called so ("About a Boy").
_NOT_A_START = frozenset(
    "about via through across after before during within per which what how why who whose "
    "where when".split()
)


_NO_SUBJECT_START = _PLACE_WORDS | _NOT_A_START
#: Words no item of content opens with: a state or a value ("On lead"), an order ("As
#: loaded").
_NO_ITEM_START = _PLACE_WORDS | {"as"}


def _opens_no_subject(text: str) -> bool:
    words = _words(text)
    if len(words) >= 3 and words[1].casefold() == "by" and words[0].casefold() in _ORDERS:
        return True  # "Group by Category", "Sort by date": how a list is ordered
    return bool(words) and words[0].casefold() in _NO_SUBJECT_START


#: Verbs of a control that orders a list by something ("Group by Category").
_ORDERS = frozenset("group sort order filter arrange organize organise".split())

#: Words a subject phrase never ends on ("To do", "Sign in", "Set up").
_NOT_AN_END = frozenset("do done in up on out off it to".split())


def _named_subject(
    name: str, project_key: str, visible: set[str], here: frozenset[str] = frozenset()
) -> str:
    """The screen's file name as its subject ("bookmarks", "new bookmark", "weekly pulse")
    when the app shows its words (in a tab, a menu, a title), or at least half of them on
    that very screen ("device menu" over a device's menu, "book details" on a book's
    page: what the user called the screen, which the screen bears out); "" when it names
    no feature: a number, a generic place ("home", "main"), the app's own name, a person,
    a value, a word no dictionary knows ("img", "scr") or words the screen does not show."""
    if re.fullmatch(r"(screen|screenshot|image|shot|page|img|scr)?\s*\d*", name, re.I):
        return ""
    text = _as_subject(name, max_words=4)
    key = _key(text)
    if not text or key == project_key or is_generic(text) or is_person(text) or is_data(text):
        return ""
    if _an_event(text):
        return ""  # "survey submitted": what happened, not what the screen holds
    voc = copy_vocabulary()
    if _words(text)[0].casefold() in _PREPOSITIONS:
        return ""  # "in book" of "find in book": the rest of a task, no thing
    if _only_function_words(text) or (key in voc.generic_sections and key in _NOT_A_NOUN):
        return ""
    words = _words(text)
    if not all(is_word(w.casefold()) or singular(w.casefold()) in visible for w in words):
        return ""  # "scr", "img2": no word; "yaml" counts when the app shows it
    if not _names_a_thing(text):
        return ""  # "settle", "downloading", "important": what it does, not what it holds
    fw = voc.function_words
    content = [singular(w.casefold()) for w in words if w.casefold() not in fw]
    if all(w in visible for w in content):
        return text
    if len(content) >= 2 and 2 * sum(w in here for w in content) >= len(content):
        return text  # "device menu": the menu of a device, named by the user
    return ""  # what the user called it, but the app never says it: not its words


def _set_context(
    evidence: Sequence[Evidence], texts: Sequence[str] | None
) -> tuple[set[str], set[str], set[str], set[str]]:
    """What the whole set tells: the labels repeated on most screens (its navigation), any
    line on most screens (furniture, never an example), the
    labels that stand in a list somewhere (content: "Everyday Checking") and every word
    the app shows (a file name in them names a screen in the app's own words)."""
    n = len(evidence)
    per_screen = [
        {
            _key(i["text"])
            for i in ev.items
            if i["role"] in ("label", "tab", "action", "heading", "title")
        }
        for ev in evidence
    ]
    counts = Counter(k for keys in per_screen for k in keys)
    repeated = {k for k, c in counts.items() if c >= 3 and c > 0.6 * n}
    everywhere = _furniture(evidence)
    content_keys: set[str] = set()
    for ev in evidence:
        labels = [i for i in ev.items if i["role"] == "label"]
        if len(labels) >= 3:
            content_keys |= {
                _key(i["text"]) for i in labels if written_as_name(i["text"]) and i["text"]
            }
    visible = {singular(w.casefold()) for text in texts or () for w in _words(text)}
    visible |= {
        singular(w.casefold()) for ev in evidence for i in ev.items for w in _words(i["text"])
    }
    # an icon's name ("Table of Contents") is the app's word for what it does: it bears
    # out what the user called a screen, though it names no subject itself
    visible |= {singular(w.casefold()) for ev in evidence for t in ev.icons for w in _words(t)}
    return repeated, everywhere, content_keys, visible


#: How far (a share of the height) a line may move between screens and still be the
#: same piece of furniture.
FURNITURE_DRIFT = 0.05


def _on_every_screen(evidence: Sequence[Evidence]) -> set[str]:
    """The lines every screen of a set of three or more shows, wherever they stand: an
    instance's own name over each page ("Harbour Lane Brewhouse")."""
    keys = [{_key(i["text"]) for i in ev.items} for ev in evidence]
    return set.intersection(*keys) if len(keys) >= 3 else set()


def _furniture(evidence: Sequence[Evidence]) -> set[str]:
    """Lines at the same height on most screens (a machine's name in a status bar), or on
    every screen ("This data as"): the set's furniture, not one screen's content. The
    same records shown in several views ("Fernhill Market" in a journal and a search)
    move with the view."""
    heights: dict[str, list[float | None]] = {}
    for ev in evidence:
        first: dict[str, float | None] = {}
        for i in ev.items:
            first.setdefault(_key(i["text"]), i.get("y"))
        for k, y in first.items():
            heights.setdefault(k, []).append(y)
    n = len(evidence)
    out = _on_every_screen(evidence)
    for k, ys in heights.items():
        known = sorted(y for y in ys if y is not None)
        middle = known[len(known) // 2] if known else 0.0
        same = sum(y is None or abs(y - middle) <= FURNITURE_DRIFT for y in ys)
        if same >= 3 and same > 0.6 * n:
            out.add(k)  # in place on most screens
    return out


def _row_controls(ev: Evidence) -> set[str]:
    """Labels that are controls or states of a screen's rows: on three rows or more
    ("Logs", "Edit" under each device), or short labels on a button's row."""
    on_screen = Counter(_key(i["text"]) for i in ev.items)
    per_row = {k for k, c in on_screen.items() if c >= 3}
    action_rows = [i["y"] for i in ev.items if i["role"] == "action" and i.get("y") is not None]
    per_row |= {
        _key(i["text"])
        for i in ev.items
        if i["role"] == "label" and len(_words(i["text"])) <= 2 and _in_rows_at(i, action_rows)
    }
    return per_row


def _is_value(item: dict) -> bool:
    """A field's value: a figure, a date, a path, or a lower-case word ("photos")."""
    raw = item["text"].strip()
    return (
        item["role"] == "number"
        or is_data(raw)
        or bool(_PATH.search(raw) or raw.startswith("~"))
        or (item["role"] == "text" and raw[:1].islower() and len(_words(raw)) <= 2)
    )


def _field_names(items: Sequence[dict]) -> set[int]:
    """The labels of a screen's key-value rows: a common-word label with a value on its
    own row ("Created at  25-11-2026"); and labels stacked over their values ("Folder
    Path" over "~/Sync/Photos", "Global State" over "7 files") where three or more such
    short labels stand in one column over values of more than one sort (a path, a word, a
    figure: a record's fields, not cards of workouts each with its minutes), with every
    short common-word label among them ("Local State", whose value is a picture)."""
    stacked: set[int] = set()
    beside: set[int] = set()
    for k, item in enumerate(items[:-1]):
        y, below = item.get("y"), items[k + 1].get("y")
        if item["role"] != "label" or y is None or below is None or not _common(item["text"]):
            continue
        if not _is_value(items[k + 1]):
            continue
        if abs(below - y) <= ROW_TOLERANCE:
            beside.add(k)
        elif 0 < below - y <= FIGURE_GAP and len(_words(item["text"])) <= 2:
            stacked.add(k)
    if len(stacked) < 3 or all(items[k + 1]["role"] == "number" for k in stacked):
        return beside
    top = min(items[k]["y"] for k in stacked)
    bottom = max(items[k]["y"] for k in stacked) + 2 * FIGURE_GAP
    return (
        beside
        | stacked
        | {
            k
            for k, i in enumerate(items)
            if i["role"] == "label"
            and i.get("y") is not None
            and top <= i["y"] <= bottom
            and _common(i["text"])
            and len(_words(i["text"])) <= 2
        }
    )


#: Rows of a label with its value beside it that make a record's table of facts.
KEY_VALUE_ROWS = 3


def _key_value_rows(items: Sequence[dict]) -> set[int]:
    """The labels and values of a record's table of facts: three or more rows, each a
    short label with one value beside it ("Scientific name  Erithacus rubecula", "Length
    12.5–14 cm", "UK status  Green"). Neither side is an item of content: the labels name
    fields, the values belong to them."""
    rows: list[int] = []
    for k, item in enumerate(items[:-1]):
        value = items[k + 1]
        y, beside = item.get("y"), value.get("y")
        if item["role"] != "label" or y is None or beside is None:
            continue
        if abs(beside - y) > ROW_TOLERANCE or value["role"] not in ("text", "number"):
            continue
        if len(_words(item["text"])) <= 3 and _common(item["text"]):
            rows.append(k)
    if len(rows) < KEY_VALUE_ROWS:
        return set()
    return {i for k in rows for i in (k, k + 1)}


#: A word read by OCR this short that no dictionary knows is more likely a misreading
#: ("Tawn", "Dact", "Heare") than a name ("Sintel", "Aladino").
MISREAD_LETTERS = 5


def _misread(text: str) -> bool:
    """Whether an item read off the pixels holds a short word no dictionary knows."""
    return any(
        len(w) <= MISREAD_LETTERS and not is_word(w.casefold()) and not w.isupper()
        for w in _words(text)
    )


#: A person speaking, not a name: "You will need", "We grow eleven varieties".
_SPEAKS = re.compile(r"^(?:you|we|i|they|he|she)\b", re.IGNORECASE)
#: The words a footer puts before the app's maker: "Powered by", "By", "Generated by".
_MAKER_LEADS = frozenset(
    ["by", "powered by", "generated by", "built with", "made with", "made by", "hosted by"]
)


#: A title in two parts, a name and a sentence after its colon ("Literature notes: what
#: you read, in your words"); not a field with its value ("Submitter: Priya Raman").
_TITLE_HEAD = re.compile(r"^([^:]{3,40}):\s+([^\s:]+(?:\s+[^\s:]+){3,})$")


def _an_event(text: str) -> bool:
    """Words ending on a participle no noun shares ("Ticket Opened", "Correspondence
    added"): what happened, not a thing."""
    words = _words(text)
    last = words[-1].casefold() if words else ""
    return len(words) >= 2 and last.endswith("ed") and is_verb_only(last)


def _no_item(text: str, function_words: frozenset[str]) -> bool:
    """Whether ``text``, read as an item, is none: a control, a section, a state, a piece
    of a sentence, an event."""
    if _verb_led(text) or is_generic(text):
        return True  # "Reload", "Sort descending", "Name": controls and furniture
    if _RECORD_STEP.match(text) or _BACK_TO.match(text):
        return True  # "Next Milestone", "Back to Roadmap": ways between pages
    if _words(text) and _words(text)[-1].casefold() in _NOT_AN_END:
        return True  # "To do", "Sign in": a heading or a control, not an item
    if len(_words(text)) > 1 and _words(text)[0].casefold() in _NO_ITEM_START:
        return True  # "On lead", "In stock", "As loaded": a state, a value, an order
    if len(_words(text)) > 1 and _words(text)[-1].casefold() in function_words:
        return True  # "This data as", "See all": the start of a sentence or a link
    if len(_words(text)) == 1 and not text[:1].isupper() and not text.startswith("#"):
        return True  # a lone lower-case word is a label, not an item
    if len(_words(text)) == 1 and not can_be_noun(text):
        return True  # "Deciduous", "Bold": a value or a style, no thing a caption can name
    if _words(text)[0].casefold() in function_words and text[:1].islower():
        return True  # "as loaded": the rest of a line, not an item's name
    if _unbalanced(text) or re.search(r"['’]s$", text):
        return True  # "containing 'bl", "This week's": cut off before what it names
    return _an_event(text)  # "Recently modified", "Correspondence added": no item


#: What is left of a token after a word inside it ("Survey:" after "Survey").
_REST_OF_TOKEN = re.compile(r"\S*")


def _after_a_shared_lead(items: Sequence[dict]) -> dict[int, str]:
    """Links that start with the same control's words, each followed by its own item
    ("Take the Survey Reader satisfaction survey 2026", "Take the Survey Summer reading
    challenge feedback"): the item after the lead, by the link's index."""
    links = {k: _words(i["text"]) for k, i in enumerate(items) if i["role"] == "label"}
    function_words = copy_vocabulary().function_words
    rests: dict[int, str] = {}
    for size in (4, 3, 2):  # one verb alone leads a log's lines too ("Add", "Fix")
        leads: defaultdict[tuple[str, ...], list[int]] = defaultdict(list)
        for k, words in links.items():
            if k not in rests and len(words) >= size + 2:
                leads[tuple(w.casefold() for w in words[:size])].append(k)
        for lead, ks in leads.items():
            if len(ks) < 2 or is_given_name(lead[0]) or lead[-1] in function_words:
                continue  # "Harry Potter and the": a name's start, not a control
            texts = [items[k]["text"].strip() for k in ks]
            if not can_be_verb(lead[0]) or any(
                a != b and b.startswith(a) for a in texts for b in texts
            ):
                continue  # "Docs: frost dates" and its row "Docs: frost dates ... by Aiko"
            for k, text in zip(ks, texts):
                # the lead ends with the token its last word is in; words are counted as
                # _words counts them ("site.yml" is two), not by the spaces between them
                at = [m.end() for m in _LETTERS.finditer(text)][size - 1]
                token = _REST_OF_TOKEN.match(text, at)
                at = token.end() if token else at
                if ":" not in text[:at]:  # "Docs: frost dates for": a title's head
                    rests[k] = text[at:].strip()
    return rests


def _examples(ev: Evidence, seen: set[str], skip: set[str], project_words: set[str]) -> list[str]:
    """The content items a screen shows, kept whole, in reading order."""
    examples: list[str] = []
    field_names = _field_names(ev.items) | _key_value_rows(ev.items)
    function_words = copy_vocabulary().function_words
    items = ev.items
    rests = _after_a_shared_lead(items)
    answers = _answers(items)
    for k, item in enumerate(items):
        if item["role"] not in ("label", "heading", "title", "text") or k in answers:
            continue  # "Very easy", "Quite easy": answers to pick, not items
        if _a_field_label(item):
            continue  # "First Name" over its box: what a form asks for, no item
        raw = rests.get(k, item["text"]).strip()
        titled = _TITLE_HEAD.match(raw) if item["role"] == "label" else None
        if titled:  # "Tubeless setup: which sealant do you all use?": a thread's title
            raw = titled.group(1).strip()
        if item["role"] == "text" and (
            len(_words(raw)) > 5 or raw[:1].islower() or raw.endswith((".", "!", "?", ","))
        ):
            continue  # a line of prose, or the rest of one: not an item's name
        if _COUNTED.search(raw):
            continue  # "Pending (2)", "Valid (6)": a filter with its count, not an item
        if _FIELD_LABEL.search(raw) or _STATUS.search(raw) or k in field_names:
            continue  # "Direction: MINIMIZE", "No description", "Uptime  2h": fields, states
        if _SPEAKS.match(raw) or _SYNTAX.search(raw):
            continue  # "You will need:", "We recommend": a sentence's start, not a name
        if item.get("link") and _verb_led(raw):
            continue  # "Update Metadata", "Kill Source": a link that does, no content
        if k and items[k - 1]["text"].strip().casefold() in _MAKER_LEADS:
            continue  # "Powered by Trac 1.6 By Edgewall Software": who made the app
        text = clean_item(
            raw if titled or k in rests else item["text"], place=item["role"] == "title"
        )
        key = _key(text)
        if not text or key in seen or key in skip or is_chrome(text):
            continue
        if item.get("source") == "ocr" and _misread(text):
            continue  # "Tawn", "Widget Por": a short word no dictionary knows, read off pixels
        if is_feature_phrase(text) and not written_as_name(text):
            continue  # a section's name, not an item of content
        if _no_item(text, function_words):
            continue
        if project_words and set(key.split()) <= project_words:
            continue  # the app's own name ("BUKU")
        seen.add(key)
        examples.append(text)
    return examples


def _sections(ev: Evidence) -> set[str]:
    """The keys of a screen's headings other than its title."""
    return {_key(i["text"]) for i in ev.items if i["role"] == "heading"}


def _unbalanced(text: str) -> bool:
    """A quote or bracket opened and not closed: part of a line, cut off."""
    pairs = (("(", ")"), ("[", "]"), ("“", "”"))
    if any(text.count(a) != text.count(b) for a, b in pairs):
        return True
    # single quotes at a word's edge; not the apostrophe inside one ("Sam's", "Sam’s")
    quotes = re.findall(r"(?<!\w)['‘’]|['‘’](?!\w)|\"", text)
    return len(quotes) % 2 == 1


def _mailed(ev: Evidence) -> set[str]:
    """The names in the screen's e-mail addresses ("freja.andersen@example.dk" -> freja,
    andersen): the people a list of guests or contacts shows."""
    found = set()
    for item in ev.items:
        for local in re.findall(r"([\w.+-]+)@[\w-]+\.[\w.]+", item["text"]):
            found |= {fold(w) for w in re.split(r"[._+-]", local) if len(w) >= 3}
    return found


def _name_alone(word: str) -> bool:
    """A family or given name of the census lists that English does not write as a word
    ("Kowalski", "Aoife"; not "Baker", "Grace")."""
    return is_surname(word) or (is_given_name(word) and not is_common_word(word))


#: A chat room's name: "#general", "#3d-printing".
_CHANNEL = re.compile(r"#[^\W_][\w-]{1,30}")


def _channels(ev: Evidence) -> list[str]:
    """The chat rooms a conversation screen names, the one it is in first (its header)."""
    found = [i["text"].strip() for i in ev.items if _CHANNEL.fullmatch(i["text"].strip())]
    return list(dict.fromkeys(found))[:4]


def _without_people(examples: list[str], mailed: AbstractSet[str] = frozenset()) -> list[str]:
    """Items without people's names: never named in a caption. ``mailed`` holds names the
    screen's e-mail addresses spell ("Freja", "Andersen" beside freja.andersen@...)."""
    examples = [e for e in examples if fold(e) not in mailed]
    single = [e for e in examples if len(_words(e)) == 1]
    # guests' names ("Novak", "Rossi", "Aoife") count as people in a list of them
    people = sum(is_person(e) or (e[:1].isupper() and _name_alone(e)) for e in single)
    if len(single) >= 2 and people * 2 >= len(single):
        examples = [e for e in examples if len(_words(e)) > 1]  # a list of people
    return [e for e in examples if not is_person(e)]


def _contexts(
    evidence: Sequence[Evidence],
    screens: Sequence[str],
    project: str,
    texts: Sequence[str] | None,
    page_titles: Sequence[str] | None = None,
) -> tuple[list[_SubjectContext], set[str], list[list[str]]]:
    """Each screen's subject context, the lines on most screens (never examples) and each
    screen's fields as read before its kind is known."""
    repeated, everywhere, content_keys, visible = _set_context(evidence, texts)
    pages = page_names(page_titles or [""] * len(evidence), project)
    titles = Counter(_key(ev.title) for ev in evidence if ev.title)
    shared_titles = {k for k, c in titles.items() if c > 1}
    contexts = []
    hints = [_fields(ev, "") for ev in evidence]
    for ev, screen, hint, page in zip(evidence, screens, hints, pages):
        per_row = _row_controls(ev)
        contexts.append(
            _SubjectContext(
                screen_words=_screen_words(screen),
                project_key=_key(project),
                repeated=repeated | per_row,
                content_keys=content_keys,
                field_keys={_key(f) for f in hint} | per_row,
                visible=visible,
                shared_titles=shared_titles,
                page=page,
            )
        )
    return contexts, everywhere, hints


#: A part of a page title that names no page: an address, an id, a run's state.
_NOT_A_PAGE = re.compile(r"://|^\S+\.\w{2,}(?::\d+)?$|\b[0-9a-f]{7,}\b|^\[.*\]$|\d{2,}", re.I)


def page_names(titles: Sequence[str], project: str) -> list[str]:
    """Each page's own name in its document title: the first part that is neither the
    app's name (the part most titles share, or the project's words) nor an address or an
    id. "Runs - Experiment 1 - MLflow" -> "Runs"; "" for a title every page shares, and
    for a name several pages bear ("Dashboard" over a calendar and a chart: no one's)."""
    parts = [title_parts(t) for t in titles]
    shown = [p for p in parts if p]
    counts = Counter(_key(x) for p in shown for x in set(p))
    shared = {k for k, c in counts.items() if len(shown) >= 2 and c * 2 > len(shown)}
    project_words = set(_key(project).split())
    names = []
    for p in parts:
        own = [
            x
            for x in (_without_name(part, project) for part in p if _key(part) not in shared)
            if _key(x)
            and not set(_key(x).split()) <= project_words
            and not _NOT_A_PAGE.search(x)
            and len(_words(x)) <= 5
        ]
        names.append(_last_step(own[0]) if own else "")
    borne = Counter(_key(n) for n in names if n)
    return [n if borne[_key(n)] == 1 else "" for n in names]


def _last_step(part: str) -> str:
    """A path's last step, where the page says which page of a thing it is:
    "tidewatch.git/summary" -> "summary"; a part that is no path stays whole."""
    steps = part.split("/")
    if len(steps) >= 2 and " " not in part and steps[-1].isalpha():
        return steps[-1]
    return part


def _without_name(part: str, project: str) -> str:
    """A title part without the app's name around it: "Isso admin" -> "admin"."""
    if not project.strip():
        return part
    name = re.escape(project.strip())
    return re.sub(rf"^{name}\s+(?=\S)|(?<=\S)\s+{name}$", "", part, flags=re.I).strip()


def _says_all(text: str, cx: _SubjectContext) -> bool:
    """Whether the screen's file name holds every content word of ``text``."""
    function_words = copy_vocabulary().function_words
    words = {singular(w.casefold()) for w in _words(text) if w.casefold() not in function_words}
    return bool(words) and words <= cx.screen_words


def _subjects(
    evidence: Sequence[Evidence], screens: Sequence[str], contexts: list[_SubjectContext]
) -> list[tuple[str, str, list[str]]]:
    """Every screen's subject. A subject two screens share belongs to the one whose file
    name says it ("Table of Contents" of "table of contents", not of "notebook tables",
    where it is a sidebar's label); the others are read again without it."""
    found = [_subject(ev, screen, cx) for ev, screen, cx in zip(evidence, screens, contexts)]
    keys = Counter(_key(f[0]) for f in found if f[0])
    for key in [k for k, c in keys.items() if c > 1]:
        named = [i for i, f in enumerate(found) if _key(f[0]) == key]
        owners = [i for i in named if _says_all(found[i][0], contexts[i])]
        owners = owners or [i for i in named if _confirmed(found[i][0], contexts[i])]
        if not owners or len(owners) == len(named):
            continue
        for i in named:
            if i not in owners:
                contexts[i].taken.add(key)
                found[i] = _subject(evidence[i], screens[i], contexts[i])
    return found


#: A count of what a search found: "6 pages", "11 messages".
_FOUND = re.compile(r"\b\d[\d,]*\s+([^\W\d_]{3,})\b")
#: Counts that say how a search went, not what it searched.
_NOT_SEARCHED = frozenset(
    "results result matches match hits hit items item seconds milliseconds ms sites".split()
)


#: A search's own count of what it found, with what it was asked: "8 results tagged",
#: "3 results for 'lake'", "12 matches for".
_RESULTS = re.compile(
    r"^\d[\d,]*\s+(?:results?|matches|hits)\s+(?:for|tagged|with|in|matching)\b\s*(.*)$",
    re.IGNORECASE,
)


def _results_for(ev: Evidence) -> str | None:
    """What a screen of search results was asked ("cycling" after "8 results tagged"),
    "" when it does not say, ``None`` when the screen shows no such count."""
    for item, after in zip(ev.items, [*ev.items[1:], None]):
        found = _RESULTS.match(item["text"].strip())
        if not found or item.get("y") is None or item["y"] > TOP_SHARE:
            continue
        asked = found.group(1).strip(" '\"‘’“”") or (after["text"] if after else "")
        return asked.strip(" '\"‘’“”") if len(_words(asked)) <= 4 else ""
    return None


def _searched(ev: Evidence) -> str:
    """What a search screen searches, named by the count of what it found ("Search
    matched 6 pages": pages), "" when it shows no such count."""
    for item in ev.items:
        for found in _FOUND.finditer(item["text"]):
            noun = found.group(1)
            if noun.casefold() in _NOT_SEARCHED | _MEASURES or not noun.islower():
                continue  # "5 miles" of a walk the search found: a measure, no thing
            if is_plural(noun) and is_common_word(noun) and can_be_noun(noun):
                return noun
    return ""


#: A count standing alone: "4 products", "12 check-ins".
_COUNT = re.compile(r"^\d[\d,]*\s+([^\W\d_][\w-]{2,})$")


#: Counts of a measure, not of things a list holds: "15 minutes", "8,432 steps".
_MEASURES = frozenset(
    "seconds minutes mins hours hrs days weeks months years steps calories kcal points pts "
    "miles kilometres kilometers metres meters feet times".split()
)


#: One thing's page names it in its title, a heading, or its first lines: this share of
#: the screen from the top.
NAME_SHARE = 0.2
#: A record's number after its name: "Bank feed stopped syncing #4".
_RECORD_NUMBER = re.compile(r"\s*#\d+$")


def _series(ev: Evidence) -> list[str]:
    """What a chart plots, named by its legend: the parts of a heading that the page
    writes as separate words on its row ("Short-term load" and "Long-term load" of the
    heading "Short-term load Long-term load"), everyday words without figures."""
    out: list[str] = []
    heads = [i for i in ev.items if i["role"] in ("title", "heading") and i.get("y") is not None]
    for head in heads:
        parts = [
            i["text"].strip()
            for i in ev.items
            if i["role"] in ("text", "label")
            and i.get("y") is not None
            and abs(i["y"] - head["y"]) <= ROW_TOLERANCE
            and i["text"].strip() in head["text"]
            and i["text"].strip() != head["text"].strip()
        ]
        for part in parts if len(parts) >= 2 else []:
            if not _DIGIT.search(part) and _key(part) not in map(_key, out):
                out.append(part)
    return out[:4]


def _its_own_name(ev: Evidence, examples: list[str]) -> list[str]:
    """The examples one thing's page may be named by: its title or a heading ("Bank feed
    stopped syncing transactions #4" without its number), never the names of its fields
    ("Due Date", "Other Info")."""
    top = [
        i["text"].strip()
        for i in ev.items
        if i["role"] in ("title", "heading") or (i.get("y") or 0) <= NAME_SHARE
    ]
    tops = [_key(t) for t in top]
    named = [e for e in examples if any(_key(e) in t for t in tops)]  # whole or a part
    if not named and examples and not all(is_common_word(w) for w in _words(examples[0])):
        named = examples[:1]  # "Sintel": a name no dictionary holds, the thing's own
    title = clean_item(_RECORD_NUMBER.sub("", ev.title.strip()), place=True)
    if title and _RECORD_NUMBER.search(ev.title.strip()) and _key(title) not in map(_key, named):
        named.insert(0, title)  # "Bank feed stopped syncing transactions": ticket #4
    return named


def _of_a_person(ev: Evidence) -> bool:
    """Whether the page's first heading names one person ("Ruth Penrose (103)"): that
    person's page."""
    for item in ev.items:
        if item["role"] in ("title", "heading") and (item.get("y") or 0) <= TOP_SHARE:
            return is_person(re.sub(r"\s*[(#]\d+\)?$", "", item["text"].strip()))
    return False


def _counted(ev: Evidence) -> str:
    """What a list counts at its top ("4 products": products), "" when it has no count
    of its own."""
    for item, after in zip(ev.items, [*ev.items[1:], {}]):
        text = item["text"].strip()
        y, beside = item.get("y"), after.get("y")
        if (
            text.isdigit()
            and y is not None
            and beside is not None
            and abs(y - beside) <= ROW_TOLERANCE
        ):
            text = f"{text} {after['text'].strip(' ·•|:')}"  # "24", "shaares ·"
        found = _COUNT.match(text)
        if not found or item.get("y") is None or item["y"] > TOP_SHARE:
            continue
        noun = found.group(1)
        if noun.casefold() in _NOT_SEARCHED | _MEASURES or not noun.islower() or is_data(noun):
            continue
        if is_plural(noun) and can_be_noun(noun.replace("-", "")):
            return noun
    return ""


#: A button that buys what the page shows: "Add to cart", "Add to basket", "Buy now".
_BUYS = re.compile(r"^(?:add to (?:cart|basket|bag)|buy(?: now| it)?)$", re.IGNORECASE)
#: A price: "$48.00", "€ 12,50", "48.00 €".
_PRICE = re.compile(r"^(?:[$€£¥]\s?\d[\d,.]*|\d[\d,.]*\s?[$€£¥])$")


def _on_sale(ev: Evidence) -> str:
    """The name of the one thing a shop's page sells (a title with its price just below,
    and a button that buys it), "" on any other page, a grid of priced cards too."""
    items = ev.items
    buys = sum(bool(_BUYS.match(i["text"].strip())) for i in items)
    quantity = any(re.match(r"(?:quantity|qty)\b", i["text"], re.I) for i in items)
    if buys > 1 or not (buys or quantity):
        return ""  # one button per card: a grid; neither button nor quantity: no sale
    if any(i.get("link") and re.search(r"[$€£¥]\s?\d", i["text"]) for i in items):
        return ""  # "Autumn Leaf $34.00" links to its page: a card of a list
    for k, item in enumerate(items[:-1]):
        after = items[k + 1]
        if item["role"] != "title" or not _PRICE.match(after["text"].strip()):
            continue
        y, below = item.get("y"), after.get("y")
        if y is None or below is None or 0 <= below - y <= FIGURE_GAP:
            return item["text"].strip()
    return ""


#: A collection's name, then one of its items: "Articles: Hut to hut in the Dolomites".
_COLLECTION = re.compile(r"[^\W\d_]{3,}(?:\s[^\W\d_]{3,})?")
_COLLECTION_ITEM = re.compile(rf"^({_COLLECTION.pattern})\s*:\s+(\S.*\S)$")


def _one_of(title: str, subject: str) -> tuple[str, str] | None:
    """The type and the name of the one item a page titled "<Collection>: <Name>" shows
    ("article", "Hut to hut in the Dolomites"), or None: the collection must be a plural
    noun, and the subject read so far none or the collection itself."""
    found = _COLLECTION_ITEM.match(title.strip())
    return _item_of(found.group(1), found.group(2), subject) if found else None


def _item_of(many: str, name: str, subject: str) -> tuple[str, str] | None:
    """The type and the name of one item of the collection ``many`` ("Articles", "Hut to
    hut"), or None: ``many`` must be a plural noun, and ``subject`` none or ``many``."""
    if not _COLLECTION.fullmatch(many) or not _LETTERS.search(name):
        return None
    name = clean_item(name, max_words=8)
    head = many.split()[-1]
    if not name or not is_plural(head) or not is_common_word(head.casefold()):
        return None
    if head.casefold() == "details":
        return None  # "Order details: HLK8JG": the page of an order, said in its own words
    if subject and _key(subject) != _key(many):
        return None
    return singular(many.casefold()), name


def _trail(ev: Evidence) -> tuple[str, str] | None:
    """A breadcrumb set as two links alone on one row near the top: a collection and one
    of its items ("Albums", "Lake District"); None when the screen has none."""
    rows: defaultdict[float, list[dict]] = defaultdict(list)
    for item in ev.items:
        y = item.get("y")
        if y is not None and y <= TOP_SHARE:
            rows[round(y / ROW_TOLERANCE)].append(item)
    for row in rows.values():
        if len(row) != 2 or not all(i["role"] == "tab" for i in row):
            continue  # links of the site's navigation, side by side
        many, one = (i["text"].strip() for i in row)
        if not one[:1].isalnum() or _verb_led(one) or is_chrome(one):
            continue  # "× Close": a control beside the menu, no page of a collection
        if is_person(one) or _NOT_A_NAME.search(one):
            continue  # "Customers" / "Noah Bennett": the signed-in user; "Ellen [GBP]"
        if is_plural(many) and written_as_name(one) and not is_plural(one):
            return many, one
    return None


def _sentence_case(subject: str) -> str:
    """A subject set in capitals by a style ("RECENTLY ACTIVE DISCUSSIONS") as a heading
    writes it ("Recently active discussions", "NEW TICKET": "New ticket"); acronyms ("API
    KEYS": "API keys") and short words in capitals ("CPU") stay."""
    words = subject.split()
    if not subject.isupper() or (len(words) == 1 and len(subject) < 4):
        return subject
    low = [w.lower() if len(w) >= 3 and is_common_word(w.lower()) else w for w in words]
    if low == words:
        return subject
    return " ".join(low)[:1].upper() + " ".join(low)[1:]


#: Words that make a column's name a question ("Who pays", "For whom").
_QUESTION_WORDS = frozenset("who whom whose what which when where why how".split())


def _no_field_name(text: str) -> bool:
    """A column's header no sentence can name: one letter ("T"), or a question ("Who
    pays", "For whom") that names no thing."""
    return len(text.strip()) < 2 or any(w.casefold() in _QUESTION_WORDS for w in _words(text))


def _what_it_shows(
    ev: Evidence, kind: str, subject: str, source: str, examples: list[str], cx: _SubjectContext
) -> tuple[str, str, str, list[str]]:
    """The kind, subject, its source and the examples, where the screen's own structure
    says more than its words: a search's count, one item of a collection, files, a
    list's count, one product on sale, a record between its neighbours."""
    asked = _results_for(ev)
    if asked is not None and kind in ("list", "table", "search", "detail", "dashboard"):
        kind = "search"  # "8 results tagged cycling": found by a search, not a list
        if source in ("screen name", "label", "title"):
            subject, source = "", ""
        examples = [asked, *[e for e in examples if _key(e) != _key(asked)]] if asked else examples
    searched = _searched(ev) if kind == "search" else ""
    if searched and not (subject and is_plural(subject) and not is_generic(subject)):
        # "Search matched 6 pages": a search of pages, not of its query ("tyre")
        subject, source = searched, "results"
    one, said = _one_of(ev.title, subject), "title"
    trail = _trail(ev)
    if not one and trail:  # "Albums / Lake District": one album's page
        named = _key(subject) == _key(trail[1])
        one, said = _item_of(*trail, "" if named else subject), "breadcrumb"
    if one:  # "Articles: Hut to hut in the Dolomites": one article's page
        kind, subject, source = "detail", one[0], said
        examples = [one[1], *[e for e in examples if _key(e) != _key(one[1])]]
    files = _of_files(ev, kind, subject, source, cx)
    if files:  # "Portfolio 2025.pdf", "Price list.pdf": files, each an example
        kind, source = files[0], "file names" if files[1] != subject else source
        subject = files[1]
        examples = [*files[2], *[e for e in examples if _key(e) not in map(_key, files[2])]]
    counted = _counted(ev)
    late = source == "label" and not is_plural(subject)  # a heading of the list: an item
    if counted and kind in ("list", "table", "detail") and (not subject or late):
        kind = "table" if kind == "table" else "list"  # "4 products": products
        subject, source = counted, "count"
    sold = _on_sale(ev)
    if sold and not counted:  # "Rocket Valley", "$30.00", "Add to cart": one product
        kind = "detail"
        examples = [sold, *[e for e in examples if _key(e) != _key(sold)]]
        if "product" in cx.visible and (not subject or _key(subject) in _key(sold)):
            subject, source = "product", "shop"
    if _of_a_person(ev) and kind in ("list", "table", "dashboard") and len(examples) < 3:
        kind = "detail"  # "Ruth Penrose (103)" over her balance: one member's page
        subject = singular(subject) if subject and is_plural(subject) else subject
    record = record_type(ev)
    if record:  # between "Previous Ticket" and "Next Ticket": one ticket's page
        kind = "detail"
        if singular(record) not in _forms(subject):
            subject, source = record, "record links"
    read_off = any(i.get("source") == "ocr" for i in ev.items)
    if read_off and any(len(w) <= 5 and not is_word(w.casefold()) for w in _words(subject)):
        subject, source = "", ""  # "Tryt", "MEE": a word cut short or misread off pixels
    acted = _acted_on(ev) if not subject else ""
    if acted:  # "Refresh emails" over a list of them: emails
        subject, source = acted, "action"
    links = sum(bool(i.get("link")) and (i.get("y") or 0) > TOP_SHARE / 2 for i in ev.items)
    return _one_thing(kind, subject, max(len(examples), links)), subject, source, examples


#: A button that works on every item of a screen: "Refresh emails", "Reload all tasks".
_ON_ALL = re.compile(r"^([^\W\d_]+)\s+(?:all\s+)?([^\W\d_]{3,})$")


_NOT_ON_ALL = frozenset(["more", "open", "new", "other"])


def _acted_on(ev: Evidence) -> str:
    """What a screen that names nothing holds, said by a button that works on all of it
    ("Refresh emails": emails), "" when no button says so."""
    for item in ev.items:
        found = _ON_ALL.match(item["text"].strip())
        if item["role"] != "action" or not found:
            continue
        verb, noun = found.group(1).casefold(), found.group(2)
        if verb in _NOT_ON_ALL or verb not in _interface_verbs():
            continue  # "More tools", "Open tickets": a menu, tickets that are open
        if noun.islower() and is_plural(noun) and not is_generic(noun) and can_be_noun(noun):
            return noun
    return ""


def _one_thing(kind: str, subject: str, items: int) -> str:
    """A list named by one thing that holds no others ("Invoice", "Ticket metadata",
    "source file") is that thing's page; a page of one thing that holds many ("Forum",
    "Album") with ``items`` to show (three or more examples or links) is a list."""
    words = [w.casefold() for w in _words(subject)]
    if not words or written_as_name(subject):
        return kind
    head = words[-1]
    holds_many = head in tables().collections or singular(head) in tables().collections
    nouns = tables().feature_nouns
    if kind == "list" and not is_plural(head) and not holds_many and head in nouns:
        return "detail"  # "Invoice": one invoice; not "Welcome", no thing
    if kind == "detail" and holds_many and items >= 3:
        return "list"
    return kind


def _what_it_lists(reading: Reading) -> str:
    """What a list screen's items are, in the plural: its plural subject ("products"), or
    the items its name says it lists ("flows" of "Flow List"); "" for any other screen."""
    subject = reading.subject
    if not subject or is_generic(subject):
        return ""
    words = subject.split()
    if len(words) == 2 and words[1].casefold() == "list" and words[0].isalpha():
        return plural(words[0].casefold())  # "Flow List", however it is laid out
    return subject if reading.kind in ("list", "table") and is_plural(subject) else ""


def _searches_of_the_set(readings: list[Reading]) -> list[Reading]:
    """A search screen that names nothing it searches ("3 results for 'lake'") searches the
    set's own collection: the plural another screen's list is of ("products")."""
    lists = [listed for r in readings if (listed := _what_it_lists(r))]
    for r in readings:
        # a label further down a search names one of its results ("Stripe dashboard")
        found = not r.subject or r.subject_from == "label"
        if r.kind == "search" and found and lists:
            r.subject, r.subject_from = lists[0], "set"
    return readings


def read_screens(
    evidence: Sequence[Evidence],
    screens: Sequence[str],
    intents: Sequence[str],
    project: str = "",
    texts: Sequence[str] | None = None,
    page_titles: Sequence[str] | None = None,
) -> list[Reading]:
    """The reading of every screen of one set (chrome repeated across the set is known).
    ``page_titles`` are the pages' document titles, where a captured app names its
    screens ("Statistic - buku server")."""
    contexts, everywhere, hints = _contexts(evidence, screens, project, texts, page_titles)
    subjects = _subjects(evidence, screens, contexts)
    out: list[Reading] = []
    project_words = set(_key(project).split())
    header = _on_every_screen(evidence)
    for ev, intent, cx, found, hint in zip(evidence, intents, contexts, subjects, hints):
        subject, source, entities = found
        seen = {_key(subject)} if subject else set()
        examples: list[str] = []
        skip = cx.repeated | everywhere | cx.field_keys
        for text in entities:
            if _key(text) not in seen | header:  # not the name over every page
                examples.append(text)  # ("Harbour Lane Brewhouse"); an event's name over
                seen.add(_key(text))  # three of its pages is still what they show
        examples += _examples(ev, seen, skip, project_words)
        examples = _without_people(examples, _mailed(ev))
        kind = _kind(ev, intent, subject, cx.screen_words, examples)
        if kind in ("detail", "dashboard") and _a_deed(subject):
            kind = "form"  # "Ask question": the form to ask one, however it is laid out
        subject = _sentence_case(subject)
        kind, subject, source, examples = _what_it_shows(ev, kind, subject, source, examples, cx)
        if kind == "reader":  # "Song", "Nesting": the sections of what is read, not items
            sections = _sections(ev)
            examples = [e for e in examples if _key(e) not in sections]
        if kind == "detail":  # one thing's page: its name, not "Due Date" of its fields
            examples = _its_own_name(ev, examples)
        if kind == "form":  # "Membership fee" over its box: a field's name, not an item
            labels = {
                _key(i["text"])
                for i in ev.items
                if i["role"] == "label" and i.get("source") != "ocr" and not i.get("link")
            }
            examples = [e for e in examples if _key(e) not in labels]
        if kind == "conversation":  # "Marguerite", "Jonah": who wrote, not what was said
            examples = [e for e in examples if not is_given_name(e)]
            rooms = _channels(ev)  # "#general": the room the talk is in, its own name
            if rooms:
                examples = [*rooms, *[e for e in examples if _key(e) not in map(_key, rooms)]]
                if source == "label":  # "Topic for" of "Topic for #general is ...": no
                    subject, source = "", ""  # feature; the room names the screen
        fields = _fields(ev, kind) if kind in ("form", "sign-in") else hint
        if kind in ("chart", "dashboard") and not fields:
            fields = _series(ev)  # "Short-term load", "Long-term load": what a chart plots
        out.append(
            Reading(
                kind=kind,
                subject=subject,
                subject_from=source,
                # the items a caption may name: not a common one-word label or category
                # chip ("Published", "Beaches"), which still counted as items for the kind
                examples=[
                    e
                    for e in examples
                    if len(_words(e)) > 1
                    or word_frequency(e.casefold()) < COMMON_WORD
                    or _CHANNEL.fullmatch(e)  # "#general": a room's own name
                ][:6],
                fields=[
                    f
                    for f in (_paired(fields) if kind == "form" else fields)
                    if _key(f) != _key(subject)
                    and (kind == "form" or _key(f) not in everywhere)
                    and not _no_field_name(f)
                ][:6],
            )
        )
    return _searches_of_the_set(out)
