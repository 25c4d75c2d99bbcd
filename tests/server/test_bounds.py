"""What the server and its capture agent may reach, and how much one request may cost
(issue 21): capture URLs under the address policy, bounded PNG decompression, fair and
bounded uploads."""

from __future__ import annotations

import errno
import functools
import json
import os
import shutil
import socket
import sqlite3
import struct
import threading
import time
import urllib.parse
import zlib

import pytest

from shotsmith.addresses import host_refusal
from shotsmith.errors import InputImageError
from shotsmith.png import SIGNATURE, PngVerifier, verify_png
from shotsmith.server.limits import MAX_IMAGE_BYTES

from .conftest import KEY_A, KEY_B, LiveServer, auth, b64, design_body, small_png, wait_finished

pytestmark = pytest.mark.live_server


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


# --- item 3: fair, bounded uploads (raw sockets against a real uvicorn) -----------------------

KEY_C = "test-key-charlie-0123456789abcdef"


@pytest.fixture(scope="module")
def bounded(tmp_path_factory):
    """A live server with a short body deadline and two upload slots, one per key."""
    server = LiveServer(
        tmp_path_factory.mktemp("bounds") / "data",
        keys=f"{KEY_A},{KEY_B},{KEY_C}",
        workers=1,
        extra=(
            "--no-ocr",
            "--body-timeout",
            "8",
            "--max-uploads",
            "2",
            "--max-uploads-per-key",
            "1",
        ),
    )
    yield server
    server.cleanup()


class RawRequest:
    """A POST /v1/design over a plain socket: the headers now, body bytes when asked."""

    def __init__(self, port: int, length: int, key: str | None = KEY_A, extra: str = ""):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        auth_line = f"Authorization: Bearer {key}\r\n" if key else ""
        head = (
            f"POST /v1/design HTTP/1.1\r\nHost: x\r\n{auth_line}"
            f"Content-Type: application/json\r\n{extra}Content-Length: {length}\r\n\r\n"
        )
        self.started = time.monotonic()
        self.sock.sendall(head.encode())

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def answer(self, timeout: float = 30) -> tuple[int, dict[str, str], dict, float]:
        """(status, headers, JSON body, seconds since the headers were sent)."""
        self.sock.settimeout(timeout)
        data = b""
        while b"\r\n\r\n" not in data:
            piece = self.sock.recv(65536)
            assert piece, f"closed without an answer: {data!r}"
            data += piece
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.decode().split("\r\n")
        headers = {k.lower(): v for k, v in (line.split(": ", 1) for line in lines[1:])}
        while len(body) < int(headers.get("content-length", 0)):
            body += self.sock.recv(65536)
        elapsed = time.monotonic() - self.started
        return int(lines[0].split()[1]), headers, json.loads(body), elapsed

    def closed(self, timeout: float = 5) -> bool:
        """Whether the server closes the connection (reads what is left first)."""
        self.sock.settimeout(timeout)
        try:
            while self.sock.recv(65536):
                pass
        except ConnectionResetError:
            return True
        except TimeoutError:
            return False
        return True

    def close(self) -> None:
        self.sock.close()


def test_a_client_trickling_bytes_is_cut_off(bounded):
    """4 bytes now and then (never a 30 s pause) used to hold a request for ever: the body
    must average 1024 bytes/s after its first 5 s."""
    trickle = RawRequest(bounded.port, 100_000)
    trickle.send(b'{"pr')
    status, headers, body, elapsed = trickle.answer(timeout=25)
    assert status == 408 and body["error"]["code"] == "request_timeout", body
    assert "fewer than 1024 bytes per second" in body["error"]["message"]
    assert 4.5 < elapsed < 8
    assert headers["connection"] == "close" and trickle.closed()


def test_a_whole_body_has_a_deadline(bounded):
    """Fast enough on average, but the body is not complete within --body-timeout 8."""
    slow = RawRequest(bounded.port, 500_000)
    sent = 0
    slow.sock.settimeout(0.25)
    while sent < 200_000:
        slow.send(b" " * 2048)
        sent += 2048
        try:
            if slow.sock.recv(1, socket.MSG_PEEK):
                break  # the answer is coming
        except TimeoutError:
            pass
    status, headers, body, elapsed = slow.answer()
    assert status == 408 and "did not arrive within 8 s" in body["error"]["message"], body
    assert 7.5 < elapsed < 11
    assert headers["connection"] == "close" and slow.closed()


