"""What each screen shows, read as a copywriter would: evidence by role, then caption slots.

``screen_evidence`` gathers a row's title, headings, tabs, actions, labels and numbers
(from the ``features_*`` columns, or line by line from the visible text of older
frames); ``build_slots`` turns a set's evidence into what captions may name: a title, the
actions, the items (structure before data: "Categories" before "Whole Foods Market"),
counts ("12 trails") and the app's sections. Chrome, dates, units, states, codes and
OCR noise are left out; ``case_policy`` decides which words are names and keep capitals.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from ...columns import (
    FEATURES_ACTIONS,
    FEATURES_EVIDENCE,
    FEATURES_EXAMPLES,
    FEATURES_FIELDS,
    FEATURES_HEADINGS,
    FEATURES_KIND,
    FEATURES_LABELS,
    FEATURES_NUMBERS,
    FEATURES_SUBJECT,
    FEATURES_SUBJECT_FROM,
    FEATURES_TABS,
    FEATURES_TEXT,
    FEATURES_TITLE,
    SCREEN,
    SCREEN_ELEMENTS,
    SCREEN_TEXT,
    list_cell,
)
from ...grounding import (
    content_words,
    is_neutral,
    is_unspaced,
    vocabulary,
    word_forms,
    words_of,
)
from ...words import (
    CURRENCY_NAMES,
    can_be_noun,
    is_bare_verb,
    is_common_word,
    is_plural,
    is_word,
    word_frequency,
)
from ...words import plural as plural_of
from ...words import singular as singular_of
from ..features import singular
from ..features.evidence import is_chrome
from ..features.reading import (
    BREADCRUMB,
    YEAR_AFTER,
    is_data,
    is_feature_phrase,
    is_generic,
    is_person,
    tables,
    written_as_name,
)
from .rules import acronym_like, acronyms, as_acronym, forbidden_words, proper_terms

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
    # the reading extract_features made of the screen (features_kind, ...): "" / [] when
    # the frame predates it
    kind: str = ""
    subject: str = ""
    subject_from: str = ""
    read_by: str = ""  # "dom", "ocr" or "text": how most of the evidence was read
    examples: list[str] = field(default_factory=list)
    fields: list[str] = field(default_factory=list)

    def strings(self) -> list[str]:
        """Every piece of evidence, title first."""
        out = [self.title] if self.title else []
        for part in (self.headings, self.actions, self.labels, self.tabs, self.numbers):
            out += part
        return out + self.lines

    def reading(self) -> dict[str, object]:
        """The screen's reading as ``copy_evidence`` records it."""
        return {
            "kind": self.kind,
            "subject": self.subject,
            "subject_from": self.subject_from,
            "examples": list(self.examples),
            "fields": list(self.fields),
        }

    def brief(self) -> dict[str, object]:
        """The evidence as the LLM sees it: the reading first, then the text by role."""
        return {
            "kind": self.kind,
            "subject": self.subject,
            "examples": self.examples[:6],
            "fields": self.fields[:6],
            "title": self.title,
            "headings": self.headings[:8],
            "actions": self.actions[:8],
            "labels": self.labels[:16],
            "numbers": self.numbers[:8],
            "tabs": self.tabs[:8],
        }


as_list = list_cell  # the name write_copy's parts have long used


def as_text(value: object) -> str:
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
    ev = ScreenEvidence(screen=as_text(row.get(SCREEN)))

    def add(field_name: str, text: object) -> None:
        t = " ".join(str(text).split()) if isinstance(text, str) else ""
        if t and t not in getattr(ev, field_name):
            getattr(ev, field_name).append(t)

    sources: Counter[str] = Counter()
    for item in as_list(row.get(FEATURES_EVIDENCE)):
        if not isinstance(item, Mapping):
            continue
        sources[str(item.get("source") or "")] += 1
        role, text = str(item.get("role") or "text"), as_text(item.get("text"))
        if not text:
            continue
        if role == "title" and not ev.title:
            ev.title = text
        else:
            add(_ROLE_FIELDS.get(role, "headings" if role == "title" else "lines"), text)
    title = as_text(row.get(FEATURES_TITLE))
    if title and not ev.title:
        ev.title = title
    ev.read_by = sources.most_common(1)[0][0] if sources else ""
    ev.kind = as_text(row.get(FEATURES_KIND))
    ev.subject = as_text(row.get(FEATURES_SUBJECT))
    ev.subject_from = as_text(row.get(FEATURES_SUBJECT_FROM))
    ev.examples = [t for t in map(as_text, as_list(row.get(FEATURES_EXAMPLES))) if t]
    ev.fields = [t for t in map(as_text, as_list(row.get(FEATURES_FIELDS))) if t]
    for column, field_name in _COLUMN_FIELDS:
        for text in as_list(row.get(column)):
            add(field_name, text)
    if not (ev.title or ev.headings or ev.actions or ev.labels or ev.tabs or ev.numbers):
        _read_elements(ev, as_list(row.get(SCREEN_ELEMENTS)), add)
    text = as_text(row.get(FEATURES_TEXT)) or as_text(row.get(SCREEN_TEXT))
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


#: DOM roles (capture's screen_elements) -> evidence fields
_ELEMENT_FIELDS = {
    "heading": "headings",
    "tab": "tabs",
    "button": "actions",
    "listitem": "labels",
    "label": "labels",
    "link": "labels",
    "text": "lines",
}


def _read_elements(ev: ScreenEvidence, elements: list, add) -> None:
    """Evidence from the DOM's roles when extract_features gave none: the first level-1
    heading titles the screen; numbers are kept apart."""
    for el in elements:
        if not isinstance(el, Mapping):
            continue
        role, text = str(el.get("role") or "text"), as_text(el.get("text"))
        if not text or role == "input":
            continue
        if role == "heading" and not ev.title and str(el.get("level") or "1") == "1":
            ev.title = text
        elif role in ("link", "button") and _verb_led(text):
            add("actions", text)  # "Invite people", "Add a new bill"
        elif any(c.isdigit() for c in text) and role in ("text", "listitem", "label"):
            add("numbers", text)
        else:
            add(_ELEMENT_FIELDS.get(role, "lines"), text)


