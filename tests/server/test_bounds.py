"""What the server and its capture agent may reach, and how much one request may cost
(issue 21): capture URLs under the address policy, bounded PNG decompression, fair and
bounded uploads."""

from __future__ import annotations

import functools
import struct
import time
import zlib

import pytest

from shotsmith.addresses import host_refusal
from shotsmith.errors import InputImageError
from shotsmith.png import SIGNATURE, PngVerifier, verify_png
from shotsmith.server.limits import MAX_IMAGE_BYTES

from .conftest import auth, b64, small_png


def _cli(capsys, *args: str) -> tuple[int, str, str]:
    from shotsmith.cli import main

    capsys.readouterr()
    try:
        code = main(list(args))
    except SystemExit as exc:  # argparse refusals
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


# --- item 1: a project's capture URL follows the address policy ----------------------------------

PRIVATE_URLS = [
    "http://169.254.169.254/latest/meta-data/",
    "http://127.0.0.1:8000/",
    "http://localhost:3000/",
    "http://app.localhost/",
    "http://2130706433/",
    "http://0x7f.1/",
    "http://0177.0.0.1/",
    "http://127.1/",
    "http://0/",
    "http://10.0.0.5/",
    "http://192.168.1.1./",
    "http://[::1]:8000/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:a9fe:a9fe]/",
    "http://[fe80::1%25eth0]/",
]


@pytest.mark.parametrize("url", PRIVATE_URLS)
def test_projects_add_refuses_private_capture_urls(tmp_path, capsys, monkeypatch, url):
    monkeypatch.delenv("SHOTSMITH_CAPTURE_ALLOW_PRIVATE", raising=False)
    common = ("projects", "add", "--data-dir", str(tmp_path / "data"), "--id", "p")
    code, out, err = _cli(capsys, *common, "--name", "P", "--url", url)
    assert code == 2, err
    assert "may not point at" in err and "--allow-private" in err, err
    assert "is a" in err or "localhost is this machine" in err
    code, out, _ = _cli(capsys, "projects", "list", "--data-dir", str(tmp_path / "data"))
    assert "\tP\t" not in out  # nothing was stored


def test_projects_add_allows_private_urls_when_asked(tmp_path, capsys, monkeypatch):
    data = str(tmp_path / "data")
    common = ("projects", "add", "--data-dir", data, "--name", "P")
    code, out, err = _cli(
        capsys, *common, "--id", "a", "--url", "http://127.0.0.1:8000/", "--allow-private"
    )
    assert code == 0 and out.strip() == "a", err
    monkeypatch.setenv("SHOTSMITH_CAPTURE_ALLOW_PRIVATE", "1")
    code, out, err = _cli(capsys, *common, "--id", "b", "--url", "http://169.254.169.254/")
    assert code == 0 and out.strip() == "b", err
    monkeypatch.delenv("SHOTSMITH_CAPTURE_ALLOW_PRIVATE")
    code, out, err = _cli(capsys, *common, "--id", "c", "--url", "https://example.com/app")
    assert code == 0 and out.strip() == "c", err  # public names need no switch


def test_host_refusal_judges_without_dns():
    assert host_refusal("example.com") is None and host_refusal("93.184.216.34") is None
    assert "link-local" in (host_refusal("169.254.169.254") or "")
    assert "loopback" in (host_refusal("LOCALHOST.") or "")


# --- item 2: bounded decompression of uploads ---------------------------------------------------


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(data, zlib.crc32(kind)) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def _ihdr(width: int, height: int, depth: int = 8, colour: int = 2) -> bytes:
    return _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0))


