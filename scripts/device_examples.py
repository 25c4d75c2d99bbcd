#!/usr/bin/env python3
"""Android and iPad examples: raw screenshots from Chromium, designed by ``shotsmith design``.

A sample web app (``sample_inputs/webapps/<app>``) is opened in Debian's Chromium at a
Pixel 9's viewport (360x808 CSS px at 3x: 1080x2424 px, with an Android status bar) and
at a 12.9" iPad Pro's (1024x1366 at 2x: 2048x2732 px, with an iPad status bar), exactly
the raw screenshots a user brings from an emulator or a simulator. Each folder is then
designed with the CLI alone, no device or size given: the device follows the
screenshots (a Pixel frame at a Google Play size, an iPad frame at 13"). The first
three slides of each set go side by side into ``docs/images/`` for the README.

Usage::

    .venv/bin/python scripts/device_examples.py [--work DIR] [--app stepstreak]
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

from shotsmith.stages.capture import CHROMIUM_ARGS
from shotsmith.statusbar import StatusBarStyle, draw_status_bar

ROOT = Path(__file__).resolve().parent.parent
WEBAPPS = ROOT / "sample_inputs" / "webapps"
IMAGES = ROOT / "docs" / "images"
CHROMIUM = os.environ.get("SHOTSMITH_CHROMIUM", "/usr/bin/chromium")
PAGES = {
    "stepstreak": ["index.html", "workouts.html", "session.html", "streaks.html", "profile.html"],
    "wanderly": ["index.html", "destination.html", "itinerary.html", "bookings.html", "map.html"],
    "tasklane": ["index.html", "today.html", "projects.html", "board.html", "settings.html"],
    "pocket-budget": [
        "index.html",
        "budgets.html",
        "transactions.html",
        "reports.html",
        "goals.html",
    ],
}
NAMES = {
    "stepstreak": "StepStreak",
    "wanderly": "Wanderly",
    "tasklane": "Tasklane",
    "pocket-budget": "Pocket Budget",
}
# name, CSS viewport, scale, status bar (inset in points)
DEVICES = {
    "android": ((360, 808), 3, StatusBarStyle("android", 3, 36)),
    "ipad": ((1024, 1366), 2, StatusBarStyle("ios", 2, 24, tablet=True)),
}


def raw_screenshots(app: str, work: Path) -> dict[str, Path]:
    """Chromium screenshots of every page of ``app`` per device: {device: folder}."""
    folders = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name, ((width, height), scale, bar) in DEVICES.items():
            folder = work / f"{app}-{name}"
            folder.mkdir(parents=True, exist_ok=True)
            context = browser.new_context(
                viewport={"width": width, "height": height},
                device_scale_factor=scale,
                is_mobile=True,
                has_touch=True,
            )
            page = context.new_page()
            for n, html in enumerate(PAGES[app], start=1):
                page.goto((WEBAPPS / app / html).as_uri(), wait_until="load")
                page.evaluate("document.fonts.ready.then(() => true)")
                shot = Image.open(io.BytesIO(page.screenshot(type="png"))).convert("RGB")
                assert shot.size == (width * scale, height * scale), shot.size
                stem = "home" if html == "index.html" else html.removesuffix(".html")
                draw_status_bar(shot, bar).save(folder / f"{n:02d}_{stem}.png")
            context.close()
            folders[name] = folder
        browser.close()
    return folders


def strip(paths: list[Path], height: int = 640) -> Image.Image:
    """Slides side by side at one height, on white, for the README."""
    thumbs = []
    for path in paths:
        with Image.open(path) as im:
            thumbs.append(im.resize((round(im.width * height / im.height), height), Image.LANCZOS))
    gap = 24
    out = Image.new(
        "RGB", (sum(t.width for t in thumbs) + gap * (len(thumbs) + 1), height + 2 * gap)
    )
    out.paste((255, 255, 255), (0, 0, *out.size))
    x = gap
    for t in thumbs:
        out.paste(t, (x, gap))
        x += t.width + gap
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--work", type=Path, default=None, help="where raws and outputs go")
    parser.add_argument("--app", default="stepstreak", choices=sorted(PAGES))
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="shotsmith-devices-"))
    folders = raw_screenshots(args.app, work)
    shotsmith = Path(sys.executable).with_name("shotsmith")
    for name, folder in folders.items():
        out = work / f"out-{name}"
        name_args = ["--project-name", NAMES[args.app]]
        subprocess.run(
            [str(shotsmith), "design", str(folder), "--out", str(out), *name_args], check=True
        )
        slides = sorted(next(out.glob("*/design.json")).parent.glob("0*.png"))
        IMAGES.mkdir(parents=True, exist_ok=True)
        strip(slides[:3]).save(IMAGES / f"{args.app}-{name}.png", optimize=True)
        print(f"{name}: raws in {folder}, set in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
