"""Land movement (RSR 9.2-9.46) with rail (18.4x), garrisons (RSR 18.6) and siege artillery (RSR 18.9).

A Land Movement Stage order is one input: the activation order of command units and combat units, each
with the path it will take if it activates (docs/red-sun-rising/orders.md). The whole order is checked
against the position before any die is rolled, so an illegal move is refused before signing; while the
order executes, a path that earlier results made illegal is cut at its first illegal hex.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rsr.decisions import Decision
from rsr.engine import Context
from rsr.errors import RulesError
from rsr.rulesets.red_sun_rising import activation, reinforcements
from rsr.rulesets.red_sun_rising.sequence import STAGES, Go
from rsr.rulesets.red_sun_rising.state import Ask, RsrState, Unit
from rsr.rulesets.red_sun_rising.terrain import enemy, occupied_by, step_cost, usable_rail, zone_of_control


@dataclass(frozen=True)
class Step:
    unit: str
    path: tuple[str, ...]


@dataclass
class PathCheck:
    """How far a path is legal: ``legal`` hexes of it, their cost, and why the next one is not."""

    legal: int
    cost: Fraction
    problem: str | None


def fraction_text(value: Fraction) -> str:
    whole, rest = divmod(value, 1)
    if not rest:
        return str(int(whole))
    return f"{int(whole)} {rest}" if whole else str(rest)


def movement_allowance(state: RsrState, unit: Unit) -> Fraction:
    return Fraction(state.static.counter(unit.id).values(unit.steps).movement)


def rail_for(state: RsrState, unit: Unit) -> set[str] | None:
    """Which rail a unit may ride (RSR 18.4): Russians on usable rail; Japanese only siege artillery."""
    if unit.side == "russia":
        return usable_rail(state, "russia")
    if state.static.counter(unit.id).type == "siege-artillery":
        return usable_rail(state, "japan")  # RSR 18.9
    return None  # RSR 18.42: no other Japanese unit moves by rail


def check_path(state: RsrState, unit: Unit, path: tuple[str, ...]) -> PathCheck:
    """Walk ``path`` from the unit's hex under RSR 9.2-9.46, 18.4x, RSR 18.6, RSR 18.9."""
    static = state.static
    counter = static.counter(unit.id)
    if counter.type == "garrison" and path:
        return PathCheck(0, Fraction(0), "garrisons never move (RSR 18.6)")
    siege = counter.type == "siege-artillery"
    rail = rail_for(state, unit)
    enemy_units = occupied_by(state, enemy(unit.side))
    enemy_zoc = zone_of_control(state, enemy(unit.side))
    allowance = movement_allowance(state, unit)
    here = unit.hex or ""
    spent = Fraction(0)
    for index, there in enumerate(path):
        if not static.grid.on_map(there):
            return PathCheck(index, spent, f"{there} is not on the map")
        if not static.grid.adjacent(here, there):
            return PathCheck(index, spent, f"{there} is not adjacent to {here} (RSR 9.2)")
        if index > 0 and here in enemy_zoc:
            return PathCheck(index, spent, f"it must stop in {here}, an enemy zone of control (RSR 9.42, 9.44)")
        if there in enemy_units:
            return PathCheck(index, spent, f"{there} holds an enemy unit (RSR 9.45)")
        if here in enemy_zoc and there in enemy_zoc:
            return PathCheck(index, spent, f"it may not move from one enemy zone of control to another, "
                                           f"{here} to {there} (RSR 9.43)")
        cost = step_cost(state, here, there, rail)
        if cost is None:
            why = ("an all-sea hex (RSR 9.41)" if not static.is_land(there)
                   else "across an impassable hexside (RSR 9.46)")
            return PathCheck(index, spent, f"{there} is {why}")
        if siege:
            if cost != 0:
                return PathCheck(index, spent, f"siege artillery moves only along rail the Japanese may use; "
                                               f"{here} to {there} is not (RSR 18.9, 18.42)")
        elif spent + cost > allowance:
            return PathCheck(index, spent, f"entering {there} would cost {fraction_text(spent + cost)} MP, more than "
                                           f"its movement allowance {fraction_text(allowance)} (RSR 9.2)")
        spent += cost
        here = there
    return PathCheck(len(path), spent, None)


