"""One reading of each screen (kind, subject, examples, fields), captions realised from it,
and the critic that strikes out what a marketer would: the defects a person found in real
output ("Dracula, treasure and island", "Single Cost" over an income statement, "See units
and pric", "Filter by tag, payee,.", "Open it and see.")."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest
from PIL import Image

import shotsmith as ss
from shotsmith import columns as C
from shotsmith.stages.copy import screen_evidence
from shotsmith.stages.copy.critic import line_problems
from shotsmith.stages.copy.store_text import store_text

from ...conftest import ROOT, png_bytes

W, H = 1206, 2622
REALAPPS = ROOT / "tests" / "data" / "realapps"


def blank() -> bytes:
    return png_bytes(Image.new("RGB", (W, H), (250, 250, 252)))


def el(role: str, text: str, y: float, h: float = 0.012, x: float = 0.05, level: int | None = None):
    item = {"role": role, "text": text, "box": [int(x * W), int(y * H), 200, int(h * H)]}
    if level is not None:
        item["level"] = level
    return item


def dom_set(project: str, screens: list[tuple[str, list[dict]]], **extra) -> pd.DataFrame:
    """A set captured from the DOM: each screen's elements with roles and boxes."""
    rows = []
    for i, (screen, elements) in enumerate(screens):
        rows.append(
            {
                C.APP_ID: project.lower().replace(" ", "-"),
                C.POSITION: i,
                C.PROJECT_NAME: project,
                C.BUNDLE_ID: "",
                C.SCREEN: screen,
                C.IMAGE: blank(),
                C.SCREEN_ELEMENTS: elements,
                C.SCREEN_TEXT: "\n".join(e["text"] for e in elements),
                **extra,
            }
        )
    return pd.DataFrame(rows)


def read_page(project: str, screen: str, elements: list[dict]) -> pd.Series:
    """One screen captured from the DOM, as extract_features reads it."""
    return ss.extract_features(dom_set(project, [(screen, elements)]), ocr=False).iloc[0]


def ledger() -> pd.DataFrame:
    """A ledger like Fava: the page's name sits small in a breadcrumb, buttons are larger."""
    income = [
        el("link", "Ledger › Income Statement", 0.06, 0.010),
        el("button", "Single Bars", 0.10, 0.02),
        el("button", "At Cost", 0.10, 0.02, x=0.5),
        el("label", "Income", 0.20),
        el("label", "Expenses", 0.20, x=0.4),
        el("label", "Net Profit", 0.20, x=0.7),
        el("text", "4,210.00", 0.23),
        el("text", "3,105.50", 0.23, x=0.4),
        el("text", "1,104.50", 0.23, x=0.7),
        el("text", "2,880.00", 0.26),
        el("text", "2,660.10", 0.26, x=0.4),
        el("text", "219.90", 0.26, x=0.7),
    ]
    journal = [
        el("heading", "Journal", 0.06, 0.03, level=1),
        el("label", "Date", 0.15),
        el("label", "Payee", 0.15, x=0.3),
        el("label", "Narration", 0.15, x=0.55),
        el("label", "Amount", 0.15, x=0.8),
        el("listitem", "Chipotle", 0.18, x=0.3),
        el("text", "2026-03-02", 0.18),
        el("text", "-12.40", 0.18, x=0.8),
        el("listitem", "Whole Foods Market", 0.21, x=0.3),
        el("text", "2026-03-03", 0.21),
        el("text", "-84.10", 0.21, x=0.8),
        el("text", "True", 0.24, x=0.55),
        el("text", "False", 0.27, x=0.55),
    ]
    holdings = [
        el("heading", "Holdings", 0.06, 0.03, level=1),
        el("label", "Account", 0.15),
        el("label", "Units", 0.15, x=0.35),
        el("label", "Price", 0.15, x=0.6),
        el("label", "Book Value", 0.15, x=0.8),
        el("text", "52 rows", 0.9),
    ]
    new_entry = [
        el("heading", "New Transaction", 0.06, 0.03, level=1),
        el("label", "Date", 0.15),
        el("input", "2026-03-04", 0.17),
        el("label", "Payee", 0.22),
        el("input", "Who did you pay?", 0.24),
        el("label", "Amount", 0.29),
        el("input", "0.00", 0.31),
        el("button", "Save", 0.4),
    ]
    return dom_set(
        "Fava",
        [
            ("income", income),
            ("journal", journal),
            ("holdings", holdings),
            ("new", new_entry),
        ],
    )


def library() -> pd.DataFrame:
    """An e-book library: a grid of covers, then one book's page titled with its name."""
    grid = [
        el("heading", "Books", 0.06, 0.03, level=1),
        el("listitem", "Dracula", 0.2),
        el("listitem", "Treasure Island", 0.2, x=0.5),
        el("listitem", "Pride and Prejudice", 0.4),
        el("listitem", "A Study in Scarlet", 0.4, x=0.5),
        el("tab", "Books", 0.95),
        el("tab", "Authors", 0.95, x=0.3),
        el("tab", "Series", 0.95, x=0.6),
    ]
    book = [
        el("heading", "Pride and Prejudice", 0.06, 0.03, level=1),
        el("label", "Jane Austen", 0.1),
        el("button", "Read in Browser", 0.2),
        el("button", "Download", 0.2, x=0.5),
        el("label", "Published", 0.3),
        el("label", "Publisher", 0.33),
        el("tab", "Books", 0.95),
        el("tab", "Authors", 0.95, x=0.3),
        el("tab", "Series", 0.95, x=0.6),
    ]
    series = [
        el("heading", "Series", 0.06, 0.03, level=1),
        el("listitem", "Sherlock Holmes", 0.2),
        el("listitem", "Discworld", 0.25),
        el("listitem", "The Expanse", 0.3),
        el("tab", "Books", 0.95),
        el("tab", "Authors", 0.95, x=0.3),
        el("tab", "Series", 0.95, x=0.6),
    ]
    return dom_set("Calibre Shelf", [("home", grid), ("book", book), ("series", series)])


@pytest.fixture(scope="module")
def ledger_copy() -> pd.DataFrame:
    frame = ss.extract_features(ledger(), ocr=False)
    return frame.pipe(ss.detect_domain).pipe(ss.write_copy)


@pytest.fixture(scope="module")
def library_copy() -> pd.DataFrame:
    frame = ss.extract_features(library(), ocr=False)
    return frame.pipe(ss.detect_domain).pipe(ss.write_copy)


# --- the reading ----------------------------------------------------------------------------------


def test_the_feature_comes_from_the_breadcrumb_not_the_bigger_buttons(ledger_copy):
    income = ledger_copy.set_index(C.SCREEN).loc["income"]
    assert income[C.FEATURES_SUBJECT] == "Income Statement"
    assert income[C.FEATURES_SUBJECT_FROM] == "breadcrumb"
    assert "single" not in income[C.COPY_HEADLINE].lower()
    assert "income statement" in f"{income[C.COPY_HEADLINE]} {income[C.COPY_SUBTITLE]}".lower()


def test_kinds_from_layout_and_words(ledger_copy):
    kinds = dict(zip(ledger_copy[C.SCREEN], ledger_copy[C.FEATURES_KIND]))
    assert kinds["journal"] == "table"  # a row of column headers over figures
    assert kinds["new"] == "form"  # text fields under a "New ..." title
    assert kinds["income"] in ("chart", "table")


def test_data_is_never_a_feature_nor_a_field(ledger_copy):
    for _, row in ledger_copy.iterrows():
        subject = row[C.FEATURES_SUBJECT].lower()
        assert subject not in ("true", "false", "52 rows", "chipotle"), subject
        for value in ("True", "False", "52 rows", "2026-03-02", "-12.40"):
            assert value not in row[C.FEATURES_FIELDS]
    journal = ledger_copy.set_index(C.SCREEN).loc["journal"]
    assert {"Date", "Payee", "Amount"} <= set(journal[C.FEATURES_FIELDS])
    text = " ".join([*ledger_copy[C.COPY_HEADLINE], *ledger_copy[C.COPY_SUBTITLE]]).lower()
    assert "true" not in text.split() and "false" not in text.split()
    assert "52 rows" not in text


def test_names_are_kept_whole_and_a_titled_item_is_an_example(library_copy):
    by_screen = library_copy.set_index(C.SCREEN)
    home = by_screen.loc["home"]
    assert {"Treasure Island", "Pride and Prejudice"} <= set(home[C.FEATURES_EXAMPLES])
    book = by_screen.loc["book"]
    assert book[C.FEATURES_SUBJECT] != "Pride and Prejudice"
    assert "Pride and Prejudice" in book[C.FEATURES_EXAMPLES]
    assert "Jane Austen" not in book[C.FEATURES_EXAMPLES]  # a person: never named
    text = " ".join([*library_copy[C.COPY_HEADLINE], *library_copy[C.COPY_SUBTITLE]])
    assert "treasure and island" not in text.lower() and "pride and and" not in text.lower()
    for name in ("Treasure", "Island", "Prejudice"):  # a name appears whole or not at all
        if name in text:
            assert "Treasure Island" in text or "Pride and Prejudice" in text, text


# --- the critic -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "kind", "problem"),
    [
        ("See units and pric", "headline", "not a whole word"),
        ("Note, python and ipyker, side by side.", "subtitle", "not a whole word"),
        ("See pride and and austen at a glance.", "subtitle", "doubled word"),
        ("Filter by tag, payee,.", "subtitle", "dangling punctuation"),
        ("Study in, at a glance", "headline", "ends on 'in'"),
        ("Rain and false, together", "headline", "data value"),
        ("Open it and see.", "subtitle", "filler"),
        ("Nothing to set up, just start.", "subtitle", "filler"),
        ("Kale, purple sprouting broccoli, leeks.", "subtitle", "list of tokens"),
        ("See your budgets and", "headline", "ends on 'and'"),
        ("Everything from Calder Bay to Calder Bay Ada Pennington.", "subtitle", "range"),
        ("Everything from Wher to Navigatio in one place.", "subtitle", "'Wher' is not a whole"),
        ("Everything from Wher to Navigatio in one place.", "subtitle", "'Navigatio' is not"),
    ],
)
def test_the_critic_strikes_out_what_a_marketer_would(line, kind, problem):
    found = line_problems(line, kind=kind, screen_words={"price", "units"}, project="Fava")
    assert any(problem in p for p in found), found


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("Your income statement, month by month", "headline"),
        ("See income against expenses for every month.", "subtitle"),
        ("Open Treasure Island and start reading.", "subtitle"),
        ("Every trail, row by row", "headline"),
        ("Scroll from Overlay Plot to Power Telemetry in one list.", "subtitle"),
    ],
)
def test_the_critic_lets_written_lines_through(line, kind):
    assert line_problems(line, kind=kind, screen_words=set(), project="Fava") == []


def test_every_written_line_passes_the_critic(ledger_copy, library_copy):
    for frame in (ledger_copy, library_copy):
        project = frame[C.PROJECT_NAME].iloc[0]
        for _, row in frame.iterrows():
            for kind, column in (("headline", C.COPY_HEADLINE), ("subtitle", C.COPY_SUBTITLE)):
                assert line_problems(row[column], kind=kind, project=project) == [], row[column]


def test_copy_evidence_explains_every_line(ledger_copy):
    shown = " ".join(e["text"] for items in ledger_copy[C.FEATURES_EVIDENCE] for e in items)
    shown += " Fava"
    for _, row in ledger_copy.iterrows():
        ev = row[C.COPY_EVIDENCE]
        assert ev["reading"]["kind"] == row[C.FEATURES_KIND]
        assert ev["reading"]["subject"] == row[C.FEATURES_SUBJECT]
        for kind in ("headline", "subtitle"):
            assert ev["why"][kind], (row[C.SCREEN], kind)
            # what the line rests on stands on the set's screens (a line about the app may
            # name its other screens' features) or is the app's name
            for piece in ev[kind]:
                for part in piece.split(" and "):
                    assert part.lower() in shown.lower(), piece


# --- store text -----------------------------------------------------------------------------------


def test_store_text_is_written_and_names_no_people_payees_or_values(ledger_copy, library_copy):
    for frame in (ledger_copy, library_copy):
        store = frame[C.COPY_STORE_TEXT].iloc[0]
        keywords = store["keywords"].split(",")
        for bad in ("chipotle", "whole", "foods", "jane", "austen", "true", "false", "dracula"):
            assert bad not in keywords, (bad, keywords)
        promo = store["promotional_text"]
        assert promo and len(promo) <= 170
        assert promo.count(".") <= 3  # sentences, not the subtitles glued together
    promo = ledger_copy[C.COPY_STORE_TEXT].iloc[0]["promotional_text"]
    assert promo.startswith("Fava brings your income statement, journal")
    direct = store_text(
        project="Fava",
        locale="en-US",
        tagline="",
        headlines=["Your journal, row by row"],
        subtitles=["Open it and see."],
        evidence=[screen_evidence(r) for r in ledger_copy.to_dict("records")],
    )
    assert "Open it and see." not in direct.promotional_text  # filler never ships


# --- the record -----------------------------------------------------------------------------------


def test_design_json_records_the_reading(tmp_path):
    frame = ledger()
    ss.design(frame, out_dir=tmp_path, ocr=False)
    records = json.loads((tmp_path / "fava" / "design.json").read_text(encoding="utf-8"))
    for column in (
        C.FEATURES_KIND,
        C.FEATURES_SUBJECT,
        C.FEATURES_EXAMPLES,
        C.FEATURES_FIELDS,
        C.FEATURES_TITLE,
        C.FEATURES_HEADINGS,
        C.FEATURES_EVIDENCE,
    ):
        assert column in records[0], column
    assert records[0][C.FEATURES_SUBJECT] == "Income Statement"
    csv = (tmp_path / "fava" / "design.csv").read_text(encoding="utf-8")
    assert "features_kind" in csv.splitlines()[0]


# --- real apps ------------------------------------------------------------------------------------


def test_real_apps_captions_are_clean_and_informative():
    """On the real-apps corpus (DOM roles, no OCR: quick): no line a marketer would strike
    out, and subtitles say something of their own screen."""
    from shotsmith.grounding import content_words

    lines = subtitles = informative = 0
    problems: list = []
    left: list = []
    for folder in sorted(p for p in REALAPPS.iterdir() if p.is_dir()):
        frame = ss.read_screenshots(folder)
        out = ss.extract_features(frame, ocr=False).pipe(ss.detect_domain).pipe(ss.write_copy)
        project = out[C.PROJECT_NAME].iloc[0]
        name = {w.casefold() for w in project.split()}
        for _, row in out.iterrows():
            for kind, column in (("headline", C.COPY_HEADLINE), ("subtitle", C.COPY_SUBTITLE)):
                lines += 1
                if not row[column]:  # left to the user: nothing on the screen to say
                    left.append((folder.name, row[C.SCREEN], kind))
                    continue
                found = line_problems(row[column], kind=kind, project=project)
                if found:
                    problems.append((folder.name, row[column], found))
            subtitles += 1
            own = [w for w in content_words(row[C.COPY_SUBTITLE]) if w.casefold() not in name]
            informative += bool(own)
    assert lines >= 50
    assert len(problems) <= lines * 0.05, problems
    # a line left empty is better than filler ("Reader, clear and simple"), but most
    # screens say enough for a line, a headline above all
    assert len(left) <= lines * 0.1, left
    assert len([x for x in left if x[2] == "headline"]) <= lines * 0.02, left
    assert informative / (subtitles - len(left)) >= 0.85, informative / subtitles


def test_a_word_the_reader_cut_short_is_caught():
    """OCR read "Everyday Checkin" where the screen also says "Everyday Checking"."""
    found = line_problems(
        "See Everyday Checkin at a glance",
        kind="headline",
        screen_words={"everyday", "checkin", "checking", "search"},
        screen_texts=["Everyday Checkin", "Search Everyday Checking"],
    )
    assert any("Checkin" in p for p in found), found


# --- names the screens show, forms that lead with a verb, names English does not know ------------


def comments_set() -> pd.DataFrame:
    """A comment widget: no page title, the screen's name only in its tab bar and buttons."""
    tabs = [el("tab", "Comments", 0.95), el("tab", "Moderation", 0.95, x=0.4)]
    thread = [
        el("listitem", "Great write-up on sourdough starters", 0.2),
        el("listitem", "Which flour did you use for the rye?", 0.3),
        *tabs,
    ]
    write = [
        el("heading", "Write a comment", 0.05, 0.03, level=2),
        el("label", "Name", 0.15),
        el("input", "", 0.17),
        el("label", "Website", 0.22),
        el("input", "", 0.24),
        el("button", "Submit", 0.3),
        *tabs,
    ]
    moderation = [
        el("label", "Thread", 0.12),
        el("label", "Created ↓", 0.12, x=0.4),
        el("label", "Likes ↓", 0.12, x=0.7),
        el("text", "/bread/rye", 0.15),
        el("text", "2026-03-02", 0.15, x=0.4),
        el("text", "12", 0.15, x=0.7),
        *tabs,
    ]
    return dom_set(
        "Isso", [("comments", thread), ("write a comment", write), ("moderation", moderation)]
    )


def test_a_file_name_the_screen_shows_is_its_subject_and_one_it_does_not_show_is_not():
    frame = ss.extract_features(comments_set(), ocr=False).set_index(C.SCREEN)
    # named by its file and shown only in the tab bar
    assert frame.loc["comments", C.FEATURES_SUBJECT].casefold() == "comments"
    assert frame.loc["moderation", C.FEATURES_SUBJECT].casefold() == "moderation"
    # sort arrows are not part of a column's name
    assert {"Created", "Likes"} <= set(frame.loc["moderation", C.FEATURES_FIELDS])
    unseen = comments_set()
    unseen[C.SCREEN] = ["destinations", "write a comment", "moderation"]
    first = ss.extract_features(unseen, ocr=False).set_index(C.SCREEN).loc["destinations"]
    assert first[C.FEATURES_SUBJECT] != "destinations"  # the screen never says it


def test_a_form_titled_with_a_verb_keeps_its_verb():
    out = ss.write_copy(ss.detect_domain(ss.extract_features(comments_set(), ocr=False)))
    row = out.set_index(C.SCREEN).loc["write a comment"]
    assert row[C.COPY_HEADLINE].startswith("Write a comment"), row[C.COPY_HEADLINE]
    for line in (*out[C.COPY_HEADLINE], *out[C.COPY_SUBTITLE]):
        if line:  # a line nothing on its screen supports is left to the user
            assert line_problems(line, kind="subtitle", project="Isso") == [], line
    assert (out[C.COPY_HEADLINE] != "").all()


