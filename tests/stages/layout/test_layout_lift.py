"""The device never hides what a caption names: a slide whose named text sits where the
template's device placement would hide it gets its device lifted (or drawn smaller)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from PIL import Image, ImageDraw

import shotsmith as ss
from shotsmith import columns as C
from shotsmith.color import worst_contrast
from shotsmith.scene import Scene, boxes_overlap

from ...conftest import fake_screen

LIFT_MARGIN = 0.02  # shotsmith.stages.layout.stage.LIFT_MARGIN: room kept below the named text
PHONE, TABLET = (1206, 2622), (2064, 2752)  # iPhone 6.9" and iPad 13" screenshots
BUTTON = (255, 0, 200)  # the "Add transaction" button, a colour nothing else uses
NAMES = ["overview", "budgets", "transactions", "reports"]
HEADLINES = ["Money, finally under control", "Plan every dollar", "See where it goes", "Reports"]
SUBTITLES = [
    "Add transaction in one tap",
    "Set monthly limits by category",
    "Every transaction sorted",
    "Monthly reports",
]
TALL = "Add a transaction from anywhere in the app, in one tap"  # two lines of subtitle


def shot_with_button(top: float, height: float, size: tuple[int, int]) -> Image.Image:
    """A screen whose "Add transaction" button spans ``top`` .. ``top + height`` (shares)."""
    im = fake_screen("Transactions", size=size)
    y0, y1 = round(top * size[1]), round((top + height) * size[1])
    ImageDraw.Draw(im).rectangle((200, y0, size[0] - 200, y1 - 1), fill=BUTTON)
    return im


def evidence(*items: tuple[str, float, float] | tuple[str, None, None]) -> list[dict]:
    out = []
    for text, y, h in items:
        item = {"role": "action", "text": text, "source": "ocr"}
        if y is not None:
            item.update(y=y, h=h)
        out.append(item)
    return out


def frame_for(
    folder: Path,
    button: tuple[float, float] = (0.93, 0.03),
    size: tuple[int, int] = PHONE,
    headlines=HEADLINES,
    subtitles=SUBTITLES,
    accent: str = "#14967a",
):
    """Four screens: the first's caption names its "Add transaction" button (``button``:
    top and height, shares of the screenshot), the second "Budgets" (near the top, and a tab
    label at the bottom), the third a text without a place (an older frame), the fourth
    nothing at all."""
    shot_with_button(*button, size=size).save(folder / "01_overview.png")
    for i, name in enumerate(NAMES[1:], start=2):
        fake_screen(name.title(), size=size).save(folder / f"{i:02d}_{name}.png")
    frame = ss.read_screenshots(folder, project_name="Pocket Budget")
    frame[C.COPY_HEADLINE] = list(headlines)
    frame[C.COPY_SUBTITLE] = list(subtitles)
    frame[C.FEATURES_ACCENT] = accent
    frame[C.FEATURES_EVIDENCE] = [
        evidence(("Overview", 0.08, 0.04), ("Add transaction", *button)),
        evidence(("Budgets", 0.08, 0.04), ("Groceries", 0.30, 0.02), ("Budgets", 0.93, 0.05)),
        evidence(("Add transaction", None, None)),
        evidence(("Reports", 0.5, 0.03)),
    ]
    frame[C.COPY_EVIDENCE] = [
        {"headline": [], "subtitle": ["add transaction"]},  # the case differs from the screen
        {"headline": ["budgets"], "subtitle": ["Groceries"]},
        {"headline": [], "subtitle": ["Add transaction"]},
        {"headline": [], "subtitle": []},
    ]
    return frame


def plans(folder: Path, template: str, **kw):
    """(planned with evidence, planned as before: no evidence columns) for one set."""
    frame = frame_for(folder, **kw)
    lifted = ss.plan_layout(frame.copy(), template=template)
    plain = ss.plan_layout(
        frame.drop(columns=[C.FEATURES_EVIDENCE, C.COPY_EVIDENCE]), template=template
    )
    return lifted, plain


def text_bottom_on_canvas(scene: Scene, bottom: float) -> float:
    """Where row ``bottom`` (share) of a cover-fitted screenshot lands on the canvas."""
    sx, sy, sw, sh = scene.device.screen_box
    return sy + bottom * sh  # same aspect: the screenshot fills the display top to bottom


def button_rows(image: np.ndarray) -> np.ndarray:
    hit = (np.abs(image.astype(int) - np.array(BUTTON)).sum(axis=2) < 40).any(axis=1)
    return np.nonzero(hit)[0]


def rendered(frame, tmp_path: Path, name: str) -> list[np.ndarray]:
    out = ss.render(frame, out_dir=tmp_path / name)
    images = []
    for path in out[C.RENDER_PATH]:
        with Image.open(path) as im:
            assert im.mode == "RGB" and "transparency" not in im.info  # no alpha
            images.append(np.asarray(im))
    return images


def check_slide(scene: Scene, bottom: float, gap_share: float, image_path: str) -> None:
    """The named text ends inside the canvas with at least half the margin below it, the
    captions stay inside the canvas, clear of the device by the template's gap, legible."""
    W, H = scene.width, scene.height
    sh = scene.device.screen_box[3]
    # (text that ends right at the screenshot's bottom has only the display's edge below it)
    margin = min(LIFT_MARGIN * sh / 2, (1 - bottom) * sh)
    assert text_bottom_on_canvas(scene, bottom) <= H - margin
    device_box = scene.device.visible_box(W, H)
    bare = np.asarray(ss.render_scene({**scene.to_dict(), "texts": []}, image_path))
    for block in scene.texts:
        x, y, w, h = block.box
        assert x >= 0 and y >= 0 and x + w <= W and y + h <= H, block.box
        assert not boxes_overlap(block.box, device_box), (block.role, block.box, device_box)
        assert y + h + round(gap_share * H) <= scene.device.y, (block.role, block.box)
        assert worst_contrast(block.color, bare[y : y + h, x : x + w]) >= 4.5, block.role


