"""The devices capture emulates, and how a user names them.

The devices themselves are the one catalogue, ``data/devices.json`` (read by
:mod:`shotsmith.devices`); so is the table of which device stands for each display
class a user asks for. This module turns a request ("6.9", "android:6.3", a device id, a
pixel size) into :class:`CaptureDevice` values, with an error that lists what is allowed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ... import devices as catalogue
from ...errors import DeviceError, InvalidOptionError
from ...statusbar import StatusBarStyle

PLATFORMS = ("ios", "android")


@dataclass(frozen=True)
class CaptureDevice:
    """A device the capture stage can emulate, and the store class its shots feed."""

    id: str
    name: str
    platform: str  # "ios" | "android"
    size: str  # display class as the stores name it, inches: "6.9", "13", ...
    points: tuple[int, int]  # CSS viewport (portrait)
    scale: float  # native pixels per point
    px: tuple[int, int]  # exact native pixels of a raw capture
    store_size: str  # key of devices.STORE_SIZES the outputs go to
    top_inset_pt: float
    island_pt: tuple[float, float, float] | None = None
    home_button: bool = False
    tablet: bool = False

    @property
    def canvas(self) -> tuple[int, int]:
        """The store canvas (portrait px) outputs for this device are made at."""
        return catalogue.STORE_SIZES[self.store_size][0]

    def status_bar_style(self) -> StatusBarStyle:
        return StatusBarStyle(
            platform=self.platform,
            scale=self.px[0] / self.points[0],
            inset_pt=self.top_inset_pt,
            island_pt=self.island_pt,
            home_button=self.home_button,
            tablet=self.tablet,
        )


def capture_device(device_id: str, size: str) -> CaptureDevice:
    """The catalogue's device ``device_id``, captured for display class ``size``."""
    d = catalogue.CATALOGUE[device_id]
    return CaptureDevice(
        id=d.id,
        name=d.name,
        platform=d.platform,
        size=size,
        points=(round(d.points[0]), round(d.points[1])),
        scale=d.scale,
        px=d.screen_px,
        store_size=size if d.platform == "ios" else d.store_size,
        top_inset_pt=d.top_inset_pt,
        island_pt=d.island_pt,
        home_button=d.home_button,
        tablet=d.id.startswith("ipad") or d.store_size == "android-tablet",
    )


#: platform -> display class (inches, as text) -> the device captured for it
CAPTURE_DEVICES: dict[str, dict[str, CaptureDevice]] = {
    platform: {size: capture_device(device_id, size) for size, device_id in sizes.items()}
    for platform, sizes in catalogue.CAPTURE_SIZES.items()
}
DEFAULT_SIZES = catalogue.CAPTURE_DEFAULTS
IPAD_SIZE = catalogue.CAPTURE_IPAD_SIZE


def tablet_for(platform: str) -> CaptureDevice | None:
    """The tablet a desktop-only web app is captured at instead of a phone (iOS: the iPad
    class an iPad-capable app adds; Android: the catalogue's first Android tablet)."""
    if platform == "ios":
        return CAPTURE_DEVICES["ios"][IPAD_SIZE]
    for device in catalogue.CATALOGUE.values():
        if device.platform == platform and device.store_size == "android-tablet":
            return capture_device(device.id, device.store_size)
    return None


def all_devices() -> list[CaptureDevice]:
    """Every device a screenshot may come from: the capture table's, then the catalogue's."""
    seen: dict[str, CaptureDevice] = {}
    for table in CAPTURE_DEVICES.values():
        for d in table.values():
            seen.setdefault(d.id, d)
    for device in catalogue.CATALOGUE.values():
        if device.id not in seen:
            seen[device.id] = capture_device(device.id, device.store_size)
    return list(seen.values())


def _size_key(size: Any) -> str:
    text = str(size).strip().lower().rstrip('"').removesuffix("in").removesuffix("inch").strip()
    text = text.rstrip('"').strip()
    try:
        return f"{float(text):g}"
    except ValueError:
        return text


