"""Layout planning and rendering on a synthetic set with fixed copy."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import shotsmith as ss
from shotsmith import columns as C
from shotsmith.color import worst_contrast
from shotsmith.devices import is_store_size
from shotsmith.png import encode_png
from shotsmith.scene import Scene, boxes_overlap

HEADLINES = [
    "Money, finally under control",
    "Plan every dollar",
    "See where it goes",
    "Reach goals sooner",
]
SUBTITLES = [
    "Budgets, bills and goals in one calm place",
    "Set monthly limits by category and stay on track",
    "Every transaction sorted and searchable",
    "Save for what matters, step by step",
]


def designed_frame(folder: Path, accent: str = "#14967a", **options):
    frame = ss.read_screenshots(folder, project_name="Pocket Budget")
    frame[C.COPY_HEADLINE] = HEADLINES[: len(frame)]
    frame[C.COPY_SUBTITLE] = SUBTITLES[: len(frame)]
    frame[C.FEATURES_ACCENT] = accent
    return ss.plan_layout(frame, **options)


def scene_without_text(scene: dict) -> dict:
    return {**scene, "texts": []}


@pytest.mark.parametrize("template", ["default", "spotlight"])
@pytest.mark.parametrize("accent", ["#14967a", "#ffd60a", "#f2f2f2", "#5e2ca5"])
def test_captions_legible_inside_canvas_and_clear_of_device(screens_dir, template, accent):
    planned = designed_frame(screens_dir, accent=accent, template=template)
    assert planned[C.LAYOUT_HEADLINE_SIZE].nunique() == 1  # one type scale per set
    for _, row in planned.iterrows():
        scene = Scene.from_dict(row[C.LAYOUT_SCENE])
        W, H = scene.width, scene.height
        device_box = scene.device.visible_box(W, H)
        # the caption's contrast is measured on what the renderer really draws behind it
        bare = np.asarray(ss.render_scene(scene_without_text(row[C.LAYOUT_SCENE]), row[C.IMAGE]))
        margin = round(0.05 * W)
        for block in scene.texts:
            x, y, w, h = block.box
            assert x >= margin and y >= 0 and x + w <= W - margin and y + h <= H, block
            assert not boxes_overlap(block.box, device_box), (block.role, block.box, device_box)
            assert len(block.lines) <= 2
            behind = bare[y : y + h, x : x + w]
            assert worst_contrast(block.color, behind) >= 4.5, (block.role, block.color)
        headline, subtitle = scene.texts
        assert headline.box[1] + headline.box[3] <= subtitle.box[1]  # stacked, no overlap
        assert headline.size > subtitle.size


def test_headline_lines_are_balanced_without_orphans(screens_dir):
    planned = designed_frame(screens_dir)
    for scene in planned[C.LAYOUT_SCENE]:
        lines = scene["texts"][0]["lines"]
        if len(lines) == 2 and len(" ".join(lines).split()) >= 4:
            assert len(lines[1].split()) >= 2, lines


def test_rhythm_alternates_in_spotlight(screens_dir):
    planned = designed_frame(screens_dir, template="spotlight")
    tones = [s["meta"]["tone"] for s in planned[C.LAYOUT_SCENE]]
    assert tones == ["dark", "light", "dark", "light"]
    xs = [s["device"]["x"] for s in planned[C.LAYOUT_SCENE]]
    assert xs[0] != xs[1] and xs[0] == xs[2]
    # the whole device stays on the canvas in this template
    for s in planned[C.LAYOUT_SCENE]:
        assert s["device"]["y"] + s["device"]["height"] <= s["height"]


@pytest.mark.parametrize(
    "size,expected", [(None, (1320, 2868)), ("6.5", (1284, 2778)), ("6.3", (1206, 2622))]
)
def test_render_exact_store_size_rgb_no_alpha(screens_dir, tmp_path, size, expected):
    planned = designed_frame(screens_dir, size=size)
    out = ss.render(planned.head(2), out_dir=tmp_path)
    for path in out[C.RENDER_PATH]:
        with Image.open(path) as im:
            assert im.size == expected
            assert im.mode == "RGB"  # colour type 2: no alpha channel at all
            assert "transparency" not in im.info
            assert round(im.info["dpi"][0]) == 72
        assert is_store_size(*expected)
    assert list(out[C.RENDER_WIDTH]) == [expected[0]] * 2


def test_png_writer_is_lossless():
    rng = np.random.default_rng(0)
    pixels = rng.integers(0, 256, size=(64, 48, 3), dtype=np.uint8)
    decoded = Image.open(io.BytesIO(encode_png(Image.fromarray(pixels))))
    assert decoded.mode == "RGB"
    assert np.array_equal(np.asarray(decoded), pixels)


def test_render_is_deterministic_and_draws_the_screenshot(screens_dir):
    planned = designed_frame(screens_dir)
    a = ss.render(planned, out_dir=None)
    b = ss.render(planned, out_dir=None)
    assert list(a[C.RENDER_PNG]) == list(b[C.RENDER_PNG])
    scene = Scene.from_dict(planned[C.LAYOUT_SCENE].iloc[0])
    img = np.asarray(Image.open(io.BytesIO(a[C.RENDER_PNG].iloc[0])))
    sx, sy, sw, sh = scene.device.screen_box
    # the middle of the display shows the screenshot's light UI, not the background
    mid = img[sy + sh // 3, sx + sw // 2]
    assert mid.min() > 200


def test_template_errors_are_clear(screens_dir, tmp_path):
    frame = ss.read_screenshots(screens_dir, project_name="X")
    frame[C.COPY_HEADLINE] = HEADLINES
    frame[C.COPY_SUBTITLE] = SUBTITLES
    with pytest.raises(ss.TemplateError, match="no layout template named 'nope'.*default"):
        ss.plan_layout(frame, template="nope")
    bad = tmp_path / "bad.toml"
    bad.write_text('[text]\nalign = "diagonal"\n')
    with pytest.raises(ss.TemplateError, match="align"):
        ss.plan_layout(frame, template=bad)
    with pytest.raises(ss.ShotsmithError, match="not an accepted store screenshot size"):
        ss.plan_layout(frame, size="1000x100")
    with pytest.raises(ss.ShotsmithError, match="1000x1000.*not an App Store size for iPhone"):
        ss.plan_layout(frame, size="1000x1000")  # a Google Play size, not for iPhone shots


def test_headline_too_long_for_two_lines_is_a_clear_error(screens_dir):
    frame = ss.read_screenshots(screens_dir, project_name="X")
    frame[C.COPY_HEADLINE] = ["word " * 30] + HEADLINES[1:]
    frame[C.COPY_SUBTITLE] = SUBTITLES
    with pytest.raises(ss.ShotsmithError, match="does not fit in 2 lines"):
        ss.plan_layout(frame)


def test_missing_column_names_stage_and_column(screens_dir):
    frame = ss.read_screenshots(screens_dir, project_name="X")
    with pytest.raises(ss.MissingColumnError, match=r"plan_layout.*'copy_headline'.*write_copy"):
        ss.plan_layout(frame)


def test_right_to_left_captions_use_a_covering_font_and_raqm(screens_dir):
    from PIL import features

    assert features.check("raqm"), "Pillow's raqm layout is needed for complex scripts"
    frame = ss.read_screenshots(screens_dir, project_name="X", locale="ar")
    frame[C.COPY_HEADLINE] = [
        "ميزانيتك تحت السيطرة",
        "خطط لكل درهم",
        "اعرف أين تذهب أموالك",
        "ادخر لما يهمك",
    ]
    frame[C.COPY_SUBTITLE] = ["كل حساباتك في مكان واحد هادئ"] * 4
    planned = ss.plan_layout(frame)
    head = planned[C.LAYOUT_SCENE].iloc[0]["texts"][0]
    assert "Arabic" in Path(head["font"]).name
    image = np.asarray(ss.render_scene(planned[C.LAYOUT_SCENE].iloc[0], frame[C.IMAGE].iloc[0]))
    x, y, w, h = head["box"]
    ink = image[y : y + h, x : x + w]
    assert (np.abs(ink.astype(int) - ink[0, 0].astype(int)).sum(axis=2) > 200).mean() > 0.05


# --- raw screenshots without a status bar -------------------------------------------------

HEADER = (31, 60, 120)
TITLE = (255, 212, 0)


def web_screenshot(size=(1206, 2622)) -> Image.Image:
    """A raw web-page screenshot with no status bar: its header starts at the very top, the
    title sits where the Dynamic Island goes and a menu button where the corner curves."""
    from PIL import ImageDraw, ImageFont

    from ...conftest import INTER_BOLD

    im = Image.new("RGB", size, (246, 246, 246))
    draw = ImageDraw.Draw(im)
    draw.rectangle((0, 0, size[0], 170), fill=HEADER)
    font = ImageFont.truetype(INTER_BOLD, 64)
    draw.text((size[0] // 2, 70), "Ledger", font=font, fill=TITLE, anchor="mm")
    for i in range(3):
        draw.rectangle((36, 40 + i * 22, 100, 50 + i * 22), fill=(255, 255, 255))
    for i in range(12):
        draw.rounded_rectangle((40, 220 + i * 180, 1166, 380 + i * 180), 24, fill=(255, 255, 255))
    return im


def _planned(folder: Path, images: list[Image.Image]):
    for i, im in enumerate(images, start=1):
        im.save(folder / f"{i:02d}_screen.png")
    frame = ss.read_screenshots(folder, project_name="Ledger")
    frame[C.COPY_HEADLINE] = HEADLINES[: len(frame)]
    frame[C.COPY_SUBTITLE] = SUBTITLES[: len(frame)]
    frame[C.FEATURES_ACCENT] = "#14967a"
    return ss.plan_layout(frame)


def test_raw_screenshot_without_status_bar_is_framed_below_a_band(tmp_path):
    planned = _planned(tmp_path, [web_screenshot()])
    scene = Scene.from_dict(planned[C.LAYOUT_SCENE].iloc[0])
    band = scene.device.screen_band
    assert band is not None and band["color"] == "#{:02x}{:02x}{:02x}".format(*HEADER)
    sx, sy, sw, sh = scene.device.screen_box
    assert band["height"] == round(62 * sw / 402)  # the device's top inset, at canvas scale
    image = np.asarray(ss.render_scene(scene, planned[C.IMAGE].iloc[0]), dtype=int)
    title = (np.abs(image - np.array(TITLE)).sum(axis=2) < 60)[:, sx : sx + sw]
    rows = np.nonzero(title.any(axis=1))[0]
    assert rows.size and rows.min() >= sy + band["height"]  # nothing of the page under it
    ix, iy, iw, ih = scene.device.island
    assert rows.min() > iy + ih
    strip = image[sy + 8 : sy + band["height"] - 8, sx + sw // 2 - 4 : sx + sw // 2 + 4]
    assert (strip.sum(axis=2) <= sum(HEADER) + 6).all()  # only the band and the island
    left = image[sy + band["height"] // 2 - 20 : sy + band["height"] // 2 + 20, sx : sx + sw // 3]
    assert (left.sum(axis=2) > 600).any()  # the status bar's white 9:41 on the dark band


def test_screenshots_that_keep_their_inset_clear_are_unchanged(tmp_path):
    from shotsmith.devices import get_device
    from shotsmith.stages.layout.screenband import screen_band

    from ...conftest import sample_apps

    device = get_device("iphone-16-pro")
    for app in sample_apps():
        for path in sorted(app.glob("*.png")):  # drawn status bars, nothing under the island
            assert screen_band(str(path), device, 1010, 2196) is None, path
    from ...conftest import fake_screen

    planned = _planned(tmp_path, [fake_screen()])
    assert planned[C.LAYOUT_SCENE].iloc[0]["device"]["screen_band"] is None


def test_top_rows_decode_like_the_whole_image(tmp_path):
    from shotsmith.stages.layout.screenband import read_top_rows

    source = web_screenshot((300, 700))
    alpha = source.convert("RGBA")
    alpha.putalpha(128)
    for name, im in {
        "RGB": source,
        "RGBA": alpha,
        "L": source.convert("L"),
        "P": source.convert("P", palette=Image.Palette.ADAPTIVE),
    }.items():
        data = encode_png(im) if name == "RGB" else _png(im)
        top = read_top_rows(data, 90)
        assert top is not None and top.size == (300, 90), name
        whole = ss.open_image(data).crop((0, 0, 300, 90))
        assert np.array_equal(np.asarray(top), np.asarray(whole)), name
    import struct
    import zlib

    data = bytearray(encode_png(source))
    data[28] = 1  # IHDR says Adam7 interlacing: rows are not stored top to bottom
    data[29:33] = struct.pack(">I", zlib.crc32(bytes(data[12:29])) & 0xFFFFFFFF)
    assert read_top_rows(bytes(data), 90) is None  # the caller decodes it whole


def _png(im: Image.Image) -> bytes:
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return buf.getvalue()
