"""Layout templates: find, load, validate and write them, in one place.

A template is data (TOML or JSON): text band, type scale, device size and placement,
palette strategy and rhythm. The built-in ones ship inside the package
(``data/layouts/``), so a wheel install has them; a ``layouts/`` folder in the working
folder (or a parent) and the folders in ``$SHOTSMITH_LAYOUTS`` are overlays that add
templates or override a built-in of the same name. ``plan_layout`` loads them here, the
layout tuner writes them here (:func:`write_template`), batch names them here.
"""

from __future__ import annotations

import copy
import difflib
import json
import os
import re
import tomllib
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from PIL import ImageFont

from ...color import to_hex, to_rgb
from ...devices import get_device
from ...errors import InvalidOptionError, ShotsmithError, TemplateError
from ...settings import current
from ...text import find_font

#: The built-in templates, shipped inside the package (so a wheel install has them).
BUILTIN_LAYOUTS = Path(str(resources.files("shotsmith").joinpath("data/layouts")))

TEMPLATE_DEFAULTS: dict[str, Any] = {
    "name": "default",
    "description": "",
    "text": {
        "align": "center",
        "margin_x": 0.06,
        "top": 0.048,
        "headline_family": "Inter Display",
        "headline_weight": 800,
        "headline_size": [0.072, 0.095],
        "headline_max_lines": 2,
        "line_height": 1.08,
        "subtitle_family": "Inter",
        "subtitle_weight": 500,
        "subtitle_size": 0.041,
        "subtitle_max_lines": 2,
        "subtitle_line_height": 1.28,
        "gap": 0.42,
        "min_contrast": 4.5,
    },
    "device": {
        "model": "iphone-17-pro",
        "width": 0.80,
        "gap_below_text": 0.026,
        "min_top": 0.255,
        "bleed": True,
        "bottom_margin": 0.035,
        "offsets_x": [0.0],
        "shadow": {"blur": 0.022, "offset_y": 0.010, "opacity": 0.30},
    },
    "palette": {"strategy": "accent-gradient", "rhythm": ["deep"]},
    "panorama": {
        "shapes": [],
        "period": 2,
        # a device across the edge after slide ``after`` (0: none): ``share`` of its width
        # stays on its own slide, the next slide's device keeps ``gap`` (x width) from it
        "straddle": {"after": 0, "share": 0.5, "gap": 0.07},
    },
    "landscape": {
        "text": {
            "margin_x": 0.16,
            "top": 0.06,
            "headline_size": [0.03, 0.04],
            "subtitle_size": 0.019,
        },
        "device": {
            "width": 0.72,
            "gap_below_text": 0.035,
            "min_top": 0.28,
            "bleed": False,
            "bottom_margin": 0.06,
            "offsets_x": [0.0],
            "shadow": {"blur": 0.012, "offset_y": 0.005, "opacity": 0.30},
        },
    },
}

#: Keys a template may set beyond TEMPLATE_DEFAULTS' (each optional): custom font files,
#: the brand accent, the app's dark-UI canvas, a shadow's colour.
OPTIONAL_KEYS: dict[str, tuple[str, ...]] = {
    "text": ("headline_font", "subtitle_font"),
    "palette": ("accent", "dark_ui"),
    "device.shadow": ("color",),
}

TONES = ("deep", "light", "dark", "vivid")


def project_layouts_dir(start: Path | None = None) -> Path | None:
    """The nearest ``layouts/`` folder in the working folder or one of its parents.

    A project keeps its own templates in ``layouts/`` at its top; a notebook or a
    script run from a subfolder (``notebooks/``) still finds them, as git finds ``.git``.
    """
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "layouts").is_dir():
            return folder / "layouts"
    return None


def layout_dirs() -> list[Path]:
    """Where templates are looked up, first match wins: ``$SHOTSMITH_LAYOUTS`` (a
    path list), the project's ``layouts/`` (see :func:`project_layouts_dir`), then the
    built-in templates. The first two are overlays: they add templates or override a
    built-in one of the same name."""
    env = list(current().layouts)
    project = project_layouts_dir()
    return [*env, *([project] if project else []), BUILTIN_LAYOUTS]


