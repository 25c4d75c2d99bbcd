"""One page of a web app at one emulated device: load it, let it settle, read it, photograph it.

:class:`PageSession` holds one browser context and its page for the explorer
(:mod:`.explore`): it lays the page out below the device's status-bar band (or full screen
for a ``viewport-fit=cover`` page whose content clears the band), checks each response
(only HTML documents become screens), waits until the page has settled, clears chrome off
it (cookie banners, toasts, framework overlays) and closes what was left open, reads it
through the in-page scripts (``js/*.js``) and judges it (:mod:`.pages`). When the app asks
for a sign-in and the user gave credentials, it fills the app's own form, once.

Every browser call is bounded by the page timeout and the overall deadline; whatever a page
does, what fails is a :class:`Refused` verdict or an exception the explorer records, never
a hang.
"""

from __future__ import annotations

import io
import json
import logging
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from ...errors import CaptureError
from ...video import FOOTAGE_CUTS
from .browser import Emulation
from .network import BlockedRequest, NetworkPolicy
from .pages import (
    SIGN_IN_OTHER_WORDS,
    Verdict,
    blank_media,
    clean_info,
    clean_text,
    desktop_layout,
    dicts_in,
    empty_picture,
    error_page,
    info_page,
    is_blank,
    is_sign_in_page,
    near_empty,
    not_html,
    thin_page,
    unfinished_page,
    weak_page,
)
from .rules import LINK_RISK_CATEGORIES, risky_phrases, rules, script, store_links, words_pattern
from .screens import Screen, Skipped
from .similarity import complexity, dhash, phash
from .urls import is_sign_in_route, normalize_url, origin_of, route_of, template_key

log = logging.getLogger("shotsmith.capture")

STILL_CSS = (
    "*,*::before,*::after{animation-delay:0s!important;animation-duration:0.001ms!important;"
    "animation-iteration-count:1!important;transition-duration:0s!important;"
    "transition-delay:0s!important;scroll-behavior:auto!important;"
    "caret-color:transparent!important}"
)

#: set a dropdown, slider or radio button as a user would: the native value setter (a
#: framework's own setter would swallow it), then the input and change events
SET_CHOICE_JS = """(arg) => {
  const el = document.querySelector(arg.selector);
  if (!el) return false;
  if (el.type === 'radio') { el.click(); return true; }
  const proto = el.tagName === 'SELECT' ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, arg.value);
  el.dispatchEvent(new Event('input', {bubbles: true}));
  el.dispatchEvent(new Event('change', {bubbles: true}));
  return true;
}"""

#: a click outside what the page opened: pointer and mouse events on the body itself (a
#: "click outside" handler closes on them; no control of the page is hit)
CLICK_OUTSIDE_JS = """() => {
  const at = {bubbles: true, cancelable: true, clientX: 1, clientY: innerHeight - 1};
  for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']) {
    const Event_ = type.startsWith('pointer') ? PointerEvent : MouseEvent;
    document.body.dispatchEvent(new Event_(type, at));
  }
}"""

MAX_SIGN_INS = 5  # an app that forgets the session on a reload is signed into again, a little

#: how long a page whose document has arrived may take to fire its load event (what holds it
#: is a stylesheet, font or image still loading, often from a server that never answers)
LOAD_CAP_S = 5.0
CONTENT_CAP_S = 5.0  # how long a page may show a skeleton / spinner before it is judged
LOADING_RETRIES = 2  # a page judged still loading is let settle again this many times


class Refused(ValueError):
    """A page was judged not to be a screen (carries the verdict): a value the explorer
    refuses, a control-flow signal caught where the page was taken, never raised out of
    the capture."""

    def __init__(self, verdict: Verdict):
        super().__init__(verdict.reason)
        self.verdict = verdict


@dataclass
class _Film:
    """A recorded page: its recording's file name, and when (time.monotonic()) the page
    opened (its recording starts then) and closed (None while open)."""

    name: str
    opened: float
    closed: float | None = None


