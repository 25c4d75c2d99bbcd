"""A real ``shotsmith serve`` (uvicorn) in a subprocess: keys from the CLI and the
environment, the client and ``shotsmith submit``, refusing a huge body from its
headers alone, graceful SIGTERM, and recovery after kill -9 in the middle of a job."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import time
from pathlib import Path

import httpx
import pytest

from shotsmith.client import ApiError, Client

from .conftest import (
    KEY_A,
    KEY_B,
    LiveServer,
    auth,
    b64,
    check_store_png,
    output_name,
    real_screens,
    run_cli,
    wait_finished,
)

pytestmark = [pytest.mark.live_server, pytest.mark.slow]

# uvicorn re-raises the SIGTERM it handled once shutdown is complete, so a graceful stop
# ends with "killed by SIGTERM" (as systemd and friends expect) rather than status 0.
GRACEFUL = (0, -signal.SIGTERM)


def _write_screens(folder: Path, count: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for i, (name, data) in enumerate(real_screens(count), start=1):
        (folder / f"{i:02d}_{name.replace(' ', '-')}.png").write_bytes(data)
    return folder


def _db_status(data_dir: Path, job_id: str) -> str:
    with sqlite3.connect(f"file:{data_dir / 'shotsmith.db'}?mode=ro", uri=True) as conn:
        return conn.execute(
            "SELECT status FROM design_jobs WHERE job_id = ?", (job_id,)
        ).fetchone()[0]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is gone for our purposes
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def _wait_status(http: httpx.Client, job_id: str, wanted: set[str], timeout: float = 60) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = http.get(f"/v1/design/{job_id}", headers=auth()).json()
        if job["status"] in wanted:
            return job
        time.sleep(0.05)
    raise AssertionError(f"{job_id} never reached {wanted}: {job}")


def test_live_server_keys_client_submit_and_sigterm(tmp_path, live_servers):
    data_dir = tmp_path / "data"
    made = run_cli("keys", "create", "--data-dir", str(data_dir), "--name", "ci")
    assert made.returncode == 0, made.stderr
    cli_key = made.stdout.strip()
    assert cli_key.startswith("ss_") and "shown only this once" in made.stderr
    assert cli_key not in (data_dir / "shotsmith.db").read_bytes().decode("latin-1")

    server = LiveServer(data_dir, keys=f"{KEY_A},{KEY_B}")  # env keys + the CLI key
    live_servers.append(server)
    http = server.http

    # the library client with the CLI-created key, from a folder of real screenshots
    shots = _write_screens(tmp_path / "shots", 4)
    with Client(server.url, cli_key, timeout=30) as api:
        created = api.create_design_job(shots, "Pocket Budget", bundle_id="com.example.pb")
        assert created["status"] == "queued"
        assert created["poll_url"] == f"{server.url}/v1/design/{created['job_id']}"
        job = api.wait(created["job_id"], timeout=120)
        assert job["status"] == "completed", job
        assert all(u.startswith(f"{server.url}/v1/files/") for u in job["output_urls"])
        paths = api.download(job, tmp_path / "out")
        assert [p.name for p in paths] == [
            output_name(i, name.replace(" ", "-"))
            for i, (name, _) in enumerate(real_screens(4), start=1)
        ]
        for p in paths:
            check_store_png(p.read_bytes())
        # env keys work too, and cannot see the CLI key's job
        assert http.get(created["poll_url"], headers=auth(KEY_A)).status_code == 404
        with pytest.raises(ApiError) as err:
            Client(server.url, "wrong-key-0123456789").get_design_job(created["job_id"])
        assert err.value.status == 401 and err.value.code == "unauthorized"

    # refused from the headers alone: a 10 GB Content-Length, no body ever sent
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(
            b"POST /v1/design HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
            + KEY_A.encode()
            + b"\r\nContent-Type: application/json\r\n"
            b"Content-Length: 10000000000\r\n\r\n"
        )
        answer = b""
        while b'"}}' not in answer:
            chunk = s.recv(65536)
            if not chunk:
                break
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 413 ")
    assert b'"code":"body_too_large"' in answer

    # shotsmith submit --wait --out, key from the environment
    done = run_cli(
        "submit",
        str(shots),
        "--project-name",
        "Pocket Budget",
        "--server",
        server.url,
        "--wait",
        "--out",
        str(tmp_path / "submitted"),
        env={"SHOTSMITH_API_KEY": KEY_B},
        timeout=180,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "completed: 4 screenshot(s)" in done.stdout
    assert len(list((tmp_path / "submitted").glob("*.png"))) == 4
    bad = run_cli("submit", str(shots), "--server", server.url, "--api-key", "nope" * 5)
    assert bad.returncode == 2 and "API key" in bad.stderr

    # another server on the same data dir is refused
    other = run_cli("serve", "--data-dir", str(data_dir), "--port", "1", timeout=60)
    assert other.returncode == 2 and "in use by another shotsmith server" in other.stderr

    assert server.terminate() in GRACEFUL  # SIGTERM: graceful shutdown ran to the end
    assert "shotsmith server stopped" in server.output()


def test_restart_recovers_jobs_after_kill_9(tmp_path, live_servers):
    data_dir = tmp_path / "data"
    images = [{"data": b64(data), "screen": name} for name, data in real_screens(10)]
    body = {"project_name": "Pocket Budget", "images": images}

    a = LiveServer(data_dir, extra=("--no-ocr",))
    live_servers.append(a)
    job_id = a.http.post("/v1/design", json=body, headers=auth()).json()["job_id"]
    _wait_status(a.http, job_id, {"processing"})
    workers = a.worker_pids()
    assert workers, "rendering runs in worker processes"
    a.kill()  # kill -9 mid-job: no shutdown code runs
    assert _db_status(data_dir, job_id) == "processing"
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(p) for p in workers), "orphaned workers exit by themselves"

    b = LiveServer(data_dir, extra=("--no-ocr",))  # same data dir, new port
    live_servers.append(b)
    job = wait_finished(b.http.get, job_id, timeout=120)
    assert job["status"] == "completed", job
    assert job["input_count"] == 10 and len(job["output_urls"]) == 10
    assert all(u.startswith(b.url) for u in job["output_urls"])
    for url in job["output_urls"]:
        check_store_png(httpx.get(url, timeout=30).content)
    assert "re-queued 1 job(s) left processing" in b.output()

    # SIGTERM mid-job: exits cleanly and leaves the job re-queueable, never stuck
    second = b.http.post("/v1/design", json=body, headers=auth()).json()["job_id"]
    _wait_status(b.http, second, {"processing"})
    assert b.terminate(timeout=40) in GRACEFUL
    assert "put back in the queue" in b.output() or "completed" in b.output()
    assert _db_status(data_dir, second) in ("queued", "completed")

    c = LiveServer(data_dir, extra=("--no-ocr",))
    live_servers.append(c)
    assert wait_finished(c.http.get, second, timeout=120)["status"] == "completed"
    first = c.http.get(f"/v1/design/{job_id}", headers=auth()).json()  # survived 2 restarts
    assert first["status"] == "completed" and first["completed_at"] == job["completed_at"]
    check_store_png(c.http.get(first["output_urls"][-1]).content)
    assert c.terminate() in GRACEFUL
