"""extract_features: intents, visible text (DOM first, else real Tesseract OCR), colours."""

from __future__ import annotations

import os

import pandas as pd
import pytest
from PIL import Image, ImageDraw, ImageFont

from shotsmith import ocr as ocr_mod
from shotsmith.color import DEFAULT_ACCENT, hls, to_rgb
from shotsmith.columns import (
    APP_ID,
    DOMAIN_CATEGORY,
    FEATURES_ACCENT,
    FEATURES_COLORS,
    FEATURES_DARK_UI,
    FEATURES_INTENT,
    FEATURES_KEYWORDS,
    FEATURES_PHRASE,
    FEATURES_TEXT,
    FEATURES_TEXT_SOURCE,
    FEATURES_TITLE,
    IMAGE,
    POSITION,
    PROJECT_NAME,
    SCREEN,
    SCREEN_ELEMENTS,
    SCREEN_TEXT,
)
from shotsmith.errors import MissingColumnError, ShotsmithError
from shotsmith.stages import features as feat
from shotsmith.stages.features import INTENTS, extract_features, keywords_of, screen_intent

from ...conftest import INTER_BOLD, fake_screen, png_bytes

# OCR is a required feature: in CI (where `make test` installs tesseract-ocr) a missing
# binary fails these tests instead of skipping them.
needs_tesseract = pytest.mark.skipif(
    ocr_mod.tesseract_path() is None and not os.environ.get("CI"),
    reason="tesseract is not installed",
)


def small_screen(title: str = "Budgets", accent=(20, 150, 120), dark: bool = False) -> bytes:
    """A small screen (fast to decode) for tests that do not read text."""
    return png_bytes(fake_screen(title, accent=accent, dark=dark, size=(402, 874)))


def frame_of(
    images: list,
    screens: list[str],
    *,
    texts: list[str] | None = None,
    category: str | None = "Finance",
    app_id: str = "app",
) -> pd.DataFrame:
    n = len(images)
    data = {
        APP_ID: [app_id] * n,
        POSITION: list(range(n)),
        PROJECT_NAME: ["Pocket Budget"] * n,
        SCREEN: screens,
        IMAGE: images,
        SCREEN_TEXT: texts or [""] * n,
    }
    if category is not None:
        data[DOMAIN_CATEGORY] = [category] * n
    return pd.DataFrame(data)


