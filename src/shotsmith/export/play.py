"""The Google Play listing beside the screenshots, where ``supply`` reads it.

``supply`` uploads, per listing language, ``metadata/android/<locale>/title.txt``,
``short_description.txt``, ``full_description.txt`` and the images
``images/featureGraphic.png`` and ``images/icon.png`` (fastlane's
``supply/lib/supply.rb``: ``AVAILABLE_METADATA_FIELDS``, ``IMAGES_TYPES``). Google Play
limits the title to 30 characters, the short description to 80 and the full description
to 4000; the feature graphic is 1024x500 (PNG or JPEG, no alpha); the hi-res icon a
512x512 32-bit PNG of at most 1 MB (``docs/store-rules.md``).

The text is the set's own, grounded like its captions: the title is the app's name, the
short description the App Store store text's promotional sentence (else its subtitle or
the tagline), the full description that sentence followed by each screen's headline and
subtitle. The feature graphic is drawn with the render stage's own parts from what
``design.json`` records of slide 1: its background (the set's palette), the template's
headline type and the set's text colour for the tagline, and the device showing slide 1's
screen as slide 1's PNG shows it (the device is found on the PNG by its band colour).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from ..color import contrast_ratio, to_rgb, worst_contrast
from ..devices import DEVICES
from ..errors import InputFileError, InputImageError, ShotsmithError, StoreRuleError
from ..locales import DEFAULT_LOCALE, is_english, play_locale, reads_english
from ..png import write_png
from ..scene import Background, DeviceFrame, Scene
from ..stages.render import background_region, render_scene
from ..text import caption_origin, draw_line, font_for, load_font, wrap_balanced

log = logging.getLogger("shotsmith.export")

TITLE_MAX = 30
SHORT_MAX = 80
FULL_MAX = 4000
FEATURE_SIZE = (1024, 500)
ICON_SIZE = (512, 512)
ICON_MAX_BYTES = 1024 * 1024
TEXT_FILES = {
    "title": "title.txt",
    "short_description": "short_description.txt",
    "full_description": "full_description.txt",
}


def _cut(text: str, limit: int) -> str:
    """``text`` whole when it fits, else cut at the last word boundary within ``limit``."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    head = text[: limit + 1].rsplit(" ", 1)[0].rstrip(" ,;:–—-")
    return head if head and len(head) <= limit else text[:limit].rstrip()


def _first_sentence(text: str) -> str:
    for end in (". ", "。", "! ", "? "):
        if end in text:
            return text.split(end, 1)[0] + end.strip()
    return text


def play_text(rows: list[dict]) -> dict[str, str]:
    """Title, short and full description of one set and locale, from its own lines. A
    non-English set keeps only the lines in its language (the title is the app's name)."""
    rows = sorted(rows, key=lambda r: int(r.get("position") or 0))
    first = rows[0]
    locale = str(first.get("locale") or DEFAULT_LOCALE)

    def ours(text: object) -> str:
        text = " ".join(str(text or "").split())
        return "" if not is_english(locale) and reads_english(text, locale) else text

    raw_store = first.get("copy_store_text")
    store: dict = raw_store if isinstance(raw_store, dict) else {}
    promo, tagline = ours(store.get("promotional_text")), ours(first.get("copy_tagline"))
    candidates = (promo, _first_sentence(promo), ours(store.get("subtitle")), tagline)
    short = next((t for t in candidates if t and len(t) <= SHORT_MAX), _cut(promo, SHORT_MAX))
    paragraphs = [promo or tagline]
    for row in rows:
        lines = (ours(row.get("copy_headline")), ours(row.get("copy_subtitle")))
        paragraph = "\n".join(t for t in lines if t)
        if paragraph and paragraph not in paragraphs:
            paragraphs.append(paragraph)
    full = ""
    for paragraph in paragraphs:
        if paragraph and len(full) + len(paragraph) + 2 <= FULL_MAX:
            full = f"{full}\n\n{paragraph}" if full else paragraph
    return {
        "title": _cut(str(first.get("project_name") or ""), TITLE_MAX),
        "short_description": short,
        "full_description": full,
    }


def play_text_problems(text: dict[str, str]) -> list[str]:
    limits = {"title": TITLE_MAX, "short_description": SHORT_MAX, "full_description": FULL_MAX}
    return [
        f"{key} is {len(text.get(key, ''))} characters (Google Play limit {limit})"
        for key, limit in limits.items()
        if len(text.get(key, "")) > limit
    ]


