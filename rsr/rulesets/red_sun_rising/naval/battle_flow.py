"""The tactical naval battle hour by hour (RSR 4.4, RSR 8.0-8.87): its declared steps and the admirals' decisions.

A battle under way is a :class:`Battle` kept in the naval state, so that it may stop at an admiral's hourly
question and go on in the next packet. Where the current hour stands is ``Battle.step``, the key of one of
the declared :data:`STEPS` (the keys are the state's own words, which its digest covers); :func:`run` walks
them until the battle is over or a step leaves a question in ``Battle.asking`` (kind, side). The questions
are the declared decisions at the end of this module (:data:`DECISIONS`), one per kind, each with its case,
who answers, its options, its template and how an answer is checked and kept. The rules themselves (range,
gunnery, torpedoes, morale...) are the pure functions of tactical.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rsr.decisions import Decision
from rsr.engine import Context, Sealed
from rsr.errors import RulesError
from rsr.rulesets.red_sun_rising.naval import plans as battle_plans
from rsr.rulesets.red_sun_rising.naval.battle import BattleResult, BattleSetting, register_battle
from rsr.rulesets.red_sun_rising.naval.data import NavalStatic
from rsr.rulesets.red_sun_rising.naval.state import Fleet, NavalAsk
from rsr.rulesets.red_sun_rising.naval.tactical import (
    MAX_SIGHTING,
    SIDES,
    Force,
    asks,
    battle_result,
    build_force,
    determine_range,
    display,
    enemy_of,
    gunnery_phase,
    hour_record,
    morale_phase,
    opening_allowance,
    place_secondary,
    plan_torpedo,
    range_move,
    search_roll,
    secondary_force,
    torpedo_attacks,
    torpedo_option_order,
    weather_change,
)
from rsr.rulesets.red_sun_rising.naval.tactical import target_options as legal_target_options


@dataclass
class Battle:
    """A tactical battle under way, kept in the naval state between passes so that it may stop at an admiral's
    hourly question and go on in the next packet. ``step`` is where the current hour stands (a key of
    :data:`STEPS`); ``answers`` holds this hour's asked answers by ``what:side``; ``asking`` the question the
    battle waits for ({kind, side}: one of :data:`DECISIONS`, and whether it may be sealed)."""

    hex: int
    weather: str
    hours: int
    range: int
    forces: dict[str, Force]
    fleets: list[Fleet]
    hour: int = 0
    history: list[int] = field(default_factory=list)
    in_sight: bool = True
    log: list[dict[str, Any]] = field(default_factory=list)
    ended: str = ""
    step: str = "hour"  # the key of one of the declared STEPS
    how: str = "plans"
    asking: dict[str, Any] | None = None
    answers: dict[str, Any] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)   # this hour's torpedo option order (RSR 8.6), once rolled
    port_sides: list[str] = field(default_factory=list)  # sides to which the hex is a friendly port (RSR 8.1)


def target_options(battle: Battle, side: str) -> dict[str, list[str]]:
    """RSR 8.51, RSR 8.53: each capital ship of ``side`` and its legal targets."""
    return legal_target_options(battle.forces[side], battle.forces[enemy_of(side)])


def begin(ctx: Context, static: NavalStatic, hex_number: int, russian: list[Fleet], japanese: list[Fleet],
          weather: str, setting: BattleSetting | None = None) -> Battle | BattleResult:
    """RSR 8.1, RSR 8.2, RSR 8.21-8.23: the plans, a refusal in port (the battle is then over), the display and
    the hours."""
    setting = setting or BattleSetting()
    side_plans = {side: battle_plans.check_plan(setting.plans.get(side), side) for side in SIDES}
    forces = {"russia": build_force(static, "russia", russian, side_plans["russia"], list(setting.disabled),
                               list(setting.sunk)),
              "japan": build_force(static, "japan", japanese, side_plans["japan"], list(setting.disabled),
                              list(setting.sunk))}
    for side in SIDES:
        ctx.emit("naval-plan", f"{side} battle plan{'' if side in setting.plans else ' (default, none signed)'}: "
                 f"{side_plans[side]}", "RSR 8.42", side=side, plan=side_plans[side],
                 default=side not in setting.plans)
    battle = Battle(hex_number, weather, 0, 0, forces, list(russian) + list(japanese), step="refuse",
                    port_sides=[side for side in SIDES if side in setting.port_sides])
    refused = _refuse(ctx, static, battle)
    return refused if refused is not None else battle


def _refuse(ctx: Context, static: NavalStatic, battle: Battle) -> BattleResult | None:
    """RSR 8.1, RSR 8.73: in a port hex friendly to one side, that side may refuse (its plan says, or it is asked):
    its fleets turn to their in-Port side and lose one morale; otherwise the display is set up (RSR 8.2)."""
    for side in battle.port_sides:
        force = battle.forces[side]
        if asks(force, "refuse_in_port"):
            if f"refuse:{side}" not in battle.answers:
                battle.asking = {"kind": "naval-refuse", "side": side}
                return None
            refuse = battle.answers[f"refuse:{side}"]["refuse"]
        else:
            refuse = force.plan["refuse_in_port"]
        if refuse:
            ctx.emit("naval-refused", f"naval hex {battle.hex} is a {side} port: {side} refuses combat, turns to its "
                     "in-Port side and loses one morale", "RSR 8.1", hex=battle.hex, side=side)
            fleets = [f for f in battle.fleets if f.side == side]
            return BattleResult(morale={f.id: max(0, f.morale - 1) for f in fleets},  # RSR 8.73
                                to_port=[f.id for f in fleets], hours=[])
    _set_up(ctx, static, battle)
    return None


def _set_up(ctx: Context, static: NavalStatic, battle: Battle) -> None:
    """RSR 8.2, RSR 8.21-8.23: the Secondary Force, the hours of combat (2d6), the range marker, the morale track."""
    forces, weather = battle.forces, battle.weather
    secondary_force(static, forces)
    dice = [ctx.roll(6, "hours of combat, RSR 8.22"), ctx.roll(6, "hours of combat, RSR 8.22")]
    battle.hours = sum(dice)
    battle.range = MAX_SIGHTING[weather]  # RSR 8.41: the Japanese marker starts at the maximum sighting range
    ctx.emit("naval-setup", f"naval battle in hex {battle.hex}: {battle.hours} hours ({dice[0]}+{dice[1]}), "
             f"{weather}, range {battle.range}", "RSR 8.2", hex=battle.hex, hours=battle.hours, weather=weather,
             range=battle.range, display={s: display(forces[s]) for s in SIDES},
             morale={s: forces[s].morale for s in SIDES}, flagships={s: forces[s].flagship for s in SIDES})
    battle.step = "hour"


def fight(ctx: Context, static: NavalStatic, hex_number: int, russian: list[Fleet], japanese: list[Fleet],
          weather: str, setting: BattleSetting | None = None) -> BattleResult:
    """RSR 4.4: the whole battle, hour by hour, from both plans (a missing plan is DEFAULT_PLAN). A plan that
    asks hour by hour needs the game's requests (flow.py): called directly, such a battle is refused."""
    started = begin(ctx, static, hex_number, russian, japanese, weather, setting)
    if isinstance(started, BattleResult):
        return started
    result = run(ctx, static, started, (setting or BattleSetting()).options)
    if result is None:
        raise RulesError("this battle plan asks hour by hour: the battle must be fought through the game's "
                         "requests")
    return result


