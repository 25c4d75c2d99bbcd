"""A designed slide as an editable SVG: the same scene ``render`` draws, as SVG elements.

``design.json`` holds each slide's scene (``layout_scene``, see ``scene.py``); from it
:func:`scene_svg` writes

- the background as a ``<linearGradient>`` (and its glow as a ``<radialGradient>``),
- the device as vector shapes (shadow, metal band, bezel, island or camera hole),
- what the display shows as one embedded PNG (base64) clipped to the display's corners,
- every caption as live ``<text>`` (one ``<tspan>`` per line) in the named font, with an
  ``@font-face`` that points at the font file the PNG was drawn with,

so a browser, Inkscape or Figma opens it with the text editable. :func:`export_svg` writes
one SVG per slide of a design output.
"""

from __future__ import annotations

import base64
import functools
import io
import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from PIL import Image, ImageFont

from ..errors import InputFileError
from ..io import open_image
from ..scene import DeviceFrame, Scene, TextBlock, as_scene
from ..text import WEIGHT_NAMES, caption_origin, paragraph_rtl

# style words in a font's name -> CSS font-weight (the names find_font writes)
_WEIGHTS = {name.lower(): weight for weight, name in WEIGHT_NAMES.items()}
_WEIGHTS.update({"extra bold": 800, "semi bold": 600, "extra light": 200, "heavy": 900})
# families a browser or design tool falls back to for glyphs the named font lacks
FALLBACK_FAMILIES = ("Inter", "Noto Sans", "Noto Sans CJK JP", "DejaVu Sans", "sans-serif")
GLOW_STOPS = 12  # stops approximating render's Gaussian glow
GLOW_REACH = 2.5  # the glow gradient's radius, in render's glow radii


@dataclass(frozen=True)
class FontFace:
    family: str  # the font's own family name, as a design tool lists it
    weight: int  # CSS weight
    style: str  # "normal" | "italic"
    path: str  # the font file


@functools.lru_cache(maxsize=32)
def font_face(path: str) -> FontFace:
    """Family, weight and style of a font file, read from its name table."""
    try:
        family, style_name = ImageFont.truetype(path, 12).getname()
    except OSError as exc:
        raise InputFileError(f"export: cannot read the font {path} ({exc}).") from exc
    words = (style_name or "Regular").lower().replace("-", " ")
    italic = "italic" in words or "oblique" in words
    words = words.replace("italic", "").replace("oblique", "").strip()
    weight = _WEIGHTS.get(words, _WEIGHTS.get(words.replace(" ", ""), 400))
    return FontFace(family or Path(path).stem, weight, "italic" if italic else "normal", path)


def _png_data_uri(image: Image.Image) -> str:
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, format="PNG", optimize=False, compress_level=6)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))


def _background(scene: Scene) -> list[str]:
    bg = scene.background
    w, h = scene.width, scene.height
    defs, body = [], []
    if bg.kind == "solid" or len(bg.stops) == 1:
        body.append(f'<rect id="background" width="{w}" height="{h}" fill="{bg.stops[0]}"/>')
    else:
        last = len(bg.stops) - 1
        stops = "".join(
            f'<stop offset="{_num(i / last)}" stop-color="{c}"/>' for i, c in enumerate(bg.stops)
        )
        defs.append(
            f'<linearGradient id="bg-fill" x1="0" y1="0" x2="0" y2="1">{stops}</linearGradient>'
        )
        body.append(f'<rect id="background" width="{w}" height="{h}" fill="url(#bg-fill)"/>')
    if bg.glow:
        # render's glow: opacity 0.85 * exp(-1.6 d^2 / r^2), r = glow_radius * width
        radius = bg.glow_radius * w
        stops = "".join(
            f'<stop offset="{_num(t)}" stop-color="{bg.glow}" stop-opacity="'
            f'{0.85 * math.exp(-1.6 * (t * GLOW_REACH) ** 2):.4f}"/>'
            for t in (i / (GLOW_STOPS - 1) for i in range(GLOW_STOPS))
        )
        defs.append(
            f'<radialGradient id="bg-glow" gradientUnits="userSpaceOnUse" '
            f'cx="{_num(bg.glow_center[0] * w)}" cy="{_num(bg.glow_center[1] * h)}" '
            f'r="{_num(radius * GLOW_REACH)}">{stops}</radialGradient>'
        )
        body.append(f'<rect id="glow" width="{w}" height="{h}" fill="url(#bg-glow)"/>')
    for shape in bg.shapes:
        body.append(
            f'<circle class="shape" cx="{_num(shape["cx"])}" cy="{_num(shape["cy"])}" '
            f'r="{_num(shape["r"])}" fill="{shape["color"]}" '
            f'fill-opacity="{_num(float(shape.get("opacity", 1.0)))}"/>'
        )
    return ["<defs>" + "".join(defs) + "</defs>"] + body if defs else body


