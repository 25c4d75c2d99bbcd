"""plan_layout: design a whole set from a template file into one scene per row.

Set-level decisions are made once per ``app_id``: one palette from the
screenshots' accent colour, one headline size fitted so the longest headline
wraps to at most two lines, one device size and position. Per slide only the
rhythm (tone, horizontal offset) and the caption lines change.
"""

from __future__ import annotations

import copy
import json
import os
import tomllib
from functools import lru_cache
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
from ..devices import get_device, output_size
from ..errors import ShotsmithError, TemplateError
from ..scene import Background, DeviceFrame, Scene, TextBlock
from ..screenband import screen_band
from ..text import fit_size, font_for, ink_box, load_font, wrap_balanced
from .render import background_region

#: The built-in templates, shipped inside the package (so a wheel install has them).
BUILTIN_LAYOUTS = Path(__file__).resolve().parents[1] / "data" / "layouts"

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
        "model": "iphone-16-pro",
        "width": 0.80,
        "gap_below_text": 0.026,
        "min_top": 0.255,
        "bleed": True,
        "bottom_margin": 0.035,
        "offsets_x": [0.0],
        "shadow": {"blur": 0.022, "offset_y": 0.010, "opacity": 0.30},
    },
    "palette": {"strategy": "accent-gradient", "rhythm": ["deep"]},
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
    env = [Path(p) for p in os.environ.get("SHOTSMITH_LAYOUTS", "").split(os.pathsep) if p]
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
    """A template by name (``layouts/<name>.toml``/``.json``), by path, or as a dict."""
    if isinstance(template, dict):
        return _validate(_merge(TEMPLATE_DEFAULTS, template), "<dict>")
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
    return _validate(_merge(TEMPLATE_DEFAULTS, data), path)


def _validate(t: dict[str, Any], where: str) -> dict[str, Any]:
    def need(cond: bool, what: str) -> None:
        if not cond:
            raise TemplateError(f"{where}: {what}")

    text, dev, pal = t["text"], t["device"], t["palette"]
    need(text["align"] in ("center", "left"), "text.align must be 'center' or 'left'")
    lo, hi = text["headline_size"]
    need(0.02 <= lo <= hi <= 0.2, "text.headline_size must be [smallest, largest] in 0.02..0.2")
    need(0 <= text["margin_x"] < 0.3, "text.margin_x must be a fraction of the width < 0.3")
    need(0.3 <= dev["width"] <= 1.0, "device.width must be a fraction of the width in 0.3..1")
    need(bool(dev["offsets_x"]), "device.offsets_x needs at least one value")
    need(
        all(r in TONES for r in pal["rhythm"]) and bool(pal["rhythm"]),
        f"palette.rhythm must list tones from {TONES}",
    )
    need(
        pal["strategy"] in ("accent-gradient", "spotlight"),
        "palette.strategy must be 'accent-gradient' or 'spotlight'",
    )
    get_device(dev["model"])
    return t


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
def _plan_set(rows: pd.DataFrame, t: dict[str, Any], size: tuple[int, int]) -> list[dict]:
    W, H = size
    tx, dv, pal = t["text"], t["device"], t["palette"]
    margin = round(tx["margin_x"] * W)
    text_w = W - 2 * margin
    headlines = [str(h) for h in rows[C.COPY_HEADLINE]]
    subtitles = [str(s) for s in rows[C.COPY_SUBTITLE]]

    # one headline size for the set: the largest at which every headline fits 2 lines
    h_lo, h_hi = (round(v * W) for v in tx["headline_size"])
    h_size = fit_size(
        headlines,
        tx["headline_family"],
        tx["headline_weight"],
        text_w,
        tx["headline_max_lines"],
        h_hi,
        h_lo,
    )
    if h_size is None:
        h_size = fit_size(
            headlines,
            tx["headline_family"],
            tx["headline_weight"],
            text_w,
            tx["headline_max_lines"],
            h_lo,
            round(0.045 * W),
        )
    if h_size is None:
        longest = max(headlines, key=len)
        raise ShotsmithError(
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
        raise ShotsmithError(
            f"plan_layout: subtitle {longest!r} is too long for "
            f"{tx['subtitle_max_lines']} lines; keep subtitles under 60 characters."
        )
    h_lh = round(h_size * tx["line_height"])
    s_lh = round(s_size * tx["subtitle_line_height"])
    gap = round(tx["gap"] * h_size)
    x = W // 2 if tx["align"] == "center" else margin
    anchor = "ms" if tx["align"] == "center" else "ls"

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
    device = get_device(dv["model"])
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
    screen_h = round(screen_w * device.aspect)
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
            anchor,
            top + max(0, (band_bottom - top - cap["height"]) // 2),
            h_size,
            s_size,
            h_lh,
            s_lh,
            tx["align"],
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
            screen_band=screen_band(row[C.IMAGE], device, screen_w, screen_h),
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
            },
        )
        plans.append(dict(scene=scene, tone=tone, h_size=h_size, contrast=worst))
    return plans


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


