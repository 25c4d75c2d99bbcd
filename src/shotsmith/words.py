"""English word facts from maintained libraries: how common a word is, number, articles.

``wordfreq`` says how often people write a string (its Zipf frequency, from its largest
list: about 7 for "the", 4.6 for "balance", 2.3 for "payee", 1.7 for the scrap "pric",
0 for "ipyker"), which is how the copy critic tells a word cut in half from a real one.
``inflect`` gives the plural and singular of a noun and its indefinite article ("an
income statement"). ``lemminflect`` says which parts of speech a word can be, so a screen
called "Settle" or "Downloading" is not captioned as if it named a thing.

Both load on first use, not at import (``wordfreq`` reads its large English list once,
~0.2 s).
``inflect`` is pinned below 6: later releases check every call's types at import time
(5 s on this machine's class of hardware), for the same answers.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

#: What separates a page title's parts: "Bookmarks - buku server", "calibre :: Library".
_TITLE_SEPARATORS = re.compile(r"\s+(?:[·|•—–-]|::)\s+|\s*[|·•]\s*")


#: Characters of Unicode's private use areas: an icon font's glyphs (Font Awesome's
#: U+F00D "times"), which a page's text holds but no reader sees as words; and the
#: pictographs a label leads with as its icon ("📝 Quiz Files", "⚙️ Config", "✏️ Edit"),
#: with the joiner and the variation selector that dress them.
_PRIVATE_USE = re.compile(
    "[\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd"
    "\U0001f000-\U0001faff\u2600-\u2767\u2b50-\u2b55\ufe0f\u200d]"
)


def without_icons(text: str) -> str:
    """Text without an icon font's private-use glyphs and pictographs, each line's spaces
    tidied where one was: "\uf682 Edit record \uf00d" -> "Edit record", "📝 Quiz Files" ->
    "Quiz Files"."""
    if not _PRIVATE_USE.search(text):
        return text
    return "\n".join(
        " ".join(_PRIVATE_USE.sub(" ", line).split()) if _PRIVATE_USE.search(line) else line
        for line in text.split("\n")
    )


def fold(word: str) -> str:
    """Case-fold; drop accents from Latin, Greek and Cyrillic letters only (kana voicing
    marks and Indic vowel signs are part of the letter, not decoration): "Tomás" ->
    "tomas", as the census name lists and the domain model's vocabulary write it."""
    word = word.casefold()
    if word.isascii():
        return word
    out: list[str] = []
    base_is_alphabetic = False
    for ch in unicodedata.normalize("NFD", word):
        if unicodedata.combining(ch):
            if base_is_alphabetic:
                continue
        else:
            code = ord(ch)
            base_is_alphabetic = code < 0x0530 or 0x1E00 <= code <= 0x1FFF
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out))


def title_parts(title: str) -> list[str]:
    """The parts of a page title: "Runs - Experiment 1 - MLflow" -> Runs, Experiment 1,
    MLflow (the page's own name usually first, the app's last)."""
    return [p.strip() for p in _TITLE_SEPARATORS.split(str(title)) if p.strip()]


@lru_cache(maxsize=1)
def _engine() -> Any:
    import inflect

    return inflect.engine()


@lru_cache(maxsize=65536)
def word_frequency(word: str, lang: str = "en") -> float:
    """The Zipf frequency of ``word`` (0 when it is no word of the language)."""
    from wordfreq import zipf_frequency

    try:
        return float(zipf_frequency(word, lang, wordlist="best"))
    except LookupError:  # a language wordfreq does not know: every word counts as known
        return 4.0


#: Below this Zipf frequency a string is a scrap, not a word people write ("pric": 1.7).
WORD_FREQUENCY = 2.0


def is_word(word: str, lang: str = "en") -> bool:
    """True when ``word`` is a word people write (in any case): "payee", not "pric"."""
    return word_frequency(word.casefold(), lang) >= WORD_FREQUENCY


@lru_cache(maxsize=4096)
def plural(noun: str) -> str:
    """The plural of a noun ("transaction" -> "transactions"); a phrase inflects its last
    word ("income statement" -> "income statements")."""
    words = noun.split()
    if not words:
        return noun
    last = words[-1]
    if is_plural(last):
        return noun
    words[-1] = str(_engine().plural_noun(last)) or last
    return " ".join(words)


@lru_cache(maxsize=4096)
def singular(noun: str) -> str:
    """The singular of a noun phrase ("accounts" -> "account"); unchanged when singular."""
    words = noun.split()
    if not words:
        return noun
    one = _one_of(words[-1])
    if one:
        words[-1] = one
    return " ".join(words)


@lru_cache(maxsize=4096)
def _one_of(word: str) -> str:
    """The singular of a plural word, or "" when it is no plural. The lexicon overrules
    the inflection rules when it holds the word but not their singular: "address",
    "canvas" and "analysis" are singular ("addres" is no word); an app's own plural
    ("scrobbles") still loses its "s"."""
    from lemminflect import getAllLemmas

    one = _engine().singular_noun(word)
    if not one or one == word:
        return ""
    known = getAllLemmas(word.casefold())
    if (
        known
        and not getAllLemmas(str(one).casefold())
        and word.casefold() in known.get("NOUN", (word.casefold(),))
    ):
        return ""
    return str(one)


_NOT_PLURAL = frozenset(
    "series news species analytics statistics settings insights data media means "
    "holdings savings earnings lyrics".split()
)


