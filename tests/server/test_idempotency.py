"""Idempotency-Key (issue 9, item 8): a retry of a create whose answer was lost returns
the job the first try made instead of a second one; a different body with the same key
is refused; the client library sends a key on every create and retries with it."""

from __future__ import annotations

import json
import socket
import sqlite3
import threading
import time
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from shotsmith.client import ApiError, Client
from shotsmith.server.app import create_app

from .conftest import KEY_A, KEY_B, LiveServer, auth, design_body, small_png, wait_finished

pytestmark = pytest.mark.live_server


@pytest.fixture
def app_client(tmp_path):
    """No lifespan: jobs stay queued; what is counted is rows."""
    app = create_app(tmp_path, api_keys=[KEY_A, KEY_B], rate_limit=10_000)
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
    return app, TestClient(app)


def _post(client, body, key, api_key=KEY_A, path="/v1/design"):
    return client.post(
        path,
        content=json.dumps(body).encode(),
        headers={**auth(api_key), "Content-Type": "application/json", "Idempotency-Key": key},
    )


def test_same_key_and_body_returns_the_original_job(app_client):
    app, client = app_client
    store = app.state.server.store
    body = design_body(2)
    first = _post(client, body, "order-1234")
    assert first.status_code == 202 and "idempotent-replayed" not in first.headers
    again = _post(client, body, "order-1234")
    assert again.status_code == 202
    assert again.json() == first.json()  # same job_id, same answer
    assert again.headers["idempotent-replayed"] == "true"
    assert again.headers["location"] == first.headers["location"]
    assert store.count_jobs() == 1
    # another API key's identical request is its own
    other = _post(client, body, "order-1234", api_key=KEY_B)
    assert other.status_code == 202 and other.json()["job_id"] != first.json()["job_id"]
    assert store.count_jobs() == 2
    # a different body with the same key is refused, and creates nothing
    changed = _post(client, design_body(3), "order-1234")
    assert changed.status_code == 422
    assert changed.json()["error"]["code"] == "idempotency_key_reused"
    assert first.json()["job_id"] in changed.json()["error"]["message"]
    assert store.count_jobs() == 2
    # without a key, every request is new
    client.post("/v1/design", json=body, headers=auth())
    client.post("/v1/design", json=body, headers=auth())
    assert store.count_jobs() == 4


def test_a_refused_request_does_not_use_up_its_key(app_client):
    app, client = app_client
    bad = _post(client, {"project_name": "", "images": []}, "retry-me")
    assert bad.status_code == 422
    good = _post(client, design_body(), "retry-me")
    assert good.status_code == 202
    assert app.state.server.store.count_jobs() == 1


def test_keys_are_remembered_for_24_hours(app_client, tmp_path):
    app, client = app_client
    first = _post(client, design_body(), "daily")
    with sqlite3.connect(tmp_path / "shotsmith.db") as conn:
        old = (datetime.now(UTC) - timedelta(hours=25)).isoformat(timespec="milliseconds")
        conn.execute("UPDATE idempotency_keys SET created_at = ?", (old.replace("+00:00", "Z"),))
    later = _post(client, design_body(), "daily")
    assert later.status_code == 202 and later.json()["job_id"] != first.json()["job_id"]
    assert "idempotent-replayed" not in later.headers


