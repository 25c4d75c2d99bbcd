"""capture is read-only by construction and says what happened: real Chromium against
"Watchtower" (tests/capture_site/readonly/), a system monitor, print queue and wiki whose
buttons write (fetch POST behind an innocent label, sendBeacon, XHR PUT, forms), a page
that reads its data with a POST, a page embedding another origin, a redirect away, and
pages no marketer would pick."""

from __future__ import annotations

import http.server
import json
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from shotsmith import columns as C
from shotsmith.cli import main
from shotsmith.stages.capture import capture_report

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

SITE = TESTS / "capture_site" / "readonly"
PAGES = {
    "/": "index.html",
    "/alerts": "alerts.html",
    "/printer": "printer.html",
    "/notes": "notes.html",
    "/live": "live.html",
    "/diagnostics": "diagnostics.html",
    "/empty": "empty.html",
}
HOSTS = [("web-01", 0.42), ("db-01", 1.2), ("cache-01", 0.1)]


class Recorder:
    """An HTTP server on 127.0.0.1 (free port) that records every request it receives."""

    def __init__(self, other: str = ""):
        self.hits: list[tuple[str, str]] = []
        rec = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def _send(self, body: bytes, kind: str, status: int = 200, headers=None) -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                path = urlsplit(self.path).path
                rec.hits.append(("GET", path))
                if path == "/away":  # a redirect to another origin
                    return self._send(b"", "text/html", 302, {"Location": other + "/landing"})
                if path == "/app.css":
                    return self._send((SITE / "app.css").read_bytes(), "text/css")
                if path == "/alerts-only":  # the alerts page alone: its buttons are all
                    html = (SITE / "alerts.html").read_text(encoding="utf-8")
                    return self._send(html.encode(), "text/html; charset=utf-8")
                if path in PAGES:
                    tabbar = (SITE / "_tabbar.html").read_text(encoding="utf-8")
                    html = (SITE / PAGES[path]).read_text(encoding="utf-8")
                    html = html.replace("<!--tabbar-->", tabbar).replace("{{OTHER}}", other)
                    return self._send(html.encode(), "text/html; charset=utf-8")
                return self._send(b"<h1>Not Found</h1>", "text/html", 404)

            def _write(self):
                path = urlsplit(self.path).path
                rec.hits.append((self.command, path))
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                if path == "/graphql":
                    hosts = [{"name": n, "load": v} for n, v in HOSTS]
                    body = json.dumps({"data": {"hosts": hosts}}).encode()
                    return self._send(body, "application/json")
                return self._send(b'{"ok": true}', "application/json")

            do_POST = do_PUT = do_PATCH = do_DELETE = _write

        self.httpd, self.url = serve_quietly(Handler)

    def writes(self) -> list[tuple[str, str]]:
        return [h for h in self.hits if h[0] != "GET"]

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="module")
def servers():
    other = Recorder()  # another origin: must never be reached
    app = Recorder(other=other.url)
    yield app, other
    app.close()
    other.close()


@pytest.fixture(scope="module")
def watchtower(servers, tmp_path_factory):
    app, _ = servers
    out = tmp_path_factory.mktemp("watchtower")
    report = capture_report(
        app.url + "/", device_sizes="6.3", max_screens=8, timeout_s=90, out_dir=out
    )
    return report, out


def test_no_write_a_press_causes_reaches_the_server(servers, watchtower):
    app, _ = servers
    report, _ = watchtower
    assert len(report.frame) >= 3
    # the only write the app received is the one its own page makes to read its data
    assert set(app.writes()) <= {("POST", "/graphql")}, app.writes()
    assert ("POST", "/graphql") in app.writes()
    # /api/notes/story: the notes page saves what a press opened as the page is left
    for path in (
        "/api/x",
        "/api/alerts/clear",
        "/api/printer/load",
        "/api/drafts",
        "/api/notes/story",
    ):
        assert not [h for h in app.hits if h[1] == path], path


