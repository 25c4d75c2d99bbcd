#!/usr/bin/env python3
"""Render the sample web apps in ``sample_inputs/webapps`` into raw app screenshots.

Every page of every sample app is opened in Chromium (through Playwright) at the
iPhone 16 Pro viewport (402x874 CSS px at 3x, so 1206x2622 px) and saved as
``sample_inputs/<app>/NN_<screen>.png`` (RGB, no alpha) next to a ``manifest.json``
that ``shotsmith`` reads.

Usage::

    .venv/bin/python scripts/make_samples.py            # all apps
    .venv/bin/python scripts/make_samples.py stepstreak  # just one

The script is idempotent: it overwrites its outputs and removes stale ``NN_*.png``
files it no longer produces.  It needs no network; Chromium defaults to Debian's
``/usr/bin/chromium`` (override with ``SHOTSMITH_CHROMIUM``).
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

from shotsmith.stages.capture import CHROMIUM_ARGS as CAPTURE_ARGS
from shotsmith.stages.capture import find_browser
from shotsmith.stages.capture.devices import capture_device

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_inputs"
WEBAPPS = SAMPLES / "webapps"

DEVICE = "iphone-16-pro"  # its geometry comes from the device catalogue (data/devices.json)
PHONE = capture_device(DEVICE, "6.3")
VIEWPORT = {"width": PHONE.points[0], "height": PHONE.points[1]}
SCALE = PHONE.scale
EXPECTED_SIZE = PHONE.px  # 1206x2622

CHROMIUM = find_browser(os.environ.get("SHOTSMITH_CHROMIUM"))
# capture's own switches, and glyphs drawn without hinting (as the samples always were)
CHROMIUM_ARGS = [*CAPTURE_ARGS, "--font-render-hinting=none"]

# Store order: (html page, screen name).  The screen name becomes NN_<screen>.png.
APPS: dict[str, dict] = {
    "pocket-budget": {
        "project_name": "Pocket Budget",
        "bundle_id": "com.example.pocketbudget",
        "screens": [
            ("index.html", "overview"),
            ("budgets.html", "budgets"),
            ("transactions.html", "transactions"),
            ("reports.html", "reports"),
            ("goals.html", "goals"),
        ],
    },
    "stepstreak": {
        "project_name": "StepStreak",
        "bundle_id": "com.stepstreak.app",
        "screens": [
            ("index.html", "today"),
            ("workouts.html", "workouts"),
            ("session.html", "live-session"),
            ("streaks.html", "streaks"),
            ("profile.html", "profile"),
        ],
    },
    "wanderly": {
        "project_name": "Wanderly",
        "bundle_id": "com.wanderly.trips",
        "screens": [
            ("index.html", "explore"),
            ("destination.html", "destination"),
            ("itinerary.html", "itinerary"),
            ("bookings.html", "bookings"),
            ("map.html", "map"),
        ],
    },
    "tasklane": {
        "project_name": "Tasklane",
        "bundle_id": "com.tasklane.todo",
        "screens": [
            ("index.html", "inbox"),
            ("today.html", "today"),
            ("projects.html", "projects"),
            ("board.html", "project-board"),
            ("settings.html", "settings"),
        ],
    },
}

SHOT_RE = re.compile(r"^\d\d_.+\.png$")


def _save_png(raw: bytes, dest: Path) -> None:
    img = Image.open(io.BytesIO(raw))
    if img.size != EXPECTED_SIZE:
        raise RuntimeError(f"{dest.name}: got {img.size}, expected {EXPECTED_SIZE}")
    if img.mode != "RGB":
        img = img.convert("RGB")
    # a clean iOS status bar (9:41, full battery), as the stores' own screenshots show
    from shotsmith.statusbar import draw_status_bar

    img = draw_status_bar(img, PHONE.status_bar_style())
    tmp = dest.with_suffix(".tmp.png")
    img.save(tmp, format="PNG", optimize=True)
    tmp.replace(dest)


def render_app(context, app: str, spec: dict, pool: ThreadPoolExecutor) -> list[Path]:
    src = WEBAPPS / app
    out = SAMPLES / app
    out.mkdir(parents=True, exist_ok=True)
    page = context.new_page()
    written: list[Path] = []
    screens = []
    saves = []
    for i, (html, screen) in enumerate(spec["screens"], start=1):
        path = src / html
        if not path.is_file():
            raise FileNotFoundError(path)
        name = f"{i:02d}_{screen}.png"
        page.goto(path.as_uri(), wait_until="load")
        page.evaluate("document.fonts.ready.then(() => true)")
        raw = page.screenshot(type="png", animations="disabled", caret="hide")
        saves.append(pool.submit(_save_png, raw, out / name))  # PNG optimisation is slow
        written.append(out / name)
        screens.append({"file": name, "screen": screen})
    page.close()
    for fut in saves:
        fut.result()

    keep = {p.name for p in written}
    for stale in out.iterdir():
        if SHOT_RE.match(stale.name) and stale.name not in keep:
            stale.unlink()

    manifest = {
        "project_name": spec["project_name"],
        "bundle_id": spec["bundle_id"],
        "locale": "en-US",
        "device": DEVICE,
        "screens": screens,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return written


def main(argv: list[str]) -> int:
    wanted = argv or list(APPS)
    unknown = [a for a in wanted if a not in APPS]
    if unknown:
        print(f"unknown app(s): {', '.join(unknown)}; choose from {', '.join(APPS)}")
        return 2
    start = time.perf_counter()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(
            viewport=VIEWPORT,
            device_scale_factor=SCALE,
            is_mobile=True,
            has_touch=True,
            locale="en-US",
            color_scheme="light",
            reduced_motion="reduce",
        )
        # Sample apps are fully self-contained: refuse anything that is not a local file.
        context.route(
            re.compile(r"^(https?|wss?)://"),
            lambda route: route.abort(),
        )
        total = 0
        pool = ThreadPoolExecutor(max_workers=os.cpu_count() or 4)
        for app in wanted:
            files = render_app(context, app, APPS[app], pool)
            size = sum(f.stat().st_size for f in files)
            total += size
            print(f"{app:14s} {len(files)} screens  {size / 1e6:5.2f} MB")
        browser.close()
        pool.shutdown()
    print(f"done in {time.perf_counter() - start:.1f}s, {total / 1e6:.2f} MB of PNGs")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