def test_a_name_english_does_not_know_keeps_its_capitals_and_is_no_fragment():
    from shotsmith.stages.copy.critic import fragments
    from shotsmith.stages.copy.evidence import case_policy

    texts = ["Northwind Studio", "hello@northwind.studio", "München", "Englischer Garten"]
    policy = case_policy(texts, "Tasklane", english=True)
    assert policy.display("Northwind Studio") == "Northwind Studio"
    assert policy.display("Englischer Garten") == "Englischer Garten"
    assert policy.display("Recent Projects") == "recent projects"
    screen_words = {"northwind", "northwind.studio", "studio"}
    assert fragments("Catch up on Northwind Studio.", screen_words) == []
    assert fragments("See units and pric.", {"units", "price"}) == ["pric"]
    # a word cut after the same word the screens show is a fragment; its singular is not
    shown = ["Everyday Checking", "Monthly reports"]
    words = {"everyday", "checking", "monthly", "reports"}
    assert fragments("Everyday Checkin", words, shown) == ["Checkin"]
    assert fragments("Monthly report at a glance", words, shown) == []


def test_a_player_is_played_not_read_and_controls_on_a_cards_row_are_not_its_subject():
    player = [
        el("heading", "Now playing", 0.05, 0.03, level=1),
        el("label", "Blue Hour", 0.5),
        el("label", "Harbour Lights", 0.53),
        el("button", "Shuffle", 0.8),
        el("button", "Repeat", 0.8, x=0.5),
    ]
    devices = [
        el("heading", "Garden irrigation", 0.14, 0.02, level=3),
        el("label", "OFFLINE", 0.13, x=0.7),
        el("button", "Edit", 0.25),
        el("label", "Logs", 0.25, x=0.4),
        el("heading", "Hallway doorbell", 0.33, 0.02, level=3),
        el("label", "ONLINE", 0.32, x=0.7),
        el("button", "Edit", 0.44),
        el("label", "Logs", 0.44, x=0.4),
    ]
    frame = ss.extract_features(
        dom_set("Harbour", [("now playing", player), ("devices", devices)]), ocr=False
    ).set_index(C.SCREEN)
    assert frame.loc["now playing", C.FEATURES_KIND] == "player"
    assert "Shuffle" not in frame.loc["now playing", C.FEATURES_EXAMPLES]
    assert frame.loc["devices", C.FEATURES_SUBJECT].casefold() != "logs"
    for value in ("OFFLINE", "ONLINE", "Logs"):
        assert value not in frame.loc["devices", C.FEATURES_EXAMPLES]
    out = ss.write_copy(ss.detect_domain(frame.reset_index()))
    headline = out.set_index(C.SCREEN).loc["now playing", C.COPY_HEADLINE]
    assert not headline.startswith("Read"), headline


def test_a_user_name_in_lower_case_is_a_person_and_a_word_is_not():
    from shotsmith.stages.features.reading import is_person

    assert is_person("maya") and is_person("Maya") and is_person("Ana Ruiz")
    assert not is_person("grace") and not is_person("will") and not is_person("workouts")


def admin_set() -> pd.DataFrame:
    """An admin screen, a record's page and a list of cards, as real apps lay them out."""
    admin = [
        el("heading", "Administration", 0.05, 0.03, level=1),
        el("label", "Valid (6)", 0.10),
        el("label", "Pending (2)", 0.10, x=0.3),
        el("text", "Group by thread:", 0.13),
        el("button", "Hide workouts", 0.16),
        el("button", "Toggle status", 0.16, x=0.4),
        el("text", "Direction: MINIMIZE", 0.20),
        el("text", "No description", 0.24),
        el("listitem", "Harbour Lights", 0.30),
        el("listitem", "Lantern Walk", 0.36),
    ]
    record = [
        el("heading", "Photos", 0.05, 0.03, level=1),
        el("label", "Folder ID", 0.20),
        el("text", "photos", 0.23),
        el("label", "Folder Path", 0.27),
        el("text", "~/Sync/Photos", 0.30),
        el("label", "Global State", 0.34),
        el("text", "7 files, 1.5 MiB", 0.37),
        el("label", "Local State", 0.41),
    ]
    cards = [  # each card's name is a list item (a <label> would name a form's control)
        el("heading", "Workouts", 0.05, 0.03, level=1),
        el("listitem", "Upper Body Strength", 0.20),
        el("text", "45 min", 0.23),
        el("listitem", "Morning Mobility", 0.30),
        el("text", "20 min", 0.33),
        el("listitem", "Hill Sprints", 0.40),
        el("text", "30 min", 0.43),
    ]
    return dom_set("Ledgerly", [("admin", admin), ("folder", record), ("workouts", cards)])


def test_controls_field_names_filters_and_states_are_neither_subject_nor_item():
    frame = ss.extract_features(admin_set(), ocr=False).set_index(C.SCREEN)
    admin = frame.loc["admin"]
    # "Group by thread:" names a control's field; "Hide workouts" is a button
    assert admin[C.FEATURES_SUBJECT] not in ("Group by thread", "Hide workouts", "Toggle status")
    examples = set(admin[C.FEATURES_EXAMPLES])
    assert {"Harbour Lights", "Lantern Walk"} <= examples
    for noise in ("Valid", "Pending", "Direction", "No description", "Group by thread"):
        assert not any(e.startswith(noise) for e in examples), (noise, examples)
    # a record's fields over their values are fields, not items; cards keep their names
    assert not {"Folder ID", "Global State", "Local State"} & set(
        frame.loc["folder", C.FEATURES_EXAMPLES]
    )
    assert {"Upper Body Strength", "Morning Mobility"} <= set(
        frame.loc["workouts", C.FEATURES_EXAMPLES]
    )


def test_interface_and_destructive_buttons_make_no_caption():
    out = ss.write_copy(ss.detect_domain(ss.extract_features(admin_set(), ocr=False)))
    for line in (*out[C.COPY_HEADLINE], *out[C.COPY_SUBTITLE]):
        assert not line.startswith(("Toggle", "Hide", "Delete")), line


def test_a_count_before_a_title_and_a_file_name_half_shown_name_the_screen():
    thread = [
        el("heading", "6 Comments", 0.05, 0.03, level=1),
        el("listitem", "Great write-up on sourdough starters", 0.2),
    ]
    menu = [
        el("listitem", "Garden irrigation", 0.1),
        el("text", "Pick what to do with this device and its firmware.", 0.12),
        el("button", "Validate", 0.2),
        el("button", "Install", 0.25),
    ]
    frame = dom_set("Isso", [("comments", thread), ("device menu", menu)])
    read = ss.extract_features(frame, ocr=False).set_index(C.SCREEN)
    assert read.loc["comments", C.FEATURES_SUBJECT] == "Comments"
    # "device" is on the screen, "menu" is the user's word for it
    assert read.loc["device menu", C.FEATURES_SUBJECT] == "device menu"
    frame[C.SCREEN] = ["comments", "sharing options"]  # neither word shown: not its name
    read = ss.extract_features(frame, ocr=False).set_index(C.SCREEN)
    assert read.loc["sharing options", C.FEATURES_SUBJECT] != "sharing options"


def test_a_short_word_no_dictionary_knows_is_an_item_from_the_dom_not_from_ocr():
    from shotsmith.stages.features.evidence import Evidence
    from shotsmith.stages.features.reading import read_screens

    def screen(source: str) -> Evidence:
        ev = Evidence()
        ev.add("title", "Albums", source, (0.05, 0.03))
        for k, name in enumerate(["Tawn", "Sintel", "Harbour Lights", "Widget Dact"]):
            ev.add("label", name, source, (0.2 + 0.1 * k, 0.012))
        return ev

    read_ocr, read_dom = (
        read_screens([screen(s)], ["albums"], ["browse"], "Player")[0] for s in ("ocr", "dom")
    )
    assert {"Sintel", "Harbour Lights"} <= set(read_ocr.examples)
    assert not {"Tawn", "Widget Dact"} & set(read_ocr.examples)  # misread off the pixels
    assert {"Tawn", "Widget Dact"} <= set(read_dom.examples)  # the app's own text: kept


def test_a_line_on_most_screens_is_furniture_not_an_example():
    def screen(title: str, rows: list[str]) -> list[dict]:
        return [
            el("heading", title, 0.05, 0.03, level=1),
            el("text", "This data as", 0.09),
            el("text", "AMD EPYC", 0.95),
            *(el("listitem", r, 0.2 + 0.05 * k) for k, r in enumerate(rows)),
        ]

    frame = dom_set(
        "Parks",
        [
            ("parks", screen("Parks", ["Castle Park", "Eastville Park"])),
            ("trees", screen("Trees", ["Ginkgo", "Black Poplar"])),
            ("species", screen("Species", ["Oak Family", "Willow Family"])),
        ],
    )
    read = ss.extract_features(frame, ocr=False).set_index(C.SCREEN)
    for screen_name, own in (("parks", "Castle Park"), ("trees", "Black Poplar")):
        examples = read.loc[screen_name, C.FEATURES_EXAMPLES]
        assert own in examples, examples
        assert not {"This data as", "AMD EPYC"} & set(examples), examples


def test_a_file_name_narrows_its_title_and_a_shared_subject_goes_to_its_file():
    history = [
        el("heading", "History", 0.05, 0.03, level=1),
        el("text", "Optimization", 0.09),
        el("listitem", "Trial 12", 0.2),
    ]
    toc = [el("text", "Table of Contents", 0.06), el("listitem", "Trips per month", 0.2)]
    tables = [
        el("text", "Table of Contents", 0.06),
        el("heading", "Busiest start stations", 0.15, 0.02, level=2),
        el("listitem", "Queen Square", 0.2),
    ]
    frame = dom_set(
        "Lab",
        [("optimization history", history), ("table of contents", toc), ("tables", tables)],
    )
    read = ss.extract_features(frame, ocr=False).set_index(C.SCREEN)
    # the user's file name says which history, in words the app shows
    assert read.loc["optimization history", C.FEATURES_SUBJECT] == "optimization history"
    assert read.loc["table of contents", C.FEATURES_SUBJECT] == "Table of Contents"
    # a sidebar's label another screen is named after is not this screen's subject
    assert read.loc["tables", C.FEATURES_SUBJECT] != "Table of Contents"


def test_a_state_that_opens_on_a_preposition_is_no_item():
    rows = [el("heading", "Parks", 0.05, 0.03, level=1)]
    rows += [el("listitem", t, 0.2 + 0.04 * k) for k, t in enumerate(["Castle Park", "On lead"])]
    read = ss.extract_features(dom_set("Parks", [("parks", rows)]), ocr=False)
    assert "On lead" not in read[C.FEATURES_EXAMPLES].iloc[0]
    assert "Castle Park" in read[C.FEATURES_EXAMPLES].iloc[0]


def test_a_headline_names_the_whole_subject_and_never_says_a_word_twice():
    def screen(title: str, rows: list[str]) -> list[dict]:
        items = [el("heading", title, 0.05, 0.03, level=1)]
        return items + [el("listitem", r, 0.2 + 0.05 * k) for k, r in enumerate(rows)]

    frame = dom_set(
        "Trips",
        [
            ("launcher", screen("Launcher", ["Notebook", "Console"])),
            ("table of contents", screen("Table of Contents", ["Wapping Wharf", "Queen Square"])),
            ("dependency graph", screen("Dependency graph", ["Monthly deposit", "Rate"])),
            ("project board", screen("Project board", ["Website Redesign", "Launch Plan"])),
        ],
    )
    out = ss.write_copy(ss.detect_domain(ss.extract_features(frame, ocr=False)))
    heads = dict(zip(out[C.SCREEN], out[C.COPY_HEADLINE]))
    for screen_name in ("table of contents", "dependency graph", "project board"):
        # the whole name, not its head noun alone ("Your graph", "Your Table in one table")
        assert screen_name in heads[screen_name].casefold(), heads
    for line in heads.values():
        words = [w.casefold() for w in line.replace(",", " ").split() if len(w) > 3]
        assert len(words) == len(set(words)), line


def test_a_word_that_starts_a_sentence_is_no_name():
    from shotsmith.stages.copy.evidence import case_policy

    strings = ["6 Comments", "Switched our blog over last weekend. Comments load fast now."]
    policy = case_policy(strings, "Isso", english=True)
    assert "Comments" not in policy.proper
    assert policy.display("Comments") == "comments"
    # a name inside a sentence still keeps its capitals
    named = case_policy([*strings, "We moved from Disqus last year."], "Isso", english=True)
    assert "Disqus" in named.proper


def test_the_same_record_in_several_views_stays_an_example():
    """A payee in a journal, a register and a search moves with each view: content, not
    furniture; a link's words that end on "all" are no item."""

    def screen(title: str, rows: list[str], at: float) -> list[dict]:
        items = [el("heading", title, 0.05, 0.03, level=1), el("link", "See all", 0.12)]
        return items + [el("text", r, at + 0.05 * k) for k, r in enumerate(rows)]

    frame = dom_set(
        "Ledger",
        [
            ("journal", screen("Journal", ["Fernhill Market", "Maple Lettings"], 0.2)),
            ("register", screen("Register", ["Metro Rail", "Fernhill Market"], 0.3)),
            ("search", screen("Search", ["Corner Grocer", "Fernhill Market"], 0.45)),
            ("accounts", screen("Accounts", ["Current Account", "Savings Pot"], 0.2)),
        ],
    )
    read = ss.extract_features(frame, ocr=False).set_index(C.SCREEN)
    assert "Fernhill Market" in read.loc["search", C.FEATURES_EXAMPLES]
    assert not any("See all" in e for e in read[C.FEATURES_EXAMPLES].sum())


def test_a_section_heading_a_sort_order_and_a_cut_quote_are_neither_subject_nor_item():
    about = [el("heading", "About this run", 0.05, 0.03, level=1)]
    about += [el("label", t, 0.2 + 0.04 * k) for k, t in enumerate(["Run ID", "Duration"])]
    tracks = [el("heading", "Sunday Morning", 0.05, 0.03, level=1)]
    tracks += [
        el("listitem", t, 0.2 + 0.04 * k)
        for k, t in enumerate(
            ["As loaded", "Northbound Static", "containing 'bl", "as listed", "Sam’s Diner Blues"]
        )
    ]
    read = ss.extract_features(
        dom_set("Runs", [("run metrics", about), ("playlist", tracks)]), ocr=False
    ).set_index(C.SCREEN)
    # "About this run" is a section's heading, not what the screen is for
    assert not read.loc["run metrics", C.FEATURES_SUBJECT].casefold().startswith("about")
    examples = read.loc["playlist", C.FEATURES_EXAMPLES]
    assert "Northbound Static" in examples
    assert "Sam’s Diner Blues" in examples  # an apostrophe, curly or not, opens no quote
    for cut in ("As loaded", "containing 'bl", "as listed"):
        assert cut not in examples, examples


def test_a_title_of_ordinary_words_is_no_tab_bar_and_an_icon_name_is_no_word():
    form = [el("heading", "Create new book", 0.05, 0.03, level=1)]
    form += [el("label", t, 0.2 + 0.05 * k) for k, t in enumerate(["Title", "Language"])]
    form += [el("input", "", 0.22), el("input", "", 0.27)]
    albums = [el("heading", "album My albums", 0.05, 0.03, level=1)]
    albums += [el("listitem", t, 0.2 + 0.05 * k) for k, t in enumerate(["Low Tide", "Salt Air"])]
    playing = [el("heading", "play_arrow Now playing", 0.05, 0.03, level=1)]
    playing += [el("listitem", "Paper Lanterns", 0.2)]
    read = ss.extract_features(
        dom_set("Shelf", [("new book", form), ("albums", albums), ("now playing", playing)]),
        ocr=False,
    ).set_index(C.SCREEN)
    assert read.loc["new book", C.FEATURES_SUBJECT] == "Create new book"
    assert read.loc["albums", C.FEATURES_SUBJECT].casefold() == "albums"
    assert read.loc["now playing", C.FEATURES_SUBJECT] == "Now playing"


def test_a_footer_word_is_the_subject_where_the_screens_own_column_says_it():
    rows = [el("heading", "Terms", 0.05, 0.03, level=1)]
    rows += [
        el("label", t, 0.15, x=0.05 + 0.3 * k)
        for k, t in enumerate(["Term", "Translation", "Status"])
    ]
    rows += [el("listitem", t, 0.2 + 0.05 * k) for k, t in enumerate(["Aladino", "Oriente"])]
    out = ss.write_copy(
        ss.detect_domain(ss.extract_features(dom_set("Lingo", [("terms", rows)]), ocr=False))
    )
    headline = out[C.COPY_HEADLINE].iloc[0].casefold()
    assert "terms" in headline or "every term" in headline, headline


def test_a_forms_fields_are_its_labels_not_the_menus_links_nor_a_state():
    rows = [el("link", t, 0.02, x=0.05 + 0.2 * k) for k, t in enumerate(["Home", "Terms", "About"])]
    rows += [el("heading", "Edit watch", 0.06, 0.03, level=1)]
    rows += [
        el("label", t, 0.2 + 0.06 * k) for k, t in enumerate(["Title", "Language", "Alerts on"])
    ]
    rows += [el("input", "Lanterns", 0.23), el("input", "English", 0.29)]
    read = ss.extract_features(dom_set("Watcher", [("edit watch", rows)]), ocr=False)
    fields = read[C.FEATURES_FIELDS].iloc[0]
    assert {"Title", "Language"} <= set(fields), fields
    assert not {"Home", "Terms", "About", "Alerts on"} & set(fields), fields


def test_a_sentence_naming_someone_is_never_quoted():
    rows = [el("heading", "Journal", 0.05, 0.03, level=1)]
    rows += [el("text", "Birthday present for Sam.", 0.2), el("text", "Dinner with Priya.", 0.25)]
    out = ss.write_copy(
        ss.detect_domain(ss.extract_features(dom_set("Ledgerly", [("journal", rows)]), ocr=False))
    )
    for line in (*out[C.COPY_HEADLINE], *out[C.COPY_SUBTITLE]):
        assert "Sam" not in line and "Priya" not in line, line


def test_a_worn_frame_still_names_the_subject_before_an_example():
    """Optuna's fifth screen comes after the set has said "at a glance" twice and opened
    two headlines with "Your": its headline still names the pareto front, not a column
    ("See Datetime start at a glance")."""
    frame = ss.read_screenshots(REALAPPS / "optuna")
    out = ss.extract_features(frame, ocr=False).pipe(ss.detect_domain).pipe(ss.write_copy)
    heads = dict(zip(out[C.SCREEN], out[C.COPY_HEADLINE]))
    assert "pareto front" in heads["pareto front"].casefold(), heads


