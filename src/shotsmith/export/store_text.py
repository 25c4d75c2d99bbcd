"""The App Store text of a designed set, where ``deliver`` reads it.

``write_copy`` puts a subtitle, promotional text and keyword field per set and locale in
``copy_store_text`` (grounded in the screens like the captions); ``deliver`` uploads
``metadata/<locale>/subtitle.txt``, ``promotional_text.txt`` and ``keywords.txt``. Its
locale folders are App Store Connect's codes (``ja``, not ``ja-JP``; ``zh-Hans``), so
locales are mapped with ``data/store_locales.json``. Limits are checked again on the way
out, so a hand-edited design.json cannot ship an over-long field.
"""

from __future__ import annotations

import json
import os
from functools import lru_cache
from importlib import resources
from pathlib import Path

from ..errors import StoreRuleError
from ..locales import DEFAULT_LOCALE, normalize_locale

LIMITS = {"subtitle": 30, "promotional_text": 170, "keywords": 100}
FILES = {
    "subtitle": "subtitle.txt",
    "promotional_text": "promotional_text.txt",
    "keywords": "keywords.txt",
}


@lru_cache(maxsize=1)
def _locales() -> tuple[dict[str, str], dict[str, str]]:
    data = json.loads(
        resources.files("shotsmith").joinpath("data/store_locales.json").read_text("utf-8")
    )
    codes = {c.casefold(): c for c in data["app_store"]}
    aliases = {k.casefold(): v for k, v in data["aliases"].items()}
    return codes, aliases


def app_store_locale(locale: str) -> str:
    """The folder name ``deliver`` uses for ``locale`` ("ja-JP" -> "ja", "zh-CN" -> "zh-Hans");
    a locale App Store Connect does not know is kept as written."""
    codes, aliases = _locales()
    key = normalize_locale(locale).casefold()
    if key in codes:
        return codes[key]
    if key in aliases:
        return aliases[key]
    lang = key.split("-")[0]
    if lang in codes:
        return codes[lang]
    if lang in aliases:
        return aliases[lang]
    return locale


def store_text_problems(text: dict, project: str = "") -> list[str]:
    """What breaks App Store Connect's limits in one set's store text."""
    problems = []
    for key, limit in LIMITS.items():
        value = str(text.get(key) or "")
        if len(value) > limit:
            problems.append(f"{key} is {len(value)} characters (App Store limit {limit})")
    keywords = [
        k.strip().casefold() for k in str(text.get("keywords") or "").split(",") if k.strip()
    ]
    if len(keywords) != len(set(keywords)):
        problems.append("keywords repeat a keyword")
    name = {w.casefold() for w in project.split()}
    if name & set(keywords):
        problems.append(
            f"keywords repeat the app's name ({', '.join(sorted(name & set(keywords)))})"
        )
    return problems


def write_store_text(rows: list[dict], dest: Path) -> list[Path]:
    """Write each locale's subtitle/promotional text/keywords under ``dest/metadata``."""
    per_locale: dict[str, tuple[dict, str]] = {}
    for row in rows:
        text = row.get("copy_store_text")
        if isinstance(text, dict) and any(text.get(k) for k in FILES):
            locale = app_store_locale(str(row.get("locale") or DEFAULT_LOCALE))
            per_locale.setdefault(locale, (text, str(row.get("project_name") or "")))
    written: list[Path] = []
    for locale, (text, project) in sorted(per_locale.items()):
        problems = store_text_problems(text, project)
        if problems:
            raise StoreRuleError(
                f"export: the {locale} store text breaks App Store rules: {'; '.join(problems)}. "
                "Fix copy_store_text in design.json or design the set again."
            )
        folder = dest / "metadata" / locale
        folder.mkdir(parents=True, exist_ok=True)
        for key, name in FILES.items():
            value = str(text.get(key) or "")
            if not value:
                continue
            target = folder / name
            tmp = target.with_name(name + ".tmp")
            tmp.write_text(value + "\n", encoding="utf-8")
            os.replace(tmp, target)
            written.append(target)
    return written
