"""The optional LLM copy backend against a real local HTTP server.

The remote LLM is the one boundary that cannot run here (no network, no model), so a
small OpenAI-compatible fake listens on 127.0.0.1 in a thread. Everything else is
real: httpx, the HTTP round trip, JSON parsing, the copy rules and the fallback.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pandas as pd
import pytest

from shotsmith.columns import COPY_HEADLINE, COPY_SOURCE, COPY_SUBTITLE, COPY_TAGLINE
from shotsmith.llm import LLMConfig, LLMError, parse_json_object, request_copy
from shotsmith.stages.copywriting import write_copy

from .test_copywriting import assert_set_obeys_rules, make_set

GOOD_HEADLINES = [
    "Money, finally clear",
    "Plan every dollar",
    "See where it goes",
    "Bills on autopilot",
    "Goals within reach",
    "Reports in one tap",
]


class FakeLLM(BaseHTTPRequestHandler):
    """OpenAI-compatible ``POST /v1/chat/completions``; behaviour set by ``server.mode``."""

    def log_message(self, *args):  # keep test output quiet
        pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        self.server.requests.append(
            {"path": self.path, "body": body, "auth": self.headers.get("Authorization")}
        )
        mode = self.server.mode
        if self.path != "/v1/chat/completions":
            return self._send(404, {"error": "not found"})
        if mode == "http500":
            return self._send(500, {"error": {"message": "model overloaded"}})
        if mode == "slow":
            time.sleep(2.0)
        brief = json.loads(body["messages"][-1]["content"])
        n = len(brief["screens"])
        if mode == "garbage":
            content = "Sure! Here are some great captions for your app :)"
        elif mode == "rules":
            content = json.dumps(
                {
                    "tagline": "Best app ever",
                    "screens": [
                        {"headline": f"Best budget app {i}", "subtitle": "The number one app."}
                        for i in range(n)
                    ],
                }
            )
        elif mode == "short":
            content = json.dumps({"tagline": "Money, finally clear", "screens": []})
        else:  # a valid answer, wrapped in a code fence as chat models like to do
            screens = [
                {
                    "position": i + 1,
                    "headline": GOOD_HEADLINES[i],
                    "subtitle": f"Screen {i + 1} of {brief['app_name']}, explained.",
                }
                for i in range(n)
            ]
            content = (
                "```json\n"
                + json.dumps({"tagline": GOOD_HEADLINES[0], "screens": screens})
                + "\n```"
            )
        self._send(
            200,
            {
                "id": "x",
                "object": "chat.completion",
                "model": body["model"],
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {"role": "assistant", "content": content},
                    }
                ],
            },
        )

    def _send(self, status, payload):
        data = json.dumps(payload).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up ("slow" mode)
            pass


@pytest.fixture
def fake_llm():
    server = ThreadingHTTPServer(("127.0.0.1", 0), FakeLLM)
    server.daemon_threads = True  # a "slow" handler must not hold up teardown
    server.mode = "good"
    server.requests = []
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
    )
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def config_for(server, **kw) -> LLMConfig:
    host, port = server.server_address[:2]
    return LLMConfig(
        base_url=f"http://{host}:{port}/v1",
        model="fake-1",
        api_key="sk-test",
        **({"timeout": 10.0} | kw),
    )


def finance_set(n: int = 4) -> pd.DataFrame:
    intents = ["overview", "planning", "history", "stats", "payments", "goals"][:n]
    return make_set("pb", "Pocket Budget", "Finance", intents)


def test_valid_answer_is_used(fake_llm):
    out = write_copy(finance_set(), backend="llm", llm=config_for(fake_llm))
    assert (out[COPY_SOURCE] == "llm:fake-1").all()
    assert out[COPY_HEADLINE].tolist() == GOOD_HEADLINES[:4]
    assert out[COPY_SUBTITLE].iloc[1] == "Screen 2 of Pocket Budget, explained."
    assert (out[COPY_TAGLINE] == "Money, finally clear").all()
    assert_set_obeys_rules(out)
    (req,) = fake_llm.requests
    assert req["path"] == "/v1/chat/completions"
    assert req["auth"] == "Bearer sk-test"
    assert req["body"]["model"] == "fake-1"
    brief = json.loads(req["body"]["messages"][-1]["content"])
    assert brief["category"] == "Finance" and len(brief["screens"]) == 4
    assert "forbidden" in req["body"]["messages"][0]["content"].lower()


def test_garbage_answer_falls_back_with_reason(fake_llm):
    fake_llm.mode = "garbage"
    out = write_copy(finance_set(), backend="llm", llm=config_for(fake_llm))
    source = out[COPY_SOURCE].iloc[0]
    assert source.startswith("phrasebank (llm failed: answer is not JSON"), source
    assert_set_obeys_rules(out)


def test_rule_breaking_answer_falls_back(fake_llm):
    fake_llm.mode = "rules"
    out = write_copy(finance_set(), backend="llm", llm=config_for(fake_llm))
    source = out[COPY_SOURCE].iloc[0]
    assert source.startswith("phrasebank (llm failed:") and "forbidden" in source, source
    assert not out[COPY_HEADLINE].str.contains("Best").any()
    assert_set_obeys_rules(out)


def test_wrong_number_of_screens_and_http_errors_fall_back(fake_llm):
    fake_llm.mode = "short"
    out = write_copy(finance_set(), backend="llm", llm=config_for(fake_llm))
    assert "expected 4 screens, got 0" in out[COPY_SOURCE].iloc[0]
    fake_llm.mode = "http500"
    out = write_copy(finance_set(), backend="llm", llm=config_for(fake_llm))
    assert "HTTP 500" in out[COPY_SOURCE].iloc[0]
    assert_set_obeys_rules(out)


def test_timeout_falls_back(fake_llm):
    fake_llm.mode = "slow"
    t0 = time.perf_counter()
    out = write_copy(finance_set(), backend="llm", llm=config_for(fake_llm, timeout=0.5))
    assert time.perf_counter() - t0 < 2.0
    assert out[COPY_SOURCE].iloc[0] == "phrasebank (llm failed: timeout after 0.5 s)"


def test_unreachable_port_falls_back_quickly():
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = LLMConfig(base_url=f"http://127.0.0.1:{port}/v1", model="m", timeout=20)
    t0 = time.perf_counter()
    out = write_copy(finance_set(), backend="llm", llm=config)
    assert time.perf_counter() - t0 < 3.0
    source = out[COPY_SOURCE].iloc[0]
    assert source.startswith("phrasebank (llm failed: cannot connect"), source
    assert_set_obeys_rules(out)


def test_auto_backend_uses_env_config(fake_llm, monkeypatch):
    host, port = fake_llm.server_address[:2]
    monkeypatch.setenv("SHOTSMITH_LLM_BASE_URL", f"http://{host}:{port}/v1")
    monkeypatch.setenv("SHOTSMITH_LLM_MODEL", "env-model")
    monkeypatch.delenv("SHOTSMITH_LLM_API_KEY", raising=False)
    out = write_copy(finance_set(3), backend="auto")
    assert (out[COPY_SOURCE] == "llm:env-model").all()
    assert fake_llm.requests[0]["auth"] is None
    # the default backend stays offline even when an LLM is configured
    assert (write_copy(finance_set(3))[COPY_SOURCE] == "phrasebank").all()


def test_llm_with_non_english_locale(fake_llm):
    frame = make_set("pb", "Pocket Budget", "Finance", ["overview", "stats"], locale="de-DE")
    out = write_copy(frame, backend="llm", llm=config_for(fake_llm))
    assert (out[COPY_SOURCE] == "llm:fake-1").all()
    assert json.loads(fake_llm.requests[0]["body"]["messages"][-1]["content"])["locale"] == "de-DE"
    fake_llm.mode = "garbage"
    out = write_copy(frame, backend="llm", llm=config_for(fake_llm))
    assert out[COPY_SOURCE].iloc[0].endswith("; en only; locale de-DE)")


def test_config_from_env():
    assert LLMConfig.from_env({}) is None
    assert LLMConfig.from_env({"SHOTSMITH_LLM_BASE_URL": "http://x/v1"}) is None
    cfg = LLMConfig.from_env(
        {
            "SHOTSMITH_LLM_BASE_URL": "http://x/v1/",
            "SHOTSMITH_LLM_MODEL": "m",
            "SHOTSMITH_LLM_API_KEY": "k",
            "SHOTSMITH_LLM_TIMEOUT": "7",
        }
    )
    assert cfg == LLMConfig("http://x/v1/", "m", "k", 7.0)
    assert cfg.endpoint == "http://x/v1/chat/completions"
    assert "k" not in repr(cfg).replace("api_key", "")


def test_parse_json_object():
    assert parse_json_object('{"a": 1}') == {"a": 1}
    assert parse_json_object('Here:\n```json\n{"a": 2}\n```') == {"a": 2}
    assert parse_json_object('noise {"a": 3} noise') == {"a": 3}
    with pytest.raises(LLMError):
        parse_json_object("[1, 2]")
    with pytest.raises(LLMError):
        parse_json_object("no json here")


def test_request_copy_round_trip(fake_llm):
    answer = request_copy(config_for(fake_llm), {"app_name": "A", "screens": [{}, {}]})
    assert [s["headline"] for s in answer["screens"]] == GOOD_HEADLINES[:2]
