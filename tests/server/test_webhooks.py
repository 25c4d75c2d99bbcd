"""Webhooks to a real local receiver: completion and failure bodies exactly as the spec
says, an unreachable endpoint does not hold the job up, outcomes are recorded. The
receivers listen on 127.0.0.1, so these apps allow private webhook addresses (the
default refusal is tested in test_webhook_safety.py)."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from shotsmith.server.app import create_app

from .conftest import KEY_A, auth, closed_port_url, design_body, wait_finished


def _webhook_row(store, job_id, timeout=15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = store.get_job(job_id)
        if job.webhook_status in ("delivered", "failed"):
            return job
        time.sleep(0.05)
    raise AssertionError(f"webhook outcome of {job_id} not recorded: {job.webhook_status}")


def test_completion_webhook_body(client, store, receiver):
    hook = receiver.url + "/hooks/done?x=1"
    r = client.post("/v1/design", json=design_body(2, webhook_url=hook), headers=auth())
    job_id = r.json()["job_id"]
    call = receiver.get()
    assert call["path"] == "/hooks/done?x=1"
    assert call["headers"]["Content-Type"] == "application/json"
    body = call["body"]
    assert list(body) == ["job_id", "status", "output_urls"]
    assert body["job_id"] == job_id and body["status"] == "completed"
    job = wait_finished(client.get, job_id)
    assert body["output_urls"] == job["output_urls"]
    row = _webhook_row(store, job_id)
    assert row.webhook_status == "delivered" and row.webhook_error is None
    assert receiver.calls.empty()  # exactly one POST


def test_webhook_endpoint_error_is_recorded_not_retried(client, store, receiver):
    r = client.post(
        "/v1/design", json=design_body(webhook_url=receiver.url + "/fail"), headers=auth()
    )
    job_id = r.json()["job_id"]
    assert receiver.get()["body"]["status"] == "completed"
    row = _webhook_row(store, job_id)
    assert row.webhook_status == "failed" and "HTTP 500" in row.webhook_error
    time.sleep(0.5)
    assert receiver.calls.empty()


def test_unreachable_webhook_does_not_hold_the_job(client, store):
    r = client.post("/v1/design", json=design_body(webhook_url=closed_port_url()), headers=auth())
    job_id = r.json()["job_id"]
    assert wait_finished(client.get, job_id)["status"] == "completed"
    row = _webhook_row(store, job_id)
    assert row.webhook_status == "failed" and "Connection refused" in row.webhook_error


def test_failure_webhook_and_failed_job_view(tmp_path, receiver):
    """A job the library refuses ends failed, with the library's message as error."""
    app = create_app(
        tmp_path,
        api_keys=[KEY_A],
        workers=1,
        design_options={"ocr": False, "size": "17x17"},
        webhook_allow_private=True,  # the receiver is on 127.0.0.1
    )
    with TestClient(app) as client:
        r = client.post("/v1/design", json=design_body(webhook_url=receiver.url), headers=auth())
        job_id = r.json()["job_id"]
        job = wait_finished(client.get, job_id)
        assert job["status"] == "failed"
        assert list(job) == [
            "job_id",
            "status",
            "created_at",
            "project_name",
            "input_count",
            "error",
        ]
        assert "17x17 is not an accepted store screenshot size" in job["error"]
        body = receiver.get()["body"]
        assert body == {"job_id": job_id, "status": "failed", "error": job["error"]}
        assert _webhook_row(app.state.server.store, job_id).webhook_status == "delivered"


def test_job_whose_inputs_vanished_fails_with_a_clear_error(client, store, receiver):
    """Inputs lost from disk (e.g. before a restart): failed, not stuck, webhook sent."""
    job = store.insert_job(
        job_id="job_lostinputs0001",
        owner=_owner(store, KEY_A),
        project_name="Lost",
        input_count=2,
        params={
            "inputs": ["inputs/01.png", "inputs/02.png"],
            "screens": ["a", "b"],
            "devices": ["iphone-16-pro"] * 2,
            "bundle_id": "",
            "template": "default",
        },
        webhook_url=receiver.url,
        base_url="http://testserver",
    )
    client.app.state.server.runner_notify()
    done = wait_finished(client.get, job.job_id)
    assert done["status"] == "failed"
    assert "input images are missing" in done["error"]
    assert receiver.get()["body"] == {
        "job_id": job.job_id,
        "status": "failed",
        "error": done["error"],
    }


def _owner(store, key):
    from shotsmith.server.store import hash_key

    return hash_key(key)
