"""extract_features reads each screen as a copywriter would: title, headings, tabs, actions,
labels and numbers, from the DOM's roles, from OCR boxes, or from plain text; chrome left out;
the accent is the app's own interface colour."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pandas as pd
import pytest
from PIL import Image, ImageDraw, ImageFont

import shotsmith as ss
from shotsmith import ocr as ocr_mod
from shotsmith.color import accent_of, hls, image_colors, saturation
from shotsmith.columns import (
    FEATURES_ACCENT,
    FEATURES_ACTIONS,
    FEATURES_EVIDENCE,
    FEATURES_HEADINGS,
    FEATURES_LABELS,
    FEATURES_NUMBERS,
    FEATURES_TABS,
    FEATURES_TITLE,
    SCREEN_ELEMENTS,
)
from shotsmith.stages.features import evidence as reader
from shotsmith.stages.features import keywords_of

from ...conftest import INTER_BOLD, ROOT, png_bytes

REALAPPS = ROOT / "tests" / "data" / "realapps"
CLOCK = re.compile(r"^\d{1,2}:\d{2}$")


def features_of(folder: Path, **options) -> pd.DataFrame:
    return ss.extract_features(ss.read_screenshots(folder), **options)


def all_evidence(frame: pd.DataFrame) -> list[dict]:
    return [item for items in frame[FEATURES_EVIDENCE] for item in items]


# --- from the DOM's roles ---------------------------------------------------------------------


def test_dom_roles_give_the_title_headings_actions_and_labels():
    out = features_of(REALAPPS / "tiddlywiki", ocr=False).set_index("screen")
    plan = out.loc["garden plan"]
    assert plan[FEATURES_TITLE] == "Garden Plan 2025"
    assert "Goals for this year" in plan[FEATURES_HEADINGS]
    assert "Edit this tiddler" in plan[FEATURES_ACTIONS]
    assert {"Crop family", "Main crops"} <= set(plan[FEATURES_LABELS])
    assert out.loc["tomatoes", FEATURES_TITLE] == "Tomatoes"
    assert out.loc["harvest log", FEATURES_TITLE] == "Harvest Log"
    for item in all_evidence(out.reset_index()):
        assert item["role"] in reader.ROLES and item["source"] == "dom", item


def test_a_logo_that_links_home_is_navigation_not_the_title():
    out = features_of(REALAPPS / "ihatemoney", ocr=False).set_index("screen")
    assert out.loc["welcome", FEATURES_TITLE] == "Manage your shared expenses, easily"
    assert "#! money?" not in out.loc["bills", FEATURES_HEADINGS]
    assert out.loc["bills", FEATURES_TITLE] != "#! money?"
    assert {"Invite people", "Add"} <= set(out.loc["bills", FEATURES_ACTIONS])
    assert "+€240.96" in out.loc["bills", FEATURES_NUMBERS]


def test_a_headings_own_words_leave_out_its_links_and_icon_glyphs():
    """A title whose page sets its actions inside the heading ("edit new delete Albums")
    keeps its own words; an icon font's private-use glyphs are no words at all."""
    box = [32, 280, 1140, 101]
    elements = [
        {"role": "heading", "text": "edit new delete Albums", "box": box, "level": 1},
        {"role": "link", "text": "edit", "box": [880, 290, 63, 48]},
        {"role": "link", "text": "new", "box": [960, 290, 69, 48]},
        {"role": "link", "text": "delete", "box": [1040, 290, 90, 48]},
        {
            "role": "heading",
            "text": "Albums shared with Maya",
            "box": [32, 400, 900, 60],
            "level": 2,
        },
        {"role": "link", "text": "Maya", "box": [600, 405, 120, 50]},
        {"role": "button", "text": "\uf682 Edit record \uf00d", "box": [32, 600, 400, 60]},
    ]
    frame = ss.read_screenshots(REALAPPS / "tiddlywiki").head(1).copy()
    frame[SCREEN_ELEMENTS] = [elements]
    out = ss.extract_features(frame, ocr=False).iloc[0]
    assert out[FEATURES_TITLE] == "Albums"
    assert "Albums shared with Maya" in out[FEATURES_HEADINGS]  # the link ends its sentence
    assert "Edit record" in out[FEATURES_ACTIONS], out[FEATURES_ACTIONS]
    assert not [t for t in all_evidence(out.to_frame().T) if "\uf00d" in t["text"]]


