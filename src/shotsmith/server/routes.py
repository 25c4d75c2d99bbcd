"""The /v1 routes (design jobs, screenshot collections, result files) and /healthz.

Handlers only translate HTTP to the store and the runners and back; capture and
design happen in worker processes (:mod:`.jobs`, :mod:`.collections`).
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import os
import shutil
import sqlite3
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response
from starlette.types import Receive, Scope, Send

from . import idempotency
from .auth import ApiKeyOwner
from .collections import (
    collection_file,
    collection_name,
    collection_params,
    detail_view,
    summary_view,
)
from .errors import (
    BAD_REQUEST,
    INVALID,
    NOT_FOUND,
    RATE_LIMITED,
    TOO_LARGE,
    UNAUTHORIZED,
    ErrorBody,
    Problem,
)
from .jsonstream import JsonError, JsonStreamParser, Path
from .models import (
    CollectionCreated,
    CollectionDetail,
    CollectionList,
    DesignJob,
    DesignJobCreated,
    Health,
)
from .store import Collection, Idempotency, Job, Project, new_collection_id, new_job_id
from .uploads import Base64FileSink, body_chunks
from .validation import (
    COLLECTION_ID_PATTERN,
    DESIGN_FIELDS,
    MAX_COLLECTION_BODY,
    DesignRequest,
    check_design_fields,
    check_design_images,
    json_problem,
    too_many_images,
    validate_collection_request,
)

if TYPE_CHECKING:  # pragma: no cover
    from .app import ServerState

log = logging.getLogger("shotsmith.server")

router = APIRouter()

IDEMPOTENCY_PARAMETER = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": "Makes retries safe: the same key and body from the same API key within "
    "24 hours get the original answer (same id, header `Idempotent-Replayed: true`) instead "
    "of a new resource; the same key with another body is a 422 "
    "(`idempotency_key_reused`). 1-255 visible ASCII characters, e.g. a random UUID.",
    "schema": {"type": "string", "pattern": idempotency.KEY_PATTERN, "maxLength": 255},
}
DESIGN_REQUEST_BODY = {
    "parameters": [IDEMPOTENCY_PARAMETER],
    "requestBody": {
        "required": True,
        "description": "The raw screenshots (base64 PNG) and what the design needs.",
        "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/DesignJobCreate"}}
        },
    },
}
UNAVAILABLE = {
    503: {
        "model": ErrorBody,
        "description": "The server cannot store the request right now (`storage_unavailable`: "
        "disk full or not writable), or is receiving as many large uploads as it takes at "
        "once (`server_busy`). Retry after `Retry-After` seconds.",
        "headers": {
            "Retry-After": {"description": "Seconds to wait.", "schema": {"type": "integer"}}
        },
    }
}
IDEMPOTENCY_CONFLICT = {
    409: {
        "model": ErrorBody,
        "description": "A request with the same `Idempotency-Key` is still being processed "
        "(`idempotency_key_in_use`); retry after `Retry-After` seconds.",
        "headers": {
            "Retry-After": {"description": "Seconds to wait.", "schema": {"type": "integer"}}
        },
    }
}
UPLOAD_ADVICE = "Send at most 10 images of at most 10 MiB each."


def _state(request: Request) -> ServerState:
    return request.app.state.server


def job_view(job: Job, output_urls: list[str]) -> dict:
    """Exactly the spec's fields for the job's state (section 4.5), in the spec's order."""
    view: dict = {"job_id": job.job_id, "status": job.status, "created_at": job.created_at}
    if job.status == "completed":
        view["completed_at"] = job.finished_at
    view["project_name"] = job.project_name
    view["input_count"] = job.input_count
    if job.status == "completed":
        view["output_urls"] = output_urls
    elif job.status == "failed":
        view["error"] = job.error or ""
    return view


def file_url(base_url: str, job: Job, relative_path: str) -> str:
    name = relative_path.rsplit("/", 1)[-1]
    return f"{base_url}/v1/files/{job.file_token}/{quote(name)}"


@router.get(
    "/healthz",
    response_model=Health,
    tags=["service"],
    summary="Liveness check (no API key needed)",
)
async def healthz() -> dict:
    return {"status": "ok"}


