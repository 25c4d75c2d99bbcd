"""capture: real Chromium against local web apps, real pixels; folders; sizes; CLI."""

from __future__ import annotations

import http.server
import io
import json
import re
import socket
import threading
import time
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import numpy as np
import pytest
from PIL import Image

from shotsmith import columns as C
from shotsmith.cli import build_parser
from shotsmith.errors import InputImageError, ShotsmithError
from shotsmith.png import encode_png
from shotsmith.stages.capture import (
    CAPTURE_DEVICES,
    FRAME_COLUMNS,
    capture,
    capture_report,
    resolve_devices,
)
from shotsmith.stages.read import read_screenshots
from shotsmith.statusbar import StatusBarStyle, draw_status_bar

from ...conftest import ROOT, TESTS, serve_quietly

pytestmark = [pytest.mark.browser, pytest.mark.slow]

WEBAPP = ROOT / "sample_inputs" / "webapps" / "pocket-budget"
SITE = TESTS / "capture_site"

pytest.importorskip("playwright.sync_api")
needs_browser = pytest.mark.skipif(
    not any(Path(p).exists() for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser")),
    reason="no system Chromium",
)


# --- local servers -------------------------------------------------------------


class Server:
    """A threaded http.server on 127.0.0.1 (free port) recording every request."""

    def __init__(self, root: Path, other: str = ""):
        self.hits: list[tuple[str, str]] = []
        self.release = threading.Event()
        hits, release, base = self.hits, self.release, root

        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, directory=str(base), **kwargs)

            def log_message(self, *args):  # quiet
                pass

            def do_GET(self):
                path = urlsplit(self.path).path
                hits.append(("GET", path))
                if path in ("/slow", "/slow-image.png"):  # hangs longer than any timeout
                    release.wait(120)
                    return
                if path == "/" or path.endswith(".html"):
                    file = base / ("index.html" if path == "/" else path.lstrip("/"))
                    if not file.is_file():
                        self.send_error(404, "Not Found")
                        return
                    body = file.read_text(encoding="utf-8").replace("{{OTHER}}", other).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "text/html; charset=utf-8")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                super().do_GET()

            def do_POST(self):
                hits.append(("POST", urlsplit(self.path).path))
                self.send_response(200)
                self.end_headers()

        class Quiet(http.server.ThreadingHTTPServer):
            def handle_error(self, request, client_address):  # the browser hung up: fine
                pass

        self.httpd = Quiet(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()


TRAPS = SITE / "traps"
WALL = SITE / "wall"
TRAILS = [  # id, name, length, difficulty, colour
    (1, "Mesa Trail", "6.7 mi", "Moderate", "#6b8f3a"),
    (2, "Royal Arch", "3.4 mi", "Hard", "#a0522d"),
    (3, "Chautauqua Loop", "1.9 mi", "Easy", "#3a7d8f"),
    (4, "Bear Peak", "8.1 mi", "Hard", "#5a3a8f"),
    (5, "Sanitas Valley", "2.6 mi", "Easy", "#8f7d3a"),
    (6, "Flagstaff Summit", "4.0 mi", "Moderate", "#3a8f5a"),
    (7, "Fern Canyon", "5.2 mi", "Hard", "#8f3a5a"),
    (8, "Boulder Creek Path", "5.5 mi", "Easy", "#3a5a8f"),
]


class AppServer:
    """A small dynamic web app on 127.0.0.1 (free port) that records every request."""

    def __init__(self):
        self.hits: list[tuple[str, str]] = []
        app = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_GET(self):
                app.hits.append(("GET", urlsplit(self.path).path))
                app.get(self)

            def do_POST(self):
                app.hits.append(("POST", urlsplit(self.path).path))
                length = int(self.headers.get("Content-Length") or 0)
                app.post(self, self.rfile.read(length).decode())

        self.httpd, self.url = serve_quietly(Handler)

    @staticmethod
    def send(
        handler,
        body: str | bytes,
        kind: str = "text/html; charset=utf-8",
        status: int = 200,
        headers: dict | None = None,
    ) -> None:
        data = body.encode() if isinstance(body, str) else body
        handler.send_response(status)
        handler.send_header("Content-Type", kind)
        handler.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            handler.send_header(key, value)
        handler.end_headers()
        handler.wfile.write(data)

    def get(self, handler) -> None:  # pragma: no cover - overridden
        self.send(handler, "", status=404)

    def post(self, handler, body: str) -> None:
        self.send(handler, "ok")

    def requested(self, path: str, method: str = "GET") -> bool:
        return (method, path) in self.hits

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class TrailbookServer(AppServer):
    """Trailbook, a hiking app whose pages hold the traps real web apps set for a capture:
    raw data and downloads behind plain links, error pages served with 200, a blank page,
    menus and dialogs left open, a cookie banner, a toast, a framework warning overlay, an
    SVG link, a page whose script breaks DOM walking, and a table with sort/facet variants
    and one detail page per trail."""

    def page(self, name: str) -> str:
        tabbar = (TRAPS / "_tabbar.html").read_text(encoding="utf-8")
        return (TRAPS / name).read_text(encoding="utf-8").replace("<!--tabbar-->", tabbar)

    def get(self, h) -> None:
        parts = urlsplit(h.path)
        path, query = parts.path, dict(parse_qsl(parts.query))
        pages = {
            "/": "index.html",
            "/search": "search.html",
            "/settings": "settings.html",
            "/alerts": "alerts.html",
            "/conditions": "conditions.html",
            "/permits": "permits.html",
            "/map": "map.html",
            "/about": "about.html",
            "/crashy": "crashy.html",
            "/cover": "cover.html",
            "/cover-naive": "cover-naive.html",
            "/get-the-app": "get-the-app.html",
            "/journal": "journal.html",
            "/loading": "loading.html",
        }
        if path == "/popular" and self.hits.count(("GET", "/popular")) == 1:
            return self.send(h, "slow down", "text/plain", status=429, headers={"Retry-After": "1"})
        if path == "/popular":
            return self.send(h, self.page("popular.html"))
        if path in pages:
            return self.send(h, self.page(pages[path]))
        if path == "/app.css":
            return self.send(h, (TRAPS / "app.css").read_bytes(), "text/css")
        if path == "/trails":
            rows = list(TRAILS)
            if query.get("sort") == "name":
                rows.sort(key=lambda t: t[1])
            elif query.get("sort") == "length":
                rows.sort(key=lambda t: float(t[2].split()[0]))
            if "facet" in query:
                rows = [t for t in rows if t[3].lower() == query["facet"]]
            body = "".join(
                f'<tr><td><a href="/trails/{i}">{n}</a></td><td>{ln}</td><td>{d}</td></tr>'
                for i, n, ln, d, _ in rows
            )
            return self.send(h, self.page("trails.html").replace("<!--rows-->", body))
        m = re.fullmatch(r"/trails/(\d+)", path)
        if m and 1 <= int(m.group(1)) <= len(TRAILS):
            i, name, length, difficulty, colour = TRAILS[int(m.group(1)) - 1]
            html = self.page("trail.html")
            for key, value in (
                ("name", name),
                ("length", length),
                ("difficulty", difficulty),
                ("colour", colour),
                ("gain", str(300 * i + 120)),
                ("next", str(i % len(TRAILS) + 1)),
            ):
                html = html.replace(f"<!--{key}-->", value)
            return self.send(h, html)
        if path in ("/api/trails", "/trails.json"):
            return self.send(
                h, json.dumps([{"id": t[0], "name": t[1]} for t in TRAILS]), "application/json"
            )
        if path == "/notes":
            return self.send(h, "Trailbook 4.2\n- offline maps\n", "text/plain; charset=utf-8")
        if path == "/table":
            return self.send(h, "id,name\n1,Mesa Trail\n", "text/csv")
        if path == "/guide":
            return self.send(
                h,
                b"%PDF-1.4 trail guide",
                "application/pdf",
                headers={"Content-Disposition": 'attachment; filename="guide.pdf"'},
            )
        if path == "/status":
            return self.send(h, "<h1>Internal Server Error</h1>", status=500)
        if path == "/old-trails":
            return self.send(
                h,
                "<!doctype html><title>Trailbook</title><h1>404</h1>"
                "<p>Page not found. The trail you are looking for has moved.</p>",
            )
        if path == "/debug":
            return self.send(
                h,
                "<!doctype html><title>Trailbook</title><pre>Traceback (most "
                'recent call last):\n  File "app.py", line 12, in view\n'
                "KeyError: 'trail'</pre>",
            )
        if path == "/empty":
            return self.send(
                h, "<!doctype html><html><head><title>Trailbook</title></head><body></body></html>"
            )
        return self.send(h, "<h1>Not Found</h1>", status=404)


WALL_USER, WALL_PASSWORD = "maya", "trail-mix-42"


class ChatterServer(AppServer):
    """Chatter, a chat app behind a sign-in wall: every page redirects to /login until the
    session cookie is set, which only a POST of the right user name and password does."""

    cookie = "chatter_session=s3cr3t"

    def login_page(self, next_path: str, error: str = "") -> str:
        html = (WALL / "login.html").read_text(encoding="utf-8")
        html = html.replace("<!--next-->", f"?next={next_path}" if next_path else "")
        return html.replace(
            "<!--error-->", f'<p class="error" role="alert">{error}</p>' if error else ""
        )

    def get(self, h) -> None:
        parts = urlsplit(h.path)
        path = parts.path
        if path == "/login":
            return self.send(h, self.login_page(dict(parse_qsl(parts.query)).get("next", "")))
        if path == "/forgot":
            return self.send(
                h,
                "<!doctype html><title>Forgot · Chatter</title><h1>Reset your "
                "password</h1><p>We will send you a link.</p>",
            )
        pages = {
            "/": (
                "Chats",
                "<ul><li>Ana: see you at the trailhead</li><li>Ben: photos from "
                "Saturday</li><li>Climbing club: 3 new messages</li></ul>"
                '<p><a href="/rooms/new">New room</a></p>',
            ),
            "/rooms/new": (  # a form with a password field that is not a sign-in
                "New room",
                '<form method="post" action="/rooms"><label>Room name <input name="room">'
                '</label><label>Room password <input name="password" type="password"></label>'
                "<button>Create the room</button></form>",
            ),
            "/contacts": (
                "Contacts",
                "<ul><li>Ana Ortiz</li><li>Ben Kim</li><li>Chloe Ng</li><li>Dev Patel</li></ul>",
            ),
            "/settings": (
                "Settings",
                "<h2>Notifications</h2><p>Message previews: on</p>"
                "<h2>Privacy</h2><p>Read receipts: off</p>",
            ),
        }
        if path not in pages:
            return self.send(h, "<h1>Not Found</h1>", status=404)
        if self.cookie not in (h.headers.get("Cookie") or ""):
            return self.send(h, "", status=302, headers={"Location": f"/login?next={path}"})
        title, body = pages[path]
        html = (WALL / "page.html").read_text(encoding="utf-8")
        return self.send(h, html.replace("<!--title-->", title).replace("<!--body-->", body))

    def post(self, h, body: str) -> None:
        parts = urlsplit(h.path)
        form = dict(parse_qsl(body))
        next_path = dict(parse_qsl(parts.query)).get("next", "/")
        if parts.path == "/login" and (form.get("username"), form.get("password")) == (
            WALL_USER,
            WALL_PASSWORD,
        ):
            return self.send(
                h,
                "",
                status=303,
                headers={"Location": next_path, "Set-Cookie": f"{self.cookie}; Path=/; HttpOnly"},
            )
        return self.send(h, self.login_page(next_path, "Wrong user name or password."))


@pytest.fixture(scope="module")
def webapp_server():
    server = Server(WEBAPP)
    yield server
    server.close()


@pytest.fixture(scope="module")
def site_servers():
    other = Server(SITE)  # another origin: must never be requested
    site = Server(SITE, other=other.url)
    yield site, other
    site.close()
    other.close()


def _decode(ref) -> Image.Image:
    im = Image.open(io.BytesIO(ref) if isinstance(ref, bytes) else ref)
    im.load()
    return im


# --- web app end to end ------------------------------------------------------


@pytest.fixture(scope="module")
def webapp_capture(webapp_server, tmp_path_factory):
    out = tmp_path_factory.mktemp("captured")
    start = time.monotonic()
    report = capture_report(
        webapp_server.url + "/",
        device_sizes=["6.9", "6.3"],
        max_screens=4,
        timeout_s=60,
        out_dir=out,
    )
    return report, out, time.monotonic() - start


@needs_browser
def test_web_app_captured_at_two_sizes_exact_pixels(webapp_capture):
    report, out, seconds = webapp_capture
    frame = report.frame
    assert list(frame.columns) == list(FRAME_COLUMNS)
    assert set(frame[C.DEVICE]) == {"iphone-16-pro-max", "iphone-16-pro"}
    expected = {"iphone-16-pro-max": (1320, 2868), "iphone-16-pro": (1206, 2622)}
    names_by_device = {}
    for _, rows in C.set_groups(frame):
        device = rows[C.DEVICE].iloc[0]
        assert 1 <= len(rows) <= 4
        assert list(rows[C.POSITION]) == list(range(len(rows)))
        for _, row in rows.iterrows():
            im = _decode(row[C.IMAGE])
            assert im.size == expected[device] == (row[C.IMAGE_WIDTH], row[C.IMAGE_HEIGHT])
            assert im.mode == "RGB"  # no alpha
            assert row[C.SCREEN_TEXT].strip()
            assert row[C.SCREEN] == row[C.SCREEN].lower() and 0 < len(row[C.SCREEN]) <= 32
        names_by_device[device] = list(rows[C.SCREEN])
        assert rows[C.SCREEN].is_unique
        # start page first: the overview, with its own text
        assert rows[C.SCREEN].iloc[0] == "overview"
        assert "Total balance" in rows[C.SCREEN_TEXT].iloc[0]
    assert names_by_device["iphone-16-pro-max"] == names_by_device["iphone-16-pro"]
    assert set(names_by_device["iphone-16-pro"]) <= {
        "overview",
        "budgets",
        "transactions",
        "reports",
        "goals",
    }
    assert frame[C.PROJECT_NAME].iloc[0] == "Pocket Budget"
    # the app has five tabs: one ranked out by max_screens=4, /index.html same as /
    kinds = {s.kind for s in report.skipped}
    assert "budget" in kinds and "duplicate" in kinds
    assert seconds < 60
    # it pipes into the rest of the pipeline
    import shotsmith as ss

    assert (ss.detect_domain(frame)[C.DOMAIN_CATEGORY] == "Finance").all()


@needs_browser
def test_written_capture_reads_back(webapp_capture):
    report, out, _ = webapp_capture
    folder = out / "iphone-16-pro-max"
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["device"] == "iphone-16-pro-max" and manifest["locale"] == "en-US"
    assert manifest["screens"][0]["file"] == "01_overview.png"
    again = read_screenshots(folder)
    assert list(again[C.SCREEN]) == [s["screen"] for s in manifest["screens"]]
    assert again[C.SCREEN_TEXT].str.len().min() > 0
    assert (again[C.IMAGE_WIDTH] == 1320).all() and (again[C.IMAGE_HEIGHT] == 2868).all()


@needs_browser
def test_status_bar_drawn_into_top_inset_and_optional(webapp_server, webapp_capture):
    report, _, _ = webapp_capture
    rows = report.frame[report.frame[C.DEVICE] == "iphone-16-pro-max"]
    with_bar = np.asarray(_decode(rows[C.IMAGE].iloc[0]), dtype=np.int16)
    plain = capture(webapp_server.url + "/", device_sizes="6.9", max_screens=1, status_bar=False)
    assert len(plain) == 1 and plain[C.SCREEN].iloc[0] == "overview"
    without = np.asarray(_decode(plain[C.IMAGE].iloc[0]), dtype=np.int16)
    inset = 62 * 3
    diff = np.abs(with_bar - without)
    assert diff[:inset].max() > 100  # glyphs drawn in the inset
    assert (diff[:inset].max(axis=2) > 100).mean() > 0.005
    assert diff[inset:].mean() < 0.5  # the rest of the screen untouched
    assert without[:inset].std() < 3  # no bar: the page's empty inset


def test_status_bar_colour_follows_background():
    style = StatusBarStyle("ios", 3, 62, (126, 37, 11))
    dark = draw_status_bar(Image.new("RGB", (1320, 400), (10, 10, 14)), style)
    light = draw_status_bar(Image.new("RGB", (1320, 400), (245, 245, 245)), style)
    d, lt = np.asarray(dark), np.asarray(light)
    assert d[:186].max() > 200  # white glyphs on a dark inset
    assert lt[:186].min() < 40  # black glyphs on a light one
    assert np.array_equal(d[186:], np.full_like(d[186:], [10, 10, 14]))
    android = draw_status_bar(
        Image.new("RGB", (1080, 300), (255, 255, 255)), StatusBarStyle("android", 1080 / 412, 36)
    )
    assert np.asarray(android)[:95].min() < 40


# --- the explorer's traps -------------------------------------------------------


@pytest.fixture(scope="module")
def site_capture(site_servers):
    site, other = site_servers
    start = time.monotonic()
    report = capture_report(
        site.url + "/", device_sizes="6.3", max_screens=8, timeout_s=60, page_timeout_s=3
    )
    return report, time.monotonic() - start


@needs_browser
def test_explorer_dedups_skips_and_stays_on_origin(site_servers, site_capture):
    site, other = site_servers
    report, seconds = site_capture
    frame = report.frame
    names = list(frame[C.SCREEN])
    assert names[0] == "home"
    assert {"alpha", "plans", "details", "weekly"} <= set(names), names
    assert len(names) == len(set(names)) <= 8
    assert (frame[C.IMAGE_WIDTH] == 1206).all() and (frame[C.IMAGE_HEIGHT] == 2622).all()
    # alpha.html and alpha-copy.html render identically: kept once
    assert "alpha copy" not in names
    by_url = {s.url.split("/")[-1]: s for s in report.skipped}
    assert by_url["alpha-copy.html"].kind == "duplicate"
    assert by_url["missing.html"].kind == "http" and "404" in by_url["missing.html"].reason
    assert by_url["slow"].kind == "timeout"
    # a settings page that is only its form is no screen a marketer would pick
    assert (
        by_url["settings.html"].kind == "bare-form"
        and "only a form" in by_url["settings.html"].reason
    )
    # a page whose image never arrives is judged once the wait for it is over, and kept
    assert "slow load" in names
    assert any("/slow-load.html had not finished loading after 3 s" in n for n in report.notes)
    assert by_url["busy.html"].kind == "timeout" and "settle" in by_url["busy.html"].reason
    assert any(s.kind == "other-origin" for s in report.skipped)
    # the one form is the settings page's, judged a bare form above: never submitted below
    # never followed the other origin (link or button), never submitted, never pressed delete
    assert other.hits == []
    assert not [h for h in site.hits if h[0] != "GET"]
    paths = {p for _, p in site.hits}
    assert "/submitted" not in paths and "/deleted" not in paths and "/logout" not in paths
    # the hanging routes cost a page timeout each, not the hang
    assert seconds < 60 + 5


@needs_browser
def test_the_menu_item_a_page_marks_as_its_own_is_recorded(site_capture):
    """The plans page marks its own item of the tab bar (class "tab-active") and its
    selected tab (aria-selected): both are recorded as current, no other item is."""
    report, _ = site_capture
    frame = report.frame.set_index(C.SCREEN)
    elements = frame.loc["plans", C.SCREEN_ELEMENTS]
    current = sorted(e["text"] for e in elements if e.get("current"))
    assert current == ["Daily", "Plans"], current
    assert any(e["text"] == "Home" and not e.get("current") for e in elements)
    assert report.seconds < 60 + 5


@needs_browser
def test_start_url_failures_are_clear_errors(site_servers):
    site, _ = site_servers
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    start = time.monotonic()
    with pytest.raises(ShotsmithError, match="start page"):
        capture(f"http://127.0.0.1:{port}/", timeout_s=20)
    with pytest.raises(ShotsmithError, match="404"):
        capture(site.url + "/missing.html", timeout_s=20)
    with pytest.raises(ShotsmithError, match="timed out"):
        capture(site.url + "/slow", timeout_s=20, page_timeout_s=2)
    assert time.monotonic() - start < 20


# --- real-app traps: what a marketer would not ship ------------------------------------

BAND_6_9 = 62 * 3  # the 6.9" iPhone's status-bar band, px (top inset 62 pt at 3x)
TOP_54_PT = 54 * 3


@pytest.fixture(scope="module")
def trailbook():
    server = TrailbookServer()
    yield server
    server.close()


@pytest.fixture(scope="module")
def trailbook_capture(trailbook, tmp_path_factory):
    out = tmp_path_factory.mktemp("trailbook")
    report = capture_report(
        trailbook.url + "/", device_sizes="6.9", max_screens=10, timeout_s=90, out_dir=out
    )
    return report, out


def _skipped(report, route: str):
    found = [s for s in report.skipped if s.url == route]
    assert found, f"{route} not reported; skipped: {[str(s) for s in report.skipped]}"
    return found[0]


@needs_browser
def test_only_html_documents_become_screens(trailbook, trailbook_capture):
    report, _ = trailbook_capture
    urls = [urlsplit(u).path for u in report.frame[C.SCREEN_URL]]
    for route, kind, says in [
        ("/api/trails", "not-html", "application/json"),
        ("/notes", "not-html", "text/plain"),
        ("/table", "not-html", "text/csv"),
        ("/guide", "not-html", "download"),
        ("/trails.json", "not-html", ".json"),
        ("/status", "http", "500"),
        ("/old-trails", "error-page", "404"),
        ("/debug", "error-page", "traceback"),
        ("/empty", "blank", "blank"),
        ("/get-the-app", "store-links", "stores"),
    ]:
        skipped = _skipped(report, route)
        assert skipped.kind == kind and says in skipped.reason.lower(), str(skipped)
        assert route not in urls
    # the content type was asked of the server, not guessed from the URL ...
    assert trailbook.requested("/api/trails") and trailbook.requested("/notes")
    # ... except for a file name that says what it is
    assert not trailbook.requested("/trails.json")


@needs_browser
def test_language_links_are_never_followed_and_a_short_retry_after_is_honoured(
    trailbook, trailbook_capture
):
    report, _ = trailbook_capture
    for path in ("/lang/de", "/lang/fr"):  # each would switch the session's language
        assert not trailbook.requested(path), path
    assert sum(1 for m, p in trailbook.hits if (m, p) == ("GET", "/")) == 1  # not /?lang=es
    (languages,) = [s for s in report.skipped if s.kind == "language"]
    assert languages.url == "3 language link(s)"
    # /popular answered 429 with Retry-After: 1 the first time: asked again, once
    assert trailbook.hits.count(("GET", "/popular")) == 2
    explored = {urlsplit(u).path for u in report.frame[C.SCREEN_URL]} | {
        s.url for s in report.skipped if s.kind == "budget"
    }
    assert "/popular" in explored


@needs_browser
def test_links_a_script_handles_become_screens_two_at_most(trailbook):
    frame = capture(trailbook.url + "/journal", device_sizes="6.9", max_screens=5)
    names = list(frame[C.SCREEN])
    assert names[0] == "journal"
    notes = [n for n in names if n in ("mesa", "royal arch", "bear peak")]
    assert len(notes) == 2, names  # one template: the notes the page's script opens
    texts = "\n".join(frame[C.SCREEN_TEXT])
    assert sum(t in texts for t in ("Shady in the morning", "Steep stone", "summit block")) == 2
    assert "back to top" not in names  # an anchor on the page is not a screen


@needs_browser
def test_a_loading_page_is_photographed_once_it_has_loaded(trailbook):
    frame = capture(trailbook.url + "/loading", device_sizes="6.9", max_screens=1)
    assert "Trail conditions" in frame[C.SCREEN_TEXT].iloc[0]
    assert "Loading trails" not in frame[C.SCREEN_TEXT].iloc[0]


@needs_browser
def test_markup_that_breaks_a_reader_costs_one_page_not_the_capture(trailbook_capture):
    report, _ = trailbook_capture
    crashy = _skipped(report, "/crashy")
    assert crashy.kind == "error" and "no walking here" in crashy.reason
    urls = [urlsplit(u).path for u in report.frame[C.SCREEN_URL]]
    assert len(urls) >= 6 and urls[0] == "/"
    # the SVG link (href is an SVGAnimatedString) was read and followed
    # (an About page is followed, and judged no screen)
    assert "/about" not in urls and _skipped(report, "/about").kind in ("budget", "about-page")


@needs_browser
def test_screens_are_settled_not_transient(trailbook, trailbook_capture):
    report, _ = trailbook_capture
    shown = "\n".join(report.frame[C.SCREEN_TEXT])
    for transient in (
        "Archive all",  # the header's menu: its trigger is never pressed
        "Mark all as read",  # a menu open on load: closed with Escape
        "What's new",  # a dialog open on load: closed with its close button
        "cookies",  # the cookie banner: hidden
        "Saved for offline",  # a toast: hidden
        "Failed to resolve import",  # a dev server's warning overlay: hidden
    ):
        assert transient not in shown, transient
    for _, row in report.frame.iterrows():
        texts = " ".join(e["text"] for e in row[C.SCREEN_ELEMENTS])
        assert "cookies" not in texts and "Archive all" not in texts
    permits = _skipped(report, "/permits")  # a dialog nothing closes: no photo
    assert permits.kind == "transient" and "Security check" in permits.reason
    explored = {urlsplit(u).path for u in report.frame[C.SCREEN_URL]} | {
        s.url for s in report.skipped if s.kind == "budget"
    }
    assert {"/alerts", "/conditions", "/map"} <= explored
    for path in ("/menu-opened", "/archived", "/cookie-accepted"):
        assert not trailbook.requested(path), path


@needs_browser
def test_risky_controls_are_never_pressed(trailbook):
    # one copy of the list, in data: the page's buttons include the clause the JS copy lost
    for path in ("/cancelled", "/deleted", "/created", "/saved"):
        assert not trailbook.requested(path) and not trailbook.requested(path, "POST"), path
    from shotsmith.stages.capture import explore
    from shotsmith.stages.capture.rules import is_risky_label, rules, script

    assert not hasattr(explore, "RISKY")
    assert "subscription" not in script("extract") and "delete" not in script("extract")
    assert "cancel my subscription" in rules()["risky_labels"]["session"]
    for label in ("Cancel my subscription", "Log out", "logout", "Delete account", "New note"):
        assert is_risky_label(label), label
    for label in ("Trails", "Weekly", "Show details", "Open map"):
        assert not is_risky_label(label), label


@needs_browser
def test_at_most_two_screens_per_page_template(trailbook_capture):
    from shotsmith.stages.capture.urls import template_key

    report, _ = trailbook_capture
    urls = list(report.frame[C.SCREEN_URL])
    templates = [template_key(u) for u in urls]
    assert max(templates.count(t) for t in templates) <= 2, urls
    assert "/trails" in templates and "/trails/:id" in templates
    grouped = [s for s in report.skipped if s.kind == "template"]
    assert grouped and all("template" in s.reason for s in grouped)
    # breadth: home, list, detail and search all made it; settings is a bare form (a
    # field, a checkbox and account buttons): judged no screen
    assert {"/", "/trails", "/search"} <= {urlsplit(u).path for u in urls}
    assert _skipped(report, "/settings").kind in ("bare-form", "budget")


@needs_browser
def test_status_bar_band_is_free_of_page_text(trailbook_capture):
    report, _ = trailbook_capture
    style = CAPTURE_DEVICES["ios"]["6.9"].status_bar_style()
    for _, row in report.frame.iterrows():
        boxes = [e["box"] for e in row[C.SCREEN_ELEMENTS]]
        assert boxes and min(y for _, y, _, _ in boxes) >= BAND_6_9 >= TOP_54_PT, row[C.SCREEN]
        image = _decode(row[C.IMAGE]).convert("RGB")
        band = np.asarray(image)[:BAND_6_9]
        # the band is the page's own top colour with the status bar on it, nothing else
        colour = tuple(int(v) for v in band[2, image.width // 2])
        expected = draw_status_bar(Image.new("RGB", (image.width, BAND_6_9), colour), style)
        assert np.abs(band.astype(int) - np.asarray(expected, dtype=int)).max() <= 2
        below = np.asarray(image)[BAND_6_9 : BAND_6_9 + 6]
        assert np.abs(below.astype(int) - np.array(colour)).mean() < 40  # the page starts there


@needs_browser
def test_manifest_records_url_title_and_elements_and_reads_back(trailbook_capture):
    report, out = trailbook_capture
    manifest = json.loads((out / "manifest.json").read_text())
    for entry, (_, row) in zip(manifest["screens"], report.frame.iterrows()):
        assert entry["url"] == row[C.SCREEN_URL] and entry["url"].startswith("http://127.0.0.1")
        assert entry["title"].endswith("Trailbook") and entry["title"] == row[C.SCREEN_TITLE]
        assert entry["elements"] == row[C.SCREEN_ELEMENTS]
    again = read_screenshots(out)
    assert list(again.columns) == list(report.frame.columns)
    import pandas as pd

    pd.testing.assert_frame_equal(again, report.frame)
    roles = {e["role"] for elements in report.frame[C.SCREEN_ELEMENTS] for e in elements}
    assert {"heading", "tab", "button", "link", "listitem", "label", "input", "text"} <= roles
    home = report.frame[C.SCREEN_ELEMENTS].iloc[0]
    assert {"role": "tab", "text": "Trails"} in [{k: e[k] for k in ("role", "text")} for e in home]
    heading = next(e for e in home if e["text"] == "Trailbook")
    assert heading["role"] == "heading" and heading["level"] == 1
    x, y, w, h = heading["box"]
    assert 0 <= x and BAND_6_9 <= y and x + w <= 1320 and y + h <= 2868


@needs_browser
def test_viewport_fit_cover_pages_get_the_inset_or_the_band(trailbook):
    band = BAND_6_9
    padded = capture(trailbook.url + "/cover", device_sizes="6.9", max_screens=1)
    naive = capture(trailbook.url + "/cover-naive", device_sizes="6.9", max_screens=1)
    for frame in (padded, naive):
        boxes = [e["box"] for e in frame[C.SCREEN_ELEMENTS].iloc[0]]
        assert min(y for _, y, _, _ in boxes) >= band  # no text under the status bar
    # env(safe-area-inset-top) honoured: the page's green header runs under the status bar
    padded_px = np.asarray(_decode(padded[C.IMAGE].iloc[0]).convert("RGB"), dtype=int)
    green = np.array([0x2F, 0x6B, 0x3A])
    assert np.abs(padded_px[5, 20] - green).max() <= 3
    heading = next(e for e in padded[C.SCREEN_ELEMENTS].iloc[0] if e["text"] == "Trailbook")
    assert band <= heading["box"][1] < band + 30 * 3
    # a cover page that pads nothing is laid out below the band, which takes its colour
    naive_px = np.asarray(_decode(naive[C.IMAGE].iloc[0]).convert("RGB"), dtype=int)
    assert np.abs(naive_px[5, 20] - green).max() <= 3
    heading = next(e for e in naive[C.SCREEN_ELEMENTS].iloc[0] if e["text"] == "Trailbook")
    assert heading["box"][1] >= band


# --- sign-in walls --------------------------------------------------------------------


@pytest.fixture(scope="module")
def chatter():
    server = ChatterServer()
    yield server
    server.close()


@needs_browser
def test_sign_in_wall_is_said_plainly(chatter, tmp_path, capsys):
    out = tmp_path / "walled"
    # one screen (the sign-in page) is no usable capture: the command says so and fails
    assert _run_cli(["capture", chatter.url + "/", "--out", str(out), "--max-screens", "4"]) == 2
    err = capsys.readouterr().err
    assert "only 1 usable screen(s) captured, fewer than --min-screens 3" in err
    assert "the app asks for a sign-in" in err.split("fewer than --min-screens")[1]
    assert f"the app asks for a sign-in at {chatter.url}/login" in err
    assert "--login USER:PASSWORD" in err and "--storage-state FILE" in err
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["sign_in"].startswith(chatter.url + "/login")
    assert any("asks for a sign-in" in n for n in manifest["notes"])
    assert [s["screen"] for s in manifest["screens"]] == ["sign in"]  # kept once, not twice
    assert not chatter.requested("/login", "POST")


@needs_browser
def test_login_signs_in_once_and_captures_behind_the_wall(chatter):
    before = chatter.hits.count(("POST", "/login"))
    report = capture_report(
        chatter.url + "/", device_sizes="6.9", max_screens=4, login=f"{WALL_USER}:{WALL_PASSWORD}"
    )
    assert chatter.hits.count(("POST", "/login")) - before == 1
    paths = {urlsplit(u).path for u in report.frame[C.SCREEN_URL]}
    assert {"/", "/contacts", "/settings"} <= paths and "/login" not in paths
    # a form with a password field that is not a sign-in is never filled in
    assert chatter.requested("/rooms/new") and not chatter.requested("/rooms", "POST")
    assert not report.sign_in_url and not report.notes
    assert "Ana: see you at the trailhead" in report.frame[C.SCREEN_TEXT].iloc[0]
    assert not chatter.requested("/logout")


@needs_browser
def test_the_command_takes_the_password_of_a_bare_user_from_the_environment(
    chatter, tmp_path, monkeypatch
):
    monkeypatch.setenv("SHOTSMITH_LOGIN_PASSWORD", WALL_PASSWORD)
    before = chatter.hits.count(("POST", "/login"))
    argv = ["capture", chatter.url + "/", "--out", str(tmp_path / "in"), "--size", "6.9"]
    assert _run_cli([*argv, "--max-screens", "3", "--login", WALL_USER]) == 0
    assert chatter.hits.count(("POST", "/login")) - before == 1
    manifest = json.loads((tmp_path / "in" / "manifest.json").read_text())
    assert "/login" not in {urlsplit(s["url"]).path for s in manifest["screens"]}


@needs_browser
def test_wrong_password_is_a_clear_error(chatter):
    with pytest.raises(ShotsmithError, match=r"did not work.*Wrong user name or password"):
        capture(chatter.url + "/", device_sizes="6.9", max_screens=2, login=(WALL_USER, "nope"))


@needs_browser
def test_storage_state_file_captures_behind_the_wall(chatter, tmp_path):
    name, value = ChatterServer.cookie.split("=")
    state = tmp_path / "state.json"
    cookie = {
        "name": name,
        "value": value,
        "domain": "127.0.0.1",
        "path": "/",
        "expires": -1,
        "httpOnly": True,
        "secure": False,
        "sameSite": "Lax",
    }
    state.write_text(json.dumps({"cookies": [cookie], "origins": []}))
    before = chatter.hits.count(("POST", "/login"))
    frame = capture(chatter.url + "/", device_sizes="6.9", max_screens=2, storage_state=state)
    assert chatter.hits.count(("POST", "/login")) == before
    assert urlsplit(frame[C.SCREEN_URL].iloc[0]).path == "/"
    assert "Chats" in frame[C.SCREEN_TEXT].iloc[0]


def test_login_and_storage_state_are_checked(tmp_path):
    with pytest.raises(ShotsmithError, match="USER:PASSWORD"):
        capture("http://127.0.0.1:9/", login="maya")
    with pytest.raises(ShotsmithError, match="no such file"):
        capture("http://127.0.0.1:9/", storage_state=tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    with pytest.raises(ShotsmithError, match="not a Playwright storage state"):
        capture("http://127.0.0.1:9/", storage_state=bad)
    folder = tmp_path / "shots"
    _png(folder / "01_home.png", (1320, 2868))
    with pytest.raises(ShotsmithError, match="web app"):
        capture(folder, login="maya:pw")


# --- what the explorer decides, without a browser ----------------------------------------


@pytest.mark.parametrize(
    "url, key",
    [
        ("http://a/trails?sort=name", "/trails"),
        ("http://a/trails?facet=easy&page=2", "/trails"),
        ("http://a/trails/17", "/trails/:id"),
        ("http://a/trails/3f2a9c1e-77b1-4a55-9d7e-0c5e9e1f2b3a/reviews", "/trails/:id/reviews"),
        ("http://a/ledger/2024-11-03", "/ledger/:id"),
        ("http://a/commit/9fceb02d0ae598e95dc970b74767f19372d61af8", "/commit/:id"),
        ("http://a/recipes/pad-thai-2", "/recipes/:id"),
        ("http://a/index.php?module=settings&id=4", "/index.php?module=settings"),
        ("http://a/#/items/42", "/#/items/:id"),
        ("http://a/settings", "/settings"),
    ],
)
def test_template_keys(url, key):
    from shotsmith.stages.capture.urls import template_key

    assert template_key(url) == key


@pytest.mark.parametrize(
    ("href", "risky"),
    [
        ("http://a/refresh_all_stats", True),  # a GET that rewrites the app's statistics
        ("http://a/cache/purge", True),
        ("http://a/bookmarks/deleteAll", True),
        ("http://a/feeds/sync", True),
        ("http://a/logout", True),
        ("http://a/read/14", False),
        ("http://a/book/new", False),
        ("http://a/archive/2024", False),
        ("http://a/stats/refreshed", False),
        ("http://a/clearance", False),
    ],
)
def test_links_whose_path_is_an_action_are_not_followed(href, risky):
    from shotsmith.stages.capture.rules import is_risky_link

    assert is_risky_link(href) is risky


def test_named_children_of_a_list_are_one_template():
    from shotsmith.stages.capture.urls import collection_of, template_key

    seen: dict[str, set[str]] = {}
    for slug in ("pad-thai", "tomato-soup", "green-curry"):
        parent, child = collection_of(f"http://a/recipes/{slug}")
        seen.setdefault(parent, set()).add(child)
    assert template_key("http://a/recipes/pad-thai", seen) == "/recipes/:name"
    assert template_key("http://a/settings", seen) == "/settings"  # top-level pages stay apart


def test_page_verdicts():
    from shotsmith.stages.capture.pages import error_page, is_sign_in_page, not_html

    assert not_html({"Content-Type": "application/json; charset=utf-8"}).kind == "not-html"
    assert not_html({"content-type": "text/html; charset=utf-8"}) is None
    assert "download" in not_html({"Content-Disposition": "attachment; filename=a.csv"}).reason
    assert error_page("Not Found", "", "The page you asked for is gone.")
    assert error_page("Shop", "Oops", "Something went wrong")
    assert error_page("App", "", "Traceback (most recent call last):\n  File x")
    assert error_page("Errors · Sentry", "Errors", " ".join(["issue"] * 200)) is None
    assert error_page("Trails", "Trails", "No trails found for 'xyz'. Try another search.") is None
    assert is_sign_in_page({"password": 1, "words": 30, "passwordWords": 12})
    settings = {"password": 3, "words": 40, "passwordWords": 20}  # change-password form
    assert not is_sign_in_page(settings)
    assert not is_sign_in_page({"password": 1, "words": 400, "passwordWords": 12})


# --- folders -------------------------------------------------------------------


def _png(path: Path, size: tuple[int, int], colour=(30, 120, 200)) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    im = Image.new("RGB", size, colour)
    im.paste((250, 250, 250), (0, size[1] // 3, size[0], size[1] // 2))
    path.write_bytes(encode_png(im))
    return path


def test_fastlane_snapshot_folder(tmp_path):
    shots = tmp_path / "MyApp" / "fastlane" / "screenshots"
    for loc in ("en-US", "de-DE"):
        _png(shots / loc / "iPhone 16 Pro Max-02_Budgets.png", (1320, 2868))
        _png(shots / loc / "iPhone 16 Pro Max-01_Home.png", (1320, 2868))
        _png(shots / loc / "iPad Pro 13-inch (M4)-01_Home.png", (2064, 2752))
    frame = capture(shots)
    assert list(frame.columns) == list(FRAME_COLUMNS)
    assert set(frame[C.DEVICE]) == {"iphone-16-pro-max", "ipad-pro-13"}
    iphone = frame[frame[C.DEVICE] == "iphone-16-pro-max"]
    assert list(iphone[C.SCREEN]) == ["home", "budgets"]
    assert list(iphone[C.POSITION]) == [0, 1]
    assert iphone[C.IMAGE].iloc[0].endswith("en-US/iPhone 16 Pro Max-01_Home.png")
    assert frame[C.APP_ID].nunique() == 2 and (frame[C.LOCALE] == "en-US").all()
    assert frame[C.PROJECT_NAME].iloc[0] == "MyApp"
    german = capture(shots.parent, locale="de-DE", device_sizes=["6.9"], project_name="My App")
    assert (german[C.LOCALE] == "de-DE").all()
    assert (german[C.DEVICE] == "iphone-16-pro-max").all()  # the iPad set is not a 6.9" size
    assert german[C.IMAGE].str.contains("de-DE").all()
    with pytest.raises(ShotsmithError, match="fr-FR.*de-DE, en-US"):
        capture(shots, locale="fr-FR")


def test_flat_and_screengrab_folders(tmp_path):
    flat = tmp_path / "flat"
    _png(flat / "02_stats.png", (1206, 2622))
    _png(flat / "01_home.png", (1206, 2622))
    frame = capture(flat, project_name="Flat App", bundle_id="com.example.flat")
    assert list(frame[C.SCREEN]) == ["home", "stats"]
    assert (frame[C.DEVICE] == "iphone-16-pro").all()
    assert frame[C.BUNDLE_ID].iloc[0] == "com.example.flat"

    grab = tmp_path / "droid" / "en-US" / "images" / "phoneScreenshots"
    _png(grab / "settings_1700000000200.png", (1080, 2424))
    _png(grab / "home_1700000000100.png", (1080, 2424))
    frame = capture(tmp_path / "droid")  # the platform follows from the pixel size
    assert list(frame[C.SCREEN]) == ["home", "settings"]  # capture order
    assert (frame[C.DEVICE] == "pixel-9").all()
    assert len(capture(tmp_path / "droid", platforms="android", device_sizes="6.3")) == 2


def test_folder_size_mismatch_names_file_and_sizes(tmp_path):
    odd = tmp_path / "odd"
    _png(odd / "01_home.png", (1000, 2000))
    with pytest.raises(InputImageError, match=r"01_home\.png: 1000x2000.*1320x2868"):
        capture(odd)
    pro = tmp_path / "pro"
    _png(pro / "01_home.png", (1206, 2622))
    with pytest.raises(
        InputImageError, match=r"01_home\.png: 1206x2622 px does not match.*6\.9.*1320x2868"
    ):
        capture(pro, device_sizes=["6.9"])
    assert len(capture(pro, device_sizes=["6.3"])) == 1
    with pytest.raises(InputImageError, match="android"):
        capture(pro, platforms="android")


# --- sizes and validation ---------------------------------------------------------


def test_sizes_map_to_devices_and_store_canvases():
    (d69,) = resolve_devices("ios", ["6.9"])
    assert (d69.px, d69.points, d69.scale, d69.canvas) == (
        (1320, 2868),
        (440, 956),
        3,
        (1320, 2868),
    )
    assert [d.size for d in resolve_devices("ios")] == ["6.9"]
    assert [d.size for d in resolve_devices("ios", supports_ipad=True)] == ["6.9", "13"]
    (droid,) = resolve_devices("android")
    w, h = droid.canvas
    assert max(w, h) <= 2 * min(w, h) and 320 <= min(w, h) and max(w, h) <= 3840  # Play
    assert [d.id for d in resolve_devices(["ios", "android"], ['6.9"', "android:6.7"])] == [
        "iphone-16-pro-max",
        "pixel-9-pro-xl",
    ]
    for platform, table in CAPTURE_DEVICES.items():
        for device in table.values():
            assert device.platform == platform
            assert abs(device.px[0] / device.points[0] * device.points[0] - device.px[0]) < 1e-6


def test_one_device_catalogue_in_data_feeds_capture_render_and_the_stores():
    """Capture's devices are the catalogue's (data/devices.json), geometry and all; no
    device table is written out in code."""
    from importlib import resources

    from shotsmith import devices

    table = json.loads(resources.files("shotsmith").joinpath("data/devices.json").read_text())
    by_id = {e["id"]: e for e in table["devices"]}
    assert list(devices.CATALOGUE) == list(by_id)
    assert list(devices.DEVICES) == [i for i, e in by_id.items() if e.get("frame", True)]
    for platform, sizes in table["capture"].items():
        if platform not in ("ios", "android"):
            continue
        for size, device_id in sizes.items():
            device, entry = CAPTURE_DEVICES[platform][size], by_id[device_id]
            assert (device.id, device.platform) == (device_id, platform)
            assert list(device.px) == entry["screen_px"] and list(device.points) == entry["points"]
            assert device.top_inset_pt == entry["top_inset_pt"]
            assert device.canvas in devices.STORE_SIZES[device.store_size]
    assert {k: [list(s) for s in v] for k, v in devices.STORE_SIZES.items()} == (
        table["store_sizes"]["sizes"]
    )
    package = Path(devices.__file__).parent
    for path in [package / "devices.py", *(package / "stages" / "capture").glob("*.py")]:
        text = path.read_text(encoding="utf-8")
        for entry in by_id.values():  # a device written out in code shows its pixels
            w, h = entry["screen_px"]
            assert f"({w}, {h})" not in text, f"{path.name} holds {entry['id']}'s geometry"
    # a size the capture-only part of the catalogue serves, emulated at its own pixels
    (d65,) = resolve_devices("ios", ["6.5"])
    assert (d65.id, d65.px, d65.canvas) == ("iphone-14-plus", (1284, 2778), (1284, 2778))


def test_in_page_scripts_ship_with_the_package_and_share_their_helpers_once():
    from importlib import resources

    from shotsmith.stages.capture.rules import script

    folder = resources.files("shotsmith.stages.capture").joinpath("js")
    names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".js"))
    assert {"calm.js", "extract.js", "init.js", "settle.js", "signin.js"} <= set(names)
    helper = "if (el.checkVisibility && !el.checkVisibility({opacityProperty: true, visib"
    assert sum(folder.joinpath(n).read_text().count(helper) for n in names) == 1
    for name in ("calm", "signin"):
        code = script(name)
        assert "@include" not in code and code.count(helper) == 1, name
        assert "(opts) => {" in code and "const {" in code.split("const shown")[0]


def test_capture_takes_what_capture_report_takes_and_returns_the_frame():
    import inspect

    frame_sig, report_sig = inspect.signature(capture), inspect.signature(capture_report)
    assert frame_sig.parameters == report_sig.parameters
    assert frame_sig.return_annotation == "pd.DataFrame"
    assert capture.__name__ == "capture" and "read_screenshots" in capture.__doc__
    with pytest.raises(TypeError, match="max_screen"):
        capture("http://127.0.0.1:9/", max_screen=3)  # a misspelt option is refused


def test_locale_and_bundle_id_rules_are_the_same_for_capture_and_the_server():
    from shotsmith import ids
    from shotsmith.server import projects

    for locale in ("en-US", "zh-Hans-CN", "pt_BR", "de"):
        assert ids.is_locale(locale) and projects._LOCALE.match(locale), locale
    for locale in ("english please", "e", "en-", "en-US-x-a-b-c"):
        assert not ids.is_locale(locale) and not projects._LOCALE.match(locale), locale
        with pytest.raises(ShotsmithError, match="locale must be a BCP 47 tag"):
            capture("http://127.0.0.1:9/", locale=locale)
    assert projects._BUNDLE_ID.match("com.example.app") and not projects._BUNDLE_ID.match("app")


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"platforms": "windows"}, "unknown platform 'windows'.*ios, android"),
        ({"device_sizes": ["7.9"]}, "unknown device size '7.9'.*6.9, 6.5, 6.3"),
        ({"device_sizes": ["6.7"]}, "unknown device size '6.7' for ios"),
        (
            {"platforms": ["ios", "android"], "device_sizes": ["6.9"]},
            "no size given for platform android",
        ),
        ({"max_screens": 0}, "max_screens"),
        ({"locale": "english please"}, "locale"),
    ],
)
def test_validation_errors(kwargs, message):
    with pytest.raises(ShotsmithError, match=message):
        capture("http://127.0.0.1:9/", **kwargs)


