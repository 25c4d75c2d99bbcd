"""Where the apps run: a process pool (replaced when a worker dies), a Dask cluster or any
executor, with a bounded number of apps in flight."""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import logging
import os
import time
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

from ..errors import InvalidOptionError, RemoteError, ToolMissingError
from .task import _reason, _record

CONNECT_TIMEOUT = 10.0  # seconds to reach a Dask scheduler (distributed's own default: 30)


class _Fanout:
    """Where the apps run: an executor (or none: this process), its worker slots, whether we
    own it (and close it), and, for our own process pool, how to replace it when a worker
    process dies (a crash or the OOM killer breaks a ProcessPoolExecutor for good)."""

    def __init__(
        self,
        workers: int | None,
        scheduler: Any,
        executor: cf.Executor | None,
        connect_timeout: float = CONNECT_TIMEOUT,
    ):
        self.owned: Any = None
        self.scheduler: str | None = None  # the Dask scheduler's address, for messages
        self.client: Any = None
        self.keys: set[Any] = set()  # the Dask tasks submitted (to wait for when stopping)
        self.quieted: dict[str, int] = {}
        self.workers = workers
        self.generation = 0
        if executor is not None:
            self.executor: cf.Executor | None = executor
            self.slots = max(1, workers or os.cpu_count() or 1)
        elif scheduler is not None:
            try:
                import distributed
            except ImportError as exc:
                raise ToolMissingError(
                    "a Dask scheduler needs Dask: pip install 'shotsmith[dask]'."
                ) from exc
            if isinstance(scheduler, distributed.Client):
                client = scheduler
            else:
                client = self.owned = _connect(distributed, str(scheduler), connect_timeout)
                self.quieted = _quiet_distributed()  # a lost scheduler is our one line
            self.client = client
            self.scheduler = str(getattr(client.scheduler, "address", None) or scheduler)
            try:
                self.slots = _worker_threads(client, self.scheduler, connect_timeout)
            except RemoteError:
                self.close()
                raise
            self.executor = client.get_executor()
        else:
            self.workers = (os.cpu_count() or 1) if workers is None else workers
            self.slots = max(1, self.workers)
            if self.workers > 0:
                _refuse_unguarded_script()
            self.executor = self._new_pool() if self.workers > 0 else None

    def _new_pool(self) -> cf.ProcessPoolExecutor:
        self.owned = cf.ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=_pool_context(),
            initializer=_worker_init,
            initargs=(os.getpid(),),
        )
        return self.owned

    def abort(self, grace: float = 3.0) -> None:
        """Stop now (an interrupt): queued apps cancelled, our worker processes terminated
        (killed after ``grace`` seconds) and waited for, so nothing writes after this."""
        pool = self.owned
        if self.client is not None:
            self._abort_dask(grace=2 * grace)
            return
        if not isinstance(pool, cf.ProcessPoolExecutor):
            self.close()
            return
        procs = list((getattr(pool, "_processes", None) or {}).values())
        for proc in procs:
            with contextlib.suppress(Exception):
                proc.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in procs:
            proc.join(grace)
            if proc.is_alive():
                proc.kill()
                proc.join(1)
        self.owned = None

    def _abort_dask(self, grace: float) -> None:
        """Cancel this batch's tasks on the cluster and wait (up to ``grace`` seconds) until
        no worker is still running one: a running task sees that it was released and stops
        at its next screenshot, removing its half-written folder (:mod:`.task`)."""
        futures = list(getattr(self.executor, "_futures", ()))
        keys = self.keys | {f.key for f in futures}
        try:
            if futures:
                self.client.cancel(futures)
            deadline = time.monotonic() + grace
            while keys and time.monotonic() < deadline:
                running = self.client.run(_running_keys, on_error="return")
                if not any(keys & set(v) for v in running.values() if isinstance(v, list)):
                    break
                time.sleep(0.2)
        except Exception:  # a lost scheduler or worker: nothing to wait for
            pass
        finally:
            self.close()

    def submitted(self) -> None:
        """Note the keys of the Dask tasks in flight (their futures are gone by the time a
        stop needs them)."""
        if self.client is not None:
            self.keys.update(f.key for f in getattr(self.executor, "_futures", ()))

    @property
    def can_respawn(self) -> bool:
        return isinstance(self.owned, cf.ProcessPoolExecutor)

    def respawn(self) -> None:
        old = self.owned
        self.executor = self._new_pool()
        self.generation += 1
        old.shutdown(wait=False, cancel_futures=True)

    def lost(self, exc: BaseException) -> bool:
        """Whether ``exc`` (a task's) means the Dask scheduler went away: its futures are
        cancelled (we cancel none before the end) and the client is no longer running."""
        if self.client is None:
            return False
        return isinstance(exc, cf.CancelledError) or self.client.status != "running"

    def close(self) -> None:
        try:
            if self.owned is None:
                return
            if isinstance(self.owned, cf.Executor):
                self.owned.shutdown(wait=True, cancel_futures=True)
            else:
                with contextlib.suppress(Exception):  # a lost scheduler: nothing to tell it
                    self.owned.close(timeout=2)
        finally:
            for name, level in self.quieted.items():
                logging.getLogger(name).setLevel(level)
            self.quieted = {}


