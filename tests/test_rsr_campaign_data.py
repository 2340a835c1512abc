"""The campaign's data (turns.yaml, campaign.yaml) and its pure rules (rsr/rulesets/red_sun_rising/campaign.py).

Each test recomputes a value the rulebook prints, or checks a provisional value against the rule that
constrains it, citing the case. The set-up is also checked against the naval-1904 scenario, which plays the
same opening: the two must agree unit by unit, ship by ship.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from rsr.catalogue import available
from rsr.errors import BadInput
from rsr.rulesets.red_sun_rising import campaign as cp
from rsr.scenario import SCENARIO_ROOT
from rsr.yamlio import load_yaml_file

FOLDER = SCENARIO_ROOT / "red-sun-rising"


@pytest.fixture(scope="module")
def parts() -> tuple[dict[str, Any], dict[str, Any]]:
    return load_yaml_file(FOLDER / "turns.yaml"), load_yaml_file(FOLDER / "campaign.yaml")


@pytest.fixture(scope="module")
def war() -> cp.Campaign:
    return cp.load_campaign(FOLDER)


@pytest.fixture(scope="module")
def counters() -> dict[str, dict[str, Any]]:
    data = load_yaml_file(FOLDER / "counters.yaml")
    return {c["id"]: c for c in data["command_units"] + data["combat_units"]}


@pytest.fixture(scope="module")
def naval() -> dict[str, Any]:
    data: dict[str, Any] = load_yaml_file(FOLDER / "naval.yaml")
    return data


@pytest.fixture(scope="module")
def naval_1904() -> dict[str, Any]:
    data: dict[str, Any] = load_yaml_file(FOLDER / "naval-1904.yaml")
    return data


# -- loading -------------------------------------------------------------------------------------------------

def test_the_data_loads_and_refers_only_to_known_units_ships_and_admirals(
        war: cp.Campaign, counters: dict[str, dict[str, Any]], naval: dict[str, Any]) -> None:
    """RSR 17.11, 19.1, 19.2: every unit, ship and admiral the track and the set-up name exists, on its side."""
    assert cp.consistency_problems(war) == []
    assert cp.reference_problems(war, counters, naval) == []


def test_reference_check_catches_a_wrong_side(war: cp.Campaign, counters: dict[str, dict[str, Any]],
                                              naval: dict[str, Any]) -> None:
    """RSR 19.2: a Japanese division listed in a Russian set-up hex is reported."""
    stacks = (cp.LandStack("2734", ("jp-2",), None),) + war.russian_stacks[1:]
    bad = cp.Campaign(**{**war.__dict__, "russian_stacks": stacks})
    problems = cp.reference_problems(bad, counters, naval)
    assert any("jp-2 is not russia's" in p for p in problems)
    assert len(problems) == 1


def test_campaign_file_is_not_a_playable_scenario() -> None:
    """RSR 19.0: the campaign is the game's one scenario, but it is not playable until its sequence exists
    (issue 26): the data file must not be listed."""
    assert "campaign" not in available("red-sun-rising", SCENARIO_ROOT)
    assert "naval-1904" in available("red-sun-rising", SCENARIO_ROOT)


def _reload(track: dict[str, Any], data: dict[str, Any]) -> cp.Campaign:
    return cp.campaign_from_parts(track, data, "test")


def test_a_replacement_step_in_the_wrong_month_is_refused(parts: tuple[dict[str, Any], dict[str, Any]]) -> None:
    """RSR 17.22: turns.yaml must give a step in January, April, July and October only."""
    track, data = copy.deepcopy(parts[0]), parts[1]
    track["turns"][1]["japanese_replacement_step"] = True  # March 1904
    with pytest.raises(BadInput, match="turn 2 .1904-03.: japanese_replacement_step disagrees with RSR 17.22"):
        _reload(track, data)


def test_cities_required_off_a_season_end_is_refused(parts: tuple[dict[str, Any], dict[str, Any]]) -> None:
    """RSR 19.4: cities are required at the end of each season, so only on a season's last turn."""
    track, data = copy.deepcopy(parts[0]), parts[1]
    track["turns"][4]["cities_required"] = 2  # June 1904, the first month of summer
    with pytest.raises(BadInput, match="turn 5 .1904-06.: cities_required belongs to the last turn"):
        _reload(track, data)


