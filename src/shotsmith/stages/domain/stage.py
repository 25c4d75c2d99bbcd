"""detect_domain: the App Store category of each set, from weights learned on real apps.

Why a fitted model and not hand-written rules: word lists tuned by hand score well on the
lists they were written alongside and badly on apps nobody looked at (a music streamer filed
under Books, a party game under Productivity). The weights here are fitted offline by
``scripts/fit_domain_model.py`` -- a regularised multinomial logistic regression -- on
labelled lists of real, well-known App Store apps (``tests/data/domain_apps.csv`` and
``domain_apps_2.csv``) whose test halves were frozen before any model saw them, and shipped
as package data (``data/domain_model.json.gz``, with its provenance: lists, rows,
hyper-parameters, cross-validated and held-out accuracy).

Evidence, per set, each field featurised on its own:

* ``project_name`` -- words (CamelCase split, joined form kept: "PocketBudget" gives
  pocket, budget, pocketbudget) and character n-grams, so an unseen compound
  ("Forecastly") still meets the words it is made of;
* ``bundle_id`` -- its reverse-domain parts minus boilerplate (com, app, ios...);
* ``screen`` names, except those that say nothing about the app (home, search, profile,
  settings...: ``generic_screens`` in the settings), so a folder of screenshots named by
  their place in the app is judged by its name and text;
* visible text -- ``screen_text`` (DOM text), ``features_text`` (what extract_features read,
  DOM or OCR) and the texts of ``features_evidence``. It is the strongest evidence.

Words become per-field features (``name:spotify``, ``text:playlist``, ``screen:now
playing``) plus shared ones (``word:…``, ``char:…``); character n-grams work for every
script (Han, kana and Hangul runs get 1-3 character grams). Each field's block is
normalised on its own, so a long wall of OCR text weighs as much as, not more than, a name.
The settings live in ``data/domain_features.json``.

Outputs, set-level: the best category, a calibrated probability (temperature fitted on
cross-validated predictions of the training half), the runner-up, the features that moved
the decision most (``name token 'spotify' → Music (+1.20)``), and ``domain_confident``: whether the
probability clears the threshold chosen by cross-validation on the training half. Below it,
later stages keep copy and palette neutral rather than be confidently wrong. A set with no
usable evidence is filed under :data:`FALLBACK_CATEGORY`. Offline and deterministic.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import math
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

import numpy as np
import pandas as pd

from ...columns import (
    APP_ID,
    BUNDLE_ID,
    DOMAIN_CATEGORY,
    DOMAIN_CONFIDENCE,
    DOMAIN_CONFIDENT,
    DOMAIN_RUNNER_UP,
    DOMAIN_SIGNALS,
    FEATURES_EVIDENCE,
    FEATURES_FIELDS,
    FEATURES_HEADINGS,
    FEATURES_KIND,
    FEATURES_SUBJECT,
    FEATURES_TEXT,
    POSITION,
    PROJECT_NAME,
    SCREEN,
    SCREEN_TEXT,
    stage,
)
from ...errors import ShotsmithError
from ..features.intent import singular

__all__ = [
    "CATEGORIES",
    "FALLBACK_CATEGORY",
    "DomainPrediction",
    "detect_domain",
    "predict_domain",
    "score_domains",
]

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
#: What a set with no usable evidence at all (or below ``min_confidence``) is filed under.
FALLBACK_CATEGORY = "Utilities"

#: The evidence fields, in the order signals name them.
FIELDS: tuple[str, ...] = ("name", "bundle", "screen", "text")
SOURCE_LABEL = {
    "name": "name token",
    "bundle": "bundle id token",
    "screen": "screen",
    "text": "screen text",
}
MAX_SIGNALS = 6

FEATURES_FILE = "data/domain_features.json"
MODEL_FILE = "data/domain_model.json.gz"
MODEL_FORMAT = "shotsmith-domain-model/1"

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


class DomainOptionError(ShotsmithError, ValueError):
    """An option of detect_domain is out of range."""


class DomainModelError(ShotsmithError, RuntimeError):
    """The shipped domain model is missing, damaged or does not match its featuriser."""


# --- featuriser settings ------------------------------------------------------------------


@dataclass(frozen=True)
class FeaturizerConfig:
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
        generic_screen_words=frozenset(_fold(w) for w in raw["generic_screens"]["words"]),
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
    return any(lo <= code <= hi for lo, hi in _UNSPACED_RANGES)


def _fold(word: str) -> str:
    """Case-fold; drop accents from Latin, Greek and Cyrillic letters only (kana voicing
    marks and Indic vowel signs are part of the letter, not decoration)."""
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
        folded = [_fold(p) for p in parts if p and not p.isdigit()]
        phrase.extend(f for f in folded if f)
        if len(parts) > 1:
            phrase.append(_fold(raw))

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


def _char_ngrams(word: str, config: FeaturizerConfig) -> list[str]:
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


# --- features -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Evidence:
    """What one set shows: the inputs of the model."""

    name: str = ""
    bundle_id: str = ""
    screens: tuple[str, ...] = ()
    text: str = ""
    #: per screen, what extract_features read: (kind, subject, field names and headings)
    readings: tuple[tuple[str, str, tuple[str, ...]], ...] = ()

    def field_phrases(self, config: FeaturizerConfig) -> dict[str, list[list[str]]]:
        screen_phrases: list[list[str]] = []
        for screen in self.screens:
            found = phrases(screen, config)
            if not is_generic_screen(found, config):
                screen_phrases += found
        return {
            "name": phrases(self.name, config),
            "bundle": bundle_phrases(self.bundle_id, config),
            "screen": screen_phrases,
            "text": phrases(self.text[: config.max_text_chars], config),
        }


@dataclass(frozen=True)
class FeatureParams:
    """Fitted featuriser hyper-parameters (recorded in the model file)."""

    char_weight: float = 1.0
    field_weights: dict[str, float] = field(default_factory=lambda: dict.fromkeys(FIELDS, 1.0))


Origins = dict[str, list[tuple[str, str]]]  # feature -> [(field, word or phrase), ...]


def featurize(
    evidence: Evidence,
    params: FeatureParams,
    config: FeaturizerConfig | None = None,
    *,
    with_origins: bool = False,
) -> tuple[dict[str, float], Origins]:
    """The sparse feature vector of one set, and (optionally) where each feature came from.

    Per field, two blocks -- words (field unigrams and bigrams plus shared unigrams) and
    shared character n-grams -- each scaled to unit length times its weight, so that every
    field counts as much whether it has three words or three hundred.
    """
    config = config or featurizer_config()
    vector: dict[str, float] = {}
    origins: Origins = {}
    for source, source_phrases in evidence.field_phrases(config).items():
        weight = params.field_weights.get(source, 1.0)
        if not source_phrases or weight <= 0:
            continue
        word_feats: dict[str, str] = {}  # feature -> origin word/phrase
        char_feats: dict[str, list[str]] = {}
        for phrase in source_phrases:
            for i, word in enumerate(phrase):
                word_feats.setdefault(f"{source}:{word}", word)
                word_feats.setdefault(f"word:{word}", word)
                if i:
                    pair = f"{phrase[i - 1]} {word}"
                    word_feats.setdefault(f"{source}:{pair}", pair)
                if len(word) == 1 and word in config.symbols:
                    continue
                if params.char_weight > 0:
                    for gram in _char_ngrams(word, config):
                        holders = char_feats.setdefault(f"char:{gram}", [])
                        if word not in holders:
                            holders.append(word)
        blocks: list[tuple[dict, float]] = [(word_feats, weight)]
        if char_feats:
            blocks.append((char_feats, weight * params.char_weight))
        for feats, block_weight in blocks:
            value = block_weight / math.sqrt(len(feats))
            for feat, origin in feats.items():
                vector[feat] = vector.get(feat, 0.0) + value
                if with_origins:
                    words = origin if isinstance(origin, list) else [origin]
                    origins.setdefault(feat, []).extend((source, w) for w in words)
    return vector, origins


# --- the model ------------------------------------------------------------------------------


@dataclass(frozen=True)
class DomainModel:
    classes: tuple[str, ...]
    index: dict[str, int]  # feature -> row of ``weights``
    weights: np.ndarray  # (n_features, n_classes) float64
    bias: np.ndarray  # (n_classes,)
    temperature: float
    threshold: float  # calibrated probability at or above which a set is "confident"
    params: FeatureParams
    provenance: dict

    def logits(self, vector: dict[str, float]) -> tuple[np.ndarray, list[str], np.ndarray]:
        """Raw class scores of a feature vector; also the known features and their values."""
        known = sorted(f for f in vector if f in self.index)
        if not known:
            return self.bias.copy(), [], np.zeros(0)
        values = np.array([vector[f] for f in known])
        rows = np.array([self.index[f] for f in known])
        return self.bias + values @ self.weights[rows], known, values

    def probabilities(self, logits: np.ndarray) -> np.ndarray:
        z = logits / self.temperature
        z = np.exp(z - z.max())
        return z / z.sum()


def build_model(raw: dict) -> DomainModel:
    """A :class:`DomainModel` from its JSON form (as written by scripts/fit_domain_model.py)."""
    if raw.get("format") != MODEL_FORMAT:
        raise DomainModelError(
            f"detect_domain: the domain model has format {raw.get('format')!r}, expected "
            f"{MODEL_FORMAT!r}. Refit it with `python scripts/fit_domain_model.py`."
        )
    classes = tuple(raw["classes"])
    if set(classes) != set(CATEGORIES):
        raise DomainModelError(
            f"detect_domain: the domain model's classes {sorted(classes)} are not the App "
            f"Store categories; refit it with `python scripts/fit_domain_model.py`."
        )
    features = list(raw["features"])
    scale = float(raw["weight_scale"])
    weights = np.zeros((len(features), len(classes)))
    packed = raw["weights"]
    counts = np.frombuffer(base64.b64decode(packed["counts"]), dtype="u1")
    rows = np.repeat(np.arange(len(counts)), counts)
    cols = np.frombuffer(base64.b64decode(packed["cols"]), dtype="u1")
    values = np.frombuffer(base64.b64decode(packed["values"]), dtype="<i2")
    if len(counts) != len(features) or not (
        len(rows) == len(cols) == len(values) == int(packed["count"])
    ):
        raise DomainModelError(
            "detect_domain: the domain model's weights are damaged; reinstall shotsmith or "
            "refit it with `python scripts/fit_domain_model.py`."
        )
    weights[rows, cols] = values.astype(np.float64) / scale
    fitted = raw["featurizer"]["params"]
    params = FeatureParams(
        char_weight=float(fitted["char_weight"]),
        field_weights={k: float(v) for k, v in fitted["field_weights"].items()},
    )
    return DomainModel(
        classes=classes,
        index={f: i for i, f in enumerate(features)},
        weights=weights,
        bias=np.asarray(raw["bias"], dtype=np.float64),
        temperature=float(raw["temperature"]),
        threshold=float(raw["threshold"]),
        params=params,
        provenance=dict(raw.get("provenance", {})),
    )


@lru_cache(maxsize=1)
def load_model() -> DomainModel:
    """The shipped model (``data/domain_model.json.gz``), loaded once."""
    try:
        packed = resources.files("shotsmith").joinpath(MODEL_FILE).read_bytes()
        raw = json.loads(gzip.decompress(packed).decode("utf-8"))
    except (OSError, ValueError, EOFError) as exc:
        raise DomainModelError(
            f"detect_domain: cannot read the domain model shotsmith/{MODEL_FILE} ({exc}). "
            "Reinstall shotsmith, or refit it with `python scripts/fit_domain_model.py`."
        ) from exc
    model = build_model(raw)
    fitted_with = raw["featurizer"].get("config_sha256")
    if fitted_with != featurizer_config().digest:
        raise DomainModelError(
            f"detect_domain: shotsmith/{FEATURES_FILE} changed since the domain model was "
            "fitted; refit it with `python scripts/fit_domain_model.py`."
        )
    return model


# --- what the screens are ---------------------------------------------------------------------

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


# --- prediction -----------------------------------------------------------------------------


@dataclass(frozen=True)
class DomainPrediction:
    category: str
    confidence: float  # calibrated probability of ``category``
    runner_up: str
    runner_up_confidence: float
    confident: bool
    signals: tuple[str, ...]
    ranking: tuple[tuple[str, float], ...]  # every category with its probability, best first


def _describe(
    model: DomainModel,
    known: list[str],
    values: np.ndarray,
    origins: Origins,
    best: int,
    second: int,
) -> list[str]:
    """The evidence that moved the decision most: contributions to best minus runner-up,
    summed per (field, word); character n-grams count for the words they came from."""
    if not known:
        return []
    rows = np.array([model.index[f] for f in known])
    margin = values * (model.weights[rows, best] - model.weights[rows, second])
    per_word: dict[tuple[str, str], float] = {}
    for feat, share in zip(known, margin):
        holders = origins.get(feat, [])
        for holder in holders:
            per_word[holder] = per_word.get(holder, 0.0) + share / len(holders)
    order = {source: i for i, source in enumerate(FIELDS)}
    ranked = sorted(
        ((k, v) for k, v in per_word.items() if v > 0.005),
        key=lambda kv: (-round(kv[1], 6), order[kv[0][0]], kv[0][1]),
    )
    category = model.classes[best]
    return [
        f"{SOURCE_LABEL[source]} '{word}' → {category} (+{points:.2f})"
        for (source, word), points in ranked
    ]


def predict_domain(
    evidence: Evidence,
    *,
    min_confidence: float = 0.0,
    threshold: float | None = None,
) -> DomainPrediction:
    """Classify one set's evidence. See :func:`detect_domain` for the options."""
    model = load_model()
    cut = model.threshold if threshold is None else threshold
    vector, origins = featurize(evidence, model.params, with_origins=True)
    logits, known, values = model.logits(vector)
    if not known:
        return DomainPrediction(
            category=FALLBACK_CATEGORY,
            confidence=0.0,
            runner_up="",
            runner_up_confidence=0.0,
            confident=False,
            signals=(
                "no evidence the model knows in name, bundle id, screens or text "
                f"→ {FALLBACK_CATEGORY} (fallback)",
            ),
            ranking=tuple((c, 0.0) for c in model.classes),
        )
    probs = model.probabilities(logits)
    screen = screen_scores(evidence) if evidence.readings else {}
    if screen:  # what the screens are, beside what the listing words say
        scale = screen_lexicon().scale
        boost = np.array([screen.get(c, (0.0, []))[0] for c in model.classes]) * scale
        raised = np.log(np.clip(probs, 1e-12, 1.0)) + boost
        raised = np.exp(raised - raised.max())
        probs = raised / raised.sum()
    order = sorted(range(len(probs)), key=lambda i: (-round(float(probs[i]), 12), i))
    best, second = order[0], order[1]
    confidence = round(float(probs[best]), 4)
    runner_confidence = round(float(probs[second]), 4)
    ranking = tuple((model.classes[i], round(float(probs[i]), 4)) for i in order)
    evidence_lines = _describe(model, known, values, origins, best, second)
    category, runner_up = model.classes[best], model.classes[second]
    if category in screen:
        said = ", ".join(f"'{word}'" for word in screen[category][1][:4])
        evidence_lines.insert(0, f"screens show {said} → {category} (+{screen[category][0]:.2f})")
    tail = f"runner-up {runner_up} {runner_confidence:.0%} vs {category} {confidence:.0%}"
    if confidence < min_confidence:
        head = (
            f"confidence {confidence:.2f} below min_confidence {min_confidence:.2f}: "
            f"{category} not trusted → {FALLBACK_CATEGORY} (fallback)"
        )
        return DomainPrediction(
            category=FALLBACK_CATEGORY,
            confidence=confidence,
            runner_up=category,
            runner_up_confidence=confidence,
            confident=False,
            signals=(head, *evidence_lines[: MAX_SIGNALS - 2], tail),
            ranking=ranking,
        )
    confident = confidence >= cut
    lines = evidence_lines[: MAX_SIGNALS - (1 if confident else 2)]
    if not confident:
        tail = f"{tail}; below the confidence threshold {cut:.2f}: copy and palette stay neutral"
    return DomainPrediction(
        category=category,
        confidence=confidence,
        runner_up=runner_up,
        runner_up_confidence=runner_confidence,
        confident=confident,
        signals=(*lines, tail),
        ranking=ranking,
    )