def test_dom_chrome_is_left_out():
    out = features_of(REALAPPS / "mlflow", ocr=False)
    texts = [item["text"].casefold() for item in all_evidence(out)]
    assert not [t for t in texts if "sidebar" in t or "dropdown" in t], texts
    tabs = out.set_index("screen").loc["experiments", FEATURES_TABS]
    assert {"Experiments", "Model registry"} <= set(tabs)


# --- from OCR boxes (real Tesseract) -------------------------------------------------------------


def test_ocr_boxes_give_titles_and_numbers_and_no_status_bar():
    out = features_of(ROOT / "sample_inputs" / "pocket-budget", ocr=True).set_index("screen")
    assert out.loc["overview", FEATURES_TITLE] == "Overview"
    assert out.loc["budgets", FEATURES_TITLE] == "Budgets"
    assert out.loc["reports", FEATURES_TITLE] == "Reports"
    assert "$12,480.36" in out.loc["overview", FEATURES_NUMBERS]
    items = all_evidence(out.reset_index())
    assert items and all(i["source"] == "ocr" for i in items)
    assert not [i for i in items if CLOCK.match(i["text"])], "the status bar's clock is evidence"


def test_the_title_is_the_largest_type_near_the_top():
    im = Image.new("RGB", (1206, 2622), (255, 255, 255))
    draw = ImageDraw.Draw(im)
    draw.text((60, 200), "9:41", font=ImageFont.truetype(INTER_BOLD, 44), fill=(0, 0, 0))
    draw.text((60, 330), "Trail Reviews", font=ImageFont.truetype(INTER_BOLD, 110), fill=(0, 0, 0))
    body = ImageFont.truetype(INTER_BOLD, 46)
    for k, line in enumerate(["Bear Lake Loop", "Sky Pond", "Emerald Lake", "Add a review"]):
        draw.text((60, 560 + k * 110), line, font=body, fill=(40, 40, 40))
    frame = pd.DataFrame(
        {"app_id": ["t"], "position": [0], "screen": ["screen 1"], "image": [png_bytes(im)]}
    )
    out = ss.extract_features(frame, ocr=True).iloc[0]
    assert out[FEATURES_TITLE] == "Trail Reviews"
    assert "Add a review" in out[FEATURES_ACTIONS]
    assert {"Bear Lake Loop", "Sky Pond", "Emerald Lake"} <= set(out[FEATURES_LABELS])
    assert "9:41" not in [i["text"] for i in out[FEATURES_EVIDENCE]]


def test_both_ocr_engines_read_the_same_screen():
    if ocr_mod._inprocess_data() is None or ocr_mod.shutil.which("tesseract") is None:
        pytest.skip("needs both tesserocr with language data and the tesseract program")
    image = Image.open(ROOT / "sample_inputs" / "pocket-budget" / "02_budgets.png")
    prepared = ocr_mod.prepare(image.convert("RGB"))
    inprocess = ocr_mod.recognize([prepared], binary=ocr_mod.INPROCESS)[0]
    program = ocr_mod.recognize([prepared], binary=ocr_mod.shutil.which("tesseract"))[0]
    assert inprocess.error is None and program.error is None
    assert inprocess.title == program.title == "Budgets"
    shared = set(inprocess.lines) & set(program.lines)
    assert len(shared) >= 0.8 * max(len(inprocess.lines), len(program.lines))
    assert inprocess.boxes and inprocess.boxes[0].height > 0


# --- plain text and chrome ---------------------------------------------------------------------


