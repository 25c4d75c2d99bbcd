"""The /v1 routes (design jobs, result files) and /healthz.

Handlers only translate HTTP to the store and the job runner and back; the
design itself happens in worker processes (:mod:`.jobs`).
"""

from __future__ import annotations

import hmac
import logging
from typing import TYPE_CHECKING
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, JSONResponse

from .auth import ApiKeyOwner
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
from .models import DesignJob, DesignJobCreated, Health
from .store import Job, new_job_id
from .validation import DesignRequest, validate_design_request

if TYPE_CHECKING:  # pragma: no cover
    from .app import ServerState

log = logging.getLogger("shotsmith.server")

router = APIRouter()

DESIGN_REQUEST_BODY = {"requestBody": {
    "required": True,
    "description": "The raw screenshots (base64 PNG) and what the design needs.",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DesignJobCreate"}}},
}}
UNAVAILABLE = {503: {"model": ErrorBody,
                     "description": "The server cannot store the job right now (disk full?)."}}


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


@router.get("/healthz", response_model=Health, tags=["service"],
            summary="Liveness check (no API key needed)")
async def healthz() -> dict:
    return {"status": "ok"}


@router.post(
    "/v1/design", status_code=202, response_model=DesignJobCreated, tags=["design"],
    summary="Create a design job",
    description="Accepts 1-10 raw PNG screenshots (base64) and queues a job that styles them "
                "into store-ready 1320x2868 PNGs. Answers at once with the job id; poll "
                "`poll_url` (or pass `webhook_url`). Limited to 10 calls a minute per API key "
                "(every call that gets past the limiter counts, valid or not).",
    responses={202: {"description": "Job accepted and queued.",
                     "headers": {"Location": {"description": "Same as poll_url.",
                                              "schema": {"type": "string"}}}},
               **BAD_REQUEST, **UNAUTHORIZED, **TOO_LARGE, **INVALID, **RATE_LIMITED,
               **UNAVAILABLE},
    openapi_extra=DESIGN_REQUEST_BODY,
)
async def create_design_job(request: Request,
                            owner: ApiKeyOwner) -> JSONResponse:
    state = _state(request)
    retry_after = state.limiter.hit(owner)
    if retry_after:
        raise Problem(429, "rate_limited",
                      f"Rate limit: at most {state.limiter.limit} design jobs per "
                      f"{state.limiter.window:g} s per API key. Retry in {retry_after} s.",
                      {"Retry-After": str(retry_after)})
    body = await read_body(request, state.max_body_bytes)
    spec = await run_in_threadpool(validate_design_request, body,
                                   max_image_bytes=state.max_image_bytes)
    base_url = state.base_url or str(request.base_url).rstrip("/")
    job = await run_in_threadpool(persist_job, state, spec, owner, base_url)
    state.runner_notify()
    poll_url = f"{base_url}/v1/design/{job.job_id}"
    log.info("job %s queued: %d image(s) for %r", job.job_id, job.input_count, job.project_name)
    return JSONResponse({"job_id": job.job_id, "status": "queued", "poll_url": poll_url},
                        status_code=202, headers={"Location": poll_url})


async def read_body(request: Request, limit: int) -> bytes:
    """The body, refused with 413 as soon as it is known to exceed ``limit`` bytes."""
    too_large = Problem(413, "body_too_large",
                        f"The request body is larger than {limit / 2**20:.0f} MiB. Send at most "
                        "10 images of at most 10 MiB each.")
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            length = int(declared)
        except ValueError:
            raise Problem(400, "invalid_content_length",
                          "The Content-Length header is not a number.") from None
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
            job_id=job_id, owner=owner, project_name=spec.project_name,
            input_count=len(spec.images), params=spec.params(inputs),
            webhook_url=spec.webhook_url, base_url=base_url)
    except OSError as exc:
        state.store.discard_job_files(job_id)
        log.error("cannot store job %s: %s", job_id, exc)
        raise Problem(503, "storage_unavailable",
                      "The server cannot store the job's images right now "
                      f"({exc.strerror or exc}). Try again later.") from exc
    except BaseException:
        state.store.discard_job_files(job_id)
        raise


@router.get(
    "/v1/design/{job_id}", response_model=DesignJob, tags=["design"],
    summary="Get a design job",
    description="The job's state and, once completed, the absolute URLs of its PNGs. Polling "
                "is not rate-limited; once a second is plenty.",
    responses={200: {"description": "The job; its fields depend on its status."},
               **UNAUTHORIZED, **NOT_FOUND},
)
async def get_design_job(job_id: str, request: Request,
                         owner: ApiKeyOwner) -> JSONResponse:
    state = _state(request)
    job = state.store.get_job(job_id)
    if job is None or not hmac.compare_digest(job.owner, owner):
        raise Problem(404, "job_not_found",
                      f"No design job {job_id[:80]!r} for this API key. Use the job_id that "
                      "POST /v1/design returned with the same key.")
    return JSONResponse(job_view(job, state.output_urls(job)))


@router.get(
    "/v1/files/{token}/{name}", tags=["design"], response_class=FileResponse,
    summary="Download a designed PNG (capability URL, no API key)",
    description="The URLs in `output_urls`. The random token in the path is the credential: "
                "anyone holding the URL can fetch the file, so share it like a secret.",
    responses={200: {"content": {"image/png": {"schema": {"type": "string",
                                                          "format": "binary"}}},
                     "description": "The PNG."},
               **NOT_FOUND},
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
    if path is None or not path.is_file():
        raise Problem(404, "file_not_found",
                      "No such file. Use a URL from output_urls of a completed job, unchanged.")
    return FileResponse(path, media_type="image/png", filename=None, headers={
        "Cache-Control": "private, max-age=31536000, immutable",
        "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff"})
