"""Each ruleset owns everything of its own behind the hooks of rsr/rulesets/base.py (issue 21 point 4): no
module outside rsr/rulesets/ names a ruleset or imports a ruleset's package; the registry alone knows them."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from rsr.errors import BadInput
from rsr.rulesets import BUILTIN, REGISTRY, get_ruleset, register
from rsr.rulesets.base import BaseRuleset
from tests.test_decisions import Duel

RSR = Path(__file__).resolve().parents[1] / "rsr"


def ruleset_names() -> list[str]:
    """Every way code names a built-in ruleset: its id, and its package's name and dotted path."""
    names = set(BUILTIN)
    for module in BUILTIN.values():
        names.update({module, module.rpartition(".")[2]})
    return sorted(names)


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings (they may name a ruleset as an example)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def naming_a_ruleset(path: Path) -> list[str]:
    """Where ``path`` imports a ruleset's package or names a ruleset in a string of its code."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = ruleset_names()
    packages = list(BUILTIN.values())
    skip = docstrings(tree)
    where = str(path.relative_to(RSR.parent)) if path.is_relative_to(RSR) else path.name
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            modules = []
        for module in modules:
            if any(module == p or module.startswith(p + ".") for p in packages):
                found.append(f"{where}:{node.lineno}: imports {module}")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            for name in names:
                if name in node.value:
                    found.append(f"{where}:{node.lineno}: names {name!r}")
    return found


def test_no_generic_module_names_a_ruleset() -> None:
    generic = sorted(p for p in RSR.rglob("*.py") if "rulesets" not in p.relative_to(RSR).parts)
    assert len(generic) > 40
    found = [line for path in generic for line in naming_a_ruleset(path)]
    assert found == []


def test_the_check_finds_a_module_that_names_a_ruleset(tmp_path: Path) -> None:
    bad = tmp_path / "probe.py"
    bad.write_text('"""The docstring may say red-star."""\n\nfrom rsr.rulesets.red_star import bot\n\n'
                   'KIND = "red-sun-rising"\n', encoding="utf-8")
    found = naming_a_ruleset(bad)
    assert [line.partition(": ")[2] for line in found] == [
        "imports rsr.rulesets.red_star", "imports rsr.rulesets.red_star.bot", "names 'red-sun-rising'"]


def test_every_ruleset_is_built_on_the_base_and_has_every_hook() -> None:
    hooks = [name for name, value in vars(BaseRuleset).items() if callable(value) and not name.startswith("_")]
    assert {"bot", "odds", "result", "state_fields", "map_scene", "naval_scene", "battle_svg", "first_needs",
            "prepared_questions", "check_policy_in"} <= set(hooks)
    for ruleset_id in BUILTIN:
        ruleset = get_ruleset(ruleset_id)
        assert isinstance(ruleset, BaseRuleset), ruleset_id
        assert ruleset.odds() is not None, ruleset_id
        assert callable(ruleset.map_scene)


@pytest.fixture
def duel() -> Any:
    register(Duel.id)(Duel)
    yield get_ruleset(Duel.id)
    del REGISTRY[Duel.id]


def test_a_new_ruleset_takes_every_hook_it_does_not_write_from_the_base(duel: Any) -> None:
    """The walkthrough of docs/architecture.md, "Adding a ruleset": the toy ruleset of tests/test_decisions.py,
    registered by one line, meets every generic layer through the base class's defaults."""
    from rsr import lookahead
    from rsr.draw import make_scene
    from rsr.odds import ruleset_odds

    state = duel.initial_state(None, {})
    request = duel.next_request(state)
    assert duel.bot(state, request, "1-1") == [] and duel.result(state) is None
    assert duel.first_needs(None, {}) == [] and duel.state_fields(state) is None
    assert lookahead.prepared_for(duel.id, request.id) is None
    assert not duel.has_naval_map(state) and not duel.is_naval_pass([])
    with pytest.raises(BadInput, match="no odds for ruleset toy-duel"):
        ruleset_odds(duel.id)
    with pytest.raises(BadInput, match="no map drawing for ruleset toy-duel"):
        make_scene(duel.id, state, state, [], "title", "subtitle")
    with pytest.raises(BadInput, match="no naval battles in ruleset toy-duel"):
        duel.battle_svg(state, [], "title")