def test_a_track_without_23_turns_is_refused(parts: tuple[dict[str, Any], dict[str, Any]]) -> None:
    """RSR 19.4 (with 18.8): 23 monthly Game-Turns, February 1904 to December 1905."""
    track, data = copy.deepcopy(parts[0]), parts[1]
    del track["turns"][-1]
    with pytest.raises(BadInput, match="has 22 Game-Turns, the calendar 23"):
        _reload(track, data)


def test_a_skipped_month_is_refused(parts: tuple[dict[str, Any], dict[str, Any]]) -> None:
    """RSR 19.4: one Game-Turn a month, none skipped."""
    track, data = copy.deepcopy(parts[0]), parts[1]
    track["turns"][5]["month"] = "1904-08"
    with pytest.raises(BadInput, match="months must run 1904-02 to 1905-12"):
        _reload(track, data)


def test_schema_refuses_an_unknown_key_in_one_line(parts: tuple[dict[str, Any], dict[str, Any]]) -> None:
    """RSR 19.2: a misspelt key in the Baltic fleet's data is named with its path, not ignored."""
    track, data = parts[0], copy.deepcopy(parts[1])
    data["baltic_fleet"]["entry_hex"] = [12]
    with pytest.raises(BadInput) as caught:
        _reload(track, data)
    message = str(caught.value)
    assert "campaign.yaml" in message and "baltic_fleet" in message and "\n" not in message


def test_schema_requires_provenance_on_every_turn(parts: tuple[dict[str, Any], dict[str, Any]]) -> None:
    """RSR 19.4: a track value without provenance is refused (the track is mostly provisional)."""
    track, data = copy.deepcopy(parts[0]), parts[1]
    del track["turns"][3]["provenance"]
    with pytest.raises(BadInput, match="provenance"):
        _reload(track, data)


# -- the calendar and the seasons --------------------------------------------------------------------------

def test_23_monthly_turns_february_1904_to_december_1905(war: cp.Campaign) -> None:
    """RSR 18.8, 19.4: turn 1 is February 1904, turn 23 December 1905, one a month."""
    assert len(war.turns) == 23
    assert cp.turn_info(war, 1).month == "1904-02" and cp.turn_info(war, 23).month == "1905-12"
    assert cp.turn_of_month(war, "1905-01") == 12
    assert cp.months_between("1904-11", "1905-02") == ["1904-11", "1904-12", "1905-01", "1905-02"]
    with pytest.raises(BadInput, match="outside the war"):
        cp.turn_info(war, 24)


def test_season_of_each_turn_follows_its_month(war: cp.Campaign) -> None:
    """RSR 19.4 (seasons of the track, provisional): every turn's season is its calendar month's."""
    for t in war.turns:
        assert cp.season_of_turn(war, t.number) == cp.season_of_month(war, cp.month_number(t.month))
    assert {cp.season_of_turn(war, n) for n in range(1, 24)} == set(cp.SEASONS)


def test_season_die_modifiers(war: cp.Campaign) -> None:
    """RSR 5.0, 9.17, 15.12, 15.13, 15.14: +2 winter, +1 spring and autumn (fall), none in summer."""
    assert [cp.season_die_modifier(s) for s in ("winter", "spring", "summer", "autumn")] == [2, 1, 0, 1]
    assert cp.season_die_modifier(cp.season_of_turn(war, 1)) == 2  # February 1904 (provisional winter)


