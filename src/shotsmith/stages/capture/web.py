"""Capturing a web app: explore it at the first device, photograph the chosen screens at
each other device, and finish each photo (exact native pixels, the status bar drawn in
the band the page was laid out below).

An app behind a sign-in is passed with the user's credentials (:func:`parse_login`) or
a saved Playwright storage state (:func:`load_storage_state`), both checked before any
browser starts.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import io
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
from PIL import Image

from ... import columns as C
from ...errors import CaptureError, InputFileError, InvalidOptionError, ToolMissingError
from ...ids import slugify
from ...png import encode_png
from ...statusbar import draw_status_bar, top_color
from .browser import (
    CHROMIUM_ARGS,
    SANDBOX_NOTE,
    SANDBOXED_ARGS,
    Watchdog,
    emulation,
    find_browser,
    marker,
    sandbox_first,
)
from .devices import CaptureDevice, tablet_for
from .explore import DesktopLayout, Explorer
from .naming import app_name_from, host_name, name_screens
from .network import NetworkPolicy
from .report import FRAME_COLUMNS, CaptureReport
from .screens import ExploreResult, Screen, Shot, Skipped
from .urls import route_of


def parse_login(
    login: str | tuple[str, str] | list[str] | None, password: str = ""
) -> tuple[str, str] | None:
    """``"user:password"`` or ``(user, password)`` -> (user, password); a clear error if not.

    A bare ``"user"`` takes ``password`` (the command line passes
    ``$SHOTSMITH_LOGIN_PASSWORD``, read by :mod:`shotsmith.settings`, so it need not appear
    on a command line).
    """
    if login is None or login == "":
        return None
    if isinstance(login, str):
        user, sep, given = login.partition(":")
        if sep:
            password = given
        elif not password:
            raise InvalidOptionError(
                "login must be USER:PASSWORD (or, on the command line, set "
                "$SHOTSMITH_LOGIN_PASSWORD and pass just USER); got a user name without a "
                "password."
            )
    elif isinstance(login, (tuple, list)) and len(login) == 2:
        user, password = (str(v) for v in login)
    else:
        raise InvalidOptionError(
            f"login must be 'USER:PASSWORD' or a (user, password) pair, got {type(login).__name__}"
        )
    if not password:
        raise InvalidOptionError(
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
            raise InputFileError(
                f"storage state {path}: no such file. Save one after signing in (Playwright: "
                "context.storage_state(path=...)) or pass --login USER:PASSWORD instead."
            )
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InputFileError(
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
        raise InputFileError(
            f"{where}: not a Playwright storage state (expected an object with 'cookies' and "
            "'origins' lists, as context.storage_state(path=...) writes)."
        )
    return {"cookies": list(data.get("cookies", [])), "origins": list(data.get("origins", []))}


def run_outside_event_loop(fn: Any, *args: Any, **kwargs: Any) -> Any:
    """Playwright's sync API refuses to run inside an asyncio loop (notebooks, servers)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return fn(*args, **kwargs)
    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="shotsmith-capture") as ex:
        return ex.submit(fn, *args, **kwargs).result()


def capture_web(
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
    policy: NetworkPolicy | None = None,
    pinned: bool = False,
    video_dir: str | None = None,
) -> CaptureReport:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        raise ToolMissingError(
            "capturing a web app needs Playwright: pip install "
            "'shotsmith[capture]' (and a Chromium)."
        ) from exc

    policy = policy if policy is not None else NetworkPolicy(url)
    t0 = time.monotonic()
    mark = marker()
    bar = _progress(progress, max_screens * len(devices))
    run = _WebRun(
        url=url,
        devices=devices,
        policy=policy,
        started=t0,
        timeout_s=timeout_s,
        max_screens=max_screens,
        bar=bar,
        options={
            "locale": locale,
            "allow_forms": allow_forms,
            "page_timeout_s": page_timeout_s or min(15.0, max(3.0, timeout_s / 4)),
            "login": login,
            "storage_state": storage_state,
            "policy": policy,
            "switch_device": not pinned,
        },
        video_dir=video_dir,
    )
    try:
        with Watchdog(mark, t0 + timeout_s + 15), sync_playwright() as pw:
            browser, sandbox_note = _launch(pw, browser_path, mark, timeout_s)
            try:
                run.explore(browser)
                run.recapture(project_name)
            finally:
                try:
                    browser.close()
                except Exception:
                    pass
    finally:
        if bar is not None:
            bar.close()
    return run.report(
        app=run.app,
        bundle_id=bundle_id,
        locale=locale,
        status_bar=status_bar,
        sandbox_note=sandbox_note,
    )


