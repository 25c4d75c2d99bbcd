"""write_copy: a tagline per set, a headline and subtitle per screenshot — true to the app.

Store captions must describe what the app visibly does (App Store Review Guideline 2.3,
Google Play's metadata policy), so every caption here is *grounded*: each content word
comes from the set's evidence (the title, headings, actions, labels and numbers that
``extract_features`` read on the screens), the app's name or bundle id, the user's own
description (``about=``), or the small neutral vocabulary in
``shotsmith/data/copy_vocabulary.json`` (function words, generic verbs, benefit words —
no feature nouns). :func:`shotsmith.grounding.grounding_problems` rejects anything else,
whoever wrote it.

The default writer is offline and deterministic. The phrase bank
(``shotsmith/data/phrasebank.json``) gives tone and rhythm as *slot templates* over the
evidence ("{Title}, at a glance", "{Action} or {action2} in a tap."); each headline and
subtitle names what its own screen shows, framed as a benefit, and records the evidence
it rests on in ``copy_evidence``. Where the evidence is thin the caption is short and
plain; it never invents. Slide 1 carries the tagline, from the user's description or the
app's main sections. Every earlier rule still holds: 2-6 word headlines of at most 30
characters, unique across the set with varied first words, sentence case, store-safe
words (:func:`headline_problems`, :func:`subtitle_problems`, :func:`set_problems`).

Beside the captions, each set gets its App Store subtitle, promotional text and keyword
field (``copy_store_text``, :mod:`shotsmith.stages.copy.store_text`), built from the
same lines and evidence; ``shotsmith export --fastlane`` writes them for ``deliver``.

A set in another language than English is captioned from the screens' own words in that
language; a screen with no such words gets no invented English (unless the screen itself
is English): its line is left empty, ``copy_source`` and stderr say so, and the user
writes it in the copy file (a ``locale`` column, frameit ``.strings`` or an Xcode
``.xcstrings`` catalogue) or asks the LLM backend, which writes in the set's locale.

Copy a user writes always wins: a CSV of ``screen, headline, subtitle`` (``copy=``) or a
frame whose lines were edited and marked ``copy_source == "user"`` keeps them verbatim
(only warned about), and the other lines are written around them.

An optional LLM backend (any OpenAI-compatible endpoint, :mod:`shotsmith.llm`) gets the
evidence in its prompt; its answer must pass the same grounding check and every rule,
else the grounded writer takes over and ``copy_source`` and stderr say why.

The parts live beside this module in :mod:`shotsmith.stages.copy` (rules, evidence, writer,
user, llm_copy, store_text, critic); the check in :mod:`shotsmith.grounding`. This module is
the stage.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pandas as pd

from ... import llm as llm_mod
from ...columns import (
    ABOUT,
    APP_ID,
    BUNDLE_ID,
    COPY_EVIDENCE,
    COPY_HEADLINE,
    COPY_SOURCE,
    COPY_STORE_TEXT,
    COPY_SUBTITLE,
    COPY_TAGLINE,
    DOMAIN_CATEGORY,
    DOMAIN_CONFIDENT,
    FEATURES_ACTIONS,
    FEATURES_EVIDENCE,
    FEATURES_HEADINGS,
    FEATURES_INTENT,
    FEATURES_LABELS,
    FEATURES_NUMBERS,
    FEATURES_TABS,
    FEATURES_TEXT,
    FEATURES_TITLE,
    IMAGE,
    LOCALE,
    POSITION,
    PROJECT_NAME,
    SCREEN,
    SCREEN_ELEMENTS,
    SCREEN_TEXT,
    stage,
)
from ...errors import InvalidOptionError
from ...locales import DEFAULT_LOCALE
from .backends import BACKENDS, GROUNDED
from .evidence import (
    as_text,
    screen_evidence,
)
from .llm_copy import LLMRejected, llm_copy
from .store_text import store_text
from .user import (
    USER,
    user_lines,
    warn_user_lines,
)
from .writer import (
    SetContext,
    SetCopy,
    grounded_copy,
)

log = logging.getLogger("shotsmith.copy")


# --------------------------------------------------------------------------------------
# The stage
# --------------------------------------------------------------------------------------


def _confident(value: object) -> bool:
    return bool(value) if isinstance(value, (bool, int)) or hasattr(value, "item") else False


@stage(
    "write_copy",
    requires=(APP_ID, POSITION, PROJECT_NAME, DOMAIN_CATEGORY, FEATURES_INTENT),
    provides=(
        COPY_TAGLINE,
        COPY_HEADLINE,
        COPY_SUBTITLE,
        COPY_SOURCE,
        COPY_EVIDENCE,
        COPY_STORE_TEXT,
    ),
    optional=(
        LOCALE,
        SCREEN,
        BUNDLE_ID,
        ABOUT,
        DOMAIN_CONFIDENT,
        FEATURES_TEXT,
        FEATURES_TITLE,
        FEATURES_HEADINGS,
        FEATURES_TABS,
        FEATURES_ACTIONS,
        FEATURES_LABELS,
        FEATURES_NUMBERS,
        FEATURES_EVIDENCE,
        SCREEN_TEXT,
        SCREEN_ELEMENTS,
        COPY_SOURCE,
        IMAGE,
    ),
)
def write_copy(
    frame: pd.DataFrame,
    *,
    backend: str = GROUNDED,
    llm: llm_mod.LLMConfig | None = None,
    seed: int = 0,
    about: str | None = None,
    copy: str | Path | pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Tagline per set, headline + subtitle per screenshot, grounded in what the screens show.

    ``backend``: ``"grounded"`` (default, offline, deterministic; ``"phrasebank"`` is
    the same), ``"llm"`` (the ``llm`` config, else ``LLMConfig.from_env()``; falls back
    to the grounded writer when the LLM fails or its copy is rejected, and says why in
    ``copy_source`` and on stderr), ``"auto"`` (llm when configured, else grounded).
    ``about``: the user's description of the app (else the ``about`` column), which
    captions may draw on. ``copy``: the user's own captions (CSV path or frame with
    ``screen, headline, subtitle``), kept verbatim. ``seed`` picks other, equally
    grounded copy.
    """
    _check_options(backend, about)
    config = llm
    if backend in ("llm", "auto") and config is None:
        config = llm_mod.LLMConfig.from_env()
    use_llm = backend == "llm" or (backend == "auto" and config is not None)

    n = len(frame)
    user = user_lines(frame, copy)
    records = frame.to_dict("records")
    tagline_col: list[str] = [""] * n
    head_col: list[str] = [""] * n
    sub_col: list[str] = [""] * n
    source_col: list[str] = [""] * n
    evidence_col: list[dict[str, list[str]]] = [{"headline": [], "subtitle": []}] * n
    store_col: list[dict[str, object]] = [{}] * n

    groups: dict[object, list[int]] = {}
    for k, app in enumerate(frame[APP_ID].tolist()):
        groups.setdefault(app, []).append(k)
    positions = frame[POSITION].tolist()

    for app_id, members in groups.items():
        members = sorted(members, key=lambda k: (positions[k], k))
        ctx = _set_context(app_id, [records[k] for k in members], about)
        fixed = [user.get(k, (None, None)) for k in members]
        if any(h or s for h, s in fixed):
            warn_user_lines(str(app_id), [ev.screen for ev in ctx.evidence], fixed, ctx)
        result: SetCopy | None = None
        notes: list[str] = []
        source = GROUNDED
        if use_llm:
            images = [records[k].get(IMAGE) for k in members]
            result, source = _llm_copy_or_notes(config, ctx, fixed, images, notes)
        if result is None:
            result, source = _grounded_copy(ctx, seed, fixed, notes)
        store = store_text(
            project=ctx.project,
            locale=ctx.locale,
            tagline=result.tagline,
            headlines=result.headlines,
            subtitles=result.subtitles,
            evidence=ctx.evidence,
            about=ctx.about,
        ).as_dict()
        for i, k in enumerate(members):
            store_col[k] = store
            tagline_col[k] = result.tagline
            head_col[k], sub_col[k] = result.headlines[i], result.subtitles[i]
            evidence_col[k] = result.evidence[i] if i < len(result.evidence) else {}
            source_col[k] = _line_source(*fixed[i], source)

    frame[COPY_TAGLINE] = tagline_col
    frame[COPY_HEADLINE] = head_col
    frame[COPY_SUBTITLE] = sub_col
    frame[COPY_SOURCE] = source_col
    frame[COPY_EVIDENCE] = pd.Series(evidence_col, index=frame.index, dtype=object)
    frame[COPY_STORE_TEXT] = pd.Series(store_col, index=frame.index, dtype=object)
    return frame


