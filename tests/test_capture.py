"""capture: real Chromium against local web apps, real pixels; folders; sizes; CLI."""

from __future__ import annotations

import argparse
import http.server
import io
import json
import socket
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np
import pytest
from PIL import Image

from shotsmith import columns as C
from shotsmith.errors import InputImageError, ShotsmithError
from shotsmith.io import read_screenshots
from shotsmith.png import encode_png
from shotsmith.stages.capture import (
    CAPTURE_DEVICES,
    add_commands,
    capture,
    capture_report,
    resolve_devices,
)
from shotsmith.statusbar import StatusBarStyle, draw_status_bar

ROOT = Path(__file__).resolve().parents[1]
WEBAPP = ROOT / "sample_inputs" / "webapps" / "pocket-budget"
SITE = Path(__file__).resolve().parent / "capture_site"

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
    assert list(frame.columns) == list(C.INPUT_COLUMNS)
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
        site.url + "/", device_sizes="6.3", max_screens=8, timeout_s=40, page_timeout_s=3
    )
    return report, time.monotonic() - start


@needs_browser
def test_explorer_dedups_skips_and_stays_on_origin(site_servers, site_capture):
    site, other = site_servers
    report, seconds = site_capture
    frame = report.frame
    names = list(frame[C.SCREEN])
    assert names[0] == "home"
    assert {"alpha", "plans", "settings", "details", "weekly"} <= set(names), names
    assert len(names) == len(set(names)) <= 8
    assert (frame[C.IMAGE_WIDTH] == 1206).all() and (frame[C.IMAGE_HEIGHT] == 2622).all()
    # alpha.html and alpha-copy.html render identically: kept once
    assert "alpha copy" not in names
    by_url = {s.url.split("/")[-1]: s for s in report.skipped}
    assert by_url["alpha-copy.html"].kind == "duplicate"
    assert by_url["missing.html"].kind == "http" and "404" in by_url["missing.html"].reason
    assert by_url["slow"].kind == "timeout"
    assert by_url["slow-load.html"].kind == "timeout"
    assert by_url["busy.html"].kind == "timeout" and "settle" in by_url["busy.html"].reason
    assert any(s.kind == "other-origin" for s in report.skipped)
    assert any(s.kind == "form" for s in report.skipped)
    # never followed the other origin (link or button), never submitted, never pressed delete
    assert other.hits == []
    assert not [h for h in site.hits if h[0] != "GET"]
    paths = {p for _, p in site.hits}
    assert "/submitted" not in paths and "/deleted" not in paths and "/logout" not in paths
    # the hanging routes cost a page timeout each, not the hang
    assert seconds < 40 + 5
    assert report.seconds < 40 + 5


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
    assert list(frame.columns) == list(C.INPUT_COLUMNS)
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
    parser = argparse.ArgumentParser(prog="shotsmith")
    add_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
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
