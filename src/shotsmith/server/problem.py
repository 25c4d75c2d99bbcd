"""The one exception a request raises to answer with an error body (``{"error": ...}``).

A module of its own, so that everything answering errors (auth, uploads, idempotency, the
routers) imports it without importing the handlers in :mod:`shotsmith.server.errors`.
"""

from __future__ import annotations


class Problem(Exception):
    """Raised anywhere in a request to answer with the error body."""

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}
