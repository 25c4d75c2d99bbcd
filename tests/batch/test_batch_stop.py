"""Stopping a batch: SIGTERM, Ctrl-C or a killed parent leaves no process behind, finished
apps complete, none half-written, and running the same command again finishes the rest."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from shotsmith import batch

from ..conftest import SAMPLES

pytestmark = pytest.mark.slow

APPS = 4
ENV = {
    **os.environ,
    "PYTHONPATH": str(Path(batch.__file__).resolve().parents[2]),
    "PYTHONUNBUFFERED": "1",
}


def start_batch(tmp_path: Path, *where: str) -> tuple[subprocess.Popen, list[str], Path]:
    manifest = tmp_path / "apps.csv"
    rows = "\n".join(f"{SAMPLES / 'pocket-budget'},App {i}" for i in range(APPS))
    manifest.write_text("source,project_name\n" + rows + "\n")
    out = tmp_path / "out"
    argv = [
        sys.executable, "-m", "shotsmith.cli", "batch", str(manifest), "--out", str(out),
        *(where or ("--workers", "2")), "--no-ocr", "--quiet",
    ]  # fmt: skip
    env = {
        **os.environ,
        "PYTHONPATH": str(Path(batch.__file__).resolve().parents[2]),
        "PYTHONUNBUFFERED": "1",
    }
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    return proc, argv, out


def wait_first_app(proc: subprocess.Popen, out: Path) -> list[psutil.Process]:
    """Until one app is finished; returns the batch's descendants (pool, workers)."""
    deadline = time.monotonic() + 240
    while not list(out.glob(f"*/{batch.DONE_MARKER}")):
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.05)
    return psutil.Process(proc.pid).children(recursive=True)


def gone_within(processes: list[psutil.Process], seconds: float) -> list[psutil.Process]:
    """The processes still running after ``seconds`` (a zombie waiting for its reaper is
    gone); those are killed, not left to the next test."""
    deadline = time.monotonic() + seconds
    alive = processes
    while alive and time.monotonic() < deadline:
        alive = [p for p in alive if running(p)]
        time.sleep(0.1)
    for p in alive:
        p.kill()
    return alive


def running(process: psutil.Process) -> bool:
    try:
        return process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def check_folders(out: Path) -> int:
    """Every app folder is finished (its marker) or absent; returns how many are finished."""
    finished = 0
    for folder in (p for p in out.iterdir() if p.is_dir()):
        assert (folder / batch.DONE_MARKER).exists(), f"{folder.name} is half-written"
        assert len(list(folder.glob("0*.png"))) == 5
        finished += 1
    return finished


#: A stage's note about one app ("write_copy: app-1: ... left empty ..."), not the batch's.
_STAGE_NOTE = re.compile(r"^(extract_features|detect_domain|write_copy|plan_layout|render): ")


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_stops_the_batch_and_the_same_command_finishes_it(tmp_path, signum, code):
    proc, argv, out = start_batch(tmp_path)
    children = wait_first_app(proc, out)
    assert children, "the pool's worker processes"
    start = time.monotonic()
    os.kill(proc.pid, signum)
    stdout, stderr = proc.communicate(timeout=10)
    assert time.monotonic() - start < 10
    assert not gone_within(children, 10 - (time.monotonic() - start))
    assert proc.returncode == code, stderr
    # one line says so; the apps' own notes (a caption left to the user) may come before it
    lines = [line for line in stderr.strip().splitlines() if not _STAGE_NOTE.match(line)]
    assert len(lines) == 1, stderr
    done = check_folders(out)
    assert 1 <= done < APPS
    assert lines[0] == (
        f"interrupted: {done} of {APPS} apps done; run the same command again to resume"
    )
    again = subprocess.run(argv, capture_output=True, text=True, timeout=300, env=ENV)
    assert again.returncode == 0, again.stderr
    assert f"{APPS} apps: {APPS - done} designed, {done} already done, 0 failed" in again.stdout
    assert check_folders(out) == APPS


def test_workers_die_with_a_killed_parent(tmp_path):
    proc, _, out = start_batch(tmp_path)
    children = wait_first_app(proc, out)
    assert children
    proc.kill()
    proc.wait(10)  # not communicate(): a straggler would keep its pipes open
    assert not gone_within(children, 10)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL])
def test_the_same_under_dask(tmp_path, signum):
    """A batch on a real LocalCluster (processes of their own), killed by PID: within 10 s
    nothing of it runs (the batch has exited; no worker still designs one of its apps),
    every folder is finished or absent and stays so, and the same command finishes the rest."""
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        address = cluster.scheduler_address
        proc, argv, out = start_batch(tmp_path, "--scheduler", address)
        children = wait_first_app(proc, out)
        start = time.monotonic()
        os.kill(proc.pid, signum)
        stdout, stderr = proc.communicate(timeout=10)
        assert not gone_within(children, 10 - (time.monotonic() - start))
        while busy(client) and time.monotonic() - start < 10:
            time.sleep(0.1)
        assert not busy(client), "a worker still designs an app of the stopped batch"
        done = check_folders(out)
        if signum == signal.SIGTERM:
            assert proc.returncode == 143, stderr
            assert stderr.strip().splitlines() == [
                f"interrupted: {done} of {APPS} apps done; run the same command again to resume"
            ]
        time.sleep(2)  # nothing is written after the stop
        assert check_folders(out) == done and 1 <= done < APPS
        again = subprocess.run(argv, capture_output=True, text=True, timeout=300, env=ENV)
        assert again.returncode == 0, again.stderr
        assert f"{APPS} apps: {APPS - done} designed, {done} already done" in again.stdout
        assert check_folders(out) == APPS


def busy(client) -> bool:
    """Whether a worker of the cluster is running a task now."""
    return any(client.run(lambda dask_worker: list(dask_worker.active_threads)).values())


def test_a_dask_worker_that_dies_fails_its_app_in_one_line_and_the_rest_go_on(tmp_path):
    """A worker process killed while it designs an app (allowed-failures 0: the app is not
    tried again): that app is reported failed in one line, the others are designed."""
    distributed = pytest.importorskip("distributed")
    import dask

    with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
        cluster = distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
        )
    with cluster, distributed.Client(cluster) as client:
        address = cluster.scheduler_address  # one app in flight: the one the worker runs
        proc, _, out = start_batch(tmp_path, "--scheduler", address, "--window", "1")
        deadline = time.monotonic() + 120
        while not busy(client):
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.05)
        for pid in client.run(os.getpid).values():
            os.kill(pid, signal.SIGKILL)
        stdout, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 1, stderr
    failed = [line for line in stderr.splitlines() if "FAILED" in line]
    assert len(failed) == 1 and "every Dask worker that ran this app died" in failed[0], stderr
    assert "Traceback" not in stderr
    assert f"{APPS} apps: {APPS - 1} designed, 0 already done, 1 failed" in stdout
    assert check_folders(out) == APPS - 1
