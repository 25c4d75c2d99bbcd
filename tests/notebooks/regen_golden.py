"""Rebuild the golden copy of notebooks/01_quickstart.ipynb used by the regression test.

The golden notebook is the quickstart's own cells with small, machine-independent
parameters (no OCR, PNGs kept in memory), executed from ``notebooks/`` with outputs
kept. Re-run after changing the quickstart or what it shows, and review the diff:

    .venv/bin/python tests/notebooks/regen_golden.py
"""

from __future__ import annotations

import copy
import re
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "notebooks" / "01_quickstart.ipynb"
GOLDEN = Path(__file__).resolve().parent / "01_quickstart.ipynb"
GOLDEN_PARAMETERS = """# Parameters
app = "../sample_inputs/pocket-budget"
template = "default"
ocr = False
out_dir = None
""".strip()


def golden_source() -> nbformat.NotebookNode:
    """The quickstart with the golden parameters in its parameters cell (no outputs)."""
    nb = copy.deepcopy(nbformat.read(SOURCE, as_version=4))
    cell = next((c for c in nb.cells if "parameters" in c.metadata.get("tags", [])), None)
    assert cell is not None, "the quickstart needs a code cell tagged 'parameters'"
    cell.source = GOLDEN_PARAMETERS
    return nb


IMAGE_URI = re.compile(r"data:image/(jpeg|png);base64,[A-Za-z0-9+/=]+")


def normalise(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Drop what the regression test ignores anyway (pixels), so the golden file stays small."""
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if "image/png" in data:
                data["image/png"] = ""
            if "text/html" in data:
                data["text/html"] = IMAGE_URI.sub(r"data:image/\1;base64,...", data["text/html"])
    nb.metadata.pop("widgets", None)
    return nb


def main() -> int:
    nb = golden_source()
    NotebookClient(
        nb,
        timeout=300,
        kernel_name="python3",
        record_timing=False,
        resources={"metadata": {"path": str(ROOT / "notebooks")}},
    ).execute()
    nbformat.write(normalise(nb), GOLDEN)
    print(f"wrote {GOLDEN}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
