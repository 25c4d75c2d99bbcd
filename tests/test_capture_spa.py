"""capture picks the right device and explores single-page apps without changing them:
real Chromium against local servers.

* tests/capture_site/desktop/: pages made for a desktop (a fixed ``min-width`` on the
  body, a fixed-width table) are captured at a tablet, not shrunk onto a phone, and the
  report says why; a pinned phone size is not switched, and the error says so.
* tests/data/spa_apps/: three small single-page apps with seeded state whose buttons
  write (see that folder's README): the server records no write and its state is
  byte-identical afterwards, the local-only controls (tabs, sort headers, a dropdown, a
  slider) are explored, and every screen kept is distinct and usable.
"""

from __future__ import annotations

import http.server
import json
from pathlib import Path

import pytest

from shotsmith import columns as C
from shotsmith.errors import CaptureError
from shotsmith.stages.capture import capture_report

from .conftest import serve_quietly

pytest.importorskip("playwright.sync_api")

pytestmark = [
    pytest.mark.skipif(
        not any(Path(p).exists() for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser")),
        reason="no system Chromium",
    ),
]

HERE = Path(__file__).resolve().parent
DESKTOP = HERE / "capture_site" / "desktop"


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
    [("minwidth", "fixed width of 1200 px"), ("table", "px wide, wider than the 440 pt")],
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


def test_a_pinned_phone_size_is_not_switched_and_the_error_says_why(desktop_site):
    with pytest.raises(CaptureError) as caught:
        capture_report(f"{desktop_site}/minwidth.html", device_sizes="6.3", timeout_s=30)
    message = str(caught.value)
    assert "desktop layout at the 402 pt phone screen" in message
    assert "pinned" in message and "--size 13" in message


def test_a_responsive_page_stays_on_the_phone(desktop_site):
    report = capture_report(f"{desktop_site}/responsive.html", max_screens=1, timeout_s=30)
    assert set(report.frame[C.DEVICE]) == {"iphone-16-pro-max"}
    assert not report.device_switch
    assert not [s for s in report.skipped if s.kind == "desktop-layout"]
