"""fastlane export and store-rule validation, on sets the real pipeline designed."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import shotsmith as ss
from shotsmith.cli import main
from shotsmith.color import to_rgb
from shotsmith.errors import ShotsmithError
from shotsmith.export import export_fastlane, validate

from ..conftest import ROOT

SAMPLES = ROOT / "sample_inputs"


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
    assert {e.store for e in written} == {"google_play", "play-listing"}
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
    written = export_fastlane(both, tmp_path / "dest", app_id="tasklane")
    assert sum(e.store == "google_play" for e in written) == 5
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


# --- one app on both stores: iPhone, iPad and Android sets into one fastlane folder ------


@pytest.fixture(scope="module")
def designed_ipad(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Pocket Budget's screens as iPad raws (2064x2752, the phone UI centred), designed."""
    raw = tmp_path_factory.mktemp("ipad-raw")
    for path in sorted((SAMPLES / "pocket-budget").glob("*.png")):
        with Image.open(path) as im:
            im = im.convert("RGB")
            width = round(im.width * 2752 / im.height)
            canvas = Image.new("RGB", (2064, 2752), im.getpixel((0, im.height // 2)))
            canvas.paste(im.resize((width, 2752)), ((2064 - width) // 2, 0))
            canvas.save(raw / path.name)
    out = tmp_path_factory.mktemp("design-ipad")
    ss.design(raw, project_name="Pocket Budget", out_dir=out, ocr=False)
    return out / "pocket-budget"


@pytest.fixture(scope="module")
def designed_pocket_android(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("design-pocket-android")
    ss.design(
        SAMPLES / "pocket-budget",
        project_name="Pocket Budget",
        devices="pixel-9",
        size="android-phone",
        out_dir=out,
        ocr=False,
    )
    return next(out.rglob("design.json")).parent


def _sizes(folder: Path) -> dict[str, tuple[int, int]]:
    out = {}
    for path in sorted(folder.iterdir()):
        with Image.open(path) as im:
            out[path.name] = im.size
    return out


def test_an_iphone_ipad_and_android_set_of_one_app_share_one_fastlane_folder(
    designed: Path, designed_ipad: Path, designed_pocket_android: Path, tmp_path: Path, capsys
):
    dest = tmp_path / "fastlane"
    for design_out in (designed / "pocket-budget", designed_ipad, designed_pocket_android):
        assert main(["export", str(design_out), "--fastlane", str(dest)]) == 0
    shots = _sizes(dest / "screenshots" / "en-US")
    assert sorted(shots.values()).count((1320, 2868)) == 5
    assert sorted(shots.values()).count((2064, 2752)) == 5
    assert len(shots) == 10  # no screen of one device wrote over another's
    play = dest / "metadata" / "android" / "en-US"
    assert len(list((play / "images" / "phoneScreenshots").iterdir())) == 5
    assert validate(dest) == []
    # exporting the iPad set again replaces the iPad screenshots only
    capsys.readouterr()
    assert main(["export", str(designed_ipad), "--fastlane", str(dest)]) == 2
    assert "same device" in capsys.readouterr().err
    assert main(["export", str(designed_ipad), "--fastlane", str(dest), "--overwrite"]) == 0
    assert sorted(_sizes(dest / "screenshots" / "en-US").values()) == sorted(shots.values())


def test_the_play_listing_is_written_where_supply_reads_it(
    designed_pocket_android: Path, tmp_path: Path
):
    dest = tmp_path / "fastlane"
    export_fastlane(designed_pocket_android, dest)
    listing = dest / "metadata" / "android" / "en-US"
    title = (listing / "title.txt").read_text("utf-8").strip()
    short = (listing / "short_description.txt").read_text("utf-8").strip()
    full = (listing / "full_description.txt").read_text("utf-8").strip()
    assert title == "Pocket Budget"
    assert 0 < len(short) <= 80 and 0 < len(full) <= 4000
    rows = json.loads((designed_pocket_android / "design.json").read_text("utf-8"))
    promo = rows[0]["copy_store_text"]["promotional_text"]
    assert short in (promo, rows[0]["copy_store_text"]["subtitle"], rows[0]["copy_tagline"])
    for row in rows:  # every screen's own lines, nothing else
        assert row["copy_headline"] in full
    with Image.open(listing / "images" / "featureGraphic.png") as im:
        assert im.size == (1024, 500) and im.mode == "RGB"
        pixels = np.asarray(im)
    # the set's palette behind, its text colour in the tagline, the device on the right
    top_stop = np.array(to_rgb(rows[0]["layout_background"][0]))
    assert np.abs(pixels[2, 2].astype(int) - top_stop).max() <= 12
    text = np.array(to_rgb(rows[0]["layout_text_color"]))
    inked = np.abs(pixels[:, :560].astype(int) - text).max(axis=-1) <= 40
    assert inked.sum() > 5000  # the tagline, large
    band = np.all(pixels[300] == to_rgb("#3b3b41"), axis=-1)
    assert band[560:].sum() >= 2 and band[:560].sum() == 0  # the device's two band edges


def test_a_hi_res_icon_is_checked_and_placed(designed_pocket_android: Path, tmp_path: Path, capsys):
    icon = tmp_path / "icon.png"
    Image.new("RGBA", (512, 512), (20, 120, 90, 255)).save(icon)
    dest = tmp_path / "fastlane"
    args = ["export", str(designed_pocket_android), "--fastlane", str(dest)]
    assert main([*args, "--icon", str(icon)]) == 0
    with Image.open(dest / "metadata" / "android" / "en-US" / "images" / "icon.png") as im:
        assert im.size == (512, 512) and im.mode == "RGBA" and im.format == "PNG"
    small = tmp_path / "small.png"
    Image.new("RGB", (500, 500)).save(small)
    capsys.readouterr()
    assert main([*args, "--overwrite", "--icon", str(small)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "500x500, not 512x512" in err[0]


@pytest.fixture
def cli_log() -> None:
    """The CLI's stderr handler is bound to the stderr of the first command in a process;
    under pytest each test has its own captured stderr, so start from none."""
    logger = logging.getLogger("shotsmith")
    for handler in [h for h in logger.handlers if getattr(h, "_shotsmith_cli", False)]:
        logger.removeHandler(handler)


def _as_locale(design_out: Path, where: Path, locale: str) -> Path:
    """A copy of a design output whose set is in ``locale`` (as design.json says)."""
    shutil.copytree(design_out, where)
    table = where / "design.json"
    rows = json.loads(table.read_text("utf-8"))
    for row in rows:
        row["locale"] = locale
        row["render_path"] = str(where / Path(row["render_path"]).name)
    table.write_text(json.dumps(rows), "utf-8")
    return where


@pytest.mark.parametrize(
    ("locale", "app_store", "play"),
    [
        ("ar-SA", "ar-SA", "ar"),
        ("he-IL", "he", "iw-IL"),
        ("th-TH", "th", "th"),
        ("ja", "ja", "ja-JP"),
    ],
)
def test_each_store_gets_its_own_locale_codes(
    designed: Path,
    designed_pocket_android: Path,
    tmp_path: Path,
    locale: str,
    app_store: str,
    play: str,
):
    dest = tmp_path / "fastlane"
    export_fastlane(_as_locale(designed / "pocket-budget", tmp_path / "ios", locale), dest)
    export_fastlane(_as_locale(designed_pocket_android, tmp_path / "android", locale), dest)
    assert [p.name for p in (dest / "screenshots").iterdir()] == [app_store]
    assert [p.name for p in (dest / "metadata" / "android").iterdir()] == [play]
    assert (dest / "metadata" / "android" / play / "images" / "phoneScreenshots").is_dir()
    assert validate(dest) == []


def test_english_store_text_is_not_written_into_another_languages_folder(
    designed: Path, designed_pocket_android: Path, tmp_path: Path, capsys, cli_log
):
    dest = tmp_path / "fastlane"
    ios = _as_locale(designed / "pocket-budget", tmp_path / "ios", "ja")
    android = _as_locale(designed_pocket_android, tmp_path / "android", "ja")
    assert main(["export", str(ios), "--fastlane", str(dest)]) == 0
    assert main(["export", str(android), "--fastlane", str(dest)]) == 0
    err = capsys.readouterr().err
    assert "metadata/ja/ gets none" in err and "subtitle.txt" in err
    assert "short_description.txt" in err and "--copy" in err
    assert len(list((dest / "screenshots" / "ja").glob("*.png"))) == 5
    assert not list((dest / "metadata").glob("ja/*.txt"))
    listing = dest / "metadata" / "android" / "ja-JP"
    assert [p.name for p in listing.glob("*.txt")] == ["title.txt"]  # the app's name
    assert not (listing / "short_description.txt").exists()


def test_validate_names_every_file_deliver_or_supply_rejects(
    designed: Path, designed_pocket_android: Path, tmp_path: Path, capsys
):
    dest = tmp_path / "fastlane"
    export_fastlane(designed / "pocket-budget", dest)
    export_fastlane(designed_pocket_android, dest)
    shots = dest / "screenshots" / "en-US"
    truncated = shots / "02_budgets.png"
    truncated.write_bytes(truncated.read_bytes()[:60_000])
    jpeg = shots / "03_transactions.png"
    Image.open(jpeg).convert("RGB").save(jpeg, format="JPEG")
    english = dest / "screenshots" / "english"
    english.mkdir()
    shutil.copy(shots / "01_overview.png", english / "01_overview.png")
    ar_sa = dest / "metadata" / "android" / "ar-SA"
    shutil.copytree(dest / "metadata" / "android" / "en-US", ar_sa)
    assert main(["validate", str(dest)]) == 1
    err = capsys.readouterr().err.splitlines()
    found = {(p.path, p.rule) for p in validate(dest)}
    assert found == {
        (str(truncated), "damaged"),
        (str(jpeg), "extension"),
        (str(english), "locale-folder"),
        (str(ar_sa), "play-locale-folder"),
    }
    by_path = {line.split(": ")[0]: line for line in err if ": " in line}
    assert "truncated" in by_path[str(truncated)]
    assert "File extension mismatches its image format" in by_path[str(jpeg)]
    assert "Unsupported directory name(s)" in by_path[str(english)]
    assert "name it ar " in by_path[str(ar_sa)]
