"""Where a capture's browser may go: real Chromium against two local servers, the app and
an "internal service" on another port holding a secret. The app's page embeds the
service in an iframe, an ``<object>`` and an ``<img>``, fetches from it, and links to it
through redirects (a same-origin 302 that leaves, a chain of two); a start URL redirects
there too. Nothing reaches the internal service and its secret is nowhere in the output.
"""

from __future__ import annotations

import http.server
import json
import os
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from shotsmith import columns as C
from shotsmith.errors import CaptureError
from shotsmith.stages.capture import capture_report
from shotsmith.stages.capture.network import NetworkPolicy, same_site

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

SITE = TESTS / "capture_site" / "egress"
SECRET = "SECRET-INTERNAL-7731"


class Server:
    """The app (``internal`` given: its pages and redirects) or the internal service (every
    path answers with the secret); records each path asked for."""

    def __init__(self, internal: str = ""):
        self.hits: list[str] = []
        server = self

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
                server.hits.append(path)
                if not internal:  # the internal service: a secret everywhere, CORS open
                    body = f"<p>{SECRET}</p>".encode()
                    return self._send(
                        body, "text/html", headers={"Access-Control-Allow-Origin": "*"}
                    )
                hops = {
                    "/hop": internal + "/page",
                    "/hop-image": internal + "/img.png",
                    "/hop-api": internal + "/api/via-hop",
                    "/chain": "/chain-2",
                    "/chain-2": internal + "/page",
                    "/start-away": internal + "/",
                }
                if path in hops:
                    return self._send(b"", "text/html", 302, {"Location": hops[path]})
                if path == "/":
                    html = (SITE / "index.html").read_text(encoding="utf-8")
                    html = html.replace("{{INTERNAL}}", internal)
                    return self._send(html.encode(), "text/html; charset=utf-8")
                return self._send(b"<h1>Not found</h1>", "text/html", 404)

        self.httpd, self.url = serve_quietly(Handler)

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="module")
def servers():
    internal = Server()
    app = Server(internal=internal.url)
    yield app, internal
    app.close()
    internal.close()


def test_nothing_reaches_another_service_and_its_secret_is_nowhere(servers, tmp_path):
    app, internal = servers
    report = capture_report(app.url + "/", max_screens=3, timeout_s=40, out_dir=tmp_path)
    assert not report.frame.empty
    assert internal.hits == []  # not the iframe, object, image, fetch, nor any redirect
    for text in report.frame[C.SCREEN_TEXT]:
        assert SECRET not in text
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path
    blocked = {(b.method, urlsplit(b.url).path) for b in report.blocked}
    direct = {"/frame", "/object", "/secret.png", "/api/secret"}
    assert {("GET", p) for p in direct} <= blocked, blocked
    # a same-origin URL that redirects away is refused at its hop, a subresource's too
    redirected = [b for b in report.blocked if "redirects there" in b.reason]
    assert {urlsplit(b.url).path for b in redirected} >= {"/img.png", "/api/via-hop", "/page"}
    skipped = {s.url: s.reason for s in report.skipped}
    for route in ("/hop", "/chain"):  # the links: a 302 away, and a chain of two
        assert "another origin" in skipped.get(route, ""), (route, skipped)
    summary = report.summary()
    assert f"blocked GET {internal.url}/frame" in summary
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert len(manifest["capture_report"]["network"]["blocked"]) == len(report.blocked)
    # as root Chromium needs --no-sandbox: the report says so, once
    if os.geteuid() == 0:
        assert "--no-sandbox" in report.sandbox and "root" in report.sandbox
        assert summary.count("without its sandbox") == 1
        assert manifest["capture_report"]["browser_sandbox"] is False
        assert not [n for n in report.notes if "sandbox" in n]  # not a note about the app


def test_a_start_url_that_redirects_to_another_service_is_refused(servers):
    app, internal = servers
    with pytest.raises(CaptureError) as caught:
        capture_report(app.url + "/start-away", max_screens=1, timeout_s=20)
    assert internal.hits == []
    assert "leads to another site" in str(caught.value) or "another origin" in str(caught.value)


def test_private_addresses_are_refused_unless_the_app_is_local():
    public = NetworkPolicy("http://app.example/", allow_origins=["http://169.254.169.254"])
    assert not public.local
    metadata = public.decide(
        "GET", "http://169.254.169.254/latest/meta-data/", phase="load", main_navigation=False
    )
    assert not metadata and metadata.kind == "private-address"
    assert "link-local" in metadata.reason
    start = public.decide("GET", "http://127.0.0.1:8080/", phase="start", main_navigation=True)
    assert not start and "another site" in start.reason
    # the start URL's own site may redirect to https or www, never to another port
    assert same_site("http://app.example/", "https://www.app.example/")
    assert not same_site("http://127.0.0.1:8000/", "http://127.0.0.1:9000/")
    # an app on a local network (local development) may load from that network
    local = NetworkPolicy("http://127.0.0.1:8000/", allow_origins=["http://10.0.0.7:9000"])
    assert local.local
    assert local.decide("GET", "http://10.0.0.7:9000/a.js", phase="load", main_navigation=False)
    for spelling in ("http://2130706433/", "http://0x7f.1/", "http://[::ffff:127.0.0.1]/"):
        policy = NetworkPolicy("http://app.example/", allow_origins=[spelling.rstrip("/")])
        refused = policy.decide("GET", spelling + "x", phase="load", main_navigation=False)
        assert not refused and refused.kind == "private-address", spelling
