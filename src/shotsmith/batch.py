"""Design many apps from a manifest, on a local process pool or a Dask cluster.

A manifest is a CSV with one app per row::

    source,project_name,bundle_id
    sample_inputs/pocket-budget,Pocket Budget,com.example.pocketbudget
    https://example.com/app,Example,        # a web app: captured first (needs [capture])

``source`` is a folder of raw screenshots (relative paths are relative to the
manifest's folder) or an http(s) URL; ``project_name``, ``bundle_id``, ``app_id``,
``locale``, ``about`` (the user's own description of the app) and ``copy`` (a CSV of
``screen, headline, subtitle`` to use instead of generated copy, relative to the
manifest's folder) are optional. Each app is one task: the task reads its own inputs from disk,
designs the set, writes ``<out>/<app_id>/`` (PNGs, design.json/.csv, contact-sheet.png)
and finally, atomically, a ``_done.json`` marker; only that small record comes
back. At most ``window`` tasks are in flight, so memory stays flat however long the
manifest is.

"Already done" means done *with the same key*: the marker records everything that
decides an app's output (the digests of its input files, its manifest row, the
template's name and content, size, OCR engine, copy backend, the user's ``about`` text
and ``copy`` file, and the shotsmith code and data that ran). A re-run skips an app only
when that key is unchanged; otherwise it designs the app again and says what changed
(or, with ``if_changed="refuse"``, designs nothing and lists the changes). The executor is a
``ProcessPoolExecutor`` (``workers``) or a Dask cluster (``scheduler``, through
``distributed.Client(address).get_executor()``); both run the same task, so the
outputs are byte-identical.

The per-app ``design.json``/``design.csv`` written here hold paths relative to the
output folder and no timings, so a finished folder is reproducible and relocatable;
timings go to ``summary.csv``.
"""

from __future__ import annotations

import concurrent.futures as cf
import hashlib
import json
import os
import re
import shutil
import time
import traceback
from collections import deque
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import pandas as pd

from . import columns as C
from .errors import (
    CaptureError,
    ConflictError,
    InputFileError,
    InvalidOptionError,
    ShotsmithError,
    ToolMissingError,
)
from .ids import slugify
from .stages.read import MANIFEST_NAMES, manifest_project_name

DONE_MARKER = "_done.json"
SUMMARY_CSV = "summary.csv"
CONTACT_SHEET = "contact-sheet.png"
THUMBNAIL = "thumbnail.png"
THUMB_WIDTH = 132
SHEET_APPS_PER_PAGE = 100  # the overall contact sheet: one hero thumbnail per app, paged
URL_RE = re.compile(r"^https?://", re.I)

SUMMARY_COLUMNS = [
    "app_id",
    "project_name",
    "source",
    "status",
    "screens",
    "domain_category",
    "domain_confidence",
    "copy_tagline",
    "template",
    "folder",
    "contact_sheet",
    "hero",
    "seconds",
    "error",
    "note",
]


# --- manifest ------------------------------------------------------------------------------


MANIFEST_COLUMNS = ("source", "project_name", "bundle_id", "app_id", "locale", "about", "copy")


