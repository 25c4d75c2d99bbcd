"""What capture counts as one screen, and which pictures draw nothing, without a browser;
and the sign-in password read at the edge (the command line), not in the library."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from shotsmith.errors import ShotsmithError
from shotsmith.settings import Settings
from shotsmith.stages.capture.pages import blank_media, empty_picture
from shotsmith.stages.capture.screens import Screen
from shotsmith.stages.capture.similarity import same_content
from shotsmith.stages.capture.web import parse_login

CARD = [
    "@acme/design-tokens",
    "Colours, spacing and type scale shared by every Acme web app.",
    "Latest v2.0.0 - Published a minute ago",
    "Installation",
    "npm install @acme/design-tokens@2.0.0",
    "yarn add @acme/design-tokens@2.0.0",
    "pnpm install @acme/design-tokens@2.0.0",
    "Repository",
    "https://git.acme.example/web/design-tokens",
    "Distribution",
    "License: MIT",
    "Keywords",
]
TABS = ["README", "DEPENDENCIES", "VERSIONS", "UPLINKS"]
PAGE = "http://r/-/web/detail/@acme/design-tokens"


def _photo(lines: list[str], bars: tuple[int, ...] = ()) -> bytes:
    """A page drawn as a browser would: a chart of ``bars`` (if any), then a line each."""
    im = Image.new("RGB", (400, 900), "white")
    d = ImageDraw.Draw(im)
    y = 10
    if bars:
        for i, h in enumerate(bars):
            d.rectangle((20 + i * 40, 190 - h, 44 + i * 40, 190), fill="#5b6cff")
        y = 200
    for line in lines:
        d.text((12, y), line, fill="#15171c")
        y += 22
    out = io.BytesIO()
    im.save(out, format="PNG")
    return out.getvalue()


def _screen(
    lines: list[str], url: str = PAGE, via: tuple[str, ...] = (), bars: tuple[int, ...] = ()
) -> Screen:
    return Screen(
        url=url,
        via=via,
        text="\n".join(lines),
        shape={"div.card": 12, "li.": 6},
        png=_photo(lines, bars),
    )


def test_two_tabs_with_a_short_note_above_the_same_card_are_one_screen():
    note = ["@acme/design-tokens has no", "dependencies."]  # two lines: the card moves down
    deps = _screen([*TABS, *note, *CARD], via=("t1",))
    uplinks = _screen([*TABS, "@acme/design-tokens has no uplinks.", *CARD], via=("t2",))
    assert same_content(deps, uplinks)
    # the versions tab shows its own lines above the card: another screen
    versions = _screen(
        [*TABS, "Current Tags (1)", "latest", "2.0.0", "Version History (3)", "1.1.0", "1.0.0"]
        + CARD[:6],
        via=("t3",),
    )
    assert not same_content(deps, versions)


def test_another_range_chosen_redraws_the_chart_above_the_same_lines_another_screen():
    lines = ["Weekly revenue", "Range", "Smoothing", *CARD]
    week = _screen(["Revenue for the last 7 days: $9,120", *lines], bars=(40, 90, 60, 120, 80))
    month = _screen(
        ["Revenue for the last 30 days: $38,400", *lines], via=("r",), bars=(150, 30, 110, 20, 70)
    )
    assert not same_content(week, month)
    again = _screen(["Revenue for the last 7 days: $9,110", *lines], bars=(40, 90, 60, 120, 80))
    assert same_content(week, again)  # the same chart, a figure off by ten: one screen


def test_two_records_of_one_template_and_a_home_listing_some_rows_stay_apart():
    rows = [f"experiment {n}\n11/26/2026\nowner {n}" for n in range(4)]
    lines = [line for r in rows for line in r.split("\n")]
    home = _screen(["Welcome", "Getting started", "Tracing", "Evaluation", *lines], "http://m/")
    listing = _screen(["Experiments", "Name", "Created", "Tags", *lines], "http://m/#/experiments")
    assert not same_content(home, listing)
    a = _screen(["Package", "left-pad", "Pads a string", "v1.3.0", "MIT", "2 deps"], "http://r/p/a")
    b = _screen(
        ["Package", "right-pad", "Pads a string right", "v0.4.1", "ISC", "none"], "http://r/p/b"
    )
    assert not same_content(a, b)
    # the same lines on a page of another layout (another shape) are not folded either
    other = Screen(url="http://r/other", text=a.text, shape={"table.": 1, "tr.": 40}, png=a.png)
    assert not same_content(a, other)


def _chart(data: bool) -> Image.Image:
    im = Image.new("RGB", (400, 300), "#f4f5f7")
    d = ImageDraw.Draw(im)
    d.rectangle((20, 20, 380, 260), fill="white")
    d.line((50, 30, 50, 240, 370, 240), fill="#d0d4da", width=1)  # axes
    for i in range(6):
        d.text((24, 236 - i * 40), f"{i / 5:.1f}", fill="#666")
    if data:
        d.line((50, 200, 120, 150, 200, 170, 280, 80, 370, 110), fill="#5b6cff", width=3)
    return im


def test_a_canvas_with_axes_and_no_data_draws_nothing_and_one_with_a_line_does():
    box = [{"kind": "canvas", "box": [10.0, 10.0, 180.0, 120.0]}]  # CSS px, at 2x
    assert blank_media(_chart(False), box, 2.0) == ["canvas"]
    assert blank_media(_chart(True), box, 2.0) == []
    photo = Image.new("RGB", (400, 300), "white")
    ImageDraw.Draw(photo).rectangle((40, 40, 360, 260), fill="#2f9e7a")  # a picture
    assert blank_media(photo, [{"kind": "img", "box": [10.0, 10.0, 180.0, 120.0]}], 2.0) == []


def test_a_page_whose_only_chart_is_empty_is_an_empty_state_and_a_blank_frame_no_picture():
    content = {"words": 17, "items": 0, "media": 1, "frames": 0, "tables": [], "fields": 0}
    verdict = empty_picture({"content": content}, ["canvas"], "http://a/stats/")
    assert verdict and verdict.kind == "empty-state" and "empty chart" in verdict.reason
    # a chart beside a table of rows, or below a long text, is a screen, whatever it draws
    article = {**content, "words": 400}
    assert empty_picture({"content": article}, ["canvas"], "http://a/post/") is None
    rows = {**content, "tables": [{"rows": 12, "words": 80, "form": False}], "words": 120}
    assert empty_picture({"content": rows}, ["canvas"], "http://a/stats/") is None
    form = {
        "words": 20,
        "formWords": 12,
        "items": 0,
        "media": 1,
        "frames": 1,
        "tables": [],
        "fields": 1,
        "entries": 1,
    }
    verdict = empty_picture({"content": form}, ["frame"], "http://a/import/")
    assert verdict and verdict.kind == "bare-form"
    assert empty_picture({"content": form}, [], "http://a/import/") is None


def test_the_login_password_comes_from_the_caller_and_the_settings_read_it():
    assert parse_login("maya", "s3cret") == ("maya", "s3cret")
    assert parse_login("maya:given", "s3cret") == ("maya", "given")
    with pytest.raises(ShotsmithError, match=r"USER:PASSWORD .*SHOTSMITH_LOGIN_PASSWORD"):
        parse_login("maya")
    assert Settings.from_env({"SHOTSMITH_LOGIN_PASSWORD": "pw"}).login_password == "pw"
    assert Settings.from_env({}).login_password == ""
