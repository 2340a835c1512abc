"""Force adjustment (RS/RS 4.0-4.4): points, reinforcement entry, replacements and withdrawals.

Entry hexes are chosen secretly in the Reinforcement Planning Phase (RS/RS 3.2, RS/RS 4.1): the request is sealable,
and a sealed plan is unsealed when the owner's Force Adjustment segment places the units.
"""

from __future__ import annotations

from typing import Any

from rsr.engine import Context
from rsr.errors import RulesError
from rsr.rulesets.red_star import retreat as rt
from rsr.rulesets.red_star import stacking
from rsr.rulesets.red_star.state import ARRIVING, OFF_MAP, ON_MAP, REPLACEMENTS, WITHDRAWN, RsState, Unit, enemy_of
from rsr.rulesets.red_star.terrain import current, in_supply, occupied, supply_sources, zone_of_control
from rsr.words import plural, plural_word

POOLS = ("leg", "armor", "mongol", "manchu")


def receive_points(state: RsState, ctx: Context) -> None:
    """RS/RS 3.2, RS/RS 4.21, RS/RS 4.3: both sides add the turn's replacement and support points."""
    entry = state.turn_track[state.turn - 1] if state.turn <= len(state.turn_track) else {}
    for side in (state.first, state.second):
        support = int(entry.get("support", {}).get(side, 0))
        if support:
            state.support[side] = state.support.get(side, 0) + support
            ctx.emit("support", f"{side} receives {plural(support, 'support point')} ({state.support[side]} in all)",
                     "RS/RS 4.3", side=side, received=support, total=state.support[side])
        for pool, value in sorted(entry.get("replacements", {}).get(side, {}).items()):
            if value:
                points = state.replacement_points.setdefault(side, {})
                points[pool] = points.get(pool, 0) + int(value)
                ctx.emit("replacement-points",
                         f"{side} receives {value} {pool} {plural_word('replacement point', int(value))}", "RS/RS 4.21",
                         side=side, pool=pool, received=int(value), total=points[pool])


def arriving(state: RsState, side: str) -> list[Unit]:
    """Reinforcements and returning HQs due now or delayed (RS/RS 4.1, RS/RS 4.12, RS/RS 4.13)."""
    return [u for _, u in sorted(state.units.items())
            if u.side == side and u.status == ARRIVING and u.arrives is not None and u.arrives <= state.turn]


def entry_hexes(state: RsState, side: str) -> list[str]:
    """Map-edge hexes where ``side`` may bring units in (RS/RS 4.1 with RS/RS 10.1; errata: Soviet 1308-1314)."""
    named = state.static.entry_hexes.get(side)
    if named:
        enemy = occupied(state, enemy_of(side))
        return [h for h in named if h not in enemy]
    return supply_sources(state, side)


def possible_entry_hexes(state: RsState, side: str) -> list[str]:
    """Every hex that could ever serve ``side`` for entry: the named entry hexes, or its supply edges."""
    named = state.static.entry_hexes.get(side)
    if named:
        return list(named)
    return sorted({h for e in state.static.supply_edges if e.side == side for h in e.hexes})


def check_plan(state: RsState, side: str, answer: Any, revealed: bool = False) -> dict[str, str]:
    """RS/RS 4.1, RS/RS 4.12: an entry hex for each unit to enter now; units left out are delayed.

    When a sealed plan is revealed (``revealed``) the hexes are checked against every hex that could serve,
    since the position may have changed since the plan was sealed; RS/RS 4.11 then deals with a hex that no
    longer qualifies.
    """
    if not isinstance(answer, dict) or set(answer) - {"entries"} or not isinstance(answer.get("entries", {}), dict):
        raise RulesError("an entry plan is {entries: {unit: hex}}; units left out are delayed (RS/RS 4.12)")
    due = {u.id for u in arriving(state, side)}
    allowed = set(possible_entry_hexes(state, side) if revealed else entry_hexes(state, side))
    plan: dict[str, str] = {}
    for unit_id, hex_id in sorted(answer.get("entries", {}).items()):
        if unit_id not in due:
            raise RulesError(f"{unit_id} is not a {side} reinforcement due this turn (RS/RS 4.1)")
        if hex_id not in allowed:
            raise RulesError(f"{hex_id} is not a map-edge hex where {side} reinforcements may enter (RS/RS 4.1, 10.1)")
        plan[unit_id] = hex_id
    return plan


