"""Which device a set of screenshots comes from, which frame draws it, at which store size.

Three questions every adapter used to answer on its own (the CLI always made 6.9" iPhone
slides, batch the same, the server's collections the capture device's class), so an
Android or iPad set came out as an iPhone one. They are answered here, once:

- :func:`parse_size` reads a size as a user writes it (``"6.9"``, ``'6.9"'``, ``"13in"``,
  ``"android-phone"``, ``"1320x2868"``, ``(1320, 2868)``): the one size parser.
- :func:`screenshot_device` decides a row's device family and the frame to draw, from
  the ``device`` column (capture, a manifest, fastlane folder names) and the
  screenshot's pixel size and aspect. ``read_screenshots`` fills ``device`` with
  ``io.DEFAULT_DEVICE`` when nothing says otherwise; that value is only a hint, so an
  Android or iPad screenshot is still recognised by its pixels.
- :func:`output_size_for` is the store canvas for a device: iPhone -> the 6.9" App Store
  size, iPad -> 13" (2064x2752), Android phone -> a Google Play phone size (9:16),
  Android tablet -> a Play tablet size; a size the user asked for is checked against
  the device's store (an iPhone size for iPad screenshots is refused, not drawn).

Store sizes and devices are the catalogue in :mod:`shotsmith.devices`
(docs/store-rules.md).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from ...devices import DEVICES, OUTPUT_SIZES, STORE_SIZES, Device
from ...errors import DeviceError, InvalidOptionError

log = logging.getLogger("shotsmith")

#: device families, each with its store and the frame drawn when nothing picks another
IPHONE, IPAD, ANDROID_PHONE, ANDROID_TABLET = "iphone", "ipad", "android-phone", "android-tablet"
FAMILY_FRAME = {
    IPHONE: "iphone-17-pro",
    IPAD: "ipad-pro-13",
    ANDROID_PHONE: "pixel-9",
    ANDROID_TABLET: "pixel-tablet",
}
FAMILY_SIZE = {
    IPHONE: "6.9",
    IPAD: "13",
    ANDROID_PHONE: "android-phone",
    ANDROID_TABLET: "android-tablet",
}
FAMILY_LABEL = {
    IPHONE: "iPhone",
    IPAD: "iPad",
    ANDROID_PHONE: "Android phone",
    ANDROID_TABLET: "Android tablet",
}
IPAD_CLASSES = ("13", "11")
#: long side / short side below which a screen is a tablet's (iPads 1.33-1.46, Android
#: tablets 1.5-1.6; phones from 1.77 up)
TABLET_ASPECT = 1.7
#: widths Android phones' screenshots have and iPhones' never do (iPhones: 750, 828, 1125,
#: 1170, 1179, 1206, 1242, 1260, 1284, 1290, 1320; the 1080x2340 of the iPhone minis is a
#: Galaxy S25's too, and is read as the catalogued Galaxy unless the device says iPhone)
ANDROID_WIDTHS = (720, 1080, 1440)
#: a screenshot whose aspect is within this share of the frame's screen is shown whole
#: in a screen drawn at its own aspect; beyond it, it is letterboxed
ASPECT_TOLERANCE = 0.03
PLAY_SIDES = {ANDROID_PHONE: (320, 3840), ANDROID_TABLET: (1080, 7680)}


@dataclass(frozen=True)
class StoreSize:
    """A store canvas as asked for: its name (``"6.9"``, ``"1284x2778"``) and pixels."""

    name: str
    width: int
    height: int

    @property
    def landscape(self) -> bool:
        return self.width > self.height

    @property
    def label(self) -> str:
        """A folder name for this size's outputs."""
        return self.name

    def __str__(self) -> str:
        return f"{self.width}x{self.height}"


def size_key(text: str) -> str:
    """``'6.9"'``, ``"6.90"``, ``"6.9in"``, ``" 6.9 inch"`` -> ``"6.9"``; other text lower-cased."""
    key = str(text).strip().lower()
    for suffix in ('"', "inches", "inch", "in", '"'):
        key = key.removesuffix(suffix).strip()
    try:
        return f"{float(key):g}"
    except ValueError:
        return key


