"""``frame.shotsmith``: the notebook views of a frame of screenshots, one attribute away.

Registered when the first public name of ``shotsmith`` is used (``ss.read_screenshots``,
``ss.design``...: the package's lazy ``__getattr__`` imports this), not by
``import shotsmith``; the views themselves (and ipywidgets) load on the first call, so a
batch run never pays for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd

if TYPE_CHECKING:
    from .notebook import FrameView, ImageView, LayoutTuner


@pd.api.extensions.register_dataframe_accessor("shotsmith")
class ShotsmithAccessor:
    """``frame.shotsmith``: ``.show()``, ``.show_set()``, ``.show_scene(i)``, ``.sets()``,
    ``.tuner()``."""

    def __init__(self, frame: pd.DataFrame):
        self._frame = frame

    def show(self, **options: Any) -> FrameView:
        from .notebook import FrameView

        return FrameView(self._frame, **options)

    def show_set(self, **options: Any) -> ImageView:
        from .notebook import show_set

        return show_set(self._frame, **options)

    def show_scene(self, row: int = 0, **options: Any) -> ImageView:
        from .notebook import show_scene

        return show_scene(self._frame, row=row, **options)

    def sets(self) -> list[str]:
        from .columns import APP_ID

        return [str(a) for a in self._frame[APP_ID].unique()]

    def tuner(self, **options: Any) -> LayoutTuner:
        from .notebook import LayoutTuner

        return LayoutTuner(self._frame, **options)
