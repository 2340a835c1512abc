"""The Artillery Fire segment: bombardment and interdiction (RS/RS 5.0-5.22, RS/RS 5.5-5.53, RS/RS 10.3).

The phasing player lists fire missions, each a set of artillery units and one target: an enemy unit to
bombard (RS/RS 5.21) or a road or bridge hex to interdict (RS/RS 5.22). Missions are checked whole before any die:
a unit that is not artillery, has fired, is disrupted, is next to an enemy unit or is out of supply cannot
be given a mission at all (an error); a unit given a target it cannot reach is "wasted" (RS/RS 5.51): its points
are spent, it gets its Fired marker and adds nothing. Missions resolve in the order listed.

Interdiction markers stay on the map until the start of their owner's next Artillery Fire segment (our
reading, interpretations.md RS/RS 5.22); an enemy unit or stack entering a marked hex rolls on the Interdiction
Table for the extra movement points it must pay (:func:`walk_interdicted`).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from rsr.engine import Context
from rsr.errors import RulesError
from rsr.provenance import is_provisional
from rsr.rulesets.red_star import losses, movement
from rsr.rulesets.red_star.data import ArtilleryCharts, FireTable
from rsr.rulesets.red_star.state import RsState, Unit, enemy_of
from rsr.rulesets.red_star.terrain import bridge_exists, current, in_supply, occupied, supplied_hexes
from rsr.words import plural

MISSIONS = ("bombard", "interdict")


def charts(state: RsState) -> ArtilleryCharts:
    found = state.static.artillery
    if found is None:
        raise RulesError("the scenario's tables have no artillery charts (tables.yaml: artillery)")
    return found


# -- who may fire, and at what ----------------------------------------------------------------------------

def fire_range(state: RsState, unit: Unit) -> int:
    """RS/RS 5.51: the printed range of the unit's current face."""
    return state.counter(unit.id).face(unit.reduced).range or 0


def range_count(state: RsState, frm: str, to: str) -> int:
    """RS/RS 5.51, RS/RS 5.52: hexes counted from the one next to the firer to the target's, terrain and units
    ignored (no line of sight): the hex distance."""
    return state.static.grid.distance(frm, to)


def next_to_enemy(state: RsState, unit: Unit, enemy_hexes: frozenset[str] | None = None) -> bool:
    """Is an enemy ground unit next to ``unit``? (``enemy_hexes``: the hexes the enemy occupies now, when the
    caller has them.)"""
    if enemy_hexes is None:
        enemy_hexes = occupied(state, enemy_of(unit.side))  # (one pass over the units, not one per neighbour)
    return any(h in enemy_hexes for h in state.static.neighbours(unit.hex or ""))


def indirect_problem(state: RsState, unit: Unit, supplied: frozenset[str] | None = None,
                     enemy_hexes: frozenset[str] | None = None) -> str | None:
    """Why ``unit`` may not fire an indirect mission now (RS/RS 5.0, RS/RS 5.1, RS/RS 5.7, RS/RS 10.3), or None.
    ``supplied`` and
    ``enemy_hexes``: the side's supply net and the enemy's hexes now, when the caller asks for many units."""
    counter = state.counter(unit.id)
    if not counter.artillery:
        return f"{unit.id} is not artillery: it has no range value (RS/RS 5.0)"
    if not unit.on_map:
        return f"{unit.id} is not on the map"
    if unit.fired:
        return f"{unit.id} has a Fired marker: artillery fires once per player turn (RS/RS 5.1)"
    if unit.disruption:
        return f"{unit.id} has a \"{unit.disruption}\" marker and may not conduct fire missions (RS/RS 5.7)"
    if next_to_enemy(state, unit, enemy_hexes):
        return f"{unit.id} is next to an enemy unit and may not use indirect fire (RS/RS 5.1)"
    if not in_supply(state, unit, supplied):
        # RS/RS 10.3 lets unsupplied artillery fire only at adjacent units, and RS/RS 5.1/5.2 forbid indirect fire at
        # them
        return f"{unit.id} is out of supply: it may fire only at adjacent units, never indirectly (RS/RS 10.3, 5.2)"
    return None