def _known_names() -> str:
    names = dict.fromkeys([*OUTPUT_SIZES, *STORE_SIZES])
    return ", ".join(names)


def parse_size(size: str | float | tuple[int, int] | StoreSize) -> StoreSize:
    """The one size parser: a display class, a named Play size, ``WxH`` or ``(w, h)``.

    Display classes and Play names give their primary canvas, portrait (``"6.5"`` ->
    1284x2778; :func:`output_size_for` turns it for a landscape set); ``WxH`` must be a
    size a store accepts, in either orientation (``2868x1320`` is the 6.9" landscape).
    """
    if isinstance(size, StoreSize):
        return size
    if isinstance(size, (tuple, list)):
        if len(size) != 2 or not all(isinstance(v, int) for v in size):
            raise InvalidOptionError(f"size {size!r}: give (width, height) in whole pixels.")
        width, height = size
        name = f"{width}x{height}"
    else:
        name = size_key(str(size))
        aliases = {"iphone": "6.9", "ipad": "13", "play-phone": "android-phone"}
        aliases["play-tablet"] = "android-tablet"
        name = aliases.get(name, name)
        if name in OUTPUT_SIZES:
            return StoreSize(name, *OUTPUT_SIZES[name])
        if name in STORE_SIZES:
            return StoreSize(name, *STORE_SIZES[name][0])
        parts = name.replace("×", "x").split("x")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise InvalidOptionError(
                f"unknown output size {str(size)!r}; use a display class ({_known_names()}) "
                "or a store size in pixels such as 1320x2868."
            )
        width, height = (int(p) for p in parts)
        name = f"{width}x{height}"
    found = StoreSize(name, width, height)
    if not size_families(found):
        raise InvalidOptionError(
            f"{width}x{height} is not an accepted store screenshot size. App Store portrait "
            "sizes: "
            + "; ".join(
                f"{k}: " + ", ".join(f"{a}x{b}" for a, b in v)
                for k, v in STORE_SIZES.items()
                if not k.startswith("android")
            )
            + " (landscape: swapped). Google Play: each side 320-3840 px, the long side at "
            "most 2x the short."
        )
    return found


def _oriented(size: StoreSize, landscape: bool) -> StoreSize:
    """A size turned to a set's orientation: a named class turns (``"6.9"`` is 2868x1320
    for a landscape set); a size in pixels of the other orientation is refused."""
    if size.landscape == landscape:
        return size
    if size.name != f"{size.width}x{size.height}":
        return StoreSize(size.name, size.height, size.width)
    have, other = ("landscape", "portrait") if landscape else ("portrait", "landscape")
    raise InvalidOptionError(
        f"size {size} is a {other} size, but the screenshots are {have}: a set is drawn in "
        f"its screenshots' orientation. Use {size.height}x{size.width}, the {have} size of "
        "the same class, or leave the size out."
    )


def size_families(size: StoreSize) -> tuple[str, ...]:
    """The device families whose store takes this canvas (either orientation)."""
    pair = (min(size.width, size.height), max(size.width, size.height))
    out: list[str] = []
    for name, sizes in STORE_SIZES.items():
        if pair in sizes and not name.startswith("android"):
            out.append(IPAD if name in IPAD_CLASSES else IPHONE)
    short, long_ = pair
    for family, (low, high) in PLAY_SIDES.items():
        if low <= short and long_ <= high and long_ <= 2 * short:
            out.append(family)
    return tuple(dict.fromkeys(out))


