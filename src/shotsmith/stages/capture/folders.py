"""Capturing a folder of screenshots simulators already produced.

fastlane snapshot (``<dir>/<locale>/<Device Name>-<screen>.png``), fastlane screengrab
(``<dir>/<locale>/images/phoneScreenshots/*.png``) or a flat folder (``NN_<screen>.png``,
or a ``manifest.json``). Every image's pixel size is checked against the requested (or any
known) device sizes, and each device's screenshots become one set, in store order.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ... import columns as C
from ...devices import STORE_SIZES
from ...errors import InputImageError, InvalidOptionError, ShotsmithError
from ...ids import LOCALE, slugify
from ...io import check_png
from ...locales import normalize_locale
from ..read import MANIFEST_NAMES, read_screenshots, screen_name_from_file
from .devices import (
    CAPTURE_DEVICES,
    DEFAULT_SIZES,
    PLATFORMS,
    CaptureDevice,
    all_devices,
    parse_platforms,
    resolve_devices,
)
from .report import FRAME_COLUMNS, CaptureReport
from .screens import Skipped

_TIMESTAMP = re.compile(r"_\d{10,}$")

_GENERIC_DIRS = {
    "screenshots",
    "fastlane",
    "metadata",
    "android",
    "ios",
    "screens",
    "shots",
    "raw",
    "images",
    "phonescreenshots",
    "output",
    "out",
}


@dataclass
class _Group:
    label: str  # device name from the file names, or "" when unknown
    locale: str | None
    files: list[tuple[Path, str, int | None]]  # path, screen name, order number
    platform: str | None = None


def capture_folder(
    folder: Path,
    *,
    platforms: Sequence[str] | str | None,
    device_sizes: Sequence[str | float] | str | None,
    locale: str,
    max_screens: int,
    project_name: str | None,
    bundle_id: str | None,
    supports_ipad: bool,
) -> CaptureReport:
    plats = parse_platforms(platforms)
    sizes_given = device_sizes is not None and not (
        not isinstance(device_sizes, (str, float, int)) and len(device_sizes) == 0
    )
    wanted = None
    if sizes_given:
        wanted = (
            resolve_devices(plats, device_sizes) if plats else _resolve_any_platform(device_sizes)
        )

    manifest = _manifest_of(folder)
    layout, groups, used_locale = _scan_folder(folder, locale)
    skipped: list[Skipped] = []
    frames = []
    first_error: InputImageError | None = None
    project = project_name or (manifest or {}).get("project_name") or _project_from(folder)
    for group in groups:
        if layout == "flat":
            paths, names, texts = _flat_shots(folder, project, bundle_id, used_locale)
        else:
            paths = [p for p, _, _ in group.files]
            names = [n for _, n, _ in group.files]
            texts = [""] * len(paths)
        devices, errors = _devices_of(paths, wanted, plats, group.label)
        if errors:
            if layout == "flat" or len(groups) == 1 or devices:
                raise errors[0]
            first_error = first_error or errors[0]  # a whole device set of another size
            for path in paths:
                skipped.append(Skipped(str(path), "not one of the requested device sizes", "size"))
            continue
        # one set per device, store order kept
        by_device: dict[str, list[int]] = {}
        for i, dev in enumerate(devices):
            by_device.setdefault(dev, []).append(i)
        for dev, idx in by_device.items():
            if len(idx) > max_screens:
                for i in idx[max_screens:]:
                    skipped.append(
                        Skipped(str(paths[i]), f"beyond max_screens={max_screens}", "budget", dev)
                    )
                idx = idx[:max_screens]
            frames.append(
                read_screenshots(
                    [str(paths[i]) for i in idx],
                    project_name=project,
                    bundle_id=bundle_id
                    if bundle_id is not None
                    else (manifest or {}).get("bundle_id", ""),
                    screens=[names[i] for i in idx],
                    devices=dev,
                    locale=used_locale,
                    texts=[texts[i] for i in idx],
                    app_id=slugify(project),
                )
            )
    if not frames:
        raise first_error or InputImageError(f"{folder}: no screenshots found.")
    frame = pd.concat(frames, ignore_index=True)
    ids = frame[C.DEVICE].drop_duplicates().tolist()
    if len(ids) > 1:
        frame[C.APP_ID] = [f"{a}-{d}" for a, d in zip(frame[C.APP_ID], frame[C.DEVICE])]
    devs = [d for d in all_devices() if d.id in ids]
    return CaptureReport(
        frame=frame[list(FRAME_COLUMNS)], skipped=skipped, devices=devs, source=str(folder)
    )


def _flat_shots(
    folder: Path, project: str, bundle_id: str | None, locale: str
) -> tuple[list[Path], list[str], list[str]]:
    """A flat folder's screenshots in store order: paths, screen names, visible texts."""
    base = read_screenshots(folder, project_name=project, bundle_id=bundle_id, locale=locale)
    return [Path(p) for p in base[C.IMAGE]], list(base[C.SCREEN]), list(base[C.SCREEN_TEXT])


