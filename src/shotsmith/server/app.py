"""The FastAPI app factory: ``create_app(data_dir, base_url, api_keys, workers)``.

The lifespan owns everything with a life cycle: the data-directory lock (one
server per data directory), the job runner and its worker processes, the webhook
threads and the database connections. Tests build in-process apps with it; the
``shotsmith serve`` command hands one to uvicorn.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI
from fastapi.concurrency import run_in_threadpool
from fastapi.openapi.utils import get_openapi
from pydantic.json_schema import models_json_schema
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .._version import __version__
from ..errors import InvalidOptionError
from .auth import KeyRing
from .collections import CollectionRunner
from .errors import ErrorBody, install_error_handlers
from .jobs import JobRunner, default_workers
from .limits import MAX_BODY_BYTES, MAX_IMAGE_BYTES
from .models import CollectionCreate, DesignJobCreate
from .ratelimit import AUTH_FAILURE_LIMIT, DEFAULT_LIMIT, DEFAULT_WINDOW, RateLimiter
from .retention import DEFAULT_DAYS, RetentionSweeper
from .routers import ROUTERS
from .state import ServerState
from .store import Store
from .uploads import (
    BODY_IDLE_TIMEOUT,
    BODY_TIMEOUT,
    MIN_BODY_RATE,
    BodyDeadlines,
    BodyTracker,
    UploadSlots,
)
from .webhooks import DEFAULT_TIMEOUT, MAX_TIMEOUT, Notifier, Resolver, WebhookPolicy

log = logging.getLogger("shotsmith.server")


def normalise_base_url(base_url: str | None) -> str | None:
    if not base_url:
        return None
    parts = urlsplit(base_url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise InvalidOptionError(
            f"base URL {base_url!r} must be absolute, e.g. "
            "http://127.0.0.1:8787 or https://shots.example.com"
        )
    return base_url.rstrip("/")


class RedirectsFromBaseUrl:
    """ASGI middleware: a redirect (Starlette's trailing-slash one) points at the
    configured base URL, or is relative when there is none, never at the host a
    client's ``Host`` header names (``Host: evil.example`` made it an open redirect)."""

    def __init__(self, app: ASGIApp, base_url: str | None):
        self.app = app
        self.base_url = base_url or ""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_rebased(message: Message) -> None:
            if message["type"] == "http.response.start" and 300 <= message["status"] < 400:
                headers = []
                for name, value in message.get("headers", []):
                    if name.lower() == b"location":
                        target = urlsplit(value.decode("latin-1"))
                        path = (target.path or "/") + (f"?{target.query}" if target.query else "")
                        value = (self.base_url + path).encode("latin-1")
                    headers.append((name, value))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_rebased)