def test_one_key_cannot_take_every_upload_slot(bounded):
    big = 3 << 20
    first = RawRequest(bounded.port, big, KEY_A)  # holds one of the two slots
    first.send(b'{"project_name": "A", "images": [{"screen": "a", "data": "')
    time.sleep(0.3)
    try:
        again = RawRequest(bounded.port, big, KEY_A)
        status, headers, body, elapsed = again.answer(timeout=5)
        assert status == 429 and body["error"]["code"] == "too_many_uploads", body
        assert "(1)" in body["error"]["message"] and int(headers["retry-after"]) >= 1
        assert headers["connection"] == "close" and elapsed < 2 and again.closed()

        other = RawRequest(bounded.port, big, KEY_B)  # another key gets the second slot
        other.send(b'{"project_name": "B", "images": [{"screen": "b", "data": "')
        time.sleep(0.3)
        third = RawRequest(bounded.port, big, KEY_C)  # none left: the server is busy
        status, headers, body, _ = third.answer(timeout=5)
        assert status == 503 and body["error"]["code"] == "server_busy", body
        assert headers["connection"] == "close" and third.closed()
        other.close()
    finally:
        first.close()
    assert bounded.http.get("/healthz").status_code == 200


@pytest.mark.parametrize("key", [None, "not-a-key-of-this-server-0123456789"])
def test_unauthenticated_uploads_are_refused_at_once_and_not_read(bounded, key):
    request = RawRequest(bounded.port, 50 << 20, key)  # a 50 MiB body it never sends
    status, headers, body, elapsed = request.answer(timeout=5)
    assert status == 401 and body["error"]["code"] == "unauthorized", body
    assert headers["connection"] == "close" and headers["www-authenticate"] == "Bearer"
    assert elapsed < 2 and request.closed(timeout=2)


def test_a_declared_length_over_the_limit_is_refused_before_reading(bounded):
    request = RawRequest(bounded.port, 500 << 20, KEY_B)
    status, headers, body, elapsed = request.answer(timeout=5)
    assert status == 413 and body["error"]["code"] == "body_too_large", body
    assert headers["connection"] == "close" and elapsed < 2 and request.closed(timeout=2)


def test_unauthenticated_keep_alive_connections_are_closed(bounded):
    with socket.create_connection(("127.0.0.1", bounded.port), timeout=5) as sock:
        sock.sendall(b"GET /v1/design/job_x HTTP/1.1\r\nHost: x\r\n\r\n")
        data = b""
        while piece := sock.recv(65536):
            data += piece
    assert data.startswith(b"HTTP/1.1 401 ") and b"connection: close" in data.lower()


# --- item 4: no stuck jobs ---------------------------------------------------------------------


@pytest.fixture
def app_with_runner(tmp_path):
    from fastapi.testclient import TestClient

    from shotsmith.server.app import create_app

    def make(**options):
        app = create_app(
            tmp_path / "data",
            api_keys=[KEY_A],
            workers=1,
            design_options={"ocr": False},
            **options,
        )
        return app, TestClient(app)

    return make


def test_an_outcome_that_cannot_be_recorded_is_recorded_again(app_with_runner):
    app, client = app_with_runner()
    with client:
        store = app.state.server.store
        record, calls = store.complete, []

        def locked_twice(job, outputs):
            calls.append(job.job_id)
            if len(calls) <= 2:
                raise sqlite3.OperationalError("database is locked")
            return record(job, outputs)

        store.complete = locked_twice
        created = client.post("/v1/design", json=design_body(), headers=auth()).json()
        job = wait_finished(client.get, created["job_id"], timeout=60)
        assert job["status"] == "completed" and calls == [created["job_id"]] * 3


def test_the_watchdog_puts_a_stuck_job_back_in_the_queue(app_with_runner):
    """A claimed job whose submission failed stayed processing for ever."""
    app, client = app_with_runner(watch_interval=0.5)
    with client:
        runner = app.state.server.runner
        submit, failed = runner._submit, []

        def fails_once(item, *args):
            if not failed:
                failed.append(item.job_id)
                raise RuntimeError("cannot start a worker process")
            return submit(item, *args)

        runner._submit = fails_once
        created = client.post("/v1/design", json=design_body(), headers=auth()).json()
        job = wait_finished(client.get, created["job_id"], timeout=60)
        assert job["status"] == "completed" and failed == [created["job_id"]]


