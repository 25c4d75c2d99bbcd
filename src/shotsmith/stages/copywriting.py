"""write_copy: a tagline per set, a headline and subtitle per screenshot — true to the app.

Store captions must describe what the app visibly does (App Store Review Guideline 2.3,
Google Play's metadata policy), so every caption here is *grounded*: each content word
comes from the set's evidence (the title, headings, actions, labels and numbers that
``extract_features`` read on the screens), the app's name or bundle id, the user's own
description (``about=``), or the small neutral vocabulary in
``shotsmith/data/copy_vocabulary.json`` (function words, generic verbs, benefit words —
no feature nouns). :func:`shotsmith.grounding.grounding_problems` rejects anything else,
whoever wrote it.

The default writer is offline and deterministic. The phrase bank
(``shotsmith/data/phrasebank.json``) gives tone and rhythm as *slot templates* over the
evidence ("{Title}, at a glance", "{Action} or {action2} in a tap."); each headline and
subtitle names what its own screen shows, framed as a benefit, and records the evidence
it rests on in ``copy_evidence``. Where the evidence is thin the caption is short and
plain; it never invents. Slide 1 carries the tagline, from the user's description or the
app's main sections. Every earlier rule still holds: 2-6 word headlines of at most 30
characters, unique across the set with varied first words, sentence case, store-safe
words (:func:`headline_problems`, :func:`subtitle_problems`, :func:`set_problems`).

Copy a user writes always wins: a CSV of ``screen, headline, subtitle`` (``copy=``) or a
frame whose lines were edited and marked ``copy_source == "user"`` keeps them verbatim
(only warned about), and the other lines are written around them.

An optional LLM backend (any OpenAI-compatible endpoint, :mod:`shotsmith.llm`) gets the
evidence in its prompt; its answer must pass the same grounding check and every rule,
else the grounded writer takes over and ``copy_source`` and stderr say why.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

import pandas as pd

from .. import llm as llm_mod
from ..columns import (
    ABOUT,
    APP_ID,
    BUNDLE_ID,
    COPY_EVIDENCE,
    COPY_HEADLINE,
    COPY_SOURCE,
    COPY_SUBTITLE,
    COPY_TAGLINE,
    DOMAIN_CATEGORY,
    DOMAIN_CONFIDENT,
    FEATURES_ACTIONS,
    FEATURES_EVIDENCE,
    FEATURES_HEADINGS,
    FEATURES_INTENT,
    FEATURES_LABELS,
    FEATURES_NUMBERS,
    FEATURES_TABS,
    FEATURES_TEXT,
    FEATURES_TITLE,
    LOCALE,
    POSITION,
    PROJECT_NAME,
    SCREEN,
    SCREEN_TEXT,
    stage,
)
from ..errors import ShotsmithError
from ..grounding import (
    Grounding,
    allowed_words,
    content_words,
    grounding_problems,
    is_neutral,
    is_unspaced,
    vocabulary,
    word_forms,
    words_of,
)
from .features import singular

log = logging.getLogger("shotsmith.copy")

# --------------------------------------------------------------------------------------
# The rules
# --------------------------------------------------------------------------------------

HEADLINE_MAX_CHARS = 30
HEADLINE_WORDS = (2, 6)
SUBTITLE_MAX_CHARS = 60


def _table(key: str) -> list[str]:
    """A word table of ``data/copy_vocabulary.json`` as written (case kept)."""
    return list(_vocabulary_data().get(key, []))


@lru_cache(maxsize=1)
def _vocabulary_data() -> dict:
    text = resources.files("shotsmith").joinpath("data/copy_vocabulary.json").read_text("utf-8")
    return json.loads(text)


@lru_cache(maxsize=1)
def _forbidden_re() -> re.Pattern[str]:
    """Built from the store-forbidden list: whole words, any spacing inside a phrase."""
    words, tags = [], []
    for entry in _table("store_forbidden"):
        if entry.startswith("#"):  # "#1": not part of "#10", not after a word
            tags.append(re.escape("#") + r"\s?" + re.escape(entry[1:]) + r"(?!\d)")
        else:
            pattern = r"\s+".join(re.escape(w) for w in entry.split())
            words.append(pattern)
    alternatives = [r"(?<![\w#])(?:" + "|".join(words) + r")(?![\w])"]
    alternatives += [r"(?<![\w#])" + t for t in tags]
    return re.compile("|".join(alternatives), re.IGNORECASE)


def __getattr__(name: str) -> object:
    """FORBIDDEN, ACRONYMS and PROPER_TERMS, read from the vocabulary file when first used."""
    if name == "FORBIDDEN":
        return tuple(_table("store_forbidden"))
    if name == "ACRONYMS":
        return _acronyms()
    if name == "PROPER_TERMS":
        return _proper_terms()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@lru_cache(maxsize=1)
def _acronyms() -> frozenset[str]:
    """Upper-case words that are fine mid-sentence ("CSV", "GPS")."""
    return frozenset(_table("acronyms"))


@lru_cache(maxsize=1)
def _proper_terms() -> tuple[str, ...]:
    """Capitalised terms that are fine mid-sentence ("Face ID", "iPhone")."""
    return tuple(_table("proper_terms"))


def forbidden_words(text: str) -> list[str]:
    """Store-forbidden claims in ``text`` (case-insensitive, whole words)."""
    return [m.group(0) for m in _forbidden_re().finditer(text or "")]


def _is_emoji(ch: str) -> bool:
    cp = ord(ch)
    if ch in "°·•–—’‘“”…€£¥₹©®":  # typography and currency are fine
        return ch in "©®"
    return (
        0x1F000 <= cp <= 0x1FAFF
        or 0x2600 <= cp <= 0x27BF
        or 0x2B00 <= cp <= 0x2BFF
        or cp in (0x200D, 0xFE0F, 0x20E3)
        or unicodedata.category(ch) in ("So", "Cs", "Co")
    )


def _words(text: str) -> list[str]:
    return text.split()


def _allowed_caps(text: str, proper: Iterable[str]) -> set[int]:
    """Character offsets of words that may be capitalised mid-sentence."""
    spans: set[int] = set()
    for term in (*_proper_terms(), *proper):
        if not term:
            continue
        for m in re.finditer(r"(?<!\w)" + re.escape(term) + r"(?!\w)", text):
            spans.update(range(m.start(), m.end()))
    return spans


_WORDISH = re.compile(r"[^\W\d_][\w'’-]*")


def _case_problems(text: str, proper: Sequence[str], strict: bool) -> list[str]:
    problems = []
    letters = [c for c in text if c.isalpha()]
    cased = [c for c in letters if c.isupper() or c.islower()]
    if len(cased) >= 4 and all(c.isupper() for c in cased):
        return ["ALL CAPS"]
    allowed = _allowed_caps(text, proper)
    words = list(_WORDISH.finditer(text))
    if not words:
        return ["no words"]
    first = words[0].group(0)
    if first[0].islower() and first not in _proper_terms() and first not in proper:
        problems.append("does not start with a capital")
    caps = []
    for m in words[1:]:
        w = m.group(0)
        if m.start() in allowed:
            continue
        core = re.sub(r"['’].*$", "", w)
        if core[-1:] == "s" and core[:-1].isupper() and core[:-1] in _acronyms():
            continue  # "PDFs"
        if len(core) >= 2 and core.isupper() and core.upper() not in _acronyms() and core != "I":
            problems.append(f"word in capitals: {w!r}")
        elif w[0].isupper() and w != "I" and core.upper() not in _acronyms():
            before = text[: m.start()].rstrip()
            if before.endswith(("?", ":", "!")):  # "Stuck? Get a hint"
                continue
            caps.append(w)
    if caps:
        if strict:
            problems.append(f"not sentence case: {', '.join(caps)}")
        elif len(words) >= 3 and len(caps) >= len(words) - 1:
            problems.append("Title Case, not sentence case")
    return problems


def headline_problems(
    headline: str, *, proper: Sequence[str] = (), strict: bool = True
) -> list[str]:
    """What is wrong with a headline (empty list: it is fine).

    Rules: 2-6 words, at most 30 characters, no trailing full stop or exclamation
    mark, no emoji, no ALL CAPS, sentence case (``strict``: every word after the first
    lower case unless a proper noun in ``proper`` or a known term; otherwise only Title
    Case is rejected), no store-forbidden claims.
    """
    problems = []
    if not isinstance(headline, str) or not headline.strip():
        return ["empty headline"]
    h = headline.strip()
    n = len(_words(h))
    if not HEADLINE_WORDS[0] <= n <= HEADLINE_WORDS[1]:
        problems.append(f"{n} words (needs {HEADLINE_WORDS[0]}-{HEADLINE_WORDS[1]})")
    if len(h) > HEADLINE_MAX_CHARS:
        problems.append(f"{len(h)} characters (max {HEADLINE_MAX_CHARS})")
    if h.endswith((".", "!")):
        problems.append("ends with punctuation")
    if "\n" in h:
        problems.append("line break")
    if any(_is_emoji(c) for c in h):
        problems.append("emoji")
    bad = forbidden_words(h)
    if bad:
        problems.append(f"forbidden word {bad[0]!r}")
    problems += _case_problems(h, proper, strict)
    return problems


def subtitle_problems(
    subtitle: str, *, proper: Sequence[str] = (), strict: bool = True
) -> list[str]:
    """What is wrong with a subtitle: one sentence ending in a full stop, ≤ 60 characters."""
    problems = []
    if not isinstance(subtitle, str) or not subtitle.strip():
        return ["empty subtitle"]
    s = subtitle.strip()
    if len(s) > SUBTITLE_MAX_CHARS:
        problems.append(f"{len(s)} characters (max {SUBTITLE_MAX_CHARS})")
    if not s.endswith("."):
        problems.append("does not end with a full stop")
    if re.search(r"[.!?]\s+\S", s[:-1]) or "\n" in s:
        problems.append("more than one sentence")
    if len(_words(s)) < 2:
        problems.append("too short")
    if any(_is_emoji(c) for c in s):
        problems.append("emoji")
    bad = forbidden_words(s)
    if bad:
        problems.append(f"forbidden word {bad[0]!r}")
    if strict:
        problems += _case_problems(s, proper, strict=True)
    else:
        problems += [p for p in _case_problems(s, proper, strict=False) if "Title" not in p]
    return problems


def first_word(headline: str) -> str:
    """The normalised first word of a headline ("Money," -> "money")."""
    words = _words(headline.strip().lower())
    if not words:
        return ""
    w = re.sub(r"['’]s$", "", words[0])
    return re.sub(r"[^\w'’-]", "", w)


def _norm(text: str) -> str:
    return re.sub(r"[^\w ]", "", " ".join(text.lower().split()))


def set_problems(
    headlines: Sequence[str], subtitles: Sequence[str], tagline: str = ""
) -> list[str]:
    """What is wrong with a set: repeated headlines/subtitles, shared first words,
    forbidden words in the tagline."""
    problems = []
    seen_h: dict[str, int] = {}
    seen_f: dict[str, int] = {}
    seen_s: dict[str, int] = {}
    for i, (h, s) in enumerate(zip(headlines, subtitles)):
        key = _norm(h)
        if key in seen_h:
            problems.append(f"headline {i + 1} repeats headline {seen_h[key] + 1}")
        seen_h.setdefault(key, i)
        fw = first_word(h)
        if fw in seen_f:
            problems.append(f"headlines {seen_f[fw] + 1} and {i + 1} both start with {fw!r}")
        seen_f.setdefault(fw, i)
        skey = _norm(s)
        if skey in seen_s:
            problems.append(f"subtitle {i + 1} repeats subtitle {seen_s[skey] + 1}")
        seen_s.setdefault(skey, i)
    if tagline and forbidden_words(tagline):
        problems.append(f"tagline has forbidden word {forbidden_words(tagline)[0]!r}")
    return problems


def copy_problems(
    headline: str, subtitle: str, *, proper: Sequence[str] = (), strict: bool = True
) -> list[str]:
    return [f"headline: {p}" for p in headline_problems(headline, proper=proper, strict=strict)] + [
        f"subtitle: {p}" for p in subtitle_problems(subtitle, proper=proper, strict=strict)
    ]


# --------------------------------------------------------------------------------------
# The phrase bank (slot templates)
# --------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def phrasebank() -> dict:
    """The phrase bank of slot templates (parsed once)."""
    text = resources.files("shotsmith").joinpath("data/phrasebank.json").read_text("utf-8")
    return json.loads(text)


_SLOT = re.compile(r"\{(\w+)\}")


def template_words(template: str) -> list[str]:
    """The words a template brings of its own (its text outside the slots)."""
    return words_of(_SLOT.sub(" ", template))


def _filler(template: str) -> frozenset[str]:
    """The template's own words that carry its tone ("glance", "side"), not "and"/"the"."""
    fw = vocabulary().function_words
    return frozenset(
        f for w in template_words(template) if w.casefold() not in fw for f in word_forms(w)
    )


