"""One error body for every refusal: ``{"error": {"code": ..., "message": ...}}``.

Handlers here replace FastAPI's and Starlette's defaults (422 validation detail,
404/405 ``{"detail": ...}``, the plain-text 500) so that every error a client sees,
from any route or none, has the same JSON shape and a message that says what to fix.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from .. import errors as lib
from .problem import Problem

log = logging.getLogger("shotsmith.server")


class ErrorDetail(BaseModel):
    code: str = Field(
        description="Stable machine-readable error code, e.g. `invalid_base64`.",
        examples=["invalid_image"],
    )
    message: str = Field(
        description="What was wrong and what to do about it.",
        examples=[
            "images[0].data: not a PNG image (it is a JPEG). Supply raw screenshots as PNG files."
        ],
    )


class ErrorBody(BaseModel):
    """The body of every error response."""

    error: ErrorDetail


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(
        {"error": {"code": code, "message": message}}, status_code=status, headers=headers
    )


#: The header of a refusal worth retrying, as the OpenAPI document describes it.
RETRY_AFTER = {"Retry-After": {"description": "Seconds to wait.", "schema": {"type": "integer"}}}


#: The ``responses=`` a route documents: status -> OpenAPI response (FastAPI's own type).
Responses = dict[int | str, dict[str, Any]]


def error_doc(description: str, headers: dict[str, Any] | None = None) -> dict[str, Any]:
    """One error response as the OpenAPI document describes it (body: :class:`ErrorBody`)."""
    spec: dict[str, Any] = {"model": ErrorBody, "description": description}
    if headers:
        spec["headers"] = headers
    return spec


UNAUTHORIZED: Responses = {
    401: error_doc(
        "Missing or unknown API key. Send `Authorization: Bearer <API key>`.",
        {"WWW-Authenticate": {"description": "Always `Bearer`.", "schema": {"type": "string"}}},
    )
}
NOT_FOUND: Responses = {404: error_doc("No such resource (or it belongs to another API key).")}
BAD_REQUEST: Responses = {400: error_doc("The body is not JSON, or not a JSON object.")}
TOO_LARGE: Responses = {
    413: error_doc(
        "The body is larger than the server accepts, or an image decodes to more than 10 MiB."
    )
}
UNSUPPORTED_MEDIA: Responses = {
    415: error_doc(
        "The body is not sent as JSON (`unsupported_media_type`): send "
        "`Content-Type: application/json`."
    )
}
INVALID: Responses = {
    422: error_doc(
        "A field is missing, has the wrong type or an unsupported value, "
        "or an image is not a valid PNG."
    )
}
RATE_LIMITED: Responses = {
    429: error_doc(
        "Too many design jobs created with this API key in the current window.",
        {
            "Retry-After": {
                "description": "Seconds to wait before trying again.",
                "schema": {"type": "integer"},
            }
        },
    )
}

_STATUS_CODES = {
    400: "bad_request",
    408: "request_timeout",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
    429: "rate_limited",
}


_FILE_TOKEN = re.compile(r"^/v1/files/[^/]+/")


def redact_path(path: str) -> str:
    """A request path for logs: a file URL's capability token is left out."""
    return _FILE_TOKEN.sub("/v1/files/<token>/", path)


_METHODS = ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT")


def allowed_methods(request: Request) -> list[str]:
    """Every method some route takes on this request's path (for ``Allow``): each method
    is tried against the app's routes (included routers answer ``matches`` too)."""
    allowed = []
    for method in _METHODS:
        scope = {**request.scope, "method": method}
        if any(route.matches(scope)[0] == Match.FULL for route in request.app.router.routes):
            allowed.append(method)
    return allowed


CLOSE = {"Connection": "close"}


async def _drain(request: Request, status: int, code: str) -> dict[str, str]:
    """Before an error answer: either ``Connection: close`` and the body left unread (see
    :func:`.uploads.refused_unread`), or the rest of a body read half-way read, so that a
    client still sending it sees the answer. The headers to add."""
    from .uploads import drain_unread, refused_unread

    if refused_unread(request, status, code):
        return dict(CLOSE)
    state = getattr(request.app.state, "server", None)
    if state is not None:
        await drain_unread(request, state.drain_limit(request))
    return {}


_SERVER_PATH = re.compile(r"(?<![\w:/])/(?:[\w.@+-]+/)+([\w.@+-]+)")


def _last_part(match: re.Match[str]) -> str:
    """A server path in a message becomes its last part: clients never see the layout."""
    return match.group(1)


#: Headers that go with an error code wherever it is answered: a storage failure is worth
#: retrying, whether a route catches it, the library raises a ``StorageError`` or an
#: ``OSError``/``sqlite3.Error`` escapes.
HEADERS_OF: dict[str, dict[str, str]] = {"storage_unavailable": {"Retry-After": "30"}}


