"""A small httpx client for the /v1 interface.

::

    from shotsmith.client import Client

    with Client("http://127.0.0.1:8787", api_key) as api:
        job = api.create_design_job("shots/", project_name="Pocket Budget")
        done = api.wait(job["job_id"])
        paths = api.download(done, "out/")

Design-job responses are returned as the JSON objects docs/api.md describes (plain
dicts). Screenshot collections come back as one normalised :class:`Collection`,
whichever of the API's two response shapes the server sends (:func:`parse_collection`)::

    with Client("http://127.0.0.1:8787", api_key) as api:
        created = api.create_collection("pocket-budget", device_sizes=["6.9"])
        done = api.wait_collection("pocket-budget", created.id)
        for shot in done.generated_screenshots:
            print(shot.device_size, shot.headline, shot.url)

Every error response becomes :class:`ApiError` with the server's ``code`` and
``message``. New endpoints are one short method each over :meth:`Client.request`.

Creating is safe to retry: ``create_design_job`` and ``create_collection`` send an
``Idempotency-Key`` (a fresh UUID per call, or the one you pass) and, when the answer is
lost (a reset, a timeout) or the server asks to wait (429, 503, 409), send the same body
with the same key again: the server answers with the job it already made rather than a
second one.
"""

from __future__ import annotations

import base64
import email.utils
import json
import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote, unquote, urlsplit

import httpx
import pandas as pd

from . import columns as C
from ._version import __version__
from .errors import (
    ApiError,
    ConflictError,
    InputFileError,
    InvalidOptionError,
    JobTimeout,
    MissingColumnError,
    RemoteError,
)

T = TypeVar("T")

FINISHED = ("completed", "failed")
ImageSource = str | Path | bytes


# --- screenshot collections: one normalised result from either response shape -------------


@dataclass(frozen=True)
class CollectionScreenshot:
    """One screenshot of a collection. Fields a response shape does not carry are None
    (shape A has no screen names; shape B has no ids, steps, headlines or subtitles)."""

    url: str
    id: str | None = None
    device: str | None = None  # device id, e.g. "iphone-16-pro-max"
    device_size: str | None = None  # display class in inches, e.g. "6.9"
    screen: str | None = None
    step: int | None = None  # 1-based store position per device
    locale: str | None = None
    headline: str | None = None
    subtitle: str | None = None


@dataclass(frozen=True)
class Collection:
    """A screenshot collection (docs/api.md), from shape A (``{"collection": {...}}``) or
    shape B (flat ``{"collectionId", "status", "createdAt", "screenshots"}``).

    ``screenshots`` are the raw captures (shape A only); ``generated_screenshots`` the
    styled, store-ready ones (shape A's ``generatedScreenshots``; shape B's
    ``screenshots``, which are the results). ``data`` is the response as received.
    """

    id: str
    status: str
    created_at: str | None = None
    completed_at: str | None = None
    error: str | None = None
    name: str | None = None
    devices: list[str] = field(default_factory=list)
    total_screenshots: int | None = None
    screenshots: list[CollectionScreenshot] = field(default_factory=list)
    generated_screenshots: list[CollectionScreenshot] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def finished(self) -> bool:
        return self.status in FINISHED


@dataclass(frozen=True)
class CollectionSummary:
    """An element of the list response (docs/api.md)."""

    id: str
    status: str
    created_at: str | None = None
    screenshot_count: int | None = None
    platforms: list[str] = field(default_factory=list)
    locale: str | None = None


