"""Writing a capture: ``NN_<screen>.png`` and a ``manifest.json`` per set, which
``read_screenshots`` and ``shotsmith design`` read back as the same frame.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ... import columns as C
from ...ids import slugify
from .screens import Skipped


def write_capture(
    frame: pd.DataFrame,
    out_dir: str | Path,
    *,
    skipped: Sequence[Skipped] = (),
    source: str = "",
    titles: dict[Any, str] | None = None,
    notes: Sequence[str] = (),
    sign_in_url: str = "",
    report: dict[str, Any] | None = None,
) -> pd.DataFrame:
    """Write each set as ``NN_<screen>.png`` + manifest.json; return the frame with paths.

    One set goes straight into ``out_dir``; several go into ``out_dir/<device>/``.
    The manifest is what ``read_screenshots`` and ``shotsmith design`` read: per screen
    its file, name, visible text, and for a captured web page its ``url``, ``title`` and
    ``elements`` (the text with roles and boxes, see ``columns.SCREEN_ELEMENTS``); per set
    what was skipped and why, and notes such as a sign-in wall; for a web app the
    ``capture_report`` (pages visited, pages rejected and why, requests blocked, why
    exploring stopped).
    """
    out = Path(out_dir)
    frame = frame.copy()
    sets = list(C.set_groups(frame))
    one_set_per_device = all(rows[C.DEVICE].nunique() == 1 for _, rows in sets) and frame[
        C.DEVICE
    ].nunique() == len(sets)
    paths: dict[Any, str] = {}
    for app_id, rows in sets:
        device = str(rows[C.DEVICE].iloc[0])
        folder = out if len(sets) == 1 else out / (device if one_set_per_device else app_id)
        folder.mkdir(parents=True, exist_ok=True)
        entries = []
        for n, (idx, row) in enumerate(rows.iterrows(), start=1):
            path, entry = _write_screen(folder, n, row, (titles or {}).get(idx, ""))
            paths[idx] = str(path)
            entries.append(entry)
        manifest: dict[str, Any] = {
            "project_name": str(rows[C.PROJECT_NAME].iloc[0]),
            "bundle_id": str(rows[C.BUNDLE_ID].iloc[0] or ""),
            "locale": str(rows[C.LOCALE].iloc[0]),
            "device": device,
            "screens": entries,
        }
        if source:
            manifest["source"] = source
        if sign_in_url:
            manifest["sign_in"] = sign_in_url
        if notes:
            manifest["notes"] = list(notes)
        mine = [s for s in skipped if not s.device or s.device == device]
        if mine:
            manifest["skipped"] = [{"url": s.url, "reason": s.reason, "kind": s.kind} for s in mine]
        if report:
            manifest["capture_report"] = report
        (folder / "manifest.json").write_text(_manifest_json(manifest), encoding="utf-8")
    # a column of paths, as read_screenshots builds it (so both give the same frame)
    frame[C.IMAGE] = pd.Series([paths[i] for i in frame.index], index=frame.index)
    return frame


def _write_screen(folder: Path, n: int, row: pd.Series, title: str) -> tuple[Path, dict[str, Any]]:
    """Write one screenshot as ``NN_<screen>.png``; its manifest entry."""
    slug = slugify(str(row[C.SCREEN])) or f"screen-{n}"
    path = folder / f"{n:02d}_{slug}.png"
    ref = row[C.IMAGE]
    data = bytes(ref) if isinstance(ref, (bytes, bytearray, memoryview)) else Path(ref).read_bytes()
    tmp = path.with_suffix(".png.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
    entry: dict[str, Any] = {
        "file": path.name,
        "screen": str(row[C.SCREEN]),
        "text": str(row[C.SCREEN_TEXT] or ""),
    }
    url = str(row.get(C.SCREEN_URL) or "")
    if url:
        entry["url"] = url
        entry["title"] = str(title)
    elements = row.get(C.SCREEN_ELEMENTS)
    if isinstance(elements, list) and (elements or url):
        entry["elements"] = elements
    return path, entry


def _manifest_json(manifest: dict[str, Any]) -> str:
    """Indented JSON with one line per element, so a manifest stays readable."""
    lines: dict[str, str] = {}
    screens = []
    for entry in manifest["screens"]:
        entry = dict(entry)
        if "elements" in entry:
            compact = []
            for element in entry["elements"]:
                token = f"@@element{len(lines)}@@"
                lines[token] = json.dumps(element, ensure_ascii=False)
                compact.append(token)
            entry["elements"] = compact
        screens.append(entry)
    text = json.dumps({**manifest, "screens": screens}, indent=2, ensure_ascii=False)
    for token, line in lines.items():
        text = text.replace(f'"{token}"', line, 1)
    return text + "\n"
