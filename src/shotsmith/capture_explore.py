"""The web-app explorer behind :func:`shotsmith.stages.capture.capture`.

Playwright drives a Chromium that emulates one device at a time. Starting at the
start URL, the explorer visits the app breadth first: it follows the app's own
same-origin links (``a[href]``) and clicks its buttons and tabs (``role=tab``,
``role=button``, ``button``, ``onclick``, pointer-cursor elements), watching the
URL and the screen for a change. It never submits a form (unless asked to),
never leaves the origin, never clicks something that reads like a destructive
action, and waits for every screen to settle (load, network idle with a cap,
web fonts, animations finished) before it is photographed. Screens that look
the same (perceptual hash, Hamming distance) or have the same URL are kept once.

Everything is bounded: a per-page timeout, an overall deadline, a cap on pages
visited and clicks tried, and a watchdog that kills the browser should it stop
answering. Pages that fail are recorded as :class:`Skipped` with the reason.
"""

from __future__ import annotations

import io
import json
import logging
import os
import re
import signal
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import numpy as np
from PIL import Image

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

# Things a screenshot explorer must never press: it would change the user's data.
RISKY = re.compile(
    r"\b(delete|remove|erase|destroy|log ?out|sign ?out|unsubscribe|deactivate|reset|"
    r"pay|buy|purchase|checkout|check out|order now|place order|send|submit|transfer now|"
    r"confirm|cancel (?:my )?(?:subscription|account|order|plan)|close account)\b",
    re.I,
)
RISKY_HREF = re.compile(r"(log-?out|sign-?out|delete|remove|destroy|unsubscribe)", re.I)

DHASH_SIDE = 16  # 16x16 = 256-bit difference hash
DUPLICATE_DHASH = 14  # Hamming distance (of 256) at or below which two screens look the same
DUPLICATE_PHASH = 8  # ... and of the 64-bit DCT hash

STILL_CSS = (
    "*,*::before,*::after{animation-delay:0s!important;animation-duration:0.001ms!important;"
    "animation-iteration-count:1!important;transition-duration:0s!important;"
    "transition-delay:0s!important;scroll-behavior:auto!important;"
    "caret-color:transparent!important}"
)

INIT_SCRIPT = """
(() => {
  const css = %(css)s;
  const add = () => {
    if (document.getElementById('__shotsmith_still')) return;
    const s = document.createElement('style'); s.id = '__shotsmith_still'; s.textContent = css;
    (document.head || document.documentElement).appendChild(s);
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', add);
  else add();
  window.open = () => null;
  if (!%(allow_forms)s) {
    const count = () => { window.__shotsmithBlockedSubmits = (window.__shotsmithBlockedSubmits || 0) + 1; };
    document.addEventListener('submit', e => { e.preventDefault(); e.stopImmediatePropagation(); count(); }, true);
    HTMLFormElement.prototype.submit = count;
    HTMLFormElement.prototype.requestSubmit = count;
  }
})();
"""  # noqa: E501

SETTLE_JS = """
async (fontCapMs) => {
  const cap = ms => new Promise(r => setTimeout(() => r(false), ms));
  try { await Promise.race([document.fonts ? document.fonts.ready : Promise.resolve(), cap(fontCapMs)]); } catch (e) {}
  try { for (const a of document.getAnimations()) { try { a.finish(); } catch (e) { try { a.cancel(); } catch (e2) {} } } } catch (e) {}
  window.scrollTo(0, 0);
  const imgs = Array.from(document.images).filter(i => !i.complete && i.getBoundingClientRect().top < innerHeight);
  await Promise.race([Promise.all(imgs.map(i => new Promise(r => { i.onload = i.onerror = r; }))), cap(fontCapMs)]);
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  return true;
}
"""  # noqa: E501

