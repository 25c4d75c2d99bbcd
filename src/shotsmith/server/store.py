"""Server state: one SQLite file (WAL) plus job folders under the data directory.

::

    <data_dir>/shotsmith.db                 API key hashes, design jobs, projects, collections
    <data_dir>/jobs/<job_id>/inputs/NN.png  the raw screenshots, written before the 202
    <data_dir>/jobs/<job_id>/out/...        the designed PNGs (+ design.json/design.csv)
    <data_dir>/collections/<id>/raw/...     a collection's raw captures (capture's layout)
    <data_dir>/collections/<id>/out/...     its styled PNGs, one folder per device

Connections are per thread (WAL lets readers run while one writer commits), in
autocommit mode; single changes are single statements (``UPDATE ... RETURNING`` runs
atomically), and a job or collection is inserted with its idempotency key in one
transaction. No other module speaks SQL.

The data directory is created ``0700`` and the database ``0600`` (it holds key hashes
and the capability tokens of every file URL); the job and collection folders are kept
``0700``. Files are served only through :meth:`Store.open_output`, which opens them
below their job's folder without following links.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import shutil
import sqlite3
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from ..errors import ConflictError, InvalidOptionError, StorageError

DB_NAME = "shotsmith.db"
KEY_PREFIX = "ss_"

#: Schema migrations (each a list of statements), applied in order; ``PRAGMA user_version``
#: is how many have run.
MIGRATIONS: list[list[str]] = [
    [
        """
    CREATE TABLE api_keys (
        key_hash   TEXT PRIMARY KEY,          -- sha256 hex of the key; the key is never stored
        name       TEXT NOT NULL,
        prefix     TEXT NOT NULL,             -- first characters, to recognise a key in lists
        created_at TEXT NOT NULL,
        revoked_at TEXT
    )""",
        """
    CREATE TABLE design_jobs (
        job_id         TEXT PRIMARY KEY,
        owner          TEXT NOT NULL,         -- sha256 hex of the API key that created it
        status         TEXT NOT NULL
                       CHECK (status IN ('queued', 'processing', 'completed', 'failed')),
        project_name   TEXT NOT NULL,
        input_count    INTEGER NOT NULL,
        params         TEXT NOT NULL,         -- JSON: screens, devices, bundle_id, template
        webhook_url    TEXT,
        base_url       TEXT NOT NULL,         -- base URL seen at creation (if none configured)
        file_token     TEXT NOT NULL UNIQUE,  -- capability part of the output URLs
        created_at     TEXT NOT NULL,
        started_at     TEXT,
        finished_at    TEXT,                  -- completed_at when completed
        outputs        TEXT,                  -- JSON list of PNG paths relative to the data dir
        error          TEXT,
        attempts       INTEGER NOT NULL DEFAULT 0,
        claim          TEXT,                  -- token of the worker claim while processing
        webhook_status TEXT,                  -- pending, sending, delivered, failed (NULL: none)
        webhook_error  TEXT,
        webhook_at     TEXT
    )""",
        "CREATE INDEX design_jobs_queue ON design_jobs (status, created_at)",
        "CREATE INDEX design_jobs_owner ON design_jobs (owner, created_at)",
    ],
    [
        # 2: projects (registered by the operator, visible to every key) and their screenshot
        # collections (spec 4.1-4.3), each owned by the key hash that created it.
        """
    CREATE TABLE projects (
        project_id  TEXT PRIMARY KEY,
        name        TEXT NOT NULL,
        platforms   TEXT NOT NULL,            -- JSON list: ios, android
        locale      TEXT NOT NULL,            -- primary locale, BCP 47
        source_url  TEXT,                     -- a web app to capture ...
        source_dir  TEXT,                     -- ... or a folder of simulator screenshots
        bundle_id   TEXT NOT NULL DEFAULT '',
        max_screens INTEGER NOT NULL DEFAULT 6,
        created_at  TEXT NOT NULL,
        CHECK ((source_url IS NULL) <> (source_dir IS NULL))
    )""",
        """
    CREATE TABLE collections (
        collection_id TEXT PRIMARY KEY,
        project_id    TEXT NOT NULL,
        owner         TEXT NOT NULL,          -- sha256 hex of the API key that created it
        status        TEXT NOT NULL
                      CHECK (status IN ('capturing', 'processing', 'completed', 'failed')),
        name          TEXT NOT NULL,
        params        TEXT NOT NULL,          -- JSON: source, platforms, device_sizes, locale...
        base_url      TEXT NOT NULL,
        file_token    TEXT NOT NULL UNIQUE,   -- capability part of the screenshot URLs
        created_at    TEXT NOT NULL,
        started_at    TEXT,
        captured_at   TEXT,                   -- capture done, raw screenshots recorded
        finished_at   TEXT,                   -- completedAt when completed
        raws          TEXT,                   -- JSON list of raw screenshot records
        outputs       TEXT,                   -- JSON list of styled screenshot records
        error         TEXT,
        attempts      INTEGER NOT NULL DEFAULT 0,
        claim         TEXT                    -- token of the worker claim while it runs
    )""",
        "CREATE INDEX collections_list ON collections (project_id, owner, created_at)",
        "CREATE INDEX collections_queue ON collections (status, claim, created_at)",
        "CREATE INDEX collections_owner ON collections (owner, status)",
    ],
    [
        # 3: Idempotency-Key: a create request's key, per API key, and what it created
        """
    CREATE TABLE idempotency_keys (
        owner       TEXT NOT NULL,            -- sha256 hex of the API key
        key         TEXT NOT NULL,            -- the Idempotency-Key header
        fingerprint TEXT NOT NULL,            -- sha256 of the method, route and body
        resource    TEXT NOT NULL,            -- the job_id or collectionId it created
        response    TEXT NOT NULL,            -- JSON: the 202's body and Location
        created_at  TEXT NOT NULL,
        PRIMARY KEY (owner, key)
    )""",
        "CREATE INDEX idempotency_age ON idempotency_keys (created_at)",
        "CREATE INDEX idempotency_resource ON idempotency_keys (resource)",
        "CREATE INDEX design_jobs_finished ON design_jobs (status, finished_at)",
        "CREATE INDEX collections_finished ON collections (status, finished_at)",
    ],
]


def utc_now() -> str:
    """ISO 8601 UTC with a ``Z``, millisecond precision."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def hash_key(key: str) -> str:
    """API keys are high-entropy random strings, so one sha256 is enough to store them."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def new_api_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


def new_job_id() -> str:
    return "job_" + secrets.token_hex(10)


def new_collection_id() -> str:
    return "col_" + secrets.token_hex(10)


def new_file_token() -> str:
    return secrets.token_urlsafe(24)


def _row_fields(cls: type, row: sqlite3.Row) -> dict[str, Any]:
    """A row's columns as the dataclass ``cls``'s fields: the columns of the same names,
    JSON columns (``JSON_COLUMNS``) decoded, a NULL JSON list read as empty."""
    values = {}
    for f in fields(cls):
        value = row[f.name]
        if f.name in JSON_COLUMNS:
            value = json.loads(value) if value is not None else []
        values[f.name] = value
    return values


# The columns that hold JSON (lists, or an object for ``params``), in every table.
JSON_COLUMNS = frozenset({"params", "outputs", "platforms", "raws"})


@dataclass(frozen=True)
class Job:
    job_id: str
    owner: str
    status: str
    project_name: str
    input_count: int
    params: dict[str, Any]
    webhook_url: str | None
    base_url: str
    file_token: str
    created_at: str
    started_at: str | None
    finished_at: str | None
    outputs: list[str]
    error: str | None
    attempts: int
    claim: str | None
    webhook_status: str | None
    webhook_error: str | None

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> Job:
        return cls(**_row_fields(cls, row))

    @property
    def finished(self) -> bool:
        return self.status in ("completed", "failed")


@dataclass(frozen=True)
class Project:
    project_id: str
    name: str
    platforms: list[str]
    locale: str
    source_url: str | None
    source_dir: str | None
    bundle_id: str
    max_screens: int
    created_at: str

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> Project:
        return cls(**_row_fields(cls, row))

    @property
    def source(self) -> str:
        return self.source_url or self.source_dir or ""


@dataclass(frozen=True)
class Collection:
    """A screenshot collection. ``status`` capturing with no ``claim`` means waiting for a
    worker; ``raws``/``outputs`` are lists of dicts (see :mod:`.collections`)."""

    collection_id: str
    project_id: str
    owner: str
    status: str
    name: str
    params: dict[str, Any]
    base_url: str
    file_token: str
    created_at: str
    started_at: str | None
    captured_at: str | None
    finished_at: str | None
    raws: list[dict[str, Any]]
    outputs: list[dict[str, Any]]
    error: str | None
    attempts: int
    claim: str | None

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> Collection:
        return cls(**_row_fields(cls, row))

    @property
    def finished(self) -> bool:
        return self.status in ("completed", "failed")


@dataclass(frozen=True)
class KeyInfo:
    name: str
    prefix: str
    created_at: str
    revoked_at: str | None


IDEMPOTENCY_HOURS = 24


@dataclass(frozen=True)
class Idempotency:
    """An ``Idempotency-Key`` of a create request: ``fingerprint`` of what was sent,
    ``response`` (the 202's ``body`` and ``location``) given for it."""

    key: str
    fingerprint: str
    response: dict[str, Any]
    resource: str = ""
    created_at: str = ""


def utc_ago(**delta: float) -> str:
    """``utc_now()`` minus a ``timedelta(**delta)``, in the same format (for comparisons)."""
    when = datetime.now(UTC) - timedelta(**delta)
    return when.isoformat(timespec="milliseconds").replace("+00:00", "Z")


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


class Store:
    """The SQLite database and the file layout of one data directory."""

    def __init__(self, data_dir: str | Path):
        self.data_dir = Path(data_dir).resolve()
        try:
            if not self.data_dir.exists():
                self.data_dir.mkdir(mode=0o700, parents=True)
            for folder in (self.jobs_dir, self.incoming_dir, self.collections_dir):
                folder.mkdir(mode=0o700, parents=True, exist_ok=True)
                _private(folder, 0o700)  # also a folder an older version made
        except OSError as exc:
            raise StorageError(
                f"data dir {self.data_dir}: cannot create it "
                f"({exc.strerror}). Pick a writable --data-dir."
            ) from exc
        self.db_path = self.data_dir / DB_NAME
        try:  # created 0600 before SQLite opens it; its -wal and -shm files take its mode
            os.close(os.open(self.db_path, os.O_RDWR | os.O_CREAT, 0o600))
        except OSError as exc:
            raise StorageError(
                f"{self.db_path}: cannot create the database ({exc.strerror}). Pick a "
                "writable --data-dir."
            ) from exc
        for suffix in ("", "-wal", "-shm"):
            _private(Path(f"{self.db_path}{suffix}"), 0o600)
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._migrate()

    # --- layout ----------------------------------------------------------------
    @property
    def jobs_dir(self) -> Path:
        return self.data_dir / "jobs"

    @property
    def incoming_dir(self) -> Path:
        return self.data_dir / "jobs" / ".incoming"

    def job_dir(self, job_id: str) -> Path:
        return self.jobs_dir / job_id

    @property
    def collections_dir(self) -> Path:
        return self.data_dir / "collections"

    def collection_dir(self, collection_id: str) -> Path:
        return self.collections_dir / collection_id

    # --- connections -------------------------------------------------------------
    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            try:
                conn = sqlite3.connect(
                    self.db_path, isolation_level=None, timeout=10, check_same_thread=False
                )
            except sqlite3.Error as exc:
                raise StorageError(f"{self.db_path}: cannot open the database ({exc}).") from exc
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA busy_timeout = 10000")
            conn.execute("PRAGMA synchronous = NORMAL")  # WAL: durable across process crashes
            self._local.conn = conn
            with self._lock:
                self._all.append(conn)
        return conn

    def close(self) -> None:
        with self._lock:
            for conn in self._all:
                try:
                    conn.close()
                except sqlite3.Error:  # pragma: no cover
                    pass
            self._all.clear()
        self._local = threading.local()

    def _migrate(self) -> None:
        conn = self._conn()
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            for index in range(version, len(MIGRATIONS)):
                conn.execute("BEGIN IMMEDIATE")
                try:
                    if conn.execute("PRAGMA user_version").fetchone()[0] == index:
                        for statement in MIGRATIONS[index]:
                            conn.execute(statement)
                        conn.execute(f"PRAGMA user_version = {index + 1}")
                    conn.execute("COMMIT")
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
        except sqlite3.DatabaseError as exc:
            raise StorageError(
                f"{self.db_path}: not a usable shotsmith database ({exc}). "
                "Point --data-dir at a fresh or shotsmith-made folder."
            ) from exc

    # --- API keys ----------------------------------------------------------------
    def create_key(self, name: str) -> str:
        """Store a new key's hash under ``name``; return the key (shown once, never stored)."""
        name = name.strip()
        if not name:
            raise InvalidOptionError("keys create: give the key a --name, e.g. --name ci.")
        key = new_api_key()
        self._conn().execute(
            "INSERT INTO api_keys (key_hash, name, prefix, created_at) VALUES (?, ?, ?, ?)",
            (hash_key(key), name, key[: len(KEY_PREFIX) + 6], utc_now()),
        )
        return key

    def list_keys(self) -> list[KeyInfo]:
        rows = self._conn().execute(
            "SELECT name, prefix, created_at, revoked_at FROM api_keys ORDER BY created_at"
        )
        return [KeyInfo(r["name"], r["prefix"], r["created_at"], r["revoked_at"]) for r in rows]

    def revoke_keys(self, name: str) -> int:
        cur = self._conn().execute(
            "UPDATE api_keys SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL",
            (utc_now(), name),
        )
        return cur.rowcount

    def active_key_hashes(self) -> list[str]:
        rows = self._conn().execute("SELECT key_hash FROM api_keys WHERE revoked_at IS NULL")
        return [r[0] for r in rows]

    # --- design jobs: writing ------------------------------------------------------
    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

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

    def _remember(
        self, conn: sqlite3.Connection, owner: str, resource: str, idempotency: Idempotency
    ) -> None:
        conn.execute(
            "DELETE FROM idempotency_keys WHERE owner = ? AND key = ?", (owner, idempotency.key)
        )  # an expired use of the key
        conn.execute(
            "INSERT INTO idempotency_keys (owner, key, fingerprint, resource, response,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?)",
            (
                owner,
                idempotency.key,
                idempotency.fingerprint,
                resource,
                json.dumps(idempotency.response),
                utc_now(),
            ),
        )

    def get_idempotency(self, owner: str, key: str) -> Idempotency | None:
        """The use of ``key`` by ``owner`` within the last 24 hours, if any."""
        row = (
            self._conn()
            .execute(
                "SELECT * FROM idempotency_keys WHERE owner = ? AND key = ? AND created_at > ?",
                (owner, key, utc_ago(hours=IDEMPOTENCY_HOURS)),
            )
            .fetchone()
        )
        if row is None:
            return None
        return Idempotency(
            key=row["key"],
            fingerprint=row["fingerprint"],
            response=json.loads(row["response"]),
            resource=row["resource"],
            created_at=row["created_at"],
        )

    def delete_job(self, job_id: str, owner: str) -> str | None:
        """Remove a job of ``owner`` (row, files, idempotency keys): ``"deleted"``;
        ``"processing"`` if a worker has it (not removed); None if there is no such job."""
        with self._transaction() as conn:
            row = conn.execute(
                "SELECT status, owner FROM design_jobs WHERE job_id = ?", (job_id,)
            ).fetchone()
            if row is None or row["owner"] != owner:
                return None
            if row["status"] == "processing":
                return "processing"
            conn.execute("DELETE FROM design_jobs WHERE job_id = ?", (job_id,))
            conn.execute("DELETE FROM idempotency_keys WHERE resource = ?", (job_id,))
        shutil.rmtree(self.job_dir(job_id), ignore_errors=True)
        return "deleted"

    def prune(self, finished_before: str) -> tuple[list[str], list[str]]:
        """Remove jobs and collections that finished before ``finished_before`` (rows and
        files), and idempotency keys older than 24 hours. Returns the removed ids."""
        with self._transaction() as conn:
            jobs = [
                r[0]
                for r in conn.execute(
                    "DELETE FROM design_jobs WHERE status IN ('completed', 'failed')"
                    " AND finished_at < ? RETURNING job_id",
                    (finished_before,),
                )
            ]
            collections = [
                r[0]
                for r in conn.execute(
                    "DELETE FROM collections WHERE status IN ('completed', 'failed')"
                    " AND finished_at < ? RETURNING collection_id",
                    (finished_before,),
                )
            ]
            conn.execute(
                "DELETE FROM idempotency_keys WHERE created_at <= ?",
                (utc_ago(hours=IDEMPOTENCY_HOURS),),
            )
            for resource in jobs + collections:
                conn.execute("DELETE FROM idempotency_keys WHERE resource = ?", (resource,))
        for job_id in jobs:
            shutil.rmtree(self.job_dir(job_id), ignore_errors=True)
        for collection_id in collections:
            shutil.rmtree(self.collection_dir(collection_id), ignore_errors=True)
        return jobs, collections

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

    # --- projects --------------------------------------------------------------------
    def add_project(
        self,
        *,
        project_id: str,
        name: str,
        platforms: list[str],
        locale: str,
        source_url: str | None,
        source_dir: str | None,
        bundle_id: str = "",
        max_screens: int = 6,
    ) -> Project:
        try:
            row = (
                self._conn()
                .execute(
                    "INSERT INTO projects (project_id, name, platforms, locale, source_url,"
                    " source_dir, bundle_id, max_screens, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                    (
                        project_id,
                        name,
                        json.dumps(platforms),
                        locale,
                        source_url,
                        source_dir,
                        bundle_id,
                        max_screens,
                        utc_now(),
                    ),
                )
                .fetchone()
            )
        except sqlite3.IntegrityError:
            raise ConflictError(
                f"a project with id {project_id!r} already exists; remove "
                "it first (shotsmith projects remove) or pick another "
                "--id."
            ) from None
        return Project.from_row(row)

    def get_project(self, project_id: str) -> Project | None:
        row = (
            self._conn()
            .execute("SELECT * FROM projects WHERE project_id = ?", (project_id,))
            .fetchone()
        )
        return Project.from_row(row) if row else None

    def list_projects(self) -> list[Project]:
        rows = self._conn().execute("SELECT * FROM projects ORDER BY project_id")
        return [Project.from_row(r) for r in rows]

    def remove_project(self, project_id: str) -> int | None:
        """Delete a project and its collections (rows and files); the number of collections
        removed, None if there is no such project. Refused while a collection is under way."""
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            if (
                conn.execute(
                    "SELECT 1 FROM projects WHERE project_id = ?", (project_id,)
                ).fetchone()
                is None
            ):
                conn.execute("ROLLBACK")
                return None
            active = conn.execute(
                "SELECT count(*) FROM collections WHERE project_id = ? AND status IN"
                " ('capturing', 'processing')",
                (project_id,),
            ).fetchone()[0]
            if active:
                raise ConflictError(
                    f"project {project_id!r} has {active} collection(s) still "
                    "capturing or processing; wait until they finish, or "
                    "stop the server, then remove it."
                )
            ids = [
                r[0]
                for r in conn.execute(
                    "DELETE FROM collections WHERE project_id = ? RETURNING collection_id",
                    (project_id,),
                )
            ]
            conn.execute("DELETE FROM projects WHERE project_id = ?", (project_id,))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        for collection_id in ids:
            shutil.rmtree(self.collection_dir(collection_id), ignore_errors=True)
        return len(ids)

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

    # --- files -----------------------------------------------------------------------
    def staging_dir(self, job_id: str) -> Path:
        """Where a request's images are written as they arrive (``inputs/NN.png``)."""
        return self.incoming_dir / job_id

    def commit_inputs(self, job_id: str) -> None:
        """Make a request's staged images durable (fsync) and move them into the job's
        folder in one rename. Called before the job row is inserted, so a queued job always
        has its inputs on disk."""
        staging = self.staging_dir(job_id)
        try:
            for path in sorted((staging / "inputs").iterdir()):
                fd = os.open(path, os.O_RDONLY)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
            _fsync_dir(staging / "inputs")
            os.replace(staging, self.job_dir(job_id))
            _fsync_dir(self.jobs_dir)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise

    def open_output(self, relative: str, folder: str) -> int:
        """A read-only descriptor of the regular file at ``relative`` (data-dir relative),
        which must lie below ``folder`` (e.g. ``jobs/<job_id>``). No component below the
        data directory may be a symbolic link and the file may have no other hard link:
        a link planted in a job's folder cannot serve ``/etc/passwd`` or the database.
        Raises ``FileNotFoundError`` otherwise."""
        parts, base = relative.split("/"), folder.split("/")
        if (
            parts[: len(base)] != base
            or len(parts) <= len(base)
            or any(part in ("", ".", "..") for part in parts)
        ):
            raise FileNotFoundError(relative)
        nofollow = os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(self.data_dir, os.O_RDONLY | os.O_DIRECTORY)
        try:
            for part in parts[:-1]:
                inner = os.open(part, os.O_RDONLY | os.O_DIRECTORY | nofollow, dir_fd=fd)
                os.close(fd)
                fd = inner
            # O_NONBLOCK: opening a FIFO planted there must not wait for a writer
            file_fd = os.open(parts[-1], os.O_RDONLY | nofollow | os.O_NONBLOCK, dir_fd=fd)
        finally:
            os.close(fd)
        info = os.fstat(file_fd)
        if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1:
            os.close(file_fd)
            raise FileNotFoundError(relative)
        os.set_blocking(file_fd, True)
        return file_fd

    def discard_job_files(self, job_id: str) -> None:
        shutil.rmtree(self.staging_dir(job_id), ignore_errors=True)
        shutil.rmtree(self.job_dir(job_id), ignore_errors=True)

    def remove_orphans(self) -> list[str]:
        """At startup: folders of requests that never became jobs (killed before the insert)."""
        known = self.job_ids()
        removed = []
        shutil.rmtree(self.incoming_dir, ignore_errors=True)
        self.incoming_dir.mkdir(parents=True, exist_ok=True)
        for folder in self.jobs_dir.iterdir():
            if folder.is_dir() and not folder.name.startswith(".") and folder.name not in known:
                shutil.rmtree(folder, ignore_errors=True)
                removed.append(folder.name)
        collections = self.collection_ids()
        for folder in self.collections_dir.iterdir():  # of removed projects' collections
            if folder.is_dir() and folder.name not in collections:
                shutil.rmtree(folder, ignore_errors=True)
                removed.append(folder.name)
        return removed

    def relative(self, path: str | Path) -> str:
        return Path(path).resolve().relative_to(self.data_dir).as_posix()

    def absolute(self, relative: str) -> Path:
        return self.data_dir / relative


def _private(path: Path, mode: int) -> None:
    """Take group and other permissions away from ``path`` if it exists and is ours."""
    try:
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode) or stat.S_IMODE(st.st_mode) & 0o077 == 0:
            return
        if st.st_uid == os.getuid():
            os.chmod(path, stat.S_IMODE(st.st_mode) & mode)
    except OSError:
        pass


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - not every platform opens directories
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)
