"""Open every notebook in JupyterLab at 1400x1000 in Chromium, run it, and save screenshots
to look at, with a report of images drawn larger than their pixels and outputs wider than
their area. Runs on a throw-away copy of the repository; writes nothing into it.

    .venv/bin/python tests/notebooks/look.py [OUT_DIR] [NOTEBOOK ...]

(OUT_DIR defaults to a temporary folder; the screenshots stay out of the repository.)
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from lab import (
    VIEWPORT,
    JupyterLab,
    chromium,
    errors_shown,
    fresh_copy,
    layout_report,
    run_all,
    screenshots,
)


def main(argv: list[str]) -> int:
    from playwright.sync_api import sync_playwright

    out = Path(argv[0]) if argv else Path(tempfile.mkdtemp(prefix="shotsmith-look-"))
    out.mkdir(parents=True, exist_ok=True)
    names = argv[1:] or [
        "01_quickstart.ipynb",
        "02_tune_layout.ipynb",
        "03_batch.ipynb",
        "04_api.ipynb",
    ]
    with tempfile.TemporaryDirectory(prefix="shotsmith-look-") as tmp:
        root = fresh_copy(Path(tmp) / "repo")
        scratch = Path(tmp) / "scratch"
        scratch.mkdir()
        problems = 0
        with JupyterLab(root, scratch) as lab, sync_playwright() as p:
            browser = chromium(p)
            for name in names:
                page = browser.new_page(viewport=VIEWPORT)
                seconds = run_all(page, lab, f"notebooks/{name}")
                report = layout_report(page)
                errors = errors_shown(page)
                shots = screenshots(page, out / Path(name).stem)
                bad = {k: v for k, v in report.items() if v}
                problems += bool(bad) + bool(errors)
                print(f"{name}: ran in {seconds:.1f} s; {len(shots)} screenshots in {out}")
                for kind, items in bad.items():
                    print(f"  {kind}: {items}")
                for error in errors:
                    print(f"  ERROR: {error[:300]}")
                page.close()
            browser.close()
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