@functools.cache
def _zero_bomb(target_compressed: int) -> tuple[bytes, int]:
    """A zlib stream of zeros about ``target_compressed`` bytes long and what it inflates
    to: full-flushed deflate segments repeated (each independent of what came before)."""
    block = bytes(16 << 20)
    co = zlib.compressobj(9, zlib.DEFLATED, -15)
    first = co.compress(block) + co.flush(zlib.Z_FULL_FLUSH)
    again = co.compress(block) + co.flush(zlib.Z_FULL_FLUSH)
    end = co.flush(zlib.Z_FINISH)
    count = max(1, (target_compressed - len(first)) // len(again))
    size = (1 + count) * len(block)
    adler = (((1 + size) % 65521) << 16) | 1  # adler32 of `size` zero bytes
    stream = b"\x78\xda" + first + again * count + end + struct.pack(">I", adler)
    return stream, size


def _idat_bomb() -> tuple[bytes, int]:
    """A ~9.5 MiB 1320x2868 RGB PNG whose image data inflates to gigabytes."""
    stream, size = _zero_bomb(int(9.5 * 2**20))
    png = SIGNATURE + _ihdr(1320, 2868) + _chunk(b"IDAT", stream) + _chunk(b"IEND", b"")
    return png, size


@functools.cache
def _hundred_mb_of_zeros() -> bytes:
    return zlib.compress(bytes(100_000_000), 9)


@functools.cache
def _text_bomb(kind: bytes) -> bytes:
    """A tiny valid PNG with a compressed ``kind`` chunk that inflates to 100 MB."""
    text = _hundred_mb_of_zeros()
    if kind == b"zTXt":
        data = b"Comment\0\0" + text
    elif kind == b"iTXt":
        data = b"Comment\0\x01\0en\0Kommentar\0" + text
    else:
        data = b"ICC profile\0\0" + text
    png = small_png()
    return png[:33] + _chunk(kind, data) + png[33:]


def test_an_image_data_bomb_is_refused_from_its_rows_in_well_under_a_second(tmp_path):
    png, inflated = _idat_bomb()
    assert len(png) < MAX_IMAGE_BYTES and inflated > 8 << 30  # 10 MiB -> gigabytes
    path = tmp_path / "bomb.png"
    path.write_bytes(png)
    started = time.monotonic()
    with pytest.raises(InputImageError, match="decompression bomb"):
        verify_png(path, "images[0].data")
    assert time.monotonic() - started < 0.5


def test_the_header_decides_before_inflating(tmp_path):
    huge = (
        SIGNATURE
        + _ihdr(16_000, 2_400, 16, 6)
        + _chunk(b"IDAT", zlib.compress(b""))
        + _chunk(b"IEND", b"")
    )
    path = tmp_path / "huge.png"
    path.write_bytes(huge)
    with pytest.raises(InputImageError, match=r"16000x2400 pixels at 64 bits each"):
        verify_png(path, "x")


@pytest.mark.parametrize("kind", [b"zTXt", b"iTXt", b"iCCP"])
def test_a_compressed_chunk_bomb_is_refused(tmp_path, kind):
    path = tmp_path / "text.png"
    path.write_bytes(_text_bomb(kind))
    started = time.monotonic()
    with pytest.raises(InputImageError, match=f"its {kind.decode()} chunk decompresses to more"):
        verify_png(path, "x")
    assert time.monotonic() - started < 0.5
    # a modest one passes, and Pillow reads it
    modest = small_png()[:33] + _chunk(b"zTXt", b"Comment\0\0" + zlib.compress(b"hi" * 1000))
    path.write_bytes(modest + small_png()[33:])
    verify_png(path, "x")


def test_the_inflate_budget_is_a_backstop(tmp_path):
    path = tmp_path / "ok.png"
    path.write_bytes(small_png())
    verifier = PngVerifier("x", inflate_budget=0.0)
    with pytest.raises(InputImageError, match="takes longer than the 0 s"):
        verifier.feed(path.read_bytes())


@pytest.mark.parametrize("which", ["idat", "zTXt"])
def test_bombs_get_a_422_that_says_why(client, which):
    png = _idat_bomb()[0] if which == "idat" else _text_bomb(b"zTXt")
    body = {"project_name": "Bomb", "images": [{"data": b64(png), "screen": "home"}]}
    started = time.monotonic()
    r = client.post("/v1/design", json=body, headers=auth())
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["code"] == "invalid_image" and error["message"].startswith("images[0].data: ")
    assert ("decompression bomb" if which == "idat" else "zTXt chunk") in error["message"]
    assert time.monotonic() - started < 10
