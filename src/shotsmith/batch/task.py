"""One app of a batch: read its inputs, design its set into its folder, write the marker.

This is the function the executors run; only its small record comes back."""

from __future__ import annotations

import json
import os
import shutil
import time
import traceback
from pathlib import Path
from typing import Any

import pandas as pd

from .. import columns as C
from ..errors import (
    CaptureError,
    InputFileError,
    ShotsmithError,
    ToolMissingError,
)
from ..progress import advance, listening
from ..settings import one_thread_per_worker
from .keys import design_key, read_marker
from .summary import CONTACT_SHEET, DONE_MARKER, THUMB_WIDTH, THUMBNAIL, _reduced, _save_png, _thumb


def design_app(job: dict[str, Any]) -> dict[str, Any]:
    """Design one app of a batch into ``<out_dir>/<app_id>/``; return its summary record.

    Skipped when the app's marker holds this job's key (see :func:`design_key`); otherwise
    the folder is cleared and the app designed again. Never raises for a bad app: the
    record says ``failed`` and why. Safe to run in any worker process (it reads its inputs
    from disk and writes its outputs there)."""
    if not job.get("single_thread", True):
        return _design_app(job)
    with one_thread_per_worker():  # in a pool's worker: the workers share the cores
        return _design_app(job)


def _design_app(job: dict[str, Any]) -> dict[str, Any]:
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
        with listening(_stop_when_released()):
            advance(0)
            frame = _read_inputs(job)
            record.update(_design_into(frame, job, out_dir))
        record["status"] = "designed"
        kept = {k: v for k, v in record.items() if k not in ("seconds", "note")}
        _write_atomic(marker, json.dumps({**kept, "key": key}, indent=2, default=str) + "\n")
    except Stopped as stop:  # nobody wants this app any more: leave no half of it
        shutil.rmtree(folder, ignore_errors=True)
        record["error"] = str(stop)
    except Exception as exc:  # one bad app must not stop the batch: report it
        record["status"] = "failed"
        record["error"] = _reason(exc)
    record["seconds"] = round(time.perf_counter() - start, 3)
    return record


class Stopped(Exception):
    """The batch that asked for this app stopped or went away while it was being designed."""


def _stop_when_released():
    """On a Dask worker, a listener for :func:`progress.advance` that raises
    :class:`Stopped` once the scheduler has released this task: the batch cancelled it
    (stopped by a signal) or its client is gone (killed). A thread cannot be killed, so
    the task stops itself, at the next screenshot. Elsewhere (a process pool, which the
    batch terminates itself; this process) a listener that does nothing."""
    import sys

    if "distributed" not in sys.modules:  # not a Dask worker: it would have imported it
        return _carry_on
    from distributed import get_worker
    from distributed.utils import thread_state

    try:
        worker = get_worker()
    except ValueError:
        return _carry_on
    key = getattr(thread_state, "key", None)

    def check(screenshots: int) -> None:
        task = worker.state.tasks.get(key)
        if task is None or task.state in ("cancelled", "released", "forgotten"):
            raise Stopped("stopped: the batch was interrupted or went away")

    return check


def _carry_on(screenshots: int) -> None:
    return None


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
    from ..io import read_screenshots

    name = job.get("project_name") or None
    bundle = job.get("bundle_id") or None
    if job["kind"] == "url":
        try:
            from ..stages.capture import capture
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
    from ..pipeline import Pipeline, write_report
    from ..sheets import contact_sheet

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
    count = int(job.get("variants") or 1)
    if count > 1:
        result = _design_variants(pipe, frame, count, out_dir)
    else:
        result = pipe.run(frame, keep_intermediates=False, progress=False).output
        write_report(_relative(result, out_dir), out_dir)
    result = result.sort_values([*_variant_order(result), C.POSITION], kind="stable")
    paths = [Path(p) for p in result[C.RENDER_PATH]]
    table = _relative(result, out_dir)
    first = result.iloc[0]
    app_id = str(first[C.APP_ID])
    small = [_reduced(p, 240) for p in paths]
    sheet = contact_sheet(  # a variant a row: the first slides in one column
        small,
        thumb_width=240,
        columns=len(small) // count,
        title=f"{first[C.PROJECT_NAME]} - {first[C.COPY_TAGLINE]}"
        + (f" ({count} variants)" if count > 1 else ""),
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


def _relative(result: pd.DataFrame, out_dir: Path) -> pd.DataFrame:
    """The design table as a batch keeps it: paths relative to the output, no timings."""
    table = result.drop(columns=[C.RENDER_MS])
    table[C.RENDER_PATH] = [Path(p).relative_to(out_dir).as_posix() for p in result[C.RENDER_PATH]]
    return table


def _variant_order(result: pd.DataFrame) -> list[str]:
    return [C.VARIANT] if C.VARIANT in result.columns else []


def _design_variants(pipe: Any, frame: pd.DataFrame, count: int, out_dir: Path) -> pd.DataFrame:
    """The app read and captioned once, then laid out and rendered ``count`` times, each
    variant into ``<out>/<app_id>/variant-K/`` with its own design.json."""
    from ..pipeline import Pipeline, write_report
    from ..variants import design_variants

    head, (plan, draw) = Pipeline(pipe.steps[:-2]), pipe.steps[-2:]
    captioned = head.run(frame, keep_intermediates=False, progress=False).output

    def run(steps: list[Any], rows: pd.DataFrame) -> pd.DataFrame:
        return Pipeline(steps).run(rows, keep_intermediates=False, progress=False).output

    def write(drawn: pd.DataFrame, where: Path, *, folder_name: str) -> None:
        write_report(_relative(drawn, out_dir), where, folder_name=folder_name)

    return design_variants(captioned, plan, draw, count, folder=out_dir, run=run, write=write)


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

    from ..pipeline import Pipeline

    accepted = inspect.signature(Pipeline.default).parameters
    return [
        c
        for c in USER_COPY_COLUMNS
        if c in apps.columns and apps[c].astype(bool).any() and c not in accepted
    ]


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