@dataclass
class _WebRun:
    """One capture of a web app: explored at the first device (a tablet instead when the
    app is a desktop layout), the chosen screens photographed again at the others."""

    url: str
    devices: list[CaptureDevice]
    policy: NetworkPolicy
    started: float
    timeout_s: float
    max_screens: int
    bar: Any
    options: dict[str, Any]
    video_dir: str | None
    major: str = "131"
    device_switch: dict[str, Any] = field(default_factory=dict)
    skipped: list[Skipped] = field(default_factory=list)
    shots: dict[str, list[Shot | Skipped]] = field(default_factory=dict)
    chosen: list[Screen] = field(default_factory=list)
    app: str = ""
    explorer: Explorer = field(init=False)
    result: ExploreResult = field(init=False)

    def _explore(self, browser: Any) -> None:
        devices = self.devices
        share = 0.7 if len(devices) > 1 else 1.0  # the other devices need time too
        explorer = Explorer(
            browser,
            self.url,
            deadline=self.started + self.timeout_s * share,
            **self.options,
        )
        explorer.record_video_dir = self.video_dir  # the exploration, as video
        # look beyond max_screens so ranking has a choice (the start page first)
        n = self.max_screens
        limit = 1 if n == 1 else n + max(4, n)
        self.result = explorer.explore(
            emulation(devices[0], self.major), max_screens=n, explore_limit=limit, progress=self.bar
        )
        self.explorer = explorer

    def explore(self, browser: Any) -> None:
        """Explore at the first device; at tablets instead when the start is a desktop
        layout. Raises CaptureError when no screen came back."""
        self.major = (browser.version or "131").split(".")[0]
        try:
            self._explore(browser)
        except DesktopLayout as found:
            self.devices, self.device_switch = _tablets_instead(self.devices, found)
            if not self.device_switch.get("to"):
                raise CaptureError(
                    f"could not capture {self.url}: {self.device_switch['reason']}"
                ) from None
            self._explore(browser)
            self.result.notes.insert(0, _switch_line(self.device_switch))
        declined = self.explorer.desktop_declined
        if declined:
            self.device_switch = {"from": self.devices[0].id, "to": None, "reason": declined}
        if not self.result.screens:
            why = self.result.skipped[-1].reason if self.result.skipped else "unknown error"
            if declined:
                raise CaptureError(f"could not capture {self.url}: {declined}")
            blocked = "".join(f"\n  blocked {b}" for b in self.policy.blocked[:5])
            raise CaptureError(
                f"could not capture {self.url}: the start page could not be loaded: {why}. "
                f"Check that the web app is running and the URL is right.{blocked}"
            )

    def recapture(self, project_name: str | None) -> None:
        """Choose and name the screens, and photograph them at the other devices."""
        result, n = self.result, self.max_screens
        self.chosen = result.screens[:n]
        for extra in result.screens[n:]:
            self.skipped.append(
                Skipped(
                    route_of(extra.url),
                    f"ranked below the first {n} screens (max_screens)",
                    "budget",
                )
            )
        self.app = project_name or app_name_from(result.screens) or host_name(self.url)
        name_screens(self.chosen, self.app)
        self.shots[self.devices[0].id] = [
            Shot(s.png, s.text, s.offset, s.elements, s.url, s.title) for s in self.chosen
        ]
        explorer = self.explorer
        explorer.deadline = self.started + self.timeout_s
        explorer.record_video_dir = None  # the other devices are not filmed
        for device in self.devices[1:]:
            self.shots[device.id] = explorer.recapture(emulation(device, self.major), self.chosen)
            if self.bar is not None:
                self.bar.update(sum(isinstance(s, Shot) for s in self.shots[device.id]))
        self.skipped = explorer.skipped + self.skipped

    def report(
        self, *, app: str, bundle_id: str, locale: str, status_bar: bool, sandbox_note: str
    ) -> CaptureReport:
        result = self.result
        rows, titles = _web_frame(
            self.chosen,
            self.shots,
            self.devices,
            app=app,
            bundle_id=bundle_id,
            locale=locale,
            status_bar=status_bar,
            skipped=self.skipped,
        )
        return CaptureReport(
            frame=rows,
            skipped=self.skipped,
            devices=self.devices,
            source=self.url,
            explored=len(result.screens),
            visited=result.visited,
            sign_in_url=result.sign_in_url,
            notes=list(dict.fromkeys(result.notes)),
            sandbox=sandbox_note,
            titles=titles,
            blocked=list(self.policy.blocked),
            network=self.policy.summary(),
            stopped=result.stopped,
            clicks=result.clicks,
            device_switch=self.device_switch,
            pressed=list(result.pressed),
        )


