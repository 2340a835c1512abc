"""The tactical naval battle (issue 13), rule by rule: RSR 4.4, 8.0-8.87 with the 8.24 and 8.76-8.77 errata,
18.83, and the battle plans. Dice are scripted; every expected value is worked out from the cited case."""

from __future__ import annotations

from typing import Any

import pytest

from rsr.engine import Context
from rsr.errors import RulesError
from rsr.fairdice import ScriptedDice
from rsr.rulesets.red_sun_rising.naval import battle, battle_flow, plans, tactical
from rsr.rulesets.red_sun_rising.naval.battle import BattleSetting
from rsr.rulesets.red_sun_rising.naval.data import NavalStatic, load_naval
from rsr.rulesets.red_sun_rising.naval.state import Fleet
from rsr.scenario import load_scenario


@pytest.fixture(scope="module")
def static() -> NavalStatic:
    loaded = load_naval(load_scenario("red-sun-rising", "naval-1905").data)
    assert loaded is not None
    return loaded


def force(static: NavalStatic, side: str, ships: list[str], morale: int = 3, plan: dict[str, Any] | None = None,
          admiral: str | None = None) -> tactical.Force:
    admiral = admiral or ("ru-adm-vitgeft" if side == "russia" else "jp-adm-togo")
    made = tactical.Force(side, [f"{side}-fleet"], admiral, morale, plans.check_plan(plan, side))
    tactical.deploy(static, made, ships)
    made.flagship = next((s for s in ships if static.ship(s).capital), None)
    return made


def ctx(*dice: int) -> Context:
    return Context(ScriptedDice(list(dice)))


# -- the engine is registered ----------------------------------------------------------------------------------

def test_the_tactical_battle_is_the_registered_engine() -> None:
    """The naval game's battle interface fights: searches that find the enemy are not refused (RSR 8.0)."""
    from rsr.rulesets.red_sun_rising.naval import flow  # (the naval game registers its battle engine as it loads)

    assert flow.DECISIONS and battle.require_battle(42, "a test") is battle_flow.fight


# -- set-up (8.2) -------------------------------------------------------------------------------------------------

def test_display_set_up(static: NavalStatic) -> None:
    """RSR 8.2, RSR 8.53: battleships first in boxes 1..n, cruisers after them by Attack Strength (6s, 5s, 4s),
    destroyer flotillas before torpedo flotillas; the side with more capital ships puts the excess, from the back of
    its battleline, in the Secondary Force at the same box numbers (8.53)."""
    jp = force(static, "japan", ["jp-chitose", "jp-izumo", "jp-tf1", "jp-mikasa", "jp-df1", "jp-fuji"])
    assert jp.line == {"jp-mikasa": 1, "jp-fuji": 2, "jp-izumo": 3, "jp-chitose": 4}
    assert jp.flotillas == {"jp-df1": 1, "jp-tf1": 2}
    ru = force(static, "russia", ["ru-retvizan", "ru-diana"])
    forces = {"russia": ru, "japan": jp}
    tactical.secondary_force(static, forces)
    assert jp.secondary == ["jp-izumo", "jp-chitose"] and ru.secondary == []
    assert tactical.legal_targets(2, jp) == ["jp-mikasa", "jp-fuji", "jp-izumo"]  # 8.53: box 3 counts


def test_several_fleets_fight_under_the_highest_rated_admiral(static: NavalStatic) -> None:
    """Interpretation (8.2, 8.71): Togo (5) commands when Kamimura's (4) fleet is in the same hex."""
    a = Fleet("jp-fleet-2", "japan", "jp-adm-kamimura", 82, ["jp-izumo"], at_sea=True, morale=4)
    b = Fleet("jp-fleet-1", "japan", "jp-adm-togo", 82, ["jp-mikasa"], at_sea=True, morale=5)
    assert tactical.commanding_fleet(static, [a, b]).id == "jp-fleet-1"


# -- weather and range (8.3, 8.4) ---------------------------------------------------------------------------------

@pytest.mark.parametrize("before, die, after", [
    ("clear", 5, "clear"), ("clear", 6, "fog"),                                        # 8.31
    ("fog", 3, "clear"), ("fog", 4, "storm"), ("fog", 5, "storm"), ("fog", 6, "fog"),  # 8.32
    ("storm", 2, "clear"), ("storm", 3, "storm"), ("storm", 6, "fog"),                 # 8.33
])
def test_weather_changes(before: str, die: int, after: str) -> None:
    """RSR 4.41, RSR 8.3, RSR 8.31, RSR 8.32, RSR 8.33: the weather of each hour after the first."""
    assert tactical.weather_change(before, die) == after


def test_range_moves_limited_by_morale() -> None:
    """RSR 8.42, 8.47: each side moves the marker at most its morale, never below zero."""
    assert tactical.range_move(6, "close", 2, False) == 4
    assert tactical.range_move(1, "close", 3, False) == 0
    assert tactical.range_move(6, 2, 5, False) == 2
    assert tactical.range_move(2, 5, 1, False) == 3
    assert tactical.range_move(4, "hold", 3, False) == 4
    assert tactical.range_move(4, "open", 3, False) == 7
    assert tactical.range_move(4, "close", 3, True) == 7  # breaking off: opens whatever the plan preferred


