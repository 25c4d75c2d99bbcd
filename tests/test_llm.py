"""The optional LLM copy backend against a real local HTTP server.

The remote LLM is the one boundary that cannot run here (no network, no model), so a
small OpenAI-compatible fake listens on 127.0.0.1 in a thread. Everything else is
real: httpx, the HTTP round trip, JSON parsing, the copy rules and the fallback.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pandas as pd
import pytest

from shotsmith.columns import (
    COPY_EVIDENCE,
    COPY_HEADLINE,
    COPY_SOURCE,
    COPY_SUBTITLE,
    COPY_TAGLINE,
    LOCALE,
)
from shotsmith.llm import COPY_SYSTEM_PROMPT, LLMConfig, LLMError, parse_json_object, request_copy
from shotsmith.stages.copywriting import write_copy

from .conftest import ROOT, sample_apps
from .test_copywriting import assert_grounded, assert_set_obeys_rules, budget_app

#: A grounded answer for budget_app(): every word is on its screens or neutral.
GOOD = [
    ("Your balance, at a glance", "Checking and savings in one view."),
    ("Budgets for every category", "Dining out, groceries and housing."),
    ("Expenses and income, together", "Export CSV whenever you need it."),
    ("Insights, clear and simple", "See what you spent this month."),
    ("Goals within reach", "An emergency fund or a new laptop."),
]
GOOD_HEADLINES = [h for h, _ in GOOD]


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
        self.server.briefs.append(brief)
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
        elif mode == "ungrounded":  # reads well, claims what no screen shows
            screens = [{"headline": h, "subtitle": s} for h, s in GOOD[:n]]
            screens[1] = {
                "headline": "Hour-by-hour forecasts",
                "subtitle": "Forecasts you can trust.",
            }
            content = json.dumps({"tagline": GOOD[0][0], "screens": screens})
        elif mode == "ja":  # Japanese lines built from the Japanese evidence in the brief
            screens = [
                {
                    "position": i + 1,
                    "headline": f"{sc['title']}の{sc['labels'][0]}",
                    "subtitle": f"{sc['labels'][0]}と{sc['labels'][1]}を{sc['title']}で。",
                }
                for i, sc in enumerate(brief["screens"])
            ]
            content = json.dumps({"tagline": screens[0]["headline"], "screens": screens})
        elif mode == "ja-claim":  # "automatic savings": nowhere on the screens
            screens = [
                {
                    "position": i + 1,
                    "headline": f"{sc['title']}で自動貯金",
                    "subtitle": f"{sc['title']}で毎月自動。",
                }
                for i, sc in enumerate(brief["screens"])
            ]
            content = json.dumps({"tagline": screens[0]["headline"], "screens": screens})
        elif mode == "short":
            content = json.dumps({"tagline": "Money, finally clear", "screens": []})
        else:  # a valid answer, wrapped in a code fence as chat models like to do
            screens = [
                {"position": i + 1, "headline": h, "subtitle": s}
                for i, (h, s) in enumerate(GOOD[:n])
            ]
            content = (
                "```json\n" + json.dumps({"tagline": GOOD[0][0], "screens": screens}) + "\n```"
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
    server.briefs = []
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


def finance_set(n: int = 5, **kw) -> pd.DataFrame:
    return budget_app(**kw).iloc[:n].copy()


def test_grounded_answer_is_used(fake_llm):
    out = write_copy(finance_set(), backend="llm", llm=config_for(fake_llm))
    assert (out[COPY_SOURCE] == "llm:fake-1").all()
    assert out[COPY_HEADLINE].tolist() == GOOD_HEADLINES
    assert out[COPY_SUBTITLE].iloc[1] == "Dining out, groceries and housing."
    assert (out[COPY_TAGLINE] == GOOD_HEADLINES[0]).all()
    assert_set_obeys_rules(out)
    assert_grounded(out)
    # the evidence each line rests on is recorded for LLM lines too
    assert "Dining out" in out[COPY_EVIDENCE].iloc[1]["subtitle"]
    (req,) = fake_llm.requests
    assert req["path"] == "/v1/chat/completions"
    assert req["auth"] == "Bearer sk-test"
    assert req["body"]["model"] == "fake-1"


def test_the_prompt_carries_the_evidence_and_the_rule(fake_llm):
    write_copy(finance_set(), backend="llm", llm=config_for(fake_llm), about="Money for two.")
    brief = fake_llm.briefs[0]
    system = fake_llm.requests[0]["body"]["messages"][0]["content"]
    assert system == COPY_SYSTEM_PROMPT
    assert "neutral_vocabulary" in system and "rejected" in system and "forbidden" in system
    assert brief["app_name"] == "Pocket Budget" and brief["about"] == "Money for two."
    assert brief["bundle_id"] == "com.example.pocketbudget"
    assert brief["category"] == "unknown"  # detect_domain was not confident
    budgets = brief["screens"][1]
    assert budgets["title"] == "Budgets" and "Dining out" in budgets["labels"]
    assert budgets["actions"] == ["Add budget"] and budgets["headings"] == ["Categories"]
    vocab = set(brief["neutral_vocabulary"])
    assert {"see", "keep", "clear", "glance", "and"} <= vocab
    assert not {"forecast", "traffic", "budget"} & vocab
    confident = finance_set(confident=True)
    write_copy(confident, backend="llm", llm=config_for(fake_llm))
    assert fake_llm.briefs[1]["category"] == "Finance"


def test_ungrounded_answer_is_rejected_with_the_reason(fake_llm, caplog):
    """An answer that reads well but claims what no screen shows falls back."""
    fake_llm.mode = "ungrounded"
    with caplog.at_level(logging.WARNING, logger="shotsmith"):
        out = write_copy(finance_set(), backend="llm", llm=config_for(fake_llm))
    source = out[COPY_SOURCE].iloc[0]
    assert source == (
        "grounded (llm rejected: screen 2 headline claims 'hour', not on the screens)"
    ), source
    assert "forecast" not in " ".join(out[COPY_HEADLINE]).lower()
    assert_grounded(out)
    assert_set_obeys_rules(out)
    assert "LLM's copy was not used (llm rejected: screen 2 headline claims 'hour'" in caplog.text


def test_garbage_answer_falls_back_with_reason(fake_llm):
    fake_llm.mode = "garbage"
    out = write_copy(finance_set(), backend="llm", llm=config_for(fake_llm))
    source = out[COPY_SOURCE].iloc[0]
    assert source.startswith("grounded (llm failed: answer is not JSON"), source
    assert_set_obeys_rules(out)


def test_rule_breaking_answer_is_rejected(fake_llm):
    fake_llm.mode = "rules"
    out = write_copy(finance_set(), backend="llm", llm=config_for(fake_llm))
    source = out[COPY_SOURCE].iloc[0]
    assert source.startswith("grounded (llm rejected: screen 1 headline:"), source
    assert "forbidden word 'Best'" in source
    assert not out[COPY_HEADLINE].str.contains("Best").any()
    assert_set_obeys_rules(out)


def test_wrong_number_of_screens_and_http_errors_fall_back(fake_llm):
    fake_llm.mode = "short"
    out = write_copy(finance_set(), backend="llm", llm=config_for(fake_llm))
    assert "llm failed: expected 5 screens, got 0" in out[COPY_SOURCE].iloc[0]
    fake_llm.mode = "http500"
    out = write_copy(finance_set(), backend="llm", llm=config_for(fake_llm))
    assert "HTTP 500" in out[COPY_SOURCE].iloc[0]
    assert_set_obeys_rules(out)


def test_timeout_falls_back(fake_llm):
    fake_llm.mode = "slow"
    t0 = time.perf_counter()
    out = write_copy(finance_set(), backend="llm", llm=config_for(fake_llm, timeout=0.5))
    assert time.perf_counter() - t0 < 2.0
    assert out[COPY_SOURCE].iloc[0] == "grounded (llm failed: timeout after 0.5 s)"


def test_unreachable_port_falls_back_quickly():
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    config = LLMConfig(base_url=f"http://127.0.0.1:{port}/v1", model="m", timeout=20)
    t0 = time.perf_counter()
    out = write_copy(finance_set(), backend="llm", llm=config)
    assert time.perf_counter() - t0 < 3.0
    source = out[COPY_SOURCE].iloc[0]
    assert source.startswith("grounded (llm failed: cannot connect"), source
    assert_set_obeys_rules(out)


def test_user_lines_are_in_the_brief_and_kept(fake_llm):
    frame = finance_set()
    table = pd.DataFrame(
        {"screen": ["reports"], "headline": ["Reports, written by me"], "subtitle": [""]}
    )
    out = write_copy(frame, backend="llm", llm=config_for(fake_llm), copy=table)
    assert fake_llm.briefs[0]["screens"][3]["user_headline"] == "Reports, written by me"
    assert out[COPY_HEADLINE].iloc[3] == "Reports, written by me"
    assert out[COPY_SOURCE].iloc[3] == "user (headline)"
    assert out[COPY_SUBTITLE].iloc[3] == GOOD[3][1]  # the LLM's subtitle, grounded
    assert out[COPY_SOURCE].iloc[0] == "llm:fake-1"


def test_auto_backend_uses_env_config(fake_llm, monkeypatch):
    host, port = fake_llm.server_address[:2]
    monkeypatch.setenv("SHOTSMITH_LLM_BASE_URL", f"http://{host}:{port}/v1")
    monkeypatch.setenv("SHOTSMITH_LLM_MODEL", "env-model")
    monkeypatch.delenv("SHOTSMITH_LLM_API_KEY", raising=False)
    out = write_copy(finance_set(3), backend="auto")
    assert (out[COPY_SOURCE] == "llm:env-model").all()
    assert fake_llm.requests[0]["auth"] is None
    # the default backend stays offline even when an LLM is configured
    assert (write_copy(finance_set(3))[COPY_SOURCE] == "grounded").all()


def test_llm_with_non_english_locale(fake_llm):
    frame = finance_set(2)
    frame[LOCALE] = "de-DE"
    out = write_copy(frame, backend="llm", llm=config_for(fake_llm))
    assert (out[COPY_SOURCE] == "llm:fake-1").all()
    assert fake_llm.briefs[0]["locale"] == "de-DE"
    assert "und" in fake_llm.briefs[0]["neutral_vocabulary"]  # German function words
    fake_llm.mode = "garbage"
    out = write_copy(frame, backend="llm", llm=config_for(fake_llm))
    assert out[COPY_SOURCE].iloc[0].endswith("; the screens' own words; locale de-DE)")


@pytest.mark.slow
def test_cli_says_when_the_asked_for_llm_was_not_used(fake_llm, tmp_path):
    """`shotsmith design --copy-backend llm` against the fake server: a rejected answer
    is said on stderr, and the set is still designed with grounded copy."""
    fake_llm.mode = "ungrounded"
    host, port = fake_llm.server_address[:2]
    env = {
        **os.environ,
        "SHOTSMITH_LLM_BASE_URL": f"http://{host}:{port}/v1",
        "SHOTSMITH_LLM_MODEL": "fake-1",
    }
    app = sample_apps()[0]
    done = subprocess.run(
        [sys.executable, "-m", "shotsmith.cli", "design", str(app), "--out", str(tmp_path),
         "--copy-backend", "llm", "--no-ocr"],
        capture_output=True, text=True, timeout=300, cwd=ROOT, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    # without OCR only the screen names are evidence: "balance" is on no screen
    assert (
        "pocket-budget: the LLM was asked for but not used (llm rejected: screen 1 headline "
        "claims 'balance', not on the screens)" in done.stderr
    ), done.stderr
    assert done.stderr.count("not used") == 1, done.stderr  # said once, not twice
    records = json.loads(next(tmp_path.glob("*/design.json")).read_text())
    assert records[0]["copy_source"].startswith("grounded (llm rejected:")


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


def japanese_set() -> pd.DataFrame:
    from .test_copywriting import evidence, evidence_set

    frame = evidence_set(
        "kb",
        "Kakeibo",
        [
            ("overview", evidence("家計簿", labels=["食費", "住居費"], tabs=["家計簿", "予算"])),
            ("budgets", evidence("予算", labels=["外食", "日用品"], actions=["予算を追加"])),
        ],
    )
    frame[LOCALE] = "ja-JP"
    return frame


def test_llm_writes_japanese_for_a_japanese_set_and_it_passes_the_rules(fake_llm):
    """The endpoint is a local fake (a remote LLM cannot run here); the rules, grounding
    and the stage are real. Japanese copy is not judged by English word rules."""
    fake_llm.mode = "ja"
    out = write_copy(japanese_set(), backend="llm", llm=config_for(fake_llm))
    assert (out[COPY_SOURCE] == "llm:fake-1").all(), out[COPY_SOURCE].tolist()
    assert out[COPY_HEADLINE].tolist() == ["家計簿の食費", "予算の外食"]
    assert out[COPY_SUBTITLE].iloc[1] == "外食と日用品を予算で。"
    # a line that assembles a claim from stray characters is still rejected
    fake_llm.mode = "ja-claim"
    out = write_copy(japanese_set(), backend="llm", llm=config_for(fake_llm))
    assert out[COPY_SOURCE].iloc[0].startswith("grounded (llm rejected")
    assert "not on the screens" in out[COPY_SOURCE].iloc[0]
    assert fake_llm.briefs[0]["locale"] == "ja-JP"
    assert "Write in the language of the given locale" in COPY_SYSTEM_PROMPT


def test_grounded_copy_invents_no_english_for_a_japanese_set():
    out = write_copy(japanese_set())
    for head, sub in zip(out[COPY_HEADLINE], out[COPY_SUBTITLE]):
        for line in (head, sub):
            assert not any(c.isascii() and c.isalpha() for c in line), line
