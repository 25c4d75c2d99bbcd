"""A clean status bar drawn into the top inset of a screenshot.

Web pages captured in a browser have no status bar: capture lays the page out below a
band as high as the device's top inset (as iOS lays out a web view below the status bar)
and fills the band with the page's own top colour (:func:`top_color`), and design does
the same for a raw screenshot whose top would sit under the Dynamic Island.
:func:`draw_status_bar` draws the marketing-standard bar there: 9:41, full signal, Wi-Fi
and a full battery, in the iOS style (Dynamic Island / notch phones, home-button phones,
iPad) or the Android style. Glyphs are black on a light band and white on a dark one,
like the real thing.

Geometry is in points and scaled by the device scale, so the bar looks the same
on every device. Icons are drawn supersampled and downscaled for clean edges.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw

from .text import find_font, load_font

SUPERSAMPLE = 4


@dataclass(frozen=True)
class StatusBarStyle:
    """Where and how to draw: the device's geometry, in points."""

    platform: str  # "ios" | "android"
    scale: float  # pixels per point
    inset_pt: float  # height of the top inset the bar sits in
    island_pt: tuple[float, float, float] | None = None  # (width, height, top) if any
    home_button: bool = False  # classic 20 pt bar (iPhone 8 / SE)
    tablet: bool = False  # iPad layout
    time: str = "9:41"

    @property
    def kind(self) -> str:
        if self.platform == "android":
            return "android"
        if self.tablet:
            return "tablet"
        if self.home_button:
            return "classic"
        return "notch"


def inset_luminance(image: Image.Image, style: StatusBarStyle) -> float:
    """Mean relative brightness (0..1) of the top inset, where the bar goes."""
    h = max(1, min(image.height, round(style.inset_pt * style.scale)))
    strip = image.crop((0, 0, image.width, h)).convert("L").resize((64, 8), Image.Resampling.BOX)
    return float(np.asarray(strip, dtype=np.float32).mean() / 255.0)


def top_color(image: Image.Image, rows: int = 3) -> tuple[int, int, int]:
    """The colour a page starts with: the per-channel median of its top few rows.

    What fills the status-bar band above a page, so the band reads as the page's own
    header (a coloured app bar stays coloured, a white page stays white).
    """
    strip = np.asarray(image.convert("RGB").crop((0, 0, image.width, max(1, rows))))
    med = np.median(strip.reshape(-1, 3), axis=0)
    return (int(med[0]), int(med[1]), int(med[2]))