def test_the_watchdog_fails_a_job_that_keeps_getting_stuck(app_with_runner):
    app, client = app_with_runner(watch_interval=0.5, max_attempts=2)
    with client:
        runner = app.state.server.runner

        def never(item, *args):
            raise RuntimeError("cannot start a worker process")

        runner._submit = never
        created = client.post("/v1/design", json=design_body(), headers=auth()).json()
        job = wait_finished(client.get, created["job_id"], timeout=60)
        assert job["status"] == "failed", job
        assert job["error"].startswith("the job was left processing with no worker designing it")


def test_a_stuck_job_can_be_deleted(app_with_runner):
    app, client = app_with_runner(watch_interval=3600)
    with client:
        runner = app.state.server.runner
        runner._submit = lambda item, *args: (_ for _ in ()).throw(RuntimeError("no worker"))
        created = client.post("/v1/design", json=design_body(), headers=auth()).json()
        path = f"/v1/design/{created['job_id']}"
        deadline = time.monotonic() + 30
        while client.get(path, headers=auth()).json()["status"] != "processing":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        r = client.delete(path, headers=auth())
        assert r.status_code == 409  # just claimed: it may be being submitted
        runner.claim_grace = 0
        assert client.delete(path, headers=auth()).status_code == 204
        assert client.get(path, headers=auth()).status_code == 404


# --- item 5: per-tenant webhook resources, every delivery recorded once -------------------------


def _hanging_resolver(answers: dict[str, str], release: threading.Event, calls: list[str]):
    """getaddrinfo for test names: ``answers`` resolve at once, ``*.slow.test`` hang until
    ``release`` (as a resolver that never answers does)."""

    def resolve(host, port, *args, **kwargs):
        calls.append(host)
        if host.endswith(".slow.test"):
            release.wait(60)
            raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (answers[host], port))]

    return resolve


def _webhook_outcome(store, job_id: str, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = store.get_job(job_id)
        if job.webhook_status in ("delivered", "failed"):
            return job
        time.sleep(0.05)
    raise AssertionError(f"webhook of {job_id} not recorded: {job.webhook_status}")


def test_one_keys_hanging_dns_does_not_hold_up_another_keys_webhooks(tmp_path, receiver):
    from fastapi.testclient import TestClient

    from shotsmith.server.app import create_app

    release, calls = threading.Event(), []
    port = int(receiver.url.rsplit(":", 1)[1])
    app = create_app(
        tmp_path / "data",
        api_keys=[KEY_A, KEY_B],
        workers=2,
        rate_limit=10_000,
        design_options={"ocr": False},
        webhook_timeout=1.0,
        webhook_allow_private=True,
        webhook_resolver=_hanging_resolver({"fast.test": "127.0.0.1"}, release, calls),
    )
    try:
        with TestClient(app) as client:
            store = app.state.server.store
            slow = [
                client.post(
                    "/v1/design",
                    json=design_body(webhook_url=f"http://hook{i}.slow.test/"),
                    headers=auth(KEY_A),
                ).json()["job_id"]
                for i in range(6)
            ]
            for job_id in slow:
                row = _webhook_outcome(store, job_id)
                assert row.webhook_status == "failed", row
                assert "resolving the host took longer" in row.webhook_error or (
                    "have not answered yet" in row.webhook_error
                )
            # six lookups hang; the other key's webhooks, by address and by name, go out
            for url in (f"{receiver.url}/literal", f"http://fast.test:{port}/named"):
                job_id = client.post(
                    "/v1/design", json=design_body(webhook_url=url), headers=auth(KEY_B)
                ).json()["job_id"]
                row = _webhook_outcome(store, job_id)
                assert row.webhook_status == "delivered", row.webhook_error
            assert "127.0.0.1" not in calls  # a literal address is never looked up
            assert sum(1 for c in calls if c.endswith(".slow.test")) <= 2  # per key, at once
    finally:
        release.set()


@pytest.mark.parametrize("path", ["/hooks/€uro", "/hooks/😀?q=ü&x=%41"])
def test_non_ascii_webhook_paths_are_percent_encoded_and_delivered(client, store, receiver, path):
    created = client.post(
        "/v1/design", json=design_body(webhook_url=receiver.url + path), headers=auth()
    ).json()
    call = receiver.get(timeout=60)
    assert call["body"]["job_id"] == created["job_id"]
    assert call["path"].isascii() and urllib.parse.unquote(call["path"]) == urllib.parse.unquote(
        path
    )
    assert _webhook_outcome(store, created["job_id"]).webhook_status == "delivered"


def test_a_failure_webhook_is_sent_once_across_a_restart(tmp_path, receiver):
    """A job interrupted max_attempts times is failed at start-up: its webhook went out
    twice (once when it failed, once as a webhook found pending)."""
    from fastapi.testclient import TestClient

    from shotsmith.server.app import create_app
    from shotsmith.server.store import Store

    with Store(tmp_path / "data") as store:
        store.insert_job(
            job_id="job_0123456789abcdef0123",
            owner="owner",
            project_name="P",
            input_count=1,
            params={"inputs": ["inputs/01.png"], "screens": ["home"], "devices": []},
            webhook_url=receiver.url + "/once",
            base_url="http://127.0.0.1:1",
        )
        for _ in range(3):  # claimed three times by servers that died
            job = store.claim_next()
            if job.attempts < 3:
                store.requeue(job, count_attempt=True)
    app = create_app(
        tmp_path / "data", api_keys=[KEY_A], workers=1, max_attempts=3, webhook_allow_private=True
    )
    with TestClient(app):
        call = receiver.get(timeout=30)
        assert call["body"]["status"] == "failed" and "interrupted 3 times" in call["body"]["error"]
        time.sleep(1.5)
        assert receiver.calls.empty()


# --- item 6: the low ones -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "address, says",
    [
        ("::127.0.0.1", "loopback"),  # IPv4-compatible
        ("::ffff:0:127.0.0.1", "loopback"),  # IPv4-translated
        ("64:ff9b:1::7f00:1", "loopback"),  # local-use NAT64
        ("64:ff9b:1::808:808", "local-use IPv4/IPv6 translation"),
        ("fec0::1", "site-local"),
        ("::8.8.8.8", "IPv4-compatible"),
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "192.0.2.45"),  # Teredo
        ("3fff::1", "documentation"),
        ("5f00::1", "SRv6"),
        ("100.64.0.1", "carrier-grade NAT"),
        ("192.88.99.1", "6to4 relay"),
    ],
)
def test_every_special_purpose_ipv6_and_ipv4_form_is_refused(address, says):
    from shotsmith.addresses import address_refusal, literal_address

    reason = address_refusal(literal_address(f"[{address}]" if ":" in address else address))
    assert reason is not None and says in reason, reason
    assert host_refusal(f"[{address}]" if ":" in address else address)


