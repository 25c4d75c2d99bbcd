"""The data directory and its database: what every entity's part of the store builds on."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Self

from ...errors import StorageError
from .records import IDEMPOTENCY_HOURS, Idempotency, utc_ago, utc_now
from .schema import DB_NAME, MIGRATIONS


class StoreBase:
    """The data directory: its folders, the SQLite connections (one per thread), the
    schema, transactions, idempotency records, retention and the files."""

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

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

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
        data directory may be a symbolic link and the file may have no other hard link,
        judged before the file is opened: a link planted in a job's folder cannot serve
        ``/etc/passwd`` or the database, nor drop the database's locks by being opened.
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
            # judged before it is opened: opening (and closing) another link to the
            # database would drop the SQLite locks this process holds on that inode
            seen = os.stat(parts[-1], dir_fd=fd, follow_symlinks=False)
            if not stat.S_ISREG(seen.st_mode) or seen.st_nlink != 1:
                raise FileNotFoundError(relative)
            # O_NONBLOCK: opening a FIFO planted there must not wait for a writer
            file_fd = os.open(parts[-1], os.O_RDONLY | nofollow | os.O_NONBLOCK, dir_fd=fd)
        finally:
            os.close(fd)
        info = os.fstat(file_fd)
        swapped = (info.st_dev, info.st_ino) != (seen.st_dev, seen.st_ino)
        if swapped or not stat.S_ISREG(info.st_mode) or info.st_nlink != 1:
            os.close(file_fd)
            raise FileNotFoundError(relative)
        os.set_blocking(file_fd, True)
        return file_fd

    def discard_job_files(self, job_id: str) -> None:
        shutil.rmtree(self.staging_dir(job_id), ignore_errors=True)
        shutil.rmtree(self.job_dir(job_id), ignore_errors=True)

    def job_ids(self) -> set[str]:
        """Every job's id (:class:`~.jobs.JobStore`, a part of the same ``Store``)."""
        raise NotImplementedError

    def collection_ids(self) -> set[str]:
        """Every collection's id (:class:`~.collections.CollectionStore`)."""
        raise NotImplementedError

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
