"""render: scene -> PNG at the exact store size, RGB, no alpha.

Only the visible pixels are touched: the part of the device that bleeds off the
canvas is never drawn, the screenshot is resized only where it shows, and the
shadow is blurred at quarter scale. Backgrounds and device masks depend only on
the set's geometry, so they are built once per set (cached) and reused.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from PIL import Image, ImageDraw, ImageFilter

from .. import columns as C
from ..allocator import tune_allocator
from ..color import to_rgb
from ..errors import InvalidOptionError
from ..io import open_image
from ..png import encode_png, write_png
from ..scene import Background, DeviceFrame, Scene, as_scene
from ..settings import render_threads
from ..statusbar import StatusBarStyle, paint_status_bar
from ..text import caption_origin, draw_line, load_font, paragraph_rtl

SUPERSAMPLE = 4  # antialiasing factor for curved edges

tune_allocator()  # big image buffers reuse the heap instead of fresh mmaps (allocator.py)


# --- background --------------------------------------------------------------
@functools.lru_cache(maxsize=16)
def _background_cached(spec: str, width: int, height: int) -> Image.Image:
    bg = Background(**json.loads(spec))
    stops = np.array([to_rgb(s) for s in bg.stops], dtype=np.float64)
    if bg.kind == "solid" or len(stops) == 1:
        img = Image.new("RGB", (width, height), tuple(int(v) for v in stops[0]))
    else:
        pos = np.linspace(0.0, 1.0, len(stops))
        t = (np.arange(height, dtype=np.float64) + 0.5) / height
        column = np.stack([np.interp(t, pos, stops[:, c]) for c in range(3)], axis=1)
        pixels = np.round(column).astype(np.uint8).reshape(height, 1, 3)
        img = Image.fromarray(pixels).resize((width, height), Image.Resampling.NEAREST)
    if bg.glow:
        small = 8
        sw, sh = max(1, width // small), max(1, height // small)
        yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float64)
        cx, cy = bg.glow_center[0] * sw, bg.glow_center[1] * sh
        r = bg.glow_radius * sw
        d2 = ((xx - cx) ** 2 + (yy - cy) ** 2) / (r * r)
        alpha = np.clip(np.exp(-d2 * 1.6) * 0.85 * 255, 0, 255).astype(np.uint8)
        mask = Image.fromarray(alpha).resize((width, height), Image.Resampling.BILINEAR)
        img.paste(to_rgb(bg.glow), (0, 0), mask)
    for shape in bg.shapes:
        _draw_circle(img, shape)
    return img


def _draw_circle(img: Image.Image, shape: dict[str, Any]) -> None:
    """A translucent circle (canvas px), antialiased; the part off the canvas is clipped."""
    cx, cy, r = float(shape["cx"]), float(shape["cy"]), float(shape["r"])
    x0, y0 = int(np.floor(cx - r)), int(np.floor(cy - r))
    size = int(np.ceil(cx + r)) - x0 + 1, int(np.ceil(cy + r)) - y0 + 1
    if x0 >= img.width or y0 >= img.height or x0 + size[0] <= 0 or y0 + size[1] <= 0:
        return
    s = SUPERSAMPLE
    big = Image.new("L", (size[0] * s, size[1] * s), 0)
    ox, oy = (cx - x0) * s, (cy - y0) * s
    fill = round(255 * float(shape.get("opacity", 1.0)))
    ImageDraw.Draw(big).ellipse((ox - r * s, oy - r * s, ox + r * s, oy + r * s), fill=fill)
    img.paste(to_rgb(shape["color"]), (x0, y0), big.reduce(s))


def draw_background(background: Background, width: int, height: int) -> Image.Image:
    """The background of a scene as a new RGB image (cached per spec and size)."""
    return _background_cached(_bg_key(background), width, height).copy()


def background_region(
    background: Background, width: int, height: int, box: list[int] | tuple[int, int, int, int]
) -> np.ndarray:
    """The background pixels under ``box`` ([x, y, w, h], clipped to the canvas)."""
    x, y, w, h = box
    crop = (max(0, x), max(0, y), min(width, x + w), min(height, y + h))
    if crop[2] <= crop[0] or crop[3] <= crop[1]:
        return np.zeros((0, 0, 3), dtype=np.uint8)
    return np.asarray(_background_cached(_bg_key(background), width, height).crop(crop))


def _bg_key(background: Background) -> str:
    return json.dumps(background.__dict__, sort_keys=True, default=list)


# --- device masks --------------------------------------------------------------
@functools.lru_cache(maxsize=64)
def rounded_mask(width: int, height: int, radius: int) -> Image.Image:
    """Antialiased rounded-rectangle coverage mask ('L'), corners supersampled."""
    mask = Image.new("L", (width, height), 255)
    r = max(0, min(radius, width // 2, height // 2))
    if r == 0:
        return mask
    s = SUPERSAMPLE
    big = Image.new("L", (r * s * 2, r * s * 2), 0)
    ImageDraw.Draw(big).ellipse((0, 0, r * s * 2 - 1, r * s * 2 - 1), fill=255)
    corner = big.crop((0, 0, r * s, r * s)).reduce(s)  # top-left quarter
    mask.paste(corner, (0, 0))
    mask.paste(corner.transpose(Image.Transpose.FLIP_LEFT_RIGHT), (width - r, 0))
    mask.paste(corner.transpose(Image.Transpose.FLIP_TOP_BOTTOM), (0, height - r))
    mask.paste(corner.transpose(Image.Transpose.ROTATE_180), (width - r, height - r))
    return mask


@functools.lru_cache(maxsize=16)
def _shadow_mask(
    width: int, height: int, radius: int, blur: int, opacity: float
) -> tuple[Image.Image, int]:
    """Soft shadow of a rounded rect: blurred at 1/4 scale, upscaled. Returns (mask, pad)."""
    q = 4
    pad = blur * 3
    small = Image.new("L", ((width + 2 * pad) // q, (height + 2 * pad) // q), 0)
    ImageDraw.Draw(small).rounded_rectangle(
        (pad // q, pad // q, (pad + width) // q, (pad + height) // q),
        radius=radius // q,
        fill=int(255 * opacity),
    )
    small = small.filter(ImageFilter.GaussianBlur(max(1, blur / q)))
    return small.resize((width + 2 * pad, height + 2 * pad), Image.Resampling.BILINEAR), pad


def _visible(
    mask: Image.Image, x: int, y: int, canvas: tuple[int, int]
) -> tuple[Image.Image, tuple[int, int]] | None:
    """Crop a mask placed at (x, y) to the canvas; None when nothing shows."""
    w, h = mask.size
    x0, y0 = max(0, -x), max(0, -y)
    x1, y1 = min(w, canvas[0] - x), min(h, canvas[1] - y)
    if x1 <= x0 or y1 <= y0:
        return None
    if (x0, y0, x1, y1) == (0, 0, w, h):
        return mask, (x, y)
    return mask.crop((x0, y0, x1, y1)), (x + x0, y + y0)


def _paste_color(canvas: Image.Image, color: str, mask: Image.Image, x: int, y: int) -> None:
    part = _visible(mask, x, y, canvas.size)
    if part is not None:
        canvas.paste(to_rgb(color), part[1], part[0])


def _device_key(dev: DeviceFrame) -> str:
    fields = {k: v for k, v in dev.__dict__.items() if k not in ("screenshot", "screen_band")}
    return json.dumps(fields, sort_keys=True)


@functools.lru_cache(maxsize=8)
def _stage_base(bg_spec: str, dev_spec: str, width: int, height: int) -> Image.Image:
    """Background, shadow, metal band and bezel: identical for every slide of a variant."""
    canvas = _background_cached(bg_spec, width, height).copy()
    _draw_frame(canvas, DeviceFrame(**json.loads(dev_spec)))
    return canvas


def _draw_frame(canvas: Image.Image, dev: DeviceFrame) -> None:
    """A device's shadow, metal band and bezel (the part inside the canvas)."""
    if dev.shadow:
        blur = max(2, int(dev.shadow.get("blur", 40)))
        smask, pad = _shadow_mask(
            dev.width, dev.height, dev.outer_radius, blur, float(dev.shadow.get("opacity", 0.3))
        )
        _paste_color(
            canvas,
            dev.shadow.get("color", "#000000"),
            smask,
            dev.x - pad,
            dev.y - pad + int(dev.shadow.get("offset_y", 0)),
        )
    _paste_color(
        canvas, dev.band_color, rounded_mask(dev.width, dev.height, dev.outer_radius), dev.x, dev.y
    )
    b = dev.band
    _paste_color(
        canvas,
        dev.bezel_color,
        rounded_mask(dev.width - 2 * b, dev.height - 2 * b, dev.outer_radius - b),
        dev.x + b,
        dev.y + b,
    )


