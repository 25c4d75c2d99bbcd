"""The grounded writer: slot templates filled from each screen's own evidence.

Templates (``shotsmith/data/phrasebank.json``) are tried group by group, most specific
first; a candidate must pass every copy rule, the grounding check and the set's rules
(unique headlines and first words, a template and a tone word not worn out). Slide 1
carries the tagline: the user's description, the app's sections, or its strongest items.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources

from ...grounding import (
    Grounding,
    allowed_words,
    content_words,
    grounding_problems,
    vocabulary,
    word_forms,
    words_of,
)
from ...locales import language_of
from ...words import (
    can_be_noun,
    is_common_word,
    is_modifier,
    is_plural,
    plural,
    singular,
    with_article,
    word_frequency,
)
from ..features.reading import tables
from .critic import line_problems, word_pairs
from .evidence import (
    CasePolicy,
    Phrase,
    ScreenEvidence,
    Slots,
    build_slots,
    case_policy,
    is_camel_case,
)
from .rules import (
    HEADLINE_MAX_CHARS,
    HEADLINE_WORDS,
    SUBTITLE_MAX_CHARS,
    first_word,
    headline_problems,
    normalized,
    subtitle_problems,
)
from .store_text import set_features

# --------------------------------------------------------------------------------------
# The phrase bank (slot templates)
# --------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def phrasebank() -> dict:
    """The phrase bank of slot templates (parsed once)."""
    text = resources.files("shotsmith").joinpath("data/phrasebank.json").read_text("utf-8")
    return json.loads(text)


@lru_cache(maxsize=1)
def voice() -> dict:
    """The frames that realise a caption from a screen's reading (parsed once)."""
    text = resources.files("shotsmith").joinpath("data/copy_voice.json").read_text("utf-8")
    return json.loads(text)


_SLOT = re.compile(r"\{(\w+)\}")
#: A slot that takes the k-th of a list: an example, a field, an item, a section, a tab,
#: an action ("{Action}" is the first), a bare verb a button does to one item ("{Do1}":
#: "Download", "Edit").
_INDEXED = re.compile(r"(ex|f|item|sec|tab|action|do)(\d*)")


def template_words(template: str) -> list[str]:
    """The words a template brings of its own (its text outside the slots)."""
    return words_of(_SLOT.sub(" ", template))


@lru_cache(maxsize=4096)
def _frame_words(template: str) -> frozenset[str]:
    """The template's own words other than "and"/"the" ("Your {s} in one table": your,
    one, table): a slot must not say one of them again."""
    return frozenset(w.casefold() for w in template_words(template)) - vocabulary().function_words


def _filler(template: str) -> frozenset[str]:
    """The template's own words that carry its tone ("glance", "side"), not "and"/"the"."""
    fw = vocabulary().function_words
    return frozenset(
        f for w in template_words(template) if w.casefold() not in fw for f in word_forms(w)
    )


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
    group: str = ""  # the frame group it came from ("voice:list", "about", ...)
    rejected: list[str] = field(default_factory=list)  # lines the critic struck out first


@dataclass
class SetCopy:
    tagline: str
    headlines: list[str]
    subtitles: list[str]
    evidence: list[dict] = field(default_factory=list)
    missing: list[tuple[int, str]] = field(default_factory=list)  # (position, kind) unwritten


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
        return is_english(self.locale)

    def grounding(self) -> Grounding:
        texts = [self.project, self.bundle_id, self.about]
        for ev in self.evidence:
            texts += ev.strings()
        return allowed_words(texts, locale=self.locale)

    def policy(self) -> CasePolicy:
        strings = [s for ev in self.evidence for s in (*ev.strings(), *ev.examples)]
        return case_policy(strings, self.project, self.english)


def _rng(*parts: object) -> random.Random:
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode("utf-8")).hexdigest()
    return random.Random(int(digest[:16], 16))


#: A frame that speaks of every one of the screen's things ("Every {one} in one place").
_EVERY_ONE = re.compile(r"^Every \{one\}")
#: Kinds that show one thing, not many: a record's page, one article, one song, a form.
_ONE_THING_KINDS = frozenset(["detail", "reader", "player", "form"])


def _bare_count_noun(slots: Slots) -> bool:
    """Whether the subject is one singular common noun naming the one thing a screen
    shows ("cart", "milestone", "thread"), which a line cannot open with and no article
    ("Cart at a glance")."""
    subject = slots.subject
    if subject is None or slots.titled or " " in subject.text.strip():
        return False
    if slots.kind not in _ONE_THING_KINDS | {"conversation"}:
        return False  # "Activity at a glance", "Timeline": a section's name, said bare
    word = subject.text.strip()
    return word.isalpha() and is_common_word(word) and not is_plural(word)


def _frame_fits(template: str, slots: Slots) -> bool:
    """Whether a frame can speak of this screen's subject at all, whatever fills it."""
    if slots.titled and _YOUR_SUBJECT.search(template):
        return False  # "Your European robin": the article shown is no possession
    if _EVERY_ONE.search(template) and slots.kind in _ONE_THING_KINDS | {"chart"}:
        return False  # "Every post in one place" over one post, or one new order's form;
        # "Every attendee in one place" over a chart of how many came when
    if template.endswith("over time") and not (slots.subject and is_plural(slots.subject.text)):
        return False  # "Follow your stats over time", never a readme's "tidepool"
    if _ROWS_OF.search(template) and not _names_many(slots.subject):
        return False  # "Your person, row by row", "Browse your text": one thing, no rows
    # "Milestone in full detail", "Cart at a glance": a count noun opens no line bare
    return not (template.startswith("{S}") and _bare_count_noun(slots))


