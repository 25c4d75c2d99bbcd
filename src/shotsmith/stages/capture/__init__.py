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
  sign-in wall is reported, or passed with ``login=`` / ``storage_state=``.
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
sign-in wall, what the app opened by itself and was closed), the requests it blocked, the
controls it pressed, a switch to a tablet for a desktop-only app (``device_switch``) and
why exploring stopped.

Read-only by construction: one :class:`~.network.NetworkPolicy` routes every request of
every browser context. A page's own requests while it loads are reads (even a POST); a
POST/PUT/PATCH/DELETE or WebSocket message after a press is aborted unless the operator
allowed it (``allow_writes``, ``allow_write`` patterns); only the app's origin loads
(``allow_origins`` adds others), each hop of a redirect checked, and never a loopback,
private or metadata address unless the app runs on one. The explorer presses only
controls that read as navigation; actions and controls in doubt are reported, never
pressed.

One job per module:

=============== =====================================================================
``stage``       ``capture`` / ``capture_report``: check the options, pick web or folder
``devices``     the devices a user can ask for ("6.9", "android:6.3") -> CaptureDevice
``browser``     Chromium: where it is, its switches, device emulation, the watchdog
``web``         a web app: explore, photograph at each device, finish the PNGs
``explore``     the explorer: which page or button next, which screens to keep
``session``     one page at one device: load, settle, read, photograph; sign in
``network``     :class:`NetworkPolicy`: which requests may go out (writes, origins), and
                the record of those blocked
``rules``       ``data/capture/rules.json`` and the matchers built from it; ``js/*.js``
``urls``        normalised URLs, origins and page templates
``pages``       verdicts on one page: not HTML, an error page, a sign-in wall, blank
``similarity``  perceptual hashes and page shapes: when two screens are one
``screens``     what a capture finds (Screen, Shot, Skipped), kinds and ranking
``naming``      the app's name and each screen's
``folders``     a folder of simulator screenshots (fastlane snapshot, screengrab, flat)
``manifest``    writing ``NN_<screen>.png`` + ``manifest.json``
``report``      :class:`CaptureReport`: the frame, what was skipped, notes
``localsite``   :func:`serve_folder`: a built web app served on 127.0.0.1 to capture
``js/``         the in-page scripts (settle, calm, extract, sign-in, init)
=============== =====================================================================
"""

from __future__ import annotations

from .browser import CHROMIUM_ARGS, USER_AGENTS, Emulation, emulation, find_browser
from .devices import (
    CAPTURE_DEVICES,
    DEFAULT_SIZES,
    IPAD_SIZE,
    PLATFORMS,
    CaptureDevice,
    resolve_devices,
)
from .localsite import LocalSite, serve_folder
from .manifest import write_capture
from .report import FRAME_COLUMNS, CaptureReport
from .screens import Screen, Shot, Skipped
from .stage import capture, capture_report
from .web import finish_png, load_storage_state, parse_login

__all__ = [
    "CAPTURE_DEVICES",
    "CHROMIUM_ARGS",
    "DEFAULT_SIZES",
    "FRAME_COLUMNS",
    "IPAD_SIZE",
    "PLATFORMS",
    "USER_AGENTS",
    "CaptureDevice",
    "CaptureReport",
    "Emulation",
    "LocalSite",
    "Screen",
    "Shot",
    "Skipped",
    "capture",
    "capture_report",
    "emulation",
    "find_browser",
    "finish_png",
    "load_storage_state",
    "parse_login",
    "resolve_devices",
    "serve_folder",
    "write_capture",
]