@router.post(
    "/v1/design",
    status_code=202,
    response_model=DesignJobCreated,
    tags=["design"],
    summary="Create a design job",
    description="Accepts 1-10 raw PNG screenshots (base64) and queues a job that styles them "
    "into store-ready 1320x2868 PNGs. Answers at once with the job id; poll "
    "`poll_url` (or pass `webhook_url`). Limited to 10 calls a minute per API key "
    "(every call that gets past the limiter counts, valid or not).",
    responses={
        202: {
            "description": "Job accepted and queued.",
            "headers": {
                "Location": {"description": "Same as poll_url.", "schema": {"type": "string"}}
            },
        },
        **BAD_REQUEST,
        **UNAUTHORIZED,
        **TOO_LARGE,
        **INVALID,
        **RATE_LIMITED,
        **IDEMPOTENCY_CONFLICT,
        **UNAVAILABLE,
    },
    openapi_extra=DESIGN_REQUEST_BODY,
)
async def create_design_job(request: Request, owner: ApiKeyOwner) -> JSONResponse:
    state = _state(request)
    key = idempotency.key_of(request)
    digest = idempotency.fingerprint("POST /v1/design") if key is not None else None
    if key is not None:
        state.in_flight.check(owner, key)
        record = await _idempotency_record(state, owner, key)
        if record is not None:  # a retry: hash the body, answer as the first time
            async for chunk in body_chunks(request, state.max_body_bytes, UPLOAD_ADVICE):
                await asyncio.to_thread(digest.update, chunk)
            return idempotency.replay(record, digest.hexdigest())
    _rate_limit(state, owner)
    with state.in_flight.hold(owner, key), state.uploads.slot(request):
        job_id = new_job_id()
        staging = state.store.staging_dir(job_id)
        try:
            spec = await _receive_design(request, state, staging, digest)
            await run_in_threadpool(check_design_images, spec)
            base_url = state.base_url or str(request.base_url).rstrip("/")
            poll_url = f"{base_url}/v1/design/{job_id}"
            body = {"job_id": job_id, "status": "queued", "poll_url": poll_url}
            remember = None
            if key is not None and digest is not None:
                remember = Idempotency(
                    key, digest.hexdigest(), {"body": body, "location": poll_url}
                )
            job = await run_in_threadpool(
                persist_job, state, job_id, spec, owner, base_url, remember
            )
        except BaseException:
            await run_in_threadpool(shutil.rmtree, staging, True)
            raise
    state.runner_notify()
    log.info("job %s queued: %d image(s) for %r", job.job_id, job.input_count, job.project_name)
    return JSONResponse(body, status_code=202, headers={"Location": poll_url})


def _rate_limit(state: ServerState, owner: str) -> None:
    retry_after = state.limiter.hit(owner)
    if retry_after:
        raise Problem(
            429,
            "rate_limited",
            f"Rate limit: at most {state.limiter.limit} design jobs per "
            f"{state.limiter.window:g} s per API key. Retry in {retry_after} s.",
            {"Retry-After": str(retry_after)},
        )


async def _idempotency_record(state: ServerState, owner: str, key: str) -> Idempotency | None:
    try:
        return await run_in_threadpool(state.store.get_idempotency, owner, key)
    except sqlite3.Error as exc:
        raise storage_problem(exc) from exc


async def _receive_design(
    request: Request, state: ServerState, staging: Any, digest: Any
) -> DesignRequest:
    """Stream the body: images into ``staging/inputs/NN.png`` as they arrive, the rest
    parsed; then every field checked (the images' contents come next, in a thread)."""
    try:
        await run_in_threadpool((staging / "inputs").mkdir, 0o700, True)
    except OSError as exc:
        raise storage_problem(exc) from exc
    sinks: list[Base64FileSink] = []

    def sink_for(path: Path) -> Base64FileSink | None:
        if len(path) != 3 or path[0] != "images" or path[2] != "data":
            return None
        index = path[1]
        if not isinstance(index, int):
            return None
        if index >= state.max_images:
            raise too_many_images(state.max_images)
        try:
            sink = Base64FileSink(
                index, staging / "inputs" / f"{index + 1:02d}.png", state.max_image_bytes
            )
        except OSError as exc:
            raise storage_problem(exc) from exc
        sinks.append(sink)
        return sink

    parser = JsonStreamParser(sink_for)
    try:
        async for chunk in body_chunks(request, state.max_body_bytes, UPLOAD_ADVICE):
            await feed_in_steps(parser, digest, chunk, sinks)
        data = parser.close()
        for sink in sinks:
            await asyncio.to_thread(sink.finish)
    except JsonError as exc:
        raise json_problem(exc, DESIGN_FIELDS) from None
    except OSError as exc:  # writing an image: disk full, not writable
        raise storage_problem(exc) from exc
    finally:
        for sink in sinks:
            sink.abort()
    return check_design_fields(
        data, policy=state.webhook_policy_for(request), max_images=state.max_images
    )


