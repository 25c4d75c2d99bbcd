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
