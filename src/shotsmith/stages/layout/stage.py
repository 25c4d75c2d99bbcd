"""plan_layout: design a whole set from a template file into one scene per row.

Set-level decisions are made once per ``app_id``: one palette from the
screenshots' accent colour, one headline size fitted so the longest headline
wraps to at most two lines, one device size and position. Per slide only the
rhythm (tone, horizontal offset) and the caption lines change, and the device's
place when the caption names text that place would hide: the device is lifted
(or drawn smaller) for that slide so the text shows (``DeviceFrame.lift`` says why).
"""

from __future__ import annotations

import copy
import hashlib
import json
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from math import ceil
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ... import columns as C
from ...color import (
    DEFAULT_ACCENT,
    NEAR_BLACK,
    OFF_WHITE,
    from_hls,
    hls,
    mix,
    relative_luminance,
    to_hex,
    worst_contrast,
)
from ...devices import Device
from ...errors import CopyError, InputImageError, InvalidOptionError, TemplateError
from ...io import open_image
from ...scene import Background, DeviceFrame, Scene, TextBlock
from ...text import (
    caption_origin,
    fit_size,
    font_for,
    ink_box,
    length_hint,
    load_font,
    paragraph_rtl,
    script_of,
    wrap_balanced,
)
from ..render import background_region
from .panorama import lay_out_strip_devices
from .screenband import screen_band
from .sizes import FAMILY_LABEL, aspect_fits, output_size_for, screenshot_device
from .templates import load_template, oriented

log = logging.getLogger("shotsmith")


# --- palette ------------------------------------------------------------------
def _tone_background(tone: str, accent: str, strategy: str, shift: float) -> Background:
    """Background for a tone; ``shift`` > 0 pushes it away from the text colour."""
    h, _, s = hls(accent)
    s = min(max(s, 0.35), 0.85)
    if tone == "deep":
        s = min(s, 0.74)  # a darkened, fully saturated hue turns electric
        top = from_hls(h, 0.40 - shift, s)
        bottom = from_hls(h + 0.04, 0.26 - shift * 0.8, min(1.0, s + 0.05))
        glow = None if strategy == "accent-gradient" else to_hex(from_hls(h, 0.5, s))
        return Background("linear", [to_hex(top), to_hex(bottom)], glow=glow)
    if tone == "vivid":  # the accent itself, bright, behind dark text
        sv = max(s, 0.75)
        top = from_hls(h, min(0.80, 0.56 + shift), sv)
        bottom = from_hls(h - 0.015, min(0.76, 0.50 + shift), sv)
        glow = to_hex(from_hls(h, 0.70, sv)) if strategy == "spotlight" else None
        return Background("linear", [to_hex(top), to_hex(bottom)], glow=glow)
    if tone == "light":
        top = from_hls(h, min(0.985, 0.955 + shift * 0.5), min(s, 0.55))
        bottom = from_hls(h, min(0.97, 0.90 + shift * 0.5), min(s, 0.6))
        glow = to_hex(from_hls(h, 0.80, s)) if strategy == "spotlight" else None
        return Background("linear", [to_hex(top), to_hex(bottom)], glow=glow)
    # dark
    top = mix(NEAR_BLACK, accent, max(0.0, 0.06 - shift))
    bottom = mix(NEAR_BLACK, accent, max(0.0, 0.16 - shift))
    return Background(
        "linear",
        [to_hex(top), to_hex(bottom)],
        glow=to_hex(from_hls(h, 0.30 if strategy == "spotlight" else 0.24, s)),
    )


def _resolve_tone(tone: str, accent: str, dark_ui: bool, palette: dict[str, Any]) -> str:
    """A template's tone made concrete for this set's accent and UI.

    ``deep`` darkens the accent behind light text; on warm hues (orange, amber,
    yellow, lime) that turns muddy brown, so those keep the bright accent behind
    dark text instead (``vivid``). A dark-UI app may ask for a dark canvas.
    """
    if tone != "deep":
        return tone
    if dark_ui and palette.get("dark_ui") == "dark":
        return "dark"
    h, _, s = hls(accent)
    return "vivid" if s >= 0.35 and 0.02 <= h <= 0.19 else "deep"


def _text_colors(tone: str, accent: str) -> tuple[str, str]:
    """(headline, subtitle) colours for a tone, before the contrast check."""
    if tone in ("light", "vivid"):
        h, _, s = hls(accent)
        return to_hex(NEAR_BLACK), to_hex(
            from_hls(h, 0.16 if tone == "vivid" else 0.22, min(s, 0.45))
        )
    return to_hex(OFF_WHITE), to_hex(mix(OFF_WHITE, accent, 0.12))


# --- planning --------------------------------------------------------------------
@dataclass
class _Caption:
    """One slide's caption, wrapped and measured: baselines are relative to the block top."""

    headline_font: Any
    subtitle_font: Any
    headline_lines: list[str]
    subtitle_lines: list[str]
    headline_baseline: int
    subtitle_baseline: int
    height: int


@dataclass
class _TypeScale:
    """The set's one headline and subtitle size, their line heights and the gap between."""

    headline_size: int
    subtitle_size: int
    headline_leading: int
    subtitle_leading: int
    gap: int


@dataclass
class _SetLayout:
    """The decisions made once for a set: canvas, type, captions, device place, tones."""

    canvas: tuple[int, int]
    text_spec: dict[str, Any]
    device: Device
    type_scale: _TypeScale
    text_x: int  # the captions' anchor x
    text_top: int  # the template's top of the caption band
    gap_below_text: int  # px between a caption and the device
    captions: list[_Caption]
    geometry: _Geometry
    device_top: int
    screen_aspect: float
    shadow: dict[str, Any] | None
    accent: str
    tones: list[str]
    palettes: dict[str, tuple[Background, dict[str, tuple[str, float]]]]


def _plan_set(
    rows: pd.DataFrame, template: dict[str, Any], size: tuple[int, int], device: Device
) -> list[dict]:
    """One plan per row of a set (its scene, tone, headline size and worst contrast)."""
    layout = _lay_out_set(rows, template, size, device)
    blocks = [_place_caption(layout, caption, layout.device_top) for caption in layout.captions]
    layout.palettes = _tone_palettes(layout, blocks, template["palette"]["strategy"])
    plans = []
    for i, (_, row) in enumerate(rows.iterrows()):
        slide = _slide_place(layout, i, row, blocks[i])
        plans.append(_slide_plan(layout, i, row, slide, template))
    return plans