def _clearly_an_action(text: str) -> bool:
    """Without a role to tell: "Add expense" is a button, "Crop family" a column."""
    words = words_of(text)
    voc = vocabulary()
    return (
        len(words) >= 2
        and words[0].casefold() in voc.ui_verbs
        and words[0].casefold() not in voc.verbs_also_nouns
        and " " in text.strip()
    )


def _verb_led(text: str) -> bool:
    words = words_of(text)
    return len(words) >= 1 and words[0].casefold() in vocabulary().ui_verbs


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
        elif len(words) <= 4 and _clearly_an_action(line):
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
_NOT_COUNTED = (
    frozenset(
        "days hours minutes mins seconds secs weeks months years nights times items results "
        "pages steps kcal cal calories bpm miles km kms mi lbs kgs meters metres kilometers "
        "kilometres feet inches yards degrees grams kilograms pounds ounces liters litres".split()
    )
    | CURRENCY_NAMES
)  # durations, measures, money ("42 meters" high, "525 Euros"): no count


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
    if core.count("-") >= 2:
        return False  # "geo-distance-lite": an identifier, not a word
    sentence = core[:1].isupper() and core[1:].islower()  # "Short-term", "E-mail"
    if not (core.islower() or core.istitle() or sentence or core.isupper()):
        if not is_camel_case(core):
            return False
    low = core.casefold()
    if len(low) == 1:
        return low in ("a", "i")
    if re.search(r"(.)\1\1", low):
        return False
    ascii_letters = re.sub(r"[^a-z]", "", low)
    if ascii_letters == re.sub(r"['’&-]", "", low):  # English-like: every part needs a vowel
        for part in re.split(r"['’&-]", low):
            if len(part) >= 3 and not re.search(r"[aeiouy]", part):
                if not (core.isupper() and len(core) <= 5):
                    return False  # "css-variables", "sSyl": not a word
        if re.search(r"[bcdfghjklmnpqrstvwxz]{6,}", low):
            return False
    return True


def is_camel_case(word: str) -> bool:
    """iPhone, GitHub, YouTube: a capital after the first letter, not all capitals."""
    return any(c.isupper() for c in word[1:]) and not word.isupper()


def clean_phrase(
    text: str,
    *,
    max_words: int = 3,
    max_chars: int = 28,
    trim_numbers: bool = False,
    dates: bool = False,
) -> str | None:
    """A piece of evidence fit to stand in a caption, or None.

    Drops numbers, URLs and code, sentences, OCR noise, interface chrome ("See all",
    "Sign in"), dates and units (unless ``dates``: "Expenses by month" is a fine heading)
    and anything that says nothing beyond the neutral vocabulary.
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
    if _all_chrome().fullmatch(low):
        return None  # "Sign Up Login": two of the site's buttons read as one line
    lows = [w.strip(",.'’").casefold() for w in words]
    dated = [w in voc.calendar_words or w in voc.units for w in lows]
    if any(dated) if not dates else all(dated):
        return None  # dates and units say nothing about what the screen offers
    if all(is_neutral(w) or w in voc.chrome or w == "&" for w in lows):
        return None
    if len(words) == 1 and not is_unspaced(t) and len(t) < 4 and t.upper() not in acronyms():
        return None  # "SFO", "Ov": codes and scraps
    if forbidden_words(t):
        return None
    return t


HEADING_CHARS = 30


def clean_sentence(text: str) -> str | None:
    """A sentence the app itself shows ("Manage your shared expenses, easily"), fit to
    stand as a subtitle: 4-10 words, no numbers, code or questions, or None."""
    if not isinstance(text, str):
        return None
    t = " ".join(text.split()).rstrip(".").strip()
    words = t.split()
    if not 4 <= len(words) <= 10 or len(t) > SENTENCE_CHARS or t.endswith(("?", "!", "…")):
        return None
    if any(c.isdigit() for c in t) or _BAD_CHARS.search(t) or '"' in t or "(" in t:
        return None
    if not t[:1].isupper() or t.isupper() or re.search(r"[.!?;:]\s", t):
        return None
    if not all(_plausible(w.strip(",;")) for w in words):
        return None
    if forbidden_words(t) or len([w for w in words_of(t) if not is_neutral(w)]) < 2:
        return None
    if words[-1].casefold() in vocabulary().function_words:
        return None  # "... and record yields in the": a line cut short, not a sentence
    if is_chrome(t):
        return None  # "Skip to main content": the site's boilerplate, not the app speaking
    lower = [w.casefold().strip(",;") for w in words]
    if not set(lower) & vocabulary().function_words:
        return None  # "Broad beans, early peas": a list of things, not a sentence
    if (
        sum(w[:1].isupper() for w in words[1:] if w.casefold() not in vocabulary().function_words)
        >= 2
    ):
        return None  # "Common Trees of Britain": a title, not the app speaking
    if len(words) >= 3 and words[-2].casefold().strip(",") in _MODALS:
        return None  # "... UI, you can use": the object was a link, cut off
    return t


#: A sentence whose last two words are one of these and a verb is cut short.
_MODALS = frozenset("can could will would may might must should shall to".split())


SENTENCE_CHARS = 58


@dataclass(frozen=True)
class Phrase:
    """A piece of evidence as it reads mid-sentence, and as it stands on the screen."""

    text: str
    evidence: str

    @property
    def cap(self) -> str:
        first = self.text.split(" ", 1)[0]
        if is_camel_case(first) or not self.text[:1].islower():
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
    headings: list[Phrase] = field(default_factory=list)  # "Expenses by month", as a line
    sections: list[Phrase] = field(default_factory=list)  # a reader's "Song", "Food", "Nesting"
    sentences: list[Phrase] = field(default_factory=list)  # the app's own words, a subtitle
    # from the screen's reading (features_kind, features_subject, ...)
    kind: str = ""
    subject: Phrase | None = None  # "income statement"
    short: Phrase | None = None  # its head noun, when a frame has no room for the whole
    titled: bool = False  # the subject is the title of what is shown ("European robin")
    general: bool = False  # the subject is the screen's general name ("Dashboard")
    countable: bool = False  # the screen writes the subject as a countable noun
    ones: str = ""  # the subject's plural: "accounts"
    one_of: str = ""  # its singular: "account"
    new: bool = False  # a form for a new one ("New Transaction")
    lead: str = ""  # the verb the form's title leads with: "write" ("Write a comment")
    lead_from: str = ""  # the title it was read from, when it names no subject
    state: str = ""  # the state a list's title names its items by: "saved", "unread"
    examples: list[Phrase] = field(default_factory=list)  # "Treasure Island", kept whole
    fields: list[Phrase] = field(default_factory=list)  # "payee", "amount"


@dataclass
class CasePolicy:
    """How evidence words are written mid-sentence (sentence case: "dining out")."""

    english: bool
    proper: frozenset[str]  # words that keep their capitals ("Kyoto", "SQL", "Pocket")
    project_words: Mapping[str, str] = field(default_factory=dict)  # "stepstreak": "StepStreak"
    #: the set's texts not written wholly in capitals: how a phrase styled in capitals on
    #: one screen ("HARBOR TOWN GAZETTE") is written where it is not
    texts: tuple[str, ...] = ()

    def as_written(self, phrase: str) -> str:
        """A phrase in capitals as the set writes it elsewhere ("Harbor Town Gazette"), or
        the phrase itself when no screen writes it otherwise."""
        if not self.english or not phrase.isupper() or len(phrase.split()) < 2:
            return phrase
        pattern = re.compile(rf"(?<!\w){re.escape(phrase)}(?!\w)", re.IGNORECASE)
        for text in self.texts:
            if (m := pattern.search(text)) is not None and not m.group(0).isupper():
                return m.group(0)
        return phrase

    def display(self, phrase: str) -> str:
        if not self.english:
            return phrase
        out: list[str] = []
        for word in phrase.split():
            core = word.strip(",.'’")
            if core.casefold() in self.project_words:
                out.append(word.replace(core, self.project_words[core.casefold()]))
            elif core in self.proper or is_camel_case(core) or core in acronyms():
                out.append(word)
            elif up := as_acronym(core):
                out.append(word.replace(core, up))  # "tv shows", a file name
            elif acronym_like(core) and len(phrase.split()) > 1:
                out.append(word)  # "CT head": an acronym no table lists, beside words
            else:
                out.append(word.lower())
        return " ".join(out)


def _foreign(word: str) -> bool:
    """A word no English dictionary knows ("Northwind") or written with letters English
    does not use ("München"): a name wherever it stands."""
    return not word.isascii() or not is_word(word.casefold())


_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


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
    capitals: set[str] = set()
    sentence_case = title_case = 0
    # each sentence on its own: the word after a full stop starts one ("... weekend.
    # Comments load fast")
    strings = [part for s in strings for part in _SENTENCE_BREAK.split(s)]
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
                capitals.add(w)
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
    named = {w.casefold() for w in project.split()}
    for s in strings:  # a capitalised run with a word English does not know is a name
        run: list[str] = []  # ("Northwind Studio", "München", "Fushimi Inari")
        for w in [*(w.strip(",.:;'’()\"") for w in s.split()), ""]:
            if w[:1].isupper() and w[1:].islower():
                run.append(w)
                continue
            # the app's own name beside a word is no sign of a name ("Isso Comments")
            if any(_foreign(r) and r.casefold() not in named for r in run):
                proper.update(r for r in run if not (word_forms(r) & lower_seen))
            run = []
    proper |= {w for w in capitals if not (word_forms(w) & lower_seen)}
    proper |= {w for w in project.split() if w[:1].isupper()}
    proper |= {w for term in proper_terms() for w in term.split()}
    project_words = {w.casefold(): w for w in project.split()}
    texts = tuple(dict.fromkeys(s for s in strings if not s.isupper()))
    return CasePolicy(english, frozenset(proper), project_words, texts)


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
        and last not in _NO_ONE
        and singular(last) != last
    )


#: Plurals with no "one" of them: a book's "Contents", "Settings", "Thanks".
_NO_ONE = frozenset("contents settings thanks belongings whereabouts".split())


@lru_cache(maxsize=1)
def _all_chrome() -> re.Pattern[str]:
    """Two or more of the site's boilerplate phrases side by side ("sign up login")."""
    phrases = sorted(vocabulary().chrome, key=len, reverse=True)
    one = "|".join(re.escape(p) for p in phrases)
    return re.compile(rf"(?:{one})(?:\s+(?:{one}))+")


