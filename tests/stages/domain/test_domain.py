"""detect_domain: held-out accuracy of the fitted model, what it tells the user, the contract.

The accuracy tests read the labelled lists and fail below their floors; nothing is skipped.
The frozen test halves of tests/data/domain_apps.csv and tests/data/domain_apps_2.csv are
scored with the model fitted on the train halves alone
(tests/data/domain_model_train_half.json.gz, written by scripts/fit_domain_model.py next to
the shipped model); the shipped model has seen every row.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import json
import math
import os
from collections import Counter, defaultdict
from importlib import resources
from pathlib import Path

import pandas as pd
import pytest

import shotsmith as ss
from shotsmith.columns import (
    APP_ID,
    BUNDLE_ID,
    DOMAIN_CATEGORY,
    DOMAIN_CONFIDENCE,
    DOMAIN_CONFIDENT,
    DOMAIN_RUNNER_UP,
    DOMAIN_SIGNALS,
    FEATURES_EVIDENCE,
    FEATURES_TEXT,
    POSITION,
    PROJECT_NAME,
    SCREEN,
    SCREEN_TEXT,
)
from shotsmith.errors import DomainModelError, MissingColumnError, ShotsmithError
from shotsmith.stages.domain import (
    CATEGORIES,
    FALLBACK_CATEGORY,
    detect_domain,
    predict,
    predict_domain,
    score_domains,
)
from shotsmith.stages.domain.evidence import Evidence
from shotsmith.stages.domain.model import MODEL_FILE, build_model, load_model
from shotsmith.stages.domain.screens import screen_scores
from shotsmith.stages.domain.tokens import featurizer_config, phrases

from ...conftest import TESTS

DATA = TESTS / "data"
APPS_CSV = DATA / "domain_apps.csv"
APPS2_CSV = DATA / "domain_apps_2.csv"
EXTRA_CSV = DATA / "domain_apps_extra.csv"
#: The lists with a frozen test half, and the salt of each one's split.
SPLIT_SALTS = {APPS_CSV: "shotsmith-domain-split-v1:", APPS2_CSV: "shotsmith-domain-split-v2:"}
#: Screen names that say nothing about an app (screenshots named by their place in it).
GENERIC_SCREENS = "home;search;profile;settings"
TRAIN_HALF_MODEL = DATA / "domain_model_train_half.json.gz"
# The older labelled dev file (names, bundle ids, screens; no visible text);
# SHOTSMITH_DOMAINS_CSV points it at another labelled file with the same columns.
DEV_CSV = Path(os.environ.get("SHOTSMITH_DOMAINS_CSV") or DATA / "domains_dev.csv")

# Floors: a little under what the train-half model measured when it was fitted (see the
# model's provenance and benchmarks/domain_accuracy.py), so a regression fails.
#
# The test half of tests/data/domain_apps_2.csv is the untouched one: the list was written and
# split after every earlier round of model changes, and scored once, by the fit that wrote
# the model: 90.4% through detect_domain (245 of 271; 90.8% with the fitting script's
# unpruned weights), 84.5% without visible text. The first list's test half, scored by
# several rounds before, measured 89.7% (340 of 379) and 78.6% without text.
TEST_HALF_FLOOR = 0.895
TEST_HALF_NO_TEXT_FLOOR = 0.78
TEST_HALF_2_FLOOR = 0.90
TEST_HALF_2_NO_TEXT_FLOOR = 0.84
# Screens called home, search, profile, settings: an unseen app is judged by its name and
# bundle id alone (48.6% of both test halves); an app the model was fitted on keeps its
# category (95.1%; 45.6% before generic screen names were left out of the evidence).
GENERIC_FLOOR = 0.48
KNOWN_GENERIC_FLOOR = 0.945
DEV_FLOOR = 0.85


# --- helpers ----------------------------------------------------------------------------------


def read_rows(path: Path) -> list[dict]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def frame_of(apps: list[dict], *, text: bool = True) -> pd.DataFrame:
    """One row per screen; the app's line of visible text on its first screen."""
    rows = []
    for app in apps:
        screens = [s.strip() for s in app["screens"].split(";") if s.strip()] or [""]
        for i, screen in enumerate(screens):
            rows.append(
                {
                    APP_ID: app["name"],
                    POSITION: i,
                    PROJECT_NAME: app["name"],
                    BUNDLE_ID: app["bundle_id"],
                    SCREEN: screen,
                    SCREEN_TEXT: app.get("screen_text", "") if text and i == 0 else "",
                }
            )
    return pd.DataFrame(rows)