def _devices_of(
    paths: list[Path],
    wanted: list[CaptureDevice] | None,
    plats: list[str],
    hint: str,
) -> tuple[list[str], list[InputImageError]]:
    """The device each screenshot was taken on, and the screenshots that fit none."""
    devices, errors = [], []
    for path in paths:
        width, height = check_png(path.read_bytes(), str(path), full=False)
        try:
            devices.append(
                _device_for_image(path, width, height, wanted=wanted, platforms=plats, hint=hint)
            )
        except InputImageError as exc:
            errors.append(exc)
    return devices, errors


def _resolve_any_platform(device_sizes: Any) -> list[CaptureDevice]:
    sizes = [device_sizes] if isinstance(device_sizes, (str, float, int)) else list(device_sizes)
    out: list[CaptureDevice] = []
    for s in sizes:
        found = []
        for p in PLATFORMS:
            try:
                found += resolve_devices([p], [s])
            except ShotsmithError:
                continue
        if not found:
            resolve_devices(list(PLATFORMS), [s])  # raises the message listing what is allowed
        out += [d for d in found if d not in out]
    return out


def _manifest_of(folder: Path) -> dict | None:
    for name in MANIFEST_NAMES:
        path = folder / name
        if path.exists():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError):
                return None
            return data if isinstance(data, dict) else None
    return None


def _project_from(folder: Path) -> str:
    for part in [folder, *folder.parents]:
        if part.name and part.name.lower() not in _GENERIC_DIRS and not LOCALE.match(part.name):
            name = part.name.replace("-", " ").replace("_", " ").strip()
            return name if any(c.isupper() for c in name) else name.title()
    return "App"


def _pngs(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() == ".png")


def _scan_folder(folder: Path, locale: str) -> tuple[str, list[_Group], str]:
    """Find the layout: 'flat', 'snapshot' (fastlane) or 'screengrab'; the groups to read."""
    if _pngs(folder) or _manifest_of(folder):
        return "flat", [_Group("", None, [])], locale
    root = folder
    for sub in ("screenshots", "metadata/android"):  # a fastlane/ directory given
        if not _locale_dirs(root) and (folder / sub).is_dir():
            root = folder / sub
    locales = _locale_dirs(root)
    if not locales:
        raise InputImageError(
            f"{folder}: no screenshots found. Expected PNG files in the folder, fastlane "
            "snapshot's <locale>/<Device Name>-<screen>.png, or screengrab's "
            "<locale>/images/phoneScreenshots/*.png."
        )
    chosen = _pick_locale(folder, locales, locale)
    loc_dir = root / chosen
    used_locale = normalize_locale(chosen)
    shots_dirs = (
        sorted(p for p in (loc_dir / "images").glob("*Screenshots") if p.is_dir())
        if (loc_dir / "images").is_dir()
        else []
    )
    if shots_dirs:  # screengrab / supply
        phone = [p for p in shots_dirs if p.name == "phoneScreenshots"] or shots_dirs
        groups = []
        for d in phone:
            files = []
            for p in _pngs(d):
                num, name = screen_name_from_file(p.with_name(_TIMESTAMP.sub("", p.stem) + ".png"))
                stamp = _TIMESTAMP.search(p.stem)
                files.append((p, name, num, int(stamp.group(0)[1:]) if stamp else 0))
            files.sort(key=lambda f: (f[2] is None, f[2] or 0, f[3], f[0].name))
            groups.append(_Group(d.name, chosen, [(p, n, k) for p, n, k, _ in files], "android"))
        return "screengrab", groups, used_locale
    by_device: dict[str, list[tuple[Path, str, int | None]]] = {}
    for p in _pngs(loc_dir):
        device_name, screen = _split_snapshot_name(p.stem)
        num, name = screen_name_from_file(Path(screen + ".png"))
        by_device.setdefault(device_name, []).append((p, name, num))
    if not by_device:
        raise InputImageError(f"{loc_dir}: no .png screenshots in this locale folder.")
    groups = []
    for device_name, shots in by_device.items():
        shots.sort(key=lambda f: (f[2] is None, f[2] or 0, f[0].name))
        groups.append(_Group(device_name, chosen, shots))
    return "snapshot", groups, used_locale