def _start_hour(ctx: Context, static: NavalStatic, battle: Battle) -> None:
    """RSR 4.41 (weather), the plans' break-off conditions, RSR 8.84 (out of sight: search), RSR 8.44 (maneuver)."""
    forces = battle.forces
    battle.hour += 1
    hour = battle.hour
    if hour > 1:  # RSR 4.41, RSR 8.3
        battle.weather = weather_change(battle.weather, ctx.roll(6, f"weather, hour {hour}, RSR 8.3"))
    for side in SIDES:
        force = forces[side]
        if not force.breaking and battle_plans.wants_break_off(force.plan, force.morale, force.sunk_points, hour):
            force.breaking = True
            ctx.emit("naval-break-off", f"hour {hour}: {side} breaks off as its plan says", "RSR 8.8",
                     hour=hour, side=side, reason="plan")
        if not force.breaking and force.morale == 0:  # RSR 8.76: a fleet that comes to battle at zero morale
            force.breaking = True
            ctx.emit("naval-break-off", f"hour {hour}: {side} morale zero: the fleet must break off", "RSR 8.76",
                     hour=hour, side=side, reason="morale zero")
    if battle.in_sight and battle.range > MAX_SIGHTING[battle.weather]:
        _weather_loses_sight(ctx, battle)
        return
    if not battle.in_sight:
        if battle.range > MAX_SIGHTING[battle.weather]:
            battle.step = "search"  # RSR 8.84: still out of sight, each side may search
            return
        battle.in_sight = True
    _range_phase(ctx, static, battle)


def _weather_loses_sight(ctx: Context, battle: Battle) -> None:
    """RSR 4.42, RSR 8.81-8.83, flow chart step A: the hour's new weather alone puts a range the fleets were in sight
    at beyond the maximum sighting range. The action is broken off for now, so this hour has a Search Phase
    (RSR 8.84) in place of a Range Determination Phase (for good when a fleet is at zero morale, RSR 8.76 errata);
    losing sight clears the count of ranges for the Naval Maneuver Table (RSR 8.46). interpretations.md, RSR 8.84."""
    forces, hour = battle.forces, battle.hour
    battle.in_sight, battle.history = False, []
    limit = MAX_SIGHTING[battle.weather]
    ctx.emit("naval-lost-sight", f"hour {hour}: {battle.weather}: range {battle.range} is beyond the sighting "
             f"range of {limit}: the action is broken off for now", "RSR 4.42", hour=hour, weather=battle.weather,
             range=battle.range, max_sighting=limit, cause="weather")
    if any(f.morale == 0 for f in forces.values()):  # RSR 8.76: the fleet at zero morale is gone
        battle.log.append(hour_record(ctx, forces, hour, battle.weather, battle.range, "weather, beyond sighting",
                                      None))
        battle.ended = "broken off (morale zero)"
        battle.step, battle.answers = "hour", {}
        return
    battle.step = "search"


