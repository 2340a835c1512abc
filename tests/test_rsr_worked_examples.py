"""Every numeric worked example of the Red Sun Rising rulebook, recomputed from the shipped data and rules.

Each test names the case whose example it recomputes. The examples of the land game are 11.51 (a division
8-2-5 reduced to 4-1-5, then eliminated), 11.52 (a brigade 3-1-7 eliminated by one step loss), 13.2 (Port
Arthur with a level-2 trench: the die is reduced by four) and the printed part of the Land Combat Results
Table with its reading rules (11.57). The figures fixed by the text that the examples rely on are checked
too: the 9.46 chart, 10.12 starting supply, 10.21 fleet capacity, 17.22 replacement months, the 19.4
schedule and the calendar of 18.8/19.4. The missing CRT cells are re-derived from the printed ones, so
each cell's provenance must say truthfully which printed cell (or which stand-in) it copies.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from rsr.engine import Context
from rsr.fairdice import NoDice
from rsr.provenance import is_provisional
from rsr.rulesets import get_ruleset
from rsr.rulesets.red_sun_rising import combat, supply, victory
from rsr.rulesets.red_sun_rising.crt import COLUMNS, odds_column
from rsr.rulesets.red_sun_rising.data import Static, load_static
from rsr.rulesets.red_sun_rising.state import Attack, RsrState, Unit
from rsr.scenario import load_scenario

PRINTED_CRT = {  # RSR 11.57, as printed (rows 0-2 whole, row 3 first three cells)
    0: ["3/1", "2/1", "2/1", "1/-", "1/-", "1/1"],
    1: ["2/1", "1/-", "1/-", "1/-", "1/1", "2/2"],
    2: ["1/-", "1/-", "1/-", "1/1", "2/2", "1/1"],
    3: ["1/-", "1/-", "1/1"],
}


def static() -> Static:
    return load_static(load_scenario("red-sun-rising", "korea-1904").data)


def fresh_state(units: list[Unit], **extra: Any) -> RsrState:
    state = RsrState(static=static(), sequence=["end"], turns=1, turn=7, last_turn=7)
    state.units = {u.id: u for u in units}
    for key, value in extra.items():
        setattr(state, key, value)
    return state


def text(state: RsrState, unit: Unit) -> str:
    values = state.static.counter(unit.id).values(unit.steps)
    return f"{values.strength}-{values.command}-{values.movement}"


# -- 11.51, 11.52: step reduction ------------------------------------------------------------------------


def test_11_51_division_8_2_5_reduces_to_4_1_5_then_is_eliminated() -> None:
    """RSR 11.51, RSR 11.54: the division example."""
    data = static()
    examples = [c for c in data.counters.values() if "11.51 example division 8-2-5" in c.provenance]
    assert examples, "the counter data takes its standard division from the 11.51 example"
    for counter in examples:
        unit = Unit(counter.id, counter.side, "2322", counter.steps)
        state = fresh_state([unit])
        assert counter.steps == 2 and text(state, unit) == "8-2-5"
        ctx = Context(NoDice())
        combat.lose_step(state, ctx, unit)
        assert (unit.steps, unit.hex, text(state, unit)) == (1, "2322", "4-1-5")
        combat.lose_step(state, ctx, unit)
        assert (unit.steps, unit.hex) == (0, None)  # 11.51, 11.54: permanently eliminated


def test_11_52_brigade_3_1_7_is_eliminated_by_one_step_loss() -> None:
    """RSR 11.52: the brigade example."""
    data = static()
    examples = [c for c in data.counters.values() if "11.52 example brigade 3-1-7" in c.provenance]
    assert examples, "the counter data takes its cavalry brigade from the 11.52 example"
    for counter in examples:
        unit = Unit(counter.id, counter.side, "2322", counter.steps)
        state = fresh_state([unit])
        assert counter.steps == 1 and text(state, unit) == "3-1-7"
        combat.lose_step(state, Context(NoDice()), unit)
        assert (unit.steps, unit.hex) == (0, None)


# -- 13.2: fortress and trench ------------------------------------------------------------------------------


def test_13_2_port_arthur_with_a_level_2_trench_reduces_the_die_by_four() -> None:
    """RSR 13.2, RSR 11.42, RSR 13.0: the Port Arthur example."""
    state = fresh_state([], trenches={"0801": 2})
    assert state.static.is_fortress("0801")
    mods = combat.defensive_position_modifiers(state, "0801")
    assert sum(m.value for m in mods) == -4  # two for the fortress, one for each trench level
    assert sorted(m.case for m in mods) == ["RSR 13.2", "RSR 13.2"]
    state.destroyed_fortresses = ["0801"]  # 13.0: a destroyed fortress no longer counts
    assert sum(m.value for m in combat.defensive_position_modifiers(state, "0801")) == -2


def test_13_2_whole_attack_on_port_arthur_adds_every_modifier() -> None:
    """RSR 13.2 with RSR 11.43: other modifiers add to the -4; here a defending command unit's -1."""
    units = [Unit("jp-3a", "japan", "0802", 1), Unit("jp-2", "japan", "0802", 2, True, True, "jp-3a"),
             Unit("ru-pa-stoessel", "russia", "0801", 1),
             Unit("ru-es3", "russia", "0801", 1, assigned_to="ru-pa-stoessel")]
    state = fresh_state(units, trenches={"0801": 2})
    attack = Attack("0801", ["jp-2"])
    defenders = combat.combat_units_in(state, "0801", "russia")
    odds = combat.compute_odds(state, attack, defenders, None, combat.defending_command(state, "0801", "russia"))
    fortress_and_trench = [m for m in odds.modifiers if m.case == "RSR 13.2"]
    assert sum(m.value for m in fortress_and_trench) == -4
    assert odds.total_modifier == -4 + sum(m.value for m in odds.modifiers if m.case != "RSR 13.2")


