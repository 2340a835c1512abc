"""Stacking (RSR 12.0-12.2): checked at the end of the Land Movement Stage."""

from __future__ import annotations

from typing import Any

from rsr.decisions import Decision, Policy
from rsr.engine import Context
from rsr.errors import RulesError
from rsr.rulesets.red_sun_rising import activation
from rsr.rulesets.red_sun_rising.sequence import Go
from rsr.rulesets.red_sun_rising.state import Ask, RsrState, Unit


def stacking_points(state: RsrState, unit: Unit) -> int:
    """RSR 12.11-12.12: a combat unit counts its command value; command units count nothing."""
    if activation.kind(state, unit) != "combat":
        return 0
    return activation.command_value(state, unit)


def stacking_limit(state: RsrState, hex_id: str) -> int:
    """RSR 12.0 with RSR 9.46: the limit of the hex's terrain.

    The chart also gives the rail line a limit of 4. Applied to every rail hex it would overstack the
    RSR 19.2 set-up of Port Arthur, so by default it is not applied; the option ``rail-stacking-4`` applies
    it (interpretations.md, RSR 9.46).
    """
    static = state.static
    limit = static.terrain_effects[static.terrain[hex_id]].stacking or 0
    rail = static.feature_effects.get("rail")
    if state.options.get("rail-stacking-4") and hex_id in static.rail_hexes and rail and rail.stacking is not None:
        limit = min(limit, rail.stacking)
    return limit


def overstacked(state: RsrState, side: str) -> list[str]:
    hexes = sorted({u.hex for u in state.units.values() if u.side == side and u.hex and u.steps > 0})
    return [h for h in hexes if sum(stacking_points(state, u) for u in state.units_in(h, side))
            > stacking_limit(state, h)]


def excess_by_policy(state: RsrState, hex_id: str, side: str) -> list[str]:
    """The default choice (policy ``overstack: weakest-first``): remove the weakest units until legal."""
    units = [u for u in state.units_in(hex_id, side) if stacking_points(state, u) > 0]
    units.sort(key=lambda u: (state.static.counter(u.id).values(u.steps).strength, u.id))
    total = sum(stacking_points(state, u) for u in units)
    chosen = []
    for unit in units:
        if total <= stacking_limit(state, hex_id):
            break
        chosen.append(unit.id)
        total -= stacking_points(state, unit)
    for unit in [u for u in units if u.id in chosen]:  # RSR 12.2: keep any unit the limit no longer needs gone
        if total + stacking_points(state, unit) <= stacking_limit(state, hex_id):
            chosen.remove(unit.id)
            total += stacking_points(state, unit)
    return chosen


def check_choice(state: RsrState, hex_id: str, side: str, chosen: list[str]) -> None:
    """RSR 12.2: the owner eliminates units of the hex until it is within its limit."""
    units = {u.id: u for u in state.units_in(hex_id, side) if stacking_points(state, u) > 0}
    if len(set(chosen)) != len(chosen) or any(c not in units for c in chosen):
        raise RulesError(f"name combat units of {side} in {hex_id}, each once; command units do not count "
                         "toward stacking (RSR 12.2, 12.12)")
    limit = stacking_limit(state, hex_id)
    left = sum(stacking_points(state, u) for i, u in units.items() if i not in chosen)
    if left > limit:
        raise RulesError(f"{hex_id} would still hold {left} stacking points, over its limit {limit} (RSR 12.0)")
    spare = [c for c in chosen if left + stacking_points(state, units[c]) <= limit]
    if spare:  # RSR 12.2: units go only until the hex is within its limit, not beyond
        raise RulesError(f"{spare[0]} need not be eliminated: {hex_id} is within its limit of {limit} without "
                         "removing it (RSR 12.2)")


def eliminate_excess(state: RsrState, ctx: Context, hex_id: str, side: str, chosen: list[str]) -> None:
    for unit_id in chosen:
        unit = state.units[unit_id]
        unit.steps = 0
        unit.hex = None
        ctx.emit("eliminated", f"{unit_id} eliminated: {hex_id} was over its stacking limit of "
                 f"{stacking_limit(state, hex_id)}", "RSR 12.2", unit=unit_id, hex=hex_id)


# -- the overstack decision, at the end of the Land Movement Stage (sequence.MOVEMENT) ----------------------


def run_overstack(state: RsrState, ctx: Context, side: str) -> Go:
    """RSR 12.2: after movement, the owner chooses the units to eliminate in each overstacked hex, hex by hex
    in hex order (decision ``overstack``; the hexes still to settle ride with the question)."""
    hexes = overstacked(state, side)
    if not hexes:
        return Go.ON
    ask_overstack(state, side, hexes)
    return Go.ASKED


def ask_overstack(state: RsrState, side: str, hexes: list[str]) -> None:
    state.ask = Ask("overstack", side, f"{state.request_base()}/overstack/{hexes[0]}", {"hexes": list(hexes)})


def apply_overstack(state: RsrState, ctx: Context, ask: Ask, answer: Any) -> None:
    hexes = ask.data["hexes"]
    check_choice(state, hexes[0], ask.side, answer["eliminate"])
    eliminate_excess(state, ctx, hexes[0], ask.side, answer["eliminate"])
    if hexes[1:]:
        ask_overstack(state, ask.side, hexes[1:])


OVERSTACK = Decision(
    "overstack", "t{turn}/{side}/movement/overstack/{hex}", "RSR 12.2", "the phasing player",
    prompt=lambda state, ask: f"{ask.data['hexes'][0]} is over its stacking limit of "
                              f"{stacking_limit(state, ask.data['hexes'][0])}: choose the units to eliminate",
    options=lambda state, ask: {"hex": ask.data["hexes"][0],
                                "units": [u.id for u in state.units_in(ask.data["hexes"][0], ask.side)]},
    template=lambda state, ask: {"eliminate": excess_by_policy(state, ask.data["hexes"][0], ask.side)},
    policy=Policy("overstack", ("weakest-first", "ask"), default="weakest-first",
                  answer=lambda state, ask, request, rule: ({"eliminate": excess_by_policy(
                      state, ask.data["hexes"][0], ask.side)} if rule == "weakest-first" else None)),
    schema={"type": "object", "required": ["eliminate"], "properties": {"eliminate": {"type": "array"}}},
    shape="an overstack answer is {eliminate: [unit ids]}", apply=apply_overstack)