def test_zero_morale_opens_six_and_rozhestvansky_five(static: NavalStatic) -> None:
    """RSR 8.77 and its errata: a fleet at zero morale opens by 6 (the Baltic fleet under Rozhestvansky: 5)."""
    ru = force(static, "russia", ["ru-retvizan"], morale=0)
    assert tactical.opening_allowance(static, ru) == 6
    baltic = force(static, "russia", ["ru-orel"], morale=0, admiral="ru-adm-rozhestvansky")
    assert tactical.opening_allowance(static, baltic) == 5
    assert tactical.opening_allowance(static, force(static, "russia", ["ru-orel"], morale=3)) == 3


def test_russian_first_then_japanese(static: NavalStatic) -> None:
    """RSR 8.42: the Russian moves the marker first, the Japanese then moves it from there."""
    forces = {"russia": force(static, "russia", ["ru-retvizan"], 2, {"range": "open"}),
              "japan": force(static, "japan", ["jp-mikasa"], 5, {"range": "close"})}
    assert tactical.determine_range(ctx(), static, forces, 4, [], 1) == (1, "plans")  # 4 + 2 - 5


def test_naval_maneuver_table_after_two_unchanged_ranges(static: NavalStatic) -> None:
    """RSR 4.43, RSR 8.4, RSR 8.44, RSR 8.45, RSR 8.47, RSR 8.49: the third determination after the same range
    twice is a die (4: -2; 6: -3, but never below zero); without the repeat, the plans move the marker."""
    forces = {"russia": force(static, "russia", ["ru-retvizan"], 2), "japan": force(static, "japan", ["jp-mikasa"])}
    c = ctx(4)
    assert tactical.determine_range(c, static, forces, 3, [3, 3], 3) == (1, "maneuver")
    assert tactical.determine_range(ctx(6), static, forces, 1, [1, 1], 4)[0] == 0  # 8.47: never below zero
    assert tactical.determine_range(ctx(), static, forces, 3, [2, 3], 3) == (3, "plans")


# -- gunnery (8.5) -------------------------------------------------------------------------------------------------

def test_targets_opposite_number_plus_or_minus_one(static: NavalStatic) -> None:
    """RSR 8.51: box 2 may fire at 1, 2 or 3; box 1 at 1 or 2; the plan picks among them."""
    jp = force(static, "japan", ["jp-mikasa", "jp-fuji", "jp-izumo", "jp-chitose"])
    assert tactical.legal_targets(1, jp) == ["jp-mikasa", "jp-fuji"]
    assert tactical.choose_target(static, "opposite", 2, jp) == "jp-fuji"
    assert tactical.choose_target(static, "weakest", 2, jp) == "jp-izumo"     # defense 4
    assert tactical.choose_target(static, "strongest", 2, jp) == "jp-mikasa"  # attack 8
    jp.disabled.append("jp-izumo")
    assert tactical.choose_target(static, "disabled", 2, jp) == "jp-izumo"
    assert tactical.choose_target(static, "opposite", 9, jp) is None


def test_opposite_ties_in_one_box_go_by_ship_id(static: NavalStatic) -> None:
    """RSR 8.51, RSR 8.53 (interpretations.md): a Secondary Force ship counts as being in its box's battleline box,
    and the text prefers neither it nor the battleline ship there; the plan rule ``opposite`` takes the box first
    and, within the box, the lower ship id, even when that is the Secondary Force ship."""
    jp = force(static, "japan", ["jp-mikasa", "jp-fuji", "jp-izumo"])
    jp.secondary, jp.line["jp-izumo"] = ["jp-izumo"], 1  # izumo moved to Secondary Force box 1 (8.48)
    assert tactical.legal_targets(1, jp) == ["jp-izumo", "jp-mikasa", "jp-fuji"]
    assert tactical.choose_target(static, "opposite", 1, jp) == "jp-izumo"
    assert tactical.choose_target(static, "opposite", 2, jp) == "jp-fuji"  # the box first, then box - 1


def test_gunnery_modifiers() -> None:
    """RSR 8.54: -1 per Range Box, -2 storm, -1 fog, -3 for a disabled firer."""
    assert tactical.gunnery_modifier(3, "clear", False) == -3
    assert tactical.gunnery_modifier(0, "storm", False) == -2
    assert tactical.gunnery_modifier(1, "fog", True) == -5


def test_disabled_sunk_and_disabled_again(static: NavalStatic) -> None:
    """RSR 8.52, 8.24: result >= defense disables, >= twice sinks, a disabled ship disabled again sinks."""
    ru = force(static, "russia", ["ru-retvizan"])  # defense 6
    assert tactical.effect(static, ru, "ru-retvizan", 5) == "no effect"
    assert tactical.effect(static, ru, "ru-retvizan", 6) == "disabled"
    assert tactical.effect(static, ru, "ru-retvizan", 12) == "sunk"
    ru.disabled.append("ru-retvizan")
    assert tactical.effect(static, ru, "ru-retvizan", 6) == "sunk"