# --------------------------------------------------------------------------------------
# Evidence: what each screen shows
# --------------------------------------------------------------------------------------


@dataclass
class ScreenEvidence:
    """The evidence of one screen, by role, as ``extract_features`` read it."""

    screen: str = ""
    title: str = ""
    headings: list[str] = field(default_factory=list)
    tabs: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    numbers: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # other visible text, line by line
    source: str = "none"  # "evidence", "text" (read from features_text), "screen name"

    def strings(self) -> list[str]:
        """Every piece of evidence, title first."""
        out = [self.title] if self.title else []
        for part in (self.headings, self.actions, self.labels, self.tabs, self.numbers):
            out += part
        return out + self.lines

    def brief(self) -> dict[str, object]:
        """The evidence as the LLM sees it."""
        return {
            "title": self.title,
            "headings": self.headings[:8],
            "actions": self.actions[:8],
            "labels": self.labels[:16],
            "numbers": self.numbers[:8],
            "tabs": self.tabs[:8],
        }


def _as_list(value: object) -> list:
    if value is None or isinstance(value, (str, bytes, float, int)):
        return []
    try:
        return list(value)  # lists, tuples, numpy arrays
    except TypeError:
        return []


def _as_text(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


_ROLE_FIELDS = {
    "heading": "headings",
    "tab": "tabs",
    "action": "actions",
    "label": "labels",
    "number": "numbers",
    "text": "lines",
}
_COLUMN_FIELDS = (
    (FEATURES_HEADINGS, "headings"),
    (FEATURES_TABS, "tabs"),
    (FEATURES_ACTIONS, "actions"),
    (FEATURES_LABELS, "labels"),
    (FEATURES_NUMBERS, "numbers"),
)


def screen_evidence(row: Mapping[str, object]) -> ScreenEvidence:
    """One screen's evidence from a frame row.

    From ``features_evidence`` and the ``features_title`` ... ``features_numbers``
    columns when present; otherwise read line by line from ``features_text`` (or the
    DOM's ``screen_text``); a screen nothing was read from falls back to its name
    (which the user gave, or capture took from the page).
    """
    ev = ScreenEvidence(screen=_as_text(row.get(SCREEN)))

    def add(field_name: str, text: object) -> None:
        t = " ".join(str(text).split()) if isinstance(text, str) else ""
        if t and t not in getattr(ev, field_name):
            getattr(ev, field_name).append(t)

    for item in _as_list(row.get(FEATURES_EVIDENCE)):
        if not isinstance(item, Mapping):
            continue
        role, text = str(item.get("role") or "text"), _as_text(item.get("text"))
        if not text:
            continue
        if role == "title" and not ev.title:
            ev.title = text
        else:
            add(_ROLE_FIELDS.get(role, "headings" if role == "title" else "lines"), text)
    title = _as_text(row.get(FEATURES_TITLE))
    if title and not ev.title:
        ev.title = title
    for column, field_name in _COLUMN_FIELDS:
        for text in _as_list(row.get(column)):
            add(field_name, text)
    text = _as_text(row.get(FEATURES_TEXT)) or _as_text(row.get(SCREEN_TEXT))
    if ev.title or ev.headings or ev.actions or ev.labels or ev.tabs or ev.numbers:
        ev.source = "evidence"
        for line in text.splitlines():
            add("lines", line)
    elif text:
        _read_lines(ev, text)
        ev.source = "text"
    if not ev.strings() and ev.screen:
        name = _humanize(ev.screen)
        if name:
            ev.title, ev.source = name, "screen name"
    return ev


def _humanize(screen: str) -> str:
    """A screen name as words: "02_budget-plans.png" -> "Budget plans"."""
    stem = re.sub(r"\.(png|jpe?g|webp)$", "", screen.strip(), flags=re.IGNORECASE)
    stem = re.sub(r"^\d+[_\-. ]*", "", stem)
    words = [w for w in re.split(r"[_\-.\s]+", stem) if w]
    if not words or re.fullmatch(r"(screen|screenshot|image|shot|page)?\d*", "".join(words), re.I):
        return ""
    text = " ".join(words).lower()
    return text[:1].upper() + text[1:]


def _strip_noise(line: str) -> str:
    """OCR reads icons as stray letters ("@ Expenses", "Q Search in Kyoto"): drop them."""
    words = line.split()
    fw = vocabulary().function_words
    while words and (
        not any(c.isalnum() for c in words[0])
        or (len(words[0]) <= 2 and words[0].casefold() not in fw and not words[0].isdigit())
    ):
        words.pop(0)
    return " ".join(words)


def _read_lines(ev: ScreenEvidence, text: str) -> None:
    """Evidence from plain visible text, for frames without the evidence columns."""
    voc = vocabulary()
    name_words = {singular(w.casefold()) for w in words_of(_humanize(ev.screen))}
    lines = [_strip_noise(" ".join(ln.split())) for ln in text.splitlines()]
    lines = [ln for ln in lines if ln]
    for i, line in enumerate(lines):
        words = words_of(line)
        if any(c.isdigit() for c in line):
            ev.numbers.append(line)
        elif (
            not ev.title
            and i < 5
            and name_words
            and ({singular(w.casefold()) for w in words} & name_words)
            and len(words) <= 4
        ):
            ev.title = line
        elif words and words[0].casefold() in voc.ui_verbs and len(words) <= 4:
            ev.actions.append(line)
        elif len(words) <= 4:
            ev.labels.append(line)
        else:
            ev.lines.append(line)


# --------------------------------------------------------------------------------------
# From evidence to slots
# --------------------------------------------------------------------------------------

_BAD_CHARS = re.compile(r"[@/\\{}<>=_|#$€£¥%*~^]|https?:|www\.|\.(com|org|io|net)\b")
_EDGE_PUNCT = " \t-–—•·|:;,.!?*>›»→←<«‹\"“”‘’'()[]"
#: Words that make a label a piece of a sentence addressed to someone.
_PRONOUNS = frozenset(
    "i me my mine you your yours you're we our ours us they their them he she his her "
    "it's we're they're".split()
)
#: Plural nouns after a number that count time or pages, not the app's things.
_NOT_COUNTED = frozenset(
    "days hours minutes mins seconds secs weeks months years nights times items results "
    "pages steps kcal cal calories bpm miles km kms mi lbs kgs".split()
)


def _plausible(word: str) -> bool:
    """A word as a person would write it, not OCR noise ("sSyol", "lll", "ann")."""
    core = word.strip(".,'’")
    if not core:
        return False
    if core == "&" or is_unspaced(core):
        return True
    if not any(c.isalpha() for c in core):
        return False
    if not all(c.isalpha() or c in "'’-&" for c in core):
        return False
    if not (core.islower() or core.istitle() or core.isupper() or _camel(core)):
        return False
    low = core.casefold()
    if len(low) == 1:
        return low in ("a", "i")
    if re.search(r"(.)\1\1", low):
        return False
    ascii_letters = re.sub(r"[^a-z]", "", low)
    if ascii_letters == low:  # English-like: needs a vowel, unless an acronym
        if not re.search(r"[aeiouy]", low) and not (core.isupper() and len(core) <= 5):
            return False
        if re.search(r"[bcdfghjklmnpqrstvwxz]{6,}", low):
            return False
    return True


def _camel(word: str) -> bool:
    """iPhone, GitHub, YouTube: a capital after the first letter, not all capitals."""
    return any(c.isupper() for c in word[1:]) and not word.isupper()


def clean_phrase(
    text: str, *, max_words: int = 3, max_chars: int = 28, trim_numbers: bool = False
) -> str | None:
    """A piece of evidence fit to stand in a caption, or None.

    Drops numbers, URLs and code, sentences, OCR noise, interface chrome ("See all",
    "Sign in") and anything that says nothing beyond the neutral vocabulary.
    """
    if not isinstance(text, str):
        return None
    raw = " ".join(text.split())
    if raw.endswith(("?", "!", "...", "…")):
        return None
    t = raw.strip(_EDGE_PUNCT)
    if trim_numbers:  # "Terminal 1", "Untitled 3": the number says nothing
        t = re.sub(r"(?:\s+#?\d+)+$", "", t).strip(_EDGE_PUNCT)
    if not t or any(c.isdigit() for c in t) or _BAD_CHARS.search(t):
        return None
    if not is_unspaced(t) and len(t) > max_chars:
        return None
    if is_unspaced(t) and len(t) > max_chars // 2:
        return None
    words = t.split()
    if not 1 <= len(words) <= max_words or not all(_plausible(w) for w in words):
        return None
    if any(w.endswith((".", ":", ";", ",")) for w in words[:-1]):
        return None  # "Done. Next", "expenses, easily": more than one thing
    if any(w.casefold().strip("'’") in _PRONOUNS for w in words):
        return None  # "Manage your shared": a fragment of a sentence, not a label
    voc = vocabulary()
    low = t.casefold()
    if low in voc.chrome or re.split(r"[,!:;]", low)[0].strip() in voc.chrome:
        return None  # "See all", "Good morning, Maya"
    lows = [w.strip(",.'’").casefold() for w in words]
    if any(w in voc.calendar_words or w in voc.units for w in lows):
        return None  # dates and units say nothing about what the screen offers
    if all(is_neutral(w) or w in voc.chrome or w == "&" for w in lows):
        return None
    if len(words) == 1 and not is_unspaced(t) and len(t) < 4 and t.upper() not in _acronyms():
        return None  # "SFO", "Ov": codes and scraps
    if forbidden_words(t):
        return None
    return t


@dataclass(frozen=True)
class Phrase:
    """A piece of evidence as it reads mid-sentence, and as it stands on the screen."""

    text: str
    evidence: str

    @property
    def cap(self) -> str:
        first = self.text.split(" ", 1)[0]
        if _camel(first) or not self.text[:1].islower():
            return self.text
        return self.text[:1].upper() + self.text[1:]

    def key(self) -> frozenset[str]:
        return frozenset(
            f for w in words_of(self.evidence) for f in word_forms(w) if not is_neutral(w)
        )


@dataclass
class Slots:
    """What one screen's captions may name, in order of preference."""

    title: Phrase | None = None
    weak_title: bool = False  # "Overview", "Today": names the screen, says little
    plural: bool = False
    one: Phrase | None = None  # singular of a plural title
    actions: list[Phrase] = field(default_factory=list)
    verbs: list[Phrase] = field(default_factory=list)
    items: list[Phrase] = field(default_factory=list)
    counts: list[Phrase] = field(default_factory=list)
    tabs: list[Phrase] = field(default_factory=list)

    def names_anything(self) -> bool:
        return bool(self.title or self.actions or self.items or self.counts)


@dataclass
class CasePolicy:
    """How evidence words are written mid-sentence (sentence case: "dining out")."""

    english: bool
    proper: frozenset[str]  # words that keep their capitals ("Kyoto", "SQL", "Pocket")
    project_words: Mapping[str, str] = field(default_factory=dict)  # "stepstreak": "StepStreak"

    def display(self, phrase: str) -> str:
        if not self.english:
            return phrase
        out = []
        for word in phrase.split():
            core = word.strip(",.'’")
            if core.casefold() in self.project_words:
                out.append(word.replace(core, self.project_words[core.casefold()]))
            elif core in self.proper or _camel(core) or core in _acronyms():
                out.append(word)
            else:
                out.append(word.lower())
        return " ".join(out)


def case_policy(strings: Sequence[str], project: str, english: bool) -> CasePolicy:
    """Which evidence words are names (keep their capitals) in a set's interface.

    A word is a name when it is capitalised after the start of a label ("Search in
    Kyoto", "Japan Airlines") and never seen in lower case; the other capitalised words
    of such a label go with it ("San Francisco"). In an interface set mostly in Title
    Case ("Add New Expense") only capitals inside sentence-case labels count. Short
    all-capital words next to ordinary ones ("Export CSV") are acronyms; a label wholly
    in capitals ("OVER") is styling.
    """
    voc = vocabulary()
    common = voc.neutral | voc.function_words | voc.ui_verbs
    lower_seen: set[str] = set()
    in_sentence: set[str] = set()
    in_title: set[str] = set()
    title_labels: list[list[str]] = []
    acronyms: set[str] = set()
    sentence_case = title_case = 0
    for s in strings:
        words = [w.strip(",.:;'’()\"") for w in s.split()]
        words = [w for w in words if w and w[:1].isalpha()]
        for w in words:
            if w[:1].islower():
                lower_seen |= word_forms(w)
        if len(words) < 2 or all(w.isupper() for w in words):
            continue
        for w in words:
            if w.isupper() and 2 <= len(w) <= 5:
                acronyms.add(w)
        rest = [w for w in words[1:] if w.casefold() not in voc.function_words]
        caps = {w for w in words[1:] if w[:1].isupper() and not w.isupper()}
        if any(w[:1].islower() for w in rest):
            sentence_case += 1
            in_sentence |= caps
        elif rest:
            title_case += 1
            if words[0].casefold() not in voc.ui_verbs:
                in_title |= caps
            title_labels.append(words)
    title_ui = title_case >= 3 and title_case > 2 * sentence_case
    candidates = in_sentence | (set() if title_ui else in_title)
    proper = {
        w for w in candidates if not (word_forms(w) & lower_seen) and w.casefold() not in common
    }
    for words in title_labels:  # "Whole Foods Market": the name takes its neighbours along
        if words[0].casefold() in voc.ui_verbs:
            continue  # "Request Location" is a button in Title Case, not a name
        if any(w in proper for w in words):
            proper.update(
                w
                for i, w in enumerate(words)
                if w[:1].isupper()
                and not w.isupper()
                and w.casefold() not in voc.function_words
                and not (i == 0 and w.casefold() in voc.ui_verbs)
            )
    proper |= {w for w in acronyms if not (word_forms(w) & lower_seen)}
    proper |= {w for w in project.split() if w[:1].isupper()}
    proper |= {w for term in _proper_terms() for w in term.split()}
    project_words = {w.casefold(): w for w in project.split()}
    return CasePolicy(english, frozenset(proper), project_words)


_JOINERS = frozenset(["and", "of", "&", "for", "with"])


def _reads_as_a_thing(text: str) -> bool:
    """A label that names a thing ("Dining out", "Bank of America"), not a state or a
    sentence piece ("In progress", "Spent so far", "Left to spend")."""
    words = [w.casefold() for w in words_of(text)] or [text]
    voc = vocabulary()
    fw = voc.function_words
    if words[0] in fw and len(words) > 1:
        return False
    if all(w in voc.states or w in fw for w in words):
        return False  # "Spent", "Overdue": a state
    return not any(w in fw and w not in _JOINERS for w in words[1:-1])


def _is_name(phrase: Phrase) -> bool:
    """A name as the interface shows it ("Ana Ruiz", "Bear Lake Loop"), not a common noun."""
    words = content_words(phrase.text)
    return bool(words) and all(w[:1].isupper() and not w.isupper() for w in words)


def _is_plural(phrase: str) -> bool:
    words = phrase.split()
    if not words or len(words) > 2:
        return False
    last = words[-1].casefold()
    return (
        last.isascii()
        and last.isalpha()
        and len(last) >= 4
        and last.endswith("s")
        and not last.endswith(("ss", "us", "is", "ics", "news"))
        and singular(last) != last
    )


def _count_phrases(strings: Iterable[str]) -> list[str]:
    """Numbers with the plural noun they count ("12 trails", "248 recipes")."""
    out: list[str] = []
    pattern = re.compile(r"(?<![\w$€£¥.,])(\d{1,3}(?:,\d{3})+|\d+)\s+([^\W\d_]{3,})(?![\w'’])")
    for s in strings:
        for number, noun in pattern.findall(s or ""):
            if number in ("0", "1") or noun.casefold() in _NOT_COUNTED or not _is_plural(noun):
                continue
            if not _plausible(noun) or is_neutral(noun):
                continue
            phrase = f"{number} {noun}"
            if phrase not in out:
                out.append(phrase)
    return out


def build_slots(
    evidence: Sequence[ScreenEvidence], project: str, policy: CasePolicy
) -> list[Slots]:
    """Slots for every screen of a set: title, actions, items, counts, tabs.

    A phrase that stands on most screens of a set of three or more (a tab bar, a
    repeated header) says nothing about any one of them: it is left out of the
    screen's items and actions (it may still name the app's sections on slide 1).
    """
    voc = vocabulary()
    project_key = project.casefold()
    project_words = {w.casefold() for w in words_of(project)}
    per_screen: list[set[str]] = []
    for ev in evidence:
        keys = {p.casefold() for p in (*ev.headings, *ev.actions, *ev.labels, *ev.tabs)}
        per_screen.append(keys)
    counts = Counter(k for keys in per_screen for k in keys)
    n = len(evidence)
    repeated = {k for k, c in counts.items() if n >= 3 and c > 0.6 * n}

    def phrase(text: str, *, max_words: int = 3, title: bool = False) -> Phrase | None:
        t = clean_phrase(text, max_words=max_words, trim_numbers=title)
        if t is None:
            return None
        low = t.casefold()
        if low == project_key or set(words_of(low)) <= project_words:
            return None
        return Phrase(policy.display(t), t)

    out: list[Slots] = []
    for ev in evidence:
        slots = Slots()
        taken: set[frozenset[str]] = set()

        def take(p: Phrase | None, into: list[Phrase], taken: set = taken) -> None:
            if p is None:
                return
            key = p.key()
            said = frozenset().union(*taken) if taken else frozenset()
            if not key or key <= said or p.evidence.casefold() in repeated:
                return  # "spent" after "Spent so far" says nothing new
            taken.add(key)
            into.append(p)

        title_source = [ev.title, *ev.headings] if ev.title else list(ev.headings)
        for candidate in title_source:
            p = phrase(candidate, max_words=4, title=True)
            if p is not None:
                first = words_of(p.evidence)[0].casefold()
                if first in voc.ui_verbs and len(words_of(p.evidence)) > 1:
                    continue  # "Add expense" is an action, not a title
                slots.title = p
                # "Overview" says little; "Bear Lake Loop" is data, not what the screen does
                slots.weak_title = p.evidence.casefold() in voc.weak_titles or _is_name(p)
                taken.add(p.key())
                break
        if slots.title is not None and policy.english and _is_plural(slots.title.evidence):
            slots.plural = True
            words = slots.title.text.split()
            words[-1] = singular(words[-1]) if words[-1].islower() else words[-1]
            slots.one = Phrase(" ".join(words), slots.title.evidence)
        for text in ev.actions:
            p = phrase(text)
            if p is None:
                continue
            first = words_of(p.evidence)[0].casefold()
            if first in voc.ui_verbs and p.evidence.casefold() not in voc.chrome:
                if len(words_of(p.evidence)) == 1:
                    slots.verbs.append(p)  # "Filter": too bare for a caption of its own
                else:
                    take(p, slots.actions)
        ranked: list[tuple[int, int, Phrase]] = []
        sources = [(t, 0, False) for t in ev.headings] + [(t, 1, False) for t in ev.labels]
        sources += [(t, 1, True) for t in ev.actions]
        for order, (text, weight, is_action) in enumerate(sources):
            p = phrase(text)
            if p is None or p.evidence.casefold() in voc.generic_sections:
                continue
            if not _reads_as_a_thing(p.evidence):
                continue  # "Spent so far", "In progress": a state, not something to offer
            lead = words_of(p.evidence)[0].casefold()
            several = len(words_of(p.evidence)) > 1
            if (several or is_action) and (lead in voc.ui_verbs or lead in voc.generic_verbs):
                continue  # actions are listed as actions; "Keep it burning" is a slogan
            # structure ("Categories", "Difficulty") before data ("Whole Foods Market")
            ranked.append((weight + (2 if _is_name(p) else 0), order, p))
        ranked.sort(key=lambda r: (r[0], r[1]))
        structure = [r for r in ranked if not _is_name(r[2])]
        if len(structure) >= 2:  # enough to say what the screen offers without its data
            ranked = structure
        for _, _, p in ranked:
            take(p, slots.items)
        for c in _count_phrases([*ev.numbers, *ev.strings()]):
            number, noun = c.split(" ", 1)
            slots.counts.append(Phrase(f"{number} {policy.display(noun)}", c))
        seen_tabs: set[str] = set()
        for text in ev.tabs:
            p = phrase(text, max_words=2)
            if p is None or p.evidence.casefold() in voc.generic_sections:
                continue
            if p.evidence.casefold() not in seen_tabs:
                seen_tabs.add(p.evidence.casefold())
                slots.tabs.append(p)
        out.append(slots)
    if out and not out[0].tabs and not out[0].items and (out[0].weak_title or not out[0].title):
        # slide 1 shows little of its own (a bare "Overview", or nothing was read): the
        # set's other screens name the app's sections for the tagline
        sections = [s.title for s in out[1:] if s.title is not None and not s.weak_title]
        out[0].tabs = list({p.key(): p for p in sections}.values())
    for slots in out:  # the three shortest sections first, in their order: they fit a tagline
        short = sorted(sorted(range(len(slots.tabs)), key=lambda i: len(slots.tabs[i].text))[:3])
        slots.tabs = [slots.tabs[i] for i in short] + [
            t for i, t in enumerate(slots.tabs) if i not in short
        ]
    return out


# --------------------------------------------------------------------------------------
# About: the user's own description
# --------------------------------------------------------------------------------------

_CLAUSE_BREAK = re.compile(r"(?<=[.!?;:])\s+|\s+[—–]\s+|\s+-\s+")
_CUT_BEFORE = re.compile(
    r",\s+|\s+(?=(?:and|in|for|with|from|on|by|at|that|which|to|so|where|while)\s)", re.I
)


def _shorten(text: str, *, max_words: int, max_chars: int) -> str:
    """The longest start of ``text`` that fits, cut before a comma or a preposition."""
    text = " ".join(text.split()).rstrip(" .!?;:,")
    if len(text.split()) <= max_words and len(text) <= max_chars:
        return text
    best = ""
    for m in _CUT_BEFORE.finditer(text):
        head = text[: m.start()].rstrip(" ,")
        if len(head.split()) <= max_words and len(head) <= max_chars:
            best = head
        else:
            break
    return best


def about_lines(about: str, project: str) -> tuple[str, str]:
    """A headline (tagline) and a subtitle from the user's description, "" when none fits."""
    about = " ".join((about or "").split())
    if not about:
        return "", ""
    first = _CLAUSE_BREAK.split(about)[0].strip()
    # "Trailhead is a database of ..." -> "A database of ..."
    lead = re.match(re.escape(project) + r"\s+(?:is|are|was)\s+", first, re.I) if project else None
    if lead:
        first = first[lead.end() :]
    head = _shorten(first, max_words=HEADLINE_WORDS[1], max_chars=HEADLINE_MAX_CHARS)
    if len(head.split()) < HEADLINE_WORDS[0]:
        head = ""
    head = head[:1].upper() + head[1:]
    sentence = re.split(r"(?<=[.!?])\s+", about)[0]
    sub = _shorten(sentence, max_words=12, max_chars=SUBTITLE_MAX_CHARS - 1)
    if len(sub.split()) < 2:
        sub = ""
    sub = (sub[:1].upper() + sub[1:] + ".") if sub else ""
    return head, sub


# --------------------------------------------------------------------------------------
# The grounded writer
# --------------------------------------------------------------------------------------


@dataclass
class Line:
    text: str
    evidence: list[str]
    template: str = ""


@dataclass
class SetCopy:
    tagline: str
    headlines: list[str]
    subtitles: list[str]
    evidence: list[dict[str, list[str]]] = field(default_factory=list)


@dataclass
class SetContext:
    """Everything set-level the writer needs."""

    app_id: str
    project: str
    bundle_id: str
    about: str
    domain: str | None
    confident: bool
    locale: str
    evidence: list[ScreenEvidence]

    @property
    def english(self) -> bool:
        return _is_english(self.locale)

    def grounding(self) -> Grounding:
        texts = [self.project, self.bundle_id, self.about]
        for ev in self.evidence:
            texts += ev.strings()
        return allowed_words(texts, locale=self.locale)

    def policy(self) -> CasePolicy:
        strings = [s for ev in self.evidence for s in ev.strings()]
        return case_policy(strings, self.project, self.english)


def _rng(*parts: object) -> random.Random:
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode("utf-8")).hexdigest()
    return random.Random(int(digest[:16], 16))


