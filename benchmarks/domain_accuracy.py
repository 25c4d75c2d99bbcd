"""Accuracy of detect_domain on the shared labelled dev file, with its confusions.

    python benchmarks/domain_accuracy.py [path/to/domains_dev.csv] [--all]

Prints the accuracy, the time taken, every misclassified app with its top-2 scores and
signals, and (with --all) every app. The CSV has columns project_name, bundle_id, screens
(separated by ';') and category. Default path: $SHOTSMITH_DOMAINS_CSV, else the labelled
dev file kept in tests/data/domains_dev.csv.
"""

from __future__ import annotations

import os
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
    DOMAIN_SIGNALS,
    POSITION,
    PROJECT_NAME,
    SCREEN,
)
from shotsmith.stages.domain import detect_domain, score_domains


def default_csv() -> Path:
    env = os.environ.get("SHOTSMITH_DOMAINS_CSV")
    return Path(env) if env else Path(__file__).resolve().parents[1] / "tests/data/domains_dev.csv"


def frame_from_csv(apps: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for app in apps.itertuples(index=False):
        for i, screen in enumerate(s.strip() for s in app.screens.split(";")):
            rows.append(
                {
                    APP_ID: app.project_name,
                    POSITION: i,
                    PROJECT_NAME: app.project_name,
                    BUNDLE_ID: app.bundle_id,
                    SCREEN: screen,
                }
            )
    return pd.DataFrame(rows)


def main(argv: list[str]) -> int:
    show_all = "--all" in argv
    paths = [a for a in argv if not a.startswith("--")]
    path = Path(paths[0]) if paths else default_csv()
    apps = pd.read_csv(path, dtype=str, keep_default_na=False)
    frame = frame_from_csv(apps)

    start = time.perf_counter()
    out = detect_domain(frame)
    elapsed = time.perf_counter() - start
    per_set = out.groupby(APP_ID, sort=False).first()

    wrong = []
    for app in apps.itertuples(index=False):
        got = per_set.loc[app.project_name]
        if show_all or got[DOMAIN_CATEGORY] != app.category:
            wrong.append((app, got))
    n_wrong = sum(1 for app, got in wrong if got[DOMAIN_CATEGORY] != app.category)
    print(
        f"{path}: {len(apps) - n_wrong}/{len(apps)} correct = "
        f"{(len(apps) - n_wrong) / len(apps):.1%}  ({elapsed * 1000:.0f} ms for "
        f"{len(frame)} rows)"
    )
    conf = per_set[DOMAIN_CONFIDENCE]
    print(f"confidence: median {conf.median():.2f}, min {conf.min():.2f}")

    confusion = Counter(
        (app.category, got[DOMAIN_CATEGORY])
        for app, got in wrong
        if got[DOMAIN_CATEGORY] != app.category
    )
    if confusion:
        print("\nconfusions (expected -> got):")
        for (expected, got), count in confusion.most_common():
            print(f"  {expected} -> {got}: {count}")

    for app, got in wrong:
        mark = "ok " if got[DOMAIN_CATEGORY] == app.category else "BAD"
        top2 = score_domains(app.project_name, app.bundle_id, app.screens)[:2]
        print(f"\n{mark} {app.project_name} ({app.bundle_id}; {app.screens})")
        print(
            f"    expected {app.category}, got {got[DOMAIN_CATEGORY]} "
            f"(confidence {got[DOMAIN_CONFIDENCE]:.2f}); top-2: "
            + ", ".join(f"{c} {s:.1f}" for c, s in top2)
        )
        for signal in got[DOMAIN_SIGNALS]:
            print(f"      - {signal}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
