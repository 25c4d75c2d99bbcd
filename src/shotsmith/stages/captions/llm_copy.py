"""LLM copy, held to the same rules and the same grounding as the grounded writer.

The prompt carries each screen's evidence, the app's name, the user's description and
the neutral vocabulary; an answer that breaks a rule or claims a word no screen shows is
rejected (:class:`LLMRejected`) and the caller falls back.
"""

from __future__ import annotations

from collections.abc import Sequence

from ... import llm as llm_mod
from ...grounding import (
    content_words,
    grounding_problems,
    is_unspaced,
    vocabulary,
    word_forms,
    words_of,
)
from .evidence import ScreenEvidence
from .rules import headline_problems, set_problems, subtitle_problems
from .writer import SetContext, SetCopy, proper_words

# --------------------------------------------------------------------------------------
# LLM copy (held to the same grounding and rules)
# --------------------------------------------------------------------------------------


class LLMRejected(llm_mod.LLMError):
    """The LLM answered, but its copy broke a rule or claimed something not on the screens."""


def _clean_llm_line(text: object, *, headline: bool) -> str:
    if not isinstance(text, str):
        return ""
    t = " ".join(text.split()).strip().strip('"“”')
    if headline:
        t = t.rstrip(".").rstrip()
    elif t and t[-1] not in ".!?。":
        t += "."
    return t


def llm_brief(ctx: SetContext, fixed: Sequence[tuple[str | None, str | None]]) -> dict:
    """What the LLM is told: the evidence per screen, the name, the user's description,
    the neutral vocabulary it may add, and the lines the user wrote."""
    screens = []
    for i, ev in enumerate(ctx.evidence):
        entry: dict[str, object] = {"position": i + 1, "screen": ev.screen, **ev.brief()}
        head, sub = fixed[i] if i < len(fixed) else (None, None)
        if head:
            entry["user_headline"] = head
        if sub:
            entry["user_subtitle"] = sub
        screens.append(entry)
    return {
        "app_name": ctx.project,
        "bundle_id": ctx.bundle_id,
        "about": ctx.about,
        "category": ctx.domain if (ctx.confident and ctx.domain) else "unknown",
        "locale": ctx.locale,
        "screens": screens,
        "neutral_vocabulary": sorted(vocabulary().neutral_for(ctx.locale)),
    }


def _evidence_of(text: str, ev: ScreenEvidence, ctx: SetContext) -> list[str]:
    """The evidence a line rests on: for each content word, where it was seen."""
    out: list[str] = []
    sources = [
        *ev.strings(),
        ctx.project,
        ctx.about,
        *(s for e in ctx.evidence for s in e.strings()),
    ]
    for word in content_words(text, ctx.locale):
        forms = word_forms(word)
        for s in sources:
            if any(word_forms(w) & forms for w in words_of(s)) or (
                is_unspaced(word) and word.casefold() in s.casefold()
            ):
                if s not in out:
                    out.append(s)
                break
    return out


def llm_copy(
    config: llm_mod.LLMConfig,
    ctx: SetContext,
    fixed: Sequence[tuple[str | None, str | None]],
) -> SetCopy:
    """Ask the LLM for one set's copy; raise LLMError (or LLMRejected) when unusable."""
    n = len(ctx.evidence)
    answer = llm_mod.request_copy(config, llm_brief(ctx, fixed))
    screens = answer.get("screens")
    if not isinstance(screens, list) or len(screens) != n:
        got = len(screens) if isinstance(screens, list) else type(screens).__name__
        raise llm_mod.LLMError(f"expected {n} screens, got {got}")
    heads, subs = [], []
    for s in screens:
        if not isinstance(s, dict):
            raise llm_mod.LLMError("a screen entry is not an object")
        heads.append(_clean_llm_line(s.get("headline"), headline=True))
        subs.append(_clean_llm_line(s.get("subtitle"), headline=False))
    for i, (head, sub) in enumerate(fixed):
        heads[i] = head or heads[i]
        subs[i] = sub or subs[i]
    grounding = ctx.grounding()
    proper = proper_words(ctx.project)
    for i, (h, s) in enumerate(zip(heads, subs), start=1):
        user_head, user_sub = fixed[i - 1]
        for kind, text, is_user, check in (
            ("headline", h, user_head, headline_problems),
            ("subtitle", s, user_sub, subtitle_problems),
        ):
            if is_user:
                continue
            problems = check(text, proper=proper, strict=False)
            if problems:
                raise LLMRejected(f"screen {i} {kind}: {problems[0]}")
            claims = grounding_problems(text, grounding)
            if claims:
                raise LLMRejected(f"screen {i} {kind} {claims[0]}")
    tagline = heads[0] if heads else ""
    problems = set_problems(
        [h for i, h in enumerate(heads) if not fixed[i][0]] + [h for h, _ in fixed if h],
        [s for i, s in enumerate(subs) if not fixed[i][1]] + [s for _, s in fixed if s],
    )
    if problems:
        raise LLMRejected(problems[0])
    evidence = [
        {
            "headline": [] if fixed[i][0] else _evidence_of(heads[i], ctx.evidence[i], ctx),
            "subtitle": [] if fixed[i][1] else _evidence_of(subs[i], ctx.evidence[i], ctx),
        }
        for i in range(n)
    ]
    return SetCopy(tagline, heads, subs, evidence)
