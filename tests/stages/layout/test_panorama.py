"""The panorama template: shapes on one strip as wide as the set, cut into slides."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import shotsmith as ss
from shotsmith import columns as C
from shotsmith.scene import Scene
from shotsmith.stages.render import draw_background

from ...conftest import ROOT

SAMPLES = ROOT / "sample_inputs"


@pytest.fixture(scope="module")
def panorama_set(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("panorama")
    ss.design(
        SAMPLES / "pocket-budget",
        project_name="Pocket Budget",
        template="panorama",
        out_dir=out,
        ocr=False,
    )
    return next(out.rglob("design.json")).parent


def test_shapes_run_on_across_slide_edges(panorama_set: Path) -> None:
    rows = json.loads((panorama_set / "design.json").read_text("utf-8"))
    assert len(rows) == 5
    slides = [Image.open(panorama_set / Path(r[C.RENDER_PATH]).name) for r in rows]
    assert {(s.size, s.mode) for s in slides} == {((1320, 2868), "RGB")}
    crossing = 0
    for i in range(len(slides) - 1):
        right = np.asarray(slides[i], dtype=np.int16)[:, -1]
        left = np.asarray(slides[i + 1], dtype=np.int16)[:, 0]
        # the strip is continuous: the last column of a slide meets the next one's first
        assert np.abs(right - left).mean() < 2.0, f"slides {i + 1}/{i + 2} do not meet"
        scene = Scene.from_dict(rows[i][C.LAYOUT_SCENE])
        plain = np.asarray(
            draw_background(replace(scene.background, shapes=[]), scene.width, scene.height),
            dtype=np.int16,
        )[:, -1]
        # a shape crosses this edge where the column is not the bare gradient
        crossing += int(np.abs(right - plain).max() > 8)
    assert crossing >= 3, f"shapes cross only {crossing} of 4 slide edges"
    for row in rows:
        assert row[C.LAYOUT_CONTRAST] >= 4.5  # measured on each slide's own pixels
        assert row[C.LAYOUT_SCENE]["background"]["shapes"]


def test_panorama_shapes_are_svg_circles(panorama_set: Path) -> None:
    from shotsmith.export.svg import export_svg

    rows = json.loads((panorama_set / "design.json").read_text("utf-8"))
    svgs = export_svg(panorama_set)
    for svg, row in zip(svgs, rows):
        shapes = row[C.LAYOUT_SCENE]["background"]["shapes"]
        assert svg.read_text("utf-8").count('<circle class="shape"') == len(shapes)


# --- the device across a slide edge --------------------------------------------------------
REAL = ROOT / "tests" / "data" / "realapps"
# (raws, project, devices, sizes): a real iPhone app at the iPhone sizes and as an Android
# phone set, a real iPad app at the iPad size and as an Android tablet set (letterboxed:
# another aspect); every slide at its exact store size
STORE_SETS = [
    (REAL / "ihatemoney", "I Hate Money", None, ["6.9", "6.5", "6.3"]),
    (REAL / "ihatemoney", "I Hate Money", "pixel-9", ["android-phone"]),
    (REAL / "optuna", "Optuna", None, ["13"]),
    (REAL / "optuna", "Optuna", "pixel-tablet", ["android-tablet"]),
]
EXACT = {"6.9": (1320, 2868), "6.5": (1284, 2778), "6.3": (1206, 2622)}
EXACT |= {"android-phone": (1080, 1920), "13": (2064, 2752), "android-tablet": (1440, 2560)}


@pytest.fixture(scope="module")
def store_sets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A panorama set of real apps per store size: size name -> the set's folder."""
    out = tmp_path_factory.mktemp("panorama-sizes")
    folders = {}
    for raws, name, devices, sizes in STORE_SETS:
        target = out / raws.name / (devices or "native")
        ss.design(
            raws,
            project_name=name,
            devices=devices,
            template="panorama",
            sizes=sizes,
            out_dir=target,
            ocr=False,
        )
        for size in sizes:
            pattern = f"{size}/*/design.json" if len(sizes) > 1 else "design.json"
            (table,) = target.rglob(pattern)
            folders[size] = table.parent
    return folders