def _fill(
    template: str,
    slots: Slots,
    used: set[frozenset[str]],
    extra: Mapping[str, str],
) -> Line | None:
    """The template with its slots filled from the screen's evidence, or None."""

    def fresh(phrases: list[Phrase]) -> list[Phrase]:
        return [p for p in phrases if p.key() not in used]

    items, actions = fresh(slots.items), fresh(slots.actions)
    verbs, counts, tabs = fresh(slots.verbs), fresh(slots.counts), slots.tabs
    title = slots.title if slots.title is not None and slots.title.key() not in used else None
    values: dict[str, Phrase | None] = {}
    for name in _SLOT.findall(template):
        low = name.lower()
        value: Phrase | None = None
        if low == "title":
            value = title
        elif low == "titles":
            value = title if slots.plural else None
        elif low == "one":
            value = slots.one if (slots.plural and title is not None) else None
        elif low in ("action", "action1"):
            value = actions[0] if actions else None
        elif low == "action2":
            value = actions[1] if len(actions) > 1 else None
        elif low == "verb":
            value = verbs[0] if verbs else None
        elif low == "count":
            value = counts[0] if counts else None
        elif low.startswith("item") and low[4:].isdigit():
            k = int(low[4:]) - 1
            value = items[k] if len(items) > k else None
        elif low.startswith("tab") and low[3:].isdigit():
            k = int(low[3:]) - 1
            value = tabs[k] if len(tabs) > k else None
        elif name in extra:
            value = Phrase(extra[name], extra[name]) if extra[name] else None
        if value is None:
            return None
        values[name] = value
    text = _SLOT.sub(
        lambda m: values[m.group(1)].cap if m.group(1)[:1].isupper() else values[m.group(1)].text,
        template,
    )
    text = " ".join(text.split())
    text = (
        text[:1].upper() + text[1:] if text[:1].islower() and not _camel(text.split()[0]) else text
    )
    evidence = list(dict.fromkeys(v.evidence for v in values.values()))
    return Line(text, evidence, template)