@lru_cache(maxsize=4096)
def is_plural(noun: str) -> bool:
    """True when a noun (or a phrase's last word) is a plural ("accounts", "zones").

    Words that are plural in form but name one thing in an app ("settings", "statistics",
    "news", "series") count as not plural: "every setting" would read wrong.
    """
    words = noun.split()
    if not words:
        return False
    last = words[-1].casefold()
    if last in _NOT_PLURAL or not last.isalpha() or len(last) < 3:
        return False
    return bool(_one_of(last))


def with_article(phrase: str) -> str:
    """The phrase with "a" or "an" before it ("an account", "a new transaction")."""
    return str(_engine().a(phrase)) if phrase else phrase


@lru_cache(maxsize=4096)
def _parts_of_speech(word: str) -> frozenset[str]:
    """The parts of speech ``lemminflect``'s lexicon gives ``word`` (empty for a word it
    does not hold: a name, a coinage)."""
    from lemminflect import getAllLemmas

    low = word.casefold()
    parts = frozenset(getAllLemmas(low))
    return parts | {"NOUN"} if low.removesuffix("s") in _NOUNS_TOO else parts


#: Nouns of software the lexicon holds only as verbs: a repository's "log", a "commit".
_NOUNS_TOO = frozenset({"log", "commit", "template"})


def is_modifier(word: str) -> bool:
    """True when ``word`` can be no noun and only describes one: an adverb ("currently"),
    an adjective alone ("newest"), a participle ("edited"). A gerund ("spending") names
    an activity and is no modifier."""
    from lemminflect import getLemma

    parts = _parts_of_speech(word)
    if not parts or "NOUN" in parts or "PROPN" in parts:
        return False
    low = word.casefold()
    if "VERB" in parts and not low.endswith("ing"):  # "found" of "find", "used"
        return any(lemma != low for lemma in getLemma(low, upos="VERB"))
    return low.endswith("ly") or parts <= {"ADJ", "ADV"}


def can_be_noun(word: str) -> bool:
    """True when ``word`` can be a noun ("devices", "board", "seeding"; an unknown word
    such as "flowchart" too), False when it is only a verb, adjective or adverb
    ("settle", "downloading", "important", "explore")."""
    parts = _parts_of_speech(word)
    return not parts or "NOUN" in parts or "PROPN" in parts


def is_common_word(word: str) -> bool:
    """True when ``word`` is an ordinary English word a sentence writes in lower case
    ("harvest", "log", "budget"), False for a name English capitalises wherever it stands
    ("Kyoto", "English", "Monday") or a word no lexicon knows: ``lemminflect``'s lexicon
    holds common words only."""
    return bool(_parts_of_speech(word))


def can_be_verb(word: str) -> bool:
    """True when ``word`` can be a verb ("take", "watch", "open"), False for a word no
    lexicon knows as one ("harry", "the")."""
    return "VERB" in _parts_of_speech(word)


def is_verb_only(word: str) -> bool:
    """True when ``word`` can only be a verb ("sorted", "edit"), not a noun or an
    adjective ("running", "recent", "open")."""
    return _parts_of_speech(word) == {"VERB"}


def is_bare_verb(word: str) -> bool:
    """True when ``word`` is only a verb, in its own base form: a command ("choose",
    "delete", "reset"), not a participle that may describe a thing ("selected", "spent")."""
    from lemminflect import getAllLemmas

    low = word.casefold()
    return is_verb_only(low) and low in getAllLemmas(low).get("VERB", ())


#: Money's units, written out: a figure's unit ("525 Euros"), never a thing counted nor a
#: field of a record.
CURRENCY_NAMES = frozenset(
    "euro euros dollar dollars cent cents pence yen franc francs krona kronor krone kroner "
    "rupee rupees peso pesos real reais yuan".split()
)


@lru_cache(maxsize=1)
def _person_names() -> tuple[frozenset[str], frozenset[str]]:
    import gzip
    import json
    from importlib import resources

    raw = resources.files("shotsmith").joinpath("data/person_names.json.gz").read_bytes()
    data = json.loads(gzip.decompress(raw))
    return frozenset(data["given"]), frozenset(data["family"])


def is_given_name(word: str) -> bool:
    """True when ``word`` is a given name of the census lists ("Marguerite", "Jonah", but
    also "Rose"): a person's name on a screen where people write to each other."""
    return fold(word.strip()) in _person_names()[0]


def is_surname(word: str) -> bool:
    """True when ``word`` is a family name of the census lists that English does not
    write as a word ("Novak", "Rossi"; not "Baker", "Walker")."""
    return fold(word.strip()) in _person_names()[1] and not is_common_word(word.strip())


def is_full_name(given: str, family: str, *, unlisted_given: bool = True) -> bool:
    """True when two words read as a person's name: a given name, then a family name that
    English does not write as a word ("Ines Duarte", "Mira Okafor"; not "Autumn
    strength", "Rose garden", "Grace Lee"), accents aside ("Tomás Herrera"). A given
    name the lists lack passes before a family name they hold when English writes
    neither as a word ("Adaeze Obi", "Siobhan Novak"; not "Harbour Patel", "San Marzano"),
    as does a family name before a given one ("Brennan Aoife", a register's order). From the
    1990 US Census name lists (``data/person_names.json.gz``, built by
    ``scripts/build_person_names.py``)."""
    first, last = _person_names()
    neither_a_word = not (is_common_word(given) or is_common_word(family))
    if fold(given) in last and fold(family) in first:  # "Brennan Aoife": a list's order
        return neither_a_word
    if fold(family) not in last:
        return False
    if fold(given) in first:
        return True
    return unlisted_given and len(given) >= 4 and neither_a_word
