"""Localized sets: every script drawn with real glyphs, CJK and RTL set properly, the user's
copy in every file format, store text and its fastlane export. Real fonts, real renders."""

from __future__ import annotations

import json
import logging
import unicodedata
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw

from shotsmith import text as T
from shotsmith.cli import main
from shotsmith.locales import check_locale, play_locale, reads_english
from shotsmith.stages.copy import rules
from shotsmith.stages.copy.store_text import store_text
from shotsmith.stages.copy.user import read_user_copy, screens_without_copy

from .conftest import SAMPLES

CAPTIONS = {
    "en": "Plan your week in a tap",
    "de": "Größere Übersicht für Ihre Woche",
    "ar": "تابع تقدم الفريق مع Face ID وiCloud.",
    "he": "תכננו את השבוע – בקלות (Face ID)",
    "ja": "今週の予定を「ひと目で」確認。",
    "zh-Hans": "一目了然地规划您的一周。",
    "ko": "한 주를 한눈에 계획하세요",
    "th": "วางแผนสัปดาห์ของคุณได้ง่ายๆ",
    "hi": "अपने सप्ताह की योजना बनाएं।",
}


@pytest.fixture
def cli_log() -> None:
    """The CLI's stderr handler is bound to the stderr of the first command in a process;
    under pytest each test has its own captured stderr, so start from none."""
    logger = logging.getLogger("shotsmith")
    for handler in [h for h in logger.handlers if getattr(h, "_shotsmith_cli", False)]:
        logger.removeHandler(handler)


def _needed_families() -> list[str]:
    families = {
        T.SCRIPT_FAMILIES[T.script_of(t)] for t in CAPTIONS.values() if T.script_of(t) != "LATIN"
    }
    return sorted(families | {"Inter"})


def _require_fonts() -> None:
    missing = []
    for family in _needed_families():
        try:
            T.find_font(family, 700, fallback=False)
        except Exception:
            missing.append(family)
    if missing:  # under CI=true a skip fails (conftest): set-up must install them
        pytest.skip(
            f"fonts not installed: {', '.join(missing)} (Debian: fonts-noto-core, fonts-noto-cjk; "
            "scripts/setup.sh installs them)"
        )


@pytest.mark.parametrize("lang", list(CAPTIONS))
@pytest.mark.parametrize("weight", [400, 700])
def test_every_glyph_of_every_script_is_drawn_from_a_font_that_has_it(lang: str, weight: int):
    _require_fonts()
    caption = CAPTIONS[lang]
    path = T.font_for(caption, "Inter", weight)
    parts = T.runs(caption, path)
    drawn = "".join(t for t, _ in parts)
    assert drawn == caption, f"{lang}: characters left out: {set(caption) - set(drawn)}"
    for text, font_path in parts:
        assert T.missing_glyphs(text, font_path) == [], (
            f"{lang}: {Path(font_path).name} would draw .notdef for {text!r}"
        )
    # and it really draws: ink of the size the layout measured
    font = T.load_font(path, 64)
    width = T.text_width(caption, font)
    im = Image.new("L", (int(width) + 80, 160), 0)
    T.draw_line(ImageDraw.Draw(im), (40, 110), caption, font, 255, "ls")
    cols = np.nonzero(np.asarray(im).max(axis=0) > 128)[0]
    assert cols.size, f"{lang}: nothing drawn"
    assert cols.max() - cols.min() == pytest.approx(width, rel=0.12, abs=12)


def test_a_latin_word_in_arabic_is_set_in_a_latin_font_and_ordered_right_to_left():
    _require_fonts()
    caption = CAPTIONS["ar"]
    font = T.load_font(T.font_for(caption, "Inter", 400), 48)
    visual = [(t, Path(f.path).name) for t, f in T._visual(caption, font)]
    texts = [t.strip() for t, _ in visual]
    # left to right on the page: the full stop, iCloud, و, Face ID, then the Arabic words
    assert texts[0] == "." and texts[1] == "iCloud"
    assert texts[-1].startswith("تابع")
    assert dict((t.strip(), name) for t, name in visual)["Face ID"].startswith("Inter")


