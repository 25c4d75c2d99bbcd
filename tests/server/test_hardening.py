"""The running server against hostile or broken input (issue 9, items 3, 5, 7, 9, 10):
bodies that used to give a 500, a schema as strict as the validation, complete ``Allow``
headers, ``HEAD`` on files, storage trouble as 503, no server paths in messages, no
secrets in logs, private file modes, no short keys, no symlinks served, connections that
never finish their headers closed. A real ``shotsmith serve`` (uvicorn) wherever the
behaviour is the running server's."""

from __future__ import annotations

import io
import itertools
import json
import os
import re
import socket
import sqlite3
import stat
import time
from pathlib import Path

import jsonschema
import pytest
from fastapi.testclient import TestClient
from PIL import Image

from shotsmith.server.app import create_app
from shotsmith.server.jobs import scrub_paths

from .conftest import (
    KEY_A,
    KEY_B,
    LiveServer,
    auth,
    b64,
    design_body,
    run_cli,
    small_png,
    wait_finished,
)

pytestmark = pytest.mark.live_server

GRACEFUL = (0, -15)
# The live server has the real rate limit (10 design requests a minute per key): requests
# here go out under keys in turn.
KEYS = [KEY_A, KEY_B] + [f"hardening-key-{i:02d}-0123456789" for i in range(10)]
_turn = itertools.count()


def next_key() -> str:
    return KEYS[next(_turn) % len(KEYS)]


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """One live server for the checks that do not need their own."""
    data_dir = tmp_path_factory.mktemp("hardening") / "data"
    added = run_cli(
        "projects",
        "add",
        "--data-dir",
        str(data_dir),
        "--id",
        "web",
        "--name",
        "Web",
        "--url",
        "http://127.0.0.1:9/",
        "--allow-private",
    )
    assert added.returncode == 0, added.stderr
    server = LiveServer(data_dir, keys=",".join(KEYS), extra=("--no-ocr",))
    yield server
    server.cleanup()


def _raw_post(
    server: LiveServer, path: str, body: bytes, key: str | None = None
) -> tuple[int, dict]:
    """POST raw bytes over a plain socket; (status, JSON body). A reset raises."""
    key = key or next_key()
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {key}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
        sock.sendall(head + body)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    status = int(answer.split(b" ", 2)[1])
    return status, json.loads(answer.split(b"\r\n\r\n", 1)[1])


def _job_count(data_dir: Path) -> int:
    with sqlite3.connect(f"file:{data_dir / 'shotsmith.db'}?mode=ro", uri=True) as conn:
        return conn.execute("SELECT count(*) FROM design_jobs").fetchone()[0]


# --- item 3: bad input never gives a 500 ------------------------------------------------------


def _design_json(**overrides) -> str:
    body = {
        "project_name": "Pocket Budget",
        "images": [{"data": b64(small_png()), "screen": "home"}],
    }
    body.update(overrides)
    return json.dumps(body)


LONE_SURROGATE = "x\\ud800y"  # as JSON text: an unpaired high surrogate


@pytest.mark.parametrize(
    "body, where",
    [
        (_design_json().replace('"Pocket Budget"', f'"{LONE_SURROGATE}"'), "project_name"),
        (
            _design_json(webhook_url="https://h.example.com/X").replace("/X", "/\\udc00"),
            "webhook_url",
        ),
        (_design_json().replace('"home"', f'"{LONE_SURROGATE}"'), "images[0].screen"),
        (_design_json().replace('"screen"', '"scr\\ud83d"'), "images[0]"),
        (
            _design_json(bundle_id="com.example.app").replace("com.example.app", LONE_SURROGATE),
            "bundle_id",
        ),
    ],
    ids=["project_name", "webhook_url", "screen", "a key", "bundle_id"],
)
def test_lone_surrogates_are_refused_before_anything_is_stored(live, body, where):
    before = _job_count(live.data_dir)
    status, answer = _raw_post(live, "/v1/design", body.encode())
    assert status == 422, answer
    assert answer["error"]["code"] == "invalid_text"
    assert where in answer["error"]["message"] and "surrogate" in answer["error"]["message"]
    assert _job_count(live.data_dir) == before
    assert live.http.get("/healthz").status_code == 200


def test_control_characters_in_text_fields_are_refused(live):
    body = _design_json().replace('"home"', '"ho\\u0000me"')
    status, answer = _raw_post(live, "/v1/design", body.encode())
    assert status == 422 and answer["error"]["code"] == "invalid_text"
    assert (
        "images[0].screen" in answer["error"]["message"] and "U+0000" in answer["error"]["message"]
    )


