"""The web-app explorer behind :func:`shotsmith.stages.capture.capture`.

Playwright drives a Chromium that emulates one device at a time. Starting at the start
URL, the explorer visits the app breadth first: it follows the app's own same-origin links
and presses its tabs and buttons, watching the URL and the screen for a change. What it
keeps is what a marketer would put in a store listing, so it is strict about what a
*screen* is (the judgement itself lives in :mod:`shotsmith.capture_pages`):

* only HTML documents: a response's status and content type are checked (JSON, text,
  CSV, downloads, HTTP >= 400 are skipped), and so is its content (an error page served
  with 200, a blank page);
* settled, not transient: the DOM has stopped changing and shows content; cookie
  banners, toasts and framework warning overlays are hidden; an open dialog or menu is
  closed (Escape, its dismiss button) or the photo is refused; controls that only open
  menus are never pressed, nor anything that reads like it changes the user's data;
* breadth: pages are grouped by template (the path without its query, id-like segments
  as one), at most two screens per template, the least-visited template first;
* a sign-in wall is recognised and reported; with the user's credentials (``login``) the
  explorer fills the form once and goes on behind it, or starts from a saved Playwright
  storage state;
* the page is laid out below a reserved status-bar band, as iOS lays out a web view
  below the status bar, so the drawn status bar never covers page content. A page that
  declares ``viewport-fit=cover`` is laid out full screen with
  ``env(safe-area-inset-top)`` set to the band, as inside an app's web view, and kept so
  only if none of its content starts under the band.

Everything is bounded: a per-page timeout, an overall deadline, caps on pages visited and
controls pressed, and a watchdog that kills the browser should it stop answering. A page
that fails, whatever its markup, is recorded as :class:`Skipped` with the reason; it never
costs the other screens.
"""

from __future__ import annotations

import io
import json
import logging
import math
import os
import re
import signal
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from .capture_pages import (
    LINK_RISK_CATEGORIES,
    PER_TEMPLATE,
    SAME_SHAPE,
    SIGN_IN_OTHER_WORDS,
    Screen,
    Verdict,
    app_name_from,
    collection_of,
    complexity,
    dhash,
    error_page,
    file_extension,
    hamming,
    is_blank,
    is_language_link,
    is_risky_link,
    is_sign_in_page,
    is_sign_in_route,
    looks_same,
    name_screens,
    normalize_url,
    not_html,
    origin_of,
    phash,
    rank,
    risky_phrases,
    route_of,
    rules,
    script,
    shape_similarity,
    share_prefix,
    store_links,
    template_key,
    words_pattern,
)
from .errors import ShotsmithError

__all__ = [
    "CHROMIUM_ARGS",
    "Emulation",
    "ExploreResult",
    "Explorer",
    "Screen",
    "Shot",
    "Skipped",
    "Watchdog",
    "app_name_from",
    "find_browser",
    "marker",
    "name_screens",
    "route_of",
]

log = logging.getLogger("shotsmith.capture")

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-default-apps",
    "--hide-scrollbars",
    "--mute-audio",
    "--disable-features=Translate,MediaRouter,OptimizationHints",
]
BROWSER_CANDIDATES = (
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
    "/usr/bin/google-chrome-stable",
)

STILL_CSS = (
    "*,*::before,*::after{animation-delay:0s!important;animation-duration:0.001ms!important;"
    "animation-iteration-count:1!important;transition-duration:0s!important;"
    "transition-delay:0s!important;scroll-behavior:auto!important;"
    "caret-color:transparent!important}"
)
MAX_SIGN_INS = 5  # an app that forgets the session on a reload is signed into again, a little
CONTENT_CAP_S = 5.0  # how long a page may show a skeleton / spinner before it is judged


# --- data -------------------------------------------------------------------


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

    @property
    def band_px(self) -> int:
        return round(self.band_pt * self.scale)

    @property
    def page_height(self) -> int:
        """Viewport height (points) of a page laid out below the band."""
        return math.ceil((self.px[1] - self.band_px) / self.scale - 1e-6)


@dataclass
class Skipped:
    """A page or action the explorer did not capture, and why."""

    url: str
    reason: str
    # "error" | "http" | "timeout" | "duplicate" | "other-origin" | "budget" | "form" |
    # "size" | "not-html" | "error-page" | "blank" | "transient" | "template" | "sign-in"
    kind: str
    device: str = ""

    def __str__(self) -> str:
        return f"{self.url}: {self.reason}"


@dataclass
class Shot:
    """One chosen screen photographed at one device."""

    png: bytes  # the page as drawn, below a band of ``offset`` px
    text: str
    offset: int = 0
    elements: list[dict[str, Any]] = field(default_factory=list)
    url: str = ""
    title: str = ""


@dataclass
class ExploreResult:
    screens: list[Screen]  # ranked, start page first
    skipped: list[Skipped] = field(default_factory=list)
    visited: int = 0
    clicks: int = 0
    sign_in_url: str = ""  # where the app asked for a sign-in it did not get ("" if never)
    notes: list[str] = field(default_factory=list)


class _Refused(Exception):
    """A page was judged not to be a screen (carries the verdict)."""

    def __init__(self, verdict: Verdict):
        super().__init__(verdict.reason)
        self.verdict = verdict


# --- watchdog -----------------------------------------------------------------


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


# --- the explorer -------------------------------------------------------------


@dataclass
class _Run:
    """The state of one exploration: what is queued, found, tried and left for later."""

    queue: list[tuple[str, int]]
    queued: set[str]
    max_visits: int
    max_clicks: int
    explore_limit: int
    max_screens: int
    progress: Any = None
    screens: list[Screen] = field(default_factory=list)
    tried_keys: set[str] = field(default_factory=set)
    other_origin: set[str] = field(default_factory=set)
    visited_templates: dict[str, int] = field(default_factory=dict)
    deferred: list[tuple[Screen, str, int]] = field(default_factory=list)
    visits: int = 0
    clicks: int = 0
    forms_noted: bool = False
    failed_start: Skipped | None = None

    def kept(self, template: str) -> list[Screen]:
        return [s for s in self.screens if s.template == template]

    def add(self, screen: Screen) -> None:
        self.screens.append(screen)
        if self.progress is not None and len(self.screens) <= self.max_screens:
            self.progress.update(1)