def _caption_blocks(
    cap, x, anchor, block_top, h_size, s_size, h_lh, s_lh, align
) -> list[TextBlock]:
    """Headline and subtitle blocks placed at ``block_top``, boxes measured by their ink."""
    blocks = []
    for role, lines, font, base, lh, size_px in (
        ("headline", cap["hlines"], cap["hfont"], cap["h_base"], h_lh, h_size),
        ("subtitle", cap["slines"], cap["sfont"], cap["s_base"], s_lh, s_size),
    ):
        if not lines:
            continue
        baseline = block_top + base
        boxes = [ink_box(line, font, x, baseline + j * lh, anchor) for j, line in enumerate(lines)]
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
    raise ShotsmithError(
        f"plan_layout: could not reach a caption contrast of {min_contrast} "
        f"for accent {accent} ({tone} tone); best was {worst:.2f}."
    )


@C.stage(
    "plan_layout",
    requires=(C.APP_ID, C.POSITION, C.IMAGE, C.COPY_HEADLINE, C.COPY_SUBTITLE),
    provides=(
        C.LAYOUT_TEMPLATE,
        C.LAYOUT_SIZE,
        C.LAYOUT_HEADLINE_SIZE,
        C.LAYOUT_VARIANT,
        C.LAYOUT_BACKGROUND,
        C.LAYOUT_TEXT_COLOR,
        C.LAYOUT_CONTRAST,
        C.LAYOUT_SCENE,
    ),
    optional=(C.FEATURES_ACCENT, C.FEATURES_DARK_UI),
)
def plan_layout(
    frame: pd.DataFrame,
    *,
    template: str | Path | dict = "default",
    size: str | tuple[int, int] | None = None,
) -> pd.DataFrame:
    """Design each set from a template: palette, type scale, device placement, one scene per row."""
    t = load_template(template)
    canvas = output_size(size)
    results: dict[Any, dict] = {}
    for _, rows in C.set_groups(frame):
        for idx, plan in zip(rows.index, _plan_set(rows, t, canvas)):
            results[idx] = plan
    order = [results[i] for i in frame.index]
    frame[C.LAYOUT_TEMPLATE] = t["name"]
    frame[C.LAYOUT_SIZE] = f"{canvas[0]}x{canvas[1]}"
    frame[C.LAYOUT_HEADLINE_SIZE] = [p["h_size"] for p in order]
    frame[C.LAYOUT_VARIANT] = [f"{p['tone']}/{p['scene'].meta['offset_x']:+.3f}" for p in order]
    frame[C.LAYOUT_BACKGROUND] = [list(p["scene"].background.stops) for p in order]
    frame[C.LAYOUT_TEXT_COLOR] = [p["scene"].texts[0].color for p in order]
    frame[C.LAYOUT_CONTRAST] = [round(p["contrast"], 3) for p in order]
    frame[C.LAYOUT_SCENE] = [p["scene"].to_dict() for p in order]
    return frame
