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
from .errors import ShotsmithError, TemplateError
from .io import open_image
from .scene import Scene, as_scene
from .sheets import contact_sheet
from .stages.layout import plan_layout
from .stages.render import render_scene
from .templates import load_template, project_layouts_dir

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


def _display_columns(frame: pd.DataFrame, columns: Sequence[str] | None) -> list[str]:
    if columns is not None:
        return [c for c in columns if c in frame.columns]
    return list(frame.columns)


def frame_html(
    frame: pd.DataFrame,
    *,
    columns: Sequence[str] | None = None,
    thumb_width: int = 72,
    max_rows: int = 40,
    max_chars: int = 80,
) -> str:
    """An HTML table of a frame of screenshots, image columns as inline thumbnails."""
    cols = _display_columns(frame, columns)
    shown = frame.head(max_rows)
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in cols)
    body = []
    for _, row in shown.iterrows():
        cells = []
        for c in cols:
            value = row[c]
            if c in IMAGE_COLUMNS:
                uri = thumbnail_uri(value, thumb_width)
                label = html.escape(_cell_text(value, 48))
                cells.append(
                    f'<td><img src="{uri}" width="{thumb_width}" title="{label}"></td>'
                    if uri
                    else f"<td>{html.escape(_cell_text(value, max_chars))}</td>"
                )
            elif c == C.LAYOUT_SCENE:
                cells.append(f"<td>{html.escape(_scene_summary(value))}</td>")
            else:
                cells.append(
                    f'<td style="text-align:left">{html.escape(_cell_text(value, max_chars))}</td>'
                )
        body.append("<tr>" + "".join(cells) + "</tr>")
    sets = frame[C.APP_ID].nunique() if C.APP_ID in frame.columns else None
    caption = f"{len(frame)} rows" + (
        f" in {sets} set{'s' if sets != 1 else ''}" if sets is not None else ""
    )
    if len(frame) > max_rows:
        caption += f", first {max_rows} shown"
    caption += f", {len(cols)} columns"
    return (
        f'<div class="shotsmith-frame"><div><b>{html.escape(caption)}</b></div>'
        f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"
    )


def frame_text(
    frame: pd.DataFrame,
    *,
    columns: Sequence[str] | None = None,
    max_rows: int = 40,
    max_chars: int = 40,
) -> str:
    """A plain-text view of the same table (paths, no pixels), for terminals and diffs."""
    cols = _display_columns(frame, columns)
    data = {}
    for c in cols:
        if c == C.LAYOUT_SCENE:
            data[c] = [_scene_summary(v) for v in frame[c].head(max_rows)]
        else:
            data[c] = [_cell_text(v, max_chars) for v in frame[c].head(max_rows)]
    text = pd.DataFrame(data, index=frame.index[:max_rows]).to_string()
    if len(frame) > max_rows:
        text += f"\n... {len(frame) - max_rows} more rows"
    return text


class FrameView:
    """What :func:`show` returns for a frame: an HTML table with thumbnails."""

    def __init__(self, frame: pd.DataFrame, **options: Any):
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
        sheets.append(contact_sheet(_set_images(rows, scale), thumb_width=thumb_width, title=title))
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


