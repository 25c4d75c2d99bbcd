"""Request bodies as streams: images go to files as they arrive, in bounded memory.

A maximal design request is ~140 MB of JSON. Reading it whole, parsing it, decoding the
base64 and then each PNG took the server process from 264 to 706 MB for one request and
held the event loop for hundreds of milliseconds. Here the body is read chunk by chunk;
:class:`~.jsonstream.JsonStreamParser` hands each ``images[i].data`` string to a
:class:`Base64FileSink`, which decodes it straight into ``NN.png`` in the request's
staging folder. Memory per upload is a few hundred KiB; each chunk is a short slice of
event-loop time, so polling stays fast; the PNG checks run afterwards in a thread, from
the files, in constant memory (:func:`shotsmith.png.verify_png`).

Also here: how many large uploads may run at once, in all and per API key
(:class:`UploadSlots`); how long a body may take (:class:`BodyDeadlines`: a pause limit
between two pieces, a deadline for the whole body and a minimum average rate, so a
client trickling a few bytes now and then is cut off); and reading the rest of a body
refused half-way (:func:`drain_unread`) so a client that sends its whole body before
reading the answer (httpx, requests) sees the error instead of a reset connection. A
request refused before its body is read (no or a wrong API key, a declared length over
the limit, no upload slot, the rate limit) is answered at once with
``Connection: close``, and its body is not read at all (:func:`refused_unread`).
"""

from __future__ import annotations

import asyncio
import binascii
import json
import re
from collections.abc import AsyncIterator, Callable, Iterator, MutableMapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.requests import ClientDisconnect, Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .problem import Problem

_simd_b64decode: Callable[..., bytes] | None
try:  # SIMD base64 (~50x binascii): the decode is most of a body's work on the event loop
    from pybase64 import b64decode as _simd_b64decode
except ImportError:  # pragma: no cover - a dependency of the server extra
    _simd_b64decode = None

#: Bodies larger than this (or of unknown length) need one of the upload slots.
LARGE_BODY = 1 << 20
#: Seconds a client may pause between two pieces of a body.
BODY_IDLE_TIMEOUT = 30.0
#: Seconds a whole body may take to arrive (141 MiB at ~2 Mbit/s).
BODY_TIMEOUT = 600.0
#: Bytes per second a body must average once :data:`BODY_RATE_GRACE` seconds have passed.
MIN_BODY_RATE = 1024.0
BODY_RATE_GRACE = 5.0


@dataclass(frozen=True)
class BodyDeadlines:
    """How long a request body may take: ``idle`` seconds between two pieces, ``total``
    for all of it, and at least ``min_rate`` bytes per second on average, counted from
    ``grace`` seconds after the first read (by ``t`` seconds at least
    ``min_rate * (t - grace)`` bytes must have arrived)."""

    idle: float = BODY_IDLE_TIMEOUT
    total: float = BODY_TIMEOUT
    min_rate: float = MIN_BODY_RATE
    grace: float = BODY_RATE_GRACE

    def wait(self, elapsed: float, received: int) -> tuple[float, str]:
        """Seconds the next piece may take, and what is said when it does not come."""
        idle = (self.idle, f"No part of the request body arrived for {self.idle:g} s")
        total = (
            self.total - elapsed,
            f"The request body did not arrive within {self.total:g} s",
        )
        options = [idle, total]
        if self.min_rate > 0:
            rate = (
                self.grace + received / self.min_rate - elapsed,
                f"The request body arrived at fewer than {self.min_rate:g} bytes per second "
                f"on average ({received} bytes in {elapsed:.0f} s)",
            )
            options.append(rate)
        return min(options, key=lambda option: option[0])


#: How much of a refused body is read when the request had no valid API key.
ANONYMOUS_DRAIN = 1 << 20

_WHITESPACE = b" \t\r\n\f\v"
_NOT_BASE64 = re.compile(rb"[^A-Za-z0-9+/=]")
_DATA_URL = b"data:"


def body_size_text(limit: int) -> str:
    return f"{limit / 2**20:.0f} MiB" if limit >= 2**20 else f"{limit // 1024} KiB"


def declared_length(request: Request, limit: int, advice: str) -> int | None:
    """``Content-Length`` as a number (None when absent); 400/413 before reading a byte."""
    declared = request.headers.get("content-length")
    if declared is None:
        return None
    if not declared.isdigit():
        raise Problem(400, "invalid_content_length", "The Content-Length header is not a number.")
    length = int(declared)
    if length > limit:
        raise Problem(
            413,
            "body_too_large",
            f"The request body is larger than {body_size_text(limit)}. {advice}",
        )
    return length


