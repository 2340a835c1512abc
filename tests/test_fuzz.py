"""The exchange fuzzer (tests/support/fuzz.py, issue 20 section 8): every scenario of both rulesets played
through signed packets by bots whose answers are often near-legal or hostile, delivered as files or inside
email messages. A short run here; ``make soak`` plays many more games, and ``python tools/fuzz.py`` prints
the figures."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.support.fuzz import Finding, every_scenario, fuzz_game, invariants, mutate

SCENARIOS = every_scenario()


def _report(findings: list[Finding]) -> str:
    return "\n".join(f"{f.kind} at packet {f.seq} (seed {f.seed}, {f.game_dir}):\n{f.detail}" for f in findings)


@pytest.mark.parametrize(("ruleset_id", "scenario"), SCENARIOS, ids=[s for _, s in SCENARIOS])
def test_fuzzed_games_find_nothing(tmp_path: Path, ruleset_id: str, scenario: str) -> None:
    outcome = fuzz_game(tmp_path, ruleset_id, scenario, seed=7, limit=14, mutation_rate=0.6)
    assert not outcome.findings, _report(outcome.findings)
    assert outcome.packets >= 3 and outcome.mutants_tried >= 1


@pytest.mark.soak
@pytest.mark.parametrize(("ruleset_id", "scenario"), SCENARIOS, ids=[s for _, s in SCENARIOS])
@pytest.mark.parametrize("seed", range(100, 120))
def test_fuzzed_games_soak(tmp_path: Path, ruleset_id: str, scenario: str, seed: int) -> None:
    outcome = fuzz_game(tmp_path, ruleset_id, scenario, seed=seed, limit=80)
    assert not outcome.findings, _report(outcome.findings)


def test_mutations_stay_plain_data_and_change_something() -> None:
    rng = random.Random(3)
    answer = {"moves": [{"unit": "jp-1", "path": ["0612", "0613"]}], "flag": True, "count": 2}
    changed = 0
    for _ in range(200):
        mutant = mutate(answer, rng, ["0612", "0714", "su-2"], [1, 5], hostile=rng.random() < 0.3)
        changed += mutant != answer
        assert answer == {"moves": [{"unit": "jp-1", "path": ["0612", "0613"]}], "flag": True, "count": 2}
    assert changed > 150


class _Unit:
    def __init__(self, steps: int, hex_id: str | None) -> None:
        self.steps, self.hex = steps, hex_id


class _Static:
    terrain = {"0101": "clear"}
    counters = {"a": type("C", (), {"steps": 2})()}


class _State:
    static = _Static()

    def __init__(self, units: dict[str, _Unit]) -> None:
        self.units = units


def test_invariants_catch_what_they_claim() -> None:
    first = _State({"a": _Unit(2, "0101")})
    assert invariants("red-sun-rising", first, _State({"a": _Unit(1, "0101")})) == []
    assert invariants("red-sun-rising", first, _State({}))  # a unit vanished
    assert invariants("red-sun-rising", first, _State({"a": _Unit(3, "0101")}))  # more steps than printed
    assert invariants("red-sun-rising", first, _State({"a": _Unit(1, "9999")}))  # off the map
