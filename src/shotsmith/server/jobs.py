"""Running design jobs: a dispatcher thread feeding a pool of worker processes.

The queue *is* the ``design_jobs`` table. One dispatcher thread claims queued jobs
atomically (as many as there are free workers, so ``processing`` means a worker
has it), submits each to a ``ProcessPoolExecutor`` whose workers call the library's
:func:`shotsmith.design`, and records the outcome. Rendering never runs on the
event loop, so polling stays fast however many jobs render.

Reliability rules:

* start-up re-queues jobs a killed server left ``processing``; a job interrupted
  ``max_attempts`` times (it may be what kills the server) fails instead;
* a job whose inputs are gone fails with a message saying so;
* a dead worker process (out of memory, killed) breaks the pool: it is rebuilt and
  the jobs it held are re-queued (or failed after ``max_attempts``);
* a job running longer than ``job_timeout`` fails; its worker is ended with the pool
  (jobs running beside it go back to the queue, without counting an attempt);
* an outcome that cannot be recorded (database locked, disk full) is recorded again
  every 2 s until it is; a watchdog (every ``watch_interval`` seconds) returns a job the
  database says is ``processing`` but no worker of this server has (a claim whose
  submission failed, an outcome lost) to the queue, or fails it with a reason after
  ``max_attempts``; such a stuck job can also be deleted;
* graceful stop: no new claims, jobs under way get ``grace`` seconds to finish,
  the rest are put back to ``queued`` for the next start, then workers are ended;
* worker processes exit by themselves if the server process disappears (SIGKILL).

:class:`PoolRunner` is that machinery for any table-backed queue; :class:`JobRunner`
runs design jobs with it, :class:`~.collections.CollectionRunner` screenshot collections
(in a pool of its own, so a long capture never holds up design jobs).
"""

from __future__ import annotations

import errno
import functools
import logging
import multiprocessing
import os
import queue
import re
import shutil
import signal
import sqlite3
import threading
import time
import traceback
from collections.abc import Callable
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .store import Job, Store
from .webhooks import Notifier

log = logging.getLogger("shotsmith.server")

NO_OUTPUT = "rendering produced no screenshots"


def default_workers() -> int:
    return max(1, min(2, os.cpu_count() or 1))


# --- what runs in a worker process -------------------------------------------------------


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:  # the server is gone (SIGKILL): do not linger as an orphan
            os._exit(1)