@pytest.mark.parametrize("path", ["/v1/design", "/v1/projects/web/screenshots"])
def test_huge_integers_are_a_4xx_on_both_post_routes(live, path):
    """A 5,000-digit integer made Python's json raise ValueError: 500 and a reset."""
    number = "9" * 5000
    for body in (
        f'{{"project_name": {number}}}',
        f'{{"images": [{{"screen": {number}}}]}}',
        f"[{number}]",
        f'{{"platforms": [{number}]}}',
        f'{{"locale": -{number}}}',
    ):
        status, answer = _raw_post(live, path, body.encode())  # an answer, not a reset
        assert status == 400 and answer["error"]["code"] == "invalid_json", answer
        assert "number of more than 100 characters" in answer["error"]["message"]
    assert live.http.get("/healthz").status_code == 200


def test_lone_surrogates_in_a_collection_body(live):
    status, answer = _raw_post(live, "/v1/projects/web/screenshots", b'{"locale": "en\\ud800"}')
    assert status == 422 and answer["error"]["code"] == "invalid_text", answer


# --- item 4 through the server: a 16-bit greyscale screenshot is not a blank screen ------------


def test_a_16_bit_greyscale_upload_renders_its_pixels(client):
    import numpy as np

    grey = np.zeros((260, 120), dtype=np.uint16)
    grey[:, 40:80] = 30000
    grey[:, 80:] = 65535
    buf = io.BytesIO()
    Image.fromarray(grey).save(buf, "PNG")  # uint16: mode I;16
    sixteen = buf.getvalue()
    assert Image.open(io.BytesIO(sixteen)).mode == "I;16"
    eight = io.BytesIO()
    Image.fromarray(np.rint(grey / 257).astype(np.uint8), "L").save(eight, "PNG")
    outputs = []
    for data in (sixteen, eight.getvalue()):
        body = {"project_name": "Greys", "images": [{"data": b64(data), "screen": "home"}]}
        job = wait_finished(
            client.get, client.post("/v1/design", json=body, headers=auth()).json()["job_id"]
        )
        assert job["status"] == "completed", job
        png = client.get(job["output_urls"][0]).content
        outputs.append(np.asarray(Image.open(io.BytesIO(png)).convert("RGB")).astype(int))
    assert np.abs(outputs[0] - outputs[1]).mean() < 0.5  # the same picture as its 8-bit twin


# --- item 5: schema as strict as the validation, Allow, HEAD, paths, storage -----------------


def _validator(client, name: str):
    doc = client.get("/openapi.json").json()
    schema = {**doc["components"]["schemas"][name], "components": doc["components"]}
    return jsonschema.Draft202012Validator(schema), doc


REFUSED_BODIES = [
    {"bundle_id": ""},
    {"bundle_id": "  "},
    {"images": [{"data": "", "screen": "home"}]},
    {"images": [{"data": "@@@@", "screen": "home"}]},
    {"images": [{"data": "AAAA", "screen": "   "}]},
    {"project_name": "  "},
    {"project_name": "a\u0001b"},
    {"webhook_url": "ftp://example.com/x"},
    {"webhook_url": "/relative"},
    {"webhook_url": ""},
]


@pytest.mark.parametrize("change", REFUSED_BODIES, ids=lambda c: json.dumps(c)[:40])
def test_what_the_server_refuses_the_schema_refuses(client, change):
    validator, _ = _validator(client, "DesignJobCreate")
    body = {"project_name": "App", "images": [{"data": b64(small_png()), "screen": "home"}]}
    body.update(change)
    r = client.post("/v1/design", json=body, headers=auth())
    assert r.status_code in (400, 422), r.text
    assert list(validator.iter_errors(body)), f"schema accepts {change}, server says {r.text}"


def test_what_the_schema_accepts_the_server_accepts(client):
    validator, doc = _validator(client, "DesignJobCreate")
    for body in [
        doc["components"]["schemas"]["DesignJobCreate"]["examples"][0],
        {
            "project_name": "A",
            "images": [{"data": b64(small_png()), "screen": "x", "device": "iphone-16-pro"}],
            "bundle_id": "com.example.a",
            "template": "default",
            "webhook_url": "https://hooks.example.com/a?b=c",
        },
    ]:
        assert not list(validator.iter_errors(body)), body
        r = client.post("/v1/design", json=body, headers=auth())
        assert r.status_code == 202, r.text