# One pass over the DOM: metadata, visible text, links, and clickable candidates
# (marked with data-shotsmith-click so Python can click them by index).
EXTRACT_JS = r"""
(opts) => {
  const {allowForms, maxClicks} = opts;
  const vw = innerWidth, vh = innerHeight;
  const norm = s => (s || '').replace(/\s+/g, ' ').trim();
  const shown = el => {
    if (!el || !el.getClientRects().length) return false;
    if (el.checkVisibility) return el.checkVisibility({opacityProperty: true, visibilityProperty: true});
    const st = getComputedStyle(el); return st.visibility !== 'hidden' && st.opacity !== '0';
  };
  const inView = r => r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < vh && r.right > 0 && r.left < vw;
  // --- visible text, one line per block --------------------------------------
  const blockOf = el => {
    while (el && el.parentElement && getComputedStyle(el).display === 'inline') el = el.parentElement;
    return el;
  };
  const lines = []; let cur = '', curBlock = null, prevRaw = '';
  const root = document.body || document.documentElement;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {acceptNode: n => {
    const p = n.parentElement; if (!p) return NodeFilter.FILTER_REJECT;
    if (/^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE|TITLE)$/.test(p.tagName)) return NodeFilter.FILTER_REJECT;
    return n.nodeValue.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT;
  }});
  const range = document.createRange(); let n, total = 0;
  while ((n = walker.nextNode()) && total < 8000) {
    const p = n.parentElement; if (!shown(p)) continue;
    range.selectNodeContents(n); if (!inView(range.getBoundingClientRect())) continue;
    const raw = n.nodeValue, t = norm(raw), b = blockOf(p);
    if (b !== curBlock) { if (cur) lines.push(cur); cur = t; curBlock = b; }
    else cur += ((/\s$/.test(prevRaw) || /^\s/.test(raw)) ? ' ' : '') + t;
    prevRaw = raw; total += t.length;
  }
  if (cur) lines.push(cur);
  // --- metadata ----------------------------------------------------------------
  const meta = name => { const m = document.querySelector(`meta[name="${name}"], meta[property="${name}"]`); return m ? norm(m.content) : ''; };
  let h1 = '';
  for (const h of document.querySelectorAll('h1, [role=heading][aria-level="1"]')) { if (shown(h)) { h1 = norm(h.innerText || h.textContent); break; } }
  // --- links -------------------------------------------------------------------
  const links = [];
  for (const a of document.querySelectorAll('a[href], area[href]')) {
    if (a.hasAttribute('download')) continue;
    const href = a.href; if (!href) continue;
    links.push({href, text: norm(a.getAttribute('aria-label') || a.innerText || a.textContent).slice(0, 60), visible: shown(a)});
  }
  // --- clickables --------------------------------------------------------------
  document.querySelectorAll('[data-shotsmith-click]').forEach(e => e.removeAttribute('data-shotsmith-click'));
  const SEL = 'button, [role=tab], [role=button], [role=link], [role=menuitem], [role=option], [role=switch], [onclick], summary, input[type=button], input[type=submit], input[type=image]';
  const seen = new Set(); const cands = []; let formsSkipped = 0, risky = 0;
  const consider = (el, via) => {
    if (seen.has(el)) return; seen.add(el);
    if (el.closest('a[href]') && !(el.matches('a[href]') && /^javascript:/i.test(el.getAttribute('href') || ''))) return;
    if (el.disabled || el.getAttribute('aria-disabled') === 'true') return;
    const tag = el.tagName.toLowerCase(), type = (el.getAttribute('type') || '').toLowerCase();
    if (type === 'reset' || /^(select|textarea|option|label)$/.test(tag)) return;
    if (tag === 'input' && !/^(button|submit|image)$/.test(type)) return;
    const form = el.form || el.closest('form');
    const submits = (tag === 'input' && (type === 'submit' || type === 'image')) ||
                    (tag === 'button' && (type === '' || type === 'submit') && !!form);
    if (submits && !allowForms) { formsSkipped++; return; }
    if (!shown(el) || !inView(el.getBoundingClientRect())) return;
    const label = norm(el.getAttribute('aria-label') || el.innerText || el.value || el.getAttribute('title') || el.textContent).slice(0, 60);
    if (/\b(delete|remove|erase|destroy|log ?out|sign ?out|unsubscribe|deactivate|reset|pay|buy|purchase|checkout|check out|order now|place order|send|submit|transfer now|confirm|close account)\b/i.test(label) && !(submits && allowForms)) { risky++; return; }
    if (cands.length >= maxClicks) return;
    const role = el.getAttribute('role') || '';
    el.setAttribute('data-shotsmith-click', String(cands.length));
    cands.push({index: cands.length, label, key: [tag, role, label, el.getAttribute('onclick') || '', el.id || ''].join('|'), selected: el.getAttribute('aria-selected') === 'true' || el.getAttribute('aria-current') === 'page'});
  };
  for (const el of document.querySelectorAll(SEL)) consider(el, 'sel');
  const all = root.querySelectorAll('div, span, li, img, svg, p, section, article, header');
  for (let i = 0; i < all.length && i < 3000; i++) {
    const el = all[i];
    if (getComputedStyle(el).cursor !== 'pointer') continue;
    if (el.parentElement && getComputedStyle(el.parentElement).cursor === 'pointer') continue;
    if (el.closest('a[href], button, [role=button], [role=tab], label, summary, input, select, textarea')) continue;
    consider(el, 'pointer');
  }
  return {
    url: location.href, title: norm(document.title), h1,
    appName: meta('application-name') || meta('apple-mobile-web-app-title') || meta('og:site_name'),
    text: lines.join('\n'), links, clicks: cands, formsSkipped, risky,
    blockedSubmits: window.__shotsmithBlockedSubmits || 0,
  };
}
"""  # noqa: E501