def test_cjk_wraps_between_characters_and_keeps_kinsoku():
    _require_fonts()
    no_start, no_end = T._kinsoku()
    font = T.load_font(T.font_for(CAPTIONS["ja"], "Inter", 700), 80)
    for text in (CAPTIONS["ja"], "あなたのチェックリストを、ひと目で確認。", CAPTIONS["zh-Hans"]):
        for width in range(420, 1200, 60):
            lines = T.wrap_balanced(text, font, width, 3)
            if lines is None:
                continue
            assert "".join(lines) == text
            assert all(T.text_width(line, font) <= width for line in lines)
            for line in lines[1:]:
                assert line[0] not in no_start, f"{lines} starts a line with {line[0]}"
            for line in lines[:-1]:
                assert line[-1] not in no_end, f"{lines} ends a line with {line[-1]}"
    assert len(T.wrap_balanced(CAPTIONS["ja"], font, 800, 2)) == 2


def test_copy_rules_count_characters_in_unspaced_scripts_and_accept_their_full_stops():
    assert rules.headline_problems("今週の予定をひと目で", strict=False) == []
    assert rules.subtitle_problems("期限と優先度で今日の予定を並べ替え。", strict=False) == []
    assert rules.subtitle_problems("अपने सप्ताह की योजना बनाएं।", strict=False) == []
    assert rules.subtitle_problems("خطط لأسبوعك بسهولة.", strict=False) == []
    long = "今週の予定をひと目で確認できる便利な一覧です"
    assert any("characters" in p for p in rules.headline_problems(long, strict=False))
    # Thai vowels and tone marks do not count as characters of their own
    assert rules.graphemes("ง่ายๆ") == 4
    assert rules.subtitle_problems("一文目です。二文目です。", strict=False)


def test_frameit_strings_and_xcstrings_are_read_as_copy(tmp_path: Path):
    ja = tmp_path / "screenshots" / "ja"
    ja.mkdir(parents=True)
    (ja / "title.strings").write_bytes(
        '/* frameit */\n"today" = "今日の予定";\n"inbox" = "受信箱を整理";\n'.encode("utf-16")
    )
    (ja / "keyword.strings").write_text('"today" = "ひと目で確認。";\n', encoding="utf-8")
    table = read_user_copy(tmp_path / "screenshots")
    rows = {r["screen"]: r for r in table.to_dict("records")}
    assert rows["today"] == {
        "screen": "today",
        "headline": "今日の予定",
        "subtitle": "ひと目で確認。",
        "locale": "ja",
    }
    assert rows["inbox"]["subtitle"] == ""
    catalog = tmp_path / "Screens.xcstrings"
    catalog.write_text(
        json.dumps(
            {
                "sourceLanguage": "en",
                "strings": {
                    "today.headline": {
                        "localizations": {
                            "ar": {"stringUnit": {"state": "translated", "value": "مهام اليوم"}},
                            "en": {"stringUnit": {"state": "translated", "value": "Your day"}},
                        }
                    },
                    "today.subtitle": {
                        "localizations": {
                            "ar": {"stringUnit": {"state": "translated", "value": "رتّب مهامك."}}
                        }
                    },
                },
            }
        ),
        encoding="utf-8",
    )
    table = read_user_copy(catalog)
    ar = table[table["locale"] == "ar"].iloc[0]
    assert (ar["headline"], ar["subtitle"]) == ("مهام اليوم", "رتّب مهامك.")
    bad = tmp_path / "bad.xcstrings"
    bad.write_text("{}", encoding="utf-8")
    with pytest.raises(Exception, match="string catalogue"):
        read_user_copy(bad)