def test_collection_schema_and_cursor_are_as_strict_as_the_server(tmp_path):
    app = create_app(tmp_path, api_keys=[KEY_A])
    folder = tmp_path / "shots"
    folder.mkdir()
    app.state.server.store.add_project(
        project_id="p",
        name="P",
        platforms=["ios"],
        locale="en-US",
        source_url=None,
        source_dir=str(folder),
    )
    client = TestClient(app)
    validator, doc = _validator(client, "CollectionCreate")
    for body in (
        {"device_sizes": ["9.9"]},
        {"device_sizes": ["android:6.9"]},
        {"device_sizes": []},
        {"platforms": []},
    ):
        r = client.post("/v1/projects/p/screenshots", json=body, headers=auth())
        assert r.status_code == 422, (body, r.text)
        assert list(validator.iter_errors(body)), f"schema accepts {body}"
    assert not list(validator.iter_errors({"device_sizes": ["6.9", "ios:6.5"]}))
    params = doc["paths"]["/v1/projects/{project_id}/screenshots"]["get"]["parameters"]
    before = next(p for p in params if p["name"] == "before")
    cursor = jsonschema.Draft202012Validator(before["schema"])
    r = client.get("/v1/projects/p/screenshots?before=not-a-cursor", headers=auth())
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_cursor"
    assert not cursor.is_valid("not-a-cursor")
    assert cursor.is_valid("col_" + "0" * 20)


def test_405_answers_list_every_method_of_the_path(client):
    cases = {
        ("PUT", "/v1/design"): "POST",
        ("POST", "/v1/design/job_x"): "DELETE, GET",
        ("PATCH", "/v1/design/job_x"): "DELETE, GET",
        ("DELETE", "/v1/files/tok/a.png"): "GET, HEAD",
        ("PUT", "/v1/projects/p/screenshots"): "GET, POST",
        ("POST", "/healthz"): "GET",
    }
    for (method, path), allowed in cases.items():
        r = client.request(method, path, headers=auth())
        assert r.status_code == 405, (method, path)
        assert r.headers["allow"] == allowed, (method, path, r.headers.get("allow"))
        assert r.json()["error"]["code"] == "method_not_allowed"
        assert allowed in r.json()["error"]["message"]


def test_head_works_on_file_urls(live):
    key = next_key()
    r = live.http.post("/v1/design", json=design_body(), headers=auth(key))
    job = wait_finished(live.http.get, r.json()["job_id"], key)
    url = job["output_urls"][0]
    got = live.http.get(url)
    head = live.http.head(url)
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-length"] == str(len(got.content))
    assert head.headers["content-type"] == "image/png"
    assert live.http.head(url.rsplit("/", 1)[0] + "/nope.png").status_code == 404


def test_a_job_that_cannot_write_its_output_fails_as_storage_without_paths(client, store):
    """The output folder is a file (as when the data dir is not writable): the job fails
    saying the server could not store it, not "internal error", and names no path."""
    from shotsmith.server.store import hash_key

    job_id = "job_blockedoutput01"
    folder = store.job_dir(job_id)
    (folder / "inputs").mkdir(parents=True)
    (folder / "inputs" / "01.png").write_bytes(small_png())
    (folder / "out").write_text("not a folder")  # in place before the job can be claimed
    params = {
        "inputs": ["inputs/01.png"],
        "screens": ["home"],
        "devices": ["iphone-16-pro"],
        "bundle_id": "",
        "template": "default",
    }
    store.insert_job(
        job_id=job_id,
        owner=hash_key(KEY_A),
        project_name="Blocked",
        input_count=1,
        params=params,
        webhook_url=None,
        base_url="http://testserver",
    )
    client.app.state.server.runner_notify()
    failed = wait_finished(client.get, job_id)
    assert failed["status"] == "failed"
    error = failed["error"]
    assert error.startswith("storage unavailable") and "server's side" in error, error
    assert "internal error" not in error
    assert str(store.data_dir) not in error and not re.search(r"(^|[\s'(])/\w", error), error


