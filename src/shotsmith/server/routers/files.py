"""``/v1/files/{token}/{name}``: the PNGs of jobs and collections, by capability URL."""

from __future__ import annotations

import asyncio
import os

from fastapi import APIRouter
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import Response
from starlette.types import Receive, Scope, Send

from ..collections import collection_file
from ..dependencies import State
from ..errors import NOT_FOUND
from ..problem import Problem

router = APIRouter(tags=["design"])


FILE_HEADERS = {
    "Content-Type": "image/png",
    "Cache-Control": "private, max-age=31536000, immutable",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
}


class OpenFileResponse(Response):
    """Sends an already opened file (a descriptor from :meth:`Store.open_output`), then
    closes it; the body is left out for HEAD. Reads run in a thread."""

    chunk_size = 256 * 1024

    def __init__(self, fd: int, headers: dict[str, str]):
        super().__init__(status_code=200, headers=headers)
        self.fd = fd
        self.size = os.fstat(fd).st_size
        self.headers["content-length"] = str(self.size)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await send(
                {
                    "type": "http.response.start",
                    "status": self.status_code,
                    "headers": self.raw_headers,
                }
            )
            if scope.get("method") != "HEAD":
                while True:
                    data = await asyncio.to_thread(os.read, self.fd, self.chunk_size)
                    if not data:
                        break
                    await send({"type": "http.response.body", "body": data, "more_body": True})
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            os.close(self.fd)


@router.get(
    "/v1/files/{token}/{name}",
    response_class=Response,
    summary="Download a PNG (capability URL, no API key)",
    description="The URLs in a design job's `output_urls` and in a collection's `screenshots` "
    "and `generatedScreenshots`. The random token in the path is the credential: "
    "anyone holding the URL can fetch the file, so share it like a secret. `HEAD` answers "
    "the same headers (`Content-Length`) without the PNG.",
    responses={
        200: {
            "content": {"image/png": {"schema": {"type": "string", "format": "binary"}}},
            "description": "The PNG.",
        },
        **NOT_FOUND,
    },
)
async def get_file(token: str, name: str, state: State) -> Response:
    relative, folder = None, None
    job = state.store.job_by_file_token(token) if len(token) <= 64 else None
    if job is not None:
        folder = f"jobs/{job.job_id}"
        for path in job.outputs:
            if path.rsplit("/", 1)[-1] == name:
                relative = path
                break
    elif len(token) <= 64:
        collection = state.store.collection_by_file_token(token)
        if collection is not None:
            folder = f"collections/{collection.collection_id}"
            relative = collection_file(collection, name)
    fd = None
    if relative is not None and folder is not None:
        try:  # below the job's folder, no symlinks, regular files only
            fd = await run_in_threadpool(state.store.open_output, relative, folder)
        except OSError:
            fd = None
    if fd is None:
        raise Problem(
            404,
            "file_not_found",
            "No such file. Use a URL from output_urls of a completed job, or from a "
            "collection's screenshots, unchanged.",
        )
    return OpenFileResponse(fd, FILE_HEADERS)


router.add_api_route(
    "/v1/files/{token}/{name}", get_file, methods=["HEAD"], include_in_schema=False
)