def test_a_slide_says_its_tone_phrase_once():
    """ESPHome's devices and I Hate Money's statistics are captioned "... at a glance"
    with a subtitle the set has nothing better for: the subtitle drops the phrase its
    headline has said ("See garden irrigation and hallway doorbell.")."""
    tone = ("at a glance", "in one place", "in one go", "on one screen", "in one list")
    for app in ("esphome", "ihatemoney"):
        frame = ss.read_screenshots(REALAPPS / app)
        out = ss.extract_features(frame, ocr=False).pipe(ss.detect_domain).pipe(ss.write_copy)
        written = 0
        for head, sub in zip(out[C.COPY_HEADLINE], out[C.COPY_SUBTITLE]):
            said = [t for t in tone if t in head.casefold()]
            assert not [t for t in said if t in sub.casefold()], (head, sub)
            written += bool(said and sub)
        assert written, out[[C.COPY_HEADLINE, C.COPY_SUBTITLE]]


@pytest.mark.parametrize(
    ("line", "project", "twice"),
    [
        ("Check the trials, trial and note.", "Optuna", True),
        ("See the status and page status of every page.", "Wagtail", True),
        ("Your budgets and reports, together in Pocket Budget.", "Pocket Budget", False),
        ("Check the date, payee and narration.", "Fava", False),
        ("See Lake District walks and Peak District walks.", "Trails", False),
    ],
)
def test_a_list_that_names_one_thing_twice_is_struck_out(line, project, twice):
    found = line_problems(line, kind="subtitle", project=project)
    assert ("a list names one thing twice" in found) is twice, found


def test_a_name_the_screens_write_with_its_own_and_is_one_thing():
    # a survey's section "Books and e-books" is one name; "books" and "e-books" joined by
    # the writer are a list that says one thing twice
    screens = ["Books and e-books", "Our collection, in print and online."]
    said = line_problems("Books and e-books at a glance", kind="headline", screen_texts=screens)
    assert "a list names one thing twice" not in said
    joined = line_problems("Your books and e-books", kind="headline", screen_texts=["Books"])
    assert "a list names one thing twice" in joined


def test_a_features_title_case_is_a_sentences_and_a_titles_capitals_stay():
    log = [el("heading", "Harvest Log", 0.05, 0.03, level=1)]
    log += [
        el("label", t, 0.15, x=0.05 + 0.3 * k) for k, t in enumerate(["Date", "Crop", "Weight"])
    ]
    log += [el("text", f"2026-0{k + 6}-01", 0.2 + 0.05 * k) for k in range(3)]
    article = [el("heading", "English oak", 0.05, 0.03, level=1)]
    article += [el("text", "The English oak is a large deciduous tree of Europe.", 0.2)]
    article += [el("heading", t, 0.3 + 0.2 * k, level=2) for k, t in enumerate(["Bark", "Age"])]
    out = ss.write_copy(
        ss.detect_domain(
            ss.extract_features(dom_set("Almanac", [("log", log), ("oak", article)]), ocr=False)
        )
    ).set_index(C.SCREEN)
    assert "harvest log" in out.loc["log", C.COPY_HEADLINE], out.loc["log", C.COPY_HEADLINE]
    oak = out.loc["oak", C.COPY_HEADLINE]
    assert "English oak" in oak and "your" not in oak.casefold(), oak  # not "Read your oak"


def test_a_records_table_of_facts_is_no_items_and_a_reader_jumps_to_its_sections():
    """Kiwix's article: the infobox's labels and values ("Scientific name", "Erithacus
    rubecula") are fields, its section headings are parts of what is read."""
    frame = ss.read_screenshots(REALAPPS / "kiwix")
    out = ss.extract_features(frame, ocr=False).pipe(ss.detect_domain).pipe(ss.write_copy)
    article = out.set_index(C.SCREEN).loc["article"]
    examples = article[C.FEATURES_EXAMPLES]
    for fact in ("Scientific name", "Erithacus rubecula", "Nesting"):
        assert fact not in examples, examples
    assert article[C.COPY_SUBTITLE] == "Jump to song, food or nesting in a tap."
    store = out[C.COPY_STORE_TEXT].iloc[0]
    said = f"{store['promotional_text']} {store['keywords']}".casefold()
    assert "oak" not in said and "robin" not in said, store  # an article is no feature


def test_counts_under_three_and_elements_below_the_screenshot_say_nothing():
    from shotsmith.stages.copy.evidence import _count_phrases
    from shotsmith.stages.features.evidence import from_elements

    assert _count_phrases(["2 books", "12 trails", "1,204 recipes"]) == [
        "12 trails",
        "1,204 recipes",
    ]
    # a file's name ("03 Salts.md") and a number led by a nought are an order, no count
    assert _count_phrases(["03 Salts.md", "04 Bases", "14 lessons"]) == ["14 lessons"]
    ev = from_elements(
        [
            {"role": "heading", "text": "Albums", "box": [0, 100, 500, 80], "level": 1},
            {"role": "text", "text": "Low Tide", "box": [0, 900, 300, 40]},
            {"role": "text", "text": "Quiet Streets", "box": [0, 2000, 300, 40]},
        ],
        height=1800.0,
    )
    texts = [i["text"] for i in ev.items]
    assert "Low Tide" in texts and "Quiet Streets" not in texts, texts


def test_only_the_apps_own_hints_are_quoted_never_its_content():
    chapter = [el("heading", "Chapter 3", 0.05, 0.03, level=1)]
    chapter += [el("text", "This was invitation enough.", 0.2)]
    week = [el("heading", "Jobs This Week", 0.05, 0.03, level=1)]
    week += [el("text", "Pot on the tomato seedlings.", 0.2)]
    week += [el("listitem", t, 0.3 + 0.05 * k) for k, t in enumerate(["Mon", "Tue", "Wed"])]
    bugs = [el("heading", "Open bugs", 0.05, 0.03, level=1)]
    bugs += [
        el("link", t, 0.2 + 0.05 * k)
        for k, t in enumerate(
            [
                "Export to Markdown loses checklist items",
                "Move toolbar above the keyboard",
                "Notes disappear after syncing offline",
            ]
        )
    ]
    screens = [("chapter", chapter), ("week", week), ("bugs", bugs)]
    out = ss.write_copy(
        ss.detect_domain(ss.extract_features(dom_set("Garden", screens), ocr=False))
    )
    said = " ".join([*out[C.COPY_HEADLINE], *out[C.COPY_SUBTITLE]])
    for content in ("invitation", "Pot on", "loses checklist", "toolbar above", "disappear"):
        assert content not in said, said
    from shotsmith.stages.copy.evidence import _app_voice

    assert _app_voice("Search the full text of books instead.", "list")
    assert _app_voice("Your changes are saved as you type.", "form")
    assert not _app_voice("Goals for this year.", "list")
    assert not _app_voice("Search engines love this article.", "reader")


@pytest.mark.parametrize(
    ("title", "in_a_sentence"),
    [
        ("Harvest Log", "harvest log"),
        ("Version History", "version history"),
        ("Dark mode", "dark mode"),
        ("SQL Console", "SQL console"),
        ("Trips to Kyoto", "trips to Kyoto"),
        ("Monday Plan", "Monday plan"),
        ("English oak", "English oak"),
    ],
)
def test_a_features_name_is_written_as_a_sentence_writes_it(title, in_a_sentence):
    from shotsmith.stages.copy.evidence import _feature_case

    assert _feature_case(title) == in_a_sentence


def test_a_lone_adjective_or_state_is_no_example():
    rows = [el("heading", "Trees", 0.05, 0.03, level=1)]
    rows += [
        el("listitem", t, 0.2 + 0.05 * k)
        for k, t in enumerate(["English oak", "Deciduous", "Silver birch", "Pruned"])
    ]
    read = ss.extract_features(dom_set("Arbor", [("trees", rows)]), ocr=False)
    examples = read[C.FEATURES_EXAMPLES].iloc[0]
    assert {"English oak", "Silver birch"} <= set(examples), examples
    assert not {"Deciduous", "Pruned"} & set(examples), examples


def test_a_sign_in_screen_names_no_feature():
    """A sign-in screen read off its pixels has "Sign" of "Sign in" as its subject: it is
    the door to the app, neither a headline's subject nor one of the app's features."""
    from shotsmith.stages.copy.evidence import ScreenEvidence, build_slots, case_policy
    from shotsmith.stages.copy.store_text import set_features

    door = ScreenEvidence(
        title="Sign in", kind="sign-in", subject="Sign", fields=["Username", "Password"]
    )
    shelf = ScreenEvidence(title="Collections", kind="list", subject="Collections")
    policy = case_policy(["Sign in", "Collections"], "Radicale", True)
    slots = build_slots([door, shelf], "Radicale", policy)
    assert slots[0].subject is None
    assert set_features([door, shelf]) == ["collections"]


def test_a_frame_never_says_its_slots_word_again_in_another_form():
    from shotsmith.stages.copy.evidence import Phrase, Slots
    from shotsmith.stages.copy.writer import _fill

    slots = Slots(kind="dashboard", subject=Phrase("tracks", "Tracks"))
    assert _fill("Keep track of your {s}", slots, set(), {}) is None
    line = _fill("Your {s} at a glance", slots, set(), {})
    assert line is not None and line.text == "Your tracks at a glance"


def test_a_sort_order_is_no_feature_of_the_app():
    from shotsmith.stages.copy.evidence import ScreenEvidence
    from shotsmith.stages.copy.store_text import set_features

    screens = [
        ScreenEvidence(kind="table", subject="sorted by memory"),
        ScreenEvidence(kind="table", subject="Processes"),
        ScreenEvidence(kind="list", subject="Shared notes"),
    ]
    assert set_features(screens) == ["processes", "shared notes"]


def test_a_calendar_with_one_example_still_names_it():
    """TiddlyWiki's sowing calendar shows one crop by name: its subtitle names it."""
    frame = ss.read_screenshots(REALAPPS / "tiddlywiki")
    out = ss.extract_features(frame, ocr=False).pipe(ss.detect_domain).pipe(ss.write_copy)
    sowing = out.set_index(C.SCREEN).loc["sowing calendar", C.COPY_SUBTITLE]
    assert "Runner Beans" in sowing, sowing


def test_a_page_titled_with_a_name_is_that_things_page_not_its_lowest_section():
    # wger's exercise page: the exercise's name as the title, "Notes" as a heading far down
    exercise = [
        el("heading", "Barbell Bench Press", 0.31, 0.25, level=1),
        el("text", "Chest", 0.58),
        el("heading", "Description", 0.70, 0.036, level=2),
        el("text", "Lie on a flat bench, grip the bar slightly wider than your shoulders.", 0.74),
        el("heading", "Notes", 0.91, 0.036, level=2),
    ]
    workouts = [el("heading", "Workouts", 0.07, 0.03, level=1), el("text", "Push day", 0.2)]
    frame = dom_set("Lift", [("exercise", exercise), ("workouts", workouts)])
    first = ss.extract_features(frame, ocr=False).iloc[0]
    assert first[C.FEATURES_SUBJECT] == "", first[C.FEATURES_SUBJECT]
    assert first[C.FEATURES_KIND] == "detail", first[C.FEATURES_KIND]
    assert first[C.FEATURES_EXAMPLES][:1] == ["Barbell Bench Press"]


def test_an_editor_titled_editing_a_page_edits_content_and_names_no_header_field():
    # MediaWiki's "Editing Trip Leader Guide": the page is content; the header's "User menu"
    # and a label cut off at the screenshot's bottom edge are no fields of the form
    editor = [
        el("button", "User menu", 0.075, 0.05, x=0.8),
        el("heading", "Editing Trip Leader Guide", 0.14, 0.022, level=1),
        el("button", "Bold", 0.19, 0.04),
        el("label", "Summary:", 0.9989, 0.025),
        el("input", "", 0.30),
        el("input", "", 0.50),
    ]
    pages = [el("heading", "Trails", 0.07, 0.03, level=1), el("text", "Cedar Falls Loop", 0.2)]
    frame = dom_set("Ramblers", [("edit", editor), ("trails", pages)])
    first = ss.extract_features(frame, ocr=False).iloc[0]
    assert "editing" not in first[C.FEATURES_SUBJECT].casefold(), first[C.FEATURES_SUBJECT]
    assert "Trip Leader Guide" in first[C.FEATURES_EXAMPLES], first[C.FEATURES_EXAMPLES]
    assert first[C.FEATURES_KIND] == "form"
    fields = [f.casefold() for f in first[C.FEATURES_FIELDS]]
    assert "user menu" not in fields and "summary" not in fields, fields
    # the caption says what the screen lets a person do to that page
    out = ss.write_copy(ss.detect_domain(ss.extract_features(frame, ocr=False)))
    assert out[C.COPY_HEADLINE].iloc[0] == "Edit Trip Leader Guide", out[C.COPY_HEADLINE].iloc[0]


def test_the_apps_name_in_its_header_is_no_example():
    # a wiki's header names the wiki ("Ridgeline Ramblers" of Ridgeline Ramblers Wiki)
    trails = [
        el("heading", "Ridgeline Ramblers", 0.05, 0.018, level=2),
        el("heading", "Category:Trails", 0.12, 0.03, level=1),
        *[
            el("listitem", t, 0.5 + 0.08 * k)
            for k, t in enumerate(["Cedar Falls Loop", "Mill Run"])
        ],
    ]
    changes = [
        el("heading", "Ridgeline Ramblers", 0.05, 0.018, level=2),
        el("heading", "Recent changes", 0.12, 0.03, level=1),
    ]
    frame = dom_set("Ridgeline Ramblers Wiki", [("trails", trails), ("changes", changes)])
    examples = ss.extract_features(frame, ocr=False)[C.FEATURES_EXAMPLES].iloc[0]
    assert "Ridgeline Ramblers" not in examples and "Cedar Falls Loop" in examples, examples


def test_only_an_editor_of_a_named_thing_is_read_as_acting_on_content():
    from shotsmith.stages.features.reading import _ACTING

    assert _ACTING.match("Editing Trip Leader Guide").group(2) == "Trip Leader Guide"
    assert _ACTING.match("Exploring: Crumb & Co. Bakery").group(2) == "Crumb & Co. Bakery"
    for feature in ("Reading list", "Editing profile", "Browsing history", "Editing Profile"):
        assert _ACTING.match(feature) is None, feature


def test_how_a_run_ended_is_no_subject():
    from shotsmith.stages.features.reading import _names_a_thing

    assert not _names_a_thing("Success") and not _names_a_thing("Failed")
    assert _names_a_thing("Runs") and _names_a_thing("Failed runs")


def test_a_state_a_thing_is_in_is_no_subject():
    """ "Favorited" (a toggled tab) and "Archived" say what state a thing is in; a lone
    participle names no feature, while "Hundred" and "Feed" are no participles."""
    from shotsmith.stages.features.reading import _names_a_thing

    assert not _names_a_thing("Favorited") and not _names_a_thing("Archived")
    assert _names_a_thing("Feed") and _names_a_thing("Shared folders")


def test_a_way_back_and_a_sentences_rest_are_no_subject_nor_field():
    """ "Return home" is a link back, no dashboard's subject; "or click here" and "to
    upload files", split off "Drop files" by a link, are the rest of a sentence, and
    "Drop files" is an instruction: none is a form's field."""
    home = [
        el("heading", "Where would you like to begin tonight?", 0.10, 0.03, level=1),
        el("link", "Return home", 0.2),
        el("text", "Your private frequency", 0.3),
    ]
    form = [
        el("heading", "New paste", 0.10, 0.03, level=1),
        el("label", "Drop files", 0.3),
        el("label", "or click here", 0.3, x=0.4),
        el("label", "to upload files", 0.3, x=0.7),
        el("label", "Expiry", 0.4),
        el("label", "Lexer", 0.5),
    ]
    frame = dom_set("Pastes", [("home", home), ("new paste", form)])
    out = ss.extract_features(frame, ocr=False)
    assert "return" not in out[C.FEATURES_SUBJECT].iloc[0].casefold()
    fields = [f.casefold() for f in out[C.FEATURES_FIELDS].iloc[1]]
    assert not [f for f in fields if "click" in f or "upload" in f or "drop" in f], fields


def _linkbox(titles: list[str]) -> pd.DataFrame:
    """A bookmark manager whose pages bear no heading: its menu (on every page) is the only
    place the screen's name is shown, and the document title says which page is open."""
    menu = [el("link", m, 0.05, x=0.05 + 0.2 * k) for k, m in enumerate(["Bookmarks", "Tags"])]
    menu.append(el("link", "Statistics", 0.05, x=0.45))
    rows = [el("text", t, 0.3 + 0.05 * k) for k, t in enumerate(["example.org", "fava.dev"])]
    screens = [(f"screen {k + 1}", menu + rows) for k in range(len(titles))]
    return dom_set("Linkbox", screens, **{C.SCREEN_TITLE: ""}).assign(**{C.SCREEN_TITLE: titles})


def test_a_page_named_in_its_document_title_names_the_screen():
    titles = ["Bookmarks - Linkbox", "Tags - Linkbox", "Statistics - Linkbox", "Linkbox"]
    out = ss.extract_features(_linkbox(titles), ocr=False)
    assert out[C.FEATURES_SUBJECT].tolist()[:3] == ["Bookmarks", "Tags", "Statistics"]
    assert set(out[C.FEATURES_SUBJECT_FROM].iloc[:3]) == {"page title"}
    assert out[C.FEATURES_SUBJECT].iloc[3] != "Linkbox"  # the app's name names no page
    # without the titles the menu on every page names none of them
    bare = ss.extract_features(_linkbox([""] * 4), ocr=False)
    assert bare[C.FEATURES_SUBJECT].tolist()[:3] != ["Bookmarks", "Tags", "Statistics"]


def test_a_document_title_names_only_a_page_the_screen_shows_and_no_other_shares():
    # "Administration" is not on the screen: never a caption's word; "Tags" on two pages
    # (a list and its editor) names neither
    titles = ["Administration - Linkbox", "Tags - Linkbox", "Tags - Linkbox"]
    out = ss.extract_features(_linkbox(titles), ocr=False)
    assert "Administration" not in out[C.FEATURES_SUBJECT].tolist()
    assert "page title" not in out[C.FEATURES_SUBJECT_FROM].tolist()


def test_page_names_leave_out_the_apps_name_addresses_and_ids():
    from shotsmith.stages.features.reading import page_names

    assert page_names(["Runs - Experiment 1 - MLflow", "Models - MLflow"], "MLflow") == [
        "Runs",
        "Models",
    ]
    assert page_names(["Run fa214a417da1 - MLflow"], "MLflow") == [""]
    assert page_names(["calibre :: Library"], "calibre") == ["Library"]
    assert page_names(["Isso admin", "Isso Demo", "Isso Demo"], "Isso") == ["admin", "", ""]
    assert page_names(["Tracker - http://127.0.0.1:8080 - Login"], "Tracker") == ["Login"]


