"""Optional LLM backend: any OpenAI-compatible ``POST {base_url}/chat/completions``.

Nothing here is required: shotsmith's default writers are offline. Configure with
keyword arguments (:class:`LLMConfig`) or, at the edges (CLI, server), from the
environment with :meth:`LLMConfig.from_env`::

    SHOTSMITH_LLM_BASE_URL=http://localhost:11434/v1   # Ollama, vLLM, llama.cpp, OpenAI...
    SHOTSMITH_LLM_MODEL=llama3.1
    SHOTSMITH_LLM_API_KEY=...                          # optional
    SHOTSMITH_LLM_TIMEOUT=30                           # optional, seconds

Every failure (network, timeout, HTTP status, not JSON, wrong shape) is raised as
:class:`LLMError` with a short reason, so callers can fall back and say why.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from .errors import InvalidOptionError, ShotsmithError

ENV_BASE_URL = "SHOTSMITH_LLM_BASE_URL"
ENV_MODEL = "SHOTSMITH_LLM_MODEL"
ENV_API_KEY = "SHOTSMITH_LLM_API_KEY"
ENV_TIMEOUT = "SHOTSMITH_LLM_TIMEOUT"
DEFAULT_TIMEOUT = 30.0


class LLMError(ShotsmithError):
    """The LLM could not be used; ``short`` is a one-line reason for a status column."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.short = " ".join(str(reason).split())[:120]


@dataclass(frozen=True)
class LLMConfig:
    base_url: str  # e.g. "https://api.openai.com/v1" or "http://localhost:11434/v1"
    model: str
    api_key: str | None = None
    timeout: float = DEFAULT_TIMEOUT  # seconds for the whole request

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> LLMConfig | None:
        """The config from ``SHOTSMITH_LLM_*`` variables, or None when not configured."""
        env = os.environ if environ is None else environ
        base_url = (env.get(ENV_BASE_URL) or "").strip()
        model = (env.get(ENV_MODEL) or "").strip()
        if not base_url or not model:
            return None
        try:
            timeout = float(env.get(ENV_TIMEOUT) or DEFAULT_TIMEOUT)
        except ValueError:
            raise InvalidOptionError(
                f"{ENV_TIMEOUT}={env.get(ENV_TIMEOUT)!r} is not a number of seconds."
            ) from None
        return cls(
            base_url=base_url, model=model, api_key=(env.get(ENV_API_KEY) or None), timeout=timeout
        )

    @property
    def endpoint(self) -> str:
        return self.base_url.rstrip("/") + "/chat/completions"

    def __repr__(self) -> str:  # never print the key
        key = "set" if self.api_key else None
        return (
            f"LLMConfig(base_url={self.base_url!r}, model={self.model!r}, api_key={key!r}, "
            f"timeout={self.timeout})"
        )


