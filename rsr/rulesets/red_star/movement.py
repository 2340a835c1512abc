"""Movement (RS/RS 7.0-7.4) with zones of control (RS/RS 8.2), trucks (RS/RS 7.4) and the hasty attacks a move ends
with (RS/RS 7.5).

A Movement segment order is one input: truck markers first, then moves in order, each a unit or a stack
with its path, the hexes where members drop off, and the hasty attacks it makes where it stops
(docs/red-star/orders.md). The whole order is checked against the position before any die, on a copy of
the position that carries out the moves one after the other, so an illegal move is refused before signing.
While the order executes after hasty attacks have changed the position, a path that is no longer legal is
cut at its first illegal hex, and a hasty attack whose stack did not arrive is called off.
"""

from __future__ import annotations

import copy
import heapq
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rsr.engine import Context
from rsr.errors import RulesError
from rsr.fairdice import NoDice
from rsr.rulesets.red_star import bridges, stacking
from rsr.rulesets.red_star.sequence import HASTY_COST, OPERATIONAL_DISTANCE
from rsr.rulesets.red_star.state import RsState, Unit, enemy_of
from rsr.rulesets.red_star.terrain import (
    InexactCost,
    allowance,
    cost_units,
    halve_movement,
    in_supply,
    is_motorized,
    occupied,
    step_cost,
    step_units,
    supplied_hexes,
    whole_units,
    zone_of_control,
)


def fraction_text(value: Fraction) -> str:
    whole, rest = divmod(value, 1)
    if not rest:
        return str(int(whole))
    return f"{int(whole)} {rest}" if whole else str(rest)


@dataclass
class Move:
    units: tuple[str, ...]
    path: tuple[str, ...]
    drop: dict[str, int] = field(default_factory=dict)  # unit -> how many hexes of the path it moves
    operational: bool = False
    hasty: list[dict[str, Any]] = field(default_factory=list)
    number: int = 0
    bridge: dict[str, str] | None = None   # RS/RS 11.1, RS/RS 11.2 action at the end of the move (bridges.py)


@dataclass
class Walk:
    """Where each unit of a move ends and what it has left; ``problem`` says why the path stops early."""

    reached: dict[str, int]            # unit -> hexes of the path it entered
    left: dict[str, Fraction]          # unit -> MP left
    allowance: dict[str, Fraction]
    problem: str | None = None
    entered_zoc: bool = False
    halted: dict[str, int] = field(default_factory=dict)  # unit -> path index it could not enter (RS/RS 5.22)


def allowance_of(state: RsState, unit: Unit) -> Fraction:
    """The allowance a unit would have if it began to move now (RS/RS 7.0, RS/RS 10.3)."""
    return allowance(state, unit, False, in_supply(state, unit))


def restricted(state: RsState, unit: Unit) -> str | None:
    """Scenario restrictions on normal movement (RS/RS 13.1 special rule 1), reserves (RS/RS 7.6) and entry
    (RS/RS 4.11)."""
    if unit.reserve:
        return f"{unit.id} has a Reserve marker and moves only in the enemy Movement segment (RS/RS 7.6)"
    if unit.no_move:
        return f"{unit.id} entered in an enemy zone of control this turn and may not move (RS/RS 4.11)"
    for rule in state.restrictions:
        if rule.get("turn") == state.turn and rule.get("side") == unit.side and \
                unit.hex in state.static.areas.get(rule.get("area", ""), frozenset()):
            return f"{unit.id} may not move normally on {state.date()} ({rule.get('case', 'RS/RS 13.1')})"
    return None