#: Verbs a list's own count opens with: "See all 18 photos", "Found 20 records".
_COUNTING_VERBS = frozenset(
    "see found show view display list browse showing displaying listing viewing".split()
)


#: Column names every table has: "See name, timestamp and value" tells nothing.
_BARE_FIELDS = frozenset("name names value values".split())

#: A line this many words long tells something; a count in it is no list's own.
_TOLD = 8


def _count_phrases(strings: Iterable[str], *, read: bool = False) -> list[str]:
    """Numbers of three or more with the plural noun they count ("12 trails", "248
    recipes"). Read off pixels (``read``), the noun must be a word some text has used
    ("scrobbles"): "22 Tomds" is a misread; from the DOM an app's coinage counts too
    ("24 shaares")."""
    out: list[str] = []
    # not a file's name ("03 Salts.md") nor a number led by a nought ("03 Salts": an
    # order, no count)
    pattern = re.compile(
        r"(?<![\w$€£¥.,])(\d{1,3}(?:,\d{3})+|[1-9]\d*)\s+([^\W\d_]{3,})(?![\w'’]|\.\w)"
    )
    for s in strings:
        said = words_of(s or "")
        lead = [w.casefold() for w in said[:1]]
        if lead and is_bare_verb(lead[0]) and lead[0] not in _COUNTING_VERBS:
            continue  # "Get 3 samples": a task's words, no count ("See all 18 photos" is)
        if len(said) >= _TOLD and not (lead and lead[0] in _COUNTING_VERBS):
            continue  # "Inuvik pass: downlinked 38 images of the Alps strip.": a story
        for number, noun in pattern.findall(s or ""):
            if int(number.replace(",", "")) < 3:
                continue  # "All 2 books": too few to count
            if "," not in number and 1900 <= int(number) <= 2099:
                continue  # "2019 rates": a year, not a count
            if noun.casefold() in _NOT_COUNTED or not _is_plural(noun):
                continue
            if not _plausible(noun) or is_neutral(noun):
                continue
            if read and not word_frequency(singular(noun.casefold())):
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
    per_screen: list[set[str]] = []
    for ev in evidence:
        keys = {p.casefold() for p in (*ev.headings, *ev.actions, *ev.labels, *ev.tabs)}
        per_screen.append(keys)
    counts = Counter(k for keys in per_screen for k in keys)
    n = len(evidence)
    repeated = {k for k, c in counts.items() if n >= 3 and c > 0.6 * n}
    maker = _SlotMaker(
        policy=policy,
        project_key=project.casefold(),
        project_words={w.casefold() for w in words_of(project)},
        repeated=repeated,
    )
    out = [maker.slots(ev) for ev in evidence]
    if out and not out[0].tabs and not out[0].items and (out[0].weak_title or not out[0].title):
        # slide 1 shows little of its own (a bare "Overview", or nothing was read): the
        # set's other screens name the app's sections for the tagline
        sections = [s.title for s in out[1:] if s.title is not None and not s.weak_title]
        out[0].tabs = list({p.key(): p for p in sections}.values())
    for ev, slots in zip(evidence, out):
        read_into(slots, ev, policy, project)
    for slots in out:  # the three shortest sections first, in their order: they fit a tagline
        short = sorted(sorted(range(len(slots.tabs)), key=lambda i: len(slots.tabs[i].text))[:3])
        slots.tabs = [slots.tabs[i] for i in short] + [
            t for i, t in enumerate(slots.tabs) if i not in short
        ]
    return out