# --- data -------------------------------------------------------------------


@dataclass(frozen=True)
class Emulation:
    """One device as the browser sees it."""

    device_id: str
    width: int  # CSS viewport, points
    height: int
    scale: float  # device_scale_factor
    px: tuple[int, int]  # exact native pixels of the capture
    user_agent: str
    is_mobile: bool = True
    has_touch: bool = True


@dataclass
class Skipped:
    """A page or action the explorer did not capture, and why."""

    url: str
    reason: str
    # "error" | "http" | "timeout" | "duplicate" | "other-origin" | "budget" | "form" | "size"
    kind: str
    device: str = ""

    def __str__(self) -> str:
        return f"{self.url}: {self.reason}"


@dataclass
class Screen:
    """One distinct screen: how to reach it and what it showed at the first device."""

    url: str  # normalised URL the screen lives at
    via: tuple[str, ...] = ()  # clickable keys to press after loading url (click states)
    via_label: str = ""
    title: str = ""
    h1: str = ""
    app_name: str = ""
    text: str = ""
    png: bytes = b""
    dhash: int = 0
    phash: int = 0
    complexity: float = 0.0
    depth: int = 0
    order: int = 0  # discovery order
    name: str = ""

    @property
    def words(self) -> int:
        return len(self.text.split())


@dataclass
class Shot:
    png: bytes
    text: str


@dataclass
class ExploreResult:
    screens: list[Screen]  # ranked, start page first
    skipped: list[Skipped] = field(default_factory=list)
    visited: int = 0
    clicks: int = 0


# --- perceptual hashes --------------------------------------------------------


def _gray(image: Image.Image, size: tuple[int, int]) -> np.ndarray:
    return np.asarray(image.convert("L").resize(size, Image.BOX), dtype=np.float32)


def dhash(image: Image.Image, side: int = DHASH_SIDE) -> int:
    """Difference hash: side x side bits, each 'is this cell brighter than its right neighbour'."""
    g = _gray(image, (side + 1, side))
    bits = (g[:, 1:] > g[:, :-1]).flatten()
    return int("".join("1" if b else "0" for b in bits), 2)


_DCT_CACHE: dict[int, np.ndarray] = {}


def _dct_matrix(n: int) -> np.ndarray:
    if n not in _DCT_CACHE:
        k = np.arange(n)[:, None]
        i = np.arange(n)[None, :]
        m = np.cos(np.pi * (2 * i + 1) * k / (2 * n)) * np.sqrt(2 / n)
        m[0] /= np.sqrt(2)
        _DCT_CACHE[n] = m
    return _DCT_CACHE[n]


