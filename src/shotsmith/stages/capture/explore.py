"""The web-app explorer behind :func:`shotsmith.stages.capture.capture`.

Playwright drives a Chromium that emulates one device at a time. Starting at the start
URL, the explorer visits the app breadth first: it follows the app's own same-origin links
and presses its tabs and buttons, watching the URL and the screen for a change. What it
keeps is what a marketer would put in a store listing, so it is strict about what a
*screen* is (each page is loaded, read and photographed by :mod:`.session`; the judgement
itself lives in :mod:`.pages`, :mod:`.urls` and :mod:`.similarity`):

* only HTML documents: a response's status and content type are checked (JSON, text,
  CSV, downloads, HTTP >= 400 are skipped), and so is its content (an error page served
  with 200, a blank page);
* settled, not transient: the DOM has stopped changing and shows content; cookie
  banners, toasts and framework warning overlays are hidden; what the page opened by
  itself is closed (Escape, a click outside it, its dismiss button; the report says so) or
  the photo is refused; controls that only open menus are never pressed, nor anything
  that reads like it changes the user's data;
* local views explored: tabs, sort headers (two per table), and choices that change what
  is shown (a dropdown's next option, a slider's other end, a segmented control's other
  segment); the controls of a state a press found are explored in turn (reached again
  by loading its page and pressing what led there); each press and its outcome is
  reported (``pressed``);
* the right device: a start page that is a desktop layout at a phone's width raises
  :class:`DesktopLayout`, and the capture goes on at a tablet (or, the device pinned,
  keeps no desktop page and says why);
* one photo per screen: a page or state that looks the same as one kept (perceptual
  hashes), shows the same lines in another order, or nearly the same lines on the same
  layout (:func:`.similarity.same_content`) is a duplicate, reported as one;
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

import logging
import time
from dataclasses import dataclass, field
from typing import Any

from ...errors import ShotsmithError
from .browser import Emulation
from .pages import Verdict
from .rules import is_language_link, is_risky_link, rules
from .screens import PER_TEMPLATE, ExploreResult, Screen, Shot, Skipped, rank
from .session import PageSession, Refused, first_line, verdict_of
from .similarity import (
    SAME_SHAPE,
    base_with_a_little_more,
    hamming,
    looks_same,
    mostly_same_page,
    same_content,
    same_lines,
    shape_similarity,
)
from .urls import (
    collection_of,
    file_extension,
    normalize_url,
    origin_of,
    route_of,
    share_prefix,
    template_key,
)

log = logging.getLogger("shotsmith.capture")

HEADERS_PRESSED = 2  # column headers pressed per page or state (see Explorer._press)
#: pages judged no screen whose links are still followed: they loaded and read as pages of
#: the app (an About page, a dashboard with one row, a settings form), only not worth a photo
PASSED_THROUGH = ("about-page", "near-empty", "bare-form", "empty-state", "warning-page", "loading")


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
    states: list[Screen] = field(default_factory=list)  # screens a press found: their controls
    visits: int = 0
    clicks: int = 0
    forms_noted: bool = False
    failed_start: Skipped | None = None
    stopped: str = ""  # the first budget that ended exploring ("" if none did)
    not_pressed: set[str] = field(default_factory=set)  # labels reported as not pressed

    def stop(self, why: str) -> None:
        self.stopped = self.stopped or why

    def kept(self, template: str) -> list[Screen]:
        return [s for s in self.screens if s.template == template]

    def add(self, screen: Screen) -> None:
        self.screens.append(screen)
        if self.progress is not None and len(self.screens) <= self.max_screens:
            self.progress.update(1)


class DesktopLayout(RuntimeError):
    """The start page lays out as a desktop page at a phone's width: capture a tablet.

    A control-flow signal: raised out of :meth:`Explorer.explore` and caught by the
    capture, which starts again at a tablet; never raised to the user."""

    def __init__(self, url: str, reason: str, device: str):
        super().__init__(f"{url}: {reason}")
        self.url, self.reason, self.device = url, reason, device


class Explorer(PageSession):
    """Explore one web app in one browser; capture screens at several emulated devices.

    Where to go next and what to keep: pages breadth first (the least-visited template
    first), then the page's tabs and buttons; duplicates, other templates beyond two screens
    and sign-in walls are left out with their reason. How each page is loaded, read and
    photographed is :class:`PageSession`'s.
    """

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
        self.desktop_declined = ""
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
        self.pressed: list[dict[str, str]] = []
        while run.queue or run.deferred or run.states:
            if run.queue:
                url, depth = self._next(run.queue, run.visited_templates)
                if self._visit(url, depth, run, emu, first=run.visits == 0 and not run.screens):
                    break  # the start page failed: nothing can be done without it
            elif run.deferred:
                base, final, depth = run.deferred.pop(0)
                self._press_later(base, final, depth, run)
            else:
                self._press_within(run.states.pop(0), run)
        if self.sign_in_url and self.login is None:
            self.notes.append(sign_in_note(self.sign_in_url, self.storage_state is not None))
        self.close()
        if run.failed_start is not None:
            stopped = f"the start page is no screen ({run.failed_start.reason})"
        else:
            stopped = run.stopped or (
                "nothing more to follow: every same-origin link and navigation control found "
                f"was tried ({run.visits} page(s) loaded, {run.clicks} press(es))"
            )
        return ExploreResult(
            rank(run.screens),
            self.skipped,
            run.visits,
            run.clicks,
            self.sign_in_url,
            self.notes,
            stopped,
            self.pressed,
        )

    def _visit(self, url: str, depth: int, run: _Run, emu: Emulation, *, first: bool) -> bool:
        """Load one queued page and take what it offers; True when the start page failed."""
        if self._out_of_budget(url, run) or self._template_full(url, run):
            return False
        run.visits += 1
        template = template_key(url, self._collections)
        run.visited_templates[template] = run.visited_templates.get(template, 0) + 1
        log.debug("visit %s (template %s, %.1f s left)", url, template, self.remaining())
        since = time.monotonic()
        final = self._open_page(url, run, emu, first=first)
        if final is None:
            self.leave_out_of_footage(since)
            return run.failed_start is not None and first
        screen = self._take_page(final, depth, run, emu, first=first)
        if screen is None:
            self.leave_out_of_footage(since)
            return False
        links, candidates, forms = self._last_links, self._last_clicks, self._last_forms
        if screen.sign_in:
            self.sign_in_url = self.sign_in_url or final
            if any(s.sign_in for s in run.screens):
                self.skipped.append(
                    Skipped(route_of(final), "another sign-in form: kept once", "sign-in")
                )
                return False
        kept = self._keep_page(screen, final, run)
        if not kept:
            self.leave_out_of_footage(since)
        if not screen.sign_in:
            self._note_not_pressed(final, run)
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
        if not kept or screen.sign_in:
            return False
        now = [c for c in candidates if c["kind"] in ("tab", "hash", "choice")]
        if len(now) < len(candidates):
            run.deferred.append((screen, final, depth))
        self._press(screen, final, depth, now, run)
        return False

    def _out_of_budget(self, url: str, run: _Run) -> bool:
        """Enough screens found, or the page or time budget used up: the page is not visited
        (and the report says why)."""
        if len(run.screens) >= run.explore_limit:
            why = "enough screens found"
            run.stop(f"enough screens found ({len(run.screens)}: max_screens and a few more)")
        elif run.visits >= run.max_visits:
            why = "time or page budget used up"
            run.stop(f"page budget used up ({run.visits} pages loaded)")
        elif self.remaining() < 1.0:
            why = "time or page budget used up"
            run.stop("time budget used up (timeout_s / --timeout)")
        else:
            return False
        self.skipped.append(Skipped(route_of(url), f"not visited: {why}", "budget"))
        return True

    def _template_full(self, url: str, run: _Run) -> bool:
        """The page's template has its screens, or was visited enough: not visited."""
        if not run.screens:
            return False
        template = template_key(url, self._collections)
        same = run.kept(template)
        if run.visited_templates.get(template, 0) > PER_TEMPLATE:
            why = f"not visited: {PER_TEMPLATE + 1} pages of its template were visited already"
        elif len(same) >= PER_TEMPLATE:
            why = (
                f"not visited: the same page template as {_where(same[0])} "
                f"(at most {PER_TEMPLATE} screens per template)"
            )
        else:
            return False
        self.skipped.append(Skipped(route_of(url), why, "template"))
        return True

    def _open_page(self, url: str, run: _Run, emu: Emulation, *, first: bool) -> str | None:
        """Load ``url``; where it landed, or None when it is no page to take (the start page
        failing sets ``run.failed_start``)."""
        try:
            verdict = self.load(url)
        except ShotsmithError:
            raise
        except Exception as exc:  # whatever the page did, the others still count
            verdict = Verdict(f"could not load ({first_line(exc)})", "error")
            self._new_page()
        if verdict:
            if first:
                run.failed_start = Skipped(url, verdict.reason, verdict.kind)
                self.skipped.append(run.failed_start)
            else:
                self.skipped.append(
                    Skipped(route_of(url), verdict.reason, verdict.kind, emu.device_id)
                )
            return None
        final = normalize_url(self._page.url)
        if first:  # ... and where it lands is the app's origin
            self.origin = origin_of(final)
        landed = next((s for s in run.screens if s.url == final and not s.via), None)
        if final != url and landed is not None:
            self.skipped.append(
                Skipped(
                    route_of(url),
                    f"asks for a sign-in (goes to {route_of(final)})"
                    if landed.sign_in
                    else f"duplicate: redirects to {route_of(final)}",
                    "sign-in" if landed.sign_in else "duplicate",
                )
            )
            return None
        run.queued.add(final)
        return final

    def _take_page(
        self, final: str, depth: int, run: _Run, emu: Emulation, *, first: bool
    ) -> Screen | None:
        """Photograph the loaded page; None when it is no screen (the reason is recorded,
        and the links of a page that is no screen but a way to others are followed)."""
        try:
            return self.photograph(final, (), "", depth, len(run.screens), loaded=True)
        except Refused as refused:
            # the start page, or the first page after it (a start page that showed little,
            # a loading state, links into a desktop app), or any page while none is kept
            # yet (the start page was judged no screen): capture the app at a tablet
            screens = run.screens
            early = self.switch_device and (
                not screens or (len(screens) == 1 and not screens[0].via)
            )
            if refused.verdict.kind == "desktop-layout" and (first or early):
                self._desktop_start(final, refused.verdict.reason, emu)
            self.skipped.append(
                Skipped(
                    route_of(final), refused.verdict.reason, refused.verdict.kind, emu.device_id
                )
            )
            if refused.verdict.kind in PASSED_THROUGH:  # no screen, but a way to the others
                self._follow_links(self._last_links, depth, run.queue, run.queued, run.other_origin)
        except ShotsmithError:
            raise
        except Exception as exc:
            self.skipped.append(
                Skipped(
                    route_of(final),
                    f"could not capture ({first_line(exc)})",
                    "error",
                    emu.device_id,
                )
            )
            self._new_page()
        return None

    def _keep_page(self, screen: Screen, final: str, run: _Run) -> bool:
        """Keep a page's screen unless it repeats one kept (the same look, mostly the same
        lines through another query) or its template has its screens; True when kept."""
        screens = run.screens
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
        if (dup := next((s for s in screens if looks_same(s, screen)), None)) is not None:
            why, kind = f"duplicate: looks the same as {_where(dup)}", "duplicate"
        elif (dup := next((s for s in screens if mostly_same_page(s, screen)), None)) is not None:
            why = (
                f"duplicate: mostly the same lines as {_where(dup)} (another query of the "
                "same page)"
            )
            kind = "duplicate"
        elif (dup := next((s for s in screens if same_content(s, screen)), None)) is not None:
            why = f"duplicate: nearly the same lines as {_where(dup)} on the same layout"
            kind = "duplicate"
        elif screens and len(run.kept(screen.template)) >= PER_TEMPLATE:
            why = (
                f"the same page template as {_where(run.kept(screen.template)[0])} "
                f"(at most {PER_TEMPLATE} screens per template)"
            )
            kind = "template"
        else:
            run.add(screen)
            return True
        self.skipped.append(Skipped(route_of(final), why, kind))
        return False

    def _desktop_start(self, url: str, reason: str, emu: Emulation) -> None:
        """The start page is a desktop layout at this phone: switch to a tablet (raises
        :class:`DesktopLayout`) unless the user pinned the device, then say why not."""
        why = reason.split(": ", 1)[-1]
        if self.switch_device:
            raise DesktopLayout(route_of(url), why, emu.device_id)
        self.desktop_declined = (
            f"{route_of(url)} is a desktop layout at the {emu.width} pt phone screen ({why}); "
            "the device was pinned (--size / device_sizes), so capture did not switch to a "
            "tablet and keeps no desktop page as a phone screen. Capture a tablet size "
            '(--size 13, device_sizes=["13"]) or leave the size out to let capture choose.'
        )
        self.notes.append(self.desktop_declined)

    def _press_later(self, base: Screen, final: str, depth: int, run: _Run) -> None:
        """The deferred buttons of a page: load it again and press them."""
        if run.clicks >= run.max_clicks:
            run.stop(f"press budget used up ({run.clicks} presses)")
            return
        if len(run.screens) >= run.explore_limit:
            return
        if self.remaining() < 3.0:
            run.stop("time budget used up (timeout_s / --timeout)")
            return
        if self.load(final):
            return
        try:
            self.calm(loaded=True)
            candidates = self.extract()["clicks"]
        except Exception:
            return
        later = [c for c in candidates if c["kind"] not in ("tab", "hash", "choice")]
        self._press(base, final, depth, later, run)

    def _press(
        self, base: Screen, final: str, depth: int, candidates: list[dict[str, Any]], run: _Run
    ) -> None:
        """Press each candidate once on the loaded ``base`` page, watching for a change.

        Of a table's column headers two are pressed: sorting on one more column mostly
        shows the same rows in another order, and each press costs a reload."""
        headers = 0
        for cand in candidates:
            if run.clicks >= run.max_clicks:
                run.stop(f"press budget used up ({run.clicks} presses)")
                break
            if len(run.screens) >= run.explore_limit:
                run.stop(f"enough screens found ({len(run.screens)}: max_screens and a few more)")
                break
            if self.remaining() < 2.0:
                run.stop("time budget used up (timeout_s / --timeout)")
                break
            if cand["key"] in run.tried_keys or cand["selected"]:
                continue
            if cand.get("header"):
                headers += 1
                if headers > HEADERS_PRESSED:
                    continue
            if cand.get("kind") == "choice":  # one other value per dropdown, slider, group
                control = cand["key"].rsplit("|", 1)[0]
                if control in run.tried_keys:
                    continue
                run.tried_keys.add(control)
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
                run.states.append(found)
            if restore and self.remaining() > 1.0 and not self._back_to(base):
                if not self._reach(base):
                    break  # cannot get back to this page or state: stop pressing here

    def _press_within(self, state: Screen, run: _Run) -> None:
        """The controls of a state a press found (a tab's dropdown, its sort headers): reach
        it again (load its page, press what led there) and press what is new there."""
        if run.clicks >= run.max_clicks or len(run.screens) >= run.explore_limit:
            return
        if self.remaining() < 3.0:
            run.stop("time budget used up (timeout_s / --timeout)")
            return
        if not self._reach(state):
            return
        candidates = [c for c in self._last_clicks if c["key"] not in run.tried_keys]
        self._press(state, state.url, state.depth, candidates, run)

    def _reach(self, screen: Screen) -> bool:
        """Load ``screen``'s page, close what it opens by itself, press what led to it; the
        candidates are marked. False when it cannot be reached."""
        try:
            if self.load(screen.url) or self.calm(loaded=True):
                return False
            info = self.extract()
            for key in screen.via:
                match = next((c for c in info["clicks"] if c["key"] == key), None)
                if match is None:
                    return False
                self.click(match["index"], match["label"], match.get("value"))
                self._page.wait_for_timeout(120)
                if self.settle(keep_scroll=True):
                    return False
                info = self.extract()
            return True
        except ShotsmithError:
            raise
        except Exception as exc:
            log.debug("could not reach %s again: %s", _where(screen), first_line(exc))
            return False

    def _note_not_pressed(self, url: str, run: _Run) -> None:
        """Say which controls of a page were left alone: actions, and controls in doubt."""
        info = self._info or {}
        for key, kind, why in (
            ("actions", "action", "they read as actions that change data"),
            ("unclear", "action", "unclear what they do (in doubt, a control is an action)"),
        ):
            labels = [label for label in info.get(key, []) if label not in run.not_pressed]
            if not labels:
                continue
            run.not_pressed.update(labels)
            shown = ", ".join(repr(label) for label in labels[:6])
            more = f" and {len(labels) - 6} more" if len(labels) > 6 else ""
            self.skipped.append(
                Skipped(
                    route_of(url),
                    f"{len(labels)} control(s) not pressed, {why}: {shown}{more}",
                    kind,
                )
            )

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
        label = cand["label"] or "a button"
        blocked_before = len(self._blocked)

        def done(outcome: str, found: Screen | None = None, restore: bool = True):
            self.pressed.append(
                {
                    "page": _where(base),
                    "control": label,
                    "kind": cand.get("kind", ""),
                    "outcome": outcome,
                }
            )
            return found, restore

        def refused() -> str:
            return self._policy_refusal(blocked_before, _after(base, label), other_origin)

        if why := self._press_control(base, cand):
            return done(why)
        if why := refused():
            return done(why)
        page = self._page
        now = page.url
        if not now.startswith(("http:", "https:")) or origin_of(now) != self.origin:
            return done("left the app")
        if self.settle(keep_scroll=True):
            return done("the page did not settle")
        if why := refused():  # a write the page sent a moment later (a WebSocket message)
            return done(why)
        now = normalize_url(page.url)
        if now != base.url:  # the button navigated: a page of its own, judged as a link is
            if now not in queued and not is_risky_link(now):
                queued.add(now)
                queue.insert(0, (now, depth + 1))
            return done(f"opened {route_of(now)} (visited as a page)")
        template = _state_template(base.template, cand)
        if full is not None and full(template):
            return done(f"not photographed: {PER_TEMPLATE} screens of its kind already")
        try:
            screen = self.photograph(
                base.url, base.via + (cand["key"],), cand["label"], depth + 1, order, loaded=False
            )
        except Refused as no:
            self.skipped.append(Skipped(_after(base, label), no.verdict.reason, no.verdict.kind))
            return done(f"rejected: {no.verdict.reason}")
        except ShotsmithError:
            raise
        except Exception as exc:
            return done(f"could not be photographed ({first_line(exc)})")
        screen.template = template
        return done(*_state_verdict(base, screen, screens))

    def _press_control(self, base: Screen, cand: dict) -> str:
        """Press a candidate and wait for what it started; why it could not be ('' if it
        was pressed)."""
        before_nav = self._nav_requests
        try:
            self.click(cand["index"], cand["label"], cand.get("value"))
            self._page.wait_for_timeout(120)
            if self._nav_requests != before_nav:
                self._page.wait_for_load_state("load", timeout=self._ms(self.page_timeout_s))
        except Exception as exc:
            log.debug("click %r on %s: %s", cand["label"], base.url, first_line(exc))
            return f"could not be pressed ({first_line(exc)})"
        return ""

    def _policy_refusal(self, blocked_before: int, at: str, other_origin: set[str]) -> str:
        """What a press tried that the network policy refused since ``blocked_before``
        ('' if nothing); reported once per request."""
        blocked = self._blocked[blocked_before:]
        writes = [b for b in blocked if b.kind in ("write", "websocket")]
        away = [b for b in blocked if b.kind == "other-origin" and b.navigation]
        if not (writes or away):
            return ""
        first = (writes or away)[0]
        key = f"{first.method} {first.url}"
        if key not in other_origin:
            other_origin.add(key)
            self.skipped.append(
                Skipped(
                    at,
                    f"pressing it tried to write ({first.method} {first.url}): "
                    "blocked, not photographed"
                    if writes
                    else f"it leads to another origin ({first.url}): not followed",
                    "write" if writes else "other-origin",
                )
            )
        if writes:
            return f"tried to write ({first.method} {first.url}): blocked"
        return f"leads to another origin ({first.url})"

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
                    self.click(match["index"], match["label"], match.get("value"))
                    self._page.wait_for_timeout(120)
                    reason = self.settle(keep_scroll=True)
                    verdict = verdict_of(reason) if reason else None
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
            except Refused as refused:
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
                        f"could not capture ({first_line(exc)})",
                        "error",
                        emu.device_id,
                    )
                )
                self._new_page()
        self.close()
        return out