def test_store_text_keeps_the_limits_and_never_repeats_the_app_name():
    from shotsmith.stages.copy.evidence import ScreenEvidence

    fields = ScreenEvidence.__dataclass_fields__
    evidence = []
    for title, heads in (("Budgets", ["Groceries", "Rent"]), ("Reports", ["Spending", "Budget"])):
        kwargs = {name: [] for name, f in fields.items() if "list" in str(f.type)}
        kwargs.update({k: "" for k, f in fields.items() if str(f.type) == "str"})
        kwargs.update(title=title, headings=heads, screen=title.lower(), subject=title)
        evidence.append(ScreenEvidence(**{k: v for k, v in kwargs.items() if k in fields}))
    text = store_text(
        project="Pocket Budget",
        locale="en-US",
        tagline="Budgets at a glance",
        headlines=["Budgets at a glance", "See your spending"],
        subtitles=["Track groceries and rent in one place.", "See spending by month."],
        evidence=evidence,
    )
    assert text.subtitle == "Budgets at a glance"
    assert len(text.promotional_text) <= 170 and "groceries" in text.promotional_text
    keywords = text.keywords.split(",")
    assert len(text.keywords) <= 100 and len(keywords) == len(set(keywords))
    assert "budget" not in [k.lower() for k in keywords] and "budgets" not in keywords
    # features are keywords ("reports", "spending"); a budget's own categories and payees
    # are its content ("Groceries", "Rent" stand as its headings), never search terms
    assert {"reports", "spending"} <= set(keywords)
    assert text.evidence["keywords"]


def test_cli_japanese_set_from_the_users_copy_exports_for_deliver(tmp_path: Path, capsys, cli_log):
    _require_fonts()
    copy = tmp_path / "ja.csv"
    copy.write_text(
        "screen,headline,subtitle,locale\n"
        "inbox,受信箱をすっきり整理,届いたタスクをひとつの場所で確認。,ja-JP\n"
        "today,今日やることがひと目でわかる,期限と優先度で今日の予定を並べ替え。,ja-JP\n"
        "today,Your day at a glance,Sort today by due date.,en-US\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    code = main(
        [
            "design",
            str(SAMPLES / "tasklane"),
            "--locale",
            "ja-JP",
            "--copy",
            str(copy),
            "--out",
            str(out),
            "--no-ocr",
        ]
    )
    assert code == 0
    warned = capsys.readouterr().err
    assert "3 of 5 screens have no ja-JP copy (inbox" not in warned  # inbox has copy
    assert "3 of 5 screens have no ja-JP copy (projects, project-board, settings)" in warned
    assert "shotsmith copy-template" in warned and "--copy ja-JP.csv" in warned
    raw = (out / "tasklane" / "design.json").read_text(encoding="utf-8")
    assert "今日やることがひと目でわかる" in raw and "\\u" not in raw  # readable, not escaped
    assert "今日やることがひと目でわかる" in (out / "tasklane" / "design.csv").read_text("utf-8")
    rows = json.loads(raw)
    by_screen = {r["screen"]: r for r in rows}
    assert {r["locale"] for r in rows} == {"ja-JP"}
    assert by_screen["today"]["copy_headline"] == "今日やることがひと目でわかる"
    assert by_screen["today"]["copy_source"] == "user"
    # the captions were drawn: a Japanese headline in the PNG's caption band has ink
    im = np.asarray(Image.open(by_screen["today"]["render_path"]).convert("L"))
    assert im.shape == (2868, 1320)
    store = by_screen["today"]["copy_store_text"]
    assert len(store["subtitle"]) <= 30 and len(store["keywords"]) <= 100
    # no English line was invented for a Japanese set: each line is the user's, or empty
    # and reported, or rests on the screens' own (English) words
    for r in rows:
        if r["copy_source"] != "user":
            assert "left to you" in r["copy_source"] or r["copy_evidence"]["headline"]
    dest = tmp_path / "fastlane"
    capsys.readouterr()
    assert main(["export", str(out / "tasklane"), "--fastlane", str(dest)]) == 0
    said = capsys.readouterr()
    shots = sorted((dest / "screenshots" / "ja").glob("*.png"))
    assert len(shots) == 5
    # store text in Japanese is written; an English field is not, and stderr says so
    meta = dest / "metadata" / "ja"
    for name, key in (("subtitle.txt", "subtitle"), ("keywords.txt", "keywords")):
        if reads_english(store[key], "ja"):
            assert not (meta / name).exists() and name in said.err
        else:
            assert (meta / name).read_text(encoding="utf-8").strip() == store[key]
    for path in meta.glob("*.txt"):
        assert not reads_english(path.read_text(encoding="utf-8"), "ja")
    assert main(["validate", str(dest)]) == 0


