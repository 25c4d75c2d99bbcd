"""Contact sheets: a set (or a batch) of finished screenshots side by side."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw

from .text import find_font, load_font


def contact_sheet(
    images: Sequence[str | Path | Image.Image],
    *,
    thumb_width: int = 300,
    columns: int | None = None,
    gap: int = 24,
    background: str = "#f2f2f5",
    title: str | None = None,
) -> Image.Image:
    """Thumbnails of ``images`` in rows (all of one set in a row by default), RGB."""
    thumbs = []
    for item in images:
        im = item if isinstance(item, Image.Image) else Image.open(item)
        im = im.convert("RGB")
        height = round(im.height * thumb_width / im.width)
        thumbs.append(im.resize((thumb_width, height), Image.Resampling.LANCZOS))
    if not thumbs:
        raise ValueError("contact_sheet: no images")
    cols = columns or len(thumbs)
    rows = (len(thumbs) + cols - 1) // cols
    cell_h = max(t.height for t in thumbs)
    title_h = 72 if title else 0
    sheet = Image.new(
        "RGB", (gap + cols * (thumb_width + gap), title_h + gap + rows * (cell_h + gap)), background
    )
    if title:
        font = load_font(find_font("Inter", 600), 34)
        ImageDraw.Draw(sheet).text((gap, gap + 34), title, font=font, fill="#1c1c1e", anchor="ls")
    for i, thumb in enumerate(thumbs):
        r, c = divmod(i, cols)
        sheet.paste(thumb, (gap + c * (thumb_width + gap), title_h + gap + r * (cell_h + gap)))
    return sheet