def _round_rect(x: float, y: float, w: float, h: float, r: float, **attrs: Any) -> str:
    """A rounded rectangle as a path (Inkscape and Figma keep it as one editable shape)."""
    r = max(0.0, min(r, w / 2, h / 2))
    k = r * 0.5523  # cubic Bézier handle length for a quarter circle
    right, bottom = x + w, y + h

    def pt(px: float, py: float) -> str:
        return f"{_num(px)},{_num(py)}"

    d = (
        f"M{pt(x + r, y)}H{_num(right - r)}"
        f"C{pt(right - r + k, y)} {pt(right, y + r - k)} {pt(right, y + r)}"
        f"V{_num(bottom - r)}"
        f"C{pt(right, bottom - r + k)} {pt(right - r + k, bottom)} {pt(right - r, bottom)}"
        f"H{_num(x + r)}"
        f"C{pt(x + r - k, bottom)} {pt(x, bottom - r + k)} {pt(x, bottom - r)}"
        f"V{_num(y + r)}"
        f"C{pt(x, y + r - k)} {pt(x + r - k, y)} {pt(x + r, y)}Z"
    )
    extra = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in attrs.items())
    return f'<path d="{d}"{extra}/>'


def _device(dev: DeviceFrame, screen: Image.Image | None, tag: str = "") -> list[str]:
    """A device as vector shapes and its display's pixels; ``tag`` prefixes every id (a
    panorama neighbour's device, ``strip-N-``, beside the slide's own)."""
    out = [f'<g id="{tag}device">']
    if dev.shadow:
        blur = max(2, int(dev.shadow.get("blur", 40)))
        out.append(
            f'<filter id="{tag}device-shadow" x="-50%" y="-50%" width="200%" height="200%">'
            f'<feGaussianBlur stdDeviation="{blur}"/></filter>'
        )
        out.append(
            _round_rect(
                dev.x,
                dev.y + int(dev.shadow.get("offset_y", 0)),
                dev.width,
                dev.height,
                dev.outer_radius,
                id=f"{tag}shadow",
                fill=dev.shadow.get("color", "#000000"),
                fill_opacity=_num(float(dev.shadow.get("opacity", 0.3))),
                filter=f"url(#{tag}device-shadow)",
            )
        )
    out.append(
        _round_rect(
            dev.x,
            dev.y,
            dev.width,
            dev.height,
            dev.outer_radius,
            id=f"{tag}band",
            fill=dev.band_color,
        )
    )
    b = dev.band
    out.append(
        _round_rect(
            dev.x + b,
            dev.y + b,
            dev.width - 2 * b,
            dev.height - 2 * b,
            dev.outer_radius - b,
            id=f"{tag}bezel",
            fill=dev.bezel_color,
        )
    )
    sx, sy, sw, sh = dev.screen_box
    if screen is not None:
        out.append(
            f'<clipPath id="{tag}display">'
            + _round_rect(sx, sy, sw, sh, dev.screen_radius)
            + "</clipPath>"
        )
        out.append(
            f'<image id="{tag}screenshot" x="{sx}" y="{sy}" width="{sw}" height="{sh}" '
            f'preserveAspectRatio="none" clip-path="url(#{tag}display)" '
            f'xlink:href="{_png_data_uri(screen)}"/>'
        )
    if dev.island:
        ix, iy, iw, ih = dev.island
        out.append(_round_rect(ix, iy, iw, ih, min(iw, ih) / 2, id=f"{tag}island", fill="#000000"))
    if dev.punch_hole:
        hx, hy, hd, _ = dev.punch_hole
        out.append(
            f'<circle id="{tag}camera" cx="{_num(hx + hd / 2)}" cy="{_num(hy + hd / 2)}" '
            f'r="{_num(hd / 2)}" fill="#000000"/>'
        )
    out.append("</g>")
    return out


def _font_faces(faces: Iterable[FontFace]) -> str:
    """``@font-face`` rules naming each font and pointing at its file (a tool that has the
    font installed uses its own copy: ``local()`` comes first)."""
    rules = [
        f'@font-face {{ font-family: "{face.family}"; font-weight: {face.weight}; '
        f"font-style: {face.style}; "
        f'src: local("{face.family}"), url("{Path(face.path).resolve().as_uri()}"); }}'
        for face in faces
    ]
    return "<style>" + escape("\n".join(rules)) + "</style>" if rules else ""


