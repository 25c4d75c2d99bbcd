"""Device catalogue and store output sizes.

The table itself is data, ``data/devices.json`` (one copy, read once here): the devices
render frames and capture emulates, the stores' accepted screenshot sizes
(docs/store-rules.md) and the sizes render offers by name. This module gives it types
and the lookups every stage shares. Geometry is in points unless a name says ``px``.
Store sizes are portrait pixels; landscape is the same pair swapped.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from .errors import DeviceError


@dataclass(frozen=True)
class Device:
    id: str
    name: str
    platform: str  # "ios" | "android"
    screen_px: tuple[int, int]
    points: tuple[float, float]
    scale: float
    corner_radius_pt: float  # display corner radius
    island_pt: tuple[float, float, float] | None = None  # (width, height, top) of Dynamic Island
    punch_hole_pt: tuple[float, float] | None = None  # (diameter, top) of a centred camera hole
    top_inset_pt: float = 0.0  # status bar / safe-area top
    bezel_pt: float = 5.0  # black border around the display
    band_pt: float = 1.6  # metal band around the bezel
    home_button: bool = False
    store_size: str = "6.9"  # store class its screenshots feed by default

    @property
    def aspect(self) -> float:
        return self.screen_px[1] / self.screen_px[0]


def _device(entry: dict[str, Any]) -> Device:
    fields = {k: v for k, v in entry.items() if k != "frame"}
    for key in ("screen_px", "points", "island_pt", "punch_hole_pt"):
        if fields.get(key) is not None:
            fields[key] = tuple(fields[key])
    return Device(**fields)


def _load() -> dict[str, Any]:
    """``data/devices.json``: the one catalogue of devices and store sizes, read once."""
    text = resources.files("shotsmith").joinpath("data/devices.json").read_text("utf-8")
    return json.loads(text)


_TABLE = _load()

#: every device in the catalogue, by id: the ones render frames and the ones capture
#: only emulates (``"frame": false``)
CATALOGUE: dict[str, Device] = {e["id"]: _device(e) for e in _TABLE["devices"]}

#: the devices render draws a frame for, by id
DEVICES: dict[str, Device] = {
    e["id"]: CATALOGUE[e["id"]] for e in _TABLE["devices"] if e.get("frame", True)
}

#: accepted store canvases, portrait, primary first (docs/store-rules.md)
STORE_SIZES: dict[str, list[tuple[int, int]]] = {
    name: [(w, h) for w, h in sizes] for name, sizes in _TABLE["store_sizes"]["sizes"].items()
}

#: sizes the renderer offers by name (the v1 default is the 6.9" primary)
OUTPUT_SIZES: dict[str, tuple[int, int]] = {
    name: (w, h) for name, (w, h) in _TABLE["output_sizes"]["sizes"].items()
}
DEFAULT_OUTPUT_SIZE: str = _TABLE["output_sizes"]["default"]

#: what capture emulates: platform -> display class (inches, as text) -> device id, the
#: classes captured when none is asked for, and the class an iPad-capable app adds
CAPTURE_SIZES: dict[str, dict[str, str]] = {
    platform: dict(_TABLE["capture"][platform]) for platform in ("ios", "android")
}
CAPTURE_DEFAULTS: dict[str, tuple[str, ...]] = {
    platform: tuple(sizes) for platform, sizes in _TABLE["capture"]["defaults"].items()
}
CAPTURE_IPAD_SIZE: str = _TABLE["capture"]["ipad"]


def get_device(device_id: str) -> Device:
    try:
        return DEVICES[device_id]
    except KeyError:
        raise DeviceError(
            f"unknown device {device_id!r}; known devices: {', '.join(DEVICES)}"
        ) from None


def is_store_size(width: int, height: int) -> bool:
    pair = (min(width, height), max(width, height))
    return any(pair == s for sizes in STORE_SIZES.values() for s in sizes)