def init_worker(server_pid: int, warm_up: bool = True) -> None:
    """Worker start-up: watch the server process, import the pipeline once (``warm_up``).

    Ctrl-C and SIGTERM sent to the whole process group are left to the server, which
    puts unfinished jobs back in the queue and then ends its workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if os.getppid() != server_pid:  # the server died while this worker was starting
        os._exit(1)
    threading.Thread(
        target=_watch_parent, args=(server_pid,), daemon=True, name="parent-watch"
    ).start()
    if warm_up:
        _warm_up()


def _warm_up() -> None:
    """Design one tiny screenshot in memory, so the first real job does not pay for
    imports, fonts and templates. Best effort: a failure here shows up in real jobs."""
    try:
        import io

        from PIL import Image

        from ..pipeline import design

        buf = io.BytesIO()
        Image.new("RGB", (60, 130), (40, 90, 160)).save(buf, "PNG")
        design(
            [buf.getvalue()],
            project_name="Warm Up",
            screens=["home"],
            out_dir=None,
            ocr=False,
            write_table=False,
        )
    except Exception:  # pragma: no cover
        log.debug("worker warm-up failed", exc_info=True)


def warm() -> int:
    return os.getpid()


def run_design(
    job_dir: str,
    inputs: list[str],
    project_name: str,
    params: dict[str, Any],
    options: dict[str, Any],
) -> tuple[str, Any]:
    """Design one job in a worker: ``("ok", [png paths in store order])`` or ``("error", msg)``.

    Only plain data crosses the process boundary; an exception becomes its message
    (the traceback goes to the server log), so nothing unpicklable travels back.
    """
    from .. import columns as C
    from ..errors import ShotsmithError
    from ..pipeline import design

    out = Path(job_dir) / "out"
    try:
        if out.exists():  # a re-run after an interruption starts clean
            shutil.rmtree(out)
        frame = design(
            [str(Path(job_dir) / p) for p in inputs],
            project_name=project_name,
            bundle_id=params.get("bundle_id") or None,
            screens=params["screens"],
            devices=params["devices"],
            template=params.get("template", "default"),
            out_dir=out,
            **options,
        )
        if C.POSITION in frame.columns:
            frame = frame.sort_values(C.POSITION, kind="stable")
        paths = [str(p) for p in frame.get(C.RENDER_PATH, []) if p and Path(p).is_file()]
        return "ok", paths
    except ShotsmithError as exc:
        return "error", _scrub(str(exc), job_dir)
    except MemoryError:
        return (
            "error",
            "the server ran out of memory while designing this job; send fewer or smaller images",
        )
    except OSError as exc:  # writing the outputs: disk full, data directory not writable
        traceback.print_exc()
        return "error", storage_message(exc, "this job's screenshots")
    except Exception as exc:  # a bug: keep the job's error readable, log the traceback
        traceback.print_exc()
        cause = storage_cause(exc)
        if cause is not None:  # storage trouble behind another error: name it
            return "error", storage_message(cause, "this job's screenshots")
        return "error", _scrub(
            f"internal error while designing ({type(exc).__name__}: {exc})", job_dir
        )


def _scrub(message: str, job_dir: str) -> str:
    """Error messages name files relative to the job ("inputs/01.png"), not server paths."""
    return scrub_paths(message, job_dir)


#: An absolute path (not the ``//host`` of a URL): ``/var/data/jobs/x/out/01.png``
_ABSOLUTE_PATH = re.compile(r"(?<![\w.:/~-])/(?:[^\s'\"():,;<>/]+/)*([^\s'\"():,;<>/]+)/?")


def scrub_paths(message: str, *roots: str | os.PathLike[str]) -> str:
    """``message`` without server paths: names under ``roots`` become relative
    ("inputs/01.png"), any other absolute path its last part ("Inter-Bold.otf")."""
    for root in roots:
        text = str(Path(root))
        message = message.replace(text + os.sep, "").replace(text, ".")
    return _ABSOLUTE_PATH.sub(lambda m: m.group(1), message)


#: errno values that mean the server's storage, not the request, is the problem.
STORAGE_ERRNOS = frozenset(
    {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM, errno.EIO}
    | {errno.EMFILE, errno.ENFILE, errno.ENOMEM}
)


def storage_cause(exc: BaseException) -> OSError | None:
    """The storage error behind ``exc`` (itself, or in its ``__cause__``/``__context__``
    chain): an ``OSError`` with a storage errno (disk full, read-only, permission...), or
    a ``sqlite3`` error about the disk or a lock, as an ``OSError`` that names it."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, OSError) and current.errno in STORAGE_ERRNOS:
            return current
        if isinstance(current, sqlite3.OperationalError):
            text = str(current)
            if any(word in text for word in ("disk", "locked", "readonly", "unable to open")):
                return OSError(errno.EIO, f"database: {text}")
        current = current.__cause__ or current.__context__
    return None


def storage_message(exc: OSError, what: str) -> str:
    """A job's error when the server cannot write: the client's request was fine."""
    reason = (exc.strerror or type(exc).__name__).lower()
    return (
        f"storage unavailable: the server could not write {what} ({reason}); this is a "
        "problem on the server's side, not with the images. Submit the job again later"
    )


# --- the dispatcher -----------------------------------------------------------------------


@dataclass
class _Running:
    item: Any  # a Job, or a Collection
    future: Future
    started: float  # time.monotonic()
    timeout: float  # seconds this run may take