class PageSession:
    """One browser context and its page, at one emulated device (see the module docstring)."""

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
        policy: NetworkPolicy | None = None,
        switch_device: bool = False,
    ):
        self.browser = browser
        # a start page that is a desktop layout at a phone: switch to a tablet (the explorer
        # raises DesktopLayout) or, the device pinned, say why not (desktop_declined)
        self.switch_device = switch_device
        self.desktop_declined = ""
        # one policy for every context this session opens (see .network)
        self.policy = policy if policy is not None else NetworkPolicy(start_url)
        self.fetch_timeout_ms = (page_timeout_s + 5.0) * 1000  # goto times out first
        self.phase = "start"  # "start" until the first page loaded, then "load" / "click"
        self.cause = ""  # the control or key pressed last (what a blocked request follows)
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
        self._blocked: list[BlockedRequest] = []
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
        self._slow_noted = False
        self._languages_noted = False
        self._risky = risky_phrases()
        self._risky_links = risky_phrases(*LINK_RISK_CATEGORIES)
        #: a folder: the contexts opened record their pages as video there (Playwright's
        #: record_video_dir), at the viewport's size in points: the frames Chromium sends
        #: are that size, whatever the device's scale (see shotsmith.video)
        self.record_video_dir: str | None = None
        # the recorded pages, and the stretches of each judged no screen (see
        # leave_out_of_footage)
        self._films: list[_Film] = []
        self._cuts: dict[str, list[tuple[float, float]]] = {}

    def remaining(self) -> float:
        return self.deadline - time.monotonic()

    def _ms(self, seconds: float) -> float:
        return max(1.0, min(seconds, self.remaining()) * 1000)

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
        if self.record_video_dir is not None:
            options["record_video_dir"] = self.record_video_dir
            options["record_video_size"] = {"width": emu.width, "height": emu.page_height}
        self._context = self.browser.new_context(**options)
        init = {"css": STILL_CSS, "allowForms": self.allow_forms}
        self._context.add_init_script(f"({script('init')})({json.dumps(init)});")
        self.policy.attach(self._context, self)
        self._context.on("request", self._on_request)
        self._context.on("requestfinished", self._on_done)
        self._context.on("requestfailed", self._on_done)
        self._context.on("response", self._on_response)
        self._context.on("page", self._on_page)
        self._new_page()

    def _new_page(self) -> None:
        old, self._page = self._page, None  # so _on_page does not take the new one for a popup
        if old is not None:
            quiet(lambda: old.close(run_before_unload=False))
        self._films_closed()
        self._page = self._context.new_page()
        self._film(self._page)
        self._page.on("dialog", lambda d: quiet(d.dismiss))
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
        self._films_closed()
        self._context = self._page = self._cdp = None

    def _film(self, page: Any) -> None:
        """Note when a recorded page opened (its recording starts then)."""
        if self.record_video_dir is None or page.video is None:
            return
        try:
            name = Path(page.video.path()).name
        except Exception:  # no recording for this page
            return
        self._films.append(_Film(name, time.monotonic()))

    def _films_closed(self) -> None:
        now = time.monotonic()
        for film in self._films:
            if film.closed is None:
                film.closed = now

    def leave_out_of_footage(self, since: float) -> None:
        """What the recorded pages showed from ``since`` (a time.monotonic()) until now was
        no screen (an error page, a page that never loaded, a duplicate): the preview
        video leaves it out (``FOOTAGE_CUTS`` in the recording folder, read by
        shotsmith.video)."""
        if self.record_video_dir is None:
            return
        now = time.monotonic()
        for film in self._films:
            start = max(since, film.opened)
            end = now if film.closed is None else min(now, film.closed)
            if end > start:
                self._cuts.setdefault(film.name, []).append(
                    (round(start - film.opened, 3), round(end - film.opened, 3))
                )
        Path(self.record_video_dir, FOOTAGE_CUTS).write_text(json.dumps(self._cuts))

    def _on_page(self, page: Any) -> None:
        if self._page is not None and page != self._page:  # a popup: never wanted
            quiet(lambda: page.close(run_before_unload=False))

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

    def on_blocked(self, item: BlockedRequest) -> None:
        """The network policy refused a request of this session's page."""
        self._blocked.append(item)
        log.debug("blocked %s", item)

    def on_navigation(self) -> None:
        """A press led to a page load (a GET navigation): what follows is that page loading."""
        self.phase, self.cause = "load", ""

    def interacting(self, cause: str) -> None:
        """From now until the next page load, requests follow ``cause`` (a press, a key)."""
        self.phase, self.cause = "click", cause

    def _set_full(self, full: bool) -> None:
        emu = self._emulation
        if emu is None or full == self._full:
            return
        height = emu.height if full else emu.page_height
        self._page.set_viewport_size({"width": emu.width, "height": height})
        if self._cdp is not None:
            top = emu.band_pt if full else 0
            quiet(
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
            raise Refused(Verdict("page did not settle after a resize", "timeout"))

    def load(self, url: str, *, _retried: bool = False) -> Verdict | None:
        """Navigate, check the response, settle; None on success or why it is no screen."""
        if self.remaining() < 0.5:
            return Verdict("time budget used up", "budget")
        page = self._page  # laid out as the last page was: pages of one app mostly agree
        self._doc_headers = {}
        if self.phase != "start":
            self.phase, self.cause = "load", ""
        try:
            return self._load(page, url, _retried=_retried)
        finally:
            if self.phase == "start":
                self.phase = "load"

    def _load(self, page: Any, url: str, *, _retried: bool) -> Verdict | None:
        blocked_before = len(self._blocked)
        try:
            response = page.goto(url, wait_until="commit", timeout=self._ms(self.page_timeout_s))
        except Exception as exc:
            self._new_page()
            away = [b for b in self._blocked[blocked_before:] if b.navigation]
            if away:
                return Verdict(f"leads to another origin ({away[0].url}): blocked", away[0].kind)
            if "Download is starting" in str(exc):
                return not_html(self._doc_headers) or Verdict(
                    "a file download, not a page", "not-html"
                )
            return verdict_of(_reason(exc, self.page_timeout_s, "no response"))
        if response is not None and response.status == 429 and not _retried:
            wait = _retry_after(response)  # the app asks us to slow down: do, once
            if wait is not None and wait + self.page_timeout_s < self.remaining() - 5:
                log.debug("HTTP 429 on %s: waiting %.0f s as asked", url, wait)
                page.wait_for_timeout(wait * 1000 + 500)
                return self._load(page, url, _retried=True)
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
            page.wait_for_load_state("domcontentloaded", timeout=self._ms(self.page_timeout_s))
        except Exception as exc:
            self._new_page()
            return verdict_of(_reason(exc, self.page_timeout_s, "did not finish loading"))
        try:  # what still holds the load event (a stylesheet, a font, an image) is waited
            # for briefly: a page is judged by what it shows once it has settled
            page.wait_for_load_state("load", timeout=self._ms(self._load_cap_s))
        except Exception:
            self._note_slow_load(url, blocked_before)
        reason = self.settle()
        if reason:
            return verdict_of(reason)
        if self.login is not None and self._signins < MAX_SIGN_INS:
            self._sign_in_if_asked()
        return None

    @property
    def _load_cap_s(self) -> float:
        return min(LOAD_CAP_S, self.page_timeout_s)

    def _note_slow_load(self, url: str, blocked_before: int) -> None:
        """Say once which page was judged before its load event, and what was refused then."""
        if self._slow_noted:
            return
        self._slow_noted = True
        blocked = {b.url for b in self._blocked[blocked_before:]}
        said = f" ({len(blocked)} request(s) it made were blocked, listed below)" if blocked else ""
        self.notes.append(
            f"{route_of(url)} had not finished loading after {self._load_cap_s:.0f} s{said}: "
            "capture stopped waiting for what it still loaded and judged the page as it stood."
        )

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
            quiet(handle.dispose)

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
                "navWords": rules()["navigation_labels"]["words"],
                "navPhrases": rules()["navigation_labels"]["phrases"],
                "chrome": rules()["weak_page"]["chrome_selector"],
                "panelHeight": rules()["weak_page"]["side_panel"]["min_height"],
                "panelWidth": rules()["weak_page"]["side_panel"]["max_width"],
                "busyWords": rules()["busy_words"],
                "cardWords": rules()["card_words"],
                "busyText": rules()["busy_text"],
                "loadingWords": rules()["weak_page"]["loading"]["line_max_words"],
            },
            timeout_s=min(10.0, self.page_timeout_s),
        )
        self._info = clean_info(raw)
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
        opened = _what_is_open(state)
        for _ in range(2):
            self.interacting("the Escape key (closing what the page opened)")
            quiet(lambda: self._page.keyboard.press("Escape"))
            self._page.wait_for_timeout(150)
            state = self._calm(mark=False)
            if not state["dialogs"] and not state["menus"]:
                self._closed(opened, "the Escape key")
                return None
        # a click outside it: on the page's body itself, so that no control is pressed
        self.interacting("a click outside (closing what the page opened)")
        quiet(lambda: self._page.evaluate(CLICK_OUTSIDE_JS))
        self._page.wait_for_timeout(150)
        state = self._calm(mark=False)
        if not state["dialogs"] and not state["menus"]:
            self._closed(opened, "a click outside it")
            return None
        if state["dialogs"]:
            state = self._calm(mark=True)
            if state.get("dismiss"):
                self.interacting("a dialog's close button")
                quiet(lambda: self._page.click("[data-shotsmith-dismiss]", timeout=self._ms(2.0)))
                self._page.wait_for_timeout(200)
                state = self._calm(mark=False)
                if not state["dialogs"] and not state["menus"]:
                    self._closed(opened, "its close button")
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

    def _closed(self, what: str, how: str) -> None:
        """Say once per kind of thing that the page opened it by itself and it was closed."""
        note = f"{what} the app opens by itself was closed with {how} before photographing"
        if note not in self.notes:
            self.notes.append(note)

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
                "label": clean_text(d.get("label")),
                "full": bool(d.get("full")),
                "password": bool(d.get("password")),
            }
            for d in dicts_in(raw.get("dialogs"))
        ]
        menus = [{"label": clean_text(m.get("label"))} for m in dicts_in(raw.get("menus"))]
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

    def click(self, index: int, label: str = "", value: str | None = None) -> None:
        """Press the marked control ``index``; a choice (dropdown, slider, radio button) is
        set to ``value`` instead, as the user would, with the events the page listens to."""
        self.interacting(label or "a control")
        selector = f'[data-shotsmith-click="{index}"]'
        if value is None:
            self._page.click(selector, timeout=self._ms(2.0))
            return
        done = self.evaluate(SET_CHOICE_JS, {"selector": selector, "value": value}, timeout_s=2.0)
        if not done:
            raise CaptureError(f"the control {label!r} is gone")

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
            "message": clean_text(raw.get("message")),
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
            raise CaptureError(
                f"--login was given but the sign-in page {where} has no form the capture can "
                "fill (a user name and a password, nothing else). Sign in by hand in a "
                "browser and pass the saved state with --storage-state FILE (storage_state=)."
            )
        self._signing_in = True
        self.phase, self.cause = "sign-in", "the sign-in form"
        try:
            quiet(lambda: page.evaluate("() => { window.__shotsmithSignIn = true; }"))
            if form["user"]:
                page.fill('[data-shotsmith-login="user"]', user, timeout=self._ms(5.0))
            if not form["password"]:  # two steps: the user name first, then the password
                self._submit_sign_in(form, "user")
                page = self._page
                form = self._sign_in_form()
                if not form["password"]:
                    raise CaptureError(
                        f"signing in at {where}: after the user name no password field "
                        "appeared. Sign in by hand in a browser and pass the saved state with "
                        "--storage-state FILE (storage_state=)."
                    )
                quiet(lambda: page.evaluate("() => { window.__shotsmithSignIn = true; }"))
            page.fill('[data-shotsmith-login="password"]', password, timeout=self._ms(5.0))
            self._submit_sign_in(form, "password")
        finally:
            self._signing_in = False
            self.phase, self.cause = "load", ""
            quiet(lambda: self._page.evaluate("() => { window.__shotsmithSignIn = false; }"))
        after = self._sign_in_form()
        info = self.extract()
        if (after["password"] and is_sign_in_page(info, self._page.url)) or (
            after["message"] and len(info["text"].split()) < SIGN_IN_OTHER_WORDS
        ):
            said = f" (it says {after['message']!r})" if after["message"] else ""
            raise CaptureError(
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
        try:
            if form["submit"]:
                page.click('[data-shotsmith-login="submit"]', timeout=self._ms(5.0))
            else:
                page.press(f'[data-shotsmith-login="{field_name}"]', "Enter", timeout=self._ms(5.0))
        except Exception as exc:
            # pressed, but the app's answer (the navigation it started) is slow: wait for
            # it below; whether the sign-in worked is read off the page that follows
            if self._nav_requests == before:
                raise CaptureError(
                    f"could not submit the sign-in form at {route_of(page.url)} "
                    f"({first_line(exc)}); check --login, or sign in once and pass "
                    "--storage-state"
                ) from None
            log.debug("sign-in submitted, its page still loading: %s", first_line(exc))
        page.wait_for_timeout(300)
        if self._nav_requests != before:
            quiet(lambda: page.wait_for_load_state("load", timeout=self._ms(self.page_timeout_s)))
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
        """Calm, read and photograph the current page; raises Refused when it is no screen."""
        verdict = self.calm(loaded=loaded)
        if verdict:
            raise Refused(verdict)
        info = self._fit_layout(self.extract())
        sign_in = is_sign_in_page(info, url)
        if sign_in and (self.signed_in or self.storage_state is not None):
            if self._fillable(self._sign_in_form()):
                raise Refused(Verdict("asks for a sign-in again (the session ended)", "sign-in"))
            sign_in = False  # signed in, a password form is another form (a new project's)
        if not sign_in:
            verdict = self._judge(info, url)
            for _ in range(LOADING_RETRIES):  # still loading: give it time, then judge again
                if verdict is None or verdict.kind != "loading" or self.remaining() < 2:
                    break
                if self.settle(keep_scroll=not loaded):
                    break
                info = self._fit_layout(self.extract())
                verdict = self._judge(info, url)
            if verdict:
                raise Refused(verdict)
        if store_links(info["links"]) >= 2 and len(info["text"].split()) < 80:
            raise Refused(
                Verdict(
                    "a page pointing to the app's mobile apps in the stores, not a screen",
                    "store-links",
                )
            )
        png, offset = self.photo()
        if not sign_in and (verdict := self._blank_pictures(info, png, url)):
            raise Refused(verdict)
        screen = self._make_screen(url, via, via_label, info, png, offset, depth, order)
        screen.sign_in = sign_in
        if screen.words <= rules()["weak_page"]["near_empty_words"] and not sign_in:
            with Image.open(io.BytesIO(png)) as im:
                im.load()
                if is_blank(im, screen.words):
                    raise Refused(Verdict("a blank page (no text, one colour)", "blank"))
                verdict = near_empty(im, screen.words)
                if verdict:
                    raise Refused(verdict)
        wide = desktop_layout(info, self._emulation.width) if self._emulation else ""
        if wide and self._emulation and not self._emulation.tablet and not sign_in:
            raise Refused(
                Verdict(f"a desktop layout, not a phone screen: {wide}", "desktop-layout")
            )
        if wide and self._emulation and not self._wide_noted:
            self._wide_noted = True
            self.notes.append(
                f"{route_of(url)} is a desktop layout even at the {self._emulation.width} pt "
                f"tablet screen ({wide}): kept, the widest screen capture has."
            )
        return screen

    def _blank_pictures(self, info: dict[str, Any], png: bytes, url: str) -> Verdict | None:
        """The page judged again without its pictures that draw nothing (an empty chart's
        canvas, a blank frame), looked at in the photo."""
        boxes = info["content"].get("mediaBoxes") or []
        if not boxes or self._emulation is None:
            return None
        with Image.open(io.BytesIO(png)) as im:
            im.load()
            blank = blank_media(im, boxes, self._emulation.scale)
        return empty_picture(info, blank, url)

    @staticmethod
    def _judge(info: dict[str, Any], url: str) -> Verdict | None:
        """Why the page is no screen a marketer would pick, or None (pages.py's judges)."""
        return (
            error_page(info["title"], info["h1"], info["text"])
            or weak_page(info)
            or info_page(info, url)
            or unfinished_page(info)
            or thin_page(info, url)
        )

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
            small = im.convert("RGB").resize(
                (im.width // 4 or 1, im.height // 4 or 1), Image.Resampling.BOX
            )
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
            for key in ("level", "current"):
                if key in e:
                    item[key] = e[key]
            item["box"] = [x0, y0, x1 - x0, y1 - y0]
            out.append(item)
        return out


def _what_is_open(state: dict[str, Any]) -> str:
    """'a dialog ('Suggestions')' or 'a menu': the first thing open, as the report says it."""
    items = state["dialogs"] or state["menus"]
    what = "a dialog" if state["dialogs"] else "a menu or popover"
    label = items[0]["label"] if items else ""
    return f"{what}{f' ({label!r})' if label else ''}"


def quiet(fn: Any) -> None:
    try:
        fn()
    except Exception:
        pass


def first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    msg = text[0] if text else type(exc).__name__
    return re.sub(r"^(Page|Frame|Locator)\.\w+: ", "", msg)[:200]


def _reason(exc: BaseException, timeout_s: float, what: str) -> str:
    msg = first_line(exc)
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


def verdict_of(reason: str) -> Verdict:
    return Verdict(reason, _kind(reason))


def _kind(reason: str) -> str:
    if reason.startswith("HTTP "):
        return "http"
    if "timed out" in reason:
        return "timeout"
    if "budget" in reason:
        return "budget"
    return "error"
