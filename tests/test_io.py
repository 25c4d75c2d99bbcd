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


def test_manifest_elements_url_and_title_become_columns(tmp_path: Path):
    """A captured folder's manifest gives each screen its DOM text with roles, its page and
    the page's title; every other source gives [] and "" (the columns are always there)."""
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
    assert frame[C.SCREEN_TITLE].tolist() == ["Home · Trailbook", ""]
    assert frame[C.SCREEN_ELEMENTS].iloc[1] == [] and frame[C.SCREEN_URL].iloc[1] == ""
    plain = ss.read_screenshots([png_bytes(fake_screen())], project_name="X")
    assert plain[C.SCREEN_ELEMENTS].iloc[0] == [] and plain[C.SCREEN_URL].iloc[0] == ""
    assert plain[C.SCREEN_TITLE].iloc[0] == ""


def test_a_manifest_title_that_is_not_text_is_a_clear_error(tmp_path: Path):
    fake_screen().save(tmp_path / "01_home.png")
    (tmp_path / "manifest.json").write_text(
        json.dumps({"screens": [{"file": "01_home.png", "title": ["Home"]}]})
    )
    with pytest.raises(ss.ShotsmithError, match=r"manifest: screen 1: 'title' must be text"):
        ss.read_screenshots(tmp_path, project_name="X")