def check_icon(path: str | Path) -> Image.Image:
    """The hi-res icon as a 32-bit RGBA image, or an error saying what Google Play wants."""
    path = Path(path)
    try:
        with Image.open(path) as im:
            im.load()
            fmt, size, image = im.format, im.size, im.convert("RGBA")
    except (OSError, ValueError) as exc:
        raise InputFileError(f"--icon {path}: not a readable PNG ({exc}).") from None
    problems = []
    if fmt != "PNG":
        problems.append(f"it is {fmt}, not PNG")
    if size != ICON_SIZE:
        problems.append(f"it is {size[0]}x{size[1]}, not 512x512")
    if path.stat().st_size > ICON_MAX_BYTES:
        problems.append(f"it is {path.stat().st_size / 1024:.0f} KB (at most 1024 KB)")
    if problems:
        raise InputImageError(
            f"--icon {path}: Google Play's hi-res icon is a 512x512 32-bit PNG of at most "
            f"1 MB; {', '.join(problems)}."
        )
    return image


BAND_COLORS = ("#3b3b41", "#55555c")  # the device band plan_layout draws (light, dark tone)


def _slide_one(rows: list[dict]) -> tuple[dict, Image.Image] | None:
    """Slide 1's row and its rendered PNG (None when the PNG is missing)."""
    row = min(rows, key=lambda r: int(r.get("position") or 0))
    path = Path(str(row.get("render_path") or ""))
    if not path.is_file():
        return None
    with Image.open(path) as im:
        return row, im.convert("RGB")


def _runs(line: np.ndarray, color: tuple[int, int, int]) -> list[tuple[int, int]]:
    """[start, end) runs of pixels of exactly ``color`` along one row or column."""
    hit = np.all(line == color, axis=-1).astype(np.int8)
    edges = np.flatnonzero(np.diff(np.concatenate(([0], hit, [0]))))
    return [(int(a), int(b)) for a, b in zip(edges[::2], edges[1::2])]