GAP = {"default": 0.026, "spotlight": 0.03}


@pytest.mark.parametrize("size", [PHONE, TABLET], ids=["phone", "tablet"])
@pytest.mark.parametrize("template", ["default", "spotlight"])
def test_named_text_at_the_bottom_is_shown_and_the_rest_is_unmoved(tmp_path, template, size):
    lifted, plain = plans(tmp_path, template, size=size)
    first = Scene.from_dict(lifted[C.LAYOUT_SCENE].iloc[0])
    before = Scene.from_dict(plain[C.LAYOUT_SCENE].iloc[0])
    W, H = first.width, first.height
    bottom = 0.93 + 0.03
    check_slide(first, bottom, GAP[template], lifted[C.IMAGE].iloc[0])
    if template == "default":  # it bleeds off the bottom: the set's place hid the button
        assert text_bottom_on_canvas(before, bottom) > H
        lift = first.device.lift
        assert lift is not None and lift["named"] == "add transaction"
        assert lift["bottom"] == pytest.approx(bottom)
        assert lift["px"] == before.device.y - first.device.y >= 0
        assert "add transaction" in lift["why"]
        if size == PHONE:  # room enough below the caption: lifted, same size
            assert lift["px"] > 0 and lift["scale"] == 1.0
            assert (first.device.x, first.device.width) == (before.device.x, before.device.width)
        else:  # the tablet's caption is the set's tallest: drawn smaller, same aspect
            assert 0.6 <= lift["scale"] < 1.0 and first.device.width < before.device.width
            _, _, sw, sh = first.device.screen_box
            _, _, bw, bh = before.device.screen_box
            assert abs(sh / sw - bh / bw) < 2 / sw
            assert first.device.x + first.device.width / 2 == pytest.approx(W / 2, abs=1)
        assert first.texts == before.texts  # the captions stay where they were
    else:  # the whole device floats on the slide: nothing was hidden, nothing moves
        assert text_bottom_on_canvas(before, bottom) <= H
        assert lifted[C.LAYOUT_SCENE].iloc[0] == plain[C.LAYOUT_SCENE].iloc[0]
    # slides whose named text is near the top, has no place, or that name nothing: as before
    for i in (1, 2, 3):
        assert lifted[C.LAYOUT_SCENE].iloc[i] == plain[C.LAYOUT_SCENE].iloc[i], i
        assert lifted[C.LAYOUT_SCENE].iloc[i]["device"]["lift"] is None
    for column in (C.LAYOUT_BACKGROUND, C.LAYOUT_TEXT_COLOR, C.LAYOUT_VARIANT, C.LAYOUT_SIZE):
        assert list(lifted[column]) == list(plain[column])

    # the rendered PNGs: the store size, the whole button above the bottom edge
    new, old = rendered(lifted, tmp_path, "new"), rendered(plain, tmp_path, "old")
    assert new[0].shape == (H, W, 3) and (W, H) in ((1320, 2868), (2064, 2752))
    rows = button_rows(new[0])
    expected = 0.03 * first.device.screen_box[3]
    assert rows.size >= expected - 3, (rows.size, expected)  # all of it, not a sliver
    assert rows.max() < H - LIFT_MARGIN * first.device.screen_box[3] / 2
    if template == "default":
        assert button_rows(old[0]).size < expected - 3  # before: cut by the slide's edge
    # every other slide renders pixel for pixel as before
    for i in (1, 2, 3):
        assert np.array_equal(new[i], old[i]), i


