"""Render speed per 1320x2868 store screenshot: compose and PNG encode, separately.

Prints medians over several rounds and the ratio of a whole render (compose +
encode) to a plain Pillow ``save()`` of a same-size RGB canvas, measured in the
same run on the same machine (the baseline). One core: everything runs in this
process, sequentially.

A second set is the same app as raw web screenshots without a status bar (the top inset
cut off, so the page's header sits where the Dynamic Island goes): plan_layout gives each
a status-bar band (``DeviceFrame.screen_band``) and render draws it. Its whole render and
plan_layout's time per screenshot are printed beside the plain set's.

    .venv/bin/python benchmarks/render.py [--rounds 7] [--app sample_inputs/pocket-budget]
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import shotsmith as ss  # noqa: E402
from shotsmith import columns as C  # noqa: E402
from shotsmith.png import encode_png  # noqa: E402
from shotsmith.stages.render import render_scene  # noqa: E402


def median_ms(fn, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--app", type=Path, default=ROOT / "sample_inputs" / "pocket-budget")
    args = parser.parse_args()

    frame = ss.read_screenshots(args.app)
    copied = frame.pipe(ss.detect_domain).pipe(ss.extract_features, ocr=False).pipe(ss.write_copy)
    planned = ss.plan_layout(copied)
    plan_ms = median_ms(lambda: ss.plan_layout(copied), args.rounds) / len(copied)
    rows = list(planned.itertuples(index=False))
    scenes = [(getattr(r, C.LAYOUT_SCENE), getattr(r, C.IMAGE)) for r in rows]
    w, h = scenes[0][0]["width"], scenes[0][0]["height"]
    render_scene(*scenes[0])  # warm the per-set caches (background, masks), as a set does

    def compose_all():
        return [render_scene(s, img) for s, img in scenes]

    images = compose_all()
    n = len(scenes)
    compose = median_ms(compose_all, args.rounds) / n
    encode = median_ms(lambda: [encode_png(im) for im in images], args.rounds) / n
    whole = (
        median_ms(lambda: [encode_png(render_scene(s, img)) for s, img in scenes], args.rounds) / n
    )
    canvas = Image.new("RGB", (w, h), (40, 90, 160))
    baseline = median_ms(lambda: canvas.save(io.BytesIO(), "PNG"), args.rounds)
    pillow_same = median_ms(lambda: images[0].save(io.BytesIO(), "PNG"), args.rounds)

    print(
        f"render benchmark: {n} screenshots of {args.app.name}, {w}x{h}, "
        f"median of {args.rounds} rounds, one core"
    )
    print(f"  compose                      {compose:7.1f} ms / image")
    print(f"  PNG encode (Up filter+zlib-ng) {encode:7.1f} ms / image")
    print(f"  whole render                 {whole:7.1f} ms / image   (target <= 120)")
    print(f"  baseline: Pillow save() of a same-size RGB canvas  {baseline:7.1f} ms")
    print(f"  (Pillow save() of the rendered image itself        {pillow_same:7.1f} ms)")
    print(f"  ratio whole render / baseline  {whole / baseline:5.2f}   (target <= 1.5)")

    with tempfile.TemporaryDirectory() as tmp:  # the same screens without a status bar
        raw = copied.copy()
        for i, ref in enumerate(copied[C.IMAGE]):
            shot = ss.open_image(ref)
            inset = 62 * shot.width // 402
            moved = Image.new("RGB", shot.size, shot.getpixel((0, shot.height - 1)))
            moved.paste(shot.crop((0, inset, shot.width, shot.height)), (0, 0))
            path = Path(tmp) / f"{i:02d}.png"
            moved.save(path)
            raw.loc[raw.index[i], C.IMAGE] = str(path)
        banded = ss.plan_layout(raw)
        band_plan_ms = median_ms(lambda: ss.plan_layout(raw), args.rounds) / len(raw)
        with_band = [
            (getattr(r, C.LAYOUT_SCENE), getattr(r, C.IMAGE))
            for r in banded.itertuples(index=False)
        ]
        count = sum(bool(s["device"]["screen_band"]) for s, _ in with_band)
        without = [
            ({**s, "device": {**s["device"], "screen_band": None}}, img) for s, img in with_band
        ]
        render_scene(*with_band[0])

        def whole_ms(pairs: list) -> float:
            return median_ms(
                lambda: [encode_png(render_scene(s, i)) for s, i in pairs], args.rounds
            )

        band_whole = whole_ms(with_band) / n
        band_none = whole_ms(without) / n
    print(f"  raw web screenshots without a status bar: {count} of {n} get a status-bar band")
    print(
        f"  whole render with the band     {band_whole:7.1f} ms / image   (the same screenshots "
        f"drawn without it: {band_none:5.1f} ms, ratio {band_whole / band_none:4.2f})"
    )
    print(
        f"  plan_layout (with the band check) {plan_ms:6.1f} ms / image with status bars, "
        f"{band_plan_ms:5.1f} without"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
