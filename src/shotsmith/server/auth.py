"""Bearer API keys: hashes only, compared in constant time.

Keys come from two places: ``shotsmith keys create`` (hash in SQLite, so keys
created while the server runs work at once) and keys given to ``create_app``
(the CLI reads ``SHOTSMITH_API_KEYS``), hashed in memory at start-up. A request's
identity is its key's sha256: jobs are owned by it, rate limits count by it.
"""

from __future__ import annotations

import collections
import hmac
import logging
import math
from collections.abc import Iterable
from typing import Annotated

from fastapi import Depends, Request, Security
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from ..errors import InvalidOptionError
from .problem import Problem
from .store import Store, hash_key

log = logging.getLogger("shotsmith.server")

bearer_scheme = HTTPBearer(
    auto_error=False,
    scheme_name="ApiKey",
    description="`Authorization: Bearer <API key>`; create a key with `shotsmith keys create`.",
)


#: Shorter keys given to the server (SHOTSMITH_API_KEYS) are refused: they can be guessed.
MIN_KEY_LENGTH = 16
#: Nor may a key be predictable: its characters' Shannon entropy, in bits over the whole
#: key, must reach this (sixteen "a"s have 0; ``secrets.token_urlsafe(32)`` about 200).
MIN_KEY_BITS = 64.0


def key_bits(key: str) -> float:
    """An estimate of a key's entropy: Shannon entropy of its characters times its length."""
    counts = collections.Counter(key)
    return -sum(n * math.log2(n / len(key)) for n in counts.values())


#: Scope key set once a request's API key is known (errors then read its whole body).
AUTHENTICATED = "shotsmith.authenticated"


class KeyRing:
    def __init__(self, store: Store, keys: Iterable[str] = ()):
        self.store = store
        self._static: list[str] = []
        for position, key in enumerate(keys, start=1):
            key = key.strip()
            if not key:
                continue
            if len(key) < MIN_KEY_LENGTH:
                raise InvalidOptionError(
                    f"API key {position} given to the server (SHOTSMITH_API_KEYS) is only "
                    f"{len(key)} characters long; keys must have at least {MIN_KEY_LENGTH}. "
                    "Use long random keys: `shotsmith keys create` makes one, or e.g. "
                    "`python3 -c 'import secrets; print(secrets.token_urlsafe(32))'`."
                )
            if key_bits(key) < MIN_KEY_BITS:
                raise InvalidOptionError(
                    f"API key {position} given to the server (SHOTSMITH_API_KEYS) is too "
                    f"predictable (about {key_bits(key):.0f} bits of entropy from its "
                    f"{len(set(key))} distinct characters; at least {MIN_KEY_BITS:.0f} are "
                    "needed). Use long random keys: `shotsmith keys create` makes one, or "
                    "e.g. `python3 -c 'import secrets; print(secrets.token_urlsafe(32))'`."
                )
            self._static.append(hash_key(key))

    def known_hashes(self) -> list[str]:
        return self._static + self.store.active_key_hashes()

    def identify(self, key: str) -> str | None:
        """The key's owner id (its hash) if the key is known, else None."""
        presented = hash_key(key)
        match = None
        for known in self.known_hashes():  # no early exit: same work whatever matches
            if hmac.compare_digest(presented, known):
                match = known
        return match


def _unauthorized(message: str) -> Problem:
    return Problem(401, "unauthorized", message, {"WWW-Authenticate": "Bearer"})


async def require_api_key(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Security(bearer_scheme)],
) -> str:
    """FastAPI dependency: the caller's owner id, or a 401; 429 for a client address that
    sent too many wrong keys lately (``auth_failures``: guessing keys is throttled)."""
    state = request.app.state.server
    address = request.client.host if request.client else ""
    failures = getattr(state, "auth_failures", None)
    if failures is not None:
        wait = failures.blocked(address)
        if wait:
            raise Problem(
                429,
                "too_many_failed_logins",
                f"This client address sent more than {failures.limit} unknown API keys in "
                f"{failures.window:g} s; every request from it is refused for {wait} s. "
                "Check the key after `Bearer `, then retry after Retry-After seconds.",
                {"Retry-After": str(wait), "Connection": "close"},
            )
    if credentials is None or not credentials.credentials:
        raise _unauthorized(
            "Missing API key. Send the header `Authorization: Bearer <API key>` "
            "(create a key with `shotsmith keys create`)."
        )
    owner = state.keyring.identify(credentials.credentials.strip())
    if owner is None:
        if failures is not None:
            failures.hit(address)
        raise _unauthorized(
            "Unknown or revoked API key. Check the key after `Bearer `, "
            "or create a new one with `shotsmith keys create`."
        )
    request.scope[AUTHENTICATED] = True
    return owner


#: The owner id of an authenticated request, for route signatures.
ApiKeyOwner = Annotated[str, Depends(require_api_key)]
