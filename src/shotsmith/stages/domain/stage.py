"""The stage: detect_domain gathers each set's evidence from its rows (in store order)
and writes the set's prediction to every row."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

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
from ...errors import DomainOptionError
from .evidence import Evidence
from .model import load_model
from .predict import predict_domain


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

    cells = _Cells.of(frame)
    positions = frame[POSITION].to_numpy(dtype=object)
    codes, _uniques = pd.factorize(frame[APP_ID], use_na_sentinel=False)
    for code in range(int(codes.max()) + 1 if n else 0):
        rows = np.flatnonzero(codes == code)
        evidence = cells.evidence(rows[_store_order(positions[rows])])
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


@dataclass(frozen=True)
class _Cells:
    """The frame's columns a set's evidence is read from, as arrays (None: not in the frame)."""

    names: np.ndarray
    bundles: np.ndarray
    screens: np.ndarray
    texts: list[np.ndarray]  # screen_text, features_text: whichever the frame has
    evidence_items: np.ndarray | None
    kinds: np.ndarray | None
    subjects: np.ndarray | None
    fields: np.ndarray | None
    headings: np.ndarray | None

    @classmethod
    def of(cls, frame: pd.DataFrame) -> _Cells:
        def cells(name: str) -> np.ndarray | None:
            return frame[name].to_numpy(dtype=object) if name in frame else None

        return cls(
            names=frame[PROJECT_NAME].to_numpy(dtype=object),
            bundles=frame[BUNDLE_ID].to_numpy(dtype=object),
            screens=frame[SCREEN].to_numpy(dtype=object),
            texts=[c for c in (cells(SCREEN_TEXT), cells(FEATURES_TEXT)) if c is not None],
            evidence_items=cells(FEATURES_EVIDENCE),
            kinds=cells(FEATURES_KIND),
            subjects=cells(FEATURES_SUBJECT),
            fields=cells(FEATURES_FIELDS),
            headings=cells(FEATURES_HEADINGS),
        )

    def evidence(self, rows: np.ndarray) -> Evidence:
        """What the set of ``rows`` (in store order) shows."""
        return Evidence(
            name=_first_text(self.names[rows]),
            bundle_id=_first_text(self.bundles[rows]),
            screens=tuple(s for s in self.screens[rows] if isinstance(s, str)),
            text="\n".join(dict.fromkeys(self.set_texts(rows))),
            readings=(tuple(self.reading(row) for row in rows) if self.kinds is not None else ()),
            screen_texts=(
                tuple(self.screen_text(row) for row in rows) if self.kinds is not None else ()
            ),
        )

    def screen_text(self, row: int) -> str:
        """The text one screen shows: what extract_features read, else the DOM's."""
        for column in reversed(self.texts):  # features_text first
            value = column[row]
            if isinstance(value, str) and value.strip():
                return value
        return ""

    def set_texts(self, rows: np.ndarray) -> list[str]:
        """A set's visible text, screen by screen in store order."""
        texts: list[str] = []
        for row in rows:
            for column in self.texts:
                value = column[row]
                if isinstance(value, str) and value.strip():
                    texts.append(value)
            if self.evidence_items is not None:
                texts += _evidence_texts(self.evidence_items[row])
        return texts

    def reading(self, row: int) -> tuple[str, str, tuple[str, ...]]:
        """One screen as the features stage read it: kind, subject, the names of its parts."""
        kind = self.kinds[row] if self.kinds is not None else ""
        subject = self.subjects[row] if self.subjects is not None else ""
        names = [
            t
            for cells in (self.fields, self.headings)
            if cells is not None and isinstance(cells[row], (list, tuple))
            for t in cells[row]
            if isinstance(t, str)
        ]
        return (
            kind if isinstance(kind, str) else "",
            subject if isinstance(subject, str) else "",
            tuple(names),
        )
