"""Batches: a manifest of apps designed on a process pool or a Dask cluster."""

from __future__ import annotations

import json
import shutil
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from PIL import Image

import shotsmith as ss
from shotsmith import batch
from shotsmith.batch import fanout as batch_fanout
from shotsmith.batch import task as batch_task
from shotsmith.cli import main as cli_main

from ..conftest import SAMPLES

pytestmark = pytest.mark.slow

VOLATILE = ["seconds"]  # the only thing allowed to differ between two runs


def app_files(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def manifest(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("manifest")
    broken = root / "broken-app"
    broken.mkdir()
    (broken / "01_home.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)  # truncated
    (root / "apps.csv").write_text(
        "source,project_name,bundle_id\n"
        f"{SAMPLES / 'pocket-budget'},,\n"
        "broken-app,Broken App,com.example.broken\n"  # relative to the manifest's folder
        f"{SAMPLES / 'tasklane'},Tasklane,com.example.tasklane\n"
    )
    return root / "apps.csv"


@pytest.fixture(scope="module")
def local_run(manifest, tmp_path_factory) -> tuple[Path, pd.DataFrame]:
    out = tmp_path_factory.mktemp("local")
    summary = ss.run_batch(manifest, out, workers=2, ocr=False, progress=False)
    return out, summary


def test_every_app_is_designed_and_a_failure_is_reported(local_run):
    out, summary = local_run
    assert list(summary["app_id"]) == ["pocket-budget", "broken-app", "tasklane"]
    assert list(summary["status"]) == ["designed", "failed", "designed"]
    broken = summary.iloc[1]
    assert "01_home.png" in broken["error"] and "PNG" in broken["error"]
    assert not (out / "broken-app" / batch.DONE_MARKER).exists()
    for app in ("pocket-budget", "tasklane"):
        folder = out / app
        pngs = sorted(folder.glob("0*.png"))
        assert len(pngs) == 5
        for p in pngs:
            with Image.open(p) as im:
                assert im.size == (1320, 2868) and im.mode == "RGB"
        marker = json.loads((folder / batch.DONE_MARKER).read_text())
        assert marker["status"] == "designed" and marker["screens"] == 5
        design = json.loads((folder / "design.json").read_text())
        assert [r["render_path"] for r in design] == [p.relative_to(out).as_posix() for p in pngs]
        assert (folder / "contact-sheet.png").exists()
    table = pd.read_csv(out / "summary.csv", keep_default_na=False)
    assert list(table.columns) == batch.SUMMARY_COLUMNS
    assert list(table["status"]) == list(summary["status"])
    with Image.open(out / "contact-sheet.png") as sheet:
        assert sheet.mode == "RGB" and sheet.width > 2 * 132


def test_dask_cluster_writes_byte_identical_outputs(manifest, local_run, tmp_path):
    distributed = pytest.importorskip("distributed")
    out_local, summary_local = local_run
    out = tmp_path / "dask"
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        summary = ss.run_batch(
            manifest, out, scheduler=cluster.scheduler_address, ocr=False, progress=False
        )
    assert list(summary["status"]) == list(summary_local["status"])
    pd.testing.assert_frame_equal(
        summary.drop(columns=VOLATILE), summary_local.drop(columns=VOLATILE)
    )
    local = app_files(out_local)
    remote = app_files(out)
    assert sorted(remote) == sorted(local)
    different = [name for name in local if name != "summary.csv" and local[name] != remote[name]]
    assert different == []  # every PNG, table, contact sheet and marker, byte for byte


def test_rerun_skips_finished_apps_and_redoes_interrupted_ones(manifest, tmp_path):
    out = tmp_path / "out"
    small = tmp_path / "small.csv"
    small.write_text(f"source\n{SAMPLES / 'pocket-budget'}\n{SAMPLES / 'wanderly'}\n")
    first = ss.run_batch(small, out, workers=0, ocr=False, progress=False)
    assert list(first["status"]) == ["designed", "designed"]
    stamp = (out / "pocket-budget" / "01_overview.png").stat().st_mtime_ns
    # wanderly "crashed" half-way: no marker, a stray file
    (out / "wanderly" / batch.DONE_MARKER).unlink()
    (out / "wanderly" / "stray.png").write_bytes(b"half")
    again = ss.run_batch(small, out, workers=0, ocr=False, progress=False)
    assert list(again["status"]) == ["skipped", "designed"]
    assert again.loc[0, "screens"] == 5 and again.loc[0, "copy_tagline"]
    assert (out / "pocket-budget" / "01_overview.png").stat().st_mtime_ns == stamp
    assert not (out / "wanderly" / "stray.png").exists()
    assert (out / "wanderly" / batch.DONE_MARKER).exists()


def test_at_most_a_window_of_apps_in_flight(monkeypatch, tmp_path):
    """Sets are streamed: a long manifest never has more than `window` tasks submitted, and
    a task that dies (not just fails) is reported without stopping the others."""
    rows = "\n".join(f"{SAMPLES / 'pocket-budget'},App {i}" for i in range(12))
    manifest = tmp_path / "many.csv"
    manifest.write_text("source,project_name\n" + rows + "\n")
    lock = threading.Lock()
    state = {"now": 0, "peak": 0}

    def fake_design(job):
        with lock:
            state["now"] += 1
            state["peak"] = max(state["peak"], state["now"])
        time.sleep(0.02)
        with lock:
            state["now"] -= 1
        if job["app_id"] == "app-3":
            raise MemoryError("worker ran out of memory")
        return {**batch_task._record(job, "designed"), "screens": 5}

    monkeypatch.setattr(batch, "design_app", fake_design)
    monkeypatch.setattr(batch, "write_overview_sheet", lambda summary, out: [])
    submitted = []

    class Counting(ThreadPoolExecutor):
        def submit(self, fn, *args, **kwargs):
            submitted.append(time.perf_counter())
            return super().submit(fn, *args, **kwargs)

    with Counting(8) as pool:
        summary = ss.run_batch(manifest, tmp_path / "out", executor=pool, window=3, progress=False)
    assert len(submitted) == 12
    assert state["peak"] <= 3
    assert list(summary["app_id"]) == [f"app-{i}" for i in range(12)]
    failed = summary[summary["status"] == "failed"]
    assert list(failed["app_id"]) == ["app-3"]
    assert "MemoryError" in failed["error"].iloc[0]


def _crashy_design(job):
    """Stands in for design_app in forked workers: one app kills its worker process."""
    import os

    if job["app_id"] == "app-2":
        os._exit(3)
    time.sleep(0.05)
    return {**batch_task._record(job, "designed"), "screens": 5}


def test_an_app_that_kills_its_worker_is_reported_and_the_rest_go_on(monkeypatch, tmp_path):
    import multiprocessing as mp

    monkeypatch.setattr(batch, "design_app", _crashy_design)
    monkeypatch.setattr(batch_fanout, "_pool_context", lambda: mp.get_context("fork"))
    rows = "\n".join(f"{SAMPLES / 'pocket-budget'},App {i}" for i in range(6))
    (tmp_path / "m.csv").write_text("source,project_name\n" + rows + "\n")
    summary = ss.run_batch(
        tmp_path / "m.csv", tmp_path / "out", workers=2, window=4, progress=False
    )
    status = dict(zip(summary["app_id"], summary["status"]))
    assert status == {f"app-{i}": "failed" if i == 2 else "designed" for i in range(6)}
    assert "worker process died" in summary.set_index("app_id").loc["app-2", "error"]


def test_manifest_rules(tmp_path):
    (tmp_path / "shots").mkdir()
    path = tmp_path / "m.csv"
    path.write_text(
        "source,project_name\nshots,Same Name\nshots,Same Name\nhttps://example.com/app,\n,\n"
    )
    apps = ss.read_manifest(path)
    assert list(apps["app_id"]) == ["same-name", "same-name-2", "example-com"]
    assert list(apps["kind"]) == ["folder", "folder", "url"]
    assert apps["source"].iloc[0] == str((tmp_path / "shots").resolve())
    path.write_text("folder,name\nx,y\n")
    with pytest.raises(ss.ShotsmithError, match="no 'source' column"):
        ss.read_manifest(path)
    with pytest.raises(ss.ShotsmithError, match="no such manifest"):
        ss.read_manifest(tmp_path / "none.csv")


def test_url_rows_fail_with_a_reason_when_they_cannot_be_captured(monkeypatch, tmp_path):
    import shotsmith.stages.capture as capture_stage

    def no_browser(*args, **kwargs):
        raise ss.ShotsmithError("Chromium is not installed")

    monkeypatch.setattr(capture_stage, "capture", no_browser)
    (tmp_path / "m.csv").write_text("source,project_name\nhttps://example.com/app,Web App\n")
    summary = ss.run_batch(tmp_path / "m.csv", tmp_path / "out", workers=0, progress=False)
    assert summary.loc[0, "status"] == "failed"
    assert "Chromium is not installed" in summary.loc[0, "error"]


def test_cli_batch(local_run, manifest, capsys):
    out, _ = local_run
    code = cli_main(
        ["batch", str(manifest), "--out", str(out), "--workers", "1", "--no-ocr", "--quiet"]
    )
    captured = capsys.readouterr()
    assert code == 1  # the broken app still fails
    assert "3 apps: 0 designed, 2 already done, 1 failed" in captured.out
    assert "FAILED broken-app" in captured.err
    assert (out / "summary.csv").exists()


# --- "already done" means done with the same inputs and settings -------------------------------


def png_size(path: Path) -> tuple[int, int]:
    with Image.open(path) as im:
        return im.size


def test_a_changed_parameter_designs_the_app_again_and_says_why(tmp_path, monkeypatch):
    """Every part of the key, changed on its own, redesigns the app; the same run again
    skips it. What a user would see: the PNGs, design.json and summary follow the change."""
    app = tmp_path / "pocket"
    shutil.copytree(SAMPLES / "pocket-budget", app)
    layouts = tmp_path / "layouts"
    layouts.mkdir()
    mine = layouts / "mine.toml"
    mine.write_text('name = "mine"\n[device]\nwidth = 0.7\n')
    manifest = tmp_path / "apps.csv"
    manifest.write_text("source,project_name\npocket,Pocket Budget\n")
    out = tmp_path / "out"
    hero = out / "pocket-budget" / "01_overview.png"

    def run(**options):
        options = {"workers": 0, "ocr": False, "progress": False, **options}
        summary = ss.run_batch(manifest, out, **options)
        return summary.iloc[0]

    def design_json():
        return json.loads((out / "pocket-budget" / "design.json").read_text())

    first = run()
    assert first["status"] == "designed" and first["template"] == "default"
    assert design_json()[0]["layout_template"] == "default"
    assert run()["status"] == "skipped"

    again = run(template="spotlight")  # the bug this fixes: it used to say "skipped"
    assert again["status"] == "designed", again.to_dict()
    assert again["note"] == "designed again: template default -> spotlight"
    assert again["template"] == "spotlight"
    assert design_json()[0]["layout_template"] == "spotlight"
    table = pd.read_csv(out / "summary.csv", keep_default_na=False)
    assert list(table["template"]) == ["spotlight"] and list(table["status"]) == ["designed"]
    assert run(template="spotlight")["status"] == "skipped"

    # the template's content, not just its name
    monkeypatch.setenv("SHOTSMITH_LAYOUTS", str(layouts))
    assert run(template="mine")["status"] == "designed"
    scene_width = json.loads((out / "pocket-budget" / "design.json").read_text())
    assert scene_width[0]["layout_template"] == "mine"
    before = hero.read_bytes()
    mine.write_text('name = "mine"\n[device]\nwidth = 0.6\n')
    edited = run(template="mine")
    assert edited["status"] == "designed" and "template 'mine' was edited" in edited["note"]
    assert hero.read_bytes() != before

    # the output size
    sized = run(template="mine", size="6.5")
    assert sized["status"] == "designed" and "size default -> '6.5'" in sized["note"]
    assert png_size(hero) == (1284, 2778)

    # an input file
    base = dict(template="mine", size="6.5")
    assert run(**base)["status"] == "skipped"
    with Image.open(app / "02_budgets.png") as im:
        im.convert("RGB").transpose(Image.Transpose.FLIP_LEFT_RIGHT).save(app / "02_budgets.png")
    changed = run(**base)
    assert changed["status"] == "designed" and changed["note"].endswith(
        "inputs: 02_budgets.png changed"
    )

    # the manifest row: name, locale
    manifest.write_text("source,project_name,locale\npocket,Pocket Budget,de-DE\n")
    localed = run(**base)
    assert localed["status"] == "designed" and "locale" in localed["note"]
    assert design_json()[0]["locale"] == "de-DE"

    # options: OCR and the copy backend
    assert "ocr False -> auto" in run(**base, ocr="auto")["note"]
    assert "copy_backend" in run(**base, ocr="auto", copy_backend="auto")["note"]

    # another shotsmith (here: the marker says it was made by an older version)
    marker = out / "pocket-budget" / batch.DONE_MARKER
    data = json.loads(marker.read_text())
    data["key"]["shotsmith"]["version"] = "0.0.9"
    marker.write_text(json.dumps(data))
    newer = run(**base, ocr="auto", copy_backend="auto")
    assert newer["status"] == "designed" and "shotsmith 0.0.9 -> " in newer["note"]

    # a marker from before markers had keys
    data = json.loads(marker.read_text())
    del data["key"]
    marker.write_text(json.dumps(data))
    assert "no key" in run(**base, ocr="auto", copy_backend="auto")["note"]


def test_refuse_lists_the_changes_and_designs_nothing(tmp_path, capsys):
    manifest = tmp_path / "apps.csv"
    manifest.write_text(f"source\n{SAMPLES / 'pocket-budget'}\n{SAMPLES / 'wanderly'}\n")
    out = tmp_path / "out"
    ss.run_batch(manifest, out, workers=0, ocr=False, progress=False)
    stamp = (out / "wanderly" / "01_explore.png").stat().st_mtime_ns
    with pytest.raises(ss.ShotsmithError) as info:
        ss.run_batch(
            manifest,
            out,
            workers=0,
            ocr=False,
            progress=False,
            template="spotlight",
            if_changed="refuse",
        )
    message = str(info.value)
    assert "2 app(s)" in message and "wanderly: template default -> spotlight" in message
    assert "Nothing was designed" in message
    assert (out / "wanderly" / "01_explore.png").stat().st_mtime_ns == stamp
    code = cli_main(
        [
            "batch",
            str(manifest),
            "--out",
            str(out),
            "--workers",
            "0",
            "--no-ocr",
            "--quiet",
            "--template",
            "spotlight",
            "--if-changed",
            "refuse",
        ]
    )
    assert code == 2 and "pocket-budget: template default -> spotlight" in capsys.readouterr().err
    code = cli_main(
        [
            "batch",
            str(manifest),
            "--out",
            str(out),
            "--workers",
            "0",
            "--no-ocr",
            "--quiet",
            "--template",
            "spotlight",
        ]
    )
    printed = capsys.readouterr().out
    assert code == 0 and "2 apps: 2 designed, 0 already done, 0 failed" in printed
    assert "wanderly: designed again: template default -> spotlight" in printed


def test_the_batch_contact_sheet_title_fits_and_counts_what_happened(tmp_path):
    manifest = tmp_path / "apps.csv"
    manifest.write_text(f"source\n{SAMPLES / 'pocket-budget'}\n{SAMPLES / 'wanderly'}\n")
    out = tmp_path / "out"
    ss.run_batch(manifest, out, workers=0, ocr=False, progress=False)
    summary = ss.run_batch(manifest, out, workers=0, ocr=False, progress=False)
    assert batch.sheet_title(summary) == "2 apps: 0 designed, 2 already done, 0 failed"
    with Image.open(out / "contact-sheet.png") as sheet:
        pixels = np.asarray(sheet.convert("L"))
    ink = np.flatnonzero((pixels[:44] < 128).any(axis=0))  # the title band, above the tiles
    assert ink.size, "no title drawn"
    assert ink.max() < pixels.shape[1] - 10, "the title runs off the right edge"
    assert pixels.shape[1] > 14 + 2 * (132 + 14)  # widened for the title, not cut


# --- the summary table in a notebook: whole words at laptop widths --------------------------------


def _summary_like() -> pd.DataFrame:
    """A batch summary as a notebook shows it: short statuses beside long notes and paths."""
    rows = []
    for i, status in enumerate(["designed", "skipped", "failed", "designed"]):
        rows.append(
            {
                **batch_task._record(
                    {
                        "app_id": f"pocket-budget-{i}",
                        "project_name": "Pocket Budget",
                        "source": f"/home/maya/projects/store-assets/sample_inputs/app_{i}",
                        "template": {"name": "default"},
                        "note": "designed again: template default -> spotlight; size default",
                    },
                    status,
                ),
                "screens": 5,
                "domain_category": "Finance",
                "copy_tagline": "Shared budgets for couples, designed for clarity",
                "folder": f"pocket-budget-{i}",
                "contact_sheet": f"pocket-budget-{i}/contact-sheet.png",
                "hero": f"pocket-budget-{i}/01_overview_with_a_long_screen_name.png",
                "error": "InputImageError: 01_home.png is not a PNG file (truncated)"
                if status == "failed"
                else "",
                "seconds": 12.5,
            }
        )
    return pd.DataFrame(rows, columns=batch.SUMMARY_COLUMNS)


def test_summary_table_cells_break_between_words_only():
    from shotsmith.notebook.frames import frame_html

    page = frame_html(_summary_like())
    assert "anywhere" not in page  # overflow-wrap:anywhere shrinks columns below a word
    assert "text-align:left!important" in page  # beats JupyterLab's right-aligned td
    assert "sample_<wbr>inputs/<wbr>app_<wbr>0" in page  # long paths may break at separators
    assert "<td>designed</td>" in page and "<td>skipped</td>" in page  # words stay whole


@pytest.mark.browser
def test_summary_table_in_chromium_at_1440_keeps_every_word_on_one_line():
    """The summary as JupyterLab shows it (its right-aligned td rule included) in Chromium at
    1440x900, in an output area as wide as JupyterLab's beside its file browser: no word of
    any cell is split across two lines, and cells are left-aligned."""
    from playwright.sync_api import sync_playwright

    from shotsmith.notebook.frames import frame_html

    from ..notebooks.lab import chromium

    html_page = (
        "<!doctype html><html><head><style>"
        ".jp-RenderedHTMLCommon td,.jp-RenderedHTMLCommon th{text-align:right}"
        "</style></head><body style='margin:0;font:13px sans-serif'>"
        "<div class='jp-RenderedHTMLCommon' style='width:1040px;margin-left:330px'>"
        + frame_html(_summary_like())
        + "</div></body></html>"
    )
    measure = """() => {
        const split = [], aligned = [];
        for (const td of document.querySelectorAll('.shotsmith-frame td')) {
            if (getComputedStyle(td).textAlign !== 'left') aligned.push(td.textContent);
            const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                for (const m of node.data.matchAll(/[A-Za-z0-9]+/g)) {
                    const range = document.createRange();
                    range.setStart(node, m.index);
                    range.setEnd(node, m.index + m[0].length);
                    const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
                    if (tops.size > 1) split.push(m[0]);
                }
            }
        }
        return {split, aligned};
    }"""
    with sync_playwright() as p:
        browser = chromium(p)
        try:
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            page.set_content(html_page)
            found = page.evaluate(measure)
        finally:
            browser.close()
    assert found == {"split": [], "aligned": []}


# --- Dask failures a user can cause: one line each ----------------------------------------------


def _closed_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])  # closed again when this returns: nothing listens


def _batch_cli(*args: str, timeout: float = 120):
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": str(Path(batch.__file__).resolve().parents[2])}
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "shotsmith.cli", "batch", *args, "--quiet"],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )
    return done, time.monotonic() - start


