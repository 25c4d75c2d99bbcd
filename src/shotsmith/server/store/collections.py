"""Screenshot collections: inserted, claimed, captured, finished, listed."""

from __future__ import annotations

import json
from typing import Any

from .base import StoreBase
from .queue import COLLECTION_QUEUE
from .records import Collection, Idempotency, new_collection_id, new_file_token, utc_now


class CollectionStore(StoreBase):
    """Screenshot collections: inserted, claimed, captured, finished, listed."""

    # --- collections: writing -------------------------------------------------------
    def insert_collection(
        self,
        *,
        project_id: str,
        owner: str,
        name: str,
        params: dict[str, Any],
        base_url: str,
        collection_id: str | None = None,
        idempotency: Idempotency | None = None,
    ) -> Collection | None:
        """A new collection (status capturing, waiting for a worker), with its idempotency
        key if any, in one transaction; None when the project was removed in the meantime
        (checked in the same statement)."""
        collection_id = collection_id or new_collection_id()
        with self._transaction() as conn:
            row = conn.execute(
                "INSERT INTO collections (collection_id, project_id, owner, status, name,"
                " params, base_url, file_token, created_at)"
                " SELECT ?, ?, ?, 'capturing', ?, ?, ?, ?, ?"
                " WHERE EXISTS (SELECT 1 FROM projects WHERE project_id = ?) RETURNING *",
                (
                    collection_id,
                    project_id,
                    owner,
                    name,
                    json.dumps(params),
                    base_url,
                    new_file_token(),
                    utc_now(),
                    project_id,
                ),
            ).fetchone()
            if row is not None and idempotency is not None:
                self._remember(conn, owner, collection_id, idempotency)
        return Collection.from_row(row) if row else None

    def claim_next_collection(self) -> Collection | None:
        """Atomically claim the oldest collection waiting for a worker (in either phase)."""
        row = COLLECTION_QUEUE.claim(self._conn())
        return Collection.from_row(row) if row else None

    def collection_captured(
        self, collection: Collection, raws: list[dict[str, Any]]
    ) -> Collection | None:
        """Capture done: record the raw screenshots, move to processing (same claim)."""
        row = (
            self._conn()
            .execute(
                "UPDATE collections SET status = 'processing', captured_at = ?, raws = ?"
                " WHERE collection_id = ? AND status = 'capturing' AND claim = ? RETURNING *",
                (utc_now(), json.dumps(raws), collection.collection_id, collection.claim),
            )
            .fetchone()
        )
        return Collection.from_row(row) if row else None

    def complete_collection(
        self, collection: Collection, outputs: list[dict[str, Any]]
    ) -> Collection | None:
        row = (
            self._conn()
            .execute(
                "UPDATE collections SET status = 'completed', finished_at = ?, outputs = ?,"
                " error = NULL, claim = NULL"
                " WHERE collection_id = ? AND status = 'processing' AND claim = ? RETURNING *",
                (utc_now(), json.dumps(outputs), collection.collection_id, collection.claim),
            )
            .fetchone()
        )
        return Collection.from_row(row) if row else None

    def fail_collection(self, collection: Collection, error: str) -> Collection | None:
        """Record failure for the claim ``collection`` holds (or, unclaimed, if still
        unclaimed)."""
        claim = "claim = ?" if collection.claim is not None else "claim IS NULL"
        args = (collection.claim,) if collection.claim is not None else ()
        row = (
            self._conn()
            .execute(
                "UPDATE collections SET status = 'failed', finished_at = ?, error = ?, claim = NULL"
                f" WHERE collection_id = ? AND status IN ('capturing', 'processing') AND {claim}"
                " RETURNING *",
                (utc_now(), error, collection.collection_id, *args),
            )
            .fetchone()
        )
        return Collection.from_row(row) if row else None

    def requeue_collection(self, collection: Collection, *, count_attempt: bool = True) -> bool:
        """Give a claimed collection back (it keeps its phase: processing keeps its raws)."""
        return COLLECTION_QUEUE.release(
            self._conn(), collection.collection_id, collection.claim, count_attempt=count_attempt
        )

    def requeue_abandoned_collections(self) -> list[str]:
        """At startup: every collection a previous (killed) server had claimed goes back."""
        return COLLECTION_QUEUE.recover(self._conn())

    # --- collections: reading -------------------------------------------------------
    def get_collection(self, collection_id: str) -> Collection | None:
        row = (
            self._conn()
            .execute("SELECT * FROM collections WHERE collection_id = ?", (collection_id,))
            .fetchone()
        )
        return Collection.from_row(row) if row else None

    def list_collections(
        self, project_id: str, owner: str, *, limit: int = 20, before: Collection | None = None
    ) -> list[Collection]:
        """Newest first; ``before``: only collections created before that one."""
        sql = "SELECT * FROM collections WHERE project_id = ? AND owner = ?"
        args: list[Any] = [project_id, owner]
        if before is not None:
            sql += (
                " AND (created_at, rowid) < (SELECT created_at, rowid FROM collections"
                " WHERE collection_id = ?)"
            )
            args.append(before.collection_id)
        sql += " ORDER BY created_at DESC, rowid DESC LIMIT ?"
        args.append(limit)
        return [Collection.from_row(r) for r in self._conn().execute(sql, args)]

    def count_active_collections(self, owner: str) -> int:
        return (
            self._conn()
            .execute(
                "SELECT count(*) FROM collections WHERE owner = ? AND status IN"
                " ('capturing', 'processing')",
                (owner,),
            )
            .fetchone()[0]
        )

    def collection_by_file_token(self, token: str) -> Collection | None:
        row = (
            self._conn()
            .execute("SELECT * FROM collections WHERE file_token = ?", (token,))
            .fetchone()
        )
        return Collection.from_row(row) if row else None

    def collection_ids(self) -> set[str]:
        return {r[0] for r in self._conn().execute("SELECT collection_id FROM collections")}