#: Bytes parsed (base64-decoded) between two yields to the event loop.
PARSE_STEP = 64 * 1024
#: Decoded bytes an image may hold in memory before they are written (in a thread).
WRITE_STEP = 256 * 1024


async def feed_in_steps(
    parser: JsonStreamParser, digest: Any, chunk: bytes, sinks: list[Base64FileSink]
) -> None:
    """Parse ``chunk`` in short steps, yielding to the event loop in between (polls and
    other uploads get it every fraction of a millisecond). Disk writes and hashing run in
    threads (both let go of the GIL): a write can block while the disk is busy, and the
    event loop must not."""
    hashing = None
    if digest is not None:
        if len(chunk) > PARSE_STEP:
            hashing = asyncio.ensure_future(asyncio.to_thread(digest.update, chunk))
        else:
            digest.update(chunk)
    try:
        view = memoryview(chunk)
        for start in range(0, len(chunk), PARSE_STEP):
            parser.feed(bytes(view[start : start + PARSE_STEP]))
            for sink in sinks:
                if sink.pending_bytes >= WRITE_STEP:
                    await asyncio.to_thread(sink.flush)
            await asyncio.sleep(0)
    finally:
        if hashing is not None:
            await hashing


def storage_problem(exc: BaseException) -> Problem:
    """503 ``storage_unavailable``: the data directory or database cannot be written."""
    if isinstance(exc, OSError):
        detail = exc.strerror or type(exc).__name__
    else:
        detail = str(exc) or type(exc).__name__
    log.error("storage unavailable: %s", exc)
    return Problem(
        503,
        "storage_unavailable",
        f"The server cannot store the request right now ({detail}); it is a "
        "problem on the server's side. Try again later.",
        {"Retry-After": "30"},
    )


def persist_job(
    state: ServerState,
    job_id: str,
    spec: DesignRequest,
    owner: str,
    base_url: str,
    remember: Idempotency | None,
) -> Job:
    """Inputs made durable and moved into place (fsync), then the queued row (with the
    idempotency key): a 202 always has its files."""
    inputs = [f"inputs/{image.index + 1:02d}.png" for image in spec.images]
    try:
        state.store.commit_inputs(job_id)
        return state.store.insert_job(
            job_id=job_id,
            owner=owner,
            project_name=spec.project_name,
            input_count=len(spec.images),
            params=spec.params(inputs),
            webhook_url=spec.webhook_url,
            base_url=base_url,
            idempotency=remember,
        )
    except (OSError, sqlite3.Error) as exc:
        state.store.discard_job_files(job_id)
        raise storage_problem(exc) from exc
    except BaseException:
        state.store.discard_job_files(job_id)
        raise


async def read_body(request: Request, limit: int, advice: str, digest: Any = None) -> bytes:
    """A small body, whole; 413 as soon as it is known to exceed ``limit`` bytes."""
    chunks = []
    async for chunk in body_chunks(request, limit, advice):
        if digest is not None:
            digest.update(chunk)
        chunks.append(chunk)
    return b"".join(chunks)


@router.get(
    "/v1/design/{job_id}",
    response_model=DesignJob,
    tags=["design"],
    summary="Get a design job",
    description="The job's state and, once completed, the absolute URLs of its PNGs. Polling "
    "is not rate-limited; once a second is plenty.",
    responses={
        200: {"description": "The job; its fields depend on its status."},
        **UNAUTHORIZED,
        **NOT_FOUND,
    },
)
async def get_design_job(job_id: str, request: Request, owner: ApiKeyOwner) -> JSONResponse:
    state = _state(request)
    job = state.store.get_job(job_id)
    if job is None or not hmac.compare_digest(job.owner, owner):
        raise Problem(
            404,
            "job_not_found",
            f"No design job {job_id[:80]!r} for this API key. Use the job_id that "
            "POST /v1/design returned with the same key.",
        )
    return JSONResponse(job_view(job, state.output_urls(job)))


