"""How fast the layout tuner answers its sliders, the way a kernel sees them: messages on one
event loop, handled in order. Reports medians of: one slider change until its previews are
drawn; and, for a fast drag (20 values 20 ms apart, as a browser sends them), the time from
the drag's last value until the previews show it, with the tuner's coalescing and without
(each value planned in turn, as a plain observer would).

    PYTHONPATH=src .venv/bin/python benchmarks/tuner_latency.py
"""

from __future__ import annotations

import asyncio
import statistics
import time
from pathlib import Path

import shotsmith as ss
from shotsmith.notebook import LayoutTuner

ROOT = Path(__file__).resolve().parents[1]
DRAG_VALUES, DRAG_GAP_S = 20, 0.02


async def one_change(tuner: LayoutTuner, value: float) -> float:
    start = time.perf_counter()
    tuner.controls["device_width"].value = value
    while tuner.pending():
        await asyncio.sleep(0.002)
    return time.perf_counter() - start


async def drag(tuner: LayoutTuner) -> float:
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


def main() -> None:
    shots = ss.read_screenshots(ROOT / "sample_inputs" / "pocket-budget")
    frame = ss.Pipeline.default(ocr=False).run(shots, until="plan_layout", progress=False).output
    tuner = LayoutTuner(frame)
    tuner.widget  # noqa: B018 - built, as in a notebook

    async def measure() -> tuple[list[float], list[float]]:
        singles = [await one_change(tuner, 0.6 + 0.01 * (i % 10)) for i in range(20)]
        drags = []
        for _ in range(5):
            await one_change(tuner, 0.9)
            drags.append(await drag(tuner))
        return singles, drags

    singles, coalesced = asyncio.run(measure())
    tuner._replan_soon = tuner.replan  # type: ignore[method-assign]  # each value in turn
    _, in_turn = asyncio.run(measure())
    print(f"one change: median {statistics.median(singles):.3f} s (of {len(singles)})")
    print(
        f"after a fast drag: median {statistics.median(coalesced):.3f} s coalesced, "
        f"{statistics.median(in_turn):.3f} s planned in turn (of {len(coalesced)} drags)"
    )


if __name__ == "__main__":
    main()