def parse_order(state: RsrState, side: str, answer: Any) -> list[Step]:
    """Check every step and path of an order (its shape: LAND_MOVEMENT's schema) before any die (RSR 9.1,
    RSR 9.12-9.16, RSR 14.0)."""
    steps: list[Step] = []
    seen: dict[str, int] = {}
    surprise = side == "japan" and activation.february_1904(state)  # RSR 18.81: no activation rolls
    listed = [str(raw.get("unit")) for raw in answer["steps"] if isinstance(raw, dict)]
    shq = activation.supreme_hq(state, side)
    shq_at = listed.index(shq.id) if shq is not None and shq.id in listed else None
    for number, raw in enumerate(answer["steps"], start=1):
        if not isinstance(raw, dict) or "unit" not in raw or set(raw) - {"unit", "path"}:
            raise RulesError(f"step {number}: give unit and optionally path")
        path = raw.get("path") or []
        if not isinstance(path, list) or not all(isinstance(h, str) for h in path):
            raise RulesError(f"step {number}: path is a list of hex numbers, each four digits in quotes: ['0414']")
        unit = state.units.get(str(raw["unit"]))
        if unit is None or unit.steps <= 0 or unit.hex is None:
            raise RulesError(f"step {number}: {raw['unit']} is not a unit on the map")
        if unit.side != side:
            raise RulesError(f"step {number}: {unit.id} is not a {side} unit")
        command = activation.kind(state, unit) != "combat"
        if shq_at is not None and not surprise and activation.kind(state, unit) == "army" \
                and number - 1 < shq_at:
            raise RulesError(f"step {number}: {unit.id} comes before the supreme HQ {listed[shq_at]}, which rolls "
                             "first when it tries to activate (RSR 4.23, 9.14)")
        if unit.id in seen:  # RSR 4.23, RSR 9.12: a unit moves as soon as it activates, so it is listed once
            raise RulesError(f"step {number}: {unit.id} is listed twice; an activated unit, headquarters included, "
                             "moves at once, before the next unit tries to activate (RSR 4.23, 9.12)")
        if not command and unit.assigned_to is not None:
            superior = unit.assigned_to
            if superior not in seen and not surprise:
                raise RulesError(f"step {number}: {unit.id} comes before its command unit {superior} attempts to "
                                 "activate (RSR 9.12, 9.13, 9.16)")
        elif not command:
            raise RulesError(f"step {number}: {unit.id} is not assigned to a command unit and may not move (RSR 14.0)")
        seen[unit.id] = 1
        checked = check_path(state, unit, tuple(path))
        if checked.problem:
            raise RulesError(f"step {number}: {unit.id} cannot take its path: {checked.problem}")
        steps.append(Step(unit.id, tuple(path)))
    return steps


def move(state: RsrState, ctx: Context, unit: Unit, path: tuple[str, ...]) -> None:
    """Move along ``path`` as far as it is legal now; cities passed through change control (RSR 19.4)."""
    checked = check_path(state, unit, path)
    taken = path[: checked.legal]
    start = unit.hex
    for hex_id in taken:
        place = state.static.places.get(hex_id)
        if place and place.city and activation.kind(state, unit) == "combat":
            if state.control.get(hex_id) != unit.side:
                state.control[hex_id] = unit.side
                ctx.emit("control", f"{unit.side} now controls {place.name} ({hex_id})", "RSR 19.4",
                         hex=hex_id, side=unit.side)
    if taken:
        unit.hex = taken[-1]
        state.moved.append(unit.id)
        ctx.emit("moved", f"{unit.id} moves {' -> '.join((start or '?',) + taken)} "
                 f"({fraction_text(checked.cost)} of {fraction_text(movement_allowance(state, unit))} MP)",
                 "RSR 9.2", unit=unit.id, frm=start, to=unit.hex, path=list(taken), cost=str(checked.cost))
    if checked.problem:
        ctx.emit("path-cut", f"{unit.id} stops in {unit.hex}: {checked.problem}", "RSR 9.4",
                 unit=unit.id, at=unit.hex, reason=checked.problem)


def execute(state: RsrState, ctx: Context, steps: list[Step]) -> None:
    """RSR 4.23, RSR 9.1, RSR 9.12: activate down the chain, each unit (headquarters included) finishing its move as
    soon as it activates, before the next unit rolls. In February 1904 every Japanese unit is already
    activated (RSR 18.81) and simply moves."""
    for step in steps:
        unit = state.units[step.unit]
        if unit.steps <= 0 or unit.hex is None:
            continue
        if unit.id in state.attempted:
            if unit.activated and step.path and unit.id not in state.moved:
                move(state, ctx, unit, step.path)
            continue
        if activation.attempt_activation(state, ctx, unit) and step.path:
            move(state, ctx, unit, step.path)


