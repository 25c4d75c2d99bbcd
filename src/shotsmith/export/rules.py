"""The stores' rules for screenshot files, and a check of one file or one set against them.

The numbers are the App Store Connect and Google Play Console rules summarised in
``docs/store-rules.md``: App Store sizes per display class (the catalogue in
:mod:`shotsmith.devices`), 1-10 screenshots per class and localization, RGB without an
alpha channel; Google Play sides of 320-3840 px (tablets 1080-7680), the long side at
most twice the short one, 2-8 screenshots per device type, 24-bit PNG or JPEG, 8 MB.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, UnidentifiedImageError

from ..devices import DEVICES, STORE_SIZES

APP_STORE = "app_store"
GOOGLE_PLAY = "google_play"
STORES = (APP_STORE, GOOGLE_PLAY)

APP_STORE_PER_SET = (1, 10)  # per display class and localization
PLAY_PER_SET = (2, 8)  # per device type (and localization); 2 are needed to publish
PLAY_PHONE_SIDES = (320, 3840)
PLAY_TABLET_SIDES = (1080, 7680)
PLAY_MAX_ASPECT = 2.0  # long side / short side
PLAY_MAX_BYTES = 8 * 1024 * 1024
MIN_DPI = 72
#: The file suffixes that name each image format (deliver's ALLOWED_SCREENSHOT_FILE_EXTENSION).
SUFFIXES = {"PNG": (".png",), "JPEG": (".jpg", ".jpeg")}

#: App Store display classes and their accepted portrait sizes (landscape: swapped).
APP_STORE_CLASSES: dict[str, list[tuple[int, int]]] = {
    name: sizes for name, sizes in STORE_SIZES.items() if not name.startswith("android")
}

#: Google Play device types: fastlane supply's image folder for each.
PLAY_FOLDERS = {
    "phone": "phoneScreenshots",
    "seven_inch": "sevenInchScreenshots",
    "ten_inch": "tenInchScreenshots",
}


@dataclass(frozen=True)
class Problem:
    """One broken rule: which file (or set folder), which rule, and what to do."""

    path: str
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.rule}: {self.message}"


def app_store_class(width: int, height: int) -> str | None:
    """The App Store display class that accepts this size ("6.9", "13"...), or None."""
    pair = (min(width, height), max(width, height))
    for name, sizes in APP_STORE_CLASSES.items():
        if pair in sizes:
            return name
    return None


def device_store(device_id: str) -> tuple[str | None, str]:
    """The store a device's screenshots go to, and its Play device type (None: unknown)."""
    device = DEVICES.get(device_id)
    if device is None:
        return None, "phone"
    if device.platform == "android":
        return GOOGLE_PLAY, "ten_inch" if "tablet" in device.id else "phone"
    return APP_STORE, "phone"


def play_size_problems(width: int, height: int, device_type: str = "phone") -> list[str]:
    """What is wrong with this size for Google Play ([] when it is accepted)."""
    low, high = PLAY_PHONE_SIDES if device_type == "phone" else PLAY_TABLET_SIDES
    out = []
    for side, value in (("width", width), ("height", height)):
        if not low <= value <= high:
            out.append(f"{side} {value} px is outside {low}-{high} px")
    short, long_ = sorted((width, height))
    if short and long_ / short > PLAY_MAX_ASPECT:
        out.append(
            f"the long side is {long_ / short:.2f}x the short side (at most {PLAY_MAX_ASPECT:g}x)"
        )
    return out


def _accepted_sizes_text() -> str:
    return "; ".join(
        f'{name}": ' + ", ".join(f"{w}x{h}" for w, h in sizes)
        for name, sizes in APP_STORE_CLASSES.items()
    )


@dataclass(frozen=True)
class ImageFacts:
    path: Path
    format: str  # "PNG", "JPEG", or what Pillow says
    mode: str
    size: tuple[int, int]
    has_alpha: bool
    dpi: float | None
    bytes: int