def test_season_ends_are_the_turns_before_a_change_of_season(war: cp.Campaign) -> None:
    """RSR 19.4: a season ends on its last turn within the war; December 1905 ends none."""
    ends = [t.number for t in war.turns if cp.is_season_end(war, t.number)]
    expected = [n for n in range(1, 23) if war.turns[n].season != war.turns[n - 1].season]
    assert ends == expected
    assert not cp.is_season_end(war, 23)
    assert cp.is_last_turn(war, 23) and not cp.is_last_turn(war, 22)


# -- victory (RSR 19.4) -------------------------------------------------------------------------------------

def test_cities_required_only_at_season_ends_and_never_falling(war: cp.Campaign) -> None:
    """RSR 19.4: a count at every season's end of the war, rising or level, below the decisive six."""
    counts = [cp.cities_required(war, n) for n in range(1, 24)]
    for n, count in enumerate(counts, start=1):
        assert (count is not None) == cp.is_season_end(war, n), n
    kept = [c for c in counts if c is not None]
    assert kept == sorted(kept) and max(kept) < 6


def test_the_printed_schedule_at_the_december_1905_end(war: cp.Campaign) -> None:
    """RSR 19.4: after December 1905, 0-1 cities Russian decisive, 2 substantial, 3 marginal; 4 Japanese
    marginal, 5 substantial, 6 or more decisive."""
    printed = {0: ("russia", "decisive"), 1: ("russia", "decisive"), 2: ("russia", "substantial"),
               3: ("russia", "marginal"), 4: ("japan", "marginal"), 5: ("japan", "substantial"),
               6: ("japan", "decisive"), 7: ("japan", "decisive")}
    for held, (winner, level) in printed.items():
        outcome = cp.campaign_end(war, 23, held)
        assert outcome is not None and (outcome.winner, outcome.level) == (winner, level), held
        assert outcome.turn == 23 and outcome.cities == held


def test_december_1905_end_when_nothing_else_ends_it(war: cp.Campaign) -> None:
    """RSR 19.4: with the required cities held and fewer than six, only the last turn ends the war."""
    outcome = cp.campaign_end(war, 23, 5)
    assert outcome is not None and "December 1905" in outcome.decided_by
    assert cp.campaign_end(war, 21, 5) is None   # October 1905, no season end


def test_seasonal_shortfall_ends_the_war(war: cp.Campaign) -> None:
    """RSR 19.4: at a season's end, fewer cities than required ends the war, judged by the schedule."""
    turn = next(n for n in range(1, 24) if (cp.cities_required(war, n) or 0) >= 2)
    required = cp.cities_required(war, turn)
    assert required is not None
    outcome = cp.campaign_end(war, turn, required - 1)
    assert outcome is not None and "end of season" in outcome.decided_by
    assert cp.campaign_end(war, turn, required) is None
    assert cp.seasonal_check_fails(required, required - 1) and not cp.seasonal_check_fails(None, 0)


def test_shortfall_with_four_cities_is_still_a_japanese_win(war: cp.Campaign) -> None:
    """RSR 19.4: the shortfall only ends the war; the schedule decides: four cities is Japanese marginal."""
    turn = next(n for n in range(1, 24) if cp.cities_required(war, n) == 5)
    outcome = cp.campaign_end(war, turn, 4)
    assert outcome is not None and (outcome.winner, outcome.level) == ("japan", "marginal")


def test_six_cities_end_the_war_early_in_any_turn(war: cp.Campaign) -> None:
    """RSR 19.4: a Japanese decisive victory (six cities or more) ends the war when it is reached."""
    for turn in (2, 5, 14):  # none of them ends a season
        outcome = cp.campaign_end(war, turn, 6)
        assert outcome is not None and (outcome.winner, outcome.level) == ("japan", "decisive")
        assert "decisive" in outcome.decided_by
        assert cp.campaign_end(war, turn, 5) is None
    assert cp.is_decisive_victory(6) and not cp.is_decisive_victory(5)


