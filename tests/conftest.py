from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_inputs"
INTER_BOLD = "/usr/share/fonts/opentype/inter/Inter-Bold.otf"


def sample_apps() -> list[Path]:
    return sorted(p for p in SAMPLES.iterdir() if (p / "manifest.json").exists())


def fake_screen(
    title: str = "Budgets", accent=(20, 150, 120), dark: bool = False, size=(1206, 2622)
) -> Image.Image:
    """A plain but plausible app screen: title, accent bar, list cards."""
    from PIL import ImageFont

    bg = (12, 12, 16) if dark else (245, 246, 248)
    card = (30, 30, 36) if dark else (255, 255, 255)
    im = Image.new("RGB", size, bg)
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(INTER_BOLD, 96)
    d.text((60, 230), title, font=font, fill=(240, 240, 240) if dark else (20, 20, 24))
    d.rounded_rectangle((60, 400, 1146, 700), radius=40, fill=accent)
    for i in range(8):
        y = 760 + i * 200
        d.rounded_rectangle((60, y, 1146, y + 170), radius=30, fill=card)
    return im


def png_bytes(im: Image.Image) -> bytes:
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return buf.getvalue()


@pytest.fixture
def screens_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "shots"
    folder.mkdir()
    for i, name in enumerate(["overview", "budgets", "transactions", "reports"], start=1):
        fake_screen(name.title()).save(folder / f"{i:02d}_{name}.png")
    return folder
