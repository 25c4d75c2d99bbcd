"""Deleting jobs and keeping data for a limited time (issue 9, item 11):
``DELETE /v1/design/{job_id}`` (owner only; removes files and row) and
``serve --retention-days N`` (default 30), which prunes finished jobs and collections."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from shotsmith.server.app import create_app
from shotsmith.server.store import Store, hash_key

from .conftest import KEY_A, KEY_B, LiveServer, auth, design_body, wait_finished

pytestmark = pytest.mark.live_server


def test_delete_removes_the_job_its_files_and_its_urls(client, store):
    created = client.post("/v1/design", json=design_body(2), headers=auth(KEY_A)).json()
    job = wait_finished(client.get, created["job_id"])
    assert job["status"] == "completed"
    folder = store.job_dir(job["job_id"])
    assert folder.is_dir()
    # another key: as if it did not exist
    r = client.delete(f"/v1/design/{job['job_id']}", headers=auth(KEY_B))
    assert r.status_code == 404 and r.json()["error"]["code"] == "job_not_found"
    assert client.get(job["output_urls"][0]).status_code == 200
    r = client.delete(f"/v1/design/{job['job_id']}", headers=auth(KEY_A))
    assert r.status_code == 204 and r.content == b""
    assert not folder.exists()
    assert store.get_job(job["job_id"]) is None
    assert client.get(f"/v1/design/{job['job_id']}", headers=auth()).status_code == 404
    for url in job["output_urls"]:
        assert client.get(url).status_code == 404
    assert client.delete(f"/v1/design/{job['job_id']}", headers=auth()).status_code == 404
    assert client.delete("/v1/design/job_x").status_code == 401


def test_a_job_being_designed_cannot_be_deleted_a_queued_one_can(tmp_path):
    app = create_app(tmp_path, api_keys=[KEY_A])  # no lifespan: nothing claims the jobs
    client = TestClient(app)
    store = app.state.server.store
    designing = client.post("/v1/design", json=design_body(), headers=auth()).json()["job_id"]
    waiting = client.post("/v1/design", json=design_body(), headers=auth()).json()["job_id"]
    assert store.claim_next().job_id == designing  # as a worker would
    r = client.delete(f"/v1/design/{designing}", headers=auth())
    assert r.status_code == 409 and r.json()["error"]["code"] == "job_in_progress"
    assert r.headers["retry-after"]
    assert store.get_job(designing) is not None and store.job_dir(designing).is_dir()
    assert client.delete(f"/v1/design/{waiting}", headers=auth()).status_code == 204
    assert store.get_job(waiting) is None and not store.job_dir(waiting).exists()
    assert store.claim_next() is None  # a deleted queued job is never designed


def _age(data_dir: Path, table: str, key: str, ident: str, days: float) -> None:
    when = (datetime.now(UTC) - timedelta(days=days)).isoformat(timespec="milliseconds")
    with sqlite3.connect(data_dir / "shotsmith.db") as conn:
        conn.execute(
            f"UPDATE {table} SET finished_at = ?, created_at = ? WHERE {key} = ?",
            (when.replace("+00:00", "Z"), when.replace("+00:00", "Z"), ident),
        )


def _prepare(data_dir: Path) -> dict[str, str]:
    """Jobs and a collection of various ages and states, with their folders."""
    store = Store(data_dir)
    owner = hash_key(KEY_A)
    ids = {}
    for name, status in (
        ("old_done", "completed"),
        ("old_failed", "failed"),
        ("recent_done", "completed"),
        ("old_queued", "queued"),
    ):
        job = store.insert_job(
            job_id=f"job_{name}",
            owner=owner,
            project_name=name,
            input_count=1,
            params={"inputs": []},
            webhook_url=None,
            base_url="http://x",
        )
        (store.job_dir(job.job_id) / "out").mkdir(parents=True)
        (store.job_dir(job.job_id) / "out" / "01.png").write_bytes(b"png")
        if status != "queued":
            claimed = store.claim_next()
            assert claimed.job_id == job.job_id
            if status == "completed":
                store.complete(claimed, [f"jobs/{job.job_id}/out/01.png"])
            else:
                store.fail(claimed, "it failed")
        ids[name] = job.job_id
    store.add_project(
        project_id="p",
        name="P",
        platforms=["ios"],
        locale="en-US",
        source_url="http://127.0.0.1:9/",
        source_dir=None,
    )
    collection = store.insert_collection(
        project_id="p", owner=owner, name="c", params={}, base_url="http://x"
    )
    claimed = store.claim_next_collection()
    store.fail_collection(claimed, "capture failed")
    (store.collection_dir(collection.collection_id) / "raw").mkdir(parents=True)
    ids["old_collection"] = collection.collection_id
    store.close()
    for name in ("old_done", "old_failed", "old_queued"):
        _age(data_dir, "design_jobs", "job_id", ids[name], 40)
    _age(data_dir, "design_jobs", "job_id", ids["recent_done"], 2)
    _age(data_dir, "collections", "collection_id", ids["old_collection"], 40)
    return ids


def test_retention_prunes_finished_jobs_and_collections_at_start(tmp_path, live_servers):
    data_dir = tmp_path / "data"
    ids = _prepare(data_dir)
    server = LiveServer(data_dir, workers=1, extra=("--no-ocr", "--retention-days", "30"))
    live_servers.append(server)
    with sqlite3.connect(f"file:{data_dir / 'shotsmith.db'}?mode=ro", uri=True) as conn:
        jobs = {r[0] for r in conn.execute("SELECT job_id FROM design_jobs")}
        collections = {r[0] for r in conn.execute("SELECT collection_id FROM collections")}
    assert ids["old_done"] not in jobs and ids["old_failed"] not in jobs
    assert ids["recent_done"] in jobs  # 2 days old: kept
    assert ids["old_queued"] in jobs  # never finished: never pruned
    assert ids["old_collection"] not in collections
    for name in ("old_done", "old_failed"):
        assert not (data_dir / "jobs" / ids[name]).exists()
    assert (data_dir / "jobs" / ids["recent_done"]).is_dir()
    assert not (data_dir / "collections" / ids["old_collection"]).exists()
    assert "retention: deleted 2 job(s) and 1 collection(s)" in server.output()
    r = server.http.get(f"/v1/design/{ids['old_done']}", headers=auth())
    assert r.status_code == 404


def test_retention_zero_keeps_everything(tmp_path, live_servers):
    data_dir = tmp_path / "data"
    ids = _prepare(data_dir)
    server = LiveServer(data_dir, workers=1, extra=("--no-ocr", "--retention-days", "0"))
    live_servers.append(server)
    r = server.http.get(f"/v1/design/{ids['old_done']}", headers=auth())
    assert r.status_code == 200 and r.json()["status"] == "completed"
    assert "retention: deleted" not in server.output()


def test_default_retention_is_30_days():
    from shotsmith.cli import build_parser

    args = build_parser().parse_args(["serve"])
    assert args.retention_days == 30
