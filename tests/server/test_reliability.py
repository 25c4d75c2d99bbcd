"""Worker processes dying or hanging: jobs still end completed or failed, never stuck."""

from __future__ import annotations

import os
import signal
import time

import pytest
from fastapi.testclient import TestClient

from shotsmith.server.app import create_app

from .conftest import KEY_A, auth, b64, design_body, real_screens, wait_finished

pytestmark = pytest.mark.slow


def _processing(client, job_id, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if client.get(f"/v1/design/{job_id}", headers=auth()).json()["status"] == "processing":
            return
        time.sleep(0.02)
    raise AssertionError("job never started")


def test_killed_worker_is_replaced_and_the_job_reruns(tmp_path):
    app = create_app(tmp_path, api_keys=[KEY_A], workers=1, design_options={"ocr": False})
    with TestClient(app) as client:
        runner = app.state.server.runner
        body = {
            "project_name": "Crash",
            "images": [{"data": b64(data), "screen": name} for name, data in real_screens(4)],
        }
        job_id = client.post("/v1/design", json=body, headers=auth()).json()["job_id"]
        _processing(client, job_id)
        workers = list(runner._pool._processes.values())
        for process in workers:  # e.g. the kernel's OOM killer
            os.kill(process.pid, signal.SIGKILL)
        job = wait_finished(client.get, job_id, timeout=120)
        assert job["status"] == "completed" and len(job["output_urls"]) == 4
        assert app.state.server.store.get_job(job_id).attempts == 2
        # the rebuilt pool keeps serving
        again = client.post("/v1/design", json=design_body(), headers=auth()).json()["job_id"]
        assert wait_finished(client.get, again)["status"] == "completed"


def test_a_job_over_the_time_limit_fails_and_the_runner_recovers(tmp_path):
    app = create_app(
        tmp_path, api_keys=[KEY_A], workers=1, design_options={"ocr": False}, job_timeout=0.2
    )
    with TestClient(app) as client:
        body = {
            "project_name": "Slow",
            "images": [{"data": b64(data), "screen": name} for name, data in real_screens(6)],
        }
        job_id = client.post("/v1/design", json=body, headers=auth()).json()["job_id"]
        job = wait_finished(client.get, job_id, timeout=60)
        assert job["status"] == "failed"
        assert job["error"].startswith("the job took longer than 0.2 s")
        assert client.get("/healthz").status_code == 200