class PoolRunner:
    """A dispatcher thread feeding a process pool from a table-backed queue.

    Subclasses say what a claim is and how outcomes are recorded (the hooks below);
    this class owns the pool, the time limits, crash handling and graceful stop.
    """

    thread_name = "shotsmith-jobs"
    kind = "job"  # for log messages
    warm_up = True  # import and exercise the design pipeline in each worker at start-up
    eager = True  # start the workers with the runner (else at the first claim)

    def __init__(
        self,
        *,
        workers: int | None = None,
        max_attempts: int = 3,
        grace: float = 5.0,
        watch_interval: float = 30.0,
    ):
        self.workers = workers if workers and workers > 0 else default_workers()
        self.max_attempts = max_attempts
        self.grace = grace
        self.watch_interval = watch_interval
        self._next_watch = 0.0
        self._pool: ProcessPoolExecutor | None = None
        self._running: dict[str, _Running] = {}
        self._done: queue.SimpleQueue[tuple[str, Future]] = queue.SimpleQueue()
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    # --- hooks -------------------------------------------------------------------------
    def _recover(self) -> None:
        """At start-up, before the dispatcher runs: put back what a killed server held."""

    def _claim(self) -> bool:
        """Claim one waiting item and submit it (or finish it at once); False if none."""
        raise NotImplementedError

    def _record(self, item: Any, future: Future) -> None:
        """A run finished (``future`` is done): record its outcome."""
        raise NotImplementedError

    def _key(self, item: Any) -> str:
        raise NotImplementedError

    def _fail(self, item: Any, error: str) -> None:
        raise NotImplementedError

    def _requeue(self, item: Any, *, count_attempt: bool) -> bool:
        raise NotImplementedError

    def _interrupted_message(self, item: Any) -> str:
        raise NotImplementedError

    def _timeout_message(self, item: Any, timeout: float) -> str:
        raise NotImplementedError

    def _stuck(self) -> list[Any]:
        """Items the database says are being worked on but this runner does not hold
        (the watchdog's list; none by default)."""
        return []

    def _stuck_message(self, item: Any) -> str:
        raise NotImplementedError

    def holds(self, key: str) -> bool:
        """Whether a run of ``key`` is under way here (read from other threads)."""
        return key in self._running

    # --- life cycle ------------------------------------------------------------------
    def start(self) -> None:
        self._recover()
        self._thread = threading.Thread(target=self._loop, name=self.thread_name, daemon=True)
        self._thread.start()

    def notify(self) -> None:
        """Something was queued: claim it now rather than at the next tick."""
        self._wake.set()

    def begin_stop(self) -> None:
        """Stop claiming; runs under way get ``grace`` seconds (see :meth:`stop`)."""
        self._stopping.set()
        self._wake.set()

    def stop(self) -> None:
        """Graceful stop: see the module docstring. Blocks for at most ``grace`` + a little."""
        self.begin_stop()
        if self._thread is not None:
            self._thread.join(self.grace + 15)

    @property
    def busy(self) -> int:
        return len(self._running)

    # --- the loop ------------------------------------------------------------------------
    def _loop(self) -> None:
        try:
            while not self._stopping.is_set():
                self._wake.clear()
                try:
                    if self._pool is None and self.eager:
                        self._pool = self._new_pool()
                    self._drain()
                    self._expire()
                    self._watch()
                    self._fill()
                except Exception:  # no pool, DB trouble, disk full...: log, back off, go on
                    log.exception("%s dispatcher error; retrying in 2 s", self.kind)
                    self._stopping.wait(2.0)
                self._wake.wait(1.0)
            self._wind_down()
        except Exception:  # pragma: no cover
            log.exception("%s dispatcher stopped unexpectedly", self.kind)

    def _new_pool(self) -> ProcessPoolExecutor:
        pool = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=init_worker,
            initargs=(os.getpid(), self.warm_up),
        )
        try:
            for _ in range(self.workers):  # start every worker now, not on the first job
                pool.submit(warm)
        except BaseException:
            _terminate(pool)
            raise
        return pool

    def _fill(self) -> None:
        while len(self._running) < self.workers and not self._stopping.is_set():
            if not self._claim():
                return

    def _submit(self, item: Any, fn: Callable[..., Any], args: tuple, timeout: float) -> None:
        if self._pool is None:
            self._pool = self._new_pool()
        try:
            future = self._pool.submit(fn, *args)
        except (BrokenProcessPool, RuntimeError):
            self._replace_pool()
            future = self._pool.submit(fn, *args)
        key = self._key(item)
        self._running[key] = _Running(item, future, time.monotonic(), timeout)
        future.add_done_callback(functools.partial(self._on_done, key))

    def _on_done(self, key: str, future: Future) -> None:
        self._done.put((key, future))
        self._wake.set()

    def _drain(self) -> None:
        while True:
            try:
                key, future = self._done.get_nowait()
            except queue.Empty:
                return
            entry = self._running.get(key)
            if entry is None or entry.future is not future:
                continue  # a run given up earlier (timeout, pool rebuilt): outcome ignored
            del self._running[key]
            try:
                self._record(entry.item, future)
            except Exception:
                # not recorded (database locked, disk full): keep it, record it again
                # after the loop's back-off rather than leave the row processing
                self._running[key] = entry
                self._done.put((key, future))
                raise

    def _watch(self) -> None:
        """The watchdog: a stuck item goes back to the queue, or fails after
        ``max_attempts`` with a reason."""
        now = time.monotonic()
        if now < self._next_watch:
            return
        self._next_watch = now + self.watch_interval
        for item in self._stuck():
            if item.attempts >= self.max_attempts:
                self._fail(item, self._stuck_message(item))
            elif self._requeue(item, count_attempt=True):
                log.warning(
                    "%s %s was processing with no worker on it; re-queued",
                    self.kind,
                    self._key(item),
                )

    def _interrupted(self, item: Any, exc: BaseException) -> None:
        if self._stopping.is_set():  # stopping (workers may get the signal too): not its fault
            self._requeue(item, count_attempt=False)
            return
        if self._pool is not None and getattr(self._pool, "_broken", False):
            self._replace_pool()
        if item.attempts >= self.max_attempts:
            self._fail(item, self._interrupted_message(item))
        elif self._requeue(item, count_attempt=True):
            log.warning(
                "%s %s: worker process died (%s); re-queued",
                self.kind,
                self._key(item),
                type(exc).__name__,
            )

    def _expire(self) -> None:
        """Fail runs over their time limit; a stuck worker ends with its pool."""
        now = time.monotonic()
        expired = [
            r
            for r in self._running.values()
            if now - r.started > r.timeout and not r.future.done()  # done: to record
        ]
        if not expired:
            return
        for run in expired:
            del self._running[self._key(run.item)]
            self._fail(run.item, self._timeout_message(run.item, run.timeout))
        for run in self._running.values():  # innocent bystanders in the same pool
            self._requeue(run.item, count_attempt=False)
        self._running.clear()
        self._replace_pool()

    def _replace_pool(self) -> None:
        old, self._pool = self._pool, None
        if old is not None:
            _terminate(old)
        log.warning("%s worker pool rebuilt", self.kind)
        self._pool = self._new_pool()

    def _wind_down(self) -> None:
        deadline = time.monotonic() + self.grace
        while self._running and time.monotonic() < deadline:
            self._drain()
            self._wake.wait(0.1)
            self._wake.clear()
        self._drain()
        for run in list(self._running.values()):
            if self._requeue(run.item, count_attempt=False):
                log.info(
                    "%s %s put back in the queue for the next start", self.kind, self._key(run.item)
                )
        self._running.clear()
        if self._pool is not None:
            _terminate(self._pool)
            self._pool = None


