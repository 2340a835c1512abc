"""Exact odds before sending (issue 15): five Red Sun Rising attacks and five Red Sun/Red Star firefights,
each checked against a hand computation written here from the printed tables (scenarios/*/tables.yaml).

Cases: RSR 11.2 (odds, rounded for the defender), 11.41 (terrain, river), 11.43 (command units), 11.57 (CRT,
modified die clamped to 0-6, worse than 1-3 automatic), 13.2 (trench); RS/RS 6.4 (effectiveness, fractions
round up), 6.51 (proficiency shift), 6.52 (terrain shift), 6.6 (CRT), 6.62 (morale check and the Morale Option
Table).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rsr.cli import main
from rsr.odds import OddsTable, parse_attack, table_lines
from rsr.rulesets import get_ruleset
from rsr.rulesets.red_star.odds import combat_odds
from rsr.rulesets.red_sun_rising.odds import attack_odds
from rsr.scenario import load_scenario

# RSR 11.57 Land CRT as in scenarios/red-sun-rising/tables.yaml: modified die row 0-6, columns 1-3 .. 4-1.
RSR_COLUMNS = ["1-3", "1-2", "1-1", "2-1", "3-1", "4-1"]
RSR_CRT = {
    0: ["3/1", "2/1", "2/1", "1/-", "1/-", "1/1"],
    1: ["2/1", "1/-", "1/-", "1/-", "1/1", "2/2"],
    2: ["1/-", "1/-", "1/-", "1/1", "2/2", "1/1"],
    3: ["1/-", "1/-", "1/1", "2/2", "1/1", "1/2"],
    4: ["1/-", "1/1", "2/2", "1/1", "1/2", "1/2"],
    5: ["1/1", "2/2", "1/1", "1/2", "1/2", "-/2"],
    6: ["2/2", "1/1", "1/2", "1/2", "-/2", "-/2"],
}
# RS/RS 6.6 CRT as in scenarios/red-star/tables.yaml: die 1-6, columns 1 .. 35+ ("steps/morale").
RS_COLUMNS = ["1", "2", "3", "5", "8", "10", "12", "15", "20", "25", "30", "35+"]
RS_CRT = {
    1: ["-/1", "-/1", "1/1", "1/1", "1/2", "1/2", "2/2", "2/2", "2/3", "3/3", "3/3", "4/3"],
    2: ["-/-", "-/1", "-/1", "1/1", "1/1", "1/2", "1/2", "2/2", "2/2", "2/3", "3/3", "3/3"],
    3: ["-/-", "-/-", "-/1", "-/1", "-/1", "-/2", "-/2", "1/2", "1/2", "2/2", "2/3", "3/3"],
    4: ["-/-", "-/-", "-/-", "-/1", "-/1", "-/2", "-/2", "-/2", "1/2", "1/2", "2/2", "2/3"],
    5: ["-/-", "-/-", "-/-", "-/-", "-/1", "-/1", "-/2", "-/2", "-/2", "1/2", "1/2", "2/2"],
    6: ["-/-", "-/-", "-/-", "-/-", "-/-", "-/1", "-/1", "-/1", "-/2", "-/2", "1/2", "1/2"],
}


def rsr_by_hand(column: str, modifier: int) -> dict[str, Fraction]:
    """Each face of the die, plus the net modifier, clamped to rows 0-6 (11.57)."""
    out: dict[str, Fraction] = {}
    for die in range(1, 7):
        cell = RSR_CRT[min(max(die + modifier, 0), 6)][RSR_COLUMNS.index(column)]
        out[cell] = out.get(cell, Fraction(0)) + Fraction(1, 6)
    return out


def rsr_result(table: OddsTable) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for outcome in table.outcomes:
        key = outcome.text.split(":")[0]
        out[key] = out.get(key, Fraction(0)) + outcome.probability
    return out


@pytest.fixture
def rsr_state() -> Any:
    ruleset = get_ruleset("red-sun-rising")
    return ruleset.initial_state(load_scenario("red-sun-rising", "liaoyang-1904"), {})


def test_rsr_attack_into_mountains_at_1_2(rsr_state: Any) -> None:
    # ru-es9 (4) against jp-cav1 3 + jp-k2 3 = 6 in 1809: 4:6 rounds to 1-2; mountain -2 (11.41)
    table = attack_odds(rsr_state, "russia", "1809", ["ru-es9"])
    assert rsr_result(table) == rsr_by_hand("1-2", -2)
    assert rsr_result(table) == {"2/1": Fraction(2, 6), "1/-": Fraction(3, 6), "1/1": Fraction(1, 6)}
    assert table.total == 1
    assert any("[provisional]" in line for line in table_lines(table))  # row 4 of 1-2 is a stand-in


def test_rsr_attack_with_command_against_a_trench(rsr_state: Any) -> None:
    # 4 x 8 = 32 against ru-es1 8 + ru-es5 4 = 12 in rough 1908 with a level 1 trench: 2-1; rough -1,
    # trench -1, jp-2a command 3 against ru-3m 2: +1 (11.43); net -1
    table = attack_odds(rsr_state, "japan", "1908", ["jp-4", "jp-6", "jp-12", "jp-2"], "jp-2a")
    assert rsr_result(table) == rsr_by_hand("2-1", -1)
    assert sorted(m.split(":")[0] for m in table.how if m.startswith("die")) == ["die +1", "die -1", "die -1"]


def test_rsr_attack_against_a_defending_command_unit(rsr_state: Any) -> None:
    # ru-es1 8 + ru-es5 4 = 12 against jp-4 8 + jp-6 8 = 16: 1-2; rough -1, jp-2a defends alone -1 (11.43)
    table = attack_odds(rsr_state, "russia", "1807", ["ru-es1", "ru-es5"])
    assert rsr_result(table) == rsr_by_hand("1-2", -2)


def test_rsr_attack_worse_than_1_3_is_automatic_and_flagged_hopeless(rsr_state: Any) -> None:
    # the 4:16 attack of the issue: worse than 1-3, 1/- without a die (11.57)
    table = attack_odds(rsr_state, "russia", "1808", ["ru-es9"])
    assert rsr_result(table) == {"1/-": Fraction(1)}
    text = "\n".join(table_lines(table))
    assert "automatic" in text and "hopeless" in text and "no die" in text


def test_rsr_attack_across_a_river(rsr_state: Any) -> None:
    # jp-k2 (3) moved to clear 2108; ru-es3 (8) attacks it from 2008 across the river: 8:3 is 2-1; river -1
    rsr_state.units["jp-k2"].hex = "2108"
    assert rsr_state.static.terrain["2108"] == "clear"
    assert "river" in rsr_state.static.side_features("2008", "2108")
    table = attack_odds(rsr_state, "russia", "2108", ["ru-es3"])
    assert rsr_result(table) == rsr_by_hand("2-1", -1)
    # ru-tr joins from 2007, not across the river: no river modifier any more, and 12:3 is 4-1
    both = attack_odds(rsr_state, "russia", "2108", ["ru-tr", "ru-es3"])
    assert rsr_result(both) == rsr_by_hand("4-1", 0)


# -- Red Sun/Red Star ----------------------------------------------------------------------------------------


def rs_by_hand(column: str, rating: int, factors_in_hex: int) -> dict[str, Fraction]:
    """A firefight by hand: the CRT cell of each die; with a morale result m, the check is allowed when the
    factors left in the hex are at least m, and passes on a morale die of ``rating`` or less (6.62)."""
    out: dict[str, Fraction] = {}

    def add(key: str, p: Fraction) -> None:
        out[key] = out.get(key, Fraction(0)) + p

    for die in range(1, 7):
        cell = RS_CRT[die][RS_COLUMNS.index(column)]
        steps_text, morale_text = cell.split("/")
        steps = 0 if steps_text == "-" else int(steps_text)
        morale = 0 if morale_text == "-" else int(morale_text)
        if not morale:
            add(cell, Fraction(1, 6))
        elif factors_in_hex - steps < morale:
            add(f"{cell} too few", Fraction(1, 6))
        else:
            add(f"{cell}, morale check passed", Fraction(1, 6) * Fraction(rating, 6))
            add(f"{cell}, morale check failed", Fraction(1, 6) * Fraction(6 - rating, 6))
    return {k: v for k, v in out.items() if v}


def rs_result(table: OddsTable) -> dict[str, Fraction]:
    out: dict[str, Fraction] = {}
    for outcome in table.outcomes:
        key = outcome.text.split(":")[0] + (" too few" if "too few" in outcome.text else "")
        out[key] = out.get(key, Fraction(0)) + outcome.probability
    return out


@pytest.fixture
def rs_state() -> Any:
    ruleset = get_ruleset("red-star")
    return ruleset.initial_state(load_scenario("red-star", "july-1939-contact"), {})


def test_rs_defender_armor_fires_at_leg(rs_state: Any) -> None:
    # the Soviet attack on 4414: the Japanese tanks (armor 4 + 5 = 9, x2 against Leg = 18) fire first at the
    # lead unit su-3-9 in 4415: column 15, proficiency 4 against 3: +1 -> column 20. In 4415: su-2-11 (prof 4)
    # and su-3-9 (3): rating 4, 8 factors.
    defence, _ = combat_odds(rs_state, "soviet", "4414", ["su-2-11", "su-3-11", "su-3-9", "su-4-11"])
    assert defence.title.startswith("japan fire (defender)") and "su-3-9 in 4415" in defence.title
    assert rs_result(defence) == rs_by_hand("20", 4, 8)
    assert defence.total == 1


def test_rs_attacker_mixed_classes_round_up(rs_state: Any) -> None:
    # armor 5 + 5 = 10 x1 against Armor, leg 3 + 3 = 6 x 1/2 = 3: 13, column 12; proficiency (4+4+3+3)/4 = 3.5
    # against 4: less than a full point, no shift. 4414 holds jp-3tk 4 + jp-4tk 5 = 9 factors, rating 4.
    _, attack = combat_odds(rs_state, "soviet", "4414", ["su-2-11", "su-3-11", "su-3-9", "su-4-11"])
    assert "fire strength 13" in attack.how[0]
    assert not [h for h in attack.how if h.startswith("shift")]
    assert rs_result(attack) == rs_by_hand("12", 4, 9)


def test_rs_lone_leg_unit_against_armor_shifts_left(rs_state: Any) -> None:
    # su-3-9 alone: leg 3 x 1/2 = 1.5, rounded up to 2 (6.43): column 2; proficiency 3 against 4: -1 -> column 1
    _, attack = combat_odds(rs_state, "soviet", "4414", ["su-3-9"])
    assert rs_result(attack) == rs_by_hand("1", 4, 9)


def test_rs_japanese_infantry_with_too_few_factors_for_a_check(rs_state: Any) -> None:
    # 3 x 4 = 12 leg against leg x1: column 12; proficiency 5 against 3: +2 -> column 20. su-1-149 alone in
    # 4411 (3 factors, rating 3): a morale result larger than the factors left allows no check (6.62)
    defence, attack = combat_odds(rs_state, "japan", "4411", ["jp-1-71", "jp-2-71", "jp-3-71"])
    assert rs_result(attack) == rs_by_hand("20", 3, 3)
    assert any(key.endswith("too few") for key in rs_result(attack))
    # and su-1-149 fires back first: leg 3 x1 = 3, column 3; proficiency 3 against 5: -2 -> column 1; the
    # Japanese hex 4410 holds 12 factors with rating 5
    assert rs_result(defence) == rs_by_hand("1", 5, 12)


def test_rs_dunes_shift_the_column_left(rs_state: Any) -> None:
    # su-1-149 moved to a dunes hex next to jp-1-71's hex across an open hexside: leg 4 x1 = 4: column 3;
    # proficiency 5 against 3: +2; dunes -1 (6.52): net +1 -> column 5. su-1-149 alone: 3 factors, rating 3.
    static = rs_state.static
    target = next(h for h in sorted(static.terrain) if static.terrain[h] == "dunes"
                  and any(not static.side_features(h, n) and static.terrain[n] != "dunes"
                          for n in static.neighbours(h)))
    firer_hex = next(n for n in static.neighbours(target) if not static.side_features(target, n)
                     and static.terrain[n] != "dunes")
    for unit in rs_state.units.values():
        if unit.on_map and unit.id not in ("jp-1-71", "su-1-149"):
            unit.hex = "1301" if unit.side == "soviet" else "5052"
    rs_state.units["su-1-149"].hex = target
    rs_state.units["jp-1-71"].hex = firer_hex
    _, attack = combat_odds(rs_state, "japan", target, ["jp-1-71"])
    assert [h.split(":")[0] for h in attack.how if h.startswith("shift")] == ["shift +2", "shift -1"]
    assert rs_result(attack) == rs_by_hand("5", 3, 3)


# -- through the command line ------------------------------------------------------------------------------


def test_parse_attack_refuses_a_bad_spec() -> None:
    assert parse_attack("1809:ru-es9,ru-es1/ru-3m").units == ("ru-es9", "ru-es1")
    result = CliRunner().invoke(main, ["odds", ".", "18O9:ru-es9"])
    assert result.exit_code == 2 and "HEX:UNIT,UNIT" in result.output


def cli_game_after_acceptance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str, scenario: str,
                              inviter: str, acceptor: str) -> Path:
    """Two homes through the CLI: ``inviter`` invites, ``acceptor`` accepts, the inviter receives the
    acceptance; returns the inviter's game directory (its RSR_HOME left set)."""
    runner = CliRunner()
    homes = {side: tmp_path / f"{side}-home" for side in (inviter, acceptor)}
    for side in (acceptor, inviter):
        monkeypatch.setenv("RSR_HOME", str(homes[side]))
        assert runner.invoke(main, ["key", "new", side]).exit_code == 0
    made = runner.invoke(main, ["new", str(tmp_path / inviter), "--ruleset", ruleset, "--scenario", scenario,
                                "--side", inviter, "--key", inviter])
    assert made.exit_code == 0, made.output
    game_dir = next((tmp_path / inviter).glob("game-*"))
    invite = next((game_dir / "turns").glob("*"))
    monkeypatch.setenv("RSR_HOME", str(homes[acceptor]))
    accepted = runner.invoke(main, ["accept", str(invite), "--key", acceptor, "--dir", str(tmp_path / acceptor)])
    assert accepted.exit_code == 0, accepted.output
    other_dir = next((tmp_path / acceptor).glob("game-*"))
    monkeypatch.setenv("RSR_HOME", str(homes[inviter]))
    received = runner.invoke(main, ["receive", str(game_dir), str(sorted((other_dir / "turns").glob("*"))[-1])])
    assert received.exit_code == 0, received.output
    return game_dir


