"""The layout tuner shows a panorama set as one strip: slides edge to edge, the shapes and
the device across an edge running on from slide to slide."""

from __future__ import annotations

import numpy as np
import pytest

import shotsmith as ss
from shotsmith.notebook.tuner import LayoutTuner

from ..conftest import ROOT

pytestmark = pytest.mark.slow

POCKET = ROOT / "sample_inputs" / "pocket-budget"
PAPER = (0xF2, 0xF2, 0xF5)  # the tuner's backdrop between slides


@pytest.fixture(scope="module")
def shots():
    return ss.read_screenshots(POCKET, project_name="Pocket Budget")


def _tuned(shots, template: str) -> tuple[LayoutTuner, np.ndarray, int]:
    tuner = LayoutTuner(shots, template=template)
    tuner.replan()
    assert tuner.error is None
    strip = np.asarray(tuner.set_preview(gap=12), dtype=np.int16)
    slide_w = tuner.preview_image(0, scale=tuner.set_scale).width
    return tuner, strip, slide_w


def test_a_panorama_set_is_previewed_as_one_strip(shots) -> None:
    tuner, strip, slide_w = _tuned(shots, "panorama")
    assert tuner.is_strip
    height = strip.shape[0]
    assert strip.shape[1] == 12 * 2 + 5 * slide_w  # five slides, nothing between them
    body = strip[12 : height - 12]
    for k in range(1, 5):  # each cut: the last column of a slide meets the next one's first
        left, right = body[:, 12 + k * slide_w - 1], body[:, 12 + k * slide_w]
        assert not (right == PAPER).all(axis=1).any(), f"backdrop between slides {k}/{k + 1}"
        if k in (1, 2):  # a shape, then slide 2's display, across the cut (slide 3's device
            # ends at its right edge, so cut 3 is a frame's edge)
            assert np.abs(left - right).mean() < 8.0, f"slides {k}/{k + 1} do not meet"
    # slide 2's device runs on into slide 3: the display's white rows on both sides of the cut
    cut = 12 + 2 * slide_w
    scene = tuner.scene(1)
    scale = tuner.set_scale
    top = round(scene["device"]["y"] * scale) + 40
    rows = body[top - 12 : top + 60 - 12]
    assert (rows[:, cut - 12 - 3 : cut - 12 + 3] > 200).all(axis=2).mean() > 0.5


def test_another_set_keeps_its_slides_apart(shots) -> None:
    tuner, strip, slide_w = _tuned(shots, "default")
    assert not tuner.is_strip
    height = strip.shape[0]
    body = strip[12 : height - 12]
    for k in range(1, 5):
        between = body[:, 12 * k + k * slide_w + 6]  # the middle of the k-th gap
        assert (between == PAPER).all(), f"no gap after slide {k}"