def test_gunnery_is_simultaneous_and_printed_cells_are_not_provisional(static: NavalStatic) -> None:
    """RSR 4.44, RSR 8.5: the Russian fires first but results apply after both have fired; the 8 column, die 2 is
    printed (4), the 8 column, die 6 is not (provisional)."""
    forces = {"russia": force(static, "russia", ["ru-diana"], 2), "japan": force(static, "japan", ["jp-mikasa"])}
    c = ctx(6, 6)  # Diana (4 column) die 6 at range 0 -> 5: Mikasa (6) unhurt; Mikasa die 6 -> 9 >= 2 x 3
    tactical.gunnery_phase(c, static, forces, 0, "clear", 1)
    shots = [e for e in c.events if e.kind == "naval-gunnery"]
    assert [(e.data["firer"], e.data["outcome"]) for e in shots] == [("ru-diana", "no effect"),
                                                                   ("jp-mikasa", "sunk")]
    assert all(e.provisional for e in shots)
    forces = {"russia": force(static, "russia", ["ru-diana"], 2), "japan": force(static, "japan", ["jp-mikasa"])}
    c = ctx(1, 4, 1)  # Mikasa die 4 at range 2 -> 2: printed 8 column, die 2 is 4 >= Diana's 3: disabled;
    # Diana is the flagship here, so the Admiral Casualty Table is rolled (1: unhurt)
    tactical.gunnery_phase(c, static, forces, 2, "clear", 1)
    mikasa = [e for e in c.events if e.kind == "naval-gunnery"][1]
    assert (mikasa.data["result"], mikasa.data["outcome"], mikasa.provisional) == (4, "disabled", [])


def test_a_die_below_one_is_no_effect(static: NavalStatic) -> None:
    """RSR 8.24 errata."""
    assert static.crt(8, 0) == (0, False)


# -- admiral casualties (8.56, 8.74, 8.75) and morale (8.72) ----------------------------------------------------

def test_flagship_disabled_rolls_admiral_casualty_and_sunk_kills(static: NavalStatic) -> None:
    """Interpretation of 8.56: the table is rolled when the flagship is disabled; losing it kills (8.75)."""
    ru = force(static, "russia", ["ru-retvizan", "ru-diana"], 3)
    c = ctx(4)
    tactical.admiral_casualty(c, static, ru, "disabled", 1)
    assert ru.casualty_pending == "wounded"
    tactical.morale_phase(c, static, {"russia": ru, "japan": force(static, "japan", ["jp-mikasa"])}, 1)
    assert ru.morale == 2 and ru.admiral_wounded  # 8.74
    tactical.admiral_casualty(c, static, ru, "sunk", 2)
    tactical.morale_phase(c, static, {"russia": ru, "japan": force(static, "japan", ["jp-mikasa"])}, 2)
    assert ru.morale == 0 and ru.admiral_killed and ru.breaking  # 8.75, 8.76
    assert any(e.kind == "naval-break-off" for e in c.events)


def test_morale_one_per_five_defense_points_sunk(static: NavalStatic) -> None:
    """RSR 4.46, RSR 8.72: 4 points: nothing; 9 points: one; 10 points: two (counted over the whole battle)."""
    ru = force(static, "russia", ["ru-retvizan"], 4)
    forces = {"russia": ru, "japan": force(static, "japan", ["jp-mikasa"])}
    c = ctx()
    ru.sunk_points = 4
    tactical.morale_phase(c, static, forces, 1)
    assert ru.morale == 4
    ru.sunk_points = 9
    tactical.morale_phase(c, static, forces, 2)
    assert ru.morale == 3
    ru.sunk_points = 10
    tactical.morale_phase(c, static, forces, 3)
    assert ru.morale == 2


# -- torpedo attacks (8.6) --------------------------------------------------------------------------------------

def test_torpedo_option_goes_to_the_higher_morale_or_a_die(static: NavalStatic) -> None:
    """RSR 8.6: higher morale first; equal morale: 1-3 the Russian, 4-6 the Japanese."""
    forces = {"russia": force(static, "russia", ["ru-retvizan"], 2), "japan": force(static, "japan", ["jp-mikasa"], 5)}
    assert tactical.torpedo_option_order(ctx(), forces, 1) == ["japan", "russia"]
    forces["japan"].morale = 2
    assert tactical.torpedo_option_order(ctx(3), forces, 1) == ["russia", "japan"]
    assert tactical.torpedo_option_order(ctx(4), forces, 1) == ["japan", "russia"]


