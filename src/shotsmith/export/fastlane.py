"""Write a designed set where fastlane's ``deliver`` (App Store) and ``supply`` (Play) read it.

``deliver`` uploads every image in ``screenshots/<locale>/`` and tells display classes
apart by each file's pixel size, in file-name order; ``supply`` uploads
``metadata/android/<locale>/images/phoneScreenshots/`` (and ``sevenInchScreenshots``,
``tenInchScreenshots`` for tablets) in file-name order. So an App Store screenshot
becomes ``screenshots/<locale>/NN_<screen>.png`` and a Play one
``metadata/android/<locale>/images/phoneScreenshots/N.png``, numbered in store order.

The design output is read from its ``design.json`` tables (each row names its PNG,
device, locale and position), so any folder layout of a design run exports the same.
App Store sets also get their store text (``metadata/<locale>/subtitle.txt``,
``promotional_text.txt``, ``keywords.txt``; see :mod:`.store_text`), and App Store locale
folders use App Store Connect's codes (``ja``, ``zh-Hans``), as ``deliver`` requires.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from ..errors import ConflictError, InputFileError, InvalidOptionError
from .rules import APP_STORE, GOOGLE_PLAY, PLAY_FOLDERS, app_store_class, device_store
from .store_text import app_store_locale, write_store_text
from .validate import IMAGE_SUFFIXES


@dataclass(frozen=True)
class Exported:
    source: Path
    target: Path
    store: str
    locale: str


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "screen"


def _rows(design_out: Path) -> list[tuple[Path, dict]]:
    tables = [design_out / "design.json"] if (design_out / "design.json").exists() else []
    tables = tables or sorted(design_out.rglob("design.json"))
    if not tables:
        raise InputFileError(
            f"export: {design_out} holds no design.json; pass the folder `shotsmith design` "
            "wrote (e.g. out/<app>)."
        )
    out = []
    for table in tables:
        try:
            rows = json.loads(table.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InputFileError(f"export: cannot read {table} ({exc}).") from exc
        out += [(table, row) for row in rows if isinstance(row, dict)]
    return out


def export_fastlane(
    design_out: str | Path,
    dest: str | Path,
    *,
    app_id: str | None = None,
    overwrite: bool = False,
) -> list[Exported]:
    """Copy one app's designed screenshots into a fastlane folder at ``dest``.

    ``design_out`` is what ``shotsmith design``/``ss.design()`` wrote (a set's folder, or
    the output folder when it holds one app; ``app_id`` picks one of several). Target
    folders that already hold images are refused unless ``overwrite``, which replaces
    the images in exactly those folders (so ``deliver`` never uploads a stale file).
    """
    design_out, dest = Path(design_out), Path(dest)
    if not design_out.is_dir():
        raise InputFileError(f"export: {design_out} is not a folder.")
    rows = _rows(design_out)
    apps = sorted({str(row.get("app_id") or "") for _, row in rows})
    if app_id is not None:
        rows = [(t, r) for t, r in rows if str(r.get("app_id")) == app_id]
        if not rows:
            raise InvalidOptionError(
                f"export: no set {app_id!r} in {design_out}; sets there: {', '.join(apps)}."
            )
    elif len(apps) > 1:
        raise InvalidOptionError(
            f"export: {design_out} holds {len(apps)} sets ({', '.join(apps)}); a fastlane "
            f"folder is for one app: pass --app NAME (or the set's folder, e.g. "
            f"{design_out / apps[0]})."
        )

    plan: list[Exported] = []
    groups: dict[tuple[str, str, str], list[tuple[int, Path, dict]]] = defaultdict(list)
    for table, row in rows:
        ref = Path(str(row.get("render_path") or ""))
        source = ref if ref.exists() else table.parent / ref.name
        if not source.exists() or source.suffix.lower() not in IMAGE_SUFFIXES:
            raise InputFileError(
                f"export: {table} names {ref}, which is not there; design the set again."
            )
        store, kind = device_store(str(row.get("layout_device") or row.get("device") or ""))
        width, height = int(row.get("render_width") or 0), int(row.get("render_height") or 0)
        if store != GOOGLE_PLAY:
            store = APP_STORE if app_store_class(width, height) else GOOGLE_PLAY
        locale = str(row.get("locale") or "en-US")
        if store == APP_STORE:
            locale = app_store_locale(locale)  # deliver's folder names: "ja", "zh-Hans"
        key = app_store_class(width, height) or "" if store == APP_STORE else kind
        groups[(store, locale, key)].append((int(row.get("position") or 0), source, row))

    classes_per_locale: dict[str, set[str]] = defaultdict(set)
    for store, locale, key in groups:
        if store == APP_STORE:
            classes_per_locale[locale].add(key)
    for (store, locale, key), members in sorted(groups.items()):
        members.sort(key=lambda m: m[0])
        for n, (_, source, row) in enumerate(members, start=1):
            if store == APP_STORE:
                # deliver sorts by name and tells classes apart by size; a class suffix
                # keeps two sizes of one screen from overwriting each other
                suffix = f"-{key}in" if len(classes_per_locale[locale]) > 1 else ""
                name = f"{n:02d}_{_slug(str(row.get('screen') or ''))}{suffix}{source.suffix}"
                target = dest / "screenshots" / locale / name
            else:
                target = (
                    dest
                    / "metadata"
                    / "android"
                    / locale
                    / "images"
                    / PLAY_FOLDERS[key]
                    / f"{n}{source.suffix}"
                )
            plan.append(Exported(source, target, store, locale))

    folders = sorted({e.target.parent for e in plan})
    busy = [f for f in folders if f.is_dir() and any(_is_image(p) for p in f.iterdir())]
    if busy and not overwrite:
        raise ConflictError(
            "export: these fastlane folders already hold screenshots, which deliver/supply "
            f"would upload too: {', '.join(map(str, busy))}. Pass --overwrite to replace "
            "them, or export to an empty folder."
        )
    for folder in busy:
        for p in folder.iterdir():
            if _is_image(p):
                p.unlink()
    for e in plan:
        e.target.parent.mkdir(parents=True, exist_ok=True)
        tmp = e.target.with_name(e.target.name + ".tmp")
        shutil.copyfile(e.source, tmp)
        os.replace(tmp, e.target)
    if any(e.store == APP_STORE for e in plan):
        for path in write_store_text([r for _, r in rows], dest):
            plan.append(Exported(path, path, "app-store-text", path.parent.name))
    return plan


def _is_image(path: Path) -> bool:
    return path.is_file() and path.suffix.lower() in IMAGE_SUFFIXES
