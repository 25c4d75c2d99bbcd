"""Batch fan-out: wall time with 1 and 2 workers, and peak memory for 20 vs 100 sets.

The sets are the 4 sample apps repeated under distinct app ids (a manifest whose rows
point at the sample folders with an ``app_id`` column), so every set is a real
5-screenshot design. Each measurement runs ``shotsmith.run_batch`` in a fresh child
process into an empty output folder; this process samples the RSS of the child's whole
process tree (the child, its process pool / forkserver, every worker) every 50 ms.

    .venv/bin/python benchmarks/batch.py [--rounds 3] [--ocr off|auto] [--sets 20 --big 100]

Targets: speed-up >= 1.7x from 1 to 2 workers on 2 cores; peak memory for 100 sets not
above that for 20 (sets are streamed: a bounded window in flight, outputs on disk).
OCR is off by default: with it on, Tesseract is most of a set's time and each
tesseract process is a separate program, which the report shows with --ocr auto.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = sorted(p for p in (ROOT / "sample_inputs").iterdir() if (p / "manifest.json").exists())

CHILD = """
import json, sys, time
import shotsmith.batch as batch
manifest, out, workers, ocr = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
start = time.perf_counter()
summary = batch.run_batch(manifest, out, workers=workers, ocr=False if ocr == "off" else "auto",
                          progress=False)
wall = time.perf_counter() - start
print(json.dumps({"wall": wall, "designed": int((summary.status == "designed").sum()),
                  "failed": int((summary.status == "failed").sum())}))