def default_plan(state: RsState, side: str) -> dict[str, str]:
    """The bot's plan: entry hexes nearest the friendly units, each filled within the stacking limit."""
    hexes = entry_hexes(state, side)
    if not hexes:
        return {}
    own = [u.hex for u in state.on_map(side) if u.hex]
    grid = state.static.grid
    ranked = sorted(hexes, key=lambda h: (sum(grid.distance(h, o) for o in own), h))
    plan: dict[str, str] = {}
    filled: dict[str, list[str]] = {h: [u.id for u in state.units_in(h, side)] for h in ranked}
    for unit in arriving(state, side):
        for hex_id in ranked:
            if stacking.legal(state, side, filled[hex_id] + [unit.id]) is None:
                filled[hex_id].append(unit.id)
                plan[unit.id] = hex_id
                break
        else:
            plan[unit.id] = ranked[0]
    return plan


def place(state: RsState, ctx: Context, side: str, plan: dict[str, str]) -> None:
    """RS/RS 4.11, RS/RS 4.12: place planned reinforcements; unplanned or blocked ones wait a turn."""
    enemy = enemy_of(side)
    placed: dict[str, list[str]] = {}
    for unit in arriving(state, side):
        hex_id = plan.get(unit.id)
        if hex_id is None:
            unit.arrives = state.turn + 1
            ctx.emit("delayed", f"{unit.id} has no entry hex: delayed to turn {unit.arrives}", "RS/RS 4.12",
                     unit=unit.id)
            continue
        if hex_id in occupied(state, enemy):
            options = entry_hexes(state, side)
            grid = state.static.grid
            if not options:
                unit.arrives = state.turn + 1
                ctx.emit("delayed", f"{unit.id}: no entry hex free of the enemy; delayed", "RS/RS 4.12",
                         unit=unit.id)
                continue
            planned = hex_id
            nearest = min(options, key=lambda h: (grid.distance(planned, h), h))
            ctx.emit("entry-moved", f"{hex_id} holds enemy units: {unit.id} enters at {nearest} instead",
                     "RS/RS 4.11", unit=unit.id, planned=hex_id, hex=nearest)
            hex_id = nearest
        unit.status = ON_MAP
        unit.hex = hex_id
        unit.arrives = None
        if hex_id in zone_of_control(state, enemy):
            unit.no_move = True
        rt.mark_victory(state, hex_id, side, [unit])
        placed.setdefault(hex_id, []).append(unit.id)
        ctx.emit("arrives", f"{unit.id} enters at {hex_id}" + (" in an enemy zone of control: it may not move "
                 "this turn" if unit.no_move else ""), "RS/RS 4.11", unit=unit.id, hex=hex_id)
    for hex_id, newcomers in sorted(placed.items()):
        rt.overstack(state, ctx, hex_id, side, newcomers, "RS/RS 4.11")


def return_off_map(state: RsState, ctx: Context) -> None:
    """RS/RS 6.72: units retreated off the board return the next player turn, nearest their exit hex."""
    for unit in [u for _, u in sorted(state.units.items()) if u.status == OFF_MAP]:
        if unit.arrives is not None and unit.arrives >= state.player_turn:
            continue
        enemy = occupied(state, enemy_of(unit.side))
        grid = state.static.grid
        origin = unit.exit_hex or ""
        free = sorted((grid.distance(origin, h), h) for h in state.static.terrain if h not in enemy)
        unit.status = ON_MAP
        unit.hex = free[0][1]
        unit.arrives = None
        ctx.emit("returns", f"{unit.id} returns to the map at {unit.hex}", "RS/RS 6.72", unit=unit.id, hex=unit.hex)


def withdraw(state: RsState, ctx: Context, side: str) -> None:
    """RS/RS 4.4: units due to leave go if in supply; out of supply they wait for a later segment."""
    entry = state.turn_track[state.turn - 1] if state.turn <= len(state.turn_track) else {}
    due = sorted(set(state.withdrawals) | {u for u in entry.get("withdraw", []) if state.units.get(u)})
    keep: list[str] = []
    for unit_id in due:
        unit = state.units[unit_id]
        if unit.side != side:
            if unit_id in state.withdrawals:
                keep.append(unit_id)
            continue
        if unit.status != ON_MAP:
            if unit.status in (ARRIVING, REPLACEMENTS):
                unit.status = WITHDRAWN
                ctx.emit("withdrawn", f"{unit_id} is withdrawn", "RS/RS 4.4", unit=unit_id)
            continue
        if not in_supply(state, unit):
            keep.append(unit_id)
            ctx.emit("withdrawal-delayed", f"{unit_id} is out of supply; its withdrawal waits", "RS/RS 4.4",
                     unit=unit_id)
            continue
        unit.status = WITHDRAWN
        unit.hex = None
        ctx.emit("withdrawn", f"{unit_id} is withdrawn", "RS/RS 4.4", unit=unit_id)
    state.withdrawals = keep


