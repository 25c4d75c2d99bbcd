"""The database's schema, as migrations applied in order."""

from __future__ import annotations

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
        # collections (docs/api.md, "Screenshot collections"), each owned by the key hash
        # that created it.
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
