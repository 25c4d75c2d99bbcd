"""Optional LLM backend: any OpenAI-compatible ``POST {base_url}/chat/completions``.

Nothing here is required: shotsmith's default writers are offline. Configure with
keyword arguments (:class:`LLMConfig`) or, at the edges (CLI, server), from the
environment with :meth:`LLMConfig.from_env`::

    SHOTSMITH_LLM_BASE_URL=http://localhost:11434/v1   # Ollama, vLLM, llama.cpp, OpenAI...
    SHOTSMITH_LLM_MODEL=llama3.1
    SHOTSMITH_LLM_API_KEY=...                          # optional
    SHOTSMITH_LLM_TIMEOUT=30                           # optional, seconds
    SHOTSMITH_LLM_VISION=1                             # optional: send the screenshots too

With ``vision`` on (for models that take images: llava, llama3.2-vision, qwen2.5vl,
gpt-4o...), each screen's reading is followed by its screenshot as an OpenAI-style
``image_url`` part: a data URL of the image scaled to at most :data:`IMAGE_MAX_SIDE`
pixels on its longest side and :data:`IMAGE_MAX_BYTES` bytes, so the screens' pixels
leave the machine for whatever ``base_url`` points at. Off by default. See docs/llm.md.

Every failure (network, timeout, HTTP status, not JSON, wrong shape) is raised as
:class:`LLMError` with a short reason, so callers can fall back and say why.
"""

from __future__ import annotations

import base64
import io
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from .errors import InvalidOptionError, LLMError, ShotsmithError
from .settings import current

ENV_BASE_URL = "SHOTSMITH_LLM_BASE_URL"
ENV_MODEL = "SHOTSMITH_LLM_MODEL"
ENV_API_KEY = "SHOTSMITH_LLM_API_KEY"
ENV_TIMEOUT = "SHOTSMITH_LLM_TIMEOUT"
ENV_VISION = "SHOTSMITH_LLM_VISION"
DEFAULT_TIMEOUT = 30.0
#: A screenshot sent to a vision model: longest side in pixels, and encoded size in bytes
#: (before base64, which adds a third). A phone screen comes out about 355 x 768.
IMAGE_MAX_SIDE = 768
IMAGE_MAX_BYTES = 200_000

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"", "0", "false", "no", "off"})


@dataclass(frozen=True)
class LLMConfig:
    base_url: str  # e.g. "https://api.openai.com/v1" or "http://localhost:11434/v1"
    model: str
    api_key: str | None = None
    timeout: float = DEFAULT_TIMEOUT  # seconds for the whole request
    vision: bool = False  # the model takes images: send each screen's screenshot too

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> LLMConfig | None:
        """The config from ``SHOTSMITH_LLM_*`` variables, or None when not configured."""
        env = dict(current().llm) if environ is None else environ
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
        flag = (env.get(ENV_VISION) or "").strip().lower()
        if flag not in _TRUE | _FALSE:
            raise InvalidOptionError(
                f"{ENV_VISION}={env.get(ENV_VISION)!r}: use 1 (send the screenshots to a model "
                "that takes images) or 0 (text only, the default)."
            )
        return cls(
            base_url=base_url,
            model=model,
            api_key=(env.get(ENV_API_KEY) or None),
            timeout=timeout,
            vision=flag in _TRUE,
        )

    @property
    def endpoint(self) -> str:
        return self.base_url.rstrip("/") + "/chat/completions"

    def __repr__(self) -> str:  # never print the key
        key = "set" if self.api_key else None
        return (
            f"LLMConfig(base_url={self.base_url!r}, model={self.model!r}, api_key={key!r}, "
            f"timeout={self.timeout}, vision={self.vision})"
        )


def chat(
    config: LLMConfig,
    messages: list[dict[str, Any]],
    *,
    json_mode: bool = True,
    temperature: float = 0.3,
    client: httpx.Client | None = None,
) -> str:
    """One chat completion; the assistant message's text.

    ``json_mode`` asks for ``response_format: {"type": "json_object"}``; a server that
    refuses the field (HTTP 400/422 naming it) is asked once more without it, since the
    prompt asks for JSON anyway and :func:`parse_json_object` reads fenced answers.
    """
    body: dict[str, Any] = {"model": config.model, "messages": messages, "temperature": temperature}
    if json_mode:
        body["response_format"] = {"type": "json_object"}
    resp = _post(config, body, client)
    if json_mode and resp.status_code in (400, 422) and _refuses_json_mode(resp.text):
        del body["response_format"]
        resp = _post(config, body, client)
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