def read_manifest(manifest: str | Path | pd.DataFrame) -> pd.DataFrame:
    """The apps of a manifest CSV (or frame), one row each, with resolved sources and
    unique ``app_id``s. Columns: source, project_name, bundle_id, app_id, locale, about,
    copy (a resolved path or ""), kind."""
    base = Path.cwd()
    if isinstance(manifest, pd.DataFrame):
        table = manifest.copy()
    else:
        path = Path(manifest)
        if not path.is_file():
            raise InputFileError(
                f"{path}: no such manifest. Write a CSV with a 'source' "
                "column (folder or URL) and optional project_name, bundle_id."
            )
        base = path.resolve().parent
        try:
            table = pd.read_csv(
                path, dtype=str, keep_default_na=False, skipinitialspace=True, comment="#"
            )
        except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
            raise InputFileError(f"{path}: not a readable CSV manifest ({exc}).") from exc
    table.columns = [str(c).strip().lower() for c in table.columns]
    if "source" not in table.columns:
        raise InputFileError(
            f"manifest: no 'source' column (found {list(table.columns)}); "
            "each row needs a screenshot folder or a web app URL."
        )
    rows, seen = [], set()
    for rec in table.to_dict("records"):
        source = str(rec.get("source") or "").strip()
        if not source:
            continue
        name = str(rec.get("project_name") or "").strip()
        bundle = str(rec.get("bundle_id") or "").strip()
        copy_file = str(rec.get("copy") or "").strip()
        if copy_file:
            copy_path = Path(copy_file).expanduser()
            copy_file = str(copy_path if copy_path.is_absolute() else (base / copy_path).resolve())
        if URL_RE.match(source):
            kind = "url"
            fallback = re.sub(r"^www\.", "", re.sub(URL_RE, "", source).split("/")[0])
        else:
            kind = "folder"
            folder = Path(source).expanduser()
            source = str(folder if folder.is_absolute() else (base / folder).resolve())
            fallback = manifest_project_name(Path(source)) or Path(source).name
        app_id = slugify(str(rec.get("app_id") or "").strip() or name or fallback)
        unique, n = app_id, 2
        while unique in seen:
            unique, n = f"{app_id}-{n}", n + 1
        seen.add(unique)
        rows.append(
            {
                "source": source,
                "project_name": name,
                "bundle_id": bundle,
                "app_id": unique,
                "locale": str(rec.get("locale") or "").strip(),
                "about": str(rec.get("about") or "").strip(),
                "copy": copy_file,
                "kind": kind,
            }
        )
    if not rows:
        raise InputFileError("manifest: no apps (every 'source' is empty).")
    return pd.DataFrame(rows)


def write_manifest(apps: list[dict[str, Any]] | pd.DataFrame, path: str | Path) -> Path:
    """Write a manifest CSV (columns source, project_name, bundle_id, and any of app_id,
    locale, about, copy that the apps have)."""
    table = pd.DataFrame(apps)
    if "source" not in table.columns:
        raise InvalidOptionError("write_manifest: every app needs a 'source'.")
    cols = [c for c in MANIFEST_COLUMNS if c in table.columns]
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    table[cols].to_csv(path, index=False)
    return path


# --- what decides an app's output: the "already done" key ------------------------------------

INPUT_SUFFIXES = (".png",)


def design_key(job: dict[str, Any]) -> dict[str, Any]:
    """Everything that decides what an app's folder holds, as plain JSON data.

    Two runs with equal keys write the same files; ``_done.json`` keeps the key of the run
    that wrote it, and a run with another key designs the app again. The parts: the
    shotsmith code and data that ran, the digests of the input files (or the URL to
    capture), the app's manifest row, the user's ``about`` text and ``copy`` file, the
    template's name and content, the output size, the OCR option and engine, and the
    copy backend (with the LLM endpoint and model when one is used)."""
    key = {
        "shotsmith": shotsmith_build(),
        "inputs": _inputs_key(job),
        "app": {f: str(job.get(f) or "") for f in ("app_id", "project_name", "bundle_id")},
        "locale": str(job.get("locale") or ""),
        "about": str(job.get("about") or ""),
        "copy": _file_key(job.get("copy") or ""),
        "template": _template_key(job["template"]),
        "size": str(job.get("size") or ""),
        "ocr": _ocr_key(job.get("ocr", "auto")),
        "copy_backend": _backend_key(job.get("copy_backend", "grounded")),
    }
    return json.loads(json.dumps(key, default=str))  # exactly what a marker reads back


@lru_cache(maxsize=1)
def shotsmith_build() -> dict[str, str]:
    """This shotsmith: its version and one digest of every file of the package (code and
    data: word lists, templates, weights), so an edit to any of them counts as a change
    even when the version number stays the same (a development checkout)."""
    from . import __version__

    root = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(_sha256(path).encode() + b"\n")
    return {"version": __version__, "files": digest.hexdigest()[:16]}


