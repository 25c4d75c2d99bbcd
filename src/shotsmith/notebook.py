"""Notebook helpers: rich displays of frames, scenes and sets, the layout tuner, a local server.

Everything here is plain data in, displayable object out, so it works the same in
JupyterLab, in a headless papermill run and in a test::

    import shotsmith as ss
    ss.show(frame)             # HTML table, raw and rendered screenshots as thumbnails
    frame.shotsmith.show()     # the same, as a pandas accessor
    ss.show_scene(frame)       # the first row's scene, rendered at preview size
    ss.show_set(frame)         # the finished set(s) as a grid
    tuner = ss.LayoutTuner(frame)   # ipywidgets tuner; tuner.save_template("mine")

ipywidgets is imported only when a tuner builds its widgets.
"""

from __future__ import annotations

import atexit
import base64
import copy
import html
import io
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import tomllib
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import pandas as pd
from PIL import Image

from . import columns as C
from .errors import MissingColumnError, ShotsmithError, TemplateError
from .io import MANIFEST_NAMES, open_image
from .scene import Scene, as_scene
from .sheets import contact_sheet
from .stages.layout import load_template, plan_layout, project_layouts_dir
from .stages.render import render_scene

IMAGE_COLUMNS = (C.IMAGE, C.RENDER_PATH, C.RENDER_PNG)
PREVIEW_SCALE = 0.25  # preview renders at a quarter of the store size: ~20 ms a slide


# --- images ------------------------------------------------------------------------------


def _png_bytes(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, "PNG", compress_level=1)
    return buf.getvalue()


@lru_cache(maxsize=512)
def _thumb_cached(key: str, _mtime: float, width: int) -> str:
    return _thumb_uri(open_image(key), width)


def _thumb_uri(image: Image.Image, width: int) -> str:
    im = image.convert("RGB")
    height = max(1, round(im.height * width / im.width))
    im = im.resize((width, height), Image.Resampling.BILINEAR, reducing_gap=2.0)
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=82)
    return "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def thumbnail_uri(ref: Any, width: int = 72) -> str | None:
    """A small JPEG ``data:`` URI of an image reference (path, PNG bytes or PIL image)."""
    try:
        if isinstance(ref, Image.Image):
            return _thumb_uri(ref, width)
        if isinstance(ref, (bytes, bytearray, memoryview)):
            return _thumb_uri(open_image(bytes(ref)), width) if len(ref) else None
        if isinstance(ref, (str, Path)) and str(ref):
            path = Path(ref)
            if path.is_file():
                return _thumb_cached(str(path), path.stat().st_mtime, width)
    except (OSError, ShotsmithError, ValueError):
        return None
    return None


class ImageView:
    """A PIL image that shows itself in a notebook (PNG) and describes itself as text."""

    def __init__(self, image: Image.Image, text: str = ""):
        self.image = image
        self.text = text or f"<image {image.width}x{image.height}>"

    def _repr_png_(self) -> bytes:
        return _png_bytes(self.image)

    def __repr__(self) -> str:
        return self.text

    def save(self, path: str | Path) -> Path:
        self.image.save(path)
        return Path(path)


# --- frames ------------------------------------------------------------------------------


def _bytes_label(value: bytes | bytearray | memoryview) -> str:
    data = bytes(value[:24])
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24:
        return f"<PNG {int.from_bytes(data[16:20], 'big')}x{int.from_bytes(data[20:24], 'big')}>"
    return f"<{len(value):,} bytes>"


def _cell_text(value: Any, limit: int) -> str:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return _bytes_label(value)
    if isinstance(value, dict):
        text = json.dumps(value, default=str)
    elif isinstance(value, (list, tuple)):
        text = ", ".join(str(v) for v in value)
    elif isinstance(value, float):
        text = f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"
    else:
        text = str(value)
    if len(text) <= limit:
        return text
    if "/" in text and " " not in text:  # a path or URL: its end says the most
        return "…" + text[-(limit - 1) :]
    return text[: limit - 1] + "…"


def _scene_summary(value: Any) -> str:
    try:
        scene = as_scene(value)
    except (KeyError, TypeError, ValueError):
        return _cell_text(value, 60)
    head = next((t.text for t in scene.texts if t.role == "headline"), "")
    tone = scene.meta.get("tone", "")
    return f"{scene.width}×{scene.height} {tone} · {head!r}"


#: Shown first, in this order, when a frame is shown without ``columns=``: the pictures,
#: which row it is, what went wrong, then what each stage decided. The rest follow.
FIRST_COLUMNS = (
    C.IMAGE,
    C.RENDER_PATH,
    C.RENDER_PNG,
    C.APP_ID,
    C.POSITION,
    C.SCREEN,
    "status",
    "error",
    "seconds",
    "note",
    C.COPY_HEADLINE,
    C.COPY_SUBTITLE,
    C.DOMAIN_CATEGORY,
    C.LAYOUT_SCENE,
)
MAX_AUTO_COLUMNS = 12  # more than this without columns=: the rest are listed by name


