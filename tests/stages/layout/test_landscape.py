"""Landscape sets: games and iPad apps held sideways.

Landscape raw screenshots (drawn here with Pillow: a small game scene with a score bar)
are designed on the landscape canvas of their store class, the device turned sideways,
in the template's ``[landscape]`` settings; real fonts, real Pillow rendering, the CLI and
the stores' rules (``validate``) on the PNGs written.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

import shotsmith as ss
from shotsmith import columns as C
from shotsmith.cli import main
from shotsmith.errors import ShotsmithError
from shotsmith.export.validate import validate
from shotsmith.scene import Scene

from ...conftest import INTER_BOLD

EDGE_GREEN = (0, 200, 0)
BOTTOM_RED = (220, 0, 0)
SCREENS = ["level", "boss", "shop", "map"]


def game_screen(size: tuple[int, int], title: str) -> Image.Image:
    """A landscape game screen: sky, hills, a player, coins and a score bar; the outermost
    columns green and the last rows red, so a test sees whether anything was cut away."""
    width, height = size
    im = Image.new("RGB", size, (120, 190, 250))
    draw = ImageDraw.Draw(im)
    for y in range(height // 2):
        shade = round(80 * y / (height / 2))
        draw.line((0, y, width, y), fill=(90 + shade // 2, 160 + shade // 3, 250))
    draw.ellipse((-width * 0.1, height * 0.55, width * 0.6, height * 1.4), fill=(70, 170, 90))
    draw.ellipse((width * 0.4, height * 0.6, width * 1.2, height * 1.5), fill=(50, 140, 70))
    draw.rectangle((width * 0.3, height * 0.5, width * 0.34, height * 0.66), fill=(230, 80, 60))
    for i in range(5):
        x = width * (0.45 + 0.07 * i)
        draw.ellipse((x, height * 0.42, x + height * 0.06, height * 0.48), fill=(250, 200, 40))
    font = ImageFont.truetype(INTER_BOLD, round(height * 0.06))
    draw.rounded_rectangle(
        (width * 0.1, height * 0.05, width * 0.45, height * 0.15),
        radius=height * 0.03,
        fill=(20, 30, 60),
    )
    draw.text((width * 0.12, height * 0.065), f"{title}  12,450", font=font, fill=(255, 255, 255))
    band = max(6, round(width * 0.006))
    draw.rectangle((0, 0, band - 1, height), fill=EDGE_GREEN)
    draw.rectangle((width - band, 0, width, height), fill=EDGE_GREEN)
    draw.rectangle((band, height - band, width - band - 1, height), fill=BOTTOM_RED)
    return im


def landscape_set(folder: Path, size: tuple[int, int], count: int = 3, device: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    names = SCREENS[:count]
    for n, name in enumerate(names):
        game_screen(size, name.title()).save(folder / f"{n + 1:02d}_{name}.png")
    if device:
        manifest = {"project_name": "Skyhop", "device": device}
        manifest["screens"] = [
            {"file": f"{n + 1:02d}_{name}.png", "screen": name} for n, name in enumerate(names)
        ]
        (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder


def captioned(folder: Path, **read) -> object:
    frame = ss.read_screenshots(folder, project_name="Skyhop", **read)
    frame[C.COPY_HEADLINE] = [f"Jump through every {n}" for n in frame[C.SCREEN]]
    frame[C.COPY_SUBTITLE] = "Quick rounds that fit a coffee break"
    frame[C.FEATURES_ACCENT] = "#2f7de1"
    return frame


def design_json(folder: Path) -> list[dict]:
    return json.loads((folder / "design.json").read_text(encoding="utf-8"))


def assert_whole_and_sideways(scene: Scene, image: np.ndarray) -> None:
    """The device lies across (wider than tall) inside the canvas, below the caption, and
    shows the whole screenshot: both green side edges and the red bottom rows."""
    device = scene.device
    assert device.rotation == 90 and device.width > device.height
    assert device.x >= 0 and device.x + device.width <= scene.width
    assert device.y >= 0 and device.y + device.height <= scene.height  # whole, not bled
    for block in scene.texts:
        x, y, w, h = block.box
        assert 0 <= x and x + w <= scene.width and y + h < device.y  # above the device
        assert block.contrast >= 4.5
    sx, sy, sw, sh = device.screen_box
    assert sw > sh
    mid = sy + sh // 2
    for x in (sx + 2, sx + sw - 3):
        assert np.abs(image[mid, x].astype(int) - EDGE_GREEN).max() < 60, image[mid, x]
    bottom = image[sy + sh - 3, sx + sw // 2].astype(int)
    assert np.abs(bottom - BOTTOM_RED).max() < 60, bottom


@pytest.mark.slow
def test_a_landscape_iphone_set_is_drawn_sideways_at_the_landscape_store_size(tmp_path: Path):
    raw = landscape_set(tmp_path / "skyhop", (2622, 1206))  # an iPhone 17 Pro held sideways
    code = main(["design", str(raw), "--out", str(tmp_path / "out"), "--no-ocr", "--quiet"])
    assert code == 0
    folder = tmp_path / "out" / "skyhop"
    rows = design_json(folder)
    assert {r["layout_device"] for r in rows} == {"iphone-17-pro"}
    assert {r["layout_size"] for r in rows} == {"2868x1320"}  # 6.9", landscape
    for row in rows:
        with Image.open(row["render_path"]) as im:
            assert im.size == (2868, 1320) and im.mode == "RGB"
            assert "transparency" not in im.info
    assert validate(folder) == []  # the App Store takes the landscape size
    planned = ss.plan_layout(captioned(raw))
    for scene_dict in planned[C.LAYOUT_SCENE]:
        scene = Scene.from_dict(scene_dict)
        image = np.asarray(ss.render_scene(scene))
        assert_whole_and_sideways(scene, image)
        ix, iy, iw, ih = scene.device.island  # the island stands at the display's left edge
        sx, sy, sw, sh = scene.device.screen_box
        assert ih > iw and ix - sx < sw // 10
        assert abs((iy + ih / 2) - (sy + sh / 2)) <= 2
        assert image[iy + ih // 2, ix + iw // 2].max() < 20  # drawn, black


@pytest.mark.parametrize(
    "size, device, canvas",
    [
        ((2752, 2064), "ipad-pro-13", (2752, 2064)),  # an iPad app held sideways: 13"
        ((2424, 1080), "pixel-9", (1920, 1080)),  # a Play phone set, 16:9
        ((2736, 1260), "iphone-air", (2868, 1320)),
    ],
)
def test_landscape_sets_of_other_devices(tmp_path: Path, size, device, canvas):
    raw = landscape_set(tmp_path / "skyhop", size, count=2)
    for template in ("default", "spotlight"):
        planned = ss.plan_layout(captioned(raw), template=template)
        assert set(planned[C.LAYOUT_DEVICE]) == {device}
        assert set(planned[C.LAYOUT_SIZE]) == {f"{canvas[0]}x{canvas[1]}"}
        scene = Scene.from_dict(planned[C.LAYOUT_SCENE].iloc[0])
        image = np.asarray(ss.render_scene(scene))
        assert image.shape == (canvas[1], canvas[0], 3)
        assert_whole_and_sideways(scene, image)
        if scene.device.punch_hole:  # a Pixel's camera hole, at the left edge too
            hx, hy, hd, _ = scene.device.punch_hole
            assert hx - scene.device.screen_box[0] < scene.device.screen_box[2] // 10


def test_a_named_size_turns_with_a_landscape_set(tmp_path: Path):
    raw = landscape_set(tmp_path / "skyhop", (2622, 1206), count=1)
    assert set(ss.plan_layout(captioned(raw), size="6.5")[C.LAYOUT_SIZE]) == {"2778x1284"}
    assert set(ss.plan_layout(captioned(raw), size="2868x1320")[C.LAYOUT_SIZE]) == {"2868x1320"}
    with pytest.raises(ShotsmithError, match="1320x2868 is a portrait size.*Use 2868x1320"):
        ss.plan_layout(captioned(raw), size="1320x2868")


def test_a_landscape_template_section_is_honoured(tmp_path: Path):
    raw = landscape_set(tmp_path / "skyhop", (2622, 1206), count=1)
    template = {"landscape": {"device": {"width": 0.5}}}
    narrow = Scene.from_dict(ss.plan_layout(captioned(raw), template=template)[C.LAYOUT_SCENE][0])
    wide = Scene.from_dict(ss.plan_layout(captioned(raw))[C.LAYOUT_SCENE][0])
    assert narrow.device.width == round(0.5 * 2868) < wide.device.width
    portrait = Scene.from_dict(
        ss.plan_layout(
            captioned(landscape_set(tmp_path / "tall", (1206, 2622), count=1)),
            template=template,
        )[C.LAYOUT_SCENE][0]
    )
    assert portrait.device.rotation == 0 and portrait.device.width == round(0.8 * 1320)