def test_torpedo_attack_phase(static: NavalStatic) -> None:
    """RSR 4.45, RSR 8.61, RSR 8.62, RSR 8.63, RSR 8.65: flotillas in box order; the one facing an enemy
    flotilla fights it (both ways, range 0); the other is fired at by its target and, unhurt, torpedoes it on
    the 1 column; results at the end."""
    jp = force(static, "japan", ["jp-mikasa", "jp-df1", "jp-tf1", "jp-tf2"], 5,
               {"torpedo": {"attack": "always", "flotillas": 2, "target": "flotilla"}})
    ru = force(static, "russia", ["ru-retvizan", "ru-df1"], 2)
    forces = {"russia": ru, "japan": jp}
    # jp-df1 at ru-df1: die 6 -> 3 (sunk, 2 x 1); ru-df1 back: die 1 -> 0; jp-tf1 is not facing anyone (ru has one
    # flotilla): its target ru-df1 fires first (die 2 -> 0) and the torpedo rolls die 6 -> 2 on the 1 column
    c = ctx(6, 1, 2, 6)
    assert tactical.torpedo_phase(c, static, forces, 1, "clear", 1) == "japan"
    kinds = [(e.kind, e.data.get("firer"), e.data.get("outcome")) for e in c.events if e.kind != "die"]
    assert kinds == [("naval-torpedo-option", None, None),
                     ("naval-flotilla-gunnery", "jp-df1", "sunk"), ("naval-flotilla-gunnery", "ru-df1", "no effect"),
                     ("naval-return-fire", "ru-df1", "no effect"), ("naval-torpedo", "jp-tf1", "already sunk")]
    assert "jp-tf2" not in c.events[0].data["flotillas"]  # 8.61: two flotillas, in box order


def test_return_fire_aborts_the_torpedo(static: NavalStatic) -> None:
    """RSR 8.61, 8.63: the target alone fires at the attacker; disabled or sunk, it does not launch."""
    jp = force(static, "japan", ["jp-mikasa", "jp-tf1"], 5, {"torpedo": {"attack": "always"}})
    ru = force(static, "russia", ["ru-retvizan"], 2)
    c = ctx(5)  # Retvizan (7 column) at range 0, die 5 -> 7: the flotilla (defense 1) is sunk
    tactical.torpedo_phase(c, static, {"russia": ru, "japan": jp}, 0, "clear", 1)
    assert "jp-tf1" in jp.sunk and not any(e.kind == "naval-torpedo" for e in c.events)


def test_nobody_attacks_when_both_plans_decline(static: NavalStatic) -> None:
    never, close = {"torpedo": {"attack": "never"}}, {"torpedo": {"attack": {"range_at_most": 1}}}
    forces = {"russia": force(static, "russia", ["ru-retvizan", "ru-df1"], 2, never),
              "japan": force(static, "japan", ["jp-mikasa", "jp-df1"], 5, close)}
    c = ctx()
    assert tactical.torpedo_phase(c, static, forces, 3, "clear", 1) is None
    assert [e.data["side"] for e in c.events if e.kind == "naval-torpedo-option"] == ["japan", "russia"]


def test_surprise_torpedo_attack(static: NavalStatic) -> None:
    """RSR 18.83: torpedo flotillas on the 1 column, no return fire, results at once."""
    c = ctx(6, 1)
    result = tactical.surprise_torpedo_attack(c, static, {"jp-tf1": "ru-retvizan", "jp-tf2": "ru-diana"}, [])
    rolls = [e.data for e in c.events if e.kind == "naval-torpedo"]
    assert [(r["firer"], r["result"], r["outcome"]) for r in rolls] == [("jp-tf1", 2, "no effect"),
                                                                        ("jp-tf2", 0, "no effect")]
    assert result.sunk == [] and result.disabled == []


# -- whole battles -----------------------------------------------------------------------------------------------

def _fleets() -> tuple[Fleet, Fleet]:
    ru = Fleet("ru-fleet-1", "russia", "ru-adm-vitgeft", 42, ["ru-retvizan", "ru-diana"], at_sea=True, morale=2)
    jp = Fleet("jp-fleet-1", "japan", "jp-adm-togo", 42, ["jp-mikasa", "jp-chitose"], at_sea=True, morale=5)
    return ru, jp


def test_refusal_in_a_friendly_port(static: NavalStatic) -> None:
    """RSR 8.1, 8.73: the side whose port it is may refuse (its plan says so): in port, one morale less."""
    ru, jp = _fleets()
    c = ctx()
    result = battle_flow.fight(c, static, 42, [ru], [jp], "clear",
                            BattleSetting(plans={"russia": {"refuse_in_port": True}}, port_sides=("russia",)))
    assert result.to_port == ["ru-fleet-1"] and result.morale == {"ru-fleet-1": 1} and not c.dice.rolls  # type: ignore[attr-defined]
    # the same plan outside a friendly port fights (8.1): the hours are rolled
    c = ctx(1, 1, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6)
    result = battle_flow.fight(c, static, 53, [ru], [jp], "clear",
                            BattleSetting(plans={"russia": {"refuse_in_port": True}}))
    assert result.to_port == [] and any(e.kind == "naval-setup" for e in c.events)


def test_out_of_sight_then_searches(static: NavalStatic) -> None:
    """RSR 4.42, RSR 8.43, RSR 8.46, RSR 8.8, RSR 8.84: both plans open the range past the maximum sighting
    range; out of sight, the Japanese then the Russian may search each hour; nobody sights, the hours run out
    (8.85). Ranges out of sight never count towards the Naval Maneuver Table (8.46)."""
    ru, jp = _fleets()
    c = ctx(1, 1,      # 2 hours
            6, 6,      # hour 2: weather clear -> 6: fog; Japanese search 6 + 1 (fog) > 3; Russian search
            6)
    result = battle_flow.fight(c, static, 42, [ru], [jp], "clear",
                            BattleSetting(plans={"russia": {"range": "open"}, "japan": {"range": "open"}}))
    hours = [e.data for e in c.events if e.kind == "naval-hour"]
    assert [(h["range"], h["how"]) for h in hours] == [(13, "plans, beyond sighting"), (13, "out of sight")]
    assert [e.data["side"] for e in c.events if e.kind == "naval-search"] == ["japan", "russia"]
    assert result.sunk == [] and result.withdraws == []


