"""detect_domain files a set by what its screens are: surfaces that several screens show
(a config editor, devices and their status, runs and their metrics) outweigh listing words
a name happens to share with another category, and the signals say which screens did it.

Real screenshots from tests/data/realapps through the real extract_features (Tesseract
included where a screen has no DOM text); no mocks.
"""

from __future__ import annotations

import functools
import json

import pandas as pd
import pytest

import shotsmith as ss
from shotsmith.columns import DOMAIN_CATEGORY, DOMAIN_SIGNALS
from shotsmith.stages.domain import predict_domain
from shotsmith.stages.domain.evidence import Evidence
from shotsmith.stages.domain.screens import screen_lexicon, screen_surfaces

from ...conftest import ROOT, TESTS

REALAPPS = TESTS / "data" / "realapps"
PURPOSES = TESTS / "data" / "copy_purposes"


def person_category(app: str) -> str:
    return json.loads((PURPOSES / f"{app}.json").read_text(encoding="utf-8"))["category"]


@functools.cache
def read(app: str, ocr: bool) -> pd.DataFrame:
    """One real app's screenshots as extract_features reads them (read once per run)."""
    return ss.extract_features(ss.read_screenshots(REALAPPS / app), ocr=ocr)


def designed(app: str, *, ocr: bool) -> tuple[str, list[str]]:
    frame = ss.detect_domain(read(app, ocr).copy())
    return str(frame[DOMAIN_CATEGORY].iloc[0]), list(frame[DOMAIN_SIGNALS].iloc[0])


def test_device_list_and_yaml_editor_are_a_utility_not_lifestyle():
    """ESPHome's screens: a device list marked OFFLINE, a YAML config editor, a device menu
    (Validate, Install). Its name and device names ("Garden irrigation", "Living room")
    share listing words with smart-home apps filed under Lifestyle."""
    category, signals = designed("esphome", ocr=True)
    assert category == person_category("esphome") == "Utilities"
    assert signals[0].startswith("screens show devices and their status (")
    assert "offline" in signals[0] and "device" in signals[0]
    assert signals[0].endswith("→ Utilities (+6.00)")


def test_study_trial_dashboard_is_a_developer_tool_not_education():
    """Optuna Dashboard: studies, trials, objective values, hyperparameter importance. The
    listing-fitted model reads "study" and "learning" as a course's words."""
    category, signals = designed("optuna", ocr=False)
    assert category == "Developer Tools"
    said = signals[0]
    assert said.startswith("screens show experiments, runs and their metrics (")
    assert "trial" in said and "→ Developer Tools" in said


@pytest.mark.parametrize(
    ("app", "ocr", "right"), [("esphome", True, "Utilities"), ("optuna", False, "Developer Tools")]
)
def test_without_the_screens_reading_the_same_words_file_them_elsewhere(app, ocr, right):
    """The same sets' names, screen names and visible text without the screens' reading
    (kinds, subjects, fields): the listing-fitted model alone files them elsewhere, so the
    reading is what moves them."""
    frame = read(app, ocr)
    kept = [c for c in frame.columns if not c.startswith("features_") or c == "features_text"]
    alone = ss.detect_domain(frame[kept].copy())
    assert alone[DOMAIN_CATEGORY].iloc[0] != right
    assert not any(s.startswith("screens show") for s in alone[DOMAIN_SIGNALS].iloc[0])


def reading(text: str, subject: str = "") -> tuple[tuple[str, str, tuple[str, ...]], str]:
    return ("detail", subject, ()), text


def evidence_of(*screens: tuple[tuple[str, str, tuple[str, ...]], str], name: str = "") -> Evidence:
    return Evidence(
        name=name,
        text="\n".join(t for _, t in screens),
        readings=tuple(r for r, _ in screens),
        screen_texts=tuple(t for _, t in screens),
    )


CONFIG = "garden-pump.yaml\nlogger:\napi:\n  encryption:\n    key: !secret api_key\nota:\nSAVE"


def test_one_config_screen_is_not_enough_two_are():
    one = evidence_of(reading(CONFIG), reading("Settings\nTheme\nLanguage"))
    assert screen_surfaces(one) == []
    two = evidence_of(reading(CONFIG), reading(CONFIG.replace("garden", "porch")))
    (shown,) = screen_surfaces(two)
    assert shown.surface.name == "a code or config editor"
    assert {"yaml", "logger", "api key", "secret"} <= set(shown.cues)
    assert shown.says("Developer Tools") == 1.0 and shown.says("Utilities") == 0.5


def test_words_in_sentences_of_content_are_not_cues():
    """A comment that mentions a script, an import and an XML file is a conversation,
    not a code editor: cues are read from labels, keys and menu items, not sentences."""
    comment = (
        "Did you import the old comments into the new xml config without the tracking "
        "script and the json token that the endpoint needed?"
    )
    shown = screen_surfaces(evidence_of(reading(comment), reading(comment)))
    assert shown == []


