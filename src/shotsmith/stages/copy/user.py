"""Copy the user wrote always wins: a copy file or a frame edit.

The copy file is whatever the user already keeps their store captions in:

* a CSV of ``screen, headline, subtitle`` with an optional ``locale`` column (one row
  per screen and locale);
* fastlane frameit's ``title.strings`` (the headline) and ``keyword.strings`` (the
  subtitle), ``"<screen>" = "<text>";``, UTF-8 or UTF-16; the locale is the folder they
  sit in (``screenshots/ja/title.strings``). Pass one file (its sibling is read too) or
  the ``screenshots`` folder (every ``<locale>/title.strings`` under it);
* an Xcode string catalogue (``.xcstrings``) with keys ``<screen>.headline`` and
  ``<screen>.subtitle``, one row per screen and translated locale.

Rows are matched by screen name (case, file number and extension aside) and optional
locale (a bare language such as ``ja`` matches ``ja-JP``); unmatched rows are reported.
User lines are kept verbatim and only warned about.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from ...columns import (
    APP_ID,
    COPY_HEADLINE,
    COPY_SOURCE,
    COPY_SUBTITLE,
    LOCALE,
    SCREEN,
)
from ...errors import InputFileError, InvalidOptionError
from ...grounding import (
    grounding_problems,
)
from ...ids import is_locale
from ...locales import is_english, normalize_locale
from .evidence import as_text
from .rules import headline_problems, subtitle_problems
from .writer import SetContext, _reads_english, proper_words

log = logging.getLogger("shotsmith.copy")
_locale_log = logging.getLogger("shotsmith.locales")

# --------------------------------------------------------------------------------------
# Copy the user wrote
# --------------------------------------------------------------------------------------

USER = "user"
_USER_SOURCES = {
    "user": (True, True),
    "user (headline)": (True, False),
    "user (subtitle)": (False, True),
}


def screen_key(name: object) -> str:
    """How screens are matched: case, file number and extension do not matter."""
    text = str(name or "").strip()
    text = re.sub(r"\.(png|jpe?g|webp)$", "", text, flags=re.IGNORECASE)
    text = re.sub(r"^\d+[_\-. ]+", "", text)
    return " ".join(re.split(r"[_\-\s]+", text.casefold())).strip()


def _locale_key(value: object) -> str:
    text = str(value or "").strip()
    return normalize_locale(text).casefold() if text else ""


_STRINGS_ENTRY = re.compile(r'"((?:[^"\\]|\\.)*)"\s*=\s*"((?:[^"\\]|\\.)*)"\s*;')
_STRINGS_COMMENT = re.compile(r"/\*.*?\*/|^\s*//[^\n]*", re.DOTALL | re.MULTILINE)


def _unescape(text: str) -> str:
    return re.sub(
        r"\\(u[0-9a-fA-F]{4}|.)",
        lambda m: (
            chr(int(m.group(1)[1:], 16))
            if m.group(1).startswith("u") and len(m.group(1)) == 5
            else {"n": " ", "t": " "}.get(m.group(1), m.group(1))
        ),
        text,
    )


def _read_strings(path: Path) -> dict[str, str]:
    """A ``.strings`` file's ``"key" = "value";`` pairs (UTF-16 with a BOM, or UTF-8)."""
    raw = path.read_bytes()
    try:
        text = (
            raw.decode("utf-16")
            if raw[:2] in (b"\xff\xfe", b"\xfe\xff")
            else raw.decode("utf-8-sig")
        )
    except UnicodeDecodeError:
        raise InputFileError(
            f"copy: {path} is neither UTF-8 nor UTF-16; save it in one of those."
        ) from None
    text = _STRINGS_COMMENT.sub("", text)
    pairs = {_unescape(k): _unescape(v) for k, v in _STRINGS_ENTRY.findall(text)}
    if not pairs and text.strip():
        raise InputFileError(
            f'copy: {path} has no "screen" = "text"; lines. frameit\'s title.strings looks '
            'like: "home" = "Plan your week";'
        )
    return pairs


def _frameit_table(path: Path) -> pd.DataFrame:
    if path.is_dir():
        folders = sorted(
            {p.parent for p in path.glob("*/*.strings") if p.stem in ("title", "keyword")}
        )
        if not folders:
            raise InputFileError(
                f"copy: {path} holds no <locale>/title.strings; pass a CSV, a .strings file "
                "or fastlane's screenshots folder."
            )
    else:
        folders = [path.parent]
    rows: dict[tuple[str, str], dict[str, str]] = {}
    for folder in folders:
        locale = folder.name if is_locale(folder.name) else ""
        for stem, column in (("title", "headline"), ("keyword", "subtitle")):
            file = folder / f"{stem}.strings"
            if not file.is_file():
                continue
            for key, value in _read_strings(file).items():
                row = rows.setdefault((key, locale), {"screen": key, "locale": locale})
                row[column] = value
    if not path.is_dir() and path.stem not in ("title", "keyword"):
        for key, value in _read_strings(path).items():
            rows.setdefault((key, ""), {"screen": key, "locale": ""})["headline"] = value
    return pd.DataFrame(
        [{"headline": "", "subtitle": "", **r} for r in rows.values()],
        columns=["screen", "headline", "subtitle", "locale"],
    )