_FALLBACK_GROUPS = ("name", "vocabulary")


class _Writer:
    """Chooses each line under the set's rules: first candidate that breaks nothing."""

    def __init__(self, ctx: SetContext, seed: int):
        self.ctx = ctx
        self.seed = seed
        self.grounding = ctx.grounding()
        self.policy = ctx.policy()
        self.proper = [*_proper_words(ctx.project), *sorted(self.policy.proper)]
        if not ctx.english:  # other languages keep the screen's own capitals
            self.proper += [w for ev in ctx.evidence for s in ev.strings() for w in s.split()]
        self.headlines: set[str] = set()
        self.first_words: set[str] = set()
        self.subtitles: set[str] = set()
        self.templates: set[str] = set()
        self.fillers: Counter[str] = Counter()
        about_head, about_sub = about_lines(ctx.about, ctx.project)
        self.extra = {"Project": ctx.project, "About": about_head, "AboutSentence": about_sub}

    # --- bookkeeping -------------------------------------------------------------
    def reserve(self, headline: str | None, subtitle: str | None) -> None:
        """Lines the user wrote: others must not repeat them."""
        if headline:
            self.headlines.add(_norm(headline))
            self.first_words.add(first_word(headline))
        if subtitle:
            self.subtitles.add(_norm(subtitle))

    def _take(self, line: Line, kind: str) -> None:
        if kind == "headline":
            self.headlines.add(_norm(line.text))
            self.first_words.add(first_word(line.text))
        else:
            self.subtitles.add(_norm(line.text))
        self.templates.add(line.template)
        self.fillers.update(_filler(line.template))

    # --- candidates ----------------------------------------------------------------
    def _groups(
        self, kind: str, position: int, tagline: bool, slots: Slots
    ) -> list[tuple[str, list[str]]]:
        bank = phrasebank()
        if not self.ctx.english:
            groups = [(name, list(t)) for name, t in bank["language_free"][kind].items()]
            if tagline and self.extra["About"]:
                groups.insert(0, ("about", ["{About}"]))
            if kind == "subtitle" and position == 0 and self.extra["AboutSentence"]:
                groups.insert(0, ("about", ["{AboutSentence}"]))
            return groups
        generic: dict[str, list[str]] = bank[kind]
        domain_bank: dict = {}
        if self.ctx.confident and self.ctx.domain:
            domain_bank = bank.get("domains", {}).get(self.ctx.domain, {}).get(kind, {})
        groups: list[tuple[str, list[str]]] = []
        taglines: dict[str, list[str]] = dict(bank["tagline"]) if tagline else {}
        for name in list(taglines):
            groups.append((name, list(taglines.pop(name))))
        for name, templates in generic.items():
            if name == "about" and position != 0:
                continue
            if name in taglines:
                groups.append((name, list(taglines.pop(name))))
            if name in domain_bank:
                groups.append((name, list(domain_bank[name])))
            groups.append((name, list(templates)))
        if slots.weak_title:  # "Overview, at a glance" only when nothing says more
            weak = [g for g in groups if g[0] in ("title", "titles")]
            groups = [g for g in groups if g[0] not in ("title", "titles")]
            at = next((i for i, g in enumerate(groups) if g[0] in ("name", "vocabulary")), None)
            at = len(groups) if at is None else at
            groups[at:at] = weak
        if kind == "subtitle" and position == 0 and self.extra["AboutSentence"]:
            # slide 1: the user's own words, unless the tagline already used them
            about_first = not self.about_used
            groups.sort(key=lambda g: 0 if (g[0] == "about" and about_first) else 1)
        return groups

    about_used = False

    def _ok(self, line: Line, kind: str, relax: int, pair: Line | None) -> bool:
        if kind == "headline":
            problems = headline_problems(line.text, proper=self.proper, strict=self.ctx.english)
        else:
            problems = subtitle_problems(line.text, proper=self.proper, strict=self.ctx.english)
        if problems or grounding_problems(line.text, self.grounding):
            return False
        if kind == "headline":
            if _norm(line.text) in self.headlines:
                return False
            if relax < 3 and first_word(line.text) in self.first_words:
                return False
        elif _norm(line.text) in self.subtitles:
            return False
        if relax < 2 and line.template in self.templates:
            return False
        filler = _filler(line.template)
        if relax < 1 and any(self.fillers[f] >= 2 for f in filler):
            return False
        if pair is not None and relax < 2 and filler & _filler(pair.template):
            return False
        return True

    def write(
        self,
        kind: str,
        position: int,
        slots: Slots,
        *,
        tagline: bool = False,
        pair: Line | None = None,
    ) -> Line:
        used: set[frozenset[str]] = set()
        if pair is not None:
            used = {Phrase(e, e).key() for e in pair.evidence}
        groups = self._groups(kind, position, tagline, slots)
        named = [g for g in groups if g[0] not in _FALLBACK_GROUPS]
        fallback = [g for g in groups if g[0] in _FALLBACK_GROUPS]
        # a line that names the screen, even with a tone word used twice already, beats
        # a line that names nothing; the first word and the template stay unique longest
        # (groups, how much the set rules bend, whether the headline's evidence may return:
        # a thin screen's subtitle may name the title again rather than nothing)
        phases = [
            (named, 0, False),
            (named, 1, False),
            (fallback, 0, False),
            (fallback, 1, False),
            (groups, 2, False),
            (groups, 2, True),
            (groups, 3, True),
        ]
        for phase_groups, relax, again in phases:
            for name, templates in phase_groups:
                rng = _rng(self.ctx.app_id, self.seed, position, kind, name)
                order = list(templates)
                rng.shuffle(order)
                for template in order:
                    line = _fill(template, slots, set() if again else used, self.extra)
                    if line is None or not self._ok(line, kind, relax, pair):
                        continue
                    if name == "about":
                        self.about_used = True
                    self._take(line, kind)
                    return line
        if not self.ctx.english:
            return self._english_fallback(kind, position, slots, pair)
        raise ShotsmithError(
            f"write_copy: ran out of distinct captions for set {self.ctx.app_id!r} "
            f"({len(self.headlines)} written); split the set."
        )

    def _english_fallback(self, kind: str, position: int, slots: Slots, pair: Line | None) -> Line:
        """A screen with no words of its own in another language: neutral English."""
        english = SetContext(**{**self.ctx.__dict__, "locale": "en-US"})
        writer = _Writer(english, self.seed)
        writer.headlines, writer.first_words = self.headlines, self.first_words
        writer.subtitles, writer.templates, writer.fillers = (
            self.subtitles,
            self.templates,
            self.fillers,
        )
        return writer.write(kind, position, slots, pair=pair)