@dataclass
class _SlotMaker:
    """Fills one screen's slots at a time, knowing the set (its app's name, the phrases
    repeated on most of its screens)."""

    policy: CasePolicy
    project_key: str
    project_words: set[str]
    repeated: set[str]

    def phrase(self, text: str, *, max_words: int = 3, title: bool = False) -> Phrase | None:
        t = clean_phrase(text, max_words=max_words, trim_numbers=title, dates=title)
        if t is None:
            return None
        low = t.casefold()
        if low == self.project_key or set(words_of(low)) <= self.project_words:
            return None
        return Phrase(self.policy.display(t), t)

    def take(self, p: Phrase | None, into: list[Phrase], taken: set[frozenset[str]]) -> None:
        if p is None:
            return
        key = p.key()
        said = frozenset().union(*taken) if taken else frozenset()
        if not key or key <= said or p.evidence.casefold() in self.repeated:
            return  # "spent" after "Spent so far" says nothing new
        taken.add(key)
        into.append(p)

    def slots(self, ev: ScreenEvidence) -> Slots:
        slots = Slots()
        taken: set[frozenset[str]] = set()
        self._title(slots, ev, taken)
        self._actions(slots, ev, taken)
        self._headings_and_sentences(slots, ev)
        self._items(slots, ev, taken)
        for c in _count_phrases([*ev.numbers, *ev.strings()], read=ev.read_by == "ocr"):
            number, noun = c.split(" ", 1)
            noun = _feature_case(self.policy.display(noun))  # "3 transfers", not "3 Transfers"
            slots.counts.append(Phrase(f"{number} {noun}", c))
        self._tabs(slots, ev)
        return slots

    def _title(self, slots: Slots, ev: ScreenEvidence, taken: set[frozenset[str]]) -> None:
        voc = vocabulary()
        title_source = [ev.title, *ev.headings] if ev.title else list(ev.headings)
        for candidate in title_source:
            p = self.phrase(candidate, max_words=4, title=True)  # "Jobs this week" may title
            if p is not None:
                if len(words_of(p.evidence)) > 1 and _clearly_an_action(p.evidence):
                    continue  # "Add expense" is an action, not a title ("Order history" is)
                slots.title = p
                # "Overview" says little; "Bear Lake Loop" is data, not what the screen does
                slots.weak_title = p.evidence.casefold() in voc.weak_titles or _is_name(p)
                taken.add(p.key())
                break
        if (
            slots.title is not None
            and self.policy.english
            and _is_plural(slots.title.evidence)
            and words_of(slots.title.evidence)[0].casefold() not in voc.ui_verbs
        ):  # "Search messages" is no plural noun: not "Every search message in view"
            slots.plural = True
            words = slots.title.text.split()
            last = words[-1]
            if last.islower():
                words[-1] = singular(last)
            elif last[:1].isupper() and last[1:].islower():  # "Scrobbles": "Scrobble"
                one = singular(last.casefold())
                words[-1] = one[:1].upper() + one[1:]
            slots.one = Phrase(" ".join(words), slots.title.evidence)

    def _actions(self, slots: Slots, ev: ScreenEvidence, taken: set[frozenset[str]]) -> None:
        voc = vocabulary()
        headings = {h.strip().casefold() for h in (*ev.headings, ev.title)}
        for text in ev.actions:
            p = self.phrase(text, max_words=4)
            if p is None or text.strip().casefold() in headings:
                continue  # "Like drinking jasmine tea": a review's title, linked, no deed
            words = words_of(p.evidence)
            n_words, first = len(words), words[0].casefold()
            if first in voc.mechanic_verbs:
                continue  # "Toggle status", "Hide workouts": the interface, not the app
            if _noun_led(words):
                continue  # "Order total value", "Order state diagram": a thing, not a deed
            if first == "open" and n_words == 2 and is_plural(words[1]):
                continue  # "Open tickets": the tickets that are open, no deed
            if words[-1].casefold() == "new":
                continue  # "Add new": a button's name, no deed of its own
            if first == "new" and n_words >= 2:  # "New version": start a new version
                if is_plural(words[-1]):
                    continue  # "New Customers": how many joined, no button
                if any(a.text.startswith("start a new") for a in slots.actions):
                    continue  # one such line a screen: not "start a new note or start a new..."
                p = Phrase(f"start a new {p.text.split(None, 1)[1]}", p.evidence)
                first = "start"
            if _POINTS_AT.search(p.evidence) or _FURNITURE.fullmatch(words[-1]):
                continue  # "Bookmark this filter", "Manage columns": the view, no deed
            if first in voc.ui_verbs and p.evidence.casefold() not in voc.chrome:
                if n_words == 1:
                    slots.verbs.append(p)  # "Filter": too bare for a caption of its own
                else:
                    self.take(p, slots.actions, taken)

    def _headings_and_sentences(self, slots: Slots, ev: ScreenEvidence) -> None:
        voc = vocabulary()
        if ev.kind in _SECTIONED and ev.read_by != "ocr":  # "Jump to Song, Food or Nesting"
            # a dashboard named elsewhere (its file name) is titled by its first panel:
            # "accuracy" over the charts "learning_rate" and "loss"
            first_panel = ev.kind == "dashboard" and ev.subject_from == "screen name"
            for text in [ev.title] * first_panel + ev.headings:
                text = re.sub(r"\s*\(\d+\)$", "", text.strip())  # "Bookmarks (2)"
                t = clean_phrase(text, max_words=3, max_chars=HEADING_CHARS)
                first = words_of(t)[0].casefold() if t else ""
                if not t or first in voc.ui_verbs | voc.function_words:
                    continue
                if t == ev.title and not first_panel:
                    continue
                if ev.kind != "reader" and not _a_section(t):
                    continue  # "Healthy": a state; "Passes and Pricing": two in one
                slots.sections.append(Phrase(self.policy.display(t), t))
        for text in ev.headings:  # a heading as it stands: "Expenses by month"
            t = clean_phrase(text, max_words=5, max_chars=HEADING_CHARS, dates=True)
            if t and len(t.split()) >= 2 and t.casefold() not in self.repeated:
                if words_of(t)[0].casefold() not in voc.ui_verbs:
                    slots.headings.append(Phrase(self.policy.display(t), t))
        if ev.read_by == "ocr":
            return  # an OCR line may be half of a sentence
        found = [clean_sentence(t) for t in (*ev.headings, *ev.lines)]
        said = [t for t in found if t]
        if len(said) >= CONTENT_ROWS:
            return  # rows of sentences: bug reports, headlines, a user's records
        for t in said:
            if not _app_voice(t, ev.kind):
                continue  # "Pot on the tomato seedlings.": the user's own record, not the app
            if t.casefold() not in self.repeated and not _names_someone(t):
                slots.sentences.append(Phrase(self.policy.display(t), t))

    def _items(self, slots: Slots, ev: ScreenEvidence, taken: set[frozenset[str]]) -> None:
        voc = vocabulary()
        ranked: list[tuple[int, int, Phrase]] = []
        sources = [(t, 0, False) for t in ev.headings] + [(t, 1, False) for t in ev.labels]
        sources += [(t, 1, True) for t in ev.actions]
        for order, (text, weight, is_action) in enumerate(sources):
            p = self.phrase(text)
            if p is None or p.evidence.casefold() in voc.generic_sections:
                continue
            if not _reads_as_a_thing(p.evidence):
                continue  # "Spent so far", "In progress": a state, not something to offer
            lead = words_of(p.evidence)[0].casefold()
            several = len(words_of(p.evidence)) > 1
            verb = lead in voc.generic_verbs or (
                lead in voc.ui_verbs and (is_action or lead not in voc.verbs_also_nouns)
            )
            if verb and (several or is_action or lead not in voc.verbs_also_nouns):
                continue  # "Create", "Add expense" are actions; "Keep it burning" a slogan
            # structure ("Categories", "Difficulty") before data ("Whole Foods Market")
            ranked.append((weight + (2 if _is_name(p) else 0), order, p))
        ranked.sort(key=lambda r: (r[0], r[1]))
        structure = [r for r in ranked if not _is_name(r[2])]
        if len(structure) >= 2:  # enough to say what the screen offers without its data
            ranked = structure
        for _, _, p in ranked:
            self.take(p, slots.items, taken)

    def _tabs(self, slots: Slots, ev: ScreenEvidence) -> None:
        voc = vocabulary()
        seen_tabs: set[str] = set()
        for text in ev.tabs:
            p = self.phrase(text, max_words=2)
            if p is None or p.evidence.casefold() in voc.generic_sections:
                continue
            if p.evidence.casefold() not in seen_tabs:
                seen_tabs.add(p.evidence.casefold())
                slots.tabs.append(p)