def test_source_must_be_url_or_folder(tmp_path):
    with pytest.raises(ShotsmithError, match="neither a web app URL"):
        capture(tmp_path / "nope")
    f = tmp_path / "a.png"
    _png(f, (1320, 2868))
    with pytest.raises(ShotsmithError, match="a file"):
        capture(f)


def test_serve_folder_serves_a_built_app_and_counts_requests(tmp_path):
    import httpx

    from shotsmith import serve_folder

    with pytest.raises(ShotsmithError, match="no index.html"):
        serve_folder(tmp_path)
    with serve_folder(WEBAPP) as site:
        assert site.url.startswith("http://127.0.0.1:") and site.url.endswith("/")
        page = httpx.get(site.url + "budgets.html")
        assert page.status_code == 200 and "Budgets" in page.text
        assert httpx.get(site.url + "missing.html").status_code == 404
        assert site.requests == 2
    with pytest.raises(httpx.TransportError):  # closed: the port no longer answers
        httpx.get(site.url, timeout=2)


# --- command line ---------------------------------------------------------------


def _run_cli(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


def test_cli_capture_writes_numbered_pngs_and_manifest(tmp_path, capsys):
    shots = tmp_path / "fastlane" / "screenshots" / "en-US"
    _png(shots / "iPhone 16 Pro Max-01_Home.png", (1320, 2868))
    _png(shots / "iPhone 16 Pro Max-02_Budget Overview.png", (1320, 2868))
    out = tmp_path / "out"
    assert (
        _run_cli(
            [
                "capture",
                str(tmp_path / "fastlane"),
                "--out",
                str(out),
                "--size",
                "6.9",
                "--project-name",
                "Pocket Budget",
            ]
        )
        == 0
    )
    assert sorted(p.name for p in out.iterdir()) == [
        "01_home.png",
        "02_budget-overview.png",
        "manifest.json",
    ]
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["project_name"] == "Pocket Budget"
    assert manifest["device"] == "iphone-16-pro-max"
    assert [s["screen"] for s in manifest["screens"]] == ["home", "budget overview"]
    frame = read_screenshots(out)
    assert list(frame[C.SCREEN]) == ["home", "budget overview"]
    assert "02_budget-overview.png" in capsys.readouterr().out


def test_a_page_again_through_another_query_or_with_a_menu_open_is_not_a_new_screen():
    from shotsmith.stages.capture.screens import Screen
    from shotsmith.stages.capture.similarity import base_with_a_little_more, mostly_same_page

    rows = [f"tag {n}\n{n % 3}" for n in range(12)]
    tags = Screen(url="http://a/tag/", text="Tags\nName\nUsage Count\n" + "\n".join(rows[:10]))
    # the same table sorted on another column by a link: two rows differ on its first page
    resorted = Screen(
        url="http://a/tag/?sort=1", text="Tags\nName\nUsage Count\n" + "\n".join(rows[2:12])
    )
    assert mostly_same_page(tags, resorted)
    other = Screen(url="http://a/bookmarks/", text=resorted.text)  # another page: kept
    assert not mostly_same_page(tags, other)
    different = Screen(
        url="http://a/tag/?page=2", text="Tags\n" + "\n".join(f"x{n}" for n in range(20))
    )
    assert not mostly_same_page(tags, different)

    book_rows = "\n".join(f"Book {n}\nSpanish\n{n * 10}" for n in range(30))
    index = Screen(url="http://a/", text="Lute\nBooks\n" + book_rows)
    menu = Screen(url="http://a/", via=("k1",), text=index.text + "\nVersion\nStatistics\nDocs")
    assert base_with_a_little_more(index, menu)
    tab = Screen(
        url="http://a/",
        via=("k2",),
        text="Lute\nBooks\nTerms\n" + "\n".join(f"term {n}" for n in range(30)),
    )
    assert not base_with_a_little_more(index, tab)


def test_an_empty_state_inside_a_long_page_is_rejected():
    from shotsmith.stages.capture.pages import weak_page

    frame = [{"role": "tab", "text": t} for t in ("Home", "Experiments", "Prompts", "Settings")]
    assistant = [
        {"role": "button", "text": f"How do I use feature {n} of the app?"} for n in range(8)
    ]
    filler = " ".join(["word"] * 60)  # a sidebar and an assistant panel: a long page
    prompts = frame + assistant + [{"role": "heading", "text": "Create your first prompt"}]
    verdict = weak_page({"text": filler, "elements": prompts})
    assert verdict and verdict.kind == "empty-state" and "heading" in verdict.reason
    charts = frame + [
        {"role": "heading", "text": "Latency"},
        {"role": "text", "text": "No data available for the selected time range"},
        {"role": "heading", "text": "Errors"},
        {"role": "text", "text": "No data available for the selected time range"},
    ]
    assert weak_page({"text": filler, "elements": charts}).kind == "empty-state"
    budgets = frame + [{"role": "heading", "text": "No budget policies created"}]
    assert weak_page({"text": filler, "elements": budgets}).kind == "empty-state"
    # a page with rows is never an empty state, whatever a heading says
    rows = [{"role": "listitem", "text": f"run {n}"} for n in range(4)]
    listed = frame + rows + [{"role": "heading", "text": "Getting started"}]
    assert weak_page({"text": filler, "elements": listed}) is None
    plain = frame + [{"role": "heading", "text": "Recent experiments"}]
    assert weak_page({"text": filler, "elements": plain}) is None


def test_navigation_and_side_panels_around_an_empty_main_content_are_still_loading():
    from shotsmith.stages.capture.pages import unfinished_page

    empty = {"words": 0, "items": 0, "media": 0, "fields": 0, "tables": []}
    verdict = unfinished_page({"words": 57, "content": empty})
    assert verdict and verdict.kind == "loading" and "nothing in its main content" in verdict.reason
    # a whiteboard's canvas fills the screen: the app itself, not an empty page
    assert unfinished_page({"words": 57, "content": {**empty, "backdrops": 1}}) is None
    assert unfinished_page({"words": 57, "content": {**empty, "words": 12}}) is None
    assert unfinished_page({"words": 0, "content": empty}) is None  # blank: judged elsewhere
