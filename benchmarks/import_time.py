"""How long ``import shotsmith`` takes, beside ``import pandas``, in fresh interpreters.

Each figure is the median wall time of a fresh ``python -c`` (interpreter start-up
included, measured the same way for both) over several interleaved runs; the machine is
shared, so the runs alternate and the ratio compares figures from the same minutes.
Target (docs/architecture in CONTRIBUTING.md): ``import shotsmith`` ≤ 1.3 × ``import pandas``.

    .venv/bin/python benchmarks/import_time.py [--runs 15]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

CASES = {
    "python -c pass": "pass",
    "import pandas": "import pandas",
    "import shotsmith": "import shotsmith",
    "import shotsmith; ss.design": "import shotsmith as ss; ss.design",
    "import shotsmith; ss.read_screenshots": "import shotsmith as ss; ss.read_screenshots",
}


def once(code: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args(argv)
    for code in CASES.values():  # warm the file cache first
        once(code)
    times: dict[str, list[float]] = {name: [] for name in CASES}
    for _ in range(args.runs):
        for name, code in CASES.items():
            times[name].append(once(code))
    median = {name: statistics.median(values) for name, values in times.items()}
    base = median["import pandas"]
    print(f"median of {args.runs} fresh interpreters each (wall time, start-up included)")
    for name, value in median.items():
        print(f"  {name:<40} {value * 1000:8.1f} ms   {value / base:5.2f} x import pandas")
    ratio = median["import shotsmith"] / base
    print(f"import shotsmith / import pandas = {ratio:.2f} (target <= 1.3)")
    return 0 if ratio <= 1.3 else 1


if __name__ == "__main__":
    raise SystemExit(main())
