"""No two modules of rsr/ import each other in a circle, counting the imports made inside functions (issue 21).

A circle broken by an import inside a function still ties the two modules together: each needs the other to
be read, and the order they load in decides whether it works. The graph has an edge from a module to each
module it imports anywhere in its code, read with ``ast``: ``import a.b`` and ``from a import b`` (where
``a.b`` is a module) point at ``a.b``, ``from a.b import name`` at ``a.b``. Imports under ``if
TYPE_CHECKING:`` are left out (they never run), and so is the package ``__init__`` a submodule's import runs
on the way: a ruleset package's ``__init__`` imports its ruleset class, so counting it would tie every module
of the package to every other.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def module_names(root: Path) -> dict[str, Path]:
    """Every module under ``root``/rsr by dotted name (a package by its own name, for its ``__init__``)."""
    found = {}
    for path in sorted((root / "rsr").rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` except those under ``if TYPE_CHECKING:``."""
    nodes: list[ast.AST] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            todo.extend(node.orelse)
            continue
        nodes.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return nodes


def imports_of(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of rsr/ that module ``name`` imports anywhere (top level or inside functions)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
    return {m for m in found if m in modules and m != name}


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    modules = module_names(root)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted, sorted by their first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
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

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def test_no_two_modules_import_each_other_in_a_circle() -> None:
    graph = import_graph()
    assert len(graph) > 100
    assert circles(graph) == []


def test_an_import_inside_a_function_closes_a_circle(tmp_path: Path) -> None:
    package = tmp_path / "rsr"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from rsr.b import g\n\ndef f():\n    return g()\n")
    (package / "b.py").write_text("from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from rsr import c\n\n"
                                  "def g():\n    from rsr import a\n    return a\n")
    (package / "c.py").write_text("import rsr.b\n")
    graph = import_graph(tmp_path)
    assert graph["rsr.b"] == {"rsr.a"}  # (the TYPE_CHECKING import of c does not count)
    assert circles(graph) == [["rsr.a", "rsr.b"]]