def test_a_bad_locale_is_refused_with_what_to_do(tmp_path: Path, capsys):
    code = main(
        [
            "design",
            str(SAMPLES / "tasklane"),
            "--locale",
            "japanese please",
            "--out",
            str(tmp_path),
            "--no-ocr",
        ]
    )
    assert code != 0
    err = capsys.readouterr().err
    assert "--locale" in err and "ja-JP" in err


@pytest.mark.slow
def test_a_second_language_never_writes_over_the_first(tmp_path: Path, capsys):
    """Designing the ja-JP set into the folder that holds the en-US one is refused, with
    where to put it instead; the en-US set stays as it was."""
    out = tmp_path / "out"
    base = ["design", str(SAMPLES / "tasklane"), "--out", str(out), "--no-ocr", "--quiet"]
    assert main(base) == 0
    first = out / "tasklane" / "01_inbox.png"
    before = first.read_bytes()
    capsys.readouterr()
    code = main([*base, "--locale", "ja-JP", "--copy", str(SAMPLES / "tasklane-ja.csv")])
    assert code == 2
    err = capsys.readouterr().err
    assert "already holds a en-US set of tasklane; this one is ja-JP" in err
    assert f"{out}/<locale>" in err and "Traceback" not in err
    assert first.read_bytes() == before
    rows = json.loads((out / "tasklane" / "design.json").read_text(encoding="utf-8"))
    assert {r["locale"] for r in rows} == {"en-US"}
    # where the message says: the Japanese set has a folder of its own
    assert main([*base[:3], str(out / "ja-JP"), *base[5:], "--locale", "ja-JP"]) == 0
    assert (out / "ja-JP" / "tasklane" / "01_inbox.png").is_file()


def test_unicode_categories_only_no_ascii_letter_classes_in_copy_code():
    src = Path(rules.__file__).parent
    for path in [*src.glob("*.py"), Path(T.__file__)]:
        assert "[A-Za-z]" not in path.read_text(encoding="utf-8"), path
    assert unicodedata.category("ต") == "Lo"


def test_right_to_left_captions_are_mirrored_in_a_left_aligned_template(tmp_path: Path):
    _require_fonts()
    import pandas as pd

    import shotsmith as ss

    copy = pd.DataFrame(
        [
            {
                "screen": "today",
                "headline": "مهام اليوم بنظرة واحدة",
                "subtitle": "رتّب مهامك حسب الموعد.",
                "locale": "ar-SA",
            }
        ]
    )
    frame = ss.design(
        SAMPLES / "tasklane",
        template="spotlight",
        locale="ar-SA",
        copy=copy,
        out_dir=tmp_path,
        ocr=False,
    )
    row = frame[frame["screen"] == "today"].iloc[0]
    im = np.asarray(Image.open(row["render_path"]).convert("L")).astype(int)
    english = frame[frame["screen"] != "today"].iloc[0]
    band = slice(150, 420)  # the headline band above the device

    def ink_columns(a):
        bg = np.median(a[band, :], axis=0)
        cols = np.nonzero((np.abs(a[band, :] - bg[None, :]) > 60).any(axis=0))[0]
        return cols.min(), cols.max()

    left, right = ink_columns(im)
    other = np.asarray(Image.open(english["render_path"]).convert("L")).astype(int)
    o_left, o_right = ink_columns(other)
    width = im.shape[1]
    # the Arabic headline hugs the right margin as the Latin one hugs the left
    assert abs((width - right) - o_left) <= 12, (left, right, o_left, o_right)
    assert left > o_left + 40
    # and the layout measured its contrast where it is drawn: the scene's box is the ink's
    scene = (
        json.loads(row["layout_scene"])
        if isinstance(row["layout_scene"], str)
        else row["layout_scene"]
    )
    texts = scene["texts"] if isinstance(scene, dict) else [t.__dict__ for t in scene.texts]
    x, _, w, _ = next(t for t in texts if t["role"] == "headline")["box"]
    assert abs(x - left) <= 12 and abs(x + w - right) <= 12, (x, w, left, right)


