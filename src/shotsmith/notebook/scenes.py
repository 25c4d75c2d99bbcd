"""Scenes and sets in notebooks: a scene rendered at preview size, a scene as a compact
table (one row per layer, instead of its JSON), and finished sets as a grid."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import pandas as pd
from PIL import Image

from .. import columns as C
from ..errors import InvalidOptionError, MissingColumnError
from ..io import open_image
from ..scene import DeviceFrame, Scene, as_scene
from ..sheets import contact_sheet
from ..stages.render import render_scene
from .images import PREVIEW_SCALE, ImageView


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
            box=box(t.box),  # type: ignore[arg-type]  # None: no box measured
            lines=list(t.lines),
        )
        for t in s.texts
    ]

    def frame(d: DeviceFrame) -> DeviceFrame:
        shadow = None
        if d.shadow:
            shadow = dict(d.shadow)
            for key in ("blur", "offset_y"):
                if key in shadow:
                    shadow[key] = max(1, n(shadow[key])) if key == "blur" else n(shadow[key])
        return replace(
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

    background = copy.deepcopy(s.background)
    background.shapes = [  # a panorama's shapes are in canvas px
        dict(shape, cx=shape["cx"] * factor, cy=shape["cy"] * factor, r=shape["r"] * factor)
        for shape in background.shapes
    ]
    return Scene(
        n(s.width),
        n(s.height),
        background,
        texts,
        frame(s.device),
        dict(s.meta, preview_scale=factor),
        strip_devices=[_strip_frame(d, s, frame, n) for d in s.strip_devices],
    )


def _strip_frame(
    device: DeviceFrame,
    scene: Scene,
    frame: Callable[[DeviceFrame], DeviceFrame],
    n: Callable[[float], int],
) -> DeviceFrame:
    """A neighbour's device scaled where it stands on its own slide, then moved back by
    whole scaled slides: the halves of a preview strip meet as the store-size ones do."""
    slides = int(scene.meta.get("position", device.source or 0)) - int(device.source or 0)
    return frame(device.shifted(slides * scene.width)).shifted(-slides * n(scene.width))


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
    scene: Scene | dict | str,
    screenshot: Any = None,
    scale: float = PREVIEW_SCALE,
    neighbours: dict[int, Any] | None = None,
) -> Image.Image:
    """Render a scene at ``scale`` x its size (fast; for previews, not for the store).
    ``neighbours`` are the screenshots of a panorama's slides whose devices cross into
    this one, by store position (default: the paths in the scene)."""
    full = as_scene(scene)
    small = scale_scene(full, scale)
    ref = screenshot if screenshot is not None else full.device.screenshot
    if ref is None:
        raise InvalidOptionError(
            "preview: the scene has no screenshot path; pass the screenshot "
            "(the row's 'image') too."
        )
    # decoded once per preview size (not per device size): twice the canvas width at most
    shot = _screenshot_for(ref, max(64, 2 * small.width))
    shown: dict[int, Any] = {
        int(d.source): _screenshot_for(given, max(64, 2 * small.width))
        for d in small.strip_devices
        if d.source is not None and (given := (neighbours or {}).get(d.source)) is not None
    }
    return render_scene(small, shot, shown)


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


def _frame_row(scene: Any, row: int, where: str) -> Any:
    """A frame's ``row``-th row (it must have been through plan_layout); anything else as is."""
    if not isinstance(scene, pd.DataFrame):
        return scene
    if C.LAYOUT_SCENE not in scene.columns:
        raise MissingColumnError(
            f"{where}: the frame has no layout_scene column; run plan_layout first."
        )
    return scene.iloc[row]


def scene_table(scene: Any, row: int = 0) -> pd.DataFrame:
    """A scene's parts, one row each: the canvas and its background, every text block,
    the device. Where each is drawn (x, y, width, height in canvas px), its size, colour
    and contrast: the compact view of a ``layout_scene`` (a Scene, dict, JSON, a frame
    row, or a frame's ``row``-th row)."""
    scene = _frame_row(scene, row, "scene_table")
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
    scene = _frame_row(scene, row, "show_scene")
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
            raise InvalidOptionError("show_set: no images.")
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
        raise InvalidOptionError(
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
