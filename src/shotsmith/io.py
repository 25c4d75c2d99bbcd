"""Raw screenshot files: checking PNG bytes, decoding base64, opening an image lazily.

The frame holds only a *reference* to each raw image (a path, or the PNG bytes when the
caller handed bytes/base64); these helpers check it when it is read
(:func:`shotsmith.stages.read.read_screenshots`) and decode it when a stage needs the
pixels (:func:`open_image`).
"""

from __future__ import annotations

import base64
import binascii
import importlib
import io
import struct
import zlib
from pathlib import Path
from typing import Any

from PIL import Image

try:  # libspng: decodes PNGs in about half Pillow's time, to the same pixels
    import pyspng
except ImportError:  # pragma: no cover - a dependency; Pillow decodes without it
    pyspng = None

from .errors import InputImageError
from .ids import slugify
from .png import MAX_PIXELS, check_header, read_header, to_rgb

__all__ = ["check_png", "decode_base64_png", "open_image", "slugify"]

# Names that moved to the read stage (stages/read.py) and still import from here. Loaded
# on first use: the read stage itself imports this module.
_MOVED = {
    name: "shotsmith.stages.read"
    for name in (
        "read_screenshots",
        "concat_sets",
        "screen_name_from_file",
        "MANIFEST_NAMES",
        "DEFAULT_DEVICE",
        "DEFAULT_LOCALE",
        "ELEMENT_ROLES",
    )
}


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        return getattr(importlib.import_module(_MOVED[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


Image.MAX_IMAGE_PIXELS = MAX_PIXELS  # Pillow itself refuses bombs beyond this too


def check_png(data: bytes, name: str = "image", *, full: bool = True) -> tuple[int, int]:
    """Validate PNG bytes; with ``full`` also decode once to catch truncation/corruption."""
    width, height = check_header(data, name)
    if full:
        try:
            with Image.open(io.BytesIO(data)) as im:
                im.load()
        except Image.DecompressionBombError as exc:  # pragma: no cover - header check first
            raise InputImageError(f"{name}: image too large to decode safely ({exc}).") from exc
        except (OSError, SyntaxError, ValueError, struct.error, zlib.error) as exc:
            raise InputImageError(
                f"{name}: corrupt or truncated PNG ({exc}). Re-export the screenshot."
            ) from exc
    return width, height


def decode_base64_png(text: str, name: str = "image") -> bytes:
    """Base64 (optionally a ``data:image/png;base64,`` URL) to PNG bytes, validated."""
    if not isinstance(text, str):
        raise InputImageError(f"{name}: expected base64 text, got {type(text).__name__}.")
    if text.startswith("data:"):
        text = text.split(",", 1)[-1]
    try:
        data = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise InputImageError(
            f"{name}: data is not valid base64 ({exc}). "
            "Encode the PNG file's bytes with standard base64."
        ) from exc
    return data


def open_image(ref: str | Path | bytes, *, release_gil: bool = False) -> Image.Image:
    """Decode a raw screenshot reference (path or PNG bytes) to an 8-bit RGB image.

    Every PNG colour type and bit depth comes out as a viewer shows it: 16-bit samples
    scaled to 8 bits, low bit depths and palettes expanded, alpha and ``tRNS``
    transparency composited over white (:func:`shotsmith.png.to_rgb`).

    libspng decodes 8-bit PNGs in about half Pillow's time but holds the GIL while it
    does; ``release_gil=True`` (several threads decoding at once) uses Pillow, which lets
    the other threads run. The pixels are the same either way.
    """
    im = None if release_gil else _decode_8bit_png(ref)
    if im is not None:
        return im
    try:  # anything else, and every error message, comes from Pillow
        if isinstance(ref, (bytes, bytearray, memoryview)):
            data = bytes(ref)
        else:
            with open(ref, "rb") as fh:
                data = fh.read()
        im = Image.open(io.BytesIO(data))
        im.load()
    except (OSError, SyntaxError, ValueError) as exc:
        raise InputImageError(f"{_ref_name(ref)}: cannot decode image ({exc}).") from exc
    return to_rgb(im, data)


def _decode_8bit_png(ref: str | Path | bytes) -> Image.Image | None:
    """8-bit RGB/RGBA PNGs (what simulators and browsers write) through libspng.

    PNG decoding is lossless, so the pixels are Pillow's own, in about half the time;
    ``None`` (decode with Pillow) for other kinds, a ``tRNS`` chunk (libspng would ignore
    it), bombs, and anything libspng refuses.
    """
    if pyspng is None:
        return None
    try:
        data = bytes(ref) if isinstance(ref, (bytes, bytearray, memoryview)) else None
        if data is None:
            with open(ref, "rb") as fh:
                data = fh.read()
    except (OSError, TypeError):
        return None
    try:
        width, height = check_header(data, _ref_name(ref))  # the same checks as reading
    except InputImageError:  # Pillow decodes it again and says what is wrong
        return None
    header = read_header(data)
    mode = {2: "RGB", 6: "RGBA"}.get(data[25])
    if header is None or header.bit_depth != 8 or mode is None or header.transparency:
        return None  # bit depth 8, colour type RGB or RGBA, no colour key only
    try:
        pixels = pyspng.load(data, format=mode)
    except Exception:  # libspng's own error types: Pillow decodes it again and says why
        return None
    if pixels.shape != (height, width, len(mode)):
        return None
    return to_rgb(Image.fromarray(pixels, mode))


def _ref_name(ref: Any) -> str:
    if isinstance(ref, (bytes, bytearray, memoryview)):
        return f"<{len(ref)} bytes>"
    return str(ref)
