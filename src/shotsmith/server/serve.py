"""Running the app under uvicorn: a deadline for request headers, file tokens kept out of
the access log.

uvicorn closes idle keep-alive connections, but a connection that sends part of a
request line or of its headers and then nothing more stays open for ever (a thousand of
them held the server's sockets). :class:`HeaderDeadlineProtocol` gives every connection
``header_timeout`` seconds from when it opens (and from the end of each response on a
kept-alive connection) to complete a request's headers, then closes it. Bodies have a
deadline of their own in the app (a pause between two pieces, :mod:`.uploads`).

The access log shows each request's path; a result file's path holds its capability
token (whoever has the URL has the file), so :class:`RedactFileTokens` replaces it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from .errors import redact_path

DEFAULT_HEADER_TIMEOUT = 15.0


class HeaderDeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol, closing connections that do not complete their request
    headers within ``header_timeout`` seconds."""

    header_timeout = DEFAULT_HEADER_TIMEOUT

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._header_deadline: asyncio.TimerHandle | None = None
        self._arm_header_deadline()

    def _arm_header_deadline(self) -> None:
        self._cancel_header_deadline()
        self._header_deadline = self.loop.call_later(self.header_timeout, self._headers_late)

    def _cancel_header_deadline(self) -> None:
        handle = getattr(self, "_header_deadline", None)
        if handle is not None:
            handle.cancel()
            self._header_deadline = None

    def handle_events(self) -> None:
        cycle = self.cycle
        super().handle_events()
        if self.cycle is not cycle:  # a request's headers are complete
            self._cancel_header_deadline()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
            self._arm_header_deadline()  # the next request on this connection, if any

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_deadline()
        super().connection_lost(exc)

    def _headers_late(self) -> None:
        self._header_deadline = None
        if self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete:
            return  # a request is being handled: its body has the app's own deadline
        self.logger.info(
            "closing a connection that sent no complete request headers in %g s",
            self.header_timeout,
        )
        self.transport.close()


def protocol_class(header_timeout: float) -> type[HeaderDeadlineProtocol]:
    return type(
        "HeaderDeadlineProtocol", (HeaderDeadlineProtocol,), {"header_timeout": header_timeout}
    )


class RedactFileTokens(logging.Filter):
    """On ``uvicorn.access``: ``/v1/files/<token>/name`` instead of the real token."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str):
            record.args = (*args[:2], redact_path(args[2]), *args[3:])
        return True


def run(
    app: Any,
    *,
    host: str,
    port: int,
    log_level: str,
    header_timeout: float = DEFAULT_HEADER_TIMEOUT,
) -> None:
    """Serve ``app`` with uvicorn until SIGINT/SIGTERM (graceful)."""
    import uvicorn

    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        timeout_graceful_shutdown=10,
        http=protocol_class(header_timeout),
    )
    server = uvicorn.Server(config)
    access = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, RedactFileTokens) for f in access.filters):
        access.addFilter(RedactFileTokens())
    server.run()