def test_a_given_and_a_family_name_are_a_person_not_an_example():
    from shotsmith.stages.features.reading import is_person

    for person in ("Ines Duarte", "Mira Okafor", "Priya Raman", "Dana Whitfield"):
        assert is_person(person), person
    for person in ("Tomás Herrera", "José Núñez", "Zoë Müller"):  # accents aside
        assert is_person(person), person
    # a name, then a word for a thing, is a thing's name
    for thing in ("Autumn Strength", "Rose Garden", "Victoria Station", "Jordan River"):
        assert not is_person(thing), thing
    # Wagtail's dashboard: who submitted a page is no example of what the app holds
    board = [
        el("heading", "Awaiting your review", 0.30, 0.03, level=2),
        el("link", "Behind the scenes: a baker's day", 0.36),
        el("text", "Ines Duarte", 0.38),
        el("link", "Our sourdough starter turns ten", 0.44),
        el("text", "Mira Okafor", 0.46),
    ]
    pages = [el("heading", "Pages", 0.07, 0.03, level=1), el("text", "Menu", 0.2)]
    frame = dom_set("Crumb", [("dashboard", board), ("pages", pages)])
    examples = ss.extract_features(frame, ocr=False)[C.FEATURES_EXAMPLES].iloc[0]
    assert examples and not {"Ines Duarte", "Mira Okafor"} & set(examples), examples


def test_a_lists_buttons_say_what_a_person_can_do_to_any_item():
    # Radicale's collections: no item names a caption could show (each row is an address),
    # but every row has its Download and Export buttons (Delete works the interface, Upload
    # makes a new one)
    rows = []
    for k, name in enumerate(["/sam/family.ics/", "/sam/work.ics/", "/sam/errands.ics/"]):
        y = 0.25 + 0.15 * k
        rows += [el("text", name, y), el("button", "Download", y + 0.04)]
        rows += [el("button", "Export", y + 0.04, x=0.3), el("button", "Delete", y + 0.04, x=0.5)]
    collections = [el("heading", "Collections", 0.08, 0.03, level=1), *rows]
    collections.append(el("button", "Upload", 0.9))
    sign_in = [el("heading", "Sign in", 0.1, 0.03, level=1), el("label", "Password", 0.3)]
    frame = dom_set("Radicale", [("collections", collections), ("sign in", sign_in)])
    out = ss.write_copy(ss.detect_domain(ss.extract_features(frame, ocr=False)))
    line = f"{out[C.COPY_HEADLINE].iloc[0]} / {out[C.COPY_SUBTITLE].iloc[0]}"
    assert "Download or export any collection." in line, line
    assert "delete" not in line.casefold() and "upload" not in line.casefold(), line


def test_an_item_is_never_called_one_of_another_items_kind():
    # Radicale's list: the first card's heading ("Contacts") is the screen's largest text,
    # but the screen lists collections; "Errands" is a collection, never "another contact"
    cards = []
    for k, (name, kind) in enumerate([("Contacts", "Address book"), ("Errands", "Tasks")]):
        y = 0.2 + 0.3 * k
        cards += [el("heading", name, y, 0.03, level=2), el("text", kind, y + 0.04)]
        cards += [el("text", f"{3 + k} items in collection", y + 0.07)]
    screen = [el("text", "sam's Collections", 0.06, 0.012), *cards]
    sign_in = [el("heading", "Sign in", 0.1, 0.03, level=1), el("label", "Password", 0.3)]
    frame = dom_set("Radicale", [("collections", screen), ("sign in", sign_in)])
    out = ss.write_copy(ss.detect_domain(ss.extract_features(frame, ocr=False)))
    line = f"{out[C.COPY_HEADLINE].iloc[0]} / {out[C.COPY_SUBTITLE].iloc[0]}"
    assert "contact" not in line.casefold().replace("contacts", ""), line


def test_what_a_search_found_is_content_no_possession():
    from shotsmith.stages.copy.evidence import is_content_title

    # Kiwix's search suggestions open on "House sparrow": an article, never "your" sparrow
    assert is_content_title("search", "House sparrow")
    assert not is_content_title("search", "Search results")
    assert not is_content_title("list", "House sparrow")


def test_who_wrote_in_a_conversation_is_no_example():
    # Isso's replies: "Marguerite" signs a comment; a caption never says "Catch up on
    # Marguerite"
    frame = ss.read_screenshots(REALAPPS / "isso")
    out = ss.write_copy(ss.detect_domain(ss.extract_features(frame, ocr=False)))
    replies = out.set_index(C.SCREEN).loc["replies"]
    assert replies[C.FEATURES_KIND] == "conversation"
    assert "Marguerite" not in replies[C.FEATURES_EXAMPLES], replies[C.FEATURES_EXAMPLES]
    line = f"{replies[C.COPY_HEADLINE]} / {replies[C.COPY_SUBTITLE]}"
    assert "Marguerite" not in line, line


def test_a_records_own_page_is_a_detail_of_every_record_of_its_type():
    # Redmine's issue page: "Bug #11" titles one record; its type is the subject, a short
    # word ("Bug") that still names a thing, and the page shows each bug in full
    issue = [
        el("heading", "Bug #11", 0.08, 0.03, level=2),
        el("heading", "Checkout button hidden behind the keyboard", 0.12, 0.02, level=3),
        el("label", "Status:", 0.2),
        el("text", "New", 0.2, x=0.4),
        el("label", "Priority:", 0.23),
        el("text", "High", 0.23, x=0.4),
        el("label", "Assignee:", 0.26),
        el("text", "Kwame Mensah", 0.26, x=0.4),
        el("link", "Edit", 0.05, x=0.6),
        el("link", "Log time", 0.05, x=0.8),
    ]
    issues = [el("heading", "Issues", 0.08, 0.03, level=2)]
    issues += [el("link", t, 0.2 + 0.04 * k) for k, t in enumerate(["Oat milk", "Apple Pay"])]
    frame = dom_set("Redmine", [("issue", issue), ("issues", issues)])
    out = ss.write_copy(ss.detect_domain(ss.extract_features(frame, ocr=False)))
    assert out[C.FEATURES_KIND].iloc[0] == "detail"
    assert out[C.FEATURES_SUBJECT].iloc[0] == "Bug"
    assert out[C.COPY_HEADLINE].iloc[0] == "Each bug, in full detail", out[C.COPY_HEADLINE].tolist()
    # what the app holds is its bugs, in the store's words and the set's lines
    from shotsmith.stages.copy.evidence import ScreenEvidence
    from shotsmith.stages.copy.store_text import set_features

    record = ScreenEvidence(screen="issue", title="Bug #11", kind="detail", subject="Bug")
    assert set_features([record]) == ["bugs"]


def test_marks_no_name_holds_make_no_subject_and_a_cut_word_no_line():
    from shotsmith.stages.copy.critic import fragments

    # OCR reads a menu through its borders ("home [places"); a label with its value after a
    # colon ("History: Day Week") names no feature either
    for junk, screen in (("home [places", "places"), ("History: Day Week", "month history")):
        calendar = [el("label", junk, 0.08), el("heading", "July 2025", 0.12, 0.03, level=1)]
        calendar += [el("text", str(d), 0.2 + 0.01 * d) for d in range(1, 8)]
        frame = dom_set("Zoph", [(screen, calendar)])
        out = ss.extract_features(frame, ocr=False)
        assert out[C.FEATURES_SUBJECT].iloc[0] != junk, junk
    # "Phot": a rare word that starts a far commoner one on the screens ("Photos")
    assert fragments("See Phot and lisbon weekend at a glance.", {"photos", "lisbon"}) == ["Phot"]
    assert fragments("See every tag at a glance.", {"tags"}) == []


def test_a_page_between_previous_and_next_links_is_one_record_of_their_type():
    # Trac's ticket: the site's name is the title, and "← Previous Ticket" / "Next Ticket →"
    # say the page is one ticket; neither link, nor "Back to Query", is the subject or an item
    ticket = [
        el("heading", "Kestrel Notes", 0.03, 0.03, level=1),
        el("link", "← Previous Ticket", 0.10),
        el("link", "Back to Query", 0.10, x=0.35),
        el("link", "Next Ticket →", 0.10, x=0.7),
        el("heading", "#7", 0.14, 0.02, level=2),
        el("heading", "Shared notebook list does not refresh", 0.17, 0.02, level=2),
        el("label", "Reported by:", 0.22),
        el("text", "jonas", 0.22, x=0.4),
        el("label", "Priority:", 0.25),
        el("text", "major", 0.25, x=0.4),
    ]
    # a calendar's "Next month" and a list's "Next page" step through time and pages
    month = [
        el("heading", "Bookings", 0.05, 0.03, level=1),
        el("link", "Previous month", 0.10),
        el("link", "Next month", 0.10, x=0.7),
        el("link", "Next page", 0.9),
    ]
    frame = dom_set("Kestrel", [("ticket", ticket), ("bookings", month)])
    out = ss.write_copy(ss.detect_domain(ss.extract_features(frame, ocr=False)))
    assert out[C.FEATURES_KIND].iloc[0] == "detail"
    assert out[C.FEATURES_SUBJECT].iloc[0] == "ticket"
    examples = out[C.FEATURES_EXAMPLES].iloc[0]
    assert not any("Ticket" in e or "Back to" in e for e in examples), examples
    assert out[C.FEATURES_SUBJECT].iloc[1] == "Bookings"
    # a lone singular noun opens no headline without its article
    head = out[C.COPY_HEADLINE].iloc[0]
    assert "ticket" in head.casefold() and not head.startswith("Ticket"), head


def test_a_searchs_subject_is_what_it_counts_and_time_stamps_make_no_calendar():
    # An Otter Wiki's search: "Search matched 6 pages" says what is searched; "Match case"
    # is an option. HyperKitty's threads are stamped "Wed Nov 25, 11:10 p.m.": a list, and
    # its heading in a style's capitals is written as a heading
    search = [
        el("heading", "Search", 0.05, 0.03, level=1),
        el("textbox", "brake", 0.09),
        el("button", "Search", 0.09, x=0.7),
        el("label", "Match case", 0.13),
        el("label", "Regular expression", 0.13, x=0.4),
        el("heading", "Search matched 6 pages:", 0.18, 0.02, level=2),
        el("link", "Fixing A Flat Tyre", 0.22),
        el("text", "(9 matches found)", 0.25),
        el("link", "Adjusting Brake Pads", 0.30),
    ]
    threads = [el("heading", "RECENTLY ACTIVE DISCUSSIONS", 0.05, 0.02, level=2)]
    for k, (title, when) in enumerate(
        [
            ("Tiles render blank above zoom 16", "Wed Nov 25, 11:10 p.m."),
            ("Best way to serve tiles behind nginx", "Sat Nov 21, 8:44 p.m."),
            ("Custom fonts not picked up", "Tue Nov 10, 11:05 p.m."),
        ]
    ):
        threads += [el("link", title, 0.1 + 0.08 * k), el("text", when, 0.13 + 0.08 * k)]
    frame = dom_set("Spoke Wiki", [("search", search), ("discussions", threads)])
    out = ss.write_copy(ss.detect_domain(ss.extract_features(frame, ocr=False)))
    assert out[C.FEATURES_KIND].tolist() == ["search", "list"]
    assert out[C.FEATURES_SUBJECT].tolist() == ["pages", "Recently active discussions"]
    assert "Match case" not in out[C.COPY_HEADLINE].iloc[0]
    assert "page" in out[C.COPY_HEADLINE].iloc[0], out[C.COPY_HEADLINE].tolist()


def test_the_menu_item_a_page_marks_as_its_own_names_it():
    # cgit: every page shows the same menu ("summary log tree commit"); the page marks its
    # own item ("commit", class="active"), which names it though every screen shows it
    def menu(current: str) -> list[dict]:
        items = []
        for k, name in enumerate(["summary", "log", "tree", "commit", "diff"]):
            item = el("tab", name, 0.12, x=0.05 + 0.15 * k)
            if name == current:
                item["current"] = True
            items.append(item)
        return items

    commit = [
        *menu("commit"),
        el("label", "author", 0.2),
        el("text", "Mira Castellanos", 0.2, x=0.4),
    ]
    commit += [el("label", "committer", 0.23), el("text", "Luka Horvat", 0.23, x=0.4)]
    log = [*menu("log"), el("label", "Age", 0.2), el("label", "Commit message", 0.2, x=0.3)]
    log += [el("link", t, 0.25 + 0.04 * k) for k, t in enumerate(["Fix tide table", "Add moon"])]
    # Trac marks its menu's item in a style's capitals: written as a heading writes it
    new = [el("tab", "NEW TICKET", 0.12, x=0.5) | {"current": True}, el("tab", "WIKI", 0.12)]
    new += [el("label", "Summary:", 0.2), el("textbox", "", 0.2, x=0.4)]
    frame = dom_set("cgit", [("page 1", commit), ("page 2", log), ("page 3", new)])
    out = ss.extract_features(frame, ocr=False)
    assert out[C.FEATURES_SUBJECT].tolist() == ["commit", "log", "New ticket"]
    assert out[C.FEATURES_SUBJECT_FROM].tolist() == ["current tab"] * 3


def test_a_formatting_helps_lines_are_no_fields_of_a_form():
    # Trac's new-ticket form carries WikiFormatting help in a row of labels
    form = [
        el("heading", "Create New Ticket", 0.05, 0.03, level=1),
        el("label", "Summary:", 0.12),
        el("textbox", "", 0.12, x=0.4),
        el("label", "Description:", 0.18),
        el("textbox", "", 0.18, x=0.4),
        el("label", "Bold text: **Example**", 0.24),
        el("label", "Italic text: ''Example''", 0.24, x=0.35),
        el("label", "Horizontal rule: ----", 0.24, x=0.7),
        el("label", "Priority:", 0.3),
        el("label", "Component*", 0.34),
    ]
    frame = dom_set("Trac", [("new ticket", form), ("tickets", [el("heading", "Tickets", 0.05)])])
    fields = ss.extract_features(frame, ocr=False)[C.FEATURES_FIELDS].iloc[0]
    assert not [f for f in fields if "text" in f.casefold() or "rule" in f.casefold()], fields
    assert {"Summary", "Description", "Priority"} <= set(fields), fields


def test_a_page_titled_collection_colon_name_is_that_ones_page():
    # Directus's item page: "Articles: Hut to hut in the Dolomites" is one article, whose
    # name is an example; a label and its value ("Status: Published") is no such title
    item = [
        el("heading", "Articles: Hut to hut in the Dolomites", 0.05, 0.03, level=1),
        el("button", "Status", 0.15),
        el("button", "Published On", 0.2),
    ]
    order = [el("heading", "Order details: Harbour Lights weekend pass", 0.05, 0.03, level=1)]
    board = [el("heading", "Status: Published", 0.05, 0.03, level=1)]
    places = ["Lofoten", "Hokkaido", "Azores"]
    board += [el("link", t, 0.2 + 0.05 * k) for k, t in enumerate(places)]
    frame = dom_set("Directus", [("item", item), ("board", board), ("order", order)])
    out = ss.extract_features(frame, ocr=False)
    assert out[C.FEATURES_KIND].iloc[0] == "detail"
    assert out[C.FEATURES_SUBJECT].iloc[0] == "article"
    assert out[C.FEATURES_EXAMPLES].iloc[0][0] == "Hut to hut in the Dolomites"
    assert out[C.FEATURES_SUBJECT].iloc[1] != "status"
    assert out[C.FEATURES_SUBJECT].iloc[2] != "order detail"


def test_a_sentences_start_and_the_apps_maker_are_no_examples():
    guide = [
        el("heading", "Repair Guides", 0.05, 0.03, level=1),
        el("label", "You will need:", 0.12),
        el("link", "Fixing a Flat Tyre", 0.18),
        el("link", "Adjusting Brake Pads", 0.22),
        el("link", "Truing a Wheel", 0.26),
        el("text", "Powered by", 0.8),
        el("text", "Trac 1.6", 0.8, x=0.3),
        el("text", "By", 0.83),
        el("link", "Edgewall Software", 0.83, x=0.2),
    ]
    frame = dom_set("Wiki", [("guides", guide), ("home", [el("heading", "Home", 0.05)])])
    examples = ss.extract_features(frame, ocr=False)[C.FEATURES_EXAMPLES].iloc[0]
    assert "Fixing a Flat Tyre" in examples, examples
    assert not {"You will need", "Edgewall Software"} & set(examples), examples


def test_a_drive_lists_files_and_one_files_view_shows_that_file():
    # A file drive: folders and files, each with its size. The file names are content
    # (examples), never fields; the screen lists files. The folder names beside their
    # sizes are rows, not a summary's fields.
    drive = [
        el("link", "Upload files from disk", 0.04),
        el("text", "Name", 0.08),
        el("text", "Size", 0.08, x=0.7),
        el("link", "Home", 0.10),
        el("text", "1.23 kB", 0.10, x=0.7),
        el("link", "Photos", 0.13),
        el("text", "1.85 MB", 0.13, x=0.7),
        el("link", "Portfolio 2025.pdf", 0.16),
        el("text", "858 B", 0.16, x=0.7),
        el("link", "Price list 2026.pdf", 0.19),
        el("text", "823 B", 0.19, x=0.7),
    ]
    # one photo open in the viewer: the breadcrumb ends on its file name
    photo = [
        el("link", "Photos", 0.06),
        el("link", "boats-at-dusk.jpg", 0.06, x=0.4),
        el("text", "1 / 4", 0.09),
    ]
    frame = dom_set("Droppy", [("drive", drive), ("viewer", photo)])
    out = ss.write_copy(ss.detect_domain(ss.extract_features(frame, ocr=False)))
    assert out[C.FEATURES_SUBJECT].iloc[0] == "files"
    assert out[C.FEATURES_KIND].iloc[0] == "list"
    assert "Portfolio 2025.pdf" in out[C.FEATURES_EXAMPLES].iloc[0]
    assert not {"Home", "Photos"} & set(out[C.FEATURES_FIELDS].iloc[0])
    assert (out[C.FEATURES_KIND].iloc[1], out[C.FEATURES_SUBJECT].iloc[1]) == ("detail", "photo")
    assert out[C.FEATURES_EXAMPLES].iloc[1][:1] == ["boats-at-dusk.jpg"]
    assert "boats" not in out[C.COPY_HEADLINE].iloc[1].casefold()


