"""Serve a folder of static files on 127.0.0.1, so a built web app can be captured.

::

    with ss.serve_folder("dist/") as site:
        shots = ss.capture(site.url, device_sizes=["6.9"])
"""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path

from ...errors import InputFileError


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    server: _QuietServer

    def log_message(self, *args: object) -> None:  # no access log on stderr
        pass

    def do_GET(self) -> None:
        with self.server.lock:
            self.server.requests += 1
        super().do_GET()


class _QuietServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], handler) -> None:
        super().__init__(address, handler)
        self.requests = 0  # GETs served
        self.lock = threading.Lock()

    def handle_error(self, request, _client_address) -> None:  # a browser hung up: fine
        pass


class LocalSite:
    """A folder served over HTTP on a free port of 127.0.0.1, in a background thread.

    ``url`` ends with ``/``; ``requests`` counts the GETs served. Use it as a context
    manager, or call :meth:`close`.
    """

    def __init__(self, folder: str | Path, port: int = 0):
        root = Path(folder)
        if not (root / "index.html").is_file():
            raise InputFileError(
                f"{root} has no index.html; serve_folder() serves a built web app's folder"
            )
        self.folder = root
        handler = functools.partial(_QuietHandler, directory=str(root))
        self._httpd = _QuietServer(("127.0.0.1", port), handler)
        self.url = f"http://127.0.0.1:{self._httpd.server_address[1]}/"
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()

    @property
    def requests(self) -> int:
        return self._httpd.requests

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> LocalSite:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"LocalSite({str(self.folder)!r}, url={self.url!r})"


def serve_folder(folder: str | Path, port: int = 0) -> LocalSite:
    """Serve ``folder`` (which holds an ``index.html``) on 127.0.0.1; see :class:`LocalSite`."""
    return LocalSite(folder, port)
