"""The words of a set, as the domain model reads them: the featuriser's settings
(``data/domain_features.json``, loaded once) and the tokens, phrases and character n-grams
of any script."""

from __future__ import annotations

import hashlib
import json
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from ...words import fold

FEATURES_FILE = "data/domain_features.json"

# Scripts written without spaces between words: their runs get plain character n-grams.
# (Hangul is spaced, but its syllable blocks behave the same way for n-grams.)
_UNSPACED_RANGES = (
    (0x0E00, 0x0EFF),  # Thai, Lao
    (0x1000, 0x109F),  # Myanmar
    (0x1100, 0x11FF),  # Hangul Jamo
    (0x1780, 0x17FF),  # Khmer
    (0x2E80, 0x2FDF),  # CJK radicals
    (0x3040, 0x31FF),  # Hiragana, Katakana, Bopomofo, Hangul compatibility jamo
    (0x3400, 0x4DBF),  # CJK extension A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xA960, 0xA97F),  # Hangul Jamo extended A
    (0xAC00, 0xD7FF),  # Hangul syllables and Jamo extended B
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0x20000, 0x3FFFF),  # CJK extensions B-H
)
_APOSTROPHES = frozenset("'\u2019\u02bc")


# --- featuriser settings ------------------------------------------------------------------


@dataclass(frozen=True)
class FeaturizerConfig:
    """The featuriser's settings, as ``data/domain_features.json`` gives them."""

    boilerplate: frozenset[str]
    generic_screen_words: frozenset[str]  # folded
    symbols: frozenset[str]
    spaced_ngrams: tuple[int, int]
    unspaced_ngrams: tuple[int, int]
    max_text_chars: int
    max_word_chars: int
    digest: str  # sha256 of the settings file: the model records the one it was fitted with


@lru_cache(maxsize=1)
def featurizer_config() -> FeaturizerConfig:
    """The featuriser settings shipped in ``data/domain_features.json`` (loaded once)."""
    raw_bytes = resources.files("shotsmith").joinpath(FEATURES_FILE).read_bytes()
    raw = json.loads(raw_bytes.decode("utf-8"))
    grams = raw["char_ngrams"]
    return FeaturizerConfig(
        boilerplate=frozenset(t.casefold() for t in raw["bundle_boilerplate"]["tokens"]),
        generic_screen_words=frozenset(fold(w) for w in raw["generic_screens"]["words"]),
        symbols=frozenset(raw["symbols"]["chars"]),
        spaced_ngrams=(int(grams["spaced"][0]), int(grams["spaced"][1])),
        unspaced_ngrams=(int(grams["unspaced"][0]), int(grams["unspaced"][1])),
        max_text_chars=int(raw["max_text_chars"]),
        max_word_chars=int(raw["max_word_chars"]),
        digest=hashlib.sha256(raw_bytes).hexdigest(),
    )


# --- tokens ---------------------------------------------------------------------------------


def _unspaced(ch: str) -> bool:
    code = ord(ch)
    if code < 0x0E00:  # Latin, Greek, Cyrillic, Arabic, Indic...: the common case
        return False
    return any(lo <= code <= hi for lo, hi in _UNSPACED_RANGES)


def _camel_parts(word: str) -> list[str]:
    """Split at lower->upper case changes: "PocketBudget" -> ["Pocket", "Budget"]."""
    parts: list[str] = []
    start = 0
    for i in range(1, len(word)):
        if word[i].isupper() and word[i - 1].islower():
            parts.append(word[start:i])
            start = i
    parts.append(word[start:])
    return parts


def phrases(text: object, config: FeaturizerConfig | None = None) -> list[list[str]]:
    """Normalised word tokens of ``text``, grouped into phrases (punctuation ends a phrase).

    Unicode-aware: a word is a run of letters, marks and digits of any script; a run that
    changes between a spaced and an unspaced script (Latin "LINE" + katakana "マンガ") is
    split there. CamelCase is split and the joined word kept as well. Pure numbers are
    dropped; degree, percent and currency signs are kept as tokens of their own.
    """
    if not isinstance(text, str) or not text:
        return []
    config = config or featurizer_config()
    text = unicodedata.normalize("NFKC", text)
    out: list[list[str]] = []
    phrase: list[str] = []
    word: list[str] = []
    word_unspaced = False

    def end_word() -> None:
        if not word:
            return
        raw = "".join(word)
        word.clear()
        if raw.isdigit() or len(raw) > config.max_word_chars:
            return
        parts = _camel_parts(raw) if not word_unspaced else [raw]
        folded = [fold(p) for p in parts if p and not p.isdigit()]
        phrase.extend(f for f in folded if f)
        if len(parts) > 1:
            phrase.append(fold(raw))

    def end_phrase() -> None:
        end_word()
        if phrase:
            out.append(list(phrase))
            phrase.clear()

    for ch in text:
        kind = unicodedata.category(ch)[0]
        if kind in "LMN":
            unspaced = _unspaced(ch)
            if word and unspaced != word_unspaced:
                end_word()
            word_unspaced = unspaced
            word.append(ch)
        elif ch in _APOSTROPHES and word:
            continue  # "McDonald's" -> mcdonalds
        elif ch.isspace():
            end_word()
        else:
            end_phrase()
            if ch in config.symbols:
                out.append([ch])
    end_phrase()
    return out


def bundle_phrases(bundle_id: object, config: FeaturizerConfig | None = None) -> list[list[str]]:
    """Phrases of a bundle id's parts, without boilerplate ("com", "app", "ios"...)."""
    config = config or featurizer_config()
    kept: list[list[str]] = []
    for phrase in phrases(bundle_id, config):
        words = [w for w in phrase if w not in config.boilerplate]
        if words:
            kept.append(words)
    return kept


def is_generic_screen(screen_phrases: list[list[str]], config: FeaturizerConfig) -> bool:
    """Whether a screen name says nothing about the app: made only of words such as home,
    search, profile or settings (``generic_screens`` in the settings), or of numbers only."""
    return all(word in config.generic_screen_words for phrase in screen_phrases for word in phrase)


def char_ngrams(word: str, config: FeaturizerConfig) -> list[str]:
    """The character n-grams of one word: padded with ``<`` ``>`` in spaced scripts, bare in
    unspaced ones, of the lengths the settings give for each."""
    if _unspaced(word[0]):
        lo, hi = config.unspaced_ngrams
        padded = word
    else:
        lo, hi = config.spaced_ngrams
        padded = f"<{word}>"
    grams: list[str] = []
    for n in range(lo, hi + 1):
        grams += [padded[i : i + n] for i in range(len(padded) - n + 1)]
    return grams
