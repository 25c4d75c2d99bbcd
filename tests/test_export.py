"""fastlane export and store-rule validation, on sets the real pipeline designed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PIL import Image

import shotsmith as ss
from shotsmith.cli import main
from shotsmith.errors import ShotsmithError
from shotsmith.export import export_fastlane, validate

SAMPLES = Path(__file__).resolve().parents[1] / "sample_inputs"


@pytest.fixture(scope="module")
def designed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("design")
    ss.design(SAMPLES / "pocket-budget", project_name="Pocket Budget", out_dir=out, ocr=False)
    return out


@pytest.fixture(scope="module")
def designed_android(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("design-android")
    ss.design(
        SAMPLES / "tasklane",
        project_name="Tasklane",
        devices="pixel-9",
        size="android-phone",
        out_dir=out,
        ocr=False,
    )
    return out


def _png(path: Path, size: tuple[int, int], mode: str = "RGB") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new(mode, size, (40, 90, 200, 255)[: len(mode)] if mode != "L" else 128).save(path)
    return path


def test_export_writes_deliver_layout_and_it_validates(designed: Path, tmp_path: Path, capsys):
    dest = tmp_path / "fastlane"
    assert main(["export", str(designed / "pocket-budget"), "--fastlane", str(dest)]) == 0
    files = sorted(p.name for p in (dest / "screenshots" / "en-US").iterdir())
    assert files == [
        "01_overview.png",
        "02_budgets.png",
        "03_transactions.png",
        "04_reports.png",
        "05_goals.png",
    ]
    for name in files:
        with Image.open(dest / "screenshots" / "en-US" / name) as im:
            assert im.size == (1320, 2868) and im.mode == "RGB"
    out = capsys.readouterr().out
    assert "ok: 5 screenshots" in out
    assert validate(dest) == []
    assert main(["validate", str(dest)]) == 0
    assert main(["validate", str(designed)]) == 0  # the design output itself passes too


def test_export_of_an_android_set_writes_supply_layout(designed_android: Path, tmp_path: Path):
    dest = tmp_path / "fastlane"
    written = export_fastlane(designed_android, dest)
    folder = dest / "metadata" / "android" / "en-US" / "images" / "phoneScreenshots"
    assert sorted(p.name for p in folder.iterdir()) == [f"{n}.png" for n in range(1, 6)]
    assert {e.store for e in written} == {"google_play"}
    assert not (dest / "screenshots").exists()
    assert validate(dest) == []


def test_validate_names_every_offending_file_and_rule(designed: Path, tmp_path: Path, capsys):
    dest = tmp_path / "fastlane"
    export_fastlane(designed / "pocket-budget", dest)
    shots = dest / "screenshots" / "en-US"
    alpha = _png(shots / "06_alpha.png", (1320, 2868), "RGBA")
    wrong = _png(shots / "07_wrong-size.png", (1300, 2800))
    assert main(["validate", str(dest)]) == 1
    err = capsys.readouterr().err
    assert f"{alpha}: no-alpha:" in err
    assert f"{wrong}: app-store-size: 1300x2800 is not an accepted App Store size" in err
    assert "1320x2868" in err  # the message says what is accepted
    rules = {(Path(p.path).name, p.rule) for p in validate(dest)}
    assert rules == {("06_alpha.png", "no-alpha"), ("07_wrong-size.png", "app-store-size")}


def test_counts_per_store(tmp_path: Path):
    for n in range(11):
        _png(tmp_path / "screenshots" / "de-DE" / f"{n:02d}.png", (1320, 2868))
    play = tmp_path / "metadata" / "android" / "de-DE" / "images" / "phoneScreenshots"
    _png(play / "1.png", (1080, 2160))
    problems = {Path(p.path).name: p for p in validate(tmp_path)}
    assert sorted(problems) == ["de-DE", "phoneScreenshots"]
    assert {p.rule for p in problems.values()} == {"count"}
    assert "11 screenshots" in problems["de-DE"].message
    assert "at most 10" in problems["de-DE"].message
    assert "at least 2" in problems["phoneScreenshots"].message


def test_play_rules(tmp_path: Path):
    play = tmp_path / "metadata" / "android" / "en-US" / "images" / "phoneScreenshots"
    _png(play / "1.png", (1080, 2400))  # 2.22:1 is too tall for Play
    _png(play / "2.png", (1080, 1920))
    _png(play / "3.png", (300, 600))
    _png(play / "4.png", (1080, 2160), "P")
    found = {(Path(p.path).name, p.rule) for p in validate(tmp_path)}
    assert found == {("1.png", "play-size"), ("3.png", "play-size"), ("4.png", "rgb")}


def test_a_size_neither_store_takes(tmp_path: Path):
    _png(tmp_path / "set" / "01_home.png", (1000, 3000))
    (problem,) = validate(tmp_path)
    assert problem.rule == "store-size" and "neither store" in problem.message


def test_export_refuses_to_mix_with_old_files(designed: Path, tmp_path: Path):
    dest = tmp_path / "fastlane"
    export_fastlane(designed / "pocket-budget", dest)
    stale = _png(dest / "screenshots" / "en-US" / "09_old.png", (1320, 2868))
    with pytest.raises(ShotsmithError, match="already hold screenshots"):
        export_fastlane(designed / "pocket-budget", dest)
    export_fastlane(designed / "pocket-budget", dest, overwrite=True)
    assert not stale.exists()
    assert len(list((dest / "screenshots" / "en-US").iterdir())) == 5


def test_export_needs_one_app(designed: Path, designed_android: Path, tmp_path: Path):
    both = tmp_path / "both"
    shutil.copytree(designed, both, dirs_exist_ok=True)
    shutil.copytree(designed_android, both, dirs_exist_ok=True)
    with pytest.raises(ShotsmithError, match="holds 2 sets"):
        export_fastlane(both, tmp_path / "dest")
    assert len(export_fastlane(both, tmp_path / "dest", app_id="tasklane")) == 5
    with pytest.raises(ShotsmithError, match="no design.json"):
        export_fastlane(tmp_path / "dest", tmp_path / "x")


@pytest.mark.slow
def test_design_warns_when_a_set_breaks_a_store_rule(tmp_path: Path, capsys):
    raw = tmp_path / "twelve"
    raw.mkdir()
    sources = sorted((SAMPLES / "pocket-budget").glob("*.png"))
    for n in range(12):  # the App Store takes at most 10 per display class
        shutil.copy(sources[n % len(sources)], raw / f"{n + 1:02d}_screen-{n + 1}.png")
    out = tmp_path / "out"
    assert main(["design", str(raw), "--no-ocr", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "warning:" in err and ": count: 12 screenshots" in err and "at most 10" in err
