"""Design many apps from a manifest, on a local process pool or a Dask cluster.

A manifest is a CSV with one app per row::

    source,project_name,bundle_id
    sample_inputs/pocket-budget,Pocket Budget,com.example.pocketbudget
    https://example.com/app,Example,        # a web app: captured first (needs [capture])

``source`` is a folder of raw screenshots (relative paths are relative to the
manifest's folder) or an http(s) URL; ``project_name``, ``bundle_id`` and ``app_id``
are optional. Each app is one task: the task reads its own inputs from disk,
designs the set, writes ``<out>/<app_id>/`` (PNGs, design.json/.csv, contact-sheet.png)
and finally, atomically, a ``_done.json`` marker; only that small record comes
back. A re-run skips apps whose marker exists. At most ``window`` tasks are in
flight, so memory stays flat however long the manifest is. The executor is a
``ProcessPoolExecutor`` (``workers``) or a Dask cluster (``scheduler``, through
``distributed.Client(address).get_executor()``); both run the same task, so the
outputs are byte-identical.

The per-app ``design.json``/``design.csv`` written here hold paths relative to the
output folder and no timings, so a finished folder is reproducible and relocatable;
timings go to ``summary.csv``.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import json
import os
import re
import shutil
import sys
import time
import traceback
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd

from . import columns as C
from .errors import ShotsmithError
from .io import slugify

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
]


# --- manifest ------------------------------------------------------------------------------


def read_manifest(manifest: str | Path | pd.DataFrame) -> pd.DataFrame:
    """The apps of a manifest CSV (or frame), one row each, with resolved sources and
    unique ``app_id``s. Columns: source, project_name, bundle_id, app_id, kind."""
    base = Path.cwd()
    if isinstance(manifest, pd.DataFrame):
        table = manifest.copy()
    else:
        path = Path(manifest)
        if not path.is_file():
            raise ShotsmithError(
                f"{path}: no such manifest. Write a CSV with a 'source' "
                "column (folder or URL) and optional project_name, bundle_id."
            )
        base = path.resolve().parent
        try:
            table = pd.read_csv(
                path, dtype=str, keep_default_na=False, skipinitialspace=True, comment="#"
            )
        except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
            raise ShotsmithError(f"{path}: not a readable CSV manifest ({exc}).") from exc
    table.columns = [str(c).strip().lower() for c in table.columns]
    if "source" not in table.columns:
        raise ShotsmithError(
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
        if URL_RE.match(source):
            kind = "url"
            fallback = re.sub(r"^www\.", "", re.sub(URL_RE, "", source).split("/")[0])
        else:
            kind = "folder"
            folder = Path(source).expanduser()
            source = str(folder if folder.is_absolute() else (base / folder).resolve())
            fallback = _manifest_name(Path(source)) or Path(source).name
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
                "kind": kind,
            }
        )
    if not rows:
        raise ShotsmithError("manifest: no apps (every 'source' is empty).")
    return pd.DataFrame(rows)


def _manifest_name(folder: Path) -> str | None:
    for name in ("manifest.json", "shotsmith.json"):
        try:
            data = json.loads((folder / name).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict) and data.get("project_name"):
            return str(data["project_name"])
    return None


def write_manifest(apps: list[dict[str, Any]] | pd.DataFrame, path: str | Path) -> Path:
    """Write a manifest CSV (columns source, project_name, bundle_id[, app_id])."""
    table = pd.DataFrame(apps)
    if "source" not in table.columns:
        raise ShotsmithError("write_manifest: every app needs a 'source'.")
    cols = [c for c in ("source", "project_name", "bundle_id", "app_id") if c in table.columns]
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    table[cols].to_csv(path, index=False)
    return path


# --- one app (runs in a worker) ----------------------------------------------------------------


def design_app(job: dict[str, Any]) -> dict[str, Any]:
    """Design one app of a batch into ``<out_dir>/<app_id>/``; return its summary record.

    Never raises for a bad app: the record says ``failed`` and why. Safe to run in any
    worker process (it reads its inputs from disk and writes its outputs there)."""
    if job.get("single_thread", True):  # in a pool's worker: the workers share the cores
        os.environ.setdefault("SHOTSMITH_RENDER_THREADS", "1")
    start = time.perf_counter()
    out_dir = Path(job["out_dir"])
    app_id = job["app_id"]
    folder = out_dir / app_id
    record = _record(job, status="failed")
    marker = folder / DONE_MARKER
    if marker.exists():
        return _skipped(job, marker)
    try:
        if folder.exists():  # left over from an interrupted run: start clean
            shutil.rmtree(folder)
        frame = _read_inputs(job)
        record.update(_design_into(frame, job, out_dir))
        record["status"] = "designed"
        _write_atomic(
            marker,
            json.dumps({k: v for k, v in record.items() if k != "seconds"}, indent=2, default=str)
            + "\n",
        )
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
    }


def _template_name(job: dict[str, Any]) -> str:
    t = job["template"]
    return str(t.get("name", "")) if isinstance(t, dict) else str(t)


def _skipped(job: dict[str, Any], marker: Path) -> dict[str, Any]:
    try:
        record = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        record = _record(job, status="designed")
    record.update(status="skipped", seconds=0.0, error="")
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
            raise ShotsmithError(
                f"{job['source']}: web app URLs need the capture stage, which "
                f"is not available here ({exc}); install shotsmith[capture] "
                "or list a folder of screenshots instead."
            ) from exc
        raw = Path(job["out_dir"]) / ".capture" / job["app_id"]
        frame = capture(job["source"], project_name=name, bundle_id=bundle, out_dir=raw)
        if frame.empty:
            raise ShotsmithError(f"{job['source']}: capture found no screens.")
        first = frame[C.APP_ID].iloc[0]
        frame = frame[frame[C.APP_ID] == first].copy()  # one set: the first device
        frame[C.APP_ID] = job["app_id"]
        return frame
    return read_screenshots(
        job["source"], project_name=name, bundle_id=bundle, app_id=job["app_id"]
    )


def _design_into(frame: pd.DataFrame, job: dict[str, Any], out_dir: Path) -> dict[str, Any]:
    from .pipeline import Pipeline, write_report
    from .sheets import contact_sheet

    pipe = Pipeline.default(
        template=job["template"],
        size=job.get("size"),
        out_dir=out_dir,
        ocr=job.get("ocr", "auto"),
        copy_backend=job.get("copy_backend", "phrasebank"),
    )
    if job.get("single_thread", True):  # one thread per task, like the renderer
        pipe.named_steps["extract_features"].options["workers"] = 1
    result = pipe.run(frame, keep_intermediates=False).output
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
                raise ShotsmithError(
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


def run_batch(
    manifest: str | Path | pd.DataFrame,
    out_dir: str | Path,
    *,
    workers: int | None = None,
    scheduler: Any = None,
    executor: cf.Executor | None = None,
    template: str | Path = "default",
    size: str | None = None,
    ocr: bool | str = "auto",
    copy_backend: str = "phrasebank",
    window: int | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """Design every app of a manifest into ``out_dir``; returns the summary (one row per app).

    ``workers``: processes of a local pool (default: the CPU count; 0 runs in this
    process). ``scheduler``: a Dask scheduler address (``tcp://host:8786``) or a
    ``distributed.Client``, instead of the local pool (``out_dir`` must then be on a
    file system the workers share). ``executor``: any other ``concurrent.futures``
    executor. ``window``: tasks in flight (default twice the worker slots).

    Apps already finished (``<out>/<app_id>/_done.json``) are skipped; a failing app is
    reported (``status == "failed"``, ``error``) and the rest go on. Writes
    ``summary.csv`` and ``contact-sheet.png`` (one hero per app) to ``out_dir``."""
    apps = read_manifest(manifest)
    out = Path(out_dir).resolve()
    out.mkdir(parents=True, exist_ok=True)
    template_ref = _template_ref(template)
    jobs = [
        {
            **app,
            "out_dir": str(out),
            "template": template_ref,
            "size": size,
            "ocr": ocr,
            "copy_backend": copy_backend,
        }
        for app in apps.to_dict("records")
    ]
    records: dict[str, dict[str, Any]] = {}
    todo = []
    for job in jobs:
        marker = out / job["app_id"] / DONE_MARKER
        if marker.exists():
            records[job["app_id"]] = _skipped(job, marker)
        else:
            todo.append(job)
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
        title = f"{len(ok)} apps designed, {int((summary['status'] == 'failed').sum())} failed" + (
            f" (page {page})" if len(ok) > SHEET_APPS_PER_PAGE else ""
        )
        sheet = contact_sheet(
            thumbs, thumb_width=THUMB_WIDTH, columns=min(10, len(thumbs)), gap=14, title=title
        )
        path = out / (CONTACT_SHEET if page == 1 else f"contact-sheet-{page}.png")
        _save_png(sheet, path)
        written.append(path)
    return written


# --- command line ---------------------------------------------------------------------------


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "batch",
        help="design every app listed in a manifest CSV",
        description="Design many apps from a manifest CSV (columns: source = folder of "
        "screenshots or web app URL, project_name, bundle_id; app_id optional) on "
        "a local process pool or a Dask cluster. Writes OUT/<app_id>/ per app, "
        "OUT/summary.csv and OUT/contact-sheet.png; re-running skips finished apps.",
    )
    p.add_argument("manifest", type=Path, help="manifest CSV")
    p.add_argument("--out", type=Path, required=True, help="output folder")
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help="local worker processes (default: CPU count; 0 = in this process)",
    )
    p.add_argument(
        "--scheduler",
        default=None,
        help="Dask scheduler address, e.g. tcp://10.0.0.5:8786 (OUT must be on a "
        "file system the workers share)",
    )
    p.add_argument(
        "--template",
        default="default",
        help="layout template name in layouts/ or a path to a template file",
    )
    p.add_argument(
        "--size",
        default=None,
        help="one store size for every app (6.9, 6.5, 13, android-phone, WxH); default: "
        "each app's device's own (iPhone 6.9\", iPad 13\", Android Google Play sizes)",
    )
    p.add_argument("--no-ocr", action="store_true", help="do not OCR the screenshots")
    p.add_argument(
        "--window",
        type=int,
        default=None,
        help="apps in flight at once (default: twice the workers)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_batch_command)


def _batch_command(args: argparse.Namespace) -> int:
    summary = run_batch(
        args.manifest,
        args.out,
        workers=args.workers,
        scheduler=args.scheduler,
        template=args.template,
        size=args.size,
        ocr=False if args.no_ocr else "auto",
        window=args.window,
        progress=not args.quiet,
    )
    counts = summary["status"].value_counts()
    print(
        f"{len(summary)} apps: {counts.get('designed', 0)} designed, "
        f"{counts.get('skipped', 0)} already done, {counts.get('failed', 0)} failed"
    )
    for _, rec in summary[summary["status"] == "failed"].iterrows():
        print(f"  FAILED {rec['app_id']} ({rec['source']}): {rec['error']}", file=sys.stderr)
    print(
        f"summary: {Path(args.out) / SUMMARY_CSV}; contact sheet: {Path(args.out) / CONTACT_SHEET}"
    )
    return 1 if counts.get("failed", 0) else 0