def test_empty_field_labels_and_a_publish_title_make_a_form():
    # Spirit's "Publish topic": three labels, each over an empty box (no value on its
    # line), and a title led by "Publish": a form to publish a topic, not a list
    form = [
        el("link", "Northfield Cyclists", 0.05),
        el("heading", "Publish topic", 0.18, 0.03, level=1),
        el("label", "Title:", 0.24, 0.018),
        el("label", "Category:", 0.34, 0.018),
        el("label", "Comment:", 0.44, 0.018),
        el("button", "Publish", 0.80, 0.03),
    ]
    frame = dom_set("Spirit", [("new topic", form)])
    out = ss.write_copy(ss.detect_domain(ss.extract_features(frame, ocr=False)))
    assert out[C.FEATURES_KIND].iloc[0] == "form"
    assert out[C.FEATURES_FIELDS].iloc[0][:3] == ["Title", "Category", "Comment"]
    assert out[C.COPY_HEADLINE].iloc[0] == "Publish a topic in seconds"


def test_a_headings_anchor_mark_is_no_part_of_its_subject():
    page = [
        el("heading", "Three kinds of notes ¶", 0.10, 0.03, level=1),
        el("text", "Notes, bookmarks and saved pages all live in one knowledge base.", 0.2),
    ]
    frame = dom_set("Archivy", [("article", page)])
    out = ss.extract_features(frame, ocr=False)
    assert "¶" not in out[C.FEATURES_SUBJECT].iloc[0]
    assert out[C.FEATURES_SUBJECT].iloc[0].startswith("Three kinds of notes")


@pytest.mark.parametrize("name", ["Amara Osei", "Callum Reid", "Isla Fraser"])
def test_todays_english_given_names_are_people(name):
    # names the 1990 census lists lack, from English-speaking countries today
    from shotsmith.stages.features.reading import is_person

    assert is_person(name)
    assert not is_person("Rose Garden") and not is_person("Page Turner")


def test_a_collection_and_a_name_side_by_side_are_one_items_page():
    # thumbsup's album: its navigation reads "Albums / Lake District" at the top; the page
    # is one album, named by the link after "Albums". The signed-in user beside a menu
    # ("Customers" / "Noah Bennett") and a control ("× Close") name no such page.
    album = [
        el("heading", "Elin's Photos", 0.10, 0.03, level=1),
        el("link", "Albums", 0.17),
        el("link", "Lake District", 0.17, x=0.3),
        el("text", "Photos by Elin Marsh", 0.87),
    ]
    shop = [
        el("link", "Customers", 0.05),
        el("link", "Noah Bennett", 0.05, x=0.6),
        el("heading", "Customers", 0.12, 0.03, level=1),
    ]
    frame = dom_set("Elin's Photos", [("lake district", album), ("customers", shop)])
    frame[C.SCREEN_ELEMENTS] = [
        [{**e, "role": "tab"} if e["role"] == "link" else e for e in elements]
        for elements in frame[C.SCREEN_ELEMENTS]
    ]
    out = ss.write_copy(ss.detect_domain(ss.extract_features(frame, ocr=False)))
    assert (out[C.FEATURES_KIND].iloc[0], out[C.FEATURES_SUBJECT].iloc[0]) == ("detail", "album")
    assert out[C.FEATURES_EXAMPLES].iloc[0][:1] == ["Lake District"]
    assert out[C.FEATURES_SUBJECT].iloc[1] == "Customers"


def test_a_shops_count_names_its_list_and_a_priced_title_is_one_product():
    # EverShop: a category scrolled past its title, counting "4 products" over priced
    # cards; and one product's page, its name with its price and one "Add to cart".
    # A count of a measure ("15 minutes") names no list.
    grid = [
        el("text", "4 products", 0.09),
        el("text", "Sort by", 0.09, x=0.5),
        el("link", "Autumn Leaf $34.00", 0.16),
        el("heading", "Autumn Leaf", 0.60, 0.02, level=3),
        el("text", "$34.00", 0.62),
        el("button", "Add to Cart", 0.67),
    ]
    product = [
        el("heading", "Rocket Valley", 0.55, 0.03, level=1),
        el("text", "$30.00", 0.585),
        el("text", "SKU", 0.66),
        el("text", "NL-KID-001", 0.66, x=0.5),
        el("label", "Quantity *", 0.72),
        el("button", "Add to cart", 0.81),
        el("heading", "Product Description", 0.89, 0.02, level=2),
    ]
    guide = [
        el("text", "15 minutes", 0.12),
        el("link", "Fix a puncture", 0.2),
        el("link", "True a wheel", 0.25),
        el("link", "Bleed the brakes", 0.3),
    ]
    frame = dom_set("Northlight", [("grid", grid), ("one", product), ("steps", guide)])
    out = ss.write_copy(ss.detect_domain(ss.extract_features(frame, ocr=False)))
    assert (out[C.FEATURES_KIND].iloc[0], out[C.FEATURES_SUBJECT].iloc[0]) == ("list", "products")
    assert (out[C.FEATURES_KIND].iloc[1], out[C.FEATURES_SUBJECT].iloc[1]) == ("detail", "product")
    assert out[C.FEATURES_EXAMPLES].iloc[1][:1] == ["Rocket Valley"]
    assert "SKU" not in out[C.FEATURES_EXAMPLES].iloc[1]
    assert out[C.FEATURES_SUBJECT].iloc[2] != "minutes"


def test_a_users_handle_in_a_table_is_no_field():
    # Fossil's timeline: rows of check-ins, each with its user's handle ("jonas")
    rows = [
        el("heading", "12 check-ins", 0.10, 0.02, level=2),
        el("label", "Leaf", 0.15),
        el("label", "check-in", 0.15, x=0.3),
        el("label", "user", 0.15, x=0.6),
        el("label", "jonas", 0.15, x=0.8),
        el("text", "7ecab0cc05", 0.18),
        el("text", "trunk", 0.18, x=0.3),
    ]
    frame = dom_set("Fossil", [("timeline", rows)])
    out = ss.extract_features(frame, ocr=False)
    assert "jonas" not in out[C.FEATURES_FIELDS].iloc[0]
    from shotsmith.stages.features.reading import is_person

    assert is_person("keiko") and not is_person("grace") and not is_person("max")


def test_a_members_handle_an_event_and_a_cut_possessive_name_no_subject_nor_item():
    # Spirit's member page: "tomh comments" is a member's comments; "This week's" is cut
    # off before what it names; "T" is a column head no sentence can name.
    # django-helpdesk's follow-ups: "Ticket Opened" is an event of the ticket's history.
    member = [
        el("heading", "tomh comments", 0.12, 0.03, level=1),
        el("label", "This week's", 0.2),
        el("label", "Topics", 0.25),
        el("label", "T", 0.25, x=0.4),
        el("label", "Seen", 0.25, x=0.7),
        el("link", "Lights for winter commuting", 0.3),
        el("link", "Saddle height for long rides", 0.35),
    ]
    follow = [
        el("heading", "Ticket Opened", 0.12, 0.03, level=1),
        el("text", "Submitter: Priya Raman", 0.18),
    ]
    frame = dom_set("Spirit", [("member", member), ("follow ups", follow)])
    out = ss.write_copy(ss.detect_domain(ss.extract_features(frame, ocr=False)))
    assert out[C.FEATURES_SUBJECT].iloc[0] == "comments"
    assert "This week's" not in out[C.FEATURES_EXAMPLES].iloc[0]
    assert "T" not in out[C.FEATURES_FIELDS].iloc[0]
    assert out[C.FEATURES_SUBJECT].iloc[1] != "Ticket Opened"


def test_a_button_on_the_interfaces_own_state_is_no_deed_of_the_app():
    # Tryton's "Bookmark this filter" works on the search box, not on the user's data
    rows = [
        el("heading", "Customer Invoices", 0.1, 0.03, level=1),
        el("button", "Bookmark this filter", 0.15),
        el("link", "INV-0041 Brackenridge Brewery", 0.2),
        el("link", "INV-0042 Saltmarsh Ceramics", 0.25),
    ]
    frame = dom_set("Tryton", [("invoices", rows)])
    out = ss.write_copy(ss.detect_domain(ss.extract_features(frame, ocr=False)))
    lines = " ".join([out[C.COPY_HEADLINE].iloc[0], out[C.COPY_SUBTITLE].iloc[0]])
    assert "this filter" not in lines.casefold(), lines


def test_a_page_named_by_one_thing_is_its_page_and_one_that_holds_many_a_list():
    # Tryton's invoice: its lines listed under the title "Invoice" are one invoice's
    # parts; Fossil's "Forum" lists its threads: a forum holds many
    invoice = [
        el("heading", "Invoice", 0.1, 0.03, level=1),
        el("label", "Other Info", 0.2),
        el("label", "Unit Price", 0.25),
        el("link", "Espresso beans 1kg", 0.3),
        el("link", "Oat milk crate", 0.35),
        el("link", "Paper cups sleeve", 0.4),
        el("link", "Cleaning tablets", 0.45),
    ]
    forum = [
        el("heading", "Forum", 0.1, 0.03, level=1),
        el("link", "Build fails on Alpine Linux", 0.3),
        el("link", "Proposal: a plugin registry", 0.35),
        el("link", "Release notes for 2.4", 0.4),
    ]
    frame = dom_set("Tidepool", [("invoice", invoice), ("forum", forum)])
    out = ss.extract_features(frame, ocr=False)
    assert out[C.FEATURES_KIND].tolist() == ["detail", "list"], out[C.FEATURES_KIND].tolist()


def test_a_titles_name_before_its_colon_is_an_example_and_an_event_is_not():
    # Spirit's notifications: each a thread's title, a name then a sentence after its
    # colon; a field with its value ("Submitter: Priya Raman") and a search hit's key
    # values ("path: Travel/Japan") are not titles; "Correspondence added" is an event
    rows = [
        el("heading", "Notifications", 0.1, 0.03, level=1),
        el("label", "Tubeless setup: which sealant do you all use?", 0.2),
        el("label", "Creaking bottom bracket: replace or just regrease?", 0.25),
        el("label", "Submitter: Priya Raman", 0.3),
        el("label", "Packing list Matches: path: Travel/Japan 2026 #travel", 0.35),
        el("label", "Correspondence added", 0.4),
    ]
    frame = dom_set("Spirit", [("notifications", rows)])
    examples = ss.extract_features(frame, ocr=False)[C.FEATURES_EXAMPLES].iloc[0]
    assert examples[:2] == ["Tubeless setup", "Creaking bottom bracket"], examples
    assert not any(e.startswith(("Submitter", "Packing", "Correspondence")) for e in examples)


def test_a_button_on_all_of_a_screen_names_what_it_holds():
    # MailDev's inbox names nothing, but "Refresh emails" works on all it shows; "More
    # tools" (a menu) and "Open tickets" (tickets that are open) say nothing of the sort
    inbox = [
        el("button", "Refresh emails", 0.05),
        el("button", "Mark all as read", 0.05, x=0.5),
        el("button", "Maya Ellison Your monthly pass renews in 3 days", 0.12),
        el("button", "Sam Okoro Bike #1207 reported: flat tyre", 0.18),
    ]
    canvas = [el("button", "More tools", 0.05), el("button", "Undo", 0.9)]
    frame = dom_set("MailDev", [("one", inbox), ("two", canvas)])
    out = ss.extract_features(frame, ocr=False)
    assert out[C.FEATURES_SUBJECT].iloc[0] == "emails"
    assert out[C.FEATURES_SUBJECT].iloc[1] != "tools"


def test_open_before_a_plural_names_things_that_are_open_not_a_deed():
    home = [
        el("heading", "Tidepool", 0.08, 0.03, level=1),
        el("button", "Open tickets", 0.15),
        el("text", "Tide predictions for the harbours of the south west.", 0.3),
    ]
    frame = dom_set("Fossil", [("home", home)])
    out = ss.write_copy(ss.detect_domain(ss.extract_features(frame, ocr=False)))
    lines = " ".join([out[C.COPY_HEADLINE].iloc[0], out[C.COPY_SUBTITLE].iloc[0]])
    assert not lines.startswith("Open tickets"), lines
    assert "open tickets in" not in lines.casefold(), lines


def test_a_search_that_names_nothing_searches_what_the_set_lists():
    grid = [
        el("text", "4 products", 0.09),
        el("link", "Autumn Leaf $34.00", 0.16),
        el("link", "Forget-me-nots $28.00", 0.5),
    ]
    search = [
        el("label", "Search results for: lake", 0.19),
        el("heading", "3 results for “lake”", 0.33, 0.03, level=1),
        el("link", "Summer Night on the Water $36.00", 0.41),
    ]
    frame = dom_set("Northlight", [("grid", grid), ("search", search)])
    out = ss.write_copy(ss.detect_domain(ss.extract_features(frame, ocr=False)))
    assert out[C.FEATURES_KIND].iloc[1] == "search"
    assert out[C.FEATURES_SUBJECT].iloc[1] == "products"
    assert "product" in out[C.COPY_HEADLINE].iloc[1].casefold()


def test_a_posts_buttons_make_no_table_and_a_reply_takes_its_to():
    # Spirit's topic: under each post a row of its buttons ("report share quote reply"),
    # no table's columns; a line offering them says "reply to any topic"
    topic = [
        el("link", "Group rides", 0.18),
        el("heading", "Saturday club run: Clent Hills loop, 62 km", 0.24, 0.03, level=1),
        el("link", "tomh", 0.35),
        el("text", "5h", 0.36, x=0.5),
        el("text", "This week's ride: out through Romsley, up to Clent, and back.", 0.42),
        el("label", "report", 0.65),
        el("label", "share", 0.65, x=0.25),
        el("text", "like (4)", 0.65, x=0.35),
        el("label", "quote", 0.65, x=0.45),
        el("label", "reply", 0.65, x=0.65),
        el("link", "priya_rides", 0.70),
        el("text", "4h", 0.71, x=0.5),
        el("text", "I'm in. Is the descent off Walton Hill still gravelly?", 0.78),
        el("text", "like (0)", 0.85, x=0.35),
        el("label", "report", 0.85),
        el("label", "share", 0.85, x=0.25),
        el("label", "quote", 0.85, x=0.45),
        el("label", "reply", 0.85, x=0.65),
    ]
    frame = dom_set("Spirit", [("topic", topic)])
    out = ss.write_copy(ss.detect_domain(ss.extract_features(frame, ocr=False)))
    assert out[C.FEATURES_KIND].iloc[0] != "table"
    lines = " ".join([out[C.COPY_HEADLINE].iloc[0], out[C.COPY_SUBTITLE].iloc[0]])
    assert "row by row" not in lines and "reply any" not in lines.casefold(), lines


def test_a_verb_that_takes_a_preposition_keeps_it():
    # WordPress's comments: "Approve" and "Reply" under each one: "reply to any comment"
    rows = [
        el("heading", "Comments", 0.1, 0.03, level=1),
        el("label", "All (8)", 0.15),
        el("label", "Pending (1)", 0.15, x=0.3),
        el("text", "Lovely route, we did it last Sunday and the café was open.", 0.25),
        el("button", "Approve", 0.3),
        el("button", "Reply", 0.3, x=0.3),
        el("text", "Is the path muddy after rain? Planning to go on Saturday.", 0.4),
        el("button", "Approve", 0.45),
        el("button", "Reply", 0.45, x=0.3),
    ]
    frame = dom_set("Slow Miles", [("comments", rows)])
    out = ss.write_copy(ss.detect_domain(ss.extract_features(frame, ocr=False)))
    lines = " ".join([out[C.COPY_HEADLINE].iloc[0], out[C.COPY_SUBTITLE].iloc[0]]).casefold()
    assert "reply any" not in lines, lines
    assert "reply to any comment" in lines, lines


def test_a_count_beside_its_noun_and_a_count_of_results_name_what_a_list_holds():
    # Shaarli: "24" and "shaares ·" side by side over bookmarks whose titles are
    # links; a tag's page counts "8 results tagged" "cycling"; an icon's title
    # "Only display private links" is a control, never an item.
    links = [
        el("text", "24", 0.10),
        el("text", "shaares ·", 0.10, x=0.1),
        el("link", "Only display private links", 0.14),
        el("link", "Avenue Verte: London to Paris by bike", 0.2, 0.02),
        el("text", "406 km, mostly quiet lanes and greenways.", 0.23),
        el("link", "Weekend bread schedule", 0.4, 0.02),
        el("text", "Feed starter Fri 9 pm, mix Sat 9 am, shape 3 pm.", 0.43),
        el("link", "Hand plane setup", 0.6, 0.02),
        el("text", "Lateral lever to square the iron.", 0.63),
    ]
    tagged = [
        el("text", "8 results tagged", 0.12),
        el("link", "cycling", 0.12, x=0.4),
        el("link", "Only display private links", 0.14),
        el("link", "Avenue Verte: London to Paris by bike", 0.2, 0.02),
        el("link", "Cycle route planner", 0.4, 0.02),
        el("link", "Christmas gift ideas for Sami", 0.6, 0.02),
    ]
    frame = dom_set("Shaarli", [("bookmarks", links), ("tagged cycling", tagged)])
    out = ss.extract_features(frame, ocr=False)
    assert out[C.FEATURES_SUBJECT].iloc[0] == "shaares"
    assert out[C.FEATURES_KIND].iloc[1] == "search"
    assert out[C.FEATURES_SUBJECT].iloc[1] == "shaares"
    for examples in out[C.FEATURES_EXAMPLES]:
        assert "Only display private links" not in examples


def test_a_surveys_links_lose_their_shared_button_and_its_answers_are_no_items():
    # django-survey: every link reads "Take the Survey" then the survey's name (with its
    # year); a survey's page asks questions, each over its answers to pick from
    surveys = [
        el("heading", "Welcome to the Django Survey app", 0.1, 0.03, level=1),
        el("link", "Take the Survey Reader satisfaction survey 2026", 0.2),
        el("link", "Take the Survey Summer reading challenge feedback", 0.25),
        el("link", "Take the Survey New opening hours: have your say", 0.3),
    ]
    page = [
        el("heading", "Reader satisfaction survey 2026", 0.1, 0.03, level=1),
        el("heading", "Books and e-books", 0.2, 0.02, level=2),
        el("text", "How easy is it to find what you are looking for?", 0.25),
        *[
            el("label", a, 0.28 + 0.03 * k)
            for k, a in enumerate(
                ["Very easy", "Quite easy", "Neither easy nor hard", "Quite hard"]
            )
        ],
        el("text", "Have you used our e-book app?", 0.45),
        *[
            el("label", a, 0.48 + 0.03 * k)
            for k, a in enumerate(["Yes regularly", "Yes once or twice", "No"])
        ],
    ]
    titles = [
        el("heading", "Harry Potter and the Chamber of Secrets", 0.2, 0.02, level=2),
        el("heading", "Harry Potter and the Prisoner of Azkaban", 0.3, 0.02, level=2),
        el("link", "Harry Potter and the Chamber of Secrets", 0.4),
        el("link", "Harry Potter and the Prisoner of Azkaban", 0.45),
    ]
    frame = dom_set("Lakeside", [("surveys", surveys), ("books", page), ("shelf", titles)])
    out = ss.write_copy(ss.detect_domain(ss.extract_features(frame, ocr=False)))
    first = out[C.FEATURES_EXAMPLES].iloc[0]
    assert first[:2] == ["Reader satisfaction survey 2026", "Summer reading challenge feedback"]
    for answer in ("Very easy", "Quite easy", "Yes regularly"):
        assert answer not in out[C.FEATURES_EXAMPLES].iloc[1]
        assert answer not in out[C.FEATURES_FIELDS].iloc[1]
        assert answer.casefold() not in out[C.COPY_HEADLINE].iloc[1].casefold()
    assert "Chamber of Secrets" not in out[C.FEATURES_EXAMPLES].iloc[2]
    assert any("Reader satisfaction survey" in sub for sub in out[C.COPY_SUBTITLE])