#: Words that point at the interface's own state: "Bookmark this filter", "Hide this
#: column" (not "Search this site").
_POINTS_AT = re.compile(
    r"\b(?:this|these|that|those)\s+(?:filters?|views?|query|queries|columns?|rows?|tabs?)\b",
    re.IGNORECASE,
)
#: The parts of a view a button arranges ("Manage columns", "Hide sidebar"): a deed on
#: the interface, none on what the app keeps.
_FURNITURE = re.compile(
    r"(?:columns?|panels?|panes?|sidebar|layout|toolbar|density|zoom|grid|window)",
    re.IGNORECASE,
)
_FORM_LEAD = re.compile(
    r"^(?:new|add|create|edit|compose|write|post|publish|submit|upload|import|record|log|send"
    r"|ask|invite)\s+"
    r"(?:(?:a|an)\s+)?(?:new\s+)?",
    re.I,
)
#: Words after a phrase's head noun ("Expenses by month", "Trips per day"). A phrase
#: with "of" has no head that stands alone ("Table of Contents": not "table", nor
#: "contents").
_HEAD_JOINS = frozenset(["by", "for", "per", "in", "on", "from", "this", "with"])
#: An editor's title: what it edits is content ("Editing Trip Leader Guide").
_EDITING = re.compile(r"^editing\b", re.IGNORECASE)
#: The verb a form's title leads with, as the caption says it ("New bookmark": add).
_LEAD_VERB = {"new": "add"}  # "New bookmark": add one; "Create ..." keeps its verb
_POSSESSIVE = re.compile(r"^[^\W\d_]+['’]s\s+(?=\S)")  # "sam's Collections": a user's name
#: Weak titles that still say what the screen is, when nothing names more: "Your
#: dashboard at a glance" (not "Home", "Start", "Welcome").
_SAYS_WHAT_IT_IS = frozenset(["dashboard", "overview", "summary"])
#: Section names that say what the user does there, not what they find ("Search",
#: "Explore"): no subject for a caption ("Search your search").
_NAMES_NOTHING = frozenset("search explore discover browse details info options all other".split())
#: Words inside an item that make it a sentence ("Turn the compost bay"), not a name.
_SENTENCE_WORDS = frozenset(
    "the a an to your my our this that these those is are was were be been not".split()
)