def _sha256(path: Path) -> str:
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def _inputs_key(job: dict[str, Any]) -> dict[str, Any]:
    """The URL of a web app, or the digests of the files a folder's set is read from
    (its PNGs and its manifest.json), by name."""
    if job.get("kind") == "url":
        return {"url": job["source"]}
    folder = Path(job["source"])
    if not folder.is_dir():
        return {"folder": folder.name, "files": None}
    files = {
        p.name: _sha256(p)
        for p in sorted(folder.iterdir())
        if p.is_file() and (p.suffix.lower() in INPUT_SUFFIXES or p.name in MANIFEST_NAMES)
    }
    return {"folder": folder.name, "files": files}


def _file_key(path: str) -> dict[str, str] | str:
    if not path:
        return ""
    file = Path(path)
    return {"name": file.name, "sha256": _sha256(file) if file.is_file() else "missing"}


def _template_key(template: dict[str, Any] | str) -> dict[str, str]:
    if not isinstance(template, dict):
        return {"name": str(template), "sha256": ""}
    content = {k: v for k, v in template.items() if k != "description"}  # words, not design
    text = json.dumps(content, sort_keys=True, default=str)
    return {"name": str(template.get("name", "")), "sha256": _text_digest(text)}


def _text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _ocr_key(ocr: bool | str) -> dict[str, Any]:
    if ocr is False or str(ocr).lower() in ("false", "0", "no", "off"):
        return {"option": False}
    return {"option": ocr, "engine": _ocr_engine()}


@lru_cache(maxsize=1)
def _ocr_engine() -> str:
    """Which Tesseract (and which language data) reads the screens here, or "none"."""
    import subprocess

    from .ocr import installed_languages, tesseract_path

    binary = tesseract_path()
    if not binary:
        return "none"
    try:
        out = subprocess.run(
            [binary, "--version"], capture_output=True, text=True, timeout=10, check=False
        )
        version = (out.stdout or out.stderr).splitlines()[0].strip()
    except (OSError, subprocess.SubprocessError, IndexError):
        version = "tesseract (version unknown)"
    return f"{version} [{'+'.join(sorted(installed_languages(binary)))}]"


def _backend_key(backend: str) -> dict[str, Any]:
    if backend in ("grounded", "phrasebank"):  # one writer, two names: one key
        return {"backend": "phrasebank"}
    from .llm import LLMConfig

    config = LLMConfig.from_env()
    llm = {"base_url": config.base_url, "model": config.model} if config else None
    return {"backend": backend, "llm": llm}


def key_changes(old: dict[str, Any] | None, new: dict[str, Any]) -> list[str]:
    """What differs between the key an app was designed with and this run's, in words."""
    if not isinstance(old, dict):
        return ["its marker has no key (an older shotsmith made it)"]
    changes: list[str] = []
    for part, value in new.items():
        was = old.get(part)
        if was == value:
            continue
        if part == "shotsmith":
            changes.append(
                f"shotsmith {was.get('version')} -> {value['version']}"
                if isinstance(was, dict) and was.get("version") != value["version"]
                else "shotsmith's code or data changed"
            )
        elif part == "inputs":
            changes.append(_input_changes(was, value))
        elif part == "template":
            old_name = was.get("name") if isinstance(was, dict) else was
            changes.append(
                f"template {old_name} -> {value['name']}"
                if old_name != value["name"]
                else f"template {value['name']!r} was edited"
            )
        elif part == "app":
            was = was if isinstance(was, dict) else {}
            changes += [
                f"{f} {was.get(f, '')!r} -> {v!r}" for f, v in value.items() if was.get(f) != v
            ]
        elif part == "copy":
            changes.append("the copy file changed" if was and value else "copy file added/removed")
        elif part == "about":
            changes.append("the about text changed")
        elif part == "ocr":
            old_opt = was.get("option") if isinstance(was, dict) else was
            changes.append(
                f"ocr {old_opt} -> {value['option']}"
                if old_opt != value["option"]
                else f"OCR engine changed ({was.get('engine')} -> {value.get('engine')})"
            )
        else:
            changes.append(f"{part} {_short(was)} -> {_short(value)}")
    return changes


def _short(value: Any) -> str:
    if isinstance(value, dict):
        value = value.get("backend", value.get("name", value))
    return repr(value) if value != "" else "default"