def test_a_page_that_reads_with_a_post_still_renders(watchtower):
    report, _ = watchtower
    live = [
        t
        for u, t in zip(report.frame[C.SCREEN_URL], report.frame[C.SCREEN_TEXT])
        if urlsplit(u).path == "/live"
    ]
    assert live, list(report.frame[C.SCREEN_URL])
    assert "db-01 · load 1.2" in live[0] and "Loading hosts" not in live[0]


def test_blocked_requests_are_reported_with_the_press_that_caused_them(watchtower):
    report, out = watchtower
    blocked = {(b.method, urlsplit(b.url).path): b for b in report.blocked}
    show_more = blocked[("POST", "/api/x")]
    assert show_more.kind == "write" and show_more.cause == "Show more"
    # no secret reaches a report
    assert all("s3cr3t" not in b.url for b in report.blocked)
    manifest = json.loads((out / "manifest.json").read_text())
    record = manifest["capture_report"]
    assert any(
        b["method"] == "POST" and b["url"].endswith("/api/x") and b["caused_by"] == "Show more"
        for b in record["network"]["blocked"]
    )
    assert record["pages_visited"] >= 5 and record["stopped"]
    assert "s3cr3t" not in (out / "manifest.json").read_text()
    assert "blocked POST" in report.summary() and "Show more" in report.summary()


def test_other_origins_never_load(servers, watchtower):
    _, other = servers
    report, _ = watchtower
    assert other.hits == []  # not the iframe, not the image, not the redirect's target
    away = {(b.method, urlsplit(b.url).path) for b in report.blocked if b.kind == "other-origin"}
    assert {("GET", "/logo.png"), ("GET", "/widget.html")} <= away
    assert ("GET", "/landing") in away or any(
        s.url == "/away" and "origin" in s.reason for s in report.skipped
    )


def test_allow_write_lets_the_named_url_through(servers):
    app, _ = servers
    before = len(app.writes())
    report = capture_report(
        app.url + "/alerts-only",
        device_sizes="6.3",
        max_screens=2,
        timeout_s=40,
        allow_write=["*/api/x"],
    )
    assert ("POST", "/api/x") in app.writes()[before:]
    assert set(app.writes()[before:]) == {("POST", "/api/x")}
    assert report.network["writes_allowed_after_press"] >= 1


def test_too_few_screens_exit_non_zero_with_the_reasons(servers, tmp_path, capsys):
    app, _ = servers
    out = tmp_path / "few"
    argv = ["capture", app.url + "/alerts-only", "--out", str(out), "--size", "6.3"]
    argv += ["--max-screens", "6", "--timeout", "40"]  # --min-screens 3 by default
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "only 1 usable screen(s) captured, fewer than --min-screens 3" in err
    assert "Traceback" not in err
    assert "stopped: nothing more to follow" in err
    assert "blocked POST" in err and "'Show more'" in err
    manifest = json.loads((out / "manifest.json").read_text())  # written all the same
    assert manifest["capture_report"]["screens_kept"] == 1
    # --min-screens is at most --max-screens: one screen asked for, one is enough
    argv = ["capture", app.url + "/alerts-only", "--out", str(tmp_path / "one"), "--size", "6.3"]
    assert main(argv + ["--max-screens", "1", "--timeout", "40"]) == 0


def test_only_navigation_is_pressed(watchtower):
    report, _ = watchtower
    pressed = {b.cause for b in report.blocked if b.cause}
    # actions are never pressed, whatever the network would have done with them
    for label in ("Clear alerts", "Load", "Print", "Start", "New page", "Edit", "Acknowledge"):
        assert label not in pressed, label
    not_pressed = " ".join(s.reason for s in report.skipped if s.kind == "action")
    for label in ("'Clear alerts'", "'Load'", "'Start'", "'New page'", "'Edit'"):
        assert label in not_pressed, (label, not_pressed)
    assert "Show more" in pressed  # reads as navigation: pressed, its POST blocked


