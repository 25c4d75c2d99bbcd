"""What decides an app's output (its *key*), and what changed between two keys in words.

A finished app's ``_done.json`` holds its key; a re-run skips it only when the key is
unchanged."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..stages.read import MANIFEST_NAMES

INPUT_SUFFIXES = (".png",)


def design_key(job: dict[str, Any]) -> dict[str, Any]:
    """Everything that decides what an app's folder holds, as plain JSON data.

    Two runs with equal keys write the same files; ``_done.json`` keeps the key of the run
    that wrote it, and a run with another key designs the app again. The parts: the
    shotsmith code and data that ran, the digests of the input files (or the URL to
    capture), the app's manifest row, the user's ``about`` text and ``copy`` file, the
    template's name and content, the output size, the OCR option and engine, the copy
    backend (with the LLM endpoint and model when one is used) and the number of
    experiment variants."""
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
        "variants": int(job.get("variants") or 1),
    }
    return json.loads(json.dumps(key, default=str))  # exactly what a marker reads back


@lru_cache(maxsize=1)
def shotsmith_build() -> dict[str, str]:
    """This shotsmith: its version and one digest of every file of the package (code and
    data: word lists, templates, weights), so an edit to any of them counts as a change
    even when the version number stays the same (a development checkout)."""
    from .. import __version__

    root = Path(__file__).resolve().parents[1]  # the shotsmith package
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

    from ..ocr import installed_languages, tesseract_path

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
    from ..llm import LLMConfig

    config = LLMConfig.from_env()
    llm = (
        {"base_url": config.base_url, "model": config.model, "vision": config.vision}
        if config
        else None
    )
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
            edited = f"template {value['name']!r} was edited"
            changes.append(_renamed("template", was, value, "name", otherwise=edited))
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
            before = was.get("engine") if isinstance(was, dict) else None
            engine = f"OCR engine changed ({before} -> {value.get('engine')})"
            changes.append(_renamed("ocr", was, value, "option", otherwise=engine))
        else:
            changes.append(f"{part} {_short(was)} -> {_short(value)}")
    return changes


def _renamed(part: str, was: Any, value: dict[str, Any], field: str, *, otherwise: str) -> str:
    """``part old -> new`` when the key's ``field`` changed, else ``otherwise`` (what else did)."""
    before = was.get(field) if isinstance(was, dict) else was
    return f"{part} {before} -> {value[field]}" if before != value[field] else otherwise


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