def _locale_dirs(root: Path) -> list[str]:
    if not root.is_dir():
        return []
    return sorted(
        p.name
        for p in root.iterdir()
        if p.is_dir() and LOCALE.match(p.name) and (_pngs(p) or (p / "images").is_dir())
    )


def _pick_locale(folder: Path, locales: list[str], locale: str) -> str:
    want = normalize_locale(locale).casefold()
    norm = {normalize_locale(loc).casefold(): loc for loc in locales}
    if want in norm:
        return norm[want]
    lang = [loc for key, loc in norm.items() if key.split("-")[0] == want.split("-")[0]]
    if len(lang) == 1:
        return lang[0]
    if len(locales) == 1:
        return locales[0]
    raise InvalidOptionError(
        f"{folder}: no screenshots for locale {locale!r}; locales found: "
        f"{', '.join(locales)}. Pass locale= one of them."
    )


def _split_snapshot_name(stem: str) -> tuple[str, str]:
    """'iPad Pro (12.9-inch) (6th generation)-01Home' -> (device name, '01Home')."""
    depth = 0
    for i, ch in enumerate(stem):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == "-" and depth == 0 and i > 0:
            return stem[:i].strip(), stem[i + 1 :].strip()
    return "", stem


def _device_for_image(
    path: Path,
    width: int,
    height: int,
    *,
    wanted: list[CaptureDevice] | None,
    platforms: list[str],
    hint: str,
) -> str:
    """The device id a screenshot of this pixel size comes from; a clear error if none."""
    pair = (min(width, height), max(width, height))
    if wanted is not None:
        for d in wanted:
            if pair == d.px or pair in STORE_SIZES[d.store_size]:
                return d.id
        expected = "; ".join(
            f'{d.platform} {d.size}": '
            + ", ".join(f"{w}x{h}" for w, h in dict.fromkeys([d.px, *STORE_SIZES[d.store_size]]))
            for d in wanted
        )
        raise InputImageError(
            f"{path}: {width}x{height} px does not match the requested device size(s); "
            f"expected {expected} (portrait or landscape). Capture at one of these sizes or "
            "change device_sizes."
        )
    candidates = [d for d in all_devices() if d.px == pair]
    if platforms:
        candidates = [d for d in candidates if d.platform in platforms] or (
            _wrong_platform(path, width, height, candidates, platforms) if candidates else []
        )
    if candidates:
        named = [d for d in candidates if hint and d.name.lower() == hint.lower()]
        return (named or candidates)[0].id
    for key, sizes in STORE_SIZES.items():
        if pair in sizes:
            platform = "android" if key.startswith("android") else "ios"
            if platforms and platform not in platforms:
                _wrong_platform(path, width, height, [], platforms, platform)
            table = CAPTURE_DEVICES[platform]
            dev = table.get(key) or table[DEFAULT_SIZES[platform][0]]
            return dev.id
    known = sorted(
        {d.px for d in all_devices()} | {s for sizes in STORE_SIZES.values() for s in sizes}
    )
    raise InputImageError(
        f"{path}: {width}x{height} px is not the screen size of a known device or an accepted "
        f"store size; expected one of {', '.join(f'{w}x{h}' for w, h in known)} (portrait or "
        "landscape). Take the screenshots on a simulator/emulator of a supported device."
    )


def _wrong_platform(
    path: Path,
    width: int,
    height: int,
    candidates: list[CaptureDevice],
    platforms: list[str],
    platform: str | None = None,
) -> list[CaptureDevice]:
    platform = platform or candidates[0].platform
    raise InputImageError(
        f"{path}: {width}x{height} px is a {platform} screen size, but "
        f"platforms={platforms}. Pass the right platform."
    )
