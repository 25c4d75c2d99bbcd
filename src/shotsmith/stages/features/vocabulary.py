"""The words extract_features reads screens with, loaded once from ``data/features.json``.

The file holds the tables (intent words per screen intent, category overrides, text cues,
navigation labels, phrases, stop words, interface words) with named fields; this module
turns them into the lookups the code uses. Edit the data file, not this module, to teach
the stage a word (CONTRIBUTING.md, "How to add a vocabulary").
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources


@dataclass(frozen=True)
class FeatureVocabulary:
    #: intent -> screen-name word or two-word phrase -> weight (2 decisive, 1 a hint)
    intents: dict[str, dict[str, int]]
    #: (word, App Store category) -> the intent that word means there
    domain_overrides: dict[tuple[str, str], str]
    #: intent -> phrases of visible text that hint at it
    text_cues: dict[str, tuple[str, ...]]
    #: tab-bar and navigation labels
    navigation: frozenset[str]
    #: intent -> noun phrase of what such a screen offers ({s}: its subject)
    phrases: dict[str, str]
    stop_words: frozenset[str]
    ui_words: frozenset[str]
    #: the names an icon font draws as a picture ("play_arrow", "album": Material Icons'
    #: ligatures), read with the label beside them in a page's text
    icon_names: frozenset[str]
    #: never evidence: {"phrases": [...anywhere in a line], "patterns": [...a whole line]}
    chrome: dict[str, tuple[str, ...]]


@lru_cache(maxsize=1)
def vocabulary() -> FeatureVocabulary:
    raw = json.loads(resources.files("shotsmith").joinpath("data/features.json").read_text("utf-8"))
    return FeatureVocabulary(
        intents={k: dict(v) for k, v in raw["intents"].items()},
        domain_overrides={(o["word"], o["category"]): o["intent"] for o in raw["domain_overrides"]},
        text_cues={k: tuple(v) for k, v in raw["text_cues"].items()},
        navigation=frozenset(raw["navigation"]),
        phrases=dict(raw["phrases"]),
        stop_words=frozenset(raw["stop_words"]),
        ui_words=frozenset(raw["ui_words"]),
        icon_names=frozenset(raw["icon_names"]),
        chrome={k: tuple(v) for k, v in raw["chrome"].items()},
    )


def intents() -> tuple[str, ...]:
    """Every intent the stage can produce ("feature" when nothing said more)."""
    return (*vocabulary().intents, "feature")