def truck_problem(state: RsState, side: str, unit_ids: list[str]) -> str | None:
    """RS/RS 7.4: three Soviet battalions or one regiment; two Japanese units of any size; none in an enemy ZOC."""
    enemy_zoc = zone_of_control(state, enemy_of(side))
    for unit_id in unit_ids:
        unit = state.units.get(unit_id)
        if unit is None or not unit.on_map or unit.side != side or not state.counter(unit_id).ground:
            return f"{unit_id} is not a {side} ground unit on the map"
        if unit.hex in enemy_zoc:
            return f"{unit_id} is in an enemy zone of control and may not receive a truck marker (RS/RS 7.4)"
    if len(set(unit_ids)) != len(unit_ids):
        return "a unit is listed twice for trucks"
    if side == "japan":
        if len(unit_ids) > 2:
            return "Japan may motorize at most two units per Movement segment (RS/RS 7.4)"
        return None
    sizes = [state.counter(u).size for u in unit_ids]
    if not unit_ids:
        return None
    if len(unit_ids) == 1 and sizes[0] == "III":
        return None
    if all(s in ("I", "II") for s in sizes) and len(unit_ids) <= 3:
        return None
    return "the Soviets may motorize three battalion-sized units or one regiment per Movement segment (RS/RS 7.4)"


def parse_moves(state: RsState, side: str, answer: Any) -> tuple[list[str], list[Move]]:
    """Check the shape of a movement order (RS/RS 7.0) and turn it into moves."""
    if not isinstance(answer, dict) or set(answer) - {"trucks", "moves"}:
        raise RulesError("a movement order is {trucks: [unit ids], moves: [{units, path, drop, operational, hasty}]}")
    trucks = answer.get("trucks") or []
    if not isinstance(trucks, list) or not all(isinstance(t, str) for t in trucks):
        raise RulesError("trucks is a list of unit ids (RS/RS 7.4)")
    moves: list[Move] = []
    for number, raw in enumerate(answer.get("moves") or [], start=1):
        if not isinstance(raw, dict) or set(raw) - {"units", "unit", "path", "drop", "operational", "hasty", "bridge"}:
            raise RulesError(f"move {number}: give units (or unit), path, and optionally drop, operational, hasty, "
                             "bridge")
        units = raw.get("units") or ([raw["unit"]] if "unit" in raw else [])
        if not isinstance(units, list) or not units or not all(isinstance(u, str) for u in units):
            raise RulesError(f"move {number}: units is a non-empty list of unit ids")
        path = raw.get("path") or []
        if not isinstance(path, list) or not all(isinstance(h, str) for h in path):
            raise RulesError(f"move {number}: path is a list of hex numbers, each four digits in quotes: ['0414']")
        drop_raw = raw.get("drop") or {}
        if not isinstance(drop_raw, dict):
            raise RulesError(f"move {number}: drop maps a unit to the hex where it stops")
        drop: dict[str, int] = {}
        for unit_id, hex_id in sorted(drop_raw.items()):
            if unit_id not in units or hex_id not in path:
                raise RulesError(f"move {number}: {unit_id} may only drop off in a hex of its stack's path (RS/RS 7.2)")
            drop[unit_id] = path.index(hex_id) + 1
        hasty = raw.get("hasty") or []
        if isinstance(hasty, dict):
            hasty = [hasty]
        if not isinstance(hasty, list) or not all(isinstance(h, dict) for h in hasty):
            raise RulesError(f"move {number}: hasty is a list of {{hex, units}} attacks (RS/RS 7.5)")
        moves.append(Move(tuple(units), tuple(path), drop, bool(raw.get("operational", False)), list(hasty),
                          number, bridges.check_shape(raw.get("bridge"), f"move {number}")))
    return list(trucks), moves


