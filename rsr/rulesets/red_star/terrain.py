"""Map rules of Red Sun/Red Star: bridges, movement costs, zones of control and supply.

Movement point costs are exact fractions (the provisional chart charges motorized units 1/2 MP along a
road). Every function iterates sorted hexes and unit ids; sets are only used for membership.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from rsr.hexgrid import hexside
from rsr.rulesets.red_star.data import Counter, half_up
from rsr.rulesets.red_star.state import RsState, Unit, enemy_of


def bridge_exists(state: RsState, side_id: str) -> bool:
    """RS/RS 11.0, RS/RS 13.1 special rule 2: a bridge exists in the scenarios it names, from its first turn."""
    if side_id == state.pontoon:  # RS/RS 11.2: the Japanese bridge counter
        return True
    bridge = state.static.bridges.get(side_id)
    if bridge is None or side_id in state.destroyed_bridges:
        return False
    if bridge.scenarios and state.scenario_key not in bridge.scenarios:
        return False
    start = bridge.from_turn.get(state.scenario_key)
    if start is not None:
        first = state.turn_of_date(start)
        return first is not None and state.turn >= first
    return True


def halha_between(state: RsState, first: str, second: str) -> bool:
    return "halha" in state.static.side_features(first, second)


def unbridged_halha(state: RsState, first: str, second: str) -> bool:
    side_id = hexside(first, second)
    return halha_between(state, first, second) and not bridge_exists(state, side_id)


def unbridged_minor_river(state: RsState, first: str, second: str) -> bool:
    side_id = hexside(first, second)
    return "minor-river" in state.static.side_features(first, second) and not bridge_exists(state, side_id)


def is_motorized(state: RsState, unit: Unit) -> bool:
    """RS/RS 2.3: printed allowance 16 or more; RS/RS 7.4: a truck marker makes a unit motorized."""
    return state.counter(unit.id).motorized or unit.truck


def current(state: RsState, unit: Unit) -> int:
    """Current printed combat factors (RS/RS 2.4)."""
    return state.counter(unit.id).face(unit.reduced).combat


def step_cost(state: RsState, unit: Unit, frm: str, to: str) -> Fraction | None:
    """Movement points for ``unit`` to step from ``frm`` into adjacent ``to`` (RS/RS 7.1, RS/RS 11.3), or None:
    :func:`_step_cost` kept in the map's memo by what it reads (the bot's movement search asks the same steps
    hundreds of thousands of times)."""
    table = _step_table(state)
    key = _step_key(state, table, unit, frm, to)
    if key in table:
        return table[key]
    found = table[key] = _step_cost(state, unit, frm, to)
    return found


class InexactCost(ValueError):
    """A movement cost that is not a whole number of the map's cost units (:func:`cost_units`)."""


def step_units(state: RsState, unit: Unit, frm: str, to: str, scale: int) -> int | None:
    """:func:`step_cost` in cost units (``step_cost * scale``, a whole number, else :class:`InexactCost`), for a
    search that adds and compares integers instead of fractions (movement.destinations)."""
    table = _step_table(state)
    key = _step_key(state, table, unit, frm, to) + (scale,)
    if key in table:
        return table[key]
    cost = step_cost(state, unit, frm, to)
    found = None if cost is None else whole_units(cost, scale)
    table[key] = found
    return found


def whole_units(value: int | Fraction, scale: int) -> int:
    """``value * scale`` when it is a whole number; else :class:`InexactCost`."""
    exact = Fraction(value) * scale
    if exact.denominator != 1:
        raise InexactCost(f"{value} is not a whole number of 1/{scale}")
    return exact.numerator


def cost_units(state: RsState) -> int:
    """The least common multiple of the denominators of the map's movement costs: each cost (and so each sum
    of them) times this is a whole number."""
    memo = state.static.memo
    found: int | None = memo.get(("cost-units",))
    if found is None:
        static = state.static
        found = 1
        for table in (static.terrain_costs.values(), static.hexside_costs.values(), (static.road_cost,)):
            for entry in table:
                for motorized in (False, True):
                    cost = entry.cost(motorized)
                    if cost is not None:
                        found = math.lcm(found, Fraction(cost).denominator)
        memo[("cost-units",)] = found
    return found