def accuracy(apps: list[dict], *, text: bool = True) -> tuple[float, list[str]]:
    out = detect_domain(frame_of(apps, text=text))
    got = out.groupby(APP_ID, sort=False)[DOMAIN_CATEGORY].first()
    wrong = [a["name"] for a in apps if got[a["name"]] != a["category"]]
    return 1 - len(wrong) / len(apps), wrong


@pytest.fixture
def train_half_model(monkeypatch):
    """detect_domain with the model that never saw the test half."""
    raw = json.loads(gzip.decompress(TRAIN_HALF_MODEL.read_bytes()).decode("utf-8"))
    model = build_model(raw)
    monkeypatch.setattr(predict, "load_model", lambda: model)
    return model


def held_out_rows(path: Path = APPS_CSV) -> list[dict]:
    """The frozen test half of a labelled list."""
    return [r for r in read_rows(path) if r["split"] == "test"]


def with_generic_screens(apps: list[dict]) -> list[dict]:
    return [{**app, "screens": GENERIC_SCREENS} for app in apps]


def dev_rows() -> list[dict]:
    assert DEV_CSV.exists(), f"{DEV_CSV} is missing: the accuracy test needs it"
    return [
        {
            "name": r["project_name"],
            "bundle_id": r["bundle_id"],
            "screens": r["screens"],
            "category": r["category"],
        }
        for r in read_rows(DEV_CSV)
    ]


def frame_from_apps(apps: list[tuple[str, str, str]]) -> pd.DataFrame:
    return frame_of([{"name": n, "bundle_id": b, "screens": s} for n, b, s in apps], text=False)


def sample_frame() -> pd.DataFrame:
    return frame_from_apps(
        [
            ("Pocket Budget", "com.example.pocketbudget", "overview;budgets;transactions"),
            ("Skyline Forecast", "com.skyline.weather", "today;radar;hourly"),
        ]
    )


# --- the labelled list --------------------------------------------------------------------


@pytest.mark.parametrize("path", list(SPLIT_SALTS), ids=lambda p: p.name)
def test_labelled_list_is_large_covers_every_category_and_split_is_frozen(path):
    rows = read_rows(path)
    assert len(rows) >= 250
    names = [r["name"].casefold() for r in rows]
    assert len(set(names)) == len(names)
    per_category = Counter(r["category"] for r in rows)
    assert set(per_category) == set(CATEGORIES)
    assert min(per_category.values()) >= 4, per_category
    # the frozen rule: per category, sha256 order, alternating train/test
    by_category = defaultdict(list)
    for row in rows:
        by_category[row["category"]].append(row)
    for members in by_category.values():
        ordered = sorted(
            members,
            key=lambda r: hashlib.sha256((SPLIT_SALTS[path] + r["name"]).encode()).hexdigest(),
        )
        for rank, row in enumerate(ordered):
            assert row["split"] == ("train" if rank % 2 == 0 else "test"), row["name"]
    assert all(any(r["split"] == "test" for r in m) for m in by_category.values())
    assert sum(not r["name"].isascii() for r in rows) >= 25  # names in many scripts


def test_no_app_is_in_two_lists():
    """By name or by bundle id: an app of a test half is in no training row."""
    seen: dict[tuple[str, str], str] = {}
    for path in (*SPLIT_SALTS, EXTRA_CSV):
        for row in read_rows(path):
            for key in (("name", row["name"].casefold()), ("bundle", row["bundle_id"].casefold())):
                assert key not in seen, f"{row['name']} of {path.name} is in {seen[key]} too"
                seen[key] = path.name
    assert "split" not in read_rows(EXTRA_CSV)[0]  # training rows only


# --- accuracy -----------------------------------------------------------------------------


