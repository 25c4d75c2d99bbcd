"""The package's import structure: no circle (scripts/import_graph.py), cheap imports that
load no adapter, and the ``frame.shotsmith`` accessor there once the public API is used."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import shotsmith

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import import_graph  # noqa: E402

# Circles through modules other parts of the project still have to cut; the set only shrinks.
KNOWN_CIRCLES = [{"shotsmith.devices", "shotsmith.stages.layout.sizes"}]


def _run(code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
    )
    return result.stdout.strip()


def test_the_import_graph_has_no_circle():
    groups = import_graph.strongly_connected(import_graph.import_graph())
    assert all(set(group) in KNOWN_CIRCLES for group in groups), groups


def test_the_graph_sees_a_circle_through_a_deferred_import(tmp_path):
    package = tmp_path / "shotsmith"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from . import b\n")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import c\n"
        "def f():\n    from . import a\n"
    )
    (package / "c.py").write_text("from . import b\n")
    graph = import_graph.import_graph(root=tmp_path)
    assert graph["shotsmith.b"] == {"shotsmith.a"}  # the TYPE_CHECKING import is left out
    assert import_graph.strongly_connected(graph) == [["shotsmith.a", "shotsmith.b"]]


def test_the_core_loads_no_adapter():
    loaded = _run(
        "import sys, shotsmith.columns, shotsmith.pipeline, shotsmith.stages.read\n"
        "print(' '.join(m for m in sys.modules if m.startswith('shotsmith.')))"
    ).split()
    adapters = ("shotsmith.notebook", "shotsmith.server", "shotsmith.cli", "shotsmith.client")
    adapters += ("shotsmith.accessor",)  # frame.shotsmith: registered by the public face
    assert not [m for m in loaded if m.startswith(adapters)], loaded


def test_frames_have_the_accessor_once_the_public_api_is_used():
    out = _run(
        "import pandas as pd, shotsmith as ss\n"
        "print(hasattr(pd.DataFrame(), 'shotsmith'))\n"
        "frame = ss.concat_sets([pd.DataFrame({'app_id': ['a', 'a', 'b']})])\n"
        "print(frame.shotsmith.sets())"
    )
    assert out.splitlines() == ["False", "['a', 'b']"]


def test_the_version_is_the_projects():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert shotsmith.__version__ == project["version"]
    from shotsmith._version import __version__

    assert __version__ is shotsmith.__version__


def test_notebook_helpers_are_public_names_loaded_on_first_use():
    loaded = _run(
        "import sys, shotsmith\n"
        "print('shotsmith.notebook' in sys.modules)\n"
        "shown = shotsmith.show_variants\n"
        "from shotsmith.notebook import show_variants\n"
        "print(shown is show_variants, 'show_variants' in shotsmith.__all__)"
    ).split()
    assert loaded == ["False", "True", "True"]
