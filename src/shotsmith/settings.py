"""Settings from the environment, read in one place, and the threads policy.

The library reads ``SHOTSMITH_*`` variables here only, into a frozen :class:`Settings`
(:func:`current` builds one from ``os.environ`` when asked, so a variable set before a
call is seen by it). Nothing in the library writes the environment.

Threads: a render uses one thread per core (at most 4) on its own, and one thread when it
runs in a worker of a pool that already shares the cores (:func:`one_thread_per_worker`);
``SHOTSMITH_RENDER_THREADS`` overrides both. Tesseract gets ``OMP_THREAD_LIMIT=1`` in its
own process's environment (:mod:`shotsmith.ocr`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

_IN_WORKER: ContextVar[bool] = ContextVar("shotsmith_in_worker", default=False)


@dataclass(frozen=True)
class Settings:
    """What the environment asks of the library."""

    render_threads: int | None = None  # SHOTSMITH_RENDER_THREADS, a whole number >= 1
    login_password: str = ""  # SHOTSMITH_LOGIN_PASSWORD, for `capture --login USER`

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        threads = env.get("SHOTSMITH_RENDER_THREADS", "").strip()
        return cls(
            render_threads=int(threads) if threads.isdigit() else None,
            login_password=env.get("SHOTSMITH_LOGIN_PASSWORD", ""),
        )


def current() -> Settings:
    """The settings of the environment as it is now."""
    return Settings.from_env()


@contextmanager
def one_thread_per_worker() -> Iterator[None]:
    """Within: renders use one thread (unless ``SHOTSMITH_RENDER_THREADS`` says otherwise),
    for code running in a pool's worker whose siblings already share the cores."""
    token = _IN_WORKER.set(True)
    try:
        yield
    finally:
        _IN_WORKER.reset(token)


def render_threads(threads: int | None, rows: int) -> int:
    """Threads for one render of ``rows`` screenshots: ``threads`` when given, else
    ``SHOTSMITH_RENDER_THREADS``, else one in a pool's worker, else the cores (at most 4)."""
    if threads is None:
        threads = current().render_threads
    if threads is None:
        threads = 1 if _IN_WORKER.get() else min(4, os.cpu_count() or 1)
    return max(1, min(threads, rows))