def eligible(state: RsState, side: str) -> list[Unit]:
    """The side's artillery units able to fire an indirect mission now, in unit-id order."""
    supplied = supplied_hexes(state, side)
    enemy_hexes = occupied(state, enemy_of(side))
    return [u for u in state.on_map(side) if state.counter(u.id).artillery
            and indirect_problem(state, u, supplied, enemy_hexes) is None]


def reaches(state: RsState, unit: Unit, hex_id: str) -> bool:
    """RS/RS 5.2, RS/RS 5.51: at least one hex between firer and target, and no farther than the printed range."""
    count = range_count(state, unit.hex or "", hex_id)
    return 2 <= count <= fire_range(state, unit)


def road_hexes(state: RsState) -> frozenset[str]:
    key = ("road-hexes",)
    found = state.static.memo.get(key)
    if found is None:
        found = frozenset(h for side in state.static.road_links for h in side.split("-"))
        state.static.memo[key] = found
    return frozenset(found)


def bridge_sides(state: RsState, hex_id: str) -> list[str]:
    """The existing bridge hexsides of ``hex_id`` (RS/RS 11.0)."""
    return [side for _, side in state.static.links.get(hex_id, ()) if bridge_exists(state, side)]


def interdiction_target(state: RsState, hex_id: str) -> bool:
    """RS/RS 5.22: only road and bridge hexes may be interdicted."""
    return hex_id in road_hexes(state) or bool(bridge_sides(state, hex_id))


def spotting(state: RsState, side: str, target_hex: str) -> tuple[int, int]:
    """RS/RS 5.53: (die modifier, distance) from the target to the nearest unit friendly to the firer."""
    grid = state.static.grid
    distance = min((grid.distance(u.hex or "", target_hex) for u in state.on_map(side)), default=99)
    for up_to, modifier in charts(state).spotting:
        if up_to is None or distance <= up_to:
            return modifier, distance
    return 0, distance


def options(state: RsState, side: str) -> dict[str, Any]:
    """What the fire-missions request shows: each eligible gun, its reach, and the targets it reaches."""
    guns = eligible(state, side)
    enemy = state.on_map(enemy_of(side))
    return {u.id: {"hex": u.hex, "factors": current(state, u), "range": fire_range(state, u),
                   "bombard": [e.id for e in enemy if reaches(state, u, e.hex or "")]} for u in guns}


def cost_of(state: RsState, mission: str, guns: int) -> int:
    """Artillery Support Point Costs: 2 per bombarding unit; 1 per two interdicting units, rounded up."""
    costs = charts(state).costs
    if mission == "bombard":
        return costs["bombardment"] * guns
    return costs["interdiction_per_two"] * math.ceil(guns / 2)


# -- checking an order ------------------------------------------------------------------------------------