def grounded_copy(
    ctx: SetContext,
    *,
    seed: int = 0,
    fixed: Sequence[tuple[str | None, str | None]] | None = None,
) -> SetCopy:
    """Tagline + one headline/subtitle per screen of a set, every word grounded.

    ``fixed``: per screen, the user's own (headline, subtitle) — None where the writer
    should write; user lines are kept verbatim and never repeated elsewhere.
    """
    n = len(ctx.evidence)
    fixed = list(fixed) if fixed is not None else [(None, None)] * n
    writer = _Writer(ctx, seed)
    for head, sub in fixed:
        writer.reserve(head, sub)
    all_slots = build_slots(ctx.evidence, ctx.project, writer.policy)
    heads: list[str] = [""] * n
    subs: list[str] = [""] * n
    evidence: list[dict[str, list[str]]] = [{"headline": [], "subtitle": []} for _ in range(n)]
    for i in range(n):
        user_head, user_sub = fixed[i]
        head_line: Line | None = None
        if user_head:
            heads[i] = user_head
        else:
            head_line = writer.write("headline", i, all_slots[i], tagline=(i == 0))
            heads[i] = head_line.text
            evidence[i]["headline"] = head_line.evidence
        if user_sub:
            subs[i] = user_sub
        else:
            sub_line = writer.write("subtitle", i, all_slots[i], pair=head_line)
            subs[i] = sub_line.text
            evidence[i]["subtitle"] = sub_line.evidence
    return SetCopy(heads[0] if n else "", heads, subs, evidence)


