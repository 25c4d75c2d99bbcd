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
transaction. No module outside this package speaks SQL. ``Store`` is one class made of a part per
entity (``keys``, ``jobs``, ``projects``, ``collections``) over ``base`` (folders, connections,
schema, transactions, files); ``queue`` is the claimable queue jobs and collections share.

The data directory is created ``0700`` and the database ``0600`` (it holds key hashes
and the capability tokens of every file URL); the job and collection folders are kept
``0700``. Files are served only through :meth:`Store.open_output`, which opens them
below their job's folder without following links.
"""

from __future__ import annotations

from .base import StoreBase
from .collections import CollectionStore
from .jobs import JobStore
from .keys import KeyStore
from .projects import ProjectStore
from .queue import COLLECTION_QUEUE, JOB_QUEUE, ClaimableQueue
from .records import (
    IDEMPOTENCY_HOURS,
    JSON_COLUMNS,
    Collection,
    Idempotency,
    Job,
    KeyInfo,
    Project,
    hash_key,
    new_api_key,
    new_collection_id,
    new_file_token,
    new_job_id,
    utc_ago,
    utc_now,
)
from .schema import DB_NAME, KEY_PREFIX, MIGRATIONS


class Store(KeyStore, JobStore, ProjectStore, CollectionStore, StoreBase):
    """The SQLite database and the file layout of one data directory."""


__all__ = [
    "COLLECTION_QUEUE",
    "DB_NAME",
    "IDEMPOTENCY_HOURS",
    "JOB_QUEUE",
    "JSON_COLUMNS",
    "KEY_PREFIX",
    "MIGRATIONS",
    "ClaimableQueue",
    "Collection",
    "Idempotency",
    "Job",
    "KeyInfo",
    "Project",
    "Store",
    "hash_key",
    "new_api_key",
    "new_collection_id",
    "new_file_token",
    "new_job_id",
    "utc_ago",
    "utc_now",
]
