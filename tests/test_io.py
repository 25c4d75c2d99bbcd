from __future__ import annotations

import base64
import json
import struct
import zlib
from pathlib import Path

import pytest

import shotsmith as ss
from shotsmith import columns as C

from .conftest import fake_screen, png_bytes


def test_folder_order_and_screen_names_from_file_names(tmp_path: Path):
    for name in ["10_settings.png", "02_search-results.png", "01_home.png"]:
        fake_screen().save(tmp_path / name)
    frame = ss.read_screenshots(tmp_path, project_name="Demo")
    assert list(frame[C.SCREEN]) == ["home", "search results", "settings"]
    assert list(frame[C.POSITION]) == [0, 1, 2]
    assert set(frame[C.APP_ID]) == {"demo"}
    assert list(frame[C.IMAGE_WIDTH]) == [1206] * 3
    # only references are kept, never decoded pixels
    assert all(isinstance(v, str) for v in frame[C.IMAGE])


def test_manifest_sets_order_names_and_metadata(tmp_path: Path):
    fake_screen().save(tmp_path / "a.png")
    fake_screen().save(tmp_path / "b.png")
    (tmp_path / "manifest.json").write_text(
        json.dumps(
            {
                "project_name": "Pocket Budget",
                "bundle_id": "com.example.pb",
                "locale": "en-GB",
                "screens": [
                    {"file": "b.png", "screen": "budgets"},
                    {"file": "a.png", "screen": "home"},
                ],
            }
        )
    )
    frame = ss.read_screenshots(tmp_path)
    assert list(frame[C.SCREEN]) == ["budgets", "home"]
    assert frame[C.IMAGE].iloc[0].endswith("b.png")
    assert set(frame[C.PROJECT_NAME]) == {"Pocket Budget"}
    assert set(frame[C.BUNDLE_ID]) == {"com.example.pb"}
    assert set(frame[C.LOCALE]) == {"en-GB"}


def test_manifest_elements_and_url_become_columns(tmp_path: Path):
    """A captured folder's manifest gives each screen its DOM text with roles and its page;
    every other source gives [] and "" (the columns are always there)."""
    fake_screen().save(tmp_path / "01_home.png")
    fake_screen().save(tmp_path / "02_list.png")
    elements = [
        {"role": "heading", "text": "Trails", "level": 1, "box": [48, 210, 300, 90]},
        {"role": "tab", "text": "Search", "box": [600, 2500, 120, 40]},
        {"role": "text", "text": "142 trails near Boulder"},
    ]
    (tmp_path / "manifest.json").write_text(
        json.dumps(
            {
                "project_name": "Trailbook",
                "screens": [
                    {
                        "file": "01_home.png",
                        "screen": "home",
                        "url": "http://127.0.0.1:8000/",
                        "title": "Home · Trailbook",
                        "elements": elements,
                    },
                    {"file": "02_list.png", "screen": "list"},
                ],
            }
        )
    )
    frame = ss.read_screenshots(tmp_path)
    assert frame[C.SCREEN_ELEMENTS].iloc[0] == elements
    assert frame[C.SCREEN_URL].iloc[0] == "http://127.0.0.1:8000/"
    assert frame[C.SCREEN_ELEMENTS].iloc[1] == [] and frame[C.SCREEN_URL].iloc[1] == ""
    plain = ss.read_screenshots([png_bytes(fake_screen())], project_name="X")
    assert plain[C.SCREEN_ELEMENTS].iloc[0] == [] and plain[C.SCREEN_URL].iloc[0] == ""


@pytest.mark.parametrize(
    "elements, message",
    [
        ({"role": "heading"}, "must be a list"),
        (["Trails"], "element 1 must be an object"),
        ([{"role": "banner", "text": "x"}], "role 'banner'"),
        ([{"role": "heading", "text": "x", "level": 9}], "level 9"),
        ([{"role": "text", "text": "x", "box": [1, 2, 3]}], r"\[x, y, width, height\]"),
    ],
)
def test_bad_manifest_elements_are_clear_errors(tmp_path: Path, elements, message):
    fake_screen().save(tmp_path / "01_home.png")
    (tmp_path / "manifest.json").write_text(
        json.dumps({"screens": [{"file": "01_home.png", "elements": elements}]})
    )
    with pytest.raises(ss.ShotsmithError, match=rf"manifest: screen 1: .*{message}"):
        ss.read_screenshots(tmp_path, project_name="X")


