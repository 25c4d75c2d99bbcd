"""Progress bars where people wait: a text bar in a terminal, a widget in Jupyter.

Long calls (``Pipeline.run``, ``Client.wait``, batches) take ``progress=None`` by default,
which shows a bar only when someone is watching this process: a Jupyter kernel, or a
terminal owned by the main thread of the main process. A pool's worker process or a
server's thread inherits the terminal of the command that started it, but nobody there
is waiting for that one task, so they stay quiet. ``progress=True``/``False`` decides.
"""

from __future__ import annotations

import multiprocessing
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any


def watching() -> bool:
    """Is someone watching this run: a Jupyter kernel, or a terminal that this process's
    main thread owns (not a worker process's or a server thread's inherited one)?"""
    if multiprocessing.parent_process() is not None:
        return False
    if threading.current_thread() is not threading.main_thread():
        return False
    if "ipykernel" in sys.modules:
        try:
            from IPython import get_ipython

            if getattr(get_ipython(), "kernel", None) is not None:
                return True
        except ImportError:  # pragma: no cover - ipykernel without IPython
            pass
    stream = sys.stderr
    return bool(stream is not None and hasattr(stream, "isatty") and stream.isatty())


def wanted(progress: bool | None) -> bool:
    """``progress`` as given, or (None) whether someone is watching."""
    return watching() if progress is None else bool(progress)


def bar(**options: Any) -> Any:
    """A ``tqdm.auto`` bar: text in a terminal, an ipywidgets bar in Jupyter."""
    from tqdm.auto import tqdm

    return tqdm(**options)


# --- steps inside a stage ------------------------------------------------------------------
# A stage that works screenshot by screenshot calls ``advance()`` as each one is done; whoever
# runs it (a bar, a batch task that may be told to stop) listens with ``listening(...)``.
# A context variable, so the threads and tasks of other runs hear nothing of it.

_listener: ContextVar[Callable[[int], None] | None] = ContextVar("shotsmith_progress", default=None)


def advance(screenshots: int = 1) -> None:
    """Tell whoever is listening that ``screenshots`` more are done (0: a checkpoint only).
    A listener may raise to stop the run (a batch task whose batch has gone)."""
    listener = _listener.get()
    if listener is not None:
        listener(screenshots)


@contextmanager
def listening(listener: Callable[[int], None]) -> Iterator[None]:
    """Hear ``advance()`` calls within the block (after any outer listener has heard them)."""
    outer = _listener.get()

    def both(screenshots: int) -> None:
        if outer is not None:
            outer(screenshots)
        listener(screenshots)

    token = _listener.set(both)
    try:
        yield
    finally:
        _listener.reset(token)
