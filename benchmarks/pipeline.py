"""A 10-screenshot set through every stage, wall time on this machine (target <= 3 s).

The set is the 5 Pocket Budget and 5 Wanderly sample screenshots read as one app
(10 screenshots, OCR on when tesseract is installed, as by default). Prints the
median wall time over several rounds, per-stage medians, and for reference the
same set with OCR off.

    .venv/bin/python benchmarks/pipeline.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import shotsmith as ss  # noqa: E402


def ten_screenshots():
    paths = sorted((ROOT / "sample_inputs" / "pocket-budget").glob("*.png"))
    paths += sorted((ROOT / "sample_inputs" / "wanderly").glob("*.png"))
    return ss.read_screenshots(
        paths[:10], project_name="Pocket Budget", bundle_id="com.example.pocketbudget"
    )


def measure(frame, rounds: int, ocr) -> tuple[float, dict[str, float]]:
    walls, stages = [], {}
    with tempfile.TemporaryDirectory() as out:
        for _ in range(rounds):
            start = time.perf_counter()
            run = ss.Pipeline.default(out_dir=out, ocr=ocr).run(frame)
            walls.append(time.perf_counter() - start)
            for name, secs in run.timings.items():
                stages.setdefault(name, []).append(secs)
    return statistics.median(walls), {k: statistics.median(v) for k, v in stages.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    frame = ten_screenshots()
    measure(frame.head(2), 1, "auto")  # warm imports, fonts and the OCR binary's page cache
    for label, ocr in (("default (OCR auto)", "auto"), ("OCR off", False)):
        wall, stages = measure(frame, args.rounds, ocr)
        print(
            f"10-screenshot set, {label}: median wall {wall:.2f} s over {args.rounds} rounds"
            f"   (target <= 3 s)"
        )
        for name, secs in stages.items():
            print(f"    {name:18s} {secs * 1000:8.0f} ms")
        words = sum(stages.get(n, 0.0) for n in ("extract_features", "detect_domain", "write_copy"))
        print(
            f"    reading to copy (extract_features + detect_domain + write_copy): "
            f"{words * 1000:.0f} ms   (target <= 900 ms)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