def _search(ctx: Context, static: NavalStatic, battle: Battle) -> None:
    """RSR 8.84: out of sight, the Japanese then the Russian may search (plan or asked this hour; never while
    breaking off); a sighting puts the fleets at the maximum sighting range (RSR 8.41), else the hour passes."""
    _search_phase(ctx, static, battle, in_gunnery_phase=False)


def _search_in_gunnery_phase(ctx: Context, static: NavalStatic, battle: Battle) -> None:
    """RSR 4.44 read on its own (rules option ``search-in-gunnery-phase``): the range opened beyond sight in this
    hour's Range Determination Phase, so the Players search in place of the Gunnery Combat Phase. A sighting puts
    the fleets at the maximum sighting range (RSR 8.41) and the hour ends there (its gunnery was spent searching);
    the next hour begins with its Weather and Range Determination Phases. interpretations.md, RSR 4.44."""
    _search_phase(ctx, static, battle, in_gunnery_phase=True)


def _search_phase(ctx: Context, static: NavalStatic, battle: Battle, in_gunnery_phase: bool) -> None:
    forces, hour = battle.forces, battle.hour
    for side in ("japan", "russia"):
        force = forces[side]
        if f"searched:{side}" in battle.answers or force.breaking:
            continue
        if asks(force, "search"):
            if f"search:{side}" not in battle.answers:
                battle.asking = {"kind": "naval-search-again", "side": side}
                return
            wanted = battle.answers[f"search:{side}"]["search"]
        else:
            wanted = force.plan["search"]
        battle.answers[f"searched:{side}"] = True
        if wanted and search_roll(ctx, static, force, battle.hex, battle.weather, hour):
            battle.in_sight, battle.range, battle.history = True, MAX_SIGHTING[battle.weather], []  # RSR 8.41
            if in_gunnery_phase:  # RSR 4.44: the search took this hour's Gunnery Combat Phase
                battle.log.append(hour_record(ctx, forces, hour, battle.weather, battle.range, "sighted", None))
                battle.step, battle.answers = "hour", {}
                return
            _range_phase(ctx, static, battle)
            return
    battle.log.append(hour_record(ctx, forces, hour, battle.weather, battle.range, "out of sight", None))
    battle.step, battle.answers = "hour", {}


def _range_phase(ctx: Context, static: NavalStatic, battle: Battle) -> None:
    """RSR 8.42-8.45: the Naval Maneuver Table after two phases at one range, else both sides move."""
    forces, hour = battle.forces, battle.hour
    history = battle.history
    if len(history) >= 2 and history[-1] == history[-2] and not any(f.morale == 0 for f in forces.values()):
        battle.range, battle.how = determine_range(ctx, static, forces, battle.range, history, hour)  # RSR 8.44
        battle.step = "sighting"
        return
    battle.how, battle.step = "plans", "range:russia"  # RSR 8.42: the Russian first


def _range_move(ctx: Context, static: NavalStatic, battle: Battle, side: str) -> None:
    """RSR 8.42, RSR 8.47, RSR 8.77: one side moves the Japanese Range marker, from its plan or asked this hour (the
    Japanese sees the Russian move first: RSR 8.42 makes them one after the other, not simultaneous)."""
    force = battle.forces[side]
    forced = force.breaking or force.morale == 0
    allowance = opening_allowance(static, force)
    if asks(force, "range") and not forced:
        key = f"range:{side}"
        if key not in battle.answers:
            battle.asking = {"kind": "naval-range", "side": side}
            return
        wish = battle.answers[key]
        before = battle.range
        battle.range = range_move(before, wish, allowance, False)
        battle.how = "asked"
        ctx.emit("naval-range-choice", f"hour {battle.hour}: {side} moves the range {before} -> {battle.range} "
                 f"({wish})", "RSR 8.42", hour=battle.hour, side=side, wish=wish, before=before, range=battle.range)
    else:
        battle.range = range_move(battle.range, "open" if forced else force.plan["range"], allowance, forced)
    battle.step = "range:japan" if side == "russia" else "sighting"


def _sighting(ctx: Context, static: NavalStatic, battle: Battle) -> None:
    """RSR 8.43, RSR 8.81-8.83: beyond the maximum sighting range the action is broken off for now (RSR 8.76: for
    good if a fleet is at zero morale); else the Secondary Force may move (RSR 8.48)."""
    _sighting_then(ctx, battle, search_now=False)


