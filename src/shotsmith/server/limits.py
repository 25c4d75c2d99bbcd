"""The /v1 API's limits and patterns: one copy, read by the hand validation
(:mod:`.validation`) and by the request models (:mod:`.models`) that document it."""

from __future__ import annotations

import math

from ..ids import BUNDLE_ID_PATTERN, LOCALE_PATTERN

__all__ = [
    "BASE64_PATTERN",
    "BUNDLE_ID_PATTERN",
    "COLLECTION_ID_PATTERN",
    "DEVICES",
    "DEVICE_SIZE_PATTERN",
    "LOCALE_PATTERN",
    "MAX_BODY_BYTES",
    "MAX_COLLECTION_BODY",
    "MAX_DEVICE_SIZES",
    "MAX_IMAGES",
    "MAX_IMAGE_BYTES",
    "MAX_NAME",
    "MAX_SCREEN",
    "MAX_URL",
    "TEMPLATES",
    "TEXT_PATTERN",
    "WEBHOOK_URL_PATTERN",
]

MAX_IMAGES = 10
MAX_IMAGE_BYTES = 10 * 1024 * 1024  # "10 MB" read generously as 10 MiB decoded
MAX_NAME = 200
MAX_SCREEN = 100
MAX_URL = 2048
DEVICES = ("iphone-16-pro",)
TEMPLATES = ("default",)
#: Room for ten maximal images in base64 (+5% for JSON escapes such as ``\/``) and the rest.
MAX_BODY_BYTES = int(MAX_IMAGES * 4 * math.ceil(MAX_IMAGE_BYTES / 3) * 1.05) + 1024 * 1024
#: Text fields (project_name, screen): some visible character, no control characters.
TEXT_PATTERN = r"^[^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f][^\x00-\x1f\x7f-\x9f]*$"
#: An absolute http(s) URL with a host and no white space.
WEBHOOK_URL_PATTERN = r"^[Hh][Tt][Tt][Pp][Ss]?://[^\s/?#@]*@?[^\s/?#]+([/?#]\S*)?$"
#: A base64 PNG as images[].data takes it (a data: URL prefix, line breaks allowed).
BASE64_PATTERN = r"^(data:[^,]*,)?[A-Za-z0-9+/=\s]+$"

#: A device size as the collection endpoint takes it: inches as text, optionally
#: qualified by platform ("6.9", "android:6.3").
DEVICE_SIZE_PATTERN = r"^((ios|android):)?[0-9]{1,2}(\.[0-9]{1,2})?$"
MAX_DEVICE_SIZES = 10
MAX_COLLECTION_BODY = 64 * 1024
COLLECTION_ID_PATTERN = r"^col_[0-9a-f]{20}$"
