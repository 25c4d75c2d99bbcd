"""Progress moves per screenshot while OCR reads: each screenshot is told as Tesseract's
output for it arrives, not when the whole call (a chunk of screenshots) ends; counts told in
a stage's worker threads are heard by the listener of the thread that runs the stage."""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from PIL import Image

import shotsmith as ss
from shotsmith import ocr, progress

SAMPLES = Path(__file__).resolve().parents[1] / "sample_inputs"
PROGRAM = shutil.which("tesseract")

needs_program = pytest.mark.skipif(
    PROGRAM is None and not os.environ.get("CI"), reason="tesseract is not installed"
)
needs_ocr = pytest.mark.skipif(
    ocr.tesseract_path() is None and not os.environ.get("CI"), reason="no OCR engine"
)


def prepared(count: int) -> list[Image.Image]:
    """``count`` sample screenshots prepared as extract_features prepares them."""
    paths = sorted(SAMPLES.glob("*/*.png"))[:count]
    return [ocr.prepare(Image.open(p).convert("RGB").reduce(2), scale=1) for p in paths]


@needs_ocr
def test_a_five_screenshot_set_moves_one_screenshot_at_a_time():
    frame = ss.read_screenshots(SAMPLES / "pocket-budget")
    assert len(frame) == 5
    heard: list[tuple[int, str]] = []
    with progress.listening(lambda n: heard.append((n, threading.current_thread().name))):
        out = ss.extract_features(frame, ocr=True)  # two threads, chunks of 3 and 2
    assert list(out["features_text_source"]) == ["ocr"] * 5
    assert [n for n, _ in heard if n] == [1, 1, 1, 1, 1]  # not 3 then 2
    assert {name for _, name in heard} == {threading.current_thread().name}


@needs_program
def test_the_program_tells_each_page_as_it_is_read():
    images = prepared(8)
    told: list[tuple[int, float]] = []
    start = time.perf_counter()
    results = ocr.recognize(
        images, binary=PROGRAM, on_page=lambda i, r: told.append((i, time.perf_counter()))
    )
    end = time.perf_counter()
    assert [i for i, _ in told] == list(range(8))
    # the first page is told long before the call ends (one page of eight read so far)
    assert told[0][1] - start < 0.75 * (end - start), (told[0][1] - start, end - start)
    # and what was told page by page is what one reading of the whole output finds
    with_listing = _read_whole(images)
    assert [r.text for r in results] == [r.text for r in with_listing]
    assert [r.boxes for r in results] == [r.boxes for r in with_listing]
    assert all(r.words > 0 for r in results)


def _read_whole(images: list[Image.Image]) -> list[ocr.OCRResult]:
    """The same images read by one plain tesseract run, its whole TSV parsed at the end."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, im in enumerate(images):
            paths.append(str(Path(tmp) / f"{i}.png"))
            im.save(paths[-1])
        (Path(tmp) / "list.txt").write_text("\n".join(paths) + "\n")
        assert PROGRAM is not None
        tsv = subprocess.run(
            [PROGRAM, str(Path(tmp) / "list.txt"), "stdout", "--psm", "11", "tsv"],
            capture_output=True,
            env={**os.environ, "OMP_THREAD_LIMIT": "1"},
            check=True,
        ).stdout.decode()
    return ocr.parse_tsv(tsv, len(images))


@needs_program
def test_a_listener_that_stops_the_reading_stops_tesseract():
    class Stop(Exception):
        pass

    def stop(index: int, result: ocr.OCRResult) -> None:
        raise Stop

    with pytest.raises(Stop):
        ocr.recognize(prepared(6), binary=PROGRAM, on_page=stop)
    assert not _tesseract_children()  # stopped and waited for, not left reading


def _tesseract_children() -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            name = stat.read_text().split("(", 1)[1].rsplit(")", 1)[0]
        except (OSError, IndexError):
            continue
        if int(fields[1]) == os.getpid() and name == "tesseract":
            found.append(int(stat.parent.name))
    return found


def test_a_failed_call_still_tells_every_page():
    told: list[int] = []
    results = ocr.recognize(
        prepared(3), binary="/nonexistent/tesseract", on_page=lambda i, r: told.append(i)
    )
    assert told == [0, 1, 2]
    assert all(r.error and "cannot run tesseract" in r.error for r in results)


def test_counts_told_in_pool_threads_are_heard_on_the_waiting_thread():
    heard: list[tuple[int, str]] = []

    def work(item: int) -> int:
        for _ in range(item):
            progress.advance(1)
            time.sleep(0.005)
        return item * 10

    with progress.listening(lambda n: heard.append((n, threading.current_thread().name))):
        with ThreadPoolExecutor(2) as pool:
            results = progress.in_threads(pool, work, [3, 1, 2])
    assert results == [30, 10, 20]
    assert [n for n, _ in heard] == [1] * 6
    assert {name for _, name in heard} == {threading.current_thread().name}


def test_a_listener_that_stops_the_run_stops_the_pool():
    started: list[int] = []
    steps: list[int] = []

    def work(item: int) -> None:
        started.append(item)
        for step in range(50):
            progress.advance(1)
            steps.append(step)
            time.sleep(0.01)

    def stop_at_third(n: int) -> None:
        if len(told) == 2:
            raise RuntimeError("stopped")
        told.append(n)

    told: list[int] = []
    with progress.listening(stop_at_third), ThreadPoolExecutor(1) as pool:
        with pytest.raises(RuntimeError, match="stopped"):
            progress.in_threads(pool, work, list(range(10)))
    assert started == [0]  # the items not started were dropped
    assert len(steps) < 50  # the running one stopped at its next step


@needs_ocr
def test_design_reports_extract_features_per_screenshot(tmp_path):
    events: list[dict] = []
    ss.design(SAMPLES / "pocket-budget", out_dir=tmp_path, ocr=True, progress=events.append)
    done = [
        e["done"]
        for e in events
        if e["event"] == "screenshots" and e["stage"] == "extract_features"
    ]
    assert done == [1, 2, 3, 4, 5]  # what `shotsmith design` logs as extract_features [k/5]
