"""Design jobs: inserted with their idempotency key, claimed, finished, deleted; webhooks."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from errno import ENOTEMPTY
from pathlib import Path
from typing import Any

from .base import StoreBase
from .queue import JOB_QUEUE
from .records import Idempotency, Job, new_file_token, utc_now


class JobStore(StoreBase):
    """Design jobs: inserted with their idempotency key, claimed, finished, deleted; webhooks."""

    def insert_job(
        self,
        *,
        job_id: str,
        owner: str,
        project_name: str,
        input_count: int,
        params: dict[str, Any],
        webhook_url: str | None,
        base_url: str,
        idempotency: Idempotency | None = None,
    ) -> Job:
        """The queued job, and its idempotency key if any, in one transaction: a job a
        client may not have heard about (the answer lost) is always found by a retry."""
        with self._transaction() as conn:
            row = conn.execute(
                "INSERT INTO design_jobs (job_id, owner, status, project_name, input_count,"
                " params, webhook_url, base_url, file_token, created_at)"
                " VALUES (?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (
                    job_id,
                    owner,
                    project_name,
                    input_count,
                    json.dumps(params),
                    webhook_url,
                    base_url,
                    new_file_token(),
                    utc_now(),
                ),
            ).fetchone()
            if idempotency is not None:
                self._remember(conn, owner, job_id, idempotency)
        return Job.from_row(row)

    def delete_job(
        self, job_id: str, owner: str, held: Callable[[str, str | None], bool] | None = None
    ) -> tuple[str, list[str]] | None:
        """Remove a job of ``owner`` (row, files, idempotency keys): ``("deleted", files
        that could not be removed)``; ``("processing", [])`` if a worker has it (not
        removed); None if there is no such job.
        ``held(job_id, started_at)`` says whether a worker really has a processing job
        (None: assume it does); one nobody holds (stuck) is deleted like a finished one."""
        with self._transaction() as conn:
            row = conn.execute(
                "SELECT status, owner, started_at FROM design_jobs WHERE job_id = ?", (job_id,)
            ).fetchone()
            if row is None or row["owner"] != owner:
                return None
            if row["status"] == "processing" and (held is None or held(job_id, row["started_at"])):
                return "processing", []
            conn.execute("DELETE FROM design_jobs WHERE job_id = ?", (job_id,))
            conn.execute("DELETE FROM idempotency_keys WHERE resource = ?", (job_id,))
        return "deleted", self.remove_tree(self.job_dir(job_id))

    def remove_tree(self, folder: Path) -> list[str]:
        """Remove ``folder`` and everything in it; what could not be removed, as
        ``"inputs/01.png (permission denied)"`` relative to ``folder`` (empty: all gone)."""
        failed: list[str] = []

        def note(_function: Any, path: str, exc_info: Any) -> None:
            exc = exc_info[1]
            if isinstance(exc, FileNotFoundError) or getattr(exc, "errno", None) == ENOTEMPTY:
                return  # gone already / a folder left because of a file named on its own
            try:
                name = str(Path(path).relative_to(folder))
            except ValueError:
                name = Path(path).name
            reason = (getattr(exc, "strerror", None) or type(exc).__name__).lower()
            failed.append(f"{name} ({reason})")

        if folder.exists():
            shutil.rmtree(folder, onerror=note)
        return failed

    def claim_next(self) -> Job | None:
        """Atomically move the oldest queued job to processing; None when none is queued."""
        row = JOB_QUEUE.claim(self._conn())
        return Job.from_row(row) if row else None

    def complete(self, job: Job, outputs: list[str]) -> Job | None:
        """Record success for the claim ``job`` holds; None if that claim is no longer valid."""
        row = (
            self._conn()
            .execute(
                "UPDATE design_jobs SET status = 'completed', finished_at = ?, outputs = ?,"
                " error = NULL, claim = NULL,"
                " webhook_status = CASE WHEN webhook_url IS NULL THEN NULL ELSE 'pending' END"
                " WHERE job_id = ? AND status = 'processing' AND claim = ? RETURNING *",
                (utc_now(), json.dumps(outputs), job.job_id, job.claim),
            )
            .fetchone()
        )
        return Job.from_row(row) if row else None

    def fail(self, job: Job, error: str) -> Job | None:
        """Record failure for the claim ``job`` holds (or for a queued job when unclaimed)."""
        args: tuple[str, ...]
        if job.claim is None:
            where, args = "status = 'queued'", (job.job_id,)
        else:
            where, args = "status = 'processing' AND claim = ?", (job.job_id, job.claim)
        row = (
            self._conn()
            .execute(
                "UPDATE design_jobs SET status = 'failed', finished_at = ?, error = ?,"
                " claim = NULL,"
                " webhook_status = CASE WHEN webhook_url IS NULL THEN NULL ELSE 'pending' END"
                f" WHERE job_id = ? AND {where} RETURNING *",
                (utc_now(), error, *args),
            )
            .fetchone()
        )
        return Job.from_row(row) if row else None

    def requeue(self, job: Job, *, count_attempt: bool = True) -> bool:
        """Give a claimed job back to the queue (worker crash; shutdown does not count)."""
        return JOB_QUEUE.release(self._conn(), job.job_id, job.claim, count_attempt=count_attempt)

    def processing_jobs(self) -> list[Job]:
        """Every job a worker is supposed to be designing (for the watchdog)."""
        rows = self._conn().execute("SELECT * FROM design_jobs WHERE status = 'processing'")
        return [Job.from_row(r) for r in rows]

    def requeue_abandoned(self) -> list[str]:
        """At startup: every job left processing by a previous (killed) server goes back."""
        return JOB_QUEUE.recover(self._conn())

    def set_webhook(self, job_id: str, status: str, error: str | None = None) -> None:
        self._conn().execute(
            "UPDATE design_jobs SET webhook_status = ?, webhook_error = ?, webhook_at = ?"
            " WHERE job_id = ?",
            (status, error, utc_now(), job_id),
        )

    def webhooks_due(self) -> list[Job]:
        """Finished jobs whose webhook was never attempted (the server stopped first)."""
        rows = self._conn().execute(
            "SELECT * FROM design_jobs WHERE webhook_status = 'pending'"
            " AND status IN ('completed', 'failed') ORDER BY finished_at"
        )
        return [Job.from_row(r) for r in rows]

    def abandon_webhooks_in_flight(self) -> int:
        """At startup: deliveries cut off by a crash are recorded as failed, not retried."""
        cur = self._conn().execute(
            "UPDATE design_jobs SET webhook_status = 'failed', webhook_at = ?,"
            " webhook_error = 'the server stopped while delivering; not retried'"
            " WHERE webhook_status = 'sending'",
            (utc_now(),),
        )
        return cur.rowcount

    # --- design jobs: reading ------------------------------------------------------
    def get_job(self, job_id: str) -> Job | None:
        row = (
            self._conn().execute("SELECT * FROM design_jobs WHERE job_id = ?", (job_id,)).fetchone()
        )
        return Job.from_row(row) if row else None

    def job_by_file_token(self, token: str) -> Job | None:
        row = (
            self._conn()
            .execute(
                "SELECT * FROM design_jobs WHERE file_token = ? AND status = 'completed'", (token,)
            )
            .fetchone()
        )
        return Job.from_row(row) if row else None

    def count_jobs(self, status: str | None = None) -> int:
        if status is None:
            return self._conn().execute("SELECT count(*) FROM design_jobs").fetchone()[0]
        return (
            self._conn()
            .execute("SELECT count(*) FROM design_jobs WHERE status = ?", (status,))
            .fetchone()[0]
        )

    def job_ids(self) -> set[str]:
        return {r[0] for r in self._conn().execute("SELECT job_id FROM design_jobs")}
