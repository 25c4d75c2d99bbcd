"""The capture stage: a project (a web app's URL or a folder of screenshots) in, the frame
``read_screenshots`` returns out; see the package's docstring.
"""

from __future__ import annotations

import inspect
import io
import json
import logging
import re
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ParamSpec
from urllib.parse import urlsplit

import pandas as pd
from PIL import Image

from ... import columns as C
from ...errors import InvalidOptionError
from ...ids import is_locale
from ...locales import DEFAULT_LOCALE
from ...statusbar import top_color
from .browser import emulation
from .devices import resolve_devices
from .folders import capture_folder
from .manifest import write_capture
from .network import NetworkPolicy
from .report import CaptureReport
from .web import capture_web, load_storage_state, parse_login, run_outside_event_loop

log = logging.getLogger("shotsmith.capture")
P = ParamSpec("P")
_said = {"sandbox": False}  # what is logged once per process


def capture_report(
    source: str | Path,
    *,
    platforms: Sequence[str] | str | None = None,
    device_sizes: Sequence[str | float] | str | None = None,
    locale: str = DEFAULT_LOCALE,
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
    allow_writes: bool = False,
    allow_write: Sequence[str] | str = (),
    allow_origins: Sequence[str] | str = (),
    video: bool = False,
) -> CaptureReport:
    """Like :func:`capture`, returning a :class:`CaptureReport` (frame + skipped + notes,
    the requests blocked, why exploring stopped)."""
    _check_limits(max_screens, timeout_s, page_timeout_s)
    locale = _checked_locale(locale)
    if video and out_dir is None:
        raise InvalidOptionError("video=True needs out_dir: the preview videos are files.")
    credentials = parse_login(login)
    state = load_storage_state(storage_state)
    started = time.monotonic()
    text = str(source).strip() if isinstance(source, (str, Path)) else ""
    recording: tempfile.TemporaryDirectory[str] | None = None
    if re.match(r"^https?://", text, re.I):
        if not urlsplit(text).hostname:
            raise InvalidOptionError(f"{text!r} is not a usable URL (no host).")
        devices = resolve_devices(platforms, device_sizes, supports_ipad=supports_ipad)
        policy = _network_policy(text, allow_writes, allow_write, allow_origins)
        recording = _recording_folder() if video else None
        report = run_outside_event_loop(
            capture_web,
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
            policy=policy,
            pinned=isinstance(device_sizes, (int, float)) or bool(device_sizes),
            video_dir=recording.name if recording is not None else None,
        )
    else:
        _check_folder_options(source, video=video, signs_in=bool(credentials) or state is not None)
        report = capture_folder(
            _folder(source, text),
            platforms=platforms,
            device_sizes=device_sizes,
            locale=locale,
            max_screens=max_screens,
            project_name=project_name,
            bundle_id=bundle_id,
            supports_ipad=supports_ipad,
        )
    report.seconds = time.monotonic() - started
    _log_report(report)
    if out_dir is not None:
        _write_report(report, Path(out_dir), recording)
    return report


def _check_limits(max_screens: int, timeout_s: float, page_timeout_s: float | None) -> None:
    if not isinstance(max_screens, int) or isinstance(max_screens, bool) or max_screens < 1:
        raise InvalidOptionError(f"max_screens must be a whole number >= 1, got {max_screens!r}")
    if not timeout_s or timeout_s <= 0:
        raise InvalidOptionError(f"timeout_s must be > 0 seconds, got {timeout_s!r}")
    if page_timeout_s is not None and page_timeout_s <= 0:
        raise InvalidOptionError(f"page_timeout_s must be > 0 seconds, got {page_timeout_s!r}")


def _checked_locale(locale: str) -> str:
    if not is_locale(locale):
        raise InvalidOptionError(f"locale must be a BCP 47 tag such as en-US, got {locale!r}")
    return locale.strip().replace("_", "-")


def _check_folder_options(source: object, *, video: bool, signs_in: bool) -> None:
    """Refuse what only a web app's capture does: a video, signing in."""
    if video:
        raise InvalidOptionError(
            f"video=True records a web app's exploration (an http(s):// URL), not a folder "
            f"of screenshots ({source!r})."
        )
    if signs_in:
        raise InvalidOptionError(
            "login and storage_state are for capturing a web app (an http(s):// URL), "
            f"not a folder of screenshots ({source!r})."
        )


def _folder(source: object, text: str) -> Path:
    """The folder of screenshots ``source`` names, or an error saying what it is instead."""
    if text and Path(text).is_dir():
        return Path(text)
    if text and Path(text).exists():
        raise InvalidOptionError(
            f"{text}: a file; capture takes a web app URL (http://...) or a folder of screenshots."
        )
    raise InvalidOptionError(
        f"{source!r} is neither a web app URL (http:// or https://) nor "
        "an existing folder of screenshots."
    )


def _network_policy(
    url: str,
    allow_writes: bool,
    allow_write: Sequence[str] | str,
    allow_origins: Sequence[str] | str,
) -> NetworkPolicy:
    """What the capture of ``url`` lets through: its own origin and those allowed, and
    no write unless allowed (one pattern or several)."""

    def listed(value: Sequence[str] | str) -> list[str]:
        return [value] if isinstance(value, str) else list(value)

    return NetworkPolicy(
        url,
        allow_writes=bool(allow_writes),
        allow_write=listed(allow_write),
        allow_origins=listed(allow_origins),
    )