def _sighting_search_now(ctx: Context, static: NavalStatic, battle: Battle) -> None:
    """RSR 4.44 read on its own (rules option ``search-in-gunnery-phase``): as :func:`_sighting`, but a range
    opened beyond sight is searched for in this hour's Gunnery Combat Phase, unless the sides already searched
    this hour (RSR 6.0: once each an hour)."""
    _sighting_then(ctx, battle, search_now=True)


def _sighting_then(ctx: Context, battle: Battle, search_now: bool) -> None:
    forces, hour = battle.forces, battle.hour
    if battle.range > MAX_SIGHTING[battle.weather]:
        battle.in_sight, battle.history = False, []
        zero = any(f.morale == 0 for f in forces.values())
        searched = any(key.startswith("searched:") for key in battle.answers)
        if search_now and not zero and not searched:
            ctx.emit("naval-lost-sight", f"hour {hour}: range {battle.range} is beyond the sighting range of "
                     f"{MAX_SIGHTING[battle.weather]}: the Players search in the Gunnery Combat Phase", "RSR 4.44",
                     hour=hour, weather=battle.weather, range=battle.range,
                     max_sighting=MAX_SIGHTING[battle.weather], cause="range")
            battle.step, battle.answers = "search:gunnery", {}
            return
        battle.log.append(hour_record(ctx, forces, hour, battle.weather, battle.range, battle.how + ", beyond sighting",
                                None))
        if zero:  # RSR 8.76: the fleet at zero morale is gone
            battle.ended = "broken off (morale zero)"
        battle.step, battle.answers = "hour", {}
        return
    battle.history.append(battle.range)
    battle.step = "secondary"


def _secondary(ctx: Context, static: NavalStatic, battle: Battle) -> None:
    """RSR 8.48: after the new range, each side's Secondary Force may move (plan, or asked this hour)."""
    forces, hour = battle.forces, battle.hour
    for side in SIDES:
        force = forces[side]
        if asks(force, "secondary") and any(force.afloat(s) for s in force.secondary) \
                and f"secondary:{side}" not in battle.answers:
            battle.asking = {"kind": "naval-secondary", "side": side}
            return
    for side in SIDES:
        asked = battle.answers.get(f"secondary:{side}", {}).get("boxes")
        for ship in place_secondary(static, forces[side], forces[enemy_of(side)], asked):
            ctx.emit("naval-secondary", f"hour {hour}: {side} moves {ship} to Secondary Force box "
                     f"{forces[side].line[ship]}", "RSR 8.48", hour=hour, side=side, ship=ship,
                     box=forces[side].line[ship])
    battle.step = "targets"



TARGET_ORDER = ("japan", "russia")  # the side that answered the range last names its targets first


def _targets(ctx: Context, static: NavalStatic, battle: Battle) -> None:
    """RSR 8.5: the targets are chosen as if at once (the text calls gunnery simultaneous): of two admirals
    asked, the first may seal his choice, the other answers, then the first unseals (interpretations.md, RSR 8.5)."""
    asked = [s for s in TARGET_ORDER if asks(battle.forces[s], "targets") and target_options(battle, s)]
    for side in asked:
        if f"targets:{side}" not in battle.answers:
            battle.asking = {"kind": "naval-targets", "side": side,
                             "sealable": side == asked[0] and len(asked) == 2}
            return
    for side in asked:
        if battle.answers[f"targets:{side}"] == "sealed":
            battle.asking = {"kind": "naval-targets-unseal", "side": side}
            return
    orders = {side: battle.answers[f"targets:{side}"] for side in asked}
    for side in asked:
        ctx.emit("naval-targets-choice", f"hour {battle.hour}: {side} names its targets: "
                 + (", ".join(f"{a} at {b}" for a, b in sorted(orders[side]['targets'].items())) or "none")
                 + f"; the others by rule {orders[side]['rule']}", "RSR 8.51", hour=battle.hour, side=side,
                 targets=dict(orders[side]["targets"]), rule=orders[side]["rule"])
    gunnery_phase(ctx, static, battle.forces, battle.range, battle.weather, battle.hour, orders)
    battle.step = "torpedo"


def _torpedo(ctx: Context, static: NavalStatic, battle: Battle) -> None:
    """RSR 8.6: the option goes in order (higher morale, else a die); a side asked hour by hour decides when its
    option comes; the first side that attacks ends the options."""
    forces = battle.forces
    if not any(forces[side].boats() for side in SIDES):
        battle.answers["attacker"] = None
        battle.step = "morale"
        return
    if not battle.order:
        battle.order = torpedo_option_order(ctx, forces, battle.hour)
    decisions: dict[str, dict[str, Any]] = {}
    for side in battle.order:
        force = forces[side]
        if not force.boats():
            continue
        if asks(force, "torpedo"):
            key = f"torpedo:{side}"
            if key not in battle.answers:
                battle.asking = {"kind": "naval-torpedo", "side": side}
                return
            decisions[side] = battle.answers[key]
        else:
            decisions[side] = plan_torpedo(force, battle.range)
        if decisions[side]["attack"]:
            break
    battle.answers["attacker"] = torpedo_attacks(ctx, static, forces, battle.order, decisions, battle.weather,
                                                 battle.hour)
    battle.step = "morale"