class JobRunner(PoolRunner):
    """Design jobs: the ``design_jobs`` table is the queue; one run per job."""

    claim_grace = 10.0  # seconds a fresh claim counts as held (see :meth:`has`)

    def __init__(
        self,
        store: Store,
        notifier: Notifier,
        output_urls: Callable[[Job], list[str]],
        *,
        workers: int | None = None,
        design_options: dict[str, Any] | None = None,
        max_attempts: int = 3,
        grace: float = 5.0,
        job_timeout: float = 300.0,
        watch_interval: float = 30.0,
    ):
        super().__init__(
            workers=workers, max_attempts=max_attempts, grace=grace, watch_interval=watch_interval
        )
        self.store = store
        self.notifier = notifier
        self.output_urls = output_urls
        self.design_options = dict(design_options or {})
        self.job_timeout = job_timeout

    # --- recovery ----------------------------------------------------------------------
    def _recover(self) -> None:
        requeued = self.store.requeue_abandoned()
        failed = []
        for job_id in requeued:
            job = self.store.get_job(job_id)
            if job is not None and job.attempts >= self.max_attempts:
                failed_job = self.store.fail(job, self._interrupted_message(job))
                if failed_job:  # its webhook is pending: sent once, with the others below
                    failed.append(failed_job)
        failed_ids = {f.job_id for f in failed}
        requeued = [j for j in requeued if j not in failed_ids]
        if requeued:
            log.warning(
                "re-queued %d job(s) left processing by a previous run: %s",
                len(requeued),
                ", ".join(requeued),
            )
        for job in failed:
            log.warning("job %s failed after interruptions: %s", job.job_id, job.error)
        self.store.abandon_webhooks_in_flight()
        for job in self.store.webhooks_due():  # finished just before a crash, never sent
            self.notifier.send(job, self.output_urls(job) if job.status == "completed" else [])

    def _interrupted_message(self, job: Job) -> str:
        return (
            f"the job was interrupted {job.attempts} times (server or worker process "
            "died while rendering it, possibly out of memory); not retried again. "
            "Submit it again, with fewer or smaller images if it keeps failing"
        )

    def _timeout_message(self, job: Job, timeout: float) -> str:
        return (
            f"the job took longer than {timeout:g} s and was stopped; submit fewer or "
            "smaller images"
        )

    def _stuck(self) -> list[Job]:
        return [job for job in self.store.processing_jobs() if job.job_id not in self._running]

    def _stuck_message(self, job: Job) -> str:
        return (
            f"the job was left processing with no worker designing it {job.attempts} times "
            "(the server could not start or record its work); not retried again. Submit it "
            "again later"
        )

    def has(self, job_id: str, started_at: str | None) -> bool:
        """Whether a processing job is really being designed (for DELETE): a run of it is
        under way here, or it was claimed in the last ``claim_grace`` seconds (it may be
        being submitted)."""
        if self.holds(job_id) or not started_at:
            return True
        try:
            started = datetime.fromisoformat(started_at.replace("Z", "+00:00"))
        except ValueError:
            return True
        return (datetime.now(UTC) - started).total_seconds() < self.claim_grace

    # --- claiming and recording ------------------------------------------------------------
    def _key(self, job: Job) -> str:
        return job.job_id

    def _claim(self) -> bool:
        job = self.store.claim_next()
        if job is None:
            return False
        inputs = job.params.get("inputs", [])
        job_dir = self.store.job_dir(job.job_id)
        missing = [p for p in inputs if not (job_dir / p).is_file()]
        if not inputs or missing:
            self._fail(
                job,
                f"the job's input images are missing from the server's "
                f"data directory ({len(missing) or 'all'} of "
                f"{job.input_count}); submit the job again",
            )
            return True
        log.info(
            "job %s: designing %d image(s) (attempt %d)", job.job_id, job.input_count, job.attempts
        )
        self._submit(
            job,
            run_design,
            (str(job_dir), inputs, job.project_name, job.params, self.design_options),
            self.job_timeout,
        )
        return True

    def _record(self, job: Job, future: Future) -> None:
        try:
            kind, value = future.result()
        except (BrokenProcessPool, CancelledError) as exc:
            self._interrupted(job, exc)
            return
        except Exception as exc:  # pragma: no cover - run_design returns, it does not raise
            cause = storage_cause(exc)
            kind, value = (
                "error",
                (
                    storage_message(cause, "this job's screenshots")
                    if cause is not None
                    else f"internal error while designing ({type(exc).__name__})"
                ),
            )
        if kind == "ok":
            outputs = [self.store.relative(p) for p in value]
            if not outputs:
                self._fail(job, NO_OUTPUT)
            elif len(outputs) != job.input_count:
                self._fail(
                    job, f"rendering produced {len(outputs)} of {job.input_count} screenshots"
                )
            else:
                done = self.store.complete(job, outputs)
                if done is not None:
                    log.info("job %s completed: %d screenshot(s)", job.job_id, len(outputs))
                    self.notifier.send(done, self.output_urls(done))
        else:
            self._fail(job, str(value) or NO_OUTPUT)

    def _fail(self, job: Job, error: str) -> None:
        error = scrub_paths(error, self.store.job_dir(job.job_id), self.store.data_dir)
        failed = self.store.fail(job, error)
        if failed is not None:
            log.warning("job %s failed: %s", job.job_id, error)
            self.notifier.send(failed, [])

    def _requeue(self, job: Job, *, count_attempt: bool) -> bool:
        return self.store.requeue(job, count_attempt=count_attempt)


def _terminate(pool: ProcessPoolExecutor) -> None:
    """Shut a pool down now: cancel what has not started, end the worker processes."""
    processes = list(getattr(pool, "_processes", {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.kill()  # workers ignore SIGTERM (see init_worker)
    for process in processes:
        process.join(5)