def test_a_page_headed_by_a_persons_name_is_that_ones_page_and_a_toggle_names_nothing():
    # byro: a member's page, her name and number over her balance and fee, the menu's
    # "Members" beside it; Slidev's presenter marks "Hide presenter cursor" as pressed
    member = [
        el("label", "Dashboard", 0.09),
        el("heading", "Ruth Penrose (103)", 0.10, 0.03, level=2),
        el("label", "Members", 0.145),
        el("heading", "£ -60", 0.35, 0.03, level=3),
        el("text", "current balance", 0.39),
        el("heading", "£ 15.00", 0.59, 0.03, level=3),
        el("text", "membership fee", 0.64),
    ]
    members = [
        el("heading", "Members", 0.10, 0.03, level=2),
        *[
            el("link", n, 0.2 + 0.05 * k)
            for k, n in enumerate(["Jago Trewin", "Tomasz Nowak", "Ruth Penrose", "Amara Osei"])
        ],
    ]
    toggle = {**el("tab", "Hide presenter cursor", 0.96), "current": True}
    presenter = [el("heading", "The site", 0.22, 0.03, level=1), toggle]
    frame = dom_set("Rowing", [("members", members), ("member", member), ("presenter", presenter)])
    out = ss.extract_features(frame, ocr=False)
    assert out[C.FEATURES_KIND].iloc[1] == "detail"
    assert out[C.FEATURES_SUBJECT].iloc[1] == "member"
    assert "cursor" not in out[C.FEATURES_SUBJECT].iloc[2].casefold()


def test_a_forms_fields_are_its_own_labels_not_the_menu_and_not_its_examples():
    # byro's "Add Member …" beside its menu ("Settings", "Finance"); helpdesk's labels
    # that say what a field holds, then of what ("Summary of the problem")
    member = [
        el("tab", "Settings", 0.11),
        el("tab", "Finance", 0.16),
        el("heading", "Add Member …", 0.10, 0.03, level=2),
        el("label", "Settings", 0.11),
        el("label", "Finance", 0.16),
        el("label", "Name", 0.25),
        el("textbox", "", 0.28),
        el("label", "Address", 0.35),
        el("textbox", "", 0.38),
        el("label", "Membership fee", 0.55),
        el("textbox", "", 0.58),
        el("button", "Save", 0.7),
    ]
    ticket = [
        el("heading", "Submit a Ticket", 0.10, 0.03, level=2),
        el("label", "Queue", 0.25),
        el("textbox", "", 0.28),
        el("label", "Summary of the problem", 0.35),
        el("textbox", "", 0.38),
        el("label", "Description of your issue", 0.45),
        el("textbox", "", 0.48),
    ]
    frame = dom_set("Club", [("add member", member), ("new ticket", ticket)])
    out = ss.write_copy(ss.detect_domain(ss.extract_features(frame, ocr=False)))
    assert out[C.FEATURES_SUBJECT].iloc[0] == "Add Member"
    assert not {"Settings", "Finance"} & set(out[C.FEATURES_FIELDS].iloc[0])
    assert "Membership fee" not in out[C.FEATURES_EXAMPLES].iloc[0]
    assert out[C.COPY_HEADLINE].iloc[0].startswith("Add a")
    assert {"Summary", "Description"} <= set(out[C.FEATURES_FIELDS].iloc[1])


def test_a_repositorys_log_is_a_thing_a_headline_names():
    # hgweb's "log": a noun of software the lexicon holds only as a verb
    log = [el("heading", "log", 0.10, 0.02, level=2)]
    log += [
        el("label", h, 0.15, x=0.05 + 0.3 * k)
        for k, h in enumerate(["age", "author", "description"])
    ]
    for k, message in enumerate(
        ["Fix off-by-one in season length", "Add crop table", "Initial project layout"]
    ):
        log += [
            el("text", f"{k + 2} days ago", 0.2 + 0.05 * k),
            el("link", message, 0.2 + 0.05 * k, x=0.6),
        ]
    frame = dom_set("Mercurial", [("log", log)])
    out = ss.write_copy(ss.detect_domain(ss.extract_features(frame, ocr=False)))
    assert "log" in re.findall(r"\w+", out[C.COPY_HEADLINE].iloc[0].casefold())


def test_one_things_page_is_named_by_its_title_not_by_its_fields():
    # django-helpdesk: a ticket's title with its number, then its fields ("Due Date")
    ticket = [
        el("heading", "Bank feed stopped syncing transactions #4", 0.08, 0.03, level=1),
        el("label", "Queue", 0.3),
        el("text", "Accounts", 0.3, x=0.5),
        el("label", "Due Date", 0.45),
        el("text", "2026-12-01", 0.45, x=0.5),
        el("label", "Time spent", 0.5),
        el("text", "2h", 0.5, x=0.5),
        el("link", "Previous Ticket", 0.9),
        el("link", "Next Ticket", 0.9, x=0.6),
    ]
    frame = dom_set("Helpdesk", [("ticket", ticket)])
    out = ss.extract_features(frame, ocr=False)
    assert out[C.FEATURES_KIND].iloc[0] == "detail"
    examples = out[C.FEATURES_EXAMPLES].iloc[0]
    assert examples[:1] == ["Bank feed stopped syncing transactions"]
    assert "Due Date" not in examples and "Time spent" not in examples


def test_a_button_named_new_is_no_deed_and_an_event_names_no_screen():
    # Redmine's "New version" and WordPress's "Add new" name buttons, no sentence's
    # verb; a screen file named "survey submitted" names what happened
    roadmap = [
        el("heading", "Roadmap", 0.08, 0.03, level=1),
        el("button", "New version", 0.14),
        el("link", "Version 1.0", 0.2),
        el("link", "Version 1.1", 0.25),
        el("link", "Version 2.0", 0.3),
    ]
    done = [
        el("heading", "Survey submitted", 0.08, 0.03, level=1),
        el("text", "Thanks! Your answers have been saved", 0.15),
    ]
    frame = dom_set("Tracker", [("roadmap", roadmap), ("survey submitted", done)])
    out = ss.write_copy(ss.detect_domain(ss.extract_features(frame, ocr=False)))
    for line in (*out[C.COPY_HEADLINE], *out[C.COPY_SUBTITLE]):
        assert not line.startswith("New version"), line
    assert out[C.FEATURES_SUBJECT].iloc[1].casefold() != "survey submitted"


def test_a_linked_title_is_content_and_a_permalink_is_no_item():
    # django-oscar's reviews: each title a heading and a link ("Like drinking jasmine
    # tea", led by a word buttons use), then "Permalink"
    reviews = [el("heading", "Customer Reviews", 0.08, 0.03, level=1)]
    for k, title in enumerate(["Like drinking jasmine tea", "My favourite this year"]):
        y = 0.15 + 0.3 * k
        reviews += [
            el("heading", title, y, 0.02, level=3),
            {**el("link", title, y), "link": True},
            el("text", "Unbelievably floral as a V60, the peach comes through.", y + 0.05),
            {**el("link", "Permalink", y + 0.1), "link": True},
        ]
    frame = dom_set("Shop", [("reviews", reviews)])
    out = ss.write_copy(ss.detect_domain(ss.extract_features(frame, ocr=False)))
    assert "Permalink" not in out[C.FEATURES_EXAMPLES].iloc[0]
    for line in (out[C.COPY_HEADLINE].iloc[0], out[C.COPY_SUBTITLE].iloc[0]):
        assert not line.startswith("Like drinking"), line


def test_a_button_is_offered_once_a_set():
    # Shaarli shows "Filter untagged links" on three of five screens: one caption offers
    # it; the others say something else or are left to the user
    def page(title: str, button: bool = True) -> list[dict]:
        out = [el("heading", title, 0.08, 0.03, level=1), el("text", "Noor's shelf", 0.03)]
        if button:
            return [*out, el("button", "Filter untagged links", 0.12)]
        return [*out, el("text", "Nothing here yet.", 0.5)]

    screens = [("a", page("Shaares")), ("b", page("Daily")), ("c", page("Tag cloud"))]
    screens += [("d", page("Tools", False)), ("e", page("Plugins", False))]
    out = ss.write_copy(ss.detect_domain(ss.extract_features(dom_set("Shelf", screens), ocr=False)))
    lines = [*out[C.COPY_HEADLINE], *out[C.COPY_SUBTITLE]]
    assert sum("untagged" in line for line in lines) == 1, lines


def test_people_the_lists_half_know_are_no_examples_and_a_title_loses_its_date():
    # gitweb's "Adaeze Obi" (a family name the census holds, a given name it lacks) and a
    # hotel's month grid of guests' surnames; its title "Reservations table of 12-2026."
    from shotsmith.stages.features.reading import is_person

    assert is_person("Adaeze Obi") and is_person("Kemi Adeyemi")
    for thing in ("Nigeria/NG-4370/2022", "San Marzano", "Harbour Patel", "#2 Decorex Obi"):
        assert not is_person(thing), thing
    grid = [
        el("heading", "Reservations table of 12-2026.", 0.06, 0.02, level=3),
        *[el("text", f"{d:02d}", 0.12, x=0.05 + 0.03 * d) for d in range(1, 29)],
        *[
            el("label", name, 0.2 + 0.04 * k)
            for k, name in enumerate(
                ["Anders", "Silva", "Walsh", "Novak", "Rossi", "Kowalski", "Virtanen"]
            )
        ],
    ]
    out = ss.write_copy(
        ss.detect_domain(ss.extract_features(dom_set("Inn", [("grid", grid)]), ocr=False))
    )
    assert out[C.FEATURES_SUBJECT].iloc[0] == "Reservations table"
    assert not {"Novak", "Rossi", "Anders"} & set(out[C.FEATURES_EXAMPLES].iloc[0])
    for line in (out[C.COPY_HEADLINE].iloc[0], out[C.COPY_SUBTITLE].iloc[0]):
        assert "Novak" not in line and "Anders" not in line, line


def test_a_paths_last_step_names_the_page_and_a_command_line_names_nothing():
    # gitweb's document titles ("Harbour code - tidewatch.git/summary") and a diff's
    # first line ("diff --git a/tide.py b/tide.py")
    from shotsmith.stages.features.reading import page_names

    titles = ["Harbour code - tidewatch.git/summary", "Harbour code - tidewatch.git/tree"]
    assert page_names(titles, "gitweb") == ["summary", "tree"]
    diff = [
        el("heading", "diff --git", 0.08, 0.03, level=1),
        el("text", "a/tide.py b/tide.py", 0.12),
        el("text", "+    return round(height, 1)", 0.2),
    ]
    out = ss.extract_features(dom_set("Code", [("diff", diff)]), ocr=False)
    assert "--" not in out[C.FEATURES_SUBJECT].iloc[0]


def test_the_apps_name_in_a_frame_is_left_to_the_user_after_slide_one():
    # "Gitweb, clear and simple" fits any app: a screen with nothing else to say is left
    # to the user, and only slide 1 may say "Meet Gitweb"
    bare = [el("text", "+    return round(height, 1)", 0.2), el("text", "-    return height", 0.25)]
    screens = [(f"s{k}", bare) for k in range(3)]
    out = ss.write_copy(
        ss.detect_domain(ss.extract_features(dom_set("Gitweb", screens), ocr=False))
    )
    for position, line in enumerate(out[C.COPY_HEADLINE]):
        assert line in ("", "Meet Gitweb") if position == 0 else "Gitweb" not in line, line


def test_a_copyright_lines_neighbours_are_the_footer_not_the_app():
    # HotelDruid's footer: "Website" "engine code" (a link) "is copyright © by
    # DigitalDruid.Net." on one row, "HotelDruid is free software" beside it
    menu = [
        el("heading", "Reservations", 0.08, 0.03, level=1),
        el("link", "Insert a new reservation", 0.15),
        el("link", "Incomes and expenses", 0.2),
        el("link", "Point of sale", 0.25),
        el("text", "Website", 0.9, 0.011),
        el("link", "engine code", 0.9, 0.011, x=0.2),
        el("text", "is copyright © by DigitalDruid.Net.", 0.9, 0.011, x=0.3),
        el("text", "is free software released under the GNU/AGPL.", 0.912, 0.011),
    ]
    out = ss.write_copy(
        ss.detect_domain(ss.extract_features(dom_set("Inn", [("menu", menu)]), ocr=False))
    )
    row = out.iloc[0]
    assert (
        "engine code" not in row[C.FEATURES_EXAMPLES]
        and "engine code" not in row[C.FEATURES_LABELS]
    )
    assert "Point of sale" in row[C.FEATURES_LABELS]
    for line in (row[C.COPY_HEADLINE], row[C.COPY_SUBTITLE]):
        assert "engine code" not in line.casefold(), line


def test_names_a_screens_email_addresses_spell_are_people():
    # a hotel's guests: surname, given name, city and "freja.andersen@example.dk" per row
    guests = [el("heading", "Guests", 0.08, 0.03, level=1)]
    rows = [
        ("Andersen", "Freja", "Aarhus"),
        ("García", "Lucía", "Sevilla"),
        ("Brennan", "Aoife", "Galway"),
    ]
    for k, (family, given, city) in enumerate(rows):
        y = 0.2 + 0.05 * k
        guests += [el("text", family, y), el("text", given, y, x=0.3), el("text", city, y, x=0.5)]
        mail = f"{given}.{family}@example.org".casefold().replace("í", "i")
        guests.append({**el("link", mail, y, x=0.7), "link": True})
    out = ss.write_copy(
        ss.detect_domain(ss.extract_features(dom_set("Inn", [("guests", guests)]), ocr=False))
    )
    examples = out[C.FEATURES_EXAMPLES].iloc[0]
    assert not {"Andersen", "Freja", "García", "Lucía", "Aoife"} & set(examples), examples
    for line in (out[C.COPY_HEADLINE].iloc[0], out[C.COPY_SUBTITLE].iloc[0]):
        assert "Freja" not in line and "Andersen" not in line and "Lucía" not in line, line


def test_a_figures_unit_and_a_cut_line_name_nothing():
    # HotelDruid: "Euros" and "from" beside figures; "Availability only in rooms for",
    # cut before its number of people
    booking = [
        el("heading", "Modify reservation 4", 0.08, 0.03, level=1),
        el("label", "Euros", 0.12),
        el("text", "525", 0.12, x=0.5),
        el("text", "from", 0.15),
        el("text", "20/11/2026", 0.15, x=0.5),
        el("label", "Number of people", 0.18),
        el("text", "2", 0.18, x=0.5),
    ]
    rooms = [
        el("heading", "Availability only in rooms for", 0.08, 0.03, level=1),
        el("text", "2", 0.08, x=0.8),
        el("text", "Double room", 0.2),
        el("text", "Family suite", 0.25),
    ]
    out = ss.write_copy(
        ss.detect_domain(
            ss.extract_features(dom_set("Inn", [("booking", booking), ("rooms", rooms)]), ocr=False)
        )
    )
    fields = [f.casefold() for f in out[C.FEATURES_FIELDS].iloc[0]]
    assert "euros" not in fields and "from" not in fields and "number of people" in fields
    assert not out[C.FEATURES_SUBJECT].iloc[1].endswith(" for")
    assert line_problems("Your rooms for at a glance", kind="headline")
    assert not line_problems("Zoom in on any map", kind="headline")


def test_long_names_drop_the_subtitles_tone_rather_than_the_line():
    # biweeklybudget's spending chart compares "Current Pay Period" and "Previous Pay
    # Period": with "at a glance" the line runs past 60 characters, and nothing else on
    # the screen names a line; the user wrote the headline, so it has said no tone yet
    chart = [
        el("label", "Current Pay Period", 0.15),
        el("label", "Previous Pay Period", 0.15, x=0.35),
        el("label", "Budget", 0.15, x=0.7),
    ]
    for k, (budget, now, then) in enumerate(
        [("Groceries", "204.50", "180.00"), ("Rent", "1,100.00", "1,100.00")]
    ):
        y = 0.19 + 0.04 * k
        chart += [el("text", budget, y, x=0.7), el("text", now, y), el("text", then, y, x=0.35)]
    frame = ss.extract_features(dom_set("Budget", [("chart", chart)]), ocr=False)
    mine = pd.DataFrame([{"screen": "chart", "headline": "Where the money went", "subtitle": ""}])
    out = ss.write_copy(ss.detect_domain(frame), copy=mine)
    subtitle = out[C.COPY_SUBTITLE].iloc[0]
    assert (
        "current pay period" in subtitle.casefold() and "previous pay period" in subtitle.casefold()
    )
    assert len(subtitle) <= 60 and not line_problems(subtitle, kind="subtitle"), subtitle


def test_a_heading_led_by_a_records_id_is_that_records_page():
    # Backlog.md's task, opened over its board: "TASK-2 — Booking calendar for pet sitters"
    # above the board's other cards
    task = [
        el("heading", "Pawprint", 0.03, 0.02, level=1),
        el("heading", "TASK-2 — Booking calendar for pet sitters", 0.1, 0.03, level=2),
        el("heading", "Description", 0.16, 0.02, level=3),
        el("text", "Owners pick a sitter and a free slot from the calendar.", 0.19),
        el("heading", "Subtasks", 0.3, 0.02, level=3),
    ]
    for k, card in enumerate(["Weekly payouts to sitters", "Booking calendar for pet sitters"]):
        task.append(el("heading", card, 0.5 + 0.1 * k, 0.02, level=4))
    out = ss.extract_features(dom_set("Pawprint", [("task", task)]), ocr=False)
    row = out.iloc[0]
    assert row[C.FEATURES_KIND] == "detail" and row[C.FEATURES_SUBJECT] == "task"
    assert row[C.FEATURES_EXAMPLES][:1] == ["Booking calendar for pet sitters"]


