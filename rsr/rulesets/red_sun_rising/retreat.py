"""Retreat before combat (RSR 11.1x): the defender's units next to the enemy may try to slip away before each
assault round; its step (sequence.ASSAULT_ROUND) and its decision (``retreats``) are at the end."""

from __future__ import annotations

from typing import Any

from rsr.decisions import Decision, Policy
from rsr.engine import Context
from rsr.errors import RulesError
from rsr.rulesets.red_sun_rising.combat import (
    combat_units_in,
    command_value,
    enemy_of,
    is_command,
    is_garrison,
    is_siege_artillery,
    off_rail_hex,
    round_base,
    take_control,
    vacate,
)
from rsr.rulesets.red_sun_rising.losses import lose_step
from rsr.rulesets.red_sun_rising.sequence import STAGES, Go
from rsr.rulesets.red_sun_rising.state import Ask, RsrState


def retreat_candidates(state: RsrState, side: str) -> dict[str, list[list[str]]]:
    """RSR 11.11, RSR 11.15: each unit adjacent to an enemy unit, with every legal 1- and 2-hex retreat path.

    A path may pass through enemy zones of control but not through enemy units; it stays on land and
    does not cross impassable hexsides (our reading: retreating units move overland).
    """
    static = state.static
    enemies = {u.hex for u in state.units.values() if u.side != side and u.hex and u.steps > 0}

    def open_hex(frm: str, to: str) -> bool:
        return (static.is_land(to) and to not in enemies
                and "impassable" not in static.side_features(frm, to))

    options: dict[str, list[list[str]]] = {}
    for unit_id, unit in sorted(state.units.items()):
        if unit.side != side or not unit.hex or unit.steps <= 0 or is_garrison(state, unit):
            continue  # RSR 18.6: a garrison never leaves its hex, not even by retreat before combat
        if not any(h in enemies for h in static.grid.neighbours(unit.hex)):
            continue
        paths: list[list[str]] = []
        for first in static.grid.neighbours(unit.hex):
            if not open_hex(unit.hex, first):
                continue
            paths.append([first])
            paths += [[first, second] for second in static.grid.neighbours(first)
                      if second != unit.hex and open_hex(first, second)]
        if is_siege_artillery(state, unit):  # RSR 18.9: only paths that stay on the rail are offered
            paths = [p for p in paths if off_rail_hex(state, p) is None]
        if paths:
            options[unit_id] = paths
    return options


def retreat_by_rule(state: RsrState, side: str, rule: Any) -> list[dict[str, Any]]:
    """Policy ``retreat``: ``{adjacent-to-cp: N}`` retreats, one hex away from the enemy, every unit of a hex
    next to an enemy stack of N or more command points (a condition the player could know when signing)."""
    if not isinstance(rule, dict):
        return []
    threshold = int(rule["adjacent-to-cp"])
    grid = state.static.grid
    orders = []
    for unit_id, paths in retreat_candidates(state, side).items():
        unit = state.units[unit_id]
        assert unit.hex is not None
        stacks = [sum(command_value(state, u) for u in combat_units_in(state, h, enemy_of(side)))
                  for h in grid.neighbours(unit.hex)]
        if max(stacks, default=0) < threshold:
            continue
        enemies = sorted({u.hex for u in state.units.values() if u.side != side and u.hex and u.steps > 0})
        singles = [p for p in paths if len(p) == 1]
        if not singles:
            continue
        best = max(singles, key=lambda p: (min(grid.distance(p[0], e) for e in enemies), [-ord(c) for c in p[0]]))
        orders.append({"unit": unit_id, "path": best})
    return orders