def walk(state: RsState, side: str, move: Move, strict: bool, extra: dict[int, int] | None = None) -> Walk:
    """Walk a stack along its path under RS/RS 7.1-7.3 and RS/RS 8.2.

    ``strict``: the first problem is an error (checking an order); otherwise the stack stops in the last
    legal hex, and a member that cannot pay for the next hex is dropped off where it is (RS/RS 7.2). ``extra``:
    path index -> interdiction MP each unit must add to enter that hex; a unit that cannot pay halts before
    it even as its first hex (RS/RS 5.22, artillery.walk_interdicted).
    """
    static = state.static
    units = [state.units[u] for u in move.units]
    start = units[0].hex or ""
    enemy = enemy_of(side)
    enemy_zoc = zone_of_control(state, enemy)
    enemy_hexes = occupied(state, enemy)
    enemy_units = [u.hex for u in state.on_map(enemy) if u.hex]
    supplied = supplied_hexes(state, side)
    grid = static.grid
    allow = {u.id: allowance(state, u, move.operational, in_supply(state, u, supplied)) for u in units}
    left = dict(allow)
    reached = {u.id: 0 for u in units}
    active = [u.id for u in units]
    result = Walk(reached, left, allow)

    def fail(message: str) -> Walk:
        if strict:
            raise RulesError(f"move {move.number}: {message}")
        result.problem = message
        return result

    if move.operational:
        near = [h for h in enemy_units if grid.distance(start, h) < OPERATIONAL_DISTANCE]
        if near:
            return fail(f"operational movement must begin at least {OPERATIONAL_DISTANCE} hexes from every enemy "
                        f"unit; {start} is {grid.distance(start, near[0])} from {near[0]} (RS/RS 7.3)")
    here = start
    for index, there in enumerate(move.path):
        if not active:
            break
        if not grid.on_map(there) or there not in static.terrain:
            return fail(f"{there} is not on the map")
        if not grid.adjacent(here, there):
            return fail(f"{there} is not adjacent to {here} (RS/RS 7.1)")
        if there in enemy_hexes:
            return fail(f"{there} holds enemy units (RS/RS 7.1)")
        if index > 0 and here in enemy_zoc:
            return fail(f"the stack must stop in {here}, an enemy zone of control (RS/RS 8.2)")
        if move.operational:
            near = [h for h in enemy_units if grid.distance(there, h) < OPERATIONAL_DISTANCE]
            if near:
                return fail(f"operational movement may not come within {OPERATIONAL_DISTANCE - 1} hexes of an enemy "
                            f"unit; {there} is {grid.distance(there, near[0])} from {near[0]} (RS/RS 7.3)")
        entering_zoc = there in enemy_zoc
        leaving_zoc = index == 0 and here in enemy_zoc
        if entering_zoc and leaving_zoc:
            friendly_there = [u for u in state.units_in(there, side) if u.id not in move.units]
            if not friendly_there:
                return fail(f"a unit may move from one enemy zone of control ({here}) directly to another ({there}) "
                            "only into a hex already holding a friendly unit (RS/RS 8.2)")
        elif entering_zoc and start in enemy_zoc and index > 0:
            return fail(f"having left an enemy zone of control, the stack may not enter another ({there}) this "
                        "segment (RS/RS 8.2)")
        stays = [u for u in state.units_in(here, side) if u.id not in active] if leaving_zoc else []
        costs: dict[str, Fraction] = {}
        for unit_id in list(active):
            unit = state.units[unit_id]
            counter = state.counter(unit_id)
            long_gun = counter.artillery and counter.full is not None and (counter.full.range or 0) >= 7
            if entering_zoc and unit.disruption == 1:
                return fail(f"{unit_id} has a \"1\" marker and may not enter an enemy zone of control (RS/RS 5.7)")
            if entering_zoc and long_gun:
                return fail(f"{unit_id} is artillery of range 7 or more and may not enter an enemy zone of control "
                            "(RS/RS 8.2)")
            cost = step_cost(state, unit, here, there)
            if cost is None:
                return fail(f"{unit_id} may not enter {there} from {here}: prohibited terrain or hexside (RS/RS 7.1)")
            if allow[unit_id] <= 0:
                if strict:
                    return fail(f"{unit_id} has no movement allowance this segment (RS/RS 5.7, 7.0)")
                active.remove(unit_id)
                continue
            if leaving_zoc:
                if entering_zoc:
                    cost = max(cost, left[unit_id])  # RS/RS 8.2 re-entry: the whole allowance
                elif stays:
                    cost += 2  # RS/RS 8.2: leaving friendly units behind in the enemy zone of control
                else:
                    cost += halve_movement(state, allow[unit_id])  # RS/RS 8.2: the last friendly unit to leave
            if extra and index in extra:  # RS/RS 5.22: the interdiction cost has no first-hex exception
                cost += extra[index]
                if cost > left[unit_id]:
                    active.remove(unit_id)
                    result.halted[unit_id] = index
                    continue
            if cost > left[unit_id] and reached[unit_id] > 0:
                if strict:
                    return fail(f"{unit_id} cannot pay {fraction_text(cost)} MP to enter {there} "
                                f"({fraction_text(left[unit_id])} left); drop it off earlier (RS/RS 7.1, 7.2)")
                active.remove(unit_id)
                continue
            costs[unit_id] = cost
        if not costs:
            break
        for unit_id, cost in costs.items():
            left[unit_id] = max(Fraction(0), left[unit_id] - cost)  # RS/RS 7.1: a unit's first hex is always open
            reached[unit_id] = index + 1
            if move.drop.get(unit_id) == index + 1:
                active.remove(unit_id)
        if entering_zoc:
            if active and index < len(move.path) - 1:
                return fail(f"the stack must stop in {there}, an enemy zone of control (RS/RS 8.2)")
            if leaving_zoc:
                for unit_id in active:
                    left[unit_id] = Fraction(0)
            result.entered_zoc = True
        here = there
    return result


