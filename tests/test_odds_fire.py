"""Exact odds of Red Sun/Red Star fire missions before they are sent (issue 15): bombardments and an
interdiction, each checked against a hand computation written here from the Bombardment and Interdiction
Tables of scenarios/red-star/tables.yaml (stand-in cells, so every outcome is marked provisional).

Direct fire support (5.31 offensive, 5.32 defensive) joins the firefight odds of a combat.

Cases: RS/RS 5.21 (bombardment, one die, the Player Aid's highest column not above the strength), 5.22
(interdiction marker and the Interdiction Table), 5.51 (a gun out of range is wasted), 5.53 (spotting modifier
by the distance to the nearest friendly unit), 5.3, 5.31, 5.32 (direct fire support), 5.7 (disruption markers),
6.21 (attack choices), 6.43 (effectiveness, rounded up), 6.51 (proficiency shift), 6.6 (CRT).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rsr.cli import main
from rsr.errors import BadInput
from rsr.odds import FireSpec, OddsTable, parse_spec, table_lines
from rsr.rulesets import get_ruleset
from rsr.rulesets.red_star.odds import fire_odds_for_spec, odds_for_answer
from rsr.scenario import load_scenario
from tests.test_odds import cli_game_after_acceptance
from tests.test_odds import rsr_result as codes  # each outcome's code and its chance

# Bombardment Table (tables.yaml, stand-in cells): columns 1 .. 30+, rows die 1 .. 6+.
BOMB_COLUMNS = [1, 3, 5, 8, 12, 15, 20, 25, 30]
BOMB = {
    1: ["d", "D", "D", "X", "X", "X", "X", "X", "X"],
    2: ["-", "d", "D", "D", "X", "X", "X", "X", "X"],
    3: ["-", "-", "d", "D", "D", "X", "X", "X", "X"],
    4: ["-", "-", "-", "d", "D", "D", "X", "X", "X"],
    5: ["-", "-", "-", "-", "d", "D", "D", "X", "X"],
    6: ["-", "-", "-", "-", "-", "d", "D", "D", "X"],
}
# Interdiction Table (tables.yaml, stand-in cells): columns 1 .. 8+, extra MP.
INTER = {
    1: [2, 2, 3, 3, 4, 4, 5, 6],
    2: [1, 2, 2, 3, 3, 4, 4, 5],
    3: [1, 1, 2, 2, 3, 3, 4, 4],
    4: [0, 1, 1, 2, 2, 3, 3, 4],
    5: [0, 0, 1, 1, 2, 2, 3, 3],
    6: [0, 0, 0, 1, 1, 2, 2, 3],
}


def column_of(columns: list[int], strength: int) -> int:
    """Player Aid: the highest column not above the strength (7 factors use the 5 column)."""
    return max(i for i, c in enumerate(columns) if c <= strength)


def bomb_by_hand(strength: int, spotting: int) -> dict[str, Fraction]:
    column = column_of(BOMB_COLUMNS, strength)
    out: dict[str, Fraction] = {}
    for die in range(1, 7):
        code = BOMB[min(die + spotting, 6)][column]  # a modified roll above 6 reads the 6+ row
        out[code] = out.get(code, Fraction(0)) + Fraction(1, 6)
    return out


@pytest.fixture
def state() -> Any:
    ruleset = get_ruleset("red-star")
    return ruleset.initial_state(load_scenario("red-star", "july-1939-artillery"), {})


def odds(state: Any, text: str) -> OddsTable:
    spec = parse_spec(text)
    assert isinstance(spec, FireSpec)
    tables = fire_odds_for_spec(state, spec)
    assert len(tables) == 1
    return tables[0]


def test_bombardment_4_factors_near_friends(state: Any) -> None:
    """RS/RS 5.21, RS/RS 5.53, RS/RS 6.43: a bombardment by one gun, no spotting modifier."""
    # jp-3-13-art (4) on su-2-149 (Leg, x1): 4 -> column 3; nearest Japanese unit 4 hexes away: +0 (5.53)
    table = odds(state, "bombard:su-2-149:jp-3-13-art")
    assert codes(table) == bomb_by_hand(4, 0)
    assert codes(table) == {"D": Fraction(1, 6), "d": Fraction(1, 6), "-": Fraction(4, 6)}
    assert table.probability_of('D: su-2-149 receives a "2" marker') == Fraction(1, 6)
    assert table.total == 1
    assert all(o.provisional for o in table.outcomes)
    lines = table_lines(table)
    assert any("[provisional]" in line for line in lines)
    assert any("provisional data: Bombardment Table cells" in line for line in lines)
    assert any("column 3" in line for line in lines) and not table.warnings


def test_bombardment_7_factors_reads_the_5_column(state: Any) -> None:
    """RS/RS 5.21: the highest column not above the strength."""
    # jp-1-13-art (3) + jp-3-13-art (4) on su-1-149: 7 -> column 5, not 8 (Player Aid example)
    table = odds(state, "bombard:su-1-149:jp-1-13-art,jp-3-13-art")
    assert codes(table) == bomb_by_hand(7, 0)
    assert codes(table) == {"D": Fraction(2, 6), "d": Fraction(1, 6), "-": Fraction(3, 6)}
    assert any("column 5" in h for h in table.how)
    assert any("4 support points" in h for h in table.how)


def test_bombardment_of_a_far_hq_with_spotting_and_a_wasted_gun(state: Any) -> None:
    """RS/RS 5.53 spotting +1, RS/RS 5.51 a wasted gun, RS/RS 6.43 the HQ column."""
    # su-1ag-hq in 4220: nearest Japanese unit 11 hexes away -> +1 (5.53). jp-m-art (4, range 16) x2 against
    # an HQ (errata S&T 158) = 8 -> column 8; jp-1ind-art (range 9) is 16 hexes away: wasted (5.51)
    table = odds(state, "bombard:su-1ag-hq:jp-m-art,jp-1ind-art")
    assert codes(table) == bomb_by_hand(8, 1)
    # by hand, column 8 read one row lower: die 1 -> row 2 D, 2 -> row 3 D, 3 -> row 4 d, 4-6 -> rows 5, 6, 6+ -
    assert codes(table) == {"D": Fraction(2, 6), "d": Fraction(1, 6), "-": Fraction(3, 6)}
    assert any("spotting +1" in h and "11 hex" in h for h in table.how)
    assert any("jp-1ind-art" in w and "wasted" in w and "5.51" in w for w in table.warnings)
    assert not any(w.startswith(("hopeless", "automatic")) for w in table.warnings)


def test_bombardment_of_a_unit_already_at_2_is_hopeless(state: Any) -> None:
    """RS/RS 5.21, RS/RS 5.7: a marker is never lowered, so this bombardment is hopeless."""
    # su-2-149 already holds a "2" marker: column 3 gives only D, d and - (5.7: a marker is never lowered)
    state.units["su-2-149"].disruption = 2
    table = odds(state, "bombard:su-2-149:jp-3-13-art")
    assert codes(table) == bomb_by_hand(4, 0)
    assert any(w.startswith("hopeless") for w in table.warnings)
    assert any("WARNING: hopeless" in line for line in table_lines(table))


def test_bombardment_of_30_or_more_is_automatic(state: Any) -> None:
    """RS/RS 5.21: the 30 column gives X on every die: automatic."""
    # su-1ag-hq moved to 4909 (open desert, our test position): five guns 3+4+3+3+4 = 17 factors x2 = 34 ->
    # column 30, every row X whatever the spotting
    state.units["su-1ag-hq"].hex = "4909"
    table = odds(state, "bombard:su-1ag-hq:jp-1-13-art,jp-3-13-art,jp-1ind-art,jp-2-13-art,jp-m-art")
    assert codes(table) == bomb_by_hand(34, 0) == {"X": Fraction(1)}
    assert any(w.startswith("automatic") for w in table.warnings)
    assert any("10 support points of 10" in h for h in table.how)


def test_interdiction_of_a_road_hex(state: Any) -> None:
    """RS/RS 5.22, RS/RS 5.53, RS/RS 7.3: the Interdiction Table for a stack entering the hex."""
    # 4006 by jp-2-13-art (3) + jp-m-art (4) + jp-71-art (1): an 8-factor marker -> column 8, spotting +0
    table = odds(state, "interdict:4006:jp-2-13-art,jp-m-art,jp-71-art")
    by_hand: dict[int, Fraction] = {}
    for die in range(1, 7):
        mp = INTER[die][column_of([1, 2, 3, 4, 5, 6, 7, 8], 8)]
        by_hand[mp] = by_hand.get(mp, Fraction(0)) + Fraction(1, 6)
    got = {int(o.text.split()[0]): o.probability for o in table.outcomes}
    assert got == by_hand == {6: Fraction(1, 6), 5: Fraction(1, 6), 4: Fraction(2, 6), 3: Fraction(2, 6)}
    assert all(o.provisional for o in table.outcomes)
    assert any("6 in operational movement" in o.text for o in table.outcomes)  # 7.3 doubles it


def test_missions_of_an_orders_answer_are_checked_whole(state: Any) -> None:
    """RS/RS 5.2, RS/RS 5.0: the whole order is checked by the rules."""
    answer = {"missions": [{"bombard": "su-2-149", "artillery": ["jp-3-13-art"]},
                           {"interdict": "4006", "artillery": ["jp-2-13-art"]}]}
    tables = odds_for_answer(state, answer)
    assert [t.title.split(":")[0] for t in tables] == ["mission 1", "mission 2"]
    with pytest.raises(BadInput, match="not artillery"):
        odds_for_answer(state, {"missions": [{"bombard": "su-2-149", "artillery": ["jp-1-71"]}]})


# RS/RS 6.6 CRT cells (tables.yaml) of the two columns used below, die 1 .. 6.
CRT_2 = ["-/1", "-/1", "-/-", "-/-", "-/-", "-/-"]
CRT_15 = ["2/2", "2/2", "1/2", "-/2", "-/2", "-/1"]


def crt_cells(table: OddsTable) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for outcome in table.outcomes:
        cell = outcome.text.split(":")[0].split(",")[0]
        out[cell] = out.get(cell, Fraction(0)) + outcome.probability
    return out


def by_column(cells: list[str]) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for cell in cells:
        out[cell] = out.get(cell, Fraction(0)) + Fraction(1, 6)
    return out


def test_offensive_support_joins_the_attackers_fire(state: Any) -> None:
    """RS/RS 5.3, RS/RS 5.31, RS/RS 6.4, RS/RS 6.51, RS/RS 6.6: offensive support."""
    # 4411: jp-1-71 + jp-2-71 (Leg 4 + 4) with jp-1-13-art's 3 as Weapons Direct Fire (x1 against Leg) = 11 ->
    # column 10; proficiency 5 vs 3: +2 -> column 15 (5.31, 6.4, 6.51)
    from rsr.rulesets.red_star.odds import combat_odds

    tables = combat_odds(state, "japan", "4411", ["jp-1-71", "jp-2-71"], guns=("jp-1-13-art",))
    attack = tables[-1]
    assert "japan fire (attacker)" in attack.title
    assert any("fire strength 11" in h and "jp-1-13-art, support" in h for h in attack.how)
    assert crt_cells(attack) == by_column(CRT_15)
    assert any("offensive support" in h and "1 support point" in h for h in attack.how)
    without = combat_odds(state, "japan", "4411", ["jp-1-71", "jp-2-71"])[-1]
    assert any("fire strength 8" in h for h in without.how)
    with pytest.raises(BadInput, match="not artillery"):
        combat_odds(state, "japan", "4411", ["jp-1-71"], guns=("jp-2-71",))


def test_a_defending_gun_in_the_hex_supports_for_free(state: Any) -> None:
    """RS/RS 5.32, RS/RS 6.6: defensive support by a gun in the attacked hex."""
    # su-149-art moved into 4411 with su-1-149: the defender's fire is Leg 3 + Weapons Direct Fire 2 = 5 ->
    # column 5; proficiency 3 vs 5: -2 -> column 2 (5.32, S&T 158 errata: free in the attacked hex)
    from rsr.rulesets.red_star.odds import combat_odds

    state.units["su-149-art"].hex = "4411"
    defence = combat_odds(state, "japan", "4411", ["jp-1-71", "jp-2-71"])[0]
    assert "soviet fire (defender)" in defence.title
    assert any("fire strength 5" in h for h in defence.how)
    assert crt_cells(defence) == by_column(CRT_2)
    assert any("defensive support" in h and "free" in h for h in defence.how)


def test_attack_choices_with_support_of_a_declared_combat() -> None:
    """RS/RS 6.21, RS/RS 5.31: the attack choices of a declared combat."""
    # the combat on 4411 is declared; the attack choices name jp-1-13-art: the attacker's fire is 11 -> column
    # 10, +2 -> 15, as in the hand computation above (5.31, 6.21)
    from rsr.engine import enqueue, initial_position, resolve_pass
    from rsr.fairdice import ScriptedDice

    ruleset = get_ruleset("red-star")
    position = initial_position(ruleset, load_scenario("red-star", "july-1939-artillery"), {})
    inputs = [{"request": "t1/japan/artillery/missions", "answer": {"missions": []}},
              {"request": "t1/japan/prepared/combats",
               "answer": {"combats": [{"hex": "4411", "attackers": ["jp-1-71", "jp-2-71"]}]}}]
    enqueue(position, 1000, "japan", inputs)
    after, result = resolve_pass(ruleset, position, ScriptedDice([]))
    assert result.waiting is not None and result.waiting.kind == "attack-choices"
    answer = {"combats": {"t1/japan/prepared/c1": {"lead": "jp-1-71", "support": ["jp-1-13-art"]},
                          "t1/japan/prepared/c9": {"lead": "jp-1-64"}}}
    tables = odds_for_answer(after.state, answer)
    assert tables[0].title.startswith("t1/japan/prepared/c9: not declared")
    attack = tables[-1]
    assert attack.title.startswith("t1/japan/prepared/c1: japan fire (attacker)")
    assert any("fire strength 11" in h for h in attack.how)
    assert crt_cells(attack) == by_column(CRT_15)


# -- through the command line ------------------------------------------------------------------------------


def _game_at_fire_missions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Japan invites on the artillery test position, the Soviets accept: Japan's next packet answers the
    fire-missions request."""
    game_dir = cli_game_after_acceptance(tmp_path, monkeypatch, "red-star", "july-1939-artillery", "japan", "soviet")
    status = CliRunner().invoke(main, ["status", str(game_dir)])
    assert "t1/japan/artillery/missions" in status.output, status.output
    return game_dir