def require_json(request: Request) -> None:
    """415 unless a request that carries a body says it is JSON (``Content-Type:
    application/json``, or another ``+json`` type); checked before the body is read."""
    length = request.headers.get("content-length")
    chunked = "chunked" in request.headers.get("transfer-encoding", "").lower()
    if not chunked and (length is None or length == "0"):
        return  # no body (a collection's fields are all optional)
    given = request.headers.get("content-type")
    media = (given or "").split(";", 1)[0].strip().lower()
    if media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    ):
        return
    sent = f"it was {given[:100]!r}" if given else "none was sent"
    raise Problem(
        415,
        "unsupported_media_type",
        f"The request body must be JSON, sent with the header Content-Type: "
        f"application/json ({sent}).",
    )


def body_deadlines(request: Request) -> BodyDeadlines:
    state = getattr(request.app.state, "server", None)
    return getattr(state, "body_deadlines", None) or BodyDeadlines()


async def body_chunks(
    request: Request, limit: int, advice: str, deadlines: BodyDeadlines | None = None
) -> AsyncIterator[bytes]:
    """The body piece by piece; 413 once it passes ``limit``, 408 when it is too slow
    (see :class:`BodyDeadlines`; the server's own unless ``deadlines``), 400 if the client
    goes away."""
    declared_length(request, limit, advice)
    deadlines = deadlines or body_deadlines(request)
    stream = request.stream().__aiter__()
    total = 0
    loop = asyncio.get_running_loop()
    started = loop.time()
    while True:
        wait, why = deadlines.wait(loop.time() - started, total)
        try:
            async with asyncio.timeout(max(0.0, wait)):
                chunk = await stream.__anext__()
        except StopAsyncIteration:
            return
        except TimeoutError:
            raise Problem(
                408,
                "request_timeout",
                f"{why}; the connection is closed. Send the body in one go, without "
                "pauses, on a connection fast enough for its size.",
            ) from None
        except ClientDisconnect:
            raise Problem(
                400,
                "client_disconnected",
                "The client closed the connection before the body was complete.",
            ) from None
        if not chunk:
            continue
        total += len(chunk)
        if total > limit:
            raise Problem(
                413,
                "body_too_large",
                f"The request body is larger than {body_size_text(limit)}. {advice}",
            )
        yield chunk


# --- images: base64 to a file ----------------------------------------------------------------


@dataclass(frozen=True)
class StagedImage:
    """``images[index].data`` once received: decoded into ``path`` (``size`` bytes), or
    ``error`` saying why it is not valid base64 (reported after the other fields)."""

    index: int
    path: Path
    size: int
    error: str | None = None


