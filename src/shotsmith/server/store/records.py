"""What the database holds, as Python values: jobs, projects, collections, keys,
idempotency records; and the ids and tokens new rows get."""

from __future__ import annotations

import hashlib
import json
import secrets
import sqlite3
from dataclasses import dataclass, fields
from datetime import UTC, datetime, timedelta
from typing import Any

from .schema import KEY_PREFIX


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
