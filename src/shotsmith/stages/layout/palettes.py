"""Named palette presets for layout templates, read from ``data/palette_presets.json``.

A template's ``[palette]`` says how slide backgrounds are made (``strategy``) and which
tone each slide takes in turn (``rhythm``). The presets are the combinations worth
offering by name (the layout tuner's palette menu); they are a table, so they live in a
data file with named fields and are loaded once, not spelled out in the code that shows
them.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from ...errors import TemplateError

PRESETS_FILE = "data/palette_presets.json"


@lru_cache(maxsize=1)
def _load() -> dict[str, dict[str, Any]]:
    data = json.loads(resources.files("shotsmith").joinpath(PRESETS_FILE).read_text("utf-8"))
    presets: dict[str, dict[str, Any]] = {}
    for row in data["presets"]:
        presets[row["name"]] = {"strategy": row["strategy"], "rhythm": list(row["rhythm"])}
    return presets


def palette_presets() -> dict[str, dict[str, Any]]:
    """Every preset by name: ``{"strategy": ..., "rhythm": [...]}`` (a fresh copy)."""
    return {name: {**spec, "rhythm": list(spec["rhythm"])} for name, spec in _load().items()}


def palette_preset(name: str) -> dict[str, Any]:
    """One preset's ``strategy`` and ``rhythm``, to put in a template's ``[palette]``."""
    presets = _load()
    if name not in presets:
        raise TemplateError(
            f"no palette preset named {name!r}; the presets are {sorted(presets)} "
            f"({PRESETS_FILE} in the shotsmith package)."
        )
    spec = presets[name]
    return {"strategy": spec["strategy"], "rhythm": list(spec["rhythm"])}


def preset_name(palette: dict[str, Any]) -> str | None:
    """The preset a template's palette matches (same strategy and rhythm), if any."""
    for name, spec in _load().items():
        if (
            palette.get("strategy") == spec["strategy"]
            and list(palette.get("rhythm", [])) == spec["rhythm"]
        ):
            return name
    return None