def test_city_hexes_come_from_the_track_or_the_map(war: cp.Campaign) -> None:
    """RSR 19.4, 13.2: Port Arthur 0801 and Vladivostok 2937 as printed, the others by the map's names."""
    places = {p.get("name"): p["hex"] for p in load_yaml_file(FOLDER / "map.yaml")["places"] if p.get("name")}
    hexes = cp.city_hexes(war, places)
    assert len(hexes) == len(war.cities) == len(set(hexes))
    assert {"0801", "0803", "2937"} <= set(hexes)
    with pytest.raises(BadInput, match="Seoul has no hex"):
        cp.city_hexes(war, {})


# -- arrivals, withdrawals, points --------------------------------------------------------------------------

def test_every_track_command_unit_arrives_once_and_leaves_after(war: cp.Campaign,
                                                                counters: dict[str, dict[str, Any]]) -> None:
    """RSR 17.11, 17.3: the command units that do not start on the map come by the track, once each, and
    are withdrawn only after they came."""
    by_track = sorted(u for u, c in counters.items() if c.get("setup") == "track")
    came = [u for n in range(1, 24) for u in cp.arrivals(war, n)]
    assert sorted(came) == by_track
    seen: set[str] = set()
    for n in range(1, 24):
        seen |= set(cp.arrivals(war, n))
        for unit in cp.withdrawals(war, n):
            assert unit in seen or counters[unit].get("setup") not in ("track", None), (n, unit)


def test_admirals_of_the_track(war: cp.Campaign) -> None:
    """RSR 19.2 (Rozhestvansky with the Baltic fleet in May 1905), 17.3: admirals arrive and leave by name."""
    may_1905 = cp.turn_of_month(war, "1905-05")
    assert may_1905 is not None
    assert "Rozhestvansky" in cp.admirals_arriving(war, may_1905)
    assert cp.provenance_of(war, may_1905, "admirals_arrive").startswith("rulebook: 19.2")
    names = [n for t in range(1, 24) for n in cp.admirals_arriving(war, t)]
    assert len(names) == len(set(names))
    assert "Stark" in [n for t in range(1, 24) for n in cp.admirals_withdrawn(war, t)]


def test_russian_command_points_accumulate(war: cp.Campaign) -> None:
    """RSR 17.13: points every turn, which may be kept: the running total is the sum of the turns so far."""
    running = 0
    for n in range(1, 24):
        assert cp.command_points(war, n) >= 1
        running += cp.command_points(war, n)
        assert cp.command_points_through(war, n) == running
    assert cp.command_points_through(war, 23) == sum(t.russian_command_points for t in war.turns)


def test_japanese_replacement_steps_january_april_july_october(war: cp.Campaign) -> None:
    """RSR 17.22: one step in each January, April, July and October turn: April, July and October 1904,
    then January, April, July and October 1905: seven in the war, four by January 1905."""
    with_step = [war.turns[n - 1].month for n in range(1, 24) if cp.replacement_steps(war, n) == 1]
    assert with_step == ["1904-04", "1904-07", "1904-10", "1905-01", "1905-04", "1905-07", "1905-10"]
    assert cp.replacement_steps_through(war, 23) == 7
    assert cp.replacement_steps_through(war, cp.turn_of_month(war, "1905-01") or 0) == 4
    assert [m for m in range(1, 13) if cp.replacement_step_due(war.replacement_months, m)] == [1, 4, 7, 10]


def test_provisional_values_are_listed_for_reports(war: cp.Campaign) -> None:
    """RSR 19.4, 17.13: the track's season, points and city counts are ours; the Baltic admiral is 19.2's."""
    first = cp.provisional_values(war, 1)
    assert {"season", "russian_command_points", "cities_required"} <= set(first)
    may_1905 = cp.turn_of_month(war, "1905-05") or 0
    assert "admirals_arrive" not in cp.provisional_values(war, may_1905)
    assert cp.provenance_of(war, 3, "japanese_replacement_step").startswith("rulebook: 17.22")


