"""Bodies are streamed (issue 9, item 6): images are decoded to files as they arrive, so
the server's memory does not grow with the body; large uploads at once are bounded (503
with Retry-After beyond that), and a refused body is read to its end so that a client
that sends everything first (httpx) still sees the answer. The figures (peak RSS for a
maximum request and for four, polling latency meanwhile) are measured by
``benchmarks/server.py``; these tests hold the behaviour."""

from __future__ import annotations

import base64
import io
import json
import random
import socket
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from shotsmith.server.jsonstream import JsonStreamParser
from shotsmith.server.uploads import Base64FileSink

from .conftest import KEY_A, KEY_B, LiveServer, auth, b64, design_body, small_png

pytestmark = pytest.mark.live_server


def _noise_png(seed: int, size=(700, 1500)) -> bytes:
    pixels = np.random.default_rng(seed).integers(0, 256, (size[1], size[0], 3), np.uint8)
    buf = io.BytesIO()
    Image.fromarray(pixels, "RGB").save(buf, "PNG", compress_level=1)
    return buf.getvalue()


def _rss(pid: int) -> int:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def test_a_large_body_does_not_grow_the_servers_memory(tmp_path):
    """~42 MB of JSON (ten 3 MB PNGs): reading it whole, decoding the base64 and the PNGs
    took the server process to 2-3x the body; streamed, it stays flat."""
    server = LiveServer(tmp_path / "data", extra=("--no-ocr",), workers=1)
    try:
        pngs = [_noise_png(seed) for seed in range(10)]
        body = json.dumps(
            {
                "project_name": "Noise",
                "images": [
                    {"data": b64(png), "screen": f"screen {i}"} for i, png in enumerate(pngs)
                ],
            }
        ).encode()
        pid = server.proc.pid
        time.sleep(1)
        idle = _rss(pid)
        peak, stop = [idle], threading.Event()

        def sample():
            while not stop.is_set():
                peak[0] = max(peak[0], _rss(pid))
                time.sleep(0.005)

        sampler = threading.Thread(target=sample)
        sampler.start()
        try:
            r = server.http.post(
                "/v1/design",
                content=body,
                timeout=120,
                headers={**auth(), "Content-Type": "application/json"},
            )
        finally:
            stop.set()
            sampler.join()
        assert r.status_code == 202, r.text
        growth = peak[0] - idle
        assert growth < 0.3 * len(body), (
            f"server grew {growth / 2**20:.0f} MiB for a {len(body) / 2**20:.0f} MiB body"
        )
        job_id = r.json()["job_id"]
        stored = sorted((server.data_dir / "jobs" / job_id / "inputs").glob("*.png"))
        assert [p.read_bytes() for p in stored] == pngs  # byte for byte
        assert server.http.delete(f"/v1/design/{job_id}", headers=auth()).status_code in (204, 409)
    finally:
        server.cleanup()