def check_hasty(state: RsState, side: str, move: Move, walked: Walk, used: list[str]) -> None:
    """RS/RS 7.5-7.54: the hasty attacks a stack may make where it stops; pays their MP cost."""
    if not move.hasty:
        return
    final = move.path[-1] if move.path else None
    arrived = [u for u in move.units if move.path and walked.reached[u] == len(move.path)]
    if final is None or not walked.entered_zoc:
        raise RulesError(f"move {move.number}: a hasty attack follows only a move into an enemy zone of control "
                         "(RS/RS 7.5)")
    enemy = enemy_of(side)
    for number, attack in enumerate(move.hasty, start=1):
        where = f"move {move.number} hasty attack {number}"
        hex_id = attack.get("hex")
        units = attack.get("units") or []
        if not isinstance(hex_id, str) or not isinstance(units, list) or not units:
            raise RulesError(f"{where}: give hex and units (RS/RS 7.5)")
        if not state.static.grid.adjacent(final, hex_id) or not state.units_in(hex_id, enemy):
            raise RulesError(f"{where}: {hex_id} is not an enemy-occupied hex adjacent to {final} (RS/RS 6.0, 7.5)")
        classes = []
        for unit_id in units:
            if unit_id not in arrived:
                raise RulesError(f"{where}: {unit_id} is not in the stack that arrives in {final}; only one stack "
                                 "takes part in a hasty attack (RS/RS 7.52)")
            if unit_id in used:
                raise RulesError(f"{where}: {unit_id} already makes a hasty attack this move (RS/RS 7.53)")
            unit = state.units[unit_id]
            counter = state.counter(unit_id)
            if counter.artillery or unit.fired:
                raise RulesError(f"{where}: {unit_id} is artillery or has a Fired marker and may not make a hasty "
                                 "attack (RS/RS 7.54)")
            if unit.disruption:
                raise RulesError(f"{where}: {unit_id} is disrupted and may not attack (RS/RS 5.7)")
            cost = HASTY_COST[is_motorized(state, unit)]
            if walked.left[unit_id] < cost:
                raise RulesError(f"{where}: {unit_id} has {fraction_text(walked.left[unit_id])} MP left, not the "
                                 f"{cost} a hasty attack costs (RS/RS 7.51)")
            classes.append(counter.cls)
        # RS/RS 7.54: an antitank or anti-aircraft unit must be *stacked with* a Leg or Armor unit: one of the
        # stack that arrives, or a friendly unit already in the hex, whether or not that unit attacks too.
        stacked = {state.counter(u).cls for u in arrived} | {
            state.counter(u.id).cls for u in state.units_in(final, side) if u.id not in move.units}
        for unit_id in units:
            counter = state.counter(unit_id)
            if counter.type in ("antitank", "anti-aircraft") and not {"Leg", "Armor"} & stacked:
                raise RulesError(f"{where}: {unit_id} is not stacked with a Leg or Armor unit in {final} "
                                 "(RS/RS 7.54)")
        for unit_id in units:
            walked.left[unit_id] -= HASTY_COST[is_motorized(state, state.units[unit_id])]
        used.extend(units)


