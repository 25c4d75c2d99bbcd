"""Say only what the screens show: the words a caption may use, and the check.

A caption is *grounded* when every content word in it can be found in the set's
evidence (the text on its screens), the app's name or bundle id, or the user's own
description of the app. The only other words allowed are a small neutral vocabulary
(``shotsmith/data/copy_vocabulary.json``): function words, generic verbs and benefit
words — never a feature noun. "Live updates reroute you around delays" on a trails
database fails because "updates", "reroute" and "delays" are nowhere on its screens.

Matching is case-insensitive and forgives light English inflection (plural/singular,
-ing, -ed: "trail" grounds "trails", "plan" grounds "planning"). Words are Unicode word
runs, so German, Greek or Cyrillic evidence works; scripts written without spaces
(Chinese, Japanese, Thai) are matched as substrings of the evidence.

The same tokenizer and vocabulary define "content word" for
``benchmarks/copy_quality.py``, which measures grounding against the full OCR text
of the screenshots rather than against the evidence the writer used.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from .locales import DEFAULT_LOCALE, language_of

#: A word: letters/digits, with inner apostrophes or number separators ("it's", "1,240").
_WORD = re.compile(r"[^\W_]+(?:[.,:'’][^\W_]+)*")
#: Characters of scripts written without spaces between words.
_UNSPACED = re.compile(r"[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")


@dataclass(frozen=True)
class Vocabulary:
    """The neutral vocabulary and the word tables that help read evidence."""

    function_words: frozenset[str]
    generic_verbs: frozenset[str]
    benefit_words: frozenset[str]
    ui_verbs: frozenset[str]
    chrome: frozenset[str]
    generic_sections: frozenset[str]
    weak_titles: frozenset[str]
    calendar_words: frozenset[str]
    units: frozenset[str]
    states: frozenset[str]
    verbs_also_nouns: frozenset[str]
    mechanic_verbs: frozenset[str]
    list_verbs: frozenset[str]
    by_language: dict[str, frozenset[str]]

    @property
    def neutral(self) -> frozenset[str]:
        """Every word a caption may use without evidence (English)."""
        return self.function_words | self.generic_verbs | self.benefit_words

    def neutral_for(self, locale: str | None) -> frozenset[str]:
        """The neutral words plus the function words of the locale's language."""
        lang = language_of(locale)
        return self.neutral | self.by_language.get(lang, frozenset())


@lru_cache(maxsize=1)
def vocabulary() -> Vocabulary:
    """The neutral vocabulary (``data/copy_vocabulary.json``, parsed once)."""
    text = resources.files("shotsmith").joinpath("data/copy_vocabulary.json").read_text("utf-8")
    data = json.loads(text)

    def words(key: str) -> frozenset[str]:
        return frozenset(w.casefold() for w in data.get(key, []))

    return Vocabulary(
        function_words=words("function_words"),
        generic_verbs=words("generic_verbs"),
        benefit_words=words("benefit_words"),
        ui_verbs=words("ui_verbs"),
        chrome=words("chrome"),
        generic_sections=words("generic_sections"),
        weak_titles=words("weak_titles"),
        calendar_words=words("calendar_words"),
        units=words("units"),
        states=words("states"),
        verbs_also_nouns=words("verbs_also_nouns"),
        mechanic_verbs=words("mechanic_verbs"),
        list_verbs=words("list_verbs"),
        by_language={
            lang: frozenset(w.casefold() for w in ws)
            for lang, ws in data.get("function_words_by_language", {}).items()
        },
    )


def words_of(text: str) -> list[str]:
    """The words of ``text`` as written (Unicode word runs; "1,240" and "it's" are one)."""
    return _WORD.findall(text or "")


def is_unspaced(word: str) -> bool:
    """True for words in scripts written without spaces (Chinese, Japanese, Thai)."""
    return bool(_UNSPACED.search(word))


@lru_cache(maxsize=1024)
def _is_latin(word: str) -> bool:
    return all(c.isascii() or "LATIN" in unicodedata.name(c, "") for c in word)


