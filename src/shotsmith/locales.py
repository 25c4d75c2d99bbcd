"""Locales: one spelling, the stores' folder codes, and whether a set has copy in its language.

A locale is written the way the stores list it: language lower case, script title case,
region upper case, hyphenated (``ja-JP``, ``zh-Hans``, ``pt-BR``); ``DEFAULT_LOCALE`` is
what a set without one gets. The two stores name the same language differently
(App Store Connect ``he``, ``ar-SA``, ``th``, ``zh-Hans``; Google Play ``iw-IL``, ``ar``,
``th``, ``zh-CN``), and fastlane refuses a folder the store does not know, so
:func:`app_store_locale` and :func:`play_locale` map a locale onto each store's list
(``data/store_locales.json``, taken from fastlane's own lists).

A set in another language than English needs captions in that language;
:func:`reads_english` tells whether a line is English rather than the set's language.
"""

from __future__ import annotations

import difflib
import json
import logging
import re
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

from .errors import InvalidOptionError

log = logging.getLogger("shotsmith.locales")

DEFAULT_LOCALE = "en-US"

_TAG = re.compile(r"[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*")


@lru_cache(maxsize=1)
def _table() -> dict[str, Any]:
    return json.loads(
        resources.files("shotsmith").joinpath("data/store_locales.json").read_text("utf-8")
    )


def normalize_locale(locale: object) -> str:
    """``locale`` spelt as the stores spell it ("ja_jp" -> "ja-JP", "zh-hans" -> "zh-Hans");
    empty or missing -> ``DEFAULT_LOCALE``."""
    text = str(locale or "").strip().replace("_", "-")
    if not text or text.casefold() in ("nan", "none"):
        return DEFAULT_LOCALE
    parts = text.split("-")
    out = [parts[0].lower()]
    for part in parts[1:]:
        if len(part) == 4 and part.isalpha():
            out.append(part.title())
        elif len(part) == 2 or part.isdigit():
            out.append(part.upper())
        else:
            out.append(part)
    return "-".join(out)


def language_of(locale: object) -> str:
    """The language of ``locale``, as a lower-case code ("ja-JP" -> "ja"; Play's "iw" -> "he",
    "nb" -> "no")."""
    lang = normalize_locale(locale).split("-")[0]
    return {"iw": "he", "nb": "no"}.get(lang, lang)


def is_english(locale: object) -> bool:
    return language_of(locale) == "en"


def _lookup(codes: Sequence[str], aliases: dict[str, str], locale: str) -> str | None:
    by_key = {c.casefold(): c for c in codes}
    alias = {k.casefold(): v for k, v in aliases.items()}
    key = normalize_locale(locale).casefold()
    for candidate in (key, key.split("-")[0]):
        if candidate in by_key:
            return by_key[candidate]
        if candidate in alias:
            return alias[candidate]
    return None


def app_store_locale(locale: object) -> str | None:
    """The folder ``deliver`` reads for ``locale`` ("ja-JP" -> "ja", "zh-CN" -> "zh-Hans",
    "he-IL" -> "he"); None when App Store Connect has no such localization."""
    table = _table()
    return _lookup(table["app_store"], table["aliases"], str(locale or ""))


def play_locale(locale: object) -> str | None:
    """The folder ``supply`` reads for ``locale`` ("ar-SA" -> "ar", "he" -> "iw-IL",
    "th-TH" -> "th", "ja" -> "ja-JP", "zh-Hans" -> "zh-CN"); None when Google Play has no
    such listing language."""
    table = _table()
    codes, aliases = table["google_play"], table["play_aliases"]
    found = _lookup(codes, aliases, str(locale or ""))
    if found is not None:
        return found
    app = app_store_locale(locale)
    if app is not None:
        return _lookup(codes, aliases, app)
    lang = language_of(locale)
    same = [c for c in codes if language_of(c) == lang]
    return same[0] if len(same) == 1 else None


def app_store_codes() -> list[str]:
    """The locale folders ``deliver`` accepts (App Store Connect's localizations)."""
    return list(_table()["app_store"])


def play_codes() -> list[str]:
    """The locale folders ``supply`` accepts (Google Play's listing languages)."""
    return list(_table()["google_play"])


def store_locales() -> list[str]:
    """Every code either store lists."""
    return sorted(set(app_store_codes()) | set(play_codes()))


def check_locale(locale: object, what: str = "--locale") -> str:
    """``locale`` normalised, when at least one store has a listing language for it; else
    an :class:`InvalidOptionError` naming the close matches."""
    text = str(locale or "").strip()
    if _TAG.fullmatch(text):
        norm = normalize_locale(text)
        if app_store_locale(norm) is not None or play_locale(norm) is not None:
            return norm
    codes = store_locales()
    lang = text.replace("_", "-").split("-")[0].casefold()
    meant = _table()["mistakes"].get(lang) or _table()["mistakes"].get(text.casefold())
    close = [meant] if meant else []
    close += [c for c in codes if language_of(c) == lang]
    close += [c for c in difflib.get_close_matches(text, codes, n=4, cutoff=0.5) if c not in close]
    hint = (
        f"close matches: {', '.join(close[:6])}" if close else "e.g. en-US, ja-JP, de-DE, zh-Hans"
    )
    raise InvalidOptionError(
        f"{what} {text!r} is not a language either store lists; {hint} "
        "(docs/store-rules.md lists every code)."
    )


def reads_english(text: str, locale: object) -> bool:
    """``text`` is English rather than ``locale``'s language: Latin letters, mostly ASCII,
    and its words more common in English than in that language (``wordfreq``)."""
    letters = [c for c in text if c.isalpha()]
    if not letters or sum(c.isascii() for c in letters) / len(letters) < 0.9:
        return False
    lang = language_of(locale)
    if lang == "en" or lang in _table()["non_latin_languages"]:
        return True
    from .words import word_frequency

    words = [w.casefold() for w in re.findall(r"[^\W\d_]+", text)]
    try:
        english = sum(word_frequency(w, "en") for w in words)
        other = sum(word_frequency(w, lang) for w in words)
    except ImportError:  # a language whose word list needs a tokenizer not installed
        return True
    return english > other