def _lay_out_set(
    rows: pd.DataFrame, template: dict[str, Any], size: tuple[int, int], device: Device
) -> _SetLayout:
    """The set-level decisions: type scale, measured captions, device geometry and place."""
    width, height = size
    text_spec, device_spec, palette_spec = (
        template["text"],
        template["device"],
        template["palette"],
    )
    margin = round(text_spec["margin_x"] * width)
    text_width = width - 2 * margin
    headlines = [str(h) for h in rows[C.COPY_HEADLINE]]
    subtitles = [str(s) for s in rows[C.COPY_SUBTITLE]]
    type_scale = _type_scale(headlines, subtitles, text_spec, width, text_width)
    captions = [
        _measure_caption(head, sub, text_spec, type_scale, text_width)
        for head, sub in zip(headlines, subtitles)
    ]
    text_top = round(text_spec["top"] * height)
    gap_below_text = round(device_spec["gap_below_text"] * height)
    tallest = max(caption.height for caption in captions)
    device_top = max(round(device_spec["min_top"] * height), text_top + tallest + gap_below_text)
    screen_aspect = _set_screen_aspect(rows, device)
    outer_width = _device_width(device_spec, device, size, device_top)
    geometry = _geometry(device, outer_width, screen_aspect, sideways=width > height)
    if not device_spec["bleed"]:
        bottom = height - round(device_spec.get("bottom_margin", 0.035) * height)
        device_top = min(device_top, bottom - geometry.outer_h)
    accent = _set_accent(rows, palette_spec)
    dark_ui = (
        bool(rows[C.FEATURES_DARK_UI].iloc[0]) if C.FEATURES_DARK_UI in rows.columns else False
    )
    rhythm = palette_spec["rhythm"]
    tones = [
        _resolve_tone(rhythm[i % len(rhythm)], accent, dark_ui, palette_spec)
        for i in range(len(captions))
    ]
    return _SetLayout(
        canvas=size,
        text_spec=text_spec,
        device=device,
        type_scale=type_scale,
        text_x=width // 2 if text_spec["align"] == "center" else margin,
        text_top=text_top,
        gap_below_text=gap_below_text,
        captions=captions,
        geometry=geometry,
        device_top=device_top,
        screen_aspect=screen_aspect,
        shadow=_shadow_px(device_spec.get("shadow"), width),
        accent=accent,
        tones=tones,
        palettes={},
    )


def _type_scale(
    headlines: list[str],
    subtitles: list[str],
    text_spec: dict[str, Any],
    width: int,
    text_width: int,
) -> _TypeScale:
    """:func:`_fit_type_scale`, remembered by everything it is fitted from."""
    spec = json.dumps(text_spec, sort_keys=True, default=str)
    key = (tuple(headlines), tuple(subtitles), spec, width, text_width)
    return _remembered(
        _TYPE_SCALES,
        key,
        lambda: _fit_type_scale(headlines, subtitles, text_spec, width, text_width),
    )


def _fit_type_scale(
    headlines: list[str],
    subtitles: list[str],
    text_spec: dict[str, Any],
    width: int,
    text_width: int,
) -> _TypeScale:
    """One headline size for the set, the largest at which every headline fits its lines
    (below the template's range down to a floor still legible), and one subtitle size."""
    smallest, largest = (round(v * width) for v in text_spec["headline_size"])

    def fit_headlines(largest: int, smallest: int) -> int | None:
        return _fit_role(headlines, text_spec, "headline", text_width, largest, smallest)

    headline_size = fit_headlines(largest, smallest)
    if headline_size is None:
        headline_size = fit_headlines(smallest, round(0.045 * width))
    if headline_size is None:
        longest = max(headlines, key=len)
        raise CopyError(
            f"plan_layout: headline {longest!r} does not fit in "
            f"{text_spec['headline_max_lines']} lines even at the smallest size; "
            f"shorten it ({length_hint(longest, 'headline')})."
        )
    subtitle_target = round(text_spec["subtitle_size"] * width)
    subtitle_size = _fit_role(
        subtitles, text_spec, "subtitle", text_width, subtitle_target, round(subtitle_target * 0.75)
    )
    if subtitle_size is None:
        longest = max(subtitles, key=len)
        raise CopyError(
            f"plan_layout: subtitle {longest!r} is too long for "
            f"{text_spec['subtitle_max_lines']} lines; "
            f"keep it {length_hint(longest, 'subtitle')}."
        )
    return _TypeScale(
        headline_size,
        subtitle_size,
        round(headline_size * text_spec["line_height"]),
        round(subtitle_size * text_spec["subtitle_line_height"]),
        round(text_spec["gap"] * headline_size),
    )


def _caption_font(text: str, text_spec: dict[str, Any], role: str) -> str:
    """The font file for a caption line: the template's own file (``text.<role>_font``)
    for Latin text, else the role's family, or the Noto family the text's script needs."""
    custom = text_spec.get(f"{role}_font")
    if custom and script_of(text) == "LATIN":
        return str(custom)
    return font_for(text, text_spec[f"{role}_family"], text_spec[f"{role}_weight"])


def _fit_role(
    texts: list[str],
    text_spec: dict[str, Any],
    role: str,
    text_width: int,
    largest: int,
    smallest: int,
) -> int | None:
    """Largest size in [smallest, largest] at which every text of ``role`` wraps into the
    template's lines, in the fonts :func:`_caption_font` picks."""
    max_lines = text_spec[f"{role}_max_lines"]
    if not text_spec.get(f"{role}_font"):
        family, weight = text_spec[f"{role}_family"], text_spec[f"{role}_weight"]
        return fit_size(texts, family, weight, text_width, max_lines, largest, smallest)
    low, high, found = smallest, largest, None
    while low <= high:  # wrapping is monotone in size: binary search
        mid = (low + high) // 2
        fonts = [load_font(_caption_font(t, text_spec, role), mid) for t in texts]
        if all(
            wrap_balanced(t, f, text_width, max_lines) is not None for t, f in zip(texts, fonts)
        ):
            found, low = mid, mid + 1
        else:
            high = mid - 1
    return found


