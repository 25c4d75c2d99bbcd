"""Fonts and text: discovery, shaping (raqm where available), wrapping, fitting.

Everything that measures or draws text goes through here, so layout planning
(measuring) and rendering (drawing) agree to the pixel.
"""

from __future__ import annotations

import functools
import os
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import ImageFont, features

from .errors import ShotsmithError

FONT_DIRS = [Path(p) for p in os.environ.get("SHOTSMITH_FONT_DIRS", "").split(os.pathsep) if p] + [
    Path("/usr/share/fonts/opentype/inter"),
    Path("/usr/share/fonts/truetype/inter"),
    Path("/usr/share/fonts/truetype/noto"),
    Path("/usr/share/fonts/opentype/noto"),
    Path("/usr/share/fonts/truetype/dejavu"),
    Path.home() / ".local/share/fonts",
    Path("/Library/Fonts"),
    Path("/System/Library/Fonts"),
]

WEIGHT_NAMES = {
    100: "Thin",
    200: "ExtraLight",
    300: "Light",
    400: "Regular",
    500: "Medium",
    600: "SemiBold",
    700: "Bold",
    800: "ExtraBold",
    900: "Black",
}

# Scripts Inter does not cover, and the Noto family that does (Debian fonts-noto-core).
SCRIPT_FAMILIES = {
    "ARABIC": "Noto Sans Arabic",
    "HEBREW": "Noto Sans Hebrew",
    "DEVANAGARI": "Noto Sans Devanagari",
    "BENGALI": "Noto Sans Bengali",
    "THAI": "Noto Sans Thai",
    "TAMIL": "Noto Sans Tamil",
    "GEORGIAN": "Noto Sans Georgian",
    "ARMENIAN": "Noto Sans Armenian",
    "CJK": "Noto Sans CJK",
    "HANGUL": "Noto Sans CJK",
    "HIRAGANA": "Noto Sans CJK",
    "KATAKANA": "Noto Sans CJK",
}

RTL_SCRIPTS = {"ARABIC", "HEBREW"}


def has_raqm() -> bool:
    return bool(features.check("raqm"))


def _layout_engine() -> ImageFont.Layout:
    return ImageFont.Layout.RAQM if has_raqm() else ImageFont.Layout.BASIC


def script_of(text: str) -> str:
    """The first non-Latin script in ``text`` that needs another font, or "LATIN"."""
    for ch in text:
        if ord(ch) < 0x0370:
            continue
        try:
            name = unicodedata.name(ch)
        except ValueError:
            continue
        first = name.split(" ")[0]
        if first in SCRIPT_FAMILIES:
            return first
        if "CJK" in name:
            return "CJK"
    return "LATIN"


@functools.lru_cache(maxsize=64)
def find_font(family: str, weight: int = 400) -> str:
    """Path of an installed font file for ``family`` at the nearest available weight."""
    stem = family.replace(" ", "")
    wanted = sorted(WEIGHT_NAMES, key=lambda w: (abs(w - weight), -w))
    for w in wanted:
        for d in FONT_DIRS:
            for ext in (".otf", ".ttf", ".ttc"):
                path = d / f"{stem}-{WEIGHT_NAMES[w]}{ext}"
                if path.exists():
                    return str(path)
    if family != "DejaVu Sans":
        fallback = "Inter" if family not in ("Inter", "Noto Sans") else "DejaVu Sans"
        try:
            return find_font(fallback, weight)
        except ShotsmithError:
            pass
    raise ShotsmithError(
        f"no font file found for {family!r} (weight {weight}) in {', '.join(map(str, FONT_DIRS))}. "
        "Install the fonts (Debian: apt-get install fonts-inter fonts-noto-core) or set "
        "SHOTSMITH_FONT_DIRS."
    )


def font_for(text: str, family: str, weight: int) -> str:
    """Font path for ``family``, switched to a Noto family when the text's script needs it."""
    script = script_of(text)
    if script != "LATIN":
        try:
            return find_font(SCRIPT_FAMILIES[script], 700 if weight >= 600 else 400)
        except ShotsmithError:
            pass
    return find_font(family, weight)


@functools.lru_cache(maxsize=256)
def load_font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size, layout_engine=_layout_engine())


def direction_of(text: str) -> str | None:
    return "rtl" if script_of(text) in RTL_SCRIPTS and has_raqm() else None


def text_width(text: str, font: ImageFont.FreeTypeFont) -> float:
    return font.getlength(text, direction=direction_of(text))


def wrap_balanced(
    text: str, font: ImageFont.FreeTypeFont, max_width: float, max_lines: int = 2
) -> list[str] | None:
    """Wrap ``text`` into at most ``max_lines`` lines no wider than ``max_width``.

    One line when it fits; otherwise the split whose longest line is shortest
    (balanced), never leaving a single orphan word on the last line when the
    text has four or more words. Returns None when it cannot fit.
    """
    words = text.split()
    if not words:
        return [""]
    if text_width(" ".join(words), font) <= max_width:
        return [" ".join(words)]
    if max_lines < 2 or len(words) < 2:
        return None
    best: tuple[float, list[str]] | None = None
    for cut in range(1, len(words)):
        lines = [" ".join(words[:cut]), " ".join(words[cut:])]
        widths = [text_width(s, font) for s in lines]
        if max(widths) > max_width:
            continue
        orphan = len(words) >= 4 and (cut == len(words) - 1 or cut == 1)
        # balanced: minimise the longest line; a slightly longer top line reads better
        score = (
            max(widths)
            + (max_width if orphan else 0)
            + (0.02 * max_width if widths[0] < widths[1] else 0)
        )
        if best is None or score < best[0]:
            best = (score, lines)
    if best is not None:
        return best[1]
    if max_lines >= 3:
        for cut in range(1, len(words) - 1):
            head = " ".join(words[:cut])
            if text_width(head, font) <= max_width:
                rest = wrap_balanced(" ".join(words[cut:]), font, max_width, max_lines - 1)
                if rest is not None:
                    return [head, *rest]
    return None


@dataclass(frozen=True)
class FittedText:
    size: int
    lines: list[str]


def fit_size(
    texts: Sequence[str],
    family: str,
    weight: int,
    max_width: float,
    max_lines: int,
    largest: int,
    smallest: int,
) -> int | None:
    """Largest size in [smallest, largest] at which every text wraps into ``max_lines``."""
    lo, hi, found = smallest, largest, None
    while lo <= hi:  # wrapping is monotone in size: binary search
        mid = (lo + hi) // 2
        if all(
            wrap_balanced(t, load_font(font_for(t, family, weight), mid), max_width, max_lines)
            is not None
            for t in texts
        ):
            found, lo = mid, mid + 1
        else:
            hi = mid - 1
    return found


def line_metrics(font: ImageFont.FreeTypeFont) -> tuple[int, int]:
    """(ascent, descent) in px of a font at its size."""
    return font.getmetrics()


def ink_box(
    text: str, font: ImageFont.FreeTypeFont, x: float, baseline: float, anchor: str
) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of the pixels ``text`` covers when drawn at ``anchor``."""
    left, top, right, bottom = font.getbbox(text, anchor=anchor, direction=direction_of(text))
    return x + left, baseline + top, x + right, baseline + bottom
