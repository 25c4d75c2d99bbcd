"""What a batch run leaves beside the apps: the summary table and the contact sheets.

The names of the files a run writes are here too, so every part agrees on them."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

DONE_MARKER = "_done.json"


SUMMARY_CSV = "summary.csv"


CONTACT_SHEET = "contact-sheet.png"


THUMBNAIL = "thumbnail.png"


THUMB_WIDTH = 132


SHEET_APPS_PER_PAGE = 100  # the overall contact sheet: one hero thumbnail per app, paged


SUMMARY_COLUMNS = [
    "app_id",
    "project_name",
    "source",
    "status",
    "screens",
    "domain_category",
    "domain_confidence",
    "copy_tagline",
    "template",
    "folder",
    "contact_sheet",
    "hero",
    "seconds",
    "error",
    "note",
]


def _thumb(image, width: int):
    from PIL import Image

    return image.convert("RGB").resize(
        (width, round(width * image.height / image.width)), Image.Resampling.LANCZOS
    )


def _reduced(path: Path, width: int):
    """A PNG opened and box-reduced to about ``width`` (cheap), for thumbnails."""
    from PIL import Image

    with Image.open(path) as im:
        im.load()
        factor = max(1, im.width // width)
        return im.reduce(factor) if factor > 1 else im.copy()


def _save_png(image, path: Path) -> None:
    from ..png import write_png

    write_png(image, path)  # atomic, and safe against a second writer of the same file


def status_counts(summary: pd.DataFrame) -> str:
    """ "3 apps: 1 designed, 2 already done, 0 failed" for a batch summary."""
    counts = summary["status"].value_counts()
    return (
        f"{len(summary)} app{'s' if len(summary) != 1 else ''}: "
        f"{counts.get('designed', 0)} designed, {counts.get('skipped', 0)} already done, "
        f"{counts.get('failed', 0)} failed"
    )


def sheet_title(summary: pd.DataFrame) -> str:
    return status_counts(summary)


def write_overview_sheet(summary: pd.DataFrame, out_dir: str | Path) -> list[Path]:
    """One contact sheet of the whole batch: the first screenshot of every designed app
    (10 a row, 100 a page: ``contact-sheet.png``, ``contact-sheet-2.png``, ...)."""
    from PIL import Image, ImageDraw

    from ..sheets import contact_sheet
    from ..text import find_font, load_font

    out = Path(out_dir)
    ok = summary[summary["status"].isin(["designed", "skipped"]) & (summary["hero"] != "")]
    written: list[Path] = []
    font = load_font(find_font("Inter", 500), 13)
    for page, start in enumerate(range(0, max(len(ok), 1), SHEET_APPS_PER_PAGE), start=1):
        part = ok.iloc[start : start + SHEET_APPS_PER_PAGE]
        if part.empty:
            break
        thumbs = []
        for _, rec in part.iterrows():
            tile = out / str(rec["folder"]) / THUMBNAIL
            if tile.is_file():
                with Image.open(tile) as im:
                    thumb = im.convert("RGB")
            else:
                thumb = _thumb(_reduced(out / rec["hero"], THUMB_WIDTH), THUMB_WIDTH)
            labelled = Image.new("RGB", (thumb.width, thumb.height + 22), "#f2f2f5")
            labelled.paste(thumb, (0, 0))
            ImageDraw.Draw(labelled).text(
                (2, thumb.height + 5), str(rec["app_id"])[:20], font=font, fill="#1c1c1e"
            )
            thumbs.append(labelled)
        title = sheet_title(summary) + (f" (page {page})" if len(ok) > SHEET_APPS_PER_PAGE else "")
        sheet = contact_sheet(
            thumbs,
            thumb_width=THUMB_WIDTH,
            columns=min(10, len(thumbs)),
            gap=14,
            title=title,
            title_size=20,
        )
        path = out / (CONTACT_SHEET if page == 1 else f"contact-sheet-{page}.png")
        _save_png(sheet, path)
        written.append(path)
    return written