# -- the Baltic fleet (RSR 19.2) ----------------------------------------------------------------------------

def test_baltic_fleet_arrives_in_may_1905_round_one_on_hexes_12_to_19(war: cp.Campaign) -> None:
    """RSR 19.2: May 1905 (turn 16), the first round of naval movement, any of strategic hexes 12-19."""
    assert cp.baltic_fleet_turn(war) == 16
    assert [n for n in range(1, 24) if cp.baltic_fleet_arrives(war, n)] == [16]
    assert all(cp.baltic_fleet_entry_allowed(war, 16, 1, h) for h in range(12, 20))
    assert not cp.baltic_fleet_entry_allowed(war, 16, 1, 11)
    assert not cp.baltic_fleet_entry_allowed(war, 16, 1, 20)
    assert not cp.baltic_fleet_entry_allowed(war, 16, 2, 12)
    assert not cp.baltic_fleet_entry_allowed(war, 15, 1, 12)


def test_baltic_fleet_has_initiative_only_in_may_1905(war: cp.Campaign) -> None:
    """RSR 19.2: Command Initiative without a roll in the arrival turn; the usual roll (5.0) afterwards."""
    assert cp.baltic_fleet_has_initiative(war, 16)
    assert not cp.baltic_fleet_has_initiative(war, 17)


def test_baltic_fleet_ships_as_printed(war: cp.Campaign, naval: dict[str, Any]) -> None:
    """RSR 19.2: eleven battleships, eight cruisers and destroyer flotillas 7 and 8, under Rozhestvansky."""
    classes = {s["id"]: s["class"] for s in naval["ships"]}
    counts = {k: sum(1 for s in war.baltic.ships if classes[s] == k) for k in ("B", "C", "DF", "TF")}
    assert counts == {"B": 11, "C": 8, "DF": 2, "TF": 0}
    assert war.baltic.admiral == "ru-adm-rozhestvansky"


def test_baltic_fleet_matches_the_naval_scenarios(war: cp.Campaign, naval_1904: dict[str, Any]) -> None:
    """RSR 19.2: naval-1904 and naval-1905 carry the same Baltic fleet, arriving on the same turn."""
    for name in ("naval-1904", "naval-1905"):
        fleet = load_yaml_file(FOLDER / f"{name}.yaml")["naval"]["fleets"][war.baltic.fleet]
        assert fleet["ships"] == list(war.baltic.ships), name
        assert fleet["admiral"] == war.baltic.admiral and fleet["arrives"] == cp.baltic_fleet_turn(war), name


# -- February 1904 (RSR 18.8) -------------------------------------------------------------------------------

def test_february_1904_rules_in_force_in_the_first_turn_only(war: cp.Campaign) -> None:
    """RSR 18.8: 18.81, 18.82 and 18.83 apply in February 1904 and never again."""
    assert cp.february_1904_rules(war, 1) == ("18.81", "18.82", "18.83")
    assert all(cp.february_1904_rules(war, n) == () for n in range(2, 24))
    assert cp.turn_info(war, 1).special_rules == ("18.8",)


def test_surprise_attack_by_torpedo_flotillas_on_capital_ships(war: cp.Campaign, naval: dict[str, Any]) -> None:
    """RSR 18.83: torpedo flotillas, not destroyer flotillas, attack; any Russian capital ship may be the
    target; the 1 column; the target does not fire."""
    japanese = {s["id"]: s["class"] for s in naval["ships"] if s["side"] == "japan"}
    russian = {s["id"]: s["class"] for s in naval["ships"] if s["side"] == "russia"}
    attackers = cp.surprise_torpedo_attackers(war, japanese)
    assert attackers and all(japanese[a] == "TF" for a in attackers)
    assert len(attackers) == sum(1 for c in japanese.values() if c == "TF")
    targets = cp.surprise_torpedo_targets(war, russian)
    assert set(targets) == {s for s, c in russian.items() if c in ("B", "C")}
    assert cp.surprise_torpedo_column(war) == 1
    rule = next(r for r in war.february_rules if r.case == "18.83")
    assert rule.target_fires is False


