#!/usr/bin/env python3
"""sha256 of every output shotsmith makes from the bundled inputs, to prove a refactor
changed nothing.

What it makes, in a temporary folder:

* ``design/<app>/...``: each sample set in ``sample_inputs/<app>/`` designed with the
  default options (``shotsmith.design(folder)``): the PNGs and ``design.json``;
* ``capture/<site>/...``: the sample web app ``sample_inputs/webapps/pocket-budget`` and the
  explorer's test site ``tests/capture_site`` captured at 6.9" with the default options
  (served by ``serve_folder``), and Trailbook, the trap-laden app of
  ``tests/stages/capture/test_capture.py``: the raw PNGs and ``manifest.json``; and each
  captured set designed (``design-captured/``).

Files that hold the run's own circumstances are normalised before hashing: the temporary
folder, the checkout and the served site's port become ``<out>``, ``<repo>`` and ``<site>``
(so two checkouts can be compared), and timings (``render_ms``) are dropped from
``design.json``. Everything else is hashed byte for byte.

    .venv/bin/python scripts/output_hashes.py > before.txt        # one line a file
    .venv/bin/python scripts/output_hashes.py --check before.txt  # exit 1 naming what differs
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_inputs"
TIMING_KEYS = {"render_ms"}


def _normalise_design(data: Any, out: str) -> Any:
    if isinstance(data, dict):
        return {k: _normalise_design(v, out) for k, v in data.items() if k not in TIMING_KEYS}
    if isinstance(data, list):
        return [_normalise_design(v, out) for v in data]
    if isinstance(data, str):
        return data.replace(out, "<out>").replace(str(ROOT), "<repo>")
    return data


def _digest(path: Path, out: Path) -> str:
    data = path.read_bytes()
    if path.name == "design.json":
        records = _normalise_design(json.loads(data), str(out))
        text = json.dumps(records, indent=2, sort_keys=True)
        data = re.sub(r"http://127\.0\.0\.1:\d+", "<site>", text).encode()
    elif path.name == "manifest.json":
        text = data.decode("utf-8").replace(str(out), "<out>").replace(str(ROOT), "<repo>")
        data = re.sub(r"http://127\.0\.0\.1:\d+", "<site>", text).encode()
    return hashlib.sha256(data).hexdigest()


def _hashes(out: Path) -> dict[str, str]:
    return {
        p.relative_to(out).as_posix(): _digest(p, out)
        for p in sorted(out.rglob("*"))
        if p.is_file() and p.suffix in (".png", ".json") and not p.name.endswith(".tmp")
    }


@contextmanager
def _trailbook() -> Iterator[str]:
    """Trailbook, served as tests/stages/capture/test_capture.py serves it."""
    sys.path.insert(0, str(ROOT))
    from tests.stages.capture.test_capture import TrailbookServer

    server = TrailbookServer()
    try:
        yield server.url + "/"
    finally:
        server.close()


@contextmanager
def _folder(folder: Path) -> Iterator[str]:
    from shotsmith import serve_folder

    with serve_folder(folder) as site:
        yield site.url


def make_outputs(out: Path, *, capture: bool = True) -> None:
    from shotsmith import capture_report, design

    apps = sorted(p for p in SAMPLES.iterdir() if (p / "manifest.json").is_file())
    for app in apps:
        design(app, out_dir=out / "design")
        print(f"designed {app.name}", file=sys.stderr)
    if not capture:
        return
    sites: dict[str, Callable[[], Any]] = {
        "pocket-budget": lambda: _folder(SAMPLES / "webapps" / "pocket-budget"),
        "capture-site": lambda: _folder(ROOT / "tests" / "capture_site"),
        "trailbook": _trailbook,
    }
    for name, serve in sites.items():
        with serve() as url:
            report = capture_report(url, device_sizes=["6.9"], out_dir=out / "capture" / name)
        design(report.frame, out_dir=out / "design-captured" / name)
        print(f"captured {name}: {len(report.frame)} screens", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", type=Path, help="compare with a list this script printed")
    parser.add_argument("--no-capture", action="store_true", help="only the designed samples")
    parser.add_argument("--keep", type=Path, help="write the outputs here (kept) for a look")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="shotsmith-hashes-") as tmp:
        out = (args.keep or Path(tmp)).resolve()
        make_outputs(out, capture=not args.no_capture)
        found = _hashes(out)
    if not args.check:
        for name, digest in found.items():
            print(f"{digest}  {name}")
        return 0
    saved = {}
    for line in args.check.read_text(encoding="utf-8").splitlines():
        if line.strip():
            digest, name = line.split(maxsplit=1)
            saved[name] = digest
    if args.no_capture:
        saved = {k: v for k, v in saved.items() if k.startswith("design/")}
    differ = sorted(k for k in saved.keys() & found.keys() if saved[k] != found[k])
    missing, extra = sorted(saved.keys() - found.keys()), sorted(found.keys() - saved.keys())
    for name in differ:
        print(f"differs: {name}")
    for name in missing:
        print(f"missing: {name}")
    for name in extra:
        print(f"new: {name}")
    same = len(saved.keys() & found.keys()) - len(differ)
    print(f"{same} of {len(saved)} outputs identical to {args.check}")
    return 1 if differ or missing or extra else 0


if __name__ == "__main__":
    sys.exit(main())