def test_fog_alone_breaks_contact_and_the_hour_searches(static: NavalStatic) -> None:
    """RSR 4.42, RSR 8.82, RSR 8.84 (flow chart step A): in sight at 5 in clear weather, the next hour's fog makes
    5 beyond sight: that hour has a Search Phase, not a Range Determination Phase, so the asked admiral is not
    asked for the range and nobody fires; a sighting would put the fleets at the fog's sighting range (8.41)."""
    plan = {"russia": {"range": 5, "torpedo": {"attack": "never"}},
            "japan": {"range": "ask", "torpedo": {"attack": "never"}}}
    c, fight = _asked_battle(static, plan,
                             1, 1,        # 2 hours
                             1, 1, 1, 1,  # hour 1: four gunnery dice at -5, no effect
                             6,           # hour 2: weather clear -> fog (8.31)
                             6, 6)        # hour 2: the Japanese, then the Russian search: 6 +1, nothing
    result, asked = _answer_all(static, c, fight, {(1, "japan", "naval-range"): {"range": "hold"}})
    assert asked == [(1, "japan", "naval-range")]
    lost = [e.data for e in c.events if e.kind == "naval-lost-sight"]
    assert lost == [{"hour": 2, "weather": "fog", "range": 5, "max_sighting": 4, "cause": "weather"}]
    assert [(e.data["hour"], e.data["side"]) for e in c.events if e.kind == "naval-search"] == \
        [(2, "japan"), (2, "russia")]
    assert not [e for e in c.events if e.kind == "naval-gunnery" and e.data["hour"] == 2]
    assert [(h["weather"], h["range"], h["how"]) for h in result.hours] == \
        [("clear", 5, "asked"), ("fog", 5, "out of sight")]


def test_fog_breaking_contact_ends_the_battle_for_a_fleet_at_zero_morale(static: NavalStatic) -> None:
    """RSR 8.76 errata, RSR 8.86 (interpretations.md): a fleet at zero morale whose enemy the fog hides is gone; no
    search, the battle is over."""
    ru, jp = _fleets()
    forces = {"russia": force(static, "russia", ["ru-retvizan", "ru-diana"], morale=0),
              "japan": force(static, "japan", ["jp-mikasa", "jp-chitose"], morale=5)}
    fight = battle_flow.Battle(53, "clear", 3, 5, forces, [ru, jp], hour=1, history=[5])
    c = ctx(6)  # hour 2: clear -> fog
    result = battle_flow.run(c, static, fight)
    assert result is not None and fight.ended == "broken off (morale zero)"
    assert [e.kind for e in c.events if e.kind in ("naval-lost-sight", "naval-search")] == ["naval-lost-sight"]
    assert result.hours[-1]["how"] == "weather, beyond sighting" and result.withdraws == ["ru-fleet-1"]


def test_plan_break_off_after_an_hour(static: NavalStatic) -> None:
    """Battle plans: ``break_off: {after_hour: 1}`` opens the range from hour 2 as far as morale allows."""
    ru, jp = _fleets()
    c = ctx(1, 1, *([1] * 4),  # 2 hours; hour 1 at range 6: four gunnery dice, all misses
            1)                 # hour 2 weather
    battle_flow.fight(c, static, 53, [ru], [jp], "clear",
                   BattleSetting(plans={"russia": {"break_off": {"after_hour": 1}},
                                        "japan": {"range": "hold", "torpedo": {"attack": "never"}}}))
    assert any(e.kind == "naval-break-off" and e.data["reason"] == "plan" and e.data["hour"] == 2 for e in c.events)
    last = [e.data for e in c.events if e.kind == "naval-hour"][-1]
    assert last["range"] == 8  # 6 + 2 (Vitgeft's fleet's morale)


# -- battle plans ------------------------------------------------------------------------------------------------

def test_default_plan_fills_missing_keys() -> None:
    plan = plans.check_plan({"range": "close"}, "japan")
    assert plan["range"] == "close" and plan["torpedo"] == plans.DEFAULT_PLAN["torpedo"]
    assert plans.check_plan(None, "russia") == plans.DEFAULT_PLAN


@pytest.mark.parametrize("bad, why", [
    ({"range": "far"}, "range"), ({"range": -1}, "range"), ({"targets": "any"}, "targets"),
    ({"break_off": {"when": 1}}, "break_off"), ({"torpedo": {"attack": "sometimes"}}, "torpedo attack"),
    ({"torpedo": {"target": "merchant"}}, "torpedo target"), ({"speed": 1}, "keys"), ([], "mapping"),
])
def test_bad_plans_are_refused(bad: Any, why: str) -> None:
    with pytest.raises(RulesError, match=why):
        plans.check_plan(bad, "russia")