def parse_collection(data: Mapping[str, Any]) -> Collection:
    """A :class:`Collection` from either documented shape of Get Screenshot Collection (or
    from the create response, ``{"collectionId", "status"}``). Unknown fields are ignored;
    raises :class:`ShotsmithError` if there is no identifier or status."""
    if not isinstance(data, Mapping):
        raise RemoteError(
            f"collection response: expected a JSON object, got {type(data).__name__}."
        )
    wrapped = data.get("collection")
    body = wrapped if isinstance(wrapped, Mapping) else data
    collection_id = (
        _text(body.get("id")) or _text(body.get("collectionId")) or _text(data.get("collectionId"))
    )
    status = _text(body.get("status")) or _text(data.get("status"))
    if not collection_id or not status:
        raise RemoteError(
            "collection response: no collection identifier or status in it "
            f"(keys: {', '.join(map(str, body)) or 'none'})."
        )
    raw = [_screenshot(s) for s in _list(body.get("screenshots"))]
    if "generatedScreenshots" in body:  # shape A
        generated = [_screenshot(s) for s in _list(body.get("generatedScreenshots"))]
    else:  # shape B: its screenshots are the results
        generated, raw = raw, []
    total = body.get("totalScreenshots", body.get("screenshotCount"))
    devices = [str(d) for d in _list(body.get("devices"))] or list(
        dict.fromkeys(s.device for s in raw + generated if s.device)
    )
    error = body.get("error", data.get("error"))
    if isinstance(error, Mapping):  # tolerate an object-shaped error
        error = error.get("message") or error.get("code") or str(dict(error))
    return Collection(
        id=collection_id,
        status=status,
        created_at=_text(body.get("createdAt")) or _text(body.get("created_at")),
        completed_at=_text(body.get("completedAt")) or _text(body.get("completed_at")),
        error=_text(error),
        name=_text(body.get("name")),
        devices=devices,
        total_screenshots=total
        if isinstance(total, int) and not isinstance(total, bool)
        else len(generated or raw),
        screenshots=raw,
        generated_screenshots=generated,
        data=dict(data),
    )


def parse_collection_summary(data: Mapping[str, Any]) -> CollectionSummary:
    count = data.get("screenshotCount")
    return CollectionSummary(
        id=_text(data.get("collectionId")) or _text(data.get("id")) or "",
        status=_text(data.get("status")) or "",
        created_at=_text(data.get("createdAt")),
        screenshot_count=count if isinstance(count, int) and not isinstance(count, bool) else None,
        platforms=[str(p) for p in _list(data.get("platforms"))],
        locale=_text(data.get("locale")),
    )


def _screenshot(item: Any) -> CollectionScreenshot:
    if isinstance(item, str):  # a bare URL
        return CollectionScreenshot(url=item)
    if not isinstance(item, Mapping):
        raise RemoteError(
            f"collection response: a screenshot is {type(item).__name__}, not an object."
        )
    device = _text(item.get("device"))
    size = _text(item.get("deviceSize")) or _text(item.get("device_size"))
    step = item.get("step")
    return CollectionScreenshot(
        url=_text(item.get("url")) or "",
        id=_text(item.get("id")),
        device=device,
        device_size=_size_text(size) if size else _device_size(device),
        screen=_text(item.get("screenName")) or _text(item.get("screen")),
        step=step if isinstance(step, int) and not isinstance(step, bool) else None,
        locale=_text(item.get("locale")),
        headline=_text(item.get("headline")),
        subtitle=_text(item.get("subtitle")),
    )


def _text(value: Any) -> str | None:
    if value is None or isinstance(value, (dict, list)):
        return None
    return str(value)


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else []


def _size_text(size: str) -> str:
    """'6.9"', '6.9 in', 6.9 -> '6.9'."""
    text = size.strip().lower().rstrip('"').removesuffix("inches").removesuffix("inch")
    text = text.removesuffix("in").strip().rstrip('"')
    try:
        return f"{float(text):g}"
    except ValueError:
        return size.strip()


def _device_size(device: str | None) -> str | None:
    """The display class a device id is captured for (shape A names devices, not sizes)."""
    if not device:
        return None
    from .stages.capture import CAPTURE_DEVICES

    for table in CAPTURE_DEVICES.values():
        for size, captured in table.items():
            if captured.id == device:
                return size
    return None