#: Frames that speak of the subject as many things side by side: its rows, its list.
_ROWS_OF = re.compile(r"\{s\}(?:, row by row| in one table|, all in one list)|^Browse your \{s\}$")


def _names_many(subject: Phrase | None) -> bool:
    """Whether a subject names many things: a plural ("timers") or a word for a
    collection of them ("harvest log", "library", "music"); not one thing ("person")."""
    if subject is None:
        return False
    head = subject.text.split()[-1].casefold()
    return is_plural(head) or head in tables().collections


def _a_collection(feature: str, kind: str) -> bool:
    """Whether a feature in the singular names many things all the same: a screen of
    rows or a chart of them ("budget", "spent time"), not one thing's page nor a page
    that holds other pages ("menu", "summary", "information", "profile")."""
    head = feature.split()[-1].casefold()
    voc = vocabulary()
    if head in voc.weak_titles | voc.generic_sections or head in _NO_COLLECTION:
        return False
    return kind in ("list", "table", "chart", "calendar", "dashboard")


#: Singular heads that name a place or one thing, never many: "main menu", "front page".
_NO_COLLECTION = frozenset("menu page profile information viewer tree file photo".split())


def _fill(
    template: str,
    slots: Slots,
    used: set[frozenset[str]],
    extra: Mapping[str, str],
) -> Line | None:
    """The template with its slots filled from the screen's evidence, or None."""
    if not _frame_fits(template, slots):
        return None

    def fresh(phrases: list[Phrase]) -> list[Phrase]:
        return [p for p in phrases if p.key() not in used]

    items, actions = fresh(slots.items), fresh(slots.actions)
    verbs, counts, tabs = fresh(slots.verbs), fresh(slots.counts), slots.tabs
    title = slots.title if slots.title is not None and slots.title.key() not in used else None
    indexed = {
        "ex": fresh(slots.examples),
        "f": fresh(slots.fields),
        "item": items,
        "sec": fresh(slots.sections),
        "tab": tabs,
        "action": actions,
        "do": [v for v in verbs if v.evidence.casefold() not in vocabulary().list_verbs],
    }
    values: dict[str, Phrase] = {}
    for name in _SLOT.findall(template):
        low = name.lower()
        value: Phrase | None = None
        if low == "title":
            value = title
        elif low == "titles":
            value = title if slots.plural else None
        elif low == "one" and slots.plural and title is not None and not slots.countable:
            value = slots.one  # a plural title's one, where the subject is no countable
        elif low == "button":  # "Browse 52 rows": a one-word button's verb; {Verb} is
            value = verbs[0] if verbs else None  # the category's, never a button's
        elif low == "count":
            value = counts[0] if counts else None
        elif low == "heading":
            value = next(iter(fresh(slots.headings)), None)
        elif low == "state":
            value = Phrase(slots.state, slots.state) if slots.state else None
        elif low == "sentence":
            value = next(iter(fresh(slots.sentences)), None)
        elif low == "s" and slots.subject is not None:
            value = slots.subject if slots.subject.key() not in used else None
        elif low == "lead":
            source = slots.subject.evidence if slots.subject else slots.lead_from
            value = Phrase(slots.lead, source) if slots.lead and source else None
        elif low in ("ones", "one", "a_one", "a_new_one") and slots.countable:
            value = _number(low, slots, used)
        elif (m := _INDEXED.fullmatch(low)) is not None:  # "ex1", "f2", "sec3": the k-th
            listed, k = indexed[m.group(1)], int(m.group(2) or 1)
            value = listed[k - 1] if len(listed) >= k else None
            joined = _VERB_JOINS.get(value.text.casefold(), "") if value is not None else ""
            if m.group(1) == "action" and value is not None:
                value = Phrase(deed(value.text, slots.one_of), value.evidence)
            if m.group(1) == "do" and value is not None and joined:
                value = Phrase(f"{value.text} {joined}", value.evidence)  # "reply to any"
        elif name in extra:
            value = Phrase(extra[name], extra[name]) if extra[name] else None
        if value is None:
            return None
        values[name] = value
    return _realised(template, values)


def _realised(template: str, values: Mapping[str, Phrase]) -> Line | None:
    """The line a template says with its slots' values, or None when a value says a word
    of the frame again ("Your Table in one table")."""
    frame_words = _frame_words(template)
    said = (f for v in values.values() for w in words_of(v.text) for f in word_forms(w.casefold()))
    if any(f in frame_words for f in said):
        return None  # "Your Table in one table", "Keep track of your tracks": said twice
    text = _SLOT.sub(
        lambda m: (
            values[m.group(1)].cap
            if _capital(m.group(1), values[m.group(1)].text)
            else values[m.group(1)].text
        ),
        template,
    )
    text = re.sub(r"(?<=\.)\.$", "", " ".join(text.split()))  # "… in Print Co.." ends once
    text = (
        text[:1].upper() + text[1:]
        if text[:1].islower() and not is_camel_case(text.split()[0])
        else text
    )
    evidence = list(dict.fromkeys(v.evidence for v in values.values()))
    return Line(text, evidence, template)


