"""The FastAPI app factory: ``create_app(ServerSettings(data_dir, ...))``.

The lifespan owns everything with a life cycle: the data-directory lock (one
server per data directory), the job runner and its worker processes, the webhook
threads and the database connections. Tests build in-process apps with it; the
``shotsmith serve`` command hands one to uvicorn.
"""

from __future__ import annotations

import contextlib
import json
import logging
import socket
import time
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI
from fastapi.concurrency import run_in_threadpool
from fastapi.openapi.utils import get_openapi
from pydantic.json_schema import models_json_schema
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .._version import __version__
from .auth import KeyRing
from .collections import CollectionRunner
from .errors import ErrorBody, install_error_handlers
from .jobs import JobRunner, default_workers
from .models import CollectionCreate, DesignJobCreate
from .ratelimit import RateLimiter
from .retention import RetentionSweeper
from .routers import ROUTERS
from .settings import ServerSettings
from .state import ServerState
from .store import Store
from .uploads import BodyDeadlines, BodyTracker, UploadSlots
from .webhooks import Notifier, WebhookPolicy

log = logging.getLogger("shotsmith.server")


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
    settings: ServerSettings | str | Path,
    base_url: str | None = None,
    api_keys: Iterable[str] | None = None,
    workers: int | None = None,
    **fields: Any,
) -> FastAPI:
    """Build the /v1 app from ``settings`` (:class:`.settings.ServerSettings`), or from a
    data directory and the settings' other fields by name."""
    settings = ServerSettings.of(settings, base_url, api_keys, workers, **fields)
    store = Store(settings.data_dir)
    policy = WebhookPolicy(allow_private=settings.webhook_allow_private).with_own(
        settings.own_addresses()
    )
    state = _server_state(settings, store, policy)
    app = FastAPI(
        title="shotsmith",
        version=__version__,
        summary="Raw app screenshots in, store-ready App Store screenshots out.",
        description="Design jobs (spec v1): POST raw PNG screenshots, poll the job, download "
        "the styled 1320x2868 PNGs. Screenshot collections: capture a registered "
        "project's app and style the captures, per device size. Every /v1 route "
        "except the capability file URLs needs `Authorization: Bearer <API key>`. "
        'Every error has the body `{"error": {"code": "...", "message": "..."}}`.',
        lifespan=_lifespan(settings, state),
    )
    app.state.server = state
    install_error_handlers(app)
    app.add_middleware(BodyTracker)
    app.add_middleware(RedirectsFromBaseUrl, base_url=settings.base_url)
    for router in ROUTERS:
        app.include_router(router)
    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]
    return app


def _server_state(settings: ServerSettings, store: Store, policy: WebhookPolicy) -> ServerState:
    """The state every request reads: keys, limits and policies (no processes yet)."""
    auth_failures = None
    if settings.auth_failure_limit:
        auth_failures = RateLimiter(settings.auth_failure_limit, settings.auth_failure_window)
    return ServerState(
        store=store,
        keyring=KeyRing(store, settings.api_keys),
        limiter=RateLimiter(settings.rate_limit, settings.rate_window),
        auth_failures=auth_failures,
        base_url=settings.base_url,
        webhook_policy=policy,
        uploads=UploadSlots(settings.max_uploads, settings.max_uploads_per_key),
        body_deadlines=BodyDeadlines(
            idle=settings.body_idle_timeout,
            total=settings.body_timeout,
            min_rate=settings.min_body_rate,
        ),
        retention=RetentionSweeper(store, settings.retention_days),
        max_body_bytes=settings.max_body_bytes,
        max_image_bytes=settings.max_image_bytes,
        max_active_collections=settings.max_active_collections,
    )


def _new_runners(
    settings: ServerSettings, state: ServerState
) -> tuple[Notifier, JobRunner, CollectionRunner]:
    """The webhook notifier and the job and collection runners, fresh for each start."""
    store = state.store
    notifier = Notifier(
        store,
        timeout=settings.webhook_timeout,
        policy=state.webhook_policy,
        resolver=settings.webhook_resolver or socket.getaddrinfo,
    )
    runner = JobRunner(
        store,
        notifier,
        state.output_urls,
        workers=settings.workers or default_workers(),
        design_options=settings.design_options,
        max_attempts=settings.max_attempts,
        grace=settings.shutdown_grace,
        job_timeout=settings.job_timeout,
        watch_interval=settings.watch_interval,
    )
    collections = CollectionRunner(
        store,
        workers=settings.capture_workers,
        design_options=settings.design_options,
        capture_timeout=settings.capture_timeout,
        design_timeout=settings.job_timeout,
        max_attempts=settings.max_attempts,
        grace=settings.shutdown_grace,
    )
    return notifier, runner, collections


def _lifespan(
    settings: ServerSettings, state: ServerState
) -> Callable[[FastAPI], contextlib.AbstractAsyncContextManager[None]]:
    """The app's lifespan: the data-directory lock and everything with processes or
    threads, made at each start and gone when the app stops."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        state.lock_data_dir()
        state.notifier, state.runner, state.collections = _new_runners(settings, state)
        try:
            await _start(state)
            yield
        finally:
            await _stop(state, settings.shutdown_grace)

    return lifespan


async def _start(state: ServerState) -> None:
    store, runner, collections = state.store, state.runner, state.collections
    assert runner is not None and collections is not None
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
        "shotsmith server ready: data dir %s, %d worker process(es), up to %d capture worker(s)",
        store.data_dir,
        runner.workers,
        collections.workers,
    )


async def _stop(state: ServerState, grace: float) -> None:
    state.started = False
    stopping = time.monotonic()
    notifier, runner, collections = state.notifier, state.runner, state.collections
    if collections is not None:
        collections.begin_stop()  # both wind down at once
    if runner is not None:
        await run_in_threadpool(runner.stop)
    if collections is not None:
        await run_in_threadpool(collections.stop)
    if state.retention is not None:
        await run_in_threadpool(state.retention.stop)
    # webhooks under way get what is left of the grace period (at least 1 s), then are
    # recorded as failed; queued ones go out at the next start
    if notifier is not None:
        await run_in_threadpool(notifier.close, max(1.0, grace - (time.monotonic() - stopping)))
    state.notifier = state.runner = state.collections = None
    state.store.close()
    state.unlock_data_dir()
    log.info("shotsmith server stopped")


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
