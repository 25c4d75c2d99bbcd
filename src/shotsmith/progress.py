"""Progress bars where people wait: a text bar in a terminal, a widget in Jupyter.

Long calls (``Pipeline.run``, ``Client.wait``, batches) take ``progress=None`` by default,
which shows a bar only when someone is watching this process: a Jupyter kernel, or a
terminal owned by the main thread of the main process. A pool's worker process or a
server's thread inherits the terminal of the command that started it, but nobody there
is waiting for that one task, so they stay quiet. ``progress=True``/``False`` decides.
"""

from __future__ import annotations

import multiprocessing
import queue
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

_T = TypeVar("_T")
_R = TypeVar("_R")


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
    """A progress bar: an ipywidgets bar in Jupyter (whose saved text, for papermill and
    nbconvert, is the final count), a text bar on a terminal, one line per change in a log."""
    if _in_kernel():
        return _notebook_bar(**options)
    stream = options.get("file") or sys.stderr
    if stream is not None and hasattr(stream, "isatty") and stream.isatty():
        from tqdm import tqdm

        return tqdm(**options)
    return _line_bar(**options)


def _in_kernel() -> bool:
    if "ipykernel" not in sys.modules:
        return False
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - ipykernel without IPython
        return False
    return getattr(get_ipython(), "kernel", None) is not None


def _notebook_bar(**options: Any) -> Any:
    """tqdm's widget bar, displayed with a display id so that closing it writes the final
    count into the output's text (what a notebook saved by papermill shows) while the
    widget stays in place."""
    from IPython.display import display
    from tqdm.notebook import tqdm as widget_bar

    class NotebookBar(widget_bar):
        def __init__(self, **kwargs: Any):
            super().__init__(display=False, **kwargs)
            self.handle = None if self.disable else display(self.container, display_id=True)

        def close(self) -> None:
            if self.disable:
                return
            super().close()
            if self.handle is not None:
                bundle = dict(self.container._repr_mimebundle_() or {})
                bundle["text/plain"] = self.__str__()
                self.handle.update(bundle, raw=True)

    return NotebookBar(**options)


LOG_FORMAT = (
    "{desc}: {percentage:3.0f}% {n_fmt}/{total_fmt} {unit}s [{elapsed}<{remaining}{postfix}]"
)


def _line_bar(**options: Any) -> Any:
    """For a log (stderr is a file or a pipe): each change on a line of its own, no carriage
    returns, no drawn bar, the final count once."""
    from tqdm import tqdm

    class LineBar(tqdm):
        def __init__(self, **kwargs: Any):
            self.last_state: tuple = ()
            kwargs.setdefault("bar_format", LOG_FORMAT)
            kwargs.setdefault("mininterval", 0)
            kwargs["bar_format"] = _without_bar(kwargs["bar_format"])
            super().__init__(**kwargs)
            self.out: Any = self.fp  # type: ignore[has-type]
            self.fp = _Quiet()  # tqdm's own \r and \n go nowhere
            self.refresh()

        def __setattr__(self, name: str, value: Any) -> None:
            if name == "bar_format" and isinstance(value, str):
                value = _without_bar(value)
            super().__setattr__(name, value)

        def display(self, msg: str | None = None, pos: int | None = None) -> bool:
            state = (self.n, self.desc, self.postfix, self.bar_format)  # not the clock
            if msg is None and state != self.last_state and hasattr(self, "out"):
                self.out.write(self.__str__() + "\n")
                self.out.flush()
                self.last_state = state
            return True

    return LineBar(**options)


def _without_bar(fmt: str) -> str:
    return fmt.replace("|{bar}|", "").replace("{bar}", "")


class _Quiet:
    def write(self, text: str) -> None:
        return None

    def flush(self) -> None:
        return None


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


_FINISHED = -1  # what a worker thread tells when its item is done (a count is >= 0)


def in_threads(pool: Executor, work: Callable[[_T], _R], items: Iterable[_T]) -> list[_R]:
    """``list(pool.map(work, items))``, where the ``advance()`` calls made inside ``work``, in
    the pool's threads, are heard here, by this thread's listener, as they are made.

    A listener belongs to the thread that set it (a context variable, which a pool's
    threads do not inherit), and neither a bar nor a batch task expects calls from several
    threads; so the threads only queue their counts, and this thread tells them on. If the
    listener raises (a batch task told to stop), the items not yet started are dropped,
    the ones running stop at their next ``advance()``, and the error is raised here.
    """
    told: queue.SimpleQueue[int] = queue.SimpleQueue()
    stopped = threading.Event()

    def tell(screenshots: int) -> None:
        if stopped.is_set():
            raise _Stopped
        told.put(screenshots)

    def run(item: _T) -> _R:
        token = _listener.set(tell)
        try:
            return work(item)
        finally:
            _listener.reset(token)
            told.put(_FINISHED)

    futures = [pool.submit(run, item) for item in items]
    try:
        running = len(futures)
        while running:
            screenshots = told.get()
            if screenshots == _FINISHED:
                running -= 1
            else:
                advance(screenshots)
    except BaseException:
        stopped.set()
        for future in futures:
            future.cancel()
        raise
    return [future.result() for future in futures]


class _Stopped(Exception):
    """Raised in a pool's thread whose listener, on the waiting thread, has stopped the run."""