def phash(image: Image.Image) -> int:
    """DCT perceptual hash: 64 bits, low frequencies of a 32x32 thumbnail against their median."""
    g = _gray(image, (32, 32))
    d = _dct_matrix(32)
    coeffs = (d @ g @ d.T)[:8, :8].flatten()
    med = np.median(coeffs[1:])
    return int("".join("1" if c > med else "0" for c in coeffs), 2)


def hamming(a: int, b: int) -> int:
    return (a ^ b).bit_count()


def complexity(image: Image.Image) -> float:
    """Visual busyness 0..1: mean absolute gradient of a small grey thumbnail."""
    g = _gray(image, (72, 156)) / 255.0
    return float(np.abs(np.diff(g, axis=0)).mean() + np.abs(np.diff(g, axis=1)).mean())


def looks_same(a: Screen, b: Screen) -> bool:
    return (
        hamming(a.dhash, b.dhash) <= DUPLICATE_DHASH
        and hamming(a.phash, b.phash) <= DUPLICATE_PHASH
    )


# --- URLs ---------------------------------------------------------------------


def normalize_url(url: str) -> str:
    """Scheme/host lower-case, default port dropped, plain #anchors dropped (#/routes kept)."""
    parts = urlsplit(url)
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    port = parts.port
    netloc = (
        host
        if port is None or (scheme, port) in (("http", 80), ("https", 443))
        else f"{host}:{port}"
    )
    if parts.username:
        netloc = f"{parts.username}@{netloc}"
    frag = parts.fragment if parts.fragment.startswith(("/", "!")) else ""
    return urlunsplit((scheme, netloc, parts.path or "/", parts.query, frag))


def origin_of(url: str) -> str:
    p = urlsplit(normalize_url(url))
    return f"{p.scheme}://{p.netloc}"


