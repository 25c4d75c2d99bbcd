"""Photograph the hand-picked corpus screens of a real app into tests/data/realapps/<app>/.

The corpus is the set of raw screenshots a marketer would actually use, per app: what
capture *should* produce. Where today's capture cannot reach them (sign-in walls, a
desktop-only layout, links it does not follow), this script drives the same Debian
Chromium through Playwright along steps written in the app's spec (``[[corpus.login]]``
and ``[[corpus.screens]]`` in ``apps/<app>.toml``): sign in, go to a page, click a tab,
wait for text. Each screen is laid out below a reserved 54 pt status-bar band (as iOS
lays out an app: the page never sits under the clock), the band filled with the page's
own top colour, and shotsmith's own status bar drawn in it. The manifest records, per
screen, the URL, the page title, the visible text and the visible elements with their
roles and boxes — the evidence copywriting may use.

    .venv/bin/python benchmarks/realapps/corpus.py actual            # app started if needed
    .venv/bin/python benchmarks/realapps/corpus.py --all
"""

from __future__ import annotations

import argparse
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from PIL import Image
from playwright.sync_api import Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run

from shotsmith.stages.capture import CHROMIUM_ARGS, resolve_devices
from shotsmith.statusbar import draw_status_bar

OUT = run.REPO / "tests" / "data" / "realapps"
BAND_PT = 54

# Visible text and elements with roles, in the viewport only, in reading order.
READ_SCREEN = (Path(__file__).resolve().parent / "read_screen.js").read_text(encoding="utf-8")


SETTLE_CSS = (
    "*,*::before,*::after{animation-duration:0s!important;transition-duration:0s!important;"
    "caret-color:transparent!important}"
)


def _do(page: Page, app: run.App, step: dict[str, Any]) -> None:
    origin = f"http://127.0.0.1:{app.port}"
    if "goto" in step:
        page.goto(origin + app.expand(step["goto"]), wait_until="load")
    if "fill" in step:
        page.fill(step["fill"], app.expand(step["value"]))
    if "click" in step:
        page.locator(step["click"]).first.click()
    if "tap" in step:  # a point in the page, in CSS pixels (a reader's page-turn zones)
        page.mouse.click(*step["tap"])
    if "press" in step:
        page.keyboard.press(step["press"])
    if "wait_for" in step:
        page.locator(step["wait_for"]).first.wait_for(state="visible", timeout=20_000)
    if "scroll" in step:
        page.evaluate("(y) => window.scrollTo(0, y)", step["scroll"])
    if "eval" in step:
        page.evaluate(step["eval"])
    page.wait_for_timeout(int(step.get("wait", 400)))


def _read(page: Page, band_pt: int) -> dict[str, Any]:
    """The page's visible text and elements, with those of its visible iframes (an e-book
    reader's page, a rendered description) added after it, their boxes in page points."""
    read = page.evaluate(READ_SCREEN, band_pt)
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    for frame in page.frames[1:]:
        try:
            box = frame.frame_element().bounding_box()
            if not box or box["width"] < 2 or box["height"] < 2:
                continue
            if box["y"] >= height or box["x"] >= width or box["y"] + box["height"] <= 0:
                continue
            inner = frame.evaluate(READ_SCREEN, band_pt + box["y"])
        except Exception:  # a frame that went away, or one the page cannot script
            continue
        for element in inner["elements"]:
            element["box"][0] += box["x"]
            if element["box"][1] - band_pt < height:
                read["elements"].append(element)
        if inner["text"]:
            read["text"] = "\n".join(t for t in (read["text"], inner["text"]) if t)
    return read