def check_missions(state: RsState, side: str, answer: Any, first: int = 1) -> list[dict[str, Any]]:
    """The whole order checked before any die (RS/RS 5.1, RS/RS 5.2, RS/RS 5.21, RS/RS 5.22, RS/RS 4.3); its missions
    are numbered from ``first`` (RS/RS 5.2: a segment's missions are numbered on across its answers)."""
    if not isinstance(answer, dict) or set(answer) - {"missions"} or not isinstance(answer.get("missions", []),
                                                                                     list):
        raise RulesError("fire missions are {missions: [{bombard: unit id | interdict: hex, artillery: [ids]}]} "
                         "(RS/RS 5.2)")
    supplied = supplied_hexes(state, side)
    used: list[str] = []
    checked: list[dict[str, Any]] = []
    markers = state.interdiction.get(side, {})
    total = 0
    for number, raw in enumerate(answer.get("missions") or [], start=first):
        where = f"mission {number}"
        if not isinstance(raw, dict) or len([k for k in MISSIONS if k in raw]) != 1 or \
                set(raw) - {*MISSIONS, "artillery"}:
            raise RulesError(f"{where}: give exactly one of bombard (a unit) or interdict (a hex), and artillery "
                             "(RS/RS 5.2)")
        kind = "bombard" if "bombard" in raw else "interdict"
        guns = raw.get("artillery")
        if not isinstance(guns, list) or not guns or not all(isinstance(g, str) for g in guns):
            raise RulesError(f"{where}: artillery is a list of unit ids")
        for gun_id in guns:
            gun = state.units.get(gun_id)
            if gun is None or gun.side != side:
                raise RulesError(f"{where}: {gun_id} is not a {side} unit")
            if gun_id in used:
                raise RulesError(f"{where}: {gun_id} already has a mission: one fire mission per player turn "
                                 "(RS/RS 5.1, 5.2)")
            problem = indirect_problem(state, gun, supplied)
            if problem:
                raise RulesError(f"{where}: {problem}")
            used.append(gun_id)
        if kind == "bombard":
            target = state.units.get(str(raw["bombard"]))
            if target is None or target.side == side or not target.on_map or not state.counter(target.id).ground:
                raise RulesError(f"{where}: {raw['bombard']} is not an enemy unit on the map (RS/RS 5.21)")
            hex_id = target.hex or ""
        else:
            hex_id = str(raw["interdict"])
            if hex_id not in state.static.terrain:
                raise RulesError(f"{where}: {hex_id} is not a hex of the map")
            if not interdiction_target(state, hex_id):
                raise RulesError(f"{where}: {hex_id} is neither a road nor a bridge hex (RS/RS 5.22)")
            if hex_id in markers or any(m.get("interdict") == hex_id for m in checked):
                raise RulesError(f"{where}: {hex_id} already holds a {side} interdiction marker: one per side "
                                 "(RS/RS 5.22)")
        total += cost_of(state, kind, len(guns))
        checked.append({"mission": kind, kind: str(raw[kind]), "hex": hex_id, "artillery": list(guns),
                        "number": number})
    have = state.support.get(side, 0)
    if total > have:
        raise RulesError(f"these missions cost {total} support point(s); {side} has {have} (Artillery Support Point "
                         "Costs, RS/RS 4.3)")
    return checked


class PlanStep(dict[str, Any]):
    """How far the standing plan of policy ``fire-missions`` has gone (RS/RS 5.2): ``missions`` (the plan),
    ``next`` (the index of its next item) and ``dropped`` ((item number, reason) pairs the position no longer
    allows). Only :func:`next_planned` makes one (a signed input is plain JSON and can never hold it)."""


def check_plan(state: RsState, side: str, plan: list[Any]) -> None:
    """RS/RS 5.2, RS/RS 4.3: a plan of fire missions set before the segment's first mission is checked whole against
    the position it is set in, before any die: each mission legal, no gun twice, the points to pay them all."""
    check_missions(state, side, {"missions": plan})


def next_planned(state: RsState, side: str, plan: list[Any]) -> dict[str, Any]:
    """Policy ``fire-missions: {turn, missions}`` (RS/RS 5.2): the plan's next mission, checked again now that
    the missions before it have resolved. One the dice have made illegal (its gun suppressed or eliminated,
    its target gone, the points spent by counterbattery) is dropped (void, reported with why) and the next is
    tried; once the plan is used up the answer is "no more missions"."""
    progress = state.mission_plan
    start = int(progress.get("next", 0)) if progress.get("missions") == plan else 0
    dropped: list[tuple[int, str]] = []
    for index in range(start, len(plan)):
        try:
            check_missions(state, side, {"missions": [plan[index]]}, state.mission_round + 1)
        except RulesError as exc:
            dropped.append((index + 1, str(exc)))
            continue
        return {"missions": [plan[index]], "plan": PlanStep(missions=plan, next=index + 1, dropped=dropped)}
    return {"missions": [], "plan": PlanStep(missions=plan, next=len(plan), dropped=dropped)}


# -- resolving --------------------------------------------------------------------------------------------

def _provisional(table: FireTable, selection: str) -> list[str]:
    found = []
    if is_provisional(table.cells_provenance):
        found.append(f"{table.name} Table cells: {table.cells_provenance}")
    if is_provisional(table.columns_provenance):
        found.append(f"{table.name} Table columns: {table.columns_provenance}")
    if is_provisional(selection):
        found.append(f"{table.name} column choice: {selection}")
    return found


