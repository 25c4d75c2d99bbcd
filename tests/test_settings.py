"""The threads policy: one decision, no environment writes."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

from shotsmith.settings import Settings, one_thread_per_worker, render_threads


def test_a_worker_renders_on_one_thread_and_leaves_the_environment_alone(monkeypatch):
    monkeypatch.delenv("SHOTSMITH_RENDER_THREADS", raising=False)
    alone = render_threads(None, 10)
    with one_thread_per_worker():
        assert render_threads(None, 10) == 1
        assert render_threads(3, 10) == 3  # an explicit count wins
    assert render_threads(None, 10) == alone == min(4, os.cpu_count() or 1)
    assert "SHOTSMITH_RENDER_THREADS" not in os.environ


def test_the_environment_overrides_the_worker_policy(monkeypatch):
    monkeypatch.setenv("SHOTSMITH_RENDER_THREADS", "2")
    with one_thread_per_worker():
        assert render_threads(None, 10) == 2
    assert render_threads(None, 1) == 1  # never more threads than screenshots
    assert Settings.from_env({"SHOTSMITH_RENDER_THREADS": "x"}).render_threads is None


def test_the_policy_holds_in_the_worker_thread_only(monkeypatch):
    monkeypatch.delenv("SHOTSMITH_RENDER_THREADS", raising=False)

    def in_worker() -> int:
        with one_thread_per_worker():
            return render_threads(None, 10)

    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(in_worker).result() == 1
    assert render_threads(None, 10) == min(4, os.cpu_count() or 1)