def available_templates() -> list[str]:
    names: set[str] = set()
    for d in layout_dirs():
        if d.is_dir():
            names.update(p.stem for p in d.iterdir() if p.suffix in (".toml", ".json"))
    return sorted(names)


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def load_template(template: str | Path | dict[str, Any] = "default") -> dict[str, Any]:
    """A template by name (``layouts/<name>.toml``/``.json``), by path, or as a dict.

    Every key is checked: a key no template knows (a typo) is an error naming it and the
    closest known key; font files (``text.headline_font``, relative to the template's
    folder) must exist and be fonts; colours (``palette.accent``) must be ``#rrggbb``.
    """
    if isinstance(template, dict):
        _check_keys(template, "<dict>")
        return _validate(_merge(TEMPLATE_DEFAULTS, template), "<dict>", Path.cwd())
    path = Path(template)
    if path.suffix not in (".toml", ".json") or not path.exists():
        name = str(template)
        path = next(
            (
                d / f"{name}{ext}"
                for d in layout_dirs()
                for ext in (".toml", ".json")
                if (d / f"{name}{ext}").exists()
            ),
            None,
        )  # type: ignore[assignment]
        if path is None:
            raise TemplateError(
                f"no layout template named {name!r}; available: "
                f"{', '.join(available_templates()) or 'none'}. Add "
                f"layouts/{name}.toml or pass a path to a template file."
            )
    try:
        raw = path.read_text(encoding="utf-8")
    except (OSError, ValueError) as exc:
        raise TemplateError(f"{path}: cannot read template ({exc}).") from exc
    return _load_file(str(path), raw)  # cached by content: an edit is always seen


@lru_cache(maxsize=32)
def _load_file(path: str, raw: str) -> dict[str, Any]:
    try:
        data = tomllib.loads(raw) if path.endswith(".toml") else json.loads(raw)
    except ValueError as exc:
        raise TemplateError(f"{path}: cannot read template ({exc}).") from exc
    data.setdefault("name", Path(path).stem)
    _check_keys(data, path)
    return _validate(_merge(TEMPLATE_DEFAULTS, data), path, Path(path).parent)


def _known_keys(section: str) -> list[str]:
    """The keys a template may hold in ``section`` ("" is the top level, "device.shadow"
    a nested table; the landscape table's sections take their portrait section's keys)."""
    plain = section.removeprefix("landscape.") if section != "landscape" else section
    node: Any = TEMPLATE_DEFAULTS
    for part in [p for p in plain.split(".") if p]:
        node = node.get(part, {}) if isinstance(node, dict) else {}
    keys = list(node) if isinstance(node, dict) else []
    return [*keys, *OPTIONAL_KEYS.get(plain, ())]


def _check_keys(data: dict[str, Any], where: str, section: str = "") -> None:
    """Refuse a key no template knows, naming it and the closest known one."""
    known = _known_keys(section)
    for key, value in data.items():
        name = f"{section}.{key}" if section else key
        if key not in known:
            close = difflib.get_close_matches(key, known, n=1, cutoff=0.5)
            hint = (
                f"did you mean {section + '.' if section else ''}{close[0]}?"
                if close
                else f"known keys{' in [' + section + ']' if section else ''}: {', '.join(known)}."
            )
            raise TemplateError(f"{where}: unknown template key {name!r}; {hint}")
        tables = isinstance(_default_at(name), dict)
        if tables and key == "shadow" and value in (False, None):
            continue  # no shadow
        if tables and not isinstance(value, dict):
            raise TemplateError(f"{where}: {name} must be a table ([{name}]), not {value!r}.")
        if tables:
            _check_keys(value, where, name)


def _default_at(name: str) -> Any:
    node: Any = TEMPLATE_DEFAULTS
    for part in name.removeprefix("landscape.").split("."):
        node = node.get(part) if isinstance(node, dict) else None
    return node


def _validate(t: dict[str, Any], where: str, folder: Path) -> dict[str, Any]:
    """Check the values of a whole (merged) template; font files become absolute paths."""
    for text in (t["text"], t.get("landscape", {}).get("text", {})):
        for role in ("headline", "subtitle"):
            if text.get(f"{role}_font") is not None:
                _check_font(text, role, where, folder)
    _validate_section(t, where, folder)
    _validate_section(oriented(t, landscape=True), where, folder, "landscape.")
    get_device(t["device"]["model"])
    accent = t["palette"].get("accent")
    if accent is not None:
        try:
            t["palette"]["accent"] = to_hex(to_rgb(accent))
        except (InvalidOptionError, TypeError, ValueError):
            raise TemplateError(
                f"{where}: palette.accent {accent!r} is not a colour; write it as "
                '#rrggbb, e.g. accent = "#1e6ee6".'
            ) from None
    return t


def oriented(template: dict[str, Any], *, landscape: bool) -> dict[str, Any]:
    """The template for one orientation: a landscape canvas takes the ``[landscape]``
    table's text and device keys over the portrait ones."""
    if not landscape:
        return template
    over = template.get("landscape", {})
    out = _merge(template, {k: v for k, v in over.items() if isinstance(v, dict)})
    return out