def _example(text: str, policy: CasePolicy, *, read: bool = False) -> Phrase | None:
    """An example as it may stand in a caption: names keep their capitals. ``read``: on a
    reader, an article's own headline ("Ten cafés worth the detour") is what is read: it
    stands whole, in quotation marks, where a shorter name would stand bare."""
    text = policy.as_written(text)
    found = _example_name(text, policy)
    if found is not None or not read:
        return found
    t = " ".join(text.split()).strip(_EDGE_PUNCT)
    words = t.split()
    if not 3 <= len(words) <= 7 or len(t) > _HEADLINE_CHARS or not t[:1].isupper():
        return None
    if any(c.isdigit() for c in t) or forbidden_words(t) or _BAD_CHARS.search(t):
        return None
    if not all(_plausible(w) for w in words) or _verb_led(t) or t.endswith(("?", "!")):
        return None
    return Phrase(f"“{t}”", t)


#: The longest article headline a caption quotes whole.
_HEADLINE_CHARS = 40


def _example_name(text: str, policy: CasePolicy) -> Phrase | None:
    """An example that is a name or a short title, as it may stand bare in a caption."""
    t = " ".join(text.split()).strip(_EDGE_PUNCT)
    dated = YEAR_AFTER.sub("", t)
    if len(dated.split()) >= 2:
        t = dated  # "Reader satisfaction survey 2026": the name, without its year
    if not t or any(c.isdigit() for c in t.lstrip("#")) or forbidden_words(t):
        return None
    voc = vocabulary()
    lead = t.split()[0].casefold()
    if t.casefold() in voc.chrome or _verb_led(t) or lead in voc.generic_verbs:
        return None  # "See all", "Add participant", "Keep it burning": not content
    if any(w.casefold() in voc.units for w in t.split()):
        return None  # "Hz", "kWh": a chart's axis, not a thing it shows
    parts = t.split(": ", 1)  # "Harrow: the long shore": a name, then what it is about
    said = any(w.casefold() in _SENTENCE_WORDS for part in parts for w in part.split()[1:])
    if said and not written_as_name(t):
        return None  # "Turn the compost bay": a sentence, not an item's name; "Frost on
        # the Weathervane", in a title's capitals, is a book's name
    if t.isupper() and len(t) > 3:  # "STEPS": capitals are the app's styling; "CT" of
        t = " ".join(w if acronym_like(w) else w.lower() for w in t.split())  # "CT HEAD"
    words = t.split()
    if not 1 <= len(words) <= 4 or len(t) > 26 or _BAD_CHARS.search(t.lstrip("#")):
        return None
    if not all(
        _plausible(w.removesuffix(":") if k == 0 else w) or w.startswith("#")
        for k, w in enumerate(words)
    ):
        return None  # a part's title keeps its colon: "Harrow: the long shore"
    fw = vocabulary().function_words
    named = sum(w[:1].isupper() for w in words if w.casefold() not in fw)
    common = len(words) == 1 and word_frequency(t.casefold()) >= 3.5  # "Beaches"
    if named and named == len([w for w in words if w.casefold() not in fw]) and not common:
        return Phrase(t, t)  # a name as it stands: "Treasure Island", "Kyoto"
    if len(words) >= 2 and words[0][:1].isupper() and any(w[:1].isupper() for w in words[1:]):
        return Phrase(t, t)  # a title as it stands: "Lake District walks", "The WITH clause"
    if len(parts) == 2 and words[0][:1].isupper():
        return Phrase(t, t)  # "Harrow: the long shore", as the book writes it
    return Phrase(policy.display(t), t)


def _own_column(subject: str, fields: Sequence[str]) -> bool:
    """A one-word subject that is interface chrome elsewhere ("Terms", "Items": footer and
    menu words) names the screen when its own column says it ("Term")."""
    words = subject.split()
    if len(words) != 1 or not words[0].isalpha():
        return False
    one = singular(words[0].casefold())
    return any(singular(f.casefold()) == one for f in fields)


#: A screen showing this many sentences shows rows of content, not a hint of the app's.
CONTENT_ROWS = 3
#: Kinds whose sentences are the content shown (an article, a message, a record's text).
_CONTENT_KINDS = frozenset(["reader", "detail", "player", "conversation"])
_TO_YOU = frozenset(["you", "your", "you're", "you'll", "yours"])


def _app_voice(sentence: str, kind: str) -> bool:
    """Whether a sentence is the app speaking to its user, fit to quote: a hint or a
    call to act ("Search the full text of books instead.", "Log in to an existing
    project.", "Your changes are saved as you type."), not content (an article's line, a
    task's title, a notebook's note) and nothing on a screen whose text is content."""
    words = [w.casefold() for w in words_of(sentence)]
    if not words or kind in _CONTENT_KINDS or _REFUSES.search(sentence):
        return False  # "You cannot decline by yourself": a rule, no line to sell with
    return words[0] in vocabulary().ui_verbs or bool(_TO_YOU & set(words))


#: A sentence that says what the user may not do or has not got.
_REFUSES = re.compile(
    r"\b(?:cannot|can't|can’t|won't|won’t|don't|don’t|not|never|no longer|unable)\b",
    re.IGNORECASE,
)


def _names_someone(sentence: str) -> bool:
    """A sentence with a person's name in it ("Birthday present for Sam"): a record of
    the user's own, never quoted in a caption."""
    words = words_of(sentence)
    return any(w[:1].isupper() and is_person(w) for w in words[1:])


def _short_noun(text: str) -> bool:
    """One common noun that :func:`clean_phrase` turns down, in lower or title case: three
    letters ("Bug", "tag"), which it takes for a code or a scrap ("SFO", "Ov"), or the
    plural of a word captions also frame with ("Orders", "Places": not "order", "view")."""
    t = text.strip()
    if not (t.isalpha() and (t.islower() or t.istitle()) and is_common_word(t)):
        return False
    if not can_be_noun(t):
        return False
    if is_neutral(t.casefold()):
        voc, one = vocabulary(), singular_of(t.casefold())
        plain = one not in voc.function_words | voc.calendar_words | voc.units
        return len(t) > 3 and is_plural(t) and plain and t.casefold() not in voc.neutral
    return len(t) == 3


#: Nouns that, after a word that is both verb and noun, make the two one thing's name:
#: "Order total", "Post settings", "Log file", "Record count", "Book details".
_OF_A_THING = frozenset(
    "total totals value values state status history summary details detail number count "
    "date type settings list file files id diagram chart overview preview".split()
)


