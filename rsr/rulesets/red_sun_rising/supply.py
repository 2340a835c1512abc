"""Land supply and attrition (RSR 10.0-10.43).

A combat unit is in supply when it can trace three movement points to a supply source, or three to the
command unit it is assigned to which can trace three to a source (RSR 10.33-10.35). Russian sources are
general (RSR 10.11-10.12); Japanese ones are merchant fleets on the land map, each feeding four command
points of units (RSR 10.21-10.26, RSR 10.32, RSR 10.42).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rsr.decisions import Decision, Policy
from rsr.engine import Context
from rsr.hexgrid import reachable
from rsr.rulesets.red_sun_rising import activation
from rsr.rulesets.red_sun_rising.losses import lose_step
from rsr.rulesets.red_sun_rising.sequence import Go
from rsr.rulesets.red_sun_rising.state import Ask, RsrState, Unit
from rsr.rulesets.red_sun_rising.terrain import enemy, occupied_by, step_cost, usable_rail, zone_of_control

SUPPLY_RANGE = Fraction(3)          # RSR 10.33
FLEET_CAPACITY = 4                  # RSR 10.21: command points per merchant fleet
FORTRESS_SUPPLY_CAP = 12            # RSR 10.15
FORTRESS_SOURCES = ("0801", "2937")  # RSR 10.12: Port Arthur, Vladivostok


def trace_costs(state: RsrState, side: str, start: str) -> dict[str, Fraction]:
    """Every hex a supply line from ``start`` reaches within 3 MP (RSR 10.33, RSR 18.4, RSR 18.42).

    The line pays terrain like a moving unit, rides rail the side may use for supply, and is blocked by
    enemy units and enemy zones of control (the start hex itself may lie in one).
    """
    blocked = occupied_by(state, enemy(side)) | zone_of_control(state, enemy(side))
    rail = usable_rail(state, side)
    # a pure memo: the search depends only on the fixed map (state.static) and these four values
    key = (side, start, frozenset(blocked), frozenset(rail))
    memo: dict[Any, dict[str, Fraction]] = state.static.__dict__.setdefault("_trace_memo", {})
    found = memo.get(key)
    if found is None:

        def cost(frm: str, to: str) -> Fraction | None:
            if to in blocked:
                return None
            return step_cost(state, frm, to, rail)

        if len(memo) > 4096:
            memo.clear()
        found = memo[key] = reachable(state.static.grid, start, cost, SUPPLY_RANGE)
    return dict(found)


def russian_sources(state: RsrState) -> set[str]:
    """RSR 10.11-10.12: the railheads, rail joined to them, and a supplied Port Arthur or Vladivostok."""
    sources = set(usable_rail(state, "russia"))
    for hex_id in FORTRESS_SOURCES:
        if state.supply_levels.get(hex_id, 0) >= 1 and state.control.get(hex_id, "russia") == "russia":
            sources.add(hex_id)
    return sources


def japanese_fleets(state: RsrState) -> dict[str, str]:
    """RSR 10.21-10.23: merchant fleets able to supply: on a port hex, or in spring to autumn on any coastal
    hex of the land map."""
    static = state.static
    winter = activation.season(state) == "winter"
    usable = {}
    for fleet, hex_id in sorted(state.merchant_fleets.items()):
        if fleet in state.blockade_fleets:
            continue  # RSR 10.26: a fleet supporting a blockade feeds no land units
        place = static.places.get(hex_id)
        port = bool(place and place.port)
        coastal = any(not static.is_land(h) for h in static.grid.neighbours(hex_id))
        if port or (coastal and not winter):
            usable[fleet] = hex_id
    return usable


def _trace(state: RsrState, unit: Unit, sources: set[str]) -> str | None:
    """The source hex a unit traces to, directly or through its own command unit (RSR 10.33-10.35)."""
    if unit.hex is None:
        return None
    # a unit that reaches a general source does not draw on a fortress's stock (our reading of RSR 10.13)
    order = lambda h: (h in FORTRESS_SOURCES, h)  # noqa: E731
    direct = sorted((h for h in trace_costs(state, unit.side, unit.hex) if h in sources), key=order)
    if direct:
        return direct[0]
    hq = state.units.get(unit.assigned_to or "")  # RSR 10.35: only its own command unit
    if hq is None or not hq.hex or hq.steps <= 0:
        return None
    if hq.hex not in trace_costs(state, unit.side, unit.hex):
        return None
    via = sorted((h for h in trace_costs(state, unit.side, hq.hex) if h in sources), key=order)
    return via[0] if via else None


def judge_supply(state: RsrState, ctx: Context, side: str) -> None:
    """RSR 10.0, RSR 4.21/4.31: mark every combat unit of ``side`` in or out of supply for the turn."""
    units = [u for _, u in sorted(state.units.items())
             if u.side == side and u.hex and u.steps > 0 and activation.kind(state, u) == "combat"]
    state.supply_source = {k: v for k, v in state.supply_source.items() if state.units[k].side != side}
    if side == "russia":
        sources = russian_sources(state)
        for unit in units:
            source = _trace(state, unit, sources)
            _set(state, ctx, unit, source, "no supply line to a railhead, connected rail or supplied fortress")
        return
    judge_japanese_supply(state, ctx, feeding_by_policy(state))


def feeding_options(state: RsrState) -> dict[str, list[str]]:
    """RSR 10.24, RSR 10.32: every Japanese combat unit on the map with the merchant fleets it can trace to."""
    fleets = japanese_fleets(state)
    options: dict[str, list[str]] = {}
    for _, unit in sorted(state.units.items()):
        if unit.side == "japan" and unit.hex and unit.steps > 0 and activation.kind(state, unit) == "combat":
            options[unit.id] = [f for f, h in fleets.items() if _trace(state, unit, {h})]
    return options


def feeding_by_policy(state: RsrState) -> dict[str, str]:
    """Policy ``feeding: most-points`` (RSR 10.32, RSR 10.42): a maximum matching of units to fleets.

    Among all ways of sharing the fleets' four command points each, the one that feeds the most command
    points; among those, the one that feeds the most units (each unit left out loses a step to attrition,
    RSR 10.42), then the most combat strength; remaining ties go to the first found in unit-id order. An exact
    search over the fleets' remaining points, per group of units that share fleets, not a greedy order.
    """
    options = {u: fleets for u, fleets in feeding_options(state).items() if fleets}
    feed: dict[str, str] = {}
    for group in _groups(options):
        feed.update(_best_feeding(state, group, options))
    return dict(sorted(feed.items()))


def _groups(options: dict[str, list[str]]) -> list[list[str]]:
    """Units that can reach a common fleet, directly or through others, form one group (sorted ids)."""
    groups: list[tuple[set[str], list[str]]] = []
    for unit_id, fleets in sorted(options.items()):
        joined = [g for g in groups if g[0] & set(fleets)]
        fleet_set, members = set(fleets), [unit_id]
        for g in joined:
            fleet_set |= g[0]
            members += g[1]
            groups.remove(g)
        groups.append((fleet_set, sorted(members)))
    return sorted((g[1] for g in groups), key=lambda m: m[0])


def _best_feeding(state: RsrState, units: list[str], options: dict[str, list[str]]) -> dict[str, str]:
    fleets = sorted({f for u in units for f in options[u]})
    index = {f: i for i, f in enumerate(fleets)}
    need = {u: activation.command_value(state, state.units[u]) for u in units}
    power = {u: state.static.counter(u).values(state.units[u].steps).strength for u in units}
    Score = tuple[int, int, int]
    best: dict[tuple[int, ...], tuple[Score, tuple[tuple[str, str], ...]]] = {
        tuple(FLEET_CAPACITY for _ in fleets): ((0, 0, 0), ())}
    for unit_id in units:
        after: dict[tuple[int, ...], tuple[Score, tuple[tuple[str, str], ...]]] = {}
        for left, (score, chosen) in best.items():
            moves: list[tuple[tuple[int, ...], Score, tuple[tuple[str, str], ...]]] = []
            for fleet in options[unit_id]:
                i = index[fleet]
                if left[i] >= need[unit_id]:
                    new_left = left[:i] + (left[i] - need[unit_id],) + left[i + 1:]
                    moves.append((new_left, (score[0] + need[unit_id], score[1] + 1, score[2] + power[unit_id]),
                                  chosen + ((unit_id, fleet),)))
            moves.append((left, score, chosen))
            for new_left, new_score, new_chosen in moves:
                if new_left not in after or new_score > after[new_left][0]:
                    after[new_left] = (new_score, new_chosen)
        best = after
    top = max(score for score, _ in best.values())
    chosen = next(c for score, c in best.values() if score == top)
    return dict(chosen)


def check_feeding(state: RsrState, feed: dict[str, str]) -> None:
    """RSR 10.21, RSR 10.24, RSR 10.32: each fed unit traces to its fleet; no fleet feeds more than four points."""
    from rsr.errors import RulesError

    options = feeding_options(state)
    load: dict[str, int] = {}
    for unit_id, fleet in sorted(feed.items()):
        if unit_id not in options:
            raise RulesError(f"{unit_id} is not a Japanese combat unit on the map (RSR 10.32)")
        if fleet not in options[unit_id]:
            raise RulesError(f"{unit_id} cannot trace a supply line to merchant fleet {fleet} (RSR 10.24, 10.33)")
        load[fleet] = load.get(fleet, 0) + activation.command_value(state, state.units[unit_id])
        if load[fleet] > FLEET_CAPACITY:
            raise RulesError(f"merchant fleet {fleet} would feed {load[fleet]} command points, more than "
                             f"{FLEET_CAPACITY} (RSR 10.21, 10.42)")


def judge_japanese_supply(state: RsrState, ctx: Context, feed: dict[str, str]) -> None:
    """RSR 10.32, RSR 10.41-10.42: the units the Japanese player feeds are in supply; the rest are not."""
    fleets = japanese_fleets(state)
    state.supply_source = {k: v for k, v in state.supply_source.items() if state.units[k].side != "japan"}
    state.fed_by = {}
    for unit_id, reach in feeding_options(state).items():
        unit = state.units[unit_id]
        fleet = feed.get(unit_id)
        if fleet is not None:
            state.fed_by[unit_id] = fleet
            _set(state, ctx, unit, fleets[fleet], "", fleet=fleet)
            continue
        why = ("its merchant fleets' command points went to other units (RSR 10.42)" if reach
               else "no supply line to a merchant fleet on the land map")
        _set(state, ctx, unit, None, why)


def _set(state: RsrState, ctx: Context, unit: Unit, source: str | None, why: str, fleet: str | None = None) -> None:
    was = unit.in_supply
    unit.in_supply = source is not None
    if source is not None:
        state.supply_source[unit.id] = source
    if unit.in_supply != was or not unit.in_supply:
        origin = f"merchant fleet {fleet} in {source}" if fleet else source
        text = f"{unit.id} in {unit.hex} is in supply from {origin}" if source else \
            f"{unit.id} in {unit.hex} is out of supply: {why}"
        case = "RSR 10.41" if source is None else "RSR 10.31" if unit.side == "russia" else "RSR 10.32"
        extra: dict[str, Any] = {"fleet": fleet} if fleet else {}
        ctx.emit("supply", text, case, unit=unit.id, in_supply=unit.in_supply, source=source, **extra)


def attrition(state: RsrState, ctx: Context, side: str) -> None:
    """RSR 10.4-10.43: each combat unit out of supply loses a step at the end of the Supply Stage."""
    for _, unit in sorted(state.units.items()):
        if unit.side == side and unit.hex and unit.steps > 0 and not unit.in_supply \
                and activation.kind(state, unit) == "combat":
            ctx.emit("attrition", f"{unit.id} loses a step to attrition (out of supply)", "RSR 10.4", unit=unit.id)
            lose_step(state, ctx, unit, "RSR 10.4")


def currently_supplied(state: RsrState, unit: Unit) -> bool:
    """Supply now, for an attacker (RSR 10.36, RSR 11.2), a defender (RSR 10.37) or a command unit caught alone
    (RSR 11.53); a side whose Supply Stage the scenario does not play keeps what the scenario states."""
    if not plays_supply_stage(state, unit.side):
        return unit.in_supply
    if activation.kind(state, unit) != "combat":
        sources = russian_sources(state) if unit.side == "russia" else set(japanese_fleets(state).values())
        return unit.hex is not None and any(h in sources for h in trace_costs(state, unit.side, unit.hex))
    return defender_supplied(state, unit)


def plays_supply_stage(state: RsrState, side: str) -> bool:
    return f"{side}.supply" in state.sequence


def source_now(state: RsrState, unit: Unit) -> str | None:
    """The source a combat unit traces to at this moment of a Land Combat Stage (RSR 11.2 with RSR 10.13, RSR 10.37)."""
    if unit.side == "russia":
        return _trace(state, unit, russian_sources(state))
    hex_id = japanese_fleets(state).get(state.fed_by.get(unit.id) or "")
    if not unit.in_supply or hex_id is None:
        return None
    return _trace(state, unit, {hex_id})


def defender_supplied(state: RsrState, unit: Unit) -> bool:
    """RSR 11.2 with RSR 10.37, RSR 4.21 and RSR 10.25: at the attack the defender traces a supply line again.

    A Russian unit needs a line to a general source now. A Japanese unit needs a line to the merchant fleet
    that fed it in its last Supply Stage, wherever that fleet now lies: a fleet that shifted under RSR 10.25
    after the Supply Stage still feeds the units given to it (its command points were shared out then,
    RSR 10.32), so the line runs to its new hex, not its old one (interpretations.md, RSR 10.25).
    """
    return source_now(state, unit) is not None


def expend_fortress_supply(state: RsrState, ctx: Context) -> None:
    """RSR 10.13: a Land Combat Stage in which units supplied from Port Arthur or Vladivostok were attacked
    costs that fortress one turn of supply."""
    for hex_id in sorted(set(state.attacked_sources)):
        if state.supply_levels.get(hex_id, 0) > 0:
            state.supply_levels[hex_id] -= 1
            ctx.emit("supply-level", f"{hex_id} spends a turn of supply: {state.supply_levels[hex_id]} left",
                     "RSR 10.13", hex=hex_id, level=state.supply_levels[hex_id])
    state.attacked_sources = []


def resupply(state: RsrState, ctx: Context, hex_id: str) -> None:
    """RSR 10.14-10.15: one more turn of supply for Port Arthur or Vladivostok, if rail joins it to 3316/3337."""
    from rsr.errors import RulesError

    if hex_id not in FORTRESS_SOURCES:
        raise RulesError(f"only Port Arthur (0801) or Vladivostok (2937) can be resupplied (RSR 10.14), not {hex_id}")
    if hex_id not in usable_rail(state, "russia"):
        raise RulesError(f"{hex_id} is not joined by unbroken rail to 3316 or 3337 (RSR 10.14)")
    level = state.supply_levels.get(hex_id, 0)
    if level >= FORTRESS_SUPPLY_CAP:
        raise RulesError(f"{hex_id} already holds {FORTRESS_SUPPLY_CAP} turns of supply (RSR 10.15)")
    state.supply_levels[hex_id] = level + 1
    ctx.emit("supply-level", f"{hex_id} is resupplied by rail: {level + 1} turns", "RSR 10.14", hex=hex_id,
             level=level + 1)


def fleet_destinations(state: RsrState, fleet: str) -> list[str]:
    """RSR 10.25 with RSR 7.5: where a merchant fleet on the land map may shift after the Supply Stage.

    Any other coastal hex of the same naval code area (the map's stand-in for the boundaries of the fleet's
    strategic naval hex), not held by the enemy; in winter only a port (RSR 7.5).
    """
    static = state.static
    here = state.merchant_fleets[fleet]
    area = static.code_areas.get(here)
    if area is None:
        return []
    winter = activation.season(state) == "winter"
    russians = occupied_by(state, "russia")
    return sorted(h for h, a in static.code_areas.items()
                  if a == area and h != here and static.is_land(h) and h not in russians
                  and (not winter or (h in static.places and static.places[h].port)))


def move_fleets(state: RsrState, ctx: Context, moves: dict[str, str]) -> None:
    """RSR 10.25: the Japanese may shift merchant fleets on the land map at the end of their Supply Stage."""
    from rsr.errors import RulesError

    for fleet, hex_id in sorted(moves.items()):
        if fleet not in state.merchant_fleets:
            raise RulesError(f"{fleet} is not a merchant fleet on the land map (RSR 10.25)")
        if hex_id not in fleet_destinations(state, fleet):
            raise RulesError(f"{fleet} cannot shift to {hex_id}: only to a coastal hex of its own code area "
                             "(a port in winter) (RSR 10.25, 7.5)")
        ctx.emit("fleet", f"merchant fleet {fleet} shifts {state.merchant_fleets[fleet]} -> {hex_id}", "RSR 10.25",
                 fleet=fleet, frm=state.merchant_fleets[fleet], to=hex_id)
        state.merchant_fleets[fleet] = hex_id


# -- the Supply Stage's steps and decisions (sequence.SUPPLY) ----------------------------------------------


def run_supply(state: RsrState, ctx: Context, side: str) -> Go:
    """RSR 10.3-10.4: every unit traces supply, then attrition; Japan first shares out its merchant fleets'
    points among the units they may feed (RSR 10.32, decision ``fleet-feeding``), where any may."""
    if side == "japan" and any(feeding_options(state).values()):
        state.ask = Ask("fleet-feeding", "japan", f"{state.request_base()}/feeding")
        return Go.ASKED
    judge_supply(state, ctx, side)
    attrition(state, ctx, side)
    return Go.ON


def feeding_request_options(state: RsrState, ask: Ask) -> dict[str, Any]:
    """RSR 10.32: the units each fleet may feed, the fleets, and each unit's command points."""
    options = feeding_options(state)
    return {"units": {u: f for u, f in options.items() if f}, "fleets": japanese_fleets(state),
            "points": {u: activation.command_value(state, state.units[u]) for u in options if options[u]}}