def _validate_section(t: dict[str, Any], where: str, folder: Path, prefix: str = "") -> None:
    def need(cond: bool, what: str) -> None:
        if not cond:
            raise TemplateError(f"{where}: {prefix}{what}")

    text, dev, pal = t["text"], t["device"], t["palette"]
    for role in ("headline", "subtitle"):
        _check_font(text, role, where, folder)
    need(text["align"] in ("center", "left"), "text.align must be 'center' or 'left'")
    lo, hi = text["headline_size"]
    need(0.02 <= lo <= hi <= 0.2, "text.headline_size must be [smallest, largest] in 0.02..0.2")
    need(0 <= text["margin_x"] < 0.3, "text.margin_x must be a fraction of the width < 0.3")
    need(0.3 <= dev["width"] <= 1.0, "device.width must be a fraction of the width in 0.3..1")
    need(bool(dev["offsets_x"]), "device.offsets_x needs at least one value")
    straddle = t["panorama"]["straddle"]
    need(
        isinstance(straddle["after"], int) and straddle["after"] >= 0,
        "panorama.straddle.after must be a slide number (1 = the edge between slides 1 "
        "and 2; 0 = no device across an edge)",
    )
    need(
        0.1 <= straddle["share"] <= 0.9,
        "panorama.straddle.share must be the part of the device left on its own slide, in 0.1..0.9",
    )
    need(0 <= straddle["gap"] < 0.5, "panorama.straddle.gap must be a fraction of the width < 0.5")
    across = (1 - straddle["share"]) * dev["width"] + straddle["gap"] + dev["width"]
    need(
        not straddle["after"] or across <= 1.0 + 1e-9,
        f"panorama.straddle: the next slide's device would run off its right edge (the part "
        f"across the edge, the gap and the device take {across:.2f} of the width); raise "
        "share, or lower gap or device.width",
    )
    need(
        all(r in TONES for r in pal["rhythm"]) and bool(pal["rhythm"]),
        f"palette.rhythm must list tones from {TONES}",
    )
    need(
        pal["strategy"] in ("accent-gradient", "spotlight"),
        "palette.strategy must be 'accent-gradient' or 'spotlight'",
    )


def _check_font(text: dict[str, Any], role: str, where: str, folder: Path) -> None:
    """``text.<role>_font``: a font file that exists and Pillow opens (made absolute);
    without one, ``text.<role>_family`` must be an installed family."""
    key = f"{role}_font"
    given = text.get(key)
    if given is None:
        family, weight = text[f"{role}_family"], text[f"{role}_weight"]
        try:
            find_font(family, weight, fallback=False)
        except ShotsmithError:
            try:  # no fonts at all: the missing-fonts error comes when text is drawn
                find_font(TEMPLATE_DEFAULTS["text"][f"{role}_family"], 400, fallback=False)
            except ShotsmithError:
                return
            raise TemplateError(
                f"{where}: text.{role}_family {family!r} is not an installed font family; "
                f'set text.{key} to the font file (e.g. {key} = "fonts/Brand-Bold.otf", '
                "relative to the template's folder) or name an installed family such as "
                f"{TEMPLATE_DEFAULTS['text'][f'{role}_family']!r}."
            ) from None
        return
    path = Path(str(given)).expanduser()
    path = path if path.is_absolute() else folder / path
    if not path.is_file():
        raise TemplateError(
            f"{where}: text.{key} {str(given)!r}: no font file at {path}; give the path "
            "of a .ttf or .otf file, relative to the template's folder."
        )
    try:
        ImageFont.truetype(str(path), 12)
    except OSError as exc:
        shown = str(given) if str(path) == str(given) else f"{str(given)!r} ({path})"
        raise TemplateError(
            f"{where}: text.{key} {shown} is not a font file Pillow can read ({exc}); "
            "give a .ttf or .otf file."
        ) from None
    text[key] = str(path.resolve())


def default_layouts_dir() -> Path:
    """Where a tuned template is saved: $SHOTSMITH_LAYOUTS's first folder, else the
    nearest layouts/ folder in the working folder or its parents, else ./layouts."""
    env = current().layouts
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


def write_template(template: dict[str, Any], path: str | Path, header: str = "") -> Path:
    """Write ``template`` as TOML at ``path`` (atomically), after checking that
    :func:`load_template` reads back exactly a valid template; returns the path."""
    path = Path(path)
    text = template_toml(template, header=header)
    load_template(tomllib.loads(text))  # what load_template will read, checked before writing
    path.parent.mkdir(parents=True, exist_ok=True)
    old_mtime = path.stat().st_mtime_ns if path.exists() else None
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
    new = path.stat().st_mtime_ns
    if old_mtime is not None and new <= old_mtime:  # load_template caches by mtime
        os.utime(path, ns=(new, old_mtime + 1000))
    return path