#: A button's verbs that bring a new thing into being: its object takes "a" ("Add an
#: account"); any other verb acts on the thing the screen shows ("Edit the description").
_MAKING_VERBS = frozenset(
    "add create new make register write compose upload book schedule start record log plan "
    "draft request submit post open invite import".split()
)

#: A noun this much rarer in the plural than in the singular is mostly uncountable ("data",
#: "music", "software", "content"): no "a" before it.
_MASS_GAP = 0.65


def deed(label: str, one_of: str = "") -> str:
    """A button's label as a sentence says the deed: "Create Model" -> "Create a model",
    "Add account" -> "Add an account", "Edit description" -> "Edit the description",
    "Rename study" on a screen of studies -> "Rename a study". A label that is no verb
    and one common singular noun ("Edit tags", "Export as OPML", "Add Northwind") is
    kept as it stands."""
    words = label.split()
    if len(words) != 2 or not words[1].isalpha():
        return label
    verb, noun = words[0], words[1]
    low = noun.casefold()
    if noun not in (low, low.capitalize()) or not is_common_word(low):
        return label  # "Add OPML", "Add Northwind": a name or an acronym
    if low in vocabulary().function_words:
        return f"{verb} {low}"  # "Pause All": "Pause all"
    if not can_be_noun(low) or is_modifier(low) or is_plural(low) or plural(low) == low:
        return label  # "Edit tags"; "Import data", "Add news": no countable thing
    making = verb.casefold() in _MAKING_VERBS
    if low == singular(one_of.casefold()) or making:
        if word_frequency(low) - word_frequency(plural(low)) >= _MASS_GAP:
            return label  # "Add content", "Upload media": no "a" before them
        return f"{verb} {with_article(low)}"
    return f"{verb} the {low}"


def _capital(slot: str, value: str) -> bool:
    """Whether a slot is written with a capital ("{Ex1}" opens a line). A coined name in
    lower case is the app's own spelling ("hledger"): kept; a common word ("reader") is
    capitalised, since "Read in reader" would not read as a name."""
    if slot == "Project" and value.islower():
        return is_common_word(value)
    return slot[:1].isupper()


#: Verbs that take their object after a preposition: "Reply to any topic", "Vote on any
#: poll".
_VERB_JOINS = {
    "reply": "to",
    "respond": "to",
    "subscribe": "to",
    "listen": "to",
    "react": "to",
    "comment": "on",
    "vote": "on",
}


#: A subtitle's closing tone phrase: the part of a frame that says nothing of the screen.
_TONE_TAIL = re.compile(
    r"(?:,? all)?\s+(?:at a glance|in one place|in one go|on one screen|side by side|in one list)"
    r"(?=\.$)"
)


def _untoned(template: str, headline: Line | None) -> str:
    """A subtitle frame without its closing tone phrase when its headline has said that
    tone already ("All your devices at a glance" / "See Porch light and Garage door.")."""
    if headline is None or not (_filler(template) & _filler(headline.template)):
        return template
    return _TONE_TAIL.sub("", template)


#: Groups whose frames are tried naming the most of the screen first.
_MORE_FIRST = frozenset(["voice:fields", "voice:sections", "voice:actions", "voice:examples"])
_YOUR_SUBJECT = re.compile(r"(?i)\byour \{s\}")


def _says_again(line: str, headline: str) -> bool:
    """Whether a subtitle names nothing its headline has not named already."""
    said = {f for w in content_words(headline) for f in word_forms(w.casefold())}
    own = [word_forms(w.casefold()) for w in content_words(line)]
    return bool(own) and all(forms & said for forms in own)


def _short(slots: Slots) -> Slots:
    """The slots with the subject's head noun in place of the whole subject."""
    if slots.short is None:
        return slots
    head = slots.short.text
    many = is_plural(head)
    return replace(
        slots,
        subject=slots.short,
        short=None,
        countable=many,
        ones=head if many else "",
        one_of=singular(head) if many else "",
    )


def _number(slot: str, slots: Slots, used: set[frozenset[str]]) -> Phrase | None:
    """The subject in the number a frame asks for ("accounts", "an account")."""
    subject = slots.subject
    if subject is None or subject.key() in used:
        return None
    if slot == "ones":
        return Phrase(slots.ones, subject.evidence)
    if not slots.one_of or " and " in slots.one_of:
        return None  # "records and tags": two things, no one of them ("every records and tag")
    if slot == "one":
        return Phrase(slots.one_of, subject.evidence)
    if slot == "a_new_one":
        return Phrase(with_article(f"new {slots.one_of}"), subject.evidence) if slots.new else None
    return Phrase(with_article(slots.one_of), subject.evidence)