def _slides(folder: Path) -> tuple[list[dict], list[np.ndarray]]:
    rows = json.loads((folder / "design.json").read_text("utf-8"))
    pictures = []
    for row in rows:
        with Image.open(folder / Path(row[C.RENDER_PATH]).name) as image:
            assert image.mode == "RGB", f"{row[C.RENDER_PATH]}: {image.mode}, not RGB"
            pictures.append(np.asarray(image, dtype=np.int16))
    return rows, pictures


@pytest.mark.slow
@pytest.mark.parametrize("size", list(EXACT))
def test_a_device_runs_across_the_edge_at_every_store_size(
    store_sets: dict[str, Path], size: str
) -> None:
    rows, pictures = _slides(store_sets[size])
    width, height = EXACT[size]
    assert {p.shape for p in pictures} == {(height, width, 3)}  # exact, no alpha
    scenes = [Scene.from_dict(r[C.LAYOUT_SCENE]) for r in rows]
    # the template's straddle: slide 2's device crosses into slide 3
    own, following = scenes[1], scenes[2]
    assert own.device.x < width < own.device.x + own.device.width
    (crossing,) = [d for d in following.strip_devices if d.source == 1]
    assert crossing.x == own.device.x - width and crossing.y == own.device.y
    overflow = own.device.x + own.device.width - width
    assert following.device.x >= overflow  # the next slide's own device clears it
    # the part of slide 2's device beyond its edge is exactly what slide 3 shows there:
    # slide 2's scene drawn on a canvas two slides wide, columns [width, width + overflow)
    wide = replace(own, width=2 * width, background=replace(own.background, shapes=[]))
    from shotsmith.stages.render import render_scene

    beyond = np.asarray(render_scene(wide), dtype=np.int16)[:, width : width + overflow]
    shown = pictures[2][:, :overflow]
    sx, sy, sw, sh = crossing.screen_box
    inside = crossing.screen_radius  # below and above the display's rounded corners
    rows_on_screen = slice(max(0, sy + inside), min(height, sy + sh - inside))
    cols_on_screen = slice(0, max(0, min(overflow, sx + sw)))
    assert cols_on_screen.stop > 0.1 * width  # a real part of the display crosses
    screen_part = np.abs(
        beyond[rows_on_screen, cols_on_screen] - shown[rows_on_screen, cols_on_screen]
    )
    assert screen_part.max() <= 2, "the display's halves do not continue across the edge"
    # and the two sides of the cut meet: the last column of slide 2 against slide 3's first
    edge = np.abs(pictures[1][:, -1] - pictures[2][:, 0])
    assert edge[rows_on_screen].mean() < 6.0
    assert edge.mean() < 4.0
    # a slide that is not at the straddle keeps its device whole on its own canvas
    assert all(0 <= s.device.x and s.device.x + s.device.width <= width for s in scenes[2:])
    for row, scene in zip(rows, scenes):  # contrast measured again on each slide's pixels
        assert row[C.LAYOUT_CONTRAST] >= 4.5
        assert min(t.contrast for t in scene.texts) >= 4.5
        assert scene.meta["strip"] == {"slide": int(row[C.POSITION]) + 1, "of": len(rows)}


def test_the_crossing_device_never_lies_on_the_next_caption() -> None:
    """A template whose straddling device would reach the next slide's caption leaves the
    device on its own slide (a device over the caption would hide it)."""
    from shotsmith.stages.layout import load_template
    from shotsmith.stages.layout.panorama import lay_out_strip_devices

    template = load_template("panorama")
    apart = template | {"panorama": template["panorama"] | {"straddle": {"after": 0}}}
    shots = ss.read_screenshots(SAMPLES / "pocket-budget", project_name="Pocket Budget")
    pipe = ss.Pipeline.default(template=apart, ocr=False, out_dir=None)
    frame = pipe.run(shots, until="render", progress=False).output
    scenes = [Scene.from_dict(s) for s in frame[C.LAYOUT_SCENE]]
    assert all(s.strip_devices == [] for s in scenes)  # no straddle: every device at home
    size = (scenes[0].width, scenes[0].height)
    plans = [{"scene": replace(s)} for s in scenes]
    lay_out_strip_devices(plans, template, size)  # the panorama's own straddle crosses
    assert plans[1]["scene"].device.x > scenes[1].device.x
    assert [d.source for d in plans[2]["scene"].strip_devices] == [1]
    high = replace(scenes[1], device=replace(scenes[1].device, y=10))  # beside the caption
    plans = [{"scene": s} for s in (scenes[0], high, *scenes[2:])]
    lay_out_strip_devices(plans, template, size)
    assert plans[1]["scene"].device.x == scenes[1].device.x
    assert plans[2]["scene"].strip_devices == []