def _xcstrings_table(path: Path) -> pd.DataFrame:
    import json

    try:
        catalog = json.loads(path.read_text(encoding="utf-8-sig"))
        strings = catalog["strings"]
    except (ValueError, KeyError, TypeError) as exc:
        raise InputFileError(
            f"copy: {path} is not an Xcode string catalogue ({type(exc).__name__}); it needs "
            'a "strings" object with keys like "home.headline" and "home.subtitle".'
        ) from None
    rows: dict[tuple[str, str], dict[str, str]] = {}
    for key, entry in strings.items():
        screen, _, part = str(key).rpartition(".")
        column = {"headline": "headline", "title": "headline", "subtitle": "subtitle"}.get(
            part.casefold()
        )
        if not screen or column is None:
            continue
        for locale, loc in ((entry or {}).get("localizations") or {}).items():
            unit = (loc or {}).get("stringUnit") or {}
            value = unit.get("value")
            if isinstance(value, str) and value.strip():
                row = rows.setdefault((screen, locale), {"screen": screen, "locale": locale})
                row[column] = value
    if not rows:
        raise InputFileError(
            f"copy: {path} has no translated keys named <screen>.headline or "
            "<screen>.subtitle; add them in Xcode's string catalogue editor."
        )
    return pd.DataFrame(
        [{"headline": "", "subtitle": "", **r} for r in rows.values()],
        columns=["screen", "headline", "subtitle", "locale"],
    )


def read_user_copy(copy: str | Path | pd.DataFrame) -> pd.DataFrame:
    """The user's own captions: a CSV path or a frame with ``screen, headline, subtitle``
    (optional ``locale``, ``app_id``), frameit ``title.strings``/``keyword.strings`` (a
    file or fastlane's screenshots folder) or an Xcode ``.xcstrings`` catalogue. A blank
    cell leaves that line to the writer."""
    if isinstance(copy, pd.DataFrame):
        table = copy.copy()
        where = "the copy table"
    elif Path(copy).suffix.lower() == ".strings" or Path(copy).is_dir():
        table, where = _frameit_table(Path(copy)), str(copy)
    elif Path(copy).suffix.lower() == ".xcstrings" and Path(copy).is_file():
        table, where = _xcstrings_table(Path(copy)), str(copy)
    else:
        path = Path(copy)
        where = str(path)
        if not path.is_file():
            raise InputFileError(
                f"copy: {where} is not a file. Pass a CSV with the columns "
                "screen, headline, subtitle (optional locale), frameit's title.strings "
                "or an Xcode .xcstrings catalogue."
            )
        try:
            table = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8-sig")
        except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
            raise InputFileError(
                f"copy: {where} is not a readable UTF-8 CSV ({type(exc).__name__}: "
                f"{' '.join(str(exc).split())[:120]}). Save it as CSV with the columns "
                "screen, headline, subtitle."
            ) from None
    table.columns = [str(c).strip().casefold() for c in table.columns]
    missing = [c for c in ("screen", "headline", "subtitle") if c not in table.columns]
    if missing:
        raise InputFileError(
            f"copy: {where} has no column {', '.join(repr(c) for c in missing)}. "
            f"It needs screen, headline, subtitle (optional locale); it has "
            f"{', '.join(map(str, table.columns)) or 'no columns'}."
        )
    keep = [c for c in ("screen", "headline", "subtitle", "locale", "app_id") if c in table]
    table = table[keep].fillna("").astype(str)
    for c in keep:
        table[c] = table[c].map(lambda v: " ".join(v.split()))
    table = table[table["screen"] != ""]
    dupes = table.assign(_k=table["screen"].map(screen_key)).duplicated(
        [c for c in ("_k", "locale", "app_id") if c in table or c == "_k"], keep=False
    )
    if dupes.any():
        names = sorted(set(table.loc[dupes, "screen"]))
        raise InputFileError(
            f"copy: {where} gives captions for {', '.join(map(repr, names))} more than once; "
            "keep one row per screen (and locale)."
        )
    return table.reset_index(drop=True)