def _noun_led(words: Sequence[str]) -> bool:
    """A button named for a thing, led by a word that is also a verb: "Order total value"
    (a tile of a dashboard), not "Order pizza" or "Log time"."""
    return (
        len(words) >= 2
        and words[0].casefold() in vocabulary().verbs_also_nouns
        and words[1].casefold() in _OF_A_THING
    )


#: A thing's page named for what it shows of the thing: "Order details", "Account history".
_DETAILS_OF = re.compile(r"^[^\W\d_]{3,}\s+(?:details|history|summary)$", re.IGNORECASE)


def _subject_phrase(subject: str, fields: Sequence[str]) -> str | None:
    """The reading's subject as a caption may name it, or None."""
    cleaned = clean_phrase(subject, max_words=4, dates=True)
    if cleaned is None and _own_column(subject, fields):
        cleaned = subject  # "Terms" over a "Term" column: the screen's own noun
    if cleaned is None and _short_noun(subject):
        cleaned = subject  # "Bug" of "Bug #11": a short word, but a thing's name
    if cleaned is None and _DETAILS_OF.match(subject) and can_be_noun(subject.split()[0]):
        cleaned = subject  # "Order details": neutral words, but one order's page
    if cleaned is None and forbidden_words(subject):  # "Top Artists": the artists
        bare = " ".join(w for w in subject.split() if not forbidden_words(w))
        cleaned = clean_phrase(bare, max_words=4, dates=True) if bare else None
    words = subject.split()
    if cleaned is None and len(words) >= 3 and clean_phrase(subject, max_words=6, max_chars=60):
        # too long for a caption: its head ("planning applications" of "Riverside
        # planning applications"), never a piece that opens on a joining word ("per month")
        for tail in (words[-2:], words[-1:]):
            if tail[0].casefold() not in vocabulary().function_words:
                cleaned = clean_phrase(" ".join(tail), max_words=2)
                if cleaned:
                    break
    return cleaned


#: Kinds whose subject may be a piece of content with a title of its own ("Garden Birds
#: of Britain", "Paper Lanterns", a search's "House sparrow"), not the name of a feature.
_CONTENT_SUBJECT_KINDS = frozenset(["reader", "player", "detail", "search"])


def _names_kind(subject: str) -> bool:
    """One common word: a kind of thing ("Bug", "Photos"), not one thing's own title."""
    return len(subject.split()) == 1 and is_common_word(subject)


def is_content_title(kind: str, subject: str) -> bool:
    """Whether a screen's subject is the title of the piece of content it shows (an
    article, a song, a record: "English oak"), not the name of a feature. One common word
    on a record's page names the record's type ("Bug" of "Bug #11"), not its title, and
    one in the plural names a collection ("Photos") on any screen."""
    if _names_kind(subject) and (kind == "detail" or is_plural(subject)):
        return False
    return (
        kind in _CONTENT_SUBJECT_KINDS and subject[:1].isupper() and not is_feature_phrase(subject)
    )


def _feature_case(phrase: str) -> str:
    """A feature's name as a sentence writes it: the Title Case of a heading or a page
    name ("Harvest Log", "Version History", "Budget") in lower case, names and acronyms
    kept ("Trips to Kyoto", "SQL console"). A name in Title Case that keeps a word of its
    own in capitals is kept whole ("Spoke & Chain Wiki", not "spoke & chain Wiki")."""
    out = []
    for word in phrase.split():
        core = word.strip(",.'’")
        parts = core.split("-")  # "Long-term": each part a common word
        if (
            core[:1].isupper()
            and core[1:].islower()
            and all(p.isalpha() and is_common_word(p) for p in parts)
            and not is_person(core)
        ):
            word = word.replace(core, core.lower())
        out.append(word)
    kept = [w for w, o in zip(phrase.split(), out) if w == o and w[:1].isupper() and w.isalpha()]
    if "&" in phrase.split() and kept and all(w[:1].isupper() or w == "&" for w in phrase.split()):
        return phrase
    return " ".join(out)


def _name_subject(slots: Slots, ev: ScreenEvidence, cleaned: str, policy: CasePolicy) -> None:
    """The subject's slots: as a sentence writes it, its number, its head noun."""
    shown = policy.display(cleaned)
    tab = cleaned.casefold() in {t.casefold() for t in ev.tabs}  # the app's own section
    if is_content_title(ev.kind, cleaned) and not tab:
        slots.titled, shown = True, cleaned  # a title, as the screen writes it
    elif ev.kind not in _CONTENT_SUBJECT_KINDS or _names_kind(cleaned):
        shown = _feature_case(shown)  # "Photos" is a sentence's "photos" even on a reader
    slots.subject = Phrase(shown, ev.subject)
    last = shown.split()[-1]
    measure = re.search(r"(\w+)\s+of\s", shown)  # "Number of visits": one number
    if (
        not (measure and not is_plural(measure.group(1)))
        and last.isalpha()
        and last.islower()
        and is_word(last)
        and not _DETAILS_OF.match(shown)
    ):
        if is_plural(shown):
            slots.countable, slots.ones, slots.one_of = True, shown, singular_of(shown)
        elif ev.kind in ("form", "detail"):  # a new transaction; one bug's own page
            slots.countable, slots.ones, slots.one_of = True, plural_of(shown), shown
        elif _rows_of_one(ev, shown):  # "Timer" over a table of timers
            slots.countable, slots.ones, slots.one_of = True, plural_of(shown), shown
    parts = shown.split()
    joins = [k for k, w in enumerate(parts) if w.casefold() in _HEAD_JOINS and k]
    head = parts[joins[0] - 1] if joins else parts[-1]  # "expenses" of "Expenses by month"
    of = any(w.casefold() == "of" for w in parts)
    voc = vocabulary()
    vague = head.casefold() in voc.weak_titles | voc.generic_sections or is_generic(head)
    if len(parts) >= 2 and head.isalpha() and not of and not slots.titled and not vague:
        slots.short = Phrase(head, ev.subject)  # not "your oak" of "English oak"


def _examples(ev: ScreenEvidence, policy: CasePolicy, subject: Phrase | None) -> list[Phrase]:
    """The screen's examples as a caption names them: not its subject, and never two of
    which one holds the other ("Fernhill" and "Fernhill Drama" side by side)."""
    out: list[Phrase] = []
    for text in ev.examples:
        p = _example(text, policy, read=ev.kind == "reader")
        if p is None or (subject is not None and p.key() == subject.key()):
            continue
        if not any(_overlaps(p, q) for q in out):
            out.append(p)
    return out