def _text(block: TextBlock, width: int) -> str:
    face = font_face(block.font)
    x, anchor = caption_origin(block.align, block.x, block.text, width)
    text_anchor = {"m": "middle", "r": "end"}.get(anchor[0], "start")
    families = ", ".join(
        f"'{f}'" if " " in f else f for f in dict.fromkeys((face.family, *FALLBACK_FAMILIES)) if f
    )
    spans = "".join(
        f'<tspan x="{x}" y="{block.baseline + i * block.line_height}">{escape(line)}</tspan>'
        for i, line in enumerate(block.lines)
    )
    direction = ' direction="rtl"' if paragraph_rtl(block.text) else ""
    return (
        f'<text id="{escape(block.role)}" font-family="{families}" '
        f'font-weight="{face.weight}" font-style="{face.style}" font-size="{block.size}" '
        f'fill="{block.color}" text-anchor="{text_anchor}"{direction} '
        f'xml:space="preserve">{spans}</text>'
    )


def scene_svg(
    scene: Scene | dict | str,
    screen: Image.Image | None = None,
    strip_screens: list[Image.Image | None] | None = None,
) -> str:
    """One slide as an SVG document at the scene's pixel size.

    ``screen`` is what the display shows, at the display's size (see
    :func:`shotsmith.stages.render.screen_pixels`); without it the display stays black.
    ``strip_screens`` are the displays of a panorama's neighbouring devices that cross
    this slide (``scene.strip_devices``, in order), each drawn under the slide's own
    device in a group ``strip-N-device`` (N: the slide it belongs to).
    """
    scene = as_scene(scene)
    screens = list(strip_screens or [])
    screens += [None] * (len(scene.strip_devices) - len(screens))
    neighbours = [
        part
        for other, shown in zip(scene.strip_devices, screens)
        for part in _device(other, shown, f"strip-{(other.source or 0) + 1}-")
    ]
    faces = dict.fromkeys(font_face(t.font) for t in scene.texts)
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'width="{scene.width}" height="{scene.height}" '
        f'viewBox="0 0 {scene.width} {scene.height}">',
        _font_faces(faces),
        *_background(scene),
        *neighbours,
        *_device(scene.device, screen),
        '<g id="captions">',
        *(_text(t, scene.width) for t in scene.texts),
        "</g>",
        "</svg>",
    ]
    return "\n".join(p for p in parts if p) + "\n"


def _screen_for(
    scene: Scene, table: Path, row: dict, dev: DeviceFrame | None = None
) -> Image.Image | None:
    """The display's pixels of ``dev`` (default: the slide's own device): from the raw
    screenshot when it is still where the scene says, else cut from the rendered PNG
    (the part of the display inside the canvas)."""
    from ..stages.render import screen_pixels

    dev = dev or scene.device
    if dev.screenshot:
        for candidate in (Path(dev.screenshot), table.parent / dev.screenshot):
            if candidate.is_file():
                return screen_pixels(dev, open_image(candidate))
    png = _png_of(table, row)
    if png is None:
        return None
    sx, sy, sw, sh = dev.screen_box
    with Image.open(png) as rendered:
        screen = Image.new("RGB", (sw, sh), (0, 0, 0))
        screen.paste(rendered.convert("RGB").crop((sx, sy, sx + sw, sy + sh)), (0, 0))
    return screen


def _png_of(table: Path, row: dict) -> Path | None:
    name = row.get("render_path")
    if not name:
        return None
    for candidate in (table.parent / Path(str(name)).name, Path(str(name))):
        if candidate.is_file():
            return candidate
    return None


def export_svg(
    design_out: str | Path, dest: str | Path | None = None, *, app_id: str | None = None
) -> list[Path]:
    """Write one SVG per designed slide; returns their paths.

    ``design_out`` is what ``shotsmith design`` wrote (a set's folder or the whole output).
    Each SVG goes beside its PNG with the same name (``NN_<screen>.svg``), or into
    ``dest/<app_id>/`` when ``dest`` is given.
    """
    from .fastlane import _rows

    design_out = Path(design_out)
    if not design_out.is_dir():
        raise InputFileError(f"export: {design_out} is not a folder.")
    written = []
    for table, row in _rows(design_out):
        if app_id is not None and str(row.get("app_id")) != app_id:
            continue
        scene_data = row.get("layout_scene")
        if not isinstance(scene_data, dict):
            raise InputFileError(
                f"export: {table} holds no layout_scene; design the set again with this "
                "version of shotsmith to export SVG."
            )
        scene = as_scene(scene_data)
        png = _png_of(table, row)
        stem = png.stem if png else f"{int(row.get('position', 0)) + 1:02d}_slide"
        folder = table.parent if dest is None else Path(dest) / str(row.get("app_id", "set"))
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / f"{stem}.svg"
        strip = [_screen_for(scene, table, row, other) for other in scene.strip_devices]
        target.write_text(scene_svg(scene, _screen_for(scene, table, row), strip), encoding="utf-8")
        written.append(target)
    if not written:
        what = f"no set {app_id!r}" if app_id is not None else "no designed slide"
        raise InputFileError(f"export: {what} in {design_out}.")
    return written
