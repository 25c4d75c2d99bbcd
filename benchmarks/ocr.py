"""OCR evidence for 10 screens: the tesseract program beside the in-process engine.

Reads the first ten bundled sample screenshots (prepared as extract_features prepares them:
grey, half size, the band below the status bar) and prints the median wall time of several
runs for each way of reading them, then the whole ``extract_features(ocr=True)`` stage (decode,
colours, OCR, evidence) on the same ten screens with each engine. The program engine is the
baseline measured in the same run; ratios below 1 are faster. Target: ≤ 0.6 s for 10 screens.

``--against REV`` measures the code of git revision REV too, the two versions taking turns
``--rounds`` times (``benchmarks/against.py``), and prints each row's ratio this tree / REV.

    .venv/bin/python benchmarks/ocr.py [--runs 7] [--against REV --rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from PIL import Image

import shotsmith as ss
from shotsmith import ocr

ROOT = Path(__file__).resolve().parents[1]


def timings(fn, runs: int) -> list[float]:
    """Wall time of ``runs`` calls of ``fn``, after one call that warms the caches."""
    fn()  # warm: models loaded, files cached
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--against", metavar="REV", help="also measure git revision REV")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each version")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.against:
        from against import compare

        compare(__file__, ["--runs", str(args.runs)], args.against, args.rounds)
        return 0
    paths = sorted((ROOT / "sample_inputs").glob("*/*.png"))[:10]
    prepared = [ocr.prepare(Image.open(p).convert("RGB").reduce(2), scale=1) for p in paths]
    program = shutil.which("tesseract")
    inprocess = ocr._inprocess_data() is not None
    print(
        f"{len(prepared)} screens; tesseract program: {program or 'missing'}; "
        f"in process (tesserocr): {'yes' if inprocess else 'missing'}"
    )
    rows: list[tuple[str, list[float]]] = []
    if program:
        rows.append(
            (
                "program, one call",
                timings(lambda: ocr.recognize(prepared, binary=program), args.runs),
            )
        )
        pool = ThreadPoolExecutor(2)
        rows.append(
            (
                "program, two calls side by side",
                timings(
                    lambda: list(
                        pool.map(
                            lambda part: ocr.recognize(part, binary=program),
                            [prepared[0::2], prepared[1::2]],
                        )
                    ),
                    args.runs,
                ),
            )
        )
    if inprocess:
        rows.append(
            (
                "in process, one thread",
                timings(lambda: ocr.recognize(prepared, binary=ocr.INPROCESS), args.runs),
            )
        )
        pool = ThreadPoolExecutor(2)
        rows.append(
            (
                "in process, two threads",
                timings(
                    lambda: list(
                        pool.map(
                            lambda part: ocr.recognize(part, binary=ocr.INPROCESS),
                            [prepared[0::2], prepared[1::2]],
                        )
                    ),
                    args.runs,
                ),
            )
        )
    frame = ss.concat_sets([ss.read_screenshots(p) for p in sorted({q.parent for q in paths})])
    frame = frame[frame["image"].astype(str).isin([str(p) for p in paths])].reset_index(drop=True)
    for engine in ("cli", "auto"):
        if engine == "cli" and not program or engine == "auto" and not inprocess:
            continue
        os.environ["SHOTSMITH_OCR_ENGINE"] = engine
        ocr._inprocess_data.cache_clear()
        label = "program" if engine == "cli" else "in process"
        rows.append(
            (
                f"extract_features(ocr=True), {label}",
                timings(lambda: ss.extract_features(frame, ocr=True), args.runs),
            )
        )
    os.environ.pop("SHOTSMITH_OCR_ENGINE", None)
    ocr._inprocess_data.cache_clear()
    if args.json:
        print(json.dumps(dict(rows)))
        return 0
    base = statistics.median(rows[0][1]) if rows else 1.0
    print(f"median of {args.runs} runs (wall time); baseline: {rows[0][0] if rows else '-'}")
    for name, times in rows:
        seconds = statistics.median(times)
        print(f"  {name:<44} {seconds * 1000:8.0f} ms   {seconds / base:5.2f} x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
