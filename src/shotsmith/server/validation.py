"""Checking request bodies: ``POST /v1/design`` (fields first, then the images) and
``POST /v1/projects/:id/screenshots``.

Every refusal is a :class:`~.errors.Problem` naming the field (``images[2].screen``)
and saying what to send instead. Status codes: 400 the body is not a JSON object,
413 too large (body or one image), 422 anything wrong with a field or an image.
Bodies are parsed by :mod:`.jsonstream`; a design request's images arrive already
decoded into files (:class:`~.uploads.StagedImage`), checked here with
:func:`shotsmith.png.verify_png`. Platforms and device sizes are the capture stage's
(:data:`CAPTURE_DEVICES`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ..errors import InputImageError
from ..ids import BUNDLE_ID_PATTERN, LOCALE_PATTERN
from ..locales import normalize_locale
from ..png import verify_png
from ..stages.capture import CAPTURE_DEVICES, DEFAULT_SIZES, PLATFORMS
from .errors import Problem
from .jsonstream import JsonError, loads
from .limits import (
    DEVICE_SIZE_PATTERN,
    DEVICES,
    MAX_DEVICE_SIZES,
    MAX_IMAGES,
    MAX_NAME,
    MAX_SCREEN,
    MAX_URL,
    TEMPLATES,
)
from .models import CollectionCreate, DesignImage, DesignJobCreate
from .uploads import StagedImage
from .webhooks import WebhookPolicy

_BUNDLE_ID = re.compile(BUNDLE_ID_PATTERN)
_DEVICE_SIZE = re.compile(DEVICE_SIZE_PATTERN)
_LOCALE = re.compile(LOCALE_PATTERN)
# the fields a body may have: the request models' (one source for this check and the docs)
_COLLECTION_FIELDS = tuple(CollectionCreate.model_fields)
_TOP_FIELDS = tuple(DesignJobCreate.model_fields)
_IMAGE_FIELDS = tuple(DesignImage.model_fields)
#: Status of each :class:`~.jsonstream.JsonError` code.
JSON_ERROR_STATUS = {
    "invalid_json": 400,
    "invalid_text": 422,
    "value_too_long": 422,
    "body_too_large": 413,
}


@dataclass(frozen=True)
class DesignRequest:
    project_name: str
    images: list[StagedImage]  # decoded into files as the body arrived, store order
    screens: list[str]
    devices: list[str]
    bundle_id: str
    template: str
    webhook_url: str | None

    def params(self, inputs: list[str]) -> dict[str, Any]:
        """What the worker needs besides project_name (stored as JSON on the job)."""
        return {
            "inputs": inputs,
            "screens": self.screens,
            "devices": self.devices,
            "bundle_id": self.bundle_id,
            "template": self.template,
        }


def _invalid(code: str, message: str) -> Problem:
    return Problem(422, code, message)


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, StagedImage):
        return "a string"
    return {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "an array",
        dict: "an object",
    }.get(type(value), type(value).__name__)


def _control_character(text: str) -> str | None:
    for char in text:
        if unicodedata.category(char) in ("Cc", "Cs"):
            return f"U+{ord(char):04X}"
    return None


def _supported(obj: dict, key: str, where: str, allowed: Sequence[str]) -> str | None:
    """An optional text field that v1 supports one value of (or a few)."""
    value = _string(
        obj, key, where, required=False, max_len=100, hint=f"use {allowed[0]!r} or leave it out"
    )
    if value is not None and value not in allowed:
        raise _invalid(
            f"unsupported_{key}",
            f"{where} {value!r} is not supported; v1 supports only "
            f"{', '.join(allowed)} (leave {key} out to use it).",
        )
    return value


def _string(
    obj: dict[str, Any], key: str, where: str, *, required: bool, max_len: int, hint: str
) -> str | None:
    if key not in obj or (obj[key] is None and not required):
        if required:
            raise _invalid("missing_field", f"{where} is required: {hint}.")
        return None
    value = obj[key]
    if not isinstance(value, str):
        raise _invalid(
            "invalid_type", f"{where} must be a string, got {_type_name(value)}: {hint}."
        )
    value = value.strip()
    if required and not value:
        raise _invalid("missing_field", f"{where} is empty: {hint}.")
    if len(value) > max_len:
        raise _invalid(
            "value_too_long",
            f"{where} is {len(value)} characters long; at most {max_len} are accepted.",
        )
    control = _control_character(value)
    if control:
        raise _invalid(
            "invalid_text",
            f"{where} contains the control character {control}; send plain text on one line.",
        )
    return value


def _unknown_fields(obj: dict[str, Any], allowed: tuple[str, ...], where: str) -> None:
    extra = [k for k in obj if k not in allowed]
    if extra:
        raise _invalid(
            "unknown_field",
            f"{where}: unknown field {extra[0]!r}; the accepted fields are {', '.join(allowed)}.",
        )


def json_problem(exc: JsonError, fields: str) -> Problem:
    """The answer to a body the JSON parser refused."""
    status = JSON_ERROR_STATUS.get(exc.code, 400)
    message = exc.message or "invalid JSON"  # starts with a field name: keep its case
    if exc.code == "invalid_json":
        message = (
            f"The request body is not valid JSON ({exc.message}). Send a JSON object "
            f"with {fields} (Content-Type: application/json)."
        )
    elif not message.endswith("."):
        message += "."
    return Problem(status, exc.code, message)


def parse_body(body: bytes, *, fields: str, example: str) -> dict[str, Any]:
    """400 unless the (small) body is a JSON object."""
    if not body.strip():
        raise Problem(
            400,
            "invalid_json",
            f"The request body is empty: send a JSON object with "
            f"{fields} (Content-Type: application/json).",
        )
    try:
        data = loads(body)
    except JsonError as exc:
        raise json_problem(exc, fields) from None
    return require_object(data, example)


def require_object(data: Any, example: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise Problem(
            400,
            "invalid_body",
            f"The request body must be a JSON object, got {_type_name(data)}. Send {example}.",
        )
    return data


DESIGN_FIELDS = "images and project_name"
DESIGN_EXAMPLE = '{"images": [...], "project_name": "..."}'


def check_design_fields(
    data: Any, *, policy: WebhookPolicy | None = None, max_images: int = MAX_IMAGES
) -> DesignRequest:
    """Every field of a parsed design request, in order, before any image is looked at.
    ``images[i].data`` values are the :class:`StagedImage` files the body was decoded
    into; :func:`check_design_images` checks them next."""
    data = require_object(data, DESIGN_EXAMPLE)
    _unknown_fields(data, _TOP_FIELDS, "body")
    project_name = _string(
        data,
        "project_name",
        "project_name",
        required=True,
        max_len=MAX_NAME,
        hint='give the app\'s name, e.g. "Pocket Budget"',
    )
    items = [_image_item(item, i) for i, item in enumerate(_images(data, max_images))]
    bundle_id = _bundle_id(data)
    template = _supported(data, "template", "template", TEMPLATES)
    webhook_url = _webhook_url(data, policy or WebhookPolicy())
    return DesignRequest(
        project_name=project_name or "",
        images=[staged for _, _, staged in items],
        screens=[screen for screen, _, _ in items],
        devices=[device for _, device, _ in items],
        bundle_id=bundle_id or "",
        template=template or TEMPLATES[0],
        webhook_url=webhook_url,
    )


def _images(data: dict[str, Any], max_images: int) -> list[Any]:
    """The ``images`` array: present, an array, 1 to ``max_images`` long."""
    if "images" not in data:
        raise _invalid(
            "missing_field",
            "images is required: send an array of 1 to "
            f"{max_images} objects with data (base64 PNG) and screen.",
        )
    images = data["images"]
    if not isinstance(images, list):
        raise _invalid(
            "invalid_type",
            f"images must be an array, got {_type_name(images)}: "
            'send [{"data": "<base64 PNG>", "screen": "home"}].',
        )
    if not images:
        raise _invalid("no_images", f"images is empty: send 1 to {max_images} screenshots.")
    if len(images) > max_images:
        raise too_many_images(max_images, len(images))
    return images


def _image_item(item: Any, index: int) -> tuple[str, str, StagedImage]:
    """One ``images[i]`` object: (screen, device, the staged image file)."""
    where = f"images[{index}]"
    if not isinstance(item, dict):
        raise _invalid(
            "invalid_type",
            f"{where} must be an object with data and screen, got {_type_name(item)}.",
        )
    _unknown_fields(item, _IMAGE_FIELDS, where)
    screen = _string(
        item,
        "screen",
        f"{where}.screen",
        required=True,
        max_len=MAX_SCREEN,
        hint='name the screen, e.g. "home" or "settings"',
    )
    device = _supported(item, "device", f"{where}.device", DEVICES)
    if "data" not in item or item["data"] is None:
        raise _invalid(
            "missing_field", f"{where}.data is required: the PNG file's bytes as base64."
        )
    value = item["data"]
    if not isinstance(value, StagedImage):
        raise _invalid(
            "invalid_type", f"{where}.data must be a base64 string, got {_type_name(value)}."
        )
    return screen or "", device or DEVICES[0], value


def _bundle_id(data: dict[str, Any]) -> str | None:
    bundle_id = _string(
        data,
        "bundle_id",
        "bundle_id",
        required=False,
        max_len=155,
        hint='use reverse-domain form, e.g. "com.example.app"',
    )
    if bundle_id is not None and not _BUNDLE_ID.match(bundle_id):
        detail = "is empty" if not bundle_id else f"{bundle_id!r} is not in reverse-domain form"
        raise _invalid(
            "invalid_bundle_id",
            f'bundle_id {detail}; use e.g. "com.example.app", or leave it out (or null) '
            "when the app has none.",
        )
    return bundle_id


def _webhook_url(data: dict[str, Any], policy: WebhookPolicy) -> str | None:
    webhook_url = data.get("webhook_url")
    if webhook_url is None:
        return None
    if not isinstance(webhook_url, str):
        raise _invalid(
            "invalid_type",
            f"webhook_url must be a string, got {_type_name(webhook_url)}: give an absolute "
            "http(s) URL or leave it out.",
        )
    if len(webhook_url) > MAX_URL:
        raise _invalid(
            "value_too_long",
            f"webhook_url is {len(webhook_url)} characters long; at most {MAX_URL} are accepted.",
        )
    check_webhook_url(webhook_url, policy)
    return webhook_url


def too_many_images(max_images: int, count: int | None = None) -> Problem:
    have = f"{count} entries" if count is not None else f"more than {max_images} entries"
    return _invalid(
        "too_many_images",
        f"images has {have}; at most {max_images} are accepted per job. Split the set into "
        "several jobs.",
    )


def check_design_images(spec: DesignRequest) -> None:
    """The images, in request order (the first bad one is reported): valid base64, then a
    complete, uncorrupted PNG of sane dimensions. Reads the staged files in constant memory
    (run it in a thread)."""
    for image in spec.images:
        name = f"images[{image.index}].data"
        if image.error is not None:
            raise _invalid("invalid_base64", image.error)
        try:
            verify_png(image.path, name)
        except InputImageError as exc:
            raise _invalid("invalid_image", str(exc)) from exc


def check_webhook_url(url: str, policy: WebhookPolicy) -> None:
    """422 ``invalid_webhook_url`` unless ``url`` is an absolute http(s) URL that may
    receive webhooks under ``policy`` (see :mod:`.webhooks`)."""
    problem = None
    try:
        parts = urlsplit(url)
        port = parts.port  # raises ValueError on a bad port
    except ValueError as exc:
        parts, port, problem = None, None, str(exc)
    if parts is not None and problem is None:
        if parts.scheme not in ("http", "https"):
            problem = "it must start with http:// or https://"
        elif not parts.hostname:
            problem = "it has no host name"
        elif any(ch.isspace() for ch in url) or _control_character(url):
            problem = "it contains white space or control characters"
        elif port == 0:
            problem = "port 0 is not a valid port"
    if problem:
        raise _invalid(
            "invalid_webhook_url",
            f"webhook_url {url[:200]!r} is not a valid absolute URL ({problem}); give e.g. "
            '"https://example.com/hooks/shotsmith" or leave it out.',
        )
    refusal = policy.url_refusal(url)
    if refusal:
        raise _invalid(
            "invalid_webhook_url",
            f"webhook_url may not point at {_host_for_message(url)}: {refusal}. Webhooks go "
            "only to public internet addresses; give a public URL or leave it out (a server "
            "run for local development allows private addresses with "
            "--webhook-allow-private).",
        )


def _host_for_message(url: str) -> str:
    try:
        return urlsplit(url).hostname or "that host"
    except ValueError:
        return "that host"


# --- POST /v1/projects/:id/screenshots -------------------------------------------------------


@dataclass(frozen=True)
class CollectionRequest:
    platforms: list[str]
    device_sizes: list[str] | None  # "platform:size" pairs; None: what the source has
    locale: str


def allowed_sizes(platforms: list[str]) -> str:
    return "; ".join(f"{p}: " + ", ".join(CAPTURE_DEVICES[p]) for p in platforms)


def validate_collection_request(
    body: bytes, *, project_platforms: list[str], project_locale: str, folder_source: bool
) -> CollectionRequest:
    """Every field is optional: platforms (the project's), device_sizes (the required sizes:
    capture's defaults; for a folder source, the sizes its screenshots have), locale (the
    project's). An empty body means all defaults."""
    example = '{"platforms": ["ios"], "device_sizes": ["6.9"], "locale": "en-US"}'
    data = (
        parse_body(
            body, fields="platforms, device_sizes and/or locale (all optional)", example=example
        )
        if body.strip()
        else {}
    )
    _unknown_fields(data, _COLLECTION_FIELDS, "body")

    platforms = list(project_platforms)
    if data.get("platforms") is not None:
        value = data["platforms"]
        if not isinstance(value, list):
            raise _invalid(
                "invalid_type",
                f"platforms must be an array of strings, got "
                f'{_type_name(value)}: e.g. ["ios"] or '
                '["ios", "android"].',
            )
        if not value:
            raise _invalid(
                "invalid_platform",
                "platforms is empty: give ios and/or android, or "
                "leave it out for the project's "
                f"({', '.join(project_platforms)}).",
            )
        platforms = []
        for index, item in enumerate(value):
            if not isinstance(item, str):
                raise _invalid(
                    "invalid_type",
                    f"platforms[{index}] must be a string, got "
                    f"{_type_name(item)}; allowed platforms: "
                    f"{', '.join(PLATFORMS)}.",
                )
            key = item.strip().lower()
            if key not in PLATFORMS:
                raise _invalid(
                    "unsupported_platform",
                    f"platforms[{index}] {item[:40]!r} is not supported; allowed "
                    f"platforms: {', '.join(PLATFORMS)}.",
                )
            if key not in platforms:
                platforms.append(key)

    sizes: list[str] | None = None
    if data.get("device_sizes") is not None:
        sizes = _device_sizes(data["device_sizes"], platforms)
    elif not folder_source:  # a web app: capture's default ("required") sizes, made explicit
        sizes = [f"{p}:{s}" for p in platforms for s in DEFAULT_SIZES[p]]

    locale = project_locale
    if data.get("locale") is not None:
        value = data["locale"]
        if not isinstance(value, str):
            raise _invalid(
                "invalid_type",
                f'locale must be a string, got {_type_name(value)}: a BCP 47 tag such as "en-US".',
            )
        if not _LOCALE.match(value.strip()):
            raise _invalid(
                "invalid_locale",
                f'locale {value[:40]!r} is not a BCP 47 tag; use e.g. "en-US", "de-DE" or "ja".',
            )
        locale = normalize_locale(value)
    return CollectionRequest(platforms=platforms, device_sizes=sizes, locale=locale)


def _device_sizes(value: Any, platforms: list[str]) -> list[str]:
    hint = f"sizes in inches as text; for {', '.join(platforms)}: {allowed_sizes(platforms)}"
    if not isinstance(value, list):
        raise _invalid(
            "invalid_type",
            f"device_sizes must be an array of strings, got "
            f'{_type_name(value)}: e.g. ["6.9"] ({hint}).',
        )
    if not value:
        raise _invalid(
            "invalid_device_size",
            f"device_sizes is empty: give {hint}, or leave it out for the required sizes.",
        )
    if len(value) > MAX_DEVICE_SIZES:
        raise _invalid(
            "invalid_device_size",
            f"device_sizes has {len(value)} entries; at most {MAX_DEVICE_SIZES} are accepted.",
        )
    chosen: list[str] = []
    for index, item in enumerate(value):
        where = f"device_sizes[{index}]"
        if not isinstance(item, str):
            raise _invalid(
                "invalid_type",
                f'{where} must be a string such as "6.9", got {_type_name(item)} ({hint}).',
            )
        text = item.strip().lower()
        if not _DEVICE_SIZE.match(text):
            raise _invalid(
                "unsupported_device_size",
                f"{where} {item[:40]!r} is not a device size; give {hint} "
                '(qualify as "android:6.3" when platforms differ).',
            )
        want = platforms
        if ":" in text:
            prefix, text = text.split(":", 1)
            if prefix not in platforms:
                raise _invalid(
                    "unsupported_device_size",
                    f"{where} {item!r} is for {prefix}, which is not among the "
                    f"platforms ({', '.join(platforms)}); add {prefix} to platforms "
                    "or drop this size.",
                )
            want = [prefix]
        key = f"{float(text):g}"
        found = [f"{p}:{key}" for p in want if key in CAPTURE_DEVICES[p]]
        if not found:
            raise _invalid(
                "unsupported_device_size",
                f"{where} {item!r} is not a supported size for "
                f"{'/'.join(want)}; allowed: {allowed_sizes(want)}.",
            )
        chosen += [f for f in found if f not in chosen]
    missing = [p for p in platforms if not any(c.startswith(p + ":") for c in chosen)]
    if missing:
        raise _invalid(
            "unsupported_device_size",
            f"device_sizes has no size for {', '.join(missing)}; add one, e.g. "
            + ", ".join(f'"{p}:{DEFAULT_SIZES[p][0]}"' for p in missing)
            + f" (allowed: {allowed_sizes(missing)}), or drop it from platforms.",
        )
    return chosen
