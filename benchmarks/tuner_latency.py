"""How fast the layout tuner answers its sliders, the way a kernel sees them: messages on one
event loop, handled in order. Reports medians of: one slider change until its previews are
drawn (device width, then headline size; each value one the tuner has not planned before),
and how much of it ``plan_layout`` takes; and, for a fast drag (20 values 20 ms apart, as a
browser sends them), the time from the drag's last value until the previews show it, with
the tuner's coalescing and without (each value planned in turn, as a plain observer would).

``--against REV`` measures the code of git revision ``REV`` in the same run: both versions
take turns, ``--rounds`` times each (each in a fresh process), so a busy machine slows both
alike; the medians are over every round, and the ratios are this tree's over REV's.

    PYTHONPATH=src .venv/bin/python benchmarks/tuner_latency.py [--against HEAD~3 --rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DRAG_VALUES, DRAG_GAP_S = 20, 0.02
CHANGES = 20


def measure() -> dict[str, list[float]]:
    """Every sample of one run of the tuner on the Pocket Budget set, in seconds."""
    import shotsmith as ss
    from shotsmith.notebook import LayoutTuner
    from shotsmith.notebook import tuner as tuner_module

    planned: list[float] = []
    plan_layout = tuner_module.plan_layout

    def timed_plan(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return plan_layout(*args, **kwargs)
        finally:
            planned.append(time.perf_counter() - start)

    tuner_module.plan_layout = timed_plan  # type: ignore[attr-defined]
    shots = ss.read_screenshots(ROOT / "sample_inputs" / "pocket-budget")
    frame = ss.Pipeline.default(ocr=False).run(shots, until="plan_layout", progress=False).output
    tuner = LayoutTuner(frame)
    tuner.widget  # noqa: B018 - built, as in a notebook

    async def one_change(control: str, value: float) -> float:
        start = time.perf_counter()
        tuner.controls[control].value = value
        while tuner.pending():
            await asyncio.sleep(0.002)
        return time.perf_counter() - start

    async def drag() -> float:
        loop = asyncio.get_running_loop()
        slider = tuner.controls["device_width"]
        start = loop.time()
        for i in range(DRAG_VALUES):
            loop.call_at(start + i * DRAG_GAP_S, setattr, slider, "value", 0.5 + 0.02 * i)
        last = start + (DRAG_VALUES - 1) * DRAG_GAP_S
        await asyncio.sleep(max(0.0, last - loop.time()) + 0.001)
        while tuner.pending():
            await asyncio.sleep(0.002)
        return loop.time() - last

    async def changes(control: str, values: list[float]) -> tuple[list[float], list[float]]:
        planned.clear()
        waits = [await one_change(control, value) for value in values]
        return waits, list(planned)

    async def drags() -> list[float]:
        found = []
        for _ in range(5):
            await one_change("device_width", 0.9)
            found.append(await drag())
        return found

    # values on each slider's own steps, none of them planned before
    width, width_plan = asyncio.run(
        changes("device_width", [0.41 + 0.02 * i for i in range(CHANGES)])
    )
    head, head_plan = asyncio.run(
        changes("headline_size", [0.05 + 0.003 * i for i in range(CHANGES)])
    )
    coalesced = asyncio.run(drags())
    tuner._replan_soon = tuner.replan  # type: ignore[method-assign]  # each value in turn
    in_turn = asyncio.run(drags())
    return {
        "device width: one change": width,
        "device width: plan_layout": width_plan,
        "headline size: one change": head,
        "headline size: plan_layout": head_plan,
        "fast drag, coalesced": coalesced,
        "fast drag, planned in turn": in_turn,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", metavar="REV", help="also measure git revision REV")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each version")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.json:
        print(json.dumps(measure()))
        return 0
    if not args.against:
        for name, samples in measure().items():
            print(f"{name:<28} median {statistics.median(samples):6.3f} s (of {len(samples)})")
        return 0
    from against import compare

    compare(__file__, [], args.against, args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