def image_facts(path: str | Path) -> ImageFacts | Problem:
    """What the stores check of an image file; a PNG's chunks are checked against their
    checksums and other formats decoded, so a truncated or damaged file is a
    :class:`Problem`, as it is for the stores."""
    path = Path(path)
    try:
        with Image.open(path) as im:
            alpha = im.mode in ("RGBA", "LA", "PA", "La", "RGBa") or ("transparency" in im.info)
            dpi = im.info.get("dpi")
            try:  # a PNG's chunks are checked against their CRCs; other formats decoded
                im.verify() if im.format == "PNG" else im.load()
            except (OSError, SyntaxError, ValueError) as exc:
                return Problem(
                    str(path),
                    "damaged",
                    f"the {im.format} data is truncated or damaged ({exc}); the store "
                    "rejects it: export or save the image again",
                )
            return ImageFacts(
                path,
                str(im.format),
                im.mode,
                im.size,
                alpha,
                float(dpi[0]) if dpi else None,
                os.path.getsize(path),
            )
    except (UnidentifiedImageError, OSError) as exc:
        return Problem(str(path), "readable", f"not a PNG or JPEG image ({exc})")


def file_problems(
    facts: ImageFacts, store: str | None, device_type: str = "phone"
) -> list[Problem]:
    """Every rule one screenshot file breaks for ``store`` (None: its size fits neither)."""
    where = str(facts.path)
    out: list[Problem] = []
    if facts.format not in ("PNG", "JPEG"):
        out.append(Problem(where, "format", f"{facts.format} file; the stores take PNG or JPEG"))
    elif facts.path.suffix.lower() not in SUFFIXES[facts.format]:
        out.append(
            Problem(
                where,
                "extension",
                f"{facts.format} data in a {facts.path.suffix or 'suffix-less'} file; deliver "
                "rejects it ('File extension mismatches its image format'): rename it "
                f"{SUFFIXES[facts.format][0]} or save it as {facts.path.suffix[1:].upper()}",
            )
        )
    if facts.has_alpha:
        out.append(
            Problem(
                where,
                "no-alpha",
                f"has an alpha channel (mode {facts.mode}); the stores reject transparency, "
                "even an opaque alpha: save it as 24-bit RGB",
            )
        )
    elif facts.mode != "RGB":
        out.append(Problem(where, "rgb", f"mode {facts.mode}, not 24-bit RGB: save it as RGB"))
    if facts.dpi is not None and facts.dpi < MIN_DPI:
        out.append(Problem(where, "dpi", f"{facts.dpi:g} dpi; App Store Connect wants ≥ 72"))
    w, h = facts.size
    if store == APP_STORE:
        if app_store_class(w, h) is None:
            out.append(
                Problem(
                    where,
                    "app-store-size",
                    f"{w}x{h} is not an accepted App Store size; accepted portrait sizes "
                    f"(landscape swapped): {_accepted_sizes_text()}",
                )
            )
    elif store is None:
        low, high = PLAY_PHONE_SIDES
        out.append(
            Problem(
                where,
                "store-size",
                f"{w}x{h} is accepted by neither store. App Store portrait sizes (landscape "
                f"swapped): {_accepted_sizes_text()}. Google Play: each side {low}-{high} px, "
                f"the long side at most {PLAY_MAX_ASPECT:g}x the short side",
            )
        )
    else:
        for text in play_size_problems(w, h, device_type):
            out.append(Problem(where, "play-size", f"{w}x{h}: {text}"))
        if facts.bytes > PLAY_MAX_BYTES:
            out.append(
                Problem(
                    where,
                    "play-file-size",
                    f"{facts.bytes / 1e6:.1f} MB; Google Play takes at most 8 MB per file",
                )
            )
    return out


def count_problems(where: str, count: int, store: str, what: str) -> list[Problem]:
    """The store's limits on how many screenshots one set (class/type + locale) has."""
    low, high = APP_STORE_PER_SET if store == APP_STORE else PLAY_PER_SET
    name = "App Store" if store == APP_STORE else "Google Play"
    if count > high:
        return [
            Problem(
                where,
                "count",
                f"{count} screenshots for {what}; {name} takes at most {high}: drop {count - high}",
            )
        ]
    if count < low:
        return [
            Problem(
                where,
                "count",
                f"{count} screenshot{'s' if count != 1 else ''} for {what}; "
                f"{name} needs at least {low}",
            )
        ]
    return []