_FALLBACK_GROUPS = ("name", "vocabulary", "voice:set-last")
#: The one frame around the app's name alone a read screen may open a set with.
_OPENING_NAME = ("Meet {Project}",)
#: Voice groups about the app rather than the screen: after every line that names the screen.
_LATE_VOICE = frozenset(["voice:app", "voice:set"])
#: Old phrase-bank groups that only fill frames with whatever labels a screen has ("6
#: Comments, one tap away", a heading that is an article's title as the headline): used
#: only for screens with no reading (a frame made before extract_features read kinds).
_TOKEN_GROUPS = frozenset(
    ["items", "items2", "items3", "item1", "title", "titles", "count_verb", "count", "heading"]
)
#: Kinds whose content is what the user came for (the book read, the song played): their
#: example frames stand beside the subject's.
_CONTENT_KINDS = frozenset(["reader", "player"])
#: A phase's relax level that bends only the first-word rule: a first word the set has
#: used once may start a second headline.
_BEND_FIRST = -1
#: A phase's relax level that also lets a frame the set has used name another screen's
#: whole subject, as long as its tone words have not been said twice already.
_REUSE_FRAME = -2
#: A subject this long fits few frames within a headline's 30 characters: it may stand
#: alone ("Your optimization history") before its head noun does ("Your history").
_LONG_SUBJECT = 15
#: A frame slot that names the screen's subject.
_NAMES_SUBJECT = re.compile(r"\{(?:s|S|one|ones|Ones|a_one|a_new_one)\}")
#: Per kind: which kinds of subtitle say most about it, in order.
_SUBTITLE_ORDER = {
    "form": ("fields", "actions", "examples"),
    "table": ("fields", "examples", "count", "actions"),
    "chart": ("fields", "examples", "actions"),
    "dashboard": ("fields", "examples", "sections", "count", "actions"),
    "detail": ("examples", "fields", "sections", "count", "actions"),
    "settings": ("fields", "actions", "examples"),
    "list": ("examples", "count", "fields", "actions"),
    "conversation": ("examples", "actions", "fields"),
    "calendar": ("examples", "fields", "actions"),
    "map": ("examples", "fields", "actions"),
    "reader": ("examples", "sections", "fields", "actions"),
    "player": ("examples", "actions", "fields"),
    "search": ("examples", "count", "fields", "actions"),
}