def test_an_unreachable_scheduler_is_one_line_after_the_connect_timeout(tmp_path):
    pytest.importorskip("distributed")
    address = f"tcp://127.0.0.1:{_closed_port()}"
    manifest = tmp_path / "apps.csv"
    manifest.write_text(f"source\n{SAMPLES / 'pocket-budget'}\n")
    done, seconds = _batch_cli(
        str(manifest), "--out", str(tmp_path / "out"), "--scheduler", address,
        "--connect-timeout", "2",
    )  # fmt: skip
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert address in lines[0] and "within 2 s" in lines[0] and "start one there" in lines[0]
    assert 2 <= seconds < 20  # the timeout given, not distributed's 30 s (plus start-up)
    with pytest.raises(ss.ShotsmithError, match="no Dask scheduler answered"):
        ss.run_batch(manifest, tmp_path / "out", scheduler=address, connect_timeout=1)


def test_a_malformed_scheduler_address_is_one_line_at_once(tmp_path):
    pytest.importorskip("distributed")
    manifest = tmp_path / "apps.csv"
    manifest.write_text(f"source\n{SAMPLES / 'pocket-budget'}\n")
    done, seconds = _batch_cli(
        str(manifest), "--out", str(tmp_path / "out"), "--scheduler", "foo://127.0.0.1:1"
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "not a Dask scheduler address" in lines[0], done.stderr
    assert "tcp://10.0.0.5:8786" in lines[0]
    assert seconds < 20


def test_a_scheduler_that_goes_away_mid_run_is_one_line_and_a_rerun_resumes(tmp_path):
    """A real scheduler and worker (processes of their own); the scheduler is killed once
    the first app is finished: the batch stops with one line, and finished apps stay done."""
    import os
    import subprocess
    import sys

    pytest.importorskip("distributed")
    port = _closed_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    env = {**os.environ, "PYTHONPATH": str(Path(batch.__file__).resolve().parents[2])}
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
         "--port", str(port), "--no-dashboard"], **quiet, env=env,
    )  # fmt: skip
    worker = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
         "--nworkers", "1", "--no-dashboard"], **quiet, env=env,
    )  # fmt: skip
    manifest = tmp_path / "apps.csv"
    rows = "\n".join(f"{SAMPLES / 'pocket-budget'},App {i}" for i in range(4))
    manifest.write_text("source,project_name\n" + rows + "\n")
    out = tmp_path / "out"
    env["PYTHONUNBUFFERED"] = "1"
    try:
        run = subprocess.Popen(
            [sys.executable, "-m", "shotsmith.cli", "batch", str(manifest), "--out", str(out),
             "--scheduler", address, "--connect-timeout", "30", "--no-ocr", "--quiet",
             "--window", "1"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        )  # fmt: skip
        deadline = time.monotonic() + 240
        while not list(out.glob(f"*/{batch.DONE_MARKER}")):
            assert run.poll() is None and time.monotonic() < deadline, run.communicate()
            time.sleep(0.1)
        scheduler.kill()
        start = time.monotonic()
        stdout, stderr = run.communicate(timeout=60)
        seconds = time.monotonic() - start
        # what was done when the batch stopped (the worker, a process of the cluster,
        # may still be writing the app it had started: the re-run redoes that one)
        finished = [p.parent.name for p in out.glob(f"*/{batch.DONE_MARKER}")]
    finally:
        for proc in (worker, scheduler):
            proc.kill()
            proc.wait(10)
    assert run.returncode == 2, (stdout, stderr)
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert f"scheduler at {address} went away mid-run" in lines[0]
    assert "of 4 apps done" in lines[0] and "run the same batch" in lines[0]
    assert seconds < 20
    again = ss.run_batch(manifest, out, workers=0, ocr=False, progress=False)
    status = dict(zip(again["app_id"], again["status"]))
    assert all(status[app] == "skipped" for app in finished) and finished
    assert set(status.values()) <= {"skipped", "designed"}


# --- scripts: run_batch from `python run.py` -----------------------------------------------------


def test_an_unguarded_script_stops_at_once_naming_the_main_guard(tmp_path):
    """The worker processes import the user's script again; without the guard each would run
    the batch again and die, and every app would be reported failed. Instead: one sentence,
    at once, and nothing designed. (The guarded script runs in test_readme.py.)"""
    import os
    import subprocess
    import sys

    manifest = tmp_path / "apps.csv"
    manifest.write_text(f"source\n{SAMPLES / 'pocket-budget'}\n")
    script = tmp_path / "run.py"
    script.write_text(
        "import shotsmith as ss\n\n"
        f"summary = ss.run_batch({str(manifest)!r}, 'out', workers=2, progress=False)\n"
        "print(summary)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(batch.__file__).resolve().parents[2])}
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "run.py"], cwd=tmp_path, capture_output=True, text=True, env=env,
        timeout=120,
    )  # fmt: skip
    seconds = time.monotonic() - start
    assert done.returncode == 1 and done.stdout == ""
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(
        "shotsmith.errors.InvalidOptionError: run.py:3 calls run_batch at the top"
    )
    assert 'if __name__ == "__main__":' in last
    assert "worker process died" not in done.stderr and "failed" not in done.stderr
    assert not list((tmp_path / "out").glob(f"*/{batch.DONE_MARKER}"))
    assert seconds < 30