def test_bytes_and_base64_inputs():
    data = png_bytes(fake_screen())
    by_bytes = ss.read_screenshots([data, data], project_name="X", screens=["home", "stats"])
    assert list(by_bytes[C.SCREEN]) == ["home", "stats"]
    b64 = base64.b64encode(data).decode()
    by_b64 = ss.read_screenshots(
        images_base64=[b64, "data:image/png;base64," + b64],
        project_name="X",
        screens=["home", "stats"],
    )
    assert by_b64[C.IMAGE].iloc[0] == data == by_b64[C.IMAGE].iloc[1]


def test_several_sets_get_distinct_app_ids(screens_dir: Path):
    a = ss.read_screenshots(screens_dir, project_name="Same")
    b = ss.read_screenshots(screens_dir, project_name="Same")
    both = ss.concat_sets([a, b])
    assert both[C.APP_ID].nunique() == 2
    assert len(both) == len(a) + len(b)


def test_jpeg_is_refused_naming_the_file(tmp_path: Path):
    fake_screen().save(tmp_path / "01_home.png", "JPEG")  # a JPEG with a .png name
    with pytest.raises(ss.InputImageError, match=r"01_home\.png.*not a PNG.*JPEG"):
        ss.read_screenshots(tmp_path, project_name="X")


def test_truncated_png_is_refused(tmp_path: Path):
    data = png_bytes(fake_screen())
    (tmp_path / "01_home.png").write_bytes(data[: len(data) // 2])
    with pytest.raises(ss.InputImageError, match=r"01_home\.png.*(truncated|corrupt)"):
        ss.read_screenshots(tmp_path, project_name="X")


def _bomb_png(width: int, height: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = (
        struct.pack(">I", len(ihdr))
        + b"IHDR"
        + ihdr
        + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr) & 0xFFFFFFFF)
    )
    return b"\x89PNG\r\n\x1a\n" + chunk


def test_decompression_bomb_is_refused_before_decoding():
    with pytest.raises(ss.InputImageError, match=r"60000x60000.*larger than any screen"):
        ss.read_screenshots([_bomb_png(60000, 60000)], project_name="X")


def test_bad_base64_and_empty_inputs():
    with pytest.raises(ss.InputImageError, match="not valid base64"):
        ss.read_screenshots(images_base64=["***not base64***"], project_name="X")
    with pytest.raises(ss.InputImageError, match="no images"):
        ss.read_screenshots([], project_name="X")


def test_empty_or_missing_folder(tmp_path: Path):
    with pytest.raises(ss.InputImageError, match="no .png screenshots"):
        ss.read_screenshots(tmp_path, project_name="X")
    with pytest.raises(ss.InputImageError, match="no such folder"):
        ss.read_screenshots(tmp_path / "nope", project_name="X")


def test_fast_png_decoder_gives_pillows_pixels(tmp_path: Path, monkeypatch):
    """8-bit RGB/RGBA PNGs decode through libspng, to exactly the pixels Pillow gives;
    other kinds and broken files go to Pillow, which explains what is wrong."""
    import numpy as np
    from PIL import Image

    from shotsmith import io as sio

    assert sio.pyspng is not None, "pyspng is a dependency"
    sample = Path(__file__).resolve().parents[1] / "sample_inputs" / "pocket-budget"
    source = Image.open(sorted(sample.glob("*.png"))[0])
    alpha = source.convert("RGBA")
    alpha.putalpha(Image.linear_gradient("L").resize(source.size))  # real transparency
    kinds = {"RGB": source.convert("RGB"), "RGBA": alpha, "L": source.convert("L"),
             "P": source.convert("P", palette=Image.Palette.ADAPTIVE)}
    for name, im in kinds.items():
        data = png_bytes(im)
        path = tmp_path / f"{name}.png"
        path.write_bytes(data)
        fast = ss.open_image(data)
        assert ss.open_image(path).tobytes() == fast.tobytes(), name
        assert (sio._decode_8bit_png(data) is not None) == (name in ("RGB", "RGBA")), name
        with monkeypatch.context() as m:
            m.setattr(sio, "pyspng", None)
            slow = ss.open_image(data)
        assert fast.mode == slow.mode == "RGB", name
        assert np.array_equal(np.asarray(fast), np.asarray(slow)), name
    data = png_bytes(source.convert("RGB"))
    with pytest.raises(ss.InputImageError, match="cannot decode"):
        ss.open_image(data[: len(data) // 2])
    assert sio._decode_8bit_png(_bomb_png(60000, 60000)) is None  # never decoded by libspng
