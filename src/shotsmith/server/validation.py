"""Checking request bodies: ``POST /v1/design`` (cheap checks first, images last) and
``POST /v1/projects/:id/screenshots``.

Every refusal is a :class:`~.errors.Problem` naming the field (``images[2].screen``)
and saying what to send instead. Status codes: 400 the body is not a JSON object,
413 too large (body or one image), 422 anything wrong with a field or an image.
Image decoding reuses :mod:`shotsmith.io` (``decode_base64_png``, ``check_png``);
platforms and device sizes are the capture stage's (:data:`CAPTURE_DEVICES`).
"""

from __future__ import annotations

import json
import math
import os
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ..errors import InputImageError
from ..io import check_png, decode_base64_png
from ..stages.capture import CAPTURE_DEVICES, DEFAULT_SIZES, PLATFORMS
from .errors import Problem

MAX_IMAGES = 10
MAX_IMAGE_BYTES = 10 * 1024 * 1024  # "10 MB" read generously as 10 MiB decoded
MAX_NAME = 200
MAX_SCREEN = 100
MAX_URL = 2048
DEVICES = ("iphone-16-pro",)
TEMPLATES = ("default",)
#: Room for ten maximal images in base64 (+5% for JSON escapes such as ``\/``) and the rest.
MAX_BODY_BYTES = int(MAX_IMAGES * 4 * math.ceil(MAX_IMAGE_BYTES / 3) * 1.05) + 1024 * 1024
BUNDLE_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9-]*(\.[A-Za-z0-9][A-Za-z0-9-]*)+$"

#: A device size as the collection endpoint takes it: inches as text, optionally
#: qualified by platform ("6.9", "android:6.3").
DEVICE_SIZE_PATTERN = r"^((ios|android):)?[0-9]{1,2}(\.[0-9]{1,2})?$"
LOCALE_PATTERN = r"^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8}){0,3}$"
MAX_DEVICE_SIZES = 10
MAX_COLLECTION_BODY = 64 * 1024

_BUNDLE_ID = re.compile(BUNDLE_ID_PATTERN)
_DEVICE_SIZE = re.compile(DEVICE_SIZE_PATTERN)
_LOCALE = re.compile(LOCALE_PATTERN)
_COLLECTION_FIELDS = ("platforms", "device_sizes", "locale")
_TOP_FIELDS = ("images", "project_name", "bundle_id", "template", "webhook_url")
_IMAGE_FIELDS = ("data", "screen", "device")
_WHITESPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class DesignRequest:
    project_name: str
    images: list[bytes]  # validated PNG bytes, store order
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
    return {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "an array",
        dict: "an object",
    }.get(type(value), type(value).__name__)


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
    return value


def _unknown_fields(obj: dict[str, Any], allowed: tuple[str, ...], where: str) -> None:
    extra = [k for k in obj if k not in allowed]
    if extra:
        raise _invalid(
            "unknown_field",
            f"{where}: unknown field {extra[0]!r}; the accepted fields are {', '.join(allowed)}.",
        )


def parse_body(
    body: bytes,
    *,
    fields: str = "images and project_name",
    example: str = '{"images": [...], "project_name": "..."}',
) -> dict[str, Any]:
    """400 unless the body is a JSON object."""
    if not body.strip():
        raise Problem(
            400,
            "invalid_json",
            f"The request body is empty: send a JSON object with "
            f"{fields} (Content-Type: application/json).",
        )
    try:
        data = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        detail = exc.msg if isinstance(exc, json.JSONDecodeError) else type(exc).__name__
        raise Problem(
            400,
            "invalid_json",
            f"The request body is not valid JSON ({detail}). Send a JSON object with {fields}.",
        ) from exc
    if not isinstance(data, dict):
        raise Problem(
            400,
            "invalid_body",
            f"The request body must be a JSON object, got {_type_name(data)}. Send {example}.",
        )
    return data


