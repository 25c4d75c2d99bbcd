"""Variant sets for store experiments: ``design --variants N`` on a sample app."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import shotsmith as ss
from shotsmith.cli import main
from shotsmith.errors import InvalidOptionError
from shotsmith.export import export_fastlane
from shotsmith.variants import check_variants

SAMPLES = Path(__file__).resolve().parents[1] / "sample_inputs"


@pytest.fixture(scope="module")
def three(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """pocket-budget designed by the CLI with --variants 3 (no OCR, for speed)."""
    out = tmp_path_factory.mktemp("variants")
    code = main(["design", str(SAMPLES / "pocket-budget"), "--variants", "3"] + _quick(out))
    assert code == 0
    return out / "pocket-budget"


def _quick(out: Path) -> list[str]:
    return ["--no-ocr", "--quiet", "--out", str(out)]


def _table(folder: Path) -> list[dict]:
    return json.loads((folder / "design.json").read_text(encoding="utf-8"))


def _first_slide(folder: Path) -> np.ndarray:
    first = min(_table(folder), key=lambda row: row["position"])
    image = Image.open(first["render_path"])
    assert image.mode == "RGB" and image.size == (1320, 2868)
    return np.asarray(image, dtype=np.int16)


def test_three_variants_have_their_own_folders_and_say_what_differs(three: Path) -> None:
    assert sorted(p.name for p in three.iterdir() if p.is_dir()) == [
        "variant-1",
        "variant-2",
        "variant-3",
    ]
    tables = {k: _table(three / f"variant-{k}") for k in (1, 2, 3)}
    for k, rows in tables.items():
        assert len(rows) == 5
        assert {r["variant"] for r in rows} == {f"variant-{k}"}
        assert {r["app_id"] for r in rows} == {"pocket-budget"}
        assert all(Path(r["render_path"]).parent == three / f"variant-{k}" for r in rows)
    assert {r["variant_differs"] for r in tables[1]} == {""}  # the original
    hook = tables[2][0]["variant_differs"]
    lead = min(tables[2], key=lambda r: r["position"])["screen"]
    assert lead != "overview" and hook.startswith(f"hook: leads with the {lead} screen")
    assert tables[3][0]["variant_differs"].startswith("palette: 'accent, light'")
    # the palette variant keeps the original's order and captions, only colours change
    first = [(r["screen"], r["copy_headline"]) for r in tables[1]]
    assert [(r["screen"], r["copy_headline"]) for r in tables[3]] == first
    assert tables[3][0]["layout_background"] != tables[1][0]["layout_background"]


def test_three_variants_first_slides_differ(three: Path) -> None:
    slides = [_first_slide(three / f"variant-{k}") for k in (1, 2, 3)]
    for a in range(3):
        for b in range(a + 1, 3):
            changed = np.abs(slides[a] - slides[b]).max(axis=2) > 24
            assert changed.mean() > 0.2, (a + 1, b + 1, changed.mean())


def test_fastlane_export_of_variants(three: Path, tmp_path: Path) -> None:
    written = export_fastlane(three, tmp_path / "fastlane")
    original = tmp_path / "fastlane" / "screenshots" / "en-US"
    assert sorted(p.name for p in original.glob("*.png"))[0] == "01_overview.png"
    assert (original / "01_overview.png").read_bytes() == (
        three / "variant-1" / "01_overview.png"
    ).read_bytes()
    experiments = tmp_path / "fastlane" / "experiments"
    hook = experiments / "variant-2" / "screenshots" / "en-US"
    assert len(list(hook.glob("*.png"))) == 5
    assert not (hook / "01_overview.png").exists()  # another screen leads
    assert len(list((experiments / "variant-3" / "screenshots" / "en-US").glob("*.png"))) == 5
    readme = (experiments / "README.md").read_text(encoding="utf-8")
    assert "no fastlane folder" in readme
    assert "Product Page Optimization" in readme and "Store listing experiments" in readme
    assert "`variant-3`: palette: 'accent, light'" in readme
    assert len([e for e in written if e.target.suffix == ".png"]) == 15


@pytest.mark.parametrize("value", ["0", "5", "two"])
def test_a_bad_variant_count_is_one_line_naming_the_range(
    value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["design", str(SAMPLES / "pocket-budget"), "--variants", value] + _quick(tmp_path))
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1
    assert "from 1 to 4" in err and "3 treatments" in err and repr(value)[1:-1] in err
    assert not any(tmp_path.iterdir())  # refused before anything is written


def test_check_variants_takes_whole_counts_only() -> None:
    assert check_variants(3) == 3 and check_variants("2") == 2
    for bad in (True, 2.5, None, -1):
        with pytest.raises(InvalidOptionError, match="from 1 to 4"):
            check_variants(bad)


def test_four_variants_take_another_template(tmp_path: Path) -> None:
    frame = ss.design(SAMPLES / "pocket-budget", out_dir=tmp_path, ocr=False, variants=4)
    last = frame[frame["variant"] == "variant-4"]
    assert set(last["layout_template"]) == {"spotlight"}
    assert set(last["variant_differs"]) == {"template: spotlight instead of default"}
    assert set(frame[frame["variant"] != "variant-4"]["layout_template"]) == {"default"}
    assert len(frame) == 20