def _step_table(state: RsState) -> dict[tuple[Any, ...], Any]:
    memo = state.static.memo
    return memo.get(("step-costs",)) or memo.setdefault(("step-costs",), {})


def _step_key(state: RsState, table: dict[tuple[Any, ...], Any], unit: Unit, frm: str, to: str) -> tuple[Any, ...]:
    """What :func:`_step_cost` reads of the state and the unit, beyond the fixed map."""
    static = state.static
    where = table.get((frm, to))
    if where is None:  # the hexside, and whether a bridge may span it (else bridge_exists is False)
        side_id = hexside(frm, to) if static.grid.on_map(to) and to in static.terrain else ""
        where = table[(frm, to)] = (side_id, side_id in static.bridges)
    side_id, bridgeable = where
    pontoon = side_id == state.pontoon
    bridged = pontoon or (bridgeable and bridge_exists(state, side_id))
    return (frm, to, is_motorized(state, unit), static.counter(unit.id).cls == "Armor", bridged, pontoon)


def _step_cost(state: RsState, unit: Unit, frm: str, to: str) -> Fraction | None:
    """Movement points for ``unit`` to step from ``frm`` into adjacent ``to`` (RS/RS 7.1, RS/RS 11.3), or None.

    The hex entered costs its terrain, or the road cost along a road (road hex to road hex through a road
    hexside); each hexside feature crossed adds its cost: a minor river, a stream, a slope going up. The
    Halha can be crossed only on an existing bridge; a bridge replaces the river's cost by its own, except
    that Armor crossing a bridge marked ``armor_may_use: false`` pays the minor-river cost (RS/RS 11.3).
    """
    static = state.static
    if not static.grid.on_map(to) or to not in static.terrain:
        return None
    motorized = is_motorized(state, unit)
    side_id = hexside(frm, to)
    features = static.features.get(side_id, ())
    bridged = bridge_exists(state, side_id)
    total = Fraction(0)
    if "halha" in features and not bridged:
        return None
    for feature in features:
        if feature in ("halha", "minor-river") and bridged:
            continue
        if feature == "slope" and static.slope_up.get(side_id) != to:
            continue  # provisional chart: only going up a slope costs
        if feature == "halha":
            continue
        cost = static.hexside_costs[feature].cost(motorized)
        if cost is None:
            return None
        total += cost
    if bridged and side_id == state.pontoon:  # RS/RS 11.3: no armor over the Japanese bridge counter
        if state.counter(unit.id).cls == "Armor":
            return None
        bridge_cost = static.hexside_costs["bridge"].cost(motorized)
        assert bridge_cost is not None
        total += bridge_cost
    elif bridged:
        bridge = static.bridges[side_id]
        if state.counter(unit.id).cls == "Armor" and not bridge.armor_may_use:
            if bridge.river == "halha":
                return None  # RS/RS 11.3: no armor over the Japanese bridge counter
            river = static.hexside_costs["minor-river"].cost(motorized)
            if river is None:
                return None
            total += river
        else:
            bridge_cost = static.hexside_costs["bridge"].cost(motorized)
            assert bridge_cost is not None
            total += bridge_cost
    if side_id in static.road_links:
        road = static.road_cost.cost(motorized)
        assert road is not None
        return total + road
    terrain = static.terrain_costs[static.terrain[to]].cost(motorized)
    if terrain is None:
        return None
    return total + terrain


def exerts_zoc(state: RsState, unit: Unit) -> bool:
    """RS/RS 8.0, RS/RS 8.1: every ground unit on the map, except under a "2" Disruption marker."""
    return unit.on_map and state.counter(unit.id).ground and unit.disruption < 2


def _signature(state: RsState, what: str, side: str) -> tuple[Any, ...]:
    """What a zone of control or a supply net depends on: the units and their markers (for a zone of control,
    the side's own); for a supply net also the bridges standing now (the turn matters only through them: a
    bridge may stand from a given turn)."""
    if what == "zoc":  # a side's zone of control depends on that side's units only
        return (what, side, state.scenario_key, tuple((u.id, u.hex, u.disruption) for u in state.on_map(side)))
    units = tuple((u.id, u.side, u.hex, u.disruption) for u in state.on_map())
    return (what, side, state.scenario_key, _standing_bridges(state), state.pontoon, units)


