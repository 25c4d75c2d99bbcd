"""One set's category: the model's probabilities, raised by what the screens show, the
signals that decided, and the fallback when nothing is known or the set is below
``min_confidence``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .evidence import FIELDS, Evidence, Origins, featurize
from .model import FALLBACK_CATEGORY, DomainModel, load_model
from .screens import screen_lexicon, screen_scores, screen_surfaces

SOURCE_LABEL = {
    "name": "name token",
    "bundle": "bundle id token",
    "screen": "screen",
    "text": "screen text",
}
MAX_SIGNALS = 6


@dataclass(frozen=True)
class DomainPrediction:
    """One set's category, how sure, the runner-up and the signals that decided."""

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


def _with_screens(
    probs: np.ndarray, classes: Sequence[str], screen: dict, surfaces: list
) -> np.ndarray:
    """The listing model's probabilities raised by what the screens are: the words that
    name a category's screens and the surfaces (a config editor, devices) they show."""
    if not screen and not surfaces:
        return probs
    lex = screen_lexicon()
    boost = np.array(
        [
            screen.get(c, (0.0, []))[0] * lex.scale
            + sum(s.says(c) for s in surfaces) * lex.surface_scale
            for c in classes
        ]
    )
    raised = np.log(np.clip(probs, 1e-12, 1.0)) + boost
    raised = np.exp(raised - raised.max())
    return raised / raised.sum()


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
    screen = screen_scores(evidence) if evidence.readings else {}
    surfaces = screen_surfaces(evidence) if evidence.readings else []
    probs = _with_screens(model.probabilities(logits), model.classes, screen, surfaces)
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
    for shown in sorted(surfaces, key=lambda s: s.says(category)):
        if shown.says(category) > 0:
            points = shown.says(category) * screen_lexicon().surface_scale
            evidence_lines.insert(0, f"{shown.describe()} → {category} (+{points:.2f})")
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