class _SlowUpload:
    """A raw POST whose body is sent in two parts: the first now, the rest on ``finish``."""

    def __init__(
        self, port: int, body: bytes, key: str = KEY_A, chunked: bool = False, extra: str = ""
    ):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        self.body = body
        head = (
            f"POST /v1/design HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\n"
            f"Content-Type: application/json\r\n{extra}Content-Length: {len(body)}\r\n\r\n"
        )
        self.sock.sendall(head.encode() + body[: len(body) // 2])

    def finish(self) -> tuple[int, dict, dict]:
        self.sock.sendall(self.body[len(self.body) // 2 :])
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            piece = self.sock.recv(65536)
            if not piece:
                break
            answer += piece
        self.sock.close()
        head, _, payload = answer.partition(b"\r\n\r\n")
        lines = head.decode().split("\r\n")
        headers = dict(line.split(": ", 1) for line in lines[1:])
        return int(lines[0].split()[1]), headers, json.loads(payload)


def _big_body(seed: int = 0) -> bytes:
    png = _noise_png(seed, (500, 900))  # ~1.3 MB: a "large" body (over 1 MiB)
    return json.dumps(
        {"project_name": "Big", "images": [{"data": b64(png), "screen": "a"}]}
    ).encode()


def test_large_uploads_at_once_are_bounded_and_the_refusal_is_seen(tmp_path):
    server = LiveServer(
        tmp_path / "data", keys=f"{KEY_A},{KEY_B}", extra=("--no-ocr", "--max-uploads", "1")
    )
    try:
        first = _SlowUpload(server.port, _big_body(1))
        time.sleep(0.5)  # the server is receiving it: the one slot is taken
        # httpx sends the whole body before it reads the answer: the server reads the body
        # it refuses, so the client gets the 503 rather than a reset connection
        r = server.http.post(
            "/v1/design",
            content=_big_body(2),
            headers={**auth(KEY_B), "Content-Type": "application/json"},
        )
        assert r.status_code == 503, r.text
        assert r.json()["error"]["code"] == "server_busy"
        assert int(r.headers["retry-after"]) >= 1
        small = server.http.post("/v1/design", json=design_body(), headers=auth(KEY_B))
        assert small.status_code == 202  # small bodies need no slot
        assert server.http.get("/healthz").status_code == 200
        status, _, created = first.finish()
        assert status == 202, created
        r = server.http.post(
            "/v1/design",
            content=_big_body(3),
            headers={**auth(KEY_B), "Content-Type": "application/json"},
        )
        assert r.status_code == 202, r.text  # the slot is free again
    finally:
        server.cleanup()


def test_refusals_of_a_large_body_reach_a_client_that_sends_it_all(tmp_path):
    """Errors found before or while the body is read (rate limit, a bad field, an image
    too large) are answered after reading the body, not with a reset."""
    server = LiveServer(tmp_path / "data", extra=("--no-ocr",))
    try:
        big = _big_body()
        with_bad_field = big.replace(b'"project_name": "Big"', b'"project_name": 5')
        r = server.http.post(
            "/v1/design",
            content=with_bad_field,
            headers={**auth(), "Content-Type": "application/json"},
        )
        assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_type"
        r = server.http.post(
            "/v1/design",
            content=big,
            headers={"Authorization": "Bearer " + "x" * 20, "Content-Type": "application/json"},
        )
        assert r.status_code == 401
        for _ in range(9):
            server.http.post("/v1/design", json={}, headers=auth())
        r = server.http.post(
            "/v1/design", content=big, headers={**auth(), "Content-Type": "application/json"}
        )
        assert r.status_code == 429 and "retry-after" in r.headers
    finally:
        server.cleanup()


@pytest.mark.parametrize("decoder", ["pybase64", "binascii"])
def test_streamed_images_are_the_bytes_sent_whatever_the_chunking(
    tmp_path: Path, decoder, monkeypatch
):
    """Pieces of any size, escapes (\\/ and \\n line breaks), data: URLs, in any order of
    fields: every image arrives byte for byte; invalid base64 is reported, not raised.
    With the SIMD decoder (pybase64) and without it (binascii), the same."""
    from shotsmith.server import uploads

    if decoder == "binascii":
        monkeypatch.setattr(uploads, "_simd_b64decode", None)
    else:
        assert uploads._simd_b64decode is not None, "pybase64 is a server dependency"
    rng = random.Random(7)
    pngs = [small_png(), _noise_png(1, (90, 40)), small_png(30, 70)]
    texts = [
        b64(pngs[0]),
        "data:image/png;base64,"
        + "\\n".join(b64(pngs[1])[i : i + 76] for i in range(0, len(b64(pngs[1])), 76)),
        b64(pngs[2]).replace("/", "\\/"),
    ]
    document = (
        '{"images": ['
        + ", ".join(f'{{"screen": "s{i}", "data": "{t}"}}' for i, t in enumerate(texts))
        + '], "project_name": "Chunks", "extra": [1, 2.5, true, null, "\\u00e9\\ud83d\\ude00"]}'
    ).encode()
    for trial in range(20):
        folder = tmp_path / f"t{trial}"
        folder.mkdir()

        sinks = []

        def sink_for(path, folder=folder, sinks=sinks):
            if len(path) == 3 and path[0] == "images" and path[2] == "data":
                sinks.append(Base64FileSink(path[1], folder / f"{path[1]}.png", 10 * 2**20))
                return sinks[-1]
            return None

        parser = JsonStreamParser(sink_for)
        pos = 0
        while pos < len(document):
            size = rng.choice([1, 2, 3, 7, 64, 1000, 65536])
            parser.feed(document[pos : pos + size])
            pos += size
            if rng.random() < 0.3:
                for sink in sinks:
                    sink.flush()  # as the server does between steps, in a thread
        data = parser.close()
        for sink in sinks:
            sink.finish()
        assert data["project_name"] == "Chunks" and data["extra"][-1] == "é😀"
        for i, png in enumerate(pngs):
            staged = data["images"][i]["data"]
            assert staged.error is None and staged.size == len(png)
            assert (folder / f"{i}.png").read_bytes() == png
    sink = Base64FileSink(0, tmp_path / "bad.png", 1000)
    for piece in (b"iVBO", b"Rw0K", b"GgoA!!", b"AAAA"):
        sink.write(piece)
    assert "'!' is not a base64 character" in sink.close().error
    sink = Base64FileSink(0, tmp_path / "short.png", 1000)
    sink.write(b"iVBORw0KGgo")
    assert "Incorrect padding" in sink.close().error
    sink = Base64FileSink(0, tmp_path / "big.png", 1000)
    with pytest.raises(Exception, match="decodes to more than"):
        sink.write(base64.b64encode(bytes(2000)))
    sink.abort()