@pytest.mark.parametrize("model", ["train_half", "shipped"])
def test_models_were_fitted_on_these_lists(model, train_half_model):
    """The provenance names the lists as they are now; the train-half model left every
    test half out."""
    provenance = train_half_model.provenance if model == "train_half" else load_model().provenance
    lists = provenance["labelled_lists"]
    for path, salt in SPLIT_SALTS.items():
        entry = lists[f"tests/data/{path.name}"]
        assert entry["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
        assert entry["split_salt"] == salt
        assert entry["test"] == len(held_out_rows(path))
    assert (
        provenance["extra_training_list_sha256"]
        == hashlib.sha256(EXTRA_CSV.read_bytes()).hexdigest()
    )
    if model == "train_half":
        assert "train halves only" in provenance["weights"]
        assert provenance["rows"]["train"] == provenance["rows"]["all"] - sum(
            len(held_out_rows(path)) for path in SPLIT_SALTS
        )


@pytest.mark.parametrize(
    "path, text, floor",
    [
        (APPS_CSV, True, TEST_HALF_FLOOR),
        (APPS_CSV, False, TEST_HALF_NO_TEXT_FLOOR),
        (APPS2_CSV, True, TEST_HALF_2_FLOOR),
        (APPS2_CSV, False, TEST_HALF_2_NO_TEXT_FLOOR),
    ],
    ids=["list1-text", "list1-no-text", "list2-text", "list2-no-text"],
)
def test_accuracy_on_the_frozen_test_halves(train_half_model, path, text, floor):
    acc, wrong = accuracy(held_out_rows(path), text=text)
    assert acc >= floor, f"{path.name} test half, text={text}: {acc:.1%}; wrong: {wrong}"


def test_generic_screen_names_do_not_hide_an_unseen_app(train_half_model):
    """Screenshots named home, search, profile, settings: the name and bundle id decide."""
    apps = with_generic_screens(held_out_rows(APPS_CSV) + held_out_rows(APPS2_CSV))
    acc, wrong = accuracy(apps, text=False)
    assert acc >= GENERIC_FLOOR, f"generic screens: {acc:.1%}; wrong: {wrong}"


def test_a_known_app_stays_known_under_generic_screen_names():
    """An app the model was fitted on keeps its category when its screenshots are called
    home, search, profile, settings."""
    apps = [r for path in SPLIT_SALTS for r in read_rows(path)] + read_rows(EXTRA_CSV)
    acc, wrong = accuracy(with_generic_screens(apps), text=False)
    assert acc >= KNOWN_GENERIC_FLOOR, f"known apps, generic screens: {acc:.1%}; {wrong[:20]}"


def test_generic_screen_names_are_left_out_of_the_evidence():
    config = featurizer_config()
    evidence = Evidence(screens=("Home", "Sign In", "02", "Einstellungen", "ホーム"))
    assert evidence.field_phrases(config)["screen"] == []
    evidence = Evidence(screens=("home", "search results", "map view"))
    assert evidence.field_phrases(config)["screen"] == [["search", "results"], ["map", "view"]]


def test_accuracy_on_the_dev_list_train_half_model(train_half_model):
    acc, wrong = accuracy(dev_rows(), text=False)
    assert acc >= DEV_FLOOR, f"dev accuracy {acc:.1%}; misclassified: {wrong}"


def test_accuracy_on_the_dev_list_shipped_model():
    acc, wrong = accuracy(dev_rows(), text=False)
    assert acc >= DEV_FLOOR, f"dev accuracy {acc:.1%}; misclassified: {wrong}"


def test_confident_sets_are_right_more_often(train_half_model):
    apps = held_out_rows(APPS_CSV) + held_out_rows(APPS2_CSV)
    out = detect_domain(frame_of(apps)).groupby(APP_ID, sort=False).first()
    truth = pd.Series({a["name"]: a["category"] for a in apps})
    right = out[DOMAIN_CATEGORY] == truth[out.index]
    confident = out[DOMAIN_CONFIDENT].astype(bool)
    assert confident.any() and (~confident).any()
    assert right[confident].mean() > right[~confident].mean()
    assert right[confident].mean() >= 0.9


# --- the model ------------------------------------------------------------------------------


def test_model_loads_from_package_data():
    packed = resources.files("shotsmith").joinpath(MODEL_FILE)
    assert packed.is_file()
    assert len(packed.read_bytes()) < 2_000_000
    model = load_model()
    assert set(model.classes) == set(CATEGORIES)
    assert 0.0 < model.threshold < 1.0 and model.temperature > 0
    assert set(model.provenance["labelled_lists"]) == {
        f"tests/data/{path.name}" for path in SPLIT_SALTS
    }
    assert "all rows" in model.provenance["weights"]
    held_out = model.provenance["test_accuracy_train_half_model"]
    assert held_out["tests/data/domain_apps.csv"]["full"] >= TEST_HALF_FLOOR
    assert held_out["tests/data/domain_apps_2.csv"]["full"] >= TEST_HALF_2_FLOOR


def test_damaged_model_is_a_clear_error():
    with pytest.raises(DomainModelError, match="fit_domain_model"):
        build_model({"format": "something else"})


def test_featurizer_is_the_one_the_model_was_fitted_with():
    raw = json.loads(
        gzip.decompress(resources.files("shotsmith").joinpath(MODEL_FILE).read_bytes())
    )
    assert raw["featurizer"]["config_sha256"] == featurizer_config().digest


def test_no_lexicon_table_is_left_in_the_package():
    assert not resources.files("shotsmith").joinpath("data/domain_lexicon.json").is_file()


# --- what the user sees -------------------------------------------------------------------


def test_set_level_values_repeated_on_every_row():
    out = detect_domain(sample_frame())
    for _app, rows in out.groupby(APP_ID):
        for column in (DOMAIN_CATEGORY, DOMAIN_CONFIDENCE, DOMAIN_RUNNER_UP, DOMAIN_CONFIDENT):
            assert rows[column].nunique() == 1, column
        assert len({tuple(s) for s in rows[DOMAIN_SIGNALS]}) == 1
    cats = out.groupby(APP_ID)[DOMAIN_CATEGORY].first()
    assert cats["Pocket Budget"] == "Finance"
    assert cats["Skyline Forecast"] == "Weather"


def test_output_types():
    out = detect_domain(sample_frame())
    assert set(out[DOMAIN_CATEGORY]) <= set(CATEGORIES)
    assert set(out[DOMAIN_RUNNER_UP]) <= set(CATEGORIES)
    assert (out[DOMAIN_RUNNER_UP] != out[DOMAIN_CATEGORY]).all()
    assert all(isinstance(c, float) and 0.0 <= c <= 1.0 for c in out[DOMAIN_CONFIDENCE])
    assert out[DOMAIN_CONFIDENT].dtype == bool
    for signals in out[DOMAIN_SIGNALS]:
        assert isinstance(signals, list) and 1 <= len(signals) <= 6
        assert all(isinstance(s, str) and s for s in signals)


def test_signals_name_real_inputs_with_their_source():
    out = detect_domain(sample_frame())
    budget = out.loc[out[APP_ID] == "Pocket Budget", DOMAIN_SIGNALS].iloc[0]
    evidence = [s for s in budget if "→" in s]
    assert evidence and all("Finance" in s for s in evidence)
    words = {"pocket", "budget", "pocketbudget", "budgets", "transactions", "overview"}
    for line in evidence:
        source, quoted = line.split(" '", 1)
        assert source in {"name token", "bundle id token", "screen", "screen text"}
        assert quoted.split("'", 1)[0] in words, line
    assert any(s.startswith("runner-up ") for s in budget)


def test_low_confidence_sets_are_not_confident_and_have_a_runner_up():
    frame = frame_from_apps([("Zorblax", "com.zorblax.app", "home;settings;profile;detail")])
    out = detect_domain(frame)
    assert not out[DOMAIN_CONFIDENT].any()
    assert out[DOMAIN_RUNNER_UP].iloc[0] in CATEGORIES
    assert out[DOMAIN_RUNNER_UP].iloc[0] != out[DOMAIN_CATEGORY].iloc[0]
    assert out[DOMAIN_CONFIDENCE].iloc[0] < load_model().threshold
    assert any("stay neutral" in s for s in out[DOMAIN_SIGNALS].iloc[0])


def test_clear_sets_are_confident():
    frame = frame_from_apps(
        [("Skyline Forecast", "com.skyline.weather", "radar;hourly forecast;rain;storm alerts")]
    )
    out = detect_domain(frame)
    assert out[DOMAIN_CATEGORY].iloc[0] == "Weather"
    assert out[DOMAIN_CONFIDENT].all()


def test_visible_text_is_the_strongest_evidence():
    frame = frame_from_apps([("Zorblax", "com.zorblax.app", "home;detail")])
    plain = detect_domain(frame)
    frame[SCREEN_TEXT] = ["7-day forecast · Rain radar · Humidity 64%", "UV index · Wind 12 km/h"]
    out = detect_domain(frame)
    assert (out[DOMAIN_CATEGORY] == "Weather").all()
    assert out[DOMAIN_CONFIDENCE].iloc[0] > plain[DOMAIN_CONFIDENCE].iloc[0]
    assert any(s.startswith("screen text '") for s in out[DOMAIN_SIGNALS].iloc[0])


def test_features_text_and_evidence_from_extract_features_are_read():
    frame = frame_from_apps([("Zorblax", "com.zorblax.app", "home;detail")])
    frame[FEATURES_TEXT] = ["Playlists · Liked Songs · Now playing", ""]
    out = detect_domain(frame)
    assert out[DOMAIN_CATEGORY].iloc[0] == "Music"
    frame = frame_from_apps([("Zorblax", "com.zorblax.app", "home;detail")])
    frame[FEATURES_EVIDENCE] = [
        [{"role": "title", "text": "Boarding pass", "source": "ocr"}],
        [{"role": "action", "text": "Check in for your flight", "source": "ocr"}, "junk"],
    ]
    out = detect_domain(frame)
    assert out[DOMAIN_CATEGORY].iloc[0] == "Travel"


def test_a_wall_of_text_does_not_outweigh_everything_else():
    frame = frame_from_apps(
        [("RunRhythm", "com.runrhythm.app", "workouts;training plan;calories;steps")]
    )
    frame[SCREEN_TEXT] = ["Sunny, 21°. Hourly forecast " * 200] + [""] * 3
    out = detect_domain(frame)
    assert out[DOMAIN_CATEGORY].iloc[0] in {"Health & Fitness", "Weather"}
    ranking = dict(
        score_domains("RunRhythm", "com.runrhythm.app", "workouts;training plan;calories;steps")
    )
    assert ranking["Health & Fitness"] > 0.5


@pytest.mark.parametrize(
    "name, bundle, screens, text, expected",
    [
        (
            "天気ナビ",
            "jp.example.tenkinavi",
            "今日;週間予報;雨雲レーダー",
            "降水確率 30% · 最高気温 24°",
            "Weather",
        ),
        (
            "家計ノート",
            "jp.example.kakei",
            "ホーム;支出;予算",
            "今月の支出 · 残高 · 予算",
            "Finance",
        ),
        (
            "وجبتي",
            "com.example.wajbati",
            "الرئيسية;مطاعم;طلباتي",
            "مطاعم قريبة · توصيل مجاني · اطلب الآن",
            "Food & Drink",
        ),
        (
            "지하철 길잡이",
            "kr.example.subway",
            "노선도;길찾기;도착",
            "출발 · 도착 · 환승 · 길찾기",
            "Navigation",
        ),
        (
            "Receitas Fáceis",
            "br.example.receitas",
            "receitas;ingredientes;favoritos",
            "Modo de preparo · Ingredientes",
            "Food & Drink",
        ),
    ],
)
def test_unicode_apps(name, bundle, screens, text, expected):
    frame = frame_of([{"name": name, "bundle_id": bundle, "screens": screens, "screen_text": text}])
    assert detect_domain(frame)[DOMAIN_CATEGORY].iloc[0] == expected


def test_tokens_are_unicode_aware():
    assert phrases("PocketBudget") == [["pocket", "budget", "pocketbudget"]]
    assert phrases("LINEマンガ") == [["line", "マンガ"]]
    assert phrases("Café crème · McDonald's") == [["cafe", "creme"], ["mc", "donalds", "mcdonalds"]]
    assert phrases("हिंदी समाचार") == [["हिंदी", "समाचार"]]  # vowel signs stay on their letters
    assert phrases("Humidity 64% · 21°") == [["humidity"], ["%"], ["°"]]
    assert phrases("ダウンロード") == [["ダウンロード"]]  # voiced kana are not stripped
    assert phrases(None) == [] and phrases("") == []


def test_score_domains_ranks_every_category():
    scores = score_domains("Skyline", "com.skyline.weather", "today;radar;hourly", text="rain")
    assert [c for c, _ in scores][0] == "Weather" and len(scores) == len(CATEGORIES)
    values = [p for _, p in scores]
    assert values == sorted(values, reverse=True)
    assert math.isclose(sum(values), 1.0, abs_tol=0.01)


# --- options --------------------------------------------------------------------------------


def test_threshold_option_moves_domain_confident():
    frame = sample_frame()
    everything = detect_domain(frame, threshold=0.0)
    assert everything[DOMAIN_CONFIDENT].all()
    lowest = everything[DOMAIN_CONFIDENCE].min()
    assert lowest < 1.0
    out = detect_domain(frame, threshold=lowest + 1e-4)  # just above the least sure set
    assert not out[DOMAIN_CONFIDENT].all()
    assert (out[DOMAIN_CONFIDENT] == (out[DOMAIN_CONFIDENCE] >= lowest + 1e-4)).all()
    with pytest.raises(ShotsmithError, match="threshold"):
        detect_domain(frame, threshold=1.5)


def test_min_confidence_still_falls_back_when_unsure():
    frame = frame_from_apps([("Zorblax", "com.zorblax.app", "radar;workouts")])
    plain = detect_domain(frame)
    out = detect_domain(frame, min_confidence=0.99)
    assert (out[DOMAIN_CATEGORY] == FALLBACK_CATEGORY).all()
    assert out[DOMAIN_RUNNER_UP].iloc[0] == plain[DOMAIN_CATEGORY].iloc[0]
    assert not out[DOMAIN_CONFIDENT].any()
    assert any("min_confidence" in s for s in out[DOMAIN_SIGNALS].iloc[0])
    for bad in (2.0, -0.1, "high", True):
        with pytest.raises(ShotsmithError, match="min_confidence"):
            detect_domain(frame, min_confidence=bad)


# --- contract -------------------------------------------------------------------------------


def test_signal_lists_are_not_shared_between_rows():
    out = detect_domain(sample_frame())
    a, b = out[DOMAIN_SIGNALS].iloc[0], out[DOMAIN_SIGNALS].iloc[1]
    assert a == b and a is not b


def test_input_columns_index_untouched_and_input_not_mutated():
    frame = sample_frame()
    frame.index = pd.Index([f"r{i}" for i in range(len(frame))])
    frame = frame.sample(frac=1.0, random_state=3)  # rows not in store order
    before = frame.copy(deep=True)
    out = detect_domain(frame)
    pd.testing.assert_frame_equal(frame, before)
    pd.testing.assert_frame_equal(out[list(frame.columns)], before)
    assert list(out.index) == list(before.index)


def test_deterministic():
    frame = frame_of(held_out_rows())
    a, b = detect_domain(frame), detect_domain(frame.sample(frac=1.0, random_state=1))
    pd.testing.assert_frame_equal(a, b.loc[a.index])


def test_rerun_overwrites_previous_domain_columns():
    once = detect_domain(sample_frame())
    twice = detect_domain(once)
    pd.testing.assert_frame_equal(once, twice)


def test_missing_bundle_id_column_names_stage_and_column():
    frame = sample_frame().drop(columns=[BUNDLE_ID])
    with pytest.raises(MissingColumnError) as info:
        detect_domain(frame)
    message = str(info.value)
    assert "detect_domain" in message and "bundle_id" in message


def test_not_a_frame_is_a_clear_error():
    with pytest.raises(ShotsmithError):
        detect_domain([1, 2, 3])  # type: ignore[arg-type]


def test_empty_and_nan_bundle_ids():
    frame = sample_frame()
    frame[BUNDLE_ID] = frame[BUNDLE_ID].astype(object)
    frame.loc[frame[APP_ID] == "Pocket Budget", BUNDLE_ID] = ""
    frame.loc[frame[APP_ID] == "Skyline Forecast", BUNDLE_ID] = math.nan
    cats = detect_domain(frame).groupby(APP_ID)[DOMAIN_CATEGORY].first()
    assert cats["Pocket Budget"] == "Finance"
    assert cats["Skyline Forecast"] == "Weather"


def test_no_evidence_at_all_falls_back_and_says_so():
    frame = pd.DataFrame(
        {
            APP_ID: ["a", "a", "b"],
            POSITION: [0, 1, 0],
            PROJECT_NAME: [None, None, math.nan],
            BUNDLE_ID: [math.nan, None, "com.example.app"],
            SCREEN: [None, math.nan, ""],
        }
    )
    out = detect_domain(frame)
    assert (out[DOMAIN_CATEGORY] == FALLBACK_CATEGORY).all()
    assert (out[DOMAIN_CONFIDENCE] == 0.0).all()
    assert not out[DOMAIN_CONFIDENT].any()
    assert all("no evidence" in s[0] for s in out[DOMAIN_SIGNALS])


def test_empty_frame():
    frame = frame_from_apps([]).reindex(columns=[APP_ID, POSITION, PROJECT_NAME, BUNDLE_ID, SCREEN])
    out = detect_domain(frame)
    assert len(out) == 0
    assert {DOMAIN_CATEGORY, DOMAIN_CONFIDENCE, DOMAIN_SIGNALS, DOMAIN_RUNNER_UP} <= set(
        out.columns
    )


def test_duplicate_index_labels():
    frame = sample_frame()
    frame.index = [0] * len(frame)
    out = detect_domain(frame)
    assert list(out[DOMAIN_CATEGORY]) == ["Finance"] * 3 + ["Weather"] * 3


def test_nan_app_id_rows_form_their_own_set():
    frame = sample_frame()
    frame[APP_ID] = frame[APP_ID].astype(object)
    frame.loc[frame[PROJECT_NAME] == "Skyline Forecast", APP_ID] = None
    out = detect_domain(frame)
    assert out[DOMAIN_CATEGORY].notna().all()
    assert set(out[DOMAIN_CATEGORY]) == {"Finance", "Weather"}


def test_what_the_screens_are_moves_the_category_and_says_so():
    """Screens whose subjects are experiments, runs and registered models are a developer
    tool's, whatever listing words their text shares with other categories."""
    text = "Experiments\nRuns\nRegistered Models\nMetrics\nParameters\nCreated\nDuration"
    plain = Evidence(name="Orbit", screens=("experiments", "runs", "models"), text=text)
    read = Evidence(
        name="Orbit",
        screens=plain.screens,
        text=text,
        readings=(
            ("table", "Experiments", ("Name", "Created")),
            ("table", "Runs", ("Metrics", "Parameters", "Duration")),
            ("list", "Registered Models", ("Version",)),
        ),
    )
    scores = screen_scores(read)
    assert max(scores, key=lambda c: scores[c][0]) == "Developer Tools"
    before = dict(predict_domain(plain).ranking)["Developer Tools"]
    after = dict(predict_domain(read).ranking)["Developer Tools"]
    assert after > 3 * before, (before, after)


@pytest.mark.parametrize(
    ("app", "category"), [("mlflow", "Developer Tools"), ("isso", "Social Networking")]
)
def test_real_apps_filed_by_what_their_screens_are(app, category):
    """Two real apps the listing-fitted model alone filed under Business and Productivity."""
    folder = TESTS / "data" / "realapps" / app
    frame = detect_domain(ss.extract_features(ss.read_screenshots(folder), ocr=False))
    assert frame[DOMAIN_CATEGORY].iloc[0] == category
    assert any(s.startswith("screens show") for s in frame[DOMAIN_SIGNALS].iloc[0])


def test_a_conversation_screen_counts_for_social_networking():
    scores = screen_scores(Evidence(readings=(("conversation", "", ()),)))
    assert scores["Social Networking"][0] > 0
    assert "conversation screen" in scores["Social Networking"][1]