@pytest.mark.parametrize(
    "screen, domain, intent",
    [
        ("home", None, "overview"),
        ("dashboard", None, "overview"),
        ("today", None, "overview"),
        ("feed", None, "feed"),
        ("discover", None, "feed"),
        ("top stories", "News", "feed"),
        ("tasks", None, "list"),
        ("shopping list", None, "list"),
        ("projects", None, "list"),
        ("product", None, "detail"),
        ("spot details", None, "detail"),
        ("search", None, "search"),
        ("search flights", "Travel", "search"),
        ("results", None, "search"),
        ("reports", None, "stats"),
        ("insights", None, "stats"),
        ("standings", None, "leaderboard"),
        ("leaderboard", None, "leaderboard"),
        ("scores", None, "scores"),
        ("match", "Sports", "scores"),
        ("calendar", None, "calendar"),
        ("schedule", None, "calendar"),
        ("itinerary", "Travel", "calendar"),
        ("budgets", "Finance", "planning"),
        ("meal plan", None, "planning"),
        ("map", None, "map"),
        ("find parking", None, "map"),
        ("radar", "Weather", "map"),
        ("chats", None, "chat"),
        ("league chat", None, "chat"),
        ("inbox", None, "chat"),
        ("inbox", "Productivity", "list"),
        ("player", None, "player"),
        ("now playing", None, "player"),
        ("scan barcode", None, "camera"),
        ("identify", None, "camera"),
        ("cart", None, "checkout"),
        ("checkout", None, "checkout"),
        ("payments", None, "payments"),
        ("bills", "Finance", "payments"),
        ("invoices", "Business", "payments"),
        ("profile", None, "profile"),
        ("settings", None, "settings"),
        ("security", None, "settings"),
        ("welcome", None, "onboarding"),
        ("sign in", None, "onboarding"),
        ("streaks", None, "goals"),
        ("progress", None, "goals"),
        ("goals", None, "goals"),
        ("editor", None, "editor"),
        ("create post", None, "editor"),
        ("canvas", None, "editor"),
        ("filters", "Photo & Video", "editor"),
        ("filters", "Shopping", "search"),
        ("notifications", None, "notifications"),
        ("price alerts", None, "notifications"),
        ("bookings", None, "booking"),
        ("boarding pass", "Travel", "booking"),
        ("choose ride", None, "booking"),
        ("library", None, "library"),
        ("gallery", None, "library"),
        ("favorites", None, "saved"),
        ("wishlist", None, "saved"),
        ("favorite teams", "Sports", "saved"),
        ("history", None, "history"),
        ("transactions", "Finance", "history"),
        ("article", None, "reader"),
        ("lessons", None, "learn"),
        ("quizzes", None, "learn"),
        ("word of the day", None, "learn"),
        ("workouts", None, "workout"),
        ("sessions", "Health & Fitness", "workout"),
        ("breathe", None, "wellness"),
        ("sleep", None, "wellness"),
        ("journal", None, "log"),
        ("medications", "Medical", "log"),
        ("timer", None, "timer"),
        ("sleep timer", None, "timer"),
        ("friends", None, "people"),
        ("my team", None, "people"),
        ("shop", None, "shop"),
        ("menu", "Food & Drink", "shop"),
        ("hourly", "Weather", "forecast"),
        ("10 day", "Weather", "forecast"),
        ("convert", None, "tools"),
        ("mortgage calculator", None, "tools"),
        ("level select", "Games", "play"),
        ("battle", None, "play"),
        ("export", None, "share"),
        ("invite", None, "share"),
        ("01 Budgets", "Finance", "planning"),
        ("Search-Results", None, "search"),
    ],
)
def test_intent_from_screen_name(screen, domain, intent):
    assert screen_intent(screen, domain=domain, position=3) == intent


def test_intent_falls_back_to_text_then_position():
    # the title (first line) names it
    assert screen_intent("screen 2", "Monthly reports\nGroceries $120", position=1) == "stats"
    # content cues, none in the title
    text = "Alex\nTyping…\nSee you at 6\nDelivered\nReply"
    assert screen_intent("screen 3", text, position=2) == "chat"
    # chrome words in a tab bar do not decide anything
    assert screen_intent("screen 4", "Home Search Profile Settings", position=3) == "feature"
    assert screen_intent("screen 1", "", position=0) == "overview"
    assert set(INTENTS) >= {"overview", "search", "chat", "feature"}


def test_keywords_drop_stop_words_numbers_and_noise():
    kws = keywords_of(
        "budgets",
        "Budgets\nSpent this month $1,284.50\nGroceries $40.00\n"
        "Groceries and Transport 12 45%\nsSyol=Va lll e@ Rent",
        project="Pocket Budget",
    )
    assert kws[0] == "budgets"
    assert "groceries" in kws and "transport" in kws and "rent" in kws
    assert not any(ch.isdigit() for k in kws for ch in k)
    assert not {"this", "and", "the", "budget", "pocket", "lll", "ssyol"} & set(kws)
    assert (
        len(
            keywords_of(
                "x",
                " ".join(f"word{c}apple" for c in "abcdefghijkl")
                + " alpha bravo charlie delta echo foxtrot golf hotel india",
            )
        )
        <= 8
    )


