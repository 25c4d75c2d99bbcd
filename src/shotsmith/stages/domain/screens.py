"""What the screens are: per category, how strongly a set's screens (their subjects,
field names, kinds and visible text, as extract_features read them) show its kind of app,
from ``data/category_screens.json``."""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from ..features.intent import singular
from .evidence import Evidence

SCREENS_FILE = "data/category_screens.json"


@dataclass(frozen=True)
class ScreenLexicon:
    """``data/category_screens.json``: the nouns that name the screens of each category's
    apps, the screen kinds that point at a category, and how much they weigh."""

    categories: dict[str, tuple[tuple[str, ...], ...]]  # category -> phrases as word tuples
    kinds: dict[str, tuple[str, ...]]
    weights: dict[str, float]
    scale: float


@lru_cache(maxsize=1)
def screen_lexicon() -> ScreenLexicon:
    raw = json.loads(resources.files("shotsmith").joinpath(SCREENS_FILE).read_text("utf-8"))
    return ScreenLexicon(
        categories={  # one entry per word, singular and plural alike ("run", "runs")
            c: tuple(dict.fromkeys(tuple(singular(w) for w in _lex_words(p)) for p in phrases))
            for c, phrases in raw["categories"].items()
        },
        kinds={k: tuple(v) for k, v in raw["kinds"].items()},
        weights={k: float(v) for k, v in raw["weights"].items()},
        scale=float(raw["scale"]),
    )


def _lex_words(text: str) -> list[str]:
    out, word = [], []
    for ch in unicodedata.normalize("NFKC", text).casefold():
        if ch.isalnum():
            word.append(ch)
        elif word:
            out.append("".join(word))
            word = []
    if word:
        out.append("".join(word))
    return out


def _grams(text: str, longest: int = 3) -> set[tuple[str, ...]]:
    """Every run of 1..``longest`` words of ``text``, singular ("Heart rate zones" gives
    ("heart",), ("heart", "rate"), ("heart", "rate", "zone")...)."""
    words = [singular(w) for w in _lex_words(text)]
    return {
        tuple(words[i : i + n]) for n in range(1, longest + 1) for i in range(len(words) - n + 1)
    }


def screen_scores(evidence: Evidence) -> dict[str, tuple[float, list[str]]]:
    """Per category, how strongly the set's screens show its kind of app, and the words
    that said so: subjects and field names per screen (averaged over the screens), each
    phrase once in the visible text, and screen kinds (``data/category_screens.json``)."""
    lex = screen_lexicon()
    w = lex.weights
    n = max(len(evidence.readings), 1)
    shown = _grams(evidence.text[:20000])
    readings = [
        (kind, _grams(subject), set().union(*(_grams(f) for f in fields)))
        for kind, subject, fields in evidence.readings
    ]
    scores: dict[str, tuple[float, list[str]]] = {}
    for category, phrases in lex.categories.items():
        total, why = 0.0, []
        for kind, subject_grams, field_grams in readings:
            for phrase in phrases:
                if phrase in subject_grams:
                    total += w["subject"] / n
                    why.append(" ".join(phrase))
                elif phrase in field_grams:
                    total += w["field"] / n
                    why.append(" ".join(phrase))
            if category in lex.kinds.get(kind, ()):
                total += w["kind"] / n
                why.append(f"{kind} screen")
        in_text = [" ".join(p) for p in phrases if p in shown]
        total += w["text"] * min(len(in_text), 4) / 4
        if total > 0:
            scores[category] = (total, list(dict.fromkeys(why + in_text)))
    return scores
