"""capture picks the right device and explores single-page apps without changing them:
real Chromium against local servers.

* tests/capture_site/desktop/: pages made for a desktop (a fixed ``min-width`` on the
  body, a fixed-width table, no mobile viewport) are captured at a tablet, not shrunk onto
  a phone, and the report says why; a pinned phone size is not switched, and the error
  says so. The single-page apps below are made for phones and stay on the phone.
* tests/data/spa_apps/: three small single-page apps with seeded state whose buttons
  write (see that folder's README): the server records no write and its state is
  byte-identical afterwards, the local-only controls (tabs, sort headers, a dropdown, a
  slider) are explored, and every screen kept is distinct and usable.
"""

from __future__ import annotations

import base64
import hashlib
import http.server
import json
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from PIL import Image

from shotsmith import columns as C
from shotsmith.errors import CaptureError
from shotsmith.stages.capture import capture_report
from shotsmith.stages.capture.pages import error_page
from shotsmith.stages.capture.similarity import (
    DUPLICATE_DHASH,
    DUPLICATE_PHASH,
    dhash,
    hamming,
    phash,
)

from ...conftest import TESTS, serve_quietly

pytest.importorskip("playwright.sync_api")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        not any(Path(p).exists() for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser")),
        reason="no system Chromium",
    ),
]

DESKTOP = TESTS / "capture_site" / "desktop"


@pytest.fixture(scope="module")
def desktop_site():
    class Files(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(DESKTOP), **kwargs)

        def log_message(self, *args):  # quiet
            pass

    httpd, url = serve_quietly(Files)
    yield url
    httpd.shutdown()
    httpd.server_close()


@pytest.mark.parametrize(
    ("page", "why"),
    [
        ("minwidth", "fixed width of 1200 px"),
        ("table", "px wide, wider than the 440 pt"),
        ("noviewport", "no mobile viewport: laid out 980 px wide and shrunk"),
    ],
)
def test_desktop_only_page_is_captured_at_a_tablet_and_the_report_says_why(
    desktop_site, tmp_path, page, why
):
    report = capture_report(
        f"{desktop_site}/{page}.html", max_screens=2, timeout_s=40, out_dir=tmp_path
    )
    assert not report.frame.empty
    assert set(report.frame[C.DEVICE]) == {"ipad-pro-13"}
    assert {(w, h) for w, h in report.frame[[C.IMAGE_WIDTH, C.IMAGE_HEIGHT]].values} == {
        (2064, 2752)
    }
    switch = report.device_switch
    assert switch["from"] == "iphone-16-pro-max" and switch["to"] == "ipad-pro-13"
    assert f"/{page}.html" in switch["reason"] and why in switch["reason"]
    assert any("captured at ipad-pro-13 instead of iphone-16-pro-max" in n for n in report.notes)
    assert "instead of iphone-16-pro-max" in report.summary()
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["capture_report"]["device_switch"]["to"] == "ipad-pro-13"


def test_a_start_page_that_leads_straight_into_a_desktop_app_switches_to_a_tablet(desktop_site):
    # the start page fits a phone (a welcome, a loading state), the first page after it
    # does not: the app is a desktop app, captured at a tablet
    report = capture_report(f"{desktop_site}/home.html", max_screens=2, timeout_s=40)
    assert set(report.frame[C.DEVICE]) == {"ipad-pro-13"}
    assert report.device_switch["to"] == "ipad-pro-13"
    assert "/minwidth.html" in report.device_switch["reason"]


def test_a_rejected_start_page_whose_next_page_is_a_desktop_app_switches_to_a_tablet(desktop_site):
    # the start page is no screen (an empty state) but leads on; the first page after it
    # is a desktop layout: with nothing kept yet, the app is captured at a tablet
    report = capture_report(f"{desktop_site}/empty.html", max_screens=2, timeout_s=40)
    switch = report.device_switch
    assert switch["from"] == "iphone-16-pro-max" and switch["to"] == "ipad-pro-13"
    assert "/minwidth.html" in switch["reason"] and "fixed width of 1200 px" in switch["reason"]
    assert set(report.frame[C.DEVICE]) == {"ipad-pro-13"}
    assert [urlsplit(u).path for u in report.frame[C.SCREEN_URL]] == ["/minwidth.html"]
    rejected = {s.url: s for s in report.skipped}
    start = next(s for url, s in rejected.items() if url.endswith("/empty.html"))
    assert start.kind == "empty-state" and "no reports yet" in start.reason.lower()