def _launch(pw: Any, browser_path: str | None, mark: str, timeout_s: float) -> tuple[Any, str]:
    """Start Chromium with its sandbox when it can (not as root), else without it; the
    browser and what the report says about the sandbox ('' when it is on)."""
    options = dict(
        executable_path=find_browser(browser_path), timeout=max(5000, min(30000, timeout_s * 500))
    )
    if sandbox_first():
        try:
            return pw.chromium.launch(args=SANDBOXED_ARGS + [mark], **options), ""
        except Exception:
            why = "it would not start with it here (no user namespaces or setuid helper)"
    else:
        why = "capture runs as root, and Chromium does not start as root with its sandbox"
    try:
        browser = pw.chromium.launch(args=CHROMIUM_ARGS + [mark], **options)
    except Exception as exc:
        raise ToolMissingError(
            f"could not start Chromium ({str(exc).strip().splitlines()[0]}). Install "
            "Chromium (Debian: apt-get install chromium) or pass browser_path."
        ) from exc
    return browser, SANDBOX_NOTE.format(why=why)


def _tablets_instead(
    devices: list[CaptureDevice], found: DesktopLayout
) -> tuple[list[CaptureDevice], dict[str, Any]]:
    """The devices to capture a desktop-only app at (the requested tablets, else each
    platform's tablet), and the decision as the report keeps it."""
    tablets = [d for d in devices if d.tablet]
    if not tablets:
        for platform in dict.fromkeys(d.platform for d in devices):
            tablet = tablet_for(platform)
            if tablet is not None and tablet not in tablets:
                tablets.append(tablet)
    reason = f"{found.url} is a desktop layout at a phone's width ({found.reason})"
    if not tablets:
        return devices, {"from": found.device, "to": None, "reason": reason}
    return tablets, {
        "from": found.device,
        "to": tablets[0].id,
        "reason": reason,
        "devices": [d.id for d in tablets],
    }


def _switch_line(switch: dict[str, Any]) -> str:
    return (
        f"captured at {switch['to']} instead of {switch['from']}: {switch['reason']}; a "
        "shrunk desktop page is no phone screen (pin a size with --size to choose yourself)"
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
    records: list[dict[str, Any]] = []
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
                C.SCREEN_TITLE: shot.title,
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
        page = page.resize(
            (w, max(1, round(page.height * w / page.width))), Image.Resampling.LANCZOS
        )
    if offset > 0:
        image = Image.new("RGB", (w, h), top_color(page))
        image.paste(page.crop((0, 0, w, min(page.height, h - offset))), (0, offset))
    elif page.height >= h:
        image = page.crop((0, 0, w, h))  # the viewport was rounded up by < 1 point
    else:
        image = page.resize((w, h), Image.Resampling.LANCZOS)
    if status_bar:
        image = draw_status_bar(image, device.status_bar_style())
    return encode_png(image)


def _progress(enabled: bool, total: int) -> Any:
    if not enabled:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return None
    return tqdm(total=total, desc="capture", unit="screen")
