"""extract_features and its parts: evidence by role (:mod:`.evidence`), screen intent and
keywords (:mod:`.intent`), the words both read with (:mod:`.vocabulary`, from
``data/features.json``) and the stage itself (:mod:`.stage`)."""

from .intent import keywords_of, screen_intent, screen_phrase, screen_subject, singular
from .stage import extract_features
from .vocabulary import intents

INTENTS: tuple[str, ...] = intents()

__all__ = [
    "INTENTS",
    "extract_features",
    "keywords_of",
    "screen_intent",
    "screen_phrase",
    "screen_subject",
    "singular",
]