def _input_changes(was: Any, now: dict[str, Any]) -> str:
    if not isinstance(was, dict) or "url" in now or "url" in was:
        return "inputs changed"
    old_files, new_files = was.get("files") or {}, now.get("files") or {}
    parts = [f"{n} changed" for n in new_files if n in old_files and old_files[n] != new_files[n]]
    parts += [f"{n} added" for n in new_files if n not in old_files]
    parts += [f"{n} removed" for n in old_files if n not in new_files]
    if was.get("folder") != now.get("folder"):
        parts.insert(0, f"folder {was.get('folder')} -> {now.get('folder')}")
    shown = ", ".join(parts[:4]) + (f" and {len(parts) - 4} more" if len(parts) > 4 else "")
    return f"inputs: {shown}" if parts else "inputs changed"


def read_marker(marker: Path) -> dict[str, Any] | None:
    """An app's ``_done.json``, or None when there is none (or it cannot be read)."""
    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


# --- one app (runs in a worker) ----------------------------------------------------------------


def design_app(job: dict[str, Any]) -> dict[str, Any]:
    """Design one app of a batch into ``<out_dir>/<app_id>/``; return its summary record.

    Skipped when the app's marker holds this job's key (see :func:`design_key`); otherwise
    the folder is cleared and the app designed again. Never raises for a bad app: the
    record says ``failed`` and why. Safe to run in any worker process (it reads its inputs
    from disk and writes its outputs there)."""
    if job.get("single_thread", True):  # in a pool's worker: the workers share the cores
        os.environ.setdefault("SHOTSMITH_RENDER_THREADS", "1")
    start = time.perf_counter()
    out_dir = Path(job["out_dir"])
    app_id = job["app_id"]
    folder = out_dir / app_id
    record = _record(job, status="failed")
    marker = folder / DONE_MARKER
    try:
        key = job.get("key") or design_key(job)
        done = read_marker(marker)
        if done is not None and done.get("key") == key:
            return _skipped(job, done)
        if folder.exists():  # an interrupted run, or one with another key: start clean
            shutil.rmtree(folder)
        frame = _read_inputs(job)
        record.update(_design_into(frame, job, out_dir))
        record["status"] = "designed"
        kept = {k: v for k, v in record.items() if k not in ("seconds", "note")}
        _write_atomic(marker, json.dumps({**kept, "key": key}, indent=2, default=str) + "\n")
    except Exception as exc:  # one bad app must not stop the batch: report it
        record["status"] = "failed"
        record["error"] = _reason(exc)
    record["seconds"] = round(time.perf_counter() - start, 3)
    return record


def _record(job: dict[str, Any], status: str) -> dict[str, Any]:
    return {
        "app_id": job["app_id"],
        "project_name": job.get("project_name") or "",
        "source": job["source"],
        "status": status,
        "screens": 0,
        "domain_category": "",
        "domain_confidence": None,
        "copy_tagline": "",
        "template": _template_name(job),
        "folder": "",
        "contact_sheet": "",
        "hero": "",
        "seconds": 0.0,
        "error": "",
        "note": job.get("note", ""),
    }


def _template_name(job: dict[str, Any]) -> str:
    t = job["template"]
    return str(t.get("name", "")) if isinstance(t, dict) else str(t)


def _skipped(job: dict[str, Any], done: dict[str, Any]) -> dict[str, Any]:
    record = {k: v for k, v in done.items() if k != "key"}
    record.update(status="skipped", seconds=0.0, error="", note="unchanged since it was designed")
    return record


def _reason(exc: BaseException) -> str:
    if isinstance(exc, ShotsmithError):
        return str(exc)
    frame = traceback.extract_tb(exc.__traceback__)[-1:] if exc.__traceback__ else []
    where = f" (at {Path(frame[0].filename).name}:{frame[0].lineno})" if frame else ""
    return f"{type(exc).__name__}: {exc}{where}"