# -- the set-up (RSR 19.0-19.2) -----------------------------------------------------------------------------

def test_japanese_set_up_by_strategic_hex_as_printed(war: cp.Campaign) -> None:
    """RSR 19.1: seven hexes; per hex the printed number of land units; one merchant fleet in each."""
    by_hex: dict[int, int] = {}
    for hex_id in cp.japanese_units_at_sea(war).values():
        by_hex[hex_id] = by_hex.get(hex_id, 0) + 1
    assert by_hex == {14: 5, 24: 5, 25: 5, 26: 5, 27: 7, 35: 3, 47: 7}
    assert cp.japanese_merchant_fleet_hexes(war) == [14, 24, 25, 26, 27, 35, 47]
    assert sum(1 for u in cp.japanese_units_at_sea(war) if u.startswith("jp-sa")) == 7  # one siege regiment a hex


def test_japanese_set_up_agrees_with_counters_and_naval_1904(war: cp.Campaign, counters: dict[str, dict[str, Any]],
                                                             naval_1904: dict[str, Any]) -> None:
    """RSR 19.1, 17.12: every Japanese combat unit starts at sea (none arrives later), in the hex
    counters.yaml and naval-1904 give it, at full strength."""
    at_sea = cp.japanese_units_at_sea(war)
    japanese = {u for u, c in counters.items() if c["side"] == "japan" and "full" in c}
    assert set(at_sea) == japanese
    for unit, hex_id in at_sea.items():
        assert counters[unit]["setup"] == {"map": "naval", "hex": str(hex_id)}, unit
    assert naval_1904["naval"]["units"] == at_sea
    merchant = sorted(m["hex"] for m in naval_1904["naval"]["merchant_fleets"].values())
    assert merchant == cp.japanese_merchant_fleet_hexes(war)
    assert cp.starting_steps("japan", 2) == 2


def test_japanese_fleets_in_hex_24_with_every_ship(war: cp.Campaign, naval: dict[str, Any],
                                                   naval_1904: dict[str, Any]) -> None:
    """RSR 19.1: both fleets in hex 24, Togo and Kamimura; every Japanese ship in one of them (naval-1904's
    split is one the player may choose)."""
    starts = cp.japanese_fleets_at_start(war)
    assert starts == {"jp-fleet-1": (24, "jp-adm-togo"), "jp-fleet-2": (24, "jp-adm-kamimura")}
    fleets = naval_1904["naval"]["fleets"]
    split = [s for f in starts for s in fleets[f]["ships"]]
    assert sorted(split) == sorted(s["id"] for s in naval["ships"] if s["side"] == "japan")
    for fleet, (hex_id, admiral) in starts.items():
        assert (fleets[fleet]["hex"], fleets[fleet]["admiral"]) == (hex_id, admiral)


def test_russian_units_start_reduced_and_stacked_with_their_leader(war: cp.Campaign,
                                                                   counters: dict[str, dict[str, Any]]) -> None:
    """RSR 19.2: every two-step unit starts one step down; the garrisons, one-step units (11.5), as printed;
    units with a leader are his, the others wait for the first Russian Reinforcement Stage."""
    steps = {u: int(c.get("steps", 1)) for u, c in counters.items()}
    entries = cp.russian_setup_entries(war, steps)
    for entry in entries:
        if entry["unit"] in ("ru-pa-stoessel", "ru-1m"):
            continue
        if steps[entry["unit"]] == 2:
            assert entry["steps"] == 1, entry
        else:
            assert "steps" not in entry and entry["unit"].startswith("ru-gar-"), entry
    assigned = {e["unit"]: e.get("assigned_to") for e in entries}
    assert assigned["ru-es3"] == "ru-pa-stoessel" and assigned["ru-gar-vlad"] == "ru-1m"
    assert [u for u, a in assigned.items() if a is None and u not in ("ru-pa-stoessel", "ru-1m")] == \
        ["ru-es2", "ru-es5", "ru-es9"]
    assert cp.starting_steps("russia", 2) == 1 and cp.starting_steps("russia", 1) == 1