def retreat_before_combat(state: RsrState, ctx: Context, side: str, orders: list[Any]) -> None:
    """RSR 11.11-11.15, RSR 18.9: each unit rolls against its command value; two hexes risk a step."""
    candidates = retreat_candidates(state, side)
    seen: set[str] = set()
    for number, item in enumerate(orders, start=1):
        if not isinstance(item, dict) or set(item) != {"unit", "path"} or not isinstance(item["path"], list):
            raise RulesError(f"retreat {number}: give unit and path (one or two hexes)")
        unit_id, path = str(item["unit"]), [str(h) for h in item["path"]]
        if unit_id in seen:
            raise RulesError(f"retreat {number}: {unit_id} may attempt once per assault round (RSR 11.12)")
        seen.add(unit_id)
        unit = state.units.get(unit_id)
        if unit is not None and unit.side == side and is_garrison(state, unit):
            raise RulesError(f"retreat {number}: {unit_id} is a garrison and never leaves its hex (RSR 18.6)")
        off_rail = off_rail_hex(state, path) if unit is not None and is_siege_artillery(state, unit) else None
        if off_rail is not None:  # RSR 18.9: a voluntary retreat is a move, and it moves only on rail hexes
            raise RulesError(f"retreat {number}: {unit_id} is siege artillery and moves only on rail hexes; {off_rail} "
                             "is not one (RSR 18.9)")
        if unit_id not in candidates:
            raise RulesError(f"retreat {number}: {unit_id} is not a {side} unit next to an enemy unit (RSR 11.11)")
        if path not in candidates[unit_id]:
            raise RulesError(f"retreat {number}: {unit_id} cannot retreat by {path}: one or two adjacent land hexes, "
                             "never through an enemy unit (RSR 11.14, 11.15)")
    for item in orders:
        unit = state.units[str(item["unit"])]
        path = [str(h) for h in item["path"]]
        if unit.steps <= 0 or unit.hex is None:
            continue
        value = command_value(state, unit)
        die = ctx.roll(6, f"retreat before combat of {unit.id}, command value {value}, RSR 11.11")
        if die > value:
            ctx.emit("retreat", f"{unit.id} fails to retreat from {unit.hex} (die {die} > command value {value})",
                     "RSR 11.11", unit=unit.id, frm=unit.hex, success=False, die=die)
            continue
        start = unit.hex
        taken = path  # RSR 18.9: siege artillery paths off the rail were refused above
        unit.hex = taken[-1]
        state.moved.append(unit.id)
        ctx.emit("retreat", f"{unit.id} retreats {' -> '.join([start, *taken])} before combat (die {die} <= {value})",
                 "RSR 11.11", unit=unit.id, frm=start, path=taken, success=True, die=die)
        for hex_id in taken:  # RSR 19.4: every city the retreating combat unit passes through, not only the last
            if not is_command(state, unit):
                take_control(state, ctx, hex_id, unit.side)
        if len(path) == 2:
            risk = ctx.roll(6, f"two-hex retreat of {unit.id}, RSR 11.14")
            if risk >= 4:
                ctx.emit("retreat-loss", f"{unit.id} loses a step retreating two hexes (die {risk})", "RSR 11.14",
                         unit=unit.id, die=risk)
                lose_step(state, ctx, unit, "RSR 11.14")
        if not state.units_in(start, side):
            vacate(state, ctx, start)
            state.retreat_results.append(start)


# -- the step and its decision -------------------------------------------------------------------------------


def run_retreats(state: RsrState, ctx: Context, side: str) -> Go:
    """RSR 11.11: before each assault round the defender may retreat units next to the enemy (``retreats``)."""
    state.ask = Ask("retreats", enemy_of(side), f"{round_base(state)}/retreats")
    return Go.ASKED


def check_retreat_policy(rule: dict[str, Any]) -> None:
    value = rule.get("adjacent-to-cp")
    if set(rule) != {"adjacent-to-cp"} or type(value) is not int or value < 1:  # (true is no number)
        raise RulesError("policy retreat is never, ask, or {adjacent-to-cp: N} with N >= 1")


RETREATS = Decision(
    "retreats", "t{turn}/{side}/combat/r{round}/retreats", "RSR 11.11", "the defender (the player not phasing)",
    prompt=lambda state, ask: f"{STAGES[state.stage_key()].name}, before assault round {state.assault_round}: "
                              "units to retreat before combat",
    options=lambda state, ask: {"units": retreat_candidates(state, ask.side)},
    template=lambda state, ask: {"retreats": []},
    policy=Policy("retreat", ("never", "ask"), default="never", form=dict, check=check_retreat_policy,  # RSR 11.1
                  answer=lambda state, ask, request, rule: None if rule == "ask" else {
                      "retreats": [] if rule == "never" else retreat_by_rule(state, request.side, rule)}),
    schema={"type": "object", "required": ["retreats"], "properties": {"retreats": {"type": "array"}}},
    shape="a retreat answer is {retreats: [{unit, path}]}",
    apply=lambda state, ctx, ask, answer: retreat_before_combat(state, ctx, ask.side, answer["retreats"]))