def resolve_devices(
    platforms: Sequence[str] | str | None = None,
    device_sizes: Sequence[str | float] | str | float | None = None,
    *,
    supports_ipad: bool = False,
) -> list[CaptureDevice]:
    """The devices to capture: ``device_sizes`` per platform, or each platform's defaults.

    A size is a display class in inches ("6.9"), optionally qualified by platform
    ("android:6.3"), a device id ("iphone-16-pro") or a pixel size ("1320x2868").
    Unqualified sizes apply to every requested platform that has them.
    """
    plats = parse_platforms(platforms) or ["ios"]
    if device_sizes is None or (
        not isinstance(device_sizes, (str, float, int)) and len(device_sizes) == 0
    ):
        out = []
        for p in plats:
            sizes = list(DEFAULT_SIZES[p]) + ([IPAD_SIZE] if p == "ios" and supports_ipad else [])
            out += [CAPTURE_DEVICES[p][s] for s in sizes]
        return out
    if isinstance(device_sizes, (str, float, int)):
        device_sizes = [device_sizes]
    chosen: list[CaptureDevice] = []
    for raw in device_sizes:
        text = str(raw).strip()
        want = plats
        if ":" in text:
            prefix, text = (t.strip() for t in text.split(":", 1))
            if prefix.lower() not in PLATFORMS:
                raise DeviceError(
                    f"unknown platform {prefix!r} in size {raw!r}; "
                    f"platforms: {', '.join(PLATFORMS)}"
                )
            want = [prefix.lower()]
        key = _size_key(text)
        found = [d for p in want for d in _match_size(p, key)]
        if not found:
            raise DeviceError(
                f"unknown device size {raw!r} for {'/'.join(want)}; allowed sizes: "
                + "; ".join(f"{p}: " + ", ".join(CAPTURE_DEVICES[p]) for p in want)
                + ' (inches, e.g. "6.9"; qualify as "android:6.3"; or a device id such as '
                + ", ".join(sorted({d.id for p in want for d in CAPTURE_DEVICES[p].values()}))
                + ")"
            )
        chosen += [d for d in found if d not in chosen]
    if supports_ipad and "ios" in plats and not any(d.tablet for d in chosen):
        chosen.append(CAPTURE_DEVICES["ios"][IPAD_SIZE])
    missing = [p for p in plats if not any(d.platform == p for d in chosen)]
    if missing:
        raise InvalidOptionError(
            f"no size given for platform {', '.join(missing)}; add one, e.g. "
            + ", ".join(f'"{p}:{DEFAULT_SIZES[p][0]}"' for p in missing)
            + " (allowed: "
            + "; ".join(f"{p}: " + ", ".join(CAPTURE_DEVICES[p]) for p in missing)
            + ")"
        )
    return chosen


def _match_size(platform: str, key: str) -> list[CaptureDevice]:
    table = CAPTURE_DEVICES[platform]
    if key in table:
        return [table[key]]
    by_id = [d for d in table.values() if d.id == key]
    if by_id:
        return by_id[:1]
    m = re.fullmatch(r"(\d+)\s*x\s*(\d+)", key)
    if m:
        w, h = sorted((int(m.group(1)), int(m.group(2))))
        return [d for d in table.values() if d.px == (w, h)][:1]
    return []


def parse_platforms(platforms: Sequence[str] | str | None) -> list[str]:
    if platforms is None:
        return []
    if isinstance(platforms, str):
        platforms = [p for p in re.split(r"[,\s]+", platforms) if p]
    out = []
    for p in platforms:
        key = str(p).strip().lower()
        if key not in PLATFORMS:
            raise DeviceError(f"unknown platform {p!r}; allowed platforms: {', '.join(PLATFORMS)}")
        if key not in out:
            out.append(key)
    return out