def _morale(ctx: Context, static: NavalStatic, battle: Battle) -> None:
    """RSR 8.7: the Morale Phase ends the hour; the hour goes in the log (RSR 4.4); a side with no ship left ends
    the battle."""
    forces = battle.forces
    morale_phase(ctx, static, forces, battle.hour)
    battle.log.append(hour_record(ctx, forces, battle.hour, battle.weather, battle.range, battle.how,
                                  battle.answers.get("attacker")))
    if not any(forces[s].capital() or forces[s].boats() for s in SIDES[:1]) or \
            not any(forces[s].capital() or forces[s].boats() for s in SIDES[1:]):
        battle.ended = "a side has no ships left"
    battle.step, battle.answers, battle.order = "hour", {}, []


def _next_hour(ctx: Context, static: NavalStatic, battle: Battle) -> BattleResult | None:
    """RSR 8.85: the battle ends when its hours of combat are over (or it ended in the hour); else the next
    hour starts (RSR 4.41)."""
    if battle.ended or battle.hour >= battle.hours:
        battle.ended = battle.ended or "hours of combat over (RSR 8.85)"
        return battle_result(ctx, static, battle.forces, battle.fleets, battle.hex, battle.ended, battle.log)
    _start_hour(ctx, static, battle)
    return None


@dataclass(frozen=True)
class Step:
    """One declared step of the battle: its key (as ``Battle.step`` keeps it), its case, and what it does
    (a result once the battle is over; otherwise it sets the next step or leaves a question)."""

    key: str
    case: str
    run: Callable[[Context, NavalStatic, Battle], BattleResult | None]


def _range_of(side: str) -> Callable[[Context, NavalStatic, Battle], None]:
    return lambda ctx, static, battle: _range_move(ctx, static, battle, side)


STEPS: dict[str, Step] = {step.key: step for step in (
    Step("refuse", "RSR 8.1", _refuse),                  # a refusal in a friendly port, else the display (RSR 8.2)
    Step("hour", "RSR 4.41", _next_hour),                # weather, break-off by plan (RSR 8.8), sight (RSR 8.84)
    Step("search", "RSR 8.84", _search),                 # out of sight: each side may search
    Step("range:russia", "RSR 8.42", _range_of("russia")),  # the Russian moves the range marker first
    Step("range:japan", "RSR 8.42", _range_of("japan")),
    Step("sighting", "RSR 8.43", _sighting),             # beyond sighting range the action is broken off
    Step("secondary", "RSR 8.48", _secondary),           # the Secondary Force may move
    Step("targets", "RSR 8.5", _targets),                # gunnery
    Step("torpedo", "RSR 8.6", _torpedo),                # the torpedo attack option
    Step("morale", "RSR 8.7", _morale),                  # morale, the hour's record
    Step("search:gunnery", "RSR 4.44", _search_in_gunnery_phase),  # only with search-in-gunnery-phase
)}

# Rules option ``search-in-gunnery-phase`` (RSR 4.44 read on its own, interpretations.md): a range opened beyond
# sight is searched for in the same hour, in place of the Gunnery Combat Phase, rather than after the next
# hour's Weather Phase (RSR 8.84, the default).
SEARCH_IN_GUNNERY_PHASE = "search-in-gunnery-phase"
STEPS_SEARCH_IN_GUNNERY_PHASE: dict[str, Step] = {
    **STEPS, "sighting": Step("sighting", "RSR 4.44", _sighting_search_now)}


def steps_for(options: dict[str, Any] | None) -> dict[str, Step]:
    """The battle's steps under the game's rules options (RSR 4.44 against RSR 8.84)."""
    return STEPS_SEARCH_IN_GUNNERY_PHASE if (options or {}).get(SEARCH_IN_GUNNERY_PHASE) else STEPS


def run(ctx: Context, static: NavalStatic, battle: Battle,
        options: dict[str, Any] | None = None) -> BattleResult | None:
    """RSR 4.41-4.45, RSR 8.3-8.86: fight on from where the battle stands until it is over (its result) or an
    admiral who asked to be asked must answer (None; ``battle.asking`` says what). ``options`` are the game's
    rules options (``search-in-gunnery-phase``, RSR 4.44)."""
    steps = steps_for(options)
    while battle.asking is None:
        result = steps[battle.step].run(ctx, static, battle)
        if result is not None:
            return result
    return None


def register() -> None:
    """The tactical battle is the naval game's battle engine (RSR 8.0)."""
    register_battle(fight)


# ---------------------------------------------------------------- the admirals' hourly decisions (RSR 8.0)

