"""LLM copy, held to the same rules, the same critic and the same grounding as the
grounded writer.

The prompt carries each screen's reading (kind, subject, examples, fields) and evidence,
the app's name, the user's description and the neutral vocabulary; with a vision model
(``LLMConfig(vision=True)``) each screen's screenshot goes with its reading. Every line
of the answer but the user's own is then read like the offline writer's: the copy rules
(:mod:`.rules`), the critic (:func:`.critic.line_problems`: fragments, doubled words,
dangling punctuation, data, filler, token lists) and the grounding check. The first
problem rejects the whole answer (:class:`LLMRejected`, its reason in ``copy_source``)
and the caller falls back to the grounded writer.
"""

from __future__ import annotations

from collections.abc import Sequence

from ... import llm as llm_mod
from ...errors import LLMRejected
from ...grounding import (
    Grounding,
    content_words,
    grounding_problems,
    is_unspaced,
    vocabulary,
    word_forms,
    words_of,
)
from ...locales import language_of
from .critic import line_problems
from .evidence import ScreenEvidence
from .rules import headline_problems, set_problems, subtitle_problems
from .writer import SetContext, SetCopy, proper_words

# --------------------------------------------------------------------------------------
# LLM copy (held to the same grounding and rules)
# --------------------------------------------------------------------------------------


def unspaced_grounded(token: str, allowed: Grounding, locale: str) -> bool:
    """A run of Chinese/Japanese text with no spaces is grounded when it can be cut into
    pieces that are each evidence (two characters or more, seen on the screens) or a
    function word of the language ("家計簿|の|食費"); a single character seen somewhere is
    not enough, so no new word is assembled from stray kanji."""
    lang = language_of(locale)
    small = vocabulary().by_language.get(lang, frozenset())
    text = allowed.unspaced_text
    n = len(token)
    reach = [True] + [False] * n
    for i in range(n):
        if not reach[i]:
            continue
        for j in range(i + 1, n + 1):
            piece = token[i:j]
            if piece in small or (j - i >= 2 and piece.casefold() in text):
                reach[j] = True
    return reach[n]


def _claims(text: str, allowed: Grounding, locale: str) -> list[str]:
    out = []
    for problem in grounding_problems(text, allowed):
        word = problem.split("'")[1] if problem.count("'") >= 2 else ""
        if word and is_unspaced(word) and unspaced_grounded(word.strip("。．、"), allowed, locale):
            continue
        out.append(problem)
    return out


def _clean_llm_line(text: object, *, headline: bool) -> str:
    if not isinstance(text, str):
        return ""
    t = " ".join(text.split()).strip().strip('"“”')
    if headline:
        t = t.rstrip(".。．").rstrip()
    elif t and t[-1] not in ".!?。．！？।۔؟":
        t += "。" if any("\u3040" <= c <= "\u9fff" for c in t) else "."
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


def screen_words(ctx: SetContext) -> set[str]:
    """The words the set shows (folded), which tell the critic a cut-off word ("pric")
    from a whole one: the same the offline writer gives it."""
    texts = [ctx.project, ctx.bundle_id, ctx.about]
    for ev in ctx.evidence:
        texts += ev.strings()
        if ev.subject_from == "screen name":
            texts.append(ev.subject)
    return {w.casefold() for t in texts if t for w in words_of(t)}


def llm_copy(
    config: llm_mod.LLMConfig,
    ctx: SetContext,
    fixed: Sequence[tuple[str | None, str | None]],
    images: Sequence[object] | None = None,
) -> SetCopy:
    """Ask the LLM for one set's copy; raise LLMError (or LLMRejected) when unusable.

    ``images``: the set's screenshots in screen order (the frame's ``image`` values:
    paths or PNG bytes); sent only when ``config.vision`` is on.
    """
    n = len(ctx.evidence)
    answer = llm_mod.request_copy(config, llm_brief(ctx, fixed), images=images)
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
    words = screen_words(ctx)
    for i, (h, s) in enumerate(zip(heads, subs), start=1):
        user_head, user_sub = fixed[i - 1]
        for kind, text, is_user, check in (
            ("headline", h, user_head, headline_problems),
            ("subtitle", s, user_sub, subtitle_problems),
        ):
            if is_user:  # the user's own line is kept as written, never criticised
                continue
            problems = check(text, proper=proper, strict=False)
            if problems:
                raise LLMRejected(f"screen {i} {kind}: {problems[0]}")
            if ctx.english:  # the critic reads English (its dictionary is)
                critique = line_problems(text, kind=kind, screen_words=words, project=ctx.project)
                if critique:
                    shown = text if len(text) <= 40 else text[:39] + "…"
                    raise LLMRejected(f"screen {i} {kind} {shown!r}: {critique[0]}")
            claims = _claims(text, grounding, ctx.locale)
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