def score_domains(
    project_name: str | None,
    bundle_id: str | None,
    screens: Sequence[str] | str | None,
    text: str = "",
) -> list[tuple[str, float]]:
    """Every App Store category with its probability for one app, best first.

    ``screens`` is a list of screen names or one ``;``-separated string.
    """
    if isinstance(screens, str):
        screens = screens.split(";")
    evidence = Evidence(
        name=project_name if isinstance(project_name, str) else "",
        bundle_id=bundle_id if isinstance(bundle_id, str) else "",
        screens=tuple(s for s in (screens or ()) if isinstance(s, str)),
        text=text if isinstance(text, str) else "",
    )
    return list(predict_domain(evidence).ranking)


# --- the stage ------------------------------------------------------------------------------


def _first_text(values: Iterable[object]) -> str:
    for value in values:
        if isinstance(value, str) and value.strip():
            return value
    return ""


def _evidence_texts(value: object) -> list[str]:
    """Texts of a ``features_evidence`` cell: a list of {"role", "text", "source"}."""
    if not isinstance(value, (list, tuple)):
        return []
    return [
        item["text"]
        for item in value
        if isinstance(item, dict) and isinstance(item.get("text"), str) and item["text"].strip()
    ]


def _store_order(positions: np.ndarray) -> np.ndarray:
    try:
        return np.asarray(pd.Series(positions).sort_values(kind="stable").index)
    except TypeError:  # mixed, unorderable positions: keep the frame's order
        return np.arange(len(positions))