class Base64FileSink:
    """Decodes one base64 string (optionally a ``data:...;base64,`` URL, with white space
    anywhere) into a file, as its pieces arrive. Standard alphabet, ``=`` padding only at
    the end, as ``base64.b64decode(validate=True)`` reads it. Over ``max_bytes`` decoded
    it refuses the request at once (413); invalid base64 is remembered, not raised, so
    that field errors elsewhere in the body are reported first, as for small bodies.

    Decoding happens where the parser runs (the event loop); the decoded bytes wait in
    ``pending`` until :meth:`flush` writes them, which the caller runs in a thread: a
    ``write`` can block for a long time while the disk is busy (another upload's fsync),
    and the event loop must not."""

    def __init__(self, index: int, path: Path, max_bytes: int):
        self.index = index
        self.path = path
        self.max_bytes = max_bytes
        self.where = f"images[{index}].data"
        self.size = 0
        self.error: str | None = None
        self.pending: list[bytes] = []
        self.pending_bytes = 0
        self._fh: Any = None
        self._head = b""  # the first bytes, until it is clear whether it is a data: URL
        self._head_done = False
        self._carry = b""  # base64 characters not yet a multiple of 4
        self._padded = False
        self._chars = 0

    def write(self, data: bytes, escaped: bool = False) -> None:
        if escaped:  # one escaped character: white space (line breaks) is skipped
            if data in (b"\n", b"\r", b"\t", b"\f", b" "):
                return
        elif b" " in data:  # the only white space JSON allows raw in a string
            data = data.replace(b" ", b"")
        if not data:
            return
        if not self._head_done:
            data = self._strip_data_url(data)
            if not data:
                return
        self._chars += len(data)
        if (self._chars // 4) * 3 > self.max_bytes + 3:
            raise self.too_large()
        if self.error is not None:
            return  # counting only, for the size limit
        if self._padded:
            return self._invalid("data after the '=' padding")
        text = self._carry + data if self._carry else data
        whole = len(text) // 4 * 4
        chunk, self._carry = text[:whole], text[whole:]
        if not chunk:
            if _NOT_BASE64.search(self._carry):
                self._explain(self._carry)
            return
        pad = chunk.find(b"=", len(chunk) - 4)
        if pad != -1:
            if self._carry:
                return self._invalid("'=' padding in the middle of the data")
            self._padded = True
        try:  # strict: only the base64 alphabet, padding only at the end
            decoded = _decode(chunk)
        except binascii.Error:
            return self._explain(chunk)
        self.size += len(decoded)
        if self.size > self.max_bytes:
            raise self.too_large()
        self.pending.append(decoded)
        self.pending_bytes += len(decoded)

    def flush(self) -> None:
        """Write what was decoded so far (blocking: run it in a thread)."""
        if self._fh is None:
            self._fh = open(self.path, "wb")
        chunks, self.pending, self.pending_bytes = self.pending, [], 0
        for chunk in chunks:
            self._fh.write(chunk)

    def finish(self) -> None:
        """Write the rest and close the file (blocking: run it in a thread)."""
        try:
            self.flush()
        finally:
            self.abort()

    def _explain(self, chunk: bytes) -> None:
        """Why ``chunk`` is not base64 (the slow path, once per bad image)."""
        bad = _NOT_BASE64.search(chunk)
        if bad is not None:
            byte = chunk[bad.start()]
            char = repr(chr(byte)) if byte < 128 else "a non-ASCII character"
            return self._invalid(f"{char} is not a base64 character")
        return self._invalid("'=' padding in the middle of the data")

    def _strip_data_url(self, data: bytes) -> bytes:
        head = self._head + data
        if not (_DATA_URL.startswith(head[:5]) or head.startswith(_DATA_URL)):
            self._head_done = True  # plain base64
            self._head = b""
            return head
        comma = head.find(b",")
        if comma == -1:
            if len(head) > 256:
                self._head_done = True
                self._invalid("a data: URL without a comma before the base64")
                return b""
            self._head = head
            return b""
        self._head_done, self._head = True, b""
        return head[comma + 1 :]

    def _invalid(self, detail: str) -> None:
        if self.error is None:
            self.error = (
                f"{self.where}: data is not valid base64 ({detail}). Encode the PNG "
                "file's bytes with standard base64."
            )

    def too_large(self) -> Problem:
        return Problem(
            413,
            "image_too_large",
            f"{self.where} decodes to more than {self.max_bytes / 2**20:g} MiB; each "
            f"image may be at most {self.max_bytes / 2**20:g} MiB. Send a smaller "
            "PNG.",
        )

    def close(self) -> StagedImage:
        if not self._head_done and self._head:  # a short string that began like "data"
            self._head_done = True
            head, self._head = self._head, b""
            if head.startswith(_DATA_URL):
                self._invalid("a data: URL without a comma before the base64")
            else:
                self.write(head)
        if self._carry and self.error is None:
            self._invalid("Incorrect padding: the length is not a multiple of 4")
        return StagedImage(self.index, self.path, self.size, self.error)

    def abort(self) -> None:
        if self._fh is not None:
            self._fh.close()


def _decode(chunk: bytes) -> bytes:
    if _simd_b64decode is not None:
        return _simd_b64decode(chunk, validate=True)
    return binascii.a2b_base64(chunk, strict_mode=True)


# --- how many large uploads at once ------------------------------------------------------------


class UploadSlots:
    """At most ``limit`` large bodies are received at once, and at most ``per_key`` of
    them for one API key, so that one key cannot take every slot (the event loop is one
    thread: no lock needed). Beyond the first the request is refused with 503
    ``server_busy``, beyond the second with 429 ``too_many_uploads``, both with
    ``Retry-After``."""

    def __init__(self, limit: int, per_key: int | None = None):
        self.limit = limit
        self.per_key = per_key if per_key is not None else max(1, limit // 2)
        self.active = 0
        self.by_key: dict[str, int] = {}

    def needs_slot(self, request: Request) -> bool:
        length = request.headers.get("content-length")
        return length is None or not length.isdigit() or int(length) > LARGE_BODY

    def acquire(self, owner: str = "") -> None:
        mine = self.by_key.get(owner, 0)
        if mine >= self.per_key:
            raise Problem(
                429,
                "too_many_uploads",
                f"This API key is sending {mine} large request bodies already, as many as "
                f"one key may send at once ({self.per_key}); wait for one to finish, then "
                "try again.",
                {"Retry-After": "5"},
            )
        if self.active >= self.limit:
            raise Problem(
                503,
                "server_busy",
                f"The server is receiving {self.active} large uploads already; "
                "try again in a few seconds.",
                {"Retry-After": "5"},
            )
        self.active += 1
        self.by_key[owner] = mine + 1

    def release(self, owner: str = "") -> None:
        self.active -= 1
        left = self.by_key.get(owner, 1) - 1
        if left > 0:
            self.by_key[owner] = left
        else:
            self.by_key.pop(owner, None)

    @contextmanager
    def slot(self, request: Request, owner: str = "") -> Iterator[None]:
        """Hold a slot while a large body is received (small ones need none)."""
        if not self.needs_slot(request):
            yield
            return
        self.acquire(owner)
        try:
            yield
        finally:
            self.release(owner)


# --- refused bodies are read, so that the client sees the answer ----------------------------

BODY_STATE = "shotsmith.body"  # scope key: "unread" | "reading" | "done"


class BodyTracker:
    """ASGI middleware: records in the scope whether the request body has been read
    (uvicorn answers ``Expect: 100-continue`` only once the app reads the body)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        scope[BODY_STATE] = "unread"
        names = [name.lower() for name, _ in scope.get("headers", [])]
        if b"content-length" in names and b"transfer-encoding" in names:
            await _refuse_ambiguous_length(send)  # request smuggling: never guess
            return

        async def tracked() -> Message:
            if scope[BODY_STATE] == "unread":
                scope[BODY_STATE] = "reading"
            message = await receive()
            if message["type"] == "http.disconnect" or (
                message["type"] == "http.request" and not message.get("more_body", False)
            ):
                scope[BODY_STATE] = "done"
            return message

        await self.app(scope, tracked, send)


#: Refusals after which the rest of the body is never read: the body is the problem (too
#: large, too slow) or the client went away.
NOT_DRAINED = frozenset({"body_too_large", "request_timeout", "client_disconnected"})


def refused_unread(request: Request, status: int, code: str) -> bool:
    """Whether a refusal ends the connection without reading the body: every 401 (an
    unauthenticated client gets nothing more), a refusal of the body itself
    (:data:`NOT_DRAINED`), and any refusal of a request whose body has not been read yet
    (the checks that come before the body: size, upload slots, rate limits)."""
    if status == 401 or code in NOT_DRAINED:
        return True
    if request.scope.get(BODY_STATE) != "unread":
        return False
    length = request.headers.get("content-length")
    chunked = "chunked" in request.headers.get("transfer-encoding", "").lower()
    return chunked or (length is not None and length != "0")


async def _refuse_ambiguous_length(send: Send) -> None:
    """400 and close for a request with both ``Content-Length`` and
    ``Transfer-Encoding``: two readers of it (a proxy and this server) could disagree on
    where its body ends (RFC 9112, section 6.3)."""
    body = json.dumps(
        {
            "error": {
                "code": "ambiguous_body_length",
                "message": "The request has both Content-Length and Transfer-Encoding; send "
                "one of them (Content-Length for a body of known size). The connection "
                "is closed.",
            }
        }
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 400,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def drain_unread(request: Request, limit: int) -> None:
    """Read and discard what is left of the body before an error answer, so that a client
    still sending it gets the answer rather than a reset. Not when the client waits for
    ``100 Continue`` (it has sent nothing), nor past ``limit`` bytes, nor after a pause."""
    scope: MutableMapping[str, Any] = request.scope
    state = scope.get(BODY_STATE)
    if state in (None, "done") or request.method in ("GET", "HEAD", "DELETE", "OPTIONS"):
        return
    expects = request.headers.get("expect", "").lower() == "100-continue"
    if state == "unread" and expects:
        return
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > limit):
        return
    receive = request.receive
    total = 0
    try:
        while scope.get(BODY_STATE) != "done" and total <= limit:
            async with asyncio.timeout(5.0):
                message = await receive()
            if message["type"] != "http.request":
                return
            total += len(message.get("body", b""))
            if not message.get("more_body", False):
                return
    except (TimeoutError, ClientDisconnect, RuntimeError, OSError):
        return
