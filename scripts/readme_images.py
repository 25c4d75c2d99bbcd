"""Rebuild the README's pictures from real output: contact sheets under docs/images/.

Each picture is a set shotsmith designed from raw screenshots alone (and the app's name):
the bundled sample apps, and a real open-source app from the real-apps corpus
(tests/data/realapps/), whose captions may only say what its screens show. Run after a
change that affects what the sets look like, look at every picture, and commit them:

    .venv/bin/python scripts/readme_images.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"

#: (picture, raw screenshots, template)
SETS = (
    ("pocket-budget", ROOT / "sample_inputs" / "pocket-budget", "default"),
    ("stepstreak", ROOT / "sample_inputs" / "stepstreak", "default"),
    ("tasklane", ROOT / "sample_inputs" / "tasklane", "spotlight"),
    ("realapp-tiddlywiki", ROOT / "tests" / "data" / "realapps" / "tiddlywiki", "default"),
)


def main() -> int:
    from shotsmith import design
    from shotsmith.sheets import contact_sheet

    IMAGES.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="shotsmith-readme-") as tmp:
        for name, folder, template in SETS:
            frame = design(folder, template=template, out_dir=Path(tmp) / name)
            first = frame.iloc[0]
            sheet = contact_sheet(
                list(frame["render_path"]),
                thumb_width=240,
                title=f"{first['project_name']} - {first['copy_tagline']}",
            )
            target = IMAGES / f"{name}.png"
            sheet.convert("RGB").quantize(colors=256).save(target, optimize=True)
            print(f"{target.relative_to(ROOT)}  {sheet.width}x{sheet.height}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