def test_strength_grows_with_the_screens_that_agree_and_saturates():
    runs = "Experiments\nRuns\nMetrics\nParameters\naccuracy\nloss"
    plain = "Settings\nTheme"
    full = screen_lexicon().full_screens
    for agreeing in range(2, full + 2):
        sets = [reading(runs)] * agreeing + [reading(plain)] * 3
        (shown,) = screen_surfaces(evidence_of(*sets))
        assert shown.screens == agreeing
        assert shown.says("Developer Tools") == pytest.approx(min(1.0, agreeing / full))


def test_strong_screen_evidence_outweighs_a_name_of_another_category():
    """A set named like a gardening app whose every screen is a device list with status:
    the screens win, and the first signal says which screens and words did it."""
    devices = "Devices\nGreenhouse fan\nONLINE\nSoil sensor\nOFFLINE\nFirmware 2024.6\nReboot"
    sets = [reading(devices, "Devices")] * 3
    named = evidence_of(*sets, name="Garden Planner")
    assert predict_domain(Evidence(name="Garden Planner")).category != "Utilities"
    prediction = predict_domain(named)
    assert prediction.category == "Utilities"
    assert prediction.signals[0].startswith("screens show devices and their status (")
    assert "on 3 of 3 → Utilities" in prediction.signals[0]


@pytest.mark.parametrize("app", ["pocket-budget", "stepstreak", "tasklane", "wanderly"])
def test_consumer_apps_show_no_technical_surface(app):
    """The bundled samples (a budget, a fitness tracker, a to-do list, a travel planner)
    show none of the surfaces, so their category is the model's and their nouns'."""
    folder = ROOT / "sample_inputs" / app
    frame = ss.extract_features(ss.read_screenshots(folder), ocr=True)
    out = ss.detect_domain(frame.copy())
    assert out[DOMAIN_CATEGORY].iloc[0] == person_category(app)
    assert not any(" on " in s and "screens show" in s for s in out[DOMAIN_SIGNALS].iloc[0])


def test_conversation_screens_and_member_lists_are_a_chat():
    """A chat client: a conversation screen (its kind, as extract_features read it) and a
    member list of a channel agree; a listing model reading "network" and "server" filed
    such a client elsewhere."""
    talk = (("conversation", "#3d-printing", ()), "#3d-printing\nmaya\nanyone tried PETG?")
    members = (("list", "Members", ()), "Members\n5 users\nOperators\njonah\nchannel settings")
    server = (("form", "Network", ()), "Network\nServer\nPort\nNick\nJoin channels")
    (shown,) = screen_surfaces(evidence_of(talk, members, server))
    assert shown.surface.name == "a conversation between people"
    assert shown.screens == 2 and "conversation screen" in shown.cues
    prediction = predict_domain(evidence_of(talk, members, server, name="The Lounge"))
    assert prediction.category == "Social Networking"
    assert prediction.signals[0].startswith("screens show a conversation between people (")
    alone = evidence_of(talk, (("form", "Settings", ()), "Settings\nTheme"))
    assert screen_surfaces(alone) == []  # one conversation screen is not several


def test_keys_written_in_camel_case_are_read_as_words():
    """A boat's data server shows its paths as keys ("navigation.speedOverGround"): read
    as words, two screens of them are a vessel's instruments, and the set is filed under
    Navigation rather than by a server's words."""
    panel = "navigation.position\nnavigation.courseOverGroundTrue\nApparent Wind\nm/s"
    data = "design.aisShipType\n{ 'name': 'Sailing' }\ncommunication.callsignVhf\nSignal K"
    server = "Server\nUptime\nConnections\nPlugins\nSecurity"
    sets = [reading(panel), reading(data), reading(server)]
    (shown,) = screen_surfaces(evidence_of(*sets))
    assert shown.surface.name == "a vessel's or vehicle's instruments"
    assert {"over ground", "apparent wind", "ship", "callsign"} <= set(shown.cues)
    prediction = predict_domain(evidence_of(*sets, name="Harbour Data"))
    assert prediction.category == "Navigation"


@pytest.mark.parametrize(
    ("screen", "surface", "category"),
    [
        (
            "Issues\nPriority\nStatus\nAssigned to\nMilestone\nbug\nfeature request",
            "issues and their triage",
            "Developer Tools",
        ),
        (
            "Requests\nMethod\nHost\nStatus code\nResponse time\nheaders",
            "requests to a web service and their responses",
            "Developer Tools",
        ),
        (
            "Watches\nLast checked\nRecheck\nDifference\nSnapshot",
            "pages watched for changes",
            "Utilities",
        ),
    ],
)
def test_trackers_traffic_and_watched_pages_are_surfaces(screen, surface, category):
    (shown,) = screen_surfaces(evidence_of(reading(screen), reading(screen)))
    assert shown.surface.name == surface
    assert shown.says(category) == 1.0