def _finish(png: bytes, device: Any, band_px: int) -> Image.Image:
    page = Image.open(io.BytesIO(png)).convert("RGB")
    width, height = device.px
    page = page.crop((0, 0, width, height - band_px))
    canvas = Image.new("RGB", (width, height), page.getpixel((width // 2, 1)))
    canvas.paste(page, (0, band_px))
    return draw_status_bar(canvas, device.status_bar_style())


def _shown(path: Path) -> str:
    """A spec's path as the manifest names it: relative to the repository when inside it."""
    try:
        return str(path.resolve().relative_to(run.REPO))
    except ValueError:
        return str(path)


def _optimise(folder: Path) -> None:
    if shutil.which("optipng"):
        pngs = [str(p) for p in sorted(folder.glob("*.png"))]
        subprocess.run(["optipng", "-quiet", "-o2", "-strip", "all", *pngs], check=True)


def _walk(
    page: Page,
    app: run.App,
    corpus: dict[str, Any],
    device: Any,
    band_pt: int,
    band_px: int,
    scale: float,
    target: Path,
    screens: list[dict[str, Any]],
) -> None:
    for step in corpus.get("login", []):
        _do(page, app, step)
    for number, screen in enumerate(corpus["screens"], start=1):
        for step in screen["steps"]:
            _do(page, app, step)
        try:  # some apps poll for ever (MLflow); the steps' own waits are what matters
            page.wait_for_load_state("networkidle", timeout=8_000)
        except PlaywrightTimeout:
            pass
        page.wait_for_timeout(int(screen.get("settle", 800)))
        read = _read(page, band_pt)
        image = _finish(page.screenshot(), device, band_px)
        file_name = f"{number:02d}_{screen['screen'].replace(' ', '-')}.png"
        image.save(target / file_name)
        for element in read["elements"]:
            element["box"] = [round(v * scale) for v in element["box"]]
        screens.append(
            {
                "file": file_name,
                "screen": screen["screen"],
                "url": page.url,
                "title": page.title(),
                "text": read["text"],
                "elements": read["elements"],
            }
        )


def photograph(name: str, out: Path, size: str) -> Path:
    app = run.load_app(name)
    spec = run.tomllib.loads((run.SPECS / f"{name}.toml").read_text(encoding="utf-8"))
    corpus = spec.get("corpus")
    if not corpus:
        raise run.HarnessError(f"{name}: no [corpus] screens in apps/{name}.toml")
    started_here = not run.is_running(app)
    if started_here:
        run.start(app)
    # A desktop-only web app (MLflow) is photographed at the iPad size its spec names.
    device = resolve_devices(["ios"], [corpus.get("size", size)], supports_ipad=True)[0]
    scale = device.scale
    width_pt, height_pt = device.points
    band_pt = max(BAND_PT, round(device.top_inset_pt))
    band_px = round(band_pt * scale)
    target = out / name
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    screens = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
            )
            context = browser.new_context(
                viewport={"width": width_pt, "height": height_pt - band_pt},
                device_scale_factor=scale,
                is_mobile=True,
                has_touch=True,
                locale=corpus.get("locale", "en-US"),
                timezone_id="Europe/London",
                user_agent=(
                    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15"
                    " (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1"
                ),
            )
            context.add_init_script(
                "addEventListener('DOMContentLoaded', () => { const s = document.createElement"
                f"('style'); s.textContent = {json.dumps(SETTLE_CSS)}; "
                "document.head.append(s); });"
            )
            page = context.new_page()
            try:
                _walk(page, app, corpus, device, band_pt, band_px, scale, target, screens)
            except Exception as error:
                page.screenshot(path=str(target / "failed.png"))
                raise run.HarnessError(
                    f"{name}: a corpus step failed ({error}); the page then: {target}/failed.png"
                ) from error
            browser.close()
    finally:
        if started_here:
            run.stop(app)
    manifest = {
        "project_name": app.title,
        "bundle_id": "",
        "locale": corpus.get("locale", "en-US"),
        "device": device.id,
        "source": app.url,
        "captured_with": "benchmarks/realapps/corpus.py (Playwright steps in "
        f"{_shown(run.SPECS / f'{name}.toml')}; {band_pt} pt status-bar band)",
        "screens": screens,
    }
    (target / "manifest.json").write_text(
        json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    _optimise(target)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("apps", nargs="*")
    parser.add_argument("--all", action="store_true")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--size", default="6.3", help="iPhone display class (default 6.3)")
    args = parser.parse_args(argv)
    names = run.all_apps() if args.all else args.apps
    if not names:
        parser.error("name an app or pass --all")
    for name in names:
        try:
            folder = photograph(name, args.out, args.size)
        except run.HarnessError as error:
            print(f"{name}: {error}", file=sys.stderr)
            return 1
        size = sum(p.stat().st_size for p in folder.glob("*.png")) / 1e6
        print(f"{name}: {folder} ({len(list(folder.glob('*.png')))} screens, {size:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
