"""The device follows the screenshots; several sizes in one run; progress.

Raw screenshots are drawn with Pillow at real device sizes (a Pixel 9's 1080x2424, a
12.9" iPad Pro's 2048x2732, ...) with a status bar from shotsmith's own status-bar
painter, then designed through the real pipeline and the real CLI: real fonts, real
Pillow rendering, real PNG files on disk.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

import shotsmith as ss
from shotsmith import columns as C
from shotsmith.cli import main
from shotsmith.errors import InvalidOptionError, ShotsmithError
from shotsmith.export.validate import validate
from shotsmith.scene import Scene
from shotsmith.stages.layout.sizes import (
    ANDROID_PHONE,
    ANDROID_TABLET,
    IPAD,
    IPHONE,
    output_size_for,
    parse_size,
    parse_sizes,
    screenshot_device,
)
from shotsmith.statusbar import StatusBarStyle, draw_status_bar

from .conftest import INTER_BOLD

EDGE_GREEN = (0, 200, 0)
BOTTOM_RED = (220, 0, 0)
BARS = {
    "android": StatusBarStyle("android", 2.625, 36),
    "ipad": StatusBarStyle("ios", 2, 24, tablet=True),
    "iphone": StatusBarStyle("ios", 3, 62, island_pt=(126, 37, 11)),
}
NAMES = ["home", "search", "detail", "settings", "profile", "history", "stats", "saved"]


def app_screen(size: tuple[int, int], title: str, platform: str, *, edges: bool = False):
    """A plausible app screen at ``size``: status bar, title, accent card, list rows.
    ``edges`` paints the outermost columns green and the last rows red, so a test can
    see whether any part of the screenshot was cropped away."""
    width, height = size
    unit = width / 100
    im = Image.new("RGB", size, (246, 247, 250))
    draw = ImageDraw.Draw(im)
    font = ImageFont.truetype(INTER_BOLD, round(7 * unit))
    draw.text((6 * unit, 0.09 * height), title, font=font, fill=(20, 20, 26))
    draw.rounded_rectangle(
        (6 * unit, 0.16 * height, 94 * unit, 0.28 * height), radius=4 * unit, fill=(30, 110, 230)
    )
    for i in range(6):
        top = 0.31 * height + i * 0.1 * height
        draw.rounded_rectangle(
            (6 * unit, top, 94 * unit, top + 0.085 * height), radius=3 * unit, fill=(255, 255, 255)
        )
    if edges:
        band = max(6, round(width * 0.01))
        top = round(0.08 * height)  # below the status bar: the top inset stays clear
        draw.rectangle((0, top, band - 1, height), fill=EDGE_GREEN)
        draw.rectangle((width - band, top, width, height), fill=EDGE_GREEN)
        draw.rectangle((0, height - band, width, height), fill=BOTTOM_RED)
    return draw_status_bar(im, BARS[platform])


def raw_set(folder: Path, size: tuple[int, int], platform: str, count: int = 4, **kw) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(count):
        name = NAMES[n % len(NAMES)]
        app_screen(size, name.title(), platform, **kw).save(folder / f"{n + 1:02d}_{name}.png")
    return folder


def captioned(folder: Path, **read) -> ss.Pipeline:
    frame = ss.read_screenshots(folder, project_name="Trailhead", **read)
    frame[C.COPY_HEADLINE] = [f"See every {n} at once" for n in frame[C.SCREEN]]
    frame[C.COPY_SUBTITLE] = "Plan the next hike in one calm place"
    frame[C.FEATURES_ACCENT] = "#1e6ee6"
    return frame


def design_json(folder: Path) -> list[dict]:
    return json.loads((folder / "design.json").read_text(encoding="utf-8"))


# --- which device ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "hint, size, family, frame",
    [
        ("iphone-16-pro", (1080, 2424), ANDROID_PHONE, "pixel-9"),  # read_screenshots' default
        ("", (1344, 2992), ANDROID_PHONE, "pixel-9-pro-xl"),
        ("", (1080, 2400), ANDROID_PHONE, "pixel-9"),  # another Android phone, same frame
        ("iphone-16-pro", (2048, 2732), IPAD, "ipad-pro-13"),
        ("", (1668, 2388), IPAD, "ipad-pro-13"),  # an 11" iPad: the iPad frame, its aspect
        ("", (1600, 2560), ANDROID_TABLET, "pixel-tablet"),
        ("", (1206, 2622), IPHONE, "iphone-16-pro"),
        ("iphone-16-pro-max", (1320, 2868), IPHONE, "iphone-16-pro-max"),  # capture says so
        ("iphone-14-plus", (1284, 2778), IPHONE, "iphone-16-pro"),  # no frame of its own
        ("", (750, 1334), IPHONE, "iphone-se-3"),  # 16:9: the frame with a 16:9 screen
        ("pixel-9", (1600, 2560), ANDROID_TABLET, "pixel-tablet"),  # pixels say tablet
    ],
)
def test_the_device_follows_the_screenshot(hint, size, family, frame):
    choice = screenshot_device(hint, *size, default_frame="iphone-16-pro")
    assert (choice.family, choice.frame.id) == (family, frame)


def test_one_function_decides_the_store_size_per_device():
    assert str(output_size_for("iphone-16-pro")) == "1320x2868"
    assert str(output_size_for("ipad-pro-13")) == "2064x2752"
    phone = output_size_for("pixel-9")
    tablet = output_size_for("pixel-tablet")
    for size, (low, high) in ((phone, (320, 3840)), (tablet, (1080, 7680))):
        assert low <= size.width <= high and low <= size.height <= high
        assert size.height <= 2 * size.width
    assert str(output_size_for("pixel-9", "1440x2560")) == "1440x2560"  # any Play size
    with pytest.raises(InvalidOptionError, match="not an App Store size for iPad"):
        output_size_for("ipad-pro-13", "6.9")
    with pytest.raises(InvalidOptionError, match="not a Google Play size.*use android-phone"):
        output_size_for("pixel-9", "6.9")  # 1320x2868 is longer than 2x its width


def test_one_size_parser():
    for text in ("6.9", '6.9"', "6.90", "6.9in", " 6.9 inch", "iphone"):
        assert str(parse_size(text)) == "1320x2868", text
    assert str(parse_size("13")) == str(parse_size("ipad")) == "2064x2752"
    assert str(parse_size("6.1")) == "1170x2532"  # every App Store class by name
    assert str(parse_size((1284, 2778))) == str(parse_size("1284x2778")) == "1284x2778"
    assert parse_size("6.5").width == 1284 and parse_size("6.5").height == 2778
    assert [s.name for s in parse_sizes(["6.9", "6.90", "6.5"])] == ["6.9", "6.5"]
    assert parse_size("2868x1320").landscape  # the 6.9" landscape size (a landscape set's)
    with pytest.raises(InvalidOptionError, match="not an accepted store screenshot size"):
        parse_size("17x17")
    assert str(parse_size("1000x1000")) == "1000x1000"  # Google Play takes it
    with pytest.raises(InvalidOptionError, match="unknown output size 'huge'"):
        parse_size("huge")


# --- Android and iPad sets, end to end ---------------------------------------------------


def test_android_raws_become_a_play_set_in_a_pixel_frame(tmp_path: Path, capsys):
    raw = raw_set(tmp_path / "trailhead-android", (1080, 2424), "android")
    code = main(["design", str(raw), "--out", str(tmp_path / "out"), "--no-ocr"])
    assert code == 0
    folder = tmp_path / "out" / "trailhead-android"
    rows = design_json(folder)
    assert {r["layout_device"] for r in rows} == {"pixel-9"}
    for row in rows:
        with Image.open(row["render_path"]) as im:
            assert im.mode == "RGB" and "transparency" not in im.info
            assert im.size == (1080, 1920)  # Google Play 9:16
    assert validate(folder) == []  # the stores' rules: sizes, count, RGB
    assert "Dynamic Island" not in capsys.readouterr().err


def test_android_set_shows_a_punch_hole_not_an_island(tmp_path: Path):
    raw = raw_set(tmp_path / "shots", (1080, 2424), "android", count=2)
    planned = ss.plan_layout(captioned(raw))
    scene = Scene.from_dict(planned[C.LAYOUT_SCENE].iloc[0])
    assert scene.device.model == "pixel-9"
    assert scene.device.island is None and scene.device.punch_hole is not None
    image = np.asarray(ss.render_scene(scene))
    x, y, d, _ = scene.device.punch_hole
    assert image[y + d // 2, x + d // 2].max() < 20  # the camera hole is drawn, black


@pytest.mark.slow
def test_ipad_raws_become_a_13_inch_set_whole_not_cropped(tmp_path: Path):
    raw = raw_set(tmp_path / "shots", (2048, 2732), "ipad", count=3, edges=True)
    planned = ss.plan_layout(captioned(raw), template="spotlight")  # whole device on canvas
    rendered = ss.render(planned, out_dir=tmp_path / "out")
    assert set(rendered[C.LAYOUT_DEVICE]) == {"ipad-pro-13"}
    for _, row in rendered.iterrows():
        scene = Scene.from_dict(row[C.LAYOUT_SCENE])
        with Image.open(row[C.RENDER_PATH]) as im:
            assert im.size == (2064, 2752) and im.mode == "RGB"
            pixels = np.asarray(im).astype(int)
        sx, sy, sw, sh = scene.device.screen_box
        mid = sy + sh // 2
        # the screenshot's outermost columns and its last rows are on the canvas: nothing
        # of the screen was cut away to fill an iPhone- (or any other) shaped display
        for x in (sx + 2, sx + sw - 3):
            assert np.abs(pixels[mid, x] - EDGE_GREEN).max() < 60, (x, pixels[mid, x])
        bottom = pixels[sy + sh - 12, sx + sw // 2]
        assert np.abs(bottom - BOTTOM_RED).max() < 60, bottom


def test_a_screenshot_of_another_aspect_is_letterboxed_with_a_message(tmp_path: Path, caplog):
    raw = raw_set(tmp_path / "shots", (1080, 1920), "android", count=2, edges=True)
    with caplog.at_level(logging.WARNING, logger="shotsmith"):
        planned = ss.plan_layout(captioned(raw, devices="pixel-9"), template="spotlight")
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 2
    assert "letterboxed" in messages[0] and "not cropped" in messages[0]
    assert "1080x1920" in messages[0] and "Pixel 9" in messages[0]
    scene = Scene.from_dict(planned[C.LAYOUT_SCENE].iloc[0])
    assert scene.device.fit == "contain"
    image = np.asarray(ss.render_scene(scene)).astype(int)
    sx, sy, sw, sh = scene.device.screen_box
    mid = sy + sh // 2
    for x in (sx + 2, sx + sw - 3):  # the whole width is shown
        assert np.abs(image[mid, x] - EDGE_GREEN).max() < 60
    shown_h = round(sw * 1920 / 1080)
    bar_bottom = sy + (sh + shown_h) // 2 + 8  # below the screenshot: the bar
    assert np.abs(image[bar_bottom, sx + sw // 2] - BOTTOM_RED).max() < 60  # its edge colour
    assert image[sy + (sh + shown_h) // 2 - 4, sx + sw // 2].tolist() != [246, 247, 250]


def test_the_templates_device_is_a_default_not_an_override(tmp_path: Path):
    template = {"name": "max", "device": {"model": "iphone-16-pro-max"}}
    android = raw_set(tmp_path / "android", (1080, 2424), "android", count=2)
    # an iPhone 14 Plus's pixels: no frame of its own, so the template's device draws it
    iphone = raw_set(tmp_path / "iphone", (1284, 2778), "iphone", count=2)
    assert set(ss.plan_layout(captioned(android), template=template)[C.LAYOUT_DEVICE]) == {
        "pixel-9"
    }
    assert set(ss.plan_layout(captioned(iphone), template=template)[C.LAYOUT_DEVICE]) == {
        "iphone-16-pro-max"
    }


def test_a_set_mixing_devices_or_landscape_shots_is_refused(tmp_path: Path):
    mixed = raw_set(tmp_path / "mixed", (1080, 2424), "android", count=2)
    app_screen((2048, 2732), "Tablet", "ipad").save(mixed / "03_tablet.png")
    with pytest.raises(ShotsmithError, match="mixes Android phone and iPad"):
        ss.plan_layout(captioned(mixed))
    wide = raw_set(tmp_path / "wide", (1080, 2424), "android", count=1)
    app_screen((2424, 1080), "Wide", "android").save(wide / "02_wide.png")
    with pytest.raises(ShotsmithError, match="is landscape"):
        ss.plan_layout(captioned(wide))


def test_an_iphone_size_for_ipad_screenshots_is_refused_clearly(tmp_path: Path, capsys):
    raw = raw_set(tmp_path / "ipad", (2048, 2732), "ipad", count=2)
    code = main(["design", str(raw), "--out", str(tmp_path / "out"), "--no-ocr", "--size", "6.9"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert "not an App Store size for iPad screenshots; use 13, 11" in err


# --- current devices ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hint, size, family, frame",
    [
        ("", (1206, 2622), IPHONE, "iphone-17-pro"),  # the built-in templates' device
        ("", (1320, 2868), IPHONE, "iphone-17-pro-max"),  # the newest of those pixels
        ("", (1260, 2736), IPHONE, "iphone-air"),  # its own pixels, though 17 Pro's fit
        ("iphone-17", (1206, 2622), IPHONE, "iphone-17"),  # capture or a manifest says so
        ("", (1080, 2340), ANDROID_PHONE, "galaxy-s25"),  # read as App Store 6.1" before
        ("galaxy-s25", (1080, 2340), ANDROID_PHONE, "galaxy-s25"),
    ],
)
def test_current_devices_are_framed_from_their_pixels(hint, size, family, frame):
    choice = screenshot_device(hint, *size, default_frame="iphone-17-pro")
    assert (choice.family, choice.frame.id) == (family, frame)


@pytest.mark.slow
def test_an_iphone_17_pro_set_renders_at_the_store_size_in_its_frame(tmp_path: Path):
    raw = raw_set(tmp_path / "trailhead", (1206, 2622), "iphone", count=3, edges=True)
    code = main(["design", str(raw), "--out", str(tmp_path / "out"), "--no-ocr", "--quiet"])
    assert code == 0
    folder = tmp_path / "out" / "trailhead"
    rows = design_json(folder)
    assert {r["layout_device"] for r in rows} == {"iphone-17-pro"}
    for row in rows:
        with Image.open(row["render_path"]) as im:
            assert im.size == (1320, 2868) and im.mode == "RGB"
    assert validate(folder) == []
    planned = ss.plan_layout(captioned(raw))
    scene = Scene.from_dict(planned[C.LAYOUT_SCENE].iloc[0])
    assert scene.device.model == "iphone-17-pro" and scene.device.island is not None
    pixels = np.asarray(ss.render_scene(scene)).astype(int)
    sx, sy, sw, sh = scene.device.screen_box
    for x in (sx + 2, sx + sw - 3):  # the screenshot fills the display's width
        assert np.abs(pixels[sy + sh // 2, x] - EDGE_GREEN).max() < 60


def test_a_galaxy_s25_set_is_a_play_set_in_its_own_frame(tmp_path: Path):
    raw = raw_set(tmp_path / "shots", (1080, 2340), "android", count=2)
    planned = ss.plan_layout(captioned(raw))
    assert set(planned[C.LAYOUT_DEVICE]) == {"galaxy-s25"}
    assert set(planned[C.LAYOUT_SIZE]) == {"1080x1920"}
    scene = Scene.from_dict(planned[C.LAYOUT_SCENE].iloc[0])
    assert scene.device.fit == "cover"  # the frame's display has the screenshot's aspect
    assert scene.device.island is None and scene.device.punch_hole is not None
    image = ss.render_scene(scene)
    assert image.size == (1080, 1920) and image.mode == "RGB"


def test_an_iphone_air_set_keeps_its_frame_at_every_iphone_size(tmp_path: Path):
    raw = raw_set(tmp_path / "shots", (1260, 2736), "iphone", count=2)
    for size, pixels in (("6.9", "1320x2868"), ("1260x2736", "1260x2736")):
        planned = ss.plan_layout(captioned(raw), size=size)
        assert set(planned[C.LAYOUT_DEVICE]) == {"iphone-air"}
        assert set(planned[C.LAYOUT_SIZE]) == {pixels}
        scene = Scene.from_dict(planned[C.LAYOUT_SCENE].iloc[0])
        assert scene.device.fit == "cover"


def test_a_tablet_size_for_phone_screenshots_says_so(tmp_path: Path, caplog):
    raw = raw_set(tmp_path / "shots", (1080, 2424), "android", count=2)
    with caplog.at_level(logging.WARNING, logger="shotsmith"):
        planned = ss.plan_layout(captioned(raw), size="android-tablet")
    assert set(planned[C.LAYOUT_DEVICE]) == {"pixel-9"}  # a phone, drawn as one
    [message] = [r.getMessage() for r in caplog.records]
    assert "android-tablet (1440x2560) is Google Play's Android tablet size" in message
    assert "these are Android phone screenshots" in message
    assert "leave the size out (android-phone, 1080x1920)" in message


# --- several sizes -------------------------------------------------------------------------


@pytest.mark.slow
def test_two_sizes_into_one_out_are_both_kept(tmp_path: Path, capsys):
    raw = raw_set(tmp_path / "trailhead", (1206, 2622), "iphone", count=3)
    out = tmp_path / "out"
    base = ["design", str(raw), "--out", str(out), "--no-ocr", "--quiet"]
    assert main([*base, "--size", "6.9", "--size", "6.5"]) == 0
    sizes = {"6.9": (1320, 2868), "6.5": (1284, 2778)}
    for name, size in sizes.items():
        files = sorted((out / name / "trailhead").glob("0*.png"))
        assert len(files) == 3
        for path in files:
            with Image.open(path) as im:
                assert im.size == size and im.mode == "RGB"
    before = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in out.rglob("*.png")}
    # a later run at another size, and one at the device's own size, overwrite neither
    assert main([*base, "--size", "6.3"]) == 0
    assert main(base) == 0
    after = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in before}
    assert after == before
    assert len(list((out / "6.3" / "trailhead").glob("0*.png"))) == 3
    assert len(list((out / "trailhead").glob("0*.png"))) == 3
    tables = capsys.readouterr().out
    assert str(out / "6.9" / "trailhead" / "design.json") in tables


@pytest.mark.slow
def test_design_takes_sizes_and_reads_the_screens_once(tmp_path: Path):
    raw = raw_set(tmp_path / "trailhead", (1206, 2622), "iphone", count=2)
    frame = ss.design(raw, sizes=["6.9", "6.3"], out_dir=tmp_path / "out", ocr=False)
    assert sorted(set(frame[C.LAYOUT_SIZE])) == ["1206x2622", "1320x2868"]
    assert len(frame) == 4
    # one caption per screen, the same at every size
    assert frame.groupby(C.SCREEN)[C.COPY_HEADLINE].nunique().max() == 1
    for size in ("6.9", "6.3"):
        assert (tmp_path / "out" / size / "trailhead" / "design.json").exists()


def test_a_landscape_size_is_refused_clearly(tmp_path: Path, capsys):
    raw = raw_set(tmp_path / "trailhead", (1206, 2622), "iphone", count=1)
    code = main(["design", str(raw), "--out", str(tmp_path / "o"), "--size", "2868x1320"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert "landscape size" in err and "Use 1320x2868" in err
    assert not (tmp_path / "o").exists()


# --- progress and store rules ------------------------------------------------------------


def test_design_shows_progress_per_screenshot_and_quiet_silences_it(tmp_path: Path, capsys):
    raw = raw_set(tmp_path / "trailhead", (1080, 2424), "android", count=3)
    assert main(["design", str(raw), "--out", str(tmp_path / "a"), "--no-ocr"]) == 0
    err = capsys.readouterr().err.splitlines()
    stages = [line for line in err if line.endswith("(3 screenshots)")]
    assert [line.split()[3] for line in stages] == [
        "extract_features",
        "detect_domain",
        "write_copy",
        "plan_layout",
        "render",
    ]
    done = [line for line in err if "] " in line and "01_" in line or "03_" in line]
    assert any("[1/3]" in line and "01_home.png 1080x1920 (pixel-9)" in line for line in done)
    assert any("[3/3]" in line for line in done)
    assert main(["design", str(raw), "--out", str(tmp_path / "b"), "--no-ocr", "--quiet"]) == 0
    quiet = capsys.readouterr().err.splitlines()
    # no progress; warnings still speak (blank screens leave their captions to the user)
    assert not [line for line in quiet if "screenshots)" in line or "/3]" in line], quiet
    assert all(line.startswith("shotsmith design: write_copy:") for line in quiet), quiet


def test_design_progress_bar_in_python(tmp_path: Path, capsys):
    raw = raw_set(tmp_path / "trailhead", (1206, 2622), "iphone", count=2)
    events = []
    ss.design(raw, out_dir=tmp_path / "a", ocr=False, progress=events.append)
    assert [e["stage"] for e in events if e["event"] == "stage"][-1] == "render"
    assert [e["position"] for e in events if e["event"] == "rendered"] == [0, 1]
    ss.design(raw, out_dir=tmp_path / "b", ocr=False, progress=True)
    err = capsys.readouterr().err
    assert "2/2" in err and "screenshot" in err  # tqdm's bar, on stderr


@pytest.mark.slow
def test_an_android_set_over_the_play_limit_warns(tmp_path: Path, capsys):
    raw = raw_set(tmp_path / "trailhead", (1080, 2424), "android", count=9)
    assert main(["design", str(raw), "--out", str(tmp_path / "out"), "--no-ocr", "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "warning:" in err and "Google Play takes at most 8: drop 1" in err


def test_a_fastlane_screengrab_folder_is_designed_for_its_device(tmp_path: Path):
    phone = tmp_path / "fastlane" / "metadata" / "android" / "en-US" / "images"
    raw_set(phone / "phoneScreenshots", (1080, 2424), "android", count=2)
    code = main(
        ["design", str(tmp_path / "fastlane"), "--out", str(tmp_path / "out"), "--no-ocr"]
        + ["--project-name", "Trailhead", "--quiet"]
    )
    assert code == 0
    [table] = list((tmp_path / "out").rglob("design.json"))
    rows = json.loads(table.read_text(encoding="utf-8"))
    assert {r["layout_device"] for r in rows} == {"pixel-9"}
    assert {(r["render_width"], r["render_height"]) for r in rows} == {(1080, 1920)}


@pytest.mark.slow
def test_another_devices_set_of_the_same_app_is_not_written_over(tmp_path: Path, capsys):
    android = raw_set(tmp_path / "android", (1080, 2424), "android", count=2)
    ipad = raw_set(tmp_path / "ipad", (2048, 2732), "ipad", count=2)
    out = tmp_path / "out"
    base = ["--out", str(out), "--no-ocr", "--quiet", "--project-name", "Trailhead"]
    assert main(["design", str(android), *base]) == 0
    before = {p: p.read_bytes() for p in (out / "trailhead").glob("*.png")}
    assert main(["design", str(ipad), *base]) == 2
    err = capsys.readouterr().err
    assert "already holds a 1080x1920 set of trailhead; this one is 2064x2752" in err
    assert {p: p.read_bytes() for p in (out / "trailhead").glob("*.png")} == before
    assert main(["design", str(ipad), *base, "--size", "13"]) == 0  # its own folder
    with Image.open(out / "13" / "trailhead" / "01_home.png") as im:
        assert im.size == (2064, 2752)