def test_a_club_wiki_is_reference_and_a_bakerys_pipeline_a_developer_tool():
    """MediaWiki's articles, talk pages and recent changes are a shared reference, not a
    personal notebook; Dagster's assets, lineage and runs are a developer's pipeline, not
    the bakery whose sales it reports (orders, stock and reports were Business)."""
    article = "Lantern Lake Trail\nArticle\nTalk\nRead\nEdit source\nView history\nCategories"
    changes = "Recent changes\nRelated changes\nTalk\nContributions\nSpecial pages\nrevision"
    wiki = [reading(article), reading(changes), reading("Main Page\nArticle\nTalk\nrandom page")]
    (shown,) = screen_surfaces(evidence_of(*wiki))
    assert shown.surface.name == "a shared wiki of articles" and shown.screens == 3
    assert predict_domain(evidence_of(*wiki, name="Ridgeline Ramblers")).category == "Reference"
    assets = "Assets\ndaily_sales\nMaterialize\nLineage\nUpstream\nDownstream\nPartitions"
    runs = "Runs\nRun ID\nJob\nbakery_daily_job\nLaunchpad\nBackfills\norders\nstock report"
    lineage = "daily_sales\nOverview\nPartitions\nEvents\nLineage\nUpstream\nDownstream"
    report = "daily_report\nOrders\nStock\nReport\nCustomers\nsales"
    pipeline = [reading(assets), reading(runs), reading(lineage), reading(report)]
    (shown,) = screen_surfaces(evidence_of(*pipeline))
    assert shown.surface.name == "data pipelines and their runs" and shown.screens == 3
    prediction = predict_domain(evidence_of(*pipeline, name="Crumb Data"))
    assert prediction.category == "Developer Tools", prediction.signals


@pytest.mark.parametrize(
    ("screen", "surface", "category"),
    [
        ("Inbox\nCompose\nDrafts\nSent\nJunk\nTrash\nUnread", "mail in folders", "Productivity"),
        (
            "Forums\nTopics\nPosts\nLast post\nModerators\nNew topic",
            "a forum of topics and posts",
            "Social Networking",
        ),
        (
            "Alerts\nFiring\nPending\nTargets\nInstance\nAlert rules",
            "metrics and alerts of watched services",
            "Developer Tools",
        ),
        (
            "Annotations\nPredictions\nGround truth\nAgreement\nLabeling interface",
            "data labelled for machine learning",
            "Developer Tools",
        ),
        (
            "Schedule\nTalks\nSpeakers\nRoom A\nKeynote\nWorkshop",
            "talks, speakers and a schedule",
            "Business",
        ),
        (
            "Courses\nLessons\nQuiz\nAssignments\nLearners",
            "lessons and courses to learn from",
            "Education",
        ),
        (
            "Recipes\nIngredients\nServings\nPrep time\nCook time",
            "recipes and meal plans",
            "Food & Drink",
        ),
        ("Boards\nBacklog\nIn progress\nDone\nCards\nDue date", "cards on a board", "Productivity"),
        (
            "Questions\nAsk question\nAnswers\nVotes\nKarma\nBadges",
            "questions asked and answered",
            "Social Networking",
        ),
        (
            "Blocks\nStyle manager\nLayer manager\nTypography\nFont size\nPadding",
            "a web page laid out in a visual builder",
            "Graphics & Design",
        ),
        (
            "Shifts\nVolunteers\nParticipations\nDisposition\nQualifications",
            "shifts and who covers them",
            "Business",
        ),
    ],
)
def test_mail_forums_monitoring_events_lessons_recipes_and_boards_are_surfaces(
    screen, surface, category
):
    """Common kinds of app, each written from what such apps show on most screens: two
    screens of them say what the app is whatever its name's listing words say."""
    shown = {
        s.surface.name: s for s in screen_surfaces(evidence_of(reading(screen), reading(screen)))
    }
    assert surface in shown, sorted(shown)
    assert shown[surface].says(category) == 1.0
    prediction = predict_domain(evidence_of(reading(screen), reading(screen), name="Harbour"))
    assert prediction.category == category, prediction.signals


def test_a_pipeline_of_shop_data_is_no_shop():
    """A data pipeline whose assets are a shop's orders and customers is still a pipeline:
    orders, customers and stock alone are data any business app shows, not its admin."""
    report = reading("daily_report\nOrders\nStock\nCustomers\nSales\nRevenue\nProducts")
    names = {s.surface.name for s in screen_surfaces(evidence_of(report, report, report))}
    assert "a shop's products, orders and customers" not in names, names