class Explorer:
    """Explore one web app in one browser; capture screens at several emulated devices."""

    def __init__(
        self,
        browser: Any,
        start_url: str,
        *,
        locale: str,
        allow_forms: bool,
        deadline: float,
        page_timeout_s: float,
        settle_cap_s: float = 2.0,
        login: tuple[str, str] | None = None,
        storage_state: str | dict | None = None,
    ):
        self.browser = browser
        self.start_url = start_url
        self.origin = origin_of(start_url)
        self.locale = locale
        self.allow_forms = allow_forms
        self.deadline = deadline
        self.page_timeout_s = page_timeout_s
        self.settle_cap_s = settle_cap_s
        self.login = login
        self.storage_state = storage_state
        self.skipped: list[Skipped] = []
        self.notes: list[str] = []
        self.sign_in_url = ""  # the wall's URL, when the app asked and was not answered
        self.signed_in = False
        self._state: str | dict | None = storage_state  # what new contexts start from
        self._signins = 0
        self._signing_in = False
        self._blocked: list[str] = []
        self._inflight: set[int] = set()
        self._nav_requests = 0
        self._context: Any = None
        self._page: Any = None
        self._cdp: Any = None
        self._full = False  # the page is laid out full screen (viewport-fit=cover)
        self._emulation: Emulation | None = None
        self._collections: dict[str, set[str]] = {}
        self._info: dict[str, Any] | None = None
        self._doc_headers: dict[str, str] = {}
        self._wide_noted = False
        self._languages_noted = False
        self._risky = risky_phrases()
        self._risky_links = risky_phrases(*LINK_RISK_CATEGORIES)

    # -- time ------------------------------------------------------------------
    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def _ms(self, seconds: float) -> float:
        return max(1.0, min(seconds, self.remaining()) * 1000)

    # -- context / page lifecycle ----------------------------------------------
    def open(self, emu: Emulation) -> None:
        self.close()
        self._emulation = emu
        lang = self.locale.split("-")[0]
        accept = self.locale if lang == self.locale else f"{self.locale},{lang};q=0.9"
        options: dict[str, Any] = dict(
            viewport={"width": emu.width, "height": emu.page_height},
            screen={"width": emu.width, "height": emu.height},
            device_scale_factor=emu.scale,
            is_mobile=emu.is_mobile,
            has_touch=emu.has_touch,
            user_agent=emu.user_agent,
            locale=self.locale,
            extra_http_headers={"Accept-Language": accept},
            reduced_motion="reduce",
            service_workers="block",
            accept_downloads=False,
            java_script_enabled=True,
        )
        if self._state is not None:
            options["storage_state"] = self._state
        self._context = self.browser.new_context(**options)
        init = {"css": STILL_CSS, "allowForms": self.allow_forms}
        self._context.add_init_script(f"({script('init')})({json.dumps(init)});")
        self._context.route("**/*", self._route)
        self._context.on("request", self._on_request)
        self._context.on("requestfinished", self._on_done)
        self._context.on("requestfailed", self._on_done)
        self._context.on("response", self._on_response)
        self._context.on("page", self._on_page)
        self._new_page()

    def _new_page(self) -> None:
        old, self._page = self._page, None  # so _on_page does not take the new one for a popup
        if old is not None:
            _quiet(lambda: old.close(run_before_unload=False))
        self._page = self._context.new_page()
        self._page.on("dialog", lambda d: _quiet(d.dismiss))
        self._page.set_default_timeout(self.page_timeout_s * 1000)
        self._inflight.clear()
        self._full = False
        try:
            self._cdp = self._context.new_cdp_session(self._page)
        except Exception:  # not Chromium: pages are always laid out below the band
            self._cdp = None

    def close(self) -> None:
        if self._context is not None:
            try:
                self._context.close()
            except Exception:
                pass
        self._context = self._page = self._cdp = None

    def _on_page(self, page: Any) -> None:
        if self._page is not None and page != self._page:  # a popup: never wanted
            _quiet(lambda: page.close(run_before_unload=False))

    def _on_request(self, request: Any) -> None:
        self._inflight.add(id(request))
        try:
            if request.is_navigation_request() and request.frame.parent_frame is None:
                self._nav_requests += 1
        except Exception:
            pass

    def _on_done(self, request: Any) -> None:
        self._inflight.discard(id(request))

    def _on_response(self, response: Any) -> None:
        """Keep the headers of the last top-level document: a download has no page to ask."""
        try:
            request = response.request
            if request.is_navigation_request() and request.frame.parent_frame is None:
                self._doc_headers = dict(response.headers)
        except Exception:
            pass

    def _route(self, route: Any, request: Any) -> None:
        try:
            nav = request.is_navigation_request()
            main = nav and request.frame.parent_frame is None
        except Exception:
            nav = main = False
        if (
            nav
            and self.origin
            and request.url.startswith(("http:", "https:"))
            and origin_of(request.url) != self.origin
        ):
            self._blocked.append(request.url)
            _quiet(lambda: route.abort("blockedbyclient"))
            return
        if (
            main
            and not self.allow_forms
            and not self._signing_in
            and request.method not in ("GET", "HEAD")
        ):
            self._blocked.append(f"{request.method} {request.url}")
            _quiet(lambda: route.abort("blockedbyclient"))
            return
        _quiet(route.continue_)

    # -- layout: below the status-bar band, or full screen for viewport-fit=cover ----
    def _set_full(self, full: bool) -> None:
        emu = self._emulation
        if emu is None or full == self._full:
            return
        height = emu.height if full else emu.page_height
        self._page.set_viewport_size({"width": emu.width, "height": height})
        if self._cdp is not None:
            top = emu.band_pt if full else 0
            _quiet(
                lambda: self._cdp.send(
                    "Emulation.setSafeAreaInsetsOverride",
                    {"insets": {"top": top, "left": 0, "right": 0, "bottom": 0}},
                )
            )
        self._full = full

    def _fit_layout(self, info: dict[str, Any]) -> dict[str, Any]:
        """Full screen only for a viewport-fit=cover page whose content clears the band."""
        emu = self._emulation
        if emu is None or self._cdp is None or emu.band_pt <= 0:
            return info
        if not info.get("cover"):
            if self._full:
                self._set_full(False)
                self._relayout()
                return self.extract()
            return info
        if not self._full:
            self._set_full(True)
            self._relayout()
            info = self.extract()
        top = info.get("minTop")
        if top is not None and top < emu.band_pt - 0.5:  # content under the band: not so
            self._set_full(False)
            self._relayout()
            info = self.extract()
        return info

    def _relayout(self) -> None:
        page = self._page
        page.wait_for_timeout(60)
        if self.settle(quick=True, keep_scroll=True):
            raise _Refused(Verdict("page did not settle after a resize", "timeout"))

    # -- loading & settling ----------------------------------------------------
    def load(self, url: str, *, _retried: bool = False) -> Verdict | None:
        """Navigate, check the response, settle; None on success or why it is no screen."""
        if self.remaining() < 0.5:
            return Verdict("time budget used up", "budget")
        page = self._page  # laid out as the last page was: pages of one app mostly agree
        self._doc_headers = {}
        try:
            response = page.goto(url, wait_until="commit", timeout=self._ms(self.page_timeout_s))
        except Exception as exc:
            self._new_page()
            if "Download is starting" in str(exc):
                return not_html(self._doc_headers) or Verdict(
                    "a file download, not a page", "not-html"
                )
            return _verdict(_reason(exc, self.page_timeout_s, "no response"))
        if response is not None and response.status == 429 and not _retried:
            wait = _retry_after(response)  # the app asks us to slow down: do, once
            if wait is not None and wait + self.page_timeout_s < self.remaining() - 5:
                log.debug("HTTP 429 on %s: waiting %.0f s as asked", url, wait)
                page.wait_for_timeout(wait * 1000 + 500)
                return self.load(url, _retried=True)
        if response is not None:
            if response.status >= 400:
                return Verdict(f"HTTP {response.status} {response.status_text}".strip(), "http")
            try:
                headers = response.headers
            except Exception:
                headers = {}
            verdict = not_html(headers)
            if verdict:
                return verdict
        if self.origin and origin_of(page.url) != self.origin:
            return Verdict(f"left the app's origin (went to {page.url})", "other-origin")
        try:
            page.wait_for_load_state("load", timeout=self._ms(self.page_timeout_s))
        except Exception as exc:
            self._new_page()
            return _verdict(_reason(exc, self.page_timeout_s, "did not finish loading"))
        reason = self.settle()
        if reason:
            return _verdict(reason)
        if self.login is not None and self._signins < MAX_SIGN_INS:
            self._sign_in_if_asked()
        return None

    def settle(self, *, quick: bool = False, keep_scroll: bool = False) -> str | None:
        page = self._page
        cap = 0.5 if quick else self.settle_cap_s
        end = time.monotonic() + min(cap, max(0.0, self.remaining()))
        quiet_since = None
        while time.monotonic() < end:  # network idle: nothing in flight for 120 ms (capped)
            if not self._inflight:
                quiet_since = quiet_since or time.monotonic()
                if time.monotonic() - quiet_since >= 0.12:
                    break
            else:
                quiet_since = None
            page.wait_for_timeout(40)
        content_cap = 0.5 if quick else CONTENT_CAP_S
        opts = {
            "quietCapMs": int(cap * 1000),
            "contentCapMs": int(content_cap * 1000),
            "fontCapMs": int(self.settle_cap_s * 1000),
            "busyWords": rules()["busy_words"],
            "busyText": rules()["busy_text"],
            "keepScroll": keep_scroll,
        }
        limit = max(cap, content_cap) + self.settle_cap_s * 2 + 1
        try:  # a page whose script never yields fails this quick question, not the long wait
            self.evaluate("() => true", None, timeout_s=self.settle_cap_s + 0.5)
            self.evaluate(script("settle"), opts, timeout_s=limit)
        except Exception as exc:
            self._new_page()
            return f"page did not settle ({_reason(exc, self.settle_cap_s + 0.5, 'no answer')})"
        return None

    def evaluate(self, js: str, arg: Any, *, timeout_s: float) -> Any:
        """``page.evaluate`` with a timeout: a page whose script never yields cannot hang us."""
        wrapped = f"async (arg) => ({{v: await ({js})(arg)}})"
        handle = self._page.wait_for_function(
            wrapped, arg=arg, polling=100, timeout=self._ms(timeout_s)
        )
        try:
            return handle.json_value()["v"]
        finally:
            _quiet(handle.dispose)

    def extract(self) -> dict[str, Any]:
        raw = self.evaluate(
            script("extract"),
            {
                "allowForms": self.allow_forms,
                "maxClicks": 12,
                "risky": self._risky,
                "riskyLinks": self._risky_links,
                "menuWords": rules()["menu_trigger_words"],
                "maxElements": 400,
            },
            timeout_s=min(10.0, self.page_timeout_s),
        )
        self._info = _clean_info(raw)
        return self._info

    def calm(self, *, loaded: bool) -> Verdict | None:
        """Clear chrome off the page; close open dialogs and menus or say why not.

        ``loaded``: the page was reached by its URL (not by pressing something), so a
        full-screen dialog that cannot be closed is the page itself.
        """
        state = self._calm(mark=False)
        if not state["dialogs"] and not state["menus"]:
            return None
        if not loaded:  # what a press opened is a transient state; closing it leaves the page
            what = "a dialog" if state["dialogs"] else "a menu"
            first = (state["dialogs"] or state["menus"])[0]["label"]
            return Verdict(
                f"opens {what}{f' ({first!r})' if first else ''}: a transient state, not a screen",
                "transient",
            )
        if any(d["password"] for d in state["dialogs"]):
            return None  # a sign-in dialog on arrival: judged as a sign-in wall
        for _ in range(2):
            _quiet(lambda: self._page.keyboard.press("Escape"))
            self._page.wait_for_timeout(150)
            state = self._calm(mark=False)
            if not state["dialogs"] and not state["menus"]:
                return None
        if state["dialogs"]:
            state = self._calm(mark=True)
            if state.get("dismiss"):
                _quiet(lambda: self._page.click("[data-shotsmith-dismiss]", timeout=self._ms(2.0)))
                self._page.wait_for_timeout(200)
                state = self._calm(mark=False)
                if not state["dialogs"] and not state["menus"]:
                    return None
        if loaded and state["dialogs"] and not state["menus"]:
            if all(d["full"] for d in state["dialogs"]):
                return None
        if state["dialogs"]:
            label = state["dialogs"][0]["label"]
            what = f"an open dialog{f' ({label!r})' if label else ''}"
        else:
            label = state["menus"][0]["label"]
            what = f"an open menu{f' ({label!r})' if label else ''}"
        return Verdict(f"{what} covers the page and would not close", "transient")

    def _calm(self, *, mark: bool) -> dict[str, Any]:
        table = rules()
        raw = self.evaluate(
            script("calm"),
            {
                "hide": True,
                "markDismiss": mark,
                "cookieWords": table["cookie_words"],
                "toastWords": table["toast_words"],
                "overlays": table["framework_overlays"],
                "dismissLabels": table["dismiss_labels"],
            },
            timeout_s=min(10.0, self.page_timeout_s),
        )
        raw = raw if isinstance(raw, dict) else {}
        dialogs = [
            {
                "label": _text(d.get("label")),
                "full": bool(d.get("full")),
                "password": bool(d.get("password")),
            }
            for d in _dicts(raw.get("dialogs"))
        ]
        menus = [{"label": _text(m.get("label"))} for m in _dicts(raw.get("menus"))]
        return {"dialogs": dialogs, "menus": menus, "dismiss": bool(raw.get("dismiss"))}

    def photo(self) -> tuple[bytes, int]:
        """The page as drawn, and the band (px) the final image shows above it."""
        emu = self._emulation
        png = self._page.screenshot(
            type="png",
            timeout=self._ms(self.page_timeout_s),
            animations="disabled",
            caret="hide",
        )
        offset = 0 if (self._full or emu is None) else emu.band_px
        return png, offset

    def click(self, index: int) -> None:
        self._page.click(f'[data-shotsmith-click="{index}"]', timeout=self._ms(2.0))

    # -- signing in ----------------------------------------------------------------
    def _sign_in_form(self) -> dict[str, Any]:
        table = rules()["sign_in"]
        raw = self.evaluate(
            script("signin"),
            {
                "submitWords": table["labels"] + ["next", "continue", "submit", "go"],
                "signInLabels": len(table["labels"]),
                "failureWords": table["failure_words"],
            },
            timeout_s=min(10.0, self.page_timeout_s),
        )
        raw = raw if isinstance(raw, dict) else {}
        return {
            "user": bool(raw.get("user")),
            "password": bool(raw.get("password")),
            "submit": bool(raw.get("submit")),
            "message": _text(raw.get("message")),
            "others": int(raw.get("others") or 0) if isinstance(raw.get("others"), int) else 0,
            "says": bool(raw.get("says")),
        }

    def _fillable(self, form: dict[str, Any]) -> bool:
        """A form the user's credentials may go into: a user name and a password at most,
        that calls itself a sign-in (or sits at a sign-in URL). Never a create-account or a
        change-password form."""
        if form["others"] > 0 or not (form["user"] or form["password"]):
            return False
        return form["says"] or is_sign_in_route(self._page.url)

    def _sign_in_if_asked(self) -> None:
        """With credentials: when the loaded page is a sign-in wall, sign in there."""
        try:
            count = self._page.evaluate(
                "() => document.querySelectorAll('input[type=password]').length"
            )
        except Exception:
            return
        if not count and not is_sign_in_route(self._page.url):
            return
        info = self.extract()
        if is_sign_in_page(info, self._page.url) and self._fillable(self._sign_in_form()):
            self.sign_in()

    def sign_in(self) -> None:
        """Fill the sign-in form on the current page with ``login`` and submit it once.

        Raises :class:`ShotsmithError` when it does not work (no form, or the page still
        asks for a password afterwards), saying what the page said.
        """
        assert self.login is not None
        user, password = self.login
        page = self._page
        where = route_of(page.url)
        self._signins += 1
        form = self._sign_in_form()
        if not self._fillable(form):
            raise ShotsmithError(
                f"--login was given but the sign-in page {where} has no form the capture can "
                "fill (a user name and a password, nothing else). Sign in by hand in a "
                "browser and pass the saved state with --storage-state FILE (storage_state=)."
            )
        self._signing_in = True
        try:
            _quiet(lambda: page.evaluate("() => { window.__shotsmithSignIn = true; }"))
            if form["user"]:
                page.fill('[data-shotsmith-login="user"]', user, timeout=self._ms(5.0))
            if not form["password"]:  # two steps: the user name first, then the password
                self._submit_sign_in(form, "user")
                page = self._page
                form = self._sign_in_form()
                if not form["password"]:
                    raise ShotsmithError(
                        f"signing in at {where}: after the user name no password field "
                        "appeared. Sign in by hand in a browser and pass the saved state with "
                        "--storage-state FILE (storage_state=)."
                    )
                _quiet(lambda: page.evaluate("() => { window.__shotsmithSignIn = true; }"))
            page.fill('[data-shotsmith-login="password"]', password, timeout=self._ms(5.0))
            self._submit_sign_in(form, "password")
        finally:
            self._signing_in = False
            _quiet(lambda: self._page.evaluate("() => { window.__shotsmithSignIn = false; }"))
        after = self._sign_in_form()
        info = self.extract()
        if (after["password"] and is_sign_in_page(info, self._page.url)) or (
            after["message"] and len(info["text"].split()) < SIGN_IN_OTHER_WORDS
        ):
            said = f" (it says {after['message']!r})" if after["message"] else ""
            raise ShotsmithError(
                f"signing in at {where} as {user!r} did not work: the page still asks for a "
                f"password or says it failed{said}. Check the user name and password given to "
                "--login (login=), or sign in by hand and pass --storage-state FILE "
                "(storage_state=)."
            )
        self.signed_in = True
        try:
            self._state = self._context.storage_state()
        except Exception:
            pass

    def _submit_sign_in(self, form: dict[str, Any], field_name: str) -> None:
        page = self._page
        before = self._nav_requests
        if form["submit"]:
            page.click('[data-shotsmith-login="submit"]', timeout=self._ms(5.0))
        else:
            page.press(f'[data-shotsmith-login="{field_name}"]', "Enter", timeout=self._ms(5.0))
        page.wait_for_timeout(300)
        if self._nav_requests != before:
            _quiet(lambda: page.wait_for_load_state("load", timeout=self._ms(self.page_timeout_s)))
        self.settle()

    def _sign_in_first(self, start: str) -> None:
        """With credentials: sign in before exploring (at the start page's wall or its link)."""
        if self.load(start) or self.signed_in:
            return
        if not self.origin:
            self.origin = origin_of(self._page.url)
        target = self.find_sign_in(self.extract())
        if target and not self.load(target) and self.signed_in:
            return
        self.notes.append(
            f"--login was given but {route_of(start)} showed no sign-in form (nor a link to "
            "one): captured without signing in."
        )

    def find_sign_in(self, info: dict[str, Any]) -> str:
        """The URL of a sign-in link on the current page ('' if none)."""
        pattern = words_pattern(rules()["sign_in"]["labels"])
        for link in info.get("links", []):
            href = link["href"]
            if origin_of(href) != self.origin:
                continue
            if pattern.search(link["text"]) or is_sign_in_route(href):
                return normalize_url(href)
        return ""

    # -- one page -------------------------------------------------------------------
    def photograph(
        self,
        url: str,
        via: tuple[str, ...],
        via_label: str,
        depth: int,
        order: int,
        *,
        loaded: bool,
    ) -> Screen:
        """Calm, read and photograph the current page; raises _Refused when it is no screen."""
        verdict = self.calm(loaded=loaded)
        if verdict:
            raise _Refused(verdict)
        info = self._fit_layout(self.extract())
        sign_in = is_sign_in_page(info, url)
        if sign_in and (self.signed_in or self.storage_state is not None):
            if self._fillable(self._sign_in_form()):
                raise _Refused(Verdict("asks for a sign-in again (the session ended)", "sign-in"))
            sign_in = False  # signed in, a password form is another form (a new project's)
        if not sign_in:
            verdict = error_page(info["title"], info["h1"], info["text"])
            if verdict:
                raise _Refused(verdict)
        if store_links(info["links"]) >= 2 and len(info["text"].split()) < 80:
            raise _Refused(
                Verdict(
                    "a page pointing to the app's mobile apps in the stores, not a screen",
                    "store-links",
                )
            )
        png, offset = self.photo()
        screen = self._make_screen(url, via, via_label, info, png, offset, depth, order)
        screen.sign_in = sign_in
        if screen.words == 0:
            with Image.open(io.BytesIO(png)) as im:
                im.load()
                if is_blank(im, 0):
                    raise _Refused(Verdict("a blank page (no text, one colour)", "blank"))
        if info["overflowX"] and self._emulation and not self._wide_noted:
            self._wide_noted = True
            self.notes.append(
                f"{route_of(url)} does not fit the {self._emulation.width} pt screen (a "
                "desktop layout: wider than the screen, or text squeezed a few letters wide); "
                'capture a tablet size (--size 13, device_sizes=["13"]) if the app is not '
                "made for phones."
            )
        return screen

    def _make_screen(
        self,
        url: str,
        via: tuple[str, ...],
        via_label: str,
        info: dict,
        png: bytes,
        offset: int,
        depth: int,
        order: int,
    ) -> Screen:
        with Image.open(io.BytesIO(png)) as im:
            im.load()
            small = im.convert("RGB").resize((im.width // 4 or 1, im.height // 4 or 1), Image.BOX)
        return Screen(
            url=url,
            via=via,
            via_label=via_label,
            title=info["title"],
            h1=info["h1"],
            app_name=info["appName"],
            text=info["text"],
            png=png,
            offset=offset,
            elements=self._elements_in_pixels(info["elements"], offset),
            dhash=dhash(small),
            phash=phash(small),
            complexity=complexity(small),
            depth=depth,
            order=order,
            template=template_key(url, self._collections),
            shape=info["shape"],
        )

    def _elements_in_pixels(self, elements: list[dict[str, Any]], offset: int) -> list[dict]:
        """Element boxes from CSS px of the viewport to px of the final image."""
        emu = self._emulation
        if emu is None:
            return elements
        s = emu.scale
        w, h = emu.px
        out = []
        for e in elements:
            x, y, bw, bh = e["box"]
            x0, y0 = max(0, round(x * s)), max(0, round(y * s) + offset)
            x1, y1 = min(w, round((x + bw) * s)), min(h, round((y + bh) * s) + offset)
            if x1 <= x0 or y1 <= y0:
                continue
            item = {"role": e["role"], "text": e["text"]}
            if "level" in e:
                item["level"] = e["level"]
            item["box"] = [x0, y0, x1 - x0, y1 - y0]
            out.append(item)
        return out

    # -- exploration -----------------------------------------------------------
    def explore(
        self, emu: Emulation, *, max_screens: int, explore_limit: int, progress: Any = None
    ) -> ExploreResult:
        """Visit the app breadth first and return its distinct screens, ranked.

        Pages come first: links are followed, least-visited template first, and on each
        page its tabs (and same-document links the page's script handles) are pressed at
        once. Its other buttons wait until no page is left to visit, as they cost a reload
        each and mostly open menus and dialogs.
        """
        self.open(emu)
        self.origin = ""  # the start page may redirect (http -> https, apex -> www) ...
        start = normalize_url(self.start_url)
        run = _Run(
            queue=[(start, 0)],
            queued={start},
            max_visits=explore_limit * 3,
            max_clicks=max_screens * 3,
            explore_limit=explore_limit,
            max_screens=max_screens,
            progress=progress,
        )
        if self.login is not None and not self.signed_in:
            self._sign_in_first(start)
        while run.queue or run.deferred:
            if run.queue:
                url, depth = self._next(run.queue, run.visited_templates)
                if self._visit(url, depth, run, emu, first=run.visits == 0 and not run.screens):
                    break  # the start page failed: nothing can be done without it
            else:
                base, final, depth = run.deferred.pop(0)
                self._press_later(base, final, depth, run)
        if self.sign_in_url and self.login is None:
            self.notes.append(sign_in_note(self.sign_in_url, self.storage_state is not None))
        self.close()
        return ExploreResult(
            rank(run.screens), self.skipped, run.visits, run.clicks, self.sign_in_url, self.notes
        )

    def _visit(self, url: str, depth: int, run: _Run, emu: Emulation, *, first: bool) -> bool:
        """Load one queued page and take what it offers; True when the start page failed."""
        screens = run.screens
        if (
            len(screens) >= run.explore_limit
            or run.visits >= run.max_visits
            or self.remaining() < 1.0
        ):
            why = (
                "enough screens found"
                if len(screens) >= run.explore_limit
                else "time or page budget used up"
            )
            self.skipped.append(Skipped(route_of(url), f"not visited: {why}", "budget"))
            return False
        template = template_key(url, self._collections)
        same = run.kept(template)
        if screens and run.visited_templates.get(template, 0) > PER_TEMPLATE:
            self.skipped.append(
                Skipped(
                    route_of(url),
                    f"not visited: {PER_TEMPLATE + 1} pages of its template were visited already",
                    "template",
                )
            )
            return False
        if screens and len(same) >= PER_TEMPLATE:
            self.skipped.append(
                Skipped(
                    route_of(url),
                    f"not visited: the same page template as {_where(same[0])} "
                    f"(at most {PER_TEMPLATE} screens per template)",
                    "template",
                )
            )
            return False
        run.visits += 1
        run.visited_templates[template] = run.visited_templates.get(template, 0) + 1
        log.debug("visit %s (template %s, %.1f s left)", url, template, self.remaining())
        try:
            verdict = self.load(url)
        except ShotsmithError:
            raise
        except Exception as exc:  # whatever the page did, the others still count
            verdict = Verdict(f"could not load ({_first_line(exc)})", "error")
            self._new_page()
        if verdict:
            if first:
                run.failed_start = Skipped(url, verdict.reason, verdict.kind)
                self.skipped.append(run.failed_start)
                return True
            self.skipped.append(Skipped(route_of(url), verdict.reason, verdict.kind, emu.device_id))
            return False
        final = normalize_url(self._page.url)
        if first:  # ... and where it lands is the app's origin
            self.origin = origin_of(final)
        if final != url and any(s.url == final and not s.via for s in screens):
            dup = next(s for s in screens if s.url == final and not s.via)
            self.skipped.append(
                Skipped(
                    route_of(url),
                    f"asks for a sign-in (goes to {route_of(final)})"
                    if dup.sign_in
                    else f"duplicate: redirects to {route_of(final)}",
                    "sign-in" if dup.sign_in else "duplicate",
                )
            )
            return False
        run.queued.add(final)
        try:
            screen = self.photograph(final, (), "", depth, len(screens), loaded=True)
        except _Refused as refused:
            self.skipped.append(
                Skipped(
                    route_of(final), refused.verdict.reason, refused.verdict.kind, emu.device_id
                )
            )
            return False
        except ShotsmithError:
            raise
        except Exception as exc:
            self.skipped.append(
                Skipped(
                    route_of(final),
                    f"could not capture ({_first_line(exc)})",
                    "error",
                    emu.device_id,
                )
            )
            self._new_page()
            return False
        links, candidates, forms = self._last_links, self._last_clicks, self._last_forms

        if screen.sign_in:
            self.sign_in_url = self.sign_in_url or final
            if any(s.sign_in for s in screens):
                self.skipped.append(
                    Skipped(route_of(final), "another sign-in form: kept once", "sign-in")
                )
                return False
        twin = next(
            (
                s
                for s in screens
                if not s.via
                and s.template != screen.template
                and share_prefix(s.url, screen.url)
                and shape_similarity(s.shape, screen.shape) >= SAME_SHAPE
            ),
            None,
        )
        if twin is not None:  # another record shown by the same page template
            screen.template = twin.template
        dup = next((s for s in screens if looks_same(s, screen)), None)
        if dup is not None:
            self.skipped.append(
                Skipped(route_of(final), f"duplicate: looks the same as {_where(dup)}", "duplicate")
            )
        elif screens and len(run.kept(screen.template)) >= PER_TEMPLATE:
            self.skipped.append(
                Skipped(
                    route_of(final),
                    f"the same page template as {_where(run.kept(screen.template)[0])} "
                    f"(at most {PER_TEMPLATE} screens per template)",
                    "template",
                )
            )
            dup = screen  # nothing more to learn from its buttons
        else:
            run.add(screen)
        if forms and not run.forms_noted and not screen.sign_in:
            run.forms_noted = True
            self.skipped.append(
                Skipped(
                    route_of(final),
                    f"{forms} form submit button(s) not pressed (allow_forms=False)",
                    "form",
                )
            )
        self._follow_links(links, depth, run.queue, run.queued, run.other_origin)
        if dup is not None or screen.sign_in:
            return False
        now = [c for c in candidates if c["kind"] in ("tab", "hash")]
        if len(now) < len(candidates):
            run.deferred.append((screen, final, depth))
        self._press(screen, final, depth, now, run)
        return False

    def _press_later(self, base: Screen, final: str, depth: int, run: _Run) -> None:
        """The deferred buttons of a page: load it again and press them."""
        if run.clicks >= run.max_clicks or len(run.screens) >= run.explore_limit:
            return
        if self.remaining() < 3.0 or self.load(final):
            return
        try:
            self.calm(loaded=True)
            candidates = self.extract()["clicks"]
        except Exception:
            return
        later = [c for c in candidates if c["kind"] not in ("tab", "hash")]
        self._press(base, final, depth, later, run)

    def _press(
        self, base: Screen, final: str, depth: int, candidates: list[dict[str, Any]], run: _Run
    ) -> None:
        """Press each candidate once on the loaded ``base`` page, watching for a change."""
        for cand in candidates:
            if (
                run.clicks >= run.max_clicks
                or len(run.screens) >= run.explore_limit
                or self.remaining() < 2.0
            ):
                break
            if cand["key"] in run.tried_keys or cand["selected"]:
                continue
            run.tried_keys.add(cand["key"])
            run.clicks += 1
            log.debug("press %r (%s) on %s", cand["label"], cand["kind"], final)
            found, restore = self._try_click(
                base,
                cand,
                depth,
                len(run.screens),
                run.queued,
                run.queue,
                run.screens,
                run.other_origin,
                full=lambda template: len(run.kept(template)) >= PER_TEMPLATE,
            )
            if found is not None:
                run.add(found)
            if restore and self.remaining() > 1.0 and not self._back_to(base):
                if self.load(final):
                    break  # cannot get back to this page: stop pressing here
                try:
                    self.extract()  # mark the candidates again
                except Exception:
                    break

    @property
    def _last_links(self) -> list[dict[str, Any]]:
        return self._info.get("links", []) if self._info else []

    @property
    def _last_clicks(self) -> list[dict[str, Any]]:
        return self._info.get("clicks", []) if self._info else []

    @property
    def _last_forms(self) -> int:
        return int(self._info.get("formsSkipped", 0)) if self._info else 0

    def _next(self, queue: list[tuple[str, int]], visited: dict[str, int]) -> tuple[str, int]:
        """The next page: the least-visited template first, then the shallowest, then FIFO."""
        best = min(
            range(len(queue)),
            key=lambda i: (
                visited.get(template_key(queue[i][0], self._collections), 0),
                queue[i][1],
                i,
            ),
        )
        return queue.pop(best)

    def _follow_links(
        self,
        links: list[dict[str, Any]],
        depth: int,
        queue: list[tuple[str, int]],
        queued: set[str],
        other_origin: set[str],
    ) -> None:
        languages = 0
        for link in sorted(links, key=lambda link: not link["visible"]):
            href = link["href"]
            if not href.startswith(("http:", "https:")):
                continue
            if is_language_link(href):
                languages += 1
                continue
            target = normalize_url(href)
            if origin_of(target) != self.origin:
                if target not in other_origin:
                    other_origin.add(target)
                    self.skipped.append(
                        Skipped(target, "other origin: not followed", "other-origin")
                    )
                continue
            if is_risky_link(target, link["text"]):
                continue
            if target in queued:
                continue
            queued.add(target)
            ext = file_extension(target)
            if ext in rules()["non_html_extensions"]:
                self.skipped.append(
                    Skipped(route_of(target), f"not a web page (a .{ext} file)", "not-html")
                )
                continue
            if link["inList"]:
                pair = collection_of(target)
                if pair:
                    self._collections.setdefault(pair[0], set()).add(pair[1])
            queue.append((target, depth + 1))
        if languages and not self._languages_noted:
            self._languages_noted = True
            self.skipped.append(
                Skipped(
                    f"{languages} language link(s)",
                    "not followed: they switch the app's language for the whole session",
                    "language",
                )
            )

    def _try_click(
        self,
        base: Screen,
        cand: dict,
        depth: int,
        order: int,
        queued: set[str],
        queue: list,
        screens: list[Screen],
        other_origin: set[str],
        *,
        full: Any = None,
    ) -> tuple[Screen | None, bool]:
        """Click one candidate on the loaded ``base`` page; (new screen or None, need restore).

        The state a press leaves on the same URL has a template of its own: each tab is one,
        all the records a page's script opens from same-document links (``#Tomatoes``) are
        one, each other button is one. ``full(template)`` says that template has its
        screens already.
        """
        page = self._page
        before_nav, blocked_before = self._nav_requests, len(self._blocked)
        try:
            self.click(cand["index"])
            page.wait_for_timeout(120)
            if self._nav_requests != before_nav:
                page.wait_for_load_state("load", timeout=self._ms(self.page_timeout_s))
        except Exception as exc:
            log.debug("click %r on %s: %s", cand["label"], base.url, _first_line(exc))
            return None, True
        if len(self._blocked) != blocked_before:
            target = self._blocked[-1]
            if target not in other_origin:
                other_origin.add(target)
                kind = (
                    "form"
                    if target.split(" ")[0] in ("POST", "PUT", "PATCH", "DELETE")
                    else "other-origin"
                )
                self.skipped.append(
                    Skipped(
                        target,
                        f"{cand['label'] or 'a button'!r} leads to another origin: not followed"
                        if kind == "other-origin"
                        else "form submission blocked",
                        kind,
                    )
                )
            return None, normalize_url(page.url) != base.url
        now = page.url
        if not now.startswith(("http:", "https:")) or origin_of(now) != self.origin:
            return None, True
        if self.settle(keep_scroll=True):
            return None, True
        now = normalize_url(page.url)
        if now != base.url:  # the button navigated: a page of its own, judged as a link is
            if now not in queued and not is_risky_link(now):
                queued.add(now)
                queue.insert(0, (now, depth + 1))
            return None, True
        template = _state_template(base.template, cand)
        if full is not None and full(template):
            return None, True
        label = cand["label"] or "a button"
        try:
            screen = self.photograph(
                base.url,
                base.via + (cand["key"],),
                cand["label"],
                depth + 1,
                order,
                loaded=False,
            )
        except _Refused as refused:
            self.skipped.append(
                Skipped(
                    f"{route_of(base.url)} (after pressing {label!r})",
                    refused.verdict.reason,
                    refused.verdict.kind,
                )
            )
            return None, True
        except ShotsmithError:
            raise
        except Exception:
            return None, True
        screen.template = template
        dup = next((s for s in screens if looks_same(s, screen)), None)
        if dup is not None:
            return None, hamming(screen.dhash, base.dhash) > 0
        return screen, True

    def _back_to(self, base: Screen) -> bool:
        """Undo a press without reloading when Escape does it (a reload costs a heavy app
        many requests, and some apps limit them): the same URL, nothing open, the same text.
        The candidates are marked again either way."""
        try:
            if normalize_url(self._page.url) != base.url:
                return False
            self._page.keyboard.press("Escape")
            self._page.wait_for_timeout(150)
            state = self._calm(mark=False)
            if state["dialogs"] or state["menus"]:
                return False
            self._page.evaluate("() => window.scrollTo(0, 0)")
            return self.extract()["text"] == base.text
        except Exception:
            return False

    # -- recapture at another device --------------------------------------------
    def recapture(self, emu: Emulation, screens: list[Screen]) -> list[Shot | Skipped]:
        """Capture the chosen screens again at another device, in the same order."""
        self.open(emu)
        out: list[Shot | Skipped] = []
        for screen in screens:
            try:
                verdict = self.load(screen.url)
                for key in screen.via:
                    if verdict:
                        break
                    info = self.extract()
                    match = next((c for c in info["clicks"] if c["key"] == key), None)
                    if match is None:
                        verdict = Verdict(
                            f"button {key.split('|')[2]!r} not found at this size", "error"
                        )
                        break
                    self.click(match["index"])
                    self._page.wait_for_timeout(120)
                    reason = self.settle(keep_scroll=True)
                    verdict = _verdict(reason) if reason else None
                if verdict:
                    out.append(Skipped(_where(screen), verdict.reason, verdict.kind, emu.device_id))
                    continue
                shot = self.photograph(
                    screen.url,
                    screen.via,
                    screen.via_label,
                    screen.depth,
                    screen.order,
                    loaded=not screen.via,
                )
                out.append(
                    Shot(shot.png, shot.text, shot.offset, shot.elements, screen.url, shot.title)
                )
            except _Refused as refused:
                out.append(
                    Skipped(
                        _where(screen),
                        refused.verdict.reason,
                        refused.verdict.kind,
                        emu.device_id,
                    )
                )
            except ShotsmithError:
                raise
            except Exception as exc:
                out.append(
                    Skipped(
                        _where(screen),
                        f"could not capture ({_first_line(exc)})",
                        "error",
                        emu.device_id,
                    )
                )
                self._new_page()
        self.close()
        return out


def _state_template(base: str, cand: dict[str, Any]) -> str:
    """The template of the state a press leaves on the same URL (see ``_try_click``)."""
    kind = cand.get("kind", "")
    if kind == "hash":
        return f"{base}#:name"
    return f"{base}#{kind or 'button'}={cand.get('label', '')}"


def sign_in_note(url: str, had_state: bool) -> str:
    """What the report and the command's stderr say about a sign-in wall."""
    if had_state:
        return (
            f"the app asks for a sign-in at {url} although a storage state was given (it has "
            "expired or belongs to another app); sign in again and save a new one, or pass "
            "--login USER:PASSWORD (login=)."
        )
    return (
        f"the app asks for a sign-in at {url}; pass --login USER:PASSWORD (login=(user, "
        "password) in Python) to sign in with the app's own form, or --storage-state FILE "
        "(storage_state=) with a Playwright storage state saved after signing in, to capture "
        "the screens behind it."
    )


# --- reading what the page said ---------------------------------------------------------


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, dict):  # an SVGAnimatedString that reached Python as an object
        value = value.get("baseVal", "")
    return re.sub(r"\s+", " ", str(value)).strip()


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _clean_info(raw: Any) -> dict[str, Any]:
    """The in-page extract, every value coerced to the type the explorer expects."""
    raw = raw if isinstance(raw, dict) else {}
    links = []
    for link in _dicts(raw.get("links")):
        href = link.get("href")
        if isinstance(href, dict):
            href = href.get("baseVal", "")
        href = str(href or "").strip()
        if href:
            links.append(
                {
                    "href": href,
                    "text": _text(link.get("text")),
                    "visible": bool(link.get("visible")),
                    "inList": bool(link.get("inList")),
                }
            )
    clicks = []
    for c in _dicts(raw.get("clicks")):
        try:
            index = int(c.get("index"))
        except (TypeError, ValueError):
            continue
        clicks.append(
            {
                "index": index,
                "label": _text(c.get("label")),
                "key": str(c.get("key") or ""),
                "selected": bool(c.get("selected")),
                "kind": _text(c.get("kind")),
            }
        )
    elements = []
    for e in _dicts(raw.get("elements")):
        box = e.get("box")
        if not (isinstance(box, list) and len(box) == 4):
            continue
        try:
            box = [float(v) for v in box]
        except (TypeError, ValueError):
            continue
        item: dict[str, Any] = {
            "role": _text(e.get("role")) or "text",
            "text": _text(e.get("text")),
        }
        if isinstance(e.get("level"), (int, float)):
            item["level"] = int(e["level"])
        item["box"] = box
        if item["text"]:
            elements.append(item)

    def number(key: str) -> float:
        try:
            return float(raw.get(key) or 0)
        except (TypeError, ValueError):
            return 0.0

    min_top = raw.get("minTop")
    shape_raw = raw.get("shape") if isinstance(raw.get("shape"), dict) else {}
    shape = {str(k): int(v) for k, v in shape_raw.items() if isinstance(v, (int, float))}
    return {
        "shape": shape,
        "url": _text(raw.get("url")),
        "title": _text(raw.get("title")),
        "h1": _text(raw.get("h1")),
        "appName": _text(raw.get("appName")),
        "text": "\n".join(
            line for line in (_text(t) for t in str(raw.get("text") or "").split("\n")) if line
        ),
        "elements": elements,
        "links": links,
        "clicks": clicks,
        "formsSkipped": int(number("formsSkipped")),
        "risky": int(number("risky")),
        "words": int(number("words")),
        "password": int(number("password")),
        "passwordWords": int(number("passwordWords")),
        "userField": bool(raw.get("userField")),
        "cover": bool(raw.get("cover")),
        "overflowX": bool(raw.get("overflowX")),
        "minTop": float(min_top) if isinstance(min_top, (int, float)) else None,
    }


# --- helpers ------------------------------------------------------------------


def _quiet(fn: Any) -> None:
    try:
        fn()
    except Exception:
        pass


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    msg = text[0] if text else type(exc).__name__
    return re.sub(r"^(Page|Frame|Locator)\.\w+: ", "", msg)[:200]


def _reason(exc: BaseException, timeout_s: float, what: str) -> str:
    msg = _first_line(exc)
    if "Timeout" in type(exc).__name__ or "Timeout" in msg:
        return f"{what} within {timeout_s:g} s (timed out)"
    m = re.search(r"net::(ERR_[A-Z_]+)", msg)
    if m and m.group(1) == "ERR_INVALID_AUTH_CREDENTIALS":
        return "asks for HTTP authentication (a data endpoint, not a page of the app)"
    return f"failed to load ({m.group(1)})" if m else f"failed to load ({msg})"


def _retry_after(response: Any) -> float | None:
    """Seconds a 429 response asks to wait (Retry-After), when it is a short wait."""
    try:
        value = float(str(response.headers.get("retry-after", "")).strip())
    except (TypeError, ValueError):
        return None
    return value if 0 <= value <= 30 else None


def _verdict(reason: str) -> Verdict:
    return Verdict(reason, _kind(reason))


def _kind(reason: str) -> str:
    if reason.startswith("HTTP "):
        return "http"
    if "timed out" in reason:
        return "timeout"
    if "budget" in reason:
        return "budget"
    return "error"


def _where(screen: Screen) -> str:
    route = route_of(screen.url)
    return f"{route} (after pressing {screen.via_label!r})" if screen.via else route


def marker() -> str:
    return f"--shotsmith-capture={uuid.uuid4().hex}"
