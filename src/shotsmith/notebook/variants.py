"""Store-experiment variants side by side: ``show_variants(frame_or_folder)``.

``design(variants=N)`` (``--variants N``, a batch's ``variants`` column) designs N sets
of an app that differ in one thing each (:mod:`shotsmith.variants`). A store experiment
is decided by the first slide, so the view puts the variants in columns side by side,
each headed by what it changes, its first slide large and the rest of its set in a row
under it. It reads a frame ``design`` returned or a design output (an app's folder
holding ``variant-K/design.json``, or the folder above it)."""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
from PIL import Image

from .. import columns as C
from ..errors import InputFileError, InvalidOptionError
from ..io import open_image
from .images import _png_bytes, thumbnail_uri
from .scenes import preview_scene

GAP = 16
BACKDROP = "#f2f2f5"


@dataclass
class VariantSet:
    """One variant of an app: its id, what it changes, its slides in store order."""

    variant: str
    differs: str
    slides: list[Image.Image | str] = field(default_factory=list)


class VariantsView:
    """An app's variants side by side: HTML in a notebook (``_repr_html_``), one picture
    (``.image``, PIL) and a line per variant as text."""

    def __init__(self, app_id: str, variants: list[VariantSet], thumb_width: int = 220):
        self.app_id, self.variants, self.thumb_width = app_id, variants, thumb_width

    @property
    def image(self) -> Image.Image:
        """The variants in columns: the first slide at ``thumb_width``, the rest of the
        set in a row of small thumbnails under it."""
        columns = [_column(v, self.thumb_width) for v in self.variants]
        width = sum(c.width for c in columns) + GAP * (len(columns) + 1)
        height = max(c.height for c in columns) + 2 * GAP
        out = Image.new("RGB", (width, height), BACKDROP)
        x = GAP
        for column in columns:
            out.paste(column, (x, GAP))
            x += column.width + GAP
        return out

    def _repr_png_(self) -> bytes:
        return _png_bytes(self.image)

    def _repr_html_(self) -> str:
        cards = []
        for v in self.variants:
            first, rest = v.slides[0], v.slides[1:]
            small = max(24, (self.thumb_width - 4 * (len(rest) - 1)) // max(1, len(rest)))
            thumbs = "".join(
                f'<img src="{thumbnail_uri(s, small)}" width="{small}" '
                f'title="slide {i + 2}" style="margin-right:4px">'
                for i, s in enumerate(rest)
            )
            differs = html.escape(v.differs or "the original set (control)")
            cards.append(
                f'<div style="width:{self.thumb_width}px;margin:0 {GAP}px {GAP}px 0">'
                f"<b>{html.escape(v.variant)}</b>"
                f'<div style="font-size:12px;min-height:3.2em;color:#444">{differs}</div>'
                f'<img src="{thumbnail_uri(first, self.thumb_width)}" '
                f'width="{self.thumb_width}" title="slide 1"><div>{thumbs}</div></div>'
            )
        return (
            f"<div><b>{html.escape(self.app_id)}</b>: {len(self.variants)} variants"
            f'<div style="display:flex;flex-wrap:wrap;align-items:flex-start">'
            f"{''.join(cards)}</div></div>"
        )

    def __repr__(self) -> str:
        lines = [f"{self.app_id}: {len(self.variants)} variants"]
        lines += [
            f"  {v.variant} ({len(v.slides)} slides): {v.differs or 'the original set'}"
            for v in self.variants
        ]
        return "\n".join(lines)


def show_variants(
    source: pd.DataFrame | str | Path, *, app_id: str | None = None, thumb_width: int = 220
) -> VariantsView:
    """An app's store-experiment variants side by side (see :class:`VariantsView`).

    ``source`` is the frame ``design(..., variants=N)`` returned, or a design output
    folder: an app's folder with its ``variant-K/`` folders, or the output folder above
    it (``app_id`` picks the app when it holds more than one)."""
    if isinstance(source, pd.DataFrame):
        rows = _frame_rows(source, app_id)
    else:
        rows = _folder_rows(Path(source), app_id)
    app = str(rows[0]["app_id"])
    by_variant: dict[str, VariantSet] = {}
    for row in sorted(rows, key=lambda r: (_number(r["variant"]), int(r["position"]))):
        entry = by_variant.setdefault(
            row["variant"], VariantSet(row["variant"], str(row.get("differs") or ""))
        )
        entry.slides.append(row["slide"])
    return VariantsView(app, list(by_variant.values()), thumb_width)


def _frame_rows(frame: pd.DataFrame, app_id: str | None) -> list[dict[str, Any]]:
    if C.VARIANT not in frame.columns:
        raise InvalidOptionError(
            "show_variants: the frame has no variant column; design with variants=N (2 to 4) first."
        )
    frame = _one_app(frame, app_id, "the frame")
    rows = []
    for _, row in frame.iterrows():
        rows.append(
            {
                "app_id": row[C.APP_ID],
                "variant": str(row[C.VARIANT]),
                "differs": row.get(C.VARIANT_DIFFERS, ""),
                "position": row[C.POSITION],
                "slide": _slide_of(row),
            }
        )
    return rows


def _one_app(frame: pd.DataFrame, app_id: str | None, where: str) -> pd.DataFrame:
    apps = [str(a) for a in dict.fromkeys(frame[C.APP_ID])]
    if app_id is None and len(apps) > 1:
        raise InvalidOptionError(
            f"show_variants: {where} holds {len(apps)} apps ({', '.join(apps)}); "
            "name one with app_id=."
        )
    chosen = app_id if app_id is not None else apps[0]
    if chosen not in apps:
        raise InvalidOptionError(
            f"show_variants: no app {chosen!r} in {where}; apps: {', '.join(apps)}."
        )
    return frame[frame[C.APP_ID].astype(str) == chosen]


def _slide_of(row: pd.Series) -> Image.Image | str:
    """A row's slide: its PNG, its PNG bytes, else its scene at preview size."""
    path = row.get(C.RENDER_PATH)
    if isinstance(path, str) and path and Path(path).is_file():
        return path
    png = row.get(C.RENDER_PNG)
    if isinstance(png, (bytes, bytearray)) and png:
        return open_image(bytes(png))
    return preview_scene(row[C.LAYOUT_SCENE], row[C.IMAGE])


def _folder_rows(folder: Path, app_id: str | None) -> list[dict[str, Any]]:
    tables = sorted(folder.glob("variant-*/design.json")) or sorted(
        folder.glob(f"{app_id or '*'}/variant-*/design.json")
    )
    if not tables:
        raise InputFileError(
            f"show_variants: no variant-K/design.json in {folder}; design the app with "
            "--variants N (variants=N) first."
        )
    apps = sorted({t.parent.parent.name for t in tables})
    if app_id is None and len(apps) > 1:
        raise InvalidOptionError(
            f"show_variants: {folder} holds {len(apps)} apps ({', '.join(apps)}); "
            "name one with app_id=."
        )
    rows = []
    for table in tables:
        for record in json.loads(table.read_text("utf-8")):
            png = table.parent / Path(str(record.get(C.RENDER_PATH) or "")).name
            if not png.is_file():
                raise InputFileError(
                    f"show_variants: {table} names {png.name}, which is not beside it."
                )
            rows.append(
                {
                    "app_id": record.get(C.APP_ID, table.parent.parent.name),
                    "variant": str(record.get(C.VARIANT) or table.parent.name),
                    "differs": record.get(C.VARIANT_DIFFERS, ""),
                    "position": record.get(C.POSITION, 0),
                    "slide": str(png),
                }
            )
    return rows


def _number(variant: str) -> int:
    tail = variant.rpartition("-")[2]
    return int(tail) if tail.isdigit() else 0


def _column(variant: VariantSet, width: int) -> Image.Image:
    first = _fit(variant.slides[0], width)
    rest = variant.slides[1:]
    gap = 4
    small_w = max(8, (width - gap * (len(rest) - 1)) // max(1, len(rest)))
    smalls = [_fit(s, small_w) for s in rest]
    height = first.height + (gap * 2 + max(s.height for s in smalls) if smalls else 0)
    out = Image.new("RGB", (width, height), BACKDROP)
    out.paste(first, (0, 0))
    x = 0
    for small in smalls:
        out.paste(small, (x, first.height + 2 * gap))
        x += small.width + gap
    return out


def _fit(slide: Image.Image | str, width: int) -> Image.Image:
    image = open_image(slide) if isinstance(slide, str) else slide
    image = image.convert("RGB")
    height = max(1, round(image.height * width / image.width))
    return image.resize((width, height), Image.Resampling.LANCZOS)
