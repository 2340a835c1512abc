"""The naval readings the text leaves open offered as rules options (interpretations.md, "Naval readings the text
leaves open"): each is off by default, and on it changes exactly the rule it names."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rsr.cli import main
from rsr.engine import Context
from rsr.fairdice import ScriptedDice
from rsr.rulesets.red_sun_rising.naval import battle_flow
from rsr.rulesets.red_sun_rising.naval.battle import BattleSetting
from rsr.rulesets.red_sun_rising.naval.data import NavalStatic, load_naval
from rsr.rulesets.red_sun_rising.naval.state import Fleet
from rsr.rulesets.red_sun_rising.ruleset import KNOWN_OPTIONS
from rsr.scenario import load_scenario


def cli(home: Path, *args: str) -> Any:
    return CliRunner().invoke(main, list(args), env={"RSR_HOME": str(home)})


OPEN = {"russia": {"range": "open"}, "japan": {"range": "open"}}


@pytest.fixture(scope="module")
def static() -> NavalStatic:
    loaded = load_naval(load_scenario("red-sun-rising", "naval-1905").data)
    assert loaded is not None
    return loaded


def _fleets() -> tuple[Fleet, Fleet]:
    return (Fleet("ru-fleet-1", "russia", "ru-adm-vitgeft", 42, ["ru-retvizan"], at_sea=True, morale=3),
            Fleet("jp-fleet-1", "japan", "jp-adm-togo", 42, ["jp-mikasa"], at_sea=True, morale=5))


def test_the_naval_options_are_declared() -> None:
    for name in ("search-in-gunnery-phase", "successor-next-turn", "mines-strike-russians-only"):
        assert name in KNOWN_OPTIONS and "RSR " in KNOWN_OPTIONS[name]


@pytest.mark.parametrize("options, dice, search_hours, records", [
    # RSR 8.84 (default): the range opens beyond sight in hour 1; the first searches come in hour 2, after its weather
    ({}, [1, 1, 6, 6, 6], [2, 2], [(1, 14, "plans, beyond sighting"), (2, 14, "out of sight")]),
    # RSR 4.44 (option): hour 1's Gunnery Combat Phase is a search, and hour 2 searches again after its weather
    ({"search-in-gunnery-phase": True}, [1, 1, 6, 6, 6, 6, 6], [1, 1, 2, 2],
     [(1, 14, "out of sight"), (2, 14, "out of sight")]),
])
def test_search_timing(static: NavalStatic, options: dict[str, bool], dice: list[int], search_hours: list[int],
                       records: list[tuple[int, int, str]]) -> None:
    """RSR 4.44 against RSR 8.84: both plans open the range to 14 (6 + 3 + 5), beyond sight; 2 hours; every
    search fails."""
    ru, jp = _fleets()
    c = Context(ScriptedDice(dice))
    battle_flow.fight(c, static, 42, [ru], [jp], "clear", BattleSetting(plans=OPEN, options=options))
    assert [e.data["hour"] for e in c.events if e.kind == "naval-search"] == search_hours
    assert [(h["hour"], h["range"], h["how"]) for h in (e.data for e in c.events if e.kind == "naval-hour")] \
        == records
    assert c.dice.unused == []  # type: ignore[attr-defined]


def test_the_option_searches_once_an_hour_and_never_for_a_side_breaking_off(static: NavalStatic) -> None:
    """RSR 6.0, RSR 8.8: with the option, a side whose plan breaks off does not search in the Gunnery Combat Phase;
    the other one does."""
    ru, jp = _fleets()
    plans = {"russia": {"range": "open", "break_off": {"after_hour": 0}}, "japan": {"range": "open"}}
    c = Context(ScriptedDice([1, 1, 6, 6, 6]))
    battle_flow.fight(c, static, 42, [ru], [jp], "clear",
                      BattleSetting(plans=plans, options={"search-in-gunnery-phase": True}))
    assert [(e.data["hour"], e.data["side"]) for e in c.events if e.kind == "naval-search"] == \
        [(1, "japan"), (2, "japan")]


def test_the_option_adds_no_second_search_in_an_hour(static: NavalStatic) -> None:
    """RSR 6.0 with the option: in hour 2 the fog hides the fleets at 6 (RSR 8.82), the Japanese search and sight
    (RSR 8.41: range 4), the Russian, breaking off by his plan, opens beyond sight again: the sides have searched
    this hour, so the hour ends without a second search in its Gunnery Combat Phase."""
    ru, jp = _fleets()
    plans = {"russia": {"range": 6, "break_off": {"after_hour": 1}, "torpedo": {"attack": "never"}},
             "japan": {"range": 6, "torpedo": {"attack": "never"}}}
    c = Context(ScriptedDice([1, 1,    # 2 hours
                              1, 1,    # hour 1: two gunnery dice at range 6, no effect
                              6,       # hour 2: clear -> fog: 6 is beyond sight
                              1]))     # the Japanese search: 1 + 1 (fog): sighted
    battle_flow.fight(c, static, 42, [ru], [jp], "clear",
                      BattleSetting(plans=plans, options={"search-in-gunnery-phase": True}))
    assert [(e.data["hour"], e.data["side"], e.data["found"]) for e in c.events if e.kind == "naval-search"] == \
        [(2, "japan", True)]
    assert [e.data["cause"] for e in c.events if e.kind == "naval-lost-sight"] == ["weather"]
    assert c.dice.unused == []  # type: ignore[attr-defined]


def test_a_naval_option_travels_in_the_invitation(tmp_path: Path) -> None:
    """The other readings are offered in the invitation: ``rsr new --option`` names them and ``rsr accept`` shows
    them to the invited player before he joins."""
    alice, bob = tmp_path / "alice", tmp_path / "bob"
    for home in (alice, bob):
        (home / "games").mkdir(parents=True)
    assert cli(alice, "key", "new", "alice").exit_code == 0
    assert cli(bob, "key", "new", "bob").exit_code == 0
    out = cli(alice, "new", str(alice / "games"), "--scenario", "naval-1905", "--side", "russia", "--key", "alice",
              "--option", "search-in-gunnery-phase=true", "--option", "successor-next-turn=true")
    assert out.exit_code == 0, out.output
    invite = next((next((alice / "games").glob("game-*")) / "turns").glob("0000-*"))
    out = cli(bob, "accept", str(invite), "--key", "bob", "--dir", str(bob / "games"), "--name", "Bob")
    assert out.exit_code == 0, out.output
    assert "search-in-gunnery-phase=true" in out.output and "successor-next-turn=true" in out.output
