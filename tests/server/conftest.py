"""Fixtures for the server tests: PNGs, in-process apps, a live uvicorn server, a webhook
receiver. Everything is real: worker processes, SQLite files, sockets, HTTP."""

from __future__ import annotations

import base64
import io
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from PIL import Image, ImageDraw, ImageFont


def pytest_configure(config):
    # Starlette's TestClient nudges towards httpx2; we test with httpx, which we ship with.
    config.addinivalue_line("filterwarnings", "ignore:Using `httpx` with `starlette.testclient`")


ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_inputs"
KEY_A = "test-key-alpha-0123456789abcdef"
KEY_B = "test-key-bravo-0123456789abcdef"
STORE_SIZE = (1320, 2868)
FONT = "/usr/share/fonts/opentype/inter/Inter-Bold.otf"


def auth(key: str = KEY_A) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


# --- images --------------------------------------------------------------------------------


def png_bytes(im: Image.Image) -> bytes:
    buf = io.BytesIO()
    im.save(buf, "PNG")
    return buf.getvalue()


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _font(size: int) -> ImageFont.ImageFont:
    try:
        return ImageFont.truetype(FONT, size)
    except OSError:
        return ImageFont.load_default(size)


def screen_image(title: str, accent=(20, 150, 120), size=(1206, 2622)) -> Image.Image:
    """A plausible app screen: title, accent card, list rows."""
    w, h = size
    im = Image.new("RGB", size, (245, 246, 248))
    d = ImageDraw.Draw(im)
    d.text((w * 0.05, h * 0.09), title, font=_font(max(12, w // 12)), fill=(20, 20, 24))
    d.rounded_rectangle((w * 0.05, h * 0.15, w * 0.95, h * 0.27), radius=w // 30, fill=accent)
    for i in range(8):
        y = h * (0.29 + i * 0.076)
        d.rounded_rectangle(
            (w * 0.05, y, w * 0.95, y + h * 0.065), radius=w // 40, fill=(255, 255, 255)
        )
    return im


SCREENS = [
    "overview",
    "budgets",
    "transactions",
    "reports",
    "goals",
    "settings",
    "search",
    "profile",
    "cards",
    "alerts",
]


@cache
def real_screens(count: int = 10) -> tuple[tuple[str, bytes], ...]:
    """(screen, PNG bytes) of real sample screenshots if the repo has them, else generated
    1206x2622 screens."""
    found: list[tuple[str, bytes]] = []
    if SAMPLES.is_dir():
        for app in sorted(p for p in SAMPLES.iterdir() if p.is_dir() and p.name != "webapps"):
            for path in sorted(app.glob("*.png")):
                name = path.stem.split("_", 1)[-1].replace("-", " ") or "screen"
                found.append((name, path.read_bytes()))
    if len(found) < count:
        accents = [(20, 150, 120), (90, 60, 200), (230, 110, 40), (30, 120, 220)]
        found = [
            (name, png_bytes(screen_image(name.title(), accents[i % 4])))
            for i, name in enumerate(SCREENS)
        ]
        found = found * (count // len(found) + 1)
    return tuple(found[:count])


@cache
def small_png(w: int = 60, h: int = 130) -> bytes:
    return png_bytes(screen_image("Hi", size=(w, h)))


def design_body(count: int = 1, *, small: bool = True, **extra) -> dict:
    if small:
        images = [
            {"data": b64(small_png()), "screen": SCREENS[i % len(SCREENS)]} for i in range(count)
        ]
    else:
        images = [{"data": b64(data), "screen": name} for name, data in real_screens(count)]
    return {"project_name": "Pocket Budget", "images": images, **extra}


def output_name(position: int, screen: str) -> str:
    """The file name the renderer gives the PNG of a screen (1-based position)."""
    safe = "".join(ch if ch.isalnum() else "-" for ch in screen.lower()).strip("-")
    return f"{position:02d}_{safe or 'screen'}.png"


def check_store_png(data: bytes) -> None:
    im = Image.open(io.BytesIO(data))
    im.load()
    assert im.format == "PNG"
    assert im.size == STORE_SIZE
    assert im.mode == "RGB"


def wait_finished(get, job_id: str, key: str = KEY_A, timeout: float = 90.0) -> dict:
    """Poll with ``get`` (a TestClient or httpx.Client .get) until completed/failed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = get(f"/v1/design/{job_id}", headers=auth(key))
        assert r.status_code == 200, r.text
        job = r.json()
        if job["status"] in ("completed", "failed"):
            return job
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} did not finish in {timeout} s (last: {job})")


# --- in-process apps -------------------------------------------------------------------------


@pytest.fixture(scope="session")
def shared_app(tmp_path_factory):
    """One in-process app with worker processes, shared by the tests that render. Its
    webhooks may go to private addresses: the test receivers listen on 127.0.0.1."""
    from fastapi.testclient import TestClient

    from shotsmith.server.app import create_app

    data_dir = tmp_path_factory.mktemp("shared-data")
    app = create_app(
        data_dir,
        None,
        [KEY_A, KEY_B],
        workers=2,
        rate_limit=10_000,
        design_options={"ocr": False},
        webhook_timeout=2.0,
        webhook_allow_private=True,
    )
    with TestClient(app) as client:
        yield app, client


@pytest.fixture
def client(shared_app):
    return shared_app[1]


@pytest.fixture
def store(shared_app):
    return shared_app[0].state.server.store


# --- webhook receiver --------------------------------------------------------------------------


class Receiver:
    def __init__(self) -> None:
        self.calls: queue.Queue = queue.Queue()
        received = self.calls

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                received.put(
                    {"path": self.path, "headers": dict(self.headers), "body": json.loads(body)}
                )
                self.send_response(500 if self.path.startswith("/fail") else 200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def get(self, timeout: float = 60.0) -> dict:
        return self.calls.get(timeout=timeout)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.close()


class DripReceiver:
    """A webhook endpoint that never finishes answering: after the request it sends one
    byte every ``interval`` seconds. Records each connection's (path, opened, closed)."""

    def __init__(self, interval: float = 1.0) -> None:
        self.interval = interval
        self.connections: list[dict] = []
        self._lock = threading.Lock()
        self._sock = socket.socket()
        self._sock.bind(("127.0.0.1", 0))
        self._sock.listen(64)
        self.port = self._sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._stop = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        record = {"path": None, "opened": time.monotonic(), "closed": None}
        with self._lock:
            self.connections.append(record)
        data = b""
        conn.settimeout(30)
        try:
            while b"\r\n\r\n" not in data:
                piece = conn.recv(65536)
                if not piece:
                    break
                data += piece
            record["path"] = data.split(b" ", 2)[1].decode() if b" " in data else None
            for byte in b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n" * 100:
                if self._stop.wait(self.interval):
                    break
                conn.send(bytes([byte]))
        except OSError:
            pass
        finally:
            record["closed"] = time.monotonic()
            conn.close()

    def open_count(self) -> int:
        with self._lock:
            return sum(1 for c in self.connections if c["closed"] is None)

    def close(self) -> None:
        self._stop.set()
        self._sock.close()


@pytest.fixture
def drip() -> Iterator[DripReceiver]:
    r = DripReceiver()
    yield r
    r.close()


def closed_port_url() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/hook"


# --- a live server ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_cli(
    *args: str, env: dict | None = None, timeout: float = 60
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "shotsmith.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
    )


class LiveServer:
    """``shotsmith serve`` in a subprocess (its own process group, so kill -9 is real)."""

    def __init__(
        self,
        data_dir: Path,
        port: int | None = None,
        keys: str = KEY_A,
        workers: int = 2,
        extra: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
    ):
        self.data_dir = data_dir
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = open(data_dir.parent / f"server-{self.port}-{time.time_ns()}.log", "w+b")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "shotsmith.cli",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--data-dir",
                str(data_dir),
                "--workers",
                str(workers),
                "--log-level",
                "info",
                *extra,
            ],
            cwd=ROOT,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "SHOTSMITH_API_KEYS": keys, **(env or {})},
            start_new_session=True,
        )
        self.http = httpx.Client(base_url=self.url, timeout=30)
        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                raise AssertionError(f"server exited with {self.proc.returncode}:\n{self.output()}")
            try:
                if self.http.get("/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                self.kill()
                raise AssertionError(f"server did not start:\n{self.output()}")
            time.sleep(0.1)

    def output(self) -> str:
        self.log.flush()
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace")

    def worker_pids(self) -> list[int]:
        out = subprocess.run(["pgrep", "-P", str(self.proc.pid)], capture_output=True, text=True)
        return [int(p) for p in out.stdout.split()]

    def kill(self) -> None:
        """SIGKILL the server process only (not its workers: they must notice by themselves)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
        self.http.close()

    def terminate(self, timeout: float = 30) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(timeout)
        self.http.close()
        return self.proc.returncode

    def cleanup(self) -> None:
        try:  # the server and any worker it left behind (same process group)
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if self.proc.poll() is None:
            self.proc.wait(10)
        self.http.close()
        self.log.close()


@pytest.fixture
def live_servers() -> Iterator[list[LiveServer]]:
    """Collects servers a test starts and makes sure none outlives it."""
    servers: list[LiveServer] = []
    yield servers
    for s in servers:
        s.cleanup()
