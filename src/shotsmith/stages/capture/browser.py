"""Chromium, driven through Playwright: where it is, how it starts, how it emulates a device.

Debian's Chromium is preferred (Playwright's own download is optional); each device is
emulated by its viewport in points, its scale, touch and a mobile user agent, and the page
is laid out below the device's status-bar band (:class:`Emulation`). A
:class:`Watchdog` kills the browser it started (found by a unique switch, :func:`marker`)
if a page wedges it past the deadline.
"""

from __future__ import annotations

import math
import os
import signal
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .devices import CaptureDevice

NO_SANDBOX = "--no-sandbox"
#: the switches a capture's Chromium starts with; as root it needs NO_SANDBOX (kept here for
#: scripts that launch Chromium as the capture does), otherwise capture starts it with the
#: sandbox (SANDBOXED_ARGS) and only falls back when that fails (see web._launch)
CHROMIUM_ARGS = [
    NO_SANDBOX,
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-default-apps",
    "--hide-scrollbars",
    "--mute-audio",
    # LocalNetworkAccessChecks: Chromium refuses a WebSocket that Playwright routes
    # (ERR_BLOCKED_BY_LOCAL_NETWORK_ACCESS_CHECKS), so no WebSocket app would work; where a
    # capture may connect is the network policy's to decide (.network)
    "--disable-features=Translate,MediaRouter,OptimizationHints,LocalNetworkAccessChecks",
]

SANDBOXED_ARGS = [a for a in CHROMIUM_ARGS if a != NO_SANDBOX]

SANDBOX_NOTE = (
    "Chromium runs without its sandbox (--no-sandbox): {why}. The capture's network policy "
    "still applies; run capture as an ordinary user to keep the sandbox (docs/capture.md)."
)


def sandbox_first() -> bool:
    """Whether to start Chromium with its sandbox: not as root (it refuses to)."""
    return not (hasattr(os, "geteuid") and os.geteuid() == 0)


BROWSER_CANDIDATES = (
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
    "/usr/bin/google-chrome-stable",
)


@dataclass(frozen=True)
class Emulation:
    """One device as the browser sees it."""

    device_id: str
    width: int  # CSS viewport, points
    height: int  # the whole screen, points (rounded up)
    scale: float  # device_scale_factor
    px: tuple[int, int]  # exact native pixels of the capture
    user_agent: str
    band_pt: float = 0.0  # the status-bar band the page is laid out below
    is_mobile: bool = True
    has_touch: bool = True
    tablet: bool = False  # a tablet: the widest screen capture has (no smaller class to try)

    @property
    def band_px(self) -> int:
        return round(self.band_pt * self.scale)

    @property
    def page_height(self) -> int:
        """Viewport height (points) of a page laid out below the band."""
        return math.ceil((self.px[1] - self.band_px) / self.scale - 1e-6)


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


def emulation(device: CaptureDevice, chrome_major: str = "131") -> Emulation:
    """How the browser emulates ``device``: width exact in points, height rounded up."""
    w_pt = device.points[0]
    scale = device.px[0] / w_pt
    h_pt = math.ceil(device.px[1] / scale - 1e-6)
    if device.platform == "android":
        ua = USER_AGENTS["android"].format(model=device.name, major=chrome_major)
        if device.tablet:  # Chrome on an Android tablet does not say "Mobile"
            ua = ua.replace(" Mobile Safari", " Safari")
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
        tablet=device.tablet,
    )


class Watchdog:
    """Kill our own browser (found by a unique marker switch) if it outlives a hard deadline.

    A page can wedge its renderer (a busy loop) so that a Playwright call never
    returns; killing the browser makes that call fail, and the explorer then
    returns what it has. Linux only (/proc); elsewhere it does nothing.
    """

    def __init__(self, marker: str, deadline: float):
        self.marker, self.deadline = marker, deadline
        self._stop = threading.Event()
        self.fired = False
        self._thread = threading.Thread(
            target=self._run, name="shotsmith-capture-watchdog", daemon=True
        )

    def __enter__(self) -> Watchdog:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        self._thread.join(timeout=2)

    def _run(self) -> None:
        while not self._stop.wait(0.25):
            if time.monotonic() > self.deadline:
                self.fired = True
                self.kill()
                return

    def kill(self) -> None:
        proc = Path("/proc")
        if not proc.is_dir():
            return
        mine = os.getuid()
        for entry in proc.iterdir():
            if not entry.name.isdigit():
                continue
            try:
                if entry.stat().st_uid != mine:
                    continue
                cmd = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if self.marker.encode() in cmd:
                try:
                    os.kill(int(entry.name), signal.SIGKILL)
                except OSError:
                    pass


def find_browser(path: str | None = None) -> str | None:
    """The Chromium to drive: ``path`` if given, else a system Chromium, else Playwright's own."""
    if path:
        return path
    for candidate in BROWSER_CANDIDATES:
        if os.path.exists(candidate):
            return candidate
    return None


def marker() -> str:
    return f"--shotsmith-capture={uuid.uuid4().hex}"
