"""Under CI=true a skipped test fails (tests/conftest.py), so a broken set-up cannot pass green."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from .conftest import ROOT

pytestmark = pytest.mark.slow

SKIPPING = """
import pytest

def test_needs_a_missing_tool():
    pytest.skip("tesseract is not installed")
"""
SKIPPED_AT_IMPORT = """
import pytest
pytest.importorskip("a_module_that_is_not_installed")

def test_never_collected():
    pass
"""


def run(tmp_path, source: str, ci: str | None) -> subprocess.CompletedProcess:
    test = tmp_path / "test_probe.py"
    test.write_text(source)
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci is not None:
        env["CI"] = ci
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "tests.conftest",
            "-p",
            "no:cacheprovider",
            "--rootdir",
            str(tmp_path),
            str(test),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_skip_fails_under_ci(tmp_path):
    result = run(tmp_path, SKIPPING, "true")
    assert result.returncode == 1, result.stdout
    assert "skipped under CI=true: Skipped: tesseract is not installed" in result.stdout
    assert "1 failed" in result.stdout


def test_a_skip_is_a_skip_outside_ci(tmp_path):
    result = run(tmp_path, SKIPPING, None)
    assert result.returncode == 0, result.stdout
    assert "1 skipped" in result.stdout


def test_a_module_skipped_at_import_fails_under_ci(tmp_path):
    result = run(tmp_path, SKIPPED_AT_IMPORT, "1")
    assert result.returncode != 0, result.stdout
    assert "a_module_that_is_not_installed" in result.stdout
    assert "skipped under CI=true" in result.stdout