# --- a set in another language needs copy in it, said before anything is written -----------


def _design_args(out: Path, *extra: str) -> list[str]:
    return ["design", str(SAMPLES / "tasklane"), "--out", str(out), "--no-ocr", *extra]


@pytest.mark.parametrize("locale", ["ja", "ar-SA", "de-DE", "fr"])
def test_a_set_in_another_language_without_copy_is_named_before_anything_is_written(
    tmp_path: Path, capsys, locale: str
):
    out = tmp_path / "out"
    assert main(_design_args(out, "--locale", locale, "--strict-locale")) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    screens = "inbox, today, projects, project-board, settings"
    assert f"5 of 5 screens have no {locale} copy ({screens})" in err[0]
    assert f"shotsmith copy-template {SAMPLES / 'tasklane'} --locale {locale}" in err[0]
    assert not out.exists()


def test_a_partial_copy_file_names_the_screens_it_leaves_out(tmp_path: Path, capsys):
    copy = tmp_path / "ja.csv"
    copy.write_text(
        "screen,headline,subtitle,locale\n"
        "inbox,受信箱をすっきり整理,届いたタスクをひとつの場所で確認。,ja\n"
        "today,今日やることがひと目でわかる,,ja\n",
        encoding="utf-8",
    )
    args = _design_args(tmp_path / "out", "--locale", "ja", "--copy", str(copy))
    assert main([*args, "--strict-locale"]) == 2
    err = capsys.readouterr().err
    assert "3 of 5 screens have no ja copy (projects, project-board, settings)" in err


def test_an_english_set_needs_no_copy(tmp_path: Path):
    from shotsmith.io import read_screenshots

    frame = read_screenshots(SAMPLES / "tasklane", locale="en-GB")
    assert screens_without_copy(frame, None) == {}


def test_locales_are_checked_against_the_stores_lists(tmp_path: Path, capsys):
    assert check_locale("ja_jp") == "ja-JP"
    assert check_locale("zh-hans") == "zh-Hans"
    assert check_locale(" fr ") == "fr"
    assert main(_design_args(tmp_path / "out", "--locale", "xx-YY")) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'xx-YY' is not a language either store lists" in err[0]
    assert main(_design_args(tmp_path / "out", "--locale", "jp")) == 2
    assert "close matches: ja" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_play_codes_follow_supplys_list():
    assert [play_locale(c) for c in ("ar-SA", "he-IL", "he", "th-TH", "ja", "zh-Hans")] == [
        "ar",
        "iw-IL",
        "iw-IL",
        "th",
        "ja-JP",
        "zh-CN",
    ]
    assert play_locale("gu-IN") is None  # Google Play has no Gujarati listing


def test_copy_template_lists_every_screen_in_the_format_copy_reads(tmp_path: Path, capsys):
    from shotsmith.io import read_screenshots

    assert main(["copy-template", str(SAMPLES / "tasklane"), "--locale", "ja"]) == 0
    template = tmp_path / "ja.csv"
    template.write_text(capsys.readouterr().out, encoding="utf-8")
    table = read_user_copy(template)
    assert table["screen"].tolist() == [
        "inbox",
        "today",
        "projects",
        "project-board",
        "settings",
    ]
    assert set(table["locale"]) == {"ja"} and set(table["headline"]) == {""}
    frame = read_screenshots(SAMPLES / "tasklane", locale="ja")
    assert len(screens_without_copy(frame, template)[("tasklane", "ja")]) == 5
    # filled in, it covers every screen
    filled = read_user_copy(SAMPLES / "tasklane-ja.csv").set_index("screen")
    table["headline"] = [filled.loc[s, "headline"] for s in table["screen"]]
    table.to_csv(template, index=False)
    assert screens_without_copy(frame, template) == {}