def test_the_caption_moves_up_when_the_room_below_it_is_not_enough(tmp_path):
    """A bright (vivid) slide keeps dark captions legible higher up: the caption moves up to
    the template's top and the device follows, at the set's size."""
    lifted, plain = plans(tmp_path, "default", button=(0.95, 0.04), accent="#ffd60a")
    first = Scene.from_dict(lifted[C.LAYOUT_SCENE].iloc[0])
    before = Scene.from_dict(plain[C.LAYOUT_SCENE].iloc[0])
    assert first.meta["tone"] == "vivid"
    check_slide(first, 0.99, GAP["default"], lifted[C.IMAGE].iloc[0])
    assert first.device.lift is not None and first.device.lift["scale"] == 1.0
    assert first.device.width == before.device.width and first.device.y < before.device.y
    assert first.texts[0].box[1] < before.texts[0].box[1]  # moved up with it
    assert first.texts[0].baseline - before.texts[0].baseline == (
        first.texts[1].baseline - before.texts[1].baseline
    )  # the caption block moves as one
    for i in (1, 2, 3):
        assert lifted[C.LAYOUT_SCENE].iloc[i] == plain[C.LAYOUT_SCENE].iloc[i], i


def test_when_lifting_is_not_enough_the_device_is_drawn_smaller(tmp_path):
    # the slide with the button has the set's tallest caption: the device cannot go higher
    lifted, plain = plans(
        tmp_path, "default", button=(0.945, 0.04), subtitles=[TALL, *SUBTITLES[1:]]
    )
    first = Scene.from_dict(lifted[C.LAYOUT_SCENE].iloc[0])
    before = Scene.from_dict(plain[C.LAYOUT_SCENE].iloc[0])
    W, H = first.width, first.height
    assert len(first.texts[1].lines) == 2
    lift = first.device.lift
    assert lift is not None and lift["scale"] < 1.0
    assert f"drawn at {lift['scale']:.1%} of the set's size" in lift["why"]
    assert first.device.width < before.device.width
    _, _, sw, sh = first.device.screen_box
    _, _, bw, bh = before.device.screen_box
    assert abs(sh / sw - bh / bw) < 2 / sw  # the same display aspect
    assert first.device.x + first.device.width / 2 == pytest.approx(W / 2, abs=1)  # centred
    check_slide(first, 0.985, GAP["default"], lifted[C.IMAGE].iloc[0])
    rows = button_rows(np.asarray(ss.render_scene(first, lifted[C.IMAGE].iloc[0])))
    assert rows.size >= 0.04 * sh - 3 and rows.max() < H - LIFT_MARGIN * sh / 2


def test_names_match_whole_words_either_way_ignoring_case():
    from shotsmith.stages.layout.stage import _names

    assert _names("add transaction", "Add transaction") == 2
    assert _names("Budget", "To Budget 3,945.00") == 2  # the name inside the screen's text
    assert _names("Select a category", "select a  Category") == 2
    assert _names("Everyday Checking account", "Everyday Checking") == 1  # most of the name
    assert not _names("Add transaction", "Add")  # a fragment does not stand for the name
    assert not _names("Select account", "Account")  # nor does half of it
    assert not _names("to", "Stay on top")
    assert not _names("Budget", "Budgeted")
    assert _names("予定", "今週の予定") == 2  # scripts without spaces: contained is enough


def test_a_name_also_in_the_tab_bar_counts_where_it_first_shows():
    """ "Budgets" is the screen's title and a tab label at the bottom: the title shows, so
    the slide keeps the set's place."""
    from shotsmith.stages.layout.stage import LIFT_MARGIN as margin
    from shotsmith.stages.layout.stage import _named_bottom

    assert margin == LIFT_MARGIN
    row = pd.Series(
        {
            C.FEATURES_EVIDENCE: evidence(("Budgets", 0.08, 0.04), ("Budgets", 0.93, 0.05)),
            C.COPY_EVIDENCE: {"headline": ["budgets"], "subtitle": []},
        }
    )
    assert _named_bottom(row) == ("budgets", pytest.approx(0.12))
    row[C.COPY_EVIDENCE] = {"headline": ["budgets"], "subtitle": ["Add transaction"]}
    row[C.FEATURES_EVIDENCE] = [
        *row[C.FEATURES_EVIDENCE],
        *evidence(("Add transaction", 0.9, 0.03)),
    ]
    assert _named_bottom(row) == ("Add transaction", pytest.approx(0.93))  # the lowest name
    # the text that holds the name counts before a higher fragment of it ("Account")
    row[C.COPY_EVIDENCE] = {"headline": [], "subtitle": ["Select account"]}
    row[C.FEATURES_EVIDENCE] = evidence(
        ("Account", 0.45, 0.02), ("Select an account", 0.48, 0.05), ("Select account", 0.94, 0.05)
    )
    assert _named_bottom(row) == ("Select account", pytest.approx(0.99))
    row[C.COPY_EVIDENCE] = {"headline": [], "subtitle": ["Everyday Checking account"]}
    assert _named_bottom(row) is None  # named nowhere on the screen
    row[C.FEATURES_EVIDENCE] = evidence(("Budgets", None, None))  # an older frame: no places
    row[C.COPY_EVIDENCE] = {"headline": ["budgets"], "subtitle": []}
    assert _named_bottom(row) is None