def test_russian_land_set_up_is_naval_1904s(war: cp.Campaign, counters: dict[str, dict[str, Any]],
                                           naval_1904: dict[str, Any]) -> None:
    """RSR 19.2: the placement list derived from the printed set-up is exactly naval-1904's."""
    steps = {u: int(c.get("steps", 1)) for u, c in counters.items()}
    derived = sorted(cp.russian_setup_entries(war, steps), key=lambda e: e["unit"])
    scenario = sorted(naval_1904["setup"], key=lambda e: e["unit"])
    assert derived == scenario


def test_russian_fleets_as_printed_and_as_naval_1904(war: cp.Campaign, naval: dict[str, Any],
                                                    naval_1904: dict[str, Any]) -> None:
    """RSR 19.2: 1st Fleet in 42 under Stark (7 battleships, 6 cruisers, destroyers 1-5, torpedo 1-2), 2nd
    Fleet in 54 under V. Essen (4 cruisers, destroyers 6); naval-1904 places the same."""
    classes = {s["id"]: s["class"] for s in naval["ships"]}
    starts = cp.russian_fleets_at_start(war)
    first_hex, first_admiral, first = starts["ru-fleet-1"]
    assert (first_hex, first_admiral) == (42, "ru-adm-stark")
    assert [sum(1 for s in first if classes[s] == k) for k in ("B", "C", "DF", "TF")] == [7, 6, 5, 2]
    second_hex, second_admiral, second = starts["ru-fleet-2"]
    assert (second_hex, second_admiral) == (54, "ru-adm-essen")
    assert [sum(1 for s in second if classes[s] == k) for k in ("B", "C", "DF", "TF")] == [0, 4, 1, 0]
    fleets = naval_1904["naval"]["fleets"]
    for fleet, (hex_id, admiral, ships) in starts.items():
        assert (fleets[fleet]["hex"], fleets[fleet]["admiral"], tuple(fleets[fleet]["ships"])) == \
            (hex_id, admiral, ships), fleet


def test_varyag_counts_as_sunk(war: cp.Campaign, naval: dict[str, Any]) -> None:
    """RSR 19.0: the Varyag is out of the game before it starts: no ship of that name is in play."""
    assert war.sunk_before_play == ("Varyag",)
    assert all(s["name"] != "Varyag" for s in naval["ships"])


def test_module_is_pure() -> None:
    """The campaign rules read no clock, environment or randomness (docs/architecture.md)."""
    text = Path(cp.__file__).read_text()
    for word in ("import random", "import time", "datetime", "os.environ"):
        assert word not in text


def test_campaign_end_agrees_with_the_engines_victory_check(war: cp.Campaign) -> None:
    """RSR 19.4: for every turn of the war and every number of cities, the pure campaign_end and the
    engine's end_of_turn_check (victory.py, used by every scenario today) end the game alike."""
    from rsr.rulesets import get_ruleset
    from rsr.rulesets.red_sun_rising import victory
    from rsr.scenario import load_scenario

    state = get_ruleset("red-sun-rising").initial_state(load_scenario("red-sun-rising", "korea-1904"), {})
    cities = state.static.victory_cities
    assert len(cities) == len(war.cities)
    state.last_turn = len(war.turns)
    for turn in range(1, len(war.turns) + 1):
        for held in range(len(cities) + 1):
            state.turn = turn
            state.control = {h: ("japan" if i < held else "russia") for i, h in enumerate(cities)}
            engine = victory.end_of_turn_check(state)
            pure = cp.campaign_end(war, turn, held)
            assert (engine is None) == (pure is None), (turn, held)
            if engine is not None and pure is not None:
                assert (engine["winner"], engine["level"], engine["turn"]) == (pure.winner, pure.level, turn)


