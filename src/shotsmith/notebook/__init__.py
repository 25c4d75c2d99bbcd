"""Notebook helpers: rich displays of frames, scenes and sets, and the layout tuner.

Everything here is plain data in, displayable object out, so it works the same in
JupyterLab, in a headless papermill run and in a test::

    import shotsmith as ss
    ss.show(frame)             # HTML table, raw and rendered screenshots as thumbnails
    frame.shotsmith.show()     # the same, as a pandas accessor
    ss.show_scene(frame)       # the first row's scene, rendered at preview size
    ss.show_set(frame)         # the finished set(s) as a grid
    ss.show_variants(frame)    # design(variants=N)'s sets side by side
    tuner = ss.LayoutTuner(frame)   # ipywidgets tuner; tuner.save_template("mine")

One job per module: ``images`` (thumbnails, :class:`ImageView`), ``frames`` (the table
view), ``scenes`` (a scene as a picture or a table, sets as a grid), ``display``
(``show``, which picks one), ``variants`` (experiment sets side by side,
:func:`show_variants`) and ``tuner`` (:class:`LayoutTuner`; it saves templates with
:mod:`shotsmith.stages.layout.templates`). ``LocalServer`` and ``start_server`` live beside
the server (:mod:`shotsmith.server.local`; ``ss.start_server``). ipywidgets is imported only when a
tuner builds its widgets.
"""

from __future__ import annotations

from ..stages.layout.palettes import palette_presets
from ..stages.layout.templates import default_layouts_dir, template_toml
from .display import HtmlView, show
from .frames import FIRST_COLUMNS, MAX_AUTO_COLUMNS, FrameView, frame_html, frame_text
from .images import IMAGE_COLUMNS, PREVIEW_SCALE, ImageView, thumbnail_uri
from .scenes import preview_scene, scale_scene, scene_table, show_scene, show_set
from .tuner import COPY_FILE_SUFFIX, PREVIEW_GAP_PX, TUNER_MARK, LayoutTuner
from .variants import VariantsView, show_variants

PALETTES = palette_presets()  # the tuner's palette presets by name (data/palette_presets.json)

__all__ = [
    "COPY_FILE_SUFFIX",
    "FIRST_COLUMNS",
    "IMAGE_COLUMNS",
    "MAX_AUTO_COLUMNS",
    "PALETTES",
    "PREVIEW_GAP_PX",
    "PREVIEW_SCALE",
    "TUNER_MARK",
    "FrameView",
    "HtmlView",
    "ImageView",
    "LayoutTuner",
    "VariantsView",
    "default_layouts_dir",
    "frame_html",
    "frame_text",
    "preview_scene",
    "scale_scene",
    "scene_table",
    "show",
    "show_scene",
    "show_set",
    "show_variants",
    "template_toml",
    "thumbnail_uri",
]
