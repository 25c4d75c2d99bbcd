"""Tuned templates written out: a template dict as TOML (what ``load_template`` reads back)
and the folder it is saved to. The palette presets the tuner offers are a table in the
library (:mod:`shotsmith.palettes`); ``PALETTES`` is them, by name."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from ..errors import TemplateError
from ..palettes import palette_presets, preset_name
from ..stages.layout import project_layouts_dir

PALETTES: dict[str, dict[str, Any]] = palette_presets()  # data/palette_presets.json
TUNER_MARK = "# Written by the shotsmith layout tuner"


def default_layouts_dir() -> Path:
    """Where a tuned template is saved: $SHOTSMITH_LAYOUTS's first folder, else the
    nearest layouts/ folder in the working folder or its parents, else ./layouts."""
    env = [p for p in os.environ.get("SHOTSMITH_LAYOUTS", "").split(os.pathsep) if p]
    if env:
        return Path(env[0])
    return project_layouts_dir() or Path.cwd() / "layouts"


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(round(value, 4))
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return (
            "{ "
            + ", ".join(
                f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items() if v is not None
            )
            + " }"
        )
    raise TemplateError(f"template value {value!r} cannot be written as TOML")


def template_toml(template: dict[str, Any], header: str = "") -> str:
    """A template dict as TOML text (top-level scalars, then one table per section)."""
    lines = [f"# {line}" if line else "#" for line in header.splitlines()]
    scalars = {k: v for k, v in template.items() if not isinstance(v, dict)}
    tables = {k: v for k, v in template.items() if isinstance(v, dict)}
    lines += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in scalars.items() if v is not None]
    for name, table in tables.items():
        lines += ["", f"[{_toml_key(name)}]"]
        lines += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in table.items() if v is not None]
    return "\n".join(lines) + "\n"


_palette_name = preset_name