def parse_sizes(sizes: str | Sequence | StoreSize | None) -> list[StoreSize]:
    """One size or several (``"6.9"``, ``["6.9", "6.5"]``) as a list; duplicates dropped."""
    if sizes is None:
        return []
    if isinstance(sizes, (str, float, int, StoreSize)) or (
        isinstance(sizes, tuple) and len(sizes) == 2 and all(isinstance(v, int) for v in sizes)
    ):
        sizes = [sizes]
    out: dict[tuple[int, int], StoreSize] = {}
    for item in sizes:
        parsed = parse_size(item)
        out.setdefault((parsed.width, parsed.height), parsed)
    return list(out.values())


# --- devices ------------------------------------------------------------------------
def device_family(device: Device) -> str:
    tablet = device.aspect < TABLET_ASPECT
    if device.platform == "android":
        return ANDROID_TABLET if tablet else ANDROID_PHONE
    return IPAD if tablet else IPHONE


def _family_of_id(device_id: str) -> str | None:
    """A device id's family: from the catalogue, else from the id (capture's extra
    devices such as ``iphone-14-plus`` or ``ipad-pro-11``); None when it says nothing."""
    if device_id in DEVICES:
        return device_family(DEVICES[device_id])
    key = device_id.lower()
    if key.startswith("ipad"):
        return IPAD
    if key.startswith("iphone"):
        return IPHONE
    if key.startswith(("pixel", "galaxy", "android")):
        return ANDROID_TABLET if "tablet" in key or "tab" in key.split("-") else ANDROID_PHONE
    return None


def _family_of_pixels(width: int, height: int) -> str:
    short, long_ = sorted((width, height))
    exact = [d for d in DEVICES.values() if (short, long_) == d.screen_px]
    if exact:
        return device_family(exact[0])
    pair = (short, long_)
    for name, sizes in STORE_SIZES.items():
        if pair in sizes and not name.startswith("android"):
            return IPAD if name in IPAD_CLASSES else IPHONE
    aspect = long_ / short
    if aspect < TABLET_ASPECT:
        return IPAD if aspect < 1.5 else ANDROID_TABLET
    return ANDROID_PHONE if short in ANDROID_WIDTHS else IPHONE


@dataclass(frozen=True)
class DeviceChoice:
    """What :func:`screenshot_device` decided for one screenshot, and why."""

    family: str
    frame: Device
    reason: str


def screenshot_device(
    hint: str | None, width: int, height: int, *, default_frame: str | None = None
) -> DeviceChoice:
    """The device family of a screenshot and the frame that draws it.

    ``hint`` is the row's ``device`` (capture, a manifest, fastlane folder names): it
    decides the platform when it names one, unless it is only ``read_screenshots``'
    default, in which case the pixels decide (a Pixel 9's 1080x2424, an iPad's 4:3). The
    pixels always decide phone or tablet. The frame is the hinted device when it has one,
    else the device whose screen has exactly these pixels (:func:`native_device`: the
    template's when it does, else the newest, so 1260x2736 draws an iPhone Air), else
    ``default_frame`` (the template's device) when it is of the same family, else the
    family's frame; among those, one whose screen has the screenshot's aspect.
    """
    from ...io import DEFAULT_DEVICE

    hint = (hint or "").strip()
    by_pixels = _family_of_pixels(width, height)
    hinted = _family_of_id(hint) if hint and hint != DEFAULT_DEVICE else None
    if hinted is None:
        family = by_pixels
        reason = f"{width}x{height} px"
    else:
        tablet = by_pixels in (IPAD, ANDROID_TABLET)
        android = hinted in (ANDROID_PHONE, ANDROID_TABLET)
        family = (
            (ANDROID_TABLET if tablet else ANDROID_PHONE)
            if android
            else (IPAD if tablet else IPHONE)
        )
        reason = f"device {hint!r}, {width}x{height} px"
    aspect = max(width, height) / min(width, height)
    candidates = [
        d
        for d in (
            DEVICES.get(hint) if hinted else None,
            native_device((width, height), default_frame),
            DEVICES.get(default_frame or ""),
            DEVICES[FAMILY_FRAME[family]],
        )
        if d is not None and device_family(d) == family
    ]
    fitting = [d for d in candidates if aspect_fits(aspect, d.aspect)]
    if fitting:
        frame = fitting[0]
    else:  # the family's frame with the nearest screen aspect
        same = [d for d in DEVICES.values() if device_family(d) == family]
        nearest = min(same, key=lambda d: abs(d.aspect - aspect))
        frame = nearest if aspect_fits(aspect, nearest.aspect) else candidates[0]
    return DeviceChoice(family, frame, reason)