def test_a_buttons_label_read_off_pixels_names_no_screen_and_given_names_are_people():
    # HotelDruid's guests read by OCR: its "Delete clients without reservations" button
    # looks like a title; the rows' given names ("Aoife", "Freja") beside surnames
    from shotsmith.stages.features.evidence import Evidence
    from shotsmith.stages.features.reading import read_screens

    def screen(source: str) -> Evidence:
        ev = Evidence()
        ev.add("title", "Delete clients without reservations", source, (0.05, 0.03))
        for k, name in enumerate(["Andersen", "Aoife", "Kowalski", "Marek", "Moreau"]):
            ev.add("label", name, source, (0.2 + 0.05 * k, 0.012))
        return ev

    read_ocr, read_dom = (
        read_screens([screen(s)], ["clients"], ["browse"], "Inn")[0] for s in ("ocr", "dom")
    )
    assert not read_ocr.subject.casefold().startswith("delete"), read_ocr.subject
    assert not {"Aoife", "Marek", "Andersen"} & set(read_ocr.examples), read_ocr.examples
    for verb_noun in ("Order details", "Print queue"):  # a noun as well: may be a title
        ev = Evidence()
        ev.add("title", verb_noun, "ocr", (0.05, 0.03))
        assert read_screens([ev], ["x"], ["browse"], "Inn")[0].subject == verb_noun


def test_a_line_of_code_read_off_pixels_is_no_button_and_private_names_nothing():
    # hgweb's source view read by OCR ("import datetime"), a note's "Private" checkbox
    from shotsmith.stages.features.evidence import Evidence
    from shotsmith.stages.features.evidence import _classify_line as classify
    from shotsmith.stages.features.reading import read_screens

    ev = Evidence()
    for line in ("import datetime", "print(rows)", "Import feeds"):
        classify(ev, line, "ocr")
    actions = [i["text"] for i in ev.items if i["role"] == "action"]
    assert actions == ["Import feeds"], actions
    note = Evidence()
    note.add("title", "Private", "dom", (0.05, 0.03))
    note.add("text", "Pasta water: salt it like the sea.", "dom", (0.2, 0.012))
    assert read_screens([note], ["note"], ["browse"], "Links")[0].subject != "Private"


def test_a_charts_legend_names_what_it_plots():
    # Valens' training sessions: each chart headed by its legend ("Short-term load" and
    # "Long-term load" as one heading, each also its own word on the row), figures below
    charts = [
        el("text", "Training sessions", 0.08, 0.03),
        el("heading", "Short-term load Long-term load", 0.25, 0.027, level=1),
        el("text", "Short-term load", 0.251, 0.025, x=0.2),
        el("text", "Long-term load", 0.251, 0.025, x=0.6),
        *[el("text", f"{v}.0", 0.3 + 0.05 * k) for k, v in enumerate((300, 200, 100))],
        el("heading", "7-day set volume", 0.5, 0.027, level=1),
        el("text", "2026-10-28", 0.46),
    ]
    out = ss.write_copy(
        ss.detect_domain(
            ss.extract_features(dom_set("Lift", [("training sessions", charts)]), ocr=False)
        )
    )
    row = out.iloc[0]
    assert row[C.FEATURES_KIND] in ("chart", "dashboard")
    assert row[C.FEATURES_FIELDS][:2] == ["Short-term load", "Long-term load"]
    assert "short-term load and long-term load" in row[C.COPY_SUBTITLE], row[C.COPY_SUBTITLE]
    assert line_problems("Check-ins Using in a few taps.", kind="subtitle")


def test_a_command_names_no_screen_and_a_register_writes_surnames_first():
    # Jotter's task "Choose kitchen worktop" as its title; a hotel register's "Brennan
    # Aoife"; "Selected shape actions" and "Spent time" describe things, no command
    from shotsmith.stages.features.evidence import Evidence
    from shotsmith.stages.features.reading import is_person, read_screens

    def titled(title: str) -> str:
        ev = Evidence()
        ev.add("title", title, "dom", (0.05, 0.03))
        ev.add("text", "Compare three quotes before Friday.", "dom", (0.2, 0.012))
        return read_screens([ev], ["x"], ["browse"], "Jot")[0].subject

    assert titled("Choose kitchen worktop") == ""
    assert titled("Spent time") == "Spent time"
    assert titled("Create ticket") != ""
    assert is_person("Brennan Aoife") and not is_person("Parker Street")


def test_a_menus_first_section_names_no_screen_and_a_sort_control_no_subject():
    # Kodi's TV shows: the menu's first entry ("Profiles") is no title of the page, so
    # the selected section, in the plural, makes a list of posters, not one profile's
    # page; Home Assistant's "Group by Category" orders the automations below it
    menu = ["Profiles", "Remote", "Movies", "TV Shows", "Music"]
    nav = [el("listitem", m, 0.04, 0.036, x=0.4 + 0.11 * k) for k, m in enumerate(menu)]
    posters = nav + [
        el("text", t, 0.09, x=0.01 + 0.1 * k)
        for k, t in enumerate(["Banner", "|", "Poster", "Landscape"])
    ]
    movies = nav + [
        el("text", t, 0.25 + 0.05 * k)
        for k, t in enumerate(["Below the Ice", "The Cartographer", "Copper Valley"])
    ]
    grouped = [
        el("heading", "Group by Category", 0.05, 0.025, level=1),
        *(
            el("text", t, 0.15 + 0.06 * k)
            for k, t in enumerate(["Good night", "Porch light at sunset", "Morning coffee"])
        ),
    ]
    frame = dom_set("Kodi", [("movies", movies), ("tv shows", posters), ("automations", grouped)])
    out = ss.extract_features(frame, ocr=False)
    shows, automations = out.iloc[1], out.iloc[2]
    assert shows[C.FEATURES_SUBJECT] == "TV Shows", shows[C.FEATURES_SUBJECT]
    assert shows[C.FEATURES_KIND] == "list", shows[C.FEATURES_KIND]
    assert shows[C.FEATURES_INTENT] != "profile"
    assert "group" not in automations[C.FEATURES_SUBJECT].casefold(), automations[
        C.FEATURES_SUBJECT
    ]


def test_a_menu_read_as_one_line_off_pixels_is_no_title():
    # Kodi's menu read by OCR as one line: "Profiles | Remote | Movies" over the posters
    # of TV shows
    from shotsmith.stages.features.evidence import Evidence
    from shotsmith.stages.features.reading import read_screens

    ev = Evidence()
    ev.add("title", "Profiles | Remote | Movies", "ocr", (0.0, 0.035))
    ev.add("label", "Banner | Poster | Landscape", "ocr", (0.05, 0.009))
    ev.add("label", "TV Shows", "ocr", (0.01, 0.01))
    ev.add("label", "DEEP FIELD", "ocr", (0.17, 0.007))
    read = read_screens([ev], ["tv shows"], ["browse"], "Kodi")[0]
    assert "profile" not in read.subject.casefold(), read.subject
    assert "banner" not in read.subject.casefold(), read.subject


def test_search_alone_names_no_screen_what_it_searches_does():
    # TeamVault's search page is titled "Search"; AWStats' keyphrases page carries a
    # "Search" label above a page titled with what it lists
    from shotsmith.stages.features.evidence import Evidence
    from shotsmith.stages.features.reading import read_screens

    secrets, search = Evidence(), Evidence()
    secrets.add("title", "Secrets", "dom", (0.05, 0.03))
    search.add("title", "Search", "dom", (0.05, 0.03))
    for ev in (secrets, search):
        for k, name in enumerate(["Office Wi-Fi", "Stripe dashboard", "Domain registrar"]):
            ev.add("label", name, "dom", (0.2 + 0.05 * k, 0.012))
    readings = read_screens([secrets, search], ["secrets", "search"], ["browse", "search"], "Vault")
    assert readings[1].kind == "search"
    assert readings[1].subject.casefold() == "secrets", readings[1].subject


def test_the_apps_own_name_is_never_a_cut_word():
    # "Trac" is "track" cut short by its looks, and "hgweb" no word at all: both are names
    for line, project in [
        ("Your timeline and roadmap, together in Trac.", "Trac"),
        ("Your graph and log, together in hgweb.", "hgweb"),
    ]:
        assert line_problems(line, kind="subtitle", project=project) == [], line


def test_an_editors_icons_and_its_open_file_name_no_screen_and_no_item():
    """A Markdown editor: a toolbar of icon buttons named only in their tooltips ("Code
    block (Tab indent)" in a 50 px box), the open file's tab ("Acids.md") and its source
    ("# Acids and alkalis"): no icon's name is the subject or an item, nor the file's."""
    names = [
        "Bold",
        "Block quote",
        "Preformatted text / Code block (Tab indent)",
        "Fullscreen (Press ESC exit)",
        "Unordered list",
        "Ordered list",
    ]
    toolbar = [
        {"role": "link", "text": t, "box": [400 + 60 * k, int(0.07 * H), 50, 56]}
        for k, t in enumerate(names)
    ]
    tab = {**el("tab", "Acids.md", 0.05, 0.015, x=0.4), "current": True}
    note = [
        tab,
        *toolbar,
        el("label", "Home", 0.12, 0.012),
        el("label", "Reading", 0.14, 0.012),
        el("text", "# Acids and alkalis", 0.12, 0.014, x=0.45),
        el("text", "## Learning objectives", 0.16, 0.012, x=0.45),
        el("text", "Name three everyday acids and three alkalis.", 0.18, 0.012, x=0.45),
    ]
    frame = dom_set("Pervane", [("lesson", note)])
    out = ss.extract_features(frame, ocr=False)
    said = [out[C.FEATURES_SUBJECT].iloc[0], *out[C.FEATURES_EXAMPLES].iloc[0]]
    assert not [s for s in said if "block" in s.casefold() or "screen" in s.casefold()], said
    assert out[C.FEATURES_SUBJECT].iloc[0] != "Acids.md", said
    assert not [s for s in said if s.startswith("#")], said
    # a button's tooltip shown as words is no breadcrumb either ("A / B (Tab indent)")
    shown = [el("label", "Preformatted text / Code block (Tab indent)", 0.06), *note[6:]]
    out = ss.extract_features(dom_set("Pervane", [("lesson", shown)]), ocr=False)
    assert out[C.FEATURES_SUBJECT].iloc[0] != "Code block"
    # the icons' names stay in the evidence, apart: what the controls are called
    from shotsmith.stages.features.evidence import from_elements

    ev = from_elements(note, height=float(H), width=float(W))
    assert "Block quote" in ev.icons and "Block quote" not in ev.labels, ev.labels
    assert "Bold" in ev.labels  # one short word may be shown in its box
    # a row of a table's cells, each as wide as its column, whose words wrap: no toolbar
    cells = [
        {"role": "link", "text": t, "box": [200 * k, 900, wide, 78]}
        for k, (t, wide) in enumerate(
            [("Dining Out", 90), ("Gas & Transit", 60), ("City Power & Water (18)", 150)]
        )
    ]
    ev = from_elements(cells, height=float(H), width=float(W))
    assert ev.icons == [] and "Dining Out" in ev.labels, ev.icons


def test_a_chat_rooms_name_is_its_example_and_a_topics_lead_no_subject():
    """An IRC client's channel: "Topic for #general is ..." over nicknames and messages.
    The room ("#general") is what the screen is about; "Topic for" names nothing."""
    talk = [
        el("text", "Topic for", 0.12, 0.021),
        el("link", "#general", 0.12, 0.021, x=0.3),
        el("text", 'is "Tidewater Makerspace | Open night Thu 7-10pm"', 0.12, 0.038, x=0.5),
    ]
    lines = [
        ("ruth", "morning all! heating in the main hall is fixed, the engineer came by"),
        ("tomasz", "finally. my fingers were too cold to solder on Tuesday"),
        ("priya", "does anyone know if the laser cutter is booked this afternoon?"),
        ("leo", "the calendar has Leo on it 2-4, free after that"),
    ]
    for k, (nick, said) in enumerate(lines):
        talk += [
            el("link", f"< {nick} >", 0.16 + 0.04 * k, 0.023),
            el("text", said, 0.16 + 0.04 * k, 0.038, x=0.3),
        ]
    talk.append(el("button", "Send", 0.95, 0.03))
    settings = [el("heading", "Settings", 0.05, 0.03, level=1), el("label", "Theme", 0.2)]
    frame = dom_set("Glowing Bear", [("chat", talk), ("settings", settings)])
    out = ss.extract_features(frame, ocr=False)
    assert out[C.FEATURES_KIND].iloc[0] == "conversation"
    assert out[C.FEATURES_SUBJECT].iloc[0] != "Topic for"
    assert out[C.FEATURES_EXAMPLES].iloc[0][:1] == ["#general"], out[C.FEATURES_EXAMPLES].iloc[0]
    copy = ss.write_copy(ss.detect_domain(out))
    assert "#general" in copy[C.COPY_HEADLINE].iloc[0], copy[C.COPY_HEADLINE].tolist()


def test_a_chapters_titled_name_is_read_and_a_walks_miles_are_not_searched():
    """A book's chapter titled "Harrow: the long shore" (a place, then what the chapter is
    about) is what the reader opens; a find-in-book screen whose result reads "5 miles"
    searches no miles, and its file name's "in book" names nothing."""
    from shotsmith.stages.features.evidence import from_elements
    from shotsmith.stages.features.reading import _named_subject, _searched

    prose = [
        "The ferry leaves Calder Quay at nine and takes forty minutes to reach the island.",
        "From the jetty the path climbs through gorse to the old signal station above.",
        "On a clear day you can see the lighthouse at Saltmere across the sound.",
        "Bring water: there is no café on this side of the island after the harbour.",
    ]
    chapter = [el("heading", "Harrow: the long shore", 0.08, 0.03, level=1)]
    chapter += [el("text", p, 0.2 + 0.06 * k, 0.05) for k, p in enumerate(prose)]
    frame = dom_set("Vivliostyle Viewer", [("chapter", chapter)])
    out = ss.extract_features(frame, ocr=False)
    assert "Harrow: the long shore" in out[C.FEATURES_EXAMPLES].iloc[0]
    copy = ss.write_copy(ss.detect_domain(out))
    line = f"{copy[C.COPY_HEADLINE].iloc[0]} {copy[C.COPY_SUBTITLE].iloc[0]}"
    assert "Harrow: the long shore" in line, line
    # a field and its value is still no name ("History: Day Week" stays out, above)
    found = [
        el("heading", "Saltmere and the lighthouse", 0.08, 0.03, level=1),
        el("heading", "The Lighthouse Loop · 5 miles", 0.14, 0.02, level=2),
        el("heading", "Search matched 6 pages", 0.18, 0.02, level=3),
    ]
    assert _searched(from_elements(found[:2], height=float(H))) == ""
    assert _searched(from_elements(found, height=float(H))) == "pages"
    assert _named_subject("find in book", "", {"find", "book"}) == ""
    assert _named_subject("book details", "", {"book", "detail"}) == "book details"


def test_a_wiki_category_page_is_named_by_what_follows_its_namespace():
    """MediaWiki's "Category:Trails" is a page of trails: its subject is "Trails", not the
    namespace's label ("Category") nor the whole "Category:Trails" that no frame fits."""
    page = [
        el("heading", "Category:Trails", 0.08, 0.03, level=1),
        el("label", "Category", 0.04, 0.012, x=0.6),
        el("text", "Pages in category “Trails”", 0.14, 0.02),
    ]
    page += [
        el("link", t, 0.2 + 0.03 * k)
        for k, t in enumerate(["Cedar Falls Loop", "Hawkridge Traverse", "Mill Brook Walk"])
    ]
    frame = dom_set("Trailwiki", [("category", page)])
    out = ss.extract_features(frame, ocr=False)
    assert out[C.FEATURES_SUBJECT].iloc[0] == "Trails", out[C.FEATURES_SUBJECT].tolist()
    copy = ss.write_copy(ss.detect_domain(out))
    assert "trail" in copy[C.COPY_HEADLINE].iloc[0].casefold(), copy[C.COPY_HEADLINE].tolist()


def test_a_demonstrative_is_no_part_of_a_subject():
    """ "this paste" of "Repaste, or download this paste." names the paste: a subject
    never opens with "this", "that", "these" or "those"."""
    from shotsmith.stages.features.reading import _as_subject

    assert _as_subject("this paste", max_words=4) == "paste"
    assert _as_subject("These photos", max_words=4) == "photos"
    assert _as_subject("Thistle farm", max_words=4) == "Thistle farm"


def test_a_menus_box_is_its_items_not_one_more_label():
    """A drop-down menu's box reads as its items run together ("Sales Sales invoices My
    invoicing plan"): its items stand alone and the box is no label, so "Sales Sales
    invoices" is never the subject; a paragraph of links keeps its sentence."""
    from shotsmith.stages.features.evidence import from_elements

    page = [
        el("listitem", "Sales Sales invoices My invoicing plan", 0.04),
        el("link", "Sales", 0.04),
        el("link", "Sales invoices", 0.08),
        el("link", "My invoicing plan", 0.11),
        el("text", "Read Boiler notes and Gift ideas", 0.3),
        el("link", "Boiler notes", 0.3),
        el("link", "Gift ideas", 0.3, x=0.5),
        el("text", "Read", 0.3, x=0.02),
        el("text", "and", 0.3, x=0.4),
    ]
    ev = from_elements(page, height=H, width=W)
    texts = [i["text"] for i in ev.items]
    assert "Sales Sales invoices My invoicing plan" not in texts, texts
    assert "Sales invoices" in texts and "Read Boiler notes and Gift ideas" in texts, texts


def test_a_link_that_does_something_is_no_example():
    """A stream's links "Update Metadata" and "Kill Source" are commands: no content
    item a caption names; the stations listed are."""
    page = [
        el("heading", "Listener Stats", 0.10, 0.03, level=1),
        el("link", "Update Metadata", 0.2),
        el("link", "Kill Source", 0.2, x=0.5),
        el("text", "Kettle Folk", 0.3),
        el("text", "Harbour Lo-Fi", 0.35),
        el("text", "Night Owl Jazz", 0.4),
    ]
    out = read_page("Icecast", "listeners", page)
    examples = out[C.FEATURES_EXAMPLES]
    assert "Update Metadata" not in examples and "Kill Source" not in examples, examples
    assert "Kettle Folk" in examples, examples


def test_a_search_boxs_placeholder_is_no_title_to_name_a_screen():
    """ "Quick search", a search box's placeholder read as the largest line at the top,
    names no screen: the page's own name ("Households") does."""
    page = [
        el("heading", "Quick search", 0.05, 0.03, level=1),
        el("heading", "Households", 0.12, 0.02, level=2),
        el("text", "Ferraro-Bianchi", 0.3),
        el("text", "Verhoeven-Bianchi", 0.35),
    ]
    out = read_page("Lino Amici", "households", page)
    assert out[C.FEATURES_SUBJECT].casefold() != "quick search"


