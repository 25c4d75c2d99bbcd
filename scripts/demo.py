"""The main job on the bundled samples: design every app in sample_inputs/ into out/."""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    from shotsmith import design
    from shotsmith.sheets import contact_sheet

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
            sheet = contact_sheet(
                list(frame["render_path"]),
                thumb_width=260,
                title=f"{row['project_name']} - {row['copy_tagline']}",
            )
            sheet.save(target / row["app_id"] / "contact-sheet.png")
    print(f"done: open {out}/<app>/contact-sheet.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