def _post(config: LLMConfig, body: dict[str, Any], client: httpx.Client | None) -> httpx.Response:
    headers = {"Content-Type": "application/json"}
    if config.api_key:
        headers["Authorization"] = f"Bearer {config.api_key}"
    timeout = httpx.Timeout(config.timeout, connect=min(config.timeout, 5.0))
    try:
        if client is None:
            with httpx.Client(timeout=timeout) as own:
                return own.post(config.endpoint, json=body, headers=headers)
        return client.post(config.endpoint, json=body, headers=headers, timeout=timeout)
    except httpx.TimeoutException:
        raise LLMError(f"timeout after {config.timeout:g} s") from None
    except httpx.ConnectError as exc:
        raise LLMError(f"cannot connect to {config.base_url} ({_short(exc)})") from None
    except httpx.HTTPError as exc:
        raise LLMError(f"request failed ({type(exc).__name__}: {_short(exc)})") from None


def _refuses_json_mode(text: str) -> bool:
    low = (text or "").lower()
    return "response_format" in low or "json_object" in low


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


# --------------------------------------------------------------------------------------
# Screenshots for vision models
# --------------------------------------------------------------------------------------


def has_image(ref: object) -> bool:
    """Whether a frame's ``image`` value is something to send (a path or image bytes)."""
    if isinstance(ref, (bytes, bytearray, memoryview)):
        return len(ref) > 0
    if isinstance(ref, (str, Path)):
        return bool(str(ref).strip())
    return hasattr(ref, "save") and hasattr(ref, "size")  # a PIL image


