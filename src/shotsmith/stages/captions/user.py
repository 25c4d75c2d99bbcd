"""Copy the user wrote always wins: a CSV of ``screen, headline, subtitle`` or a frame edit.

Rows are matched by screen name (case, file number and extension aside) and optional
locale; unmatched rows are reported. User lines are kept verbatim and only warned about.
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
from ...errors import ShotsmithError
from ...grounding import (
    grounding_problems,
)
from .evidence import as_text
from .rules import headline_problems, subtitle_problems
from .writer import SetContext, proper_words

log = logging.getLogger("shotsmith.copy")

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
    return str(value or "").strip().replace("_", "-").casefold()


def read_user_copy(copy: str | Path | pd.DataFrame) -> pd.DataFrame:
    """The user's own captions: a CSV path or a frame with ``screen, headline, subtitle``
    (optional ``locale``, ``app_id``). A blank cell leaves that line to the writer."""
    if isinstance(copy, pd.DataFrame):
        table = copy.copy()
        where = "the copy table"
    else:
        path = Path(copy)
        where = str(path)
        if not path.is_file():
            raise ShotsmithError(
                f"copy: {where} is not a file. Pass a CSV with the columns "
                "screen, headline, subtitle (optional locale)."
            )
        try:
            table = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8-sig")
        except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
            raise ShotsmithError(
                f"copy: {where} is not a readable UTF-8 CSV ({type(exc).__name__}: "
                f"{' '.join(str(exc).split())[:120]}). Save it as CSV with the columns "
                "screen, headline, subtitle."
            ) from None
    table.columns = [str(c).strip().casefold() for c in table.columns]
    missing = [c for c in ("screen", "headline", "subtitle") if c not in table.columns]
    if missing:
        raise ShotsmithError(
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
        raise ShotsmithError(
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
        hits = [
            k
            for k in range(n)
            if keys[k] == key
            and (not want_locale or locales[k] == want_locale)
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


def warn_user_lines(app: str, screens: Sequence[str], fixed, ctx: SetContext) -> None:
    grounding = ctx.grounding()
    proper = proper_words(ctx.project)
    for screen, (head, sub) in zip(screens, fixed):
        for kind, text, check in (
            ("headline", head, headline_problems),
            ("subtitle", sub, subtitle_problems),
        ):
            if not text:
                continue
            problems = check(text, proper=proper, strict=False)
            claims = [p.split("'")[1] for p in grounding_problems(text, grounding)]
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
