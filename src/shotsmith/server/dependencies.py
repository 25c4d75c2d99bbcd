"""What the routers share: the server's state, the caller's API key, the storage error,
small bodies, idempotency records and the OpenAPI fragments several routes document.

FastAPI's "bigger applications" layout: each router declares what it needs as a
dependency (``state: State``, ``owner: ApiKeyOwner``) instead of reaching into the app.
"""

from __future__ import annotations

import logging
import sqlite3
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.concurrency import run_in_threadpool

from . import errors, idempotency
from .auth import ApiKeyOwner
from .errors import RETRY_AFTER, Problem, Responses, error_doc
from .state import ServerState
from .store import Idempotency
from .uploads import body_chunks

__all__ = ["ApiKeyOwner", "State", "idempotency_record", "read_body", "storage_problem"]

log = logging.getLogger("shotsmith.server")


def get_state(request: Request) -> ServerState:
    """The state the app's lifespan runs (built once by :func:`.app.create_app`)."""
    return request.app.state.server


State = Annotated[ServerState, Depends(get_state)]


def storage_problem(exc: BaseException) -> Problem:
    """503 ``storage_unavailable`` (see :func:`.errors.storage_problem`), logged."""
    log.error("storage unavailable: %s", exc)
    return errors.storage_problem(exc)


async def read_body(request: Request, limit: int, advice: str, digest: Any = None) -> bytes:
    """A small body, whole; 413 as soon as it is known to exceed ``limit`` bytes."""
    chunks = []
    async for chunk in body_chunks(request, limit, advice):
        if digest is not None:
            digest.update(chunk)
        chunks.append(chunk)
    return b"".join(chunks)


async def idempotency_record(state: ServerState, owner: str, key: str) -> Idempotency | None:
    try:
        return await run_in_threadpool(state.store.get_idempotency, owner, key)
    except sqlite3.Error as exc:
        raise storage_problem(exc) from exc


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

UNAVAILABLE: Responses = {
    503: error_doc(
        "The server cannot store the request right now (`storage_unavailable`: "
        "disk full or not writable), or is receiving as many large uploads as it takes at "
        "once (`server_busy`). Retry after `Retry-After` seconds.",
        RETRY_AFTER,
    )
}

IDEMPOTENCY_CONFLICT: Responses = {
    409: error_doc(
        "A request with the same `Idempotency-Key` is still being processed "
        "(`idempotency_key_in_use`); retry after `Retry-After` seconds.",
        RETRY_AFTER,
    )
}
