"""Contact sheets: a set (or a batch) of finished screenshots side by side.

The title is part of the picture, so the sheet is made wide enough for it: a sheet of
two thumbnails with a long title grows instead of cutting the title off.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw

from .errors import InvalidOptionError
from .text import find_font, load_font


def contact_sheet(
    images: Sequence[str | Path | Image.Image],
    *,
    thumb_width: int = 300,
    columns: int | None = None,
    gap: int = 24,
    background: str = "#f2f2f5",
    title: str | None = None,
    title_size: int = 34,
) -> Image.Image:
    """Thumbnails of ``images`` in rows (all of one set in a row by default), RGB.

    ``title`` is drawn above them at ``title_size`` px; the sheet widens to fit it."""
    thumbs = []
    for item in images:
        im = item if isinstance(item, Image.Image) else Image.open(item)
        im = im.convert("RGB")
        height = round(im.height * thumb_width / im.width)
        thumbs.append(im.resize((thumb_width, height), Image.Resampling.LANCZOS))
    if not thumbs:
        raise InvalidOptionError("contact_sheet: no images")
    cols = columns or len(thumbs)
    rows = (len(thumbs) + cols - 1) // cols
    cell_h = max(t.height for t in thumbs)
    width = gap + cols * (thumb_width + gap)
    title_h = 0
    if title:
        font = load_font(find_font("Inter", 600), title_size)
        left, top, right, bottom = font.getbbox(title, anchor="ls")
        width = max(width, 2 * gap + round(right - left))
        title_h = 2 * title_size + 4
    sheet = Image.new("RGB", (width, title_h + gap + rows * (cell_h + gap)), background)
    if title:
        ImageDraw.Draw(sheet).text(
            (gap, gap + title_size), title, font=font, fill="#1c1c1e", anchor="ls"
        )
    for i, thumb in enumerate(thumbs):
        r, c = divmod(i, cols)
        sheet.paste(thumb, (gap + c * (thumb_width + gap), title_h + gap + r * (cell_h + gap)))
    return sheet
