"""Accuracy of detect_domain: train-CV, the frozen test halves, the dev list, per category.

    python benchmarks/domain_accuracy.py [--cv] [--repeat N]

Prints, for the labelled lists tests/data/domain_apps.csv and tests/data/domain_apps_2.csv:

* train-CV accuracy: recorded by scripts/fit_domain_model.py when the model was fitted
  (``--cv`` recomputes it: ~5-15 minutes on 2 cores);
* the accuracy on each list's test half of the model fitted on the train halves alone
  (tests/data/domain_model_train_half.json.gz), through detect_domain itself, for four
  views: everything, no visible text (name, bundle id, screens), no name (screens, text),
  and generic screen names (name and bundle id, the screens called home, search, profile,
  settings: a folder of screenshots named by their place in the app);
* accuracy on tests/data/domains_dev.csv (names, bundle ids, screens; no text), with the
  train-half model and with the shipped model;
* the shipped model on the apps it was fitted on with generic screen names: whether a
  known app is still known when its screenshots are called home, search, profile;
* per-category recall on the test halves and the confusions of the worst categories;
* the time detect_domain takes on the test half (median of ``--repeat`` runs, default 5),
  against a baseline measured in the same run: featurising alone.

Nothing printed here is used to choose features, weights or thresholds.
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import pandas as pd

from shotsmith.columns import (
    APP_ID,
    BUNDLE_ID,
    DOMAIN_CATEGORY,
    DOMAIN_CONFIDENCE,
    DOMAIN_CONFIDENT,
    POSITION,
    PROJECT_NAME,
    SCREEN,
    SCREEN_TEXT,
)
from shotsmith.stages.domain import detect_domain, predict
from shotsmith.stages.domain.evidence import Evidence, featurize
from shotsmith.stages.domain.model import build_model, load_model
from shotsmith.stages.domain.tokens import featurizer_config

ROOT = Path(__file__).resolve().parents[1]
#: Screen names that say nothing about an app: the "generic" view.
GENERIC_SCREENS = ("home", "search", "profile", "settings")
VIEWS = ("full", "no_text", "no_name", "generic")


def load_fitter():
    """scripts/fit_domain_model.py as a module (its list loaders and CV code)."""
    spec = importlib.util.spec_from_file_location(
        "fit_domain_model", ROOT / "scripts" / "fit_domain_model.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def evidence_of(app, view: str):
    if view == "generic":
        return Evidence(name=app.name, bundle_id=app.bundle_id, screens=GENERIC_SCREENS)
    return app.evidence(view)


def frame_of(apps, view: str = "full") -> pd.DataFrame:
    """One row per screen, the visible text on the first screen of each set."""
    rows = []
    for app in apps:
        evidence = evidence_of(app, view)
        screens = evidence.screens or ("",)
        for i, screen in enumerate(screens):
            rows.append(
                {
                    APP_ID: app.name,
                    POSITION: i,
                    PROJECT_NAME: evidence.name,
                    BUNDLE_ID: evidence.bundle_id,
                    SCREEN: screen,
                    SCREEN_TEXT: evidence.text if i == 0 else "",
                }
            )
    return pd.DataFrame(rows)


def predictions(apps, view: str = "full") -> pd.DataFrame:
    out = detect_domain(frame_of(apps, view))
    per_set = out.groupby(APP_ID, sort=False).first()
    return per_set.loc[[a.name for a in apps]]


def accuracy(apps, per_set: pd.DataFrame) -> float:
    truth = [a.category for a in apps]
    return sum(t == p for t, p in zip(truth, per_set[DOMAIN_CATEGORY])) / len(apps)


def use_model(path: Path) -> None:
    """Make detect_domain use the model at ``path`` (the train-half model) for a while."""
    raw = json.loads(gzip.decompress(path.read_bytes()).decode("utf-8"))
    model = build_model(raw)
    predict.load_model = lambda: model  # type: ignore[assignment]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cv", action="store_true", help="recompute train-CV accuracy")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    fit = load_fitter()
    lists = {path.name: fit.load_apps(path) for path in fit.FROZEN_LISTS}
    extra = fit.load_extra()
    tests = {name: [a for a in apps if a.split == "test"] for name, apps in lists.items()}
    test = [a for members in tests.values() for a in members]
    dev = fit.load_dev()
    shipped = load_model()
    prov = shipped.provenance
    for name, apps in lists.items():
        print(
            f"{name}: {len(apps)} apps, {len(apps) - len(tests[name])} train, "
            f"{len(tests[name])} test"
        )
    print(f"hyper-parameters (chosen by train-CV): {prov['hyper_parameters']}")
    print(
        "train-CV accuracy (recorded at fit time): "
        + ", ".join(f"{k} {v:.1%}" for k, v in prov["train_cv_accuracy"].items())
    )
    if args.cv:
        subprocess_args = [sys.executable, str(ROOT / "scripts" / "fit_domain_model.py")]
        print("recomputing train-CV:", " ".join(subprocess_args + ["--cv-only"]))
        import subprocess

        subprocess.run([*subprocess_args, "--cv-only"], check=True)

    original = predict.load_model
    use_model(ROOT / "tests" / "data" / "domain_model_train_half.json.gz")
    try:
        full_parts = []  # the full view of each test half, for the figures below
        for name, members in tests.items():
            for view in VIEWS:
                per_set = predictions(members, view)
                if view == "full":
                    full_parts.append(per_set)
                print(
                    f"test half of {name}, train-half model, view {view:8s}: "
                    f"{accuracy(members, per_set):.1%} of {len(members)}"
                )
        dev_half = predictions(dev)
        print(
            f"dev list ({len(dev)} apps, no text), train-half model: {accuracy(dev, dev_half):.1%}"
        )
    finally:
        predict.load_model = original
    dev_shipped = predictions(dev)
    print(f"dev list, shipped model: {accuracy(dev, dev_shipped):.1%}")
    known = [a for apps in lists.values() for a in apps] + extra
    print(
        f"shipped model on the {len(known)} apps it was fitted on, generic screen names: "
        f"{accuracy(known, predictions(known, 'generic')):.1%}"
    )

    full = pd.concat(full_parts)
    confident = full[DOMAIN_CONFIDENT]
    right = pd.Series([a.category for a in test], index=full.index) == full[DOMAIN_CATEGORY]
    print(
        f"test halves, full view: {confident.mean():.0%} of sets confident, "
        f"{right[confident].mean():.1%} of those right; "
        f"{right[~confident].mean():.1%} right below the threshold"
        if (~confident).any()
        else ""
    )
    print(f"median confidence {full[DOMAIN_CONFIDENCE].median():.2f}")

    recall = Counter()
    total = Counter()
    confusion = Counter()
    for app, got in zip(test, full[DOMAIN_CATEGORY]):
        total[app.category] += 1
        recall[app.category] += got == app.category
        if got != app.category:
            confusion[(app.category, got)] += 1
    print("\nper-category recall on the test halves (full view):")
    ranked = sorted(total, key=lambda c: (recall[c] / total[c], c))
    for category in ranked:
        print(
            f"  {category:24s} {recall[category]:2d}/{total[category]:2d} "
            f"{recall[category] / total[category]:.0%}"
        )
    print("\nconfusions of the five worst categories (expected -> got):")
    for category in ranked[:5]:
        wrong = [(got, n) for (want, got), n in confusion.most_common() if want == category]
        print(f"  {category}: " + (", ".join(f"{g} x{n}" for g, n in wrong) or "none"))

    frame = frame_of(test)
    one = frame[frame[APP_ID] == frame[APP_ID].iloc[0]]
    cold = []
    for _ in range(args.repeat):  # first call of a process: model and settings not loaded
        load_model.cache_clear()
        featurizer_config.cache_clear()
        start = time.perf_counter()
        detect_domain(one)
        cold.append(time.perf_counter() - start)
    size = (ROOT / "src" / "shotsmith" / "data" / "domain_model.json.gz").stat().st_size
    print(
        f"\nfirst call (loads the {size / 1024:.0f} KiB model, one set of {len(one)} rows): "
        f"{statistics.median(cold) * 1000:.0f} ms median of {args.repeat}"
    )
    detect_domain(frame)  # warm the model cache
    times, base = [], []
    for _ in range(args.repeat):
        start = time.perf_counter()
        detect_domain(frame)
        times.append(time.perf_counter() - start)
        start = time.perf_counter()
        for app in test:
            featurize(app.evidence("full"), shipped.params)
        base.append(time.perf_counter() - start)
    t, b = statistics.median(times), statistics.median(base)
    print(
        f"\ndetect_domain on {len(test)} sets ({len(frame)} rows): {t * 1000:.0f} ms median of "
        f"{args.repeat}; featurising alone {b * 1000:.0f} ms (ratio {t / b:.2f}); "
        f"{t / len(frame) * 1e6:.0f} µs per row"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
