"""Write a designed set where fastlane's ``deliver`` (App Store) and ``supply`` (Play) read it.

``deliver`` uploads every image in ``screenshots/<locale>/`` and tells display classes
apart by each file's pixel size, in file-name order; ``supply`` uploads
``metadata/android/<locale>/images/phoneScreenshots/`` (and ``sevenInchScreenshots``,
``tenInchScreenshots`` for tablets) in file-name order. So an App Store screenshot
becomes ``screenshots/<locale>/NN_<screen>.png`` and a Play one
``metadata/android/<locale>/images/phoneScreenshots/N.png``, numbered in store order.

Each store names locale folders its own way, and fastlane refuses a name its store does
not list: App Store folders use App Store Connect's codes (``ja``, ``ar-SA``, ``he``,
``zh-Hans``), Play folders Google Play's (``ja-JP``, ``ar``, ``iw-IL``, ``zh-CN``); see
:mod:`shotsmith.locales`.

One app has several device sets (iPhone, iPad, Android), each designed on its own and
exported into the same folder one after another: an export replaces only the files of
its own display class (App Store) or device type (Play), so the iPad set lands beside the
iPhone set. Files of the same class are refused unless ``overwrite``.

The design output is read from its ``design.json`` tables (each row names its PNG,
device, locale and position), so any folder layout of a design run exports the same.
App Store sets also get their store text (``metadata/<locale>/subtitle.txt``,
``promotional_text.txt``, ``keywords.txt``; see :mod:`.store_text`), Play sets their
listing (``title.txt``, ``short_description.txt``, ``full_description.txt``, the feature
graphic and, when given, the icon; see :mod:`.play`). Store text that is English is not
written into another language's folder.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import ConflictError, InputFileError, InvalidOptionError
from ..locales import DEFAULT_LOCALE, app_store_locale, is_english, play_locale, reads_english
from .rules import (
    APP_STORE,
    GOOGLE_PLAY,
    PLAY_FOLDERS,
    ImageFacts,
    app_store_class,
    device_store,
    image_facts,
)
from .store_text import FILES, write_store_text
from .validate import IMAGE_SUFFIXES

if TYPE_CHECKING:
    from PIL import Image

log = logging.getLogger("shotsmith.export")


@dataclass(frozen=True)
class Exported:
    source: Path
    target: Path
    store: str  # app_store, google_play, app-store-text, play-listing
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


def _store_folder(store: str, locale: str) -> str:
    """The locale folder the store's fastlane tool reads, or a clear error."""
    code = app_store_locale(locale) if store == APP_STORE else play_locale(locale)
    if code is None:
        name = "App Store Connect" if store == APP_STORE else "Google Play"
        raise InvalidOptionError(
            f"export: {name} has no listing language for locale {locale!r}; design the set "
            "with a locale that store lists (docs/store-rules.md)."
        )
    return code


def _class_of(path: Path) -> str | None:
    facts = image_facts(path)
    return app_store_class(*facts.size) if isinstance(facts, ImageFacts) else None


def _one_app(design_out: Path, rows: list, app_id: str | None) -> list:
    """The rows of the one set a fastlane folder is for (``app_id`` picks one of several)."""
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
    return rows


Groups = dict[tuple[str, str, str], list[tuple[int, Path, dict]]]


def _store_groups(rows: list) -> Groups:
    """(store, locale folder, display class or device type) -> its (position, PNG, row)s."""
    groups: Groups = defaultdict(list)
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
        locale = _store_folder(store, str(row.get("locale") or DEFAULT_LOCALE))
        key = app_store_class(width, height) or "" if store == APP_STORE else kind
        groups[(store, locale, key)].append((int(row.get("position") or 0), source, row))
    return groups


def export_fastlane(
    design_out: str | Path,
    dest: str | Path,
    *,
    app_id: str | None = None,
    overwrite: bool = False,
    icon: str | Path | None = None,
    variant: str | None = None,
) -> list[Exported]:
    """Copy one app's designed screenshots (and its store text) into a fastlane folder.

    ``design_out`` is what ``shotsmith design``/``ss.design()`` wrote (a set's folder, or
    the output folder when it holds one app; ``app_id`` picks one of several). Files of
    another display class or device type already in ``dest`` are kept (an iPad set joins
    the iPhone set); files of the same one are refused unless ``overwrite``, which
    replaces exactly those (so ``deliver`` never uploads a stale file). ``icon`` is the
    Play hi-res icon (512x512 PNG), placed in each Play locale's ``images/icon.png``.

    A design with variants (``design --variants N``) exports ``variant-1`` here and each
    other variant, for a store experiment, into ``dest/experiments/variant-K/`` beside a
    README on uploading it (:func:`shotsmith.variants.export_variants`); ``variant``
    exports that one alone.
    """
    design_out, dest = Path(design_out), Path(dest)
    if not design_out.is_dir():
        raise InputFileError(f"export: {design_out} is not a folder.")
    rows = _one_app(design_out, _rows(design_out), app_id)
    variants = {str(r.get("variant")) for _, r in rows if r.get("variant")}
    if variant is not None:
        rows = [(t, r) for t, r in rows if str(r.get("variant")) == variant]
        if not rows:
            raise InvalidOptionError(
                f"export: no variant {variant!r} in {design_out}; variants there: "
                f"{', '.join(sorted(variants)) or 'none'}."
            )
    elif len(variants) > 1:
        from ..variants import export_variants

        options = {"app_id": app_id, "overwrite": overwrite, "icon": icon}
        return export_variants(design_out, dest, [r for _, r in rows], export_fastlane, **options)
    icon_image = None
    if icon is not None:
        from .play import check_icon

        icon_image = check_icon(icon)  # a wrong icon fails before anything is written

    groups = _store_groups(rows)
    classes, replaced = _held(groups, dest)
    plan = _targets(groups, classes, dest)
    _copy(plan, replaced, overwrite)
    return plan + _store_text([r for _, r in rows], dest, icon_image)