def _standing_bridges(state: RsState) -> tuple[str, ...]:
    """The bridges standing now (``bridge_exists`` of each), kept in the map's memo by what decides it."""
    key = ("standing", state.scenario_key, state.turn, state.pontoon, tuple(state.destroyed_bridges))
    found: tuple[str, ...] | None = state.static.memo.get(key)
    if found is None:
        found = state.static.memo[key] = tuple(s for s in sorted(state.static.bridges) if bridge_exists(state, s))
    return found


# zones of control and supply nets the map's memo holds before the older half of them goes: a supply net is
# some 30 KB, and the nets of a long game's old passes are never asked again (up to 512 kept some 15 MiB alive in
# a 2,000-packet verify); the map's fixed tables stay
MEMO_LIMIT = 96


def _cached(state: RsState, key: tuple[Any, ...], make: Callable[[], frozenset[str]]) -> frozenset[str]:
    """A pure memo kept with the static data: the value depends only on ``key`` and the map."""
    memo = state.static.memo
    nets: dict[tuple[Any, ...], frozenset[str]] = memo.get(("nets",)) or memo.setdefault(("nets",), {})
    found = nets.get(key)
    if found is None:
        if len(nets) > MEMO_LIMIT:  # the older half goes (a dict keeps the order entries came in)
            for old in list(itertools.islice(nets, len(nets) // 2)):
                del nets[old]
        if len(memo) > 512:  # (the other entries: as before)
            memo.clear()
            memo[("nets",)] = nets
        found = nets[key] = make()
    return frozenset(found)


def zone_of_control(state: RsState, side: str) -> frozenset[str]:
    """The hexes ``side``'s units control (RS/RS 8.0, RS/RS 8.1): all six neighbours, never across the Halha.

    Hexes holding enemy units are included (RS/RS 6.53 counts them for encirclement); movement never enters
    them anyway.
    """
    def make() -> frozenset[str]:
        controlled: set[str] = set()
        halha = state.static.halha_sides
        for unit in state.on_map(side):
            if not exerts_zoc(state, unit):
                continue
            assert unit.hex is not None
            for there, side_id in state.static.links[unit.hex]:
                if side_id not in halha:
                    controlled.add(there)
        return frozenset(controlled)

    return _cached(state, _signature(state, "zoc", side), make)


def occupied(state: RsState, side: str) -> frozenset[str]:
    return frozenset(u.hex for u in state.on_map(side) if u.hex is not None)


def supply_sources(state: RsState, side: str) -> list[str]:
    """RS/RS 10.1: map-edge hexes serving ``side`` as supply sources, not occupied by enemy units.

    Japan's northern edge counts only on hex rows east of the row of the westernmost Japanese or
    Manchukuoan unit on the map (the RS/RS 10.1 example).
    """
    enemy_hexes = occupied(state, enemy_of(side))
    westernmost: int | None = None
    if side == "japan":
        rows = [state.static.grid.parse(u.hex)[0] for u in state.on_map("japan") if u.hex is not None]
        westernmost = min(rows) if rows else None
    return [hex_id for hex_id in _edge_sources(state, side, westernmost) if hex_id not in enemy_hexes]


def _edge_sources(state: RsState, side: str, westernmost: int | None) -> tuple[str, ...]:
    """RS/RS 10.1: the edge hexes serving ``side`` before enemy units are considered, sorted: fixed for the map
    and the westernmost Japanese row, so kept in the map's memo."""
    memo = state.static.memo
    key = ("edge-sources", side, westernmost)
    found: tuple[str, ...] | None = memo.get(key)
    if found is None:
        sources: set[str] = set()
        for edge in state.static.supply_edges:
            if edge.side != side:
                continue
            for hex_id in edge.hexes:
                if edge.condition == "east-of-westernmost-friendly-line":
                    if westernmost is None or state.static.grid.parse(hex_id)[0] <= westernmost:
                        continue
                sources.add(hex_id)
        found = memo[key] = tuple(sorted(sources))
    return found


def supplied_hexes(state: RsState, side: str) -> frozenset[str]:
    """Every hex from which ``side`` can trace a supply line (RS/RS 10.2, RS/RS 8.3), any length.

    A line may not enter a hex holding enemy units, nor a vacant hex in an enemy zone of control (a
    friendly unit in the hex negates it), nor cross the Halha except on a bridge. A source hex in a
    vacant enemy zone of control is blocked too (our reading: the line would pass through it).
    """
    def make() -> frozenset[str]:
        # (what the net depends on is computed only when the memo lacks it: the key covers it all)
        enemy_hexes = occupied(state, enemy_of(side))
        enemy_zoc = zone_of_control(state, enemy_of(side))
        friendly = occupied(state, side)

        def open_hex(hex_id: str) -> bool:
            if hex_id in enemy_hexes:
                return False
            return hex_id not in enemy_zoc or hex_id in friendly

        # breadth-first, a whole front at a time with set operations (the net is a set: order is moot)
        dry, halha = _land_links(state)
        crossings: dict[str, list[str]] = {}
        for first, second, side_id in halha:
            if bridge_exists(state, side_id):
                crossings.setdefault(first, []).append(second)
                crossings.setdefault(second, []).append(first)
        blocked = enemy_hexes | (enemy_zoc - friendly)
        seen = {h for h in supply_sources(state, side) if open_hex(h)}
        net = _spread_as_bits(state, seen, blocked, crossings)
        if net is not None:
            return net
        front = set(seen)
        while front:
            reached = set().union(*map(dry.__getitem__, front))
            for here in front & crossings.keys():
                reached.update(crossings[here])
            front = reached - seen - blocked
            seen |= front
        return frozenset(seen)

    return _cached(state, _signature(state, "supply", side), make)


def _land_links(state: RsState) -> tuple[dict[str, tuple[str, ...]], tuple[tuple[str, str, str], ...]]:
    """The map's neighbours not across the Halha, and the Halha hexsides as (hex, hex, hexside): fixed."""
    memo = state.static.memo
    found = memo.get(("land-links",))
    if found is None:
        halha = state.static.halha_sides
        dry = {h: tuple(n for n, side_id in pairs if side_id not in halha) for h, pairs in state.static.links.items()}
        wet = tuple((h, n, side_id) for h, pairs in sorted(state.static.links.items()) for n, side_id in pairs
                    if side_id in halha and h < n)
        found = memo[("land-links",)] = (dry, wet)
    return found


def _spread_as_bits(state: RsState, sources: set[str], blocked: frozenset[str],
                    crossings: dict[str, list[str]]) -> frozenset[str] | None:
    """The breadth-first spread of ``supplied_hexes`` (RS/RS 10.2) with the map as one integer, a bit a hex: a
    whole front steps over each dry link at once as a shift (the map's links are a few fixed steps between
    the bits of sorted hex ids). The same hexes as the spread over sets (tests/test_supply_bits.py, and the
    behaviour corpus); None when a hex is not on the map (the caller then spreads over sets)."""
    names, index, steps = _link_shifts(state)
    seen = 0
    for hex_id in sources:
        at = index.get(hex_id)
        if at is None:
            return None
        seen |= 1 << at
    closed = 0
    for hex_id in blocked:
        at = index.get(hex_id)
        if at is not None:  # (a hex off the map is never reached anyway)
            closed |= 1 << at
    bridged: dict[int, int] = {}
    for here, theirs in crossings.items():
        at = index.get(here)
        if at is None:
            return None
        for there in theirs:
            other = index.get(there)
            if other is None:
                return None
            bridged[at] = bridged.get(at, 0) | 1 << other
    bridge_ends = 0
    for at in bridged:
        bridge_ends |= 1 << at
    open_hexes = ~closed
    front = seen
    while front:
        reached = 0
        for step, starts in steps:
            moving = front & starts
            if moving:
                reached |= moving << step if step > 0 else moving >> -step
        crossing = front & bridge_ends
        while crossing:
            low = crossing & -crossing
            reached |= bridged[low.bit_length() - 1]
            crossing ^= low
        front = reached & ~seen & open_hexes
        seen |= front
    everything = (1 << len(names)) - 1
    if seen.bit_count() * 2 > len(names):  # (most of the map: name the hexes left out, fewer)
        return _all_hexes(state, names) - _names_of(state, names, everything & ~seen)
    return _names_of(state, names, seen)


def _all_hexes(state: RsState, names: list[str]) -> frozenset[str]:
    memo = state.static.memo
    found = memo.get(("all-hexes",))
    if found is None:
        found = memo[("all-hexes",)] = frozenset(names)
    return found


def _names_of(state: RsState, names: list[str], bits: int) -> frozenset[str]:
    """The hexes of the set bits of ``bits``, a byte at a time (each byte's names kept in the map's memo)."""
    memo = state.static.memo
    table: dict[tuple[int, int], tuple[str, ...]] = memo.setdefault(("byte-names",), {})
    found: list[str] = []
    for at, byte in enumerate(bits.to_bytes((len(names) + 7) // 8, "little")):
        if byte:
            part = table.get((at, byte))
            if part is None:
                part = table[(at, byte)] = tuple(names[at * 8 + i] for i in range(8) if byte >> i & 1)
            found.extend(part)
    return frozenset(found)


def _link_shifts(state: RsState) -> tuple[list[str], dict[str, int], tuple[tuple[int, int], ...]]:
    """The map's hexes in sorted order, each one's bit, and its dry links grouped by step: (step, the bits of
    the hexes with a dry link to the hex ``step`` bits on). Fixed for the map: kept in its memo."""
    memo = state.static.memo
    found = memo.get(("link-shifts",))
    if found is None:
        dry, _ = _land_links(state)
        names = sorted(dry)
        index = {hex_id: at for at, hex_id in enumerate(names)}
        starts: dict[int, int] = {}
        for hex_id, neighbours in dry.items():
            at = index[hex_id]
            for neighbour in neighbours:
                other = index.get(neighbour)
                if other is not None:  # (every neighbour is a map hex: the spread over sets would fail first)
                    starts[other - at] = starts.get(other - at, 0) | 1 << at
        found = memo[("link-shifts",)] = (names, index, tuple(sorted(starts.items())))
    return found


def in_supply(state: RsState, unit: Unit, supplied: frozenset[str] | None = None) -> bool:
    """RS/RS 10.2: can ``unit`` trace a supply line now?"""
    if not unit.on_map or unit.hex is None:
        return False
    table = supplied if supplied is not None else supplied_hexes(state, unit.side)
    return unit.hex in table


def halve_movement(state: RsState, value: int | Fraction) -> int:
    """Half a movement value: fractions round up (Marker Effects Summary), or are dropped under the rule
    option ``halving-st163`` (errata: S&T 163)."""
    if state.options.get("halving-st163"):
        return math.floor(Fraction(value) / 2)
    return half_up(value)


def allowance(state: RsState, unit: Unit, operational: bool = False, supplied: bool = True) -> Fraction:
    """A unit's movement allowance this segment (RS/RS 7.0, RS/RS 7.3, RS/RS 7.4, RS/RS 10.3, RS/RS 5.7, Marker Effects
    Summary).

    Printed allowance (20 with a truck marker), doubled for operational movement, halved for a motorized
    unit out of supply, halved for a Fired marker and halved for a "1" marker, each halving rounded up
    (dropping fractions under ``halving-st163``); a "2" marker, or a Fired and a "1" marker together, leave
    nothing.
    """
    counter: Counter = state.counter(unit.id)
    base = 20 if unit.truck else counter.face(unit.reduced).movement
    if operational:
        base *= 2
    if not supplied and is_motorized(state, unit):
        base = halve_movement(state, base)
    if unit.disruption >= 2 or (unit.fired and unit.disruption == 1):
        return Fraction(0)
    if unit.fired:
        base = halve_movement(state, base)
    if unit.disruption == 1:
        base = halve_movement(state, base)
    return Fraction(base)


def distance_to_sources(state: RsState, side: str, hex_id: str) -> int:
    """Hexes from ``hex_id`` to the nearest friendly supply source (RS/RS 6.71 retreats toward one)."""
    sources = supply_sources(state, side) or [h for e in state.static.supply_edges if e.side == side
                                              for h in e.hexes]
    grid = state.static.grid
    return min((grid.distance(hex_id, s) for s in sources), default=0)
