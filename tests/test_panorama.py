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

ROOT = Path(__file__).resolve().parents[1]
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