def _held(groups: Groups, dest: Path) -> tuple[dict[str, set[str]], dict[Path, list[Path]]]:
    """The App Store display classes each locale folder holds after this export (kept and
    new), and the files already in ``dest`` this export replaces, by folder."""
    classes: dict[str, set[str]] = defaultdict(set)
    replaced: dict[Path, list[Path]] = defaultdict(list)
    for store, locale, key in groups:
        if store == APP_STORE:
            folder = dest / "screenshots" / locale
            classes[locale].add(key)
            for p in sorted(folder.iterdir()) if folder.is_dir() else []:
                if _is_image(p):
                    held = _class_of(p)
                    if held == key:
                        replaced[folder].append(p)
                    elif held:
                        classes[locale].add(held)
        else:
            folder = dest / "metadata" / "android" / locale / "images" / PLAY_FOLDERS[key]
            if folder.is_dir():
                replaced[folder] += [p for p in sorted(folder.iterdir()) if _is_image(p)]
    return classes, replaced


def _targets(groups: Groups, classes: dict[str, set[str]], dest: Path) -> list[Exported]:
    """Where each screenshot goes, numbered in store order within its group."""
    plan: list[Exported] = []
    for (store, locale, key), members in sorted(groups.items()):
        members.sort(key=lambda m: m[0])
        for n, (_, source, row) in enumerate(members, start=1):
            if store == APP_STORE:
                # deliver sorts by name and tells classes apart by size; a class suffix
                # keeps two sizes of one screen from overwriting each other
                suffix = f"-{key}in" if len(classes[locale]) > 1 else ""
                name = f"{n:02d}_{_slug(str(row.get('screen') or ''))}{suffix}{source.suffix}"
                target = dest / "screenshots" / locale / name
            else:
                folder = dest / "metadata" / "android" / locale / "images" / PLAY_FOLDERS[key]
                target = folder / f"{n}{source.suffix}"
            plan.append(Exported(source, target, store, locale))
    return plan


def _copy(plan: list[Exported], replaced: dict[Path, list[Path]], overwrite: bool) -> None:
    """Copy the screenshots in place (each file whole or not at all), removing the files of
    the same device they replace; a ConflictError when there are some and not ``overwrite``."""
    busy = sorted(folder for folder, files in replaced.items() if files)
    if busy and not overwrite:
        raise ConflictError(
            "export: these fastlane folders already hold screenshots of the same device, "
            f"which deliver/supply would upload too: {', '.join(map(str, busy))}. Pass "
            "--overwrite to replace them (other devices' screenshots are kept), or export "
            "to an empty folder."
        )
    new_targets = {e.target for e in plan}
    for folder in busy:
        for p in replaced[folder]:
            if p not in new_targets:
                p.unlink()
    for e in plan:
        e.target.parent.mkdir(parents=True, exist_ok=True)
        tmp = e.target.with_name(e.target.name + ".tmp")
        shutil.copyfile(e.source, tmp)
        os.replace(tmp, e.target)


def _store_text(rows: list[dict], dest: Path, icon_image: Image.Image | None) -> list[Exported]:
    """The App Store text and the Play listing of the set's rows, written into ``dest``."""
    written: list[Exported] = []
    app_rows = [r for r in rows if _row_store(r) == APP_STORE]
    if app_rows:
        for path in write_store_text(_in_language(app_rows, APP_STORE), dest):
            written.append(Exported(path, path, "app-store-text", path.parent.name))
    play_rows = [r for r in rows if _row_store(r) == GOOGLE_PLAY]
    if play_rows:
        from .play import write_play_listing

        for path in write_play_listing(play_rows, dest, icon=icon_image):
            written.append(Exported(path, path, "play-listing", path.parent.name))
    return written


def _row_store(row: dict) -> str:
    store, _ = device_store(str(row.get("layout_device") or row.get("device") or ""))
    if store == GOOGLE_PLAY:
        return GOOGLE_PLAY
    width, height = int(row.get("render_width") or 0), int(row.get("render_height") or 0)
    return APP_STORE if app_store_class(width, height) else GOOGLE_PLAY


def _in_language(rows: list[dict], store: str) -> list[dict]:
    """The rows with their store text in the set's language only: an English field of a
    non-English set is left out of that locale's folder (said on stderr, with what to do)."""
    out = []
    told: set[str] = set()
    for row in rows:
        locale = str(row.get("locale") or DEFAULT_LOCALE)
        text = row.get("copy_store_text")
        if is_english(locale) or not isinstance(text, dict):
            out.append(row)
            continue
        english = [k for k in FILES if text.get(k) and reads_english(str(text[k]), locale)]
        if english and locale not in told:
            told.add(locale)
            log.warning(
                "the %s store text has no %s in that language (the set's copy does not give "
                "it), so metadata/%s/ gets none: write %s there, or design the set with "
                "--copy in %s.",
                locale,
                ", ".join(k.replace("_", " ") for k in english),
                _store_folder(store, locale),
                ", ".join(FILES[k] for k in english),
                locale,
            )
        out.append({**row, "copy_store_text": {**text, **dict.fromkeys(english, "")}})
    return out


def _is_image(path: Path) -> bool:
    return path.is_file() and path.suffix.lower() in IMAGE_SUFFIXES
