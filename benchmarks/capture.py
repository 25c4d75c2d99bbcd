"""Capture speed: a 6-screen web app at one device size, per screen and per collection.

Serves a copy of ``sample_inputs/webapps/pocket-budget`` (its five tabs plus a sixth,
account screen added here so the app has six) from a local static server, then runs
``capture(url, device_sizes=[size], max_screens=6)`` several times. Each round is a
whole collection as a user runs it: start Playwright and Chromium, explore, settle,
photograph at native pixels, draw the status bar, encode PNGs. Prints medians.

    .venv/bin/python benchmarks/capture.py [--rounds 3] [--size 6.9] [--app pocket-budget]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from shotsmith.stages.capture import capture_report, serve_folder  # noqa: E402

ACCOUNT_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<title>Account · Pocket Budget</title><link rel="stylesheet" href="style.css"></head>
<body><main class="screen">
  <header class="nav"><span class="hello">Maya Reyes</span></header>
  <h1 class="large-title">Account</h1>
  <section class="balance" style="padding-bottom:20px">
    <div class="label">Plan</div><div class="amount num">Premium</div>
    <span class="chip-light">Renews Dec 1 · $4.99/month</span>
  </section>
  <div class="section-head"><h2>Linked accounts</h2></div>
  <div class="list">
    <div class="row"><span class="avatar lg" style="background:#1f6feb">CH</span>
      <div class="main"><div class="title">Chase Checking</div><div class="sub">·· 4821 · synced 2 min ago</div></div></div>
    <div class="row"><span class="avatar lg" style="background:#0b9d78">AL</span>
      <div class="main"><div class="title">Ally Savings</div><div class="sub">·· 0937 · synced 2 min ago</div></div></div>
    <div class="row"><span class="avatar lg" style="background:#8b5cf6">VI</span>
      <div class="main"><div class="title">Visa Signature</div><div class="sub">·· 2210 · synced 1 h ago</div></div></div>
  </div>
  <div class="section-head"><h2>Preferences</h2></div>
  <div class="list">
    <div class="row"><div class="main"><div class="title">Currency</div></div><div class="end">USD</div></div>
    <div class="row"><div class="main"><div class="title">Budget period</div></div><div class="end">Monthly</div></div>
    <div class="row"><div class="main"><div class="title">Face ID lock</div></div><div class="end">On</div></div>
    <div class="row"><div class="main"><div class="title">Bill reminders</div></div><div class="end">3 days before</div></div>
  </div>
</main></body></html>
"""  # noqa: E501


def six_screen_app(source: Path, into: Path) -> Path:
    app = into / source.name
    shutil.copytree(source, app)
    (app / "account.html").write_text(ACCOUNT_PAGE, encoding="utf-8")
    index = app / "index.html"
    html = index.read_text(encoding="utf-8")
    marker = 'class="avatar" href="goals.html"'
    if marker in html:  # the header avatar opens the account screen
        html = html.replace(marker, 'class="avatar" href="account.html"', 1)
    else:
        html = html.replace("</main>", '<a href="account.html">Account</a></main>', 1)
    index.write_text(html, encoding="utf-8")
    return app


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--size", default="6.9")
    parser.add_argument("--app", default="pocket-budget")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        app = six_screen_app(ROOT / "sample_inputs" / "webapps" / args.app, Path(tmp))
        site = serve_folder(app)
        url = site.url
        totals, per_screen, counts = [], [], []
        try:
            for _ in range(args.rounds):
                start = time.perf_counter()
                report = capture_report(url, device_sizes=[args.size], max_screens=6, timeout_s=120)
                seconds = time.perf_counter() - start
                n = len(report.frame)
                totals.append(seconds)
                per_screen.append(seconds / n)
                counts.append(n)
        finally:
            site.close()
    frame = report.frame
    w, h = int(frame["image_width"].iloc[0]), int(frame["image_height"].iloc[0])
    print(
        f"capture benchmark: {args.app} (6-screen copy), size {args.size} ({w}x{h}), "
        f"median of {args.rounds} rounds"
    )
    print(
        f"  screens captured per collection   {statistics.median(counts):5.0f}   "
        f"({', '.join(frame['screen'])})"
    )
    print(f"  pages loaded while exploring      {report.visited:5d}")
    print(
        f"  per collection (launch..PNGs)     {statistics.median(totals):7.2f} s   (target <= 20 s)"
    )
    print(f"  per screen                        {statistics.median(per_screen):7.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