def _proper_words(project: str) -> list[str]:
    project = (project or "").strip()
    return [project, *project.split()] if project else []


def _is_english(locale: str) -> bool:
    return not locale or locale.lower().replace("_", "-").split("-")[0] == "en"


# --------------------------------------------------------------------------------------
# Copy the user wrote
# --------------------------------------------------------------------------------------

USER = "user"
_USER_SOURCES = {
    "user": (True, True),
    "user (headline)": (True, False),
    "user (subtitle)": (False, True),
}


def screen_key(name: object) -> str:
    """How screens are matched: case, file number and extension do not matter."""
    text = str(name or "").strip()
    text = re.sub(r"\.(png|jpe?g|webp)$", "", text, flags=re.IGNORECASE)
    text = re.sub(r"^\d+[_\-. ]+", "", text)
    return " ".join(re.split(r"[_\-\s]+", text.casefold())).strip()


def _locale_key(value: object) -> str:
    return str(value or "").strip().replace("_", "-").casefold()


def read_user_copy(copy: str | Path | pd.DataFrame) -> pd.DataFrame:
    """The user's own captions: a CSV path or a frame with ``screen, headline, subtitle``
    (optional ``locale``, ``app_id``). A blank cell leaves that line to the writer."""
    if isinstance(copy, pd.DataFrame):
        table = copy.copy()
        where = "the copy table"
    else:
        path = Path(copy)
        where = str(path)
        if not path.is_file():
            raise ShotsmithError(
                f"copy: {where} is not a file. Pass a CSV with the columns "
                "screen, headline, subtitle (optional locale)."
            )
        try:
            table = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8-sig")
        except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
            raise ShotsmithError(
                f"copy: {where} is not a readable UTF-8 CSV ({type(exc).__name__}: "
                f"{' '.join(str(exc).split())[:120]}). Save it as CSV with the columns "
                "screen, headline, subtitle."
            ) from None
    table.columns = [str(c).strip().casefold() for c in table.columns]
    missing = [c for c in ("screen", "headline", "subtitle") if c not in table.columns]
    if missing:
        raise ShotsmithError(
            f"copy: {where} has no column {', '.join(repr(c) for c in missing)}. "
            f"It needs screen, headline, subtitle (optional locale); it has "
            f"{', '.join(map(str, table.columns)) or 'no columns'}."
        )
    keep = [c for c in ("screen", "headline", "subtitle", "locale", "app_id") if c in table]
    table = table[keep].fillna("").astype(str)
    for c in keep:
        table[c] = table[c].map(lambda v: " ".join(v.split()))
    table = table[table["screen"] != ""]
    dupes = table.assign(_k=table["screen"].map(screen_key)).duplicated(
        [c for c in ("_k", "locale", "app_id") if c in table or c == "_k"], keep=False
    )
    if dupes.any():
        names = sorted(set(table.loc[dupes, "screen"]))
        raise ShotsmithError(
            f"copy: {where} gives captions for {', '.join(map(repr, names))} more than once; "
            "keep one row per screen (and locale)."
        )
    return table.reset_index(drop=True)