class SchedulerLost(Exception):
    """The Dask scheduler went away mid-run (run_batch says so, with what was done)."""


def _worker_threads(client: Any, address: str, timeout: float) -> int:
    """The cluster's worker threads, once there is a worker (waiting ``timeout`` seconds for
    one); a scheduler without workers would queue every app for ever."""
    threads = sum(client.nthreads().values())
    if threads:
        return threads
    try:
        client.wait_for_workers(1, timeout=timeout)
    except (TimeoutError, OSError):
        raise RemoteError(
            f"the Dask scheduler at {address} has no workers (waited {timeout:g} s); start "
            f"some (dask worker {address}), or allow longer with --connect-timeout "
            "(connect_timeout=)."
        ) from None
    return sum(client.nthreads().values()) or 1


def _task_failure(exc: BaseException) -> str:
    """Why a task could not run, in one sentence (a Dask worker that died running it)."""
    if type(exc).__name__ == "KilledWorker":
        return (
            "every Dask worker that ran this app died (out of memory? see the workers' "
            "logs); the other apps went on"
        )
    return _reason(exc)


def _running_keys(dask_worker: Any) -> list[Any]:
    """On a Dask worker: the keys of the tasks its threads are running now."""
    return list(dask_worker.active_threads.values())


def _quiet_distributed() -> dict[str, int]:
    """distributed's connection loggers off while we own the client (each lost connection
    logs a traceback of its own); returns their levels to restore."""
    names = ("distributed.client", "distributed.batched", "distributed.core", "tornado.application")
    levels = {name: logging.getLogger(name).level for name in names}
    for name in names:
        logging.getLogger(name).setLevel(logging.CRITICAL)
    return levels


def _connect(distributed: Any, address: str, timeout: float) -> Any:
    """A ``distributed.Client`` for ``address``; a scheduler that cannot be reached, or an
    address that is not one, is one sentence saying what to do, not distributed's traceback."""
    try:
        return distributed.Client(address, timeout=timeout)
    except ValueError as exc:  # "unknown address scheme 'foo'", a malformed address
        raise InvalidOptionError(
            f"scheduler {address!r} is not a Dask scheduler address ({exc}); "
            "give one like tcp://10.0.0.5:8786."
        ) from None
    except (OSError, TimeoutError):
        raise RemoteError(
            f"no Dask scheduler answered at {address} within {timeout:g} s; start one there "
            "(dask scheduler), check the address and port, or allow longer with "
            "--connect-timeout (connect_timeout=)."
        ) from None


def _refuse_unguarded_script() -> None:
    """Stop at once, in one sentence, when a script calls run_batch at its top level without
    ``if __name__ == "__main__":``: each worker process (forkserver, spawn) imports the
    script again, runs run_batch again and dies, and every app would be reported failed."""
    context = _pool_context()
    if context is None or context.get_start_method() == "fork":
        return
    where = _unguarded_call()
    if where is not None:
        raise InvalidOptionError(
            f"{where} calls run_batch at the top level of the script, and every worker "
            "process imports the script again: put the call under "
            '`if __name__ == "__main__":` (as the docs show), or pass workers=0.'
        )


