"""Where webhooks may go, and how long they may take (issue 9, items 1 and 2).

By default a webhook_url at a loopback, private, link-local, multicast, unspecified or
reserved address is refused with 422 invalid_webhook_url, in every spelling; so is the
server's own address. Names are resolved at delivery, checked, and the connection is
pinned to the checked address (DNS rebinding): these tests inject the resolver the
delivery code uses (no DNS, no /etc/hosts). Each delivery has one deadline in all, one
API key's slow receivers do not hold up another key's webhooks, and shutdown abandons
deliveries still under way after its grace period, recording them as failed."""

from __future__ import annotations

import ipaddress
import signal
import socket
import sqlite3
import time

import pytest
from fastapi.testclient import TestClient

from shotsmith.server.app import create_app
from shotsmith.server.webhooks import (
    WebhookPolicy,
    address_refusal,
    deliver,
    literal_address,
)

from .conftest import KEY_A, KEY_B, DripReceiver, LiveServer, auth, design_body, wait_finished

pytestmark = pytest.mark.live_server

# Every spelling of an address a webhook must not reach by default.
REFUSED = [
    "http://127.0.0.1/hook",
    "http://127.0.0.2:9000/hook",
    "http://localhost/hook",
    "http://LOCALHOST./hook",
    "http://api.localhost/hook",
    "http://[::1]/hook",
    "http://[0:0:0:0:0:0:0:1]:8080/hook",
    "http://0.0.0.0/hook",
    "http://0/hook",
    "http://[::]/hook",
    "http://2130706433/hook",  # decimal
    "http://0x7f000001/hook",  # hex
    "http://0x7f.0.0.1/hook",
    "http://0x7F.1/hook",
    "http://0177.0.0.1/hook",  # octal
    "http://0177.1/hook",
    "http://127.1/hook",
    "http://[::ffff:127.0.0.1]/hook",  # IPv4-mapped IPv6
    "http://[::ffff:7f00:1]/hook",
    "http://[::ffff:169.254.169.254]/hook",
    "http://[64:ff9b::7f00:1]/hook",  # NAT64 of 127.0.0.1
    "http://[2002:7f00:1::]/hook",  # 6to4 of 127.0.0.1
    "http://169.254.169.254/latest/meta-data/",  # the cloud metadata service
    "http://[fe80::1%25eth0]/hook",
    "http://10.0.0.5/hook",
    "http://172.16.3.4/hook",
    "http://192.168.1.10/hook",
    "http://[fc00::5]/hook",
    "http://100.64.0.1/hook",  # shared address space
    "http://224.0.0.1/hook",  # multicast
    "http://[ff02::1]/hook",
    "http://255.255.255.255/hook",
    "https://user:secret@127.0.0.1:8443/hook?token=abc",
]


@pytest.fixture(scope="module")
def strict_app(tmp_path_factory):
    """Default webhook policy; no lifespan: nothing renders, refusals are what is tested."""
    app = create_app(tmp_path_factory.mktemp("strict"), api_keys=[KEY_A], rate_limit=10_000)
    return app, TestClient(app)


@pytest.mark.parametrize("url", REFUSED)
def test_private_and_loopback_webhook_urls_are_refused_in_every_spelling(strict_app, url):
    app, client = strict_app
    before = app.state.server.store.count_jobs()
    r = client.post("/v1/design", json=design_body(webhook_url=url), headers=auth())
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["code"] == "invalid_webhook_url"
    assert "public" in error["message"] and "--webhook-allow-private" in error["message"]
    assert app.state.server.store.count_jobs() == before  # nothing stored


def test_public_names_and_addresses_are_accepted(strict_app):
    app, client = strict_app
    for url in (
        "https://hooks.example.com/shotsmith?x=1",
        "http://93.184.216.34:8080/h",
        "https://[2606:4700:4700::1111]/h",
        "https://user:pw@example.org/h",
    ):
        r = client.post("/v1/design", json=design_body(webhook_url=url), headers=auth())
        assert r.status_code == 202, (url, r.text)


def test_every_spelling_is_read_as_the_address_it_reaches():
    """What the C library (and so an HTTP client) would connect to."""
    loopback = ipaddress.IPv4Address("127.0.0.1")
    for host in ("2130706433", "0x7f000001", "0x7f.0.0.1", "0177.0.0.1", "127.1", "0177.1"):
        assert literal_address(host) == loopback, host
        assert socket.inet_aton(host) == loopback.packed  # the libc reading agrees
    assert literal_address("example.com") is None
    assert literal_address("cafe.be") is None
    assert address_refusal(ipaddress.ip_address("::ffff:10.1.2.3")) == (
        "a private address (it carries 10.1.2.3)"
    )
    assert address_refusal(ipaddress.ip_address("93.184.216.34")) is None