def request_options(static: NavalStatic, battle: Battle, side: str) -> dict[str, Any]:
    """What an admiral asked hour by hour sees: the hour, weather, range, morale, the display (RSR 8.2)."""
    force = battle.forces[side]
    allowance = opening_allowance(static, force)
    return {"hex": battle.hex, "hour": battle.hour, "hours": battle.hours, "weather": battle.weather,
            "range": battle.range, "max_sighting": MAX_SIGHTING[battle.weather],
            "morale": {s: battle.forces[s].morale for s in SIDES}, "allowance": allowance,
            "reach": [max(0, battle.range - allowance), battle.range + allowance],
            "display": {s: display(battle.forces[s]) for s in SIDES},
            "moves": [dict(side=k.split(":")[1], range=v) for k, v in sorted(battle.answers.items())
                      if k.startswith("range:")],
            "targets": target_options(battle, side), "flotillas": force.boats(),
            "secondary": {ship: force.line[ship] for ship in force.secondary if force.afloat(ship)},
            "enemy": sorted(battle.forces[enemy_of(side)].capital() + battle.forces[enemy_of(side)].boats())}


def _mapping(battle: Battle, side: str, kind: str, answer: Any) -> dict[str, Any]:
    if not isinstance(answer, dict):
        raise RulesError(f"hour {battle.hour}: the {side} answer to {kind} is a mapping")
    return answer


def check_range(static: NavalStatic, battle: Battle, side: str, answer: Any) -> Any:
    """RSR 8.42, RSR 8.47: close, hold, open, or a box within the side's allowance (its morale), not below 0."""
    wish = _mapping(battle, side, "naval-range", answer).get("range")
    if set(answer) != {"range"} or not (wish in ("close", "hold", "open")
                                        or (isinstance(wish, int) and not isinstance(wish, bool))):
        raise RulesError(f"hour {battle.hour}: a range answer is {{range: close | hold | open | N}} (RSR 8.42)")
    allowance = opening_allowance(static, battle.forces[side])
    if isinstance(wish, int) and (wish < 0 or abs(wish - battle.range) > allowance):
        raise RulesError(f"hour {battle.hour}: {side} may move the range from {battle.range} by at most "
                         f"{allowance} boxes (its morale), to no less than 0: not to {wish} (RSR 8.42, 8.47)")
    return wish


def check_targets(static: NavalStatic, battle: Battle, side: str, answer: Any) -> Any:
    """RSR 8.51, RSR 8.53: each named ship fires at a legal target; the others by a target rule."""
    answer = _mapping(battle, side, "naval-targets", answer)
    force = battle.forces[side]
    targets, rule = answer.get("targets", {}), answer.get("rule", "opposite")
    if set(answer) - {"targets", "rule"} or not isinstance(targets, dict) or rule not in battle_plans.TARGET_RULES:
        raise RulesError(f"hour {battle.hour}: a target answer is {{targets: {{ship: enemy ship}}, rule: "
                         f"{' | '.join(battle_plans.TARGET_RULES)}}} (RSR 8.51)")
    legal = target_options(battle, side)
    for ship, target in sorted(targets.items()):
        if ship not in legal:
            raise RulesError(f"hour {battle.hour}: {ship} is not a {side} capital ship that can fire (RSR 8.51)")
        if target not in legal[ship]:
            raise RulesError(f"hour {battle.hour}: {ship} in box {force.line[ship]} may fire only at "
                             f"{', '.join(legal[ship])} (RSR 8.51, 8.53)")
    return {"targets": {str(k): str(v) for k, v in sorted(targets.items())}, "rule": rule}


def check_torpedo(static: NavalStatic, battle: Battle, side: str, answer: Any) -> Any:
    """RSR 8.6, RSR 8.61: attack or not, how many flotillas (in box order), and their target(s)."""
    answer = _mapping(battle, side, "naval-torpedo", answer)
    force, enemy = battle.forces[side], battle.forces[enemy_of(side)]
    attack, count, target = answer.get("attack"), answer.get("flotillas", "all"), answer.get("target", "capital")
    if set(answer) - {"attack", "flotillas", "target"} or not isinstance(attack, bool):
        raise RulesError(f"hour {battle.hour}: a torpedo answer is {{attack: true | false, flotillas: N | all, "
                         "target: capital | flotilla | flagship | enemy ship, or {flotilla: target}} (RSR 8.6, "
                         "8.61)")
    if count != "all" and (not isinstance(count, int) or isinstance(count, bool) or count < 1):
        raise RulesError(f"hour {battle.hour}: flotillas is all or a number, 1 or more, taken in box order "
                         "(RSR 8.61)")
    per_boat = target if isinstance(target, dict) else {"": target}  # RSR 8.61: one target per flotilla
    for boat, aim in sorted(per_boat.items()):
        if boat and boat not in force.boats():
            raise RulesError(f"hour {battle.hour}: {boat} is not a {side} flotilla afloat (RSR 8.61)")
        if not isinstance(aim, str) or (aim not in battle_plans.TORPEDO_TARGETS
                                        and aim not in enemy.capital() + enemy.boats()):
            raise RulesError(f"hour {battle.hour}: torpedo target {aim!r} is not an enemy ship afloat nor one of "
                             f"{', '.join(battle_plans.TORPEDO_TARGETS)} (RSR 8.61)")
    return {"attack": attack, "flotillas": count,
            "target": dict(sorted(target.items())) if isinstance(target, dict) else target}


