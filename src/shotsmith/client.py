"""A small httpx client for the /v1 interface.

::

    from shotsmith.client import Client

    with Client("http://127.0.0.1:8787", api_key) as api:
        job = api.create_design_job("shots/", project_name="Pocket Budget")
        done = api.wait(job["job_id"])
        paths = api.download(done, "out/")

Responses are returned as the JSON objects the spec describes (plain dicts); every
error response becomes :class:`ApiError` with the server's ``code`` and ``message``.
New endpoints are one short method each over :meth:`Client.request`.
"""

from __future__ import annotations

import base64
import email.utils
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import httpx
import pandas as pd

from . import __version__
from . import columns as C
from .errors import ShotsmithError
from .io import read_screenshots, screen_name_from_file

FINISHED = ("completed", "failed")
ImageSource = str | Path | bytes


class ApiError(ShotsmithError):
    """An error response (or no response) from the server."""

    def __init__(self, status: int, code: str, message: str, retry_after: float | None = None):
        super().__init__(f"{message} (HTTP {status}, {code})" if status else message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after


class JobTimeout(ShotsmithError, TimeoutError):
    """``Client.wait`` gave up before the job finished."""


class Client:
    """``Client(base_url, api_key)``; ``http`` injects an ``httpx.Client`` (tests, proxies)."""

    def __init__(self, base_url: str, api_key: str, timeout: float = 60.0, *,
                 http: httpx.Client | None = None):
        if not api_key:
            raise ShotsmithError("Client: an API key is required (Authorization: Bearer ...).")
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
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
    def request(self, method: str, path: str, *, auth: bool = True, **kwargs: Any
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
            raise ApiError(0, "unreachable", f"{method} {url}: cannot reach the server "
                                             f"({exc}). Is it running?") from exc
        if response.status_code >= 400:
            raise _api_error(response)
        return response

    # --- design jobs (spec 4.4, 4.5) --------------------------------------------------------
    def create_design_job(self, images: pd.DataFrame | ImageSource | Sequence[ImageSource],
                          project_name: str | None = None, screens: Sequence[str] | None = None,
                          bundle_id: str | None = None, device: str | None = None,
                          template: str | None = None, webhook_url: str | None = None
                          ) -> dict[str, Any]:
        """POST /v1/design. ``images``: PNG paths or bytes, a folder, or a frame from
        :func:`shotsmith.read_screenshots` (its ``image`` and ``screen`` columns).
        Returns ``{"job_id", "status", "poll_url"}``."""
        refs, names, frame_project, frame_bundle = _image_refs(images)
        if screens is not None:
            if len(screens) != len(refs):
                raise ShotsmithError(f"create_design_job: {len(screens)} screen names for "
                                     f"{len(refs)} images; give one per image.")
            names = [str(s) for s in screens]
        project = project_name or frame_project
        if not project:
            raise ShotsmithError("create_design_job: project_name is required.")
        body: dict[str, Any] = {"project_name": project, "images": []}
        for ref, name in zip(refs, names):
            item = {"data": base64.b64encode(_read(ref)).decode("ascii"), "screen": name}
            if device:
                item["device"] = device
            body["images"].append(item)
        if bundle_id is None:
            bundle_id = frame_bundle
        for key, value in (("bundle_id", bundle_id), ("template", template),
                           ("webhook_url", webhook_url)):
            if value is not None:
                body[key] = value
        return self.request("POST", "/v1/design", json=body).json()

    def get_design_job(self, job_id: str) -> dict[str, Any]:
        """GET /v1/design/:job_id."""
        return self.request("GET", f"/v1/design/{job_id}").json()

    def wait(self, job_id: str, timeout: float = 600.0, *, interval: float = 0.5,
             max_interval: float = 5.0) -> dict[str, Any]:
        """Poll until the job is completed or failed (returned either way).

        The interval grows from ``interval`` to ``max_interval``; a 429 or a server
        hiccup (5xx, connection error) waits ``Retry-After`` (or the interval) and
        polls again. Raises :class:`JobTimeout` after ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout
        delay = interval
        while True:
            pause = delay
            try:
                job = self.get_design_job(job_id)
                if job.get("status") in FINISHED:
                    return job
            except ApiError as exc:
                if not (exc.status in (0, 429) or exc.status >= 500):
                    raise
                pause = exc.retry_after if exc.retry_after is not None else delay
            left = deadline - time.monotonic()
            if left <= 0:
                raise JobTimeout(f"job {job_id} did not finish within {timeout:g} s; "
                                 "poll it again later.")
            time.sleep(min(pause, left))
            delay = min(delay * 1.5, max_interval)

    def download(self, job: dict[str, Any] | str, out_dir: str | Path) -> list[Path]:
        """Fetch a completed job's PNGs into ``out_dir``; their paths in store order.

        The output URLs are capability URLs: they are fetched without the API key."""
        if isinstance(job, str):
            job = self.get_design_job(job)
        if job.get("status") != "completed":
            detail = f": {job['error']}" if job.get("error") else ""
            raise ShotsmithError(f"job {job.get('job_id')} is {job.get('status')}{detail}; "
                                 "only completed jobs have files.")
        folder = Path(out_dir)
        folder.mkdir(parents=True, exist_ok=True)
        paths = []
        for index, url in enumerate(job.get("output_urls", []), start=1):
            name = Path(unquote(urlsplit(url).path)).name or f"{index:02d}.png"
            path = folder / name
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
    return ApiError(response.status_code, code, message,
                    _retry_after(response.headers.get("Retry-After")))


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


def _image_refs(images: Any
                ) -> tuple[list[ImageSource], list[str], str | None, str | None]:
    """(references, screen names, project name and bundle id of a frame) for any input."""
    if isinstance(images, (str, Path)) and Path(images).is_dir():
        images = read_screenshots(images)
    if isinstance(images, pd.DataFrame):
        frame = images.sort_values(C.POSITION) if C.POSITION in images.columns else images
        if C.IMAGE not in frame.columns:
            raise ShotsmithError("create_design_job: the frame has no 'image' column; "
                                 "read it with shotsmith.read_screenshots.")
        refs = list(frame[C.IMAGE])
        names = (list(frame[C.SCREEN].astype(str)) if C.SCREEN in frame.columns
                 else [f"screen {i + 1}" for i in range(len(refs))])
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
        raise ShotsmithError("create_design_job: no images given.")
    return refs, names, None, None


def _iterate(images: Any) -> Iterable[Any]:
    try:
        return list(images)
    except TypeError:
        raise ShotsmithError("create_design_job: images must be PNG paths or bytes, a folder, "
                             "or a frame from shotsmith.read_screenshots.") from None


def _read(ref: ImageSource) -> bytes:
    if isinstance(ref, (bytes, bytearray, memoryview)):
        return bytes(ref)
    try:
        return Path(ref).read_bytes()
    except OSError as exc:
        raise ShotsmithError(f"{ref}: cannot read the image ({exc.strerror}).") from exc