def _user_lines(
    frame: pd.DataFrame, copy: str | Path | pd.DataFrame | None
) -> dict[int, tuple[str | None, str | None]]:
    """Per row position, the user's (headline, subtitle): frame edits, then the CSV."""
    n = len(frame)
    out: dict[int, tuple[str | None, str | None]] = {}
    if COPY_SOURCE in frame.columns:
        heads = frame[COPY_HEADLINE].tolist() if COPY_HEADLINE in frame else [None] * n
        subs = frame[COPY_SUBTITLE].tolist() if COPY_SUBTITLE in frame else [None] * n
        for k, source in enumerate(frame[COPY_SOURCE].tolist()):
            keep_head, keep_sub = _USER_SOURCES.get(str(source).strip(), (False, False))
            head = _as_text(heads[k]) if keep_head else ""
            sub = _as_text(subs[k]) if keep_sub else ""
            if head or sub:
                out[k] = (head or None, sub or None)
    if copy is None:
        return out
    table = read_user_copy(copy)
    keys = [screen_key(s) for s in (frame[SCREEN].tolist() if SCREEN in frame else [""] * n)]
    locales = [_locale_key(v) for v in (frame[LOCALE].tolist() if LOCALE in frame else [""] * n)]
    apps = [str(v) for v in frame[APP_ID].tolist()]
    for rec in table.to_dict("records"):
        key = screen_key(rec["screen"])
        want_locale = _locale_key(rec.get("locale", ""))
        want_app = str(rec.get("app_id", "") or "")
        hits = [
            k
            for k in range(n)
            if keys[k] == key
            and (not want_locale or locales[k] == want_locale)
            and (not want_app or apps[k] == want_app)
        ]
        if not hits:
            known = ", ".join(dict.fromkeys(str(s) for s in frame[SCREEN].tolist()))
            extra = f" and locale {rec['locale']!r}" if want_locale else ""
            log.warning(
                "copy: no screen named %r%s in the set (screens: %s); its headline and "
                "subtitle were not used. Use one of those names in the copy file.",
                rec["screen"],
                extra,
                known,
            )
            continue
        for k in hits:
            old_head, old_sub = out.get(k, (None, None))
            out[k] = (rec["headline"] or old_head, rec["subtitle"] or old_sub)
    return out


def _warn_user_lines(app: str, screens: Sequence[str], fixed, ctx: SetContext) -> None:
    grounding = ctx.grounding()
    proper = _proper_words(ctx.project)
    for screen, (head, sub) in zip(screens, fixed):
        for kind, text, check in (
            ("headline", head, headline_problems),
            ("subtitle", sub, subtitle_problems),
        ):
            if not text:
                continue
            problems = check(text, proper=proper, strict=False)
            claims = [p.split("'")[1] for p in grounding_problems(text, grounding)]
            if claims:
                problems.append(f"words not on the screens: {', '.join(claims)}")
            if problems:
                log.warning(
                    "copy: %s screen %r: your %s %r is kept as written, though: %s",
                    app,
                    screen,
                    kind,
                    text,
                    "; ".join(problems),
                )


# --------------------------------------------------------------------------------------
# LLM copy (held to the same grounding and rules)
# --------------------------------------------------------------------------------------


class LLMRejected(llm_mod.LLMError):
    """The LLM answered, but its copy broke a rule or claimed something not on the screens."""


def _clean_llm_line(text: object, *, headline: bool) -> str:
    if not isinstance(text, str):
        return ""
    t = " ".join(text.split()).strip().strip('"“”')
    if headline:
        t = t.rstrip(".").rstrip()
    elif t and t[-1] not in ".!?。":
        t += "."
    return t


def llm_brief(ctx: SetContext, fixed: Sequence[tuple[str | None, str | None]]) -> dict:
    """What the LLM is told: the evidence per screen, the name, the user's description,
    the neutral vocabulary it may add, and the lines the user wrote."""
    screens = []
    for i, ev in enumerate(ctx.evidence):
        entry: dict[str, object] = {"position": i + 1, "screen": ev.screen, **ev.brief()}
        head, sub = fixed[i] if i < len(fixed) else (None, None)
        if head:
            entry["user_headline"] = head
        if sub:
            entry["user_subtitle"] = sub
        screens.append(entry)
    return {
        "app_name": ctx.project,
        "bundle_id": ctx.bundle_id,
        "about": ctx.about,
        "category": ctx.domain if (ctx.confident and ctx.domain) else "unknown",
        "locale": ctx.locale,
        "screens": screens,
        "neutral_vocabulary": sorted(vocabulary().neutral_for(ctx.locale)),
    }


def _evidence_of(text: str, ev: ScreenEvidence, ctx: SetContext) -> list[str]:
    """The evidence a line rests on: for each content word, where it was seen."""
    out: list[str] = []
    sources = [
        *ev.strings(),
        ctx.project,
        ctx.about,
        *(s for e in ctx.evidence for s in e.strings()),
    ]
    for word in content_words(text, ctx.locale):
        forms = word_forms(word)
        for s in sources:
            if any(word_forms(w) & forms for w in words_of(s)) or (
                is_unspaced(word) and word.casefold() in s.casefold()
            ):
                if s not in out:
                    out.append(s)
                break
    return out