def test_arrival_hexes(naval: dict[str, Any]) -> None:
    """RSR 17.11: Russian command units arrive in 3316 or 3337, Japanese ones in a Japanese home port;
    19.1's seven set-up hexes are the home ports of our naval map."""
    assert cp.arrival_hexes("russia", [14]) == ("3316", "3337")
    ports = load_yaml_file(FOLDER / "naval-map.yaml")["ports"]
    home = [p["hex"] for p in ports if p.get("home") and p.get("friendly") == "japan"]
    assert cp.arrival_hexes("japan", home) == ("14", "24", "25", "26", "27", "35", "47")


def test_track_events_of_a_few_turns(war: cp.Campaign) -> None:
    """RSR 18.8, 17.11, 17.13, 17.22, 19.2, 19.4: what the track does in February 1904, April 1904, May
    1905 and December 1905, each marked provisional where the value is ours."""
    first = {e.kind: e for e in cp.track_events(war, 1)}
    assert first["special-rules"].value == ("18.81", "18.82", "18.83") and not first["special-rules"].provisional
    assert first["command-points"].provisional and "replacement-step" not in first
    assert first["cities-required"].value == cp.cities_required(war, 1)
    april = [e.kind for e in cp.track_events(war, 3)]
    assert "replacement-step" in april and "cities-required" not in april
    may_1905 = cp.track_events(war, 16)
    assert may_1905[0] == cp.TrackEvent("baltic-fleet", "RSR 19.2", "ru-fleet-baltic", False)
    assert cp.TrackEvent("admiral-arrives", "RSR 19.3", "Rozhestvansky", False) in may_1905
    last = cp.track_events(war, 23)
    assert last[-1] == cp.TrackEvent("last-turn", "RSR 19.4", "1905-12", False)
    assert all(e.kind != "cities-required" for e in last)
    arrivals = [e.value for t in range(1, 24) for e in cp.track_events(war, t) if e.kind == "arrive"]
    assert arrivals == [u for t in range(1, 24) for u in cp.arrivals(war, t)]


def test_japanese_split_every_ship_in_one_fleet(war: cp.Campaign, naval: dict[str, Any],
                                                naval_1904: dict[str, Any]) -> None:
    """RSR 19.1: the player splits every Japanese ship between Togo's and Kamimura's fleets; naval-1904's
    split passes; a ship left out, put in both, foreign or in an unknown fleet is named."""
    ships = [s["id"] for s in naval["ships"] if s["side"] == "japan"]
    fleets = naval_1904["naval"]["fleets"]
    split = {f: list(fleets[f]["ships"]) for f in ("jp-fleet-1", "jp-fleet-2")}
    assert cp.japanese_split_problems(war, split, ships) == []
    assert cp.japanese_split_problems(war, {"jp-fleet-1": ships}, ships) == []   # one fleet may hold all
    broken = {"jp-fleet-1": split["jp-fleet-1"][1:] + ["ru-novik"], "jp-fleet-2": split["jp-fleet-2"] + [ships[-1]],
              "jp-fleet-3": []}
    problems = cp.japanese_split_problems(war, broken, ships)
    assert problems == ["jp-fleet-3 is not a Japanese set-up fleet (RSR 19.1)",
                        f"{split['jp-fleet-1'][0]} is in no fleet (RSR 19.1: every Japanese ship starts in one)",
                        f"{ships[-1]} is in 2 fleets", "ru-novik is not a Japanese ship"]
