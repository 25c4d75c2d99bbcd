"""The parts on their own: rate limiter, store (atomic claims, keys, recovery), the
runner's outcome rules, the client's input handling."""

from __future__ import annotations

import threading
from concurrent.futures import Future

import pytest

from shotsmith.errors import ShotsmithError
from shotsmith.server.jobs import NO_OUTPUT, JobRunner
from shotsmith.server.ratelimit import RateLimiter
from shotsmith.server.store import Store, hash_key


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_rate_limiter_sliding_window():
    clock = Clock()
    limiter = RateLimiter(3, 60, clock=clock)
    assert [limiter.hit("a") for _ in range(3)] == [0, 0, 0]
    assert limiter.hit("a") == 60
    assert limiter.hit("b") == 0  # per key
    clock.now += 30
    assert limiter.hit("a") == 30  # refused attempts do not count
    clock.now += 30.001
    assert limiter.hit("a") == 0


def _insert(store: Store, n: int, owner: str = "o") -> list[str]:
    ids = []
    for i in range(n):
        job = store.insert_job(
            job_id=f"job_{i:04d}",
            owner=owner,
            project_name="P",
            input_count=1,
            params={"inputs": []},
            webhook_url=None,
            base_url="http://x",
        )
        ids.append(job.job_id)
    return ids


def test_claims_are_atomic_across_threads_and_connections(tmp_path):
    store = Store(tmp_path)
    other = Store(tmp_path)  # a second "process" on the same database
    ids = _insert(store, 60)
    claimed: list[str] = []
    lock = threading.Lock()

    def worker(s: Store):
        while (job := s.claim_next()) is not None:
            with lock:
                claimed.append(job.job_id)

    threads = [threading.Thread(target=worker, args=(s,)) for s in (store, other) * 4]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(claimed) == ids  # each job claimed exactly once
    assert store.count_jobs("processing") == 60


def test_outcomes_need_the_current_claim(tmp_path):
    store = Store(tmp_path)
    _insert(store, 1)
    job = store.claim_next()
    assert store.requeue(job)
    assert store.complete(job, ["x.png"]) is None  # stale claim: ignored
    again = store.claim_next()
    assert again.attempts == 2
    assert store.complete(again, ["jobs/job_0000/out/a.png"]).status == "completed"
    assert store.fail(again, "late") is None


def test_abandoned_jobs_are_requeued_and_shutdown_does_not_count(tmp_path):
    store = Store(tmp_path)
    _insert(store, 2)
    first, second = store.claim_next(), store.claim_next()
    assert store.requeue(second, count_attempt=False)
    assert sorted(store.requeue_abandoned()) == [first.job_id]
    assert store.get_job(first.job_id).attempts == 1
    assert store.get_job(second.job_id).attempts == 0


def test_keys_are_stored_as_hashes(tmp_path):
    store = Store(tmp_path)
    key = store.create_key("ci")
    assert key.startswith("ss_") and len(key) > 40
    assert store.active_key_hashes() == [hash_key(key)]
    raw = (tmp_path / "shotsmith.db").read_bytes()
    assert key.encode() not in raw
    assert store.revoke_keys("ci") == 1 and store.active_key_hashes() == []
    with pytest.raises(ShotsmithError):
        store.create_key("  ")


class _Notifier:
    def __init__(self):
        self.sent = []

    def send(self, job, urls):
        self.sent.append((job.status, job.error, urls))


def _runner_with_claim(tmp_path, input_count=2):
    store = Store(tmp_path)
    store.insert_job(
        job_id="job_r",
        owner="o",
        project_name="P",
        input_count=input_count,
        params={"inputs": []},
        webhook_url="http://hook",
        base_url="http://x",
    )
    notifier = _Notifier()
    runner = JobRunner(store, notifier, lambda job: ["u"], workers=1)
    return store, notifier, runner, store.claim_next()


def _done(value):
    f = Future()
    f.set_result(value)
    return f


