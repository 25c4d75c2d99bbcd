"""Tuned templates written out: a template dict as TOML (what ``load_template`` reads back)
and the folder it is saved to. The palette presets the tuner offers are a table in the
library (:mod:`shotsmith.palettes`); ``PALETTES`` is them, by name."""

from __future__ import annotations

from typing import Any

from ..palettes import palette_presets, preset_name
from ..templates import _toml_value, default_layouts_dir, template_toml  # one writer: templates.py

__all__ = ["PALETTES", "TUNER_MARK", "_toml_value", "default_layouts_dir", "template_toml"]

PALETTES: dict[str, dict[str, Any]] = palette_presets()  # data/palette_presets.json
TUNER_MARK = "# Written by the shotsmith layout tuner"


_palette_name = preset_name