def apply_walk(state: RsState, side: str, move: Move, walked: Walk) -> dict[str, list[str]]:
    """Put each unit of a move where its walk ended; return unit -> hexes entered."""
    entered: dict[str, list[str]] = {}
    for unit_id in move.units:
        count = walked.reached[unit_id]
        if count:
            state.units[unit_id].hex = move.path[count - 1]
            entered[unit_id] = list(move.path[:count])
    return entered


def check_order(state: RsState, side: str, answer: Any) -> tuple[list[str], list[Move]]:
    """Check a whole movement order before any die (RS/RS 7.0-7.5, RS/RS 8.2, RS/RS 9.0); return trucks and moves."""
    trucks, moves = parse_moves(state, side, answer)
    problem = truck_problem(state, side, trucks)
    if problem:
        raise RulesError(problem)
    trial = copy.deepcopy(state)
    for unit_id in trucks:
        trial.units[unit_id].truck = True
    moved: list[str] = []
    hasty_used: list[str] = []
    attacks = 0
    entered_hexes: list[str] = []
    picking: list[str] = []  # RS/RS 11.2: hexsides whose counter an engineer of the order picks up
    for move in moves:
        units = [trial.units.get(u) for u in move.units]
        first = units[0]
        for unit_id, unit in zip(move.units, units, strict=True):
            if unit is None or not unit.on_map or unit.side != side or not trial.counter(unit_id).ground:
                raise RulesError(f"move {move.number}: {unit_id} is not a {side} ground unit on the map")
            if unit_id in moved:
                raise RulesError(f"move {move.number}: {unit_id} has already moved this segment; no unit is picked "
                                 "up by a moving stack (RS/RS 7.2)")
            assert first is not None
            if unit.hex != first.hex:
                raise RulesError(f"move {move.number}: {unit_id} is in {unit.hex}, not with the stack in {first.hex}; "
                                 "a stack moves from one hex (RS/RS 7.2)")
            why = restricted(trial, unit)
            if why and (move.path or (move.bridge or {}).get("destroy") == trial.pontoon):
                raise RulesError(f"move {move.number}: {why}")  # RS/RS 11.2: only a unit that may move now
        if len(set(move.units)) != len(move.units):
            raise RulesError(f"move {move.number}: a unit is listed twice")
        walked = walk(trial, side, move, strict=True)
        check_hasty(trial, side, move, walked, hasty_used)
        attacks += len(move.hasty)
        entered = apply_walk(trial, side, move, walked)
        if move.bridge is not None:  # RS/RS 11.1, RS/RS 11.2
            why = bridges.problem(trial, side, list(move.units), move.bridge, walked.left, not move.path)
            if why:
                raise RulesError(f"move {move.number}: {why}")
            if "pick_up" in move.bridge:  # RS/RS 11.2: the counter stays until the end of the segment
                if move.bridge["pick_up"] in picking:
                    raise RulesError(f"move {move.number}: another engineer of this order already picks up the "
                                     f"Japanese bridge on {move.bridge['pick_up']} (RS/RS 11.2)")
                picking.append(move.bridge["pick_up"])
            else:
                bridges.act(trial, Context(NoDice()), side, list(move.units), move.bridge, walked.left,
                            not move.path)
        bridges.soviet_adjacency(trial, Context(NoDice()), side, entered, move.bridge)  # RS/RS 11.2
        moved += list(move.units)
        entered_hexes += [trial.units[u].hex or "" for u in move.units if walked.reached[u]]
    for number, receiver in sorted(bridges.exchange_receivers(moves).items()):
        if receiver in moved:  # RS/RS 11.2: the receiving engineer uses no MP this segment either
            raise RulesError(f"move {number}: {receiver} receives the bridge counter and may not move or act this "
                             "Movement segment (RS/RS 11.2)")
    if attacks > state.support.get(side, 0):
        raise RulesError(f"{attacks} hasty attacks cost {attacks} support points; {side} has "
                         f"{state.support.get(side, 0)} (RS/RS 4.3, 6.1)")
    for hex_id in sorted(set(entered_hexes)):
        problem = stacking.hex_problem(trial, hex_id, side)
        if problem:
            raise RulesError(f"at the end of the Movement segment {hex_id} would be over the limit: {problem}")
    return trucks, moves


