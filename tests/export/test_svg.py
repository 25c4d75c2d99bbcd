"""SVG export: each slide's scene as an SVG that Chromium draws like the PNG render made."""

from __future__ import annotations

import io
import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import shotsmith as ss
from shotsmith import columns as C
from shotsmith.cli import main
from shotsmith.export.svg import export_svg, font_face
from shotsmith.scene import Scene

from ..conftest import ROOT

SAMPLES = ROOT / "sample_inputs"
SVG = "{http://www.w3.org/2000/svg}"
CHROMIUM = Path("/usr/bin/chromium")
# Mean absolute difference per channel (0-255) between Chromium's drawing of an SVG and
# the PNG of the same slide. Measured: 0.25-0.30 on the iPhone sets, 0.29-0.36 on the
# Android ones, 0.42 with a glow (antialiased edges of glyphs and corners only).
MAX_MEAN_DIFFERENCE = 1.0

needs_browser = pytest.mark.skipif(not CHROMIUM.exists(), reason="no system Chromium")


@pytest.fixture(scope="module")
def iphone_set(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("svg-iphone")
    ss.design(SAMPLES / "pocket-budget", project_name="Pocket Budget", out_dir=out, ocr=False)
    return next(out.rglob("design.json")).parent


@pytest.fixture(scope="module")
def android_set(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("svg-android")
    ss.design(
        SAMPLES / "wanderly",
        project_name="Wanderly",
        devices="pixel-9",
        size="android-phone",
        out_dir=out,
        ocr=False,
    )
    return next(out.rglob("design.json")).parent


@pytest.fixture(scope="module")
def panorama_set(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("svg-panorama")
    ss.design(
        SAMPLES / "stepstreak",
        project_name="StepStreak",
        template="panorama",
        out_dir=out,
        ocr=False,
    )
    return next(out.rglob("design.json")).parent


def _rows(folder: Path) -> list[dict]:
    return json.loads((folder / "design.json").read_text("utf-8"))


def _chromium_pictures(svgs: list[Path]) -> list[Image.Image]:
    """Each SVG as headless Chromium draws it, at the SVG's own pixel size."""
    sync_api = pytest.importorskip("playwright.sync_api")
    pictures = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            for svg in svgs:
                root = ET.parse(svg).getroot()
                size = {"width": int(root.get("width")), "height": int(root.get("height"))}
                page = browser.new_page(viewport=size)
                page.goto(svg.resolve().as_uri())
                page.wait_for_load_state("load")
                pictures.append(Image.open(io.BytesIO(page.screenshot())).convert("RGB"))
                page.close()
        finally:
            browser.close()
    return pictures


def _mean_difference(a: Image.Image, b: Image.Image) -> float:
    return float(np.abs(np.asarray(a, dtype=np.int16) - np.asarray(b, dtype=np.int16)).mean())


def _text_of(svg: Path, role: str) -> str:
    """The words of the caption ``role``, its lines joined by spaces ("" when the slide has
    no such line: a subtitle left to the user is drawn nowhere)."""
    texts = [t for t in ET.parse(svg).getroot().iter(f"{SVG}text") if t.get("id") == role]
    if not texts:
        return ""
    assert len(texts) == 1, f"{svg.name}: {len(texts)} <text> elements for the {role}"
    return " ".join(span.text or "" for span in texts[0].iter(f"{SVG}tspan"))


def test_design_json_holds_each_slides_scene(iphone_set: Path) -> None:
    rows = _rows(iphone_set)
    assert len(rows) == 5
    for row in rows:
        scene = Scene.from_dict(row[C.LAYOUT_SCENE])
        png = Image.open(iphone_set / Path(row[C.RENDER_PATH]).name)
        assert (scene.width, scene.height) == png.size
        assert scene.texts[0].role == "headline"
        assert scene.texts[0].text == row[C.COPY_HEADLINE]
    csv = (iphone_set / "design.csv").read_text("utf-8")
    assert C.LAYOUT_SCENE in csv.splitlines()[0]


@needs_browser
@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("which", ["iphone_set", "android_set", "panorama_set"])
def test_each_svg_draws_like_its_png_with_live_text(
    which: str, request: pytest.FixtureRequest
) -> None:
    folder: Path = request.getfixturevalue(which)
    svgs = export_svg(folder)
    rows = _rows(folder)
    assert [p.name for p in svgs] == [Path(r[C.RENDER_PATH]).with_suffix(".svg").name for r in rows]
    pngs = [Image.open(folder / Path(r[C.RENDER_PATH]).name).convert("RGB") for r in rows]
    drawn = _chromium_pictures(svgs)
    for svg, row, png, picture in zip(svgs, rows, pngs, drawn):
        assert picture.size == png.size
        difference = _mean_difference(picture, png)
        assert difference <= MAX_MEAN_DIFFERENCE, f"{svg.name}: mean difference {difference:.2f}"
        assert row[C.COPY_HEADLINE] and _text_of(svg, "headline") == row[C.COPY_HEADLINE]
        assert _text_of(svg, "subtitle") == row[C.COPY_SUBTITLE]
        # the font the PNG was drawn with is the one named
        headline = row[C.LAYOUT_SCENE]["texts"][0]
        face = font_face(headline["font"])
        text = next(t for t in ET.parse(svg).getroot().iter(f"{SVG}text"))
        assert text.get("font-family", "").split(",")[0].strip("'") == face.family
        assert text.get("font-weight") == str(face.weight)
        assert Path(headline["font"]).resolve().as_uri() in svg.read_text("utf-8")
    # the bound tells slides apart: another slide's PNG is far outside it
    assert _mean_difference(drawn[0], pngs[1]) > 5 * MAX_MEAN_DIFFERENCE


@needs_browser
@pytest.mark.browser
@pytest.mark.slow
def test_svg_without_the_raw_screenshot_takes_the_display_from_the_png(
    iphone_set: Path, tmp_path: Path
) -> None:
    """A design output moved to another machine: the raw screenshots are gone."""
    moved = tmp_path / "pocket-budget"
    shutil.copytree(iphone_set, moved)
    rows = _rows(moved)[:1]
    rows[0][C.LAYOUT_SCENE]["device"]["screenshot"] = str(tmp_path / "gone.png")
    (moved / "design.json").write_text(json.dumps(rows), "utf-8")
    (svg,) = export_svg(moved, tmp_path / "svg")
    assert svg == tmp_path / "svg" / "pocket-budget" / "01_overview.svg"
    (picture,) = _chromium_pictures([svg])
    png = Image.open(moved / "01_overview.png").convert("RGB")
    assert _mean_difference(picture, png) <= MAX_MEAN_DIFFERENCE


def test_cli_writes_svgs_beside_the_pngs_or_says_where_to_write(
    iphone_set: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dest = tmp_path / "designs"
    assert main(["export", str(iphone_set), "--svg", str(dest)]) == 0
    written = sorted(p.name for p in (dest / "pocket-budget").glob("*.svg"))
    assert written == sorted(p.with_suffix(".svg").name for p in iphone_set.glob("*.png"))
    assert "exported 5 SVG slides" in capsys.readouterr().out
    assert main(["export", str(iphone_set)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["shotsmith export: name where to write: --fastlane DEST or --svg [DEST]"]
    assert main(["export", str(tmp_path / "nothing"), "--svg"]) == 2
    assert "is not a folder" in capsys.readouterr().err


@needs_browser
@pytest.mark.browser
@pytest.mark.slow
def test_glow_and_three_stop_background_draw_like_render(iphone_set: Path, tmp_path: Path) -> None:
    """The spotlight template's and dark apps' glow behind the device, as an SVG gradient."""
    from shotsmith.export.svg import scene_svg
    from shotsmith.io import open_image
    from shotsmith.stages.render import render_scene, screen_pixels

    data = _rows(iphone_set)[1][C.LAYOUT_SCENE]
    data["background"].update(glow="#ffd28a", stops=["#203050", "#405080", "#102040"])
    scene = Scene.from_dict(data)
    png = render_scene(scene)
    svg = tmp_path / "glow.svg"
    shot = screen_pixels(scene.device, open_image(scene.device.screenshot))
    svg.write_text(scene_svg(scene, shot), "utf-8")
    (picture,) = _chromium_pictures([svg])
    assert _mean_difference(picture, png) <= MAX_MEAN_DIFFERENCE
    # without the glow the same SVG is far from the PNG: the bound sees the glow
    data["background"]["glow"] = None
    svg.write_text(scene_svg(Scene.from_dict(data), shot), "utf-8")
    (plain,) = _chromium_pictures([svg])
    assert _mean_difference(plain, png) > 2 * MAX_MEAN_DIFFERENCE  # measured: 2.76
