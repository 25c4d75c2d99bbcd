"""Device catalogue and store output sizes (from spec/store-facts.md).

Geometry is in points unless a name says ``px``. Store sizes are portrait
pixels; landscape is the same pair swapped.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import ShotsmithError


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


DEVICES: dict[str, Device] = {
    d.id: d
    for d in [
        Device(
            "iphone-16-pro",
            "iPhone 16 Pro",
            "ios",
            (1206, 2622),
            (402, 874),
            3,
            62,
            island_pt=(126, 37, 11),
            top_inset_pt=62,
            store_size="6.3",
        ),
        Device(
            "iphone-16-pro-max",
            "iPhone 16 Pro Max",
            "ios",
            (1320, 2868),
            (440, 956),
            3,
            62,
            island_pt=(126, 37, 11),
            top_inset_pt=62,
            store_size="6.9",
        ),
        Device(
            "iphone-16",
            "iPhone 16",
            "ios",
            (1179, 2556),
            (393, 852),
            3,
            55,
            island_pt=(126, 37, 11),
            top_inset_pt=59,
            store_size="6.1",
        ),
        Device(
            "iphone-16-plus",
            "iPhone 16 Plus",
            "ios",
            (1290, 2796),
            (430, 932),
            3,
            55,
            island_pt=(126, 37, 11),
            top_inset_pt=59,
            store_size="6.9",
        ),
        Device(
            "iphone-se-3",
            "iPhone SE (3rd generation)",
            "ios",
            (750, 1334),
            (375, 667),
            2,
            0,
            top_inset_pt=20,
            bezel_pt=14,
            home_button=True,
            store_size="5.5",
        ),
        Device(
            "ipad-pro-13",
            "iPad Pro 13-inch (M4)",
            "ios",
            (2064, 2752),
            (1032, 1376),
            2,
            18,
            top_inset_pt=24,
            bezel_pt=14,
            store_size="13",
        ),
        Device(
            "pixel-9",
            "Pixel 9",
            "android",
            (1080, 2424),
            (412, 923),
            2.625,
            48,
            punch_hole_pt=(11, 12),
            top_inset_pt=36,
            store_size="android-phone",
        ),
        Device(
            "pixel-9-pro-xl",
            "Pixel 9 Pro XL",
            "android",
            (1344, 2992),
            (448, 997),
            3,
            48,
            punch_hole_pt=(11, 12),
            top_inset_pt=36,
            store_size="android-phone",
        ),
        Device(  # 10.95" 16:10 tablet; camera in the bezel, so no punch hole
            "pixel-tablet",
            "Pixel Tablet",
            "android",
            (1600, 2560),
            (800, 1280),
            2,
            24,
            top_inset_pt=24,
            bezel_pt=22,
            store_size="android-tablet",
        ),
    ]
}

# Accepted store canvases, portrait, primary first (store-facts.md).
STORE_SIZES: dict[str, list[tuple[int, int]]] = {
    "6.9": [(1320, 2868), (1290, 2796), (1260, 2736)],
    "6.5": [(1284, 2778), (1242, 2688)],
    "6.3": [(1206, 2622), (1179, 2556)],
    "6.1": [(1170, 2532), (1125, 2436), (1080, 2340)],
    "5.5": [(1242, 2208)],
    "13": [(2064, 2752), (2048, 2732)],
    "11": [(1668, 2388), (1640, 2360), (1668, 2420), (1488, 2266)],
    # Google Play: each side 320..3840 and long side <= 2x short side; 9:16 first (the
    # aspect Play's promotion surfaces ask for). Tablets: each side 1080..7680, 9:16.
    "android-phone": [(1080, 1920), (1080, 2160), (1440, 2880)],
    "android-tablet": [(1440, 2560), (2160, 3840)],
}

# Sizes the renderer offers by name (the v1 default is the 6.9" primary).
OUTPUT_SIZES: dict[str, tuple[int, int]] = {
    "6.9": (1320, 2868),
    "6.5": (1284, 2778),
    "6.3": (1206, 2622),
    "13": (2064, 2752),
    "android-phone": (1080, 1920),
    "android-tablet": (1440, 2560),
}
DEFAULT_OUTPUT_SIZE = "6.9"


def get_device(device_id: str) -> Device:
    try:
        return DEVICES[device_id]
    except KeyError:
        raise ShotsmithError(
            f"unknown device {device_id!r}; known devices: {', '.join(DEVICES)}"
        ) from None


def output_size(size: str | tuple[int, int] | None) -> tuple[int, int]:
    """Resolve ``"6.9"``, ``"1320x2868"`` or ``(w, h)`` to an accepted store canvas
    (:func:`shotsmith.sizes.parse_size`, the one size parser)."""
    from .sizes import parse_size

    found = parse_size(DEFAULT_OUTPUT_SIZE if size is None else size)
    return found.width, found.height


def is_store_size(width: int, height: int) -> bool:
    pair = (min(width, height), max(width, height))
    return any(pair == s for sizes in STORE_SIZES.values() for s in sizes)