def test_no_output_fails_with_the_spec_message(tmp_path):
    store, notifier, runner, job = _runner_with_claim(tmp_path)
    runner._record(job, _done(("ok", [])))
    assert store.get_job("job_r").status == "failed"
    assert store.get_job("job_r").error == NO_OUTPUT == "rendering produced no screenshots"
    assert notifier.sent == [("failed", NO_OUTPUT, [])]


def test_partial_output_and_library_errors_fail_readably(tmp_path):
    store, notifier, runner, job = _runner_with_claim(tmp_path)
    out = tmp_path / "jobs" / "job_r" / "out" / "a.png"
    runner._record(job, _done(("ok", [str(out)])))
    assert store.get_job("job_r").error == "rendering produced 1 of 2 screenshots"
    store2, _, runner2, job2 = _runner_with_claim(tmp_path / "b")
    runner2._record(job2, _done(("error", "template 'x' not found")))
    assert store2.get_job("job_r").error == "template 'x' not found"


def test_client_accepts_paths_bytes_and_frames(tmp_path):
    from shotsmith.client import _image_refs
    from shotsmith.stages.read import read_screenshots

    from .conftest import small_png

    for i, name in enumerate(["home", "search-results"], start=1):
        (tmp_path / f"{i:02d}_{name}.png").write_bytes(small_png())
    refs, names, project, _ = _image_refs(sorted(tmp_path.glob("*.png")))
    assert names == ["home", "search results"] and project is None
    refs, names, project, _ = _image_refs(tmp_path)
    assert (
        names == ["home", "search results"]
        and project == tmp_path.name.replace("-", " ").replace("_", " ").title()
    )
    frame = read_screenshots([small_png()], project_name="Bytes App", screens=["feed"])
    refs, names, project, _ = _image_refs(frame)
    assert names == ["feed"] and project == "Bytes App" and refs[0][:4] == b"\x89PNG"
    refs, names, _, _ = _image_refs([small_png(), small_png()])
    assert names == ["screen 1", "screen 2"]


@pytest.mark.slow
def test_client_wait_honours_retry_after_and_raises_api_errors():
    """Against a real local HTTP server that first answers 429 with Retry-After."""
    import json
    import time
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from shotsmith.client import ApiError, Client

    answers = [
        (429, {"error": {"code": "rate_limited", "message": "slow down"}}, "1"),
        (200, {"job_id": "job_1", "status": "processing"}, None),
        (200, {"job_id": "job_1", "status": "completed", "output_urls": []}, None),
    ]
    seen = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            seen.append((time.monotonic(), self.headers.get("Authorization")))
            status, body, retry = (
                answers.pop(0)
                if answers
                else (404, {"error": {"code": "job_not_found", "message": "no such job"}}, None)
            )
            data = json.dumps(body).encode()
            self.send_response(status)
            if retry:
                self.send_header("Retry-After", retry)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with Client(f"http://127.0.0.1:{server.server_address[1]}", "k" * 20) as api:
            job = api.wait("job_1", timeout=30, interval=0.05)
            assert job["status"] == "completed"
            assert seen[1][0] - seen[0][0] >= 0.95  # waited Retry-After, not the 0.05 s interval
            assert seen[0][1] == "Bearer " + "k" * 20
            with pytest.raises(ApiError) as err:
                api.get_design_job("job_2")
            assert (err.value.status, err.value.code, err.value.message) == (
                404,
                "job_not_found",
                "no such job",
            )
    finally:
        server.shutdown()
        server.server_close()


# --- the library's errors as HTTP answers, mapped once (server/errors.py) ----------------------