def destinations(state: RsState, unit: Unit) -> dict[str, tuple[tuple[str, ...], Fraction]]:
    """Every hex ``unit`` could end a move in alone, with the cheapest legal path and the MP left.

    Used for order templates and the bot; every path returned passes :func:`walk`. Ties are broken by
    path, so the result is deterministic.
    """
    side = unit.side
    start = unit.hex or ""
    if restricted(state, unit):
        return {start: ((), Fraction(0))}
    enemy = enemy_of(side)
    enemy_zoc = zone_of_control(state, enemy)
    enemy_hexes = occupied(state, enemy)
    supplied = in_supply(state, unit)
    total = allowance(state, unit, False, supplied)
    counter = state.counter(unit.id)
    long_gun = counter.artillery and counter.full is not None and (counter.full.range or 0) >= 7
    stays = [u for u in state.units_in(start, side) if u.id != unit.id]
    if total <= 0:
        return {start: ((), Fraction(0))}
    try:  # the search in whole cost units (integers add and compare many times faster than fractions)
        scale = cost_units(state)
        leave = 2 * scale if stays else whole_units(halve_movement(state, total), scale)
        found = _cheapest_paths(state, unit, enemy_zoc, enemy_hexes, long_gun, whole_units(total, scale), leave,
                                lambda here, there: step_units(state, unit, here, there, scale))
        return {h: (path, Fraction(left, scale)) for h, (path, left) in found.items()}
    except InexactCost:  # (a cost that is not a whole number of units: the same search in fractions)
        return _cheapest_paths(state, unit, enemy_zoc, enemy_hexes, long_gun, total,
                               Fraction(2) if stays else halve_movement(state, total),
                               lambda here, there: step_cost(state, unit, here, there))


def _cheapest_paths(state: RsState, unit: Unit, enemy_zoc: frozenset[str], enemy_hexes: frozenset[str],
                    long_gun: bool, total: Any, leave: Any, step: Callable[[str, str], Any]
                    ) -> dict[str, tuple[tuple[str, ...], Any]]:
    """:func:`destinations`' search (RS/RS 7.1, RS/RS 8.2, RS/RS 8.3): the cheapest path to every hex and the
    cost left, in whatever numbers ``total``, ``leave`` (the cost of leaving an enemy zone) and ``step`` give
    (whole cost units or fractions: every sum, comparison and tie comes out alike); ties broken by path."""
    side = unit.side
    start = unit.hex or ""
    best: dict[str, tuple[Any, tuple[str, ...]]] = {start: (total - total, ())}
    heap: list[tuple[Any, tuple[str, ...], str]] = [(total - total, (), start)]
    neighbours = state.static.neighbours
    blocked_entry = unit.disruption == 1 or long_gun
    start_in_zoc = start in enemy_zoc
    while heap:
        spent, path, here = heapq.heappop(heap)
        if best[here][1] != path:
            continue
        if path and here in enemy_zoc:
            continue  # RS/RS 8.2: stop on entering
        for there in neighbours(here):
            if there in enemy_hexes:
                continue
            entering = there in enemy_zoc
            if entering and (blocked_entry or (path and start_in_zoc)):
                continue
            cost = step(here, there)
            if cost is None:
                continue
            if not path and start_in_zoc:
                if entering:
                    if not state.units_in(there, side):
                        continue
                    cost = max(cost, total)
                else:
                    cost += leave
            new_total = spent + cost
            if new_total > total and path:
                continue
            new_total = min(new_total, total) if not path else new_total
            new_path = path + (there,)
            if there not in best or (new_total, new_path) < best[there]:
                best[there] = (new_total, new_path)
                heapq.heappush(heap, (new_total, new_path, there))
    return {h: (p, total - s) for h, (s, p) in sorted(best.items())}