def route_of(url: str) -> str:
    """The path (and #/route) a user would recognise: '/budgets.html', '/#/goals'."""
    p = urlsplit(url)
    route = p.path or "/"
    if p.query:
        route += "?" + p.query
    if p.fragment:
        route += "#" + p.fragment
    return route


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
    ):
        self.browser = browser
        self.start_url = start_url
        self.origin = origin_of(start_url)
        self.locale = locale
        self.allow_forms = allow_forms
        self.deadline = deadline
        self.page_timeout_s = page_timeout_s
        self.settle_cap_s = settle_cap_s
        self.skipped: list[Skipped] = []
        self._blocked: list[str] = []
        self._inflight: set[int] = set()
        self._nav_requests = 0
        self._context: Any = None
        self._page: Any = None
        self._emulation: Emulation | None = None

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
        self._context = self.browser.new_context(
            viewport={"width": emu.width, "height": emu.height},
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
        self._context.add_init_script(
            INIT_SCRIPT
            % {"css": json.dumps(STILL_CSS), "allow_forms": "true" if self.allow_forms else "false"}
        )
        self._context.route("**/*", self._route)
        self._context.on("request", self._on_request)
        self._context.on("requestfinished", self._on_done)
        self._context.on("requestfailed", self._on_done)
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

    def close(self) -> None:
        if self._context is not None:
            try:
                self._context.close()
            except Exception:
                pass
        self._context = self._page = None

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
        if main and not self.allow_forms and request.method not in ("GET", "HEAD"):
            self._blocked.append(f"{request.method} {request.url}")
            _quiet(lambda: route.abort("blockedbyclient"))
            return
        _quiet(route.continue_)

    # -- loading & settling ----------------------------------------------------
    def load(self, url: str) -> str | None:
        """Navigate and settle; return None on success or the reason it failed."""
        if self.remaining() < 0.5:
            return "time budget used up"
        page = self._page
        try:
            response = page.goto(url, wait_until="commit", timeout=self._ms(self.page_timeout_s))
        except Exception as exc:
            self._new_page()
            return _reason(exc, self.page_timeout_s, "no response")
        if response is not None and response.status >= 400:
            return f"HTTP {response.status} {response.status_text}".strip()
        if self.origin and origin_of(page.url) != self.origin:
            return f"left the app's origin (went to {page.url})"
        try:
            page.wait_for_load_state("load", timeout=self._ms(self.page_timeout_s))
        except Exception as exc:
            self._new_page()
            return _reason(exc, self.page_timeout_s, "did not finish loading")
        return self.settle()

    def settle(self) -> str | None:
        page = self._page
        end = time.monotonic() + min(self.settle_cap_s, max(0.0, self.remaining()))
        quiet_since = None
        while time.monotonic() < end:  # network idle: nothing in flight for 120 ms (capped)
            if not self._inflight:
                quiet_since = quiet_since or time.monotonic()
                if time.monotonic() - quiet_since >= 0.12:
                    break
            else:
                quiet_since = None
            page.wait_for_timeout(40)
        try:
            self.evaluate(
                SETTLE_JS, int(self.settle_cap_s * 1000), timeout_s=self.settle_cap_s * 2 + 1
            )
        except Exception as exc:
            self._new_page()
            return f"page did not settle ({_reason(exc, self.settle_cap_s * 2 + 1, 'no answer')})"
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
        return self.evaluate(
            EXTRACT_JS,
            {"allowForms": self.allow_forms, "maxClicks": 12},
            timeout_s=min(10.0, self.page_timeout_s),
        )

    def screenshot(self, *, full: bool = True) -> bytes:
        kwargs = {
            "timeout": self._ms(self.page_timeout_s),
            "animations": "disabled",
            "caret": "hide",
        }
        if not full:
            kwargs["scale"] = "css"
        return self._page.screenshot(type="png", **kwargs)

    def click(self, index: int) -> None:
        self._page.click(f'[data-shotsmith-click="{index}"]', timeout=self._ms(2.0))

    # -- exploration -----------------------------------------------------------
    def explore(
        self, emu: Emulation, *, max_screens: int, explore_limit: int, progress: Any = None
    ) -> ExploreResult:
        self.open(emu)
        self.origin = ""  # the start page may redirect (http -> https, apex -> www) ...
        start = normalize_url(self.start_url)
        queue: list[tuple[str, int]] = [(start, 0)]
        queued = {start}
        screens: list[Screen] = []
        tried_keys: set[str] = set()
        visits = clicks = 0
        max_visits, max_clicks = explore_limit * 3, max_screens * 3
        other_origin: set[str] = set()
        forms_noted = False

        while queue:
            url, depth = queue.pop(0)
            if len(screens) >= explore_limit or visits >= max_visits or self.remaining() < 1.0:
                why = (
                    "enough screens found"
                    if len(screens) >= explore_limit
                    else "time or page budget used up"
                )
                self.skipped.append(Skipped(route_of(url), f"not visited: {why}", "budget"))
                continue
            visits += 1
            reason = self.load(url)
            if reason:
                if not screens:  # the start page: nothing can be done without it
                    self.close()
                    return ExploreResult(
                        [], self.skipped + [Skipped(url, reason, _kind(reason))], visits, clicks
                    )
                self.skipped.append(Skipped(route_of(url), reason, _kind(reason), emu.device_id))
                continue
            final = normalize_url(self._page.url)
            if not self.origin:  # ... and where it lands is the app's origin
                self.origin = origin_of(final)
            if final != url and any(s.url == final and not s.via for s in screens):
                self.skipped.append(
                    Skipped(
                        route_of(url), f"duplicate: redirects to {route_of(final)}", "duplicate"
                    )
                )
                continue
            queued.add(final)
            try:
                info = self.extract()
                png = self.screenshot()
            except Exception as exc:
                self.skipped.append(
                    Skipped(
                        route_of(url),
                        f"could not capture ({_first_line(exc)})",
                        "error",
                        emu.device_id,
                    )
                )
                self._new_page()
                continue
            screen = self._make_screen(final, (), "", info, png, depth, len(screens))
            dup = next((s for s in screens if looks_same(s, screen)), None)
            if dup is not None:
                self.skipped.append(
                    Skipped(
                        route_of(final), f"duplicate: looks the same as {_where(dup)}", "duplicate"
                    )
                )
            else:
                screens.append(screen)
                if progress is not None and len(screens) <= max_screens:
                    progress.update(1)
            if info.get("formsSkipped") and not forms_noted:
                forms_noted = True
                self.skipped.append(
                    Skipped(
                        route_of(final),
                        f"{info['formsSkipped']} form submit "
                        "button(s) not pressed (allow_forms=False)",
                        "form",
                    )
                )

            # links, visible ones first, in document order
            links = sorted(info.get("links", []), key=lambda link: not link.get("visible"))
            for link in links:
                href = link["href"]
                if not href.startswith(("http:", "https:")):
                    continue
                target = normalize_url(href)
                if origin_of(target) != self.origin:
                    if target not in other_origin:
                        other_origin.add(target)
                        self.skipped.append(
                            Skipped(target, "other origin: not followed", "other-origin")
                        )
                    continue
                if RISKY_HREF.search(urlsplit(target).path):
                    continue
                if target not in queued:
                    queued.add(target)
                    queue.append((target, depth + 1))

            # clickables that are not links: press each once, watch for a change
            if dup is None:
                base = screen
                for cand in info.get("clicks", []):
                    if (
                        clicks >= max_clicks
                        or len(screens) >= explore_limit
                        or self.remaining() < 2.0
                    ):
                        break
                    if cand["key"] in tried_keys or cand.get("selected"):
                        continue
                    tried_keys.add(cand["key"])
                    clicks += 1
                    found, restore = self._try_click(
                        base, cand, depth, len(screens), queued, queue, screens, other_origin
                    )
                    if found is not None:
                        screens.append(found)
                        if progress is not None and len(screens) <= max_screens:
                            progress.update(1)
                    if restore and self.remaining() > 1.0:
                        if self.load(final):
                            break  # cannot get back to this page: stop clicking here
                        try:
                            self.extract()  # re-mark the candidates
                        except Exception:
                            break

        self.close()
        return ExploreResult(rank(screens), self.skipped, visits, clicks)

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
    ) -> tuple[Screen | None, bool]:
        """Click one candidate on the loaded ``base`` page; (new screen or None, need restore)."""
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
        if self.settle():
            return None, True
        now = normalize_url(page.url)
        try:
            info = self.extract()
            png = self.screenshot()
        except Exception:
            return None, True
        if now != base.url:  # the button navigated: a screen with its own URL
            if now in queued:
                return None, True
            queued.add(now)
            screen = self._make_screen(now, (), "", info, png, depth + 1, order)
        else:
            screen = self._make_screen(
                base.url, base.via + (cand["key"],), cand["label"], info, png, depth + 1, order
            )
        dup = next((s for s in screens if looks_same(s, screen)), None)
        if dup is not None:
            return None, now != base.url or hamming(screen.dhash, base.dhash) > 0
        return screen, True

    def _make_screen(
        self,
        url: str,
        via: tuple[str, ...],
        via_label: str,
        info: dict,
        png: bytes,
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
            title=info.get("title", ""),
            h1=info.get("h1", ""),
            app_name=info.get("appName", ""),
            text=info.get("text", ""),
            png=png,
            dhash=dhash(small),
            phash=phash(small),
            complexity=complexity(small),
            depth=depth,
            order=order,
        )

    # -- recapture at another device --------------------------------------------
    def recapture(self, emu: Emulation, screens: list[Screen]) -> list[Shot | Skipped]:
        """Capture the chosen screens again at another device, in the same order."""
        self.open(emu)
        out: list[Shot | Skipped] = []
        for screen in screens:
            reason = self.load(screen.url)
            try:
                for key in screen.via:
                    if reason:
                        break
                    info = self.extract()
                    match = next((c for c in info.get("clicks", []) if c["key"] == key), None)
                    if match is None:
                        reason = f"button {key.split('|')[2]!r} not found at this size"
                        break
                    self.click(match["index"])
                    self._page.wait_for_timeout(120)
                    reason = self.settle()
                if reason:
                    out.append(Skipped(_where(screen), reason, _kind(reason), emu.device_id))
                    continue
                info = self.extract()
                out.append(Shot(self.screenshot(), info.get("text", "")))
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


