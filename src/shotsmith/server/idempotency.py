"""``Idempotency-Key`` on the two create routes: a retry returns what the first try made.

A client that sent ``POST /v1/design`` and lost the answer (a reset, a timeout, a crash
of the server between its commit and its answer) cannot know whether the job exists;
retrying blindly makes a second one. With an ``Idempotency-Key`` header (any 1-255
visible ASCII characters; the client library sends a random UUID), the server stores
the key with what it created, in the same transaction, and for 24 hours answers the same
key and the same body from the same API key with the original answer (202, the same
``job_id``, header ``Idempotent-Replayed: true``) instead of creating another. The same
key with a different body is refused (422 ``idempotency_key_reused``); a second request
with a key whose first request is still being received gets 409
``idempotency_key_in_use`` (retry shortly). Refused requests store nothing: the key can
be used again with a corrected body.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse

from .problem import Problem
from .store import Idempotency

HEADER = "Idempotency-Key"
KEY_PATTERN = r"^[\x21-\x7e]{1,255}$"
_KEY = re.compile(KEY_PATTERN)


def key_of(request: Request) -> str | None:
    """The request's idempotency key, or None; 400 if it is malformed."""
    value = request.headers.get(HEADER)
    if value is None:
        return None
    if not _KEY.match(value):
        raise Problem(
            400,
            "invalid_idempotency_key",
            f"The {HEADER} header must be 1 to 255 visible ASCII characters (no "
            "spaces), e.g. a random UUID; use a new one for each new request.",
        )
    return value


def fingerprint(route: str) -> Any:
    """A running sha256 of a request: ``route`` then the body bytes (``.update`` them)."""
    return hashlib.sha256(route.encode() + b"\n")


def replay(record: Idempotency, digest: str) -> JSONResponse:
    """The original answer for the same key and body; 422 for another body."""
    if digest != record.fingerprint:
        raise Problem(
            422,
            "idempotency_key_reused",
            f"This {HEADER} was used in the last 24 hours with a different request "
            f"(it created {record.resource}). Use a new key for a new request; "
            "send the same body to get the original answer again.",
        )
    response = record.response
    return JSONResponse(
        response["body"],
        status_code=202,
        headers={"Location": response["location"], "Idempotent-Replayed": "true"},
    )


class InFlight:
    """Keys whose first request is still being received (one server per data directory,
    so memory is enough; the database keeps them once the request is committed)."""

    def __init__(self) -> None:
        self._keys: set[tuple[str, str]] = set()

    def __contains__(self, item: tuple[str, str]) -> bool:
        return item in self._keys

    def check(self, owner: str, key: str) -> None:
        """409 while the first request with this key is still being processed."""
        if (owner, key) in self._keys:
            raise Problem(
                409,
                "idempotency_key_in_use",
                f"A request with this {HEADER} is still being processed; retry in "
                "a moment to get its answer.",
                {"Retry-After": "1"},
            )

    @contextmanager
    def hold(self, owner: str, key: str | None) -> Iterator[None]:
        if key is None:
            yield
            return
        self.check(owner, key)
        self._keys.add((owner, key))
        try:
            yield
        finally:
            self._keys.discard((owner, key))
