"""Screenshot collections (docs/api.md, "Screenshot collections"): capture, then design.

A collection runs in two phases, each a task in a worker process of its own pool
(so a capture never holds up design jobs, and Chromium never runs on the event loop):

1. ``capturing``: :func:`run_capture` calls the capture stage on the project's
   source (a web app URL explored in Chromium, or a folder of simulator screenshots)
   and writes the raw PNGs under ``collections/<id>/raw/``. Its records are stored
   with the move to ``processing``, so an interruption after this point does not
   capture again.
2. ``processing``: :func:`run_collection_design` runs :func:`shotsmith.design` per
   captured device, at that device's store size, into ``collections/<id>/out/``.

Then ``completed``, or ``failed`` with ``error`` (a text message, as for design jobs).
A new collection is ``capturing`` from the start (the API has no queued state); one
waiting for a worker has no claim. Restart rules are the design jobs' (see
:mod:`.jobs`): a collection a killed server held is taken up again in the phase it was
in; after ``max_attempts`` interruptions it fails.
"""

from __future__ import annotations

import logging
import os
import shutil
import traceback
from concurrent.futures import CancelledError, Future
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..io import slugify
from .jobs import NO_OUTPUT, PoolRunner, scrub_paths, storage_cause, storage_message
from .store import Collection, Project, Store

log = logging.getLogger("shotsmith.server")

CAPTURE_GRACE = 60.0  # seconds a capture task may run past capture_timeout before it is ended
NO_CAPTURE = "capture produced no screenshots"


# --- what runs in a worker process -------------------------------------------------------


def run_capture(collection_dir: str, params: dict[str, Any], timeout_s: float) -> tuple[str, Any]:
    """Phase 1: ``("ok", [raw records])`` or ``("error", message)``. Records carry absolute
    paths; the dispatcher makes them relative and names them."""
    from .. import columns as C
    from ..errors import ShotsmithError
    from ..stages.capture import capture_report

    raw = Path(collection_dir) / "raw"
    try:
        if raw.exists():  # a re-run after an interruption starts clean
            shutil.rmtree(raw)
        report = capture_report(
            params["source"],
            platforms=params["platforms"],
            device_sizes=params["device_sizes"],
            locale=params["locale"],
            max_screens=int(params.get("max_screens") or 6),
            timeout_s=timeout_s,
            project_name=params.get("project_name") or None,
            bundle_id=params.get("bundle_id") or None,
            out_dir=raw,
        )
        devices = {d.id: d for d in report.devices}
        records = []
        for _, rows in C.set_groups(report.frame):
            for step, (_, row) in enumerate(rows.iterrows(), start=1):
                device = devices.get(str(row[C.DEVICE]))
                if device is None:  # pragma: no cover - capture reports every device it used
                    return "error", f"capture used an unknown device {row[C.DEVICE]!r}"
                records.append(
                    {
                        "device": device.id,
                        "platform": device.platform,
                        "device_size": device.size,
                        "store_size": device.store_size,
                        "canvas": list(device.canvas),
                        "step": step,
                        "locale": str(row[C.LOCALE]),
                        "screen": str(row[C.SCREEN]),
                        "path": str(row[C.IMAGE]),
                    }
                )
        if not records:
            return "error", NO_CAPTURE
        return "ok", records
    except ShotsmithError as exc:
        return "error", _scrub(str(exc), collection_dir, params)
    except MemoryError:
        return "error", "the server ran out of memory while capturing this collection"
    except Exception as exc:  # a bug or a browser crash: readable error, traceback in the log
        traceback.print_exc()
        cause = storage_cause(exc)
        if cause is not None:  # writing the captures: disk full, not writable
            return "error", storage_message(cause, "this collection's captures")
        return "error", _scrub(
            f"internal error while capturing ({type(exc).__name__}: {exc})", collection_dir, params
        )