def create_app(
    data_dir: str | Path,
    base_url: str | None = None,
    api_keys: Iterable[str] | None = None,
    workers: int | None = None,
    *,
    rate_limit: int = DEFAULT_LIMIT,
    rate_window: float = DEFAULT_WINDOW,
    webhook_timeout: float = DEFAULT_TIMEOUT,
    design_options: dict[str, Any] | None = None,
    max_body_bytes: int = MAX_BODY_BYTES,
    max_image_bytes: int = MAX_IMAGE_BYTES,
    shutdown_grace: float = 5.0,
    max_attempts: int = 3,
    job_timeout: float = 300.0,
    capture_workers: int = 1,
    capture_timeout: float = 60.0,
    max_active_collections: int = 10,
    webhook_allow_private: bool = False,
    webhook_resolver: Resolver | None = None,
    server_address: tuple[str, int] | None = None,
    retention_days: float = DEFAULT_DAYS,
    max_uploads: int = 4,
    max_uploads_per_key: int | None = None,
    body_timeout: float = BODY_TIMEOUT,
    min_body_rate: float = MIN_BODY_RATE,
    body_idle_timeout: float = BODY_IDLE_TIMEOUT,
    watch_interval: float = 30.0,
    auth_failure_limit: int = AUTH_FAILURE_LIMIT,
    auth_failure_window: float = DEFAULT_WINDOW,
) -> FastAPI:
    """Build the /v1 app over ``data_dir``.

    ``base_url`` prefixes every returned URL (poll_url, output_urls, webhook bodies);
    without it the URL the request came in on is used. ``api_keys`` are accepted in
    addition to those created with ``shotsmith keys create``. ``workers`` is the
    number of rendering processes (default ``min(2, cpus)``). ``design_options`` are
    extra keyword arguments for :func:`shotsmith.design` (e.g. ``{"ocr": False}``).
    ``rate_limit``/``rate_window``: design jobs a key may create per window (10 per 60 s).
    ``shutdown_grace``: seconds running jobs get to finish on shutdown before they are
    put back in the queue. ``job_timeout``: a job running longer fails. Every
    ``watch_interval`` seconds a watchdog re-queues (or fails) design jobs left
    ``processing`` with no worker on them. A client address that sends more than
    ``auth_failure_limit`` unknown API keys in ``auth_failure_window`` seconds gets 429
    with ``Retry-After`` for every request until the window lets it in (0: no limit).

    Screenshot collections run in a pool of their own: ``capture_workers`` processes
    (default 1; started with the first collection), each capture bounded by
    ``capture_timeout`` seconds (the capture stage's ``timeout_s``), the design phase by
    ``job_timeout``. A key may have ``max_active_collections`` capturing or processing.

    Webhooks (:mod:`.webhooks`): each delivery has ``webhook_timeout`` seconds in all (at
    most 10); they may go only to public addresses unless ``webhook_allow_private``
    (never to the server itself: ``server_address``, the (host, port) it listens on, and
    the base URL's); ``webhook_resolver`` replaces ``socket.getaddrinfo`` (tests).

    ``retention_days``: finished jobs and collections are deleted that long after they
    finished (0: kept forever). ``max_uploads``: large request bodies received at once
    (more get 503 with ``Retry-After``), ``max_uploads_per_key`` of them for one API key
    (default half of ``max_uploads``; more get 429). A request body must arrive within
    ``body_timeout`` seconds, without a pause of ``body_idle_timeout`` seconds, at
    ``min_body_rate`` bytes per second on average (0: no minimum) once 5 s have passed
    (:class:`.uploads.BodyDeadlines`).
    """
    store = Store(data_dir)

    if capture_workers < 1:
        raise InvalidOptionError("capture_workers must be at least 1.")
    if not 0 < webhook_timeout <= MAX_TIMEOUT:
        raise InvalidOptionError(
            f"webhook_timeout must be more than 0 and at most {MAX_TIMEOUT:g} s."
        )
    if retention_days < 0:
        raise InvalidOptionError("retention_days must be 0 (keep forever) or more.")
    if max_uploads < 1:
        raise InvalidOptionError("max_uploads must be at least 1.")
    if max_uploads_per_key is not None and not 1 <= max_uploads_per_key <= max_uploads:
        raise InvalidOptionError("max_uploads_per_key must be from 1 to max_uploads.")
    if not (body_timeout > 0 and body_idle_timeout > 0 and min_body_rate >= 0):
        raise InvalidOptionError(
            "body_timeout and body_idle_timeout must be more than 0 s, min_body_rate 0 or more."
        )
    base_url = normalise_base_url(base_url)
    own: list[tuple[str, int]] = []
    if server_address is not None:
        own.append((server_address[0], int(server_address[1])))
    if base_url:
        parts = urlsplit(base_url)
        own.append((parts.hostname or "", parts.port or (443 if parts.scheme == "https" else 80)))
    policy = WebhookPolicy(allow_private=webhook_allow_private).with_own(own)

    def new_runners() -> tuple[Notifier, JobRunner, CollectionRunner]:
        notifier = Notifier(
            store,
            timeout=webhook_timeout,
            policy=policy,
            **({"resolver": webhook_resolver} if webhook_resolver else {}),
        )
        runner = JobRunner(
            store,
            notifier,
            lambda job: state.output_urls(job),
            workers=workers or default_workers(),
            design_options=design_options,
            max_attempts=max_attempts,
            grace=shutdown_grace,
            job_timeout=job_timeout,
            watch_interval=watch_interval,
        )
        collections = CollectionRunner(
            store,
            workers=capture_workers,
            design_options=design_options,
            capture_timeout=capture_timeout,
            design_timeout=job_timeout,
            max_attempts=max_attempts,
            grace=shutdown_grace,
        )
        return notifier, runner, collections

    state = ServerState(
        store=store,
        keyring=KeyRing(store, api_keys or ()),
        limiter=RateLimiter(rate_limit, rate_window),
        auth_failures=RateLimiter(auth_failure_limit, auth_failure_window)
        if auth_failure_limit
        else None,
        base_url=base_url,
        webhook_policy=policy,
        uploads=UploadSlots(max_uploads, max_uploads_per_key),
        body_deadlines=BodyDeadlines(
            idle=body_idle_timeout, total=body_timeout, min_rate=min_body_rate
        ),
        retention=RetentionSweeper(store, retention_days),
        max_body_bytes=max_body_bytes,
        max_image_bytes=max_image_bytes,
        max_active_collections=max_active_collections,
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        state.lock_data_dir()
        # made here, fresh each start (an app may restart), and gone when it stops
        notifier, runner, collections = new_runners()
        state.notifier, state.runner, state.collections = notifier, runner, collections
        try:
            removed = await run_in_threadpool(store.remove_orphans)
            if removed:
                log.info("removed %d orphaned folder(s) (no job or collection)", len(removed))
            if not state.keyring.known_hashes():
                log.warning(
                    "no API keys: every /v1 request will get 401. Create one with "
                    "`shotsmith keys create --data-dir %s --name NAME` or set "
                    "SHOTSMITH_API_KEYS.",
                    store.data_dir,
                )
            if state.retention is not None:
                await run_in_threadpool(state.retention.start)
            await run_in_threadpool(runner.start)
            await run_in_threadpool(collections.start)
            state.started = True
            log.info(
                "shotsmith server ready: data dir %s, %d worker process(es), up to %d "
                "capture worker(s)",
                store.data_dir,
                runner.workers,
                collections.workers,
            )
            yield
        finally:
            state.started = False
            stopping = time.monotonic()
            collections.begin_stop()  # both wind down at once
            await run_in_threadpool(runner.stop)
            await run_in_threadpool(collections.stop)
            if state.retention is not None:
                await run_in_threadpool(state.retention.stop)
            # webhooks under way get what is left of the grace period (at least 1 s), then
            # are recorded as failed; queued ones go out at the next start
            left = max(1.0, shutdown_grace - (time.monotonic() - stopping))
            await run_in_threadpool(notifier.close, left)
            state.notifier = state.runner = state.collections = None
            store.close()
            state.unlock_data_dir()
            log.info("shotsmith server stopped")

    app = FastAPI(
        title="shotsmith",
        version=__version__,
        summary="Raw app screenshots in, store-ready App Store screenshots out.",
        description="Design jobs (spec v1): POST raw PNG screenshots, poll the job, download "
        "the styled 1320x2868 PNGs. Screenshot collections: capture a registered "
        "project's app and style the captures, per device size. Every /v1 route "
        "except the capability file URLs needs `Authorization: Bearer <API key>`. "
        'Every error has the body `{"error": {"code": "...", "message": "..."}}`.',
        lifespan=lifespan,
    )
    app.state.server = state
    install_error_handlers(app)
    app.add_middleware(BodyTracker)
    app.add_middleware(RedirectsFromBaseUrl, base_url=base_url)
    for router in ROUTERS:
        app.include_router(router)
    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]
    return app


def _openapi(app: FastAPI) -> dict[str, Any]:
    """FastAPI's document plus the hand-validated request body's schema."""
    if app.openapi_schema:
        return app.openapi_schema
    schema = get_openapi(
        title=app.title,
        version=app.version,
        summary=app.summary,
        description=app.description,
        routes=app.routes,
    )
    _, defs = models_json_schema(
        [
            (DesignJobCreate, "validation"),
            (CollectionCreate, "validation"),
            (ErrorBody, "validation"),
        ],
        ref_template="#/components/schemas/{model}",
    )
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    for name, definition in defs.get("$defs", {}).items():
        components.setdefault(name, definition)
    # FastAPI documents its own 422 body on routes with path parameters; those routes
    # cannot fail validation (the parameters are plain strings) and every error uses
    # ErrorBody, so drop it.
    for path_item in schema.get("paths", {}).values():
        for operation in path_item.values():
            responses = operation.get("responses", {})
            if "HTTPValidationError" in json.dumps(responses.get("422", {})):
                del responses["422"]
    for name in ("HTTPValidationError", "ValidationError"):
        components.pop(name, None)
    app.openapi_schema = schema
    return schema