#: Kinds whose headings are sections of one page a subtitle may name: a reader's
#: chapters, a record's "Bookmarks" and "Highlights".
_SECTIONED = frozenset(["reader", "detail", "dashboard"])


def _a_section(heading: str) -> bool:
    """A page's section a line may name beside another: a thing's name ("Newest albums",
    "Notes"), not a state ("Healthy"), a person nor two things joined ("Passes and
    Pricing")."""
    words = words_of(heading)
    if is_person(heading) or " and " in f" {heading.casefold()} " or "&" in heading:
        return False  # "Ruth Penrose": whose page it is, no section of it
    return can_be_noun(words[-1].casefold())


def _overlaps(one: Phrase, other: Phrase) -> bool:
    """Whether one example's words hold all of another's ("Fernhill Drama", "Fernhill")."""
    a = {w.casefold() for w in words_of(one.text)}
    b = {w.casefold() for w in words_of(other.text)}
    return bool(a and b) and (a <= b or b <= a)


def _rows_of_one(ev: ScreenEvidence, shown: str) -> bool:
    """Whether a table's title names one of its rows ("Timer" over columns of channels,
    dates and names): one count noun, not a collection's word ("log") nor a page's
    name ("Main page", "Packing slip")."""
    head = shown.split()[-1].casefold()
    return (
        ev.kind == "table"
        and ev.subject_from == "title"
        and len(ev.fields) >= 2
        and len(shown.split()) == 1
        and head not in tables().collections
        and is_common_word(head)
    )


#: The states a screen lists its items in, by its title alone: what the user did to
#: each ("Saved", "Starred", "Sent") or what is still to do ("Unread").
_LISTED_STATES = frozenset(
    "saved starred archived favorited favourited bookmarked liked pinned flagged sent "
    "shared unread".split()
)
#: The kinds of screen whose title may be such a state: lists of items.
_STATE_KINDS = frozenset(["list", "table", "dashboard", "search"])


def _listed_state(title: str) -> str:
    """The state a screen's title lists its items in ("saved" of "Saved", of "Unread ›
    Nov 27, 2025"), or "" when the title is none such."""
    steps = BREADCRUMB.split(title.strip())
    word = steps[0].strip(_EDGE_PUNCT).casefold()
    return word if word in _LISTED_STATES and all(is_data(s) for s in steps[1:]) else ""


def _led_subject(slots: Slots, ev: ScreenEvidence, subject: str) -> str:
    """A form's subject without the verb its title leads with ("transaction" of "New
    Transaction", "question" of "Ask question"), the verb kept as the slots' lead."""
    lead = _FORM_LEAD.match(subject)
    if lead is None or ev.kind != "form":
        return subject
    verb = lead.group(0).split()[0].casefold()
    slots.new = verb in ("new", "add", "create")
    slots.lead, slots.lead_from = _LEAD_VERB.get(verb, verb), ev.subject
    return subject[lead.end() :]


def read_into(slots: Slots, ev: ScreenEvidence, policy: CasePolicy, project: str) -> None:
    """The reading's kind, subject, examples and fields as slots a frame may name."""
    slots.kind = ev.kind
    subject = _led_subject(slots, ev, _POSSESSIVE.sub("", ev.subject.strip()))
    voc = vocabulary()
    if not subject and ev.title.strip().casefold() in voc.weak_titles:
        subject = ev.title.strip()  # "Today": says little, but what it says is the screen's
    weak = subject.casefold() in voc.weak_titles or subject.casefold() in _NAMES_NOTHING
    if weak and subject.casefold() == "today" and policy.english:
        slots.subject = Phrase("day", ev.subject)  # "Your day at a glance"
        subject = ""
    elif weak and ev.fields and ev.kind in ("dashboard", "chart", "table", "detail"):
        # an "Overview" of a total balance shows the total balance; a "Dashboard" over a
        # table's column in capitals ("CODE") is still the dashboard
        if not (ev.fields[0].isupper() and subject.casefold() in _SAYS_WHAT_IT_IS):
            subject = ev.fields[0]
    elif weak and subject.casefold() not in _SAYS_WHAT_IT_IS:
        subject = ""
    if ev.kind == "sign-in":
        subject = ""  # "Sign", "Log": the door to the app, not a feature of it
    slots.general = subject.casefold() in _SAYS_WHAT_IT_IS
    if subject and policy.english:
        cleaned = _subject_phrase(subject, ev.fields)
        if ev.subject_from == "results":
            cleaned = subject  # "pages" of "Search matched 6 pages": what is searched
        if cleaned and cleaned.casefold() != project.casefold():
            _name_subject(slots, ev, cleaned, policy)
    elif subject:
        slots.subject = Phrase(subject, ev.subject)
    if slots.subject is None and ev.kind in _STATE_KINDS and policy.english:
        slots.state = _listed_state(ev.title)  # "Saved": everything you saved
    slots.examples += _examples(ev, policy, slots.subject)
    editing = _EDITING.match(ev.title.strip())
    if ev.kind == "form" and not slots.lead and editing:  # "Editing Trip Leader Guide"
        slots.lead, slots.lead_from = "edit", ev.title.strip()
    for text in ev.fields:
        t = clean_phrase(re.sub(r"^(?:to|all|my|your|the)\s+", "", text, flags=re.I), max_words=3)
        if t and words_of(t)[0].casefold() in voc.ui_verbs and t.casefold() not in voc.states:
            continue  # "Create", "Edit tags": buttons, not the names of data
        words = words_of(t) if t else []
        if len(words) == 1 and (
            words[0].casefold() in voc.function_words or re.search(r"[a-z]ed$", words[0])
        ):
            continue  # "Whom", "Added", "Modified": a column of who or when, not a thing
        if t and t.casefold() in _BARE_FIELDS and ev.kind != "form":
            continue  # "Name", "Value": every table has them (a form's "name" is asked)
        if t and (slots.subject is None or t.casefold() != slots.subject.evidence.casefold()):
            slots.fields.append(Phrase(_feature_case(policy.display(t)), t))
