"""The curl sessions of the README and of docs/api.md, run as written with bash and curl
against a real ``shotsmith serve``. Only the port is changed (8787 -> a free one: other
servers may use 8787 on a shared machine)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from .conftest import ROOT, LiveServer, free_port

pytestmark = [
    pytest.mark.live_server,
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed"),
]


def _blocks(markdown: str, heading: str, until: str) -> list[str]:
    """The ```sh blocks between ``heading`` and the next ``until`` heading."""
    section = markdown.split(heading, 1)[1].split(until, 1)[0]
    return re.findall(r"```sh\n(.*?)```", section, flags=re.S)


def _run(script: str, cwd: Path, port: int, timeout: float = 180) -> str:
    """Run ``script`` with bash (8787 -> ``port``); its output. A server it starts in the
    background is stopped afterwards (the script's own process group)."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    log = cwd / "script.log"
    with open(log, "w") as out:  # a file, not a pipe: a background server keeps a pipe open
        proc = subprocess.Popen(
            ["bash", "-euo", "pipefail", "-c", script.replace("8787", str(port))],
            cwd=cwd,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        try:
            proc.wait(timeout)
        finally:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
    output = log.read_text()
    assert proc.returncode == 0, output
    return output


def _workdir(tmp_path: Path) -> Path:
    work = tmp_path / "work"
    work.mkdir()
    (work / "sample_inputs").symlink_to(ROOT / "sample_inputs")
    return work


def test_the_readme_curl_example_works_as_written(tmp_path):
    readme = (ROOT / "README.md").read_text()
    (block,) = _blocks(readme, "## The `/v1` server", "\n## ")  # the one after "In short:"
    work = _workdir(tmp_path)
    port = free_port()
    server = LiveServer(work / "data", port=port, keys="", extra=("--no-ocr",))
    try:
        out = _run(block, work, port)
    finally:
        server.cleanup()
    assert re.search(
        r'\{"job_id":"job_[0-9a-f]+","status":"queued","poll_url":'
        rf'"http://127\.0\.0\.1:{port}/v1/design/job_[0-9a-f]+"\}}',
        out,
    ), out


def test_the_api_docs_curl_session_works_as_written(tmp_path):
    docs = (ROOT / "docs" / "api.md").read_text()
    blocks = _blocks(docs, "## Example with curl", "### A collection with curl")
    assert len(blocks) == 3
    work = _workdir(tmp_path)
    port = free_port()
    start = blocks[0].replace(  # its port (8787, replaced below) and no OCR: faster
        "shotsmith serve --data-dir ./data &",
        "shotsmith serve --data-dir ./data --port 8787 --no-ocr &",
    )
    out = _run("\n".join([start, *blocks[1:]]), work, port)
    assert '"status":"completed"' in out, out
    with Image.open(work / "01_overview.png") as png:
        assert png.size == (1320, 2868) and png.mode == "RGB"
