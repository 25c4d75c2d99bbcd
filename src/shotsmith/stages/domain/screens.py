"""What the screens are: per category, how strongly a set's screens show its kind of app,
from ``data/category_screens.json``:

* :func:`screen_scores`: the nouns that name the screens and records of each category's
  apps, in the subjects, field names and visible text extract_features read, and the
  screen kinds that point at a category (a conversation);
* :func:`screen_surfaces`: what whole screens are (a config editor, a device list, a run's
  metrics, a chat), from cue words shown *together* on one screen, counted only when
  several screens of the set agree.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from ..features.intent import singular
from .evidence import Evidence

SCREENS_FILE = "data/category_screens.json"


@dataclass(frozen=True)
class Surface:
    """One kind of screen (``surfaces`` in ``data/category_screens.json``): the cue words
    it shows together, how many make it, and what it says of each category."""

    name: str  # "a code or config editor": as the signals say it
    cues: tuple[tuple[str, ...], ...]  # singular word tuples
    min_cues: int
    categories: dict[str, float]
    kinds: frozenset[str] = frozenset()  # screen kinds (features_kind) that show it outright


@dataclass(frozen=True)
class ScreenLexicon:
    """``data/category_screens.json``: the nouns that name the screens of each category's
    apps, the screen kinds that point at a category, the surfaces whole screens show, and
    how much they weigh."""

    categories: dict[str, tuple[tuple[str, ...], ...]]  # category -> phrases as word tuples
    kinds: dict[str, tuple[str, ...]]
    weights: dict[str, float]
    scale: float
    surfaces: tuple[Surface, ...] = ()
    surface_scale: float = 0.0
    min_screens: int = 2  # a surface counts when at least this many screens show it
    full_screens: int = 3  # ...and at full strength when this many do


@lru_cache(maxsize=1)
def screen_lexicon() -> ScreenLexicon:
    raw = json.loads(resources.files("shotsmith").joinpath(SCREENS_FILE).read_text("utf-8"))
    return ScreenLexicon(
        categories={  # one entry per word, singular and plural alike ("run", "runs")
            c: tuple(dict.fromkeys(_phrase(p) for p in phrases))
            for c, phrases in raw["categories"].items()
        },
        kinds={k: tuple(v) for k, v in raw["kinds"].items()},
        weights={k: float(v) for k, v in raw["weights"].items()},
        scale=float(raw["scale"]),
        surfaces=tuple(
            Surface(
                name=name,
                cues=tuple(dict.fromkeys(_phrase(c) for c in spec["cues"])),
                min_cues=int(spec["min_cues"]),
                categories={c: float(v) for c, v in spec["categories"].items()},
                kinds=frozenset(spec.get("kinds", ())),
            )
            for name, spec in raw.get("surfaces", {}).items()
        ),
        surface_scale=float(raw.get("surface_scale", 0.0)),
        min_screens=int(raw.get("min_screens", 2)),
        full_screens=int(raw.get("full_screens", 3)),
    )


def _phrase(text: str) -> tuple[str, ...]:
    """A cue or lexicon phrase as singular words ("API keys" -> ("api", "key"))."""
    return tuple(singular(w) for w in _lex_words(text))


_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z][a-z])")


def _lex_words(text: str) -> list[str]:
    """Lower-case words; anything but a letter or digit splits ("api_key" -> api, key), and
    so does a capital inside a word ("speedOverGround" -> speed, over, ground)."""
    out, word = [], []
    text = _CAMEL.sub(" ", unicodedata.normalize("NFKC", text))
    for ch in text.casefold():
        if ch.isalnum() and ch != "_":
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


#: How much of one screen's text is read for cues (a long page says what it is early on).
SCREEN_TEXT_CHARS = 6000
#: A line of more words (numbers aside) than this is a sentence of content, not a label:
#: no cue is read there.
LABEL_WORDS = 8


@lru_cache(maxsize=8192)
def _singular(word: str) -> str:
    return singular(word)


def _label_grams(texts: list[str]) -> set[tuple[str, ...]]:
    """The words and word pairs (singular) of the short lines of ``texts``: labels,
    headers, keys and menu items, not the sentences of a comment or an article."""
    grams: set[tuple[str, ...]] = set()
    for text in texts:
        for line in text[:SCREEN_TEXT_CHARS].splitlines():
            words = _lex_words(line)
            if not words or sum(not w.isdigit() for w in words) > LABEL_WORDS:
                continue
            words = [_singular(w) for w in words]
            grams.update((w,) for w in words)
            grams.update(zip(words, words[1:]))
    return grams


@dataclass(frozen=True)
class Shown:
    """A surface the set's screens show: on how many screens, and the cues they showed."""

    surface: Surface
    screens: int  # screens that show it
    of: int  # screens in the set
    cues: tuple[str, ...]  # the cues found, most screens first
    full: int  # screens that give it full strength

    def says(self, category: str) -> float:
        """Its weight for ``category``: the surface's weight times its strength, the
        screens that show it over ``full_screens`` (at most 1)."""
        strength = min(1.0, self.screens / max(1, min(self.full, self.of)))
        return self.surface.categories.get(category, 0.0) * strength

    def describe(self) -> str:
        said = ", ".join(self.cues[:4])
        return f"screens show {self.surface.name} ({said}) on {self.screens} of {self.of}"


def screen_surfaces(evidence: Evidence) -> list[Shown]:
    """The surfaces (``data/category_screens.json``) that several of the set's screens show:
    each screen's subject, field names and text read for cue words shown together."""
    lex = screen_lexicon()
    texts = evidence.screen_texts
    n = max(len(evidence.readings), len(texts))
    if not n or not lex.surfaces:
        return []
    per_screen: list[tuple[str, set[tuple[str, ...]]]] = []
    for i in range(n):
        parts, kind = [texts[i] if i < len(texts) else ""], ""
        if i < len(evidence.readings):
            kind, subject, names = evidence.readings[i]
            parts += [subject, *names]
        per_screen.append((kind, _label_grams(parts)))
    need = min(lex.min_screens, n)
    shown: list[Shown] = []
    for surface in lex.surfaces:
        found: dict[str, int] = {}
        screens = 0
        for kind, grams in per_screen:
            cues = [" ".join(c) for c in surface.cues if c in grams]
            if kind in surface.kinds:
                cues.append(f"{kind} screen")
            if len(cues) >= surface.min_cues or kind in surface.kinds:
                screens += 1
                for cue in cues:
                    found[cue] = found.get(cue, 0) + 1
        if screens >= need:
            ranked = sorted(found, key=lambda c: -found[c])
            shown.append(Shown(surface, screens, n, tuple(ranked), lex.full_screens))
    return shown