def run_collection_design(
    collection_dir: str, raws: list[dict[str, Any]], params: dict[str, Any], options: dict[str, Any]
) -> tuple[str, Any]:
    """Phase 2: design each device's raw set at its store size; ``("ok", [styled records])``
    in the raws' order, or ``("error", message)``."""
    from .. import columns as C
    from ..errors import ShotsmithError
    from ..pipeline import design
    from ..stages.read import read_screenshots

    out = Path(collection_dir) / "out"
    try:
        if out.exists():
            shutil.rmtree(out)
        groups: dict[str, list[dict[str, Any]]] = {}
        for record in raws:
            groups.setdefault(record["device"], []).append(record)
        styled = []
        for device, records in groups.items():
            records = sorted(records, key=lambda r: r["step"])
            size = records[0]["store_size"]  # the class captured; sizes.output_size_for checks it
            # the capture's folder for this device: PNGs + manifest.json (names, DOM text)
            frame = read_screenshots(Path(records[0]["path"]).parent)
            if len(frame) != len(records):
                return "error", (
                    f"the raw screenshots of {device} changed on disk "
                    f"({len(frame)} files for {len(records)} captures)"
                )
            result = design(frame, size=size, out_dir=out / device, **options)
            if C.POSITION in result.columns:
                result = result.sort_values(C.POSITION, kind="stable")
            rows = [
                row
                for _, row in result.iterrows()
                if row.get(C.RENDER_PATH) and Path(row[C.RENDER_PATH]).is_file()
            ]
            if len(rows) != len(records):
                return "error", (
                    f"rendering produced {len(rows)} of {len(records)} screenshots for {device}"
                    if rows
                    else NO_OUTPUT
                )
            for record, row in zip(records, rows):
                styled.append(
                    {
                        "device": device,
                        "platform": record["platform"],
                        "device_size": record["device_size"],
                        "step": record["step"],
                        "locale": record["locale"],
                        "screen": record["screen"],
                        "headline": str(row.get(C.COPY_HEADLINE) or ""),
                        "subtitle": str(row.get(C.COPY_SUBTITLE) or ""),
                        "path": str(row[C.RENDER_PATH]),
                    }
                )
        return "ok", styled
    except ShotsmithError as exc:
        return "error", _scrub(str(exc), collection_dir, params)
    except MemoryError:
        return "error", "the server ran out of memory while designing this collection"
    except OSError as exc:  # writing the outputs: disk full, data directory not writable
        traceback.print_exc()
        return "error", storage_message(exc, "this collection's screenshots")
    except Exception as exc:
        traceback.print_exc()
        cause = storage_cause(exc)
        if cause is not None:
            return "error", storage_message(cause, "this collection's screenshots")
        return "error", _scrub(
            f"internal error while designing ({type(exc).__name__}: {exc})", collection_dir, params
        )


def _scrub(message: str, collection_dir: str, params: dict[str, Any]) -> str:
    """Errors name files relative to the collection or the project's folder, never server
    paths."""
    message = message.replace(str(Path(collection_dir)) + os.sep, "")
    if params.get("kind") == "dir":
        source = str(Path(params["source"]))
        message = message.replace(source + os.sep, "").replace(source, "the project's folder")
    return scrub_paths(message)


# --- what the API shows --------------------------------------------------------------------


def file_name(record: dict[str, Any], raw: bool) -> str:
    """The URL file name of a screenshot: unique within its collection."""
    stem = f"{record['device']}-{record['step']:02d}-{slugify(record['screen'])}"
    return f"raw-{stem}.png" if raw else f"{stem}.png"


def screenshot_url(base_url: str, collection: Collection, name: str) -> str:
    return f"{base_url}/v1/files/{collection.file_token}/{quote(name)}"


def screenshot_count(collection: Collection) -> int:
    """Screenshots captured so far; once completed, the styled ones (the same number)."""
    return len(collection.outputs) if collection.status == "completed" else len(collection.raws)