def screen_pixels(dev: DeviceFrame, shot: Image.Image, height: int | None = None) -> Image.Image:
    """What the display shows, at the display's pixel size: the screenshot filling it (or
    letterboxed), below its status-bar band when the scene has one. Only the top
    ``height`` rows (default: all) are made; corners are not rounded here."""
    _, _, sw, sh = dev.screen_box
    vis_h = sh if height is None else height
    src_w, src_h = shot.size
    if dev.fit == "contain":  # another aspect: shown whole, never cropped
        shot = _letterboxed(shot, sw, sh)
        src_w, src_h = shot.size
    cover = max(sw / src_w, sh / src_h)  # fill the display, crop the overflow
    src_box_w = min(float(src_w), sw / cover)  # sw / (sw / src_w) can exceed src_w by 1e-13
    left = (src_w - src_box_w) / 2
    # Hamming is Pillow's sharp, cheap filter for shrinking (the usual case: a 1206 px
    # screenshot into a ~1010 px display, at half the cost of bicubic); bicubic to enlarge
    resample = Image.Resampling.HAMMING if cover <= 1.0 else Image.Resampling.BICUBIC
    band = dev.screen_band
    if not band:
        return shot.resize((sw, vis_h), resample, box=(left, 0.0, left + src_box_w, vis_h / cover))
    # the screenshot starts below a status-bar band of its own top colour
    band_h = min(int(band["height"]), vis_h)
    screen = Image.new("RGB", (sw, vis_h), to_rgb(band["color"]))
    if vis_h > band_h:
        content = vis_h - band_h
        screen.paste(
            shot.resize(
                (sw, content), resample, box=(left, 0.0, left + src_box_w, content / cover)
            ),
            (0, band_h),
        )
    bar = dict(band["status_bar"])
    if bar.get("island_pt") is not None:
        bar["island_pt"] = tuple(bar["island_pt"])
    paint_status_bar(screen, StatusBarStyle(**bar))
    return screen