def announce(state: RsState, ctx: Context, side: str, missions: list[dict[str, Any]]) -> None:
    """RS/RS 5.1, RS/RS 5.21, RS/RS 5.22, RS/RS 5.41: the missions are announced: points spent, Fired markers placed.
    Enemy counterbattery may answer before they resolve (counterbattery.py)."""
    if not missions:
        ctx.emit("fire-missions", f"{side} fires no artillery missions", "RS/RS 5.2", side=side, missions=0)
    for mission in missions:
        guns = [state.units[g] for g in mission["artillery"]]
        cost = cost_of(state, mission["mission"], len(guns))
        mission["cost"] = cost
        state.support[side] = state.support.get(side, 0) - cost
        for gun in guns:
            gun.fired = True  # RS/RS 5.1: the Fired marker goes on the instant it fires
        ctx.emit("announced", f"mission {mission['number']}: {side} announces {mission['mission']} of "
                 f"{mission[mission['mission']]} by {', '.join(mission['artillery'])} "
                 f"({plural(cost, 'support point')}, "
                 f"{state.support[side]} left)", "RS/RS 5.2", side=side, mission=mission["number"],
                 mission_kind=mission["mission"], target=mission[mission["mission"]],
                 artillery=list(mission["artillery"]), cost=cost, support_left=state.support[side])


def resolve_missions(state: RsState, ctx: Context, side: str, missions: list[dict[str, Any]],
                     suppressed: list[str]) -> None:
    """Resolve announced missions in order; suppressed or eliminated guns do not fire and their points are
    lost (RS/RS 5.41); a gun out of reach is wasted (RS/RS 5.51)."""
    for mission in missions:
        guns = [state.units[g] for g in mission["artillery"]]
        for gun in guns:
            if gun.id in suppressed or not gun.on_map:
                ctx.emit("cancelled", f"{gun.id} was {'suppressed' if gun.on_map else 'eliminated'} by counterbattery "
                         f"and does not fire mission {mission['number']}; its points are lost", "RS/RS 5.41",
                         unit=gun.id, mission=mission["number"])
        live = [g for g in guns if g.on_map and g.id not in suppressed]
        firing = [g for g in live if reaches(state, g, mission["hex"])]
        for gun in live:
            if gun not in firing:
                ctx.emit("wasted", f"{gun.id} in {gun.hex} cannot reach {mission['hex']} (range "
                         f"{fire_range(state, gun)}, {range_count(state, gun.hex or '', mission['hex'])} hexes "
                         "counted; at least one hex must lie between): the mission is wasted and its points lost",
                         "RS/RS 5.51", unit=gun.id, hex=mission["hex"], mission=mission["number"])
        if mission["mission"] == "bombard":
            bombard(state, ctx, side, mission, firing, mission["cost"])
        else:
            interdict(state, ctx, side, mission, firing, mission["cost"])


def fire(state: RsState, ctx: Context, side: str, missions: list[dict[str, Any]]) -> None:
    """Announce and resolve at once (no counterbattery)."""
    announce(state, ctx, side, missions)
    resolve_missions(state, ctx, side, missions, [])


def bombard_strength(state: RsState, target: Unit, firing: list[Unit]) -> tuple[int, Fraction, str, str]:
    """RS/RS 5.21, RS/RS 6.43: the guns' combined factors through the Combat Effectiveness Chart (indirect fire against
    the target's class), rounded up: (strength, multiplier, target class, the chart cell's provenance)."""
    from rsr.rulesets.red_star.combat import effectiveness

    target_class = state.counter(target.id).cls.lower()
    multiplier, provenance = effectiveness(state, "weapons-indirect-fire", target_class, False)
    strength = math.ceil(sum((Fraction(current(state, g)) * multiplier for g in firing), Fraction(0)))  # RS/RS 6.43
    return strength, multiplier, target_class, provenance