# -- 11.57: the Land Combat Results Table -------------------------------------------------------------------


def test_11_57_printed_cells_are_the_data_and_say_rulebook() -> None:
    """RSR 11.57: the printed cells."""
    crt = static().crt
    for row, results in PRINTED_CRT.items():
        for column, result in zip(COLUMNS, results, strict=False):
            cell = crt.cells[(row, column)]
            assert cell.text == result, f"row {row} {column}"
            assert cell.provenance == "rulebook: 11.57"


def test_11_57_reading_rules() -> None:
    """RSR 11.57, RSR 11.2: die range, ratio limits, automatic 1/-."""
    crt = static().crt
    assert crt.lookup(-3, "1-1") == crt.cells[(0, "1-1")]  # below 0 reads as 0
    assert crt.lookup(9, "2-1") == crt.cells[(6, "2-1")]   # above 6 reads as 6
    assert odds_column(40, 8) == "4-1"                      # above 4-1 reads as 4-1
    assert odds_column(2, 8) is None                        # worse than 1-3: no die
    assert crt.below_lowest.text == "1/-" and not is_provisional(crt.below_lowest.provenance)
    # the combat strengths of the examples: two 8-2-5 divisions against one is 2-1; a 3-1-7 brigade
    # against an 8-2-5 division is 1-3 (the ratio is rounded for the defender, interpretations.md 11.2)
    assert odds_column(16, 8) == "2-1"
    assert odds_column(3, 8) == "1-3"
    assert odds_column(4, 8) == "1-2"


def _origin(row: int, col: int) -> tuple[str, int, int]:
    """Where the shift-left pattern takes a cell from: a printed cell, or a stand-in in the 4-1 column."""
    if row in PRINTED_CRT and col < len(PRINTED_CRT[row]):
        return "printed", row, col
    if col == len(COLUMNS) - 1:
        return "stand-in", row, col
    return _origin(row - 1, col + 1)


@pytest.mark.parametrize("row", [3, 4, 5, 6])
def test_11_57_missing_cells_follow_the_pattern_and_say_what_they_copy(row: int) -> None:
    """RSR 11.57: provenance of the cells the text lacks."""
    crt = static().crt
    for col, column in enumerate(COLUMNS):
        cell = crt.cells[(row, column)]
        kind, orow, ocol = _origin(row, col)
        if kind == "printed":
            assert cell.text == PRINTED_CRT[orow][ocol], f"row {row} {column}"
            if (orow, ocol) != (row, col):
                assert is_provisional(cell.provenance)
                assert f"printed row {orow}, column {COLUMNS[ocol]}" in cell.provenance
        elif (orow, ocol) == (row, col):
            assert cell.provenance.startswith("provisional: stand-in beyond the printed pattern")
        else:
            assert cell.text == crt.cells[(orow, COLUMNS[ocol])].text
            assert f"copying our own stand-in at row {orow}, column {COLUMNS[ocol]}" in cell.provenance
            assert "derived from a stand-in" in cell.provenance


# -- figures the examples rely on ---------------------------------------------------------------------------


def test_9_46_terrain_effects_chart() -> None:
    """RSR 9.46: the chart's figures."""
    data = static()
    chart = {t: (e.move, e.stacking, e.die) for t, e in data.terrain_effects.items() if t != "sea"}
    assert chart == {"clear": (Fraction(1, 2), 12, 0), "rough": (Fraction(1), 6, -1),
                     "mountain": (Fraction(2), 4, -2)}
    features = data.feature_effects
    assert (features["rail"].move, features["rail"].stacking) == (Fraction(0), 4)
    assert features["road"].move == Fraction(1, 3)
    assert (features["river"].move, features["river"].die) == (Fraction(1), -1)
    assert features["fortress"].die == -2 and features["trench"].die == -1


def test_10_12_starting_supply_and_10_21_fleet_capacity() -> None:
    """RSR 10.12, RSR 10.15, RSR 10.21."""
    scenario = load_scenario("red-sun-rising", "korea-1904")
    state = get_ruleset("red-sun-rising").initial_state(scenario, {})
    assert state.supply_levels["0801"] == 6 and state.supply_levels["2937"] == 3
    assert supply.FLEET_CAPACITY == 4 and supply.FORTRESS_SUPPLY_CAP == 12  # 10.21, 10.15


def test_17_22_replacement_months_and_the_calendar() -> None:
    """RSR 17.22, RSR 18.8, RSR 19.4: months of the track."""
    turns = static().turns
    assert len(turns) == 23 and turns[0].month == "1904-02" and turns[-1].month == "1905-12"  # 18.8, 19.4
    months = {t.month[-2:] for t in turns if t.japanese_replacement_step}
    assert months == {"01", "04", "07", "10"}


@pytest.mark.parametrize("cities, winner, level", [
    (0, "russia", "decisive"), (1, "russia", "decisive"), (2, "russia", "substantial"),
    (3, "russia", "marginal"), (4, "japan", "marginal"), (5, "japan", "substantial"),
    (6, "japan", "decisive"), (7, "japan", "decisive"),
])
def test_19_4_victory_schedule(cities: int, winner: str, level: str) -> None:
    """RSR 19.4: the schedule of victory levels."""
    assert victory.level_for(cities) == (winner, level)