def _resolver(answers: dict[str, list[str]], calls: list[str]):
    """A getaddrinfo for names that do not exist: ``answers`` maps name -> addresses."""

    def resolve(host, port, *args, **kwargs):
        calls.append(host)
        if host not in answers:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        out = []
        for address in answers[host]:
            family = socket.AF_INET6 if ":" in address else socket.AF_INET
            sockaddr = (address, port, 0, 0) if family == socket.AF_INET6 else (address, port)
            out.append((family, socket.SOCK_STREAM, 6, "", sockaddr))
        return out

    return resolve


def _webhook_row(store, job_id, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = store.get_job(job_id)
        if job.webhook_status in ("delivered", "failed"):
            return job
        time.sleep(0.05)
    raise AssertionError(f"webhook of {job_id} not recorded: {job.webhook_status}")


def test_a_name_resolving_to_a_private_address_is_refused_at_delivery(tmp_path, receiver):
    """DNS rebinding: the name looks public when the job is created; at delivery it
    resolves to 127.0.0.1, where a receiver listens. Nothing reaches it."""
    calls: list[str] = []
    port = int(receiver.url.rsplit(":", 1)[1])
    resolver = _resolver(
        {"hooks.rebind.test": ["127.0.0.1"], "mixed.rebind.test": ["93.184.216.34", "127.0.0.1"]},
        calls,
    )
    app = create_app(
        tmp_path,
        api_keys=[KEY_A],
        workers=1,
        design_options={"ocr": False},
        webhook_resolver=resolver,
    )
    with TestClient(app) as client:
        ids = []
        for host in ("hooks.rebind.test", "mixed.rebind.test"):
            url = f"http://{host}:{port}/hook"
            r = client.post("/v1/design", json=design_body(webhook_url=url), headers=auth())
            assert r.status_code == 202, r.text  # a name: resolved only at delivery
            ids.append(r.json()["job_id"])
        store = app.state.server.store
        for job_id in ids:
            assert wait_finished(client.get, job_id)["status"] == "completed"
            row = _webhook_row(store, job_id)
            assert row.webhook_status == "failed"
            assert "resolves to 127.0.0.1, a loopback address" in row.webhook_error
    assert receiver.calls.empty()
    assert sorted(calls) == ["hooks.rebind.test", "mixed.rebind.test"]  # once each


def test_the_connection_goes_to_the_address_that_was_checked(receiver):
    """Resolved once, then connected to that address: the receiver (127.0.0.1, allowed
    here) gets the POST for a name no DNS knows, with the name as Host."""
    calls: list[str] = []
    port = int(receiver.url.rsplit(":", 1)[1])
    resolver = _resolver({"hooks.pinned.test": ["127.0.0.1"]}, calls)
    ok, error = deliver(
        f"http://hooks.pinned.test:{port}/done?k=1",
        {"job_id": "j"},
        policy=WebhookPolicy(allow_private=True),
        resolver=resolver,
    )
    assert (ok, error) == (True, None)
    call = receiver.get(5)
    assert call["path"] == "/done?k=1" and call["body"] == {"job_id": "j"}
    assert call["headers"]["Host"] == f"hooks.pinned.test:{port}"
    assert calls == ["hooks.pinned.test"]
    # the same delivery without the allowance: refused before any connection
    ok, error = deliver(f"http://hooks.pinned.test:{port}/done", {"job_id": "j"}, resolver=resolver)
    assert not ok and "loopback" in error
    assert receiver.calls.empty()


def test_live_server_refuses_loopback_webhooks_and_its_own_port(tmp_path, live_servers, receiver):
    """A real ``shotsmith serve``: by default a receiver on 127.0.0.1 is refused; with
    SHOTSMITH_WEBHOOK_ALLOW_PRIVATE=1 it is allowed, but the server's own port never is."""
    strict = LiveServer(tmp_path / "strict", extra=("--no-ocr",))
    live_servers.append(strict)
    for url in (
        receiver.url + "/hook",
        f"{strict.url}/v1/design",
        f"http://localhost:{strict.port}/x",
        f"http://2130706433:{strict.port}/",
    ):
        r = strict.http.post("/v1/design", json=design_body(webhook_url=url), headers=auth())
        assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_webhook_url", url
    assert strict.terminate() in (0, -signal.SIGTERM)

    relaxed = LiveServer(
        tmp_path / "relaxed", extra=("--no-ocr",), env={"SHOTSMITH_WEBHOOK_ALLOW_PRIVATE": "1"}
    )
    live_servers.append(relaxed)
    for url in (f"{relaxed.url}/v1/design", f"http://localhost:{relaxed.port}/hook"):
        r = relaxed.http.post("/v1/design", json=design_body(webhook_url=url), headers=auth())
        assert r.status_code == 422, url
        assert "points at this server" in r.json()["error"]["message"]
    r = relaxed.http.post(
        "/v1/design", json=design_body(webhook_url=receiver.url + "/ok"), headers=auth()
    )
    assert r.status_code == 202, r.text
    assert receiver.get(60)["body"]["job_id"] == r.json()["job_id"]


# --- deadlines and fairness ------------------------------------------------------------------


def test_a_delivery_has_one_deadline_in_all(drip):
    """A receiver answering one byte a second is cut off at the deadline (a per-read
    timeout would wait for ever)."""
    start = time.monotonic()
    ok, error = deliver(
        drip.url + "/slow", {"job_id": "j"}, timeout=2.0, policy=WebhookPolicy(allow_private=True)
    )
    took = time.monotonic() - start
    assert not ok and "within 2 s" in error
    assert took < 3.5, took


def test_one_keys_slow_receivers_do_not_hold_up_another_keys_webhooks(tmp_path, receiver):
    drip = DripReceiver(interval=1.0)
    app = create_app(
        tmp_path,
        api_keys=[KEY_A, KEY_B],
        workers=2,
        rate_limit=10_000,
        design_options={"ocr": False},
        webhook_timeout=6.0,
        webhook_allow_private=True,
    )
    try:
        with TestClient(app) as client:
            slow = [
                client.post(
                    "/v1/design",
                    json=design_body(webhook_url=f"{drip.url}/{i}"),
                    headers=auth(KEY_A),
                ).json()["job_id"]
                for i in range(8)
            ]
            for job_id in slow:
                wait_finished(client.get, job_id, KEY_A)
            deadline = time.monotonic() + 10
            while drip.open_count() < 2 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert drip.open_count() == 2  # at most two of one key's deliveries at a time
            fast = client.post(
                "/v1/design", json=design_body(webhook_url=receiver.url), headers=auth(KEY_B)
            ).json()["job_id"]
            done = wait_finished(client.get, fast, KEY_B)
            assert done["status"] == "completed"
            call = receiver.get(timeout=3.0)  # not after the slow ones' deadlines
            assert call["body"]["job_id"] == fast
            store = app.state.server.store
            for job_id in slow[:2]:
                row = _webhook_row(store, job_id, timeout=15)
                assert row.webhook_status == "failed" and "within 6 s" in row.webhook_error
    finally:
        drip.close()


def test_shutdown_abandons_deliveries_still_in_flight(tmp_path, live_servers):
    """SIGTERM with four never-ending deliveries under way (two keys): the server stops
    after its grace period, recording them as failed, instead of waiting for them."""
    drip = DripReceiver(interval=1.0)
    data_dir = tmp_path / "data"
    try:
        server = LiveServer(
            data_dir,
            keys=f"{KEY_A},{KEY_B}",
            extra=("--no-ocr",),
            env={"SHOTSMITH_WEBHOOK_ALLOW_PRIVATE": "1"},
        )
        live_servers.append(server)
        ids = []
        for key in (KEY_A, KEY_A, KEY_B, KEY_B):
            r = server.http.post(
                "/v1/design", json=design_body(webhook_url=drip.url), headers=auth(key)
            )
            ids.append(r.json()["job_id"])
        deadline = time.monotonic() + 60
        while drip.open_count() < 4 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert drip.open_count() == 4
        start = time.monotonic()
        server.proc.send_signal(signal.SIGTERM)
        server.proc.wait(30)
        took = time.monotonic() - start
        assert took < 9, f"shutdown took {took:.1f} s"  # 5 s grace, not the 10 s deadline
        assert "abandoned: the server is stopping" in server.output()
        with sqlite3.connect(data_dir / "shotsmith.db") as conn:
            rows = conn.execute(
                f"SELECT webhook_status, webhook_error FROM design_jobs WHERE job_id IN "
                f"({','.join('?' * len(ids))})",
                ids,
            ).fetchall()
        assert len(rows) == 4
        for status, error in rows:
            assert status == "failed" and "stopped while delivering" in error
    finally:
        drip.close()