def _state_verdict(
    base: Screen, screen: Screen, screens: list[Screen]
) -> tuple[str, Screen | None, bool]:
    """What the state a press left is: (the outcome, the screen when it is a new one,
    whether the page needs restoring)."""
    same = next((s for s in screens if same_lines(s, screen)), None)
    if same is not None:
        return f"the same content as {_where(same)} in another order", None, True
    if base_with_a_little_more(base, screen):
        return f"the same screen as {_where(base)} with a few lines more (a menu)", None, True
    dup = next((s for s in screens if looks_same(s, screen)), None)
    if dup is not None:
        return f"looks the same as {_where(dup)}", None, hamming(screen.dhash, base.dhash) > 0
    dup = next((s for s in screens if same_content(s, screen)), None)
    if dup is not None:
        return f"nearly the same lines as {_where(dup)} on the same layout", None, True
    return "a new screen", screen, True


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


def _after(base: Screen, label: str) -> str:
    """Where a press happened: the page, and the presses that led to the state pressed in."""
    route = route_of(base.url)
    if base.via:
        return f"{route} (after pressing {base.via_label!r}, then {label!r})"
    return f"{route} (after pressing {label!r})"


def _where(screen: Screen) -> str:
    route = route_of(screen.url)
    return f"{route} (after pressing {screen.via_label!r})" if screen.via else route