def _measure_caption(
    headline: str,
    subtitle: str,
    text_spec: dict[str, Any],
    type_scale: _TypeScale,
    text_width: int,
) -> _Caption:
    """A caption wrapped at the set's sizes and measured by its fonts' metrics."""
    headline_font = load_font(
        _caption_font(headline, text_spec, "headline"), type_scale.headline_size
    )
    subtitle_font = load_font(
        _caption_font(subtitle, text_spec, "subtitle"), type_scale.subtitle_size
    )
    headline_lines = wrap_balanced(
        headline, headline_font, text_width, text_spec["headline_max_lines"]
    ) or [headline]
    subtitle_lines = (
        (
            wrap_balanced(subtitle, subtitle_font, text_width, text_spec["subtitle_max_lines"])
            or [subtitle]
        )
        if subtitle
        else []
    )
    head_ascent, head_descent = headline_font.getmetrics()
    sub_ascent, sub_descent = subtitle_font.getmetrics()
    headline_baseline = head_ascent
    headline_bottom = (
        headline_baseline + (len(headline_lines) - 1) * type_scale.headline_leading + head_descent
    )
    subtitle_baseline = headline_bottom + type_scale.gap + sub_ascent
    height = (
        subtitle_baseline + (len(subtitle_lines) - 1) * type_scale.subtitle_leading + sub_descent
        if subtitle_lines
        else headline_bottom
    )
    return _Caption(
        headline_font,
        subtitle_font,
        headline_lines,
        subtitle_lines,
        headline_baseline,
        subtitle_baseline,
        height,
    )


def _device_width(
    device_spec: dict[str, Any], device: Device, size: tuple[int, int], device_top: int
) -> int:
    """The set's outer device width: the template's share of the canvas, narrower when the
    whole device must fit above the bottom margin."""
    width, height = size
    outer_width = round(device_spec["width"] * width)
    if device_spec["bleed"]:
        return outer_width
    points_w, points_h = device.points
    if width > height:  # drawn sideways
        points_w, points_h = points_h, points_w
    rim_pt = device.bezel_pt + device.band_pt
    room = height - round(device_spec.get("bottom_margin", 0.035) * height) - device_top
    return min(outer_width, int(room / ((points_h + 2 * rim_pt) / (points_w + 2 * rim_pt))))


def _shadow_px(shadow: dict[str, Any] | None, width: int) -> dict[str, Any] | None:
    """The template's device shadow (shares of the width) in canvas px."""
    if not shadow:
        return None
    return {
        "blur": round(shadow["blur"] * width),
        "offset_y": round(shadow["offset_y"] * width),
        "opacity": float(shadow["opacity"]),
    }


