"""The category from what the screens are: detect_domain on real apps' screenshots.

    python benchmarks/category_screens.py [--ocr-only] [--both] [--verbose] [--cache DIR]

For every folder of raw screenshots (``tests/data/realapps/<app>/`` and the bundled
``sample_inputs/<app>/``), runs read_screenshots -> extract_features -> detect_domain as
``shotsmith design`` does, and compares the set's ``domain_category`` with the category a
person chose for that app, written down before any of this was measured
(``tests/data/copy_purposes/<app>.json``, "category").

``--ocr-only`` reads the PNGs alone (copied to a temporary folder without manifest.json,
the project name passed as ``--project-name`` would): what ``shotsmith design`` does on a
folder of screenshots someone else took. ``--both`` prints the DOM and the OCR-only runs.

The real apps are split, once and for all, into a tuning half and a check half
(:data:`TUNING`, :data:`CHECK`: by the parity of sha256("category-split:<app>"), the larger
half for tuning). Evidence tables (``data/category_screens.json``) and weights may be
chosen looking at the tuning half only; the check half is printed to see whether what was
chosen carries over to apps it was not chosen on. The samples are printed on their own.

Per app: the person's category, the predicted one, its confidence, and the evidence
(``domain_signals``); ``--verbose`` adds each screen's kind and subject as
extract_features read them. ``--cache DIR`` keeps extract_features' output per folder
(a pickle), so that runs that change only detect_domain skip the screen reading.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

import shotsmith as ss
from shotsmith.columns import (
    DOMAIN_CATEGORY,
    DOMAIN_CONFIDENCE,
    DOMAIN_SIGNALS,
    FEATURES_KIND,
    FEATURES_SUBJECT,
    POSITION,
    SCREEN,
)

ROOT = Path(__file__).resolve().parents[1]
REALAPPS = ROOT / "tests/data/realapps"
SAMPLES = ROOT / "sample_inputs"
PURPOSES = ROOT / "tests/data/copy_purposes"

#: Fixed before any evidence was tuned: sha256("category-split:<app>") odd (the larger half).
TUNING = (
    "actual",
    "calibre",
    "esphome",
    "excalidraw",
    "feeds",
    "fittrackee",
    "isso",
    "lute",
    "mlflow",
    "syncthing",
    "transmission",
    "verdaccio",
)
#: sha256("category-split:<app>") even: never looked at while choosing evidence or weights.
CHECK = (
    "buku",
    "ihatemoney",
    "kiwix",
    "maloja",
    "mopidy",
    "optuna",
    "radicale",
    "tiddlywiki",
    "wagtail",
)


def person_category(app: str) -> str:
    data = json.loads((PURPOSES / f"{app}.json").read_text(encoding="utf-8"))
    return str(data["category"])


def folders() -> dict[str, list[Path]]:
    real = sorted(p for p in REALAPPS.iterdir() if (p / "manifest.json").is_file())
    samples = sorted(
        p for p in SAMPLES.iterdir() if p.is_dir() and (PURPOSES / f"{p.name}.json").is_file()
    )
    return {"realapps": real, "samples": samples}


def read_features(folder: Path, ocr_only: bool, cache: Path | None) -> pd.DataFrame:
    """read_screenshots -> extract_features, as ``shotsmith design`` runs them."""
    name = f"{folder.parent.name}-{folder.name}-{'ocr' if ocr_only else 'dom'}.pkl"
    key = cache / name if cache is not None else None
    if key is not None and key.is_file():
        return pd.read_pickle(key)
    if ocr_only:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        project = str(manifest.get("project_name") or folder.name.replace("-", " ").title())
        with tempfile.TemporaryDirectory(prefix="category-screens-") as tmp:
            bare = Path(tmp) / folder.name
            bare.mkdir()
            for png in sorted(folder.glob("*.png")):
                shutil.copy(png, bare / png.name)
            frame = ss.extract_features(ss.read_screenshots(str(bare), project_name=project))
    else:
        frame = ss.extract_features(ss.read_screenshots(str(folder)))
    if key is not None:
        key.parent.mkdir(parents=True, exist_ok=True)
        frame.to_pickle(key)
    return frame


def run(ocr_only: bool, verbose: bool, cache: Path | None) -> dict[str, bool]:
    label = "OCR only (PNGs alone)" if ocr_only else "DOM (manifest.json)"
    print(f"\n=== {label} ===")
    right: dict[str, bool] = {}
    spent = 0.0
    ss.detect_domain(read_features(folders()["samples"][0], ocr_only, cache).copy())  # loads
    for corpus, paths in folders().items():
        for folder in paths:
            frame = read_features(folder, ocr_only, cache)
            start = time.perf_counter()
            out = ss.detect_domain(frame.copy()).sort_values(POSITION)
            spent += time.perf_counter() - start
            got = str(out[DOMAIN_CATEGORY].iloc[0])
            want = person_category(folder.name)
            ok = got == want
            right[folder.name] = ok
            half = (
                "tuning" if folder.name in TUNING else "check" if folder.name in CHECK else corpus
            )
            mark = "ok  " if ok else "MISS"
            print(
                f"{mark} {folder.name:13s} [{half:7s}] person {want:18s} got {got:18s} "
                f"{float(out[DOMAIN_CONFIDENCE].iloc[0]):.2f}"
            )
            for signal in list(out[DOMAIN_SIGNALS].iloc[0])[: 4 if not verbose else 8]:
                print(f"       {signal}")
            if verbose:
                for _, row in out.iterrows():
                    print(
                        f"         {row[SCREEN]!s:22s} kind {row.get(FEATURES_KIND)!s:13s} "
                        f"subject {row.get(FEATURES_SUBJECT)!r}"
                    )
    print(f"\n{label}:")
    for name, members in (
        ("tuning half", TUNING),
        ("check half", CHECK),
        ("all real apps", TUNING + CHECK),
        ("samples", tuple(p.name for p in folders()["samples"])),
    ):
        hits = sum(right.get(m, False) for m in members)
        print(f"  {name:14s} {hits:2d}/{len(members):2d} {hits / len(members):.0%}")
    hits = sum(right.values())
    print(f"  {'everything':14s} {hits:2d}/{len(right):2d} {hits / len(right):.0%}")
    print(f"  detect_domain: {spent * 1000:.0f} ms over {len(right)} sets")
    return right


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ocr-only", action="store_true", help="PNGs alone, no manifest")
    parser.add_argument("--both", action="store_true", help="DOM and OCR-only runs")
    parser.add_argument("--verbose", action="store_true", help="each screen's kind and subject")
    parser.add_argument("--cache", type=Path, help="keep extract_features' output here")
    args = parser.parse_args(argv)
    modes = (False, True) if args.both else (args.ocr_only,)
    for ocr_only in modes:
        run(ocr_only, args.verbose, args.cache)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