def _display_columns(
    frame: pd.DataFrame, columns: Sequence[str] | None
) -> tuple[list[str], list[str]]:
    """(columns to show, columns left out). Unknown names in ``columns`` are an error
    that says which, and what the frame has."""
    if columns is not None:
        columns = [columns] if isinstance(columns, str) else list(columns)
        unknown = [c for c in columns if c not in frame.columns]
        if unknown:
            import difflib

            hints = []
            for c in unknown:
                close = difflib.get_close_matches(str(c), [str(x) for x in frame.columns], n=1)
                hints.append(f"{c!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
            raise MissingColumnError(
                f"show: no column {', '.join(hints)} in this frame. It has: "
                f"{', '.join(map(str, frame.columns))}."
            )
        return columns, []
    ordered = [c for c in FIRST_COLUMNS if c in frame.columns]
    ordered += [c for c in frame.columns if c not in ordered]
    return ordered[:MAX_AUTO_COLUMNS], ordered[MAX_AUTO_COLUMNS:]


def _header(name: str) -> str:
    """A column name that may wrap after its underscores (long names, narrow cells)."""
    return html.escape(str(name)).replace("_", "_<wbr>")


# Thumbnails keep their size (never squeezed by a wide table); text wraps in its cell,
# long paths anywhere; the table scrolls sideways only as a last resort.
_TABLE_CSS = (
    "<style>"
    ".shotsmith-frame{max-width:100%;overflow-x:auto}"
    ".shotsmith-frame table{border-collapse:collapse;table-layout:auto;width:auto}"
    ".shotsmith-frame th,.shotsmith-frame td{text-align:left;vertical-align:top;"
    "white-space:normal;overflow-wrap:anywhere;max-width:24em;padding:3px 6px;"
    "border-bottom:1px solid rgba(128,128,128,.25)}"
    ".shotsmith-frame td.img{max-width:none}"
    ".shotsmith-frame img{max-width:none!important;height:auto}"
    ".shotsmith-frame .more{color:#666;font-size:90%;margin-top:4px;overflow-wrap:anywhere}"
    "</style>"
)


def frame_html(
    frame: pd.DataFrame,
    *,
    columns: Sequence[str] | None = None,
    thumb_width: int = 72,
    max_rows: int = 40,
    max_chars: int = 80,
) -> str:
    """An HTML table of a frame of screenshots, image columns as inline thumbnails.

    Without ``columns`` the columns that matter come first (pictures, row, error, copy)
    and past :data:`MAX_AUTO_COLUMNS` the rest are listed by name below the table."""
    cols, rest = _display_columns(frame, columns)
    shown = frame.head(max_rows)
    head = "".join(f"<th>{_header(c)}</th>" for c in cols)
    body = []
    for _, row in shown.iterrows():
        cells = []
        for c in cols:
            value = row[c]
            if c in IMAGE_COLUMNS:
                uri = thumbnail_uri(value, thumb_width)
                label = html.escape(_cell_text(value, 48))
                cells.append(
                    f'<td class="img"><img src="{uri}" width="{thumb_width}" '
                    f'style="width:{thumb_width}px" title="{label}"></td>'
                    if uri
                    else f"<td>{html.escape(_cell_text(value, max_chars))}</td>"
                )
            elif c == C.LAYOUT_SCENE:
                cells.append(f"<td>{html.escape(_scene_summary(value))}</td>")
            else:
                cells.append(f"<td>{html.escape(_cell_text(value, max_chars))}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    caption = _caption(frame, max_rows, len(cols), len(rest))
    more = (
        f'<div class="more">not shown: {html.escape(", ".join(map(str, rest)))} '
        f"(choose with <code>columns=[...]</code>)</div>"
        if rest
        else ""
    )
    return (
        f'{_TABLE_CSS}<div class="shotsmith-frame"><div><b>{html.escape(caption)}</b></div>'
        f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
        f"{more}</div>"
    )


def _caption(frame: pd.DataFrame, max_rows: int, shown: int, hidden: int) -> str:
    sets = frame[C.APP_ID].nunique() if C.APP_ID in frame.columns else None
    caption = f"{len(frame)} rows" + (
        f" in {sets} set{'s' if sets != 1 else ''}" if sets is not None else ""
    )
    if len(frame) > max_rows:
        caption += f", first {max_rows} shown"
    caption += f", {shown} columns" + (f" of {shown + hidden}" if hidden else "")
    return caption


def frame_text(
    frame: pd.DataFrame,
    *,
    columns: Sequence[str] | None = None,
    max_rows: int = 40,
    max_chars: int = 40,
) -> str:
    """A plain-text view of the same table (paths, no pixels), for terminals and diffs."""
    cols, rest = _display_columns(frame, columns)
    data = {}
    for c in cols:
        if c == C.LAYOUT_SCENE:
            data[c] = [_scene_summary(v) for v in frame[c].head(max_rows)]
        else:
            data[c] = [_cell_text(v, max_chars) for v in frame[c].head(max_rows)]
    text = pd.DataFrame(data, index=frame.index[:max_rows]).to_string()
    if len(frame) > max_rows:
        text += f"\n... {len(frame) - max_rows} more rows"
    if rest:
        text += f"\nnot shown: {', '.join(map(str, rest))} (choose with columns=[...])"
    return text


class FrameView:
    """What :func:`show` returns for a frame: an HTML table with thumbnails."""

    def __init__(self, frame: pd.DataFrame, **options: Any):
        _display_columns(frame, options.get("columns"))  # unknown columns: say so now
        self.frame = frame
        self.options = options

    def _repr_html_(self) -> str:
        return frame_html(self.frame, **self.options)

    def __repr__(self) -> str:
        opts = {k: v for k, v in self.options.items() if k in ("columns", "max_rows")}
        return frame_text(self.frame, **opts)


# --- scenes and sets -----------------------------------------------------------------------


def scale_scene(scene: Scene | dict | str, factor: float) -> Scene:
    """The same scene at ``factor`` x its size (previews); text keeps its line breaks."""
    s = as_scene(scene)

    def n(v: float) -> int:
        return int(round(v * factor))

    def box(b: list[int] | None) -> list[int] | None:
        return None if b is None else [n(v) for v in b]

    texts = [
        replace(
            t,
            size=max(1, n(t.size)),
            line_height=max(1, n(t.line_height)),
            x=n(t.x),
            baseline=n(t.baseline),
            box=box(t.box),
            lines=list(t.lines),
        )
        for t in s.texts
    ]
    d = s.device
    shadow = None
    if d.shadow:
        shadow = dict(d.shadow)
        for key in ("blur", "offset_y"):
            if key in shadow:
                shadow[key] = max(1, n(shadow[key])) if key == "blur" else n(shadow[key])
    device = replace(
        d,
        x=n(d.x),
        y=n(d.y),
        width=n(d.width),
        height=n(d.height),
        outer_radius=n(d.outer_radius),
        band=max(1, n(d.band)),
        bezel=max(1, n(d.bezel)),
        screen_radius=n(d.screen_radius),
        island=box(d.island),
        punch_hole=box(d.punch_hole),
        shadow=shadow,
    )
    return Scene(
        n(s.width),
        n(s.height),
        copy.deepcopy(s.background),
        texts,
        device,
        dict(s.meta, preview_scale=factor),
    )


@lru_cache(maxsize=64)
def _preview_shot(ref: str, _mtime: float, width: int) -> Image.Image:
    return _shrink(open_image(ref), width)


def _shrink(image: Image.Image, width: int) -> Image.Image:
    if image.width <= width:
        return image
    height = round(image.height * width / image.width)
    return image.resize((width, height), Image.Resampling.BILINEAR, reducing_gap=2.0)


def _screenshot_for(ref: Any, width: int) -> Image.Image | None:
    if ref is None:
        return None
    if isinstance(ref, Image.Image):
        return _shrink(ref, width)
    if isinstance(ref, (bytes, bytearray, memoryview)):
        return _shrink(open_image(bytes(ref)), width)
    path = Path(ref)
    return _preview_shot(str(path), path.stat().st_mtime, width)


def preview_scene(
    scene: Scene | dict | str, screenshot: Any = None, scale: float = PREVIEW_SCALE
) -> Image.Image:
    """Render a scene at ``scale`` x its size (fast; for previews, not for the store)."""
    full = as_scene(scene)
    small = scale_scene(full, scale)
    ref = screenshot if screenshot is not None else full.device.screenshot
    if ref is None:
        raise ShotsmithError(
            "preview: the scene has no screenshot path; pass the screenshot "
            "(the row's 'image') too."
        )
    # decoded once per preview size (not per device size): twice the canvas width at most
    shot = _screenshot_for(ref, max(64, 2 * small.width))
    return render_scene(small, shot)


def _describe_scene(scene: Scene) -> str:
    lines = [
        f"Scene {scene.width}x{scene.height} ({scene.meta.get('template', '?')} template, "
        f"{scene.meta.get('app_id', '?')} #{int(scene.meta.get('position', 0)) + 1}, "
        f"tone {scene.meta.get('tone', '?')})"
    ]
    for t in scene.texts:
        lines.append(
            f"  {t.role}: {' / '.join(t.lines)!r} {t.size}px {t.color} contrast {t.contrast:.2f}"
        )
    d = scene.device
    lines.append(f"  device: {d.model} at ({d.x}, {d.y}) {d.width}x{d.height}")
    return "\n".join(lines)


def scene_table(scene: Any, row: int = 0) -> pd.DataFrame:
    """A scene's parts, one row each: the canvas and its background, every text block,
    the device. Where each is drawn (x, y, width, height in canvas px), its size, colour
    and contrast: the compact view of a ``layout_scene`` (a Scene, dict, JSON, a frame
    row, or a frame's ``row``-th row)."""
    if isinstance(scene, pd.DataFrame):
        if C.LAYOUT_SCENE not in scene.columns:
            raise MissingColumnError(
                "scene_table: the frame has no layout_scene column; run plan_layout first."
            )
        scene = scene.iloc[row]
    if isinstance(scene, pd.Series):
        scene = scene[C.LAYOUT_SCENE]
    s = as_scene(scene)
    bg = s.background
    parts: list[dict[str, Any]] = [
        {
            "part": "canvas",
            "what": f"{bg.kind} background" + (f", glow {bg.glow}" if bg.glow else ""),
            "x": 0,
            "y": 0,
            "width": s.width,
            "height": s.height,
            "size": None,
            "color": " → ".join(bg.stops),
            "contrast": None,
        }
    ]
    for t in s.texts:
        x, y, w, h = t.box
        parts.append(
            {
                "part": t.role,
                "what": " / ".join(t.lines),
                "x": x,
                "y": y,
                "width": w,
                "height": h,
                "size": t.size,
                "color": t.color,
                "contrast": round(t.contrast, 2),
            }
        )
    d = s.device
    below = d.y + d.height - s.height
    parts.append(
        {
            "part": "device",
            "what": f"{d.model}, "
            + (f"runs {below} px off the bottom" if below > 0 else f"{-below} px above the bottom"),
            "x": d.x,
            "y": d.y,
            "width": d.width,
            "height": d.height,
            "size": None,
            "color": d.band_color,
            "contrast": None,
        }
    )
    table = pd.DataFrame(parts)
    for c in ("x", "y", "width", "height", "size"):
        table[c] = table[c].astype("Int64")
    return table


def show_scene(
    scene: Any, screenshot: Any = None, *, scale: float = PREVIEW_SCALE, row: int = 0
) -> ImageView:
    """A scene as an image: a Scene/dict/JSON, a frame row, or a frame (its ``row``-th row).

    Rendered at ``scale`` x the store size; ``.image`` is the PIL image."""
    if isinstance(scene, pd.DataFrame):
        if C.LAYOUT_SCENE not in scene.columns:
            raise ShotsmithError(
                "show_scene: the frame has no layout_scene column; run plan_layout first."
            )
        scene = scene.iloc[row]
    if isinstance(scene, pd.Series):
        if screenshot is None and C.IMAGE in scene.index:
            screenshot = scene[C.IMAGE]
        scene = scene[C.LAYOUT_SCENE]
    full = as_scene(scene)
    return ImageView(preview_scene(full, screenshot, scale), _describe_scene(full))


def _set_images(rows: pd.DataFrame, scale: float) -> list[Image.Image | str]:
    images: list[Image.Image | str] = []
    for _, row in rows.iterrows():
        path = row.get(C.RENDER_PATH, "") if C.RENDER_PATH in rows.columns else ""
        png = row.get(C.RENDER_PNG) if C.RENDER_PNG in rows.columns else None
        if isinstance(path, str) and path and Path(path).is_file():
            images.append(path)
        elif isinstance(png, (bytes, bytearray)) and png:
            images.append(open_image(bytes(png)))
        elif C.LAYOUT_SCENE in rows.columns and isinstance(row[C.LAYOUT_SCENE], dict):
            images.append(preview_scene(row[C.LAYOUT_SCENE], row[C.IMAGE], scale))
        else:
            images.append(open_image(row[C.IMAGE]))
    return images


def _stack(sheets: list[Image.Image], background: str = "#f2f2f5") -> Image.Image:
    width = max(s.width for s in sheets)
    out = Image.new("RGB", (width, sum(s.height for s in sheets)), background)
    y = 0
    for s in sheets:
        out.paste(s, (0, y))
        y += s.height
    return out


def show_set(
    frame: pd.DataFrame | Sequence[Any],
    *,
    app_id: str | None = None,
    thumb_width: int = 220,
    titles: bool = True,
) -> ImageView:
    """Finished set(s) as a grid, one row per set: the rendered PNGs when there are any,
    else the scenes rendered at preview size, else the raw screenshots.

    Also takes a list of image paths, PNG bytes or PIL images (e.g. downloaded PNGs)."""
    if not isinstance(frame, pd.DataFrame):
        items = [open_image(bytes(i)) if isinstance(i, (bytes, bytearray)) else i for i in frame]
        if not items:
            raise ShotsmithError("show_set: no images.")
        sheet = contact_sheet(items, thumb_width=thumb_width)
        return ImageView(
            sheet,
            f"{len(items)} images: "
            + ", ".join(
                Path(i).name if isinstance(i, (str, Path)) else f"<{type(i).__name__}>"
                for i in items
            ),
        )
    if app_id is not None:
        frame = frame[frame[C.APP_ID] == app_id]
    if frame.empty:
        raise ShotsmithError(
            "show_set: the frame has no rows" + (f" for app_id {app_id!r}" if app_id else "") + "."
        )
    scale = max(0.1, min(1.0, 2 * thumb_width / 1320))
    sheets, lines = [], []
    for aid, rows in C.set_groups(frame):
        title = None
        first = rows.iloc[0]
        name = str(first.get(C.PROJECT_NAME, aid))
        tagline = str(first.get(C.COPY_TAGLINE, "") or "")
        if titles:
            title = f"{name} - {tagline}" if tagline else name
        sheets.append(
            contact_sheet(
                _set_images(rows, scale),
                thumb_width=thumb_width,
                title=title,
                title_size=max(14, min(34, round(thumb_width * 0.15))),
            )
        )
        heads = (
            list(rows[C.COPY_HEADLINE])
            if C.COPY_HEADLINE in rows.columns
            else list(rows.get(C.SCREEN, []))
        )
        lines.append(
            f"{aid}: {len(rows)} screenshots"
            + (f" - {tagline!r}" if tagline else "")
            + "".join(f"\n  {i + 1}. {h}" for i, h in enumerate(heads))
        )
    return ImageView(_stack(sheets), "\n".join(lines))


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
    from .pipeline import PipelineRun

    if isinstance(obj, pd.DataFrame):
        return FrameView(obj, **options)
    if isinstance(obj, PipelineRun):
        out = obj.output
        text = (
            f"PipelineRun: {len(out)} screenshots, {out[C.APP_ID].nunique()} sets, "
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


from .accessor import ShotsmithAccessor  # noqa: E402,F401  (frame.shotsmith; registered there)


# --- the layout tuner --------------------------------------------------------------------------

PALETTES: dict[str, dict[str, Any]] = {
    "accent gradient": {"strategy": "accent-gradient", "rhythm": ["deep"]},
    "accent, light": {"strategy": "accent-gradient", "rhythm": ["light"]},
    "accent, deep / light": {"strategy": "accent-gradient", "rhythm": ["deep", "light"]},
    "vivid": {"strategy": "accent-gradient", "rhythm": ["vivid"]},
    "dark": {"strategy": "accent-gradient", "rhythm": ["dark"]},
    "spotlight, dark / light": {"strategy": "spotlight", "rhythm": ["dark", "light"]},
    "spotlight, dark": {"strategy": "spotlight", "rhythm": ["dark"]},
    "spotlight, light": {"strategy": "spotlight", "rhythm": ["light"]},
}
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


def _palette_name(palette: dict[str, Any]) -> str | None:
    for name, spec in PALETTES.items():
        if (
            palette.get("strategy") == spec["strategy"]
            and list(palette.get("rhythm", [])) == spec["rhythm"]
        ):
            return name
    return None


def _ready_for_layout(frame: pd.DataFrame, ocr: bool | str) -> pd.DataFrame:
    """Run whatever stages are missing before plan_layout (domain, features, copy)."""
    from .stages.copywriting import write_copy
    from .stages.domain import detect_domain
    from .stages.features import extract_features

    if C.COPY_HEADLINE in frame.columns:
        return frame
    if C.DOMAIN_CATEGORY not in frame.columns:
        frame = detect_domain(frame)
    if C.FEATURES_PHRASE not in frame.columns:
        frame = extract_features(frame, ocr=ocr)
    return write_copy(frame)


COPY_FILE_SUFFIX = ".copy.csv"  # <template>.<app_id>.copy.csv: the tuned set's own copy
PREVIEW_GAP_PX = 16


def _design_takes(option: str) -> bool:
    """Does this shotsmith's ``design()`` (and so ``shotsmith design``) take ``option``?"""
    import inspect

    from .pipeline import design

    return option in inspect.signature(design).parameters


def _builtin_templates() -> set[str]:
    from .stages.layout import BUILTIN_LAYOUTS

    return {p.stem for p in BUILTIN_LAYOUTS.iterdir() if p.suffix in (".toml", ".json")}


class LayoutTuner:
    """Tune a layout template on one set, live, then save it as a template file.

    ``LayoutTuner(frame)`` takes a frame after ``write_copy`` (or earlier: the missing
    stages run first) and tunes its first set (or ``app_id``). ``.widget`` is the
    ipywidgets UI; ``.controls`` are its inputs by name (set ``.value`` in code and the
    previews follow) and ``.readouts`` what each one really did on the canvas (the
    fitted headline size, where the caption and the device ended up); ``.template`` is
    the tuned template; ``.frame`` the set with any edited headlines;
    ``.preview_image()`` / ``.set_preview()`` are the previews as PIL images (rendered at
    ``preview_scale`` x the store size so sliders feel instant, shown at their own size).

    ``.save_template(name)`` writes ``layouts/<name>.toml``, which
    ``plan_layout(template=name)`` and ``shotsmith design --template name`` use, and
    beside it ``<name>.<app_id>.copy.csv`` (``screen, headline, subtitle``: the set's
    copy as tuned, edits included), which ``shotsmith design --copy`` reads.
    ``.design_command()`` is the command that designs the set as tuned.
    """

    def __init__(
        self,
        frame: pd.DataFrame,
        *,
        template: str | Path | dict = "default",
        app_id: str | None = None,
        size: str | None = None,
        preview_scale: float = PREVIEW_SCALE,
        set_scale: float = 0.12,
        ocr: bool | str = False,
        layouts_dir: str | Path | None = None,
    ):
        frame = _ready_for_layout(frame, ocr)
        ids = list(frame[C.APP_ID].unique())
        if not ids:
            raise ShotsmithError("LayoutTuner: the frame has no rows.")
        if app_id is None:
            app_id = ids[0]
        elif app_id not in ids:
            raise ShotsmithError(f"LayoutTuner: no set {app_id!r} in the frame; sets: {ids}.")
        rows = frame[frame[C.APP_ID] == app_id].sort_values(C.POSITION, kind="stable")
        self.frame = rows.drop(
            columns=[c for c in rows.columns if c.startswith(("layout_", "render_"))]
        ).reset_index(drop=True)
        self.app_id = str(app_id)
        self.size = size
        self.preview_scale = preview_scale
        self.set_scale = set_scale
        self.layouts_dir = Path(layouts_dir) if layouts_dir is not None else None
        self.base = template if isinstance(template, str) and not Path(template).suffix else None
        self._template = copy.deepcopy(load_template(template))
        self._started = {self._template["name"]: copy.deepcopy(self._template)}
        self._generated = list(self.headlines)  # the copy as written, to tell edits apart
        self.index = 0
        self.error: str | None = None
        self.planned: pd.DataFrame | None = None
        self.saved: Path | None = None
        self.saved_copy: Path | None = None
        self._widget = None
        self.controls: dict[str, Any] = {}
        self.readouts: dict[str, Any] = {}
        self._syncing = False
        self.replan()

    # --- state -----------------------------------------------------------------------
    @property
    def template(self) -> dict[str, Any]:
        """The tuned template (a full template dict, usable as ``plan_layout(template=...)``)."""
        return copy.deepcopy(self._template)

    @property
    def headlines(self) -> list[str]:
        return [str(h) for h in self.frame[C.COPY_HEADLINE]]

    @property
    def edited(self) -> list[int]:
        """Positions (0-based) of the screenshots whose headline was edited here."""
        return [i for i, (a, b) in enumerate(zip(self.headlines, self._generated)) if a != b]

    def set_headline(self, index: int, text: str) -> None:
        self.frame.loc[index, C.COPY_HEADLINE] = text
        self.replan()

    def update(self, **changes: Any) -> None:
        """Change template values by dotted path, e.g. ``update(**{"device.width": 0.7})``."""
        for dotted, value in changes.items():
            node = self._template
            *parents, leaf = dotted.split(".")
            for p in parents:
                node = node[p]
            node[leaf] = value
        self.replan()

    def replan(self) -> None:
        """Plan the set with the current template and headlines; refresh the previews."""
        try:
            self.planned = plan_layout(self.frame, template=self._template, size=self.size)
            self.error = None
        except ShotsmithError as exc:  # e.g. a headline too long at this size: keep the last
            self.error = str(exc)
        self._refresh_widgets()

    def scene(self, index: int | None = None) -> dict[str, Any]:
        """The full-size scene of a screenshot under the current settings."""
        if self.planned is None:
            raise ShotsmithError(f"LayoutTuner: nothing planned yet ({self.error}).")
        i = self.index if index is None else index
        return self.planned[C.LAYOUT_SCENE].iloc[i]

    def preview_image(self, index: int | None = None, scale: float | None = None) -> Image.Image:
        """One screenshot, designed, at preview size (PIL image)."""
        i = self.index if index is None else index
        return preview_scene(
            self.scene(i), self.frame[C.IMAGE].iloc[i], scale or self.preview_scale
        )

    def set_preview(self, scale: float | None = None, gap: int = 12) -> Image.Image:
        """The whole set side by side at preview size (PIL image)."""
        s = scale or self.set_scale
        slides = [
            preview_scene(self.scene(i), self.frame[C.IMAGE].iloc[i], s)
            for i in range(len(self.frame))
        ]
        width = sum(im.width for im in slides) + gap * (len(slides) + 1)
        height = max(im.height for im in slides) + 2 * gap
        strip = Image.new("RGB", (width, height), "#f2f2f5")
        x = gap
        for im in slides:
            strip.paste(im, (x, gap))
            x += im.width + gap
        return strip

    def measures(self, index: int | None = None) -> dict[str, Any]:
        """What the current settings really did on the canvas (px), for one screenshot:
        the fitted headline size and the largest allowed, where the caption's ink starts
        and where its band starts, the device's box, how far it runs off the bottom."""
        if self.planned is None:
            raise ShotsmithError(f"LayoutTuner: nothing planned yet ({self.error}).")
        i = self.index if index is None else index
        scene = as_scene(self.scene(i))
        t = self._template
        width, height = scene.width, scene.height
        device = scene.device
        offsets = t["device"]["offsets_x"]
        return {
            "canvas": (width, height),
            "headline_px": int(self.planned[C.LAYOUT_HEADLINE_SIZE].iloc[i]),
            "headline_max_px": round(t["text"]["headline_size"][1] * width),
            "band_top_px": round(t["text"]["top"] * height),
            "caption_top_px": min(b.box[1] for b in scene.texts) if scene.texts else 0,
            "device_box": (device.x, device.y, device.width, device.height),
            "device_asked_px": round(t["device"]["width"] * width),
            "device_min_top_px": round(t["device"]["min_top"] * height),
            "offset_px": round(offsets[i % len(offsets)] * width),
            "below_bottom_px": device.y + device.height - height,
        }

    # --- saving ----------------------------------------------------------------------
    def copy_table(self) -> pd.DataFrame:
        """The set's copy as tuned: ``screen, headline, subtitle`` (what ``--copy`` reads)."""
        return pd.DataFrame(
            {
                "screen": [str(s) for s in self.frame[C.SCREEN]],
                "headline": self.headlines,
                "subtitle": [str(s) for s in self.frame[C.COPY_SUBTITLE]],
            }
        )

    def save_template(
        self, name: str, layouts_dir: str | Path | None = None, *, overwrite: bool = False
    ) -> Path:
        """Write the tuned template as ``<layouts_dir>/<name>.toml``; returns its path.

        Beside it, ``<name>.<app_id>.copy.csv`` keeps the set's headlines (edits
        included) and subtitles. An existing file written by the tuner is replaced; any
        other template file, or a new file that would shadow a built-in template (such as
        ``default``), only with ``overwrite=True`` (in the UI: tick *replace*)."""
        if not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,63}", name or ""):
            raise TemplateError(
                f"template name {name!r}: use lower-case letters, digits, "
                "'-' and '_' (it becomes the file name and --template value)."
            )
        folder = (
            Path(layouts_dir)
            if layouts_dir is not None
            else (self.layouts_dir or default_layouts_dir())
        )
        path = folder / f"{name}.toml"
        if not overwrite:
            if path.exists() and not path.read_text(encoding="utf-8").startswith(TUNER_MARK):
                raise TemplateError(
                    f"{path} exists and was not written by the tuner. Pick another name, "
                    "or replace it: tick 'replace' beside Save (overwrite=True in code)."
                )
            if not path.exists() and name in _builtin_templates():
                raise TemplateError(
                    f"{name!r} is a built-in template: {path} would replace it for everything "
                    "designed from this folder. Pick another name, or replace it: tick "
                    "'replace' beside Save (overwrite=True in code)."
                )
        folder.mkdir(parents=True, exist_ok=True)
        template = self.template
        template["name"] = name
        base = self.base or "a template"
        template["description"] = (
            f"Tuned from {base} in the layout tuner on {self.frame[C.PROJECT_NAME].iloc[0]}."
        )
        text = template_toml(
            template,
            header=TUNER_MARK[2:] + f" from {base!r}.\n"
            "Fractions are of the canvas width (x, sizes) or height (y).",
        )
        parsed = tomllib.loads(text)  # what load_template will read, checked before writing
        load_template(parsed)
        _write_text(path, text)
        copy_path = folder / f"{name}.{self.app_id}{COPY_FILE_SUFFIX}"
        _write_text(copy_path, self.copy_table().to_csv(index=False))
        self.saved, self.saved_copy = path, copy_path
        self._started[name] = copy.deepcopy(template)
        self.base = name
        if self._widget is not None:
            self._show_saved(name)
        return path

    def source_folder(self) -> Path | None:
        """The folder the set's screenshots were read from, when they are files in one."""
        refs = list(self.frame[C.IMAGE])
        if not refs or not all(isinstance(r, (str, Path)) for r in refs):
            return None
        parents = {Path(r).resolve().parent for r in refs}
        return parents.pop() if len(parents) == 1 else None

    def design_command(self, out: str = "out") -> tuple[Path, str]:
        """``(folder, command)``: run ``command`` from ``folder`` to design this set as
        tuned (the saved template, and the saved copy when ``design`` takes ``--copy``).

        A template saved in a ``layouts/`` folder is named, and the command runs from that
        folder's parent (a project's root, where ``shotsmith design`` finds it); any
        other is passed by path."""
        if self.saved is None:
            raise ShotsmithError("design_command: save the template first (save_template).")
        import shlex

        layouts = self.saved.resolve().parent
        if layouts.name == "layouts":
            root, template = layouts.parent, self.saved.stem
        else:
            root, template = Path.cwd().resolve(), str(self.saved.resolve())

        def rel(path: Path) -> str:
            try:
                return path.resolve().relative_to(root).as_posix()
            except ValueError:
                return str(path.resolve())

        source = self.source_folder()
        parts = ["shotsmith", "design", rel(source) if source else "FOLDER"]
        name = str(self.frame[C.PROJECT_NAME].iloc[0])
        if source is None or name != _folder_project_name(source):
            parts += ["--project-name", name]
        parts += ["--template", template]
        if self.saved_copy is not None and _design_takes("copy"):
            parts += ["--copy", rel(self.saved_copy)]
        parts += ["--out", out]
        return root, " ".join(shlex.quote(p) for p in parts)

    # --- widgets ---------------------------------------------------------------------
    @property
    def widget(self):
        """The ipywidgets UI (built on first use)."""
        if self._widget is None:
            self._widget = self._build()
            self._refresh_widgets()
        return self._widget

    def _repr_mimebundle_(self, **kwargs: Any):
        return self.widget._repr_mimebundle_(**kwargs)

    def __repr__(self) -> str:
        t = self._template
        return (
            f"LayoutTuner({self.app_id!r}, {len(self.frame)} screenshots, template "
            f"{t['name']!r}: headline {t['text']['headline_size']}, device width "
            f"{t['device']['width']}, palette {t['palette']['strategy']} "
            f"{t['palette']['rhythm']}, caption {t['text']['align']})"
        )

    def _build(self):
        import ipywidgets as W

        t = self._template
        style = {"description_width": "92px"}
        wide = W.Layout(width="392px")
        c, r = self.controls, self.readouts

        def readout(key: str):
            r[key] = W.HTML(layout=W.Layout(width="150px", margin="0 0 0 6px"))
            return r[key]

        def slider(key: str, label: str, value: float, lo: float, hi: float, step: float):
            c[key] = W.FloatSlider(
                value=value,
                min=lo,
                max=hi,
                step=step,
                description=label,
                readout=False,  # the readout beside it says what it did, in px
                style=style,
                layout=W.Layout(width="236px"),
                continuous_update=True,
            )
            return W.HBox([c[key], readout(key)])

        def checkbox(key: str, label: str, value: bool):
            c[key] = W.Checkbox(
                value=value, description=label, indent=False, layout=W.Layout(width="auto")
            )
            return W.HBox([c[key], readout(key)])

        names = list(dict.fromkeys([*_available(), t["name"]]))
        palette_options = list(PALETTES)
        current = _palette_name(t["palette"])
        if current is None:
            current = f"template ({t['palette']['strategy']}: {', '.join(t['palette']['rhythm'])})"
            palette_options.insert(0, current)
        self._custom_palette = (current, copy.deepcopy(t["palette"]))
        offsets = t["device"]["offsets_x"]
        c["template"] = W.Dropdown(
            options=names, value=t["name"], description="template", style=style, layout=wide
        )
        c["palette"] = W.Dropdown(
            options=palette_options, value=current, description="palette", style=style, layout=wide
        )
        rows = [c["template"], c["palette"]]
        rows.append(
            slider("headline_size", "headline", t["text"]["headline_size"][1], 0.04, 0.14, 0.001)
        )
        c["caption_align"] = W.ToggleButtons(
            options=["center", "left"],
            value=t["text"]["align"],
            description="caption",
            style={**style, "button_width": "70px"},
        )
        rows.append(c["caption_align"])
        rows.append(slider("caption_top", "caption area", t["text"]["top"], 0.0, 0.2, 0.002))
        rows.append(slider("device_width", "device width", t["device"]["width"], 0.4, 1.0, 0.01))
        rows.append(slider("device_top", "device top", t["device"]["min_top"], 0.12, 0.6, 0.005))
        rows.append(slider("device_offset_x", "device x", offsets[0], -0.2, 0.2, 0.005))
        rows.append(
            checkbox(
                "device_alternate",
                "mirror the x offset on every other slide",
                len(offsets) > 1 and offsets[1] == -offsets[0],
            )
        )
        rows.append(
            checkbox(
                "device_bleed",
                "let a tall device run off the bottom (else shrink it to fit)",
                bool(t["device"]["bleed"]),
            )
        )
        c["screenshot"] = W.Dropdown(
            options=[(f"{i + 1}. {s}", i) for i, s in enumerate(self.frame[C.SCREEN])],
            value=self.index,
            description="preview",
            style=style,
            layout=wide,
        )
        rows.append(c["screenshot"])
        c["save_name"] = W.Text(
            value=f"{t['name']}-tuned",
            description="save as",
            style=style,
            layout=W.Layout(width="252px"),
        )
        c["save"] = W.Button(
            description="Save template",
            icon="save",
            button_style="primary",
            layout=W.Layout(width="136px", margin="0 0 0 4px"),
        )
        c["overwrite"] = W.Checkbox(
            value=False,
            description="replace a template of that name that the tuner did not write",
            indent=False,
            layout=W.Layout(width="auto"),
        )
        c["save_status"] = W.HTML(layout=W.Layout(width="392px"))
        rows += [W.HBox([c["save_name"], c["save"]]), c["overwrite"], c["save_status"]]

        headline_boxes = []
        for i, head in enumerate(self.headlines):
            box = W.Text(
                value=head,
                description=f"{i + 1}. {self.frame[C.SCREEN].iloc[i]}",
                continuous_update=False,
                style={"description_width": "140px"},
                layout=W.Layout(width="560px"),
            )
            c[f"headline_{i}"] = box
            box.observe(self._on_headline(i), names="value")
            headline_boxes.append(box)

        shown = self.preview_image() if self.planned is not None else None
        pw, ph = shown.size if shown is not None else (330, 717)
        # the preview keeps its own pixel size: never stretched by the column, never
        # squeezed by a long message beside it (the status wraps inside its width)
        c["preview"] = W.Image(
            format="png",
            layout=W.Layout(width=f"{pw}px", height=f"{ph}px", object_fit="contain"),
        )
        c["status"] = W.HTML(layout=W.Layout(width=f"{pw}px"))
        c["set_preview"] = W.Image(
            format="png", layout=W.Layout(width="auto", max_width="100%", height="auto")
        )

        c["template"].observe(self._on_template, names="value")
        for key in (
            "headline_size",
            "device_width",
            "device_offset_x",
            "device_alternate",
            "device_top",
            "device_bleed",
            "palette",
            "caption_align",
            "caption_top",
        ):
            c[key].observe(self._on_control, names="value")
        c["screenshot"].observe(self._on_screenshot, names="value")
        c["save"].on_click(lambda _: self._on_save())

        controls = W.VBox(rows, layout=W.Layout(width="400px", flex="0 0 400px"))
        preview = W.VBox(
            [c["preview"], c["status"]],
            layout=W.Layout(width=f"{pw}px", flex="0 0 auto", margin=f"0 0 0 {PREVIEW_GAP_PX}px"),
        )
        headlines = W.Accordion(children=[W.VBox(headline_boxes)])
        headlines.set_title(0, "headlines (per screenshot)")
        return W.VBox(
            [
                W.HBox([controls, preview], layout=W.Layout(flex_flow="row wrap")),
                headlines,
                W.HTML("<b>the whole set</b>"),
                c["set_preview"],
            ],
            layout=W.Layout(width="100%"),
        )

    def _sync_controls(self) -> None:
        """Put the template's values into the controls without re-planning for each."""
        t, c = self._template, self.controls
        self._syncing = True
        try:
            c["headline_size"].value = t["text"]["headline_size"][1]
            c["device_width"].value = t["device"]["width"]
            offsets = t["device"]["offsets_x"]
            c["device_offset_x"].value = offsets[0]
            c["device_alternate"].value = len(offsets) > 1 and offsets[1] == -offsets[0]
            c["device_top"].value = t["device"]["min_top"]
            c["device_bleed"].value = bool(t["device"]["bleed"])
            name = _palette_name(t["palette"])
            if name is None:
                name = f"template ({t['palette']['strategy']}: {', '.join(t['palette']['rhythm'])})"
                if name not in c["palette"].options:
                    c["palette"].options = [name, *c["palette"].options]
                self._custom_palette = (name, copy.deepcopy(t["palette"]))
            c["palette"].value = name
            c["caption_align"].value = t["text"]["align"]
            c["caption_top"].value = t["text"]["top"]
        finally:
            self._syncing = False

    def _on_template(self, change: dict) -> None:
        if self._syncing:
            return
        old, name = change["old"], change["new"]
        started = self._started.get(name)  # given by path or dict, or saved here
        self._template = copy.deepcopy(
            started if started is not None and name not in _available() else load_template(name)
        )
        self.base = name
        save_name = self.controls["save_name"]
        if save_name.value.strip() in ("", f"{old}-tuned"):  # not a name the user typed
            save_name.value = f"{name}-tuned"
        self._sync_controls()
        self.replan()

    def _on_control(self, change: dict) -> None:
        if self._syncing:
            return
        c, t = self.controls, self._template
        key = next(k for k, w in c.items() if w is change["owner"])
        if key == "headline_size":
            hi = float(c["headline_size"].value)
            lo = min(float(t["text"]["headline_size"][0]), hi)
            t["text"]["headline_size"] = [round(lo, 4), round(hi, 4)]
        elif key == "device_width":
            t["device"]["width"] = round(float(c["device_width"].value), 4)
        elif key in ("device_offset_x", "device_alternate"):
            o = round(float(c["device_offset_x"].value), 4)
            t["device"]["offsets_x"] = [o, -o] if c["device_alternate"].value and o else [o]
        elif key == "device_top":
            t["device"]["min_top"] = round(float(c["device_top"].value), 4)
        elif key == "device_bleed":
            t["device"]["bleed"] = bool(c["device_bleed"].value)
        elif key == "palette":
            name = c["palette"].value
            custom_name, custom = self._custom_palette
            spec = custom if name == custom_name else PALETTES[name]
            t["palette"] = _merge_dict(t["palette"], copy.deepcopy(spec))
        elif key == "caption_align":
            t["text"]["align"] = c["caption_align"].value
        elif key == "caption_top":
            t["text"]["top"] = round(float(c["caption_top"].value), 4)
        self.replan()

    def _on_headline(self, index: int):
        def handler(change: dict) -> None:
            if not self._syncing:
                self.set_headline(index, str(change["new"]).strip() or self.headlines[index])

        return handler

    def _on_screenshot(self, change: dict) -> None:
        self.index = int(change["new"])
        self._refresh_widgets(set_too=False)

    def _on_save(self) -> None:
        c = self.controls
        try:
            self.save_template(c["save_name"].value.strip(), overwrite=bool(c["overwrite"].value))
        except ShotsmithError as exc:
            c["save_status"].value = _wrapping(
                f'<span style="color:#b00020">{html.escape(str(exc), quote=False)}</span>'
            )
        c["overwrite"].value = False  # a replacement is confirmed once, not for good

    def _show_saved(self, name: str) -> None:
        """After a save: the template is in the dropdown (and chosen), and the message says
        what was written and the command that designs the set with it."""
        c = self.controls
        names = list(dict.fromkeys([*_available(), *self._started, name]))
        self._syncing = True
        try:
            c["template"].options = names
            c["template"].value = name
            c["save_name"].value = name
        finally:
            self._syncing = False
        root, command = self.design_command()
        copy_note = (
            f" and the set's copy to <code>{html.escape(self.saved_copy.name)}</code>"
            if self.saved_copy is not None
            else ""
        )
        c["save_status"].value = _wrapping(
            f"Saved <code>{html.escape(str(self.saved))}</code>{copy_note}. "
            f"From <code>{html.escape(str(root))}</code>:<br>"
            f"<code>{html.escape(command)}</code>"
        )

    def _refresh_widgets(self, set_too: bool = True) -> None:
        if self._widget is None and not self.controls:
            return
        c = self.controls
        if self.planned is not None:
            c["preview"].value = _png_bytes(self.preview_image())
            if set_too:
                c["set_preview"].value = _png_bytes(self.set_preview())
            row = self.planned.iloc[self.index]
            info = (
                f"tone {row[C.LAYOUT_VARIANT]} · caption contrast "
                f"{float(row[C.LAYOUT_CONTRAST]):.2f} · preview at "
                f"{self.preview_scale:g}× the {row[C.LAYOUT_SIZE]} canvas"
            )
            self._refresh_readouts()
        else:
            info = ""
        if self.error:
            info += f'<br><span style="color:#b00020">{html.escape(self.error)}</span>'
        c["status"].value = _wrapping(info)

    def _refresh_readouts(self) -> None:
        """Say, beside each control, what it did on the full-size canvas."""
        r, c = self.readouts, self.controls
        if not r:
            return
        m = self.measures()
        grey = '<span style="color:#777">{}</span>'
        head, cap = m["headline_px"], m["headline_max_px"]
        r["headline_size"].value = (
            f"{head} px"
            if head >= cap
            else f"{head} px " + grey.format(f"(max {cap}: fitted to the longest headline)")
        )
        band, ink = m["band_top_px"], m["caption_top_px"]
        lowered = ink - band > 0.6 * head  # centred lower, in the room above the device
        r["caption_top"].value = f"from {band} px" + (
            "<br>" + grey.format(f"centred above the device: text at {ink} px") if lowered else ""
        )
        x, y, width, height = m["device_box"]
        asked = m["device_asked_px"]
        r["device_width"].value = f"{width} px wide" + (
            "<br>" + grey.format(f"(asked {asked}: shrunk to fit)") if width < asked - 1 else ""
        )
        low = m["device_min_top_px"]
        r["device_top"].value = f"at {y} px" + (
            "<br>" + grey.format(f"(at least {low}: below the caption)")
            if y > low + 1
            else "<br>" + grey.format(f"(asked {low}: raised to fit)")
            if y < low - 1
            else ""
        )
        offset = m["offset_px"]
        r["device_offset_x"].value = f"{offset:+d} px" if offset else "centred"
        alternate = c["device_alternate"]
        alternate.disabled = float(c["device_offset_x"].value) == 0
        r["device_alternate"].value = (
            grey.format("(no offset to mirror)") if alternate.disabled else ""
        )
        below = m["below_bottom_px"]
        r["device_bleed"].value = grey.format(
            f"runs {below} px off" if below > 0 else f"ends {-below} px above"
        )


def _wrapping(inner: str) -> str:
    """HTML for a message that wraps inside its widget's width (long paths included)."""
    return f'<div style="white-space:normal;overflow-wrap:anywhere;line-height:1.35">{inner}</div>'


def _write_text(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _folder_project_name(folder: Path) -> str:
    """The project name ``read_screenshots(folder)`` (and ``shotsmith design``) would use."""
    for name in MANIFEST_NAMES:
        try:
            data = json.loads((folder / name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and data.get("project_name"):
            return str(data["project_name"])
    return folder.name.replace("-", " ").replace("_", " ").title()


def _merge_dict(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    out.update(over)
    return out


def _available() -> list[str]:
    from .stages.layout import available_templates

    return available_templates()


# --- a local /v1 server for notebooks ----------------------------------------------------------


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG: stop if the kernel dies
    except (OSError, AttributeError):
        pass


class LocalServer:
    """``shotsmith serve`` in a subprocess on a free port, with a throw-away data dir and
    API key; ``.url``, ``.api_key``, ``.client()``, ``.stop()``; a context manager.

    Stopped at ``stop()``, on leaving a ``with`` block, at interpreter exit, and (Linux)
    when the process that started it dies."""

    def __init__(
        self,
        *,
        port: int | None = None,
        host: str = "127.0.0.1",
        data_dir: str | Path | None = None,
        api_key: str | None = None,
        workers: int | None = 1,
        startup_timeout: float = 60.0,
        env: dict[str, str] | None = None,
        args: Sequence[str] = (),
    ):
        import secrets

        self.host = host
        self.port = port or free_port(host)
        self.url = f"http://{host}:{self.port}"
        self._own_dir = data_dir is None
        self.data_dir = (
            Path(data_dir) if data_dir else Path(tempfile.mkdtemp(prefix="shotsmith-server-"))
        )
        self.api_key = api_key or "sk-local-" + secrets.token_urlsafe(24)
        self.workers = workers
        self.startup_timeout = startup_timeout
        self.env = env or {}
        self.args = list(args)  # more `shotsmith serve` options, e.g. ["--no-ocr"]
        self.process: subprocess.Popen | None = None
        self.log_path = self.data_dir / "server.log"

    def start(self) -> LocalServer:
        import httpx

        self.data_dir.mkdir(parents=True, exist_ok=True)
        cmd = [
            sys.executable,
            "-m",
            "shotsmith.cli",
            "serve",
            "--host",
            self.host,
            "--port",
            str(self.port),
            "--data-dir",
            str(self.data_dir),
            "--log-level",
            "warning",
        ]
        if self.workers:
            cmd += ["--workers", str(self.workers)]
        cmd += self.args
        keys = ",".join(k for k in (os.environ.get("SHOTSMITH_API_KEYS", ""), self.api_key) if k)
        env = {**os.environ, "SHOTSMITH_API_KEYS": keys, **self.env}
        log = open(self.log_path, "ab")
        try:
            self.process = subprocess.Popen(
                cmd,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
                stdin=subprocess.DEVNULL,
                preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
            )
        finally:
            log.close()
        atexit.register(self.stop)
        deadline = time.monotonic() + self.startup_timeout
        while True:
            if self.process.poll() is not None:
                raise ShotsmithError(
                    f"shotsmith serve exited with {self.process.returncode} "
                    f"before it was ready:\n{self.log_tail()}"
                )
            try:
                if httpx.get(f"{self.url}/healthz", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise ShotsmithError(
                    f"shotsmith serve was not ready within "
                    f"{self.startup_timeout:g} s:\n{self.log_tail()}"
                )
            time.sleep(0.2)

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def client(self, timeout: float = 60.0):
        from .client import Client

        return Client(self.url, self.api_key, timeout)

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self, timeout: float = 15.0) -> None:
        proc, self.process = self.process, None
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGINT)  # uvicorn's graceful shutdown
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        if self._own_dir:
            shutil.rmtree(self.data_dir, ignore_errors=True)
        try:
            atexit.unregister(self.stop)
        except Exception:  # pragma: no cover
            pass

    def __enter__(self) -> LocalServer:
        return self.start() if self.process is None else self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return f"LocalServer({self.url}, {state})"


def start_server(**options: Any) -> LocalServer:
    """Start ``shotsmith serve`` locally (see :class:`LocalServer`) and wait until it answers."""
    return LocalServer(**options).start()