def _unguarded_call() -> str | None:
    """``script.py:line`` when this call comes from a ``__main__`` script's top-level
    statement that is not inside ``if __name__ == "__main__":``; else None (a notebook,
    ``python -c``, ``python -m package``, a guarded call, a source that cannot be read)."""
    import ast
    import sys

    main = sys.modules.get("__main__")
    spec_name = getattr(getattr(main, "__spec__", None), "name", None)
    path = getattr(main, "__file__", None)
    if main is None or path is None or (spec_name and spec_name.endswith("__main__")):
        return None  # multiprocessing does not import these again in the workers
    frame: FrameType | None = sys._getframe(1)
    outer = None
    while frame is not None:  # the script's own top-level statement that led here
        if frame.f_globals is vars(main) and frame.f_code.co_name == "<module>":
            outer = frame
        frame = frame.f_back
    if outer is None:
        return None
    try:
        tree = ast.parse(Path(outer.f_code.co_filename).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return None
    line = outer.f_lineno
    for node in tree.body:
        if isinstance(node, ast.If) and _is_main_guard(node.test):
            if node.lineno <= line <= (node.end_lineno or node.lineno):
                return None
    return f"{Path(outer.f_code.co_filename).name}:{line}"


def _is_main_guard(test: Any) -> bool:
    """``__name__ == "__main__"`` (either way round)."""
    import ast

    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return False
    sides = [test.left, test.comparators[0]]
    names = [s.id for s in sides if isinstance(s, ast.Name)]
    values = [s.value for s in sides if isinstance(s, ast.Constant)]
    return isinstance(test.ops[0], ast.Eq) and names == ["__name__"] and values == ["__main__"]


def _worker_init(batch_pid: int) -> None:
    """In each worker: ignore Ctrl-C (it reaches the whole process group; the batch stops
    its workers itself) and exit when the batch's process is gone (killed, say): a
    forkserver worker's parent is the fork server, so the batch's death would not reach it."""
    import signal
    import threading

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with, args=(batch_pid,), daemon=True).start()


def _exit_with(pid: int) -> None:
    """Wait for process ``pid`` to end (a pidfd where there is one, else polling), then exit."""
    import select
    import time

    try:
        fd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        fd = None
    if fd is not None:
        select.select([fd], [], [])
    else:
        while True:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            except PermissionError:
                pass
            time.sleep(0.5)
    os._exit(1)


def _pool_context():
    """forkserver where there is one: workers fork from a clean, pre-imported server, not
    from this (perhaps threaded: a notebook kernel, a progress bar) process."""
    import multiprocessing as mp

    if "forkserver" not in mp.get_all_start_methods():
        return None
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(["shotsmith.batch", "shotsmith.pipeline"])
    return ctx


def _failed(job: dict[str, Any], reason: str) -> dict[str, Any]:
    record = _record(job, status="failed")
    record["error"] = reason
    return record


def _stream(
    task: Callable[[dict[str, Any]], dict[str, Any]],
    jobs: list[dict[str, Any]],
    fan: _Fanout,
    window: int,
) -> Iterator[dict[str, Any]]:
    """Run ``task`` (:func:`.task.design_app`) over the jobs with at most ``window`` in
    flight; yield records.

    When a worker process dies, the pool is replaced and the apps that were in flight
    are run again one at a time, so only the app that kills a worker is reported."""
    if fan.executor is None:  # in this process: leave the thread settings alone
        for job in jobs:
            yield task({**job, "single_thread": False})
        return
    queue: deque[Any] = deque(jobs)
    alone: deque[Any] = deque()
    pending: dict[cf.Future, tuple[dict[str, Any], int, bool]] = {}

    def broken(job: dict[str, Any], generation: int, solo: bool, exc: BaseException):
        if not fan.can_respawn:
            return _failed(job, f"worker failed: {_reason(exc)}")
        if generation == fan.generation:
            fan.respawn()
        if solo:
            return _failed(
                job,
                "the worker process died while designing this app "
                f"({_reason(exc)}); it ran alone, so it was this app",
            )
        alone.append(job)
        return None

    try:
        while queue or alone or pending:
            while True:
                if alone:  # suspects of a dead worker: one at a time, nothing beside them
                    if pending:
                        break
                    job, solo = alone.popleft(), True
                elif queue and len(pending) < window:
                    job, solo = queue.popleft(), False
                else:
                    break
                try:
                    pending[fan.executor.submit(task, job)] = (job, fan.generation, solo)
                    fan.submitted()
                except cf.BrokenExecutor as exc:
                    record = broken(job, fan.generation, solo, exc)
                    if record is not None:
                        yield record
                if solo:
                    break
            if not pending:
                continue
            # on Dask, look up every second: a lost scheduler may leave futures pending
            tick = None if fan.client is None else 1.0
            done, _ = cf.wait(list(pending), timeout=tick, return_when=cf.FIRST_COMPLETED)
            if not done and fan.client is not None and fan.client.status != "running":
                raise SchedulerLost(fan.scheduler)
            for fut in done:
                job, generation, solo = pending.pop(fut)
                try:
                    yield fut.result()
                except cf.BrokenExecutor as exc:
                    record = broken(job, generation, solo, exc)
                    if record is not None:
                        yield record
                except Exception as exc:  # the task could not run (e.g. a Dask KilledWorker)
                    if fan.lost(exc):
                        raise SchedulerLost(fan.scheduler) from None
                    yield _failed(job, f"worker failed: {_task_failure(exc)}")
    finally:
        for fut in pending:
            fut.cancel()
