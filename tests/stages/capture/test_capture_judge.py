"""Which pages a capture keeps: the screens a marketer would pick, judged once settled.

A loading state that resolves late is photographed with its data; one that never does,
an About page, a table with a header and one row, and a page that is only a form are
rejected, each with its reason in the report and on stderr. A page whose load event never
comes (an image that never arrives) is judged after a short wait, not dropped; a server
that answers one connection at a time is captured, not timed out.
"""

from __future__ import annotations

import http.server
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from shotsmith import columns as C
from shotsmith.stages.capture import capture_report

from .test_capture import SITE, Server, needs_browser


def _path(url: str) -> str:
    return urlsplit(url).path


@pytest.fixture(scope="module")
def judged():
    site = Server(SITE)
    try:
        report = capture_report(
            site.url + "/ledger-index.html",
            device_sizes="6.3",
            max_screens=8,
            timeout_s=90,
            page_timeout_s=8,
        )
        yield site, report
    finally:
        site.close()


@needs_browser
def test_a_loading_state_that_resolves_late_is_photographed_with_its_data(judged):
    _, report = judged
    kept = {_path(u): t for u, t in zip(report.frame[C.SCREEN_URL], report.frame[C.SCREEN_TEXT])}
    assert "/ledger-late.html" in kept, sorted(kept)
    text = kept["/ledger-late.html"]
    assert "East: 1.4 M" in text and "Loading revenue" not in text
    assert "/ledger-team.html" in kept  # a full table is a screen


@needs_browser
def test_a_chart_with_data_is_kept_and_words_in_elements_of_their_own_read_apart(judged):
    _, report = judged
    kept = {_path(u): t for u, t in zip(report.frame[C.SCREEN_URL], report.frame[C.SCREEN_TEXT])}
    assert "/ledger-trend.html" in kept, sorted(kept)  # the same axes, with a line drawn
    # each word and each space an element: the words are read with their spaces
    assert "Your books closed on time every month" in kept["/ledger-story.html"]


def _rejected(report, page: str):
    found = [s for s in report.skipped if s.url.endswith(page)]
    assert found, f"{page} not reported; skipped: {[str(s) for s in report.skipped]}"
    return found[0]


@needs_browser
@pytest.mark.parametrize(
    ("page", "kind", "words"),
    [
        (
            "/ledger-stuck.html",
            "loading",
            "still loading when judged (it says 'Loading endpoints…')",
        ),
        ("/ledger-about.html", "about-page", "a page about the app"),
        ("/ledger-workflows.html", "near-empty", "a near-empty table (1 row(s)"),
        ("/ledger-preferences.html", "bare-form", "only a form"),
        # a chart's axes and grid drawn on a canvas, and no data
        ("/ledger-usage.html", "empty-state", "an empty chart (its canvas draws no data)"),
        # an edit form whose choices are a list, beside a blank lookup frame and a side
        # panel of questions (told by its place, not its markup)
        ("/ledger-payee.html", "bare-form", "only a form"),
    ],
)
def test_pages_no_marketer_would_pick_are_rejected_with_their_reason(judged, page, kind, words):
    _, report = judged
    kept = {_path(u) for u in report.frame[C.SCREEN_URL]}
    assert page not in kept
    skipped = _rejected(report, page)
    assert skipped.kind == kind and words in skipped.reason, str(skipped)
    summary = report.summary()
    assert f"skipped {page}: {skipped.reason}" in summary
    assert any(r["url"] == page and r["kind"] == kind for r in report.as_dict()["rejected"])


@needs_browser
def test_a_page_whose_load_never_finishes_is_judged_after_a_short_wait():
    # slow-load.html's image never arrives: the load event never fires
    site = Server(SITE)
    try:
        start = time.monotonic()
        report = capture_report(
            site.url + "/slow-load.html",
            device_sizes="6.3",
            max_screens=1,
            timeout_s=40,
            page_timeout_s=15,
        )
        took = time.monotonic() - start
    finally:
        site.close()
    assert list(map(_path, report.frame[C.SCREEN_URL])) == ["/slow-load.html"]
    assert "Trail closures this week" in report.frame[C.SCREEN_TEXT].iloc[0]
    assert any("/slow-load.html had not finished loading" in n for n in report.notes)
    assert took < 30  # not the page timeout spent waiting on the image, then dropped


class _OneAtATime(http.server.HTTPServer):
    """A server that answers one connection at a time (no threads), like a dev server."""

    def handle_error(self, request, client_address):  # the browser hung up: fine
        pass


@needs_browser
def test_a_server_that_answers_one_connection_at_a_time_is_captured(tmp_path: Path):
    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(SITE), **kwargs)

        def log_message(self, *args):
            pass

    assert (SITE / "ledger-team.html").is_file()
    httpd = _OneAtATime(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        report = capture_report(
            f"http://127.0.0.1:{httpd.server_address[1]}/ledger-team.html",
            device_sizes="6.3",
            max_screens=1,
            timeout_s=40,
            page_timeout_s=10,
        )
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert list(map(_path, report.frame[C.SCREEN_URL])) == ["/ledger-team.html"]
    assert "Ines Duarte" in report.frame[C.SCREEN_TEXT].iloc[0]
    assert "one connection at a time" in report.summary()


@needs_browser
def test_a_start_page_judged_no_screen_still_leads_to_the_app():
    # the user points capture at the About page: no photo of it, but its links are followed
    site = Server(SITE)
    try:
        report = capture_report(
            site.url + "/ledger-about.html",
            device_sizes="6.3",
            max_screens=3,
            timeout_s=60,
            page_timeout_s=8,
        )
    finally:
        site.close()
    kept = {_path(u) for u in report.frame[C.SCREEN_URL]}
    assert "/ledger-about.html" not in kept
    assert {"/ledger-index.html", "/ledger-team.html"} <= kept, sorted(kept)
    assert _rejected(report, "/ledger-about.html").kind == "about-page"