def test_a_pinned_phone_size_is_not_switched_and_the_error_says_why(desktop_site):
    with pytest.raises(CaptureError) as caught:
        capture_report(f"{desktop_site}/minwidth.html", device_sizes="6.3", timeout_s=30)
    message = str(caught.value)
    assert "desktop layout at the 402 pt phone screen" in message
    assert "pinned" in message and "--size 13" in message


# --- the single-page apps (tests/data/spa_apps/) -----------------------------------------

SPA = TESTS / "data" / "spa_apps"
WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css"}


class SpaServer:
    """One app of the corpus on 127.0.0.1: its files, its seeded state at /api/state, and a
    WebSocket at /ws; every write (POST/PUT/PATCH/DELETE, a WebSocket command other than a
    subscription) is recorded and changes the state."""

    def __init__(self, name: str):
        self.folder = SPA / name
        self.seed = (self.folder / "seed.json").read_bytes()
        self.state = self.seed
        self.writes: list[str] = []
        self.reads = 0
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):  # quiet
                pass

            def _send(self, body: bytes, kind: str, status: int = 200) -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                path = self.path.split("?", 1)[0]
                if path == "/ws" and self.headers.get("Upgrade", "").lower() == "websocket":
                    return self._websocket()
                if path == "/api/state":
                    server.reads += 1
                    time.sleep(0.15)  # the data comes after the page, as in a real app
                    return self._send(server.state, "application/json")
                file = self.folder_file(path)
                if file is None:
                    return self._send(b"<h1>Not found</h1>", "text/html", 404)
                return self._send(file.read_bytes(), TYPES.get(file.suffix, "text/plain"))

            def folder_file(self, path: str) -> Path | None:
                name = "index.html" if path in ("/", "") else path.lstrip("/")
                file = (server.folder / name).resolve()
                if file.parent != server.folder.resolve() or not file.is_file():
                    return None
                return file if file.suffix in TYPES else None

            def _write(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                server.write(f"{self.command} {self.path} {body[:80]!r}")
                self._send(b'{"ok": true}', "application/json")

            do_POST = do_PUT = do_PATCH = do_DELETE = _write

            def _websocket(self):
                key = self.headers["Sec-WebSocket-Key"]
                accept = base64.b64encode(hashlib.sha1((key + WS_GUID).encode()).digest())
                self.send_response(101, "Switching Protocols")
                self.send_header("Upgrade", "websocket")
                self.send_header("Connection", "Upgrade")
                self.send_header("Sec-WebSocket-Accept", accept.decode())
                self.end_headers()
                self.wfile.flush()
                self.close_connection = True
                while True:
                    message = read_frame(self.rfile)
                    if message is None:
                        return
                    if json.loads(message).get("op") != "subscribe":
                        server.write(f"WS {message}")
                    reply = json.dumps({"status": "printing"}).encode()
                    self.wfile.write(bytes([0x81, len(reply)]) + reply)
                    self.wfile.flush()

        self.httpd, self.url = serve_quietly(Handler)

    def write(self, what: str) -> None:
        self.writes.append(what)
        self.state = json.dumps({"changed_by": what}).encode()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def read_frame(stream) -> str | None:
    """One text frame a browser sent (masked), None at a close frame or a hang-up."""
    try:
        head = stream.read(2)
        if len(head) < 2 or head[0] & 0x0F == 0x8:
            return None
        length = head[1] & 0x7F
        if length == 126:
            length = int.from_bytes(stream.read(2), "big")
        elif length == 127:
            length = int.from_bytes(stream.read(8), "big")
        mask = stream.read(4)
        data = bytes(b ^ mask[i % 4] for i, b in enumerate(stream.read(length)))
        return data.decode("utf-8", "replace")
    except (OSError, ValueError):
        return None


#: per app: the writes its buttons try that a capture presses (method, path), the local-only
#: controls it must explore (kind, label start), and text only an unwanted state shows
APPS = {
    "sentinel": {
        "blocked": {("POST", "/api/audit")},
        "explored": {
            ("tab", "Alerts"),
            ("tab", "Hosts"),
            ("choice", "Severity"),
            ("pointer", "CPU"),
        },
        "never": ("Loading", "Details: load average"),
    },
    "quill": {
        "blocked": {("PUT", "/api/notebooks/weekly-revenue/opened")},
        "explored": {("choice", "Range"), ("choice", "Smoothing")},
        "never": ("Loading", "Try a 30-day range"),  # the Suggestions popover
        "closed": "a dialog ('Suggestions') the app opens by itself was closed with the Escape",
    },
    "printdock": {
        "blocked": {("WS", "/ws")},
        "explored": {("choice", "Fahrenheit"), ("pointer", "Time")},
        "never": ("Connecting to the printer", "Queue jobs from your phone"),
        "closed": 'a dialog ("What\'s new") the app opens by itself was closed with a click',
    },
}


@pytest.fixture(scope="module", params=sorted(APPS))
def spa(request, tmp_path_factory):
    name = request.param
    server = SpaServer(name)
    seed_file = (server.folder / "seed.json").read_bytes()
    out = tmp_path_factory.mktemp(name)
    try:
        report = capture_report(server.url + "/", max_screens=4, timeout_s=45, out_dir=out)
    finally:
        server.close()
    return name, server, seed_file, report, out


def test_a_capture_of_a_single_page_app_never_changes_it(spa):
    name, server, seed_file, report, _ = spa
    assert server.reads >= 1  # the app did load its data
    assert server.writes == [], f"{name}: the server received writes: {server.writes}"
    assert server.state == server.seed  # its data byte-identical after the capture
    assert (server.folder / "seed.json").read_bytes() == seed_file


def test_every_write_a_press_tried_is_blocked_and_listed(spa):
    name, _, _, report, out = spa
    blocked = {(b.method, urlsplit(b.url).path) for b in report.blocked}
    assert APPS[name]["blocked"] <= blocked
    assert all(b.cause for b in report.blocked if b.kind in ("write", "websocket"))
    summary = report.summary()
    for method, path in APPS[name]["blocked"]:
        assert f"blocked {method} " in summary and path in summary
    manifest = json.loads((out / "manifest.json").read_text())
    listed = manifest["capture_report"]["network"]["blocked"]
    assert len(listed) == len(report.blocked)


def test_local_only_controls_are_explored_into_distinct_usable_screens(spa):
    name, _, _, report, out = spa
    pressed = {(p["kind"], p["control"]) for p in report.pressed}
    for kind, label in APPS[name]["explored"]:
        assert any(k == kind and c.startswith(label) for k, c in pressed), (kind, label, pressed)
    frame = report.frame
    assert len(frame) >= 3, report.summary()
    if "closed" in APPS[name]:  # what the app opens by itself is closed, and said
        assert any(n.startswith(APPS[name]["closed"]) for n in report.notes), report.notes
    assert set(frame[C.DEVICE]) == {"iphone-16-pro-max"}  # made for phones: stays a phone
    assert not report.device_switch
    for text in frame[C.SCREEN_TEXT]:
        assert len(text.split()) >= 15  # no empty or loading state kept
        for unwanted in APPS[name]["never"]:
            assert unwanted not in text
        assert error_page("", "", text) is None  # no error or diagnostic page kept
    hashes = []
    for path in frame[C.IMAGE]:
        with Image.open(path) as im:
            small = im.convert("RGB").resize((im.width // 4, im.height // 4), Image.BOX)
        hashes.append((dhash(small), phash(small)))
    for i, (d1, p1) in enumerate(hashes):
        for d2, p2 in hashes[i + 1 :]:
            assert hamming(d1, d2) > DUPLICATE_DHASH or hamming(p1, p2) > DUPLICATE_PHASH