class LayoutTuner:
    """Tune a layout template on one set, live, then save it as a template file.

    ``LayoutTuner(frame)`` takes a frame after ``write_copy`` (or earlier: the missing
    stages run first) and tunes its first set (or ``app_id``). ``.widget`` is the
    ipywidgets UI; ``.controls`` are its inputs by name (set ``.value`` in code and the
    previews follow); ``.template`` is the tuned template; ``.frame`` the set with any
    edited headlines; ``.preview_image()`` / ``.set_preview()`` are the previews as PIL
    images (rendered at ``preview_scale`` x the store size so sliders feel instant);
    ``.save_template(name)`` writes ``layouts/<name>.toml``, which
    ``plan_layout(template=name)`` and ``shotsmith design --template name`` use.
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
        self.index = 0
        self.error: str | None = None
        self.planned: pd.DataFrame | None = None
        self.saved: Path | None = None
        self._widget = None
        self.controls: dict[str, Any] = {}
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

    def save_template(
        self, name: str, layouts_dir: str | Path | None = None, *, overwrite: bool = False
    ) -> Path:
        """Write the tuned template as ``<layouts_dir>/<name>.toml``; returns its path.

        An existing file written by the tuner is replaced; any other existing template
        (e.g. the shipped ``default``) only with ``overwrite=True``."""
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
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{name}.toml"
        old_mtime = None
        if path.exists():
            old_mtime = path.stat().st_mtime_ns
            if not overwrite and not path.read_text(encoding="utf-8").startswith(TUNER_MARK):
                raise TemplateError(
                    f"{path} exists and was not written by the tuner; pick "
                    "another name or pass overwrite=True."
                )
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
        tmp = path.with_suffix(".toml.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
        new = path.stat().st_mtime_ns
        if old_mtime is not None and new <= old_mtime:  # load_template caches by mtime
            os.utime(path, ns=(new, old_mtime + 1000))
        self.saved = path
        if self._widget is not None:
            self.controls["save_status"].value = (
                f"saved <code>{html.escape(str(path))}</code>: use "
                f"<code>plan_layout(template={name!r})</code> or "
                f"<code>shotsmith design FOLDER --template {html.escape(name)}</code>"
            )
        return path

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
        style = {"description_width": "110px"}
        wide = W.Layout(width="340px")

        def slider(label: str, value: float, lo: float, hi: float, step: float):
            return W.FloatSlider(
                value=value,
                min=lo,
                max=hi,
                step=step,
                description=label,
                readout_format=".3f",
                style=style,
                layout=wide,
                continuous_update=True,
            )

        names = list(dict.fromkeys([*_available(), t["name"]]))
        palette_options = list(PALETTES)
        current = _palette_name(t["palette"])
        if current is None:
            current = f"template ({t['palette']['strategy']}: {', '.join(t['palette']['rhythm'])})"
            palette_options.insert(0, current)
        self._custom_palette = (current, copy.deepcopy(t["palette"]))
        offsets = t["device"]["offsets_x"]
        c = self.controls
        c["template"] = W.Dropdown(
            options=names, value=t["name"], description="template", style=style, layout=wide
        )
        c["headline_size"] = slider(
            "headline size", t["text"]["headline_size"][1], 0.04, 0.14, 0.001
        )
        c["device_width"] = slider("device scale", t["device"]["width"], 0.4, 1.0, 0.01)
        c["device_offset_x"] = slider("device x offset", offsets[0], -0.2, 0.2, 0.005)
        c["device_alternate"] = W.Checkbox(
            value=len(offsets) > 1 and offsets[1] == -offsets[0],
            description="alternate the offset",
            indent=False,
        )
        c["device_top"] = slider("device top", t["device"]["min_top"], 0.12, 0.6, 0.005)
        c["device_bleed"] = W.Checkbox(
            value=bool(t["device"]["bleed"]),
            description="device bleeds off the bottom",
            indent=False,
        )
        c["palette"] = W.Dropdown(
            options=palette_options, value=current, description="palette", style=style, layout=wide
        )
        c["caption_align"] = W.ToggleButtons(
            options=["center", "left"],
            value=t["text"]["align"],
            description="caption",
            style={**style, "button_width": "80px"},
        )
        c["caption_top"] = slider("caption top", t["text"]["top"], 0.0, 0.2, 0.002)
        c["screenshot"] = W.Dropdown(
            options=[(f"{i + 1}. {s}", i) for i, s in enumerate(self.frame[C.SCREEN])],
            value=self.index,
            description="preview",
            style=style,
            layout=wide,
        )
        headline_boxes = []
        for i, head in enumerate(self.headlines):
            box = W.Text(
                value=head,
                description=f"{i + 1}. {self.frame[C.SCREEN].iloc[i]}",
                continuous_update=False,
                style=style,
                layout=W.Layout(width="520px"),
            )
            c[f"headline_{i}"] = box
            box.observe(self._on_headline(i), names="value")
            headline_boxes.append(box)
        c["preview"] = W.Image(format="png")
        c["set_preview"] = W.Image(format="png")
        c["status"] = W.HTML()
        c["save_name"] = W.Text(
            value=f"{t['name']}-tuned", description="save as", style=style, layout=wide
        )
        c["save"] = W.Button(description="Save template", icon="save", button_style="primary")
        c["save_status"] = W.HTML()

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

        controls = W.VBox(
            [
                c["template"],
                c["palette"],
                c["headline_size"],
                c["caption_align"],
                c["caption_top"],
                c["device_width"],
                c["device_top"],
                c["device_offset_x"],
                c["device_alternate"],
                c["device_bleed"],
                c["screenshot"],
                W.HBox([c["save_name"], c["save"]]),
                c["save_status"],
            ]
        )
        headlines = W.Accordion(children=[W.VBox(headline_boxes)])
        headlines.set_title(0, "headlines (per screenshot)")
        return W.VBox(
            [
                W.HBox([controls, W.VBox([c["preview"], c["status"]])]),
                headlines,
                W.HTML("<b>the whole set</b>"),
                c["set_preview"],
            ]
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
        name = change["new"]
        started = self._started.get(name)  # the template given by path or dict, as it was
        self._template = copy.deepcopy(
            started if started is not None and name not in _available() else load_template(name)
        )
        self.base = name
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
            t["device"]["offsets_x"] = [o, -o] if c["device_alternate"].value else [o]
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
        try:
            self.save_template(self.controls["save_name"].value.strip())
        except ShotsmithError as exc:
            self.controls[
                "save_status"
            ].value = f'<span style="color:#b00020">{html.escape(str(exc))}</span>'

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
                f"headline {int(row[C.LAYOUT_HEADLINE_SIZE])} px for the whole set · "
                f"tone {row[C.LAYOUT_VARIANT]} · caption contrast "
                f"{float(row[C.LAYOUT_CONTRAST]):.2f}"
            )
        else:
            info = ""
        if self.error:
            info += f'<br><span style="color:#b00020">{html.escape(self.error)}</span>'
        c["status"].value = info


def _merge_dict(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    out.update(over)
    return out


def _available() -> list[str]:
    from .templates import available_templates

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
