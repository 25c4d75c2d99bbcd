"""When two screens are the same screen: perceptual hashes of the pixels, page shapes.

A difference hash and a DCT hash of a small grey thumbnail say two photos look alike
(a duplicate); the weighted Jaccard of two pages' element counts says two records are
shown by one page template; a gradient measure says how busy a screen is (for ranking).
"""

from __future__ import annotations

import difflib
import hashlib
import io
from collections.abc import Mapping
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import numpy as np
from PIL import Image

if TYPE_CHECKING:
    from .screens import Screen

DHASH_SIDE = 16  # 16x16 = 256-bit difference hash

DUPLICATE_DHASH = 14  # Hamming distance (of 256) at or below which two screens look the same

DUPLICATE_PHASH = 8  # ... and of the 64-bit DCT hash

SAME_SHAPE = 0.75  # pages under one path prefix this alike in structure are one template


def _gray(image: Image.Image, size: tuple[int, int]) -> np.ndarray:
    return np.asarray(image.convert("L").resize(size, Image.Resampling.BOX), dtype=np.float32)


def dhash(image: Image.Image, side: int = DHASH_SIDE) -> int:
    """Difference hash: side x side bits, each 'is this cell brighter than its right neighbour'."""
    g = _gray(image, (side + 1, side))
    bits = (g[:, 1:] > g[:, :-1]).flatten()
    return int("".join("1" if b else "0" for b in bits), 2)


_DCT_CACHE: dict[int, np.ndarray] = {}


def _dct_matrix(n: int) -> np.ndarray:
    if n not in _DCT_CACHE:
        k = np.arange(n)[:, None]
        i = np.arange(n)[None, :]
        m = np.cos(np.pi * (2 * i + 1) * k / (2 * n)) * np.sqrt(2 / n)
        m[0] /= np.sqrt(2)
        _DCT_CACHE[n] = m
    return _DCT_CACHE[n]


def phash(image: Image.Image) -> int:
    """DCT perceptual hash: 64 bits, low frequencies of a 32x32 thumbnail against their median."""
    g = _gray(image, (32, 32))
    d = _dct_matrix(32)
    coeffs = (d @ g @ d.T)[:8, :8].flatten()
    med = np.median(coeffs[1:])
    return int("".join("1" if c > med else "0" for c in coeffs), 2)


def hamming(a: int, b: int) -> int:
    return (a ^ b).bit_count()


def complexity(image: Image.Image) -> float:
    """Visual busyness 0..1: mean absolute gradient of a small grey thumbnail."""
    g = _gray(image, (72, 156)) / 255.0
    return float(np.abs(np.diff(g, axis=0)).mean() + np.abs(np.diff(g, axis=1)).mean())


def looks_same(a: Screen, b: Screen) -> bool:
    return (
        hamming(a.dhash, b.dhash) <= DUPLICATE_DHASH
        and hamming(a.phash, b.phash) <= DUPLICATE_PHASH
    )


def same_lines(a: Screen, b: Screen) -> bool:
    """The same lines of text in another order (a table sorted on another column): to a
    marketer the same screen, however the pixels moved."""
    if not a.text or a.via == b.via and a.url == b.url:
        return False
    return sorted(a.text.split("\n")) == sorted(b.text.split("\n"))


def shape_similarity(a: Mapping[str, int], b: Mapping[str, int]) -> float:
    """Weighted Jaccard of two pages' shapes (element counts per tag and first class)."""
    keys = set(a) | set(b)
    top = sum(max(a.get(k, 0), b.get(k, 0)) for k in keys)
    return sum(min(a.get(k, 0), b.get(k, 0)) for k in keys) / top if top else 0.0


MOSTLY_SAME = 0.75  # share of the smaller page's lines the other shows too: one page, reworded

NEAR_SAME = 0.75  # Jaccard of two screens' visible lines at or above which they are one screen

NEAR_SAME_LINES = 6  # ... when each shows at least this many lines

SAME_ROWS = 0.8  # ... and at least this share of their drawn pixel rows match, in order

SMALL_ADDITION = 0.25  # at most this share of a state's lines new: the base screen, a menu open


def _lines(screen: Screen) -> set[str]:
    return {line.strip() for line in screen.text.split("\n") if line.strip()}


def _page(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}{parts.path}#{parts.fragment}"


def mostly_same_page(a: Screen, b: Screen) -> bool:
    """One page reached again through another query (another sort, a filter down to a few
    of its rows): the same path, and nearly all lines of the smaller one are the other's
    too. A marketer shows the page once."""
    if a.url == b.url or a.via or b.via or _page(a.url) != _page(b.url):
        return False
    la, lb = _lines(a), _lines(b)
    small = min(len(la), len(lb))
    return small >= 3 and len(la & lb) >= MOSTLY_SAME * small


def base_with_a_little_more(base: Screen, state: Screen) -> bool:
    """A press that left every line of the screen and added a few (a menu opened, a short
    disclosure): the screen again, with a menu over it."""
    lb, ls = _lines(base), _lines(state)
    if len(lb) < 3 or not lb <= ls:
        return False
    return len(ls - lb) <= SMALL_ADDITION * len(ls)


def same_content(a: Screen, b: Screen) -> bool:
    """Nearly the same visible lines on the same layout: one screen to a marketer, however
    the pixels moved (two tabs showing a one-line note above the same card, a page shown
    again with a line more).

    Content: the Jaccard of the two screens' visible lines as sets (shared lines over all
    lines) is at least NEAR_SAME, each showing NEAR_SAME_LINES lines or more. Layout: the
    same page (a state of it, the same path and fragment), or pages alike in structure
    (:func:`shape_similarity` at least SAME_SHAPE). Two records of one template differ in
    their values, and two tabs in their panels, so either stays well below.
    """
    la, lb = _lines(a), _lines(b)
    if min(len(la), len(lb)) < NEAR_SAME_LINES:
        return False
    if len(la & lb) < NEAR_SAME * len(la | lb):
        return False
    if _page(a.url) != _page(b.url) and shape_similarity(a.shape, b.shape) < SAME_SHAPE:
        return False
    return not (a.png and b.png) or same_rows(a.png, b.png) >= SAME_ROWS


def _drawn_rows(png: bytes) -> list[bytes]:
    """A digest of each pixel row of the photo that is not one colour, top to bottom."""
    with Image.open(io.BytesIO(png)) as im:
        pixels = np.asarray(im.convert("RGB"))
    drawn = (pixels != pixels[:, :1]).any(axis=(1, 2))
    return [hashlib.blake2b(row.tobytes(), digest_size=8).digest() for row in pixels[drawn]]


def same_rows(a: bytes, b: bytes) -> float:
    """The share of the drawn pixel rows (rows of one colour left out) of the smaller of
    two photos that the other has too, in the same order: text moved down by a line still
    matches, a chart drawn anew does not. 0..1."""
    ra, rb = _drawn_rows(a), _drawn_rows(b)
    if not ra or not rb:
        return 0.0
    matcher = difflib.SequenceMatcher(None, ra, rb, autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks()) / min(len(ra), len(rb))