def check_refuse(static: NavalStatic, battle: Battle, side: str, answer: Any) -> Any:
    """RSR 8.1: refuse combat in a friendly port, or fight."""
    answer = _mapping(battle, side, "naval-refuse", answer)
    if set(answer) != {"refuse"} or not isinstance(answer["refuse"], bool):
        raise RulesError("a refusal answer is {refuse: true | false} (RSR 8.1)")
    return {"refuse": answer["refuse"]}


def check_search(static: NavalStatic, battle: Battle, side: str, answer: Any) -> Any:
    """RSR 8.84: search for the enemy out of sight, or not."""
    answer = _mapping(battle, side, "naval-search-again", answer)
    if set(answer) != {"search"} or not isinstance(answer["search"], bool):
        raise RulesError(f"hour {battle.hour}: a search answer is {{search: true | false}} (RSR 8.84)")
    return {"search": answer["search"]}


def check_secondary(static: NavalStatic, battle: Battle, side: str, answer: Any) -> Any:
    """RSR 8.2, RSR 8.48: Secondary Force ships of the side, afloat, to boxes from 1."""
    answer = _mapping(battle, side, "naval-secondary", answer)
    force = battle.forces[side]
    boxes = answer.get("boxes", {})
    if set(answer) - {"boxes"} or not isinstance(boxes, dict):
        raise RulesError(f"hour {battle.hour}: a Secondary Force answer is {{boxes: {{ship: box}}}} (RSR 8.48)")
    for ship, box in sorted(boxes.items()):
        if ship not in force.secondary or not force.afloat(ship):
            raise RulesError(f"hour {battle.hour}: {ship} is not a {side} ship afloat in the Secondary Force "
                             "(RSR 8.2, 8.48)")
        if not isinstance(box, int) or isinstance(box, bool) or box < 1:
            raise RulesError(f"hour {battle.hour}: Secondary Force boxes are numbers from 1 (RSR 8.48)")
    return {"boxes": {str(k): int(v) for k, v in sorted(boxes.items())}}


Check = Callable[[NavalStatic, Battle, str, Any], Any]
Keep = Callable[[NavalStatic, Battle, str, Any, bool], None]


def _keeps(what: str, check: Check) -> Keep:
    """An hourly answer, checked, is kept as ``what:side`` for the step that asked; the battle goes on."""
    def keep(static: NavalStatic, battle: Battle, side: str, answer: Any, sealed: bool) -> None:
        battle.answers[f"{what}:{side}"] = check(static, battle, side, answer)
        battle.asking = None
    return keep


def _keep_targets(static: NavalStatic, battle: Battle, side: str, answer: Any, sealed: bool) -> None:
    """RSR 8.5 (interpretations.md): a sealed target answer is kept as sealed until the other side answers."""
    battle.answers[f"targets:{side}"] = "sealed" if sealed else check_targets(static, battle, side, answer)
    battle.asking = None


def _apply(keep: Keep) -> Callable[[Any, Context, Any, Any], None]:
    return lambda state, ctx, ask, answer: keep(state.naval_static, state.naval.battle, ask.side, answer,
                                                isinstance(answer, Sealed))


KEEPS: dict[str, Keep] = {
    "naval-range": _keeps("range", check_range), "naval-targets": _keep_targets,
    "naval-targets-unseal": _keeps("targets", check_targets), "naval-torpedo": _keeps("torpedo", check_torpedo),
    "naval-search-again": _keeps("search", check_search), "naval-secondary": _keeps("secondary", check_secondary),
    "naval-refuse": _keeps("refuse", check_refuse)}


def _options(state: Any, ask: Any) -> dict[str, Any]:
    return request_options(state.naval_static, state.naval.battle, ask.side)


def _range_prompt(state: Any, ask: Any) -> str:
    fight: Battle = state.naval.battle
    allowance = opening_allowance(state.naval_static, fight.forces[ask.side])
    return (f"naval battle, hour {fight.hour} of {fight.hours}: move the range (now {fight.range}, by up to "
            f"{allowance} boxes): close, hold, open or a number of boxes")


_WHERE = "t<turn>/naval/battle/r<round>/hex<hex>/h<hour>/<side>"

RANGE = Decision(
    kind="naval-range", ids=f"{_WHERE}/range", case="RSR 8.42", who="a side whose plan says range: ask",
    prompt=_range_prompt, options=_options, template=lambda state, ask: {"range": "hold"},
    apply=_apply(KEEPS["naval-range"]))