def test_error_messages_never_show_server_paths():
    message = (
        "internal error while designing (PermissionError: [Errno 13] Permission "
        "denied: '/srv/data/jobs/job_1/out/01_home.png'); font "
        "/usr/share/fonts/opentype/inter/Inter-Bold.otf; see https://example.com/a/b"
    )
    clean = scrub_paths(message, "/srv/data/jobs/job_1", "/srv/data")
    assert "/srv" not in clean and "/usr" not in clean
    assert "out/01_home.png" in clean and "Inter-Bold.otf" in clean
    assert "https://example.com/a/b" in clean


def _block(folder: Path) -> None:
    """Make ``folder`` unwritable: by mode, or (as root, whom modes do not stop) by putting
    a file in its place."""
    if os.geteuid() != 0:
        folder.chmod(0o500)
    else:
        folder.rmdir()
        folder.write_text("in the way")


def _unblock(folder: Path) -> None:
    if folder.is_file():
        folder.unlink()
        folder.mkdir(mode=0o700)
    folder.chmod(0o700)


def test_an_unwritable_data_dir_or_a_locked_database_is_503_storage_unavailable(tmp_path):
    data_dir = tmp_path / "data"
    server = LiveServer(data_dir, extra=("--no-ocr",))
    try:
        incoming = data_dir / "jobs" / ".incoming"  # where uploads are written
        _block(incoming)
        before = _job_count(data_dir)
        r = server.http.post("/v1/design", json=design_body(), headers=auth())
        assert r.status_code == 503, r.text
        assert r.json()["error"]["code"] == "storage_unavailable"
        assert "Retry-After" in r.headers and str(data_dir) not in r.text
        assert _job_count(data_dir) == before

        _unblock(incoming)
        # the database held by another process (a backup tool, a second writer)
        lock = sqlite3.connect(data_dir / "shotsmith.db", timeout=1, isolation_level=None)
        lock.execute("BEGIN EXCLUSIVE")
        try:
            r = server.http.post("/v1/design", json=design_body(), headers=auth(), timeout=60)
        finally:
            lock.execute("ROLLBACK")
            lock.close()
        assert r.status_code == 503, r.text
        assert r.json()["error"]["code"] == "storage_unavailable"
        assert server.http.get("/healthz").status_code == 200
        r = server.http.post("/v1/design", json=design_body(), headers=auth())
        assert r.status_code == 202, r.text  # and back to normal
    finally:
        server.cleanup()


# --- item 7: connections that never finish their headers ------------------------------------


def test_connections_that_never_finish_their_headers_are_closed(tmp_path):
    """With the default deadline (15 s): well within 30 s, every one of them is closed."""
    server = LiveServer(tmp_path / "data", extra=("--no-ocr",))
    try:
        socks = []
        for i in range(60):
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=40)
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n" if i % 2 else b"GE")
            socks.append(sock)
        # a kept-alive connection that starts a second request and stalls
        keep = socket.create_connection(("127.0.0.1", server.port), timeout=40)
        keep.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert keep.recv(4096).startswith(b"HTTP/1.1 200")
        keep.sendall(b"GET /healthz HTTP/1.1\r\n")
        socks.append(keep)
        start = time.monotonic()
        closed = []
        for sock in socks:
            sock.settimeout(max(0.1, 30 - (time.monotonic() - start)))
            try:
                while sock.recv(4096):
                    pass
                closed.append(time.monotonic() - start)
            except TimeoutError:
                pass
            finally:
                sock.close()
        assert len(closed) == len(socks), f"{len(socks) - len(closed)} still open after 30 s"
        assert max(closed) < 25
        assert server.http.get("/healthz").status_code == 200  # it still serves
    finally:
        server.cleanup()


# --- item 9: no secrets in logs, private files, no short keys ---------------------------------


def test_logs_show_webhook_hosts_only_and_no_file_tokens(tmp_path, receiver):
    server = LiveServer(
        tmp_path / "data", extra=("--no-ocr",), env={"SHOTSMITH_WEBHOOK_ALLOW_PRIVATE": "1"}
    )
    try:
        port = receiver.url.rsplit(":", 1)[1]
        hook = (
            f"http://hookuser:S3cretPassw0rd@127.0.0.1:{port}/hooks/ZZpathsecret"
            "?token=QQtokensecret"
        )
        r = server.http.post("/v1/design", json=design_body(webhook_url=hook), headers=auth())
        job = wait_finished(server.http.get, r.json()["job_id"])
        call = receiver.get(60)
        assert call["path"] == "/hooks/ZZpathsecret?token=QQtokensecret"  # delivered in full
        assert call["headers"]["Authorization"].startswith("Basic ")
        for url in job["output_urls"]:
            assert server.http.get(url).status_code == 200
        time.sleep(1)
        log = server.output()
        assert f"webhook for {job['job_id']} delivered to http://127.0.0.1:{port}" in log
        for secret in ("S3cretPassw0rd", "hookuser", "ZZpathsecret", "QQtokensecret"):
            assert secret not in log, secret
        token = job["output_urls"][0].split("/v1/files/", 1)[1].split("/", 1)[0]
        assert token not in log
        assert "GET /v1/files/<token>/" in log  # the access log still shows the request
    finally:
        server.cleanup()


