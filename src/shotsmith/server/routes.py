"""The /v1 routes (design jobs, screenshot collections, result files) and /healthz.

Handlers only translate HTTP to the store and the runners and back; capture and
design happen in worker processes (:mod:`.jobs`, :mod:`.collections`).
"""

from __future__ import annotations

import hmac
import logging
from typing import TYPE_CHECKING, Annotated
from urllib.parse import quote

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, JSONResponse

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
from .models import (
    CollectionCreated,
    CollectionDetail,
    CollectionList,
    DesignJob,
    DesignJobCreated,
    Health,
)
from .store import Collection, Job, Project, new_job_id
from .validation import (
    MAX_COLLECTION_BODY,
    DesignRequest,
    validate_collection_request,
    validate_design_request,
)

if TYPE_CHECKING:  # pragma: no cover
    from .app import ServerState

log = logging.getLogger("shotsmith.server")

router = APIRouter()

DESIGN_REQUEST_BODY = {
    "requestBody": {
        "required": True,
        "description": "The raw screenshots (base64 PNG) and what the design needs.",
        "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/DesignJobCreate"}}
        },
    }
}
UNAVAILABLE = {
    503: {
        "model": ErrorBody,
        "description": "The server cannot store the job right now (disk full?).",
    }
}


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
        **UNAVAILABLE,
    },
    openapi_extra=DESIGN_REQUEST_BODY,
)
async def create_design_job(request: Request, owner: ApiKeyOwner) -> JSONResponse:
    state = _state(request)
    retry_after = state.limiter.hit(owner)
    if retry_after:
        raise Problem(
            429,
            "rate_limited",
            f"Rate limit: at most {state.limiter.limit} design jobs per "
            f"{state.limiter.window:g} s per API key. Retry in {retry_after} s.",
            {"Retry-After": str(retry_after)},
        )
    body = await read_body(request, state.max_body_bytes)
    spec = await run_in_threadpool(
        validate_design_request, body, max_image_bytes=state.max_image_bytes
    )
    base_url = state.base_url or str(request.base_url).rstrip("/")
    job = await run_in_threadpool(persist_job, state, spec, owner, base_url)
    state.runner_notify()
    poll_url = f"{base_url}/v1/design/{job.job_id}"
    log.info("job %s queued: %d image(s) for %r", job.job_id, job.input_count, job.project_name)
    return JSONResponse(
        {"job_id": job.job_id, "status": "queued", "poll_url": poll_url},
        status_code=202,
        headers={"Location": poll_url},
    )


async def read_body(
    request: Request, limit: int, advice: str = "Send at most 10 images of at most 10 MiB each."
) -> bytes:
    """The body, refused with 413 as soon as it is known to exceed ``limit`` bytes."""
    size = f"{limit / 2**20:.0f} MiB" if limit >= 2**20 else f"{limit // 1024} KiB"
    too_large = Problem(413, "body_too_large", f"The request body is larger than {size}. {advice}")
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            length = int(declared)
        except ValueError:
            raise Problem(
                400, "invalid_content_length", "The Content-Length header is not a number."
            ) from None
        if length > limit:
            raise too_large
    chunks, total = [], 0
    async for chunk in request.stream():  # chunked bodies: stop reading past the limit
        total += len(chunk)
        if total > limit:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)


def persist_job(state: ServerState, spec: DesignRequest, owner: str, base_url: str) -> Job:
    """Inputs to disk (fsync), then the queued row: a 202 always has its files."""
    job_id = new_job_id()
    try:
        inputs = state.store.save_inputs(job_id, spec.images)
        return state.store.insert_job(
            job_id=job_id,
            owner=owner,
            project_name=spec.project_name,
            input_count=len(spec.images),
            params=spec.params(inputs),
            webhook_url=spec.webhook_url,
            base_url=base_url,
        )
    except OSError as exc:
        state.store.discard_job_files(job_id)
        log.error("cannot store job %s: %s", job_id, exc)
        raise Problem(
            503,
            "storage_unavailable",
            "The server cannot store the job's images right now "
            f"({exc.strerror or exc}). Try again later.",
        ) from exc
    except BaseException:
        state.store.discard_job_files(job_id)
        raise


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


@router.get(
    "/v1/files/{token}/{name}",
    tags=["design"],
    response_class=FileResponse,
    summary="Download a PNG (capability URL, no API key)",
    description="The URLs in a design job's `output_urls` and in a collection's `screenshots` "
    "and `generatedScreenshots`. The random token in the path is the credential: "
    "anyone holding the URL can fetch the file, so share it like a secret.",
    responses={
        200: {
            "content": {"image/png": {"schema": {"type": "string", "format": "binary"}}},
            "description": "The PNG.",
        },
        **NOT_FOUND,
    },
)
async def get_file(token: str, name: str, request: Request) -> FileResponse:
    state = _state(request)
    job = state.store.job_by_file_token(token) if len(token) <= 64 else None
    path = None
    if job is not None:
        for relative in job.outputs:
            if relative.rsplit("/", 1)[-1] == name:
                path = state.store.absolute(relative)
                break
    elif len(token) <= 64:
        collection = state.store.collection_by_file_token(token)
        relative = collection_file(collection, name) if collection is not None else None
        if relative is not None:
            path = state.store.absolute(relative)
    if path is None or not path.is_file():
        raise Problem(
            404,
            "file_not_found",
            "No such file. Use a URL from output_urls of a completed job, or from a "
            "collection's screenshots, unchanged.",
        )
    return FileResponse(
        path,
        media_type="image/png",
        filename=None,
        headers={
            "Cache-Control": "private, max-age=31536000, immutable",
            "Referrer-Policy": "no-referrer",
            "X-Content-Type-Options": "nosniff",
        },
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
    "requestBody": {
        "required": False,
        "description": "All fields optional; an empty body or `{}` uses the project's platforms "
        "and locale and the required device sizes.",
        "content": {
            "application/json": {"schema": {"$ref": "#/components/schemas/CollectionCreate"}}
        },
    }
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
            max_length=200, description=("A collectionId: list only collections created before it.")
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
    },
    openapi_extra=COLLECTION_REQUEST_BODY,
)
async def create_collection(project_id: str, request: Request, owner: ApiKeyOwner) -> JSONResponse:
    state = _state(request)
    project = _project(state, project_id)
    body = await read_body(
        request, MAX_COLLECTION_BODY, "Send a small JSON object: platforms, device_sizes, locale."
    )
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
    collection = state.store.insert_collection(
        project_id=project.project_id,
        owner=owner,
        name=collection_name(project, spec.platforms, spec.locale),
        params=collection_params(project, spec.platforms, spec.device_sizes, spec.locale),
        base_url=base_url,
    )
    if collection is None:  # pragma: no cover - removed between the lookup and the insert
        raise _no_project(project_id)
    state.collections_notify()
    location = (
        f"{base_url}/v1/projects/{quote(project.project_id)}/screenshots/{collection.collection_id}"
    )
    log.info(
        "collection %s of %s created: %s, %s",
        collection.collection_id,
        project.project_id,
        spec.platforms,
        spec.locale,
    )
    return JSONResponse(
        {"collectionId": collection.collection_id, "status": "capturing"},
        status_code=202,
        headers={"Location": location},
    )


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
