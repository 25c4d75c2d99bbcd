"""Identifiers every adapter checks the same way: locales, bundle ids and app ids (slugs).

One copy of each rule, so the API, the project commands and capture accept the same
text. The patterns are strings too, for the API's request models (``pattern=``).
"""

from __future__ import annotations

import re

#: a BCP 47 language tag as the stores name locales: "en-US", "zh-Hans", "pt_BR"
LOCALE_PATTERN = r"^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8}){0,3}$"
#: a reverse-domain bundle id / application id: "com.example.app"
BUNDLE_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9-]*(\.[A-Za-z0-9][A-Za-z0-9-]*)+$"

LOCALE = re.compile(LOCALE_PATTERN)
BUNDLE_ID = re.compile(BUNDLE_ID_PATTERN)


def is_locale(text: str) -> bool:
    """``text`` (surrounding white space aside) is a locale such as en-US."""
    return isinstance(text, str) and LOCALE.fullmatch(text.strip()) is not None


def slugify(text: str) -> str:
    """An app id or file-name part from a name: lower case, runs of other characters -> '-'."""
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug or "app"
