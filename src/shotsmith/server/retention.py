"""Retention: finished jobs and collections are deleted after ``retention_days``.

Inputs and outputs used to be kept forever. A thread of the server prunes, at start-up
and then every hour, every design job and screenshot collection that finished (completed
or failed) more than ``retention_days`` ago: its row, its input images and its outputs
(their URLs then answer 404). Idempotency keys older than 24 hours go at the same time.
``retention_days=0`` keeps finished work forever. Owners can delete a job sooner with
``DELETE /v1/design/{job_id}``.
"""

from __future__ import annotations

import logging
import threading

from ..errors import InvalidOptionError
from .store import Store, utc_ago

log = logging.getLogger("shotsmith.server")

DEFAULT_DAYS = 30.0
INTERVAL = 3600.0


class RetentionSweeper:
    def __init__(self, store: Store, days: float = DEFAULT_DAYS, interval: float = INTERVAL):
        if days < 0:
            raise InvalidOptionError("retention_days must be 0 (keep forever) or more")
        self.store = store
        self.days = days
        self.interval = interval
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def sweep(self) -> tuple[list[str], list[str]]:
        """Prune now; the removed job and collection ids."""
        cutoff = utc_ago(days=self.days) if self.days > 0 else ""  # "": nothing is older
        jobs, collections = self.store.prune(cutoff)
        if jobs or collections:
            log.info("retention: deleted %d job(s) and %d collection(s) finished more than "
                     "%g day(s) ago", len(jobs), len(collections), self.days)  # fmt: skip
        return jobs, collections

    def start(self) -> None:
        self.sweep()
        self._thread = threading.Thread(target=self._loop, name="shotsmith-retention",
                                        daemon=True)  # fmt: skip
        self._thread.start()

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.sweep()
            except Exception:  # the database may be busy or the disk full: next time
                log.exception("retention sweep failed; trying again in %g s", self.interval)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)