@router.delete(
    "/v1/design/{job_id}",
    status_code=204,
    tags=["design"],
    summary="Delete a design job",
    description="Removes the job, its input images and its output PNGs (their URLs then "
    "answer 404). Only the API key that created the job may delete it. A job being designed "
    "right now cannot be deleted (409); delete it once it is completed or failed. Finished "
    "jobs are also deleted by the server after its retention period (30 days by default).",
    response_class=Response,
    responses={
        204: {"description": "Deleted."},
        **UNAUTHORIZED,
        **NOT_FOUND,
        409: {
            "model": ErrorBody,
            "description": "The job is being designed (`job_in_progress`); retry after "
            "`Retry-After` seconds.",
            "headers": {
                "Retry-After": {"description": "Seconds to wait.", "schema": {"type": "integer"}}
            },
        },
        **UNAVAILABLE,
    },
)
async def delete_design_job(job_id: str, request: Request, owner: ApiKeyOwner) -> Response:
    state = _state(request)
    try:
        outcome = await run_in_threadpool(state.store.delete_job, job_id, owner)
    except (OSError, sqlite3.Error) as exc:
        raise storage_problem(exc) from exc
    if outcome is None:
        raise Problem(
            404,
            "job_not_found",
            f"No design job {job_id[:80]!r} for this API key. Use the job_id that "
            "POST /v1/design returned with the same key.",
        )
    if outcome == "processing":
        raise Problem(
            409,
            "job_in_progress",
            f"Design job {job_id} is being designed right now; delete it once it is "
            "completed or failed.",
            {"Retry-After": "10"},
        )
    log.info("job %s deleted by its owner", job_id)
    return Response(status_code=204)


FILE_HEADERS = {
    "Content-Type": "image/png",
    "Cache-Control": "private, max-age=31536000, immutable",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


class OpenFileResponse(Response):
    """Sends an already opened file (a descriptor from :meth:`Store.open_output`), then
    closes it; the body is left out for HEAD. Reads run in a thread."""

    chunk_size = 256 * 1024

    def __init__(self, fd: int, headers: dict[str, str]):
        super().__init__(status_code=200, headers=headers)
        self.fd = fd
        self.size = os.fstat(fd).st_size
        self.headers["content-length"] = str(self.size)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await send(
                {
                    "type": "http.response.start",
                    "status": self.status_code,
                    "headers": self.raw_headers,
                }
            )
            if scope.get("method") != "HEAD":
                while True:
                    data = await asyncio.to_thread(os.read, self.fd, self.chunk_size)
                    if not data:
                        break
                    await send({"type": "http.response.body", "body": data, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            os.close(self.fd)


@router.get(
    "/v1/files/{token}/{name}",
    tags=["design"],
    response_class=Response,
    summary="Download a PNG (capability URL, no API key)",
    description="The URLs in a design job's `output_urls` and in a collection's `screenshots` "
    "and `generatedScreenshots`. The random token in the path is the credential: "
    "anyone holding the URL can fetch the file, so share it like a secret. `HEAD` answers "
    "the same headers (`Content-Length`) without the PNG.",
    responses={
        200: {
            "content": {"image/png": {"schema": {"type": "string", "format": "binary"}}},
            "description": "The PNG.",
        },
        **NOT_FOUND,
    },
)
async def get_file(token: str, name: str, request: Request) -> Response:
    state = _state(request)
    relative, folder = None, None
    job = state.store.job_by_file_token(token) if len(token) <= 64 else None
    if job is not None:
        folder = f"jobs/{job.job_id}"
        for path in job.outputs:
            if path.rsplit("/", 1)[-1] == name:
                relative = path
                break
    elif len(token) <= 64:
        collection = state.store.collection_by_file_token(token)
        if collection is not None:
            folder = f"collections/{collection.collection_id}"
            relative = collection_file(collection, name)
    fd = None
    if relative is not None and folder is not None:
        try:  # below the job's folder, no symlinks, regular files only
            fd = await run_in_threadpool(state.store.open_output, relative, folder)
        except OSError:
            fd = None
    if fd is None:
        raise Problem(
            404,
            "file_not_found",
            "No such file. Use a URL from output_urls of a completed job, or from a "
            "collection's screenshots, unchanged.",
        )
    return OpenFileResponse(fd, FILE_HEADERS)


router.add_api_route(
    "/v1/files/{token}/{name}", get_file, methods=["HEAD"], include_in_schema=False
)


# --- screenshot collections (spec 4.1-4.3) ----------------------------------------------------

PROJECT_NOT_FOUND = {
    404: {
        "model": ErrorBody,
        "description": "No such project (see `shotsmith projects list`), or no such "
        "collection for this API key.",
    }
}
TOO_MANY = {
    429: {
        "model": ErrorBody,
        "description": "This API key already has the maximum number of collections capturing or "
        "processing; wait for one to finish.",
        "headers": {
            "Retry-After": {"description": "Seconds to wait.", "schema": {"type": "integer"}}
        },
    }
}
LIST_INVALID = {
    422: {
        "model": ErrorBody,
        "description": "`limit` is not a whole number from 1 to 100, or `before` is not a "
        "collectionId of this project for this API key.",
    }
}
COLLECTION_INVALID = {
    422: {
        "model": ErrorBody,
        "description": "A field has the wrong type or an unsupported value (the message "
        "lists the allowed platforms and device sizes), or is unknown.",
    }
}
COLLECTION_REQUEST_BODY = {
    "parameters": [IDEMPOTENCY_PARAMETER],
    "requestBody": {
        "required": False,
        "description": "All fields optional; an empty body or `{}` uses the project's platforms "
        "and locale and the required device sizes.",
        "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/CollectionCreate"}}
        },
    },
}