def device_on_slide(slide: Image.Image) -> tuple[int, int, int, int, int] | None:
    """Where the device sits on a rendered slide: (x, y, outer width, band, bezel) in px,
    found by its band, whose straight edges are drawn in exactly the band colour."""
    pixels = np.asarray(slide)
    height = pixels.shape[0]
    for band_color in BAND_COLORS:
        rgb = to_rgb(band_color)
        row = pixels[int(height * 0.85)]
        runs = [r for r in _runs(row, rgb) if r[1] - r[0] >= 2]
        if len(runs) < 2:
            continue
        (x0, band_end), (_, x1) = runs[0], runs[-1]
        band = band_end - x0
        bezel = next((b - a for a, b in _runs(row[band_end:], (10, 10, 12)) if a == 0), 0)
        column = pixels[:, (x0 + x1) // 2]
        tops = [a for a, b in _runs(column, rgb) if b - a >= 2]
        if not tops or not bezel:
            continue
        return x0, tops[0], x1 - x0, band, bezel
    return None


def feature_graphic(rows: list[dict]) -> Image.Image | None:
    """The 1024x500 feature graphic of a set: its background (the set's palette), its
    tagline (else slide 1's headline; neither when they are English in another language's
    set) in the headline type, and the device showing slide 1's screen (None when slide
    1's PNG is missing or shows no device)."""
    found = _slide_one(rows)
    if found is None:
        return None
    row, slide = found
    where = device_on_slide(slide)
    if where is None:
        return None
    x0, y0, outer_w, band, bezel = where
    inset = band + bezel
    sx, sy, sw = x0 + inset, y0 + inset, outer_w - 2 * inset
    device = DEVICES.get(str(row.get("layout_device") or ""))
    points_w, points_h = device.points if device else (sw, sw * 2.17)
    sh = round(sw * points_h / points_w)
    # the screen as slide 1 shows it (status band, island and all), its hidden part filled
    visible = slide.crop((sx, sy, sx + sw, min(sy + sh, slide.height)))
    screen = Image.new("RGB", (sw, sh), tuple(np.asarray(visible)[-1].mean(axis=0).astype(int)))
    screen.paste(visible, (0, 0))
    width, height = FEATURE_SIZE
    top = round(height * 0.13)
    scale = min(0.42 * width / outer_w, 1.12 * height / (sh + 2 * inset))
    # large enough that the part of the screen slide 1 shows reaches the bottom edge
    scale = min(max(scale, (height - top) / max(1, visible.height)), 0.5 * width / outer_w)
    screen_r = round((device.corner_radius_pt if device else 40) * sw / points_w * scale)
    b, z = max(1, round(band * scale)), max(2, round(bezel * scale))
    new_sw = round(sw * scale)
    dev_w, dev_h = new_sw + 2 * (b + z), round(sh * scale) + 2 * (b + z)
    frame = DeviceFrame(
        model=str(row.get("layout_device") or ""),
        x=round(width * 0.74 - dev_w / 2),
        y=top,
        width=dev_w,
        height=dev_h,
        outer_radius=screen_r + b + z,
        band=b,
        bezel=z,
        screen_radius=screen_r,
        band_color=BAND_COLORS[0],
        shadow={"blur": 18, "offset_y": 6, "opacity": 0.3},
    )
    stops = row.get("layout_background") or ["#1f2937"]
    stops = [stops] if isinstance(stops, str) else [str(s) for s in stops]
    scene = Scene(width, height, Background(kind="linear", stops=stops), [], frame)
    image = render_scene(scene, screen)
    locale = str(row.get("locale") or DEFAULT_LOCALE)
    lines = (" ".join(str(row.get(k) or "").split()) for k in ("copy_tagline", "copy_headline"))
    in_language = [t for t in lines if t and (is_english(locale) or not reads_english(t, locale))]
    tagline = in_language[0] if in_language else ""  # no English words on another language's
    if tagline:
        color = str(row.get("layout_text_color") or "#ffffff")
        family, weight = _headline_type(str(row.get("layout_template") or "default"))
        font = font_for(tagline, family, weight)
        _draw_tagline(image, scene, tagline, font, color, frame.x - 48)
    return image


def _headline_type(template: str) -> tuple[str, int]:
    """The template's headline family and weight (Inter Display 800 when it has none)."""
    try:
        from ..stages.layout.templates import load_template

        text = load_template(template).get("text", {})
        return str(text.get("headline_family", "Inter Display")), int(
            text.get("headline_weight", 800)
        )
    except ShotsmithError:  # a template not installed here: the default type
        return "Inter Display", 800


def _draw_tagline(
    image: Image.Image, scene: Scene, text: str, font_path: str, color: str, right: int
) -> None:
    """The tagline in the slide's headline font, as large as fits left of the device
    (three lines at most), in the headline's colour, else black or white, whichever reads."""
    left = 56
    for size in range(76, 25, -2):
        font = load_font(font_path, size)
        lines = wrap_balanced(text, font, right - left, 3)
        if lines is not None:
            break
    else:
        return
    line_height = round(size * 1.18)
    ascent, _ = font.getmetrics()
    top = (scene.height - line_height * len(lines)) // 2
    box = [left, top, right - left, line_height * len(lines)]
    behind = background_region(scene.background, scene.width, scene.height, box)
    if behind.size and worst_contrast(color, behind) < 4.5:
        mean = behind.reshape(-1, 3).mean(axis=0)
        color = max(("#ffffff", "#111111"), key=lambda c: contrast_ratio(c, tuple(mean)))
    draw = ImageDraw.Draw(image)
    for n, line in enumerate(lines):
        x, anchor = caption_origin("left", left, line, scene.width)
        if anchor == "rs":  # right-to-left: set against the text column's right edge
            x = right
        draw_line(draw, (x, top + ascent + n * line_height), line, font, to_rgb(color), anchor)


def write_play_listing(
    rows: list[dict], dest: Path, *, icon: Image.Image | None = None
) -> list[Path]:
    """Each Play locale's text, feature graphic and (when given) icon under
    ``dest/metadata/android/<locale>/``. English text is not written into another
    language's folder (the files it would fill are named on stderr)."""
    per_locale: dict[str, list[dict]] = {}
    for row in rows:
        locale = str(row.get("locale") or DEFAULT_LOCALE)
        per_locale.setdefault(locale, []).append(row)
    written: list[Path] = []
    for locale, members in sorted(per_locale.items()):
        code = play_locale(locale) or locale
        folder = dest / "metadata" / "android" / code
        text = play_text(members)
        problems = play_text_problems(text)
        if problems:
            raise StoreRuleError(
                f"export: the {code} Play listing breaks Google Play's limits: "
                f"{'; '.join(problems)}. Fix the copy in design.json or design the set again."
            )
        folder.mkdir(parents=True, exist_ok=True)
        for key, name in TEXT_FILES.items():
            if text[key]:
                written.append(_write_text(folder / name, text[key]))
        missing = [TEXT_FILES[k] for k in TEXT_FILES if not text[k]]
        if missing:
            log.warning(
                "the %s Play listing has no %s: the set has no lines in that language for "
                "them; write them in %s, or design the set with --copy in %s.",
                locale,
                " or ".join(missing),
                folder,
                locale,
            )
        graphic = feature_graphic(members)
        if graphic is not None:
            written.append(write_png(graphic, folder / "images" / "featureGraphic.png"))
        else:
            log.warning(
                "no feature graphic for %s: slide 1's PNG is missing or shows no device "
                "frame; add a 1024x500 images/featureGraphic.png there yourself.",
                folder,
            )
        if icon is not None:
            target = folder / "images" / "icon.png"
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_name("icon.png.tmp")
            icon.save(tmp, format="PNG")
            os.replace(tmp, target)
            written.append(target)
    return written


def _write_text(target: Path, value: str) -> Path:
    tmp = target.with_name(target.name + ".tmp")
    tmp.write_text(value + "\n", encoding="utf-8")
    os.replace(tmp, target)
    return target