# -- replacements ------------------------------------------------------------------------------------------

def pools_for(state: RsState, unit: Unit) -> tuple[str, ...]:
    """RS/RS 4.22: which replacement points a unit may use, in the order we spend them."""
    counter = state.counter(unit.id)
    if counter.nationality == "mongolia":
        return ("mongol",)
    if counter.nationality == "manchukuo":
        return ("manchu",)
    if counter.cls == "Armor":
        return ("armor",)
    if counter.cls == "Leg":
        return ("leg", "armor")
    return ()


def _pay(state: RsState, side: str, unit: Unit, cost: int, chosen: Any = None) -> dict[str, int] | None:
    """Spend ``cost`` replacement points on ``unit`` (RS/RS 4.22): the kinds its owner names in ``chosen``
    (pool -> points), else its own kind first (a Leg unit Leg points, then Armor). Returns what was spent, or
    None when the points are short."""
    points = state.replacement_points.setdefault(side, {})
    pools = pools_for(state, unit)
    if chosen is not None:
        if not isinstance(chosen, dict) or not all(type(v) is int and v >= 0 for v in chosen.values()):
            raise RulesError(f"{unit.id}: points are {{pool: number}} (RS/RS 4.22)")
        for pool, value in sorted(chosen.items()):
            if value and pool not in pools:
                raise RulesError(f"{unit.id} may not use {pool} replacement points; it may use "
                                 f"{', '.join(pools)} (RS/RS 4.22)")
            if value > points.get(pool, 0):
                raise RulesError(f"{side} has {points.get(pool, 0)} {pool} replacement point(s), not {value} "
                                 "(RS/RS 4.21)")
        if sum(chosen.values()) != cost:
            raise RulesError(f"{unit.id} needs {cost} replacement point(s), not {sum(chosen.values())} "
                             "(RS/RS 4.23)")
        for pool, value in sorted(chosen.items()):
            points[pool] = points.get(pool, 0) - value
        return {p: v for p, v in sorted(chosen.items()) if v}
    if sum(points.get(p, 0) for p in pools) < cost:
        return None
    spent: dict[str, int] = {}
    for pool in pools:
        take = min(points.get(pool, 0), cost)
        points[pool] = points.get(pool, 0) - take
        cost -= take
        if take:
            spent[pool] = take
    return spent


def restorable(state: RsState, side: str) -> list[Unit]:
    """RS/RS 4.23: reduced units in play, outside enemy zones of control, without a Disruption marker."""
    zoc = zone_of_control(state, enemy_of(side))
    return [u for u in state.on_map(side) if u.reduced and u.hex not in zoc and not u.disruption
            and pools_for(state, u) and state.counter(u.id).reduced is not None]


def returnable(state: RsState, side: str) -> list[Unit]:
    return [u for _, u in sorted(state.units.items())
            if u.side == side and u.status == REPLACEMENTS and pools_for(state, u)]


def may_ask(state: RsState, side: str) -> bool:
    points = state.replacement_points.get(side, {})
    return any(points.get(p, 0) for p in POOLS) and bool(restorable(state, side) or returnable(state, side))


def restore_cost(state: RsState, unit: Unit) -> int:
    counter = state.counter(unit.id)
    assert counter.full is not None and counter.reduced is not None
    return counter.full.combat - counter.reduced.combat


def return_hexes(state: RsState, unit: Unit) -> list[str]:
    """RS/RS 4.23: on or next to a friendly HQ, or a unit of the same box colour and formation, or a friendly
    supply-source map edge; never a non-edge hex in an enemy ZOC unless a friendly unit is there."""
    side = unit.side
    counter = state.counter(unit.id)
    grid = state.static.grid
    zoc = zone_of_control(state, enemy_of(side))
    enemy = occupied(state, enemy_of(side))
    friendly = occupied(state, side)
    anchors: set[str] = set()
    for other in state.on_map(side):
        oc = state.counter(other.id)
        same = oc.box_colour == counter.box_colour and (
            counter.formation_id is None or oc.formation_id == counter.formation_id)
        if oc.cls == "HQ" or same:
            assert other.hex is not None
            anchors.add(other.hex)
            anchors.update(h for h in grid.neighbours(other.hex) if h in state.static.terrain)
    # RS/RS 4.23: every map-edge hex serving as a friendly supply source (RS/RS 10.1). The errata's Soviet entry hexes
    # 1308-1314 narrow where reinforcements enter (RS/RS 4.1), not this third way of returning (interpretations.md).
    edges = set(supply_sources(state, side))
    allowed = []
    for hex_id in sorted(anchors | edges):
        if hex_id in enemy:
            continue
        if hex_id not in edges and hex_id in zoc and hex_id not in friendly:
            continue
        allowed.append(hex_id)
    return allowed