def apply_feeding(state: RsrState, ctx: Context, ask: Ask, answer: Any) -> None:
    feed = {str(k): str(v) for k, v in answer["feed"].items()}
    check_feeding(state, feed)
    judge_japanese_supply(state, ctx, feed)
    attrition(state, ctx, "japan")


FEEDING = Decision(
    "fleet-feeding", "t{turn}/japan/supply/feeding", "RSR 10.32", "Japan",
    prompt=lambda state, ask: "Supply Stage: which units each merchant fleet feeds (four command points a fleet)",
    options=feeding_request_options,
    template=lambda state, ask: {"feed": feeding_by_policy(state)},
    policy=Policy("feeding", ("most-points", "ask"), default="most-points",  # RSR 10.32, RSR 10.42
                  answer=lambda state, ask, request, rule: ({"feed": feeding_by_policy(state)}
                                                            if rule == "most-points" else None)),
    schema={"type": "object", "required": ["feed"], "additionalProperties": False,
            "properties": {"feed": {"type": "object"}}},
    shape="a feeding answer is {feed: {unit: merchant fleet}}", apply=apply_feeding)


def run_fleet_moves(state: RsrState, ctx: Context, side: str) -> Go:
    """RSR 10.25: at the end of the Japanese Supply Stage its merchant fleets may shift (``fleet-moves``)."""
    if side != "japan" or not state.merchant_fleets:
        return Go.ON
    state.ask = Ask("fleet-moves", "japan", f"{state.request_base()}/fleets")
    return Go.ASKED


def apply_fleet_moves(state: RsrState, ctx: Context, ask: Ask, answer: Any) -> None:
    move_fleets(state, ctx, {str(k): str(v) for k, v in answer.get("moves", {}).items()})
    state.fleets_moved = True  # (a record for the state digest, state.digest_fields)


FLEET_MOVES = Decision(
    "fleet-moves", "t{turn}/japan/supply/fleets", "RSR 10.25", "Japan",
    prompt=lambda state, ask: "end of the Supply Stage: shift merchant fleets on the land map",
    options=lambda state, ask: {"fleets": {f: fleet_destinations(state, f) for f in sorted(state.merchant_fleets)}},
    template=lambda state, ask: {"moves": {}},
    policy=Policy("fleets", ("stay", "ask"), default="stay",
                  answer=lambda state, ask, request, rule: {"moves": {}} if rule == "stay" else None),
    schema={"type": "object", "properties": {"moves": {"type": "object"}}},
    shape="a fleet answer is {moves: {fleet: hex}}", apply=apply_fleet_moves)