def test_chrome_never_becomes_evidence():
    text = "\n".join(
        [
            "9:41",
            "100%",
            "Powered by Verdaccio",
            "We use cookies to improve your experience. Accept all",
            '{"name": "@acme/ui", "version": "1.2.1"}',
            "http://127.0.0.1:4873/-/web/detail/@acme/ui",
            "© 2026 Acme Inc. All rights reserved",
            "Skip to content",
            "Packages",
            "Search packages",
            "12 packages",
        ]
    )
    ev = reader.from_text(text)
    kept = [i["text"] for i in ev.items]
    assert kept == ["Packages", "Search packages", "12 packages"], kept
    assert ev.title == "Packages" and ev.actions == ["Search packages"]
    assert ev.numbers == ["12 packages"]


def test_ocr_noise_at_the_ends_of_a_line_is_trimmed():
    assert reader.clean_ocr_line("ay Uber") == "Uber"
    assert reader.clean_ocr_line("Q_ Search in Kyoto") == "Search in Kyoto"
    assert reader.clean_ocr_line("@ @") == ""
    assert reader.clean_ocr_line("eee") == ""
    assert reader.clean_ocr_line("$2,846.19") == "$2,846.19"


def test_words_of_every_script_are_read():
    ev = reader.from_text("Einkaufsliste\nMilch kaufen\n東京の天気\nمرحبا بالعالم")
    assert ev.title == "Einkaufsliste"
    texts = [i["text"] for i in ev.items]
    assert "東京の天気" in texts and "مرحبا بالعالم" in texts


def test_ocr_lines_and_keywords_in_other_scripts_are_kept():
    # an OCR line in Japanese or Russian is words, not noise; an accented word is a keyword
    assert reader.clean_ocr_line("東京の天気") == "東京の天気"
    assert reader.clean_ocr_line("@ Мои покупки") == "Мои покупки"
    assert reader.clean_ocr_line("Einkäufe") == "Einkäufe"
    assert reader.clean_ocr_line("ééé") == ""
    words = keywords_of("Übersicht", "Einkäufe der Woche\nМои покупки\n東京 天気")
    assert words[0] == "übersicht"
    assert {"einkäufe", "woche", "покупки", "東京", "天気"} <= set(words), words


# --- the accent: the interface's colour, not the pictures' ------------------------------------


