"""The functions of ``src/shotsmith`` longer than a screen.

A function's length is ``end_lineno - lineno + 1`` of its ``def`` (decorators not counted,
its docstring and nested functions counted); a nested function is listed on its own too.

    python scripts/long_functions.py              # every function over 80 lines, longest first
    python scripts/long_functions.py --max 60     # over 60 lines
    python scripts/long_functions.py --check      # exit status 1 when there is one
    python scripts/long_functions.py src tests    # other files or folders
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PATHS = (ROOT / "src" / "shotsmith",)
DEFAULT_MAX = 80


@dataclass(frozen=True)
class Function:
    path: Path
    line: int
    name: str
    lines: int

    def __str__(self) -> str:
        try:
            shown = self.path.relative_to(ROOT)
        except ValueError:
            shown = self.path
        return f"{shown}:{self.line}: {self.name} ({self.lines} lines)"


def python_files(paths: Iterable[Path]) -> Iterator[Path]:
    """The ``.py`` files named, and those under the folders named, in order."""
    for path in paths:
        if path.is_dir():
            yield from sorted(path.rglob("*.py"))
        elif path.suffix == ".py":
            yield path


def functions(path: Path) -> Iterator[Function]:
    """Every function and method of one file, with its qualified name and length."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))

    def walk(node: ast.AST, prefix: str) -> Iterator[Function]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}{child.name}"
                lines = (child.end_lineno or child.lineno) - child.lineno + 1
                yield Function(path, child.lineno, name, lines)
                yield from walk(child, f"{name}.")
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, f"{prefix}{child.name}.")
            else:
                yield from walk(child, prefix)

    yield from walk(tree, "")


def long_functions(paths: Iterable[Path], most: int = DEFAULT_MAX) -> list[Function]:
    """The functions over ``most`` lines, longest first."""
    found = [f for path in python_files(paths) for f in functions(path) if f.lines > most]
    return sorted(found, key=lambda f: (-f.lines, str(f.path), f.line))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", type=Path, help="files or folders (default: src)")
    parser.add_argument(
        "--max", type=int, default=DEFAULT_MAX, help=f"most lines allowed ({DEFAULT_MAX})"
    )
    parser.add_argument("--check", action="store_true", help="exit 1 when a function is over")
    args = parser.parse_args(argv)
    found = long_functions(args.paths or DEFAULT_PATHS, args.max)
    for function in found:
        print(function)
    if args.check and found:
        print(f"{len(found)} function(s) over {args.max} lines: split them", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
