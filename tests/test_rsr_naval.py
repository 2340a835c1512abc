"""Red Sun Rising naval game (issue 12): the provisional Strategic Naval Map and ship data, naval search at the
function level (the adjudication cases naval-search-*.yaml play it in the game), the battle interface, the
sailing-order conditions and the admirals of the Turn Record Track. Rules are cited as ``RSR <case>``."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from rsr.engine import Context, initial_position
from rsr.errors import RulesError
from rsr.fairdice import ScriptedDice
from rsr.rulesets import get_ruleset
from rsr.rulesets.red_sun_rising.naval import battle, flow, movement
from rsr.rulesets.red_sun_rising.naval.data import NavalStatic, load_naval
from rsr.rulesets.red_sun_rising.naval.search import search, search_limit, search_modifier, weather
from rsr.scenario import Scenario, load_scenario
from tools.rsr_naval_map.generate import main as generate_main


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    return load_scenario("red-sun-rising", "naval-1905")


@pytest.fixture(scope="module")
def static(scenario: Scenario) -> NavalStatic:
    loaded = load_naval(scenario.data)
    assert loaded is not None
    return loaded


# -- the map and the counters -------------------------------------------------------------------------------


def test_generated_naval_map_is_current() -> None:
    """The naval map file is exactly what tools/rsr_naval_map makes (deterministic)."""
    assert generate_main(["--check"]) == 0


def test_every_map_item_has_provenance(scenario: Scenario) -> None:
    """RSR 3.1: every hex, hexside, port and code hex says where it comes from (data-notes: provisional)."""
    nmap = scenario.data["naval_map"]
    for key in ("hexes", "impassable", "ports", "code_hexes"):
        for item in nmap[key]:
            assert item["provenance"].split(":")[0] in {"rulebook", "derived", "provisional"}, item


def test_named_hexes_play_their_printed_roles(static: NavalStatic) -> None:
    """RSR 19.1, RSR 19.2, RSR 17.11: 42 holds Port Arthur, 54 Vladivostok; the Japanese set-up hexes are the home
    ports; the Baltic fleet enters on 12-19, which lie on the southern edge."""
    by_name = {p.name: p for p in static.ports}
    assert by_name["Port Arthur"].hex == 42 and by_name["Vladivostok"].hex == 54
    assert by_name["Port Arthur"].friendly == by_name["Vladivostok"].friendly == "russia"
    assert static.home_ports == (14, 24, 25, 26, 27, 35, 47)
    for hex_number in static.home_ports:
        assert any(p.home and p.friendly == "japan" for p in static.ports_in(hex_number)), hex_number
    assert static.baltic_entry == tuple(range(12, 20))
    lowest_line = min(int(h.cell[:2]) for h in static.hexes.values())
    assert all(int(static.hexes[n].cell[:2]) == lowest_line for n in static.baltic_entry)


def test_code_a_covers_the_7_5_example(scenario: Scenario, static: NavalStatic) -> None:
    """RSR 7.5 example: from hex A the cargo goes to any coastal hex 1701 to 1210, in winter to 0801 or 0803."""
    code_a = next(c for c in scenario.data["naval_map"]["code_hexes"] if c["code"] == "A")
    assert code_a["land_coast"] == ["1701", "1210"]
    assert {p.land_hex for p in static.ports_in(static.code_hexes["A"])} == {"0801", "0803"}
    game = get_ruleset("red-sun-rising")
    data = copy.deepcopy(scenario.data)
    data["scenario"]["control"] = {"0801": "japan", "0803": "japan"}
    state = initial_position(game, Scenario(scenario.ruleset, scenario.name, data, "test"), {}).state
    for unit in list(state.units.values()):
        unit.hex = None if unit.side == "russia" else unit.hex
    from rsr.rulesets.red_sun_rising.naval.transport import landing_hexes

    assert landing_hexes(state, "A", "winter") == ["0801", "0803"]
    summer = landing_hexes(state, "A", "summer")
    assert summer[0] == "0801" and "1701" in summer and "1210" in summer and len(summer) > 10
    state.control = {"0801": "russia", "0803": "russia"}
    assert landing_hexes(state, "A", "winter") == []  # 7.5: both held by the Russian: no winter landing


def test_adjacency_is_symmetric_and_the_sea_connected(static: NavalStatic) -> None:
    """RSR 7.1: fleets move hex to hex across passable hexsides; every sea hex reaches every other."""
    for number in static.hexes:
        for other in static.neighbours(number):
            assert number in static.neighbours(other)
    assert len(static.distances(24)) == len(static.hexes)
    assert static.distances(24)[42] <= 9  # a blockade of Port Arthur can be reached in one stage


def test_ship_lists_complete_as_printed(static: NavalStatic) -> None:
    """RSR 19.2: every Russian ship and flotilla the set-up names, with its class; Japanese ships provisional."""
    printed = {"B": ["Peresvyet", "Petropavlovsk", "Pobyeda", "Poltava", "Retvizan", "Sevastopol", "Tsarevitch",
                     "Alexander III", "Apraxin", "Borodino", "Navarin", "Nicholas I", "Orel", "Oslyabya", "Senyavin",
                     "K. Suvarov", "Ushakov", "S. Veliki"],
               "C": ["Askold", "Bayan", "Boyarin", "Diana", "Novik", "Palleda", "Bogatuir", "Gromoboi", "Rossiya",
                     "Rurik", "Aurora", "D. Donskoi", "Izmrud", "V. Monomakh", "A. Nakhimov", "Oleg", "Svetlana",
                     "Zemchug"]}
    russian = {s.name: s for s in static.ships.values() if s.side == "russia"}
    for cls, names in printed.items():
        for name in names:
            assert russian[name].cls == cls and russian[name].provenance.startswith("ship rulebook: 19.2")
    flotillas = sorted(s.name for s in russian.values() if s.cls in ("DF", "TF"))
    assert flotillas == sorted([f"Destroyer Flotilla {n}" for n in range(1, 9)] + ["Torpedo Flotilla 1",
                                                                                  "Torpedo Flotilla 2"])
    assert {a.name for a in static.admirals.values()} >= {"Togo", "Kamimura", "Stark", "V. Essen", "Rozhestvansky"}
    assert all("provisional" in s.provenance for s in static.ships.values() if s.side == "japan")
    assert len(static.merchant_ids) == 7  # RSR 19.1: one merchant fleet in each of seven hexes


# -- search (RSR 6.0-6.24) ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("die", "expected"), [(1, "clear"), (4, "clear"), (5, "fog"), (6, "storm")])
def test_weather_die(die: int, expected: str) -> None:
    """RSR 6.21: 1-4 clear, 5 fog, 6 storm."""
    assert weather(die) == expected


def test_search_limits_by_hex_kind(static: NavalStatic) -> None:
    """RSR 6.1, RSR 6.11, RSR 6.12, RSR 6.13: high seas 1, coastal 2, port 3."""
    kinds = {static.kind(n): search_limit(static, n) for n in sorted(static.hexes)}
    assert kinds == {"high-seas": 1, "coastal": 2, "port": 3}


def test_search_modifiers_are_cumulative() -> None:
    """RSR 6.2, RSR 6.22, RSR 6.23, RSR 6.24: +1 fog, +2 storm, -1 a destroyer flotilla, all added together."""
    assert search_modifier("clear", 0) == 0
    assert search_modifier("fog", 0) == 1
    assert search_modifier("storm", 3) == -1


def test_search_counts_destroyers_not_torpedo_boats(static: NavalStatic) -> None:
    """RSR 6.0, RSR 6.23: in a port hex (limit 3) in fog, a die of 4 with two destroyer flotillas sights
    (4 + 1 - 2 = 3); torpedo flotillas do not help."""
    ctx = Context(ScriptedDice([5, 4]))
    found, weather_now = search(ctx, static, 42, "russia", ["ru-retvizan", "ru-df1", "ru-df2", "ru-tf1"])
    assert (found, weather_now) == (True, "fog")
    ctx = Context(ScriptedDice([5, 4]))
    found, _ = search(ctx, static, 42, "russia", ["ru-retvizan", "ru-df1", "ru-tf1", "ru-tf2"])
    assert not found  # 4 + 1 - 1 = 4 > 3
    ctx = Context(ScriptedDice([1, 2]))
    assert not search(ctx, static, 53, "japan", ["jp-mikasa"])[0]  # high seas: 2 > 1


# -- the battle interface (issue 13 plugs in here) -------------------------------------------------------------


@pytest.fixture
def registered() -> Iterator[list[Any]]:
    calls: list[Any] = []

    def engine(ctx: Any, static: Any, hex_number: int, russians: list[Any], japanese: list[Any],
               weather_now: str, setting: battle.BattleSetting) -> battle.BattleResult:
        calls.append((hex_number, [f.id for f in russians], [f.id for f in japanese], weather_now))
        return battle.BattleResult(sunk=["ru-rossiya"], morale={"ru-fleet-2": 0}, withdraws=["ru-fleet-2"])

    before = list(battle._ENGINE)
    battle.register_battle(engine)
    yield calls
    battle._ENGINE[:] = before


def _naval_state(changes: dict[str, Any]) -> Any:
    base = load_scenario("red-sun-rising", "naval-1905")
    data = copy.deepcopy(base.data)
    data["scenario"].update(changes)
    game = get_ruleset("red-sun-rising")
    return game, initial_position(game, Scenario(base.ruleset, base.name, data, "test"), {}).state


def _play(game: Any, state: Any, answers: dict[str, Any], dice: list[int]) -> tuple[Any, list[Any]]:
    scripted = ScriptedDice(dice)
    events: list[Any] = []
    while (request := game.next_request(state)) is not None and request.kind in ("sailing-orders", "naval-round"):
        state, new = game.apply(state, request, answers[request.id], scripted)
        events += new
    return state, events


SEARCH_SETUP = {"first_turn": 6, "sequence": ["naval", "end"], "naval": {
    "fleets": {"ru-fleet-2": {"side": "russia", "admiral": "ru-adm-essen", "hex": 54, "ships": ["ru-rossiya"]},
               "jp-fleet-2": {"side": "japan", "admiral": "jp-adm-kamimura", "hex": 82, "ships": ["jp-izumo"],
                              "blockade": True}},
    "merchant_fleets": {"mf-4": {"hex": 82}}}}


def test_search_refused_without_a_battle_engine() -> None:
    """RSR 7.3, RSR 8.0: until the tactical battle exists a search that could start one is refused, before any die."""
    game, state = _naval_state(SEARCH_SETUP)
    answers = {"t6/naval/russia/sailing-orders": {"fleets": {"ru-fleet-2": {"sortie": True, "route": [82],
                                                                             "search": "always"}}},
               "t6/naval/japan/sailing-orders": {"fleets": {}}}
    before = list(battle._ENGINE)
    battle._ENGINE.clear()
    try:
        with pytest.raises(RulesError, match="not implemented yet"):
            _play(game, state, answers, [1])
    finally:
        battle._ENGINE[:] = before


def test_a_successful_search_calls_the_battle_and_applies_its_result(registered: list[Any]) -> None:
    """RSR 7.3, RSR 6.0, RSR 8.0, RSR 8.76 errata: the interface gets both groups of fleets in the hex and the
    search weather; its losses, morale and withdrawal come back into the naval game, and movement resumes (7.0)."""
    game, state = _naval_state(SEARCH_SETUP)
    answers = {"t6/naval/russia/sailing-orders": {"fleets": {"ru-fleet-2": {"sortie": True, "route": [82],
                                                                             "search": "always"}}},
               "t6/naval/japan/sailing-orders": {"fleets": {}}}
    # initiative 1; round 2: weather 1 (clear), search die 1 <= coastal limit 2
    state, events = _play(game, state, answers, [1, 1, 1, 1])
    assert registered == [(82, ["ru-fleet-2"], ["jp-fleet-2"], "clear")]
    assert "ru-rossiya" in state.naval.sunk
    fleet = state.naval.fleets["ru-fleet-2"]
    assert (fleet.morale, fleet.hex) == (0, 54)  # 8.76 errata: home to the nearest friendly port
    kinds = [e.kind for e in events]
    assert "naval-battle" in kinds and kinds.index("naval-battle") < len(kinds) - 1
    assert any(e.kind == "round" and e.data.get("round") == 10 for e in events)


# -- sailing orders ---------------------------------------------------------------------------------------------


def test_return_to_port_when_an_enemy_fleet_comes_near() -> None:
    """RSR 7.1 with a sailing-order condition: once an enemy at-sea fleet is within N hexes the fleet leaves
    its route and heads for the nearest friendly port by a shortest path (here 54 -> 75 -> 69, Kamimura
    comes to 59, one hex off: back 75, 54)."""
    game, state = _naval_state({"first_turn": 6, "sequence": ["naval", "end"], "naval": {
        "fleets": {"ru-fleet-2": {"side": "russia", "admiral": "ru-adm-essen", "hex": 54, "ships": ["ru-rossiya"]},
                   "jp-fleet-2": {"side": "japan", "admiral": "jp-adm-kamimura", "hex": 35, "ships": ["jp-izumo"]}}}})
    answers = {"t6/naval/russia/sailing-orders": {"fleets": {"ru-fleet-2": {
                   "sortie": True, "route": [75, 69, 59, 51], "return_if_enemy_within": 2}}},
               "t6/naval/japan/sailing-orders": {"fleets": {"jp-fleet-2": {"sortie": True, "route": [51, 59]}}}}
    state, events = _play(game, state, answers, [1, 1])
    moves = [(e.data["round"], e.data["to"]) for e in events
             if e.kind == "naval-move" and e.data.get("fleet") == "ru-fleet-2"]
    assert moves == [(1, 75), (2, 69), (3, 75), (4, 54)]
    notes = [e.text for e in events if e.kind == "sailing-orders"]
    assert notes == ["ru-fleet-2: enemy fleet jp-fleet-2 within 2 hexes: returns to port"]
    assert state.naval.fleets["ru-fleet-2"].hex == 54  # safe in port at the end (RSR 15.23)


def test_sailing_orders_take_two_packets_round_by_round_twenty_two() -> None:
    """Issue 12 item 4: one Naval Sequence of naval-1905 asks each side once with sailing orders, and every
    round of both sides when asked round by round (RSR 4.14: ten rounds)."""
    from rsr.rulesets.red_sun_rising.naval import bot

    for round_by_round, expected in ((False, 2), (True, 22)):
        game, state = _naval_state({})
        sides: list[str] = []
        scripted = ScriptedDice([1] * 50)
        while (request := game.next_request(state)) is not None and request.kind in flow.KINDS[:2]:
            sides.append(request.side)
            state, _ = game.apply(state, request, bot.answer(state, request, round_by_round), scripted)
        exchanges = 1 + sum(1 for a, b in zip(sides, sides[1:], strict=False) if a != b)
        assert exchanges == expected


def test_the_opening_set_up_of_19_1_and_19_2() -> None:
    """RSR 19.1, RSR 19.2: naval-1904 puts every Japanese land unit and a merchant fleet in each printed naval
    hex, both Japanese fleets in 24 with every Japanese ship, the Russian fleets in 42 and 54 with the printed
    ships, and the Baltic fleet due in May 1905 (turn 16)."""
    game = get_ruleset("red-sun-rising")
    state = initial_position(game, load_scenario("red-sun-rising", "naval-1904"), {}).state
    naval, static = state.naval, state.naval_static
    by_hex: dict[int, list[str]] = {}
    for unit_id, hex_number in naval.ashore.items():
        by_hex.setdefault(hex_number, []).append(unit_id)
    assert sorted(by_hex) == [14, 24, 25, 26, 27, 35, 47]
    assert sorted(by_hex[27]) == ["jp-1", "jp-9", "jp-g", "jp-k1", "jp-k9", "jp-kg", "jp-sa5"]
    assert sorted(m.hex for m in naval.merchants.values()) == [14, 24, 25, 26, 27, 35, 47]
    japanese = sorted(s for f in ("jp-fleet-1", "jp-fleet-2") for s in naval.fleets[f].ships)
    assert japanese == sorted(s.id for s in static.ships.values() if s.side == "japan")
    assert {naval.fleets[f].hex for f in ("jp-fleet-1", "jp-fleet-2")} == {24}
    stark, essen = naval.fleets["ru-fleet-1"], naval.fleets["ru-fleet-2"]
    assert (stark.hex, stark.admiral, len(stark.ships)) == (42, "ru-adm-stark", 20)
    assert (essen.hex, essen.admiral, sorted(essen.ships)) == (
        54, "ru-adm-essen", ["ru-bogatuir", "ru-df6", "ru-gromoboi", "ru-rossiya", "ru-rurik"])
    assert naval.fleets["ru-fleet-baltic"].arrives == 16 and len(naval.fleets["ru-fleet-baltic"].ships) == 21
    assert all(f.morale == static.admiral(f.admiral).initiative for f in naval.fleets.values())  # RSR 8.71


# -- admirals on the Turn Record Track (RSR 17.3, 19.3, 8.79) -------------------------------------------------


def _admiral_naval(fleets: dict[str, tuple[str, str, int]]) -> Any:
    from rsr.rulesets.red_sun_rising.naval.state import Fleet, NavalState

    naval = NavalState()
    for fleet_id, (side, admiral, morale) in fleets.items():
        naval.fleets[fleet_id] = Fleet(fleet_id, side, admiral, 42, ["ru-retvizan"], morale=morale)
    return naval


def test_turn_record_withdraws_and_brings_admirals(static: NavalStatic) -> None:
    """RSR 17.3, RSR 19.3: turn 2 withdraws Stark (his fleet is vacant) and brings Marakov into the reserve;
    the policy gives Marakov the vacant fleet, and 8.79 lifts its morale from 1 to 4."""
    from rsr.rulesets.red_sun_rising.naval import admirals

    naval = _admiral_naval({"ru-fleet-1": ("russia", "ru-adm-stark", 1), "ru-fleet-2": ("russia", "ru-adm-essen", 2)})
    ctx = Context(ScriptedDice([]))
    admirals.turn_record(ctx, static, naval, 2)
    assert naval.vacant == ["ru-fleet-1"] and naval.reserve == ["ru-adm-marakov"]
    assert naval.withdrawn == ["ru-adm-stark"]
    assert admirals.default_appointments(static, naval, "russia", 2, {}) == {"ru-adm-marakov": "ru-fleet-1"}
    admirals.appoint(ctx, static, naval, "russia", 2, None, list(static.admiral_track))
    assert naval.fleets["ru-fleet-1"].admiral == "ru-adm-marakov" and naval.fleets["ru-fleet-1"].morale == 4
    assert naval.fleets["ru-fleet-2"].admiral == "ru-adm-essen" and not naval.vacant and not naval.reserve


def test_policy_keeps_an_admiral_no_fleet_needs_in_reserve(static: NavalStatic) -> None:
    """RSR 19.3: Vitgeft (2) arriving on turn 3 relieves nobody rated 2 or more; keeping a vacant fleet's only
    candidate in reserve is refused; a reserve admiral is the first successor of a killed one."""
    from rsr.rulesets.red_sun_rising.naval import admirals, succession

    naval = _admiral_naval({"ru-fleet-1": ("russia", "ru-adm-marakov", 4), "ru-fleet-2": ("russia", "ru-adm-essen", 2)})
    ctx = Context(ScriptedDice([]))
    admirals.turn_record(ctx, static, naval, 3)
    admirals.appoint(ctx, static, naval, "russia", 3, {}, list(static.admiral_track))
    assert naval.reserve == ["ru-adm-vitgeft"] and naval.fleets["ru-fleet-2"].admiral == "ru-adm-essen"
    new, why = succession.successor(static, list(static.admiral_track), 3, "russia", ["ru-adm-marakov"],
                                    ["ru-adm-essen"], naval.reserve, naval.withdrawn)
    assert new == "ru-adm-vitgeft" and "waits" in why
    naval = _admiral_naval({"ru-fleet-1": ("russia", "ru-adm-stark", 1)})
    admirals.turn_record(ctx, static, naval, 2)
    with pytest.raises(RulesError, match="may not stay in reserve"):
        admirals.appoint(ctx, static, naval, "russia", 2, {"ru-adm-marakov": "reserve"}, list(static.admiral_track))


def test_relieved_admiral_can_return_by_succession(static: NavalStatic) -> None:
    """RSR 19.3: an admiral relieved by an appointment left the game alive and is the last withdrawn one."""
    from rsr.rulesets.red_sun_rising.naval import admirals, succession

    naval = _admiral_naval({"ru-fleet-2": ("russia", "ru-adm-essen", 2)})
    ctx = Context(ScriptedDice([]))
    admirals.turn_record(ctx, static, naval, 4)  # Skrydlov arrives
    admirals.appoint(ctx, static, naval, "russia", 4, {"ru-adm-skrydlov": "ru-fleet-2"}, list(static.admiral_track))
    assert naval.withdrawn == ["ru-adm-essen"]
    track = [t for t in static.admiral_track if t[1] == "withdraw"]  # no later arrival scheduled
    assert succession.successor(static, track, 20, "russia", ["ru-adm-skrydlov"], [], naval.reserve,
                                naval.withdrawn)[0] == "ru-adm-essen"


def test_a_fleet_breaking_off_may_take_any_shortest_path_home() -> None:
    """RSR 8.76 errata (issue 22, point 4): from 77 both 76 and 82 lie on a shortest path to Vladivostok (54);
    either is accepted, 78 (not nearer) is refused before any die; the sailing orders keep their own route when
    it lies on such a path (82 here), else the lowest-numbered step."""
    game, state = _naval_state({"first_turn": 6, "sequence": ["naval", "end"], "naval": {
        "fleets": {"ru-fleet-2": {"side": "russia", "admiral": "ru-adm-essen", "hex": 77, "ships": ["ru-rossiya"]}}}})
    fleet = state.naval.fleets["ru-fleet-2"]
    fleet.at_sea, fleet.broke_off, fleet.returning = True, True, True
    state.naval.round = 3
    assert movement.homeward_steps(state, fleet) == [76, 82]
    for target in (76, 82):
        trial = copy.deepcopy(state)
        movement.move_side(trial, Context(ScriptedDice([])), "russia", {"fleets": {"ru-fleet-2": target}})
        assert trial.naval.fleets["ru-fleet-2"].hex == target
    with pytest.raises(RulesError, match="next one of 76, 82"):
        movement.move_side(copy.deepcopy(state), Context(ScriptedDice([])), "russia", {"fleets": {"ru-fleet-2": 78}})
    assert movement.nearest_port_step(state, fleet) == 76
    state.naval.orders["russia"] = {"fleets": {"ru-fleet-2": {"route": [82, 54]}}}
    assert movement.nearest_port_step(state, fleet) == 82
