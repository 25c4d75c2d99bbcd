"""detect_domain: the App Store category of each set, by transparent weighted scoring.

Evidence, strongest first:

* ``project_name`` -- split on spaces, CamelCase and digits; joined words
  ("pocketbudget", "Forecastly") are segmented against the lexicon's vocabulary, and when a
  full split is impossible a known word at the start or end of the token still counts
  ("FlightPal" -> "flight").
* ``bundle_id`` -- reverse-domain parts, minus boilerplate (com, io, app, ios, example...),
  tokenised like the name; a term already counted from the name is not counted again.
* ``screen`` names of the set -- generic screens (home, settings, profile...) carry nothing.
* ``screen_text`` (optional) -- visible text, weighted low and capped per category so a wall
  of text cannot outvote the name and the screens.

Each term maps to one or more categories with a weight from 1 to 4
(``data/domain_lexicon.json``, which documents itself); a term counts once per source, times
the source's factor (:data:`SOURCE_WEIGHT`). The category with the highest sum wins; the
confidence is the winner's margin over the runner-up, ``(best - second) / (best + 2)``, so it
is 0 on a tie and stays low when there is little evidence at all. Ties go to the label that
sorts first. Everything is offline and deterministic.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from ..columns import (
    APP_ID,
    BUNDLE_ID,
    DOMAIN_CATEGORY,
    DOMAIN_CONFIDENCE,
    DOMAIN_SIGNALS,
    POSITION,
    PROJECT_NAME,
    SCREEN,
    SCREEN_TEXT,
    stage,
)
from ..errors import ShotsmithError

__all__ = ["CATEGORIES", "FALLBACK_CATEGORY", "detect_domain", "score_domains"]

#: The App Store categories, spelled as in the store (Stickers is iMessage-only, left out).
CATEGORIES: tuple[str, ...] = (
    "Books",
    "Business",
    "Developer Tools",
    "Education",
    "Entertainment",
    "Finance",
    "Food & Drink",
    "Games",
    "Graphics & Design",
    "Health & Fitness",
    "Lifestyle",
    "Magazines & Newspapers",
    "Medical",
    "Music",
    "Navigation",
    "News",
    "Photo & Video",
    "Productivity",
    "Reference",
    "Shopping",
    "Social Networking",
    "Sports",
    "Travel",
    "Utilities",
    "Weather",
)
#: What a set with no evidence at all (or too little, see ``min_confidence``) is filed under.
FALLBACK_CATEGORY = "Utilities"

# How much one lexicon point is worth, by where the term was found.
SOURCE_WEIGHT = {"name": 1.2, "bundle": 1.0, "screen": 0.8, "text": 0.3}
SOURCE_LABEL = {
    "name": "name token",
    "bundle": "bundle id token",
    "screen": "screen",
    "text": "screen text",
}
FULL_SPLIT_FACTOR = 0.8  # a word found by splitting a joined name ("pocketbudget")
EDGE_MATCH_FACTOR = 0.6  # a word at the start/end of an otherwise unknown token ("calcu")
EDGE_MIN_COVER = 0.6  # ...which must cover most of it (not "host" in "hostile")
TEXT_CAP = 3.0  # the most points screen text may add to any one category
CONFIDENCE_DAMPING = 2.0  # confidence = (best - runner_up) / (best + damping)
MAX_TEXT_CHARS = 20_000  # per set; visible text beyond this is ignored
MAX_SIGNALS = 6

LEXICON_PATH = Path(__file__).resolve().parents[1] / "data" / "domain_lexicon.json"


class DomainOptionError(ShotsmithError, ValueError):
    """An option of detect_domain is out of range."""


# --- lexicon -----------------------------------------------------------------------------

Entries = tuple[tuple[str, float], ...]  # ((category, weight), ...)


@dataclass(frozen=True)
class Lexicon:
    terms: dict[str, Entries]  # normalised term ("price alert") -> category weights
    max_words: int  # longest phrase, in tokens
    generic: frozenset[str]  # words that carry no weight
    vocabulary: frozenset[str]  # known words for splitting joined names
    bundle_tlds: frozenset[str]  # ignored when they are the first part of a bundle id
    bundle_stopwords: frozenset[str]  # ignored anywhere in a bundle id


@lru_cache(maxsize=1)
def _lexicon() -> Lexicon:
    raw = json.loads(LEXICON_PATH.read_text(encoding="utf-8"))
    return _build_lexicon(raw)


def _build_lexicon(raw: dict) -> Lexicon:
    unknown = sorted(set(raw["categories"]) - set(CATEGORIES))
    if unknown:
        raise ShotsmithError(
            f"detect_domain: the lexicon names unknown categories {unknown}; "
            f"use the App Store labels {list(CATEGORIES)}."
        )
    weights: dict[str, dict[str, float]] = {}
    for category, tiers in raw["categories"].items():
        for weight, terms in tiers.items():
            for term in terms:
                key = " ".join(_tokens(term))
                if key:
                    per_cat = weights.setdefault(key, {})
                    per_cat[category] = max(per_cat.get(category, 0.0), float(weight))
    terms = {
        k: tuple(sorted(v.items(), key=lambda cw: (-cw[1], CATEGORIES.index(cw[0]))))
        for k, v in weights.items()
    }
    generic = frozenset(" ".join(_tokens(w)) for w in raw.get("generic", ()))
    fillers = {" ".join(_tokens(w)) for w in raw.get("fillers", ())}
    vocabulary = frozenset(
        w for w in set(terms) | fillers | generic if " " not in w and len(w) >= 2 and w.isalpha()
    )
    return Lexicon(
        terms=terms,
        max_words=max((k.count(" ") + 1 for k in terms), default=1),
        generic=generic,
        vocabulary=vocabulary,
        bundle_tlds=frozenset(w.lower() for w in raw.get("bundle_tlds", ())),
        bundle_stopwords=frozenset(w.lower() for w in raw.get("bundle_stopwords", ())),
    )


# --- tokens --------------------------------------------------------------------------------

_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_WORD = re.compile(r"[a-z0-9]+")
_RUNS = re.compile(r"[a-z]+|[0-9]+")


def _tokens(text: object) -> list[str]:
    """Lower-case word tokens: accents dropped, CamelCase split, apostrophes joined."""
    if not isinstance(text, str) or not text:
        return []
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = text.replace("'", "").replace("\u2019", "")
    text = _CAMEL.sub(" ", text).lower()
    return _WORD.findall(text)


def _plural_forms(word: str) -> list[str]:
    """Candidate singulars of ``word`` (workouts -> workout, stories -> story, boxes -> box)."""
    if len(word) <= 3 or not word.endswith("s") or word.endswith(("ss", "us", "is")):
        return []
    forms = [word[:-1]]
    if word.endswith("ies"):
        forms.append(word[:-3] + "y")
    if word.endswith("es"):
        forms.append(word[:-2])
    return forms


def _inflection_forms(word: str) -> list[str]:
    """Base forms tried only when nothing else matched (budgeting -> budget, baking -> bake)."""
    forms: list[str] = []
    if len(word) < 6:
        return forms
    for suffix in ("ing", "er", "ers", "ed"):
        if word.endswith(suffix):
            stem = word[: -len(suffix)]
            forms += [stem, stem + "e"]
            if len(stem) > 2 and stem[-1] == stem[-2]:  # running -> run, planner -> plan
                forms.append(stem[:-1])
    return forms


class _Matcher:
    """Finds lexicon terms in token sequences; every lookup goes through here."""

    def __init__(self, lex: Lexicon):
        self.lex = lex
        self._cache: dict[str, Entries] = {}

    def word(self, token: str) -> Entries:
        """Category weights of one token (plural- and inflection-folded); () if none/generic."""
        hit = self._cache.get(token)
        if hit is not None:
            return hit
        lex = self.lex
        if token in lex.generic:
            entries: Entries = ()
        else:
            found = [token] if token in lex.terms else []
            found += [f for f in _plural_forms(token) if f in lex.terms and f not in lex.generic]
            if not found and not any(f in lex.generic for f in _plural_forms(token)):
                found = [
                    f for f in _inflection_forms(token) if f in lex.terms and f not in lex.generic
                ][:1]
            entries = _merge(lex.terms[f] for f in found)
        self._cache[token] = entries
        return entries

    def phrase(self, tokens: Sequence[str]) -> tuple[str, Entries] | None:
        """A multi-word term spelled by ``tokens`` (last word may be plural)."""
        key = " ".join(tokens)
        if key in self.lex.terms:
            return key, self.lex.terms[key]
        head = " ".join(tokens[:-1])
        for form in _plural_forms(tokens[-1]):
            alt = f"{head} {form}"
            if alt in self.lex.terms:
                return alt, self.lex.terms[alt]
        return None

    def scan(self, tokens: Sequence[str]) -> list[tuple[str, Entries]]:
        """Greedy longest-match of terms over ``tokens``: [(term, entries), ...]."""
        found: list[tuple[str, Entries]] = []
        i, n = 0, len(tokens)
        while i < n:
            for size in range(min(self.lex.max_words, n - i), 1, -1):
                hit = self.phrase(tokens[i : i + size])
                if hit:
                    found.append(hit)
                    i += size
                    break
            else:
                entries = self.word(tokens[i])
                if entries:
                    found.append((tokens[i], entries))
                i += 1
        return found

    def split(self, token: str) -> tuple[list[str], bool]:
        """Split a joined token into known words: (pieces, covers_whole_token).

        Dynamic programming: each known word costs 1, each uncovered letter 2, so the
        split with the fewest uncovered letters (then the fewest words) wins. When the
        whole token cannot be covered, only a long known word at its start or end is kept.
        """
        vocab, n = self.lex.vocabulary, len(token)
        best: list[tuple[float, list[tuple[str, bool]]]] = [(0.0, [])] + [(math.inf, [])] * n
        for end in range(1, n + 1):
            cost, parts = best[end - 1]
            best[end] = (cost + 2, parts + [(token[end - 1], False)])
            for start in range(max(0, end - 20), end - 1):
                piece = token[start:end]
                if len(piece) <= 2 and 0 < start and end < n:
                    continue  # "ly", "go", "my" only at the edges: not art+is+an
                if piece in vocab and best[start][0] + 1 < best[end][0]:
                    best[end] = (best[start][0] + 1, best[start][1] + [(piece, True)])
        merged: list[tuple[str, bool]] = []
        for piece, known in best[n][1]:
            if merged and not known and not merged[-1][1]:
                merged[-1] = (merged[-1][0] + piece, False)
            else:
                merged.append((piece, known))
        whole = all(known for _p, known in merged)
        if whole:
            return [p for p, _k in merged], True
        edges = [merged[0], merged[-1]] if len(merged) > 1 else []
        return [
            p for p, known in edges if known and len(p) >= 4 and len(p) >= EDGE_MIN_COVER * n
        ], False


def _merge(groups: Iterable[Entries]) -> Entries:
    best: dict[str, float] = {}
    for entries in groups:
        for category, weight in entries:
            best[category] = max(best.get(category, 0.0), weight)
    return tuple(sorted(best.items(), key=lambda cw: (-cw[1], CATEGORIES.index(cw[0]))))


# --- evidence ------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Hit:
    source: str  # "name", "bundle", "screen", "text"
    term: str
    category: str
    points: float
    note: str = ""  # e.g. "from 'pocketbudget'"

    def describe(self) -> str:
        note = f" (in '{self.note}')" if self.note else ""
        return (
            f"{SOURCE_LABEL[self.source]} '{self.term}'{note} -> {self.category} "
            f"(+{self.points:.1f})"
        )


def _name_hits(matcher: _Matcher, source: str, tokens: list[str], seen: set[str]) -> list[_Hit]:
    """Hits in a name-like token list, splitting joined words where needed."""
    hits: list[_Hit] = []
    factor = SOURCE_WEIGHT[source]
    expanded: list[tuple[list[str], float, str]] = []  # (tokens, factor, note)
    run: list[str] = []
    for token in tokens:
        if (
            not token.isalpha()
            or len(token) < 5
            or matcher.word(token)
            or token in matcher.lex.generic
        ):
            run.append(token)
            continue
        pieces, whole = matcher.split(token)
        if run:
            expanded.append((run, 1.0, ""))
            run = []
        if pieces:
            expanded.append((pieces, FULL_SPLIT_FACTOR if whole else EDGE_MATCH_FACTOR, token))
    if run:
        expanded.append((run, 1.0, ""))
    for part, part_factor, note in expanded:
        for term, entries in matcher.scan(part):
            if term in seen:
                continue
            seen.add(term)
            for category, weight in entries:
                hits.append(
                    _Hit(
                        source,
                        term,
                        category,
                        weight * factor * part_factor,
                        note if note != term else "",
                    )
                )
    return hits


def _bundle_tokens(lex: Lexicon, bundle_id: object, name_tokens: list[str]) -> list[str]:
    """Tokens of a bundle id, without boilerplate and without the parts that only repeat
    the project name (``com.pocketbudget.app`` adds nothing to "Pocket Budget")."""
    if not isinstance(bundle_id, str):
        return []
    parts = [p for p in re.split(r"[.\s/]+", bundle_id.strip()) if p]
    if parts and parts[0].lower() in lex.bundle_tlds:
        parts = parts[1:]
    joined_name = "".join(name_tokens)
    tokens: list[str] = []
    for part in parts:
        part_tokens = [t for t in _tokens(part) if t not in lex.bundle_stopwords]
        if joined_name and "".join(part_tokens) == joined_name:
            continue
        tokens += part_tokens
    return tokens


def _expand_alnum(matcher: _Matcher, tokens: list[str]) -> list[str]:
    """Keep known mixed tokens ("3d", "401k"); split the others into letter/digit runs."""
    out: list[str] = []
    for token in tokens:
        if token.isalpha() or token.isdigit() or matcher.word(token):
            out.append(token)
        else:
            out += _RUNS.findall(token)
    return out


def _evaluate(
    project_name: object, bundle_id: object, screens: Iterable[object], text: object = ""
) -> tuple[dict[str, float], list[_Hit]]:
    lex = _lexicon()
    matcher = _Matcher(lex)
    hits: list[_Hit] = []

    seen: set[str] = set()  # terms already counted from the name or the bundle id
    name_tokens = _expand_alnum(matcher, _tokens(project_name))
    hits += _name_hits(matcher, "name", name_tokens, seen)
    bundle_tokens = _expand_alnum(matcher, _bundle_tokens(lex, bundle_id, _tokens(project_name)))
    hits += _name_hits(matcher, "bundle", bundle_tokens, seen)

    screen_seen: set[str] = set()
    for screen in screens:
        tokens = _expand_alnum(matcher, _tokens(screen))
        if " ".join(tokens) in lex.generic:
            continue
        for term, entries in matcher.scan(tokens):
            if term in screen_seen:
                continue
            screen_seen.add(term)
            for category, weight in entries:
                hits.append(_Hit("screen", term, category, weight * SOURCE_WEIGHT["screen"]))

    if isinstance(text, str) and text.strip():
        text_seen: set[str] = set()
        text_points: dict[str, float] = {}
        tokens = _expand_alnum(matcher, _tokens(text[:MAX_TEXT_CHARS]))
        for term, entries in matcher.scan(tokens):
            if term in text_seen:
                continue
            text_seen.add(term)
            for category, weight in entries:
                room = TEXT_CAP - text_points.get(category, 0.0)
                points = min(weight * SOURCE_WEIGHT["text"], room)
                if points > 1e-9:
                    text_points[category] = text_points.get(category, 0.0) + points
                    hits.append(_Hit("text", term, category, points))

    scores = dict.fromkeys(CATEGORIES, 0.0)
    for hit in hits:
        scores[hit.category] += hit.points
    return scores, hits


def _ranked(scores: dict[str, float]) -> list[tuple[str, float]]:
    return sorted(
        ((c, round(s, 3)) for c, s in scores.items()),
        key=lambda cs: (-cs[1], CATEGORIES.index(cs[0])),
    )


def score_domains(
    project_name: str | None,
    bundle_id: str | None,
    screens: Sequence[str] | str | None,
    text: str = "",
) -> list[tuple[str, float]]:
    """Score every App Store category for one app, best first.

    ``screens`` is a list of screen names or one ``;``-separated string. Returns
    ``[(category, score), ...]`` for all categories, sorted by score (ties in label order).
    """
    if isinstance(screens, str):
        screens = screens.split(";")
    scores, _hits = _evaluate(project_name, bundle_id, screens or (), text)
    return _ranked(scores)


def _decide(
    project_name: object,
    bundle_id: object,
    screens: Sequence[object],
    text: str,
    min_confidence: float,
) -> tuple[str, float, list[str]]:
    scores, hits = _evaluate(project_name, bundle_id, screens, text)
    ranked = _ranked(scores)
    (best, top), (second, runner_up) = ranked[0], ranked[1]
    if top <= 0:
        return (
            FALLBACK_CATEGORY,
            0.0,
            [f"no evidence in name, bundle id, screens or text -> {FALLBACK_CATEGORY} (fallback)"],
        )
    confidence = round(min(1.0, max(0.0, (top - runner_up) / (top + CONFIDENCE_DAMPING))), 3)
    winners = sorted((h for h in hits if h.category == best), key=lambda h: -h.points)
    signals = [h.describe() for h in winners]
    if runner_up > 0:
        tail = f"runner-up {second} {runner_up:.1f} vs {best} {top:.1f}"
    else:
        tail = f"no other category scored ({best} {top:.1f})"
    if confidence < min_confidence:
        head = (
            f"confidence {confidence:.2f} below min_confidence {min_confidence:.2f}: "
            f"{best} not trusted -> {FALLBACK_CATEGORY} (fallback)"
        )
        return FALLBACK_CATEGORY, confidence, [head, *signals[: MAX_SIGNALS - 2], tail]
    return best, confidence, [*signals[: MAX_SIGNALS - 1], tail]


# --- the stage ---------------------------------------------------------------------------


def _first_text(values: Iterable[object]) -> str:
    for value in values:
        if isinstance(value, str) and value.strip():
            return value
    return ""


def _store_order(positions: np.ndarray) -> np.ndarray:
    try:
        return np.asarray(pd.Series(positions).sort_values(kind="stable").index)
    except TypeError:  # mixed, unorderable positions: keep the frame's order
        return np.arange(len(positions))


@stage(
    "detect_domain",
    requires=(APP_ID, POSITION, PROJECT_NAME, BUNDLE_ID, SCREEN),
    provides=(DOMAIN_CATEGORY, DOMAIN_CONFIDENCE, DOMAIN_SIGNALS),
    optional=(SCREEN_TEXT,),
)
def detect_domain(frame: pd.DataFrame, *, min_confidence: float = 0.0) -> pd.DataFrame:
    """Detect each set's App Store category from its name, bundle id, screens and text.

    Adds, on every row of a set: ``domain_category`` (one of :data:`CATEGORIES`),
    ``domain_confidence`` (0..1, the winner's margin over the runner-up) and
    ``domain_signals`` (what decided it, best first). A set whose confidence is below
    ``min_confidence``, or that has no evidence at all, is filed under "Utilities".
    """
    if (
        isinstance(min_confidence, bool)
        or not isinstance(min_confidence, (int, float))
        or not 0.0 <= float(min_confidence) <= 1.0
    ):
        raise DomainOptionError(
            f"detect_domain: min_confidence must be a number from 0 to 1, got {min_confidence!r}."
        )
    min_confidence = float(min_confidence)

    n = len(frame)
    categories = np.empty(n, dtype=object)
    confidences = np.zeros(n, dtype=float)
    signals = np.empty(n, dtype=object)

    names = frame[PROJECT_NAME].to_numpy(dtype=object)
    bundles = frame[BUNDLE_ID].to_numpy(dtype=object)
    screens = frame[SCREEN].to_numpy(dtype=object)
    positions = frame[POSITION].to_numpy(dtype=object)
    texts = frame[SCREEN_TEXT].to_numpy(dtype=object) if SCREEN_TEXT in frame.columns else None

    codes, _uniques = pd.factorize(frame[APP_ID], use_na_sentinel=False)
    for code in range(int(codes.max()) + 1 if n else 0):
        rows = np.flatnonzero(codes == code)
        rows = rows[_store_order(positions[rows])]
        text = ""
        if texts is not None:
            text = "\n".join(t for t in texts[rows] if isinstance(t, str) and t.strip())
        category, confidence, why = _decide(
            _first_text(names[rows]),
            _first_text(bundles[rows]),
            [s for s in screens[rows] if isinstance(s, str)],
            text,
            min_confidence,
        )
        categories[rows] = category
        confidences[rows] = confidence
        for row in rows:  # one list per row: no shared mutable state between rows
            signals[row] = list(why)

    frame[DOMAIN_CATEGORY] = categories
    frame[DOMAIN_CONFIDENCE] = confidences
    frame[DOMAIN_SIGNALS] = pd.Series(signals, index=frame.index, dtype=object)
    return frame