@pytest.mark.parametrize("address", ["8.8.8.8", "2606:4700::1111", "64:ff9b::808:808"])
def test_public_addresses_stay_allowed(address):
    from shotsmith.addresses import address_refusal, literal_address

    assert address_refusal(literal_address(address)) is None


@pytest.mark.parametrize(
    "url",
    [
        "http://[::ffff:127.0.0.1]:8787/",
        "http://[::127.0.0.1]:8787/",
        "http://0.0.0.0:8787/",
        "http://0:8787/",
        "http://[::]:8787/",
    ],
)
def test_with_allow_private_the_servers_own_port_stays_refused(url):
    from shotsmith.server.webhooks import WebhookPolicy

    policy = WebhookPolicy(allow_private=True).with_own([("127.0.0.1", 8787)])
    assert policy.url_refusal(url) == "it points at this server"
    assert policy.url_refusal(url.replace("8787", "8788")) is None


@pytest.mark.parametrize("weak", ["a" * 16, "ab" * 12, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"])
def test_predictable_environment_keys_are_refused(tmp_path, weak):
    from shotsmith.errors import InvalidOptionError
    from shotsmith.server.app import create_app

    with pytest.raises(InvalidOptionError, match=r"API key 2 .* is too predictable") as err:
        create_app(tmp_path / "data", api_keys=[KEY_A, weak])
    assert "secrets.token_urlsafe" in str(err.value)
    create_app(tmp_path / "ok", api_keys=[KEY_A, "0123456789abcdef"])  # 64 bits: enough


def test_content_length_and_chunked_together_are_refused_and_closed(bounded):
    smuggle = RawRequest(bounded.port, 5, KEY_A, extra="Transfer-Encoding: chunked\r\n")
    smuggle.send(b"0\r\n\r\nGET /v1/design/x HTTP/1.1\r\nHost: x\r\n\r\n")
    status, headers, body, _ = smuggle.answer(timeout=5)
    assert status == 400 and body["error"]["code"] == "ambiguous_body_length", body
    assert headers["connection"] == "close" and smuggle.closed(timeout=2)


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded"])
def test_json_bodies_must_say_they_are_json(client, content_type):
    headers = {**auth(), **({"Content-Type": content_type} if content_type else {})}
    body = json.dumps(design_body()).encode()
    r = client.post("/v1/design", content=body, headers=headers)
    assert r.status_code == 415, r.text
    error = r.json()["error"]
    assert error["code"] == "unsupported_media_type"
    assert "Content-Type: application/json" in error["message"]
    assert (repr(content_type) if content_type else "none was sent") in error["message"]
    ok = {**auth(), "Content-Type": "application/json; charset=utf-8"}
    assert client.post("/v1/design", content=body, headers=ok).status_code == 202


def test_wrong_keys_are_throttled_per_client_address(tmp_path):
    from fastapi.testclient import TestClient

    from shotsmith.server.app import create_app

    app = create_app(
        tmp_path / "data", api_keys=[KEY_A], auth_failure_limit=3, auth_failure_window=2.0
    )
    client = TestClient(app)
    wrong = auth("guessed-key-0123456789abcdef")
    for _ in range(4):
        assert client.get("/v1/design/job_x").status_code == 401  # no key is no guess
    for _ in range(3):
        r = client.get("/v1/design/job_x", headers=wrong)
        assert r.status_code == 401 and r.headers["connection"] == "close"
    for headers in (wrong, auth()):  # refused whatever the key, for a while
        r = client.get("/v1/design/job_x", headers=headers)
        assert r.status_code == 429, r.text
        assert r.json()["error"]["code"] == "too_many_failed_logins"
        assert 1 <= int(r.headers["retry-after"]) <= 2
    time.sleep(2.1)
    assert client.get("/v1/design/job_x", headers=auth()).status_code == 404


@pytest.mark.parametrize("base_url", ["https://shots.example.com", None])
def test_redirects_are_built_from_the_base_url_not_the_host_header(tmp_path, base_url):
    from fastapi.testclient import TestClient

    from shotsmith.server.app import create_app

    app = create_app(tmp_path / "data", base_url=base_url, api_keys=[KEY_A])
    client = TestClient(app)
    for path in ("/v1/design/job_x/", "/healthz/"):
        r = client.get(path, headers={**auth(), "Host": "evil.example"}, follow_redirects=False)
        assert r.status_code == 307
        assert r.headers["location"] == (base_url or "") + path.rstrip("/")


def test_delete_reports_files_it_could_not_remove(client, store, monkeypatch):
    created = client.post("/v1/design", json=design_body(), headers=auth()).json()
    job = wait_finished(client.get, created["job_id"])
    assert job["status"] == "completed", job
    unlink = os.unlink

    def refuse_outputs(path, *args, **kwargs):
        if str(path).endswith(".png") and "01_" in str(path):
            raise PermissionError(13, "Permission denied", str(path))
        return unlink(path, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", refuse_outputs)
    r = client.delete(f"/v1/design/{job['job_id']}", headers=auth())
    monkeypatch.undo()
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["deleted"] is True and answer["job_id"] == job["job_id"]
    assert answer["files_not_removed"] == ["out/pocket-budget/01_overview.png (permission denied)"]
    assert "could not be removed" in answer["message"]
    assert client.get(f"/v1/design/{job['job_id']}", headers=auth()).status_code == 404
    shutil.rmtree(store.job_dir(job["job_id"]))


@pytest.mark.parametrize(
    "cause, says",
    [
        (OSError(errno.ENOSPC, "No space left on device"), "no space left on device"),
        (sqlite3.OperationalError("database or disk is full"), "database or disk is full"),
    ],
)
def test_storage_behind_another_error_is_named_not_internal(tmp_path, monkeypatch, cause, says):
    import shotsmith.pipeline
    from shotsmith.server.jobs import run_design

    def design(*args, **kwargs):
        try:
            raise cause
        except Exception as exc:
            raise RuntimeError("writing the render table failed") from exc

    monkeypatch.setattr(shotsmith.pipeline, "design", design)
    kind, message = run_design(
        str(tmp_path), ["inputs/01.png"], "P", {"screens": ["a"], "devices": []}, {}
    )
    assert kind == "error" and message.startswith("storage unavailable"), message
    assert says in message and "internal error" not in message
    monkeypatch.setattr(shotsmith.pipeline, "design", lambda *a, **k: 1 / 0)
    assert run_design(str(tmp_path), [], "P", {"screens": [], "devices": []}, {})[1].startswith(
        "internal error while designing (ZeroDivisionError"
    )
