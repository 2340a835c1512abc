"""Map rules of Red Sun Rising: movement costs, zones of control, rail use, command radius.

Movement point costs are exact fractions (the Terrain Effects Chart, RSR 9.46, prints 1/3 and 1/2).
"""

from __future__ import annotations

from collections import deque
from fractions import Fraction

from rsr.hexgrid import hexside, reachable
from rsr.rulesets.red_sun_rising.state import RsrState, Unit

COMMAND_RADIUS = Fraction(3)  # RSR 9.18: three movement points


def enemy(side: str) -> str:
    return "japan" if side == "russia" else "russia"


def is_command_unit(state: RsrState, unit: Unit) -> bool:
    return state.static.counter(unit.id).command_unit


def occupied_by(state: RsrState, side: str) -> set[str]:
    return {u.hex for u in state.units.values() if u.side == side and u.hex and u.steps > 0}


def in_defensive_position(state: RsrState, hex_id: str) -> bool:
    """RSR 9.32 with RSR 13.0: an intact fortress or a trench is a defensive position."""
    fortress = state.static.is_fortress(hex_id) and hex_id not in state.destroyed_fortresses
    return fortress or state.trenches.get(hex_id, 0) > 0


def zone_of_control(state: RsrState, side: str) -> set[str]:
    """The hexes ``side``'s combat units control (RSR 9.3, RSR 9.31-9.33).

    A combat unit controls each adjacent clear hex, and an adjacent hex of other terrain only when a road
    runs from its own hex into it. Command units (RSR 9.31) and units in defensive positions (RSR 9.32) control
    nothing. Control does not reach into sea hexes or across impassable hexsides (our reading: no unit
    could go there).
    """
    static = state.static
    controlled: set[str] = set()
    for unit in state.units.values():
        if unit.side != side or not unit.hex or unit.steps <= 0 or is_command_unit(state, unit):
            continue
        if in_defensive_position(state, unit.hex):
            continue
        for there in static.grid.neighbours(unit.hex):
            side_id = hexside(unit.hex, there)
            if not static.is_land(there) or "impassable" in static.hexsides.get(side_id, []):
                continue
            if static.terrain[there] == "clear" or side_id in static.road_links:
                controlled.add(there)
    return controlled


def usable_rail(state: RsrState, side: str) -> set[str]:
    """Rail hexes ``side`` may use (RSR 18.4, RSR 18.41, RSR 18.42).

    Russia: rail hexes joined by an unbroken chain of rail to a Russian railhead (3316, 3337, RSR 10.11).
    Japan: rail hexes joined to Port Arthur or Dalny while Japan controls that city. A hex holding an
    enemy unit or in an enemy zone of control breaks the chain and cannot be used.
    """
    static = state.static
    blocked = occupied_by(state, enemy(side)) | zone_of_control(state, enemy(side))
    if side == "russia":
        sources = static.railheads("russia")
    else:
        sources = [h for h in ("0801", "0803") if state.control.get(h) == "japan"]
    seen: set[str] = set()
    queue = deque(h for h in sources if h in static.rail_hexes and h not in blocked)
    seen.update(queue)
    while queue:
        here = queue.popleft()
        for there in static.grid.neighbours(here):
            if there in seen or there in blocked or hexside(here, there) not in static.rail_links:
                continue
            seen.add(there)
            queue.append(there)
    return seen


def step_cost(state: RsrState, frm: str, to: str, rail: set[str] | None) -> Fraction | None:
    """Movement points to step from ``frm`` into adjacent ``to`` (RSR 9.2, RSR 9.41, RSR 9.46, RSR 18.4).

    None if the step is impossible (all-sea hex, impassable hexside). ``rail`` is the set of rail hexes
    this unit may ride for free (None: it may not use rail at all). Along a rail line that the side may
    use: 0; along a road: 1/3; otherwise the terrain of the hex entered, plus 1 for crossing a river
    hexside (our reading of the chart's "River 1 MP", interpretations.md RSR 9.46).
    """
    static = state.static
    if not static.is_land(to):
        return None  # RSR 9.41
    side_id = hexside(frm, to)
    features = static.hexsides.get(side_id, [])
    if "impassable" in features:
        return None  # RSR 9.46 note: impassable hexsides block land movement
    if rail is not None and side_id in static.rail_links and frm in rail and to in rail:
        return Fraction(0)  # RSR 18.4
    if side_id in static.road_links:
        road = static.feature_effects["road"].move
        assert road is not None
        return road
    effect = static.terrain_effects[static.terrain[to]]
    if effect.move is None:
        return None
    cost = effect.move
    if "river" in features:
        river = static.feature_effects["river"].move
        cost += river if river is not None else 0
    return cost


def command_radius_cost(state: RsrState, side: str, start: str, goal: str) -> Fraction | None:
    """The cheapest path from ``start`` to ``goal`` for command control (RSR 9.18), or None beyond 3 MP.

    The path pays movement costs, rides rail the side may use for command radius (RSR 18.4, RSR 18.42), and may
    not pass through a hex holding an enemy unit or in an enemy zone of control; its two ends may be in
    one (our reading of "interrupted", interpretations.md RSR 9.18).
    """
    if start == goal:
        return Fraction(0)
    blocked = occupied_by(state, enemy(side)) | zone_of_control(state, enemy(side))
    rail = usable_rail(state, side)

    def cost(frm: str, to: str) -> Fraction | None:
        if to in blocked and to != goal:
            return None
        return step_cost(state, frm, to, rail)

    costs = reachable(state.static.grid, start, cost, COMMAND_RADIUS, may_continue=lambda h: h not in blocked)
    return costs.get(goal)