def storage_problem(exc: BaseException) -> Problem:
    """503 ``storage_unavailable`` for an ``OSError`` or ``sqlite3.Error`` (whose own words
    are not meant for clients): the data directory or database cannot be read or
    written."""
    if isinstance(exc, OSError) and exc.strerror:  # errno's words, without the path
        detail = exc.strerror
    else:
        detail = _SERVER_PATH.sub(_last_part, str(exc)) or type(exc).__name__
    return Problem(
        503,
        "storage_unavailable",
        f"The server cannot store or read its data right now ({detail}); it is a problem on "
        "the server's side. Try again later.",
        dict(HEADERS_OF["storage_unavailable"]),
    )


def problem_response(problem: Problem) -> JSONResponse:
    return error_response(problem.status, problem.code, problem.message, problem.headers)


#: The library's errors as HTTP answers, in one place: the nearest class in an error's MRO
#: decides (``InputImageError`` before ``ShotsmithError``). Messages are the library's own;
#: headers come from HEADERS_OF.
STATUS_OF: dict[type[lib.ShotsmithError], tuple[int, str]] = {
    lib.InputImageError: (422, "invalid_image"),
    lib.InputFileError: (422, "invalid_request"),
    lib.InvalidOptionError: (422, "invalid_request"),
    lib.MissingColumnError: (422, "invalid_request"),
    lib.TemplateError: (422, "invalid_template"),
    lib.DeviceError: (422, "invalid_device"),
    lib.StoreRuleError: (422, "store_rule"),
    lib.CopyError: (422, "copy_failed"),
    lib.CaptureError: (422, "capture_failed"),
    lib.NotFoundError: (404, "not_found"),
    lib.ConflictError: (409, "conflict"),
    lib.RemoteError: (502, "bad_gateway"),
    lib.StorageError: (503, "storage_unavailable"),
    lib.ToolMissingError: (503, "unavailable"),
    lib.ShotsmithError: (422, "invalid_request"),
}


def status_for(exc: lib.ShotsmithError) -> tuple[int, str]:
    """The status and error code a library error is answered with."""
    for cls in type(exc).__mro__:
        if cls in STATUS_OF:
            return STATUS_OF[cls]
    return 422, "invalid_request"


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(lib.ShotsmithError)
    async def _library(request: Request, exc: lib.ShotsmithError) -> JSONResponse:
        status, code = status_for(exc)
        close = await _drain(request, status, code)
        if status >= 500:
            log.error(
                "%s on %s %s: %s",
                type(exc).__name__,
                request.method,
                redact_path(request.url.path),
                exc,
            )
        message = _SERVER_PATH.sub(_last_part, str(exc))
        return error_response(status, code, message, {**HEADERS_OF.get(code, {}), **close})

    @app.exception_handler(Problem)
    async def _problem(request: Request, exc: Problem) -> JSONResponse:
        close = await _drain(request, exc.status, exc.code)
        return error_response(exc.status, exc.code, exc.message, {**exc.headers, **close})

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _STATUS_CODES.get(exc.status_code, f"http_{exc.status_code}")
        headers = dict(getattr(exc, "headers", None) or {})
        headers.update(await _drain(request, exc.status_code, code))
        if exc.status_code == 404:
            message = (
                f"No route {request.method} {request.url.path}. "
                "See /openapi.json for the routes this server offers."
            )
        elif exc.status_code == 405:
            allowed = allowed_methods(request)
            headers["Allow"] = ", ".join(allowed)
            message = (
                f"{request.method} is not allowed on {request.url.path}; it takes "
                f"{', '.join(allowed)}. See /openapi.json for the methods of each route."
            )
        else:
            message = str(exc.detail)
        return error_response(exc.status_code, code, message, headers or None)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        close = await _drain(request, 422, "invalid_request")
        errors = exc.errors()
        first = errors[0] if errors else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p not in ("body",))
        message = (
            f"{where}: {first.get('msg', 'invalid value')}"
            if where
            else str(first.get("msg", "invalid request"))
        )
        return error_response(422, "invalid_request", message + ".", close or None)

    @app.exception_handler(sqlite3.Error)
    async def _database(request: Request, exc: sqlite3.Error) -> JSONResponse:
        log.error("database error on %s %s: %s", request.method, redact_path(request.url.path), exc)
        problem = storage_problem(exc)
        problem.headers.update(await _drain(request, problem.status, problem.code))
        return problem_response(problem)

    @app.exception_handler(OSError)
    async def _storage(request: Request, exc: OSError) -> JSONResponse:
        log.error("storage error on %s %s: %s", request.method, redact_path(request.url.path), exc)
        problem = storage_problem(exc)
        problem.headers.update(await _drain(request, problem.status, problem.code))
        return problem_response(problem)

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception) -> JSONResponse:  # pragma: no cover
        log.exception("unhandled error on %s %s", request.method, redact_path(request.url.path))
        return error_response(
            500,
            "internal_error",
            "The server failed to handle this request; it has been logged. "
            "Try again, and report it if it persists.",
        )