def test_a_straddle_that_cannot_fit_is_refused_in_one_line() -> None:
    from shotsmith.errors import TemplateError
    from shotsmith.stages.layout import load_template

    with pytest.raises(TemplateError, match="run off its right edge.*raise share"):
        load_template({"panorama": {"straddle": {"after": 1, "share": 0.3}}})
    with pytest.raises(TemplateError, match="panorama.straddle.share"):
        load_template({"panorama": {"straddle": {"after": 1, "share": 1.2}}})
    narrow = {"device": {"width": 0.6}, "panorama": {"straddle": {"after": 1}}}
    with pytest.raises(TemplateError, match="landscape.panorama.straddle"):
        load_template(narrow)  # the landscape canvas's device (0.72) does not fit either
    load_template(narrow | {"landscape": {"device": {"width": 0.6}}})


def test_the_svg_draws_the_crossing_device_on_both_slides(panorama_set: Path) -> None:
    """Slide 3's SVG holds slide 2's device as its own editable group, with its display,
    under slide 3's device; Chromium's drawing of it is checked in test_svg.py."""
    import xml.etree.ElementTree as ET

    from shotsmith.export.svg import export_svg

    ns = "{http://www.w3.org/2000/svg}"
    svgs = export_svg(panorama_set)
    groups = [
        [g.get("id") for g in ET.parse(svg).getroot().iter(f"{ns}g") if g.get("id")] for svg in svgs
    ]
    assert groups[2][:2] == ["strip-2-device", "device"]  # under the slide's own
    assert all("strip-2-device" not in ids for i, ids in enumerate(groups) if i != 2)
    root = ET.parse(svgs[2]).getroot()
    (strip,) = [g for g in root.iter(f"{ns}g") if g.get("id") == "strip-2-device"]
    image = next(strip.iter(f"{ns}image"))
    rows = json.loads((panorama_set / "design.json").read_text("utf-8"))
    (crossing,) = rows[2][C.LAYOUT_SCENE]["strip_devices"]
    assert image.get("id") == "strip-2-screenshot"
    assert int(image.get("x")) < 0 < int(image.get("x")) + int(image.get("width"))
    assert int(image.get("x")) == crossing["x"] + crossing["band"] + crossing["bezel"]


def test_a_moved_design_takes_the_crossing_display_from_the_png(
    panorama_set: Path, tmp_path: Path
) -> None:
    """The raw screenshots are gone (the design output moved): the crossing device's
    display is cut from the slide's own PNG, the part inside the canvas exactly."""
    import base64
    import io
    import shutil
    import xml.etree.ElementTree as ET

    from shotsmith.export.svg import export_svg

    moved = tmp_path / "moved"
    shutil.copytree(panorama_set, moved)
    rows = json.loads((moved / "design.json").read_text("utf-8"))
    for row in rows:
        scene = row[C.LAYOUT_SCENE]
        for device in (scene["device"], *scene["strip_devices"]):
            device["screenshot"] = str(tmp_path / "gone.png")
    (moved / "design.json").write_text(json.dumps(rows), "utf-8")
    svg = export_svg(moved)[2]
    ns = "{http://www.w3.org/2000/svg}"
    image = next(
        i for i in ET.parse(svg).getroot().iter(f"{ns}image") if i.get("id") == "strip-2-screenshot"
    )
    href = image.get("{http://www.w3.org/1999/xlink}href")
    shown = Image.open(io.BytesIO(base64.b64decode(href.split(",", 1)[1]))).convert("RGB")
    x, y = int(image.get("x")), int(image.get("y"))
    assert x < 0 and shown.size == (int(image.get("width")), int(image.get("height")))
    png = Image.open(moved / Path(rows[2][C.RENDER_PATH]).name).convert("RGB")
    inside = np.asarray(shown, dtype=np.int16)[400:1200, -x : -x + 200]
    on_png = np.asarray(png, dtype=np.int16)[y + 400 : y + 1200, 0:200]
    assert np.abs(inside - on_png).max() == 0