@pytest.mark.parametrize("key", ["", "has space", "x" * 256, "tab\there"])
def test_malformed_keys_are_refused(app_client, key):
    app, client = app_client
    r = client.post(
        "/v1/design",
        json=design_body(),
        headers={**auth(), "Idempotency-Key": key.encode("utf-8").decode("latin-1")},
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_idempotency_key"
    assert app.state.server.store.count_jobs() == 0


def test_collections_take_the_key_too(app_client):
    app, client = app_client
    path = "/v1/projects/p/screenshots"
    first = _post(client, {"locale": "de-DE"}, "col-1", path=path)
    assert first.status_code == 202, first.text
    again = _post(client, {"locale": "de-DE"}, "col-1", path=path)
    assert again.json() == first.json() and again.headers["idempotent-replayed"] == "true"
    assert again.headers["location"].endswith(first.json()["collectionId"])
    assert _post(client, {"locale": "fr-FR"}, "col-1", path=path).status_code == 422
    assert len(app.state.server.store.list_collections("p", _owner(KEY_A))) == 1


def test_deleting_a_job_forgets_its_key(app_client):
    app, client = app_client
    first = _post(client, design_body(), "gone")
    job_id = first.json()["job_id"]
    assert client.delete(f"/v1/design/{job_id}", headers=auth()).status_code == 204
    again = _post(client, design_body(), "gone")
    assert again.status_code == 202 and again.json()["job_id"] != job_id


def _owner(key: str) -> str:
    from shotsmith.server.store import hash_key

    return hash_key(key)


# --- the lost answer, end to end ----------------------------------------------------------------


class DropFirstAnswer:
    """A TCP proxy to the server that, on its first connection, forwards the request but
    resets the client instead of passing the answer on: the job is created (committed),
    and the client sees a reset, as when the server dies between commit and answer."""

    def __init__(self, target_port: int):
        self.target_port = target_port
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.connections = 0
        self.dropped = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self.connections += 1
            threading.Thread(
                target=self._relay, args=(client, self.connections == 1), daemon=True
            ).start()

    def _relay(self, client: socket.socket, drop: bool) -> None:
        upstream = socket.create_connection(("127.0.0.1", self.target_port))

        def pump(src: socket.socket, dst: socket.socket | None) -> None:
            try:
                while data := src.recv(65536):
                    if dst is not None:
                        dst.sendall(data)
                    elif drop:  # the server's answer: never delivered
                        client.setsockopt(
                            socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00"
                        )
                        client.close()  # RST
                        self.dropped.set()
                        return
            except OSError:
                pass
            finally:
                for s in (src, dst):
                    try:
                        if s is not None:
                            s.close()
                    except OSError:
                        pass

        threading.Thread(target=pump, args=(client, upstream), daemon=True).start()
        pump(upstream, None if drop else client)

    def close(self) -> None:
        self.listener.close()


def test_a_lost_answer_is_retried_by_the_client_without_a_second_job(tmp_path):
    """Before: the client saw a reset and raised (or, retrying by hand, made a second
    job). Now it retries with the same key and gets the job the first try made."""
    data_dir = tmp_path / "data"
    server = LiveServer(data_dir, extra=("--no-ocr",))
    proxy = DropFirstAnswer(server.port)
    try:
        with Client(proxy.url, KEY_A, timeout=30) as api:
            created = api.create_design_job(
                [small_png(), small_png()], "Pocket Budget", screens=["home", "search"]
            )
        assert proxy.dropped.is_set() and proxy.connections >= 2
        with sqlite3.connect(f"file:{data_dir / 'shotsmith.db'}?mode=ro", uri=True) as conn:
            rows = conn.execute("SELECT job_id FROM design_jobs").fetchall()
        assert rows == [(created["job_id"],)]  # exactly one job, the one the client got
        assert created["poll_url"] == f"{server.url}/v1/design/{created['job_id']}"
        job = wait_finished(server.http.get, created["job_id"])
        assert job["status"] == "completed" and job["input_count"] == 2
    finally:
        proxy.close()
        server.cleanup()


def test_a_second_request_with_a_key_still_in_use_waits(tmp_path):
    """While the first request with a key is still being received, a second gets 409
    with Retry-After (the client library waits and retries)."""
    server = LiveServer(tmp_path / "data", extra=("--no-ocr",))
    try:
        body = json.dumps(design_body(3)).encode()
        head = (
            f"POST /v1/design HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {KEY_A}\r\n"
            f"Content-Type: application/json\r\nIdempotency-Key: slow-1\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        ).encode()
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
        sock.sendall(head + body[:100])
        time.sleep(0.5)
        r = server.http.post(
            "/v1/design",
            content=body,
            headers={**auth(), "Content-Type": "application/json", "Idempotency-Key": "slow-1"},
        )
        assert r.status_code == 409 and r.json()["error"]["code"] == "idempotency_key_in_use"
        assert r.headers["retry-after"] == "1"
        sock.sendall(body[100:])
        answer = b""
        while not answer.endswith(b"}"):
            piece = sock.recv(65536)
            if not piece:
                break
            answer += piece
        sock.close()
        assert answer.startswith(b"HTTP/1.1 202")
        job_id = json.loads(answer.split(b"\r\n\r\n", 1)[1])["job_id"]
        r = server.http.post(
            "/v1/design",
            content=body,
            headers={**auth(), "Content-Type": "application/json", "Idempotency-Key": "slow-1"},
        )
        assert r.status_code == 202 and r.json()["job_id"] == job_id
    finally:
        server.cleanup()


def test_the_client_sends_the_same_key_on_each_retry():
    """Against a local endpoint that first answers 503 (Retry-After: 0), then 202."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    seen: list[tuple[str | None, bytes]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            seen.append((self.headers.get("Idempotency-Key"), body))
            first = len(seen) == 1
            data = json.dumps(
                {"error": {"code": "server_busy", "message": "busy"}}
                if first
                else {"job_id": "job_1", "status": "queued", "poll_url": "http://x/v1/design/job_1"}
            ).encode()
            self.send_response(503 if first else 202)
            if first:
                self.send_header("Retry-After", "0")
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        with Client(url, KEY_A) as api:
            assert api.create_design_job([small_png()], "App")["job_id"] == "job_1"
            assert len(seen) == 2 and seen[0] == seen[1] and seen[0][0]  # same key and bytes
            api.create_design_job([small_png()], "App", idempotency_key="mine")
            assert seen[-1][0] == "mine" and seen[-1][0] != seen[0][0]
        with Client(url, KEY_A, retries=0) as api:
            seen.clear()
            with pytest.raises(ApiError) as err:
                api.create_design_job([small_png()], "App")
            assert err.value.status == 503 and err.value.retry_after == 0
    finally:
        server.shutdown()
        server.server_close()
