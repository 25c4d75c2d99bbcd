"""layout: :func:`plan_layout` and its parts, one scene per screenshot from a template.

Set-level decisions are made once per ``app_id`` (palette, headline size, device size and
place, store canvas); per slide only the rhythm, the caption lines and, where a caption
names what the device would hide, the device's place change.

One job per module:

==============  ==================================================================
module          job
==============  ==================================================================
``stage``       :func:`plan_layout`, the stage over a frame: sets, canvases, scenes
``templates``   layout templates: find, load, validate and write them
``palettes``    the named palette presets a template's ``[palette]`` may take
``sizes``       which device a set comes from, which frame draws it, at which store size
``screenband``  whether a raw screenshot needs a status-bar band above it
``panorama``    a panorama's devices on one strip, across slide edges
==============  ==================================================================

The status bar itself, :mod:`shotsmith.statusbar`, lives outside this package: capture
draws it into web captures and render paints it, so it belongs to no one stage.
"""

from .stage import forget_replans, plan_layout
from .templates import (
    BUILTIN_LAYOUTS,
    TEMPLATE_DEFAULTS,
    TONES,
    available_templates,
    layout_dirs,
    load_template,
    oriented,
    project_layouts_dir,
)

__all__ = [
    "BUILTIN_LAYOUTS",
    "TEMPLATE_DEFAULTS",
    "TONES",
    "available_templates",
    "forget_replans",
    "layout_dirs",
    "load_template",
    "oriented",
    "plan_layout",
    "project_layouts_dir",
]