def _no_project(project_id: str) -> Problem:
    return Problem(
        404,
        "project_not_found",
        f"No project {project_id[:80]!r} on this server. Projects are registered by "
        "the operator with `shotsmith projects add`; `shotsmith projects list` shows "
        "them.",
    )


def _project(state: ServerState, project_id: str) -> Project:
    project = state.store.get_project(project_id) if len(project_id) <= 200 else None
    if project is None:
        raise _no_project(project_id)
    return project


def _own_collection(
    state: ServerState, project: Project, collection_id: str, owner: str
) -> Collection:
    collection = state.store.get_collection(collection_id) if len(collection_id) <= 200 else None
    if (
        collection is None
        or collection.project_id != project.project_id
        or not hmac.compare_digest(collection.owner, owner)
    ):
        raise Problem(
            404,
            "collection_not_found",
            f"No collection {collection_id[:80]!r} of project "
            f"{project.project_id!r} for this API key. Use the collectionId that "
            "POST /v1/projects/{id}/screenshots returned with the same key.",
        )
    return collection


@router.get(
    "/v1/projects/{project_id}/screenshots",
    response_model=CollectionList,
    tags=["collections"],
    summary="List screenshot collections",
    description="This API key's collections of the project, newest first. Paging: at most "
    "`limit` (1-100, default 20) per page; for the next page pass the last "
    "`collectionId` of this one as `before`. A page shorter than `limit` is the "
    "last.",
    responses={
        200: {"description": "Collection summaries, newest first."},
        **UNAUTHORIZED,
        **PROJECT_NOT_FOUND,
        **LIST_INVALID,
    },
)
async def list_collections(
    project_id: str,
    request: Request,
    owner: ApiKeyOwner,
    limit: Annotated[int, Query(ge=1, le=100, description="Page size (1-100).")] = 20,
    before: Annotated[
        str | None,
        Query(
            max_length=200,
            description="A collectionId: list only collections created before it.",
            json_schema_extra={"pattern": COLLECTION_ID_PATTERN},
        ),
    ] = None,
) -> JSONResponse:
    state = _state(request)
    project = _project(state, project_id)
    cursor = None
    if before is not None:
        cursor = state.store.get_collection(before)
        if (
            cursor is None
            or cursor.project_id != project.project_id
            or not hmac.compare_digest(cursor.owner, owner)
        ):
            raise Problem(
                422,
                "invalid_cursor",
                f"before={before[:80]!r} is not a collectionId of this project for "
                "this API key; pass the last collectionId of the previous page.",
            )
    rows = state.store.list_collections(project.project_id, owner, limit=limit, before=cursor)
    return JSONResponse({"collections": [summary_view(c) for c in rows]})