def test_data_dir_is_0700_and_database_0600(tmp_path):
    data_dir = tmp_path / "fresh" / "data"
    made = run_cli("keys", "create", "--data-dir", str(data_dir), "--name", "ci")
    assert made.returncode == 0, made.stderr
    server = LiveServer(data_dir, keys=KEY_A, extra=("--no-ocr",))
    try:
        r = server.http.post("/v1/design", json=design_body(), headers=auth())
        wait_finished(server.http.get, r.json()["job_id"])
        mode = lambda p: stat.S_IMODE(p.stat().st_mode)  # noqa: E731
        assert mode(data_dir) == 0o700
        for name in ("shotsmith.db", "shotsmith.db-wal", "shotsmith.db-shm", "server.lock"):
            assert mode(data_dir / name) == 0o600, name
        for folder in ("jobs", "collections"):
            assert mode(data_dir / folder) == 0o700, folder
    finally:
        server.cleanup()


def test_an_existing_database_is_made_private(tmp_path):
    from shotsmith.server.store import Store

    Store(tmp_path).close()
    (tmp_path / "shotsmith.db").chmod(0o644)
    (tmp_path / "jobs").chmod(0o755)
    Store(tmp_path).close()
    assert stat.S_IMODE((tmp_path / "shotsmith.db").stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "jobs").stat().st_mode) == 0o700


def test_short_api_keys_from_the_environment_are_refused(tmp_path):
    from .conftest import free_port

    port = free_port()
    done = run_cli(
        "serve",
        "--data-dir",
        str(tmp_path / "data"),
        "--port",
        str(port),
        env={"SHOTSMITH_API_KEYS": f"{KEY_A},short-key"},
        timeout=60,
    )
    assert done.returncode == 2
    assert "API key 2" in done.stderr and "at least 16" in done.stderr
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()


# --- item 10: files are opened without following links ----------------------------------------


def test_links_planted_in_a_job_folder_are_not_served(tmp_path):
    data_dir = tmp_path / "data"
    server = LiveServer(data_dir, extra=("--no-ocr",))
    try:
        ids = [
            server.http.post("/v1/design", json=design_body(2), headers=auth()).json()["job_id"]
            for _ in range(2)
        ]
        jobs = [wait_finished(server.http.get, job_id) for job_id in ids]
        first, second = jobs[0]["output_urls"], jobs[1]["output_urls"]
        out = data_dir / "jobs" / ids[0] / "out"
        pngs = sorted(out.rglob("*.png"))
        assert len(pngs) == 2
        pngs[0].unlink()
        pngs[0].symlink_to("/etc/passwd")  # a file outside the data dir
        pngs[1].unlink()
        pngs[1].symlink_to(data_dir / "shotsmith.db")  # the database itself
        for url in first:
            r = server.http.get(url)
            assert r.status_code == 404, r.content[:80]
            assert b"root:" not in r.content and b"SQLite" not in r.content
        # a hard link to the database, and a job folder that is a symlink
        third = sorted((data_dir / "jobs" / ids[1] / "out").rglob("*.png"))
        third[0].unlink()
        os.link(data_dir / "shotsmith.db", third[0])
        assert server.http.get(second[0]).status_code == 404
        assert server.http.get(second[1]).status_code == 200
        # the database is unharmed: jobs keep being created and finished
        more = [
            server.http.post("/v1/design", json=design_body(), headers=auth()).json()["job_id"]
            for _ in range(3)
        ]
        for job_id in more:
            assert wait_finished(server.http.get, job_id)["status"] == "completed"
        assert _job_count(data_dir) == 5
        job_folder = data_dir / "jobs" / ids[1]
        moved = job_folder.with_name("elsewhere")
        job_folder.rename(moved)
        job_folder.symlink_to(moved)
        assert server.http.get(second[1]).status_code == 404
    finally:
        server.cleanup()