def test_plan_conditions() -> None:
    plan = plans.check_plan({"break_off": {"sunk_points_at_least": 10}, "torpedo": {"attack": {"range_at_most": 2}}},
                            "russia")
    assert not plans.wants_break_off(plan, 3, 9, 1) and plans.wants_break_off(plan, 3, 10, 1)
    assert plans.wants_torpedo_attack(plan, 2) and not plans.wants_torpedo_attack(plan, 3)


# -- secondary force (8.48), sighting limits (8.81-8.83), succession (19.3, 8.79) ---------------------------------

def test_secondary_force_moves_after_the_range(static: NavalStatic) -> None:
    """RSR 8.48, RSR 8.53: ``secondary: weakest`` moves every Secondary Force ship to the box of the enemy's
    weakest capital ship, where it fires from; a mapping places them for the whole battle."""
    jp = force(static, "japan", ["jp-mikasa", "jp-fuji", "jp-izumo"], 5, {"secondary": "weakest"})
    ru = force(static, "russia", ["ru-retvizan", "ru-diana"])
    tactical.secondary_force(static, {"russia": ru, "japan": jp})
    assert jp.secondary == ["jp-izumo"] and jp.line["jp-izumo"] == 2  # Diana (defense 3) is in box 2
    assert tactical.choose_target(static, "opposite", jp.line["jp-izumo"], ru) == "ru-diana"
    jp = force(static, "japan", ["jp-mikasa", "jp-fuji", "jp-izumo"], 5, {"secondary": {"jp-izumo": 7}})
    tactical.secondary_force(static, {"russia": force(static, "russia", ["ru-retvizan", "ru-diana"]), "japan": jp})
    assert jp.line["jp-izumo"] == 7 and tactical.display(jp)["secondary"] == {"7": ["jp-izumo"]}


def test_maximum_sighting_ranges() -> None:
    """RSR 8.41, RSR 8.81, RSR 8.82, RSR 8.83, RSR 8.21: the Japanese marker starts at 6 / 4 / 3 by weather, and
    the action is broken off temporarily from 7 in clear, 5 in fog, 4 in storm."""
    assert tactical.MAX_SIGHTING == {"clear": 6, "fog": 4, "storm": 3}


def test_initial_morale_is_the_fleets_morale(static: NavalStatic) -> None:
    """RSR 8.7, RSR 8.71, RSR 8.23: the morale track starts at each fleet's current morale (its admiral's
    rating when the game began, 8.71, less what it lost since)."""
    ru, jp = _fleets()
    c = ctx(1, 1, *([1] * 9))  # two hours: four misses, weather, four misses
    battle_flow.fight(c, static, 53, [ru], [jp], "clear", BattleSetting())
    setup = next(e.data for e in c.events if e.kind == "naval-setup")
    assert setup["morale"] == {"russia": 2, "japan": 5} and setup["range"] == 6
    assert [e.data["default"] for e in c.events if e.kind == "naval-plan"] == [True, True]


def test_succession(static: NavalStatic) -> None:
    """RSR 19.3: the next admiral of the Turn Record Track, else the last living withdrawn one, else an
    incompetent rated 1; RSR 8.79: the fleet's morale moves by the difference of the ratings."""
    from rsr.rulesets.red_sun_rising.naval import succession

    track = list(static.admiral_track) or succession.admiral_track(
        load_scenario("red-sun-rising", "naval-1905").data["track"])
    assert succession.successor(static, track, 2, "russia", [], [])[0] == "ru-adm-vitgeft"  # turn 3's arrival
    later = succession.successor(static, track, 16, "russia", [], [])
    assert later[0] == "ru-adm-stark" and "withdrawn" in later[1]                           # withdrawn on turn 2
    assert succession.successor(static, track, 16, "russia", ["ru-adm-stark"], [])[0] == "ru-adm-incompetent"
    assert succession.successor(static, track, 5, "japan", [], [])[0] == "jp-adm-incompetent"
    assert static.admiral("jp-adm-incompetent").initiative == 1
    assert succession.morale_with(static, 0, "ru-adm-essen", "ru-adm-rozhestvansky") == 1
    assert succession.morale_with(static, 4, "ru-adm-marakov", "ru-adm-stark") == 1


def test_no_limit_to_torpedo_attacks(static: NavalStatic) -> None:
    """RSR 8.64: a flotilla that attacked this hour may attack again the next hour (and goes back to its box)."""
    jp = force(static, "japan", ["jp-mikasa", "jp-tf1"], 5, {"torpedo": {"attack": "always"}})
    ru = force(static, "russia", ["ru-diana"], 2)
    forces = {"russia": ru, "japan": jp}
    c = ctx(1, 3, 1, 3)  # each hour: Diana's return fire 1 (printed 4 column: 0), the torpedo 3 (-> 0)
    assert tactical.torpedo_phase(c, static, forces, 1, "clear", 1) == "japan"
    assert tactical.torpedo_phase(c, static, forces, 1, "clear", 2) == "japan"
    assert [e.data["hour"] for e in c.events if e.kind == "naval-torpedo"] == [1, 2]
    assert jp.flotillas == {"jp-tf1": 1}


# -- asked hour by hour (issue 13) -------------------------------------------------------------------------------

