"""Design many apps from a manifest, on a local process pool or a Dask cluster.

A manifest is a CSV with one app per row::

    source,project_name,bundle_id
    sample_inputs/pocket-budget,Pocket Budget,com.example.pocketbudget
    https://example.com/app,Example,        # a web app: captured first (needs [capture])

``source`` is a folder of raw screenshots (relative paths are relative to the
manifest's folder) or an http(s) URL; ``project_name``, ``bundle_id``, ``app_id``,
``locale``, ``about`` (the user's own description of the app), ``copy`` (a CSV of
``screen, headline, subtitle`` to use instead of generated copy, relative to the
manifest's folder) and ``variants`` (sets for a store experiment, 1 to 4) are optional.
Each app is one task: the task reads its own inputs from disk, designs the set, writes
``<out>/<app_id>/`` (PNGs, design.json/.csv, contact-sheet.png) and finally,
atomically, a ``_done.json`` marker; only that small record comes back. At most
``window`` tasks are in flight, so memory stays flat however long the manifest is.

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
from pathlib import Path
from typing import Any

import pandas as pd

from ..errors import ConflictError, InvalidOptionError, RemoteError
from .fanout import CONNECT_TIMEOUT, SchedulerLost, _Fanout, _stream
from .keys import design_key, key_changes, read_marker
from .manifest import MANIFEST_COLUMNS, read_manifest, write_manifest
from .summary import (
    CONTACT_SHEET,
    DONE_MARKER,
    SUMMARY_COLUMNS,
    SUMMARY_CSV,
    sheet_title,
    status_counts,
    write_overview_sheet,
)
from .task import _skipped, _unsupported_user_copy, _write_atomic, design_app

__all__ = [
    "BatchInterrupted",
    "CONTACT_SHEET",
    "DONE_MARKER",
    "IF_CHANGED",
    "MANIFEST_COLUMNS",
    "SUMMARY_COLUMNS",
    "SUMMARY_CSV",
    "design_app",
    "design_key",
    "key_changes",
    "read_manifest",
    "read_marker",
    "run_batch",
    "sheet_title",
    "status_counts",
    "write_manifest",
    "write_overview_sheet",
]

IF_CHANGED = ("redesign", "refuse")


def run_batch(
    manifest: str | Path | pd.DataFrame,
    out_dir: str | Path,
    *,
    workers: int | None = None,
    scheduler: Any = None,
    connect_timeout: float = CONNECT_TIMEOUT,
    executor: cf.Executor | None = None,
    template: str | Path | dict = "default",
    size: str | None = None,
    ocr: bool | str = "auto",
    copy_backend: str = "grounded",
    window: int | None = None,
    progress: bool = True,
    if_changed: str = "redesign",
    variants: int = 1,
) -> pd.DataFrame:
    """Design every app of a manifest into ``out_dir``; returns the summary (one row per app).

    ``workers``: processes of a local pool (default: the CPU count; 0 runs in this
    process). ``scheduler``: a Dask scheduler address (``tcp://host:8786``) or a
    ``distributed.Client``, instead of the local pool (``out_dir`` must then be on a
    file system the workers share); ``connect_timeout``: seconds to wait for it to answer.
    An unreachable scheduler, a malformed address or one that goes away mid-run is a
    :class:`ShotsmithError` of one sentence. ``executor``: any other ``concurrent.futures``
    executor. ``window``: tasks in flight (default twice the worker slots).

    An app whose ``<out>/<app_id>/_done.json`` holds this run's key (see
    :func:`design_key`: inputs, template and its content, size, options, version) is
    skipped. One designed with another key is designed again and its ``note`` says what
    changed; with ``if_changed="refuse"`` nothing is designed and a
    :class:`ShotsmithError` lists those apps and their changes. A failing app is
    reported (``status == "failed"``, ``error``) and the rest go on. Writes
    ``summary.csv`` and ``contact-sheet.png`` (one hero per app) to ``out_dir``.

    ``variants`` (1 to 4) designs that many sets of each app for a store experiment
    (:mod:`shotsmith.variants`), each in ``<app_id>/variant-K/``; a manifest's
    ``variants`` column sets it per app. The app's contact sheet then shows its variants
    one under another, the first slides in one column."""
    if if_changed not in IF_CHANGED:
        raise InvalidOptionError(f"if_changed={if_changed!r}: use one of {', '.join(IF_CHANGED)}.")
    from ..variants import check_variants

    variants = check_variants(variants)
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
    options = {"template": template_ref, "size": size, "ocr": ocr, "copy_backend": copy_backend}
    jobs = []
    for app in apps.to_dict("records"):
        job = {**app, "out_dir": str(out), **options}
        job["variants"] = int(app.get("variants") or variants)
        job["key"] = design_key(job)
        jobs.append(job)
    records, todo, stale = _sort_jobs(jobs, out)
    if stale and if_changed == "refuse":
        _refuse_stale(stale, out)
    fan = _Fanout(workers, scheduler, executor, connect_timeout) if todo else None
    bar = _bar(progress, len(jobs), initial=len(records))  # once connected: no bar for an error
    if fan is not None:
        _design_all(fan, todo, window, out, jobs, records, bar)
    elif bar is not None:
        bar.close()
    summary = pd.DataFrame([records[j["app_id"]] for j in jobs], columns=SUMMARY_COLUMNS)
    _write_atomic(out / SUMMARY_CSV, summary.to_csv(index=False))
    write_overview_sheet(summary, out)
    return summary


def _design_all(
    fan: _Fanout,
    todo: list[dict[str, Any]],
    window: int | None,
    out: Path,
    jobs: list[dict[str, Any]],
    records: dict[str, dict[str, Any]],
    bar: Any,
) -> None:
    """Design the ``todo`` apps on the fan-out, into ``records`` as they finish."""
    failed = 0
    try:
        for record in _stream(design_app, todo, fan, window or 2 * fan.slots):
            if fan.client is not None and record["status"] == "designed":
                _check_shared(out, record["app_id"], fan.scheduler)
            records[record["app_id"]] = record
            failed += record["status"] == "failed"
            if bar is not None:
                bar.set_postfix_str(
                    f"{failed} failed" if failed else record["app_id"], refresh=False
                )
                bar.update(1)
    except KeyboardInterrupt:
        fan.abort()
        _clear_unfinished(out, [j for j in todo if j["app_id"] not in records])
        # on disk, not as reported: a worker may have finished an app as it was stopped
        finished = sum((out / j["app_id"] / DONE_MARKER).exists() for j in jobs)
        raise BatchInterrupted(finished, len(jobs)) from None
    except SchedulerLost as lost:
        raise RemoteError(
            f"the Dask scheduler at {lost} went away mid-run, {len(records)} of "
            f"{len(jobs)} apps done; start it (and its workers) again and run the same "
            "batch: the finished apps are skipped."
        ) from None
    finally:
        fan.close()
        if bar is not None:
            bar.close()


def _sort_jobs(
    jobs: list[dict[str, Any]], out: Path
) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]], list[tuple[str, list[str]]]]:
    """The records of apps already done with this key, the jobs to run, and the apps
    designed with another key (with what changed)."""
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
    return records, todo, stale


def _refuse_stale(stale: list[tuple[str, list[str]]], out: Path) -> None:
    listed = "\n".join(f"  {app_id}: {'; '.join(changes)}" for app_id, changes in stale[:20])
    more = f"\n  ... and {len(stale) - 20} more" if len(stale) > 20 else ""
    raise ConflictError(
        f"{len(stale)} app(s) in {out} were designed with other inputs or settings:\n"
        f"{listed}{more}\nNothing was designed. To design them again, run without "
        "--if-changed refuse (if_changed='refuse'); or choose another output folder."
    )


class BatchInterrupted(KeyboardInterrupt):
    """A batch stopped by Ctrl-C or SIGTERM: ``done`` of ``total`` apps are finished (their
    folders complete), the others have no folder; running it again designs the rest."""

    def __init__(self, done: int, total: int):
        super().__init__(
            f"interrupted: {done} of {total} apps done; run the same command again to resume"
        )
        self.done, self.total = done, total


def _check_shared(out: Path, app_id: str, scheduler: str | None) -> None:
    """A Dask worker's finished app is in ``out`` here too, or the folder is not shared."""
    if not (out / app_id / DONE_MARKER).exists():
        raise RemoteError(
            f"the Dask workers of {scheduler} wrote {app_id} into {out} on their own file "
            "system, which this machine does not see; give --out (out_dir=) a folder that "
            "every worker and this machine share."
        )


def _clear_unfinished(out: Path, jobs: list[dict[str, Any]]) -> None:
    """The folders of apps stopped half-way (no marker): removed, so none is half-written."""
    import shutil

    for job in jobs:
        folder = out / job["app_id"]
        if folder.is_dir() and not (folder / DONE_MARKER).exists():
            shutil.rmtree(folder, ignore_errors=True)


def _template_ref(template: str | Path | dict) -> dict[str, Any]:
    """The template, loaded here once: the workers get the dict itself, so they need
    neither this folder's layouts/ nor the same working directory (remote clusters)."""
    from ..stages.layout.templates import load_template

    return load_template(template)


def _bar(show: bool, total: int, initial: int):
    if not show:
        return None
    from ..progress import bar

    return bar(total=total, initial=initial, desc="apps", unit="app")