def _check_fraction(name: str, value: object, allow_none: bool = False) -> float | None:
    if value is None and allow_none:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not 0.0 <= float(value) <= 1.0
    ):
        raise DomainOptionError(
            f"detect_domain: {name} must be a number from 0 to 1"
            f"{' (or None for the fitted default)' if allow_none else ''}, got {value!r}."
        )
    return float(value)


@stage(
    "detect_domain",
    requires=(APP_ID, POSITION, PROJECT_NAME, BUNDLE_ID, SCREEN),
    provides=(
        DOMAIN_CATEGORY,
        DOMAIN_CONFIDENCE,
        DOMAIN_SIGNALS,
        DOMAIN_RUNNER_UP,
        DOMAIN_CONFIDENT,
    ),
    optional=(
        SCREEN_TEXT,
        FEATURES_TEXT,
        FEATURES_EVIDENCE,
        FEATURES_KIND,
        FEATURES_SUBJECT,
        FEATURES_FIELDS,
        FEATURES_HEADINGS,
    ),
)
def detect_domain(
    frame: pd.DataFrame,
    *,
    min_confidence: float = 0.0,
    threshold: float | None = None,
) -> pd.DataFrame:
    """Detect each set's App Store category from its name, bundle id, screens and text.

    Adds, on every row of a set: ``domain_category`` (one of :data:`CATEGORIES`),
    ``domain_confidence`` (its calibrated probability, 0..1), ``domain_signals`` (the
    evidence that decided it, strongest first, then the runner-up), ``domain_runner_up``
    and ``domain_confident`` (the probability is at least ``threshold``; None uses the
    threshold chosen by cross-validation when the model was fitted). Visible text is read
    from ``screen_text`` and, when extract_features ran first, ``features_text`` and
    ``features_evidence``.

    ``min_confidence`` (default 0: off) files a set whose probability is below it under
    "Utilities", with the model's choice as runner-up; prefer ``domain_confident``, which
    keeps the best guess and lets later stages stay neutral.
    """
    min_confidence = _check_fraction("min_confidence", min_confidence) or 0.0
    threshold = _check_fraction("threshold", threshold, allow_none=True)
    load_model()  # a damaged install fails here, before any work

    n = len(frame)
    categories = np.empty(n, dtype=object)
    confidences = np.zeros(n, dtype=float)
    runners = np.empty(n, dtype=object)
    confident = np.zeros(n, dtype=bool)
    signals = np.empty(n, dtype=object)

    names = frame[PROJECT_NAME].to_numpy(dtype=object)
    bundles = frame[BUNDLE_ID].to_numpy(dtype=object)
    screens = frame[SCREEN].to_numpy(dtype=object)
    positions = frame[POSITION].to_numpy(dtype=object)
    text_columns = [
        frame[c].to_numpy(dtype=object) for c in (SCREEN_TEXT, FEATURES_TEXT) if c in frame
    ]
    evidence_column = (
        frame[FEATURES_EVIDENCE].to_numpy(dtype=object) if FEATURES_EVIDENCE in frame else None
    )

    def cells(name: str) -> np.ndarray | None:
        return frame[name].to_numpy(dtype=object) if name in frame else None

    kinds, subjects = cells(FEATURES_KIND), cells(FEATURES_SUBJECT)
    fields, headings = cells(FEATURES_FIELDS), cells(FEATURES_HEADINGS)

    codes, _uniques = pd.factorize(frame[APP_ID], use_na_sentinel=False)
    for code in range(int(codes.max()) + 1 if n else 0):
        rows = np.flatnonzero(codes == code)
        rows = rows[_store_order(positions[rows])]
        texts = _set_texts(rows, text_columns, evidence_column)
        evidence = Evidence(
            name=_first_text(names[rows]),
            bundle_id=_first_text(bundles[rows]),
            screens=tuple(s for s in screens[rows] if isinstance(s, str)),
            text="\n".join(dict.fromkeys(texts)),
            readings=(
                tuple(_reading(row, kinds, subjects, fields, headings) for row in rows)
                if kinds is not None
                else ()
            ),
        )
        prediction = predict_domain(evidence, min_confidence=min_confidence, threshold=threshold)
        categories[rows] = prediction.category
        confidences[rows] = prediction.confidence
        runners[rows] = prediction.runner_up
        confident[rows] = prediction.confident
        for row in rows:  # one list per row: no shared mutable state between rows
            signals[row] = list(prediction.signals)

    frame[DOMAIN_CATEGORY] = categories
    frame[DOMAIN_CONFIDENCE] = confidences
    frame[DOMAIN_SIGNALS] = pd.Series(signals, index=frame.index, dtype=object)
    frame[DOMAIN_RUNNER_UP] = runners
    frame[DOMAIN_CONFIDENT] = confident
    return frame


def _set_texts(
    rows: np.ndarray, text_columns: list[np.ndarray], evidence_column: np.ndarray | None
) -> list[str]:
    """A set's visible text, screen by screen in store order."""
    texts: list[str] = []
    for row in rows:
        for column in text_columns:
            value = column[row]
            if isinstance(value, str) and value.strip():
                texts.append(value)
        if evidence_column is not None:
            texts += _evidence_texts(evidence_column[row])
    return texts


def _reading(
    row: int,
    kinds: np.ndarray | None,
    subjects: np.ndarray | None,
    fields: np.ndarray | None,
    headings: np.ndarray | None,
) -> tuple[str, str, tuple[str, ...]]:
    """One screen as the features stage read it: kind, subject, the names of its parts."""
    kind = kinds[row] if kinds is not None else ""
    subject = subjects[row] if subjects is not None else ""
    names = [
        t
        for cells in (fields, headings)
        if cells is not None and isinstance(cells[row], (list, tuple))
        for t in cells[row]
        if isinstance(t, str)
    ]
    return (
        kind if isinstance(kind, str) else "",
        subject if isinstance(subject, str) else "",
        tuple(names),
    )
