"""read_screenshots: one set of raw screenshots into a frame, one row per screenshot.

The first stage when the screenshots exist already (``capture`` makes them from a web app
or a simulator's folder, and reads back what it wrote the same way). Store order and
screen names come from file names (``01_home.png``) or a ``manifest.json``; every image is
checked (:func:`shotsmith.io.check_png`) and the frame holds only a *reference* to it (a
path, or the PNG bytes when the caller handed bytes or base64), decoded when a stage needs
the pixels (:func:`shotsmith.io.open_image`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from .. import columns as C
from ..errors import InputFileError, InputImageError, InvalidOptionError
from ..ids import slugify
from ..io import check_png, decode_base64_png
from ..locales import DEFAULT_LOCALE

MANIFEST_NAMES = ("manifest.json", "shotsmith.json")
DEFAULT_DEVICE = "iphone-16-pro"

_NUMBERED = re.compile(r"^(?P<num>\d+)[\s_.-]*(?P<name>.*)$")


def screen_name_from_file(path: Path) -> tuple[int | None, str]:
    """``03_search-results.png`` -> (3, "search results")."""
    stem = path.stem
    m = _NUMBERED.match(stem)
    num = None
    if m:
        num, stem = int(m.group("num")), m.group("name")
    name = re.sub(r"[_\-.]+", " ", stem).strip().lower()
    name = re.sub(r"\s+", " ", name)
    return num, name or f"screen {num if num is not None else ''}".strip()


def _read_manifest(folder: Path) -> dict[str, Any] | None:
    for manifest_name in MANIFEST_NAMES:
        path = folder / manifest_name
        if path.exists():
            try:
                manifest = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as exc:
                raise InputFileError(f"{path}: not valid JSON ({exc}). Fix or remove it.") from exc
            if not isinstance(manifest, dict):
                raise InputFileError(f"{path}: expected a JSON object with a 'screens' list.")
            return manifest
    return None


def manifest_project_name(folder: Path) -> str | None:
    """The ``project_name`` a folder's manifest gives, if it has a readable one."""
    try:
        manifest = _read_manifest(Path(folder)) or {}
    except InputFileError:  # read_screenshots reports it when the folder is read
        return None
    return str(manifest["project_name"]) if manifest.get("project_name") else None


def folder_project_name(folder: Path) -> str:
    """The project name ``read_screenshots(folder)`` uses: the manifest's, else the
    folder's name in title case."""
    return manifest_project_name(folder) or _title(Path(folder).name)


def screen_names(screens: Sequence[Any], images: int, where: str) -> list[str]:
    """The screen names given for ``images`` images, one each, as text."""
    if len(screens) != images:
        raise InvalidOptionError(
            f"{where}: {len(screens)} screen names for {images} images; give one per image."
        )
    return [str(s) for s in screens]


def _title(name: str) -> str:
    return name.replace("-", " ").replace("_", " ").title()


ELEMENT_ROLES = ("heading", "tab", "button", "link", "listitem", "label", "input", "text")