TARGETS = Decision(
    kind="naval-targets", ids=f"{_WHERE}/targets", case="RSR 8.51", who="a side whose plan says targets: ask",
    prompt=lambda state, ask: (f"naval battle, hour {state.naval.battle.hour}: the target of each capital ship (its "
                               "opposite number or the box either side)"
                               + (" - you may seal it" if ask.data["sealable"] else "")),
    options=_options, template=lambda state, ask: {"targets": {}, "rule": "opposite"},
    sealable=lambda ask: bool(ask.data["sealable"]), apply=_apply(KEEPS["naval-targets"]))

TARGETS_UNSEAL = Decision(
    kind="naval-targets-unseal", ids=f"{_WHERE}/targets-unseal", case="RSR 8.51",
    who="the side that sealed its targets, once the other side has answered",
    prompt=lambda state, ask: f"naval battle, hour {state.naval.battle.hour}: reveal your sealed targets",
    unseals=True, apply=_apply(KEEPS["naval-targets-unseal"]))

TORPEDO = Decision(
    kind="naval-torpedo", ids=f"{_WHERE}/torpedo", case="RSR 8.6",
    who="a side with flotillas whose plan says torpedo attack: ask, when its option comes",
    prompt=lambda state, ask: (f"naval battle, hour {state.naval.battle.hour}: your torpedo attack option (range "
                               f"{state.naval.battle.range})"),
    options=_options, template=lambda state, ask: {"attack": False, "flotillas": "all", "target": "capital"},
    apply=_apply(KEEPS["naval-torpedo"]))

SEARCH_AGAIN = Decision(
    kind="naval-search-again", ids=f"{_WHERE}/search", case="RSR 8.84",
    who="a side out of sight, not breaking off, whose plan says search: ask",
    prompt=lambda state, ask: (f"naval battle, hour {state.naval.battle.hour}: the enemy is out of sight "
                               f"({state.naval.battle.weather}, range {state.naval.battle.range}): search for him?"),
    options=_options, template=lambda state, ask: {"search": True}, apply=_apply(KEEPS["naval-search-again"]))

SECONDARY = Decision(
    kind="naval-secondary", ids=f"{_WHERE}/secondary", case="RSR 8.48",
    who="a side with a Secondary Force whose plan says secondary: ask",
    prompt=lambda state, ask: (f"naval battle, hour {state.naval.battle.hour}: move Secondary Force ships to other "
                               "boxes (ships not named stay)"),
    options=_options, template=lambda state, ask: {"boxes": {}}, apply=_apply(KEEPS["naval-secondary"]))

REFUSE = Decision(
    kind="naval-refuse", ids=f"{_WHERE}/refuse", case="RSR 8.1",
    who="the side whose friendly port the battle's hex is, whose plan says refuse_in_port: ask",
    prompt=lambda state, ask: (f"the enemy has found your fleet in naval hex {state.naval.battle.hex}, a friendly "
                               "port: refuse combat (turn to the in-Port side, one morale less) or fight?"),
    options=_options, template=lambda state, ask: {"refuse": False}, apply=_apply(KEEPS["naval-refuse"]))

DECISIONS: tuple[Decision, ...] = (REFUSE, SEARCH_AGAIN, RANGE, SECONDARY, TARGETS, TARGETS_UNSEAL, TORPEDO)
CHECKS: dict[str, Check] = {"naval-range": check_range, "naval-targets": check_targets,
                            "naval-torpedo": check_torpedo, "naval-refuse": check_refuse,
                            "naval-search-again": check_search, "naval-secondary": check_secondary}


def check_answer(static: NavalStatic, battle: Battle, kind: str, side: str, answer: Any) -> Any:
    """An hourly answer checked against the display (RSR 8.42, RSR 8.51, RSR 8.61); the value the battle keeps."""
    if kind not in CHECKS:
        raise RulesError(f"no hourly battle request of kind {kind!r}")
    return CHECKS[kind](static, battle, side, answer)


def pending(battle: Battle, where: str) -> NavalAsk:
    """The battle's question as one value; ``where`` is the battle's place in the game turn's request ids."""
    asking = battle.asking
    assert asking is not None, "the battle waits for no answer"
    kind, side = asking["kind"], asking["side"]
    base = f"{where}/h{battle.hour}/{side}"
    decision = next(d for d in DECISIONS if d.kind == kind)
    data: dict[str, Any] = {"sealable": bool(asking.get("sealable"))}
    if decision.unseals:
        data["sealed"] = f"{base}/targets"
    return NavalAsk(kind, side, f"{base}/{decision.ids.rsplit('/', 1)[1]}", data)


def take_answer(static: NavalStatic, battle: Battle, kind: str, side: str, answer: Any, sealed: bool) -> None:
    """Keep an hourly answer (or the mark of a sealed one) as its decision does, and let the battle go on."""
    KEEPS[kind](static, battle, side, answer, sealed)