def test_the_main_guard_is_recognised(tmp_path, monkeypatch):
    """Guarded calls (directly or through a function), notebooks and `python -c` pass."""
    import sys
    import types

    script = tmp_path / "run.py"
    script.write_text(
        "import x\n\ndef main():\n    x.run_batch()\n\n"
        "if '__main__' == __name__:\n    main()\n\nx.run_batch()\n"
    )
    fake_main = types.ModuleType("__main__")
    fake_main.__file__ = str(script)
    monkeypatch.setitem(sys.modules, "__main__", fake_main)

    def top_level(line: int):
        code = compile("\n" * (line - 1) + "check()", str(script), "exec")
        seen = {}
        vars(fake_main)["check"] = lambda: seen.setdefault("where", batch_fanout._unguarded_call())
        exec(code, vars(fake_main))
        return seen["where"]

    assert top_level(7) is None  # inside the guard
    assert top_level(9) == "run.py:9"  # after it, at the top level
    del fake_main.__file__  # python -c, a notebook kernel's own main
    assert top_level(9) is None


def test_a_scheduler_without_workers_is_one_line_after_the_connect_timeout(tmp_path, capsys):
    distributed = pytest.importorskip("distributed")
    manifest = tmp_path / "apps.csv"
    manifest.write_text(f"source\n{SAMPLES / 'pocket-budget'}\n")
    with distributed.LocalCluster(n_workers=0, dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        start = time.monotonic()
        code = cli_main(
            ["batch", str(manifest), "--out", str(tmp_path / "out"), "--scheduler", address,
             "--connect-timeout", "2", "--no-ocr", "--quiet"]
        )  # fmt: skip
        seconds = time.monotonic() - start
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1, err
    assert f"the Dask scheduler at {address} has no workers (waited 2 s)" in err[0]
    assert f"dask worker {address}" in err[0]
    assert seconds < 10


def test_a_batch_logged_to_a_file_prints_a_line_per_app_and_the_final_count_once(tmp_path):
    """stderr a pipe (a log, CI): a line per app, no carriage returns, the last once."""
    import os
    import subprocess
    import sys

    manifest = tmp_path / "apps.csv"
    rows = "\n".join(f"{SAMPLES / 'pocket-budget'},App {i}" for i in range(2))
    manifest.write_text("source,project_name\n" + rows + "\n")
    env = {**os.environ, "PYTHONPATH": str(Path(batch.__file__).resolve().parents[2])}
    done = subprocess.run(
        [sys.executable, "-m", "shotsmith.cli", "batch", str(manifest), "--out",
         str(tmp_path / "out"), "--workers", "0", "--no-ocr"],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "\r" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("apps:")]
    assert [line.split("[")[0].split() for line in lines] == [
        ["apps:", "0%", "0/2", "apps"],
        ["apps:", "50%", "1/2", "apps"],
        ["apps:", "100%", "2/2", "apps"],
    ], done.stderr
    assert lines[-1].endswith("app-1]")  # the app just finished