def _check_options(backend: str, about: object) -> None:
    if backend not in BACKENDS:
        raise InvalidOptionError(
            f"write_copy: backend={backend!r} is not one of {BACKENDS}; use 'grounded', "
            "or 'llm' with SHOTSMITH_LLM_BASE_URL and SHOTSMITH_LLM_MODEL set."
        )
    if about is not None and not isinstance(about, str):
        raise InvalidOptionError(
            f"write_copy: about= must be text describing the app, got {type(about).__name__}."
        )


def _set_context(app_id: object, rows: list[dict], about: str | None) -> SetContext:
    """What the writers know of one set (``rows`` in store order)."""
    first = rows[0]
    domain = first.get(DOMAIN_CATEGORY)
    set_about = about if about is not None else as_text(first.get(ABOUT))
    return SetContext(
        app_id=str(app_id),
        project=as_text(first.get(PROJECT_NAME)),
        bundle_id=as_text(first.get(BUNDLE_ID)),
        about=" ".join(set_about.split()),
        domain=domain if isinstance(domain, str) else None,
        confident=_confident(first.get(DOMAIN_CONFIDENT)),
        locale=as_text(first.get(LOCALE)) or DEFAULT_LOCALE,
        evidence=[screen_evidence(row) for row in rows],
    )