def _manifest_elements(value: Any, where: str) -> list[dict[str, Any]]:
    """A manifest screen's ``elements`` (see ``columns.SCREEN_ELEMENTS``), checked."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise InputFileError(
            f"{where}: 'elements' must be a list of "
            '{"role", "text"[, "level"][, "current"][, "box"]} '
            f"objects, got {type(value).__name__}. Fix or remove it."
        )
    out = []
    for i, item in enumerate(value, start=1):
        if not isinstance(item, dict) or not isinstance(item.get("text"), str):
            raise InputFileError(
                f"{where}: element {i} must be an object with a 'role' and a 'text' string."
            )
        role = item.get("role", "text")
        if role not in ELEMENT_ROLES:
            raise InputFileError(
                f"{where}: element {i} has role {role!r}; roles are {', '.join(ELEMENT_ROLES)}."
            )
        element: dict[str, Any] = {"role": role, "text": item["text"]}
        if "level" in item:
            level = item["level"]
            if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= 6:
                raise InputFileError(f"{where}: element {i} has level {level!r}; use 1-6.")
            element["level"] = level
        if "current" in item:  # the page's own item of a menu or a tab bar
            if not isinstance(item["current"], bool):
                raise InputFileError(
                    f"{where}: element {i} has current {item['current']!r}; use true or false."
                )
            if item["current"]:
                element["current"] = True
        if "box" in item:
            box = item["box"]
            if not (
                isinstance(box, list)
                and len(box) == 4
                and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in box)
            ):
                raise InputFileError(
                    f"{where}: element {i} has box {box!r}; use [x, y, width, height] in pixels."
                )
            element["box"] = box
        out.append(element)
    return out


def read_screenshots(
    source: str | Path | Sequence[str | Path | bytes] | None = None,
    *,
    project_name: str | None = None,
    bundle_id: str | None = None,
    screens: Sequence[str] | None = None,
    devices: Sequence[str] | str | None = None,
    locale: str | None = None,
    app_id: str | None = None,
    texts: Sequence[str] | None = None,
    images_base64: Sequence[str] | None = None,
) -> pd.DataFrame:
    """Read one set of raw screenshots into a frame (one row per screenshot).

    ``source`` is a folder of PNGs (store order and screen names from file names
    like ``01_home.png``, or from a ``manifest.json`` in the folder), a list of
    PNG paths, or a list of PNG bytes. ``images_base64`` takes base64 strings
    instead (as the /v1 server receives them). Every image is validated (PNG
    signature, size limits, complete data) and a bad one raises
    :class:`InputImageError` naming it. Pixels are not kept in the frame.
    """
    found = _gather(source, images_base64, texts)
    refs, labels, manifest = found.refs, found.labels, found.manifest
    if not refs:
        raise InputImageError("read_screenshots: no images given.")
    names = found.names
    if screens is not None:
        names = screen_names(screens, len(refs), "read_screenshots")
    if not names:
        names = [f"screen {i + 1}" for i in range(len(refs))]

    sizes = []
    for ref, label in zip(refs, labels):
        data = ref if isinstance(ref, bytes) else _read_bytes(ref)
        sizes.append(check_png(data, label))

    project = _project_name(source, project_name or manifest.get("project_name"))
    bundle = bundle_id if bundle_id is not None else manifest.get("bundle_id", "")
    loc = locale or manifest.get("locale") or DEFAULT_LOCALE
    if devices is None:
        devices = manifest.get("device", DEFAULT_DEVICE)
    device_list = [devices] * len(refs) if isinstance(devices, str) else list(devices)
    if len(device_list) != len(refs):
        raise InvalidOptionError("read_screenshots: give one device per image or a single device.")
    text_list = list(found.texts) if found.texts is not None else [""] * len(refs)
    if len(text_list) != len(refs):
        raise InvalidOptionError("read_screenshots: give one visible-text string per image.")
    aid = app_id or slugify(project)
    elements = found.elements if len(found.elements) == len(refs) else [[] for _ in refs]
    urls = found.urls if len(found.urls) == len(refs) else [""] * len(refs)
    titles = found.titles if len(found.titles) == len(refs) else [""] * len(refs)

    return pd.DataFrame(
        {
            C.APP_ID: [aid] * len(refs),
            C.POSITION: list(range(len(refs))),
            C.PROJECT_NAME: [project] * len(refs),
            C.BUNDLE_ID: [bundle or ""] * len(refs),
            C.SCREEN: names,
            C.DEVICE: device_list,
            C.LOCALE: [loc] * len(refs),
            C.IMAGE: refs,
            C.SCREEN_TEXT: [t or "" for t in text_list],
            C.IMAGE_WIDTH: [w for w, _ in sizes],
            C.IMAGE_HEIGHT: [h for _, h in sizes],
            C.SCREEN_ELEMENTS: elements,
            C.SCREEN_URL: urls,
            C.SCREEN_TITLE: titles,
        }
    )


@dataclass
class _Found:
    """The images a source names, with what it says about them."""

    refs: list[str | bytes] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)
    elements: list[list[dict[str, Any]]] = field(default_factory=list)  # per screen
    urls: list[str] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)  # each page's document title
    manifest: dict[str, Any] = field(default_factory=dict)
    texts: Sequence[str] | None = None


def _gather(
    source: str | Path | Sequence[str | Path | bytes] | None,
    images_base64: Sequence[str] | None,
    texts: Sequence[str] | None,
) -> _Found:
    if images_base64 is not None:
        if source is not None:
            raise InvalidOptionError(
                "read_screenshots: pass either source or images_base64, not both."
            )
        refs: list[str | bytes] = [
            decode_base64_png(t, f"image {i + 1}") for i, t in enumerate(images_base64)
        ]
        return _Found(refs=refs, labels=[f"image {i + 1}" for i in range(len(refs))], texts=texts)
    if isinstance(source, (str, Path)) and Path(source).is_dir():
        folder = Path(source)
        manifest = _read_manifest(folder) or {}
        if manifest.get("screens"):
            return _from_manifest(folder, manifest, texts)
        found = _from_folder(folder)
        found.manifest, found.texts = manifest, texts
        return found
    if isinstance(source, (str, Path)):
        raise InputImageError(
            f"{source}: no such folder. Pass a folder of PNG screenshots or a list of PNG files."
        )
    if source is not None:
        found = _from_list(source)
        found.texts = texts
        return found
    raise InvalidOptionError(
        "read_screenshots: give a folder, a list of PNG paths or bytes, or images_base64."
    )


def _from_manifest(folder: Path, manifest: dict[str, Any], texts: Sequence[str] | None) -> _Found:
    found = _Found(manifest=manifest, texts=texts)
    entries = manifest["screens"]
    for i, entry in enumerate(entries):
        entry = {"file": entry} if isinstance(entry, str) else entry
        path = folder / entry["file"]
        if not path.exists():
            raise InputImageError(
                f"{folder}/manifest: screen {i + 1} names "
                f"{entry['file']!r}, which is not in the folder."
            )
        found.refs.append(str(path))
        found.names.append(entry.get("screen") or screen_name_from_file(path)[1])
        found.labels.append(str(path))
        where = f"{folder}/manifest: screen {i + 1}"
        found.elements.append(_manifest_elements(entry.get("elements"), where))
        url = entry.get("url", "")
        if not isinstance(url, str):
            raise InputFileError(f"{where}: 'url' must be text, got {url!r}.")
        found.urls.append(url)
        title = entry.get("title", "")
        if not isinstance(title, str):
            raise InputFileError(f"{where}: 'title' must be text, got {title!r}.")
        found.titles.append(title)
    if texts is None and any("text" in e for e in entries if isinstance(e, dict)):
        found.texts = [e.get("text", "") if isinstance(e, dict) else "" for e in entries]
    return found


def _from_folder(folder: Path) -> _Found:
    files = sorted(p for p in folder.iterdir() if p.suffix.lower() == ".png")
    if not files:
        others = sorted(p.name for p in folder.iterdir() if p.is_file())[:5]
        raise InputImageError(
            f"{folder}: no .png screenshots found"
            + (f" (found {', '.join(others)})" if others else " (folder is empty)")
            + ". Put the raw screenshots there as PNG files, e.g. 01_home.png."
        )
    keyed = [(screen_name_from_file(p), p) for p in files]
    keyed.sort(key=lambda kp: (kp[0][0] is None, kp[0][0] or 0, kp[1].name))
    found = _Found()
    for (_, name), path in keyed:
        found.refs.append(str(path))
        found.names.append(name)
        found.labels.append(str(path))
    return found


def _from_list(source: Sequence[str | Path | bytes]) -> _Found:
    found = _Found()
    for i, item in enumerate(source):
        if isinstance(item, (bytes, bytearray, memoryview)):
            found.refs.append(bytes(item))
            found.labels.append(f"image {i + 1}")
        else:
            path = Path(item)
            if not path.is_file():
                raise InputImageError(f"{path}: no such file.")
            found.refs.append(str(path))
            found.names.append(screen_name_from_file(path)[1])
            found.labels.append(str(path))
    if found.names and len(found.names) != len(found.refs):
        found.names = []
    return found


def _project_name(source: object, project: str | None) -> str:
    if project:
        return project
    if isinstance(source, (str, Path)):
        return _title(Path(source).name)
    raise InvalidOptionError(
        "read_screenshots: project_name is required for images "
        "given as bytes or files (it drives the tagline and domain)."
    )


def _read_bytes(path: str | Path) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise InputImageError(f"{path}: cannot read file ({exc.strerror}).") from exc


def concat_sets(frames: Iterable[pd.DataFrame]) -> pd.DataFrame:
    """Several sets (each from read_screenshots) into one frame; app ids made distinct."""
    out, seen = [], set()
    for frame in frames:
        frame = frame.copy()
        for aid in frame[C.APP_ID].unique():
            new, n = aid, 2
            while new in seen:
                new, n = f"{aid}-{n}", n + 1
            seen.add(new)
            if new != aid:
                frame.loc[frame[C.APP_ID] == aid, C.APP_ID] = new
        out.append(frame)
    return pd.concat(out, ignore_index=True)
