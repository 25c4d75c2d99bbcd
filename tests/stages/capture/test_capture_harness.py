"""The real-app harness (benchmarks/realapps/run.py) leaves no app running behind it.

An app runs in its own session and process group; the harness that started it stops the
whole group when it is interrupted (SIGTERM, Ctrl-C) or fails, so no server keeps its port.
The app here is a tiny HTTP server that starts a child server of its own, and a seed step
that runs after it answers and takes its time: the moment a user interrupts.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ...conftest import ROOT

RUN = ROOT / "benchmarks" / "realapps" / "run.py"

SERVER = """
import http.server, subprocess, sys
port = int(sys.argv[1])
# a child process of the app, as a real app's worker or bundler: it must go too
subprocess.Popen([sys.executable, "-m", "http.server", str(port + 1), "--bind", "127.0.0.1"],
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
http.server.HTTPServer(("127.0.0.1", port), http.server.SimpleHTTPRequestHandler).serve_forever()
"""


def _free_pair() -> int:
    """A port in the harness's range whose neighbour is free too."""
    for port in range(18190, 18198, 2):
        if not any(_answers(p) for p in (port, port + 1)):
            return port
    pytest.skip("no free port pair in 18190-18197")


def _answers(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.3)
        return s.connect_ex(("127.0.0.1", port)) == 0


def _harness(tmp_path: Path, seed_after: str) -> tuple[dict[str, str], int]:
    port = _free_pair()
    specs = tmp_path / "specs"
    specs.mkdir()
    (tmp_path / "server.py").write_text(SERVER, encoding="utf-8")
    (specs / "slowseed.toml").write_text(
        f"""title = "slow seed"
kind = "a test app"
port = {port}
[install]
[seed]
after = [["{{harness_python}}", "-c", "{seed_after}"]]
[run]
command = ["{{harness_python}}", "{tmp_path / "server.py"}", "{{port}}"]
timeout = 20
""",
        encoding="utf-8",
    )
    env = dict(
        os.environ,
        SHOTSMITH_REALAPPS_SPECS=str(specs),
        SHOTSMITH_REALAPPS_HOME=str(tmp_path / "home"),
    )
    return env, port


def _wait(predicate, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_an_interrupted_harness_stops_the_app_and_its_children(tmp_path, sig):
    env, port = _harness(tmp_path, "import time; time.sleep(60)")
    harness = subprocess.Popen(
        [sys.executable, str(RUN), "start", "slowseed"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        # the app answers (and its child), the seed step is running: interrupt now
        assert _wait(lambda: _answers(port) and _answers(port + 1), 20), "the app never came up"
        time.sleep(0.5)
        harness.send_signal(sig)
        harness.wait(timeout=30)
        assert _wait(lambda: not _answers(port) and not _answers(port + 1), 15), (
            "the app or its child still answers after the harness was interrupted"
        )
        assert not (tmp_path / "home" / "slowseed" / "server.pid").exists()
    finally:
        if harness.poll() is None:
            harness.kill()
        subprocess.run([sys.executable, str(RUN), "stop", "slowseed"], env=env, capture_output=True)


def test_a_started_app_stays_up_until_stopped(tmp_path):
    env, port = _harness(tmp_path, "pass")
    done = subprocess.run(
        [sys.executable, str(RUN), "start", "slowseed"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    try:
        assert done.returncode == 0, done.stderr
        assert _wait(lambda: _answers(port) and _answers(port + 1), 10)  # `start` leaves it up
    finally:
        stopped = subprocess.run(
            [sys.executable, str(RUN), "stop", "slowseed"], env=env, capture_output=True, text=True
        )
    assert "stopped" in stopped.stdout
    assert _wait(lambda: not _answers(port) and not _answers(port + 1), 15)
