"""``shotsmith serve`` on this machine, in a child process, for notebooks, benchmarks and
end-to-end tests.

Starting a real server is the same few steps wherever it is needed: pick a free port,
build the ``serve`` command line, hand the API keys over in ``SHOTSMITH_API_KEYS``,
start the process and poll ``/healthz`` until it answers (or report the log when the
process dies or stays silent). They live here, beside the server, once: the notebook's
``LocalServer`` and the tests' ``LiveServer`` are thin wrappers that add what only they
need (a throw-away data dir and a client; a process group to SIGKILL).
"""

from __future__ import annotations

import atexit
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from ..errors import RemoteError
from ..settings import child_environment, current

__all__ = ["LocalProcess", "free_port", "run_local", "serve_command"]


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port the OS says is free on ``host`` now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def serve_command(
    *,
    host: str,
    port: int,
    data_dir: str | Path,
    workers: int | None = None,
    log_level: str = "warning",
    args: Sequence[str] = (),
) -> list[str]:
    """The ``shotsmith serve`` command line, run by this interpreter."""
    cmd = [
        sys.executable,
        "-m",
        "shotsmith.cli",
        "serve",
        "--host",
        host,
        "--port",
        str(port),
        "--data-dir",
        str(data_dir),
    ]
    if workers:
        cmd += ["--workers", str(workers)]
    return [*cmd, "--log-level", log_level, *args]


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG: stop when the parent dies
    except (OSError, AttributeError):
        pass


@dataclass
class LocalProcess:
    """A started ``shotsmith serve``: its process and where it listens."""

    process: subprocess.Popen[bytes]
    host: str
    port: int

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def wait_ready(self, timeout: float, log: Callable[[], str] = lambda: "") -> None:
        """Poll ``/healthz`` until it answers 200. Raises :class:`ShotsmithError` with
        the server's log when the process exits first or ``timeout`` seconds pass (the
        process is then killed)."""
        import httpx

        deadline = time.monotonic() + timeout
        with httpx.Client(base_url=self.url, timeout=2) as http:
            while True:
                if self.process.poll() is not None:
                    raise RemoteError(
                        f"shotsmith serve exited with {self.process.returncode} "
                        f"before it was ready:\n{log()}"
                    )
                try:
                    if http.get("/healthz").status_code == 200:
                        return
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    self.process.kill()
                    self.process.wait(10)
                    raise RemoteError(
                        f"shotsmith serve was not ready within {timeout:g} s:\n{log()}"
                    )
                time.sleep(0.1)


def run_local(
    data_dir: str | Path,
    *,
    api_keys: str,
    host: str = "127.0.0.1",
    port: int | None = None,
    workers: int | None = None,
    log_level: str = "warning",
    args: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
    output: IO[bytes] | None = None,
    cwd: str | Path | None = None,
    own_session: bool = False,
    die_with_parent: bool = False,
    startup_timeout: float = 60.0,
    log: Callable[[], str] = lambda: "",
) -> LocalProcess:
    """Start ``shotsmith serve`` over ``data_dir`` on ``host:port`` (a free port when
    None) and return once it answers ``/healthz``.

    ``api_keys``: the comma-separated keys it accepts (``SHOTSMITH_API_KEYS``; ``env``
    comes on top of this process's environment). ``output``: where its stdout and
    stderr go (a file opened for binary writing). ``own_session``: its own process
    group, so that a test can SIGKILL the server and every worker at once.
    ``die_with_parent`` (Linux): it gets SIGTERM when the starting process dies. On a
    failed start, raises :class:`ShotsmithError` with ``log()`` (its output so far).
    """
    Path(data_dir).mkdir(mode=0o700, parents=True, exist_ok=True)
    port = port or free_port(host)
    cmd = serve_command(
        host=host, port=port, data_dir=data_dir, workers=workers, log_level=log_level, args=args
    )
    process = subprocess.Popen(
        cmd,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=output if output is not None else subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
        env=child_environment({"SHOTSMITH_API_KEYS": api_keys, **(env or {})}),
        start_new_session=own_session,
        preexec_fn=_die_with_parent if die_with_parent and sys.platform == "linux" else None,
    )
    local = LocalProcess(process, host, port)
    local.wait_ready(startup_timeout, log)
    return local


class LocalServer:
    """``shotsmith serve`` in a subprocess on a free port, with a throw-away data dir and
    API key; ``.url``, ``.api_key``, ``.client()``, ``.stop()``; a context manager.

    Stopped at ``stop()``, on leaving a ``with`` block, at interpreter exit, and (Linux)
    when the process that started it dies."""

    def __init__(
        self,
        *,
        port: int | None = None,
        host: str = "127.0.0.1",
        data_dir: str | Path | None = None,
        api_key: str | None = None,
        workers: int | None = 1,
        startup_timeout: float = 60.0,
        env: dict[str, str] | None = None,
        args: Sequence[str] = (),
    ):
        import secrets

        self.host = host
        self.port = port or free_port(host)
        self.url = f"http://{host}:{self.port}"
        self._own_dir = data_dir is None
        self.data_dir = (
            Path(data_dir) if data_dir else Path(tempfile.mkdtemp(prefix="shotsmith-server-"))
        )
        self.api_key = api_key or "sk-local-" + secrets.token_urlsafe(24)
        self.workers = workers
        self.startup_timeout = startup_timeout
        self.env = env or {}
        self.args = list(args)  # more `shotsmith serve` options, e.g. ["--no-ocr"]
        self.process: subprocess.Popen | None = None
        self.log_path = self.data_dir / "server.log"

    def start(self) -> LocalServer:
        keys = ",".join((*current().api_keys, self.api_key))
        self.data_dir.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "ab")
        try:
            local = run_local(
                self.data_dir,
                api_keys=keys,
                host=self.host,
                port=self.port,
                workers=self.workers,
                args=self.args,
                env=self.env,
                output=log,
                die_with_parent=True,
                startup_timeout=self.startup_timeout,
                log=self.log_tail,
            )
        except RemoteError:
            self.stop()  # a data dir of its own goes too
            raise
        finally:
            log.close()
        self.process = local.process
        atexit.register(self.stop)
        return self

    def log_tail(self, lines: int = 20) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def client(self, timeout: float = 60.0):
        from ..client import Client

        return Client(self.url, self.api_key, timeout)

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self, timeout: float = 15.0) -> None:
        proc, self.process = self.process, None
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGINT)  # uvicorn's graceful shutdown
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        if self._own_dir:
            shutil.rmtree(self.data_dir, ignore_errors=True)
        try:
            atexit.unregister(self.stop)
        except Exception:  # pragma: no cover
            pass

    def __enter__(self) -> LocalServer:
        return self.start() if self.process is None else self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return f"LocalServer({self.url}, {state})"


def start_server(**options: Any) -> LocalServer:
    """Start ``shotsmith serve`` locally (see :class:`LocalServer`) and wait until it answers."""
    return LocalServer(**options).start()