def validate_design_request(
    body: bytes, *, max_images: int = MAX_IMAGES, max_image_bytes: int = MAX_IMAGE_BYTES
) -> DesignRequest:
    data = parse_body(body)
    _unknown_fields(data, _TOP_FIELDS, "body")

    project_name = _string(
        data,
        "project_name",
        "project_name",
        required=True,
        max_len=MAX_NAME,
        hint='give the app\'s name, e.g. "Pocket Budget"',
    )

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
        raise _invalid(
            "too_many_images",
            f"images has {len(images)} entries; at most "
            f"{max_images} are accepted per job. Split the set "
            "into several jobs.",
        )

    screens, devices, encoded = [], [], []
    max_b64 = 4 * math.ceil(max_image_bytes / 3)
    for index, item in enumerate(images):
        where = f"images[{index}]"
        if not isinstance(item, dict):
            raise _invalid(
                "invalid_type",
                f"{where} must be an object with data and screen, got {_type_name(item)}.",
            )
        _unknown_fields(item, _IMAGE_FIELDS, where)
        screens.append(
            _string(
                item,
                "screen",
                f"{where}.screen",
                required=True,
                max_len=MAX_SCREEN,
                hint='name the screen, e.g. "home" or "settings"',
            )
        )
        device = _string(
            item,
            "device",
            f"{where}.device",
            required=False,
            max_len=100,
            hint=f"use {DEVICES[0]!r} or leave it out",
        )
        if device is not None and device not in DEVICES:
            raise _invalid(
                "unsupported_device",
                f"{where}.device {device!r} is not supported; "
                f"v1 supports only {', '.join(DEVICES)} "
                "(leave device out to use it).",
            )
        devices.append(device or DEVICES[0])
        if "data" not in item or item["data"] is None:
            raise _invalid(
                "missing_field", f"{where}.data is required: the PNG file's bytes as base64."
            )
        text = item["data"]
        if not isinstance(text, str):
            raise _invalid(
                "invalid_type", f"{where}.data must be a base64 string, got {_type_name(text)}."
            )
        if _WHITESPACE.search(text):
            text = _WHITESPACE.sub("", text)
        payload = text.split(",", 1)[-1] if text.startswith("data:") else text
        if len(payload) > max_b64 + 4:
            raise Problem(
                413,
                "image_too_large",
                f"{where}.data decodes to about {len(payload) * 3 // 4 / 2**20:.1f} MiB; "
                f"each image may be at most {max_image_bytes / 2**20:g} MiB. "
                "Send a smaller PNG.",
            )
        encoded.append(text)

    bundle_id = (
        _string(
            data,
            "bundle_id",
            "bundle_id",
            required=False,
            max_len=155,
            hint='use reverse-domain form, e.g. "com.example.app"',
        )
        or ""
    )
    if bundle_id and not _BUNDLE_ID.match(bundle_id):
        raise _invalid(
            "invalid_bundle_id",
            f"bundle_id {bundle_id!r} is not in reverse-domain "
            'form; use e.g. "com.example.app" or leave it out.',
        )
    template = _string(
        data,
        "template",
        "template",
        required=False,
        max_len=100,
        hint=f"use {TEMPLATES[0]!r} or leave it out",
    )
    if template is not None and template not in TEMPLATES:
        raise _invalid(
            "unsupported_template",
            f"template {template!r} is not supported; v1 "
            f"supports only {', '.join(TEMPLATES)} "
            "(leave template out to use it).",
        )
    webhook_url = _string(
        data,
        "webhook_url",
        "webhook_url",
        required=False,
        max_len=MAX_URL,
        hint="give an absolute http(s) URL or leave it out",
    )
    if webhook_url is not None:
        _check_url(webhook_url)

    # Decoding is the expensive part (Pillow releases the GIL): a few threads; the first
    # bad image in request order is the one reported.
    threads = max(1, min(len(encoded), os.cpu_count() or 1, 4))
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="check-png") as pool:
        futures = [
            pool.submit(_decode_image, index, text, max_image_bytes)
            for index, text in enumerate(encoded)
        ]
        pngs = [future.result() for future in futures]

    return DesignRequest(
        project_name=project_name or "",
        images=pngs,
        screens=screens,
        devices=devices,
        bundle_id=bundle_id,
        template=template or TEMPLATES[0],
        webhook_url=webhook_url,
    )


def _decode_image(index: int, text: str, max_image_bytes: int) -> bytes:
    """Base64 to PNG bytes, fully decoded once to catch truncated or corrupt files."""
    name = f"images[{index}].data"
    try:
        png = decode_base64_png(text, name)
    except InputImageError as exc:
        raise _invalid("invalid_base64", str(exc)) from exc
    if len(png) > max_image_bytes:
        raise Problem(
            413,
            "image_too_large",
            f"{name} decodes to {len(png) / 2**20:.1f} MiB; each image may be at "
            f"most {max_image_bytes / 2**20:g} MiB. Send a smaller PNG.",
        )
    try:
        check_png(png, name)
    except InputImageError as exc:
        raise _invalid("invalid_image", str(exc)) from exc
    return png


def _check_url(url: str) -> None:
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
        elif any(ch.isspace() for ch in url):
            problem = "it contains white space"
        elif port == 0:
            problem = "port 0 is not a valid port"
    if problem:
        raise _invalid(
            "invalid_webhook_url",
            f"webhook_url {url[:200]!r} is not a valid absolute "
            f"URL ({problem}); give e.g. "
            '"https://example.com/hooks/shotsmith" or leave '
            "it out.",
        )


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
        locale = value.strip().replace("_", "-")
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