def test_dom_text_is_preferred_over_ocr(monkeypatch):
    def no_ocr(*a, **k):
        raise AssertionError("OCR must not run when the DOM text is known")

    monkeypatch.setattr(ocr_mod, "recognize", no_ocr)
    frame = frame_of(
        [small_screen("Settings")],
        ["screen 1"],
        texts=["Weekly reports\nGroceries 120\nTransport 40"],
    )
    out = extract_features(frame, ocr="auto")
    row = out.iloc[0]
    assert row[FEATURES_TEXT_SOURCE] == "dom"
    assert row[FEATURES_TEXT] == "Weekly reports\nGroceries 120\nTransport 40"
    assert row[FEATURES_INTENT] == "stats"
    assert {"reports", "groceries", "transport"} <= set(row[FEATURES_KEYWORDS])


@needs_tesseract
def test_ocr_reads_a_screenshots_big_title():
    images = [
        png_bytes(fake_screen("Budgets")),
        png_bytes(fake_screen("Weekly Reports", dark=True, accent=(230, 60, 90))),
    ]
    out = extract_features(frame_of(images, ["screen 1", "screen 2"]), ocr=True)
    assert out[FEATURES_TEXT_SOURCE].tolist() == ["ocr", "ocr"]
    assert "Budgets" in out[FEATURES_TEXT].iloc[0]
    assert "Weekly Reports" in out[FEATURES_TEXT].iloc[1]  # light text on dark, inverted
    assert out[FEATURES_INTENT].tolist() == ["planning", "stats"]  # decided by the titles
    assert "budgets" in out[FEATURES_KEYWORDS].iloc[0]


@needs_tesseract
@needs_tesseract
def test_a_screen_that_opens_with_a_picture_is_read_below_it():
    """Titles sit below a hero photo or a chart on some screens: OCR reads further down there."""
    img = Image.new("RGB", (1206, 2622), "white")
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, 1206, 1150), fill=(92, 50, 110))  # a photo: no words in it
    font = ImageFont.truetype(INTER_BOLD, 80)
    body = ImageFont.truetype(INTER_BOLD, 44)
    draw.text((60, 1220), "Lisbon, Portugal", font=font, fill="black")
    for i, line in enumerate(["Best time", "Daily budget", "Top experiences"]):
        draw.text((60, 1450 + 140 * i), line, font=body, fill="black")
    out = extract_features(frame_of([png_bytes(img)], ["place"]), ocr=True)
    assert out[FEATURES_TITLE].iloc[0] == "Lisbon, Portugal"
    assert "Daily budget" in out[FEATURES_TEXT].iloc[0]


def test_ocr_of_one_image_returns_title_and_lines():
    im = Image.new("RGB", (1206, 1400), (250, 250, 250))
    d = ImageDraw.Draw(im)
    d.text((60, 200), "Transactions", font=ImageFont.truetype(INTER_BOLD, 100), fill=(20, 20, 20))
    d.text((60, 420), "Coffee shop", font=ImageFont.truetype(INTER_BOLD, 48), fill=(60, 60, 60))
    res = ocr_mod.read_text(im)
    assert res.error is None
    assert res.title == "Transactions"
    assert "Coffee shop" in res.lines


def test_ocr_off_and_tesseract_missing(monkeypatch, caplog):
    frame = frame_of([small_screen()], ["screen 1"])
    out = extract_features(frame, ocr=False)
    assert out[FEATURES_TEXT_SOURCE].iloc[0] == "none (ocr off)"
    assert out[FEATURES_TEXT].iloc[0] == ""
    monkeypatch.setattr(ocr_mod, "tesseract_path", lambda: None)
    out = extract_features(frame)  # "auto": goes on without OCR, and says so
    assert out[FEATURES_TEXT_SOURCE].iloc[0] == "none (tesseract not installed)"
    said = [r.getMessage() for r in caplog.records if "Tesseract is not installed" in r.message]
    assert said and "apt install tesseract-ocr" in said[0] and "--no-ocr" in said[0]
    with pytest.raises(ShotsmithError, match="tesseract"):
        extract_features(frame, ocr=True)
    with pytest.raises(ShotsmithError, match="ocr="):
        extract_features(frame, ocr="sometimes")