def test_an_articles_links_out_and_onward_are_no_example_and_no_name():
    """A feed reader's article: "Visit Website" is a link that does something, and "Next
    in Unread", a pointer to the next article, is chrome: neither is an example, a
    heading or a label; the feed's name is an example."""
    page = [
        el("link", "Harbor Town Gazette", 0.10),
        el("heading", "Ferry timetable changes for the winter season", 0.15, 0.05, level=1),
        el("text", "From the first of December the morning crossing leaves earlier.", 0.35),
        el("link", "Visit Website", 0.75),
        el("heading", "Next in Unread", 0.95, 0.02, level=2),
    ]
    out = read_page("Coldsweat", "article", page)
    examples = out[C.FEATURES_EXAMPLES]
    assert "Visit Website" not in examples and "Harbor Town Gazette" in examples, examples
    shown = [*out[C.FEATURES_HEADINGS], *out[C.FEATURES_LABELS]]
    assert not any(s.casefold().startswith("next") for s in shown), shown


def test_a_lists_ordering_names_no_screen_and_no_field():
    """A forum's "Sort by  date  activity  votes" row: the order chosen ("activity") is
    no subject, "by name" and "by popularity" are no fields, and a tag's count ("soil
    ×2") makes the tag no field of a summary."""
    questions = [
        el("text", "Sort by", 0.17),
        el("tab", "date", 0.17, x=0.2),
        {**el("tab", "activity", 0.17, x=0.35), "current": True},
        el("tab", "votes", 0.17, x=0.6),
        el("heading", "When should I lift and store dahlia tubers?", 0.22, 0.04, level=2),
        el("heading", "Which herbs grow well on a north-facing windowsill?", 0.3, 0.04, level=2),
    ]
    tags = [
        el("heading", "Grow Together", 0.05, 0.04, level=1),
        el("heading", "Tags", 0.17, 0.03, level=2),
        el("text", "Sort by", 0.17, x=0.35),
        el("link", "by name", 0.17, x=0.5),
        el("link", "by popularity", 0.17, x=0.7),
        el("link", "soil", 0.23),
        el("text", "×2", 0.23, x=0.2),
        el("link", "compost", 0.23, x=0.4),
        el("text", "×1", 0.23, x=0.6),
    ]
    out = ss.extract_features(
        dom_set("Grow Together", [("questions", questions), ("tags", tags)]), ocr=False
    )
    assert out[C.FEATURES_SUBJECT].iloc[0].casefold() != "activity"
    assert out[C.FEATURES_SUBJECT].iloc[1] == "Tags"  # the page's name on the sort's row
    fields = [f.casefold() for f in out[C.FEATURES_FIELDS].iloc[1]]
    assert not {"by name", "by popularity", "soil", "compost"} & set(fields), fields


def test_a_labels_pictograph_is_its_icon_not_its_words():
    """ "📝 Quiz Files" names the quiz files: the pictograph is the label's icon, as an
    icon font's glyph is; a heading that is a pictograph alone ("⭐") is read as nothing,
    and the screen still reads."""
    page = [
        el("heading", "⭐", 0.04, 0.02, level=2),
        {**el("tab", "📝 Quiz Files", 0.1), "current": True},
        el("tab", "⚙️ Config", 0.1, x=0.4),
        el("text", "ocean-life.yaml", 0.2),
        el("text", "volcanoes.yaml", 0.25),
    ]
    out = read_page("WebQuiz", "quiz files", page)
    subject = out[C.FEATURES_SUBJECT]
    assert subject.casefold().startswith("quiz file") and "📝" not in subject, subject
    shown = " ".join([*out[C.FEATURES_TABS], *out[C.FEATURES_HEADINGS]])
    assert "📝" not in shown and "⚙" not in shown and "⭐" not in shown, shown


def test_a_page_named_by_a_deed_is_its_form_and_its_hints_name_fields():
    """A forum's "Ask question" page, laid out as a page of hints without inputs the
    reading sees, is the form to ask one; "Please enter your question" asks for the
    question, a field; "provide enough details" asks for no field of its own."""
    page = [
        el("text", "Please ask your question here", 0.13),
        el("listitem", "provide enough details", 0.25),
        el("label", "Please enter your question", 0.35),
        el("label", "Add details below", 0.43),
        el("label", "Tags", 0.78),
    ]
    out = read_page("Grow Together", "ask question", page)
    assert out[C.FEATURES_KIND] == "form"
    fields = [f.casefold() for f in out[C.FEATURES_FIELDS]]
    assert "question" in fields and not any("enough" in f for f in fields), fields


def test_a_forms_own_labels_are_its_fields_never_its_items():
    """An event's registration form whose boxes the reading does not see: the labels of
    its controls ("First Name", "Last Name", "Email Address") make it a form and are its
    fields, first and never examples, a name's two parts as one ("Name"); the menu beside
    it ("Timetable") and a date's label ("Deadline") come after."""
    page = [
        el("heading", "Summit registration", 0.1, 0.03, level=1),
        el("label", "Deadline", 0.15),
        el("number", "1 June 2027", 0.16),
        el("listitem", "Timetable", 0.2),
        el("listitem", "Contribution List", 0.23),
        el("label", "First Name", 0.3),
        el("label", "Last Name", 0.38),
        el("label", "Email Address", 0.46),
        el("label", "Affiliation", 0.54),
    ]
    out = read_page("Indico", "registration", page)
    assert out[C.FEATURES_KIND] == "form"
    fields = out[C.FEATURES_FIELDS]
    assert fields[:3] == ["Name", "Email Address", "Affiliation"], fields
    assert not {"First Name", "Last Name"} & set(out[C.FEATURES_EXAMPLES])


def test_a_views_own_switches_are_no_items():
    """A timetable's "Full screen" and "Detailed view" switch how it is shown: no
    examples; its sessions are."""
    page = [
        el("heading", "Timetable", 0.08, 0.03, level=1),
        el("link", "Full screen", 0.12),
        el("link", "Detailed view", 0.12, x=0.5),
        el("text", "Registration & coffee", 0.2),
        el("text", "Opening keynote", 0.25),
    ]
    examples = read_page("Indico", "timetable", page)[C.FEATURES_EXAMPLES]
    assert "Full screen" not in examples and "Detailed view" not in examples, examples
    assert "Opening keynote" in examples, examples


def test_a_books_card_is_titled_by_its_title_and_a_works_title_is_no_feature():
    """An audiobook's card heading holds its title and its author's line ("Winter at
    Hollow Oak" over "Beatrix Moorcombe"): the title is the item. A work's title that
    opens with its article ("A Ledger of Small Lies") is content even with a feature's
    noun in it: never the screen's subject."""

    def card(title: str, author: str, y: float) -> list[dict]:
        box = el("heading", f"{title} {author}", y, 0.06, level=2)
        return [box, el("text", title, y, 0.03), el("text", author, y + 0.03, 0.025)]

    page = [
        el("heading", "Mystery", 0.05, 0.03, level=1),
        *card("A Ledger of Small Lies", "Harriet Vale", 0.15),
        *card("Winter at Hollow Oak", "Beatrix Moorcombe", 0.35),
    ]
    shelf = [
        el("heading", "A Ledger of Small Lies", 0.1, 0.03, level=2),
        el("text", "Frost on the Weathervane", 0.3),
        el("text", "Le Jardin des Horloges", 0.4),
    ]
    frame = dom_set("Hearthside", [("mystery folder", page), ("shelf", shelf)])
    out = ss.extract_features(frame, ocr=False)
    headings = out[C.FEATURES_HEADINGS].iloc[0]
    assert "Winter at Hollow Oak" in headings, headings
    assert not any("Moorcombe" in h for h in headings), headings
    assert out[C.FEATURES_SUBJECT].iloc[1].casefold() != "a ledger of small lies"


def test_a_greeting_is_no_item():
    """ "Welcome to ephios!" greets the user: no example of what the screen lists."""
    page = [
        el("heading", "Welcome to ephios!", 0.08, 0.03, level=1),
        el("heading", "Your upcoming events", 0.15, 0.02, level=2),
        el("text", "Radio procedure workshop", 0.2),
        el("text", "Harbour Half Marathon", 0.25),
    ]
    examples = read_page("ephios", "home", page)[C.FEATURES_EXAMPLES]
    assert not any(e.startswith("Welcome") for e in examples), examples


def test_a_title_with_the_in_its_capitals_is_a_name_a_task_is_not():
    """A book's title in a title's capitals ("Frost on the Weathervane") is an item a
    caption may name, though it holds "the"; a task in sentence case ("Turn the compost
    bay") is a sentence, never an item's name."""
    folder = [el("heading", "Mystery", 0.08, 0.03, level=1)]
    for k, (book, author) in enumerate(
        [("Frost on the Weathervane", "Ida Marsh"), ("Le Jardin des Horloges", "Paul Vey")]
    ):
        folder.append(el("heading", book, 0.2 + 0.2 * k, 0.025, level=2))
        folder.append(el("text", author, 0.24 + 0.2 * k, 0.02))
    tasks = [el("heading", "Jobs", 0.08, 0.03, level=1)]
    tasks += [
        el("label", t, 0.2 + 0.06 * k)
        for k, t in enumerate(["Turn the compost bay", "Net the brassicas", "Sow the lettuce"])
    ]
    frame = dom_set("Hearthside", [("mystery", folder), ("jobs", tasks)])
    copy = ss.write_copy(ss.detect_domain(ss.extract_features(frame, ocr=False)))
    books = f"{copy[C.COPY_HEADLINE].iloc[0]} {copy[C.COPY_SUBTITLE].iloc[0]}"
    assert "Frost on the Weathervane" in books, books
    jobs = f"{copy[C.COPY_HEADLINE].iloc[1]} {copy[C.COPY_SUBTITLE].iloc[1]}"
    assert "compost" not in jobs.casefold(), jobs


def test_an_acronym_in_a_label_in_capitals_keeps_its_capitals():
    """A study list styled in capitals ("CT HEAD WITHOUT CONTRAST") is written in lower
    case mid-sentence, but its acronym is not: "CT head without contrast", never "ct
    head"; a word English writes ("HEAD") and a name ("ANNA") are no acronyms."""
    from shotsmith.stages.copy.rules import acronym_like, subtitle_problems

    assert [w for w in ["CT", "MRI", "HEAD", "WITH", "ANNA", "API"] if acronym_like(w)] == [
        "CT",
        "MRI",
        "API",
    ]
    assert not subtitle_problems("See CT head without contrast and bone window.")
    studies = [el("heading", "Studies", 0.08, 0.03, level=1)]
    studies += [
        el("link", s, 0.2 + 0.06 * k)
        for k, s in enumerate(["CT HEAD WITHOUT CONTRAST", "MRI BRAIN WITH CONTRAST", "XR CHEST"])
    ]
    frame = dom_set("Imaging Server", [("studies", studies)])
    copy = ss.write_copy(ss.detect_domain(ss.extract_features(frame, ocr=False)))
    line = f"{copy[C.COPY_HEADLINE].iloc[0]} {copy[C.COPY_SUBTITLE].iloc[0]}"
    assert "CT head without contrast" in line, line


def test_the_name_over_every_page_is_no_example():
    """A brewery's own name set over every page ("Harbour Lane Brewhouse") is the app's
    header, never one of the items a screen shows."""
    header = el("heading", "Harbour Lane Brewhouse", 0.04, 0.03, level=1)
    recipes = [header, el("heading", "Recipes", 0.12, 0.025, level=2)]
    recipes += [
        el("link", r, 0.2 + 0.06 * k)
        for k, r in enumerate(["Winter Harbour Porter", "Hazy Harbour IPA", "Oak Lane Amber"])
    ]
    mash = [header, el("heading", "Mash Profile", 0.12, 0.025, level=2)]
    mash += [el("label", s, 0.2 + 0.06 * k) for k, s in enumerate(["Protein Rest", "Boil"])]
    kettles = [header, el("heading", "Hardware", 0.12, 0.025, level=2)]
    kettles += [el("label", s, 0.2 + 0.06 * k) for k, s in enumerate(["Mash Tun", "Fermenter"])]
    frame = dom_set("Brewer", [("recipes", recipes), ("mash", mash), ("hardware", kettles)])
    out = ss.extract_features(frame, ocr=False)
    for examples in out[C.FEATURES_EXAMPLES]:
        assert "Harbour Lane Brewhouse" not in examples, examples
    copy = ss.write_copy(ss.detect_domain(out))
    lines = " ".join([*copy[C.COPY_HEADLINE], *copy[C.COPY_SUBTITLE]])
    assert "Brewhouse" not in lines, lines


def test_a_search_of_what_a_list_screen_names_finds_its_items():
    """A search screen that names nothing it searches searches the set's list: "Flow
    List" lists flows, whatever its layout, so the search finds any flow."""
    urls = [f"https://api.example/v2/forecast?days={d}" for d in (3, 5, 7)]
    flows = [el("heading", "Flow List", 0.06, 0.03, level=1)]
    flows += [el("label", c, 0.12, x=0.05 + 0.18 * k) for k, c in enumerate(["Path", "Method"])]
    flows += [el("text", u, 0.18 + 0.04 * k) for k, u in enumerate(urls)]
    search = [el("input", "forecast", 0.06)]
    search += [el("text", u, 0.18 + 0.04 * k) for k, u in enumerate(urls)]
    frame = dom_set("Proxy Web", [("flows", flows), ("search", search)])
    out = ss.extract_features(frame, ocr=False)
    assert out[C.FEATURES_KIND].iloc[1] == "search"
    assert out[C.FEATURES_SUBJECT].iloc[1] == "flows", out[C.FEATURES_SUBJECT].tolist()
    copy = ss.write_copy(ss.detect_domain(out))
    assert "flow" in copy[C.COPY_HEADLINE].iloc[1], copy[C.COPY_HEADLINE].tolist()


def test_a_pages_path_over_its_title_is_not_its_title():
    """A wiki sets the page's path as a level-1 heading over its title
    ("Repair-Guides/Fixing-a-Flat-Tyre", then "Fixing a Flat Tyre"): the title is the
    page's name, never its address; a path alone still titles its page."""
    page = [
        el("heading", "Repair-Guides/Fixing-a-Flat-Tyre", 0.06, 0.03, level=1),
        el("heading", "Fixing a Flat Tyre", 0.12, 0.03, level=1),
        el("text", "Shift to the smallest sprocket and take the wheel out.", 0.2, 0.03),
    ]
    assert read_page("Spokewise", "page", page)[C.FEATURES_TITLE] == "Fixing a Flat Tyre"
    alone = [page[0], page[2]]
    title = read_page("Spokewise", "page", alone)[C.FEATURES_TITLE]
    assert title == "Repair-Guides/Fixing-a-Flat-Tyre", title


def test_links_that_share_a_path_are_read_without_failing():
    """Links to files under one folder ("/work/files/seed/site-deploy.yml") share a lead of
    words with no spaces between them; the reading counts words as it counts them
    everywhere and reads the screen (it used to fail on such a report)."""
    report = [el("heading", "Playbook report", 0.06, 0.03, level=1)]
    report += [
        el("link", f"/work/files/seed/{name}.yml", 0.15 + 0.05 * k)
        for k, name in enumerate(["site-deploy", "db-backup", "web-restart"])
    ]
    row = read_page("Ansible Reports", "report", report)
    assert row[C.FEATURES_TITLE] == "Playbook report"


def test_a_page_with_nothing_else_to_say_names_its_own_fields():
    """A guide's page whose name the headline has said ("All about Fixing a Flat Tyre")
    and that shows only its facts ("Difficulty: easy · Time: 20 minutes · Tools: ...")
    names those facts in the plainest line rather than leave the subtitle empty."""
    page = [
        el("heading", "Fixing a Flat Tyre", 0.08, 0.03, level=1),
        el("text", "Difficulty:", 0.14),
        el("text", "easy ·", 0.14, x=0.2),
        el("text", "Time:", 0.14, x=0.35),
        el("text", "20 minutes ·", 0.14, x=0.45),
        el("text", "Tools:", 0.14, x=0.7),
        el("text", "levers, pump", 0.17),
        el("text", "Shift to the smallest sprocket and take the wheel out.", 0.25, 0.03),
    ]
    guides = [el("heading", "Repair guides", 0.08, 0.03, level=1)]
    guides += [
        el("link", t, 0.2 + 0.05 * k)
        for k, t in enumerate(["Fixing a Flat Tyre", "Replacing Brake Pads", "Truing a Wheel"])
    ]
    frame = dom_set("Spokewise", [("guides", guides), ("page", page)])
    copy = ss.write_copy(ss.detect_domain(ss.extract_features(frame, ocr=False)))
    assert copy[C.COPY_SUBTITLE].iloc[1] == "Check the difficulty and tools.", copy[
        C.COPY_SUBTITLE
    ].tolist()


def test_a_column_that_asks_a_question_names_no_field():
    """A settle-up table's columns "Who pays", "For whom" ask questions: they are no
    fields a caption may name as things ("Check the who pays and whom."); "Amount" and
    "Paid by" are."""
    from shotsmith.stages.features.reading import _no_field_name

    assert _no_field_name("Who pays") and _no_field_name("For whom") and _no_field_name("T")
    assert not _no_field_name("Amount") and not _no_field_name("Paid by")


def test_a_screen_the_reading_fails_on_costs_only_that_screen(monkeypatch, caplog):
    """A defect in reading one screen (as the shared-path links once raised) leaves that
    screen unread with a warning; the set's other screens are read and captioned. No real
    input is known to fail since that fix, so the failure is injected into the reading."""
    import shotsmith.stages.features.stage as stage

    real = stage.read_screens

    def fails_on_broken(evidence, screens, *args, **kwargs):
        if "broken" in screens:
            raise IndexError("list index out of range")
        return real(evidence, screens, *args, **kwargs)

    monkeypatch.setattr(stage, "read_screens", fails_on_broken)
    books = [el("heading", "Books", 0.06, 0.03, level=1)]
    books += [el("link", t, 0.2 + 0.05 * k) for k, t in enumerate(["Dracula", "Emma", "Ivanhoe"])]
    broken = [el("heading", "Reports", 0.06, 0.03, level=1)]
    frame = dom_set("Shelf", [("books", books), ("broken", broken)])
    with caplog.at_level("WARNING", logger="shotsmith"):
        out = ss.extract_features(frame, ocr=False)
    assert out[C.FEATURES_SUBJECT].tolist() == ["Books", ""], out[C.FEATURES_SUBJECT].tolist()
    said = " ".join(r.getMessage() for r in caplog.records)
    assert "screen broken could not be read" in said, said
    copy = ss.write_copy(ss.detect_domain(out))
    assert copy[C.COPY_HEADLINE].iloc[0], copy[C.COPY_HEADLINE].tolist()
