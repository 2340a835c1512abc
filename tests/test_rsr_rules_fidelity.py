"""Red Sun Rising checks that an adjudication case cannot express: options refused at set-up, the
fleet-feeding default against an exhaustive search, and the result interface (issue 9)."""

from __future__ import annotations

import itertools

import pytest

from rsr.cases import case_scenario
from rsr.engine import initial_position
from rsr.errors import BadInput
from rsr.rulesets import get_ruleset
from rsr.rulesets.red_sun_rising import activation, supply
from rsr.rulesets.red_sun_rising.state import RsrState
from rsr.scenario import load_scenario

ROUGH = {f"{line:02d}{pos:02d}": "rough" for line in range(20, 28) for pos in range(18, 30)}


def test_unknown_option_in_an_invite_is_refused_naming_it() -> None:
    """RSR 9.46: rail-stacking-4 is the one rules option; any other name is refused at set-up."""
    ruleset = get_ruleset("red-sun-rising")
    scenario = load_scenario("red-sun-rising", "korea-1904")
    with pytest.raises(BadInput, match="unknown Red Sun Rising option 'hq-column-st163'"):
        initial_position(ruleset, scenario, {"hq-column-st163": True})
    assert "rail-stacking-4" in ruleset.known_options
    initial_position(ruleset, scenario, {"rail-stacking-4": True})  # a known option is accepted


def test_unknown_option_in_a_scenario_is_refused() -> None:
    spec = {"id": "x", "ruleset": "red-sun-rising", "scenario": "korea-1904", "changes": {"options": {"fog": 1}}}
    with pytest.raises(BadInput, match="unknown Red Sun Rising option 'fog'"):
        get_ruleset("red-sun-rising").initial_state(case_scenario(spec), {})


def _feeding_state(setup: list[dict[str, str]], fleets: dict[str, str]) -> RsrState:
    spec = {"id": "x", "ruleset": "red-sun-rising", "scenario": "korea-1904",
            "changes": {"first_turn": 7, "sequence": ["japan.movement", "end"], "setup": setup, "control": {},
                        "merchant_fleets": fleets},
            "terrain": ROUGH, "replace_hexsides": True, "roads": [], "rail": []}
    state: RsrState = get_ruleset("red-sun-rising").initial_state(case_scenario(spec), {})
    return state


def _brute_force_best(state: RsrState) -> tuple[int, int]:
    options = {u: f for u, f in supply.feeding_options(state).items() if f}
    units = sorted(options)
    best = (0, 0)
    for choice in itertools.product(*[[None, *options[u]] for u in units]):
        load: dict[str, int] = {}
        for unit_id, fleet in zip(units, choice, strict=True):
            if fleet:
                load[fleet] = load.get(fleet, 0) + activation.command_value(state, state.units[unit_id])
        if all(v <= supply.FLEET_CAPACITY for v in load.values()):
            best = max(best, (sum(load.values()), sum(1 for f in choice if f)))
    return best


@pytest.mark.parametrize("layout", [
    # (units in 2026 with their HQ, units in 2128): 2128 reaches both fleets, 2026 only mf-1
    (["jp-4", "jp-6"], ["jp-2"]),
    (["jp-4", "jp-6", "jp-k2"], ["jp-2", "jp-k4"]),
    (["jp-4", "jp-k2", "jp-k4"], ["jp-2", "jp-6", "jp-cav1"]),
])
def test_feeding_default_is_a_maximum_matching(layout: tuple[list[str], list[str]]) -> None:
    """RSR 10.32, RSR 10.42: the default feeds as many command points (then units) as any sharing could."""
    west, east = layout
    setup = [{"unit": "jp-1a", "hex": "2026"}]
    setup += [{"unit": u, "hex": "2026", "assigned_to": "jp-1a"} for u in west]
    setup += [{"unit": u, "hex": "2128", "assigned_to": "jp-1a"} for u in east]
    state = _feeding_state(setup, {"mf-1": "2029", "mf-2": "2229"})
    feed = supply.feeding_by_policy(state)
    supply.check_feeding(state, feed)  # legal: every unit reaches its fleet, no fleet over four points
    points = sum(activation.command_value(state, state.units[u]) for u in feed)
    assert (points, len(feed)) == _brute_force_best(state)


def test_result_is_none_until_the_game_ends() -> None:
    """RSR 19.4: no result before the game is over."""
    ruleset = get_ruleset("red-sun-rising")
    state = ruleset.initial_state(load_scenario("red-sun-rising", "korea-1904"), {})
    assert ruleset.result(state) is None


@pytest.mark.parametrize("terrain", ["mountain", "rough"])
def test_overstack_default_choice_is_always_a_legal_minimal_answer(terrain: str) -> None:
    """RSR 12.2: the default policy's units are exactly enough to bring the hex within its limit."""
    from rsr.rulesets.red_sun_rising import stacking

    pool = ["jp-2", "jp-4", "jp-k2", "jp-cav1", "jp-art1"]
    checked = 0
    for size in range(2, 6):
        for combo in itertools.combinations(pool, size):
            setup = [{"unit": "jp-1a", "hex": "2322"}]
            setup += [{"unit": u, "hex": "2322", "assigned_to": "jp-1a"} for u in combo]
            spec = {"id": "x", "ruleset": "red-sun-rising", "scenario": "korea-1904", "terrain": {"2322": terrain},
                    "changes": {"first_turn": 7, "sequence": ["japan.movement", "end"], "setup": setup, "control": {}}}
            state = get_ruleset("red-sun-rising").initial_state(case_scenario(spec), {})
            if "2322" in stacking.overstacked(state, "japan"):
                stacking.check_choice(state, "2322", "japan", stacking.excess_by_policy(state, "2322", "japan"))
                checked += 1
    assert checked