def _llm_copy_or_notes(
    config: llm_mod.LLMConfig | None,
    ctx: SetContext,
    fixed: list[tuple[str | None, str | None]],
    images: list[object],
    notes: list[str],
) -> tuple[SetCopy | None, str]:
    """The LLM's copy and its source; None (and why, in ``notes``) when it is not used."""
    result: SetCopy | None = None
    source = GROUNDED
    if config is None:
        notes.append(
            "llm failed: not configured (set SHOTSMITH_LLM_BASE_URL and SHOTSMITH_LLM_MODEL)"
        )
    else:
        try:
            result = llm_copy(config, ctx, fixed, images=images)
            source = f"llm:{config.model}"
        except LLMRejected as exc:
            notes.append(f"llm rejected: {exc.short}")
        except llm_mod.LLMError as exc:
            notes.append(f"llm failed: {exc.short}")
    if notes:
        log.warning(
            "write_copy: %s: the LLM's copy was not used (%s); grounded copy written instead.",
            ctx.app_id,
            notes[0],
            extra={"llm_unused": True},
        )
    return result, source


def _grounded_copy(
    ctx: SetContext, seed: int, fixed: list[tuple[str | None, str | None]], notes: list[str]
) -> tuple[SetCopy, str]:
    """The grounded writer's copy and its source (with the notes on why and what is left)."""
    result = grounded_copy(ctx, seed=seed, fixed=fixed)
    if not ctx.english:
        notes.append(f"the screens' own words; locale {ctx.locale}")
    if result.missing:
        screens = [ctx.evidence[i].screen for i, _ in result.missing]
        notes.append(f"{len(result.missing)} line(s) left to you")
        log.warning(
            "write_copy: %s: no %s line rests on what these screens show: %s; "
            "those lines are left empty rather than filled with words that would "
            "fit any app or another language. Write them in --copy (a CSV row per "
            "screen with locale %s), describe the app with --about, or use "
            "--copy-backend llm.",
            ctx.app_id,
            ctx.locale,
            ", ".join(dict.fromkeys(map(str, screens))),
            ctx.locale,
        )
    return result, f"{GROUNDED} ({'; '.join(notes)})" if notes else GROUNDED


def _line_source(head: str | None, sub: str | None, source: str) -> str:
    if head and sub:
        return USER
    if head:
        return "user (headline)"
    if sub:
        return "user (subtitle)"
    return source