def llm_copy(
    config: llm_mod.LLMConfig,
    ctx: SetContext,
    fixed: Sequence[tuple[str | None, str | None]],
) -> SetCopy:
    """Ask the LLM for one set's copy; raise LLMError (or LLMRejected) when unusable."""
    n = len(ctx.evidence)
    answer = llm_mod.request_copy(config, llm_brief(ctx, fixed))
    screens = answer.get("screens")
    if not isinstance(screens, list) or len(screens) != n:
        got = len(screens) if isinstance(screens, list) else type(screens).__name__
        raise llm_mod.LLMError(f"expected {n} screens, got {got}")
    heads, subs = [], []
    for s in screens:
        if not isinstance(s, dict):
            raise llm_mod.LLMError("a screen entry is not an object")
        heads.append(_clean_llm_line(s.get("headline"), headline=True))
        subs.append(_clean_llm_line(s.get("subtitle"), headline=False))
    for i, (head, sub) in enumerate(fixed):
        heads[i] = head or heads[i]
        subs[i] = sub or subs[i]
    grounding = ctx.grounding()
    proper = _proper_words(ctx.project)
    for i, (h, s) in enumerate(zip(heads, subs), start=1):
        user_head, user_sub = fixed[i - 1]
        for kind, text, is_user, check in (
            ("headline", h, user_head, headline_problems),
            ("subtitle", s, user_sub, subtitle_problems),
        ):
            if is_user:
                continue
            problems = check(text, proper=proper, strict=False)
            if problems:
                raise LLMRejected(f"screen {i} {kind}: {problems[0]}")
            claims = grounding_problems(text, grounding)
            if claims:
                raise LLMRejected(f"screen {i} {kind} {claims[0]}")
    tagline = heads[0] if heads else ""
    problems = set_problems(
        [h for i, h in enumerate(heads) if not fixed[i][0]] + [h for h, _ in fixed if h],
        [s for i, s in enumerate(subs) if not fixed[i][1]] + [s for _, s in fixed if s],
    )
    if problems:
        raise LLMRejected(problems[0])
    evidence = [
        {
            "headline": [] if fixed[i][0] else _evidence_of(heads[i], ctx.evidence[i], ctx),
            "subtitle": [] if fixed[i][1] else _evidence_of(subs[i], ctx.evidence[i], ctx),
        }
        for i in range(n)
    ]
    return SetCopy(tagline, heads, subs, evidence)


# --------------------------------------------------------------------------------------
# The stage
# --------------------------------------------------------------------------------------

BACKENDS = ("grounded", "phrasebank", "llm", "auto")  # "phrasebank": the earlier name
GROUNDED = "grounded"


def _confident(value: object) -> bool:
    return bool(value) if isinstance(value, (bool, int)) or hasattr(value, "item") else False


@stage(
    "write_copy",
    requires=(APP_ID, POSITION, PROJECT_NAME, DOMAIN_CATEGORY, FEATURES_INTENT),
    provides=(COPY_TAGLINE, COPY_HEADLINE, COPY_SUBTITLE, COPY_SOURCE, COPY_EVIDENCE),
    optional=(
        LOCALE,
        SCREEN,
        BUNDLE_ID,
        ABOUT,
        DOMAIN_CONFIDENT,
        FEATURES_TEXT,
        FEATURES_TITLE,
        FEATURES_HEADINGS,
        FEATURES_TABS,
        FEATURES_ACTIONS,
        FEATURES_LABELS,
        FEATURES_NUMBERS,
        FEATURES_EVIDENCE,
        SCREEN_TEXT,
        COPY_SOURCE,
    ),
)
def write_copy(
    frame: pd.DataFrame,
    *,
    backend: str = GROUNDED,
    llm: llm_mod.LLMConfig | None = None,
    seed: int = 0,
    about: str | None = None,
    copy: str | Path | pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Tagline per set, headline + subtitle per screenshot, grounded in what the screens show.

    ``backend``: ``"grounded"`` (default, offline, deterministic; ``"phrasebank"`` is
    the same), ``"llm"`` (the ``llm`` config, else ``LLMConfig.from_env()``; falls back
    to the grounded writer when the LLM fails or its copy is rejected, and says why in
    ``copy_source`` and on stderr), ``"auto"`` (llm when configured, else grounded).
    ``about``: the user's description of the app (else the ``about`` column), which
    captions may draw on. ``copy``: the user's own captions (CSV path or frame with
    ``screen, headline, subtitle``), kept verbatim. ``seed`` picks other, equally
    grounded copy.
    """
    if backend not in BACKENDS:
        raise ShotsmithError(
            f"write_copy: backend={backend!r} is not one of {BACKENDS}; use 'grounded', "
            "or 'llm' with SHOTSMITH_LLM_BASE_URL and SHOTSMITH_LLM_MODEL set."
        )
    if about is not None and not isinstance(about, str):
        raise ShotsmithError(
            f"write_copy: about= must be text describing the app, got {type(about).__name__}."
        )
    config = llm
    if backend in ("llm", "auto") and config is None:
        config = llm_mod.LLMConfig.from_env()
    use_llm = backend == "llm" or (backend == "auto" and config is not None)

    n = len(frame)
    user = _user_lines(frame, copy)
    records = frame.to_dict("records")
    tagline_col: list[str] = [""] * n
    head_col: list[str] = [""] * n
    sub_col: list[str] = [""] * n
    source_col: list[str] = [""] * n
    evidence_col: list[dict[str, list[str]]] = [{"headline": [], "subtitle": []}] * n

    groups: dict[object, list[int]] = {}
    for k, app in enumerate(frame[APP_ID].tolist()):
        groups.setdefault(app, []).append(k)
    positions = frame[POSITION].tolist()

    for app_id, members in groups.items():
        members = sorted(members, key=lambda k: (positions[k], k))
        first = records[members[0]]
        domain = first.get(DOMAIN_CATEGORY)
        set_about = about if about is not None else _as_text(first.get(ABOUT))
        ctx = SetContext(
            app_id=str(app_id),
            project=_as_text(first.get(PROJECT_NAME)),
            bundle_id=_as_text(first.get(BUNDLE_ID)),
            about=" ".join(set_about.split()),
            domain=domain if isinstance(domain, str) else None,
            confident=_confident(first.get(DOMAIN_CONFIDENT)),
            locale=_as_text(first.get(LOCALE)) or "en-US",
            evidence=[screen_evidence(records[k]) for k in members],
        )
        fixed = [user.get(k, (None, None)) for k in members]
        if any(h or s for h, s in fixed):
            _warn_user_lines(str(app_id), [ev.screen for ev in ctx.evidence], fixed, ctx)
        result: SetCopy | None = None
        notes: list[str] = []
        source = GROUNDED
        if use_llm:
            if config is None:
                notes.append(
                    "llm failed: not configured (set SHOTSMITH_LLM_BASE_URL and "
                    "SHOTSMITH_LLM_MODEL)"
                )
            else:
                try:
                    result = llm_copy(config, ctx, fixed)
                    source = f"llm:{config.model}"
                except LLMRejected as exc:
                    notes.append(f"llm rejected: {exc.short}")
                except llm_mod.LLMError as exc:
                    notes.append(f"llm failed: {exc.short}")
            if notes:
                log.warning(
                    "write_copy: %s: the LLM's copy was not used (%s); grounded copy "
                    "written instead.",
                    app_id,
                    notes[0],
                    extra={"llm_unused": True},
                )
        if result is None:
            result = grounded_copy(ctx, seed=seed, fixed=fixed)
            if not ctx.english:
                notes.append(f"the screens' own words; locale {ctx.locale}")
            if notes:
                source = f"{GROUNDED} ({'; '.join(notes)})"
        for i, k in enumerate(members):
            head, sub = fixed[i]
            tagline_col[k] = result.tagline
            head_col[k], sub_col[k] = result.headlines[i], result.subtitles[i]
            evidence_col[k] = result.evidence[i] if i < len(result.evidence) else {}
            if head and sub:
                source_col[k] = USER
            elif head:
                source_col[k] = "user (headline)"
            elif sub:
                source_col[k] = "user (subtitle)"
            else:
                source_col[k] = source

    frame[COPY_TAGLINE] = tagline_col
    frame[COPY_HEADLINE] = head_col
    frame[COPY_SUBTITLE] = sub_col
    frame[COPY_SOURCE] = source_col
    frame[COPY_EVIDENCE] = pd.Series(evidence_col, index=frame.index, dtype=object)
    return frame
