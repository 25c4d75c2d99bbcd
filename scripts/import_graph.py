"""The import graph of ``src/shotsmith`` and its cycles.

Every ``import`` counts, at module level or inside a function (a deferred import still ties
two modules together), and so does ``importlib.import_module("literal")``; imports under
``if TYPE_CHECKING:`` do not (they never run). ``--registries`` also counts the module
names the package loads by name from a table (``__init__``'s ``_EXPORTS``, ``columns``'
``STAGE_MODULES``, ``cli``'s ``COMMANDS``).

    python scripts/import_graph.py            # cycles: each strongly connected group
    python scripts/import_graph.py --edges    # every edge, "a -> b"
    python scripts/import_graph.py --dot      # Graphviz: dot -Tsvg -o imports.svg
    python scripts/import_graph.py --check    # exit status 1 when there is a cycle

A cycle is reported as its strongly connected group (every module that can reach every
other through imports) and the elementary cycles inside it (counted up to a limit).
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "src"
PACKAGE = "shotsmith"
CYCLE_LIMIT = 10_000  # elementary cycles counted per group before giving up


def module_files(root: Path = ROOT, package: str = PACKAGE) -> dict[str, Path]:
    """Dotted module name -> file, for every ``.py`` file of the package."""
    files = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        files[".".join(parts)] = path
    return files


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node, except the bodies of ``if TYPE_CHECKING:`` (their ``else`` counts)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The longest known module that ``name`` is or lies in (``a.b.C`` -> ``a.b``)."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def _base(module: str, is_package: bool, level: int, target: str | None) -> str:
    """The absolute module a relative import of ``level`` dots names, from ``module``."""
    parts = module.split(".")
    if not is_package:
        parts.pop()
    if level > 1:
        parts = parts[: len(parts) - (level - 1)]
    return ".".join([*parts, target] if target else parts)


def _registry_names(tree: ast.Module) -> list[str]:
    """Module names in a module-level table of names loaded with import_module."""
    names: list[str] = []
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        if not any(isinstance(t, ast.Name) and t.id in REGISTRIES for t in targets):
            continue
        value = node.value
        items = value.values if isinstance(value, ast.Dict) else getattr(value, "elts", [])
        names += [
            i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)
        ]
    return names


REGISTRIES = ("_EXPORTS", "STAGE_MODULES", "COMMANDS")


def imports_of(
    module: str, path: Path, modules: dict[str, Path], registries: bool = False
) -> set[str]:
    """The package's modules that ``module`` imports at run time."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    found: set[str | None] = set()
    for node in _nodes(tree):
        if isinstance(node, ast.Import):
            found |= {_resolve(alias.name, modules) for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = _base(module, is_package, node.level, node.module) if node.level else node.module
            for alias in node.names:  # ``from . import x``: x may be a module of its own
                found.add(
                    _resolve(f"{base}.{alias.name}", modules) or _resolve(base or "", modules)
                )
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            name = node.args[0].value
            if name.startswith("."):
                dots = len(name) - len(name.lstrip("."))
                name = _base(module, is_package, dots, name.lstrip(".") or None)
            found.add(_resolve(name, modules))
    if registries:
        for name in _registry_names(tree):
            if name.startswith("."):
                dots = len(name) - len(name.lstrip("."))
                name = _base(module, is_package, dots, name.lstrip(".") or None)
            elif "." not in name:
                name = f"{module}.{name}"  # cli's COMMANDS: sub-module names
            found.add(_resolve(name, modules))
    found.discard(module)
    return {m for m in found if m is not None}


def import_graph(registries: bool = False, root: Path = ROOT) -> dict[str, set[str]]:
    modules = module_files(root)
    return {m: imports_of(m, path, modules, registries) for m, path in modules.items()}


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's groups with more than one module, largest first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups, key=lambda g: (-len(g), g))


def elementary_cycles(graph: dict[str, set[str]], group: list[str]) -> list[list[str]]:
    """The elementary cycles inside one group, each from its smallest module, up to
    :data:`CYCLE_LIMIT`."""
    cycles: list[list[str]] = []
    for start in sorted(group):
        allowed = {m for m in group if m >= start}
        _walk(graph, allowed, [start], cycles)
    return cycles


def _walk(
    graph: dict[str, set[str]], allowed: set[str], path: list[str], cycles: list[list[str]]
) -> None:
    """Extend ``path`` (from its first module) by every module not on it yet; a step back
    to the first module closes a cycle."""
    for nxt in sorted(graph[path[-1]] & allowed):
        if len(cycles) >= CYCLE_LIMIT:
            return
        if nxt == path[0]:
            cycles.append([*path, nxt])
        elif nxt not in path:
            _walk(graph, allowed, [*path, nxt], cycles)


def _short(module: str) -> str:
    return module.removeprefix(f"{PACKAGE}.") if module != PACKAGE else PACKAGE


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edges", action="store_true", help="print every edge")
    parser.add_argument("--dot", action="store_true", help="print the graph for Graphviz")
    parser.add_argument("--check", action="store_true", help="exit 1 when there is a cycle")
    parser.add_argument(
        "--registries", action="store_true", help="count modules loaded by name from tables"
    )
    args = parser.parse_args(argv)
    graph = import_graph(args.registries)
    groups = strongly_connected(graph)
    in_cycle = {m for g in groups for m in g}
    if args.dot:
        print("digraph imports {\n  rankdir=LR; node [shape=box, fontsize=10];")
        for module in sorted(graph):
            colour = ', color="red"' if module in in_cycle else ""
            print(f'  "{_short(module)}"[label="{_short(module)}"{colour}];')
            for target in sorted(graph[module]):
                red = ' [color="red"]' if module in in_cycle and target in in_cycle else ""
                print(f'  "{_short(module)}" -> "{_short(target)}"{red};')
        print("}")
        return 0
    if args.edges:
        for module in sorted(graph):
            for target in sorted(graph[module]):
                print(f"{_short(module)} -> {_short(target)}")
    edges = sum(len(t) for t in graph.values())
    total = 0
    for group in groups:
        cycles = elementary_cycles(graph, group)
        total += len(cycles)
        more = "+" if len(cycles) >= CYCLE_LIMIT else ""
        print(f"group of {len(group)} modules, {len(cycles)}{more} cycles:")
        print("  " + ", ".join(_short(m) for m in group))
        shortest = min(cycles, key=len)
        print("  e.g. " + " -> ".join(_short(m) for m in shortest))
    print(
        f"{len(graph)} modules, {edges} imports, {len(groups)} groups in cycles "
        f"({len(in_cycle)} modules), {total} elementary cycles"
    )
    return 1 if args.check and groups else 0


if __name__ == "__main__":
    sys.exit(main())