@pytest.mark.parametrize(
    "elements, message",
    [
        ({"role": "heading"}, "must be a list"),
        (["Trails"], "element 1 must be an object"),
        ([{"role": "banner", "text": "x"}], "role 'banner'"),
        ([{"role": "heading", "text": "x", "level": 9}], "level 9"),
        ([{"role": "tab", "text": "Log", "current": "yes"}], "current 'yes'; use true or false"),
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


@pytest.mark.slow
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
    kinds = {
        "RGB": source.convert("RGB"),
        "RGBA": alpha,
        "L": source.convert("L"),
        "P": source.convert("P", palette=Image.Palette.ADAPTIVE),
    }
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


# --- every PNG mode --------------------------------------------------------------------------
# Screenshots come in every colour type and bit depth PNG has. These PNGs are written byte by
# byte (Pillow cannot write most of them): a picture of bands, in each mode, with and without
# a tRNS chunk, interlaced or not. Each must decode to the 8-bit RGB a viewer shows (16-bit
# scaled, not clipped; transparency over white) and render like that RGB picture.

_ADAM7 = (
    (0, 0, 8, 8),
    (4, 0, 8, 8),
    (0, 4, 4, 8),
    (2, 0, 4, 4),
    (0, 2, 2, 4),
    (1, 0, 2, 2),
    (0, 1, 1, 2),
)
_W, _H = 96, 208  # a small portrait "screen"
_COLOURS = [(230, 30, 40), (20, 150, 60), (30, 60, 220), (45, 45, 50)]


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def _pack_rows(samples, depth: int) -> list[bytes]:
    import numpy as np

    rows = []
    for row in samples:
        flat = row.reshape(-1)
        if depth == 16:
            rows.append(flat.astype(">u2").tobytes())
        elif depth == 8:
            rows.append(flat.astype(np.uint8).tobytes())
        else:  # 1, 2, 4 bits per sample, most significant first, rows padded to a byte
            bits = "".join(format(int(v), f"0{depth}b") for v in flat)
            bits += "0" * (-len(bits) % 8)
            rows.append(int(bits, 2).to_bytes(len(bits) // 8, "big"))
    return rows


def _write_png(
    samples,
    colour_type: int,
    depth: int,
    *,
    interlace=False,
    palette=None,
    trns: bytes | None = None,
) -> bytes:
    height, width = samples.shape[:2]
    passes = _ADAM7 if interlace else ((0, 0, 1, 1),)
    raw = b"".join(
        b"\x00" + row
        for x0, y0, dx, dy in passes
        for row in _pack_rows(samples[y0::dy, x0::dx], depth)
        if samples[y0::dy, x0::dx].size
    )
    ihdr = struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, int(interlace))
    out = b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr)
    if palette is not None:
        out += _chunk(b"PLTE", bytes(v for rgb in palette for v in rgb))
    if trns is not None:
        out += _chunk(b"tRNS", trns)
    data = zlib.compress(raw)  # in two IDAT chunks, as large files are
    out += _chunk(b"IDAT", data[: len(data) // 2]) + _chunk(b"IDAT", data[len(data) // 2 :])
    return out + _chunk(b"IEND", b"")


def _bands(values):
    """A (H, W, ...) array of vertical bands, one per value."""
    import numpy as np

    values = np.asarray(values)
    index = np.arange(_W) * len(values) // _W
    return np.broadcast_to(values[index], (_H, *values[index].shape)).copy()


def _png_modes():
    """(name, PNG bytes, the 8-bit RGB a viewer shows) for every colour type, bit depth,
    tRNS and interlace combination."""
    import numpy as np

    cases = []
    white = np.array([255, 255, 255])
    for interlace in (False, True):
        tag = " interlaced" if interlace else ""
        for depth in (1, 2, 4, 8, 16):  # greyscale
            top = (1 << depth) - 1
            levels = [0, top, top // 3, 2 * top // 3] if depth > 1 else [0, 1, 0, 1]
            grey = _bands(levels)
            shown = np.repeat(np.rint(grey * 255 / top)[..., None], 3, axis=2)
            cases.append(
                (
                    f"grey {depth}-bit{tag}",
                    _write_png(grey[..., None], 0, depth, interlace=interlace),
                    shown,
                )
            )
            key = levels[2] if depth > 1 else 1  # one grey level transparent (1-bit: white)
            cases.append(
                (
                    f"grey {depth}-bit + tRNS{tag}",
                    _write_png(
                        grey[..., None], 0, depth, interlace=interlace, trns=key.to_bytes(2, "big")
                    ),
                    np.where((grey == key)[..., None], white, shown),
                )
            )
        for depth, scale in ((8, 1), (16, 257)):
            rgb = _bands(_COLOURS)
            shown = rgb.astype(float)
            cases.append(
                (
                    f"RGB {depth}-bit{tag}",
                    _write_png(rgb * scale, 2, depth, interlace=interlace),
                    shown,
                )
            )
            key = b"".join((v * scale).to_bytes(2, "big") for v in _COLOURS[1])
            cases.append(
                (
                    f"RGB {depth}-bit + tRNS{tag}",
                    _write_png(rgb * scale, 2, depth, interlace=interlace, trns=key),
                    np.where(np.all(rgb == _COLOURS[1], axis=2)[..., None], white, shown),
                )
            )
            alpha = _bands([255, 0, 128, 255])[..., None]
            blend = np.rint(rgb * alpha / 255 + 255 * (1 - alpha / 255))
            cases.append(
                (
                    f"RGBA {depth}-bit{tag}",
                    _write_png(
                        np.concatenate([rgb, alpha], axis=2) * scale, 6, depth, interlace=interlace
                    ),
                    blend,
                )
            )
            grey = _bands([10, 200, 90, 60])[..., None]
            blend = np.repeat(np.rint(grey * alpha / 255 + 255 * (1 - alpha / 255)), 3, axis=2)
            cases.append(
                (
                    f"grey+alpha {depth}-bit{tag}",
                    _write_png(
                        np.concatenate([grey, alpha], axis=2) * scale, 4, depth, interlace=interlace
                    ),
                    blend,
                )
            )
        for depth in (1, 2, 4, 8):  # palette
            entries = _COLOURS[: 1 << depth]
            index = _bands([0, 1, 2, 3] if depth > 1 else [0, 1, 1, 0])
            shown = np.asarray(entries)[index].astype(float)
            cases.append(
                (
                    f"palette {depth}-bit{tag}",
                    _write_png(index[..., None], 3, depth, interlace=interlace, palette=entries),
                    shown,
                )
            )
            alphas = bytes([255, 0, 128][: len(entries)])  # entry 1 clear, entry 2 half
            alpha = np.array([alphas[i] if i < len(alphas) else 255 for i in range(len(entries))])
            a = alpha[index][..., None] / 255
            cases.append(
                (
                    f"palette {depth}-bit + tRNS{tag}",
                    _write_png(
                        index[..., None],
                        3,
                        depth,
                        interlace=interlace,
                        palette=entries,
                        trns=alphas,
                    ),
                    np.rint(shown * a + 255 * (1 - a)),
                )
            )
    return cases


PNG_MODES = _png_modes()


@pytest.mark.parametrize("case", PNG_MODES, ids=[c[0] for c in PNG_MODES])
def test_every_png_mode_decodes_to_what_a_viewer_shows(case, tmp_path: Path):
    import numpy as np

    from shotsmith.png import verify_png

    name, data, shown = case
    for ref in (data, _saved(tmp_path, data)):
        for release_gil in (False, True):  # the libspng path and Pillow's
            image = ss.open_image(ref, release_gil=release_gil)
            assert image.mode == "RGB" and image.size == (_W, _H), name
            got = np.asarray(image).astype(int)
            worst = np.abs(got - shown).max()
            assert worst <= 1, (
                f"{name}: off by {worst} (e.g. {got[0, ::24].tolist()} for "
                f"{shown[0, ::24].tolist()})"
            )
    header = verify_png(_saved(tmp_path, data), name)  # the server's upload check agrees
    assert (header.width, header.height) == (_W, _H)


def _saved(folder: Path, data: bytes) -> Path:
    path = folder / "shot.png"
    path.write_bytes(data)
    return path


@pytest.mark.slow
def test_every_png_mode_renders_like_its_rgb_picture():
    """The designed store screenshot of each mode is the one its RGB picture gives (a
    16-bit greyscale screenshot used to render as a blank white screen)."""
    import io

    import numpy as np
    from PIL import Image

    from shotsmith import columns as C

    def rendered(png: bytes) -> np.ndarray:
        frame = ss.design(
            [png],
            project_name="Modes",
            screens=["home"],
            out_dir=None,
            ocr=False,
            write_table=False,
        )
        return np.asarray(Image.open(io.BytesIO(frame[C.RENDER_PNG].iloc[0])).convert("RGB"))

    def rgb_png(pixels) -> bytes:
        return png_bytes(Image.fromarray(np.asarray(pixels, dtype=np.uint8), "RGB"))

    blank = rendered(rgb_png(np.full((_H, _W, 3), 255)))
    for name, data, shown in PNG_MODES:
        if "interlaced" in name:
            continue  # same pixels as the plain file (checked above)
        got, want = rendered(data), rendered(rgb_png(shown))
        assert got.shape == want.shape, name
        assert np.abs(got.astype(int) - want).mean() < 0.5, name  # the picture's colours
        assert np.abs(got.astype(int) - blank).mean() > 2, f"{name}: a blank screen"


def test_read_stage_lives_in_stages_read_and_old_imports_keep_working():
    import shotsmith.io as io_module
    from shotsmith.stages import read

    assert ss.read_screenshots is read.read_screenshots is io_module.read_screenshots
    assert io_module.concat_sets is read.concat_sets
    assert io_module.screen_name_from_file(Path("03_search-results.png")) == (3, "search results")
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        io_module.nothing_here  # noqa: B018


def test_reading_and_the_uploads_check_say_the_same_about_a_bad_header(tmp_path):
    """One set of PNG header checks (shotsmith.png.check_header): a file read from a folder
    and the same bytes streamed through the server's upload check get the same message."""
    import struct
    import zlib

    from shotsmith.errors import InputImageError
    from shotsmith.io import check_png
    from shotsmith.png import SIGNATURE, verify_png

    ihdr = struct.pack(">IIBBBBB", 20_000, 20_000, 8, 2, 0, 0, 0)
    huge = SIGNATURE + struct.pack(">I", 13) + b"IHDR" + ihdr
    huge += struct.pack(">I", zlib.crc32(b"IHDR" + ihdr) & 0xFFFFFFFF)
    cases = {
        "jpeg": (b"\xff\xd8\xff\xe0" + bytes(40), "not a PNG image (it is a JPEG)"),
        "empty": (b"", "not a PNG image (the file is empty)"),
        "huge": (huge, "PNG claims 20000x20000 pixels, far larger than any screen"),
    }
    for name, (data, says) in cases.items():
        with pytest.raises(InputImageError) as read:
            check_png(data, "shot.png")
        with pytest.raises(InputImageError) as streamed:
            verify_png(_saved(tmp_path, data), "shot.png")
        assert says in str(read.value), name
        assert str(streamed.value) == str(read.value), name