#: Statuses after which a create is sent again (same key, same body): no answer (0), a key
#: still in use (409), rate limited (429), the server unable right now (5xx).
RETRY_STATUSES = frozenset({0, 409, 429, 500, 502, 503, 504})


class _WaitMeter:
    """What :meth:`Client.wait` shows while it waits: the status and the seconds waited,
    ticking every half second between polls (nothing when nobody is watching)."""

    def __init__(self, what: str, progress: bool | None):
        from .progress import bar, wanted

        self.what = what
        self.bar = (
            bar(total=None, desc=f"{what}: submitted", bar_format="{desc} [{elapsed}]")
            if wanted(progress)
            else None
        )

    def status(self, status: str) -> None:
        if self.bar is not None:
            self.bar.set_description_str(f"{self.what}: {status}", refresh=True)

    def sleep(self, seconds: float) -> None:
        if self.bar is None:
            time.sleep(seconds)
            return
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            time.sleep(min(0.5, left))
            self.bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


#: Statuses after which a create is sent again (same key, same body): no answer (0), a key
#: still in use (409), rate limited (429), the server unable right now (5xx).
RETRY_STATUSES = frozenset({0, 409, 429, 500, 502, 503, 504})


class Client:
    """``Client(base_url, api_key)``; ``http`` injects an ``httpx.Client`` (tests, proxies).
    ``retries``: how many times a create is sent again after a lost answer or a
    "try again" (see the module docstring); each wait honours ``Retry-After`` (at most
    ``max_retry_wait`` seconds)."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        timeout: float = 60.0,
        *,
        http: httpx.Client | None = None,
        retries: int = 4,
        max_retry_wait: float = 60.0,
    ):
        if not api_key:
            raise InvalidOptionError("Client: an API key is required (Authorization: Bearer ...).")
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.retries = max(0, retries)
        self.max_retry_wait = max_retry_wait
        self._owns_http = http is None
        self.http = http or httpx.Client(timeout=timeout)
        self.http.headers["User-Agent"] = f"shotsmith-client/{__version__}"

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._owns_http:
            self.http.close()

    # --- plumbing ------------------------------------------------------------------------
    def request(
        self, method: str, path: str, *, auth: bool = True, **kwargs: Any
    ) -> httpx.Response:
        """One call; ``path`` is relative to base_url or an absolute URL. Raises ApiError."""
        url = path if "://" in path else f"{self.base_url}{path}"
        headers = dict(kwargs.pop("headers", None) or {})
        if auth:
            headers["Authorization"] = f"Bearer {self.api_key}"
        try:
            response = self.http.request(method, url, headers=headers, **kwargs)
        except httpx.TimeoutException as exc:
            raise ApiError(0, "timeout", f"{method} {url}: no answer in time ({exc}).") from exc
        except httpx.HTTPError as exc:
            raise ApiError(
                0, "unreachable", f"{method} {url}: cannot reach the server ({exc}). Is it running?"
            ) from exc
        if response.status_code >= 400:
            raise _api_error(response)
        return response

    def create(
        self, path: str, body: dict[str, Any], idempotency_key: str | None = None
    ) -> httpx.Response:
        """POST ``body`` with an ``Idempotency-Key``, sending it again (same key, same
        bytes) after a lost answer or a "try again" status, up to ``retries`` times."""
        content = json.dumps(body).encode()
        headers = {
            "Content-Type": "application/json",
            "Idempotency-Key": idempotency_key or str(uuid.uuid4()),
        }
        delay = 0.5
        for attempt in range(self.retries + 1):
            try:
                return self.request("POST", path, content=content, headers=headers)
            except ApiError as exc:
                if exc.status not in RETRY_STATUSES or attempt == self.retries:
                    raise
                pause = exc.retry_after if exc.retry_after is not None else delay
                time.sleep(min(pause, self.max_retry_wait))
                delay = min(delay * 2, 8.0)
        raise AssertionError("unreachable")  # pragma: no cover

    # --- design jobs (docs/api.md, "Design jobs") --------------------------------------------
    def create_design_job(
        self,
        images: pd.DataFrame | ImageSource | Sequence[ImageSource],
        project_name: str | None = None,
        screens: Sequence[str] | None = None,
        bundle_id: str | None = None,
        device: str | None = None,
        template: str | None = None,
        webhook_url: str | None = None,
        idempotency_key: str | None = None,
    ) -> dict[str, Any]:
        """POST /v1/design. ``images``: PNG paths or bytes, a folder, or a frame from
        :func:`shotsmith.read_screenshots` (its ``image`` and ``screen`` columns).
        Returns ``{"job_id", "status", "poll_url"}``. Retried safely (module docstring);
        pass ``idempotency_key`` to make a retry from another process find the same job."""
        refs, names, frame_project, frame_bundle = _image_refs(images)
        if screens is not None:
            from .stages.read import screen_names  # the read stage's rule for names

            names = screen_names(screens, len(refs), "create_design_job")
        project = project_name or frame_project
        if not project:
            raise InvalidOptionError("create_design_job: project_name is required.")
        body: dict[str, Any] = {"project_name": project, "images": []}
        for ref, name in zip(refs, names):
            item = {"data": base64.b64encode(_read(ref)).decode("ascii"), "screen": name}
            if device:
                item["device"] = device
            body["images"].append(item)
        if bundle_id is None:
            bundle_id = frame_bundle
        for key, value in (
            ("bundle_id", bundle_id),
            ("template", template),
            ("webhook_url", webhook_url),
        ):
            if value is not None:
                body[key] = value
        return self.create("/v1/design", body, idempotency_key).json()

    def get_design_job(self, job_id: str) -> dict[str, Any]:
        """GET /v1/design/:job_id."""
        return self.request("GET", f"/v1/design/{job_id}").json()

    def wait(
        self,
        job_id: str,
        timeout: float = 600.0,
        *,
        interval: float = 0.5,
        max_interval: float = 5.0,
        progress: bool | None = None,
    ) -> dict[str, Any]:
        """Poll until the job is completed or failed (returned either way).

        The interval grows from ``interval`` to ``max_interval``; a 429 or a server
        hiccup (5xx, connection error) waits ``Retry-After`` (or the interval) and
        polls again. Raises :class:`JobTimeout` after ``timeout`` seconds.
        ``progress`` shows the job's status and the time waited (a text line in a
        terminal, a widget in Jupyter); ``None`` shows it when someone is watching.
        """
        meter = _WaitMeter(f"job {job_id}", progress)
        try:
            return self._poll(
                lambda: self.get_design_job(job_id),
                lambda job: job.get("status") in FINISHED,
                f"job {job_id}",
                timeout,
                interval,
                max_interval,
                meter,
            )
        finally:
            meter.close()

    def _poll(
        self,
        read: Callable[[], T],
        finished: Callable[[T], bool],
        what: str,
        timeout: float,
        interval: float,
        max_interval: float,
        meter: _WaitMeter | None = None,
    ) -> T:
        """The one polling loop of :meth:`wait` and :meth:`wait_collection`: ``read()``
        until ``finished``; the pause grows from ``interval`` by 1.5x to ``max_interval``;
        a 429, a 5xx or a lost connection waits ``Retry-After`` (or the pause) and reads
        again; any other API error is raised. :class:`JobTimeout` after ``timeout`` s."""
        deadline = time.monotonic() + timeout
        delay = interval
        while True:
            pause = delay
            try:
                item = read()
                if meter is not None and isinstance(item, dict):
                    meter.status(str(item.get("status")))
                if finished(item):
                    return item
            except ApiError as exc:
                if not (exc.status in (0, 429) or exc.status >= 500):
                    raise
                if meter is not None:
                    meter.status(f"waiting for the server ({exc.code})")
                pause = exc.retry_after if exc.retry_after is not None else delay
            left = deadline - time.monotonic()
            if left <= 0:
                raise JobTimeout(
                    f"{what} did not finish within {timeout:g} s; poll it again later."
                )
            if meter is not None:
                meter.sleep(min(pause, left))
            else:
                time.sleep(min(pause, left))
            delay = min(delay * 1.5, max_interval)

    # --- screenshot collections (docs/api.md, "Screenshot collections") ----------------------
    def _collections_path(self, project_id: str) -> str:
        return f"/v1/projects/{quote(project_id, safe='')}/screenshots"

    def list_collections(
        self, project_id: str, *, limit: int | None = None, before: str | None = None
    ) -> list[CollectionSummary]:
        """GET /v1/projects/:id/screenshots: summaries, newest first (one page: pass the
        last id as ``before`` for the next)."""
        params = {k: v for k, v in (("limit", limit), ("before", before)) if v is not None}
        data = self.request("GET", self._collections_path(project_id), params=params).json()
        return [parse_collection_summary(c) for c in _list(data.get("collections"))]

    def create_collection(
        self,
        project_id: str,
        platforms: Sequence[str] | None = None,
        device_sizes: Sequence[str] | None = None,
        locale: str | None = None,
        idempotency_key: str | None = None,
    ) -> Collection:
        """POST /v1/projects/:id/screenshots. Omitted fields take the project's platforms and
        locale and the required device sizes. Returns the new collection (``capturing``).
        Retried safely, like :meth:`create_design_job`."""
        body: dict[str, Any] = {}
        if platforms is not None:
            body["platforms"] = [platforms] if isinstance(platforms, str) else list(platforms)
        if device_sizes is not None:
            body["device_sizes"] = (
                [device_sizes] if isinstance(device_sizes, str) else [str(s) for s in device_sizes]
            )
        if locale is not None:
            body["locale"] = locale
        data = self.create(self._collections_path(project_id), body, idempotency_key).json()
        return parse_collection(data)

    def get_collection(self, project_id: str, collection_id: str) -> Collection:
        """GET /v1/projects/:id/screenshots/:collectionId, normalised (shape A or B)."""
        data = self.request(
            "GET", f"{self._collections_path(project_id)}/{quote(collection_id, safe='')}"
        ).json()
        return parse_collection(data)

    def wait_collection(
        self,
        project_id: str,
        collection_id: str,
        timeout: float = 600.0,
        *,
        interval: float = 1.0,
        max_interval: float = 5.0,
    ) -> Collection:
        """Poll until the collection is completed or failed (returned either way); retries
        like :meth:`wait`. Raises :class:`JobTimeout` after ``timeout`` seconds."""
        return self._poll(
            lambda: self.get_collection(project_id, collection_id),
            lambda collection: collection.finished,
            f"collection {collection_id}",
            timeout,
            interval,
            max_interval,
        )

    def download_collection(
        self, collection: Collection, out_dir: str | Path, *, raw: bool = False
    ) -> list[Path]:
        """Fetch a collection's styled PNGs (``raw=True``: its raw captures) into
        ``out_dir``; their paths, in the response's order."""
        shots = collection.screenshots if raw else collection.generated_screenshots
        if collection.status != "completed" and not (raw and shots):
            detail = f": {collection.error}" if collection.error else ""
            raise ConflictError(
                f"collection {collection.id} is {collection.status}{detail}; "
                "only completed collections have styled screenshots."
            )
        return self._fetch([s.url for s in shots], out_dir)

    def download(self, job: dict[str, Any] | str, out_dir: str | Path) -> list[Path]:
        """Fetch a completed job's PNGs into ``out_dir``; their paths in store order.

        The output URLs are capability URLs: they are fetched without the API key."""
        if isinstance(job, str):
            job = self.get_design_job(job)
        if job.get("status") != "completed":
            detail = f": {job['error']}" if job.get("error") else ""
            raise ConflictError(
                f"job {job.get('job_id')} is {job.get('status')}{detail}; "
                "only completed jobs have files."
            )
        return self._fetch(job.get("output_urls", []), out_dir)

    def _fetch(self, urls: Iterable[str], out_dir: str | Path) -> list[Path]:
        """Capability URLs to files (fetched without the API key); names from the URLs."""
        folder = Path(out_dir)
        folder.mkdir(parents=True, exist_ok=True)
        paths: list[Path] = []
        for index, url in enumerate(urls, start=1):
            name = Path(unquote(urlsplit(url).path)).name or f"{index:02d}.png"
            path = folder / name
            if path in paths:  # two URLs ending in the same name: keep both
                path = folder / f"{index:02d}_{name}"
            with self.http.stream("GET", url) as response:
                if response.status_code >= 400:
                    response.read()
                    raise _api_error(response)
                with open(path, "wb") as fh:
                    for chunk in response.iter_bytes():
                        fh.write(chunk)
            paths.append(path)
        return paths