@lru_cache(maxsize=65536)
def word_forms(word: str) -> frozenset[str]:
    """The word's lower-case form and the stems light English inflection maps it to.

    Two words match when their forms meet: "trails" {trails, trail} meets "trail";
    "planning" {planning, plann, plan, planne} meets "plan"; "notes" {notes, note}
    does not meet "not".
    """
    w = word.casefold().replace("’", "'")
    w = re.sub(r"'s$", "", w)
    forms = {w}
    if not w.isalpha() or not _is_latin(w):
        return frozenset(forms)
    n = len(w)

    def add(stem: str) -> None:
        if len(stem) >= 3:
            forms.add(stem)

    if n > 4 and w.endswith("ies"):
        add(w[:-3] + "y")
    if n > 4 and w.endswith(("ses", "xes", "zes", "ches", "shes", "oes")):
        add(w[:-2])
    if n > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        add(w[:-1])
    for suffix in ("ing", "ed"):
        if n > len(suffix) + 2 and w.endswith(suffix):
            stem = w[: -len(suffix)]
            add(stem)
            add(stem + "e")
            if len(stem) >= 2 and stem[-1] == stem[-2] and stem[-1] not in "lsz":
                add(stem[:-1])  # planned -> plan
            if suffix == "ed" and stem.endswith("i"):
                add(stem[:-1] + "y")  # tried -> try
    return frozenset(forms)


@lru_cache(maxsize=16)
def _neutral_forms(locale_lang: str) -> frozenset[str]:
    words = vocabulary().neutral_for(locale_lang)
    return frozenset(f for w in words for f in word_forms(w))


def is_neutral(word: str, locale: str | None = None) -> bool:
    """True when ``word`` is in the neutral vocabulary (for that locale's language)."""
    lang = language_of(locale)
    return bool(word_forms(word) & _neutral_forms(lang))


def content_words(line: str, locale: str | None = None) -> list[str]:
    """The words of ``line`` that are not in the neutral vocabulary, as written."""
    return [w for w in words_of(line) if not is_neutral(w, locale)]


@dataclass(frozen=True)
class Grounding:
    """What a set's captions may say: forms of the evidence words, plus the vocabulary.

    Build one with :func:`allowed_words`; ask :meth:`allows` about a word, or
    :func:`grounding_problems` about a whole line.
    """

    forms: frozenset[str]
    unspaced_text: str  # evidence in scripts without spaces, joined, for substring matches
    locale: str = DEFAULT_LOCALE

    def allows(self, word: str) -> bool:
        if is_neutral(word, self.locale):
            return True
        if word_forms(word) & self.forms:
            return True
        return is_unspaced(word) and word.casefold() in self.unspaced_text

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.allows(word)


def allowed_words(texts: Iterable[str], *, locale: str | None = DEFAULT_LOCALE) -> Grounding:
    """The grounding of a set: every word of ``texts`` (evidence, app name, bundle id,
    the user's description) in all its light inflections, plus the neutral vocabulary."""
    forms: set[str] = set()
    unspaced: list[str] = []
    for text in texts:
        if not isinstance(text, str) or not text:
            continue
        for part in re.split(r"[._\-/]", text) if _looks_like_bundle_id(text) else [text]:
            for word in words_of(part):
                forms |= word_forms(word)
                forms |= word_forms(_strip_number_separators(word))
        if is_unspaced(text):
            unspaced.append(text.casefold())
    return Grounding(frozenset(forms), "\n".join(unspaced), locale or DEFAULT_LOCALE)


def _looks_like_bundle_id(text: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+", text.strip()))


def _strip_number_separators(word: str) -> str:
    return word.replace(",", "") if any(c.isdigit() for c in word) else word


def grounding_problems(line: str, allowed: Grounding | Iterable[str]) -> list[str]:
    """Each content word of ``line`` that nothing grounds, as a short reason.

    ``allowed`` is a :class:`Grounding` (from :func:`allowed_words`) or the evidence
    texts themselves. An empty list means every word of the line is either on the
    screens, in the app's name, bundle id or description, or in the neutral vocabulary.

    >>> grounding_problems("Beat the traffic", ["Trails", "Filter by region"])
    ["claims 'beat', not on the screens", "claims 'traffic', not on the screens"]
    """
    grounding = allowed if isinstance(allowed, Grounding) else allowed_words(allowed)
    problems: list[str] = []
    seen: set[str] = set()
    for word in words_of(line):
        key = word.casefold()
        if key in seen:
            continue
        seen.add(key)
        if not grounding.allows(word) and not grounding.allows(_strip_number_separators(word)):
            problems.append(f"claims {key!r}, not on the screens")
    return problems
