"""copy: :func:`write_copy` and its parts, a tagline per set and a headline and subtitle per
screenshot, true to what the screens show.

The stage goes by one name, *copy*: its columns are ``copy_*``, its step ``write_copy``,
its command-line option ``--copy-backend``. ``"phrasebank"`` is still taken as a backend
name; it is the grounded writer (``"grounded"``) under another name.

One job per module:

==============  ==================================================================
module          job
==============  ==================================================================
``stage``       :func:`write_copy`, the stage over a frame: options, backends, sets
``backends``    the backend names ``write_copy(backend=...)`` and ``--copy-backend`` take
``rules``       what every line obeys: length, words, case, store-safe words
``evidence``    what each screen shows that a caption may name (:class:`ScreenEvidence`)
``writer``      the grounded writer: slot templates over the evidence
``critic``      what a marketer would strike out: fragments, doubled words, filler
``user``        copy the user wrote (CSV, frameit ``.strings``, ``.xcstrings``)
``llm_copy``    an LLM's answer, held to the same checks
``store_text``  the App Store subtitle, promotional text and keyword field
==============  ==================================================================

The grounding check itself, :mod:`shotsmith.grounding`, lives outside this package: the
features stage reads with its neutral vocabulary too, so it belongs to neither stage.
``llm_copy`` and ``store_text`` name their modules here; their functions of the same name
are ``llm_copy.llm_copy`` and ``store_text.store_text``.
"""

from ...grounding import allowed_words, grounding_problems
from .backends import BACKENDS, GROUNDED
from .evidence import (
    CasePolicy,
    Phrase,
    ScreenEvidence,
    Slots,
    as_text,
    build_slots,
    case_policy,
    clean_phrase,
    screen_evidence,
)
from .llm_copy import LLMRejected, llm_brief
from .rules import (
    HEADLINE_MAX_CHARS,
    HEADLINE_WORDS,
    SUBTITLE_MAX_CHARS,
    copy_problems,
    first_word,
    forbidden_words,
    headline_problems,
    set_problems,
    subtitle_problems,
)
from .stage import write_copy
from .store_text import StoreText
from .user import USER, read_user_copy, screen_key, user_lines, warn_user_lines
from .writer import SetContext, SetCopy, about_lines, grounded_copy, is_english, phrasebank

__all__ = [
    "BACKENDS",
    "GROUNDED",
    "HEADLINE_MAX_CHARS",
    "HEADLINE_WORDS",
    "SUBTITLE_MAX_CHARS",
    "USER",
    "CasePolicy",
    "LLMRejected",
    "Phrase",
    "ScreenEvidence",
    "SetContext",
    "SetCopy",
    "Slots",
    "StoreText",
    "about_lines",
    "allowed_words",
    "as_text",
    "build_slots",
    "case_policy",
    "clean_phrase",
    "copy_problems",
    "first_word",
    "forbidden_words",
    "grounded_copy",
    "grounding_problems",
    "headline_problems",
    "is_english",
    "llm_brief",
    "phrasebank",
    "read_user_copy",
    "screen_evidence",
    "screen_key",
    "set_problems",
    "subtitle_problems",
    "user_lines",
    "warn_user_lines",
    "write_copy",
]