def native_device(size: tuple[int, int], preferred: str | None = None) -> Device | None:
    """The framed device whose screen has exactly these pixels (either orientation):
    ``preferred`` when it does, else the newest (listed first in the catalogue); None
    when no framed device has them."""
    pair = (min(size), max(size))
    same = [d for d in DEVICES.values() if d.screen_px == pair]
    return next((d for d in same if d.id == preferred), same[0] if same else None)


def aspect_fits(shot_aspect: float, screen_aspect: float) -> bool:
    return abs(shot_aspect / screen_aspect - 1) <= ASPECT_TOLERANCE


def output_size_for(
    family_or_device: str | Device,
    size: str | StoreSize | tuple[int, int] | None = None,
    *,
    landscape: bool = False,
) -> StoreSize:
    """The store canvas a device's screenshots are designed at: the one place that decides.

    ``size=None`` gives the family's store size (iPhone 6.9" 1320x2868, iPad 13"
    2064x2752, Android phone 1080x1920, Android tablet 1440x2560). A size the user asked
    for is returned when the device's store takes it, else refused naming the sizes that
    fit. ``landscape`` (the screenshots are landscape) turns the canvas: 6.9" is then
    2868x1320. CLI, batch, ``design()``, the server's jobs and collections all come here
    (through ``plan_layout``).
    """
    if isinstance(family_or_device, Device):
        family = device_family(family_or_device)
    elif family_or_device in FAMILY_FRAME:
        family = family_or_device
    elif family_or_device in DEVICES:
        family = device_family(DEVICES[family_or_device])
    else:
        found = _family_of_id(family_or_device)
        if found is None:
            raise DeviceError(
                f"unknown device {family_or_device!r}; known devices: {', '.join(DEVICES)}"
            )
        family = found
    if size is None:
        return _oriented(parse_size(FAMILY_SIZE[family]), landscape)
    asked = _oriented(parse_size(size), landscape)
    if family not in size_families(asked):
        android = family in PLAY_SIDES
        fits = [
            n
            for n in dict.fromkeys([*OUTPUT_SIZES, *STORE_SIZES])
            if n.startswith("android") == android and family in size_families(parse_size(n))
        ]
        if android:
            low, high = PLAY_SIDES[family]
            fits.append(f"WxH with each side {low}-{high} px, the long side at most 2x the short")
        raise InvalidOptionError(
            f"size {asked.name} ({asked}) is not {_store_of(family)} size for "
            f"{FAMILY_LABEL[family]} screenshots; use {', '.join(fits)}, or leave the size "
            f"out ({FAMILY_SIZE[family]}, {parse_size(FAMILY_SIZE[family])})."
        )
    named_for = {name: fam for fam, name in FAMILY_SIZE.items()}.get(asked.name)
    if named_for is not None and named_for != family:
        log.warning(
            "size %s (%s) is Google Play's %s size, but these are %s screenshots: the slides "
            "show an %s frame on that canvas and the store files them as %s screenshots. Design an "
            "%s's own screenshots for that listing, or leave the size out (%s, %s).",
            asked.name,
            asked,
            FAMILY_LABEL[named_for],
            FAMILY_LABEL[family],
            FAMILY_LABEL[family],
            FAMILY_LABEL[family],
            FAMILY_LABEL[named_for],
            FAMILY_SIZE[family],
            parse_size(FAMILY_SIZE[family]),
        )
    return asked


def _store_of(family: str) -> str:
    return "a Google Play" if family in (ANDROID_PHONE, ANDROID_TABLET) else "an App Store"