def destinations(state: RsrState, unit: Unit) -> dict[str, tuple[str, ...]]:
    """Every hex ``unit`` could end its move in now, with the cheapest legal path to it (RSR 9.2-9.46).

    Used for the legal options of an order template and by the bots; every path it returns passes
    :func:`check_path`. Ties are broken by hex number, so the result is deterministic.
    """
    import heapq

    start = unit.hex or ""
    counter = state.static.counter(unit.id)
    if counter.type == "garrison":
        return {start: ()}
    siege = counter.type == "siege-artillery"
    rail = rail_for(state, unit)
    enemy_units = occupied_by(state, enemy(unit.side))
    enemy_zoc = zone_of_control(state, enemy(unit.side))
    allowance = movement_allowance(state, unit)
    best: dict[str, tuple[Fraction, tuple[str, ...]]] = {start: (Fraction(0), ())}
    heap: list[tuple[Fraction, tuple[str, ...], str]] = [(Fraction(0), (), start)]
    while heap:
        spent, path, here = heapq.heappop(heap)
        if best[here][1] != path:
            continue
        if path and here in enemy_zoc:
            continue  # RSR 9.42: movement ends on entering an enemy zone of control
        for there in state.static.grid.neighbours(here):
            if there in enemy_units or (here in enemy_zoc and there in enemy_zoc):
                continue
            cost = step_cost(state, here, there, rail)
            if cost is None or (siege and cost != 0) or (not siege and spent + cost > allowance):
                continue
            total, new_path = spent + cost, path + (there,)
            if there not in best or (total, new_path) < best[there]:
                best[there] = (total, new_path)
                heapq.heappush(heap, (total, new_path, there))
    return {hex_id: path for hex_id, (_, path) in sorted(best.items())}


# -- the Land Movement Stage's order (sequence.MOVEMENT; the overstack that may follow: stacking.py) ------------


def run_orders(state: RsrState, ctx: Context, side: str) -> Go:
    """RSR 4.23: the phasing player's activation order and paths (decision ``land-movement``)."""
    state.ask = Ask("land-movement", side, f"{state.request_base()}/orders")
    return Go.ASKED


def movement_units(state: RsrState, side: str) -> dict[str, dict[str, Any]]:
    """Every unit of ``side`` on the map: its hex, kind, movement allowance and command unit."""
    found = {}
    for _, unit in sorted(state.units.items()):
        if unit.side != side or not unit.hex or unit.steps <= 0:
            continue
        found[unit.id] = {"hex": unit.hex, "kind": activation.kind(state, unit),
                          "movement": str(movement_allowance(state, unit)), "assigned_to": unit.assigned_to}
    return found


def movement_template(state: RsrState, ask: Ask) -> dict[str, Any]:
    """RSR 4.23, RSR 9.12-9.14: the chain of command in order (supreme HQ, armies, assigned units), no paths."""
    units = movement_units(state, ask.side)
    chain = [u for u, info in units.items() if info["kind"] == "shq"]
    chain += [u for u, info in units.items() if info["kind"] == "army"]
    chain += [u for u, info in units.items() if info["kind"] == "combat" and info["assigned_to"]]
    return {"steps": [{"unit": u, "path": []} for u in chain]}


def apply_orders(state: RsrState, ctx: Context, ask: Ask, answer: Any) -> None:
    """RSR 4.23, RSR 9.1: check every path, then activate and move unit by unit; foreign aid may be earned
    (RSR 18.3)."""
    execute(state, ctx, parse_order(state, ask.side, answer))
    reinforcements.check_foreign_aid(state, ctx)


LAND_MOVEMENT = Decision(
    "land-movement", "t{turn}/{side}/movement/orders", "RSR 4.23", "the phasing player",
    prompt=lambda state, ask: f"{STAGES[state.stage_key()].name} ({activation.month(state)}, "
                              f"{activation.season(state)}): activation order and paths",
    options=lambda state, ask: {"units": movement_units(state, ask.side)},
    template=movement_template,
    schema={"type": "object", "required": ["steps"], "additionalProperties": False,
            "properties": {"steps": {"type": "array"}}},
    shape="a movement order is {steps: [{unit, path}]} in activation order", apply=apply_orders)


def run_end(state: RsrState, ctx: Context, side: str) -> Go:
    """RSR 4.23: the stage ends once every overstacked hex is within its limit."""
    ctx.emit("stage", f"{STAGES[state.stage_key()].name} ends", "RSR 4.23")
    return Go.ON