class _Writer:
    """Chooses each line under the set's rules: first candidate that breaks nothing."""

    def __init__(self, ctx: SetContext, seed: int):
        self.ctx = ctx
        self.seed = seed
        self.grounding = ctx.grounding()
        self.policy = ctx.policy()
        self.proper = [*proper_words(ctx.project), *sorted(self.policy.proper)]
        if not ctx.english:  # other languages keep the screen's own capitals
            self.proper += [w for ev in ctx.evidence for s in ev.strings() for w in s.split()]
        # an example is quoted as it stands ("Lake District walks"): its capitals are its own
        self.proper += [w for ev in ctx.evidence for e in ev.examples for w in e.split()]
        self.proper = list(dict.fromkeys(self.proper))
        self.headlines: set[str] = set()
        self.first_words: Counter[str] = Counter()  # headlines' first words, how often
        self.subtitles: set[str] = set()
        self.templates: set[str] = set()
        self.fillers: Counter[str] = Counter()
        #: what subtitles named together ("Outside Temperature" and "Wind Chill"): a
        #: second screen names other things before the same two again
        self.together: set[frozenset[str]] = set()
        self.acted: set[str] = set()  # the buttons lines of the set have offered
        self.about_used = False  # the tagline quoted the user's description
        self.missing: list[tuple[int, str]] = []  # (position, kind) left to the user
        about_head, about_sub = about_lines(ctx.about, ctx.project)
        verb = ""
        if ctx.confident and ctx.domain:
            verb = str(voice()["category_verbs"].get(ctx.domain, ""))
        self.extra = {
            "Project": ctx.project,
            "About": about_head,
            "AboutSentence": about_sub,
            "Verb": verb,
            "features": "",
        }
        #: the set's features, from its screens' subjects ("budgets", "reports")
        self._features = [f for f in set_features(ctx.evidence, ctx.project) if len(f) <= 16]
        #: each screen's own feature, as the set's features name it
        self._own = [set_features([ev], ctx.project) for ev in ctx.evidence]
        #: the features that are collections: "movies", "budget" of a budget's table; not
        #: one thing ("november invoice") nor a place in the app ("main menu")
        self._collections = {
            f
            for ev, own in zip(ctx.evidence, self._own)
            for f in own
            if is_plural(f.split()[-1]) or _a_collection(f, ev.kind)
        }
        self._texts = [ctx.project, ctx.bundle_id, ctx.about]
        for ev in ctx.evidence:
            self._texts += ev.strings()
            if ev.subject_from == "screen name":  # the file name the user gave the screen
                self._texts.append(ev.subject)
        self._screens_grounding = allowed_words(self._texts, locale=ctx.locale)
        self._kind_grounding: dict[str, Grounding] = {}
        self.screen_words = {w.casefold() for t in self._texts if t for w in words_of(t)}
        self._pairs = word_pairs(t for t in self._texts if t)
        self.kind = ""  # the kind of the screen being written
        self.rejected: list[str] = []  # what the critic struck out for the current line
        self._checked: dict[tuple[str, str, str], tuple[list[str], list[str]]] = {}

    # --- bookkeeping -------------------------------------------------------------
    def reserve(self, headline: str | None, subtitle: str | None) -> None:
        """Lines the user wrote: others must not repeat them."""
        if headline:
            self.headlines.add(normalized(headline))
            self.first_words[first_word(headline)] += 2  # the user's: never a second time
        if subtitle:
            self.subtitles.add(normalized(subtitle))

    def _take(self, line: Line, kind: str) -> None:
        line.rejected = list(self.rejected)
        if kind == "headline":
            self.headlines.add(normalized(line.text))
            self.first_words[first_word(line.text)] += 1
        else:
            self.subtitles.add(normalized(line.text))
            if len(line.evidence) >= 2:
                self.together.add(_together(line))
        self.templates.add(line.template)
        self.fillers.update(_filler(line.template))
        if "{Action}" in line.template:
            self.acted.update(e.casefold() for e in line.evidence)

    def _unsaid(self, slots: Slots) -> Slots:
        """The screen's examples led by two that no earlier subtitle named together: three
        screens of one weather station each show "Outside Temperature" and "Wind Chill"
        first, and the second says "Dew Point" and "Barometer" instead."""
        ex = slots.examples
        for k in range(0, len(ex) - 1, 2):
            if _named_together(p.evidence for p in ex[k : k + 2]) not in self.together:
                return replace(slots, examples=ex[k:] + ex[:k]) if k else slots
        return slots

    def _features_for(self, position: int) -> str:
        """The features a line about the app names on slide ``position`` (see _groups):
        two of its collections ("Your TV shows and movies, together in Kodi"), never one
        thing of them ("november invoice", "main menu")."""
        features = [f for f in self._features if f in self._collections]
        if position == 0:  # the app's first two
            return " and ".join(features[:2]) if len(features) >= 2 else ""
        if position >= len(self.ctx.evidence):
            return ""
        own = self._own[position]
        if not own or own[0] not in features:
            return ""
        others = [f for f in features if f != own[0]]
        return f"{own[0]} and {others[0]}" if others else ""

    # --- candidates ----------------------------------------------------------------
    def _groups(
        self, kind: str, position: int, tagline: bool, slots: Slots
    ) -> list[tuple[str, list[str]]]:
        bank = phrasebank()
        groups: list[tuple[str, list[str]]]
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
        groups = []
        if tagline:  # slide 1: the user's description, the app's sections, its items
            groups += [(name, list(t)) for name, t in bank["tagline"].items()]
        for name, templates in generic.items():
            if name == "about" and position != 0:
                continue
            if name in domain_bank:
                groups.append((name, list(domain_bank[name])))
            groups.append((name, list(templates)))
        if slots.weak_title:  # "Overview, at a glance" only when nothing says more
            weak = [g for g in groups if g[0] in ("title", "titles")]
            groups = [g for g in groups if g[0] not in ("title", "titles")]
            at = next((i for i, g in enumerate(groups) if g[0] in ("name", "vocabulary")), None)
            at = len(groups) if at is None else at
            groups[at:at] = weak
        if slots.kind:  # the screen was read: realise from its reading, no token lists
            groups = [g for g in groups if g[0] not in _TOKEN_GROUPS]
            at = next((i for i, g in enumerate(groups) if g[0] != "about"), len(groups))
            voiced = self._voice_groups(kind, slots)
            late = [g for g in voiced if g[0] in _LATE_VOICE]  # lines about the app itself
            groups[at:at] = [g for g in voiced if g[0] not in _LATE_VOICE]
            end = next((i for i, g in enumerate(groups) if g[0] in _FALLBACK_GROUPS), len(groups))
            groups[end:end] = late
            if kind == "headline" and slots.weak_title and slots.title is not None:
                # "Today, at a glance": the screen's own name after the lines about the
                # app, before the fallbacks
                groups.insert(end + len(late), ("title", ["{Title}, at a glance"]))
            if kind == "headline" and self.ctx.english:
                # the app's name in a frame fits any app ("Gitweb, clear and simple"): a
                # read screen leaves such a line to the user, bar slide 1's "Meet Jotter"
                keep = _OPENING_NAME if position == 0 else ()
                groups = [
                    (n, [t for t in ts if t in keep]) if n == "name" else (n, ts)
                    for n, ts in groups
                ]
        if kind == "subtitle" and self.ctx.english:
            # the app's features, when the screen says little else of its own: on slide 1
            # the app's first two ("Pocket Budget brings your budgets and reports
            # together"), on any other the screen's own first ("... your reports and
            # budgets together"), never a line that leaves the screen under it out
            self.extra["features"] = self._features_for(position)
            # after every line of the screen's own, even one naming its subject again
            name = "voice:set" if position == 0 else "voice:set-last"
            groups.append((name, list(voice()["subtitle"]["set"])))
        if kind == "subtitle" and position == 0:
            # slide 1: the user's own words (unless the tagline used them), then the app's
            first = ("about", "sentence") if not self.about_used else ("sentence",)
            groups.sort(key=lambda g: first.index(g[0]) if g[0] in first else len(first))
        return groups

    def _voice_groups(self, kind: str, slots: Slots) -> list[tuple[str, list[str]]]:
        """The frames of ``data/copy_voice.json`` for this screen's kind, best first."""
        frames = voice()[kind]
        groups: list[tuple[str, list[str]]] = []
        if kind == "headline":
            own = list(frames.get(slots.kind, []))
            if slots.general:  # "Your dashboard at a glance", never "Keep track of ..."
                own = list(voice()["headline_general"])
            if slots.kind not in _CONTENT_KINDS:
                # a line naming the screen's feature before one naming an example of it
                # ("Plan with your sowing calendar", not "Plan Runner Beans day by day")
                named = [t for t in own if _NAMES_SUBJECT.search(t)]
                rest = [t for t in own if t not in named]
                groups = [(f"voice:{slots.kind}", named), (f"voice:{slots.kind}", rest)]
            else:
                groups = [(f"voice:{slots.kind}", own)]
            if slots.state:  # "All you saved, in one list", before "See ... at a glance"
                states = voice()["headline_state"]
                groups.insert(0, ("voice:state", list(states.get(slots.state, states["any"]))))
            groups.append(("voice:any", list(frames["any"])))
            # the subject alone ("Your optimization history", "Your monthly report") when
            # no frame fits it, before its head noun alone ("See your report at a glance")
            long = slots.subject is not None and len(slots.subject.text) >= _LONG_SUBJECT
            if long or (slots.subject is not None and slots.short is not None):
                groups.append(("voice:bare", list(voice()["headline_bare"])))
            if slots.short is not None:  # "transactions" when "checking transactions" is long
                groups += [(f"voice:short:{name[6:]}", t) for name, t in groups]
            lines = voice()["headline_app"]
            app_line = lines.get(slots.kind)
            if app_line:
                groups.append(("voice:app", [app_line]))
            return groups
        order = _SUBTITLE_ORDER.get(slots.kind, ("examples", "fields", "count", "actions"))
        for part in (*order, "sentence", "subject"):
            bank = frames[part]
            if isinstance(bank, dict):  # the kind's own frames before those of any screen
                if bank.get(slots.kind):
                    groups.append((f"voice:{part}", list(bank[slots.kind])))
                groups.append((f"voice:{part}", list(bank["any"])))
            else:
                groups.append((f"voice:{part}", list(bank)))
        return groups

    def _worn(self, template: str) -> bool:
        """Whether a subtitle frame's closing tone ("at a glance", "in one place") has been
        said twice in the set already, and the frame reads whole without it: it opens on
        an interface verb ("Compare {f1} and {f2} at a glance."), not on a noun ("All
        {count} in one place."). "See" is no interface verb: its frames keep their tone."""
        tail = _TONE_TAIL.search(template)
        if tail is None or template.split()[0].casefold() not in vocabulary().ui_verbs:
            return False
        return any(self.fillers[f] >= 2 for f in _filler(tail.group(0)))

    def _grounding_for(self, kind: str) -> Grounding:
        """The set's grounding plus the words a screen of this kind shows by being one
        (a table has rows; a form is filled in) and the category's verb."""
        if kind not in self._kind_grounding:
            extra = list(voice()["kind_words"].get(kind, []))
            if self.extra.get("Verb"):
                extra.append(self.extra["Verb"])
            added = allowed_words(extra, locale=self.ctx.locale).forms
            base = self._screens_grounding  # the set's texts are read once, not per kind
            self._kind_grounding[kind] = replace(base, forms=base.forms | added)
        return self._kind_grounding[kind]

    def _ok(
        self,
        line: Line,
        kind: str,
        relax: int,
        pair: Line | None,
        bend_first: bool = False,
        reuse_frame: bool = False,
    ) -> bool:
        # the set's rules first (cheap), then the line's own checks, each worked out once
        # per line however often a phase meets it again. ``bend_first``: a first word the
        # set has used once may start a second headline; ``reuse_frame``: a frame the set
        # has used may name this screen's subject
        if kind == "headline":
            if normalized(line.text) in self.headlines:
                return False
            seen = self.first_words[first_word(line.text)]
            if relax < 3 and seen and not (bend_first and seen < 2):
                return False
        elif normalized(line.text) in self.subtitles:
            return False
        elif relax < 2 and len(line.evidence) >= 2 and _together(line) in self.together:
            return False  # three screens "From Outside Temperature to Wind Chill"
        if "{Action}" in line.template and any(e.casefold() in self.acted for e in line.evidence):
            return False  # one button offered once a set: not "Filter untagged links" thrice
        strict = relax < 2 and not reuse_frame
        if (strict or line.group.startswith("voice:set")) and line.template in self.templates:
            return False  # an app line's frame once per set, however little the screens say
        key = (kind, self.kind, line.text)
        if key not in self._checked:
            self._checked[key] = self._problems(line.text, kind)
        problems, critique = self._checked[key]
        if problems:
            return False
        if relax >= 3:
            # the last resort: a plain line that names nothing beats no line, but a broken
            # one never ships
            critique = [c for c in critique if not c.startswith("filler")]
        if line.group == "tabs":  # the app's own sections, named on its tab bar, are a set
            critique = [c for c in critique if "list of tokens" not in c]
        if critique:
            if len(self.rejected) < 6:
                self.rejected.append(f"{line.text!r}: {critique[0]}")
            return False
        filler = _filler(line.template)
        if relax < 1 and any(self.fillers[f] >= 2 for f in filler):
            return False
        if pair is not None and relax < 2 and filler & _filler(pair.template):
            return False  # later, a subtitle drops its tone phrase instead (_untoned)
        if pair is not None and self.ctx.english and _says_again(line.text, pair.text):
            return False  # "Steps and exercise at a glance" / "See steps and exercise ..."
        return True

    def _problems(self, text: str, kind: str) -> tuple[list[str], list[str]]:
        """The copy rules and grounding (any failure refuses), and the critic's reasons."""
        if kind == "headline":
            problems = headline_problems(text, proper=self.proper, strict=self.ctx.english)
        else:
            problems = subtitle_problems(text, proper=self.proper, strict=self.ctx.english)
        grounding = self._grounding_for(self.kind) if self.kind else self.grounding
        problems = problems or grounding_problems(text, grounding)
        critique: list[str] = []
        if not problems and self.ctx.english:
            critique = line_problems(
                text,
                kind=kind,
                screen_words=self.screen_words,
                project=self.ctx.project,
                screen_texts=self._pairs,
            )
        return problems, critique

    def _phases(
        self, kind: str, slots: Slots, groups: list[tuple[str, list[str]]]
    ) -> list[tuple[list[tuple[str, list[str]]], int, bool]]:
        """The order a line's candidates are tried in: (groups, how much the set rules
        bend, whether the headline's evidence may return: a thin screen's subtitle may
        name the title again rather than nothing). A line that names the screen, even
        with a tone word used twice already, beats a line that names nothing; the first
        word and the template stay unique longest."""
        named = [g for g in groups if g[0] not in _FALLBACK_GROUPS and g[0] not in _LATE_VOICE]
        late = [g for g in groups if g[0] in _LATE_VOICE]  # the app, when the screen says little
        fallback = [g for g in groups if g[0] in _FALLBACK_GROUPS]
        phases: list[tuple[list[tuple[str, list[str]]], int, bool]] = []
        if kind == "headline" and slots.subject is not None and self.ctx.english:
            # a headline that names the screen's subject with a first word used once
            # already ("Your tempo run, row by row") before one that names an example
            # ("See avg pace at a glance"); the whole subject first, even in a frame the
            # set has used ("Project board at a glance", not "Your board, all in one
            # list"; "Table of contents at a glance", not "See Wapping Wharf at a glance")
            subject = [(n, [t for t in ts if _NAMES_SUBJECT.search(t)]) for n, ts in named]
            whole_subject = [
                g for g in subject if not g[0].startswith(("voice:short:", "voice:bare"))
            ]
            bare = [g for g in subject if g[0] == "voice:bare"]
            long = len(slots.subject.text) >= _LONG_SUBJECT
            phases = [(whole_subject, 0, False), (whole_subject, _BEND_FIRST, False)]
            phases += [
                (whole_subject, _REUSE_FRAME, False),
                (bare if long else [], _REUSE_FRAME, False),
            ]
            # a shorter subject in a frame the set has said once, then alone ("Your monthly
            # report"), before its head noun alone ("See your report at a glance"). The
            # subject alone is no frame: another screen's "Your {s}" does not bar it
            phases += [(whole_subject, 1, False), (bare, _REUSE_FRAME, False)]
            phases += [(subject, 0, False), (subject, _BEND_FIRST, False)]
        # the subject's head noun alone ("graph" of "dependency graph") only once the
        # whole subject has had its chance with a tone word used again
        whole = [g for g in named if not g[0].startswith("voice:short:")]
        phases += [
            (whole, 0, False),
            (whole, 1, False),
            (named, 0, False),
            (named, 1, False),
            (named, 2, False),  # a template used twice beats a line that names nothing
            (late, 0, False),
            (late, 2, False),
        ]
        if self.ctx.english:
            # English frames around the app's name alone say nothing ("Meet Wanderly"):
            # they come after a first word used again, or the headline's evidence named
            # again, which still say something of the screen. (The other languages' name
            # group quotes the screen's title: "Küchenbuch: Einkaufsliste.")
            said = named + late
            phases += [(said, 2, True), (said, 3, True), (fallback, 0, False), (fallback, 1, False)]
        else:
            phases += [(fallback, 0, False), (fallback, 1, False), (groups, 2, False)]
            phases += [(groups, 2, True)]
        phases.append((groups, 3, True))
        return phases

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
        self.kind, self.rejected = slots.kind, []
        if kind == "subtitle":
            slots = self._unsaid(slots)
        groups = self._groups(kind, position, tagline, slots)
        phases = self._phases(kind, slots, groups)
        shorter: list[tuple[str, Slots, bool, str, int, bool]] = []
        for phase_groups, phase_relax, again in phases:
            relax = max(phase_relax, 0)
            bend_first = phase_relax in (_BEND_FIRST, _REUSE_FRAME)
            reuse_frame = phase_relax == _REUSE_FRAME
            for name, templates in phase_groups:
                rng = _rng(self.ctx.app_id, self.seed, position, kind, name)
                order = list(templates)
                rng.shuffle(order)
                if slots.subject is not None and kind == "headline":
                    # within a group, a frame naming the subject before one naming an
                    # example ("Pareto front at a glance", not "See Datetime start ...")
                    order.sort(key=lambda t: not _NAMES_SUBJECT.search(t))
                if name == "voice:search":  # the app's own word first: "Search every
                    order.sort(key=lambda t: not t.startswith("Search"))  # message", where
                    # the screen says it; "Find any flow" where it shows only a box
                if name in _MORE_FIRST:  # three fields, sections, examples before two
                    order.sort(key=lambda t: -len(_SLOT.findall(t)))
                filled = _short(slots) if name.startswith("voice:short:") else slots
                for template in order:
                    if kind == "subtitle" and relax >= 2:  # said once a slide, then dropped
                        template = _untoned(template, pair)
                    if kind == "subtitle" and self._worn(template):
                        template = _TONE_TAIL.sub("", template)  # "See A and B." once the
                        # set has said "at a glance" twice
                    line = _fill(template, filled, set() if again else used, self.extra)
                    if line is None:
                        continue
                    line.group = name
                    if kind == "subtitle" and len(line.text) > SUBTITLE_MAX_CHARS:
                        plain = _TONE_TAIL.sub("", template)  # long names, no tone: a last
                        if plain != template:  # resort ("Compare current pay period and
                            # previous pay period.")
                            shorter.append((plain, filled, again, name, relax, bend_first))
                    if not self._ok(line, kind, relax, pair, bend_first, reuse_frame):
                        continue
                    if name == "about":
                        self.about_used = True
                    self._take(line, kind)
                    return line
        for template, filled, again, name, relax, bend_first in shorter:
            line = _fill(template, filled, set() if again else used, self.extra)
            if line is not None:
                line.group = name
                if self._ok(line, kind, relax, pair, bend_first):
                    self._take(line, kind)
                    return line
        if not self.ctx.english:
            return self._english_fallback(kind, position, slots, pair)
        if kind == "subtitle" and (last := self._last_resort(slots, used, pair)) is not None:
            return last
        # nothing this screen shows makes a line the set has not used: no filler is
        # written in its place; the line is left to the user, and the stage says so
        self.missing.append((position, kind))
        return Line("", [], "left to the user")

    def _last_resort(
        self, slots: Slots, used: set[frozenset[str]], pair: Line | None
    ) -> Line | None:
        """A subtitle in the plainest frame of the screen's own fields or examples ("Check
        the difficulty and tools."), once every other frame has failed: tried last, it
        changes no set whose lines were found."""
        for template in voice()["subtitle_last"]:
            if "{ex1}" in template and slots.examples and " " not in slots.examples[0].text:
                continue  # "See Timestamp and more.": one word alone may name a column
            line = _fill(template, slots, used, self.extra)
            if line is None:
                continue
            line.group = "voice:last"
            if self._ok(line, "subtitle", 2, pair):
                self._take(line, "subtitle")
                return line
        return None

    def _english_fallback(self, kind: str, position: int, slots: Slots, pair: Line | None) -> Line:
        """A screen the set's language has no grounded line for.

        English is written only when the screen itself is English (an app whose UI is
        not localized, captioned for another store locale): then the words are still the
        screen's own. A screen in another language gets no invented English: the line is
        left empty, recorded in ``self.missing``, and the stage tells the user to write
        it (``--copy`` with a ``locale`` column, or an LLM backend).
        """
        strings = self.ctx.evidence[position].strings() if position < len(self.ctx.evidence) else []
        if not _reads_english(strings):
            self.missing.append((position, kind))
            return Line("", [], "left to the user")
        english = SetContext(**{**self.ctx.__dict__, "locale": "en-US"})
        writer = _Writer(english, self.seed)
        writer.headlines, writer.first_words = self.headlines, self.first_words
        writer.subtitles, writer.templates, writer.fillers = (
            self.subtitles,
            self.templates,
            self.fillers,
        )
        writer.together, writer.acted = self.together, self.acted
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
    evidence: list[dict] = [{"headline": [], "subtitle": []} for _ in range(n)]
    for i in range(n):
        user_head, user_sub = fixed[i]
        head_line: Line | None = None
        record = evidence[i]
        record["reading"] = ctx.evidence[i].reading()
        why: dict[str, str] = {}
        rejected: dict[str, list[str]] = {}
        if user_head:
            heads[i] = user_head
            why["headline"] = "yours"
        else:
            head_line = writer.write("headline", i, all_slots[i], tagline=(i == 0))
            heads[i] = head_line.text
            record["headline"] = head_line.evidence
            why["headline"] = _why(head_line)
            rejected["headline"] = head_line.rejected
        if user_sub:
            subs[i] = user_sub
            why["subtitle"] = "yours"
        else:
            sub_line = writer.write("subtitle", i, all_slots[i], pair=head_line)
            subs[i] = sub_line.text
            record["subtitle"] = sub_line.evidence
            why["subtitle"] = _why(sub_line)
            rejected["subtitle"] = sub_line.rejected
        record["why"] = why
        record["rejected"] = {k: v for k, v in rejected.items() if v}
    return SetCopy(heads[0] if n else "", heads, subs, evidence, list(writer.missing))


def _together(line: Line) -> frozenset[str]:
    """What a line names, as a set: the same two things in another frame are a repeat."""
    return _named_together(line.evidence)


def _named_together(texts: Iterable[str]) -> frozenset[str]:
    return frozenset(" ".join(t.casefold().split()) for t in texts)


def _why(line: Line) -> str:
    """Why a line says what it says: its frame group and frame, and what filled it."""
    if not line.template:
        return line.group or "left to the user"
    filled = ", ".join(repr(e) for e in line.evidence) or "nothing of the screen"
    return f"{line.group or 'frame'}: {line.template!r} with {filled}"


def proper_words(project: str) -> list[str]:
    project = (project or "").strip()
    return [project, *project.split()] if project else []


def _reads_english(strings: Sequence[str]) -> bool:
    """True when a screen's words are Latin-script letters, mostly ASCII (its UI is
    English or untranslated), so an English line still says only what it shows."""
    letters = [c for text in strings for c in text if c.isalpha()]
    if len(letters) < 3:
        return False
    return sum(c.isascii() for c in letters) / len(letters) >= 0.9


def is_english(locale: str) -> bool:
    return language_of(locale) == "en"
