"""capture: raw screenshots of a project, as the frame ``read_screenshots`` returns.

Two kinds of source:

* a **web app** (an ``http(s)://`` URL): Playwright drives Chromium emulating each
  requested device (viewport in points, scale, touch, mobile user agent, locale)
  and an explorer walks the app's own links and buttons, de-duplicates screens
  that look the same, names them and ranks them (start page first, then the most
  distinct, content-rich ones). Raw captures are at the device's exact native
  pixels; the page is laid out below a band as high as the device's top inset, which
  shows the page's own top colour with a clean status bar drawn in it
  (``status_bar=False`` leaves the band plain). Only settled HTML screens are kept; a
  sign-in wall is reported, or passed with ``login=`` / ``storage_state=``. See
  :mod:`shotsmith.capture_explore` and :mod:`shotsmith.capture_pages`.
* a **folder** of screenshots simulators already produced: fastlane snapshot
  (``<dir>/<locale>/<Device Name>-<screen>.png``), fastlane screengrab
  (``<dir>/<locale>/images/phoneScreenshots/*.png``) or a flat folder. Every image's
  pixel size is checked against the requested (or any known) device sizes.

Device sizes are the store's display classes in inches, as text ("6.9", "6.5",
"6.3", "6.1", "5.5", iPad "13"/"11"; Android "6.3", "6.7"), mapped to a device
(viewport, scale, native pixels) and its store canvas; see :data:`CAPTURE_DEVICES`.

``capture(...)`` returns the frame (``read_screenshots``' columns plus ``screen_elements``,
the visible text with roles and boxes, and ``screen_url``); ``capture_report(...)`` returns
it together with what was skipped and why (pages that failed, raw data, error pages,
transient states, duplicates, other templates, other origins, budget) and notes (a
sign-in wall, a desktop-only layout).
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import io
import json
import logging
import math
import os
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pandas as pd
from PIL import Image

from .. import columns as C
from ..capture_explore import (
    CHROMIUM_ARGS,
    Emulation,
    Explorer,
    Screen,
    Shot,
    Skipped,
    Watchdog,
    app_name_from,
    find_browser,
    marker,
    name_screens,
    route_of,
)
from ..devices import DEVICES, STORE_SIZES
from ..errors import InputImageError, ShotsmithError
from ..io import MANIFEST_NAMES, check_png, read_screenshots, screen_name_from_file, slugify
from ..png import encode_png
from ..statusbar import StatusBarStyle, draw_status_bar, top_color

log = logging.getLogger("shotsmith.capture")

PLATFORMS = ("ios", "android")
#: the columns of a captured frame: read_screenshots' inputs, the DOM text with roles and
#: the page each screen shows (read_screenshots reads both back from manifest.json)
FRAME_COLUMNS = (*C.INPUT_COLUMNS, C.SCREEN_ELEMENTS, C.SCREEN_URL)


# --- devices and sizes ----------------------------------------------------------


@dataclass(frozen=True)
class CaptureDevice:
    """A device the capture stage can emulate, and the store class its shots feed."""

    id: str
    name: str
    platform: str  # "ios" | "android"
    size: str  # display class as the stores name it, inches: "6.9", "13", ...
    points: tuple[int, int]  # CSS viewport (portrait)
    scale: float  # native pixels per point
    px: tuple[int, int]  # exact native pixels of a raw capture
    store_size: str  # key of devices.STORE_SIZES the outputs go to
    top_inset_pt: float
    island_pt: tuple[float, float, float] | None = None
    home_button: bool = False
    tablet: bool = False

    @property
    def canvas(self) -> tuple[int, int]:
        """The store canvas (portrait px) outputs for this device are made at."""
        return STORE_SIZES[self.store_size][0]

    def status_bar_style(self) -> StatusBarStyle:
        return StatusBarStyle(
            platform=self.platform,
            scale=self.px[0] / self.points[0],
            inset_pt=self.top_inset_pt,
            island_pt=self.island_pt,
            home_button=self.home_button,
            tablet=self.tablet,
        )


def _from_catalogue(device_id: str, size: str, store_size: str | None = None) -> CaptureDevice:
    d = DEVICES[device_id]
    return CaptureDevice(
        id=d.id,
        name=d.name,
        platform=d.platform,
        size=size,
        points=(round(d.points[0]), round(d.points[1])),
        scale=d.scale,
        px=d.screen_px,
        store_size=store_size or (size if d.platform == "ios" else "android-phone"),
        top_inset_pt=d.top_inset_pt,
        island_pt=d.island_pt,
        home_button=d.home_button,
        tablet=d.id.startswith("ipad"),
    )


# Devices for store classes the shared catalogue (devices.py) does not hold yet.
_EXTRA = {
    "iphone-14-plus": CaptureDevice(
        "iphone-14-plus", "iPhone 14 Plus", "ios", "6.5", (428, 926), 3, (1284, 2778), "6.5", 47
    ),
    "iphone-14": CaptureDevice(
        "iphone-14", "iPhone 14", "ios", "6.1", (390, 844), 3, (1170, 2532), "6.1", 47
    ),
    "iphone-8-plus": CaptureDevice(
        "iphone-8-plus",
        "iPhone 8 Plus",
        "ios",
        "5.5",
        (414, 736),
        3,
        (1242, 2208),
        "5.5",
        20,
        home_button=True,
    ),
    "ipad-pro-11": CaptureDevice(
        "ipad-pro-11",
        "iPad Pro 11-inch (M4)",
        "ios",
        "11",
        (834, 1210),
        2,
        (1668, 2420),
        "11",
        24,
        tablet=True,
    ),
}


def _device(device_id: str, size: str) -> CaptureDevice:
    return _from_catalogue(device_id, size) if device_id in DEVICES else _EXTRA[device_id]


#: platform -> display class (inches, as text) -> the device captured for it
CAPTURE_DEVICES: dict[str, dict[str, CaptureDevice]] = {
    "ios": {
        "6.9": _device("iphone-16-pro-max", "6.9"),
        "6.5": _device("iphone-14-plus", "6.5"),
        "6.3": _device("iphone-16-pro", "6.3"),
        "6.1": _device("iphone-14", "6.1"),
        "5.5": _device("iphone-8-plus", "5.5"),
        "13": _device("ipad-pro-13", "13"),
        "11": _device("ipad-pro-11", "11"),
    },
    "android": {
        "6.3": _device("pixel-9", "6.3"),
        "6.7": _device("pixel-9-pro-xl", "6.7"),
        "6.8": _device("pixel-9-pro-xl", "6.8"),
    },
}
DEFAULT_SIZES = {"ios": ("6.9",), "android": ("6.3",)}
IPAD_SIZE = "13"

USER_AGENTS = {
    "iphone": (
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
        "(KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"
    ),
    "ipad": (
        "Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
        "(KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1"
    ),
    "android": (
        "Mozilla/5.0 (Linux; Android 15; {model}) AppleWebKit/537.36 "
        "(KHTML, like Gecko) Chrome/{major}.0.0.0 Mobile Safari/537.36"
    ),
}


def _size_key(size: Any) -> str:
    text = str(size).strip().lower().rstrip('"').removesuffix("in").removesuffix("inch").strip()
    text = text.rstrip('"').strip()
    try:
        return f"{float(text):g}"
    except ValueError:
        return text


def resolve_devices(
    platforms: Sequence[str] | str | None = None,
    device_sizes: Sequence[str | float] | str | float | None = None,
    *,
    supports_ipad: bool = False,
) -> list[CaptureDevice]:
    """The devices to capture: ``device_sizes`` per platform, or each platform's defaults.

    A size is a display class in inches ("6.9"), optionally qualified by platform
    ("android:6.3"), a device id ("iphone-16-pro") or a pixel size ("1320x2868").
    Unqualified sizes apply to every requested platform that has them.
    """
    plats = _platforms(platforms) or ["ios"]
    if device_sizes is None or (
        not isinstance(device_sizes, (str, float, int)) and len(device_sizes) == 0
    ):
        out = []
        for p in plats:
            sizes = list(DEFAULT_SIZES[p]) + ([IPAD_SIZE] if p == "ios" and supports_ipad else [])
            out += [CAPTURE_DEVICES[p][s] for s in sizes]
        return out
    if isinstance(device_sizes, (str, float, int)):
        device_sizes = [device_sizes]
    chosen: list[CaptureDevice] = []
    for raw in device_sizes:
        text = str(raw).strip()
        want = plats
        if ":" in text:
            prefix, text = (t.strip() for t in text.split(":", 1))
            if prefix.lower() not in PLATFORMS:
                raise ShotsmithError(
                    f"unknown platform {prefix!r} in size {raw!r}; "
                    f"platforms: {', '.join(PLATFORMS)}"
                )
            want = [prefix.lower()]
        key = _size_key(text)
        found = [d for p in want for d in _match_size(p, key)]
        if not found:
            raise ShotsmithError(
                f"unknown device size {raw!r} for {'/'.join(want)}; allowed sizes: "
                + "; ".join(f"{p}: " + ", ".join(CAPTURE_DEVICES[p]) for p in want)
                + ' (inches, e.g. "6.9"; qualify as "android:6.3"; or a device id such as '
                + ", ".join(sorted({d.id for p in want for d in CAPTURE_DEVICES[p].values()}))
                + ")"
            )
        chosen += [d for d in found if d not in chosen]
    if supports_ipad and "ios" in plats and not any(d.tablet for d in chosen):
        chosen.append(CAPTURE_DEVICES["ios"][IPAD_SIZE])
    missing = [p for p in plats if not any(d.platform == p for d in chosen)]
    if missing:
        raise ShotsmithError(
            f"no size given for platform {', '.join(missing)}; add one, e.g. "
            + ", ".join(f'"{p}:{DEFAULT_SIZES[p][0]}"' for p in missing)
            + " (allowed: "
            + "; ".join(f"{p}: " + ", ".join(CAPTURE_DEVICES[p]) for p in missing)
            + ")"
        )
    return chosen


def _match_size(platform: str, key: str) -> list[CaptureDevice]:
    table = CAPTURE_DEVICES[platform]
    if key in table:
        return [table[key]]
    by_id = [d for d in table.values() if d.id == key]
    if by_id:
        return by_id[:1]
    m = re.fullmatch(r"(\d+)\s*x\s*(\d+)", key)
    if m:
        w, h = sorted((int(m.group(1)), int(m.group(2))))
        return [d for d in table.values() if d.px == (w, h)][:1]
    return []


def _platforms(platforms: Sequence[str] | str | None) -> list[str]:
    if platforms is None:
        return []
    if isinstance(platforms, str):
        platforms = [p for p in re.split(r"[,\s]+", platforms) if p]
    out = []
    for p in platforms:
        key = str(p).strip().lower()
        if key not in PLATFORMS:
            raise ShotsmithError(
                f"unknown platform {p!r}; allowed platforms: {', '.join(PLATFORMS)}"
            )
        if key not in out:
            out.append(key)
    return out


def emulation(device: CaptureDevice, chrome_major: str = "131") -> Emulation:
    """How the browser emulates ``device``: width exact in points, height rounded up."""
    w_pt = device.points[0]
    scale = device.px[0] / w_pt
    h_pt = math.ceil(device.px[1] / scale - 1e-6)
    if device.platform == "android":
        ua = USER_AGENTS["android"].format(model=device.name, major=chrome_major)
    else:
        ua = USER_AGENTS["ipad" if device.tablet else "iphone"]
    return Emulation(
        device_id=device.id,
        width=w_pt,
        height=h_pt,
        scale=scale,
        px=device.px,
        user_agent=ua,
        band_pt=device.top_inset_pt,
    )


# --- result -------------------------------------------------------------------


@dataclass
class CaptureReport:
    """What :func:`capture_report` found: the frame, and what it left out and why."""

    frame: pd.DataFrame
    skipped: list[Skipped] = field(default_factory=list)
    devices: list[CaptureDevice] = field(default_factory=list)
    source: str = ""
    seconds: float = 0.0
    explored: int = 0  # distinct screens found (web)
    visited: int = 0  # pages loaded while exploring (web)
    sign_in_url: str = ""  # where the app asked for a sign-in it did not get (web)
    notes: list[str] = field(default_factory=list)  # what the user should know (web)
    titles: dict[Any, str] = field(default_factory=dict)  # frame index -> page title (web)

    def summary(self) -> str:
        lines = [f"{self.source}: {len(self.frame)} screenshot(s) in {self.seconds:.1f} s"]
        lines += [f"  note: {note}" for note in self.notes]
        for s in self.skipped:
            lines.append(f"  skipped {s.url}: {s.reason}" + (f" [{s.device}]" if s.device else ""))
        return "\n".join(lines)


def capture(
    source: str | Path,
    *,
    platforms: Sequence[str] | str | None = None,
    device_sizes: Sequence[str | float] | str | None = None,
    locale: str = "en-US",
    max_screens: int = 6,
    timeout_s: float = 60,
    project_name: str | None = None,
    bundle_id: str | None = None,
    status_bar: bool = True,
    allow_forms: bool = False,
    supports_ipad: bool = False,
    out_dir: str | Path | None = None,
    page_timeout_s: float | None = None,
    browser_path: str | None = None,
    progress: bool = False,
    login: str | tuple[str, str] | None = None,
    storage_state: str | Path | dict | None = None,
) -> pd.DataFrame:
    """Raw screenshots of a web app (URL) or a screenshot folder, as a read_screenshots frame.

    ``platforms`` defaults to iOS for a web app; for a folder, to whatever platform the
    screenshots' pixel sizes say. One set (``app_id``) per device captured;
    ``screen_text`` holds the visible DOM text of each web screen, ``screen_elements`` the
    same text with roles and boxes, ``screen_url`` the page. With ``out_dir`` the PNGs (and
    a manifest.json per set) are written there and the frame references the files;
    otherwise it holds the PNG bytes.

    An app behind a sign-in: ``login=("user", "password")`` (or ``"user:password"``) fills
    the app's own sign-in form once; ``storage_state`` starts from a Playwright storage
    state (a file saved after signing in, or its dict). Without either, a sign-in wall is
    reported (logged as a warning, and in :func:`capture_report`'s ``notes``). What was
    skipped is logged; :func:`capture_report` returns it.
    """
    return capture_report(
        source,
        platforms=platforms,
        device_sizes=device_sizes,
        locale=locale,
        max_screens=max_screens,
        timeout_s=timeout_s,
        project_name=project_name,
        bundle_id=bundle_id,
        status_bar=status_bar,
        allow_forms=allow_forms,
        supports_ipad=supports_ipad,
        out_dir=out_dir,
        page_timeout_s=page_timeout_s,
        browser_path=browser_path,
        progress=progress,
        login=login,
        storage_state=storage_state,
    ).frame


def capture_report(
    source: str | Path,
    *,
    platforms: Sequence[str] | str | None = None,
    device_sizes: Sequence[str | float] | str | None = None,
    locale: str = "en-US",
    max_screens: int = 6,
    timeout_s: float = 60,
    project_name: str | None = None,
    bundle_id: str | None = None,
    status_bar: bool = True,
    allow_forms: bool = False,
    supports_ipad: bool = False,
    out_dir: str | Path | None = None,
    page_timeout_s: float | None = None,
    browser_path: str | None = None,
    progress: bool = False,
    login: str | tuple[str, str] | None = None,
    storage_state: str | Path | dict | None = None,
) -> CaptureReport:
    """Like :func:`capture`, returning a :class:`CaptureReport` (frame + skipped + notes)."""
    if not isinstance(max_screens, int) or isinstance(max_screens, bool) or max_screens < 1:
        raise ShotsmithError(f"max_screens must be a whole number >= 1, got {max_screens!r}")
    if not timeout_s or timeout_s <= 0:
        raise ShotsmithError(f"timeout_s must be > 0 seconds, got {timeout_s!r}")
    if page_timeout_s is not None and page_timeout_s <= 0:
        raise ShotsmithError(f"page_timeout_s must be > 0 seconds, got {page_timeout_s!r}")
    if not isinstance(locale, str) or not re.fullmatch(
        r"[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*", locale.strip()
    ):
        raise ShotsmithError(f"locale must be a BCP 47 tag such as en-US, got {locale!r}")
    locale = locale.strip().replace("_", "-")
    credentials = parse_login(login)
    state = load_storage_state(storage_state)
    started = time.monotonic()
    text = str(source).strip() if isinstance(source, (str, Path)) else ""
    if re.match(r"^https?://", text, re.I):
        parts = urlsplit(text)
        if not parts.hostname:
            raise ShotsmithError(f"{text!r} is not a usable URL (no host).")
        devices = resolve_devices(platforms, device_sizes, supports_ipad=supports_ipad)
        report = _run_outside_event_loop(
            _capture_web,
            text,
            devices,
            locale=locale,
            max_screens=max_screens,
            timeout_s=float(timeout_s),
            project_name=project_name,
            bundle_id=bundle_id or "",
            status_bar=status_bar,
            allow_forms=allow_forms,
            page_timeout_s=page_timeout_s,
            browser_path=browser_path,
            progress=progress,
            login=credentials,
            storage_state=state,
        )
    elif credentials or state is not None:
        raise ShotsmithError(
            "login and storage_state are for capturing a web app (an http(s):// URL), "
            f"not a folder of screenshots ({source!r})."
        )
    elif text and Path(text).is_dir():
        report = _capture_folder(
            Path(text),
            platforms=platforms,
            device_sizes=device_sizes,
            locale=locale,
            max_screens=max_screens,
            project_name=project_name,
            bundle_id=bundle_id,
            supports_ipad=supports_ipad,
        )
    elif text and Path(text).exists():
        raise ShotsmithError(
            f"{text}: a file; capture takes a web app URL (http://...) or a folder of screenshots."
        )
    else:
        raise ShotsmithError(
            f"{source!r} is neither a web app URL (http:// or https://) nor "
            "an existing folder of screenshots."
        )
    report.seconds = time.monotonic() - started
    for s in report.skipped:
        log.info("capture skipped %s: %s", s.url, s.reason)
    for note in report.notes:
        log.warning("capture: %s", note)
    if out_dir is not None:
        report.frame = write_capture(
            report.frame,
            out_dir,
            skipped=report.skipped,
            source=report.source,
            titles=report.titles,
            notes=report.notes,
            sign_in_url=report.sign_in_url,
        )
    return report


def parse_login(login: str | tuple[str, str] | list[str] | None) -> tuple[str, str] | None:
    """``"user:password"`` or ``(user, password)`` -> (user, password); a clear error if not.

    A bare ``"user"`` takes the password from ``$SHOTSMITH_LOGIN_PASSWORD`` (so it need not
    appear on a command line).
    """
    if login is None or login == "":
        return None
    if isinstance(login, str):
        user, sep, password = login.partition(":")
        if not sep:
            password = os.environ.get("SHOTSMITH_LOGIN_PASSWORD", "")
            if not password:
                raise ShotsmithError(
                    "login must be USER:PASSWORD (or set $SHOTSMITH_LOGIN_PASSWORD and pass "
                    "just USER); got a user name without a password."
                )
    elif isinstance(login, (tuple, list)) and len(login) == 2:
        user, password = (str(v) for v in login)
    else:
        raise ShotsmithError(
            f"login must be 'USER:PASSWORD' or a (user, password) pair, got {type(login).__name__}"
        )
    if not password:
        raise ShotsmithError(
            "login needs a password (USER:PASSWORD; ':PASSWORD' for an app that asks for a "
            "password only)."
        )
    return user.strip(), password


def load_storage_state(state: str | Path | dict | None) -> dict | None:
    """A Playwright storage state (file or dict), checked; a clear error when it is not one."""
    if state is None or state == "":
        return None
    if isinstance(state, dict):
        data, where = state, "storage_state"
    else:
        path = Path(state)
        if not path.is_file():
            raise ShotsmithError(
                f"storage state {path}: no such file. Save one after signing in (Playwright: "
                "context.storage_state(path=...)) or pass --login USER:PASSWORD instead."
            )
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ShotsmithError(
                f"storage state {path}: not valid JSON ({exc}). Pass the file Playwright's "
                "context.storage_state(path=...) wrote."
            ) from exc
        where = str(path)
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("cookies", []), list)
        or not isinstance(data.get("origins", []), list)
        or not ({"cookies", "origins"} & set(data))
    ):
        raise ShotsmithError(
            f"{where}: not a Playwright storage state (expected an object with 'cookies' and "
            "'origins' lists, as context.storage_state(path=...) writes)."
        )
    return {"cookies": list(data.get("cookies", [])), "origins": list(data.get("origins", []))}


def _run_outside_event_loop(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Playwright's sync API refuses to run inside an asyncio loop (notebooks, servers)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return fn(*args, **kwargs)
    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="shotsmith-capture") as ex:
        return ex.submit(fn, *args, **kwargs).result()


# --- web apps -----------------------------------------------------------------


def _capture_web(
    url: str,
    devices: list[CaptureDevice],
    *,
    locale: str,
    max_screens: int,
    timeout_s: float,
    project_name: str | None,
    bundle_id: str,
    status_bar: bool,
    allow_forms: bool,
    page_timeout_s: float | None,
    browser_path: str | None,
    progress: bool,
    login: tuple[str, str] | None,
    storage_state: dict | None,
) -> CaptureReport:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        raise ShotsmithError(
            "capturing a web app needs Playwright: pip install "
            "'shotsmith[capture]' (and a Chromium)."
        ) from exc

    t0 = time.monotonic()
    deadline = t0 + timeout_s
    page_timeout = page_timeout_s or min(15.0, max(3.0, timeout_s / 4))
    mark = marker()
    bar = _progress(progress, max_screens * len(devices))
    skipped: list[Skipped] = []
    shots: dict[str, list[Shot | Skipped]] = {}
    try:
        with Watchdog(mark, deadline + 15), sync_playwright() as pw:
            try:
                browser = pw.chromium.launch(
                    executable_path=find_browser(browser_path),
                    args=CHROMIUM_ARGS + [mark],
                    timeout=max(5000, min(30000, timeout_s * 500)),
                )
            except Exception as exc:
                raise ShotsmithError(
                    f"could not start Chromium ({str(exc).strip().splitlines()[0]}). Install "
                    "Chromium (Debian: apt-get install chromium) or pass browser_path."
                ) from exc
            try:
                major = (browser.version or "131").split(".")[0]
                explorer = Explorer(
                    browser,
                    url,
                    locale=locale,
                    allow_forms=allow_forms,
                    deadline=t0 + timeout_s * (0.7 if len(devices) > 1 else 1.0),
                    page_timeout_s=page_timeout,
                    login=login,
                    storage_state=storage_state,
                )
                # look beyond max_screens so ranking has a choice (the start page is always first)
                explore_limit = 1 if max_screens == 1 else max_screens + max(4, max_screens)
                result = explorer.explore(
                    emulation(devices[0], major),
                    max_screens=max_screens,
                    explore_limit=explore_limit,
                    progress=bar,
                )
                if not result.screens:
                    why = result.skipped[-1].reason if result.skipped else "unknown error"
                    raise ShotsmithError(
                        f"could not capture {url}: the start page could not be loaded: {why}. "
                        "Check that the web app is running and the URL is right."
                    )
                chosen = result.screens[:max_screens]
                for extra in result.screens[max_screens:]:
                    skipped.append(
                        Skipped(
                            route_of(extra.url),
                            f"ranked below the first {max_screens} screens (max_screens)",
                            "budget",
                        )
                    )
                app = project_name or app_name_from(result.screens) or _host_name(url)
                name_screens(chosen, app)
                shots[devices[0].id] = [
                    Shot(s.png, s.text, s.offset, s.elements, s.url, s.title) for s in chosen
                ]
                explorer.deadline = deadline
                for device in devices[1:]:
                    shots[device.id] = explorer.recapture(emulation(device, major), chosen)
                    if bar is not None:
                        bar.update(sum(isinstance(s, Shot) for s in shots[device.id]))
                skipped = explorer.skipped + skipped
            finally:
                try:
                    browser.close()
                except Exception:
                    pass
    finally:
        if bar is not None:
            bar.close()

    rows, titles = _web_frame(
        chosen,
        shots,
        devices,
        app=app,
        bundle_id=bundle_id,
        locale=locale,
        status_bar=status_bar,
        skipped=skipped,
    )
    return CaptureReport(
        frame=rows,
        skipped=skipped,
        devices=devices,
        source=url,
        explored=len(result.screens),
        visited=result.visited,
        sign_in_url=result.sign_in_url,
        notes=list(dict.fromkeys(result.notes)),
        titles=titles,
    )


def _web_frame(
    chosen: list[Screen],
    shots: dict[str, list[Shot | Skipped]],
    devices: list[CaptureDevice],
    *,
    app: str,
    bundle_id: str,
    locale: str,
    status_bar: bool,
    skipped: list[Skipped],
) -> tuple[pd.DataFrame, dict[int, str]]:
    jobs = []
    for device in devices:
        for screen, shot in zip(chosen, shots.get(device.id, [])):
            if isinstance(shot, Skipped):
                skipped.append(shot)
                continue
            jobs.append((device, screen, shot))
    with concurrent.futures.ThreadPoolExecutor(min(4, os.cpu_count() or 1)) as pool:
        pngs = list(
            pool.map(
                lambda j: finish_png(j[2].png, j[0], offset=j[2].offset, status_bar=status_bar),
                jobs,
            )
        )
    base = slugify(app)
    records = []
    titles: dict[int, str] = {}
    positions: dict[str, int] = {}
    for (device, screen, shot), png in zip(jobs, pngs):
        app_id = base if len(devices) == 1 else f"{base}-{device.id}"
        pos = positions.get(app_id, 0)
        positions[app_id] = pos + 1
        titles[len(records)] = shot.title
        records.append(
            {
                C.APP_ID: app_id,
                C.POSITION: pos,
                C.PROJECT_NAME: app,
                C.BUNDLE_ID: bundle_id,
                C.SCREEN: screen.name,
                C.DEVICE: device.id,
                C.LOCALE: locale,
                C.IMAGE: png,
                C.SCREEN_TEXT: shot.text,
                C.IMAGE_WIDTH: device.px[0],
                C.IMAGE_HEIGHT: device.px[1],
                C.SCREEN_ELEMENTS: shot.elements,
                C.SCREEN_URL: shot.url,
            }
        )
    return pd.DataFrame(records, columns=list(FRAME_COLUMNS)), titles


def finish_png(
    png: bytes, device: CaptureDevice, *, offset: int = 0, status_bar: bool = True
) -> bytes:
    """Browser screenshot -> exact native pixels, RGB, status bar drawn (optional), PNG.

    ``offset``: the page was laid out below a status-bar band this many pixels high (as iOS
    lays out a web view below the status bar); the band shows the page's own top colour and
    the status bar is drawn there, so it never covers the page.
    """
    with Image.open(io.BytesIO(png)) as im:
        im.load()
        page = im.convert("RGB")
    w, h = device.px
    if page.width != w:
        page = page.resize((w, max(1, round(page.height * w / page.width))), Image.LANCZOS)
    if offset > 0:
        image = Image.new("RGB", (w, h), top_color(page))
        image.paste(page.crop((0, 0, w, min(page.height, h - offset))), (0, offset))
    elif page.height >= h:
        image = page.crop((0, 0, w, h))  # the viewport was rounded up by < 1 point
    else:
        image = page.resize((w, h), Image.LANCZOS)
    if status_bar:
        image = draw_status_bar(image, device.status_bar_style())
    return encode_png(image)


def _host_name(url: str) -> str:
    host = urlsplit(url).hostname or "web app"
    if re.fullmatch(r"[\d.]+|localhost|\[.*\]", host):
        return "Web App"
    label = host.split(".")[-2] if host.count(".") >= 1 else host
    return label.replace("-", " ").title()


def _progress(enabled: bool, total: int) -> Any:
    if not enabled:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return None
    return tqdm(total=total, desc="capture", unit="screen")


# --- folders ------------------------------------------------------------------

_LOCALE_DIR = re.compile(r"^[a-z]{2,3}([-_][A-Za-z0-9]{2,8})*$", re.I)
_TIMESTAMP = re.compile(r"_\d{10,}$")
_GENERIC_DIRS = {
    "screenshots",
    "fastlane",
    "metadata",
    "android",
    "ios",
    "screens",
    "shots",
    "raw",
    "images",
    "phonescreenshots",
    "output",
    "out",
}


@dataclass
class _Group:
    label: str  # device name from the file names, or "" when unknown
    locale: str | None
    files: list[tuple[Path, str, int | None]]  # path, screen name, order number
    platform: str | None = None


def _capture_folder(
    folder: Path,
    *,
    platforms: Sequence[str] | str | None,
    device_sizes: Sequence[str | float] | str | None,
    locale: str,
    max_screens: int,
    project_name: str | None,
    bundle_id: str | None,
    supports_ipad: bool,
) -> CaptureReport:
    plats = _platforms(platforms)
    sizes_given = device_sizes is not None and not (
        not isinstance(device_sizes, (str, float, int)) and len(device_sizes) == 0
    )
    wanted = None
    if sizes_given:
        wanted = (
            resolve_devices(plats, device_sizes) if plats else _resolve_any_platform(device_sizes)
        )

    manifest = _manifest_of(folder)
    layout, groups, used_locale = _scan_folder(folder, locale)
    skipped: list[Skipped] = []
    frames = []
    first_error: InputImageError | None = None
    project = project_name or (manifest or {}).get("project_name") or _project_from(folder)
    for group in groups:
        if layout == "flat":
            base = read_screenshots(
                folder, project_name=project, bundle_id=bundle_id, locale=used_locale
            )
            paths = [Path(p) for p in base[C.IMAGE]]
            names = list(base[C.SCREEN])
            texts = list(base[C.SCREEN_TEXT])
        else:
            paths = [p for p, _, _ in group.files]
            names = [n for _, n, _ in group.files]
            texts = [""] * len(paths)
        devices, errors = [], []
        for path in paths:
            width, height = check_png(path.read_bytes(), str(path), full=False)
            try:
                devices.append(
                    _device_for_image(
                        path, width, height, wanted=wanted, platforms=plats, hint=group.label
                    )
                )
            except InputImageError as exc:
                errors.append(exc)
        if errors:
            if layout == "flat" or len(groups) == 1 or devices:
                raise errors[0]
            first_error = first_error or errors[0]  # a whole device set of another size
            for path in paths:
                skipped.append(Skipped(str(path), "not one of the requested device sizes", "size"))
            continue
        # one set per device, store order kept
        by_device: dict[str, list[int]] = {}
        for i, dev in enumerate(devices):
            by_device.setdefault(dev, []).append(i)
        for dev, idx in by_device.items():
            if len(idx) > max_screens:
                for i in idx[max_screens:]:
                    skipped.append(
                        Skipped(str(paths[i]), f"beyond max_screens={max_screens}", "budget", dev)
                    )
                idx = idx[:max_screens]
            frames.append(
                read_screenshots(
                    [str(paths[i]) for i in idx],
                    project_name=project,
                    bundle_id=bundle_id
                    if bundle_id is not None
                    else (manifest or {}).get("bundle_id", ""),
                    screens=[names[i] for i in idx],
                    devices=dev,
                    locale=used_locale,
                    texts=[texts[i] for i in idx],
                    app_id=slugify(project),
                )
            )
    if not frames:
        raise first_error or InputImageError(f"{folder}: no screenshots found.")
    frame = pd.concat(frames, ignore_index=True)
    ids = frame[C.DEVICE].drop_duplicates().tolist()
    if len(ids) > 1:
        frame[C.APP_ID] = [f"{a}-{d}" for a, d in zip(frame[C.APP_ID], frame[C.DEVICE])]
    devs = [d for d in _all_devices() if d.id in ids]
    return CaptureReport(
        frame=frame[list(FRAME_COLUMNS)], skipped=skipped, devices=devs, source=str(folder)
    )


def _resolve_any_platform(device_sizes: Any) -> list[CaptureDevice]:
    sizes = [device_sizes] if isinstance(device_sizes, (str, float, int)) else list(device_sizes)
    out: list[CaptureDevice] = []
    for s in sizes:
        found = []
        for p in PLATFORMS:
            try:
                found += resolve_devices([p], [s])
            except ShotsmithError:
                continue
        if not found:
            resolve_devices(list(PLATFORMS), [s])  # raises the message listing what is allowed
        out += [d for d in found if d not in out]
    return out


def _manifest_of(folder: Path) -> dict | None:
    for name in MANIFEST_NAMES:
        path = folder / name
        if path.exists():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError):
                return None
            return data if isinstance(data, dict) else None
    return None


def _project_from(folder: Path) -> str:
    for part in [folder, *folder.parents]:
        if (
            part.name
            and part.name.lower() not in _GENERIC_DIRS
            and not _LOCALE_DIR.match(part.name)
        ):
            name = part.name.replace("-", " ").replace("_", " ").strip()
            return name if any(c.isupper() for c in name) else name.title()
    return "App"


def _pngs(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix.lower() == ".png")


def _scan_folder(folder: Path, locale: str) -> tuple[str, list[_Group], str]:
    """Find the layout: 'flat', 'snapshot' (fastlane) or 'screengrab'; the groups to read."""
    if _pngs(folder) or _manifest_of(folder):
        return "flat", [_Group("", None, [])], locale
    root = folder
    for sub in ("screenshots", "metadata/android"):  # a fastlane/ directory given
        if not _locale_dirs(root) and (folder / sub).is_dir():
            root = folder / sub
    locales = _locale_dirs(root)
    if not locales:
        raise InputImageError(
            f"{folder}: no screenshots found. Expected PNG files in the folder, fastlane "
            "snapshot's <locale>/<Device Name>-<screen>.png, or screengrab's "
            "<locale>/images/phoneScreenshots/*.png."
        )
    chosen = _pick_locale(folder, locales, locale)
    loc_dir = root / chosen
    used_locale = chosen.replace("_", "-")
    shots_dirs = (
        sorted(p for p in (loc_dir / "images").glob("*Screenshots") if p.is_dir())
        if (loc_dir / "images").is_dir()
        else []
    )
    if shots_dirs:  # screengrab / supply
        phone = [p for p in shots_dirs if p.name == "phoneScreenshots"] or shots_dirs
        groups = []
        for d in phone:
            files = []
            for p in _pngs(d):
                num, name = screen_name_from_file(p.with_name(_TIMESTAMP.sub("", p.stem) + ".png"))
                stamp = _TIMESTAMP.search(p.stem)
                files.append((p, name, num, int(stamp.group(0)[1:]) if stamp else 0))
            files.sort(key=lambda f: (f[2] is None, f[2] or 0, f[3], f[0].name))
            groups.append(_Group(d.name, chosen, [(p, n, k) for p, n, k, _ in files], "android"))
        return "screengrab", groups, used_locale
    by_device: dict[str, list[tuple[Path, str, int | None]]] = {}
    for p in _pngs(loc_dir):
        device_name, screen = _split_snapshot_name(p.stem)
        num, name = screen_name_from_file(Path(screen + ".png"))
        by_device.setdefault(device_name, []).append((p, name, num))
    if not by_device:
        raise InputImageError(f"{loc_dir}: no .png screenshots in this locale folder.")
    groups = []
    for device_name, files in by_device.items():
        files.sort(key=lambda f: (f[2] is None, f[2] or 0, f[0].name))
        groups.append(_Group(device_name, chosen, files))
    return "snapshot", groups, used_locale


def _locale_dirs(root: Path) -> list[str]:
    if not root.is_dir():
        return []
    return sorted(
        p.name
        for p in root.iterdir()
        if p.is_dir() and _LOCALE_DIR.match(p.name) and (_pngs(p) or (p / "images").is_dir())
    )


def _pick_locale(folder: Path, locales: list[str], locale: str) -> str:
    want = locale.lower().replace("_", "-")
    norm = {loc.lower().replace("_", "-"): loc for loc in locales}
    if want in norm:
        return norm[want]
    lang = [loc for key, loc in norm.items() if key.split("-")[0] == want.split("-")[0]]
    if len(lang) == 1:
        return lang[0]
    if len(locales) == 1:
        return locales[0]
    raise ShotsmithError(
        f"{folder}: no screenshots for locale {locale!r}; locales found: "
        f"{', '.join(locales)}. Pass locale= one of them."
    )


def _split_snapshot_name(stem: str) -> tuple[str, str]:
    """'iPad Pro (12.9-inch) (6th generation)-01Home' -> (device name, '01Home')."""
    depth = 0
    for i, ch in enumerate(stem):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == "-" and depth == 0 and i > 0:
            return stem[:i].strip(), stem[i + 1 :].strip()
    return "", stem


def _all_devices() -> list[CaptureDevice]:
    seen: dict[str, CaptureDevice] = {}
    for table in CAPTURE_DEVICES.values():
        for d in table.values():
            seen.setdefault(d.id, d)
    for d in DEVICES.values():
        if d.id not in seen:
            seen[d.id] = _from_catalogue(d.id, d.store_size)
    return list(seen.values())


def _device_for_image(
    path: Path,
    width: int,
    height: int,
    *,
    wanted: list[CaptureDevice] | None,
    platforms: list[str],
    hint: str,
) -> str:
    """The device id a screenshot of this pixel size comes from; a clear error if none."""
    pair = (min(width, height), max(width, height))
    if wanted is not None:
        for d in wanted:
            if pair == d.px or pair in STORE_SIZES[d.store_size]:
                return d.id
        expected = "; ".join(
            f'{d.platform} {d.size}": '
            + ", ".join(f"{w}x{h}" for w, h in dict.fromkeys([d.px, *STORE_SIZES[d.store_size]]))
            for d in wanted
        )
        raise InputImageError(
            f"{path}: {width}x{height} px does not match the requested device size(s); "
            f"expected {expected} (portrait or landscape). Capture at one of these sizes or "
            "change device_sizes."
        )
    candidates = [d for d in _all_devices() if d.px == pair]
    if platforms:
        candidates = [d for d in candidates if d.platform in platforms] or (
            _wrong_platform(path, width, height, candidates, platforms) if candidates else []
        )
    if candidates:
        named = [d for d in candidates if hint and d.name.lower() == hint.lower()]
        return (named or candidates)[0].id
    for key, sizes in STORE_SIZES.items():
        if pair in sizes:
            platform = "android" if key.startswith("android") else "ios"
            if platforms and platform not in platforms:
                _wrong_platform(path, width, height, [], platforms, platform)
            table = CAPTURE_DEVICES[platform]
            dev = table.get(key) or table[DEFAULT_SIZES[platform][0]]
            return dev.id
    known = sorted(
        {d.px for d in _all_devices()} | {s for sizes in STORE_SIZES.values() for s in sizes}
    )
    raise InputImageError(
        f"{path}: {width}x{height} px is not the screen size of a known device or an accepted "
        f"store size; expected one of {', '.join(f'{w}x{h}' for w, h in known)} (portrait or "
        "landscape). Take the screenshots on a simulator/emulator of a supported device."
    )


def _wrong_platform(
    path: Path,
    width: int,
    height: int,
    candidates: list[CaptureDevice],
    platforms: list[str],
    platform: str | None = None,
) -> list[CaptureDevice]:
    platform = platform or candidates[0].platform
    raise InputImageError(
        f"{path}: {width}x{height} px is a {platform} screen size, but "
        f"platforms={platforms}. Pass the right platform."
    )


# --- writing ------------------------------------------------------------------


def write_capture(
    frame: pd.DataFrame,
    out_dir: str | Path,
    *,
    skipped: Sequence[Skipped] = (),
    source: str = "",
    titles: dict[Any, str] | None = None,
    notes: Sequence[str] = (),
    sign_in_url: str = "",
) -> pd.DataFrame:
    """Write each set as ``NN_<screen>.png`` + manifest.json; return the frame with paths.

    One set goes straight into ``out_dir``; several go into ``out_dir/<device>/``.
    The manifest is what ``read_screenshots`` and ``shotsmith design`` read: per screen
    its file, name, visible text, and for a captured web page its ``url``, ``title`` and
    ``elements`` (the text with roles and boxes, see ``columns.SCREEN_ELEMENTS``); per set
    what was skipped and why, and notes such as a sign-in wall.
    """
    out = Path(out_dir)
    frame = frame.copy()
    sets = list(C.set_groups(frame))
    one_set_per_device = all(rows[C.DEVICE].nunique() == 1 for _, rows in sets) and frame[
        C.DEVICE
    ].nunique() == len(sets)
    paths: dict[Any, str] = {}
    for app_id, rows in sets:
        device = str(rows[C.DEVICE].iloc[0])
        folder = out if len(sets) == 1 else out / (device if one_set_per_device else app_id)
        folder.mkdir(parents=True, exist_ok=True)
        entries = []
        for n, (idx, row) in enumerate(rows.iterrows(), start=1):
            slug = slugify(str(row[C.SCREEN])) or f"screen-{n}"
            path = folder / f"{n:02d}_{slug}.png"
            ref = row[C.IMAGE]
            data = (
                bytes(ref)
                if isinstance(ref, (bytes, bytearray, memoryview))
                else Path(ref).read_bytes()
            )
            tmp = path.with_suffix(".png.tmp")
            tmp.write_bytes(data)
            os.replace(tmp, path)
            paths[idx] = str(path)
            entry: dict[str, Any] = {
                "file": path.name,
                "screen": str(row[C.SCREEN]),
                "text": str(row[C.SCREEN_TEXT] or ""),
            }
            url = str(row.get(C.SCREEN_URL) or "")
            if url:
                entry["url"] = url
                entry["title"] = str((titles or {}).get(idx, ""))
            elements = row.get(C.SCREEN_ELEMENTS)
            if isinstance(elements, list) and (elements or url):
                entry["elements"] = elements
            entries.append(entry)
        manifest = {
            "project_name": str(rows[C.PROJECT_NAME].iloc[0]),
            "bundle_id": str(rows[C.BUNDLE_ID].iloc[0] or ""),
            "locale": str(rows[C.LOCALE].iloc[0]),
            "device": device,
            "screens": entries,
        }
        if source:
            manifest["source"] = source
        if sign_in_url:
            manifest["sign_in"] = sign_in_url
        if notes:
            manifest["notes"] = list(notes)
        mine = [s for s in skipped if not s.device or s.device == device]
        if mine:
            manifest["skipped"] = [{"url": s.url, "reason": s.reason, "kind": s.kind} for s in mine]
        (folder / "manifest.json").write_text(_manifest_json(manifest), encoding="utf-8")
    # a column of paths, as read_screenshots builds it (so both give the same frame)
    frame[C.IMAGE] = pd.Series([paths[i] for i in frame.index], index=frame.index)
    return frame


def _manifest_json(manifest: dict[str, Any]) -> str:
    """Indented JSON with one line per element, so a manifest stays readable."""
    lines: dict[str, str] = {}
    screens = []
    for entry in manifest["screens"]:
        entry = dict(entry)
        if "elements" in entry:
            compact = []
            for element in entry["elements"]:
                token = f"@@element{len(lines)}@@"
                lines[token] = json.dumps(element, ensure_ascii=False)
                compact.append(token)
            entry["elements"] = compact
        screens.append(entry)
    text = json.dumps({**manifest, "screens": screens}, indent=2, ensure_ascii=False)
    for token, line in lines.items():
        text = text.replace(f'"{token}"', line, 1)
    return text + "\n"


# --- command line -------------------------------------------------------------


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "capture",
        help="capture raw screenshots of a web app (URL) or check a screenshot folder",
        description="Capture raw screenshots: explore a web app in Chromium at each device "
        "size, or read a fastlane snapshot/screengrab/flat folder, and write "
        "NN_<screen>.png plus a manifest.json that `shotsmith design` reads.",
    )
    p.add_argument("source", help="web app URL (http://...) or folder of screenshots")
    p.add_argument("--out", type=Path, required=True, help="output folder")
    p.add_argument(
        "--platform",
        action="append",
        choices=PLATFORMS,
        dest="platforms",
        help="ios (default) and/or android; repeat for both",
    )
    p.add_argument(
        "--size",
        action="append",
        nargs="+",
        dest="sizes",
        metavar="SIZE",
        help="device size in inches: 6.9 (default), 6.5, 6.3, 6.1, 5.5, 13, 11; "
        "android 6.3 (default), 6.7; qualify as android:6.3",
    )
    p.add_argument("--ipad", action="store_true", help='the app supports iPad: add 13"')
    p.add_argument("--locale", default="en-US", help="browser locale (default en-US)")
    p.add_argument("--max-screens", type=int, default=6, help="screens per device (default 6)")
    p.add_argument("--timeout", type=float, default=60, help="overall time limit, seconds")
    p.add_argument("--project-name", help="the app's name (default: from the pages' titles)")
    p.add_argument("--bundle-id", help="reverse-domain bundle id, e.g. com.example.app")
    p.add_argument("--no-status-bar", action="store_true", help="do not draw a status bar")
    p.add_argument("--allow-forms", action="store_true", help="allow pressing submit buttons")
    p.add_argument(
        "--login",
        metavar="USER:PASSWORD",
        help="sign in with the app's own sign-in form first (once); USER alone takes the "
        "password from $SHOTSMITH_LOGIN_PASSWORD",
    )
    p.add_argument(
        "--storage-state",
        metavar="FILE",
        type=Path,
        help="start from a Playwright storage state saved after signing in "
        "(context.storage_state(path=FILE))",
    )
    p.add_argument(
        "--browser",
        default=os.environ.get("SHOTSMITH_CHROMIUM"),
        help="Chromium executable (default: $SHOTSMITH_CHROMIUM or system chromium)",
    )
    p.set_defaults(func=_capture_command)


def _capture_command(args: argparse.Namespace) -> int:
    sizes = [s for group in (args.sizes or []) for s in group] or None
    if not log.handlers:  # the notes are printed below; the library's warnings need not be
        log.addHandler(logging.NullHandler())
    report = capture_report(
        args.source,
        platforms=args.platforms,
        device_sizes=sizes,
        locale=args.locale,
        max_screens=args.max_screens,
        timeout_s=args.timeout,
        project_name=args.project_name,
        bundle_id=args.bundle_id,
        status_bar=not args.no_status_bar,
        allow_forms=args.allow_forms,
        supports_ipad=args.ipad,
        out_dir=args.out,
        browser_path=args.browser,
        progress=True,
        login=args.login,
        storage_state=args.storage_state,
    )
    frame = report.frame
    print(f"{frame[C.PROJECT_NAME].iloc[0]}: {len(frame)} screenshot(s) in {report.seconds:.1f} s")
    for _, row in frame.iterrows():
        print(f"  {row[C.IMAGE]}  {row[C.IMAGE_WIDTH]}x{row[C.IMAGE_HEIGHT]}  {row[C.SCREEN]!r}")
    for s in report.skipped:
        print(f"  skipped {s.url}: {s.reason}")
    for note in report.notes:
        print(f"shotsmith capture: {note}", file=sys.stderr)
    return 0