def _draw_screen(canvas: Image.Image, dev: DeviceFrame, shot: Image.Image) -> None:
    """The screenshot inside the display, resized only where it is visible."""
    W, H = canvas.size
    sx, sy, sw, sh = dev.screen_box
    vis_h = min(sh, H - sy)
    if vis_h <= 0 or sx >= W or sx + sw <= 0:
        return
    screen = screen_pixels(dev, shot, vis_h)
    mask = rounded_mask(sw, sh, dev.screen_radius)
    r = dev.screen_radius
    # rounded corners need a masked paste; the rows between them are a plain copy
    for y0, y1, masked in ((0, r, True), (r, sh - r, False), (sh - r, sh, True)):
        y1 = min(y1, vis_h)
        if y1 <= y0:
            continue
        part = screen.crop((0, y0, sw, y1))
        if masked:
            canvas.paste(part, (sx, sy + y0), mask.crop((0, y0, sw, y1)))
        else:
            canvas.paste(part, (sx, sy + y0))
    if dev.island:
        ix, iy, iw, ih = dev.island
        _paste_color(canvas, "#000000", rounded_mask(iw, ih, min(iw, ih) // 2), ix, iy)
    if dev.punch_hole:
        hx, hy, hd, _ = dev.punch_hole
        _paste_color(canvas, "#000000", rounded_mask(hd, hd, hd // 2), hx, hy)


def _letterboxed(shot: Image.Image, screen_w: int, screen_h: int) -> Image.Image:
    """The screenshot whole on a canvas of the display's aspect, the bars in the colour
    of the screenshot's own edge rows (or columns) beside them."""
    src_w, src_h = shot.size
    if src_h * screen_w > screen_h * src_w:  # taller than the display: bars left and right
        width, height = round(src_h * screen_w / screen_h), src_h
        edges = (shot.crop((0, 0, 1, src_h)), shot.crop((src_w - 1, 0, src_w, src_h)))
        boxes = ((0, 0, (width - src_w) // 2, height), ((width + src_w) // 2, 0, width, height))
    else:  # wider: bars above and below
        width, height = src_w, round(src_w * screen_h / screen_w)
        edges = (shot.crop((0, 0, src_w, 1)), shot.crop((0, src_h - 1, src_w, src_h)))
        boxes = ((0, 0, width, (height - src_h) // 2), (0, (height + src_h) // 2, width, height))
    out = Image.new("RGB", (width, height))
    for edge, box in zip(edges, boxes):
        color = tuple(int(v) for v in np.asarray(edge).reshape(-1, 3).mean(axis=0).round())
        out.paste(color, box)
    out.paste(shot, ((width - src_w) // 2, (height - src_h) // 2))
    return out


ScreenshotRef = Image.Image | bytes | str | Path


def render_scene(
    scene: Scene | dict | str,
    screenshot: ScreenshotRef | None = None,
    neighbours: dict[int, ScreenshotRef] | None = None,
) -> Image.Image:
    """Draw a scene; returns an RGB image of exactly ``scene.width x scene.height``.

    ``screenshot`` is the slide's own (default: the path in the scene); ``neighbours``
    maps a store position to the screenshot of that slide, for a panorama's devices that
    cross in from a neighbouring slide (default: the paths in ``strip_devices``)."""
    scene = as_scene(scene)
    shot = _screenshot(screenshot, scene.device.screenshot)
    if not scene.strip_devices:
        canvas = _stage_base(
            _bg_key(scene.background), _device_key(scene.device), scene.width, scene.height
        ).copy()
    else:  # the neighbours' devices first, under this slide's own
        canvas = draw_background(scene.background, scene.width, scene.height)
        for other in scene.strip_devices:
            given = (neighbours or {}).get(other.source) if other.source is not None else None
            _draw_frame(canvas, other)
            _draw_screen(canvas, other, _screenshot(given, other.screenshot))
        _draw_frame(canvas, scene.device)
    _draw_screen(canvas, scene.device, shot)
    draw = ImageDraw.Draw(canvas)
    for block in scene.texts:
        font = load_font(block.font, block.size)
        x, anchor = caption_origin(block.align, block.x, block.text, scene.width)
        rtl = paragraph_rtl(block.text)  # every line of a wrapped caption reads one way
        for i, line in enumerate(block.lines):
            draw_line(
                draw,
                (x, block.baseline + i * block.line_height),
                line,
                font,
                to_rgb(block.color),
                anchor,
                rtl=rtl,
            )
    return canvas


def _screenshot(given: ScreenshotRef | None, path: str | None) -> Image.Image:
    ref = given if given is not None else path
    if ref is None:
        raise InvalidOptionError(
            "render_scene: the scene has no screenshot path; pass the screenshot"
        )
    return ref if isinstance(ref, Image.Image) else open_image(ref)


def output_name(app_id: str, position: int, screen: str) -> str:
    safe = "".join(ch if ch.isalnum() else "-" for ch in str(screen).lower()).strip("-")
    return f"{app_id}/{position + 1:02d}_{safe or 'screen'}.png"


@C.stage(
    "render",
    requires=(C.APP_ID, C.POSITION, C.IMAGE, C.LAYOUT_SCENE),
    provides=(C.RENDER_PATH, C.RENDER_WIDTH, C.RENDER_HEIGHT, C.RENDER_MS),
    optional=(C.SCREEN,),
)
def render(
    frame: pd.DataFrame,
    *,
    out_dir: str | Path | None = "out",
    threads: int | None = None,
    on_rendered: Callable[[dict[str, Any]], None] | None = None,
) -> pd.DataFrame:
    """Draw every row's scene to a PNG at the exact store size (RGB, no alpha).

    With ``out_dir`` the PNGs are written as ``<out_dir>/<app_id>/NN_<screen>.png``
    and only their paths stay in the frame; with ``out_dir=None`` the PNG bytes
    go into ``render_png`` instead. Rows are drawn by ``threads`` threads (default:
    one per core, at most 4, one in a pool's worker; ``SHOTSMITH_RENDER_THREADS``
    overrides: :func:`shotsmith.settings.render_threads`). ``on_rendered``
    is called in this thread, in store order, as each screenshot is done, with its
    ``app_id``, ``position``, ``screen``, ``path``, ``width``, ``height`` and ``device``
    (progress for people waiting).
    """

    rows = [row for _, row in frame.iterrows()]
    workers = render_threads(threads, len(rows))
    if out_dir is not None:
        _refuse_another_set(frame, Path(out_dir))

    def one(row: pd.Series) -> tuple[str, bytes | None, int, int, float]:
        start = time.perf_counter()
        ref = row[C.IMAGE]
        if not isinstance(ref, Image.Image):  # threads share the GIL: a decoder that frees it
            ref = open_image(ref, release_gil=workers > 1)
        image = render_scene(row[C.LAYOUT_SCENE], ref, _neighbours(frame, row))
        if out_dir is None:
            path, blob = "", encode_png(image)
        else:
            name = output_name(row[C.APP_ID], int(row[C.POSITION]), row.get(C.SCREEN, "screen"))
            path, blob = str(write_png(image, Path(out_dir) / name)), None
        return path, blob, image.width, image.height, (time.perf_counter() - start) * 1000

    def done(row: pd.Series, result: tuple[str, bytes | None, int, int, float]) -> None:
        if on_rendered is not None:
            scene = row[C.LAYOUT_SCENE]
            on_rendered(
                {
                    "event": "rendered",
                    "app_id": str(row[C.APP_ID]),
                    "position": int(row[C.POSITION]),
                    "screen": str(row.get(C.SCREEN, "")),
                    "path": result[0],
                    "width": result[2],
                    "height": result[3],
                    "device": scene["device"]["model"] if isinstance(scene, dict) else "",
                }
            )

    results = []
    if workers > 1:  # decoding, resizing and deflate release the GIL: threads share the work
        with ThreadPoolExecutor(workers) as pool:
            for row, result in zip(rows, pool.map(one, rows)):
                results.append(result)
                done(row, result)
    else:
        for row in rows:
            results.append(one(row))
            done(row, results[-1])
    frame[C.RENDER_PATH] = [r[0] for r in results]
    frame[C.RENDER_WIDTH] = [r[2] for r in results]
    frame[C.RENDER_HEIGHT] = [r[3] for r in results]
    frame[C.RENDER_MS] = [round(r[4], 1) for r in results]
    if out_dir is None:
        frame[C.RENDER_PNG] = [r[1] for r in results]
    return frame


def _neighbours(frame: pd.DataFrame, row: pd.Series) -> dict[int, Any] | None:
    """The screenshots of the slides whose devices cross into this one (a panorama's),
    by store position; None when none does."""
    scene = row[C.LAYOUT_SCENE]
    crossing = scene.get("strip_devices") if isinstance(scene, dict) else None
    if not crossing:
        return None
    wanted = {d.get("source") for d in crossing}
    same = frame[(frame[C.APP_ID] == row[C.APP_ID]) & frame[C.POSITION].isin(wanted)]
    return {int(p): ref for p, ref in zip(same[C.POSITION], same[C.IMAGE])}


def _refuse_another_set(frame: pd.DataFrame, out_dir: Path) -> None:
    """A set folder that holds a design of another store size or another language is not
    written over: two devices', two sizes' or two locales' sets of one app would silently
    replace each other's PNGs."""
    for app_id, rows in frame.groupby(C.APP_ID, sort=False):
        table = out_dir / str(app_id) / "design.json"
        if not table.is_file():
            continue
        try:
            written = [r for r in json.loads(table.read_text("utf-8")) if isinstance(r, dict)]
        except (OSError, ValueError, AttributeError, TypeError):
            continue  # not a table shotsmith wrote: nothing to compare with
        for column, option in (
            (
                C.LAYOUT_SIZE,
                f"or name the size (--size / sizes=), which writes to {out_dir}/<size>/{app_id}/",
            ),
            (C.LOCALE, f"e.g. {out_dir}/<locale>"),
        ):
            if column not in rows.columns:
                continue
            before = {str(r.get(column)) for r in written}
            now = set(rows[column].astype(str))
            if before and "None" not in before and before != now:
                raise InvalidOptionError(
                    f"{table.parent} already holds a {', '.join(sorted(before))} set of "
                    f"{app_id}; this one is {', '.join(sorted(now))} and would replace its "
                    f"screenshots. Design into another output folder ({option})."
                )
