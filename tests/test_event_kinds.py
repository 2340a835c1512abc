"""The event kinds are a declared catalogue (rsr/events.py, each ruleset's events.py): every kind the engine and
the rules emit is declared once with its meaning, the case file schema refuses a kind its ruleset never emits,
and every event the corpus and the case files emit is declared (tests/test_cases.py checks each case's)."""

from __future__ import annotations

import ast
import importlib.util
import json
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from rsr import events
from rsr.cli import main
from rsr.events import ENGINE_EVENT_KINDS, event_kinds, ruleset_event_kinds
from rsr.rulesets import BUILTIN

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"


def _tool():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("event_kinds_tool", ROOT / "tools" / "event_kinds.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def emitted_literals(package: Path) -> set[str]:
    """The kinds named as a literal by ``emit(...)`` or ``Event(...)`` in the modules of ``package``."""
    kinds = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            first = node.args[0]
            if name in ("emit", "Event") and isinstance(first, ast.Constant) and isinstance(first.value, str):
                kinds.add(first.value)
    return kinds


@pytest.mark.parametrize("ruleset_id", sorted(BUILTIN))
def test_every_kind_a_ruleset_names_is_declared(ruleset_id: str) -> None:
    package = ROOT / BUILTIN[ruleset_id].replace(".", "/")
    named = emitted_literals(package)
    assert len(named) > 40
    assert sorted(named - set(event_kinds(ruleset_id))) == []


def test_the_engine_kinds_are_declared_and_no_ruleset_redeclares_one() -> None:
    engine = ROOT / "rsr" / "engine.py"
    tree = ast.parse(engine.read_text(encoding="utf-8"))
    named = {n.args[0].value for n in ast.walk(tree) if isinstance(n, ast.Call) and n.args
             and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str)
             and getattr(n.func, "attr", getattr(n.func, "id", "")) in ("emit", "Event")}
    assert named == set(ENGINE_EVENT_KINDS)
    for ruleset_id in BUILTIN:
        assert not set(ruleset_event_kinds(ruleset_id)) & set(ENGINE_EVENT_KINDS)


@pytest.mark.parametrize("ruleset_id", sorted(BUILTIN))
def test_every_declared_kind_says_what_it_means(ruleset_id: str) -> None:
    for kind, meaning in event_kinds(ruleset_id).items():
        assert kind == kind.lower() and " " not in kind
        assert len(meaning) > 15, kind


def test_the_case_schema_lists_the_catalogue() -> None:
    tool = _tool()
    schema = json.loads((ROOT / "schemas" / "case.schema.json").read_text(encoding="utf-8"))
    assert schema == tool.with_kinds(schema), "run python tools/event_kinds.py"
    assert tool.main(["--check"]) == 0


def test_a_case_naming_an_unknown_kind_is_refused_in_one_line(tmp_path: Path) -> None:
    source = next((ROOT / "tests" / "cases" / "red-star").glob("*.yaml"))
    spec = yaml.safe_load(source.read_text(encoding="utf-8"))
    assert spec["expect"].get("events")
    spec["expect"]["events"][0]["kind"] = "segmnet"
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    out = CliRunner().invoke(main, ["case", "run", str(bad)])
    assert out.exit_code == 2
    assert "expect.events[0].kind: 'segmnet' is not one of" in out.output and str(bad) in out.output
    assert len(out.output.strip().splitlines()) == 1 and "Traceback" not in out.output
    # a kind of the other ruleset is refused too: each case is checked against its own ruleset's catalogue
    spec["expect"]["events"][0]["kind"] = "naval-hour"
    bad.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    assert CliRunner().invoke(main, ["case", "run", str(bad)]).exit_code == 2


def test_every_kind_the_corpus_emits_is_declared(monkeypatch: pytest.MonkeyPatch) -> None:
    tool = _tool()
    assert list((CORPUS / "games").glob("*/expected.json"))
    assert tool.undeclared(CORPUS) == []
    # not a rubber stamp: a kind the corpus emits, taken out of the catalogue, is found
    smaller = dict(ENGINE_EVENT_KINDS)
    del smaller["die"]
    monkeypatch.setattr(events, "ENGINE_EVENT_KINDS", smaller)
    assert any(line.endswith(": die") for line in tool.undeclared(CORPUS))


def test_a_corpus_case_without_its_case_file_is_reported(tmp_path: Path) -> None:
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "no-such-case.json").write_text(json.dumps({"events": []}))
    shutil.copytree(CORPUS / "games", tmp_path / "games")
    assert [line.rsplit(": ", 1)[1] for line in _tool().undeclared(tmp_path)] == [
        "no case file tests/cases/*/no-such-case.yaml"]
