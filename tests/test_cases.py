"""Runs every adjudication case under tests/cases/ (docs/architecture.md); each case file cites its rules."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rsr.cases import collect, run_case
from rsr.cli import main
from rsr.events import event_kinds

CASES = Path(__file__).parent / "cases"
ALL = collect([CASES])


@pytest.mark.parametrize("path, spec", ALL, ids=[f"{p.parent.name}/{s['id']}" for p, s in ALL])
def test_case(path: Path, spec: dict) -> None:
    kinds: list[str] = []
    problems = run_case(path, spec, kinds)
    assert not problems, "\n".join(problems)
    undeclared = sorted(set(kinds) - set(event_kinds(spec["ruleset"])))
    assert not undeclared, f"event kinds not in the catalogue of {spec['ruleset']} (rsr/events.py): {undeclared}"


def test_case_run_command_reports_each_case(tmp_path: Path) -> None:
    """The command on one case file of each ruleset and on a broken copy (test_case above runs every case
    once; running all of them again through the command line doubled the suite's slowest part)."""
    picked = [next(p for p, _ in ALL if p.parent.name == ruleset) for ruleset in ("red-sun-rising", "red-star")]
    count = sum(1 for p, _ in ALL if p in picked)
    out = CliRunner().invoke(main, ["case", "run", *map(str, picked)])
    assert out.exit_code == 0, out.output
    assert f"{count} passed, 0 failed" in out.output and out.output.count("\nok   ") + 1 >= count
    import yaml

    path, spec = next((p, s) for p, s in ALL if s["id"] == "crt-2-1-printed-row-1")
    wrong = dict(spec, expect=dict(spec["expect"], units={"ru-es1": {"steps": 1}}))
    broken = tmp_path / path.name
    broken.write_text(yaml.safe_dump(wrong, sort_keys=False))
    failed = CliRunner().invoke(main, ["case", "run", str(broken)])
    assert failed.exit_code == 1 and "FAIL" in failed.output and "0 passed, 1 failed" in failed.output


def test_a_wrong_expectation_fails(tmp_path: Path) -> None:
    """The runner is not a rubber stamp: change one expected value and the case fails."""
    path, spec = next((p, s) for p, s in ALL if s["id"] == "crt-2-1-printed-row-1")
    spec = dict(spec, expect=dict(spec["expect"], units={"ru-es1": {"steps": 1}}))
    assert run_case(path, spec)
