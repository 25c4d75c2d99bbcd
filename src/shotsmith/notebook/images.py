"""Images in notebooks: screenshots and renders as small inline thumbnails (data URIs,
cached by file and modification time so a re-shown frame does not re-encode), and
:class:`ImageView`, a PIL image that shows itself as a PNG and describes itself as text."""

from __future__ import annotations

import base64
import io
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image

from .. import columns as C
from ..errors import ShotsmithError
from ..io import open_image

IMAGE_COLUMNS = (C.IMAGE, C.RENDER_PATH, C.RENDER_PNG)
PREVIEW_SCALE = 0.25  # preview renders at a quarter of the store size: ~20 ms a slide


# --- images ------------------------------------------------------------------------------


def _png_bytes(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, "PNG", compress_level=1)
    return buf.getvalue()


@lru_cache(maxsize=512)
def _thumb_cached(key: str, _mtime: float, width: int) -> str:
    return _thumb_uri(open_image(key), width)


def _thumb_uri(image: Image.Image, width: int) -> str:
    im = image.convert("RGB")
    height = max(1, round(im.height * width / im.width))
    im = im.resize((width, height), Image.Resampling.BILINEAR, reducing_gap=2.0)
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=82)
    return "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def thumbnail_uri(ref: Any, width: int = 72) -> str | None:
    """A small JPEG ``data:`` URI of an image reference (path, PNG bytes or PIL image)."""
    try:
        if isinstance(ref, Image.Image):
            return _thumb_uri(ref, width)
        if isinstance(ref, (bytes, bytearray, memoryview)):
            return _thumb_uri(open_image(bytes(ref)), width) if len(ref) else None
        if isinstance(ref, (str, Path)) and str(ref):
            path = Path(ref)
            if path.is_file():
                return _thumb_cached(str(path), path.stat().st_mtime, width)
    except (OSError, ShotsmithError, ValueError):
        return None
    return None


class ImageView:
    """A PIL image that shows itself in a notebook (PNG) and describes itself as text."""

    def __init__(self, image: Image.Image, text: str = ""):
        self.image = image
        self.text = text or f"<image {image.width}x{image.height}>"

    def _repr_png_(self) -> bytes:
        return _png_bytes(self.image)

    def __repr__(self) -> str:
        return self.text

    def save(self, path: str | Path) -> Path:
        self.image.save(path)
        return Path(path)