def _asked_battle(static: NavalStatic, plans_by_side: dict[str, Any], *dice: int) -> tuple[Context, Any]:
    ru, jp = _fleets()
    c = ctx(*dice)
    started = battle_flow.begin(c, static, 53, [ru], [jp], "clear", BattleSetting(plans=plans_by_side))
    assert isinstance(started, battle_flow.Battle)
    return c, started


def test_an_asked_plan_stops_the_battle_and_the_same_answers_fight_as_the_plan(static: NavalStatic) -> None:
    """RSR 8.42, RSR 8.51, RSR 8.6 (issue 13): a plan that says ask stops at that choice every hour; answered
    with what a plan would have chosen, the battle rolls the same dice and logs the same rolls as the plan."""
    dice = (1, 1, 2, 1, 2, 1, 1, 2, 1, 2, 1)  # 2 hours; gunnery at ranges 4 and 2; weather stays clear
    plain = ctx(*dice)
    ru, jp = _fleets()
    battle_flow.fight(plain, static, 53, [ru], [jp], "clear",
                   BattleSetting(plans={"russia": {"range": "close"}, "japan": {"range": "hold"}}))
    c, fight = _asked_battle(static, {"russia": {"range": "ask", "targets": "ask"}, "japan": {"range": "hold"}},
                             *dice)
    answers = {"naval-range": {"range": "close"}, "naval-targets": {"targets": {}, "rule": "opposite"}}
    asked = []
    while (result := battle_flow.run(c, static, fight)) is None:
        assert fight.asking["side"] == "russia" and fight.asking.get("sealable", False) is False  # one side asked
        asked.append((fight.hour, fight.asking["kind"]))
        battle_flow.take_answer(static, fight, fight.asking["kind"], "russia", answers[fight.asking["kind"]], False)
    assert asked[:2] == [(1, "naval-range"), (1, "naval-targets")]
    def rolls(events: list[Any]) -> list[Any]:  # the hour's "how" says asked or plans; everything else agrees
        return [(e.kind, {k: v for k, v in e.data.items() if k != "how"}) for e in events
                if e.kind in ("die", "naval-gunnery", "naval-hour")]
    assert rolls(c.events) == rolls(plain.events)
    assert result.hours and [h["how"] for h in result.hours][0] == "asked"


def test_targets_are_sealable_only_when_both_admirals_are_asked(static: NavalStatic) -> None:
    """RSR 8.5 (interpretations.md): gunnery is simultaneous, so the first of two asked admirals (the Japanese,
    who answered the range last) may seal his targets; the battle waits for his unsealing before any die."""
    both = {"russia": {"targets": "ask"}, "japan": {"targets": "ask"}}
    c, fight = _asked_battle(static, both, 1, 1)
    assert battle_flow.run(c, static, fight) is None
    assert fight.asking == {"kind": "naval-targets", "side": "japan", "sealable": True}
    rolled = len(c.dice.rolls)  # type: ignore[attr-defined]
    battle_flow.take_answer(static, fight, "naval-targets", "japan", None, True)
    assert battle_flow.run(c, static, fight) is None and fight.asking["side"] == "russia"
    battle_flow.take_answer(static, fight, "naval-targets", "russia", {"targets": {"ru-diana": "jp-chitose"}}, False)
    assert battle_flow.run(c, static, fight) is None
    assert fight.asking == {"kind": "naval-targets-unseal", "side": "japan"}
    assert len(c.dice.rolls) == rolled  # type: ignore[attr-defined]  # no gunnery die before the unsealing


@pytest.mark.parametrize("kind, answer, why", [
    ("naval-range", {"range": 0}, "by at most 2 boxes"),
    ("naval-range", {"range": "nearer"}, "close | hold | open"),
    ("naval-targets", {"targets": {"ru-retvizan": "ru-diana"}}, "may fire only at jp-mikasa, jp-chitose"),
    ("naval-targets", {"targets": {}, "rule": "nearest"}, "rule"),
    ("naval-torpedo", {"attack": "yes"}, "attack: true | false"),
    ("naval-torpedo", {"attack": True, "flotillas": 0}, "1 or more"),
    ("naval-torpedo", {"attack": True, "target": "ru-retvizan"}, "not an enemy ship afloat"),
])
def test_bad_hourly_answers_are_refused(static: NavalStatic, kind: str, answer: Any, why: str) -> None:
    """RSR 8.42, RSR 8.47, RSR 8.51, RSR 8.61: an hourly answer is checked against the display."""
    _, fight = _asked_battle(static, {}, 1, 1)
    fight.hour = 1
    with pytest.raises(RulesError, match=why):
        battle_flow.check_answer(static, fight, kind, "russia", answer)


def test_an_asked_plan_cannot_be_fought_without_the_game(static: NavalStatic) -> None:
    ru, jp = _fleets()
    with pytest.raises(RulesError, match="asks hour by hour"):
        battle_flow.fight(ctx(1, 1), static, 53, [ru], [jp], "clear", BattleSetting(plans={"japan": "ask"}))


def test_a_plan_that_is_just_ask_asks_range_targets_and_torpedo() -> None:
    plan = plans.check_plan("ask", "japan")
    assert (plan["range"], plan["targets"], plan["torpedo"]["attack"]) == ("ask", "ask", "ask")
    assert plan["break_off"] == {"morale_at_most": 0} and plan["secondary"] == {}


