"""How fast the layout tuner answers its sliders: the time one slider change takes to reach
new previews (median of 20), and the time from the last change of a fast drag (20 changes,
20 ms apart, as a browser sends them) until the previews show its value (median of 5 drags).

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


def main() -> None:
    shots = ss.read_screenshots(ROOT / "sample_inputs" / "pocket-budget")
    frame = ss.Pipeline.default(ocr=False).run(shots, until="plan_layout", progress=False).output
    tuner = LayoutTuner(frame)
    tuner.widget  # noqa: B018 - built, as in a notebook
    slider, preview = tuner.controls["device_width"], tuner.controls["preview"]

    single = []
    for i in range(20):
        start = time.perf_counter()
        slider.value = 0.6 + 0.01 * (i % 10)

        async def settled() -> None:
            before = preview.value
            while tuner.pending():
                await asyncio.sleep(0.005)
            assert preview.value is not None and before is not None

        asyncio.run(_until(settled)) if hasattr(tuner, "pending") else None
        single.append(time.perf_counter() - start)

    async def drag() -> float:
        for i in range(20):
            slider.value = 0.5 + 0.02 * i
            await asyncio.sleep(0.02)
        last = time.perf_counter()
        while getattr(tuner, "pending", lambda: False)():
            await asyncio.sleep(0.005)
        return time.perf_counter() - last - 0.02

    drags = []
    for _ in range(5):
        slider.value = 0.9
        drags.append(asyncio.run(drag()) + 0.02)
    print(f"one change: median {statistics.median(single):.3f} s (of {len(single)})")
    print(f"after a fast drag: median {statistics.median(drags):.3f} s (of {len(drags)})")


async def _until(check) -> None:
    await check()


if __name__ == "__main__":
    main()
