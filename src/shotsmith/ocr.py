"""Reading the visible text of a screenshot with Tesseract (optional).

Two engines read the same TSV (each word's box, line and confidence): in process through
``tesserocr`` (the ``ocr`` extra: a wheel that bundles libtesseract; it needs Tesseract's
language data, Debian's ``tesseract-ocr-eng``), which hands images over in memory and
keeps its loaded engines for whichever thread reads next; else the ``tesseract`` program
(Debian: ``apt-get install tesseract-ocr``), one call for many images. When neither is
there, :func:`tesseract_path` returns None and callers go on without OCR.
``SHOTSMITH_OCR_ENGINE=cli`` forces the program. ``benchmarks/ocr.py`` measures both,
``benchmarks/pipeline.py`` the reading to copy that OCR is part of.

Speed. Loading the LSTM model costs ~100 ms of CPU, the program's start ~115 ms of wall
time: in process an engine, once loaded, is lent to each reader in turn (never more
engines than readers at once), and the program reads many screenshots per call (a list
file of images written to a temporary folder, each one "page" of the TSV output). Each
page is handed on (``recognize(on_page=...)``) as soon as it is read, not when the call
ends, so progress moves per screenshot at no cost in speed. What is read is prepared to
be cheap and still legible (see :func:`prepare`): grayscale, half size, only the band
from below the status bar to 45% of the height (navigation titles, headers and the first
cards live there; the tab bar at the bottom, which repeats on every screen, is left out),
light-on-dark UIs inverted to dark-on-light.

Measured on this project's 2-core machine, busy with other jobs (10 sample screens,
1206x2622, read at 603 px wide; CPU time, median of 5 rounds): one top band ~95 ms, of
which ~15 ms find the lines and ~24% is Tesseract reading low-confidence lines again
inverted, which is how white text on coloured cards is read at all (off, or
``invert_threshold`` at 0.5, loses "Total balance" and a flight's times; 0.55-0.65 saves
nothing). Leaving the dictionaries unloaded reads the same words no faster. Reading at
40% of the full size instead of half saves ~11% on 117 screens but loses ~2% of their
dictionary words (small labels); at two thirds it costs ~30% more. So what is read is
kept, and what would be paid twice is not: the model is loaded once per reader that
ever ran at the same time, not per worker thread and call (2 x ~100 ms a call), and each
screenshot goes to whichever reader is free. The top
band is read again on a screen whose band is sparse: reading only the band below it,
cut out, thresholds that crop on its own histogram and loses text on grey pages (a
welcome screen's lines, 117-screen copy benchmark down a line). Reading to copy of the
10 screens (``benchmarks/pipeline.py --against``, 15 runs each, load ~6): CPU 2.68 s
against 3.18 s with an engine loaded per thread and fixed chunks of screenshots (0.84);
wall 6.2 s against 7.7 s (0.81; ~1.9 s on an idle machine for the latter).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageOps

from .errors import OCRUnavailableError
from .locales import language_of
from .settings import child_environment, current

#: Page segmentation mode 11 ("sparse text") reads scattered UI labels best; 3 and 6
#: glue unrelated labels into lines and read icons as letters.
DEFAULT_PSM = 11
#: Words Tesseract itself is less sure of than this (0-100) are dropped as noise.
MIN_CONFIDENCE = 55.0
#: The band of the screen that is read, as fractions of the height.
BAND_TOP = 0.04
BAND_BOTTOM = 0.45
#: A screen whose top band holds fewer dictionary words than this (a photo, a chart, or
#: only names and figures first) is read again down to DEEP_BOTTOM.
SPARSE_WORDS = 6
DEEP_BOTTOM = 0.85
#: Downscale factor before OCR (1206 px wide screenshots are read at 603 px).
SCALE = 2
#: Time allowed for one tesseract call: a start-up allowance plus a share per image.
TIMEOUT_BASE_S = 10.0
TIMEOUT_PER_IMAGE_S = 3.0


@lru_cache(maxsize=1)
def _locale_languages() -> dict[str, str]:
    """Locale language -> Tesseract language, loaded once from ``data/ocr_languages.json``."""
    raw = resources.files("shotsmith").joinpath("data/ocr_languages.json").read_text("utf-8")
    return dict(json.loads(raw)["languages"])


@dataclass(frozen=True)
class OCRLine:
    """One line of text as Tesseract set it: its words and its box (in the read image's px)."""

    text: str
    left: int
    top: int
    width: int
    height: int  # the median height of its words: the type size


@dataclass
class OCRResult:
    """What Tesseract read on one screenshot."""

    text: str = ""  # lines of words, top to bottom, joined by newlines
    title: str = ""  # the line set in the largest type near the top ("" when none)
    words: int = 0
    error: str | None = None  # short reason when reading failed
    lines: list[str] = field(default_factory=list)
    boxes: list[OCRLine] = field(default_factory=list)  # the same lines with their boxes


#: Told each screenshot's reading as soon as Tesseract has read it: ``(index, result)``.
PageListener = Callable[[int, OCRResult], None]


def tesseract_path() -> str | None:
    """The engine that reads: :data:`INPROCESS` when tesserocr and language data are there
    (preferred: no process to start, no files to write), else the path of the
    ``tesseract`` program, else None."""
    if _inprocess_data() is not None:
        return INPROCESS
    return shutil.which("tesseract")


#: What :func:`tesseract_path` returns when only the in-process engine can read.
INPROCESS = "inprocess"


@lru_cache(maxsize=1)
def _inprocess_data() -> str | None:
    """The tessdata folder tesserocr can use, or None (no tesserocr, or no language data)."""
    settings = current()
    if settings.ocr_cli:
        return None
    try:
        import tesserocr  # noqa: F401
    except ImportError:
        return None
    candidates = [settings.tessdata]
    candidates += sorted(str(p) for p in Path("/usr/share/tesseract-ocr").glob("*/tessdata"))
    candidates += [
        "/usr/share/tessdata",
        "/usr/local/share/tessdata",
        "/opt/homebrew/share/tessdata",
    ]
    for folder in candidates:
        if folder and (Path(folder) / "eng.traineddata").is_file():
            return folder
    return None


class _Engines:
    """Idle tesserocr engines by (language, segmentation mode), shared by every thread.

    Loading the model costs ~100 ms of CPU, so an engine outlives the thread that made it:
    a reader takes an idle one (or makes one when all are busy) and gives it back when
    done. There are never more engines than readers that ran at the same time.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._idle: dict[tuple[str, int], list[Any]] = {}
        self.made = 0  # engines loaded so far

    @contextmanager
    def borrow(self, lang: str, psm: int) -> Iterator[Any]:
        key = (lang, psm)
        with self._lock:
            idle = self._idle.setdefault(key, [])
            api = idle.pop() if idle else None
        if api is None:
            import tesserocr

            api = tesserocr.PyTessBaseAPI(path=_inprocess_data(), lang=lang, psm=psm)
            with self._lock:
                self.made += 1
        try:
            yield api
        finally:
            api.Clear()  # the image it read is dropped, the model kept
            with self._lock:
                self._idle.setdefault(key, []).append(api)


_engines = _Engines()


def _recognize_inprocess(
    images: Sequence[Image.Image], lang: str, psm: int, on_page: PageListener | None
) -> list[OCRResult]:
    results: list[OCRResult] = []
    try:
        with _engines.borrow(lang, psm) as api:
            for page, img in enumerate(images):
                api.SetImage(img)
                results.append(_result(_lines_by_page(api.GetTSVText(page)).get(page + 1, {})))
                if on_page is not None:
                    on_page(page, results[-1])
    except RuntimeError as exc:  # a language whose data is not installed
        return results + _failed(f"tesserocr: {exc}"[:80], len(images), len(results), on_page)
    return results


TSV_HEADER = (
    "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext"
)


def require_tesseract() -> str:
    path = tesseract_path()
    if path is None:
        raise OCRUnavailableError(
            "OCR was requested (ocr=True) but Tesseract is not installed. Install it "
            "(Debian/Ubuntu: apt-get install tesseract-ocr tesseract-ocr-eng; macOS: brew "
            "install tesseract; then pip install 'shotsmith[ocr]' to read in process), or "
            "pass ocr='auto' / ocr=False."
        )
    return path


@lru_cache(maxsize=4)
def installed_languages(binary: str | None = None) -> frozenset[str]:
    data = _inprocess_data()
    if data is not None:
        return frozenset(
            p.name.removesuffix(".traineddata") for p in Path(data).glob("*.traineddata")
        )
    binary = binary or tesseract_path()
    if not binary or binary == INPROCESS:
        return frozenset()
    try:
        out = subprocess.run(
            [binary, "--list-langs"],
            capture_output=True,
            text=True,
            timeout=10,
            env=_env(),
            check=False,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    return frozenset(line.strip() for line in out.splitlines()[1:] if line.strip())


def language_for(locale: str | None) -> str:
    """Tesseract language for a BCP 47 locale, falling back to English (+ it when both)."""
    code = _locale_languages().get(language_of(locale), "eng")
    if code == "eng":
        return "eng"
    langs = installed_languages()
    if code in langs:
        return f"{code}+eng" if "eng" in langs else code
    return "eng"


def prepare(
    image: Image.Image,
    *,
    dark: bool | None = None,
    scale: int = SCALE,
    band: tuple[float, float] = (BAND_TOP, BAND_BOTTOM),
) -> Image.Image:
    """The cheap, legible grayscale crop that is handed to Tesseract."""
    gray = image if image.mode == "L" else image.convert("L")
    if scale > 1:
        gray = gray.reduce(scale)
    h = gray.height
    top, bottom = int(h * band[0]), max(int(h * band[1]), int(h * band[0]) + 1)
    gray = gray.crop((0, top, gray.width, bottom))
    if dark is None:
        dark = _mean(gray) < 110
    if dark:
        gray = ImageOps.invert(gray)
    return gray


def _mean(gray: Image.Image) -> float:
    small = gray.copy()
    small.thumbnail((64, 64))
    return float(np.asarray(small).mean()) if small.width and small.height else 255.0


def _env() -> dict[str, str]:
    # one thread per tesseract: we run two processes side by side instead
    return child_environment({"OMP_THREAD_LIMIT": "1"})


def recognize(
    images: Sequence[Image.Image],
    *,
    lang: str = "eng",
    psm: int = DEFAULT_PSM,
    timeout: float | None = None,
    binary: str | None = None,
    on_page: PageListener | None = None,
) -> list[OCRResult]:
    """Read prepared grayscale images with ONE tesseract call; one result per image.

    ``on_page(index, result)`` is called once per image, in order, as soon as that image is
    read (not when the whole call ends), so a progress bar moves per screenshot; an
    exception it raises stops the reading. Never raises for a failed read: each result
    then carries ``error``.
    """
    if not images:
        return []
    binary = binary or tesseract_path()
    if binary is None:
        return _failed("tesseract not installed", len(images), 0, on_page)
    if binary == INPROCESS:
        return _recognize_inprocess(images, lang, psm, on_page)
    timeout = timeout if timeout is not None else TIMEOUT_BASE_S + TIMEOUT_PER_IMAGE_S * len(images)
    with tempfile.TemporaryDirectory(prefix="shotsmith-ocr-") as tmp:
        paths = []
        for i, img in enumerate(images):
            path = Path(tmp) / f"{i:04d}.png"
            img.save(path, format="PNG", compress_level=1)
            paths.append(str(path))
        listing = Path(tmp) / "images.txt"
        listing.write_text("\n".join(paths) + "\n", encoding="utf-8")
        cmd = [binary, str(listing), "stdout", "-l", lang, "--psm", str(psm), "tsv"]
        return _run_program(cmd, Path(tmp) / "out.tsv", len(images), timeout, on_page)


def _run_program(
    cmd: list[str], out: Path, pages: int, timeout: float, on_page: PageListener | None
) -> list[OCRResult]:
    """Run one tesseract call over ``pages`` images, telling ``on_page`` each page read.

    The program writes each page's TSV to ``out`` (flushed) once that page is read, then
    announces the next image on stderr ("Page 3 : path"): that line is the signal that
    every page before it is complete in the file.
    """
    results: list[OCRResult] = []
    reader = _PageReader(out)

    def tell(upto: int) -> None:  # pages [len(results), upto) are complete in the file
        if upto <= len(results):
            return
        found = reader.read()
        for page in range(len(results), upto):
            results.append(_result(found.get(page + 1, {})))
            if on_page is not None:
                on_page(page, results[-1])

    timed_out = threading.Event()
    errors: list[str] = []
    with out.open("wb") as sink:
        try:
            proc = subprocess.Popen(
                cmd, stdout=sink, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=_env()
            )
        except OSError as exc:
            return _failed(f"cannot run tesseract ({exc.strerror or exc})", pages, 0, on_page)

        def stop() -> None:
            timed_out.set()
            proc.kill()

        timer = threading.Timer(timeout, stop)
        timer.start()
        with proc:  # closes the pipe and waits for the program, however this block ends
            try:
                assert proc.stderr is not None
                for raw in proc.stderr:
                    line = raw.decode("utf-8", "replace").strip()
                    announced = _ANNOUNCED.match(line)
                    if announced:
                        tell(min(pages, int(announced.group(1))))
                    elif line:
                        errors.append(line)
            except BaseException:  # on_page stopped the reading: so does the program
                proc.kill()
                raise
            finally:
                timer.cancel()
    returncode = proc.returncode
    if timed_out.is_set():
        return results + _failed(f"timed out after {timeout:.0f} s", pages, len(results), on_page)
    if returncode != 0:
        reason = errors[-1][:80] if errors else f"exit status {returncode}"
        return results + _failed(f"tesseract failed: {reason}", pages, len(results), on_page)
    tell(pages)
    return results


#: The line tesseract writes to stderr as it starts on an image of a list ("Page 3 : path",
#: counted from 0): every page before it is complete in its output.
_ANNOUNCED = re.compile(r"^Page (\d+) : ")


class _PageReader:
    """The TSV file a running tesseract writes, read as it grows: whole lines only."""

    def __init__(self, path: Path):
        self.path = path
        self.offset = 0

    def read(self) -> dict[int, dict[tuple[int, int, int], list[_Word]]]:
        with self.path.open("rb") as handle:
            handle.seek(self.offset)
            data = handle.read()
        data = data[: data.rfind(b"\n") + 1]
        self.offset += len(data)
        return _lines_by_page(data.decode("utf-8", "replace"))


def _failed(reason: str, pages: int, start: int, on_page: PageListener | None) -> list[OCRResult]:
    """Failed results for pages ``start`` to ``pages``, each told to ``on_page``."""
    results = []
    for page in range(start, pages):
        results.append(OCRResult(error=reason))
        if on_page is not None:
            on_page(page, results[-1])
    return results


def parse_tsv(tsv: str, pages: int, *, min_confidence: float = MIN_CONFIDENCE) -> list[OCRResult]:
    """Tesseract TSV (one page per image) to per-image text, title and word count."""
    found = _lines_by_page("\n".join(tsv.splitlines()[1:]), min_confidence=min_confidence)
    return [_result(found.get(page, {})) for page in range(1, pages + 1)]


#: One word of a line: (left, top, height, text, right).
_Word = tuple[int, int, int, str, int]


def _lines_by_page(
    tsv: str, *, min_confidence: float = MIN_CONFIDENCE
) -> dict[int, dict[tuple[int, int, int], list[_Word]]]:
    """The confident words of TSV rows: page -> (block, paragraph, line) -> words."""
    found: dict[int, dict[tuple[int, int, int], list[_Word]]] = {}
    for row in tsv.splitlines():
        cells = row.split("\t")
        if len(cells) < 12 or cells[0] != "5":
            continue
        text = cells[11].strip()
        try:
            conf = float(cells[10])
            page, block, par, line = (int(c) for c in cells[1:5])
            left, top, width, height = (int(c) for c in cells[6:10])
        except ValueError:
            continue
        if not text or conf < min_confidence:
            continue
        found.setdefault(page, {}).setdefault((block, par, line), []).append(
            (left, top, height, text, left + width)
        )
    return found


def _result(lines: dict[tuple[int, int, int], list[_Word]]) -> OCRResult:
    """One page's lines, top to bottom, with their boxes and the title."""
    ordered = []  # (top, left, height, text, right)
    for words in lines.values():
        words.sort()
        heights = sorted(w[2] for w in words)
        ordered.append(
            (
                min(w[1] for w in words),
                words[0][0],
                heights[len(heights) // 2],
                " ".join(w[3] for w in words),
                max(w[4] for w in words),
            )
        )
    ordered.sort(key=lambda x: (x[0] // 12, x[1]))  # rows, then left to right
    texts = [o[3] for o in ordered]
    return OCRResult(
        text="\n".join(texts),
        title=_title([o[:4] for o in ordered]),
        words=sum(len(t.split()) for t in texts),
        lines=texts,
        boxes=[OCRLine(t, x, y, right - x, h) for y, x, h, t, right in ordered],
    )


def _title(ordered: list[tuple[int, int, int, str]]) -> str:
    """The largest line that reads like words (not a clock or an amount)."""
    best, best_height = "", 0
    for _, _, height, text in ordered:
        letters = sum(ch.isalpha() for ch in text)
        if letters < 3 or letters < len(text.replace(" ", "")) * 0.6:
            continue
        if height > best_height * 1.15:
            best, best_height = text, height
    return best


def recognize_many(
    images: Sequence[Image.Image],
    *,
    workers: int = 2,
    lang: str = "eng",
    psm: int = DEFAULT_PSM,
    chunk: int = 16,
    binary: str | None = None,
) -> list[OCRResult]:
    """Read many prepared images, ``workers`` readers side by side.

    The program reads images dealt in chunks of at most ``chunk`` per call, so its start-up
    is paid once per chunk, not once per image; in process, where there is no start-up,
    each image goes to whichever reader is free, so one slow image does not hold up a
    chunk behind it.
    """
    n = len(images)
    if n == 0:
        return []
    binary = binary or tesseract_path()
    workers = max(1, min(workers, n))
    per_call = 1 if binary == INPROCESS else max(1, min(chunk, -(-n // workers)))
    batches = [list(range(i, min(n, i + per_call))) for i in range(0, n, per_call)]
    out: list[OCRResult | None] = [None] * n

    def run(batch: list[int]) -> None:
        read = recognize([images[i] for i in batch], lang=lang, psm=psm, binary=binary)
        for idx, res in zip(batch, read):
            out[idx] = res

    if len(batches) == 1 or workers == 1:
        for batch in batches:
            run(batch)
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(run, batches))
    return [r if r is not None else OCRResult(error="not read") for r in out]


def read_text(image: Image.Image, *, dark: bool | None = None, lang: str = "eng") -> OCRResult:
    """Convenience: prepare and read one full-size screenshot."""
    return recognize([prepare(image, dark=dark)], lang=lang)[0]
