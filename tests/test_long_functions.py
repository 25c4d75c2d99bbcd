"""Functions that fit a screen: scripts/long_functions.py lists those over 80 lines."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import long_functions  # noqa: E402


def test_no_function_of_the_package_is_over_80_lines():
    found = long_functions.long_functions(long_functions.DEFAULT_PATHS)
    assert found == [], [str(f) for f in found]


def test_a_long_function_is_named_with_its_file_line_and_length(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(79))
    (tmp_path / "short.py").write_text(f"def fits():\n{body}\n")  # 80 lines: allowed
    (tmp_path / "long.py").write_text(
        "import functools\n\n\nclass Tool:\n    @functools.cache\n"
        "    def run(self):\n" + "\n".join(f"        y{i} = {i}" for i in range(81)) + "\n"
        "        def inner():\n            return 1\n"
    )
    found = long_functions.long_functions([tmp_path])
    assert [(f.path.name, f.line, f.name, f.lines) for f in found] == [
        ("long.py", 6, "Tool.run", 84)  # from its def (the decorator is not counted)
    ]
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "long_functions.py"), "--check", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert "long.py:6: Tool.run (84 lines)" in done.stdout
    assert "1 function(s) over 80 lines" in done.stderr
    lenient = [sys.executable, str(ROOT / "scripts" / "long_functions.py"), "--max", "84"]
    assert subprocess.run([*lenient, "--check", str(tmp_path)]).returncode == 0
