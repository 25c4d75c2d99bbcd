"""plan_layout: design a whole set from a template file into one scene per row.

Set-level decisions are made once per ``app_id``: one palette from the
screenshots' accent colour, one headline size fitted so the longest headline
wraps to at most two lines, one device size and position. Per slide only the
rhythm (tone, horizontal offset) and the caption lines change.
"""

from __future__ import annotations

import logging
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
        longest = max(headlines, key=len)
        raise CopyError(
            f"plan_layout: headline {longest!r} does not fit in "
            f"{tx['headline_max_lines']} lines even at the smallest size; "
            "shorten it (2-6 words)."
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
        longest = max(subtitles, key=len)
        raise CopyError(
            f"plan_layout: subtitle {longest!r} is too long for "
            f"{tx['subtitle_max_lines']} lines; keep subtitles under 60 characters."
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
    dev_y = max(round(dv["min_top"] * H), top + tallest + round(dv["gap_below_text"] * H))
    outer_w = round(dv["width"] * W)
    pw, ph = device.points
    rim_pt = device.bezel_pt + device.band_pt
    if not dv["bleed"]:  # the whole device must fit above the bottom margin
        room = H - round(dv.get("bottom_margin", 0.035) * H) - dev_y
        outer_w = min(outer_w, int(room / ((ph + 2 * rim_pt) / (pw + 2 * rim_pt))))
    k = outer_w / (pw + 2 * rim_pt)  # canvas px per device point
    band = max(2, round(device.band_pt * k))
    bezel = max(3, round(device.bezel_pt * k))
    screen_w = outer_w - 2 * (band + bezel)
    screen_aspect = _set_screen_aspect(rows, device)
    screen_h = round(screen_w * screen_aspect)
    outer_h = screen_h + 2 * (band + bezel)
    s = screen_w / pw  # px per point on the screen
    screen_r = round(device.corner_radius_pt * s)
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
        dev_y = min(dev_y, H - round(dv.get("bottom_margin", 0.035) * H) - outer_h)

    accent = _set_accent(rows)
    rhythm, offsets = pal["rhythm"], dv["offsets_x"]
    dark_ui = (
        bool(rows[C.FEATURES_DARK_UI].iloc[0]) if C.FEATURES_DARK_UI in rows.columns else False
    )
    tones = [
        _resolve_tone(rhythm[i % len(rhythm)], accent, dark_ui, pal) for i in range(len(captions))
    ]
    band_bottom = dev_y - round(dv["gap_below_text"] * H)
    blocks = [
        _caption_blocks(
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
        for cap in captions
    ]
    # one palette per tone for the whole set, checked against every caption of that tone
    palettes = {
        tone: _palette(
            tone,
            accent,
            pal["strategy"],
            float(tx["min_contrast"]),
            [b for b, t_ in zip(blocks, tones) if t_ == tone],
            (W, H),
        )
        for tone in dict.fromkeys(tones)
    }
    plans = []
    for i, (slide_blocks, (_, row)) in enumerate(zip(blocks, rows.iterrows())):
        tone = tones[i]
        background, colors = palettes[tone]
        dev_x = round((W - outer_w) / 2 + offsets[i % len(offsets)] * W)
        fit = _fit(row, screen_w, screen_h, device)
        frame = DeviceFrame(
            model=device.id,
            x=dev_x,
            y=dev_y,
            width=outer_w,
            height=outer_h,
            outer_radius=screen_r + band + bezel,
            band=band,
            bezel=bezel,
            screen_radius=screen_r,
            band_color="#3b3b41" if tone != "dark" else "#55555c",
            island=_island(device, dev_x + band + bezel, dev_y + band + bezel, screen_w, s),
            punch_hole=_hole(device, dev_x + band + bezel, dev_y + band + bezel, screen_w, s),
            shadow=shadow_px,
            screenshot=row[C.IMAGE] if isinstance(row[C.IMAGE], str) else None,
            screen_band=(
                screen_band(row[C.IMAGE], device, screen_w, screen_h) if fit == "cover" else None
            ),
            fit=fit,
        )
        texts = []
        for block in slide_blocks:
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
    optional=(C.FEATURES_ACCENT, C.FEATURES_DARK_UI, C.DEVICE, C.IMAGE_WIDTH, C.IMAGE_HEIGHT),
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