def summary_view(collection: Collection) -> dict[str, Any]:
    """Spec 2.1."""
    return {
        "collectionId": collection.collection_id,
        "status": collection.status,
        "createdAt": collection.created_at,
        "screenshotCount": screenshot_count(collection),
        "platforms": collection.params.get("platforms", []),
        "locale": collection.params.get("locale", ""),
    }


def detail_view(collection: Collection, base_url: str) -> dict[str, Any]:
    """Spec 2.2, shape A: ``{"collection": {...}}``; ``error`` (text) when failed."""
    devices = list(dict.fromkeys(r["device"] for r in collection.raws)) or list(
        collection.params.get("devices", [])
    )
    body: dict[str, Any] = {
        "id": collection.collection_id,
        "name": collection.name,
        "status": collection.status,
        "devices": devices,
        "totalScreenshots": screenshot_count(collection),
        "createdAt": collection.created_at,
    }
    if collection.status == "completed":
        body["completedAt"] = collection.finished_at

    def shot(r: dict[str, Any], *caption: str) -> dict[str, Any]:
        view = {
            "id": r["id"],
            "device": r["device"],
            "url": screenshot_url(base_url, collection, r["name"]),
            "step": r["step"],
            "locale": r["locale"],
        }
        return {**view, **{k: r[k] for k in caption}}

    body["screenshots"] = [shot(r) for r in collection.raws]
    body["generatedScreenshots"] = [
        shot(r, "headline", "subtitle")
        for r in (collection.outputs if collection.status == "completed" else [])
    ]
    if collection.status == "failed":
        body["error"] = collection.error or ""
    return {"collection": body}


def collection_file(collection: Collection, name: str) -> str | None:
    """The data-dir-relative path behind a file URL of ``collection``, if it lists one."""
    listed = collection.raws + (collection.outputs if collection.status == "completed" else [])
    for record in listed:
        if record["name"] == name:
            return record["path"]
    return None


def collection_params(
    project: Project, platforms: list[str], device_sizes: list[str] | None, locale: str
) -> dict[str, Any]:
    """What the worker needs, fixed at creation (a snapshot of the project)."""
    from ..stages.capture import CAPTURE_DEVICES

    devices = []
    for pair in device_sizes or []:
        platform, size = pair.split(":", 1)
        devices.append(CAPTURE_DEVICES[platform][size].id)
    return {
        "kind": "url" if project.source_url else "dir",
        "source": project.source,
        "project_name": project.name,
        "bundle_id": project.bundle_id,
        "max_screens": project.max_screens,
        "platforms": platforms,
        "device_sizes": device_sizes,
        "locale": locale,
        "devices": list(dict.fromkeys(devices)),
    }


def collection_name(project: Project, platforms: list[str], locale: str) -> str:
    return f"{project.name} ({', '.join(platforms)}, {locale})"


# --- the dispatcher -------------------------------------------------------------------------


