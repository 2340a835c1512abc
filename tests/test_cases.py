"""Runs every adjudication case under tests/cases/ (docs/architecture.md); each case file cites its rules."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rsr.cases import collect, run_case
from rsr.cli import main

CASES = Path(__file__).parent / "cases"
ALL = collect([CASES])


@pytest.mark.parametrize("path, spec", ALL, ids=[f"{p.parent.name}/{s['id']}" for p, s in ALL])
def test_case(path: Path, spec: dict) -> None:
    problems = run_case(path, spec)
    assert not problems, "\n".join(problems)


def test_case_run_command_reports_each_case() -> None:
    out = CliRunner().invoke(main, ["case", "run", str(CASES)])
    assert out.exit_code == 0, out.output
    assert f"{len(ALL)} passed, 0 failed" in out.output


def test_a_wrong_expectation_fails(tmp_path: Path) -> None:
    """The runner is not a rubber stamp: change one expected value and the case fails."""
    path, spec = next((p, s) for p, s in ALL if s["id"] == "crt-2-1-printed-row-1")
    spec = dict(spec, expect=dict(spec["expect"], units={"ru-es1": {"steps": 1}}))
    assert run_case(path, spec)
