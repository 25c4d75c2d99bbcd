"""The fitted model: the categories it chooses among, its weights as shipped
(``data/domain_model.json.gz``, written by ``scripts/fit_domain_model.py``) and their
loading, checked against the featuriser settings they were fitted with."""

from __future__ import annotations

import base64
import gzip
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import numpy as np

from ...errors import DomainModelError
from .evidence import FeatureParams
from .tokens import FEATURES_FILE, featurizer_config

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

MODEL_FILE = "data/domain_model.json.gz"
MODEL_FORMAT = "shotsmith-domain-model/1"


@dataclass(frozen=True)
class DomainModel:
    """The fitted weights: one row per known feature, one column per category."""

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
