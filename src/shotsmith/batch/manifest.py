"""The manifest: the CSV that lists the apps of a batch (``source`` and optional columns)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pandas as pd

from ..errors import (
    InputFileError,
    InvalidOptionError,
)
from ..ids import slugify
from ..stages.read import manifest_project_name
from ..variants import check_variants

URL_RE = re.compile(r"^https?://", re.I)


MANIFEST_COLUMNS = (
    "source",
    "project_name",
    "bundle_id",
    "app_id",
    "locale",
    "about",
    "copy",
    "variants",
)


def read_manifest(manifest: str | Path | pd.DataFrame) -> pd.DataFrame:
    """The apps of a manifest CSV (or frame), one row each, with resolved sources and
    unique ``app_id``s. Columns: source, project_name, bundle_id, app_id, locale, about,
    copy (a resolved path or ""), variants (the sets to design for a store experiment, 1
    to 4; 0 where the row leaves it to the batch), kind."""
    base = Path.cwd()
    if isinstance(manifest, pd.DataFrame):
        table = manifest.copy()
    else:
        path = Path(manifest)
        if not path.is_file():
            raise InputFileError(
                f"{path}: no such manifest. Write a CSV with a 'source' "
                "column (folder or URL) and optional project_name, bundle_id."
            )
        base = path.resolve().parent
        try:
            table = pd.read_csv(
                path, dtype=str, keep_default_na=False, skipinitialspace=True, comment="#"
            )
        except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
            raise InputFileError(f"{path}: not a readable CSV manifest ({exc}).") from exc
    table.columns = [str(c).strip().lower() for c in table.columns]
    if "source" not in table.columns:
        raise InputFileError(
            f"manifest: no 'source' column (found {list(table.columns)}); "
            "each row needs a screenshot folder or a web app URL."
        )
    rows, seen = [], set()
    for rec in table.to_dict("records"):
        source = str(rec.get("source") or "").strip()
        if not source:
            continue
        name = str(rec.get("project_name") or "").strip()
        bundle = str(rec.get("bundle_id") or "").strip()
        copy_file = str(rec.get("copy") or "").strip()
        if copy_file:
            copy_path = Path(copy_file).expanduser()
            copy_file = str(copy_path if copy_path.is_absolute() else (base / copy_path).resolve())
        if URL_RE.match(source):
            kind = "url"
            fallback = re.sub(r"^www\.", "", re.sub(URL_RE, "", source).split("/")[0])
        else:
            kind = "folder"
            folder = Path(source).expanduser()
            source = str(folder if folder.is_absolute() else (base / folder).resolve())
            fallback = manifest_project_name(Path(source)) or Path(source).name
        app_id = slugify(str(rec.get("app_id") or "").strip() or name or fallback)
        unique, n = app_id, 2
        while unique in seen:
            unique, n = f"{app_id}-{n}", n + 1
        seen.add(unique)
        variants = _variants(rec.get("variants"), unique)
        rows.append(
            {
                "source": source,
                "project_name": name,
                "bundle_id": bundle,
                "app_id": unique,
                "locale": str(rec.get("locale") or "").strip(),
                "about": str(rec.get("about") or "").strip(),
                "copy": copy_file,
                "variants": variants,
                "kind": kind,
            }
        )
    if not rows:
        raise InputFileError("manifest: no apps (every 'source' is empty).")
    return pd.DataFrame(rows)


def _variants(value: Any, app_id: str) -> int:
    """A row's ``variants`` cell as a count (0: blank, the batch's own count applies)."""
    text = str(value if value is not None else "").strip()
    if not text or text.lower() == "nan":
        return 0
    try:
        return check_variants(text.removesuffix(".0"))
    except InvalidOptionError as exc:
        raise InvalidOptionError(f"manifest: app {app_id!r}: {exc}") from None


def write_manifest(apps: list[dict[str, Any]] | pd.DataFrame, path: str | Path) -> Path:
    """Write a manifest CSV (columns source, project_name, bundle_id, and any of app_id,
    locale, about, copy, variants that the apps have)."""
    table = pd.DataFrame(apps)
    if "source" not in table.columns:
        raise InvalidOptionError("write_manifest: every app needs a 'source'.")
    cols = [c for c in MANIFEST_COLUMNS if c in table.columns]
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    table[cols].to_csv(path, index=False)
    return path