def _place_caption(layout: _SetLayout, caption: _Caption, device_top: int) -> list[TextBlock]:
    """A caption block centred in the band between the template's top and the device."""
    band_bottom = device_top - layout.gap_below_text
    block_top = layout.text_top + max(0, (band_bottom - layout.text_top - caption.height) // 2)
    return _caption_blocks(
        caption,
        layout.text_x,
        block_top,
        layout.type_scale,
        layout.text_spec["align"],
        layout.canvas[0],
    )


def _tone_palettes(
    layout: _SetLayout, blocks: list[list[TextBlock]], strategy: str
) -> dict[str, tuple[Background, dict[str, tuple[str, float]]]]:
    """One palette per tone for the whole set, checked against every caption of that tone."""
    min_contrast = float(layout.text_spec["min_contrast"])
    return {
        tone: _palette(
            tone,
            layout.accent,
            strategy,
            min_contrast,
            [slide for slide, slide_tone in zip(blocks, layout.tones) if slide_tone == tone],
            layout.canvas,
        )
        for tone in dict.fromkeys(layout.tones)
    }


def _legible(layout: _SetLayout, blocks: list[TextBlock], tone: str) -> bool:
    """Captions that moved still clear the contrast on the pixels now behind them, in the
    colours chosen for the set (so no other slide changes)."""
    background, colors = layout.palettes[tone]
    min_contrast = float(layout.text_spec["min_contrast"])
    return all(
        _contrast_on(background, colors[b.role][0], _ringed(b.box, layout.canvas), layout.canvas)
        >= min_contrast
        for b in blocks
    )


def _slide_place(
    layout: _SetLayout, i: int, row: pd.Series, blocks: list[TextBlock]
) -> dict[str, Any]:
    """A slide's device place and captions: the set's, unless the caption names something
    that place would hide.

    The device goes no higher than the template's gap below the caption as it stands;
    when that leaves too little room, the caption may move up to the template's top
    (centred again in the band above the device) if the set's colours still hold there.
    """
    geometry, device, caption = layout.geometry, layout.device, layout.captions[i]
    fit = _fit(row, geometry.screen_w, geometry.screen_h, device)
    band_spec = (  # a landscape screen has no status bar: no band either
        _screen_band(row[C.IMAGE], device, geometry.screen_w, geometry.screen_h)
        if fit == "cover" and not geometry.sideways
        else None
    )
    slide = dict(
        geom=geometry, y=layout.device_top, band=band_spec, fit=fit, blocks=blocks, lift=None
    )
    args = (
        row,
        device,
        layout.screen_aspect,
        geometry,
        layout.device_top,
        band_spec,
        fit,
        layout.canvas,
    )
    kept_top = blocks[0].baseline - caption.headline_baseline
    lifted = _lift(*args, highest=kept_top + caption.height + layout.gap_below_text)
    if lifted is not None and lifted["lift"]["scale"] < 1.0:
        higher = _lift(*args, highest=layout.text_top + caption.height + layout.gap_below_text)
        moved = _place_caption(layout, caption, higher["y"]) if higher is not None else []
        if higher is not None and _legible(layout, moved, layout.tones[i]):
            lifted, slide["blocks"] = higher, moved
    if lifted is not None:
        slide.update(lifted)
        log.info("%s: screenshot %d: %s", row[C.APP_ID], i + 1, lifted["lift"]["why"])
    return slide


def _slide_plan(
    layout: _SetLayout, i: int, row: pd.Series, slide: dict[str, Any], template: dict[str, Any]
) -> dict[str, Any]:
    """A slide's scene: the device frame at its place, the captions in the tone's colours."""
    width, height = layout.canvas
    device = layout.device
    offsets = template["device"]["offsets_x"]
    tone = layout.tones[i]
    background, colors = layout.palettes[tone]
    geometry: _Geometry = slide["geom"]
    device_top = slide["y"]
    device_x = round((width - geometry.outer_w) / 2 + offsets[i % len(offsets)] * width)
    inset = geometry.band + geometry.bezel
    screen_x, screen_y = device_x + inset, device_top + inset
    frame = DeviceFrame(
        model=device.id,
        x=device_x,
        y=device_top,
        width=geometry.outer_w,
        height=geometry.outer_h,
        outer_radius=geometry.screen_r + inset,
        band=geometry.band,
        bezel=geometry.bezel,
        screen_radius=geometry.screen_r,
        band_color="#3b3b41" if tone != "dark" else "#55555c",
        island=_island(device, screen_x, screen_y, geometry),
        punch_hole=_hole(device, screen_x, screen_y, geometry),
        shadow=layout.shadow,
        screenshot=row[C.IMAGE] if isinstance(row[C.IMAGE], str) else None,
        screen_band=slide["band"],
        fit=slide["fit"],
        lift=slide["lift"],
        rotation=90 if geometry.sideways else 0,
    )
    texts = []
    for block in slide["blocks"]:
        color, _ = colors[block.role]
        block.color = color
        block.contrast = round(_contrast_on(background, color, block.box, layout.canvas), 3)
        texts.append(block)
    worst = min(b.contrast for b in texts)
    scene = Scene(
        width,
        height,
        background,
        texts,
        frame,
        meta={
            "app_id": str(row[C.APP_ID]),
            "position": int(row[C.POSITION]),
            "template": template["name"],
            "tone": tone,
            "offset_x": offsets[i % len(offsets)],
            "device": device.id,
        },
    )
    return dict(scene=scene, tone=tone, h_size=layout.type_scale.headline_size, contrast=worst)


@dataclass(frozen=True)
class _Geometry:
    """A device drawn ``outer_w`` px wide: its rims, display and corner radius in px."""

    outer_w: int
    outer_h: int
    band: int
    bezel: int
    screen_w: int
    screen_h: int
    s: float  # px per point on the display
    screen_r: int
    sideways: bool = False  # drawn a quarter turn (a landscape set): island at the left


def _geometry(
    device: Device, outer_w: int, screen_aspect: float, sideways: bool = False
) -> _Geometry:
    """The device drawn ``outer_w`` px wide; ``sideways`` turns it a quarter (landscape):
    its long side runs across and ``screen_aspect`` (long / short) divides instead."""
    pw, ph = device.points
    across = ph if sideways else pw
    k = outer_w / (across + 2 * (device.bezel_pt + device.band_pt))  # canvas px per point
    band = max(2, round(device.band_pt * k))
    bezel = max(3, round(device.bezel_pt * k))
    screen_w = outer_w - 2 * (band + bezel)
    if sideways:
        screen_h = round(screen_w / screen_aspect)
        s = screen_h / pw
    else:
        screen_h = round(screen_w * screen_aspect)
        s = screen_w / pw
    return _Geometry(
        outer_w,
        screen_h + 2 * (band + bezel),
        band,
        bezel,
        screen_w,
        screen_h,
        s,
        round(device.corner_radius_pt * s),
        sideways,
    )


# --- what the caption names stays in view -------------------------------------------------------
#: Room kept below the named text, as a share of the display's height.
LIFT_MARGIN = 0.02
#: The device is never drawn smaller than this share of the set's size to show named text.
MIN_LIFT_SCALE = 0.6


def _spaced(ch: str) -> bool:
    """A letter or digit of a script that separates words by spaces (not CJK)."""
    return ch.isalnum() and ord(ch) < 0x2E80


def _contains(hay: str, needle: str) -> bool:
    """``needle`` in ``hay`` as whole words (``"to"`` is not in ``"Stay on top"``)."""
    start = hay.find(needle)
    while start >= 0:
        end = start + len(needle)
        before = start == 0 or not (_spaced(hay[start - 1]) and _spaced(needle[0]))
        after = end == len(hay) or not (_spaced(hay[end]) and _spaced(needle[-1]))
        if before and after:
            return True
        start = hay.find(needle, start + 1)
    return False


def _names(name: str, text: str) -> int:
    """How evidence string ``name`` (a caption's) names the screen text ``text``: 2 when
    the text holds the name ("Budget" in "To Budget 3,945.00"), 1 when the text is most of
    the name (more than half: "Everyday Checking" for "Everyday Checking account", but not
    "Account" for "Select account" nor "Add" for "Add transaction"), else 0.

    Case-insensitive, as whole words.
    """
    a, b = " ".join(name.casefold().split()), " ".join(text.casefold().split())
    if not a or not b:
        return 0
    if _contains(b, a):
        return 2
    return 1 if 2 * len(b) > len(a) and _contains(a, b) else 0


def _share(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number)):
        return None
    v = float(value)
    return v if np.isfinite(v) else None


def _named_bottom(row: pd.Series) -> tuple[str, float] | None:
    """Where the lowest thing the captions name ends on the screenshot (share of its height).

    Every string a caption line was built from (``copy_evidence``) is looked up in the
    screen's placed evidence (``features_evidence`` items with ``y``/``h``), texts that hold
    it first, else texts that are most of it (:func:`_names`); a thing written in several
    places (a heading and a tab label) is shown when its highest place is, so each string
    counts by its highest match, and the lowest string counts. ``None`` when nothing named
    is placed.
    """
    copy_evidence = row.get(C.COPY_EVIDENCE)
    if not isinstance(copy_evidence, dict):
        return None
    placed = []
    for item in C.list_cell(row.get(C.FEATURES_EVIDENCE)):
        if not isinstance(item, dict) or not isinstance(item.get("text"), str):
            continue
        y, h = _share(item.get("y")), _share(item.get("h"))
        if y is not None and h is not None:
            placed.append((item["text"], min(1.0, max(0.0, y + h))))
    lowest: tuple[str, float] | None = None
    for line in ("headline", "subtitle"):
        for name in C.list_cell(copy_evidence.get(line)):
            if not isinstance(name, str):
                continue
            ranked = [(_names(name, text), bottom) for text, bottom in placed]
            best = max((rank for rank, _ in ranked), default=0)
            if not best:
                continue
            top = min(bottom for rank, bottom in ranked if rank == best)
            if lowest is None or top > lowest[1]:
                lowest = (name, top)
    return lowest