def _answer_all(static: NavalStatic, c: Context, fight: Any, answers: dict[tuple[int, str, str], Any]) -> Any:
    asked = []
    while (result := battle_flow.run(c, static, fight)) is None:
        key = (fight.hour, fight.asking["side"], fight.asking["kind"])
        asked.append(key)
        battle_flow.take_answer(static, fight, key[2], key[1], answers[key], False)
    return result, asked


def test_searching_again_asked_hour_by_hour(static: NavalStatic) -> None:
    """RSR 8.84 (issue 13): out of sight, an admiral whose plan says search: ask is asked each hour whether to
    search; declining rolls no die, and the other side's plan still searches (the Japanese first)."""
    c, fight = _asked_battle(static, {"russia": {"range": "open"}, "japan": {"range": "open", "search": "ask"}},
                             1, 1,   # 2 hours
                             1, 6)   # hour 2: weather clear; the Russian search die 6: nothing
    result, asked = _answer_all(static, c, fight, {(2, "japan", "naval-search-again"): {"search": False}})
    assert asked == [(2, "japan", "naval-search-again")]
    assert [(e.data["hour"], e.data["side"]) for e in c.events if e.kind == "naval-search"] == [(2, "russia")]
    assert [h["how"] for h in result.hours] == ["plans, beyond sighting", "out of sight"]


def test_secondary_force_asked_hour_by_hour(static: NavalStatic) -> None:
    """RSR 8.48, RSR 8.53 (issue 13): after each Range Determination Phase the admiral whose plan says
    secondary: ask names the boxes his Secondary Force ships move to; ships not named stay."""
    ru = Fleet("ru-fleet-1", "russia", "ru-adm-vitgeft", 53, ["ru-retvizan", "ru-diana", "ru-askold"], True, 2)
    jp = Fleet("jp-fleet-1", "japan", "jp-adm-togo", 53, ["jp-mikasa", "jp-chitose"], True, 5)
    c = ctx(1, 1, *[1] * 5, 1, *[1] * 5)  # 2 hours at range 6: every shot falls below 1
    fight = battle_flow.begin(c, static, 53, [ru], [jp], "clear", BattleSetting(plans={"russia": {"secondary": "ask"}}))
    assert isinstance(fight, battle_flow.Battle) and fight.forces["russia"].line["ru-askold"] == 3
    with pytest.raises(RulesError, match="not a russia ship afloat in the Secondary Force"):
        fight.hour = 1
        battle_flow.check_answer(static, fight, "naval-secondary", "russia", {"boxes": {"ru-diana": 1}})
    fight.hour = 0
    result, asked = _answer_all(static, c, fight, {(1, "russia", "naval-secondary"): {"boxes": {"ru-askold": 1}},
                                                   (2, "russia", "naval-secondary"): {"boxes": {}}})
    assert asked == [(1, "russia", "naval-secondary"), (2, "russia", "naval-secondary")]
    moves = [(e.data["hour"], e.data["ship"], e.data["box"]) for e in c.events if e.kind == "naval-secondary"]
    assert moves == [(1, "ru-askold", 1)]
    last = [e.data for e in c.events if e.kind == "naval-hour"][-1]
    assert len(result.hours) == 2 and last["display"]["russia"]["secondary"] == {"1": ["ru-askold"]}
    assert any(e.kind == "naval-gunnery" and e.data["firer"] == "ru-askold" and e.data["target"] == "jp-mikasa"
               for e in c.events)  # from box 1 its opposite number is Mikasa (8.53)


@pytest.mark.parametrize("refuse", [True, False])
def test_refusal_in_port_asked(static: NavalStatic, refuse: bool) -> None:
    """RSR 8.1, RSR 8.73 (issue 13): a plan with refuse_in_port: ask stops before any die in a friendly port and
    asks; refusing sends the fleet to its in-Port side with one morale less, fighting sets up the display."""
    ru, jp = _fleets()
    c = ctx(1, 1, *[1] * 4, 1, *[1] * 4)
    setting = BattleSetting(plans={"russia": {"refuse_in_port": "ask"}}, port_sides=("russia",))
    fight = battle_flow.begin(c, static, 42, [ru], [jp], "clear", setting)
    assert isinstance(fight, battle_flow.Battle) and fight.asking == {"kind": "naval-refuse", "side": "russia"}
    assert not c.dice.rolls  # type: ignore[attr-defined]
    battle_flow.take_answer(static, fight, "naval-refuse", "russia", {"refuse": refuse}, False)
    result = battle_flow.run(c, static, fight)
    assert result is not None
    if refuse:
        assert result.to_port == ["ru-fleet-1"] and result.morale == {"ru-fleet-1": 1} and not c.dice.rolls  # type: ignore[attr-defined]
    else:
        assert result.to_port == [] and any(e.kind == "naval-setup" for e in c.events)
    # outside a friendly port nobody is asked (8.1)
    other = battle_flow.begin(ctx(1, 1), static, 53, [ru], [jp], "clear",
                           BattleSetting(plans={"russia": {"refuse_in_port": "ask"}}))
    assert isinstance(other, battle_flow.Battle) and other.asking is None and other.hours == 2