def test_ocr_failure_is_reported_not_raised(monkeypatch):
    monkeypatch.setattr(ocr_mod, "tesseract_path", lambda: "/nonexistent/tesseract")
    out = extract_features(frame_of([small_screen()], ["home"]))
    assert out[FEATURES_TEXT_SOURCE].iloc[0].startswith("none (ocr failed: cannot run tesseract")
    assert out[FEATURES_INTENT].iloc[0] == "overview"


def test_accent_is_the_vivid_brand_colour():
    brand = (230, 40, 90)
    frame = frame_of(
        [small_screen(accent=brand), small_screen("Goals", accent=brand)], ["home", "goals"]
    )
    out = extract_features(frame, ocr=False)
    accent = out[FEATURES_ACCENT]
    assert accent.nunique() == 1
    got = to_rgb(accent.iloc[0])
    assert max(abs(a - b) for a, b in zip(got, brand)) <= 16, accent.iloc[0]
    assert abs(hls(accent.iloc[0])[0] - hls(brand)[0]) < 0.03
    colors = out[FEATURES_COLORS].iloc[0]
    assert isinstance(colors, list) and all(c.startswith("#") and len(c) == 7 for c in colors)


def test_grey_screens_fall_back_to_default_accent():
    grey = png_bytes(Image.new("RGB", (300, 600), (200, 200, 200)))
    out = extract_features(frame_of([grey], ["home"]), ocr=False)
    assert out[FEATURES_ACCENT].iloc[0] == DEFAULT_ACCENT


def test_dark_ui_is_the_sets_majority():
    dark, light = small_screen(dark=True), small_screen(dark=False)
    a = frame_of([dark, dark, light], ["home", "stats", "goals"], app_id="a")
    b = frame_of([light, light, dark], ["home", "stats", "goals"], app_id="b")
    out = extract_features(pd.concat([a, b], ignore_index=True), ocr=False)
    assert out.loc[out[APP_ID] == "a", FEATURES_DARK_UI].tolist() == [True] * 3
    assert out.loc[out[APP_ID] == "b", FEATURES_DARK_UI].tolist() == [False] * 3


def test_phrase_is_a_short_noun_phrase():
    out = extract_features(
        frame_of([small_screen()] * 3, ["budgets", "search flights", "home"]), ocr=False
    )
    phrases = out[FEATURES_PHRASE].tolist()
    # built from the screen's own name, never a category's stock phrase
    # ("monthly budgets by category" claimed months and categories nothing showed)
    assert phrases[0] == "plans for budgets"
    assert phrases[1] == "search across flights"
    assert all(0 < len(p.split()) <= 8 for p in phrases)


def test_frame_not_mutated_index_kept_and_paths_work(tmp_path):
    path = tmp_path / "01_home.png"
    fake_screen("Home", size=(402, 874)).save(path)
    frame = frame_of([str(path), small_screen()], ["home", "reports"])
    frame.index = [7, 3]
    before = frame.copy()
    out = extract_features(frame, ocr=False)
    pd.testing.assert_frame_equal(frame, before)
    assert list(out.index) == [7, 3]
    assert list(out.columns[: len(frame.columns)]) == list(frame.columns)
    assert out[FEATURES_INTENT].tolist() == ["overview", "stats"]
    assert not any(isinstance(v, Image.Image) for v in out.to_numpy().ravel())


def test_works_without_optional_columns():
    frame = frame_of([small_screen()], ["reports"], category=None).drop(columns=[SCREEN_TEXT])
    out = extract_features(frame, ocr=False)
    assert out[FEATURES_INTENT].iloc[0] == "stats"


def test_missing_column_names_stage_and_column():
    frame = frame_of([small_screen()], ["home"]).drop(columns=[IMAGE])
    with pytest.raises(MissingColumnError, match=r"extract_features.*'image'"):
        extract_features(frame)