def _recording_folder() -> tempfile.TemporaryDirectory[str]:
    """A folder for the browser's recordings, once ffmpeg is known to be there."""
    from ...video import playwright_ffmpeg

    playwright_ffmpeg()
    return tempfile.TemporaryDirectory(prefix="shotsmith-rec-")


def _log_report(report: CaptureReport) -> None:
    """The pages skipped (info), the notes and the browser's sandbox (warnings)."""
    for s in report.skipped:
        log.info("capture skipped %s: %s", s.url, s.reason)
    for note in report.notes:
        log.warning("capture: %s", note)
    if report.sandbox and not _said["sandbox"]:  # once per process: it is the machine's
        _said["sandbox"] = True
        log.warning("capture: %s", report.sandbox)


def _write_report(
    report: CaptureReport,
    out_dir: Path,
    recording: tempfile.TemporaryDirectory[str] | None,
) -> None:
    """The screenshots and manifest into ``out_dir``, and the preview videos made from
    the recordings (removed after)."""
    report.frame = write_capture(
        report.frame,
        out_dir,
        skipped=report.skipped,
        source=report.source,
        titles=report.titles,
        notes=report.notes,
        sign_in_url=report.sign_in_url,
        report=report.as_dict() if report.network else None,
    )
    if recording is not None:
        with recording:
            _write_videos(report, Path(recording.name), out_dir / "video")


def _write_videos(report: CaptureReport, recorded: Path, out: Path) -> None:
    """The App Store preview and Play promo clip from the recordings (see shotsmith.video),
    under the status bar drawn on the first screenshot; the report's notes say where."""
    from ...video import FOOTAGE_CUTS, make_previews, recordings_in

    band, background = None, (255, 255, 255)
    frame = report.frame
    if len(frame) and report.devices:
        first = frame.iloc[0]
        device = next((d for d in report.devices if d.id == first[C.DEVICE]), report.devices[0])
        ref = first[C.IMAGE]
        with Image.open(io.BytesIO(ref) if isinstance(ref, bytes) else ref) as im:
            image = im.convert("RGB")
        height = emulation(device).band_px
        if height > 0:
            band = image.crop((0, 0, image.width, height))
        background = top_color(image.crop((0, height, image.width, height + 8)))
    cuts_file = recorded / FOOTAGE_CUTS  # what the explorer judged no screen
    cuts = json.loads(cuts_file.read_text()) if cuts_file.is_file() else {}
    written = make_previews(
        recordings_in(recorded), out, band=band, background=background, cuts=cuts
    )
    for store, path in written.items():
        what = "App Store app preview" if store == "app_store" else "Google Play promo clip"
        report.notes.append(f"{what}: {path}")
    report.videos = {store: str(path) for store, path in written.items()}


def _returns_frame(
    report: Callable[P, CaptureReport],
) -> Callable[[Callable[..., Any]], Callable[P, pd.DataFrame]]:
    """Make the decorated stub ``report``'s twin that returns only the frame: one signature
    for both (editors and type checkers see it), the stub's own name and docstring."""

    def decorate(stub: Callable[..., Any]) -> Callable[P, pd.DataFrame]:
        def frame_only(*args: P.args, **kwargs: P.kwargs) -> pd.DataFrame:
            return report(*args, **kwargs).frame

        for name in ("__module__", "__name__", "__qualname__", "__doc__"):
            setattr(frame_only, name, getattr(stub, name))
        signature = inspect.signature(report).replace(return_annotation="pd.DataFrame")
        setattr(frame_only, "__signature__", signature)  # noqa: B010
        return frame_only

    return decorate


@_returns_frame(capture_report)
def capture() -> None:
    """Raw screenshots of a web app (URL) or a screenshot folder, as a read_screenshots
    frame.

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

    Read-only by construction: while exploring, a POST, PUT, PATCH or DELETE (or a
    WebSocket message) that follows a press is aborted, whatever the control's label said;
    a page's own requests while it loads are reads (a GraphQL query still renders). Only
    the start URL's origin loads (``allow_origins`` adds others). ``allow_writes=True``
    lets every write through, ``allow_write=["*/api/search", "re:/graphql$"]`` some (URL
    globs, or regexes after ``re:``). What was blocked is in the report (``blocked``).
    Every hop of a redirect is checked, and an address that is loopback, private,
    link-local or the cloud metadata service is refused unless the app itself runs on
    such a network (docs/capture.md).

    Without ``device_sizes``, an app whose start page is a desktop layout at a phone's
    width is captured at a tablet instead (the report's ``device_switch`` says why); with
    them, desktop-layout pages are not kept as phone screens.

    ``video=True`` (with ``out_dir``) also films the exploration and writes
    ``video/app-preview.mp4`` (App Store, 886x1920) and ``video/play-promo.mp4`` (Google
    Play, 1080x1920) there: H.264, 30 fps, 15-30 s, a silent stereo track; the report's
    ``videos`` names them (docs/capture.md).
    """
