"""A 10-screenshot set through every stage, wall time on this machine (target <= 3 s).

The set is the 5 Pocket Budget and 5 Wanderly sample screenshots read as one app
(10 screenshots, OCR on when tesseract is installed, as by default). Prints the
median wall time over several rounds, per-stage medians, and for reference the
same set with OCR off; then the reading to copy (extract_features + detect_domain +
write_copy, OCR included) on its own: median wall time and CPU time (every thread, and
the tesseract program when that is the engine), against a target of 0.9 s.

``--against REV`` measures the reading to copy of git revision REV too, the two versions
taking turns ``--rounds`` times, each in a fresh process (``benchmarks/against.py``), so
a machine busy with other work slows both alike; it prints each figure's ratio this
tree / REV.

    .venv/bin/python benchmarks/pipeline.py [--rounds 5] [--against main]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if "PYTHONPATH" not in os.environ:  # --against runs another revision's src through it
    sys.path.insert(0, str(ROOT / "src"))

import shotsmith as ss  # noqa: E402

#: The reading to copy of 10 screenshots, OCR included, should take at most this (s).
TARGET_S = 0.9


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


def _cpu() -> float:
    """CPU seconds used so far by this process (all its threads) and its finished children."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def reading_to_copy(frame, rounds: int) -> dict[str, list[float]]:
    """Wall and CPU seconds of extract_features + detect_domain + write_copy, per round."""
    ss.write_copy(ss.detect_domain(ss.extract_features(frame)))  # warm: imports, OCR model
    walls, cpus = [], []
    for _ in range(rounds):
        wall, cpu = time.perf_counter(), _cpu()
        ss.write_copy(ss.detect_domain(ss.extract_features(frame)))
        walls.append(time.perf_counter() - wall)
        cpus.append(_cpu() - cpu)
    return {"reading to copy, wall": walls, "reading to copy, CPU": cpus}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--against", metavar="REV", help="also measure git revision REV")
    parser.add_argument("--runs", type=int, default=5, help="reading-to-copy runs per process")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json:
        print(json.dumps(reading_to_copy(ten_screenshots(), args.runs)))
        return 0
    if args.against:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from against import compare

        compare(__file__, ["--runs", str(args.runs)], args.against, args.rounds)
        print(f"target: reading to copy <= {TARGET_S} s")
        return 0
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
            f"{words * 1000:.0f} ms   (target <= {TARGET_S * 1000:.0f} ms)"
        )
    found = reading_to_copy(frame, args.rounds)
    print(f"reading to copy on its own, median of {args.rounds} rounds (OCR auto):")
    for name, values in found.items():
        print(f"    {name:24s} {statistics.median(values) * 1000:8.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
