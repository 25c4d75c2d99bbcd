"""``show(obj)``: one call that picks the right view for any shotsmith object (a frame, a
scene, a set, an image, a pipeline run), as a cell's last expression or with
``display(...)``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd
from PIL import Image

from .. import columns as C
from ..scene import Scene
from .frames import FrameView
from .images import ImageView
from .scenes import _shrink, show_scene, show_set


class HtmlView:
    """Some HTML for notebooks, with a short text form for terminals and diffs."""

    def __init__(self, html_text: str, text: str):
        self.html, self.text = html_text, text

    def _repr_html_(self) -> str:
        return self.html

    def __repr__(self) -> str:
        return self.text


def show(obj: Any, **options: Any) -> Any:
    """A displayable view of any shotsmith object.

    A frame becomes an HTML table with thumbnails (options: ``columns``, ``thumb_width``,
    ``max_rows``); a scene (Scene, dict or JSON) an image; a PIL image a preview; a
    list of image paths a grid; a Pipeline or PipelineRun shows itself (stages and
    timings). Show it as a cell's last expression or with ``display(...)``."""
    from ..pipeline import PipelineRun

    if isinstance(obj, pd.DataFrame):
        return FrameView(obj, **options)
    if isinstance(obj, PipelineRun):
        out = obj.output
        text = (
            f"PipelineRun: {_count(len(out), 'screenshot')}, "
            f"{_count(out[C.APP_ID].nunique(), 'set')}, "
            f"{obj.wall:.2f} s wall; stages: "
            + ", ".join(f"{k} {v * 1000:.0f} ms" for k, v in obj.timings.items())
        )
        return HtmlView(obj._repr_html_(), text)
    if isinstance(obj, pd.Series) and C.LAYOUT_SCENE in obj.index:
        return show_scene(obj, **options)
    if isinstance(obj, Scene) or (isinstance(obj, dict) and "device" in obj and "texts" in obj):
        return show_scene(obj, **options)
    if isinstance(obj, Image.Image):
        width = options.get("width", 640)
        return ImageView(_shrink(obj, width), f"<image {obj.width}x{obj.height}>")
    if (
        isinstance(obj, (list, tuple))
        and obj
        and all(isinstance(i, (str, Path, Image.Image, bytes)) for i in obj)
    ):
        return show_set(list(obj), **options)
    return obj


def _count(n: int, noun: str) -> str:
    """``1 set``, ``2 sets``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"
