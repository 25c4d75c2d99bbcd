"""One claimable queue over a table: what design jobs and collections share."""

from __future__ import annotations

import secrets
import sqlite3
from dataclasses import dataclass

from .records import utc_now


@dataclass(frozen=True)
class ClaimableQueue:
    """One table read as a work queue, for design jobs and collections alike.

    A worker claims the oldest waiting row in one ``UPDATE ... RETURNING`` (a fresh
    random ``claim`` token, ``attempts`` + 1); every later write names the claim it
    holds, so the write of a worker whose claim was taken back changes nothing. The
    SQL fragments say what differs between the tables: which rows wait, which may hold
    a claim, what a claim and a release also set, and which rows a killed server left.
    """

    table: str
    key: str  # the id column
    waiting: str  # rows a worker may claim
    held: str  # rows that may hold a claim (with ``claim = ?``)
    on_claim: str  # more SET on claim, with one ``?`` for the time
    on_release: str  # more SET when a claim is given back ("" or ", ...")
    stale: str  # rows a previous server held when it was killed

    def claim(self, conn: sqlite3.Connection) -> sqlite3.Row | None:
        """Atomically claim the oldest waiting row; None when none waits."""
        return conn.execute(
            f"UPDATE {self.table} SET claim = ?, attempts = attempts + 1, {self.on_claim}"
            f" WHERE {self.key} = (SELECT {self.key} FROM {self.table} WHERE {self.waiting}"
            "     ORDER BY created_at, rowid LIMIT 1)"
            f"   AND {self.waiting} RETURNING *",
            (secrets.token_hex(8), utc_now()),
        ).fetchone()

    def release(
        self, conn: sqlite3.Connection, item_id: str, claim: str | None, *, count_attempt: bool
    ) -> bool:
        """Give a claimed row back to the queue (a worker crash counts as an attempt;
        a shutdown does not)."""
        cur = conn.execute(
            f"UPDATE {self.table} SET claim = NULL, attempts = attempts - ?{self.on_release}"
            f" WHERE {self.key} = ? AND {self.held} AND claim = ?",
            (0 if count_attempt else 1, item_id, claim),
        )
        return cur.rowcount == 1

    def recover(self, conn: sqlite3.Connection) -> list[str]:
        """At start-up: every row a previous (killed) server held goes back, ids returned."""
        rows = conn.execute(
            f"UPDATE {self.table} SET claim = NULL{self.on_release}"
            f" WHERE {self.stale} RETURNING {self.key}"
        ).fetchall()
        return [r[0] for r in rows]


JOB_QUEUE = ClaimableQueue(
    table="design_jobs",
    key="job_id",
    waiting="status = 'queued'",
    held="status = 'processing'",
    on_claim="status = 'processing', started_at = ?",
    on_release=", status = 'queued', started_at = NULL",
    stale="status = 'processing'",
)
# A collection keeps its phase (capturing, or processing with its raws) across claims.
COLLECTION_QUEUE = ClaimableQueue(
    table="collections",
    key="collection_id",
    waiting="status IN ('capturing', 'processing') AND claim IS NULL",
    held="status IN ('capturing', 'processing')",
    on_claim="started_at = coalesce(started_at, ?)",
    on_release="",
    stale="claim IS NOT NULL AND status IN ('capturing', 'processing')",
)