# --- helpers -------------------------------------------------------------------------------


def _api_error(response: httpx.Response) -> ApiError:
    code, message = f"http_{response.status_code}", response.reason_phrase or "error"
    try:
        error = response.json().get("error", {})
        code = str(error.get("code") or code)
        message = str(error.get("message") or message)
    except (ValueError, AttributeError):
        text = response.text.strip()
        if text:
            message = text[:300]
    return ApiError(
        response.status_code, code, message, _retry_after(response.headers.get("Retry-After"))
    )


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _image_refs(images: Any) -> tuple[list[ImageSource], list[str], str | None, str | None]:
    """(references, screen names, project name and bundle id of a frame) for any input."""
    from .stages.read import read_screenshots, screen_name_from_file  # reading is the stage's

    if isinstance(images, (str, Path)) and Path(images).is_dir():
        images = read_screenshots(images)
    if isinstance(images, pd.DataFrame):
        frame = images.sort_values(C.POSITION) if C.POSITION in images.columns else images
        if C.IMAGE not in frame.columns:
            raise MissingColumnError(
                "create_design_job: the frame has no 'image' column; "
                "read it with shotsmith.read_screenshots."
            )
        refs = list(frame[C.IMAGE])
        names = (
            list(frame[C.SCREEN].astype(str))
            if C.SCREEN in frame.columns
            else [f"screen {i + 1}" for i in range(len(refs))]
        )
        first = frame.iloc[0] if len(frame) else {}
        project = str(first.get(C.PROJECT_NAME) or "") or None
        bundle = str(first.get(C.BUNDLE_ID) or "") or None
        return refs, names, project, bundle
    if isinstance(images, (str, Path, bytes, bytearray)):
        images = [images]
    refs, names = [], []
    for index, item in enumerate(_iterate(images)):
        if isinstance(item, (bytes, bytearray, memoryview)):
            refs.append(bytes(item))
            names.append(f"screen {index + 1}")
        else:
            refs.append(Path(item))
            names.append(screen_name_from_file(Path(item))[1])
    if not refs:
        raise InvalidOptionError("create_design_job: no images given.")
    return refs, names, None, None


def _iterate(images: Any) -> Iterable[Any]:
    try:
        return list(images)
    except TypeError:
        raise InvalidOptionError(
            "create_design_job: images must be PNG paths or bytes, a folder, "
            "or a frame from shotsmith.read_screenshots."
        ) from None


def _read(ref: ImageSource) -> bytes:
    if isinstance(ref, (bytes, bytearray, memoryview)):
        return bytes(ref)
    try:
        return Path(ref).read_bytes()
    except OSError as exc:
        raise InputFileError(f"{ref}: cannot read the image ({exc.strerror}).") from exc
