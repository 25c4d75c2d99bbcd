"""Measure this tree against a git revision in the same run (``--against REV`` of the
benchmarks that take it): REV's ``src`` is exported to a temporary folder, and the two
versions take turns, each run in a fresh process, so a machine busy with other work slows
both alike. Samples are pooled over the rounds; ratios are this tree's over REV's."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def export(rev: str, into: Path) -> Path:
    """The ``src`` folder of git revision ``rev``, written under ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", rev, "src"],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def samples(script: str, args: list[str], src: Path) -> dict[str, list[float]]:
    """One run of ``script --json ARGS`` on the code in ``src``: its samples by name."""
    out = subprocess.run(
        [sys.executable, script, "--json", *args],
        env={**os.environ, "PYTHONPATH": str(src)},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out.splitlines()[-1])


def compare(script: str, args: list[str], rev: str, rounds: int) -> None:
    """Run ``script`` on REV and on this tree in turn, ``rounds`` times, and print the
    medians and ratios."""
    ours: dict[str, list[float]] = {}
    theirs: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="shotsmith-bench-") as tmp:
        old_src = export(rev, Path(tmp))
        for _ in range(rounds):
            for found, src in ((theirs, old_src), (ours, ROOT / "src")):
                for name, values in samples(script, args, src).items():
                    found.setdefault(name, []).extend(values)
    print(f"medians over {rounds} runs of each, in turn; ratio: this tree / {rev}")
    print(f"{'':<40} {rev[:10]:>10} {'this tree':>10} {'ratio':>7}")
    for name in ours:
        before, after = statistics.median(theirs[name]), statistics.median(ours[name])
        print(f"{name:<40} {before:9.3f}s {after:9.3f}s {after / before:7.2f}")
