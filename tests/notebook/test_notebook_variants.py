"""The notebook's side-by-side view of store-experiment variants (``show_variants``)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import shotsmith as ss
from shotsmith import columns as C
from shotsmith.errors import InputFileError, InvalidOptionError
from shotsmith.notebook import show_variants

from ..conftest import ROOT

pytestmark = pytest.mark.slow

SAMPLES = ROOT / "sample_inputs"


@pytest.fixture(scope="module")
def designed(tmp_path_factory: pytest.TempPathFactory) -> tuple[pd.DataFrame, Path]:
    out = tmp_path_factory.mktemp("variants-view")
    frame = ss.design(
        SAMPLES / "pocket-budget", project_name="Pocket Budget", out_dir=out, ocr=False, variants=3
    )
    return frame, out


def test_the_variants_stand_side_by_side_each_saying_what_it_changes(designed) -> None:
    frame, _ = designed
    view = show_variants(frame)
    differs = {v: d for v, d in zip(frame[C.VARIANT], frame[C.VARIANT_DIFFERS], strict=True)}
    assert [v.variant for v in view.variants] == ["variant-1", "variant-2", "variant-3"]
    assert all(len(v.slides) == 5 for v in view.variants)
    text = repr(view)
    assert text.splitlines()[0] == "pocket-budget: 3 variants"
    assert differs["variant-2"] in text and differs["variant-3"] in text
    page = view._repr_html_()
    assert page.count("<img ") == 15  # every slide of every variant
    for variant in ("variant-2", "variant-3"):
        assert differs[variant].replace("'", "&#x27;") in page
    # the picture: one column per variant, their first slides side by side and different
    picture = np.asarray(view.image, dtype=np.int16)
    width = view.thumb_width
    assert picture.shape[1] == 16 * 4 + 3 * width
    firsts = [
        picture[16 : 16 + 2 * width, 16 + k * (width + 16) : 16 + k * (width + 16) + width]
        for k in range(3)
    ]
    for a, b in ((0, 1), (0, 2), (1, 2)):
        assert np.abs(firsts[a] - firsts[b]).max(axis=2).astype(bool).mean() > 0.2


def test_a_design_output_folder_shows_the_same_variants(designed) -> None:
    frame, out = designed
    from_folder = show_variants(out / "pocket-budget")
    assert repr(from_folder) == repr(show_variants(frame))
    assert repr(show_variants(out)) == repr(from_folder)  # the output folder above it
    assert re.search(r"first slide|slide 1", from_folder._repr_html_())


def test_without_variants_the_view_says_what_to_do(designed, tmp_path: Path) -> None:
    frame, _ = designed
    with pytest.raises(InvalidOptionError, match="variants=N"):
        show_variants(frame.drop(columns=[C.VARIANT]))
    with pytest.raises(InputFileError, match="--variants N"):
        show_variants(tmp_path)
    with pytest.raises(InvalidOptionError, match="no app 'nope'"):
        show_variants(frame, app_id="nope")