def _read_inputs(job: dict[str, Any]) -> pd.DataFrame:
    from .io import read_screenshots

    name = job.get("project_name") or None
    bundle = job.get("bundle_id") or None
    if job["kind"] == "url":
        try:
            from .stages.capture import capture
        except ImportError as exc:
            raise ToolMissingError(
                f"{job['source']}: web app URLs need the capture stage, which "
                f"is not available here ({exc}); install shotsmith[capture] "
                "or list a folder of screenshots instead."
            ) from exc
        raw = Path(job["out_dir"]) / ".capture" / job["app_id"]
        frame = capture(job["source"], project_name=name, bundle_id=bundle, out_dir=raw)
        if frame.empty:
            raise CaptureError(f"{job['source']}: capture found no screens.")
        first = frame[C.APP_ID].iloc[0]
        frame = frame[frame[C.APP_ID] == first].copy()  # one set: the first device
        frame[C.APP_ID] = job["app_id"]
        return frame
    return read_screenshots(
        job["source"],
        project_name=name,
        bundle_id=bundle,
        app_id=job["app_id"],
        locale=job.get("locale") or None,
    )


def _design_into(frame: pd.DataFrame, job: dict[str, Any], out_dir: Path) -> dict[str, Any]:
    from .pipeline import Pipeline, write_report
    from .sheets import contact_sheet

    pipe = Pipeline.default(
        template=job["template"],
        size=job.get("size"),
        out_dir=out_dir,
        ocr=job.get("ocr", "auto"),
        copy_backend=job.get("copy_backend", "grounded"),
        **_user_copy_options(job),
    )
    if job.get("single_thread", True):  # one thread per task, like the renderer
        pipe.set_params(extract_features__workers=1)
    result = pipe.run(frame, keep_intermediates=False, progress=False).output
    result = result.sort_values(C.POSITION, kind="stable")
    paths = [Path(p) for p in result[C.RENDER_PATH]]
    table = result.drop(columns=[C.RENDER_MS])
    table[C.RENDER_PATH] = [p.relative_to(out_dir).as_posix() for p in paths]
    write_report(table, out_dir)
    first = result.iloc[0]
    app_id = str(first[C.APP_ID])
    small = [_reduced(p, 240) for p in paths]
    sheet = contact_sheet(
        small, thumb_width=240, title=f"{first[C.PROJECT_NAME]} - {first[C.COPY_TAGLINE]}"
    )
    _save_png(sheet, out_dir / app_id / CONTACT_SHEET)
    # the app's tile on the batch's contact sheet, made here, in parallel, not at the end
    _save_png(_thumb(small[0], THUMB_WIDTH), out_dir / app_id / THUMBNAIL)
    return {
        "project_name": str(first[C.PROJECT_NAME]),
        "screens": len(result),
        "domain_category": str(first[C.DOMAIN_CATEGORY]),
        "domain_confidence": float(first[C.DOMAIN_CONFIDENCE]),
        "copy_tagline": str(first[C.COPY_TAGLINE]),
        "template": str(first[C.LAYOUT_TEMPLATE]),
        "folder": app_id,
        "contact_sheet": f"{app_id}/{CONTACT_SHEET}",
        "hero": table[C.RENDER_PATH].iloc[0],
    }


USER_COPY_COLUMNS = ("about", "copy")  # the user's own words, handed to the copy stage


def _user_copy_options(job: dict[str, Any]) -> dict[str, Any]:
    """``about=`` and ``copy=`` for the pipeline, for the apps whose manifest row has them."""
    options: dict[str, Any] = {}
    if job.get("about"):
        options["about"] = job["about"]
    if job.get("copy"):
        path = Path(job["copy"])
        if not path.is_file():
            raise InputFileError(
                f"copy file {path}: no such file. The manifest's 'copy' column names a CSV "
                "(screen, headline, subtitle), relative to the manifest's folder."
            )
        options["copy"] = path
    return options


def _unsupported_user_copy(apps: pd.DataFrame) -> list[str]:
    """The manifest's about/copy columns in use that this shotsmith's pipeline cannot take."""
    import inspect

    from .pipeline import Pipeline

    accepted = inspect.signature(Pipeline.default).parameters
    return [
        c
        for c in USER_COPY_COLUMNS
        if c in apps.columns and apps[c].astype(bool).any() and c not in accepted
    ]


