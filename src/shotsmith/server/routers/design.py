"""``/v1/design``: design jobs (create, get, delete).

A job's images are streamed into its staging folder as they arrive, checked, made durable,
then queued; the answer is 202 with the job id. Workers (:mod:`..jobs`) design it.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import shutil
import sqlite3
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response

from .. import idempotency
from ..dependencies import (
    IDEMPOTENCY_CONFLICT,
    IDEMPOTENCY_PARAMETER,
    UNAVAILABLE,
    ApiKeyOwner,
    State,
    idempotency_record,
    storage_problem,
)
from ..errors import (
    BAD_REQUEST,
    INVALID,
    NOT_FOUND,
    RATE_LIMITED,
    RETRY_AFTER,
    TOO_LARGE,
    UNAUTHORIZED,
    UNSUPPORTED_MEDIA,
    error_doc,
)
from ..jsonstream import JsonError, JsonStreamParser, Path
from ..models import DesignJob, DesignJobCreated
from ..problem import Problem
from ..state import ServerState
from ..store import Idempotency, Job, new_job_id
from ..uploads import Base64FileSink, body_chunks, require_json
from ..validation import (
    DESIGN_FIELDS,
    DesignRequest,
    check_design_fields,
    check_design_images,
    json_problem,
    too_many_images,
)

log = logging.getLogger("shotsmith.server")

router = APIRouter(tags=["design"])

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
UPLOAD_ADVICE = "Send at most 10 images of at most 10 MiB each."


def job_view(job: Job, output_urls: list[str]) -> dict:
    """Exactly the documented fields for the job's state, in order (docs/api.md, "GET
    /v1/design/{job_id}")."""
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


@router.post(
    "/v1/design",
    status_code=202,
    response_model=DesignJobCreated,
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
        **UNSUPPORTED_MEDIA,
        **INVALID,
        **RATE_LIMITED,
        **IDEMPOTENCY_CONFLICT,
        **UNAVAILABLE,
    },
    openapi_extra=DESIGN_REQUEST_BODY,
)
async def create_design_job(request: Request, owner: ApiKeyOwner, state: State) -> JSONResponse:
    require_json(request)
    key = idempotency.key_of(request)
    digest = idempotency.fingerprint("POST /v1/design") if key is not None else None
    if key is not None and digest is not None:
        state.in_flight.check(owner, key)
        record = await idempotency_record(state, owner, key)
        if record is not None:  # a retry: hash the body, answer as the first time
            return await _replay(request, state, owner, record, digest)
    _rate_limit(state, owner)
    with state.in_flight.hold(owner, key), state.uploads.slot(request, owner):
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


async def _replay(
    request: Request, state: ServerState, owner: str, record: Idempotency, digest: Any
) -> JSONResponse:
    """A retry of a create: hash its body, answer as the first time (422 for another body)."""
    with state.uploads.slot(request, owner):
        async for chunk in body_chunks(request, state.max_body_bytes, UPLOAD_ADVICE):
            await asyncio.to_thread(digest.update, chunk)
    return idempotency.replay(record, digest.hexdigest())


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


@router.get(
    "/v1/design/{job_id}",
    response_model=DesignJob,
    summary="Get a design job",
    description="The job's state and, once completed, the absolute URLs of its PNGs. Polling "
    "is not rate-limited; once a second is plenty.",
    responses={
        200: {"description": "The job; its fields depend on its status."},
        **UNAUTHORIZED,
        **NOT_FOUND,
    },
)
async def get_design_job(job_id: str, owner: ApiKeyOwner, state: State) -> JSONResponse:
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
    summary="Delete a design job",
    description="Removes the job, its input images and its output PNGs (their URLs then "
    "answer 404). Only the API key that created the job may delete it. A job being designed "
    "right now cannot be deleted (409); delete it once it is completed or failed (a job "
    "left processing with no worker on it can be deleted at once). Finished "
    "jobs are also deleted by the server after its retention period (30 days by default).",
    response_class=Response,
    responses={
        204: {"description": "Deleted."},
        200: {
            "description": "Deleted, but some of its files could not be removed from the "
            "server's disk: `files_not_removed` names them (relative to the job), "
            "`message` says what it means.",
        },
        **UNAUTHORIZED,
        **NOT_FOUND,
        409: error_doc(
            "The job is being designed (`job_in_progress`); retry after `Retry-After` seconds.",
            RETRY_AFTER,
        ),
        **UNAVAILABLE,
    },
)
async def delete_design_job(job_id: str, owner: ApiKeyOwner, state: State) -> Response:
    try:
        held = state.runner.has if state.runner is not None else None
        outcome = await run_in_threadpool(state.store.delete_job, job_id, owner, held)
    except (OSError, sqlite3.Error) as exc:
        raise storage_problem(exc) from exc
    if outcome is None:
        raise Problem(
            404,
            "job_not_found",
            f"No design job {job_id[:80]!r} for this API key. Use the job_id that "
            "POST /v1/design returned with the same key.",
        )
    status, not_removed = outcome
    if status == "processing":
        raise Problem(
            409,
            "job_in_progress",
            f"Design job {job_id} is being designed right now; delete it once it is "
            "completed or failed.",
            {"Retry-After": "10"},
        )
    if not_removed:
        log.warning(
            "job %s deleted by its owner, but %d file(s) could not be removed: %s",
            job_id,
            len(not_removed),
            ", ".join(not_removed[:20]),
        )
        return JSONResponse(
            {
                "job_id": job_id,
                "deleted": True,
                "files_not_removed": not_removed,
                "message": f"The job is deleted (its URLs answer 404), but {len(not_removed)} "
                "of its files could not be removed from the server's disk; this is a problem "
                "on the server's side, and it has been logged for the operator.",
            },
            status_code=200,
        )
    log.info("job %s deleted by its owner", job_id)
    return Response(status_code=204)