# --- ranking & naming ---------------------------------------------------------


def rank(screens: list[Screen]) -> list[Screen]:
    """Start page first, then greedily the most distinct, content-rich screen next."""
    if len(screens) <= 1:
        return list(screens)
    first, rest = screens[0], list(screens[1:])
    max_words = max(s.words for s in screens) or 1
    max_cx = max(s.complexity for s in screens) or 1.0
    chosen = [first]
    while rest:

        def score(s: Screen) -> tuple[float, int]:
            distinct = min(hamming(s.dhash, c.dhash) for c in chosen) / (DHASH_SIDE**2)
            value = (
                0.45 * min(1.0, distinct * 2.5)
                + 0.35 * s.words / max_words
                + 0.20 * s.complexity / max_cx
                - 0.04 * max(0, s.depth - 1)
                - (0.2 if s.via else 0.0)
            )
            return value, -s.order

        best = max(rest, key=score)
        chosen.append(best)
        rest.remove(best)
    return chosen


_SEPARATORS = re.compile(r"\s+[·|•—–-]\s+|\s*[|·•]\s*")
_GENERIC = {"index", "home page", "default", "main", "app", "untitled"}
_GENERIC_ROUTES = _GENERIC | {
    "home",
    "page",
    "view",
    "screen",
    "start",
    "welcome",
    "dashboard",
    "tab",
    "tabs",
    "app",
    "web",
    "mobile",
    "m",
    "www",
    "src",
    "dist",
    "public",
    "static",
    "build",
    "html",
}