def _screen_offset(
    share: float, g: _Geometry, band: dict | None, fit: str, shot: tuple[int, int]
) -> float:
    """Px below the display's top edge where row ``share`` of the screenshot is drawn
    (as render draws it: below the status-bar band, or letterboxed)."""
    src_w, src_h = shot
    sw, sh = g.screen_w, g.screen_h
    if fit == "contain":
        if src_h * sw > sh * src_w:  # bars left and right
            width, height, pad = round(src_h * sw / sh), src_h, 0
        else:  # bars above and below
            width, height = src_w, round(src_w * sh / sw)
            pad = (height - src_h) // 2
        return (pad + share * src_h) * max(sw / width, sh / height)
    band_h = int(band["height"]) if band else 0
    return band_h + share * src_h * max(sw / src_w, sh / src_h)


def _lift(
    row: pd.Series,
    device: Device,
    screen_aspect: float,
    geom: _Geometry,
    dev_y: int,
    band: dict | None,
    fit: str,
    size: tuple[int, int],
    highest: int,
) -> dict | None:
    """A slide's own device place when its caption names text the set's place would hide.

    The device moves up just enough that the named text shows with a margin
    (``LIFT_MARGIN`` of the display) above the slide's bottom edge, never higher than
    ``highest`` (the template's gap below the caption); when that does not leave at least
    half the margin it is drawn smaller, keeping its aspect, down to ``MIN_LIFT_SCALE``.
    Returns the changes to the slide (``geom``, ``y``, ``band``, ``lift``), or ``None`` when
    nothing named is hidden.
    """
    named = _named_bottom(row)
    if named is None:
        return None
    text, bottom = named
    W, H = size
    shot = (
        _shot_size(row)
        if C.IMAGE_WIDTH in row.index and C.IMAGE_HEIGHT in row.index
        else open_image(row[C.IMAGE]).size
    )

    def shown_to(g: _Geometry, b: dict | None, margin: float = LIFT_MARGIN) -> int | None:
        """Px below the device's top edge the display must show down to; None when the
        text lies past the display's own bottom edge (cropped by the display)."""
        offset = _screen_offset(bottom, g, b, fit, shot)
        if offset > g.screen_h + 0.5:
            return None
        return g.band + g.bezel + min(g.screen_h, ceil(offset + margin * g.screen_h))

    where = f"{text!r} (its bottom at {bottom:.0%} of the screenshot)"
    reach = shown_to(geom, band)
    if reach is None:
        return {
            "lift": {
                "px": 0,
                "scale": 1.0,
                "named": text,
                "bottom": round(bottom, 4),
                "why": f"{where} is cropped by the display itself, below its status-bar band; "
                "moving the device cannot show it",
            }
        }
    need = dev_y + reach - H
    if need <= 0:
        return None
    y, g, b = dev_y - need, geom, band
    if y < highest:
        y = min(dev_y, highest)
    if y + (shown_to(geom, band, LIFT_MARGIN / 2) or 0) > H:
        # lifting alone would reach the caption before the text shows with half its margin:
        # draw the device smaller
        g, b = _shrunk(row, device, screen_aspect, geom, band, H - y, reach, shown_to)
    px = dev_y - y
    scale = round(g.outer_w / geom.outer_w, 4)
    moves = [f"lifted {px} px"] if px else []
    if g is not geom:
        moves.append(f"drawn at {scale:.1%} of the set's size")
    why = f"device {' and '.join(moves)} so that {where} shows above the slide's bottom edge"
    return {
        "geom": g,
        "y": y,
        "band": b,
        "lift": {"px": px, "scale": scale, "named": text, "bottom": round(bottom, 4), "why": why},
    }


def _shrunk(
    row: pd.Series,
    device: Device,
    screen_aspect: float,
    geom: _Geometry,
    band: dict | None,
    room: int,
    reach: int,
    shown_to: Callable[[_Geometry, dict | None], int | None],
) -> tuple[_Geometry, dict | None]:
    """The largest device, down to ``MIN_LIFT_SCALE`` of the set's, whose display shows the
    named text within ``room`` px below its top edge (``shown_to``)."""
    floor = max(1, round(geom.outer_w * MIN_LIFT_SCALE))
    width = min(geom.outer_w - 1, int(geom.outer_w * room / reach) + 1)
    while True:
        g = _geometry(device, max(width, floor), screen_aspect, geom.sideways)
        b = _screen_band(row[C.IMAGE], device, g.screen_w, g.screen_h) if band else None
        reach_g = shown_to(g, b)
        if width <= floor or (reach_g is not None and reach_g <= room):
            return g, b
        width -= 1


def _shot_size(row: pd.Series) -> tuple[int, int]:
    return int(row[C.IMAGE_WIDTH]), int(row[C.IMAGE_HEIGHT])


def _shot_sizes(rows: pd.DataFrame) -> list[tuple[int, int]]:
    """Every row's screenshot size, read from the columns (no row objects built)."""
    return [(int(w), int(h)) for w, h in zip(rows[C.IMAGE_WIDTH], rows[C.IMAGE_HEIGHT])]


def _set_screen_aspect(rows: pd.DataFrame, device: Device) -> float:
    """The aspect of the display drawn for a set: the frame's own, or the screenshots'
    when they are within a few per cent of it (a Pixel frame drawn for a 1080x2400
    Android phone), so no screenshot is cropped to fit a slightly different screen."""
    if C.IMAGE_WIDTH not in rows.columns or C.IMAGE_HEIGHT not in rows.columns:
        return device.aspect
    aspects = [max(w, h) / min(w, h) for w, h in _shot_sizes(rows) if w and h]
    if not aspects:
        return device.aspect
    common = max(set(aspects), key=aspects.count)
    return common if aspect_fits(common, device.aspect) else device.aspect


