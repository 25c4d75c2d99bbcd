"""What one set shows (:class:`Evidence`) and its sparse feature vector (:func:`featurize`):
per-field word features plus shared word and character n-gram features, each field's block
scaled on its own."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .tokens import (
    FeaturizerConfig,
    bundle_phrases,
    char_ngrams,
    featurizer_config,
    is_generic_screen,
    phrases,
)

#: The evidence fields, in the order signals name them.
FIELDS: tuple[str, ...] = ("name", "bundle", "screen", "text")


@dataclass(frozen=True)
class Evidence:
    """What one set shows: the inputs of the model."""

    name: str = ""
    bundle_id: str = ""
    screens: tuple[str, ...] = ()
    text: str = ""
    #: per screen, what extract_features read: (kind, subject, field names and headings)
    readings: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    #: per screen (aligned with ``readings``), the text it shows
    screen_texts: tuple[str, ...] = ()

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
                    for gram in char_ngrams(word, config):
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
