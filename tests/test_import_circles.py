"""No two modules of rsr import each other in a circle, counting imports inside functions (issue 21).

An import inside a function hides a circle from Python (the import runs late), not from a reader: the two
modules still cannot be understood, tested or moved one without the other. The graph is read from the
source (every ``import`` and ``from ... import`` anywhere in a module, except those under ``if
TYPE_CHECKING:``, which never run); each strongly connected part with more than one module is a circle.

``KNOWN`` lists the circles that were there before the decisions redesign and are not its to break (Red Sun
Rising's naval and land code is being reworked elsewhere); the list may only shrink.
"""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "rsr"

KNOWN: list[set[str]] = [
    {"rsr.rulesets.red_sun_rising.naval.data", "rsr.rulesets.red_sun_rising.naval.succession"},
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _type_checking_only(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return True
    return False


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The rsr modules that ``name`` imports, wherever the import statement is."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        if _type_checking_only(node, parents):
            continue
        found |= {t for t in targets if t in known and t != name}
    return found


def circles() -> list[set[str]]:
    """Tarjan's strongly connected components of the import graph, those of two modules or more."""
    known = modules()
    graph = {name: sorted(imports_of(name, path, known)) for name, path in known.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = set()
            while True:
                top = stack.pop()
                on_stack.discard(top)
                part.add(top)
                if top == node:
                    break
            if len(part) > 1:
                found.append(part)

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return found


def test_no_module_is_in_an_import_circle_but_the_known_ones() -> None:
    new = [sorted(c) for c in circles() if not any(c <= k for k in KNOWN)]
    assert new == [], f"import circles: {new}"


def test_the_known_circles_are_still_there() -> None:
    """When a known circle is broken, take it off KNOWN (the list only shrinks)."""
    found = circles()
    assert [sorted(k) for k in KNOWN if not any(k <= c for c in found)] == []


def test_the_decisions_and_red_star_are_in_no_circle() -> None:
    for part in circles():
        ours = ("rsr.decisions", "rsr.rulesets.red_star", "rsr.rulesets.base")
        assert not any(m.startswith(ours) for m in part), part


def test_the_graph_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    known = {"rsr.a": tmp_path / "a.py", "rsr.b": tmp_path / "b.py"}
    known["rsr.a"].write_text("def f():\n    from rsr import b\n", encoding="utf-8")
    known["rsr.b"].write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import rsr.a\n",
                              encoding="utf-8")
    assert imports_of("rsr.a", known["rsr.a"], known) == {"rsr.b"}
    assert imports_of("rsr.b", known["rsr.b"], known) == set()