def user_lines(
    frame: pd.DataFrame, copy: str | Path | pd.DataFrame | None
) -> dict[int, tuple[str | None, str | None]]:
    """Per row position, the user's (headline, subtitle): frame edits, then the CSV."""
    n = len(frame)
    out: dict[int, tuple[str | None, str | None]] = {}
    if COPY_SOURCE in frame.columns:
        heads = frame[COPY_HEADLINE].tolist() if COPY_HEADLINE in frame else [None] * n
        subs = frame[COPY_SUBTITLE].tolist() if COPY_SUBTITLE in frame else [None] * n
        for k, source in enumerate(frame[COPY_SOURCE].tolist()):
            keep_head, keep_sub = _USER_SOURCES.get(str(source).strip(), (False, False))
            head = as_text(heads[k]) if keep_head else ""
            sub = as_text(subs[k]) if keep_sub else ""
            if head or sub:
                out[k] = (head or None, sub or None)
    if copy is None:
        return out
    table = read_user_copy(copy)
    keys = [screen_key(s) for s in (frame[SCREEN].tolist() if SCREEN in frame else [""] * n)]
    locales = [_locale_key(v) for v in (frame[LOCALE].tolist() if LOCALE in frame else [""] * n)]
    apps = [str(v) for v in frame[APP_ID].tolist()]
    for rec in table.to_dict("records"):
        key = screen_key(rec["screen"])
        want_locale = _locale_key(rec.get("locale", ""))
        want_app = str(rec.get("app_id", "") or "")
        if want_locale and not any(
            loc == want_locale or loc.split("-")[0] == want_locale for loc in locales
        ):
            continue  # a row for another locale than this set's
        hits = [
            k
            for k in range(n)
            if keys[k] == key
            and (
                not want_locale
                or locales[k] == want_locale
                or ("-" not in want_locale and locales[k].split("-")[0] == want_locale)
            )
            and (not want_app or apps[k] == want_app)
        ]
        if not hits:
            known = ", ".join(dict.fromkeys(str(s) for s in frame[SCREEN].tolist()))
            extra = f" and locale {rec['locale']!r}" if want_locale else ""
            log.warning(
                "copy: no screen named %r%s in the set (screens: %s); its headline and "
                "subtitle were not used. Use one of those names in the copy file.",
                rec["screen"],
                extra,
                known,
            )
            continue
        for k in hits:
            old_head, old_sub = out.get(k, (None, None))
            out[k] = (rec["headline"] or old_head, rec["subtitle"] or old_sub)
    return out


def screens_without_copy(
    frame: pd.DataFrame, copy: str | Path | pd.DataFrame | None
) -> dict[tuple[str, str], list[str]]:
    """Per (app_id, locale) of a non-English set, the screens with neither a headline nor a
    subtitle of the user's in that locale (from ``copy`` or the frame's own user lines)."""
    if LOCALE not in frame.columns:
        return {}
    out: dict[tuple[str, str], list[str]] = {}
    for (app, locale), rows in frame.groupby([APP_ID, LOCALE], sort=False):
        if is_english(locale):
            continue
        rows = rows.reset_index(drop=True)
        lines = user_lines(rows, copy)
        screens = rows[SCREEN].tolist() if SCREEN in rows else [""] * len(rows)
        missing = [str(screens[k]) for k in range(len(rows)) if not any(lines.get(k, ()))]
        if missing:
            out[(str(app), normalize_locale(locale))] = missing
    return out


def check_copy_language(
    frame: pd.DataFrame,
    copy: str | Path | pd.DataFrame | None,
    *,
    source: str = "FOLDER",
    strict: bool = False,
) -> list[str]:
    """Say which screens of a non-English set have no copy in its language, and what to do;
    with ``strict`` that is an error. Returns the messages (logged as warnings)."""
    messages = []
    for (app, locale), screens in screens_without_copy(frame, copy).items():
        same = (frame[APP_ID].astype(str) == app) & (frame[LOCALE].map(normalize_locale) == locale)
        total = int(same.sum())
        messages.append(
            f"{app}: {len(screens)} of {total} screens have no {locale} copy "
            f"({', '.join(screens)}); they get captions from the screens' own words, "
            f"English where the screens are English. Write them: `shotsmith copy-template "
            f"{source} --locale {locale} > {locale}.csv`, fill it in, and pass "
            f"--copy {locale}.csv"
        )
    if messages and strict:
        raise InvalidOptionError(
            "--strict-locale: " + " | ".join(messages) + " (nothing was written)."
        )
    for message in messages:
        _locale_log.warning("%s (--strict-locale makes this an error).", message)
    return messages


def warn_user_lines(app: str, screens: Sequence[str], fixed, ctx: SetContext) -> None:
    grounding = ctx.grounding()
    proper = proper_words(ctx.project)
    # a translation of English screens cannot use the screens' words: do not flag that
    translated = not ctx.english and _reads_english(
        [s for ev in ctx.evidence for s in ev.strings()]
    )
    for screen, (head, sub) in zip(screens, fixed):
        for kind, text, check in (
            ("headline", head, headline_problems),
            ("subtitle", sub, subtitle_problems),
        ):
            if not text:
                continue
            problems = check(text, proper=proper, strict=False)
            claims = (
                [] if translated else [p.split("'")[1] for p in grounding_problems(text, grounding)]
            )
            if claims:
                problems.append(f"words not on the screens: {', '.join(claims)}")
            if problems:
                log.warning(
                    "copy: %s screen %r: your %s %r is kept as written, though: %s",
                    app,
                    screen,
                    kind,
                    text,
                    "; ".join(problems),
                )