def test_pages_a_marketer_would_not_pick_are_rejected_with_their_reason(watchtower):
    report, out = watchtower
    paths = {urlsplit(u).path for u in report.frame[C.SCREEN_URL]}
    assert "/diagnostics" not in paths and "/empty" not in paths
    by_url = {s.url: s for s in report.skipped}
    assert by_url["/diagnostics"].kind == "warning-page"
    assert "not configured" in by_url["/diagnostics"].reason
    assert by_url["/empty"].kind in ("empty-state", "near-empty")
    assert "no reports yet" in by_url["/empty"].reason.lower()
    rejected = json.loads((out / "manifest.json").read_text())["capture_report"]["rejected"]
    assert {"/diagnostics", "/empty"} <= {r["url"] for r in rejected}


def test_policy_decisions_without_a_browser():
    from shotsmith.errors import InvalidOptionError
    from shotsmith.stages.capture.network import NetworkPolicy, redact_url

    policy = NetworkPolicy("http://app.test/", allow_write=["*/api/search", "re:/graphql$"])
    assert policy.decide("POST", "http://app.test/api/x", phase="load", main_navigation=False)
    assert not policy.decide("PUT", "http://app.test/api/x", phase="load", main_navigation=False)
    assert not policy.decide("POST", "http://app.test/api/x", phase="click", main_navigation=False)
    assert not policy.decide("DELETE", "http://app.test/a/1", phase="click", main_navigation=False)
    assert policy.decide("GET", "http://app.test/a?q=1", phase="click", main_navigation=False)
    assert policy.decide("POST", "http://app.test/api/search", phase="click", main_navigation=False)
    assert policy.decide("POST", "http://app.test/v1/graphql", phase="click", main_navigation=False)
    assert policy.decide("POST", "http://app.test/login", phase="sign-in", main_navigation=True)
    # a loading page's presence ping, lock or beacon stores something: not a read
    ping = "http://app.test/admin/editing-sessions/ping/page/11/"
    refused = policy.decide("POST", ping, phase="load", main_navigation=False)
    assert not refused and refused.kind == "write" and "ping" in refused.reason
    beacon = policy.decide(
        "POST", "http://app.test/api/x", phase="load", main_navigation=False, resource_type="ping"
    )
    assert not beacon and "beacon" in beacon.reason
    assert policy.decide("POST", "http://app.test/api/pingers", phase="load", main_navigation=False)
    assert NetworkPolicy("http://app.test/", allow_writes=True).decide(
        "POST", ping, phase="load", main_navigation=False
    )
    away = policy.decide("GET", "http://cdn.test/a.png", phase="load", main_navigation=False)
    assert not away and away.kind == "other-origin"
    # the start page's redirect names the app's origin; later ones do not
    assert policy.decide("GET", "https://www.app.test/", phase="start", main_navigation=True)
    assert policy.decide("GET", "https://www.app.test/x.css", phase="load", main_navigation=False)
    assert not policy.decide("GET", "https://other.test/", phase="load", main_navigation=True)
    extra = NetworkPolicy("http://app.test/", allow_origins=["https://cdn.test"])
    assert extra.decide("GET", "https://cdn.test/f.woff2", phase="load", main_navigation=False)
    assert NetworkPolicy("http://app.test/", allow_writes=True).decide(
        "PUT", "http://app.test/x", phase="click", main_navigation=False
    )
    with pytest.raises(InvalidOptionError, match="not an origin"):
        NetworkPolicy("http://app.test/", allow_origins=["cdn.test/path"])
    with pytest.raises(InvalidOptionError, match="regular expression"):
        NetworkPolicy("http://app.test/", allow_write=["re:("])
    shown = redact_url("https://u:pw@app.test/load?file=a.gcode&token=s3cr3t&apiKey=k#frag")
    assert shown == "https://app.test/load?file=a.gcode&token=***&apiKey=***"