def library_screen(seed: int) -> Image.Image:
    """A teal-header library app showing book covers (large, textured, chartreuse-ish)."""
    rng = random.Random(seed)
    im = Image.new("RGB", (603, 1311), (250, 250, 250))
    draw = ImageDraw.Draw(im)
    draw.rectangle((0, 0, 603, 150), fill=(0, 128, 128))  # the app's teal header
    draw.rectangle((0, 1230, 603, 1311), fill=(0, 128, 128))  # and tab bar
    for k in range(6):
        x0, y0 = 30 + (k % 2) * 290, 190 + (k // 2) * 340
        base = (170 + rng.randint(-10, 10), 220 + rng.randint(-10, 10), 30)  # chartreuse covers
        for y in range(y0, y0 + 320, 4):  # a cover is a picture: its colour changes everywhere
            for x in range(x0, x0 + 260, 4):
                jitter = rng.randint(-60, 60)
                draw.rectangle(
                    (x, y, x + 3, y + 3),
                    fill=tuple(max(0, min(255, c + jitter)) for c in base),
                )
    return im


def test_the_accent_is_the_interface_colour_not_the_book_covers():
    shots = [library_screen(seed) for seed in range(3)]
    # the covers hold more coloured pixels than the interface: plain colour counting picks them
    merged: dict[str, float] = {}
    for im in shots:
        for color, share in image_colors(im):
            merged[color] = merged.get(color, 0.0) + share / 3
    naive = accent_of(sorted(merged.items(), key=lambda kv: -kv[1]))
    assert naive is not None and 60 <= hls(naive)[0] * 360 <= 100, naive  # chartreuse
    frame = pd.DataFrame(
        {
            "app_id": ["lib"] * 3,
            "position": [0, 1, 2],
            "screen": ["shelf", "new", "authors"],
            "image": [png_bytes(im) for im in shots],
        }
    )
    accent = ss.extract_features(frame, ocr=False)[FEATURES_ACCENT].iloc[0]
    hue = hls(accent)[0] * 360
    assert 170 <= hue <= 190 and saturation(accent) > 0.5, accent  # teal


def test_ocr_title_is_not_swapped_for_a_menu_in_smaller_type_naming_it():
    from shotsmith.ocr import OCRLine, OCRResult
    from shotsmith.stages.features.evidence import from_ocr

    def read(title: str, *lines: tuple[str, int, int]) -> str:
        boxes = [OCRLine(text=t, left=20, top=top, width=300, height=h) for t, top, h in lines]
        result = OCRResult(
            text="\n".join(t for t, _, _ in lines), title=title, words=9, lines=[], boxes=boxes
        )
        return from_ocr(result, 1000.0).title

    # the menu names the screen it is on in small type: the large heading is the title
    menu = read("Entries", ("entries feeds add", 60, 18), ("Entries", 140, 32), ("unread", 200, 17))
    assert menu == "Entries"
    # a piece read apart from its word is made whole again
    whole = read("outs", ("Workouts", 60, 32), ("outs", 62, 30), ("This week", 200, 17))
    assert whole == "Workouts"


def test_a_row_of_menu_labels_level_with_the_title_is_navigation_not_fields():
    from shotsmith.ocr import OCRLine, OCRResult
    from shotsmith.stages.features.evidence import from_ocr

    def read(*lines: tuple[str, int, int, int]):
        boxes = [OCRLine(text=t, left=x, top=top, width=90, height=h) for t, x, top, h in lines]
        result = OCRResult(
            text="\n".join(line[0] for line in lines),
            title=lines[0][0],
            words=12,
            lines=[],
            boxes=boxes,
        )
        return from_ocr(result, 1000.0)

    # Lute's "Create new book": its menu stands on the title's line, the form's labels below
    menu = ["HOME", "BOOKS", "TERMS", "SETTINGS"]
    form = read(
        ("Create new book", 20, 36, 17),
        *[(t, 500 + 110 * k, 40, 9) for k, t in enumerate(menu)],
        ("Title", 20, 120, 11),
        ("Text", 20, 160, 11),
    )
    assert form.tabs == menu and "Title" in form.labels, (form.tabs, form.labels)
    assert not set(menu) & set(form.labels), form.labels
    # a tab bar just under the title's line (Dagster's "Overview Partitions Events Checks")
    tabs = ["Overview", "Events", "Checks", "Lineage"]
    asset = read(
        ("Assets daily sales", 20, 13, 9),
        *[(t, 20 + 110 * k, 52, 7) for k, t in enumerate(tabs)],
        ("Graph depth", 20, 92, 7),
    )
    assert asset.tabs == tabs and asset.labels == ["Graph depth"], (asset.tabs, asset.labels)
    # a table's column headers over its first row of figures stay what they are
    table = read(
        ("Budget", 20, 36, 17),
        *[(t, 200 + 150 * k, 40, 9) for k, t in enumerate(["Budgeted", "Spent", "Balance"])],
        *[(t, 200 + 150 * k, 60, 9) for k, t in enumerate(["3,945.00", "3,085.00", "860.00"])],
    )
    assert table.tabs == [] and {"Spent", "Balance"} <= set(table.labels), table.items


def test_a_form_names_its_own_fields_not_the_menu_beside_its_title():
    from shotsmith import columns as C

    from .test_reading import dom_set, el

    frame = dom_set(
        "Lingo",
        [
            (
                "new book",
                [
                    el("heading", "Create new book", 0.07, 0.03, level=1),
                    *[
                        el("text", t, 0.077, 0.016, x=0.45 + 0.12 * k)
                        for k, t in enumerate(["Home", "Books", "Terms", "Settings"])
                    ],
                    el("label", "Title", 0.16),
                    el("input", "", 0.18),
                    el("label", "Text", 0.22),
                    el("input", "", 0.24),
                    el("label", "Audio file", 0.40),
                    el("button", "Save", 0.60),
                ],
            ),
            ("books", [el("heading", "Books", 0.07, 0.03, level=1), el("text", "Aladino", 0.2)]),
        ],
    )
    out = ss.extract_features(frame, ocr=False).pipe(ss.detect_domain).pipe(ss.write_copy)
    fields = out[C.FEATURES_FIELDS].iloc[0]
    assert fields[:3] == ["Title", "Text", "Audio file"], fields
    subtitle = out[C.COPY_SUBTITLE].iloc[0]
    assert "settings" not in subtitle.casefold() and "title" in subtitle.casefold(), subtitle


def test_dom_elements_beside_the_screenshot_are_not_on_the_screen():
    from shotsmith.stages.features.evidence import from_elements

    ev = from_elements(
        [
            {"role": "heading", "text": "Comments", "box": [40, 100, 500, 80], "level": 1},
            {"role": "text", "text": "Awaiting review", "box": [40, 300, 400, 40]},
            {"role": "label", "text": "Search by URL", "box": [1552, 300, 403, 66]},
            {"role": "link", "text": "Log Out", "box": [-400, 300, 238, 125]},
        ],
        height=2622.0,
        width=1206.0,
    )
    texts = [i["text"] for i in ev.items]
    assert texts == ["Comments", "Awaiting review"], texts


def test_a_title_in_display_type_wrapped_over_lines_is_read_as_one():
    from shotsmith.ocr import OCRLine, OCRResult
    from shotsmith.stages.features.evidence import from_ocr

    def read(*lines: tuple[str, int, int]):
        boxes = [OCRLine(text=t, left=40, top=top, width=300, height=h) for t, top, h in lines]
        body = [("Chest", 560, 11), ("Description", 660, 18)]
        body += [(f"Lie on a flat bench, step {k}.", 700 + 30 * k, 14) for k in range(6)]
        boxes += [OCRLine(text=t, left=40, top=top, width=300, height=h) for t, top, h in body]
        result = OCRResult(
            text="\n".join(b.text for b in boxes),
            title=lines[0][0],
            words=12,
            lines=[],
            boxes=boxes,
        )
        return from_ocr(result, 1000.0)

    # wger's exercise page: its name in type four times the body's, over three lines
    ev = read(("Barbell", 290, 53), ("Bench", 372, 53), ("Press", 457, 50))
    assert ev.title == "Barbell Bench Press", ev.items
    assert "Bench" not in ev.headings and "Press" not in ev.headings, ev.headings
    # a heading in ordinary type with a line under it stays what it is
    plain = read(("Push day", 290, 25), ("Monday", 318, 24))
    assert plain.title == "Push day", plain.items


@pytest.mark.parametrize("title", ["Tryt", "Which stations should"])
def test_a_word_cut_short_off_the_pixels_or_a_questions_start_is_no_subject(title):
    # a window's tab cut at its edge ("Tryt" of "Tryton") and a thread's title cut after
    # its third word, read off the pixels, name no feature
    im = Image.new("RGB", (1206, 2622), (255, 255, 255))
    draw = ImageDraw.Draw(im)
    draw.text((60, 330), title, font=ImageFont.truetype(INTER_BOLD, 110), fill=(0, 0, 0))
    body = ImageFont.truetype(INTER_BOLD, 46)
    for k, line in enumerate(["Amara Osei", "Brackenridge Brewery", "Callum Reid"]):
        draw.text((60, 560 + k * 110), line, font=body, fill=(40, 40, 40))
    frame = pd.DataFrame(
        {"app_id": ["t"], "position": [0], "screen": ["screen 1"], "image": [png_bytes(im)]}
    )
    out = ss.extract_features(frame, ocr=True).iloc[0]
    assert out[FEATURES_TITLE].split()[0] == title.split()[0]  # read off the pixels
    assert out["features_subject"] == "", out["features_subject"]


def test_a_fields_name_read_off_pixels_is_no_button():
    # "Start date" and "Track number" look like "Start ..." and "Track ..." buttons; read
    # from the DOM a button says so, read off pixels a noun-and-verb word leads a field
    from shotsmith.stages.features.evidence import Evidence, _classify_line

    for line in ("Start date", "Track number", "Review wall"):
        ev = Evidence()
        _classify_line(ev, line, "ocr")
        assert ev.actions == [], (line, ev.actions)
    for line in ("Upload a file", "Add filter", "Search for books", "Open workshop"):
        ev = Evidence()
        _classify_line(ev, line, "ocr")
        assert ev.actions == [line], (line, ev.labels)
