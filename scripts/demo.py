"""The main job on the bundled samples: design every app in sample_inputs/ into out/.

Then the whole pipeline from capture: the sample web app in sample_inputs/webapps/ is
served on 127.0.0.1, explored in Chromium at the 6.9" size, and its captured screens are
designed into out/captured/ (``--no-capture`` skips this part).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def save_sheet(frame, target: Path) -> None:
    from shotsmith.sheets import contact_sheet

    row = frame.iloc[0]
    sheet = contact_sheet(
        list(frame["render_path"]),
        thumb_width=260,
        title=f"{row['project_name']} - {row['copy_tagline']}",
    )
    sheet.save(target / row["app_id"] / "contact-sheet.png")


def capture_and_design(app: str, out: Path) -> None:
    """Serve sample_inputs/webapps/<app>, capture it at 6.9", design what was captured."""
    from shotsmith import capture_report, design, serve_folder

    start = time.perf_counter()
    with serve_folder(ROOT / "sample_inputs" / "webapps" / app) as site:
        report = capture_report(
            site.url,
            device_sizes=["6.9"],
            max_screens=6,
            out_dir=out / "raw",
            timeout_s=120,
        )
    shots = report.frame
    print(
        f"capture   {site.url} -> {len(shots)} screens at "
        f"{shots['image_width'].iloc[0]}x{shots['image_height'].iloc[0]} "
        f"({', '.join(shots['screen'])}) in {time.perf_counter() - start:.1f} s"
    )
    for skipped in report.skipped:
        print(f"          skipped {skipped.url}: {skipped.reason}")
    frame = design(shots, out_dir=out)
    row = frame.iloc[0]
    print(
        f"default   {row['project_name']:14s} {row['domain_category']:18s} "
        f"{len(frame)} captured screens designed -> {out / row['app_id']}"
    )
    save_sheet(frame, out)


def main() -> int:
    from shotsmith import design

    out = ROOT / "out"
    apps = sorted(
        p
        for p in (ROOT / "sample_inputs").iterdir()
        if p.is_dir() and (p / "manifest.json").exists()
    )
    if not apps:
        print("demo: no sample apps found under sample_inputs/", file=sys.stderr)
        return 1
    for template in ("default", "spotlight"):
        target = out if template == "default" else out / template
        for app in apps:
            start = time.perf_counter()
            frame = design(app, template=template, out_dir=target)
            row = frame.iloc[0]
            print(
                f"{template:9s} {row['project_name']:14s} {row['domain_category']:18s} "
                f"{len(frame)} screenshots in {time.perf_counter() - start:.2f} s -> "
                f"{target / row['app_id']}"
            )
            save_sheet(frame, target)
    if "--no-capture" not in sys.argv[1:]:
        capture_and_design("tasklane", out / "captured")
    print(f"done: open {out}/<app>/contact-sheet.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
