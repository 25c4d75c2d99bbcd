"""Variant sets for store experiments: ``design --variants N`` on a sample app."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
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


# --- the batch's variants column -------------------------------------------------------------


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A batch whose manifest asks for 3 variants of one app and leaves the other at 1."""
    out = tmp_path_factory.mktemp("variants-batch")
    manifest = out / "apps.csv"
    manifest.write_text(
        "source,project_name,variants\n"
        f"{SAMPLES / 'pocket-budget'},Pocket Budget,3\n"
        f"{SAMPLES / 'tasklane'},Tasklane,\n",
        encoding="utf-8",
    )
    summary = ss.run_batch(manifest, out / "out", workers=0, ocr=False, progress=False)
    assert list(summary["status"]) == ["designed", "designed"], summary["error"].tolist()
    return out


@pytest.mark.slow
def test_a_batch_designs_the_variants_its_manifest_asks_for(batch: Path) -> None:
    out = batch / "out"
    pocket, tasklane = out / "pocket-budget", out / "tasklane"
    assert sorted(p.name for p in pocket.glob("variant-*")) == [
        "variant-1",
        "variant-2",
        "variant-3",
    ]
    firsts = []
    for k in (1, 2, 3):
        rows = _table(pocket / f"variant-{k}")
        assert {r["variant"] for r in rows} == {f"variant-{k}"}
        assert bool(rows[0]["variant_differs"]) == (k > 1)
        first = min(rows, key=lambda row: row["position"])
        # paths relative to the batch's output, as the batch keeps them
        assert (
            first["render_path"] == f"pocket-budget/variant-{k}/{Path(first['render_path']).name}"
        )
        with Image.open(out / first["render_path"]) as image:
            assert image.mode == "RGB" and image.size == (1320, 2868)
            firsts.append(np.asarray(image, dtype=np.int16))
    assert np.abs(firsts[0] - firsts[1]).max(axis=2).astype(bool).mean() > 0.2
    # the app's contact sheet: one row per variant; the other app keeps its one set
    with (
        Image.open(pocket / "contact-sheet.png") as sheet,
        Image.open(tasklane / "contact-sheet.png") as single,
    ):
        assert sheet.height > 2.5 * single.height
    assert not list(tasklane.glob("variant-*")) and (tasklane / "design.json").is_file()


@pytest.mark.slow
def test_a_batch_redesigns_an_app_whose_variant_count_changed(batch: Path) -> None:
    manifest = batch / "apps.csv"
    again = ss.run_batch(manifest, batch / "out", workers=0, ocr=False, progress=False)
    assert list(again["status"]) == ["skipped", "skipped"]
    fewer = pd.read_csv(manifest, dtype=str, keep_default_na=False).assign(variants=["", ""])
    summary = ss.run_batch(fewer, batch / "out", workers=0, ocr=False, progress=False, variants=2)
    assert list(summary["status"]) == ["designed", "designed"]
    assert "variants 3 -> 2" in summary["note"][0] and "variants 1 -> 2" in summary["note"][1]
    assert sorted(p.name for p in (batch / "out" / "tasklane").glob("variant-*")) == [
        "variant-1",
        "variant-2",
    ]


def test_a_bad_variants_cell_is_one_line_naming_the_app(tmp_path: Path) -> None:
    manifest = tmp_path / "apps.csv"
    manifest.write_text(f"source,variants\n{SAMPLES / 'pocket-budget'},7\n", encoding="utf-8")
    with pytest.raises(
        InvalidOptionError, match=r"app 'pocket-budget': variants must be .* 1 to 4"
    ):
        ss.run_batch(manifest, tmp_path / "out", workers=0, ocr=False, progress=False)
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_the_batch_command_designs_the_variants_it_is_told(tmp_path: Path) -> None:
    manifest = tmp_path / "apps.csv"
    manifest.write_text(
        f"source,variants\n{SAMPLES / 'tasklane'},\n{SAMPLES / 'pocket-budget'},1\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    code = main(["batch", str(manifest), "--workers", "0", "--variants", "2"] + _quick(out))
    assert code == 0
    # the option for the app whose cell is blank, the manifest's own count for the other
    assert sorted(p.name for p in (out / "tasklane").glob("variant-*")) == [
        "variant-1",
        "variant-2",
    ]
    assert not list((out / "pocket-budget").glob("variant-*"))
    assert {row["variant"] for row in _table(out / "tasklane" / "variant-2")} == {"variant-2"}


def test_the_batch_command_refuses_a_bad_variant_count_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = tmp_path / "apps.csv"
    manifest.write_text(f"source\n{SAMPLES / 'tasklane'}\n", encoding="utf-8")
    out = tmp_path / "out"
    code = main(["batch", str(manifest), "--workers", "0", "--variants", "5"] + _quick(out))
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1 and "from 1 to 4" in err and err.endswith("got 5.")
    assert not out.exists()  # refused before anything is written