def test_fire_odds_through_the_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """RS/RS 5.21, RS/RS 5.22, RS/RS 5.31, RS/RS 5.51: rsr orders check and rsr odds as a player uses them."""
    game_dir = _game_at_fire_missions(tmp_path, monkeypatch)
    orders = tmp_path / "orders.yaml"
    orders.write_text("inputs:\n  - request: t1/japan/artillery/missions\n    answer:\n      missions:\n"
                      "        - {bombard: su-2-149, artillery: [jp-3-13-art]}\n")
    before = sorted(p.name for p in (game_dir / "turns").iterdir())
    checked = CliRunner().invoke(main, ["orders", "check", str(game_dir), str(orders)])
    assert checked.exit_code == 0, checked.output
    out = checked.output
    assert "mission 1: japan bombards su-2-149 in 4414 with jp-3-13-art" in out
    assert " 66.7%     4/6  -: no effect (die 3; 4; 5; 6) [provisional]" in out  # by hand: column 3, +0
    assert "provisional data: Bombardment Table cells" in out
    section = out.split("odds (exact, every face of every die):", 1)[1]
    assert max(len(line) for line in section.splitlines()) <= 80
    assert sorted(p.name for p in (game_dir / "turns").iterdir()) == before  # nothing written
    # RS/RS 5.2: one mission an answer; the interdiction would be the next one asked
    orders.write_text("inputs:\n  - request: t1/japan/artillery/missions\n    answer:\n      missions:\n"
                      "        - {interdict: '4006', artillery: [jp-2-13-art, jp-m-art, jp-71-art]}\n")
    checked = CliRunner().invoke(main, ["orders", "check", str(game_dir), str(orders)])
    assert checked.exit_code == 0, checked.output
    assert "mission 1: japan interdicts 4006" in checked.output and " 16.7%     1/6  6 extra MP" in checked.output
    far = CliRunner().invoke(main, ["odds", str(game_dir), "bombard:su-1ag-hq:jp-m-art,jp-1ind-art"])
    assert far.exit_code == 0, far.output
    assert "spotting +1" in far.output and " 33.3%     2/6  D: su-1ag-hq" in far.output
    assert "WARNING: jp-1ind-art in 4405 cannot reach 4220" in far.output
    bad = CliRunner().invoke(main, ["odds", str(game_dir), "bombard:su-2-149:jp-1-71"])
    assert bad.exit_code == 2 and "not artillery" in bad.output and "Traceback" not in bad.output
    supported = CliRunner().invoke(main, ["odds", str(game_dir), "4411:jp-1-71,jp-2-71+jp-1-13-art"])
    assert supported.exit_code == 0, supported.output
    assert "fire strength 11" in supported.output and "final column 15" in supported.output
    syntax = CliRunner().invoke(main, ["odds", str(game_dir), "bombard:su-2-149"])
    assert syntax.exit_code == 2 and "bombard:UNIT:GUN,GUN" in syntax.output