def _thumb(image, width: int):
    from PIL import Image

    return image.convert("RGB").resize(
        (width, round(width * image.height / image.width)), Image.Resampling.LANCZOS
    )


def _reduced(path: Path, width: int):
    """A PNG opened and box-reduced to about ``width`` (cheap), for thumbnails."""
    from PIL import Image

    with Image.open(path) as im:
        im.load()
        factor = max(1, im.width // width)
        return im.reduce(factor) if factor > 1 else im.copy()


def _save_png(image, path: Path) -> None:
    from .png import write_png

    write_png(image, path)  # atomic, and safe against a second writer of the same file


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


# --- the fan-out ---------------------------------------------------------------------------------


class _Fanout:
    """Where the apps run: an executor (or none: this process), its worker slots, whether we
    own it (and close it), and, for our own process pool, how to replace it when a worker
    process dies (a crash or the OOM killer breaks a ProcessPoolExecutor for good)."""

    def __init__(self, workers: int | None, scheduler: Any, executor: cf.Executor | None):
        self.owned: Any = None
        self.workers = workers
        self.generation = 0
        if executor is not None:
            self.executor: cf.Executor | None = executor
            self.slots = max(1, workers or os.cpu_count() or 1)
        elif scheduler is not None:
            try:
                import distributed
            except ImportError as exc:
                raise ToolMissingError(
                    "a Dask scheduler needs Dask: pip install 'shotsmith[dask]'."
                ) from exc
            if isinstance(scheduler, distributed.Client):
                client = scheduler
            else:
                client = self.owned = distributed.Client(scheduler)
            self.slots = sum(client.nthreads().values()) or 1
            self.executor = client.get_executor()
        else:
            self.workers = (os.cpu_count() or 1) if workers is None else workers
            self.slots = max(1, self.workers)
            self.executor = self._new_pool() if self.workers > 0 else None

    def _new_pool(self) -> cf.ProcessPoolExecutor:
        self.owned = cf.ProcessPoolExecutor(max_workers=self.workers, mp_context=_pool_context())
        return self.owned

    @property
    def can_respawn(self) -> bool:
        return isinstance(self.owned, cf.ProcessPoolExecutor)

    def respawn(self) -> None:
        old = self.owned
        self.executor = self._new_pool()
        self.generation += 1
        old.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        if self.owned is None:
            return
        if isinstance(self.owned, cf.Executor):
            self.owned.shutdown(wait=True, cancel_futures=True)
        else:
            self.owned.close()


def _pool_context():
    """forkserver where there is one: workers fork from a clean, pre-imported server, not
    from this (perhaps threaded: a notebook kernel, a progress bar) process."""
    import multiprocessing as mp

    if "forkserver" not in mp.get_all_start_methods():
        return None
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(["shotsmith.batch", "shotsmith.pipeline"])
    return ctx


def _failed(job: dict[str, Any], reason: str) -> dict[str, Any]:
    record = _record(job, status="failed")
    record["error"] = reason
    return record


def _stream(jobs: list[dict[str, Any]], fan: _Fanout, window: int) -> Iterator[dict[str, Any]]:
    """Run ``design_app`` over the jobs with at most ``window`` in flight; yield records.

    When a worker process dies, the pool is replaced and the apps that were in flight
    are run again one at a time, so only the app that kills a worker is reported."""
    if fan.executor is None:  # in this process: leave the thread settings alone
        for job in jobs:
            yield design_app({**job, "single_thread": False})
        return
    queue, alone = deque(jobs), deque()
    pending: dict[cf.Future, tuple[dict[str, Any], int, bool]] = {}

    def broken(job: dict[str, Any], generation: int, solo: bool, exc: BaseException):
        if not fan.can_respawn:
            return _failed(job, f"worker failed: {_reason(exc)}")
        if generation == fan.generation:
            fan.respawn()
        if solo:
            return _failed(
                job,
                "the worker process died while designing this app "
                f"({_reason(exc)}); it ran alone, so it was this app",
            )
        alone.append(job)
        return None

    try:
        while queue or alone or pending:
            while True:
                if alone:  # suspects of a dead worker: one at a time, nothing beside them
                    if pending:
                        break
                    job, solo = alone.popleft(), True
                elif queue and len(pending) < window:
                    job, solo = queue.popleft(), False
                else:
                    break
                try:
                    pending[fan.executor.submit(design_app, job)] = (job, fan.generation, solo)
                except cf.BrokenExecutor as exc:
                    record = broken(job, fan.generation, solo, exc)
                    if record is not None:
                        yield record
                if solo:
                    break
            if not pending:
                continue
            done, _ = cf.wait(list(pending), return_when=cf.FIRST_COMPLETED)
            for fut in done:
                job, generation, solo = pending.pop(fut)
                try:
                    yield fut.result()
                except cf.BrokenExecutor as exc:
                    record = broken(job, generation, solo, exc)
                    if record is not None:
                        yield record
                except Exception as exc:  # the task could not run (e.g. a Dask KilledWorker)
                    yield _failed(job, f"worker failed: {_reason(exc)}")
    finally:
        for fut in pending:
            fut.cancel()


IF_CHANGED = ("redesign", "refuse")


def run_batch(
    manifest: str | Path | pd.DataFrame,
    out_dir: str | Path,
    *,
    workers: int | None = None,
    scheduler: Any = None,
    executor: cf.Executor | None = None,
    template: str | Path | dict = "default",
    size: str | None = None,
    ocr: bool | str = "auto",
    copy_backend: str = "grounded",
    window: int | None = None,
    progress: bool = True,
    if_changed: str = "redesign",
) -> pd.DataFrame:
    """Design every app of a manifest into ``out_dir``; returns the summary (one row per app).

    ``workers``: processes of a local pool (default: the CPU count; 0 runs in this
    process). ``scheduler``: a Dask scheduler address (``tcp://host:8786``) or a
    ``distributed.Client``, instead of the local pool (``out_dir`` must then be on a
    file system the workers share). ``executor``: any other ``concurrent.futures``
    executor. ``window``: tasks in flight (default twice the worker slots).

    An app whose ``<out>/<app_id>/_done.json`` holds this run's key (see
    :func:`design_key`: inputs, template and its content, size, options, version) is
    skipped. One designed with another key is designed again and its ``note`` says what
    changed; with ``if_changed="refuse"`` nothing is designed and a
    :class:`ShotsmithError` lists those apps and their changes. A failing app is
    reported (``status == "failed"``, ``error``) and the rest go on. Writes
    ``summary.csv`` and ``contact-sheet.png`` (one hero per app) to ``out_dir``."""
    if if_changed not in IF_CHANGED:
        raise InvalidOptionError(f"if_changed={if_changed!r}: use one of {', '.join(IF_CHANGED)}.")
    apps = read_manifest(manifest)
    unsupported = _unsupported_user_copy(apps)
    if unsupported:
        raise InvalidOptionError(
            f"the manifest's {' and '.join(repr(c) for c in unsupported)} column needs a "
            "shotsmith whose design() takes the user's own copy (about=, copy=); this one "
            "does not. Remove the column or upgrade shotsmith."
        )
    out = Path(out_dir).resolve()
    out.mkdir(parents=True, exist_ok=True)
    template_ref = _template_ref(template)
    jobs = []
    for app in apps.to_dict("records"):
        job = {
            **app,
            "out_dir": str(out),
            "template": template_ref,
            "size": size,
            "ocr": ocr,
            "copy_backend": copy_backend,
        }
        job["key"] = design_key(job)
        jobs.append(job)
    records: dict[str, dict[str, Any]] = {}
    todo, stale = [], []
    for job in jobs:
        done = read_marker(out / job["app_id"] / DONE_MARKER)
        if done is None:
            todo.append(job)
        elif done.get("key") == job["key"]:
            records[job["app_id"]] = _skipped(job, done)
        else:
            changes = key_changes(done.get("key"), job["key"])
            stale.append((job["app_id"], changes))
            todo.append({**job, "note": "designed again: " + "; ".join(changes)})
    if stale and if_changed == "refuse":
        listed = "\n".join(f"  {app_id}: {'; '.join(changes)}" for app_id, changes in stale[:20])
        more = f"\n  ... and {len(stale) - 20} more" if len(stale) > 20 else ""
        raise ConflictError(
            f"{len(stale)} app(s) in {out} were designed with other inputs or settings:\n"
            f"{listed}{more}\nNothing was designed. To design them again, run without "
            "--if-changed refuse (if_changed='refuse'); or choose another output folder."
        )
    bar = _bar(progress, len(jobs), initial=len(records))
    failed = 0
    if todo:
        fan = _Fanout(workers, scheduler, executor)
        try:
            for record in _stream(todo, fan, window or 2 * fan.slots):
                records[record["app_id"]] = record
                failed += record["status"] == "failed"
                if bar is not None:
                    bar.set_postfix_str(
                        f"{failed} failed" if failed else record["app_id"], refresh=False
                    )
                    bar.update(1)
        finally:
            fan.close()
            if bar is not None:
                bar.close()
    elif bar is not None:
        bar.close()
    summary = pd.DataFrame([records[j["app_id"]] for j in jobs], columns=SUMMARY_COLUMNS)
    _write_atomic(out / SUMMARY_CSV, summary.to_csv(index=False))
    write_overview_sheet(summary, out)
    return summary


def _template_ref(template: str | Path | dict) -> dict[str, Any]:
    """The template, loaded here once: the workers get the dict itself, so they need
    neither this folder's layouts/ nor the same working directory (remote clusters)."""
    from .templates import load_template

    return load_template(template)


def _bar(show: bool, total: int, initial: int):
    if not show:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, initial=initial, desc="apps", unit="app")