class CollectionRunner(PoolRunner):
    """Collections: the ``collections`` table is the queue; two runs (phases) per claim.

    Its pool starts with the first collection (a design-only server never starts it).
    """

    thread_name = "shotsmith-collections"
    kind = "collection"
    warm_up = False  # the capture phase needs no design pipeline; phase 2 imports it
    eager = False

    def __init__(
        self,
        store: Store,
        *,
        workers: int = 1,
        design_options: dict[str, Any] | None = None,
        capture_timeout: float = 60.0,
        design_timeout: float = 300.0,
        max_attempts: int = 3,
        grace: float = 5.0,
    ):
        super().__init__(workers=workers, max_attempts=max_attempts, grace=grace)
        self.store = store
        self.design_options = dict(design_options or {})
        self.capture_timeout = capture_timeout
        self.design_timeout = design_timeout

    def _key(self, collection: Collection) -> str:
        return collection.collection_id

    # --- recovery ----------------------------------------------------------------------
    def _recover(self) -> None:
        requeued = self.store.requeue_abandoned_collections()
        for collection_id in requeued:
            collection = self.store.get_collection(collection_id)
            if collection is not None and collection.attempts >= self.max_attempts:
                self._fail(collection, self._interrupted_message(collection))
            else:
                log.warning(
                    "collection %s: taken up again after a restart (%s)",
                    collection_id,
                    collection.status if collection else "?",
                )

    def _records(self, value: list[dict], *, raw: bool) -> list[dict]:
        """A worker's screenshots as the collection keeps them: each with its id, its file
        name in URLs and its path relative to the data dir."""
        return [
            {
                **r,
                "id": f"{'raw-' if raw else ''}{r['device']}-{r['step']:02d}",
                "name": file_name(r, raw=raw),
                "path": self.store.relative(r["path"]),
            }
            for r in value
        ]

    def _interrupted_message(self, collection: Collection) -> str:
        return (
            f"the collection was interrupted {collection.attempts} times (server or "
            "worker process died while it was being captured or designed, possibly out "
            "of memory); not retried again. Create a new collection"
        )

    def _timeout_message(self, collection: Collection, timeout: float) -> str:
        what = "capturing" if collection.status == "capturing" else "designing"
        return f"{what} took longer than {timeout:g} s and was stopped"

    # --- claiming and recording ------------------------------------------------------------
    def _claim(self) -> bool:
        collection = self.store.claim_next_collection()
        if collection is None:
            return False
        if collection.status == "capturing":
            log.info(
                "collection %s: capturing %s (attempt %d)",
                collection.collection_id,
                collection.params.get("source"),
                collection.attempts,
            )
            self._submit(
                collection,
                run_capture,
                (
                    str(self.store.collection_dir(collection.collection_id)),
                    collection.params,
                    self.capture_timeout,
                ),
                self.capture_timeout + CAPTURE_GRACE,
            )
        else:
            self._start_design(collection)
        return True

    def _start_design(self, collection: Collection) -> None:
        raws = [{**r, "path": str(self.store.absolute(r["path"]))} for r in collection.raws]
        missing = [r for r in raws if not Path(r["path"]).is_file()]
        if not raws or missing:
            self._fail(
                collection,
                f"the raw screenshots are missing from the server's data "
                f"directory ({len(missing) or 'all'} of {len(raws)}); "
                "create a new collection",
            )
            return
        log.info("collection %s: designing %d screenshot(s)", collection.collection_id, len(raws))
        self._submit(
            collection,
            run_collection_design,
            (
                str(self.store.collection_dir(collection.collection_id)),
                raws,
                collection.params,
                self.design_options,
            ),
            self.design_timeout,
        )

    def _record(self, collection: Collection, future: Future) -> None:
        try:
            kind, value = future.result()
        except (BrokenProcessPool, CancelledError) as exc:
            self._interrupted(collection, exc)
            return
        except Exception as exc:  # pragma: no cover - the task functions return, never raise
            kind, value = "error", f"internal error ({type(exc).__name__})"
        if kind != "ok":
            self._fail(collection, str(value) or NO_OUTPUT)
        elif collection.status == "capturing":
            raws = self._records(value, raw=True)
            captured = self.store.collection_captured(collection, raws)
            if captured is not None:
                log.info(
                    "collection %s: captured %d screenshot(s)", collection.collection_id, len(raws)
                )
                if self._stopping.is_set():  # no new work while stopping: next start designs
                    self._requeue(captured, count_attempt=False)
                else:
                    self._start_design(captured)
        else:
            outputs = self._records(value, raw=False)
            done = self.store.complete_collection(collection, outputs)
            if done is not None:
                log.info(
                    "collection %s completed: %d screenshot(s)",
                    collection.collection_id,
                    len(outputs),
                )

    def _fail(self, collection: Collection, error: str) -> None:
        error = scrub_paths(error, self.store.collection_dir(collection.collection_id))
        if self.store.fail_collection(collection, error) is not None:
            log.warning("collection %s failed: %s", collection.collection_id, error)

    def _requeue(self, collection: Collection, *, count_attempt: bool) -> bool:
        return self.store.requeue_collection(collection, count_attempt=count_attempt)