def _clean_name(text: str, max_words: int = 4) -> str:
    text = re.sub(r"[^\w\s&'+]", " ", text.lower())
    words = text.split()
    if not words or len(words) > max_words:
        return ""
    name = " ".join(words)
    return name if len(name) <= 32 and name not in _GENERIC else ""


def title_parts(title: str) -> list[str]:
    return [p.strip() for p in _SEPARATORS.split(title) if p.strip()]


def app_name_from(screens: list[Screen]) -> str:
    """The app's name: a web-app meta tag, else the title part every page shares."""
    for s in screens:
        if s.app_name:
            return s.app_name
    parts = [title_parts(s.title) for s in screens if s.title]
    if len(parts) >= 2:
        common = set(parts[0]).intersection(*map(set, parts[1:]))
        if common:
            return next(p for p in parts[0] if p in common)
    if parts and len(parts[0]) >= 2:
        return parts[0][-1]
    return ""


def name_screens(screens: list[Screen], app_name: str = "") -> None:
    """Short lowercase names from title (minus the app's name), main heading, or route."""
    common = {app_name.lower()} if app_name else set()
    titles = [title_parts(s.title) for s in screens]
    if len(screens) >= 2:
        shared = set(titles[0]).intersection(*map(set, titles[1:])) if titles else set()
        common |= {p.lower() for p in shared}
    used: dict[str, int] = {}
    for i, s in enumerate(screens):
        own = [p for p in title_parts(s.title) if p.lower() not in common]
        candidates = []
        if s.via and s.via_label:
            candidates.append(s.via_label)
        route = _route_name(s.url)
        if re.fullmatch(r"[a-z]+( [a-z]+)?", route) and route not in _GENERIC_ROUTES:
            candidates.append(route)  # developers name routes by what the screen is
        candidates += own[:1] + [s.h1, route]
        name = next((n for n in map(_clean_name, candidates) if n), "")
        if not name:
            name = "home" if i == 0 else f"screen {i + 1}"
        if name in used:
            used[name] += 1
            name = f"{name} {used[name]}"
        else:
            used[name] = 1
        s.name = name


def _route_name(url: str) -> str:
    p = urlsplit(url)
    path = p.fragment.lstrip("/!") if p.fragment.startswith(("/", "!")) else p.path
    segs = [seg for seg in path.split("/") if seg]
    if not segs:
        return ""
    last = re.sub(r"\.(html?|php|aspx?|jsp)$", "", segs[-1], flags=re.I)
    return re.sub(r"[-_.]+", " ", last)


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
    return f"failed to load ({m.group(1)})" if m else f"failed to load ({msg})"


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