def glyph_color(background: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black glyphs on a light band, white on a dark one (as ``inset_luminance`` decides)."""
    lum = (0.299 * background[0] + 0.587 * background[1] + 0.114 * background[2]) / 255.0
    return (0, 0, 0) if lum > 0.55 else (255, 255, 255)


def draw_status_bar(
    image: Image.Image, style: StatusBarStyle, color: tuple[int, int, int] | None = None
) -> Image.Image:
    """Return a copy of ``image`` (RGB) with a status bar drawn into its top inset.

    ``color`` defaults to black on a light inset and white on a dark one.
    """
    out = image.convert("RGB") if image.mode != "RGB" else image.copy()
    paint_status_bar(out, style, color)
    return out


def paint_status_bar(
    image: Image.Image, style: StatusBarStyle, color: tuple[int, int, int] | None = None
) -> None:
    """Draw a status bar into ``image`` (RGB) in place; see :func:`draw_status_bar`."""
    if color is None:
        color = (0, 0, 0) if inset_luminance(image, style) > 0.55 else (255, 255, 255)
    {"notch": _ios_notch, "classic": _ios_classic, "tablet": _ios_tablet, "android": _android}[
        style.kind
    ](image, style, color)


# --- layouts ------------------------------------------------------------------


def _ios_notch(im: Image.Image, st: StatusBarStyle, color) -> None:
    s, w_pt = st.scale, im.width / st.scale
    if st.island_pt:
        cut_w, cut_h, cut_top = st.island_pt
        cy = cut_top + cut_h / 2
    else:  # notch phones: the notch is ~42% of the width; content sits mid-inset
        cut_w, cy = w_pt * 0.42, min(st.inset_pt, 54) / 2 + 0.5
    ear = (w_pt - cut_w) / 2
    left_cx, right_cx = ear * 0.47, w_pt - ear * 0.47
    _text(im, st.time, "Inter", 600, 17 * s, left_cx * s, cy * s, color, anchor="c")
    icons = [(_signal_ios, 18.0, 12.0), (_wifi_ios, 16.5, 12.0), (_battery_ios, 27.0, 13.0)]
    gap = 5.5
    total = sum(w for _, w, _ in icons) + gap * (len(icons) - 1)
    x = right_cx - total / 2
    for fn, w, h in icons:
        _icon(im, fn, x * s, (cy - h / 2) * s, w * s, h * s, color)
        x += w + gap


def _ios_classic(im: Image.Image, st: StatusBarStyle, color) -> None:
    s, w_pt = st.scale, im.width / st.scale
    cy = min(st.inset_pt, 20) / 2
    _text(im, st.time, "Inter", 600, 12 * s, w_pt / 2 * s, cy * s, color, anchor="c")
    x = 6.0
    for fn, w, h in [(_signal_ios, 15.0, 10.0), (_wifi_ios, 14.0, 10.0)]:
        _icon(im, fn, x * s, (cy - h / 2) * s, w * s, h * s, color)
        x += w + 4
    bw, bh = 24.0, 11.0
    _icon(im, _battery_ios, (w_pt - 6 - bw) * s, (cy - bh / 2) * s, bw * s, bh * s, color)
    _text(im, "100%", "Inter", 600, 12 * s, (w_pt - 6 - bw - 4) * s, cy * s, color, anchor="r")


def _ios_tablet(im: Image.Image, st: StatusBarStyle, color) -> None:
    s, w_pt = st.scale, im.width / st.scale
    cy = min(st.inset_pt, 24) / 2
    _text(im, f"{st.time}  Tue Jun 10", "Inter", 600, 13 * s, 20 * s, cy * s, color, anchor="l")
    x = w_pt - 20
    bw, bh = 25.0, 12.0
    x -= bw
    _icon(im, _battery_ios, x * s, (cy - bh / 2) * s, bw * s, bh * s, color)
    _text(im, "100%", "Inter", 600, 13 * s, (x - 4) * s, cy * s, color, anchor="r")
    x -= 4 + 38 + 16.0
    _icon(im, _wifi_ios, x * s, (cy - 6) * s, 16.0 * s, 12.0 * s, color)


def _android(im: Image.Image, st: StatusBarStyle, color) -> None:
    s, w_pt = st.scale, im.width / st.scale
    cy = min(st.inset_pt, 40) / 2
    _text(im, st.time, "Inter", 500, 14 * s, 24 * s, cy * s, color, anchor="l")
    x = w_pt - 24
    for fn, w, h in [
        (_battery_android, 8.0, 14.0),
        (_signal_android, 14.0, 14.0),
        (_wifi_android, 16.0, 13.0),
    ]:
        x -= w
        _icon(im, fn, x * s, (cy - h / 2) * s, w * s, h * s, color)
        x -= 5


# --- drawing helpers --------------------------------------------------------


def _text(
    im: Image.Image,
    text: str,
    family: str,
    weight: int,
    size_px: float,
    x: float,
    cy: float,
    color,
    anchor: str,
) -> None:
    font = load_font(find_font(family, weight), max(6, round(size_px)))
    draw = ImageDraw.Draw(im)
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    w = right - left
    if anchor == "c":
        x0 = x - w / 2
    elif anchor == "r":
        x0 = x - w
    else:
        x0 = x
    # centre the ink of the digits on cy
    y0 = cy - (top + bottom) / 2
    draw.text((round(x0 - left), round(y0)), text, font=font, fill=color)


def _icon(im: Image.Image, fn, x: float, y: float, w: float, h: float, color) -> None:
    """Draw one icon: ``fn(draw, W, H)`` paints a mask at SUPERSAMPLE x, then it is pasted."""
    x0, y0 = int(np.floor(x)), int(np.floor(y))
    pw, ph = int(np.ceil(x + w)) - x0 + 1, int(np.ceil(y + h)) - y0 + 1
    k = SUPERSAMPLE
    mask = Image.new("L", (pw * k, ph * k), 0)
    draw = ImageDraw.Draw(mask)
    ox, oy = (x - x0) * k, (y - y0) * k
    fn(draw, ox, oy, w * k, h * k)
    mask = mask.resize((pw, ph), Image.Resampling.LANCZOS)
    im.paste(Image.new("RGB", (pw, ph), color), (x0, y0), mask)


def _signal_ios(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
    bar_w = w * 0.18
    gap = (w - 4 * bar_w) / 3
    for i, frac in enumerate((0.36, 0.56, 0.78, 1.0)):
        bx = x + i * (bar_w + gap)
        d.rounded_rectangle(
            (bx, y + h * (1 - frac), bx + bar_w, y + h), radius=bar_w * 0.3, fill=255
        )


def _wifi_ios(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
    cx, by = x + w / 2, y + h * 1.02  # centre of the arcs, a hair below the box
    r = min(w / (2 * 0.7071), h * 1.02)
    for frac, fill in ((1.0, 255), (0.77, 0), (0.64, 255), (0.41, 0), (0.29, 255)):
        rr = r * frac
        d.pieslice((cx - rr, by - rr, cx + rr, by + rr), 225, 315, fill=fill)


def _battery_ios(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
    body_w = w * 0.9
    stroke = max(1.0, h * 0.085)
    d.rounded_rectangle((x, y, x + body_w, y + h), radius=h * 0.3, fill=100)
    d.rounded_rectangle(
        (x + stroke, y + stroke, x + body_w - stroke, y + h - stroke),
        radius=h * 0.3 - stroke,
        fill=0,
    )
    pad = stroke * 2
    d.rounded_rectangle(
        (x + pad, y + pad, x + body_w - pad, y + h - pad), radius=max(1.0, h * 0.3 - pad), fill=255
    )
    cap_h = h * 0.34
    d.rounded_rectangle(
        (x + body_w + w * 0.025, y + (h - cap_h) / 2, x + w, y + (h + cap_h) / 2),
        radius=w * 0.03,
        fill=110,
    )


def _signal_android(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
    d.polygon([(x, y + h), (x + w, y), (x + w, y + h)], fill=255)


def _wifi_android(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
    cx, by = x + w / 2, y + h
    r = min(w / (2 * 0.7071), h) * 1.0
    d.pieslice((cx - r, by - r, cx + r, by + r), 225, 315, fill=255)


def _battery_android(d: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float) -> None:
    cap_h = h * 0.1
    d.rectangle((x + w * 0.3, y, x + w * 0.7, y + cap_h + 1), fill=255)
    d.rounded_rectangle((x, y + cap_h, x + w, y + h), radius=w * 0.18, fill=255)