def bombard(state: RsState, ctx: Context, side: str, mission: dict[str, Any], firing: list[Unit], cost: int) -> None:
    """RS/RS 5.21, RS/RS 5.53: combined strength through the Combat Effectiveness Chart, one die, the result."""
    chart = charts(state)
    target = state.units[mission["bombard"]]
    strength, multiplier, target_class, cec_provenance = bombard_strength(state, target, firing)
    table = chart.bombardment
    column = table.column_for(strength)
    base = {"side": side, "mission": mission["number"], "mission_kind": "bombard", "target": target.id,
            "hex": mission["hex"], "artillery": [g.id for g in firing], "cost": cost,
            "support_left": state.support.get(side, 0), "strength": strength}
    if column is None or not firing:
        ctx.emit("fire-mission", f"mission {mission['number']}: bombardment of {target.id} has no strength left "
                 f"({plural(cost, 'support point')} spent)", "RS/RS 5.21", **base, result="-", column=None)
        return
    modifier, distance = spotting(state, side, mission["hex"])
    die = ctx.roll(6, f"bombardment of {target.id} in {mission['hex']} by {', '.join(g.id for g in firing)}, "
                      "RS/RS 5.21")
    result = table.result(column, die + modifier)
    provisional = _provisional(table, chart.selection_provenance)
    if is_provisional(cec_provenance):
        provisional.append(f"Combat Effectiveness weapons-indirect-fire vs {target_class}: {cec_provenance}")
    ctx.emit("fire-mission", f"mission {mission['number']}: {', '.join(g.id for g in firing)} bombard {target.id} in "
             f"{mission['hex']}: {plural(strength, 'factor')} (x{multiplier} against {target_class}), column "
             f"{table.columns[column]}, die {die}{f' +{modifier} spotting ({distance} hexes)' if modifier else ''}"
             f": {result} ({plural(cost, 'support point')}, {state.support.get(side, 0)} left)", "RS/RS 5.21",
             provisional, **base, column=table.columns[column], die=die, modifier=modifier, spotting_distance=distance,
             result=result)
    apply_bombardment(state, ctx, target, result)


def apply_bombardment(state: RsState, ctx: Context, target: Unit, result: str) -> None:
    """Bombardment results (Player Aid): d a "1" marker, D a "2" marker, X one step (flip or eliminate)."""
    if result in ("d", "D"):
        level = 1 if result == "d" else 2
        if target.disruption < level:
            target.disruption = level
            ctx.emit("disrupted", f"{target.id} receives a \"{level}\" marker", "RS/RS 5.7", unit=target.id,
                     level=level)
    elif result == "X":
        losses.lose_factors(state, ctx, [target], 1, "bombardment", "RS/RS 5.21")


def interdict(state: RsState, ctx: Context, side: str, mission: dict[str, Any], firing: list[Unit],
              cost: int) -> None:
    """RS/RS 5.22: an interdiction marker noting the factors fired into the hex."""
    factors = sum(current(state, g) for g in firing)
    base = {"side": side, "mission": mission["number"], "mission_kind": "interdict", "hex": mission["hex"],
            "artillery": [g.id for g in firing], "cost": cost, "support_left": state.support.get(side, 0),
            "strength": factors}
    if factors <= 0:
        ctx.emit("fire-mission", f"mission {mission['number']}: interdiction of {mission['hex']} has no strength "
                 f"left ({plural(cost, 'support point')} spent)", "RS/RS 5.22", **base)
        return
    state.interdiction.setdefault(side, {})[mission["hex"]] = factors
    ctx.emit("fire-mission", f"mission {mission['number']}: {', '.join(g.id for g in firing)} interdict "
             f"{mission['hex']} with {plural(factors, 'factor')} ({plural(cost, 'support point')}, "
             f"{state.support.get(side, 0)} left)", "RS/RS 5.22", **base)


def clear_interdiction(state: RsState, ctx: Context, side: str) -> None:
    """A side's interdiction markers come off when its next Artillery Fire segment begins (our reading, RS/RS 5.22)."""
    markers = state.interdiction.pop(side, {})
    for hex_id in sorted(markers):
        ctx.emit("interdiction-off", f"{side} interdiction marker removed from {hex_id}", "RS/RS 5.22", side=side,
                 hex=hex_id)


