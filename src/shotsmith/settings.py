"""Settings from the environment, read in one place, and the threads policy.

The library reads environment variables here only, into a frozen :class:`Settings`, and
asks :func:`current` for them: the settings an edge (CLI, server, notebook) chose with
:func:`use`, else the environment's as it is at the call (so a variable set before a call
is seen by it). Nothing in the library writes the environment; a child process gets this
one's with a few variables on top (:func:`child_environment`).

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
from pathlib import Path

_IN_WORKER: ContextVar[bool] = ContextVar("shotsmith_in_worker", default=False)
_CHOSEN: Settings | None = None


@dataclass(frozen=True)
class Settings:
    """What the environment asks of the library."""

    render_threads: int | None = None  # SHOTSMITH_RENDER_THREADS, a whole number >= 1
    ocr_cli: bool = False  # SHOTSMITH_OCR_ENGINE=cli: the tesseract program, never tesserocr
    tessdata: str = ""  # TESSDATA_PREFIX: the first folder tesserocr's language data is sought in
    layouts: tuple[Path, ...] = ()  # SHOTSMITH_LAYOUTS, folders separated like PATH
    font_dirs: tuple[tuple[str, str], ...] = ()  # (variable, folder): SHOTSMITH_FONT(_DIR)S
    malloc_tuning: bool = True  # SHOTSMITH_MALLOC_TUNING=0 turns it off (allocator.py)
    llm: tuple[tuple[str, str], ...] = ()  # the SHOTSMITH_LLM_* variables (llm.LLMConfig)
    api_keys: tuple[str, ...] = ()  # SHOTSMITH_API_KEYS, comma-separated
    playwright_browsers: str = ""  # PLAYWRIGHT_BROWSERS_PATH
    cache_home: str = ""  # XDG_CACHE_HOME
    local_app_data: str = ""  # LOCALAPPDATA (Windows)
    windows_dir: str = ""  # WINDIR, else SystemRoot (Windows)
    login_password: str = ""  # SHOTSMITH_LOGIN_PASSWORD, for `capture --login USER`

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ
        threads = env.get("SHOTSMITH_RENDER_THREADS", "").strip()
        return cls(
            render_threads=int(threads) if threads.isdigit() else None,
            ocr_cli=env.get("SHOTSMITH_OCR_ENGINE", "").lower() == "cli",
            tessdata=env.get("TESSDATA_PREFIX", ""),
            layouts=tuple(Path(p) for p in env.get("SHOTSMITH_LAYOUTS", "").split(os.pathsep) if p),
            font_dirs=tuple(
                (name, part)
                for name in ("SHOTSMITH_FONTS", "SHOTSMITH_FONT_DIRS")
                for part in env.get(name, "").split(os.pathsep)
                if part
            ),
            malloc_tuning=env.get("SHOTSMITH_MALLOC_TUNING") != "0",
            llm=tuple(sorted((k, v) for k, v in env.items() if k.startswith("SHOTSMITH_LLM_"))),
            api_keys=tuple(
                k.strip() for k in env.get("SHOTSMITH_API_KEYS", "").split(",") if k.strip()
            ),
            playwright_browsers=env.get("PLAYWRIGHT_BROWSERS_PATH", ""),
            cache_home=env.get("XDG_CACHE_HOME", ""),
            local_app_data=env.get("LOCALAPPDATA", ""),
            windows_dir=env.get("WINDIR") or env.get("SystemRoot", ""),
            login_password=env.get("SHOTSMITH_LOGIN_PASSWORD", ""),
        )


def current() -> Settings:
    """The settings in force: those chosen with :func:`use`, else the environment's now."""
    return _CHOSEN if _CHOSEN is not None else Settings.from_env()


@contextmanager
def use(settings: Settings) -> Iterator[Settings]:
    """Within: the library reads ``settings`` (in every thread of this process), not the
    environment; for an edge that builds its settings once, or a test."""
    global _CHOSEN
    previous, _CHOSEN = _CHOSEN, settings
    try:
        yield settings
    finally:
        _CHOSEN = previous


def child_environment(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of a child process: this process's, with ``extra`` on top."""
    return {**os.environ, **(extra or {})}


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