def apply_replacements(state: RsState, ctx: Context, side: str, answer: Any) -> None:
    """RS/RS 4.23: restore reduced units and bring eliminated ones back, paying replacement points."""
    if not isinstance(answer, dict) or set(answer) - {"restore", "return"}:
        raise RulesError("a replacement answer is {restore: [units], return: [{unit, hex, reduced}]} (RS/RS 4.23)")
    fresh = {u.id for u in restorable(state, side)}
    for raw in answer.get("restore") or []:
        # RS/RS 4.22: a unit id, or {unit, points: {pool: n}} naming which points pay for it
        unit_id = str(raw.get("unit")) if isinstance(raw, dict) else str(raw)
        chosen = raw.get("points") if isinstance(raw, dict) else None
        unit = state.units.get(unit_id)
        if unit is not None and not pools_for(state, unit):
            raise RulesError(f"{unit_id} is a {state.counter(unit_id).cls} unit and never receives replacements "
                             "(RS/RS 4.22)")
        if unit is None or unit.id not in fresh:
            raise RulesError(f"{unit_id} cannot receive replacements now: reduced, in play, outside enemy zones of "
                             "control and without a Disruption marker (RS/RS 4.23)")
        cost = restore_cost(state, unit)
        spent = _pay(state, side, unit, cost, chosen)
        if spent is None:
            raise RulesError(f"{unit_id} needs {cost} replacement point(s) of a kind it may use (RS/RS 4.22, 4.23)")
        unit.reduced = False
        ctx.emit("replaced", f"{unit_id} is restored to full strength for {plural(cost, 'point')} "
                 f"({', '.join(f'{v} {p}' for p, v in spent.items())})", "RS/RS 4.23", unit=unit_id, cost=cost,
                 points=spent)
    boxed = {u.id for u in returnable(state, side)}
    for item in answer.get("return") or []:
        unit_id = str(item.get("unit")) if isinstance(item, dict) else ""
        unit = state.units.get(unit_id)
        if unit is None or unit.id not in boxed:
            raise RulesError(f"{unit_id} is not in the {side} Replacements box (RS/RS 4.22)")
        reduced = bool(item.get("reduced", True))
        counter = state.counter(unit.id)
        face = counter.face(reduced)
        hex_id = item.get("hex")
        if hex_id not in return_hexes(state, unit):
            raise RulesError(f"{unit_id} may not return in {hex_id} (RS/RS 4.23)")
        spent = _pay(state, side, unit, face.combat, item.get("points"))
        if spent is None:
            raise RulesError(f"{unit_id} needs {face.combat} replacement point(s) of a kind it may use (RS/RS 4.23)")
        unit.status = ON_MAP
        unit.hex = hex_id
        unit.reduced = reduced and counter.reduced is not None
        stopped = hex_id in zone_of_control(state, enemy_of(side))
        if stopped:  # RS/RS 4.23 with RS/RS 4.11: a unit placed in an enemy zone of control moves no further
            unit.no_move = True
        rt.mark_victory(state, hex_id, side, [unit])
        ctx.emit("replaced", f"{unit_id} returns at {hex_id} with {plural(current(state, unit), 'factor')}"
                 + (" in an enemy zone of control: it may not move this turn" if stopped else ""), "RS/RS 4.23",
                 unit=unit_id, hex=hex_id, cost=face.combat, points=spent)
        rt.overstack(state, ctx, hex_id, side, [unit_id], "RS/RS 4.11")


def auto_replacements(state: RsState, side: str) -> dict[str, Any]:
    """Policy ``replacements: restore``: flip reduced units back, in unit-id order, while points last."""
    points = dict(state.replacement_points.get(side, {}))
    chosen = []
    for unit in restorable(state, side):
        cost = restore_cost(state, unit)
        pools = pools_for(state, unit)
        if sum(points.get(p, 0) for p in pools) >= cost:
            for pool in pools:
                take = min(points.get(pool, 0), cost)
                points[pool] = points.get(pool, 0) - take
                cost -= take
            chosen.append(unit.id)
    return {"restore": chosen, "return": []}