def _fit(row: pd.Series, screen_w: int, screen_h: int, device: Device) -> str:
    """``"cover"`` when the screenshot has the display's aspect (to the pixel), else
    ``"contain"``: shown whole, letterboxed, with a warning; never cropped."""
    if C.IMAGE_WIDTH not in row.index:
        return "cover"
    width, height = _shot_size(row)
    if abs(height * screen_w / width - screen_h) <= 1.0:
        return "cover"
    bars = "above and below" if height / width < screen_h / screen_w else "left and right"
    log.warning(
        "%s: screenshot %d (%s, %dx%d, %.2f:1) does not have the aspect of the %s screen "
        "(%.2f:1); it is shown whole, letterboxed with bars %s, not cropped. Design "
        "screenshots of one device per set, or name the device they come from "
        '(devices= / the manifest\'s "device").',
        row[C.APP_ID],
        int(row[C.POSITION]) + 1,
        row.get(C.SCREEN, "screen"),
        width,
        height,
        height / width,
        device.name,
        screen_h / screen_w,
        bars,
    )
    return "contain"


def _set_accent(rows: pd.DataFrame, palette_spec: dict[str, Any]) -> str:
    """The set's accent: the template's brand colour (``palette.accent``), else the
    screenshots' own accent colour."""
    if palette_spec.get("accent"):
        return str(palette_spec["accent"])
    if C.FEATURES_ACCENT in rows.columns:
        value = rows[C.FEATURES_ACCENT].iloc[0]
        if isinstance(value, str) and value.startswith("#"):
            return value
    return DEFAULT_ACCENT