@pytest.mark.parametrize(
    ("error", "status", "code"),
    [
        ("InputImageError", 422, "invalid_image"),
        ("InvalidOptionError", 422, "invalid_request"),
        ("TemplateError", 422, "invalid_template"),
        ("NotFoundError", 404, "not_found"),
        ("ConflictError", 409, "conflict"),
        ("StorageError", 503, "storage_unavailable"),
        ("ToolMissingError", 503, "unavailable"),
        ("RemoteError", 502, "bad_gateway"),
        ("ShotsmithError", 422, "invalid_request"),
    ],
)
def test_library_errors_become_their_status_never_a_500(error, status, code):
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from shotsmith import errors
    from shotsmith.server.errors import install_error_handlers

    app = FastAPI()
    install_error_handlers(app)

    @app.get("/boom")
    def boom():
        raise getattr(errors, error)("/srv/shotsmith/data/jobs/j1/in/01_home.png: what went wrong")

    answer = TestClient(app, raise_server_exceptions=False).get("/boom")
    assert answer.status_code == status
    body = answer.json()["error"]
    assert body["code"] == code
    assert body["message"] == "01_home.png: what went wrong"  # no server path
    if code == "storage_unavailable":  # as every storage failure: worth retrying, and when
        assert answer.headers["Retry-After"] == "30"


def test_a_hard_link_to_the_database_is_refused_without_being_opened(tmp_path, monkeypatch):
    """Opening another link to the database and closing it would drop the SQLite locks
    this process holds on it (POSIX locks are per inode): it is judged before any open."""
    import os

    store = Store(tmp_path)
    database = next(tmp_path.glob("*.db"))
    out = tmp_path / "jobs" / "j1" / "out"
    out.mkdir(parents=True)
    os.link(database, out / "01.png")
    (out / "02.png").write_bytes(b"\x89PNG fine")
    target = os.stat(database)
    opened: list[tuple[int, int]] = []
    real_open = os.open

    def spy(path, flags, *args, **kwargs):
        fd = real_open(path, flags, *args, **kwargs)
        info = os.fstat(fd)
        opened.append((info.st_dev, info.st_ino))
        return fd

    monkeypatch.setattr(os, "open", spy)
    with pytest.raises(FileNotFoundError):
        store.open_output("jobs/j1/out/01.png", "jobs/j1")
    assert (target.st_dev, target.st_ino) not in opened
    fd = store.open_output("jobs/j1/out/02.png", "jobs/j1")  # a file of its own still opens
    os.close(fd)


def test_server_settings_refuse_bad_values_before_anything_is_made(tmp_path):
    from shotsmith.errors import InvalidOptionError
    from shotsmith.server.settings import ServerSettings

    bad = {
        "capture_workers": (0, "capture_workers must be at least 1"),
        "webhook_timeout": (11.0, "webhook_timeout must be more than 0 and at most 10 s"),
        "retention_days": (-1, "retention_days must be 0"),
        "max_uploads_per_key": (5, "max_uploads_per_key must be from 1 to max_uploads"),
        "min_body_rate": (-1.0, "min_body_rate 0 or more"),
        "base_url": ("shots.example.com", "must be absolute"),
    }
    for name, (value, says) in bad.items():
        with pytest.raises(InvalidOptionError, match=says):
            ServerSettings(tmp_path / "data", **{name: value})
    assert not (tmp_path / "data").exists()  # refused before the data dir was made
    settings = ServerSettings(str(tmp_path / "data"), base_url="https://shots.example.com/")
    assert settings.data_dir == tmp_path / "data" and settings.base_url.endswith(".com")
    assert settings.own_addresses() == [("shots.example.com", 443)]


def test_create_app_takes_settings_or_a_data_dir_with_fields(tmp_path):
    from fastapi.testclient import TestClient

    from shotsmith.errors import InvalidOptionError
    from shotsmith.server.app import create_app
    from shotsmith.server.settings import ServerSettings

    from .conftest import KEY_A, auth

    settings = ServerSettings(tmp_path / "a", api_keys=(KEY_A,), rate_limit=1)
    app = create_app(settings)
    client = TestClient(app)  # no lifespan: requests only, no worker processes
    assert client.get("/v1/design/nope", headers=auth(KEY_A)).status_code == 404
    assert client.get("/v1/design/nope").status_code == 401
    assert app.state.server.limiter.limit == 1
    same = create_app(tmp_path / "b", api_keys=[KEY_A], rate_limit=1)
    assert same.state.server.limiter.limit == 1 and same.version == app.version
    with pytest.raises(InvalidOptionError, match="not both"):
        create_app(settings, rate_limit=5)