"""


def write_manifest(n: int, folder: Path) -> Path:
    path = folder / f"sets-{n}.csv"
    lines = ["source,app_id"]
    for i in range(n):
        app = SAMPLES[i % len(SAMPLES)]
        lines.append(f"{app},{app.name}-{i:03d}")
    path.write_text("\n".join(lines) + "\n")
    return path


def tree_memory(proc: psutil.Process) -> tuple[int, int]:
    """(sum of RSS, sum of PSS) over a process and all its descendants. RSS counts pages
    shared between the processes (the forked workers share the imported libraries) once
    per process; PSS splits them, so its sum is what the tree really occupies."""
    rss = pss = 0
    try:
        procs = [proc, *proc.children(recursive=True)]
    except psutil.Error:
        return 0, 0
    for p in procs:
        try:
            info = p.memory_full_info()
            rss += info.rss
            pss += getattr(info, "pss", info.rss)
        except psutil.Error:
            pass
    return rss, pss


def _spin(n: int) -> float:
    start = time.perf_counter()
    s = 0
    for i in range(n):
        s += i * i
    return time.perf_counter() - start


def machine_scaling(n: int = 6_000_000) -> float:
    """How much faster two processes get through two CPU-bound loops than one process:
    2.0 on two free cores, less when the cores are shared (a busy VM host)."""
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(2) as pool:
        list(pool.map(_spin, [1000, 1000]))
        start = time.perf_counter()
        _spin(n)
        _spin(n)
        one = time.perf_counter() - start
        start = time.perf_counter()
        list(pool.map(_spin, [n, n]))
        two = time.perf_counter() - start
    return one / two


def measure(manifest: Path, workers: int, ocr: str, sample_memory: bool = False) -> dict:
    """One run in a fresh child process: wall time (inside the child) and, with
    ``sample_memory``, the peak memory of its process tree. Timed runs do not sample:
    reading every process's smaps 20 times a second takes CPU from the workers, and on
    two cores that is CPU the 2-worker run needed."""
    with tempfile.TemporaryDirectory(prefix="shotsmith-bench-") as out:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(manifest), out, str(workers), ocr],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        proc = psutil.Process(child.pid)
        peak, peak_pss, samples = 0, 0, []
        stop = threading.Event()

        def sample() -> None:
            nonlocal peak, peak_pss
            while not stop.is_set():
                rss, pss = tree_memory(proc)
                peak, peak_pss = max(peak, rss), max(peak_pss, pss)
                samples.append((rss, pss))
                stop.wait(0.05)

        sampler = threading.Thread(target=sample, daemon=True)
        if sample_memory:
            sampler.start()
        stdout, stderr = child.communicate()
        stop.set()
        if sample_memory:
            sampler.join()
        if child.returncode != 0:
            raise SystemExit(f"batch run failed ({child.returncode}):\n{stderr[-2000:]}")
        result = json.loads(stdout.strip().splitlines()[-1])
        if not sample_memory:
            return result
        # the peak in each fifth of the run: flat when nothing accumulates
        fifths = [
            samples[i * len(samples) // 5 : (i + 1) * len(samples) // 5] or [(0, 0)]
            for i in range(5)
        ]
        result.update(
            peak_mb=peak / 2**20,
            peak_pss_mb=peak_pss / 2**20,
            samples=len(samples),
            fifths_mb=[max(r for r, _ in f) / 2**20 for f in fifths],
            fifths_pss_mb=[max(q for _, q in f) / 2**20 for f in fifths],
        )
        return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds for the wall times")
    parser.add_argument("--sets", type=int, default=20)
    parser.add_argument("--big", type=int, default=100, help="sets for the memory comparison")
    parser.add_argument("--ocr", choices=["off", "auto"], default="off")
    parser.add_argument("--skip-memory", action="store_true")
    args = parser.parse_args()

    print(
        f"machine: {os.cpu_count()} cores, load average "
        f"{', '.join(f'{v:.1f}' for v in os.getloadavg())}; OCR {args.ocr}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        small = write_manifest(args.sets, Path(tmp))
        measure(write_manifest(2, Path(tmp)), 2, args.ocr)  # warm the page cache and fonts
        walls: dict[int, list[float]] = {1: [], 2: []}
        scaling: list[float] = []
        for _ in range(args.rounds):
            scaling.append(machine_scaling())
            for workers in (1, 2):
                r = measure(small, workers, args.ocr)
                assert r["designed"] == args.sets, r
                walls[workers].append(r["wall"])
        w1, w2 = statistics.median(walls[1]), statistics.median(walls[2])
        print(f"{args.sets} sets x 5 screenshots, median of {args.rounds} rounds:")
        print(
            f"  1 worker : {w1:6.2f} s  ({w1 / args.sets:.2f} s/set)   "
            f"runs {', '.join(f'{v:.1f}' for v in walls[1])}"
        )
        print(
            f"  2 workers: {w2:6.2f} s  ({w2 / args.sets:.2f} s/set)   "
            f"runs {', '.join(f'{v:.1f}' for v in walls[2])}"
        )
        print(f"  speed-up : {w1 / w2:.2f}x   (target >= 1.7x)")
        s = statistics.median(scaling)
        print(
            f"  the machine itself: two CPU-bound processes run {s:.2f}x as fast as one "
            f"(runs {', '.join(f'{v:.2f}' for v in scaling)}; 2.00 = two free cores), so the "
            f"batch reaches {w1 / w2 / s:.0%} of what the cores allow"
        )
        if args.skip_memory:
            return 0
        peaks, pss = [], []
        for _ in range(args.rounds):
            r = measure(small, 2, args.ocr, sample_memory=True)
            peaks.append(r["peak_mb"])
            pss.append(r["peak_pss_mb"])
        big = write_manifest(args.big, Path(tmp))
        r_big = measure(big, 2, args.ocr, sample_memory=True)
        assert r_big["designed"] == args.big, r_big
        p_small, q_small = statistics.median(peaks), statistics.median(pss)
        print("peak memory of the whole process tree, 2 workers (sampled every 50 ms, in runs")
        print("of their own: the sampling costs CPU, so the timed runs above do not sample):")
        print(
            f"  {args.sets:4d} sets: RSS {p_small:7.1f} MB, PSS {q_small:7.1f} MB "
            f"(median of {args.rounds})"
        )
        print(
            f"  {args.big:4d} sets: RSS {r_big['peak_mb']:7.1f} MB, PSS "
            f"{r_big['peak_pss_mb']:7.1f} MB ({r_big['wall']:.1f} s, "
            f"{r_big['wall'] / args.big:.2f} s/set)"
        )
        print(
            f"  ratio    : RSS {r_big['peak_mb'] / p_small:.2f}, PSS "
            f"{r_big['peak_pss_mb'] / q_small:.2f}   (target: ~1.0, not growing)"
        )
        print(
            f"  {args.big} sets, peak in each fifth of the run: RSS "
            + " / ".join(f"{v:.0f}" for v in r_big["fifths_mb"])
            + " MB; PSS "
            + " / ".join(f"{v:.0f}" for v in r_big["fifths_pss_mb"])
            + " MB"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
