"""``/v1/projects/{project_id}/screenshots``: screenshot collections (list, create, get).

Projects are registered by the operator (``shotsmith projects add``); a collection captures
one and styles the captures in worker processes (:mod:`..collections`).
"""

from __future__ import annotations

import hmac
import logging
import sqlite3
from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from .. import idempotency
from ..collections import collection_name, collection_params, detail_view, summary_view
from ..dependencies import (
    IDEMPOTENCY_CONFLICT,
    IDEMPOTENCY_PARAMETER,
    UNAVAILABLE,
    ApiKeyOwner,
    State,
    idempotency_record,
    read_body,
    storage_problem,
)
from ..errors import (
    BAD_REQUEST,
    RETRY_AFTER,
    TOO_LARGE,
    UNAUTHORIZED,
    UNSUPPORTED_MEDIA,
    Responses,
    error_doc,
)
from ..limits import COLLECTION_ID_PATTERN, MAX_COLLECTION_BODY
from ..models import CollectionCreated, CollectionDetail, CollectionList
from ..problem import Problem
from ..state import ServerState
from ..store import Collection, Idempotency, Project, new_collection_id
from ..uploads import require_json
from ..validation import validate_collection_request

log = logging.getLogger("shotsmith.server")

router = APIRouter(tags=["collections"])


PROJECT_NOT_FOUND: Responses = {
    404: error_doc(
        "No such project (see `shotsmith projects list`), or no such collection for this API key.",
    )
}
TOO_MANY: Responses = {
    429: error_doc(
        "This API key already has the maximum number of collections capturing or "
        "processing; wait for one to finish.",
        RETRY_AFTER,
    )
}
LIST_INVALID: Responses = {
    422: error_doc(
        "`limit` is not a whole number from 1 to 100, or `before` is not a "
        "collectionId of this project for this API key.",
    )
}
COLLECTION_INVALID: Responses = {
    422: error_doc(
        "A field has the wrong type or an unsupported value (the message "
        "lists the allowed platforms and device sizes), or is unknown.",
    )
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


def _owned(collection: Collection | None, project: Project, owner: str) -> bool:
    """The collection exists, is of this project and was made with this API key."""
    return (
        collection is not None
        and collection.project_id == project.project_id
        and hmac.compare_digest(collection.owner, owner)
    )


def _own_collection(
    state: ServerState, project: Project, collection_id: str, owner: str
) -> Collection:
    collection = state.store.get_collection(collection_id) if len(collection_id) <= 200 else None
    if collection is None or not _owned(collection, project, owner):
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
    state: State,
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
    project = _project(state, project_id)
    cursor = None
    if before is not None:
        cursor = state.store.get_collection(before)
        if cursor is None or not _owned(cursor, project, owner):
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
        **UNSUPPORTED_MEDIA,
        **COLLECTION_INVALID,
        **TOO_MANY,
        **IDEMPOTENCY_CONFLICT,
        **UNAVAILABLE,
    },
    openapi_extra=COLLECTION_REQUEST_BODY,
)
async def create_collection(
    project_id: str, request: Request, owner: ApiKeyOwner, state: State
) -> JSONResponse:
    project = _project(state, project_id)
    require_json(request)
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
        record = await idempotency_record(state, owner, key)
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
    summary="Get a screenshot collection",
    description='Shape A of the spec: `{"collection": {...}}`. Raw `screenshots` appear '
    "once captured (status `processing`), `generatedScreenshots` once "
    "`completed`; `error` (text) when `failed`. URLs are absolute capability "
    "URLs (no API key needed to fetch them).",
    responses={200: {"description": "The collection."}, **UNAUTHORIZED, **PROJECT_NOT_FOUND},
)
async def get_collection(
    project_id: str, collection_id: str, owner: ApiKeyOwner, state: State
) -> JSONResponse:
    project = _project(state, project_id)
    collection = _own_collection(state, project, collection_id, owner)
    return JSONResponse(detail_view(collection, state.base_url or collection.base_url))