def test_all_intents_have_a_phrase():
    for intent in INTENTS:
        assert feat.screen_phrase(intent, "screen 1", "Finance")
        assert feat.screen_phrase(intent, "", None)


@needs_tesseract
def test_a_screen_that_opens_with_names_and_figures_is_read_below_them():
    """A balance list of people above the table the screen is for: the table is read too."""
    img = Image.new("RGB", (1206, 2622), "white")
    draw = ImageDraw.Draw(img)
    body = ImageFont.truetype(INTER_BOLD, 48)
    for i, (name, amount) in enumerate(
        [("Ana", "+€240.96"), ("Ben", "+€206.86"), ("Dev", "-€35.18")]
    ):
        draw.text((60, 200 + 150 * i), name, font=body, fill="black")
        draw.text((900, 200 + 150 * i), amount, font=body, fill="black")
    draw.text((60, 1250), "Who owes whom", font=ImageFont.truetype(INTER_BOLD, 72), fill="black")
    draw.text((60, 1450), "Register settlement", font=body, fill="black")
    out = extract_features(frame_of([png_bytes(img)], ["settle"]), ocr=True)
    assert "Who owes whom" in out[FEATURES_TEXT].iloc[0]
    assert "Ana" in out[FEATURES_TEXT].iloc[0]  # the band above is kept


def _timeline(words: list[str]) -> bytes:
    """A page that draws its text itself (a canvas timeline): words in the pixels only."""
    img = Image.new("RGB", (1206, 2622), "white")
    draw = ImageDraw.Draw(img)
    draw.text((60, 200), "Time Tracker", font=ImageFont.truetype(INTER_BOLD, 84), fill="black")
    body = ImageFont.truetype(INTER_BOLD, 46)
    for i, line in enumerate(words):
        draw.text((60, 380 + 110 * i), line, font=body, fill=(30, 30, 30))
    return png_bytes(img)


@needs_tesseract
def test_a_page_that_draws_its_text_is_read_from_its_pixels():
    """A canvas app's DOM holds only its menu button; its records are drawn. The pixels
    say clearly more, so the screen is read from them; a page whose DOM says as much as
    its pixels keeps its DOM reading."""
    records = ["Design review meeting", "Write project report", "Client call with Anna"]
    records += ["Planning the sprint", "Lunch break", "Weekly summary"]
    frame = frame_of([_timeline(records), _timeline(records[:2])], ["day", "week"])
    frame[SCREEN_TEXT] = ["Menu", "\n".join(["Time Tracker", *records[:2], "Menu", "Reports"])]
    frame[SCREEN_ELEMENTS] = [
        [{"role": "button", "text": "Menu"}],
        [{"role": "heading", "text": "Time Tracker", "level": 1}]
        + [{"role": "text", "text": t} for t in [*records[:2], "Menu", "Reports"]],
    ]
    out = extract_features(frame, ocr=True)
    assert out[FEATURES_TEXT_SOURCE].tolist() == ["ocr", "dom"]
    assert "Write project report" in out[FEATURES_TEXT].iloc[0]
    assert out[FEATURES_TITLE].iloc[0] == "Time Tracker"


@needs_tesseract
def test_a_page_whose_dom_holds_only_a_logo_is_read_from_its_pixels():
    """A canvas app whose DOM holds nothing but its two-letter logo ("tt") says no word
    at all: its records are read from the pixels, not left unread."""
    records = ["Design review meeting", "Write project report", "Client call with Anna"]
    frame = frame_of([_timeline(records)], ["day"])
    frame[SCREEN_TEXT] = ["tt"]
    frame[SCREEN_ELEMENTS] = [[{"role": "text", "text": "tt"}]]
    out = extract_features(frame, ocr=True)
    assert out[FEATURES_TEXT_SOURCE].iloc[0] == "ocr"
    assert "Design review meeting" in out[FEATURES_TEXT].iloc[0]