# -- interdiction during movement -------------------------------------------------------------------------

def interdiction_modifiers(state: RsState, owner: str, hex_id: str) -> tuple[int, int, int]:
    """RS/RS 5.22, RS/RS 5.53 and the Player Aid: (spotting modifier, spotting distance, bridge modifier) of a roll on
    the Interdiction Table for ``owner``'s marker in ``hex_id``."""
    spot, distance = spotting(state, owner, hex_id)
    bridge = charts(state).bridge_modifier if bridge_sides(state, hex_id) else 0
    return spot, distance, bridge


def interdiction_roll(state: RsState, ctx: Context, mover: str, hex_id: str, units: list[str],
                      operational: bool, retreat: bool = False) -> int:
    """RS/RS 5.22, RS/RS 5.53, RS/RS 7.3: the extra MP a stack must pay to enter an enemy-interdicted hex; with
    ``retreat`` (RS/RS 6.72, a retreat over a bridge next to the marker) the same roll gives the stack's step losses."""
    chart = charts(state)
    owner = enemy_of(mover)
    factors = state.interdiction[owner][hex_id]
    table = chart.interdiction
    column = table.column_for(factors)
    assert column is not None
    spot, distance, bridge = interdiction_modifiers(state, owner, hex_id)
    what = "retreating over the bridge at" if retreat else "entering"
    die = ctx.roll(6, f"interdiction of {', '.join(units)} {what} {hex_id}, "
                   + ("RS/RS 6.72" if retreat else "RS/RS 5.22"))
    printed = int(table.result(column, die + spot + bridge))
    extra = printed * 2 if operational else printed  # RS/RS 7.3
    provisional = _provisional(table, chart.selection_provenance)
    notes = [f"+{spot} spotting ({distance} hexes)"] if spot else []
    if bridge:
        notes.append(f"{bridge} bridge hexside")
    effect = (f"{plural(printed, 'step loss')} for the retreating stack" if retreat else f"{printed} extra MP"
              + (" doubled for operational movement" if operational and printed else ""))
    ctx.emit("interdiction", f"{', '.join(units)} {what} {hex_id} ({owner} marker, {plural(factors, 'factor')}): "
             f"column "
             f"{table.columns[column]}, die {die}{' ' + ', '.join(notes) if notes else ''}: {effect}",
             "RS/RS 6.72" if retreat else "RS/RS 5.22", provisional, hex=hex_id, units=list(units), owner=owner,
             factors=factors, column=table.columns[column], die=die, modifier=spot + bridge, printed=printed,
             extra=0 if retreat else extra, **({"retreat": True, "steps": printed} if retreat else {}))
    return printed if retreat else extra


def walk_interdicted(state: RsState, ctx: Context, side: str, move: movement.Move) -> movement.Walk:
    """Walk a move, stopping to roll each time the stack enters a hex with an enemy interdiction marker;
    units that cannot pay the extra MP halt in the hex before it (RS/RS 5.22)."""
    markers = state.interdiction.get(enemy_of(side), {})
    extra: dict[int, int] = {}
    while True:
        walked = movement.walk(state, side, move, strict=False, extra=extra)
        pending = [i for i, h in enumerate(move.path) if h in markers and i not in extra
                   and any(r > i for r in walked.reached.values())]
        if not pending:
            break
        index = pending[0]
        entering = sorted(u for u, r in walked.reached.items() if r > index)
        extra[index] = interdiction_roll(state, ctx, side, move.path[index], entering, move.operational)
    for unit_id, index in sorted(walked.halted.items()):
        ctx.emit("interdicted", f"{unit_id} lacks the {extra[index]} extra MP to enter {move.path[index]} and halts "
                 f"in {move.path[index - 1] if index else state.units[unit_id].hex} for the segment", "RS/RS 5.22",
                 unit=unit_id, hex=move.path[index], extra=extra[index])
    return walked