def _island(device: Device, sx: int, sy: int, g: _Geometry) -> list[int] | None:
    """The Dynamic Island's box on the canvas: centred at the top of the display, or at
    its left edge on a device drawn sideways."""
    if not device.island_pt:
        return None
    w, h, t = device.island_pt
    iw, ih = round(w * g.s), round(h * g.s)
    if g.sideways:
        return [sx + round(t * g.s), sy + (g.screen_h - iw) // 2, ih, iw]
    return [sx + (g.screen_w - iw) // 2, sy + round(t * g.s), iw, ih]


def _hole(device: Device, sx: int, sy: int, g: _Geometry) -> list[int] | None:
    """A centred camera hole's box on the canvas (at the left edge when sideways)."""
    if not device.punch_hole_pt:
        return None
    d, t = device.punch_hole_pt
    dd = round(d * g.s)
    if g.sideways:
        return [sx + round(t * g.s), sy + (g.screen_h - dd) // 2, dd, dd]
    return [sx + (g.screen_w - dd) // 2, sy + round(t * g.s), dd, dd]


def _caption_blocks(
    caption: _Caption,
    x: int,
    block_top: int,
    type_scale: _TypeScale,
    align: str,
    width: int,
) -> list[TextBlock]:
    """Headline and subtitle blocks placed at ``block_top``, boxes measured by their ink
    where render draws it (``caption_origin``: right-to-left text in a left-aligned
    template from the mirrored margin), so the contrast is checked on the pixels behind it."""
    blocks = []
    for role, lines, font, base, lh, size_px in (
        (
            "headline",
            caption.headline_lines,
            caption.headline_font,
            caption.headline_baseline,
            type_scale.headline_leading,
            type_scale.headline_size,
        ),
        (
            "subtitle",
            caption.subtitle_lines,
            caption.subtitle_font,
            caption.subtitle_baseline,
            type_scale.subtitle_leading,
            type_scale.subtitle_size,
        ),
    ):
        if not lines:
            continue
        baseline = block_top + base
        ink_x, ink_anchor = caption_origin(align, x, " ".join(lines), width)
        rtl = paragraph_rtl(" ".join(lines))  # every line of a wrapped caption reads one way
        boxes = [
            ink_box(line, font, ink_x, baseline + j * lh, ink_anchor, rtl=rtl)
            for j, line in enumerate(lines)
        ]
        x0, y0 = int(min(b[0] for b in boxes)), int(min(b[1] for b in boxes))
        x1 = int(np.ceil(max(b[2] for b in boxes)))
        y1 = int(np.ceil(max(b[3] for b in boxes)))
        blocks.append(
            TextBlock(
                role,
                " ".join(lines),
                list(lines),
                font.path,
                size_px,
                lh,
                "#000000",
                align,
                x,
                baseline,
                [x0, y0, x1 - x0, y1 - y0],
            )
        )
    return blocks


#: Pixels around a caption's ink box that its contrast is checked on as well.
RING = 8


def _ringed(box: list[int], size) -> list[int]:
    """A caption box with the pixels just around its ink (``RING``), inside the canvas."""
    x0, y0 = max(0, box[0] - RING), max(0, box[1] - RING)
    x1, y1 = min(size[0], box[0] + box[2] + RING), min(size[1], box[1] + box[3] + RING)
    return [x0, y0, x1 - x0, y1 - y0]


def _contrast_on(background: Background, color: str, box: list[int], size) -> float:
    """The worst contrast of ``color`` on the background's pixels under ``box``."""
    spec = json.dumps(background.__dict__, sort_keys=True, default=list)
    key = (spec, color, *box, *size)
    return _remembered(_CONTRASTS, key, lambda: _worst_contrast(background, spec, color, box, size))


def _worst_contrast(
    background: Background, spec: str, color: str, box: list[int], size: tuple[int, int]
) -> float:
    """:func:`worst_contrast` on the pixels under ``box``; on a background whose rows are each
    one colour (a plain gradient) that an earlier plan drew too, on the colours of the box's
    rows: the same colours, so the same two extremes decide."""
    rows = _row_colors(background, spec, size)
    x, y, w, h = box
    x0, y0, x1, y1 = max(0, x), max(0, y), min(size[0], x + w), min(size[1], y + h)
    if rows is None or x1 <= x0 or y1 <= y0:
        return worst_contrast(color, background_region(background, *size, box))
    return worst_contrast(color, rows[y0:y1])


def _row_colors(background: Background, spec: str, size: tuple[int, int]) -> np.ndarray | None:
    """The colour of each row, (height, 1, 3), of a background drawn by an earlier plan too
    (the tuner re-planning a set) whose every row is one colour; else None. A background
    first drawn in this plan is not looked at whole (a batch plans each set once: measuring
    only the caption boxes is cheaper there)."""
    key = (spec, *size)
    first = _remembered(_FIRST_PLAN, key, lambda: _plans[0])
    if first == _plans[0]:
        return None

    def uniform_rows() -> np.ndarray | None:
        pixels = background_region(background, *size, [0, 0, *size])
        column = pixels[:, :1]
        return column.copy() if (pixels == column).all() else None

    return _remembered(_ROWS, key, uniform_rows)


# --- what a re-plan asks again ---------------------------------------------------------------
# The tuner plans the same set again at every slider change, and most of what a plan measures
# does not depend on the value that changed: the type scale when the device moves, the
# contrast behind a caption box that did not move, a screenshot's status-bar band at an
# unchanged display size (and its decoded top rows at any size: ``screenband``), a caption
# line's ink box (``text``), a background's row colours. Each is remembered by everything it
# is computed from (a screenshot by its content), so a re-plan is exactly the plan it would
# have been, only sooner (``tests/stages/layout/test_layout_replan.py``).

_CONTRASTS: dict[tuple, float] = {}
_BANDS: dict[tuple, dict[str, Any] | None] = {}
_TYPE_SCALES: dict[tuple, _TypeScale] = {}
_FIRST_PLAN: dict[tuple, int] = {}  # a background -> the plan that first drew it
_ROWS: dict[tuple, np.ndarray | None] = {}  # a background -> its rows' colours
_plans = [0]  # plan_layout calls so far in this process
REMEMBERED = 4096  # entries per table; the oldest goes first
_UNKNOWN = object()


def forget_replans() -> None:
    """Drop everything kept for re-plans (the next plan measures all again)."""
    for table in (_CONTRASTS, _BANDS, _TYPE_SCALES, _FIRST_PLAN, _ROWS):
        table.clear()


def _remembered(table: dict[tuple, Any], key: tuple, compute: Callable[[], Any]) -> Any:
    value = table.get(key, _UNKNOWN)
    if value is not _UNKNOWN:
        return value
    value = compute()
    if len(table) >= REMEMBERED:
        table.pop(next(iter(table)), None)
    table[key] = value
    return value


def _screen_band(ref: Any, device: Device, screen_w: int, screen_h: int) -> dict[str, Any] | None:
    """:func:`screen_band`, remembered by the screenshot's content, the device and the size
    (each caller gets its own copy of the band)."""
    key = (_content_key(ref), device, screen_w, screen_h)
    if key[0] is None:
        return screen_band(ref, device, screen_w, screen_h)
    band = _remembered(_BANDS, key, lambda: screen_band(ref, device, screen_w, screen_h))
    return copy.deepcopy(band)


def _content_key(ref: Any) -> tuple | None:
    """What identifies a screenshot's content: its bytes' digest, or a file's path, size and
    modification time; None for anything else (then nothing is remembered)."""
    if isinstance(ref, (bytes, bytearray, memoryview)):
        return ("bytes", hashlib.blake2b(ref, digest_size=16).digest())
    if isinstance(ref, (str, Path)):
        try:
            stat = os.stat(ref)
        except OSError:
            return None
        return ("file", os.path.abspath(ref), stat.st_size, stat.st_mtime_ns)
    return None


def _palette(
    tone, accent, strategy, min_contrast, slides: list[list[TextBlock]], size
) -> tuple[Background, dict[str, tuple[str, float]]]:
    """The background and caption colours of one tone, legible behind every caption.

    The background is rendered exactly as ``render`` draws it and each text colour is
    checked against every pixel behind every caption box of the set; while a caption
    falls short, the background is pushed away from the text colour step by step
    (darker behind light text, lighter behind dark text).
    """
    head_color, sub_color = _text_colors(tone, accent)
    worst = 0.0
    for step in range(16):
        background = _tone_background(tone, accent, strategy, shift=0.025 * step)
        union = {}
        for role in ("headline", "subtitle"):
            boxes = [b.box for blocks in slides for b in blocks if b.role == role]
            if boxes:  # one region covering every caption of this role
                x0 = min(b[0] for b in boxes)
                y0 = min(b[1] for b in boxes)
                x1 = max(b[0] + b[2] for b in boxes)
                y1 = max(b[1] + b[3] for b in boxes)
                # the pixels just around the ink count too: the eye reads text on them
                x0, y0 = max(0, x0 - RING), max(0, y0 - RING)
                x1, y1 = min(size[0], x1 + RING), min(size[1], y1 + RING)
                union[role] = [x0, y0, x1 - x0, y1 - y0]
        colors = {}
        for role, color in (("headline", head_color), ("subtitle", sub_color)):
            if role not in union:
                colors[role] = (color, 21.0)
                continue
            c = _contrast_on(background, color, union[role], size)
            if role == "subtitle" and c < min_contrast:
                color = head_color  # a quieter colour must never cost legibility
                c = _contrast_on(background, color, union[role], size)
            colors[role] = (color, c)
        worst = min(c for _, c in colors.values())
        if worst >= min_contrast:
            return background, colors
    raise TemplateError(
        f"plan_layout: could not reach a caption contrast of {min_contrast} "
        f"for accent {accent} ({tone} tone); best was {worst:.2f}."
    )


@C.stage(
    "plan_layout",
    requires=(C.APP_ID, C.POSITION, C.IMAGE, C.COPY_HEADLINE, C.COPY_SUBTITLE),
    provides=(
        C.LAYOUT_TEMPLATE,
        C.LAYOUT_DEVICE,
        C.LAYOUT_SIZE,
        C.LAYOUT_HEADLINE_SIZE,
        C.LAYOUT_VARIANT,
        C.LAYOUT_BACKGROUND,
        C.LAYOUT_TEXT_COLOR,
        C.LAYOUT_CONTRAST,
        C.LAYOUT_SCENE,
    ),
    optional=(
        C.FEATURES_ACCENT,
        C.FEATURES_DARK_UI,
        C.DEVICE,
        C.IMAGE_WIDTH,
        C.IMAGE_HEIGHT,
        C.FEATURES_EVIDENCE,
        C.COPY_EVIDENCE,
    ),
)
def plan_layout(
    frame: pd.DataFrame,
    *,
    template: str | Path | dict = "default",
    size: str | tuple[int, int] | None = None,
) -> pd.DataFrame:
    """Design each set from a template: palette, type scale, device placement, one scene per row.

    The device follows the screenshots: each set's device (its ``device`` column and the
    screenshots' pixel size, :func:`.sizes.screenshot_device`) picks the frame
    (``layout_device``) and the store size (:func:`.sizes.output_size_for`):
    iPhone -> 6.9", iPad -> 13", Android -> Google Play sizes. The template's device is
    the frame when nothing picks another. ``size`` asks for one store size for every set;
    a size the set's store does not take is refused. A set of landscape screenshots is
    drawn on the landscape canvas of its class (6.9" -> 2868x1320) with the device turned
    sideways, in the template's ``[landscape]`` text and device settings.

    The frame never hides what a caption names: when a text a caption line was built from
    (``copy_evidence``) sits, by its place on the screenshot (``features_evidence`` items
    with ``y``/``h``), where the set's device placement would hide it (below the slide's
    bottom edge), that slide's device is lifted just enough, keeping the template's gap
    below the caption, or drawn smaller when lifting is not enough;
    ``layout_scene["device"]["lift"]`` records how far and why (``None`` elsewhere).
    """
    t = load_template(template)
    _plans[0] += 1
    results: dict[Any, dict] = {}
    devices: dict[Any, str] = {}
    canvases: dict[Any, tuple[int, int]] = {}
    for app_id, rows in C.set_groups(frame):
        device, landscape = _set_device(app_id, rows, t["device"]["model"])
        canvas = output_size_for(device, size, landscape=landscape)
        set_template = oriented(t, landscape=landscape)
        planned = _plan_set(rows, set_template, (canvas.width, canvas.height), device)
        if set_template["panorama"]["shapes"] or set_template["panorama"]["straddle"]["after"]:
            _run_shapes_across(planned, set_template, (canvas.width, canvas.height))
        for idx, plan in zip(rows.index, planned):
            results[idx] = plan
            devices[idx] = device.id
            canvases[idx] = (canvas.width, canvas.height)
    order = [results[i] for i in frame.index]
    frame[C.LAYOUT_TEMPLATE] = t["name"]
    frame[C.LAYOUT_DEVICE] = [devices[i] for i in frame.index]
    frame[C.LAYOUT_SIZE] = [f"{w}x{h}" for w, h in (canvases[i] for i in frame.index)]
    frame[C.LAYOUT_HEADLINE_SIZE] = [p["h_size"] for p in order]
    frame[C.LAYOUT_VARIANT] = [f"{p['tone']}/{p['scene'].meta['offset_x']:+.3f}" for p in order]
    frame[C.LAYOUT_BACKGROUND] = [list(p["scene"].background.stops) for p in order]
    frame[C.LAYOUT_TEXT_COLOR] = [p["scene"].texts[0].color for p in order]
    frame[C.LAYOUT_CONTRAST] = [round(p["contrast"], 3) for p in order]
    frame[C.LAYOUT_SCENE] = [p["scene"].to_dict() for p in order]
    return frame


def _run_shapes_across(plans: list[dict], template: dict[str, Any], size: tuple[int, int]) -> None:
    """A panorama set: the template's shapes laid out on one strip as wide as the set's
    slides side by side, each slide showing its own cut, so a shape that crosses a slide
    edge continues on the next slide. ``[panorama] shapes`` place circles in slide units
    (``x`` across one ``period`` of slides, ``y`` down the height, radius ``r`` in slide
    widths, ``opacity``), repeated every ``period`` slides; they are drawn away from the
    caption colour (dark behind light text, light behind dark text) so they never lower a
    caption's contrast, which is measured again on each slide's own pixels."""
    lay_out_strip_devices(plans, template, size)
    width, height = size
    spec = template["panorama"]
    period = max(1, int(spec["period"]))
    light_text = relative_luminance(plans[0]["scene"].texts[0].color) > 0.5
    color = "#000000" if light_text else "#ffffff"
    strip = [
        (
            (start + float(shape["x"])) * width,
            float(shape["y"]) * height,
            float(shape["r"]) * width,
            float(shape.get("opacity", 0.12)),
        )
        for start in range(0, len(plans) + period, period)
        for shape in spec["shapes"]
    ]
    min_contrast = template["text"]["min_contrast"]
    for i, plan in enumerate(plans):
        scene, left = plan["scene"], i * width
        shapes = [
            {"kind": "circle", "cx": round(cx - left, 1), "cy": round(cy, 1), "r": round(r, 1)}
            | {"color": color, "opacity": opacity}
            for cx, cy, r, opacity in strip
            if cx + r > left and cx - r < left + width
        ]
        scene.background = replace(scene.background, shapes=shapes)
        for block in scene.texts:
            block.contrast = round(
                _contrast_on(scene.background, block.color, _ringed(block.box, size), size), 3
            )
        plan["contrast"] = min(block.contrast for block in scene.texts)
        if plan["contrast"] < min_contrast:
            raise TemplateError(
                f"plan_layout: the panorama shapes bring slide {i + 1}'s caption contrast to "
                f"{plan['contrast']:.2f}, under {min_contrast}; lower their opacity."
            )


def _set_device(app_id: Any, rows: pd.DataFrame, template_model: str) -> tuple[Device, bool]:
    """The one frame of a set, from every row's device and pixels, and whether the set is
    landscape; a set that mixes phones and tablets, or platforms, or portrait and
    landscape screenshots, is refused."""
    choices, shapes = [], []
    hints = [str(d) for d in rows[C.DEVICE]] if C.DEVICE in rows.columns else [""] * len(rows)
    screens = [str(s) for s in rows[C.SCREEN]] if C.SCREEN in rows.columns else [""] * len(rows)
    pixels = (
        _shot_sizes(rows)
        if C.IMAGE_WIDTH in rows.columns
        else [open_image(ref).size for ref in rows[C.IMAGE]]
    )
    for hint, position, screen, (width, height) in zip(hints, rows[C.POSITION], screens, pixels):
        shapes.append((int(position) + 1, screen, width, height))
        choices.append(screenshot_device(hint, width, height, default_frame=template_model))
    landscape = [shape for shape in shapes if shape[2] > shape[3]]
    if landscape and len(landscape) < len(shapes):
        position, screen, width, height = landscape[0]
        raise InputImageError(
            f"{app_id}: the set mixes portrait and landscape screenshots (screenshot "
            f"{position}, {screen}, is landscape: {width}x{height}); a store set is drawn in "
            "one orientation. Design the landscape screenshots as a set of their own (one "
            "folder per orientation), or leave them out."
        )
    families = {c.family for c in choices}
    if len(families) > 1:
        raise InvalidOptionError(
            f"{app_id}: the set mixes {' and '.join(FAMILY_LABEL[f] for f in sorted(families))} "
            "screenshots; a store set is one device. Design each device's screenshots as a "
            "set of its own (one folder per device)."
        )
    return choices[0].frame, bool(landscape)
