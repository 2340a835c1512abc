"""The numeric worked examples of the Red Sun/Red Star rulebook, recomputed from the shipped data and rules.

2.4 (step losses and replacement credit), 4.23 (the 1/24 battalion's replacement costs and where it may
return) and 10.1 (the northern supply edge east of the westernmost Japanese unit). The examples of play's
CRT cells and chart entries are pinned in tests/test_red_star_data.py; the artillery (5.43) and reserve
(7.62) examples belong to rules not implemented yet.
"""

from __future__ import annotations

import copy
from typing import Any

from rsr.engine import Context, initial_position
from rsr.fairdice import NoDice
from rsr.rulesets import get_ruleset
from rsr.rulesets.red_star import force
from rsr.rulesets.red_star.losses import lose_factors
from rsr.rulesets.red_star.state import REPLACEMENTS, RsState
from rsr.rulesets.red_star.terrain import current, supply_sources
from rsr.scenario import Scenario, load_scenario


def position(setup: list[dict[str, Any]], **extra: Any) -> RsState:
    base = load_scenario("red-star", "july-1939")
    data = copy.deepcopy(base.data)
    data["scenario"].update({"setup": setup, "turns": [{"date": "2 July"}], "restrictions": [],
                             "support_points": {"japan": 0, "soviet": 0}, "start": "japan.prepared-combat",
                             **extra})
    state: RsState = initial_position(get_ruleset("red-star"), Scenario("red-star", "t", data, "t"), {}).state
    return state


def test_2_4_step_losses_and_credit() -> None:
    """RS/RS 2.4: a 4-point unit losing one step flips to its 2-point side and 1 point is credited; a second
    step loss eliminates it and the remaining point is credited again."""
    state = position([{"unit": "jp-1-64", "hex": "4410"}, {"unit": "su-1-149", "hex": "4420"}],
                     replacement_points={"japan": {"leg": 0}, "soviet": {}})
    unit = state.units["jp-1-64"]
    assert current(state, unit) == 4
    ctx = Context(NoDice())
    lose_factors(state, ctx, [unit], 1, "example", "RS/RS 2.4")
    assert unit.reduced and current(state, unit) == 2
    assert state.replacement_points["japan"]["leg"] == 1
    lose_factors(state, ctx, [unit], 1, "example", "RS/RS 2.4")
    assert not unit.on_map and state.replacement_points["japan"]["leg"] == 2


def test_4_23_the_1_24_battalion() -> None:
    """RS/RS 4.23: 1/24 is 3 factors, 1 reduced; restoring it costs 2 (1 point is not enough); eliminated in
    supply it returns reduced for 1 point or full for 3, next to any unit marked 24 or the 1AG corps HQ."""
    state = position([{"unit": "su-1-24", "hex": "2030", "reduced": True}, {"unit": "su-24-art", "hex": "2040"},
                      {"unit": "su-1ag-hq", "hex": "2237"}, {"unit": "su-2-149", "hex": "2050"},
                      {"unit": "jp-1-64", "hex": "4410"}])
    unit = state.units["su-1-24"]
    counter = state.counter("su-1-24")
    assert (counter.full.combat, counter.reduced.combat) == (3, 1)  # type: ignore[union-attr]
    assert force.restore_cost(state, unit) == 2
    assert (counter.face(True).combat, counter.face(False).combat) == (1, 3)
    unit.status, unit.hex, unit.reduced = REPLACEMENTS, None, False
    allowed = set(force.return_hexes(state, unit))
    grid = state.static.grid
    for anchor in ("2040", "2237"):
        assert anchor in allowed and all(h in allowed for h in grid.neighbours(anchor) if h in state.static.terrain)
    assert "2050" not in allowed  # 2/149 bears another formation number


def test_10_1_the_northern_edge() -> None:
    """RS/RS 10.1: with the westernmost Japanese unit in 2010, the northern edge from the 21xx row east is a
    Japanese supply source, and nothing west of it."""
    state = position([{"unit": "jp-1-64", "hex": "2010"}, {"unit": "su-1-149", "hex": "4420"}])
    north = next(e for e in state.static.supply_edges if e.side == "japan" and e.edge == "north")
    sources = set(supply_sources(state, "japan"))
    for hex_id in north.hexes:
        line = int(hex_id[:2])
        assert (hex_id in sources) == (line >= 21), hex_id
