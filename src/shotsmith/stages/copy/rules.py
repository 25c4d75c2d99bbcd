"""The copy rules every caption obeys: length, sentence case, store-safe words, a varied set.

Word tables (store-forbidden claims, acronyms, proper terms) live in
``shotsmith/data/copy_vocabulary.json``; the regexes are built from them when first used.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Sequence
from functools import lru_cache
from importlib import resources

from ...words import is_common_word, is_given_name

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
        return acronyms()
    if name == "PROPER_TERMS":
        return proper_terms()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@lru_cache(maxsize=1)
def acronyms() -> frozenset[str]:
    """Upper-case words that are fine mid-sentence ("CSV", "GPS")."""
    return frozenset(_table("acronyms"))


def as_acronym(word: str) -> str:
    """An acronym a file name or a menu wrote in lower case, in capitals ("tv" -> "TV");
    "" for any other word, and for one English writes in lower case ("pin", "us")."""
    up = word.upper()
    return up if up in acronyms() and up != word and not is_common_word(word.casefold()) else ""


#: The length of a word in capitals that may be an acronym no table lists ("CT", "MRI").
_ACRONYM_LETTERS = range(2, 5)


def acronym_like(word: str) -> bool:
    """A short word in capitals that English does not write as a word ("CT", "MRI", "IPA"),
    nor a name ("ANNA"): an acronym, kept in capitals where a label in capitals is
    written in lower case ("CT HEAD WITHOUT CONTRAST" -> "CT head without contrast")."""
    return (
        word.isalpha()
        and word.isupper()
        and len(word) in _ACRONYM_LETTERS
        and not is_common_word(word.casefold())
        and not is_given_name(word)
        and word.casefold() not in _table("function_words")
    )


@lru_cache(maxsize=1)
def proper_terms() -> tuple[str, ...]:
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
    """Words as a reader counts them: "&", "-" and "·" standing alone are not words."""
    return [w for w in text.split() if any(ch.isalnum() for ch in w)]


def graphemes(text: str) -> int:
    """Characters as a reader counts them: a base letter with its marks (Thai vowels and
    tone marks, Devanagari matras, Arabic harakat) and emoji joiners count once."""
    return sum(
        1
        for ch in text
        if not unicodedata.category(ch).startswith("M") and ch not in "\u200d\ufe0f\u200c"
    )


def unspaced(text: str) -> bool:
    """Text in a script written without spaces between words (Chinese, Japanese, Thai...)."""
    from ...grounding import is_unspaced

    return is_unspaced(text)


@lru_cache(maxsize=1)
def _unspaced_limits() -> dict[str, int]:
    text = resources.files("shotsmith").joinpath("data/scripts.json").read_text("utf-8")
    return dict(json.loads(text)["copy_limits"])


# Sentence ends in the scripts the stores serve: . 。 ． । ۔ and the question/exclamation marks.
SENTENCE_END = ".。．।۔"
_MORE_SENTENCES = re.compile(r"[.!?]\s+\S|[。．！？।۔؟]\s*\S")


def _allowed_caps(text: str, proper: Iterable[str]) -> set[int]:
    """Character offsets of words that may be capitalised mid-sentence."""
    spans: set[int] = set()
    for term in (*proper_terms(), *proper):
        if not term or term not in text:  # most names are not in a given line: no regex
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
    if first[0].islower() and first not in proper_terms() and first not in proper:
        problems.append("does not start with a capital")
    caps = []
    for m in words[1:]:
        w = m.group(0)
        if m.start() in allowed:
            continue
        core = re.sub(r"['’].*$", "", w)
        if core[-1:] == "s" and core[:-1].isupper() and core[:-1] in acronyms():
            continue  # "PDFs"
        if acronym_like(core):
            continue  # "CT head without contrast": an acronym no table lists
        if len(core) >= 2 and core.isupper() and core.upper() not in acronyms() and core != "I":
            problems.append(f"word in capitals: {w!r}")
        elif w[0].isupper() and w != "I" and core.upper() not in acronyms():
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
    if unspaced(h):  # words are not counted by spaces; the length is in characters
        from ...text import unspaced_limit

        limit = unspaced_limit(h, "headline")
        if graphemes(h) > limit:
            problems.append(f"{graphemes(h)} characters (max {limit} in this script)")
    else:
        if not HEADLINE_WORDS[0] <= n <= HEADLINE_WORDS[1]:
            problems.append(f"{n} words (needs {HEADLINE_WORDS[0]}-{HEADLINE_WORDS[1]})")
        if graphemes(h) > HEADLINE_MAX_CHARS:
            problems.append(f"{graphemes(h)} characters (max {HEADLINE_MAX_CHARS})")
    if h.endswith((".", "!", "。", "！", "．", "।", "۔")):
        problems.append("ends with punctuation")
    if "\n" in h:
        problems.append("line break")
    problems += _store_safe_problems(h)
    problems += _case_problems(h, proper, strict)
    return problems


def _store_safe_problems(line: str) -> list[str]:
    """Emoji and words the stores refuse in screenshot captions."""
    problems = ["emoji"] if any(_is_emoji(c) for c in line) else []
    bad = forbidden_words(line)
    if bad:
        problems.append(f"forbidden word {bad[0]!r}")
    return problems


def subtitle_problems(
    subtitle: str, *, proper: Sequence[str] = (), strict: bool = True
) -> list[str]:
    """What is wrong with a subtitle: one sentence ending in a full stop, ≤ 60 characters."""
    problems = []
    if not isinstance(subtitle, str) or not subtitle.strip():
        return ["empty subtitle"]
    s = subtitle.strip()
    from ...text import full_stops, unspaced_limit

    limit = unspaced_limit(s, "subtitle") if unspaced(s) else SUBTITLE_MAX_CHARS
    if graphemes(s) > limit:
        problems.append(f"{graphemes(s)} characters (max {limit})")

    own_stops = full_stops(s)  # "": a script without full stops (Thai, Lao)
    if own_stops != "" and not s.endswith(tuple(SENTENCE_END + (own_stops or ""))):
        problems.append("does not end with a full stop")
    if _MORE_SENTENCES.search(s[:-1]) or "\n" in s:
        problems.append("more than one sentence")
    if graphemes(s) < 4 if unspaced(s) else len(_words(s)) < 2:
        problems.append("too short")
    problems += _store_safe_problems(s)
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


def normalized(text: str) -> str:
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
        key = normalized(h)
        if key in seen_h:
            problems.append(f"headline {i + 1} repeats headline {seen_h[key] + 1}")
        seen_h.setdefault(key, i)
        fw = first_word(h)
        if fw in seen_f:
            problems.append(f"headlines {seen_f[fw] + 1} and {i + 1} both start with {fw!r}")
        seen_f.setdefault(fw, i)
        skey = normalized(s)
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
