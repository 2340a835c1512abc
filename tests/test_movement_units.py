"""RS/RS 7.1-7.3, 8.2: the movement search in whole cost units (the bot's search without fractions)
and the memo of step costs give the very destinations, paths and MP left of the search with fractions and
costs worked out afresh, unit by unit, position by position of a bot game; with units scattered at random
(zones of control everywhere) and on a map where a cost is not a whole number of units."""

from __future__ import annotations

import copy
import random
from fractions import Fraction
from typing import Any

import pytest

from bench.games import play
from rsr.gamedir import load_log
from rsr.log import replay
from rsr.rulesets.red_star import movement, terrain


@pytest.fixture(scope="module")
def positions(tmp_path_factory: pytest.TempPathFactory) -> list[Any]:
    game_dir = play(tmp_path_factory.mktemp("movement-units"), "red-star", "july-1939", 24)
    result = replay(load_log(game_dir), keep_positions=True)
    return [record.position.state for record in result.passes if record.position is not None]


def _both(state: Any, unit: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    state.static.memo.clear()
    fast = movement.destinations(state, unit)
    state.static.memo.clear()
    with monkeypatch.context() as patch:
        def exact_only(*args: Any) -> Any:
            raise terrain.InexactCost("the search with fractions")

        patch.setattr(movement, "cost_units", exact_only)  # (the search then runs in fractions)
        patch.setattr(terrain, "step_cost", terrain._step_cost)  # (no memo: each cost worked out afresh)
        patch.setattr(movement, "step_cost", terrain._step_cost)
        exact = movement.destinations(state, unit)
    state.static.memo.clear()
    return fast, exact


def _check(state: Any, monkeypatch: pytest.MonkeyPatch, units: list[Any]) -> int:
    moved = 0
    for unit in units:
        fast, exact = _both(state, unit, monkeypatch)
        assert fast == exact, unit.id
        assert all(type(left) is Fraction for _, left in fast.values())
        moved += len(fast) > 1
    return moved


def test_the_search_in_units_finds_what_the_search_in_fractions_finds(positions: list[Any],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    assert len(positions) >= 10
    in_units = []
    real = movement._cheapest_paths

    def spy(*args: Any) -> Any:
        found = real(*args)
        if isinstance(args[5], int):  # (its ``total``: whole cost units, not a fraction)
            in_units.append(args[1].id)
        return found

    monkeypatch.setattr(movement, "_cheapest_paths", spy)
    moved = 0
    for state in positions[::4]:
        moved += _check(state, monkeypatch, state.on_map()[::3])
    assert moved >= 10  # (searches that went somewhere)
    assert len(in_units) >= moved  # (and the fast search answered them)


def test_units_scattered_at_random_and_costs_in_thirds(positions: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(7)
    state = copy.deepcopy(positions[-1])
    hexes = sorted(state.static.links)
    for _ in range(3):
        for unit in state.on_map():
            unit.hex = rng.choice(hexes)
        assert _check(state, monkeypatch, state.on_map()[::4]) >= 3
    # a cost of 1/3 MP: in sixths, the same answer; in halves (a unit the cost does not divide) the search
    # falls back to fractions, the same answer again
    odd = dict(state.static.terrain_costs)
    name, entry = sorted(odd.items())[0]
    odd[name] = copy.replace(entry, non_motorized=Fraction(1, 3), motorized=Fraction(1, 3)) \
        if hasattr(copy, "replace") else type(entry)(**{**entry.__dict__, "non_motorized": Fraction(1, 3),
                                                        "motorized": Fraction(1, 3)})
    monkeypatch.setattr(state.static, "terrain_costs", odd)
    assert terrain.cost_units(state) % 3 == 0
    assert _check(state, monkeypatch, state.on_map()[::4]) >= 3
    monkeypatch.setattr(movement, "cost_units", lambda state: 2)
    assert _check(state, monkeypatch, state.on_map()[::4]) >= 3
