"""plan_layout: design a whole set from a template file into one scene per row.

Set-level decisions are made once per ``app_id``: one palette from the
screenshots' accent colour, one headline size fitted so the longest headline
wraps to at most two lines, one device size and position. Per slide only the
rhythm (tone, horizontal offset) and the caption lines change, and the device's
place when the caption names text that place would hide: the device is lifted
(or drawn smaller) for that slide so the text shows (``DeviceFrame.lift`` says why).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from math import ceil
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .. import columns as C
from ..color import (
    DEFAULT_ACCENT,
    NEAR_BLACK,
    OFF_WHITE,
    from_hls,
    hls,
    mix,
    to_hex,
    worst_contrast,
)
from ..devices import Device
from ..errors import CopyError, InputImageError, InvalidOptionError, TemplateError
from ..io import open_image
from ..scene import Background, DeviceFrame, Scene, TextBlock
from ..screenband import screen_band
from ..sizes import FAMILY_LABEL, aspect_fits, output_size_for, screenshot_device
from ..templates import (  # noqa: F401  (re-exported: the old home of these names)
    BUILTIN_LAYOUTS,
    TEMPLATE_DEFAULTS,
    TONES,
    available_templates,
    layout_dirs,
    load_template,
    project_layouts_dir,
)
from ..text import caption_origin, fit_size, font_for, ink_box, load_font, wrap_balanced
from .render import background_region

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
def _plan_set(
    rows: pd.DataFrame, t: dict[str, Any], size: tuple[int, int], device: Device
) -> list[dict]:
    W, H = size
    tx, dv, pal = t["text"], t["device"], t["palette"]
    margin = round(tx["margin_x"] * W)
    text_w = W - 2 * margin
    headlines = [str(h) for h in rows[C.COPY_HEADLINE]]
    subtitles = [str(s) for s in rows[C.COPY_SUBTITLE]]

    # one headline size for the set: the largest at which every headline fits 2 lines
    h_lo, h_hi = (round(v * W) for v in tx["headline_size"])

    def fit_headlines(largest: int, smallest: int) -> int | None:
        return fit_size(
            headlines,
            tx["headline_family"],
            tx["headline_weight"],
            text_w,
            tx["headline_max_lines"],
            largest,
            smallest,
        )

    h_size = fit_headlines(h_hi, h_lo)
    if h_size is None:  # below the template's range, down to a floor still legible
        h_size = fit_headlines(h_lo, round(0.045 * W))
    if h_size is None:
        from ..text import length_hint

        longest = max(headlines, key=len)
        raise CopyError(
            f"plan_layout: headline {longest!r} does not fit in "
            f"{tx['headline_max_lines']} lines even at the smallest size; "
            f"shorten it ({length_hint(longest, 'headline')})."
        )
    s_target = round(tx["subtitle_size"] * W)
    s_size = fit_size(
        subtitles,
        tx["subtitle_family"],
        tx["subtitle_weight"],
        text_w,
        tx["subtitle_max_lines"],
        s_target,
        round(s_target * 0.75),
    )
    if s_size is None:
        from ..text import length_hint

        longest = max(subtitles, key=len)
        raise CopyError(
            f"plan_layout: subtitle {longest!r} is too long for "
            f"{tx['subtitle_max_lines']} lines; keep it {length_hint(longest, 'subtitle')}."
        )
    h_lh = round(h_size * tx["line_height"])
    s_lh = round(s_size * tx["subtitle_line_height"])
    gap = round(tx["gap"] * h_size)
    x = W // 2 if tx["align"] == "center" else margin

    # caption blocks at the top, measured by their ink
    captions = []
    for head, sub in zip(headlines, subtitles):
        hfont = load_font(font_for(head, tx["headline_family"], tx["headline_weight"]), h_size)
        sfont = load_font(font_for(sub, tx["subtitle_family"], tx["subtitle_weight"]), s_size)
        hlines = wrap_balanced(head, hfont, text_w, tx["headline_max_lines"]) or [head]
        slines = (
            (wrap_balanced(sub, sfont, text_w, tx["subtitle_max_lines"]) or [sub]) if sub else []
        )
        h_asc = hfont.getmetrics()[0]
        h_base = h_asc  # first baseline, relative to the block top
        s_base = (
            h_base + (len(hlines) - 1) * h_lh + hfont.getmetrics()[1] + gap + sfont.getmetrics()[0]
        )
        height = (
            (s_base + (len(slines) - 1) * s_lh + sfont.getmetrics()[1])
            if slines
            else h_base + (len(hlines) - 1) * h_lh + hfont.getmetrics()[1]
        )
        captions.append(
            dict(
                hfont=hfont,
                sfont=sfont,
                hlines=hlines,
                slines=slines,
                h_base=h_base,
                s_base=s_base,
                height=height,
            )
        )

    # one device geometry for the set, just below the tallest caption
    top = round(tx["top"] * H)
    tallest = max(c["height"] for c in captions)
    gap_px = round(dv["gap_below_text"] * H)
    dev_y = max(round(dv["min_top"] * H), top + tallest + gap_px)
    outer_w = round(dv["width"] * W)
    pw, ph = device.points
    rim_pt = device.bezel_pt + device.band_pt
    if not dv["bleed"]:  # the whole device must fit above the bottom margin
        room = H - round(dv.get("bottom_margin", 0.035) * H) - dev_y
        outer_w = min(outer_w, int(room / ((ph + 2 * rim_pt) / (pw + 2 * rim_pt))))
    screen_aspect = _set_screen_aspect(rows, device)
    geom = _geometry(device, outer_w, screen_aspect)
    shadow = dv.get("shadow")
    shadow_px = (
        {
            "blur": round(shadow["blur"] * W),
            "offset_y": round(shadow["offset_y"] * W),
            "opacity": float(shadow["opacity"]),
        }
        if shadow
        else None
    )
    if not dv["bleed"]:
        dev_y = min(dev_y, H - round(dv.get("bottom_margin", 0.035) * H) - geom.outer_h)

    accent = _set_accent(rows)
    rhythm, offsets = pal["rhythm"], dv["offsets_x"]
    dark_ui = (
        bool(rows[C.FEATURES_DARK_UI].iloc[0]) if C.FEATURES_DARK_UI in rows.columns else False
    )
    tones = [
        _resolve_tone(rhythm[i % len(rhythm)], accent, dark_ui, pal) for i in range(len(captions))
    ]

    def place_captions(cap: dict, device_top: int) -> list[TextBlock]:
        """A caption block centred in the band between the template's top and the device."""
        band_bottom = device_top - gap_px
        return _caption_blocks(
            cap,
            x,
            top + max(0, (band_bottom - top - cap["height"]) // 2),
            h_size,
            s_size,
            h_lh,
            s_lh,
            tx["align"],
            W,
        )

    blocks = [place_captions(cap, dev_y) for cap in captions]
    # one palette per tone for the whole set, checked against every caption of that tone
    min_contrast = float(tx["min_contrast"])
    palettes = {
        tone: _palette(
            tone,
            accent,
            pal["strategy"],
            min_contrast,
            [b for b, t_ in zip(blocks, tones) if t_ == tone],
            (W, H),
        )
        for tone in dict.fromkeys(tones)
    }

    def legible(slide_blocks: list[TextBlock], tone: str) -> bool:
        """Captions that moved still clear the contrast on the pixels now behind them, in
        the colours chosen for the set (so no other slide changes)."""
        background, colors = palettes[tone]
        return all(
            _contrast_on(background, colors[b.role][0], _ringed(b.box, (W, H)), (W, H))
            >= min_contrast
            for b in slide_blocks
        )

    # per slide: the set's place, unless the caption names something that place would hide
    slides = []
    for i, (cap, (_, row)) in enumerate(zip(captions, rows.iterrows())):
        fit = _fit(row, geom.screen_w, geom.screen_h, device)
        band_spec = (
            screen_band(row[C.IMAGE], device, geom.screen_w, geom.screen_h)
            if fit == "cover"
            else None
        )
        slide = dict(geom=geom, y=dev_y, band=band_spec, fit=fit, blocks=blocks[i], lift=None)
        # the device goes no higher than the template's gap below the caption as it stands;
        # when that leaves too little room, the caption may move up to the template's top
        # (centred again in the band above the device) if the set's colours still hold there
        args = (row, device, screen_aspect, geom, dev_y, band_spec, fit, (W, H))
        kept_top = blocks[i][0].baseline - cap["h_base"]
        lifted = _lift(*args, highest=kept_top + cap["height"] + gap_px)
        if lifted is not None and lifted["lift"]["scale"] < 1.0:
            higher = _lift(*args, highest=top + cap["height"] + gap_px)
            moved = place_captions(cap, higher["y"]) if higher is not None else []
            if higher is not None and legible(moved, tones[i]):
                lifted, slide["blocks"] = higher, moved
        if lifted is not None:
            slide.update(lifted)
            log.info("%s: screenshot %d: %s", row[C.APP_ID], i + 1, lifted["lift"]["why"])
        slides.append(slide)

    plans = []
    for i, (slide, (_, row)) in enumerate(zip(slides, rows.iterrows())):
        tone = tones[i]
        background, colors = palettes[tone]
        g: _Geometry = slide["geom"]
        dev_y_i = slide["y"]
        dev_x = round((W - g.outer_w) / 2 + offsets[i % len(offsets)] * W)
        inset = g.band + g.bezel
        frame = DeviceFrame(
            model=device.id,
            x=dev_x,
            y=dev_y_i,
            width=g.outer_w,
            height=g.outer_h,
            outer_radius=g.screen_r + inset,
            band=g.band,
            bezel=g.bezel,
            screen_radius=g.screen_r,
            band_color="#3b3b41" if tone != "dark" else "#55555c",
            island=_island(device, dev_x + inset, dev_y_i + inset, g.screen_w, g.s),
            punch_hole=_hole(device, dev_x + inset, dev_y_i + inset, g.screen_w, g.s),
            shadow=shadow_px,
            screenshot=row[C.IMAGE] if isinstance(row[C.IMAGE], str) else None,
            screen_band=slide["band"],
            fit=slide["fit"],
            lift=slide["lift"],
        )
        texts = []
        for block in slide["blocks"]:
            color, contrast = colors[block.role]
            block.color = color
            block.contrast = round(_contrast_on(background, color, block.box, (W, H)), 3)
            texts.append(block)
        worst = min(b.contrast for b in texts)
        scene = Scene(
            W,
            H,
            background,
            texts,
            frame,
            meta={
                "app_id": str(row[C.APP_ID]),
                "position": int(row[C.POSITION]),
                "template": t["name"],
                "tone": tone,
                "offset_x": offsets[i % len(offsets)],
                "device": device.id,
            },
        )
        plans.append(dict(scene=scene, tone=tone, h_size=h_size, contrast=worst))
    return plans


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


def _geometry(device: Device, outer_w: int, screen_aspect: float) -> _Geometry:
    pw, _ = device.points
    k = outer_w / (pw + 2 * (device.bezel_pt + device.band_pt))  # canvas px per device point
    band = max(2, round(device.band_pt * k))
    bezel = max(3, round(device.bezel_pt * k))
    screen_w = outer_w - 2 * (band + bezel)
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
        floor = max(1, round(geom.outer_w * MIN_LIFT_SCALE))
        width = min(geom.outer_w - 1, int(geom.outer_w * (H - y) / reach) + 1)
        while True:
            g = _geometry(device, max(width, floor), screen_aspect)
            b = screen_band(row[C.IMAGE], device, g.screen_w, g.screen_h) if band else None
            reach_g = shown_to(g, b)
            if width <= floor or (reach_g is not None and y + reach_g <= H):
                break
            width -= 1
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


def _shot_size(row: pd.Series) -> tuple[int, int]:
    return int(row[C.IMAGE_WIDTH]), int(row[C.IMAGE_HEIGHT])


def _set_screen_aspect(rows: pd.DataFrame, device: Device) -> float:
    """The aspect of the display drawn for a set: the frame's own, or the screenshots'
    when they are within a few per cent of it (a Pixel frame drawn for a 1080x2400
    Android phone), so no screenshot is cropped to fit a slightly different screen."""
    if C.IMAGE_WIDTH not in rows.columns or C.IMAGE_HEIGHT not in rows.columns:
        return device.aspect
    aspects = [h / w for w, h in (_shot_size(r) for _, r in rows.iterrows()) if w and h]
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


def _set_accent(rows: pd.DataFrame) -> str:
    if C.FEATURES_ACCENT in rows.columns:
        value = rows[C.FEATURES_ACCENT].iloc[0]
        if isinstance(value, str) and value.startswith("#"):
            return value
    return DEFAULT_ACCENT


def _island(device, sx: int, sy: int, screen_w: int, s: float) -> list[int] | None:
    if not device.island_pt:
        return None
    w, h, t = device.island_pt
    iw, ih = round(w * s), round(h * s)
    return [sx + (screen_w - iw) // 2, sy + round(t * s), iw, ih]


def _hole(device, sx: int, sy: int, screen_w: int, s: float) -> list[int] | None:
    if not device.punch_hole_pt:
        return None
    d, t = device.punch_hole_pt
    dd = round(d * s)
    return [sx + (screen_w - dd) // 2, sy + round(t * s), dd, dd]


def _caption_blocks(cap, x, block_top, h_size, s_size, h_lh, s_lh, align, width) -> list[TextBlock]:
    """Headline and subtitle blocks placed at ``block_top``, boxes measured by their ink
    where render draws it (``caption_origin``: right-to-left text in a left-aligned
    template from the mirrored margin), so the contrast is checked on the pixels behind it."""
    blocks = []
    for role, lines, font, base, lh, size_px in (
        ("headline", cap["hlines"], cap["hfont"], cap["h_base"], h_lh, h_size),
        ("subtitle", cap["slines"], cap["sfont"], cap["s_base"], s_lh, s_size),
    ):
        if not lines:
            continue
        baseline = block_top + base
        ink_x, ink_anchor = caption_origin(align, x, " ".join(lines), width)
        boxes = [
            ink_box(line, font, ink_x, baseline + j * lh, ink_anchor)
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
    return worst_contrast(color, background_region(background, size[0], size[1], box))


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
    screenshots' pixel size, :func:`shotsmith.sizes.screenshot_device`) picks the frame
    (``layout_device``) and the store size (:func:`shotsmith.sizes.output_size_for`):
    iPhone -> 6.9", iPad -> 13", Android -> Google Play sizes. The template's device is
    the frame when nothing picks another. ``size`` asks for one store size for every set;
    a size the set's store does not take is refused.

    The frame never hides what a caption names: when a text a caption line was built from
    (``copy_evidence``) sits, by its place on the screenshot (``features_evidence`` items
    with ``y``/``h``), where the set's device placement would hide it (below the slide's
    bottom edge), that slide's device is lifted just enough, keeping the template's gap
    below the caption, or drawn smaller when lifting is not enough;
    ``layout_scene["device"]["lift"]`` records how far and why (``None`` elsewhere).
    """
    t = load_template(template)
    results: dict[Any, dict] = {}
    devices: dict[Any, str] = {}
    canvases: dict[Any, tuple[int, int]] = {}
    for app_id, rows in C.set_groups(frame):
        device = _set_device(app_id, rows, t["device"]["model"])
        canvas = output_size_for(device, size)
        for idx, plan in zip(rows.index, _plan_set(rows, t, (canvas.width, canvas.height), device)):
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


def _set_device(app_id: Any, rows: pd.DataFrame, template_model: str) -> Device:
    """The one frame of a set, from every row's device and pixels; a set that mixes
    phones and tablets, or platforms, or holds a landscape screenshot, is refused."""
    choices = []
    for _, row in rows.iterrows():
        hint = str(row[C.DEVICE]) if C.DEVICE in rows.columns else ""
        if C.IMAGE_WIDTH in rows.columns:
            width, height = _shot_size(row)
        else:
            width, height = open_image(row[C.IMAGE]).size
        if width > height:
            raise InputImageError(
                f"{app_id}: screenshot {int(row[C.POSITION]) + 1} ({row.get(C.SCREEN, '')}) is "
                f"landscape ({width}x{height}); shotsmith lays out portrait sets (a caption "
                "above a portrait device). Leave it out, or use its portrait screenshot."
            )
        choices.append(screenshot_device(hint, width, height, default_frame=template_model))
    families = {c.family for c in choices}
    if len(families) > 1:
        raise InvalidOptionError(
            f"{app_id}: the set mixes {' and '.join(FAMILY_LABEL[f] for f in sorted(families))} "
            "screenshots; a store set is one device. Design each device's screenshots as a "
            "set of its own (one folder per device)."
        )
    return choices[0].frame