def chat(
    config: LLMConfig,
    messages: list[dict[str, str]],
    *,
    json_mode: bool = True,
    temperature: float = 0.3,
    client: httpx.Client | None = None,
) -> str:
    """One chat completion; the assistant message's text."""
    body: dict[str, Any] = {"model": config.model, "messages": messages, "temperature": temperature}
    if json_mode:
        body["response_format"] = {"type": "json_object"}
    headers = {"Content-Type": "application/json"}
    if config.api_key:
        headers["Authorization"] = f"Bearer {config.api_key}"
    timeout = httpx.Timeout(config.timeout, connect=min(config.timeout, 5.0))
    try:
        if client is None:
            with httpx.Client(timeout=timeout) as own:
                resp = own.post(config.endpoint, json=body, headers=headers)
        else:
            resp = client.post(config.endpoint, json=body, headers=headers, timeout=timeout)
    except httpx.TimeoutException:
        raise LLMError(f"timeout after {config.timeout:g} s") from None
    except httpx.ConnectError as exc:
        raise LLMError(f"cannot connect to {config.base_url} ({_short(exc)})") from None
    except httpx.HTTPError as exc:
        raise LLMError(f"request failed ({type(exc).__name__}: {_short(exc)})") from None
    if resp.status_code != 200:
        detail = _short(resp.text) if resp.text else resp.reason_phrase
        raise LLMError(f"HTTP {resp.status_code} from {config.endpoint}: {detail}")
    try:
        payload = resp.json()
        content = payload["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise LLMError("response is not an OpenAI-style chat completion") from None
    if not isinstance(content, str) or not content.strip():
        raise LLMError("empty answer")
    return content


def _short(obj: object, limit: int = 60) -> str:
    text = " ".join(str(obj).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def parse_json_object(text: str) -> dict[str, Any]:
    """The JSON object in an answer (tolerates ```json fences and chatter around it)."""
    t = text.strip()
    fence = re.search(r"```(?:json)?\s*(.*?)```", t, re.DOTALL)
    if fence:
        t = fence.group(1).strip()
    try:
        value = json.loads(t)
    except ValueError:
        start, end = t.find("{"), t.rfind("}")
        if start < 0 or end <= start:
            raise LLMError(f"answer is not JSON: {_short(text, 40)!r}") from None
        try:
            value = json.loads(t[start : end + 1])
        except ValueError:
            raise LLMError(f"answer is not JSON: {_short(text, 40)!r}") from None
    if not isinstance(value, dict):
        raise LLMError("answer is JSON but not an object")
    return value


COPY_SYSTEM_PROMPT = """You write App Store screenshot captions for one app, from what its screens show.
The user message is JSON: the app's name, bundle id, the user's own description ("about"), the locale, and per screen the evidence read on it (title, headings, actions = button labels, labels = list items and field labels, numbers, tabs), plus "neutral_vocabulary".
Return ONLY a JSON object: {"tagline": "...", "screens": [{"position": 1, "headline": "...", "subtitle": "..."}, ...]}
with exactly one entry per screen, in the order given.
Say only what the screens show (App Store Review Guideline 2.3). Rules, all mandatory:
- Every word you write must either appear in the evidence of the screens, the app's name, the bundle id or "about" (plural/singular and -ing/-ed forms are fine), or be a word of "neutral_vocabulary". Any other word is a claim the screens do not support and the whole answer is rejected. Never name a feature, object or benefit that is not in the evidence.
- Each screen's headline and subtitle name what THAT screen shows: its title, its objects or its actions, framed as a benefit ("Filter 12 trails by region and difficulty", not "Every place, mapped").
- Where a screen shows little, keep its caption short and plain; never invent.
- A screen with "user_headline" or "user_subtitle" keeps those lines exactly; do not repeat them elsewhere.
- Write in the language of the given locale (e.g. ja-JP: Japanese, ar-SA: Arabic), in that language's own punctuation; the words must still come from the evidence, which is usually in that language too.
- In Chinese, Japanese and Thai (no spaces between words) count characters, not words: headline at most 16 characters, subtitle at most 36, ending with 。 (Chinese/Japanese) or a full stop.
- tagline: the app's strongest promise, 2-6 words, at most 30 characters; screen 1's headline is the tagline.
- headline: 2-6 words, at most 30 characters, sentence case, no trailing period, no emoji, never ALL CAPS.
- subtitle: one sentence ending with a period, at most 60 characters (aim for 30-55), sentence case, no emoji.
- No two headlines may start with the same word; no repeated headline or subtitle.
- Never use store-forbidden claims: best, #1, number one, top, free, sale, download now, discount, award, ranked, cheapest."""


def request_copy(
    config: LLMConfig, brief: dict[str, Any], *, client: httpx.Client | None = None
) -> dict[str, Any]:
    """Ask for a set's copy; the parsed JSON object (shape checked by the caller)."""
    messages = [
        {"role": "system", "content": COPY_SYSTEM_PROMPT},
        {"role": "user", "content": json.dumps(brief, ensure_ascii=False)},
    ]
    return parse_json_object(chat(config, messages, client=client))
