"""Colour: palette extraction from screenshots and WCAG contrast.

Colours travel as ``#rrggbb`` strings (JSON-friendly) and as RGB tuples inside.
"""

from __future__ import annotations

import colorsys
from collections.abc import Callable, Iterable, Sequence

import numpy as np
from PIL import Image

from .errors import InvalidOptionError

RGB = tuple[int, int, int]

NEAR_BLACK: RGB = (11, 11, 15)  # #0B0B0F
OFF_WHITE: RGB = (248, 248, 250)  # #F8F8FA


def to_hex(rgb: Sequence[float]) -> str:
    r, g, b = (int(round(max(0, min(255, c)))) for c in rgb[:3])
    return f"#{r:02x}{g:02x}{b:02x}"


def to_rgb(value: str | Sequence[int]) -> RGB:
    if isinstance(value, str):
        s = value.strip().lstrip("#")
        if len(s) == 3:
            s = "".join(c * 2 for c in s)
        if len(s) != 6 or any(c not in "0123456789abcdefABCDEF" for c in s):
            raise InvalidOptionError(f"not a #rrggbb colour: {value!r}")
        return int(s[0:2], 16), int(s[2:4], 16), int(s[4:6], 16)
    r, g, b = value[:3]
    return int(r), int(g), int(b)


def _linear(c: np.ndarray | float) -> np.ndarray | float:
    c = np.asarray(c, dtype=np.float64) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def relative_luminance(color: str | Sequence[int]) -> float:
    """WCAG 2.x relative luminance of an sRGB colour (0 = black, 1 = white)."""
    r, g, b = np.asarray(_linear(np.array(to_rgb(color), dtype=np.float64)))
    return float(0.2126 * r + 0.7152 * g + 0.0722 * b)


_LINEAR_LUT = np.asarray(_linear(np.arange(256)), dtype=np.float64)


def luminance_array(pixels: np.ndarray) -> np.ndarray:
    """Relative luminance of every pixel of an (..., 3) uint8 array (exact, via a lookup)."""
    px = np.asarray(pixels, dtype=np.uint8)
    return (
        0.2126 * _LINEAR_LUT[px[..., 0]]
        + 0.7152 * _LINEAR_LUT[px[..., 1]]
        + 0.0722 * _LINEAR_LUT[px[..., 2]]
    )


def contrast_ratio(a: str | Sequence[int], b: str | Sequence[int]) -> float:
    """WCAG contrast ratio (1..21) between two colours. Thresholds apply unrounded."""
    la, lb = relative_luminance(a), relative_luminance(b)
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


def worst_contrast(text: str | Sequence[int], pixels: np.ndarray) -> float:
    """Lowest contrast of ``text`` colour against any pixel of an (h, w, 3) region."""
    if pixels.size == 0:
        return 21.0
    lum = luminance_array(pixels.reshape(-1, 3))
    lt = relative_luminance(text)
    lo, hi = float(lum.min()), float(lum.max())
    # the worst pixel is the one whose luminance is closest to the text's
    candidates = [lo, hi]
    if lo <= lt <= hi:
        candidates.append(lt)
    return min((max(lt, x) + 0.05) / (min(lt, x) + 0.05) for x in candidates)


def mix(a: str | Sequence[int], b: str | Sequence[int], t: float) -> RGB:
    """Linear blend of two colours in sRGB space: t=0 gives a, t=1 gives b."""
    ra, rb = to_rgb(a), to_rgb(b)
    return tuple(int(round(ra[i] + (rb[i] - ra[i]) * t)) for i in range(3))  # type: ignore[return-value]


def hls(color: str | Sequence[int]) -> tuple[float, float, float]:
    r, g, b = to_rgb(color)
    return colorsys.rgb_to_hls(r / 255, g / 255, b / 255)


def from_hls(h: float, l: float, s: float) -> RGB:  # noqa: E741
    r, g, b = colorsys.hls_to_rgb(h % 1.0, max(0.0, min(1.0, l)), max(0.0, min(1.0, s)))
    return int(round(r * 255)), int(round(g * 255)), int(round(b * 255))


def saturation(color: str | Sequence[int]) -> float:
    """Chroma-like saturation in 0..1 (HSV-style: max-min over max), robust for greys."""
    r, g, b = to_rgb(color)
    mx, mn = max(r, g, b), min(r, g, b)
    return 0.0 if mx == 0 else (mx - mn) / mx