def _play_to_first_attack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Russia invites, Japan accepts: Russia's first packet answers the assault-round attack request."""
    return cli_game_after_acceptance(tmp_path, monkeypatch, "red-sun-rising", "liaoyang-1904", "russia", "japan")


def test_orders_check_prints_the_odds_of_each_attack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game_dir = _play_to_first_attack(tmp_path, monkeypatch)
    template = CliRunner().invoke(main, ["orders", "template", str(game_dir)])
    assert "attacks" in template.output, template.output
    request = next(line.split(":", 1)[1].strip() for line in template.output.splitlines()
                   if line.strip().startswith("- request:") or line.strip().startswith("request:"))
    orders = tmp_path / "orders.yaml"
    orders.write_text(f"inputs:\n  - request: {request}\n    answer:\n      attacks:\n"
                      "        - {hex: '1809', attackers: [ru-es9]}\n"
                      "        - {hex: '1807', attackers: [ru-es1, ru-es5]}\n")
    checked = CliRunner().invoke(main, ["orders", "check", str(game_dir), str(orders)])
    assert checked.exit_code == 0, checked.output
    out = checked.output
    assert "odds (exact" in out
    assert "russia attacks 1809 with ru-es9" in out and "russia attacks 1807 with ru-es1, ru-es5" in out
    assert " 33.3%     2/6  2/1" in out  # hand computation above: 1-2 with -2, dice 1 and 2 give 2/1
    assert "[provisional]" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    odds = CliRunner().invoke(main, ["odds", str(game_dir), "1808:ru-es9"])
    assert odds.exit_code == 0, odds.output
    assert "hopeless" in odds.output and "100.0%" in odds.output


def test_rs_hasty_attack_odds_fire_from_the_end_of_the_move(rs_state: Any) -> None:
    # RS/RS 7.5: su-1-149 moves 4411 -> 4310 and attacks 4410 hasty; the odds count it firing from 4310
    from rsr.rulesets.red_star.odds import odds_for_answer

    answer = {"moves": [{"units": ["su-1-149"], "path": ["4310"], "hasty": [{"hex": "4410", "units": ["su-1-149"]}]}]}
    tables = odds_for_answer(rs_state, answer)
    assert tables and all(t.title.startswith("hasty attack from 4310") for t in tables)
    attack = tables[-1]
    assert "soviet fire (attacker): su-1-149 at" in attack.title
    assert attack.total == 1
    assert rs_state.units["su-1-149"].hex == "4411"  # the position itself is untouched