def status_counts(summary: pd.DataFrame) -> str:
    """ "3 apps: 1 designed, 2 already done, 0 failed" for a batch summary."""
    counts = summary["status"].value_counts()
    return (
        f"{len(summary)} app{'s' if len(summary) != 1 else ''}: "
        f"{counts.get('designed', 0)} designed, {counts.get('skipped', 0)} already done, "
        f"{counts.get('failed', 0)} failed"
    )


def sheet_title(summary: pd.DataFrame) -> str:
    return status_counts(summary)


def write_overview_sheet(summary: pd.DataFrame, out_dir: str | Path) -> list[Path]:
    """One contact sheet of the whole batch: the first screenshot of every designed app
    (10 a row, 100 a page: ``contact-sheet.png``, ``contact-sheet-2.png``, ...)."""
    from PIL import Image, ImageDraw

    from .sheets import contact_sheet
    from .text import find_font, load_font

    out = Path(out_dir)
    ok = summary[summary["status"].isin(["designed", "skipped"]) & (summary["hero"] != "")]
    written: list[Path] = []
    font = load_font(find_font("Inter", 500), 13)
    for page, start in enumerate(range(0, max(len(ok), 1), SHEET_APPS_PER_PAGE), start=1):
        part = ok.iloc[start : start + SHEET_APPS_PER_PAGE]
        if part.empty:
            break
        thumbs = []
        for _, rec in part.iterrows():
            tile = out / str(rec["folder"]) / THUMBNAIL
            if tile.is_file():
                with Image.open(tile) as im:
                    thumb = im.convert("RGB")
            else:
                thumb = _thumb(_reduced(out / rec["hero"], THUMB_WIDTH), THUMB_WIDTH)
            labelled = Image.new("RGB", (thumb.width, thumb.height + 22), "#f2f2f5")
            labelled.paste(thumb, (0, 0))
            ImageDraw.Draw(labelled).text(
                (2, thumb.height + 5), str(rec["app_id"])[:20], font=font, fill="#1c1c1e"
            )
            thumbs.append(labelled)
        title = sheet_title(summary) + (f" (page {page})" if len(ok) > SHEET_APPS_PER_PAGE else "")
        sheet = contact_sheet(
            thumbs,
            thumb_width=THUMB_WIDTH,
            columns=min(10, len(thumbs)),
            gap=14,
            title=title,
            title_size=20,
        )
        path = out / (CONTACT_SHEET if page == 1 else f"contact-sheet-{page}.png")
        _save_png(sheet, path)
        written.append(path)
    return written