def image_colors(
    image: Image.Image, count: int = 6, *, flat: bool = False
) -> list[tuple[str, float]]:
    """The ``count`` most used colours of an image with their share of pixels.

    Works on a small thumbnail with colours quantised to 4 bits per channel, so it
    costs a few milliseconds and ignores anti-aliasing noise. ``flat``: count only pixels
    inside areas of one colour (headers, buttons, tab bars, backgrounds), not pictures:
    a photo or a book cover changes colour from one thumbnail pixel to the next.
    """
    thumb = image.convert("RGB")
    thumb.thumbnail((96, 96), Image.Resampling.BOX)
    grid = np.asarray(thumb, dtype=np.uint8)
    q3 = (grid >> 4).astype(np.int32)
    key_grid = (q3[..., 0] << 8) | (q3[..., 1] << 4) | q3[..., 2]
    px = grid.reshape(-1, 3)
    keys = key_grid.reshape(-1)
    if flat:
        keep = flat_mask(key_grid).reshape(-1)
        total = float(len(keys))
        px, keys = px[keep], keys[keep]
        if not len(keys):
            return []
        uniq, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
        order = np.argsort(-counts)[:count]
        top = [(to_hex(px[inverse == i].mean(axis=0)), counts[i] / total) for i in order]
        return top + _vivid_clusters(px, total, {c for c, _ in top})
    uniq, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
    order = np.argsort(-counts)[:count]
    total = float(len(keys))
    out: list[tuple[str, float]] = []
    for idx in order:
        members = px[inverse == idx]
        out.append((to_hex(members.mean(axis=0)), counts[idx] / total))
    return out + _vivid_clusters(px, total, {c for c, _ in out})


def flat_mask(keys: np.ndarray) -> np.ndarray:
    """Pixels whose four neighbours have their (quantised) colour: inside a flat area."""
    same = np.ones(keys.shape, dtype=bool)
    same[1:, :] &= keys[1:, :] == keys[:-1, :]
    same[:-1, :] &= keys[:-1, :] == keys[1:, :]
    same[:, 1:] &= keys[:, 1:] == keys[:, :-1]
    same[:, :-1] &= keys[:, :-1] == keys[:, 1:]
    return same


def hue_distance(a: str | Sequence[int], b: str | Sequence[int]) -> float:
    """Degrees between two colours' hues (0-180)."""
    d = abs(hls(a)[0] - hls(b)[0]) * 360.0
    return min(d, 360.0 - d)


def _vivid_clusters(
    px: np.ndarray, total: float, seen: set[str], bins: int = 18, keep: int = 3
) -> list[tuple[str, float]]:
    """The most used vivid hues (a brand colour is often small: buttons, rings, tabs)."""
    f = px.astype(np.float64) / 255.0
    mx, mn = f.max(axis=1), f.min(axis=1)
    vivid = (mx > 0.45) & ((mx - mn) / np.maximum(mx, 1e-6) > 0.5)
    if not vivid.any():
        return []
    v = f[vivid]
    r, g, b = v[:, 0], v[:, 1], v[:, 2]
    hue = (np.degrees(np.arctan2(np.sqrt(3) * (g - b), 2 * r - g - b)) + 360.0) % 360.0
    idx = (hue / (360.0 / bins)).astype(int) % bins
    counts = np.bincount(idx, minlength=bins)
    out = []
    for k in np.argsort(-counts)[:keep]:
        if counts[k] == 0:
            break
        color = to_hex(np.median(px[vivid][idx == k], axis=0))
        if color not in seen:
            out.append((color, counts[k] / total))
    return out


def is_dark_image(image: Image.Image) -> bool:
    """True when most of the image is dark (a dark-mode UI)."""
    thumb = image.convert("L")
    thumb.thumbnail((64, 64), Image.Resampling.BOX)
    return float(np.asarray(thumb).mean()) < 110.0


def accent_of(
    colors: Iterable[tuple[str, float]], presence: Callable[[str], float] | None = None
) -> str | None:
    """The brand/accent colour among weighted colours: the most used *saturated* one.

    Large greys, whites and blacks (backgrounds, text) are skipped; a colour scores
    by its share weighted by saturation, so a small vivid button beats a wide pale
    tint. ``presence``: the share of the set's screens a colour's hue appears on (an
    app's own colour is on most screens; a picture's is on one); its square weighs the
    score. Returns None when the screenshots are all greys.
    """
    best, best_score = None, 0.0
    for hex_color, share in colors:
        s = saturation(hex_color)
        _, light, _ = hls(hex_color)
        if s < 0.28 or light < 0.12 or light > 0.93:
            continue
        # vivid, mid-light colours are brand colours; dark tints of a background are not
        light_weight = max(0.0, 1.0 - abs(light - 0.55) / 0.35)
        score = share * s * s * light_weight
        if presence is not None:
            score *= presence(hex_color) ** 2
        if score > best_score:
            best, best_score = hex_color, score
    return best


DEFAULT_ACCENT = "#3b5bdb"  # used when an app's screenshots have no saturated colour