def image_data_url(
    ref: object, *, max_side: int = IMAGE_MAX_SIDE, max_bytes: int = IMAGE_MAX_BYTES
) -> str:
    """A screenshot as a ``data:`` URL for an ``image_url`` part: scaled down to at most
    ``max_side`` pixels on its longest side, as PNG or JPEG (quality 90), whichever is
    smaller (flat UI is often smaller as PNG, and stays crisp); when that is over
    ``max_bytes``, JPEG at falling quality, then smaller, until it fits."""
    from PIL import Image

    from .io import open_image

    try:
        if isinstance(ref, Image.Image):
            im = ref.convert("RGB")
        elif isinstance(ref, (str, Path, bytes, bytearray, memoryview)):
            im = open_image(bytes(ref) if not isinstance(ref, (str, Path)) else ref)
        else:
            raise LLMError(f"no screenshot to send ({type(ref).__name__})")
    except (ShotsmithError, OSError, ValueError) as exc:
        if isinstance(exc, LLMError):
            raise
        raise LLMError(f"cannot read the screenshot ({_short(exc)})") from None
    if max(im.size) > max_side:
        im = im.copy()
        im.thumbnail((max_side, max_side), Image.Resampling.LANCZOS)
    while True:
        png, jpeg = _encode(im, "PNG"), _encode(im, "JPEG", quality=90)
        kind, data = ("png", png) if len(png) <= len(jpeg) else ("jpeg", jpeg)
        if len(data) <= max_bytes:
            return f"data:image/{kind};base64," + base64.b64encode(data).decode("ascii")
        for quality in (75, 60):
            data = _encode(im, "JPEG", quality=quality)
            if len(data) <= max_bytes:
                return "data:image/jpeg;base64," + base64.b64encode(data).decode("ascii")
        if max(im.size) <= 128:
            raise LLMError(f"the screenshot does not fit in {max_bytes} bytes")
        im = im.resize(
            (max(1, im.width * 3 // 4), max(1, im.height * 3 // 4)), Image.Resampling.LANCZOS
        )


def _encode(im: Any, fmt: str, **options: Any) -> bytes:
    buf = io.BytesIO()
    if fmt == "PNG":
        im.save(buf, "PNG", optimize=True)
    else:
        im.save(buf, fmt, optimize=True, **options)
    return buf.getvalue()


# --------------------------------------------------------------------------------------
# The copy request
# --------------------------------------------------------------------------------------

COPY_SYSTEM_PROMPT = """You write App Store screenshot captions for one app, from what its screens show.
The user message is JSON: the app's name, bundle id, the user's own description ("about"), the locale, the category, "neutral_vocabulary", and per screen (by "position") its reading and the text read on it:
- "kind": what sort of screen it is (list, table, detail, reader, player, form, chart, dashboard, search, settings, menu, conversation, calendar, map, sign-in); "subject": what the screen is about, in the app's words; "examples": items it shows; "fields": the names of the data it shows or asks for;
- "title", "headings", "actions" (button labels), "labels" (list items and field labels), "numbers", "tabs".
Return ONLY a JSON object, with no text around it:
{"tagline": "...", "screens": [{"position": 1, "headline": "...", "subtitle": "..."}, ...]}
with exactly one entry per screen, in the order given.
Each caption says what the user can DO on that screen, in the app's own words: its subject, its actions, its examples ("Filter 12 trails by region and difficulty", not "Every place, mapped"). Say only what the screens show (App Store Review Guideline 2.3). Rules, all mandatory; an answer that breaks one is rejected whole:
- Every word you write must either appear in the evidence of the screens, the app's name, the bundle id or "about" (plural/singular and -ing/-ed forms are fine), or be a word of "neutral_vocabulary". Any other word is a claim the screens do not support. Never name a feature, object or benefit that is not in the evidence.
- Name only what THAT screen shows. Where a screen shows little, keep its caption short and plain; never invent.
- No filler: a subtitle must name something of its own screen ("Open it and see." names nothing). Whole words only, never a cut-off word; no doubled words; no bare lists of three or more items; never end on "and", "or", "with"...
- No data: no amounts, dates, true/false or values copied from the screen as words.
- No people's names, user names or handles, even when a screen shows them.
- A screen with "user_headline" or "user_subtitle" keeps those lines exactly; do not repeat them elsewhere.
- Write in the language of the given locale (e.g. ja-JP: Japanese, ar-SA: Arabic), in that language's own punctuation; the words must still come from the evidence, which is usually in that language too.
- In Chinese and Japanese (no spaces between words) count characters, not words: headline at most 16 characters, subtitle at most 36, ending with 。. In Thai: headline at most 30 characters, subtitle at most 60, with no closing full stop (Thai writes none).
- tagline: the app's strongest promise, 2-6 words, at most 30 characters; screen 1's headline is the tagline.
- headline: 2-6 words, at most 30 characters, sentence case, no trailing period, no emoji, never ALL CAPS.
- subtitle: one sentence ending with a period, at most 60 characters (aim for 30-55), sentence case, no emoji.
- No two headlines may start with the same word; no repeated headline or subtitle.
- Never use store-forbidden claims: best, #1, number one, top, free, sale, download now, discount, award, ranked, cheapest."""

#: Added to the system prompt when the screenshots are sent.
VISION_PROMPT = """The screenshots are attached: the user message's first part is the app's JSON (without the screens), then for each screen a JSON part with its reading, followed by its screenshot. Look at each screenshot to see what the user does there (the main control, what the list holds, what the form asks for) and to choose among the evidence. The words rule still holds: write only words from the evidence, the app's name, "about" or "neutral_vocabulary", even where the picture shows other text."""


def copy_messages(
    config: LLMConfig, brief: Mapping[str, Any], images: Sequence[object] | None = None
) -> list[dict[str, Any]]:
    """The chat messages for a set's copy.

    Text only (the brief as one JSON string) unless ``config.vision`` is on and there are
    screenshots; then the user message is a list of content parts: the set's JSON, and
    per screen its reading (JSON) followed by its screenshot as an ``image_url`` part
    (a data URL, see :func:`image_data_url`). ``images`` lines up with
    ``brief["screens"]``; a screen without one gets its reading alone.
    """
    screens = list(brief.get("screens") or [])
    refs = list(images or [])[: len(screens)]
    if not (config.vision and any(has_image(r) for r in refs)):
        return [
            {"role": "system", "content": COPY_SYSTEM_PROMPT},
            {"role": "user", "content": json.dumps(dict(brief), ensure_ascii=False)},
        ]
    head = {k: v for k, v in brief.items() if k != "screens"} | {"screen_count": len(screens)}
    parts: list[dict[str, Any]] = [{"type": "text", "text": json.dumps(head, ensure_ascii=False)}]
    for i, screen in enumerate(screens):
        parts.append({"type": "text", "text": json.dumps(screen, ensure_ascii=False)})
        ref = refs[i] if i < len(refs) else None
        if not has_image(ref):
            continue
        try:
            url = image_data_url(ref)
        except LLMError as exc:
            raise LLMError(f"screen {i + 1}: {exc.short}") from None
        parts.append({"type": "image_url", "image_url": {"url": url}})
    return [
        {"role": "system", "content": COPY_SYSTEM_PROMPT + "\n" + VISION_PROMPT},
        {"role": "user", "content": parts},
    ]


def request_copy(
    config: LLMConfig,
    brief: dict[str, Any],
    *,
    images: Sequence[object] | None = None,
    client: httpx.Client | None = None,
) -> dict[str, Any]:
    """Ask for a set's copy; the parsed JSON object (shape checked by the caller).

    ``images``: the screens' screenshots (paths or PNG bytes, in the order of
    ``brief["screens"]``), sent only when ``config.vision`` is on.
    """
    return parse_json_object(chat(config, copy_messages(config, brief, images), client=client))
