"""The wheel is what users install: it must carry every file the code reads at run time.

Builds the wheel, installs it alone in a fresh virtual environment (its dependencies
come from the package index, nothing from this checkout) and designs a sample set from
a folder outside the repository, where no ``layouts/`` overlay exists.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest
from PIL import Image

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "shotsmith"


def _run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    proc = subprocess.run(
        cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=900, check=False
    )
    assert proc.returncode == 0, f"{' '.join(cmd)} failed:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dist = tmp_path_factory.mktemp("dist")
    build = tmp_path_factory.mktemp("build")
    shutil.copytree(
        ROOT,
        build / "src-tree",
        ignore=shutil.ignore_patterns(
            ".venv", ".git", "out", "build", "*.egg-info", "__pycache__", ".pytest_cache"
        ),
    )
    _run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), "."],
        cwd=build / "src-tree",
    )
    (found,) = dist.glob("shotsmith-*.whl")
    return found


def test_wheel_carries_every_runtime_file(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
    wanted = sorted(
        "shotsmith/" + p.relative_to(PACKAGE).as_posix()
        for p in PACKAGE.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    )
    missing = [w for w in wanted if w not in names]
    assert not missing, f"files under src/shotsmith/ missing from the wheel: {missing}"
    assert "shotsmith/data/layouts/default.toml" in names
    assert "shotsmith/data/layouts/spotlight.toml" in names


def test_code_reads_nothing_outside_the_package() -> None:
    """Run-time files are found inside the package, never relative to a source checkout."""
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for depth in ("parents[2]", "parents[3]", "parents[4]", ".parent.parent.parent"):
            if depth in text:
                offenders.append(f"{path.relative_to(ROOT)}: {depth}")
    assert not offenders, offenders


def test_installed_wheel_designs_a_set_outside_the_repo(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    py = env_dir / "bin" / "python"
    _run([str(py), "-m", "pip", "install", "-q", str(wheel)], cwd=tmp_path)

    work = tmp_path / "elsewhere"
    shutil.copytree(ROOT / "sample_inputs" / "pocket-budget", work / "shots")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SHOTSMITH_", "PYTHON"))}
    env["PATH"] = f"{env_dir / 'bin'}{os.pathsep}{env.get('PATH', '')}"

    where = _run(
        [str(py), "-c", "import shotsmith, sys; print(shotsmith.__file__)"], cwd=work, env=env
    )
    assert str(env_dir) in where, f"imported shotsmith from {where!r}, not from the wheel"
    templates = _run(
        [str(py), "-c", "import shotsmith as ss; print(','.join(ss.available_templates()))"],
        cwd=work,
        env=env,
    )
    assert {"default", "spotlight"} <= set(templates.strip().split(","))

    for template in ("default", "spotlight"):
        _run(
            [
                str(env_dir / "bin" / "shotsmith"),
                "design",
                "shots",
                "--project-name",
                "Pocket Budget",
                "--template",
                template,
                "--out",
                f"out-{template}",
            ],
            cwd=work,
            env=env,
        )
        pngs = sorted((work / f"out-{template}").rglob("0*.png"))
        assert len(pngs) == 5, pngs
        for png in pngs:
            with Image.open(png) as im:
                assert im.size == (1320, 2868)
                assert im.mode == "RGB"