@router.post(
    "/v1/projects/{project_id}/screenshots",
    status_code=202,
    response_model=CollectionCreated,
    tags=["collections"],
    summary="Create a screenshot collection",
    description="Starts capturing the project's app (a web app in Chromium, or its folder of "
    "simulator screenshots) and answers at once with status `capturing`. Poll "
    "GET .../screenshots/{collectionId}: `capturing` -> `processing` (styled "
    "screenshots being made) -> `completed` or `failed` (with `error`).",
    responses={
        202: {
            "description": "Collection created; capture starts when a capture worker is free.",
            "headers": {
                "Location": {
                    "description": "Absolute URL of the collection.",
                    "schema": {"type": "string"},
                }
            },
        },
        **BAD_REQUEST,
        **UNAUTHORIZED,
        **PROJECT_NOT_FOUND,
        **TOO_LARGE,
        **COLLECTION_INVALID,
        **TOO_MANY,
        **IDEMPOTENCY_CONFLICT,
        **UNAVAILABLE,
    },
    openapi_extra=COLLECTION_REQUEST_BODY,
)
async def create_collection(project_id: str, request: Request, owner: ApiKeyOwner) -> JSONResponse:
    state = _state(request)
    project = _project(state, project_id)
    key = idempotency.key_of(request)
    digest = idempotency.fingerprint(f"POST /v1/projects/{project.project_id}/screenshots")
    body = await read_body(
        request,
        MAX_COLLECTION_BODY,
        "Send a small JSON object: platforms, device_sizes, locale.",
        digest,
    )
    if key is not None:
        state.in_flight.check(owner, key)
        record = await _idempotency_record(state, owner, key)
        if record is not None:
            return idempotency.replay(record, digest.hexdigest())
    spec = validate_collection_request(
        body,
        project_platforms=project.platforms,
        project_locale=project.locale,
        folder_source=project.source_dir is not None,
    )
    if state.store.count_active_collections(owner) >= state.max_active_collections:
        raise Problem(
            429,
            "too_many_collections",
            f"This API key already has {state.max_active_collections} collection(s) "
            "capturing or processing; wait until one finishes, then try again.",
            {"Retry-After": "30"},
        )
    base_url = state.base_url or str(request.base_url).rstrip("/")
    collection_id = new_collection_id()
    location = f"{base_url}/v1/projects/{quote(project.project_id)}/screenshots/{collection_id}"
    answer = {"collectionId": collection_id, "status": "capturing"}
    remember = None
    if key is not None:
        remember = Idempotency(key, digest.hexdigest(), {"body": answer, "location": location})
    try:
        collection = await run_in_threadpool(
            lambda: state.store.insert_collection(
                project_id=project.project_id,
                owner=owner,
                name=collection_name(project, spec.platforms, spec.locale),
                params=collection_params(project, spec.platforms, spec.device_sizes, spec.locale),
                base_url=base_url,
                collection_id=collection_id,
                idempotency=remember,
            )
        )
    except (OSError, sqlite3.Error) as exc:
        raise storage_problem(exc) from exc
    if collection is None:  # pragma: no cover - removed between the lookup and the insert
        raise _no_project(project_id)
    state.collections_notify()
    log.info(
        "collection %s of %s created: %s, %s",
        collection.collection_id,
        project.project_id,
        spec.platforms,
        spec.locale,
    )
    return JSONResponse(answer, status_code=202, headers={"Location": location})


@router.get(
    "/v1/projects/{project_id}/screenshots/{collection_id}",
    response_model=CollectionDetail,
    tags=["collections"],
    summary="Get a screenshot collection",
    description='Shape A of the spec: `{"collection": {...}}`. Raw `screenshots` appear '
    "once captured (status `processing`), `generatedScreenshots` once "
    "`completed`; `error` (text) when `failed`. URLs are absolute capability "
    "URLs (no API key needed to fetch them).",
    responses={200: {"description": "The collection."}, **UNAUTHORIZED, **PROJECT_NOT_FOUND},
)
async def get_collection(
    project_id: str, collection_id: str, request: Request, owner: ApiKeyOwner
) -> JSONResponse:
    state = _state(request)
    project = _project(state, project_id)
    collection = _own_collection(state, project, collection_id, owner)
    return JSONResponse(detail_view(collection, state.base_url or collection.base_url))
