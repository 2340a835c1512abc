"""Bridges: engineers blowing bridges, the Japanese bridge counter (RS/RS 11.0-11.3).

A move may end with a bridge action by an engineer of the moving stack: ``bridge: {destroy: "a-b"}`` (RS/RS 11.1,
either side, +5 MP) or ``bridge: {place: "a-b"}`` (RS/RS 11.2, the Japanese engineer carrying the bridge counter,
+5 MP, +10 if motorized). The hexside must be one of the sides of the hex where the engineer stands after
its move, and the MP must be left after the move. A placed counter is a bridge over the Halha that Armor
may not cross (RS/RS 11.3). A Soviet unit that enters either hex of its hexside destroys it for good, unless its
move says ``bridge: {leave: "a-b"}`` (RS/RS 11.2: the Soviet player may choose to leave it intact). Having left it,
the Soviet player may not destroy it for the rest of that Movement segment: a later Soviet unit reaching it
then leaves it standing. A Soviet unit already next to the counter destroys it by a move with an empty path
and ``bridge: {destroy: "a-b"}`` (no MP), but only in a later Movement segment in which that unit may move
than the one in which the counter was placed or left intact (RS/RS 11.2; interpretations.md).

``bridge: {pick_up: "a-b"}`` with an empty path: an engineer without Fired or disruption markers that stays the
whole Movement segment in a hex of the placed counter's hexside picks it up (RS/RS 11.2 removal) when the segment
ends: until then the counter is still a bridge, which units may cross and a Soviet unit may destroy
(``declare_pick_up``, ``pick_up_at_end``). An engineer in reserve does the same in the enemy Movement segment,
answering a reserve-move request (reserves.py).

``bridge: {exchange: <engineer id>}`` with an empty path: the engineer carrying the counter hands it to another
Japanese engineer in its hex (RS/RS 11.2 exchange). Neither may use any MP in this Movement segment: the giver's
move has no path and the receiver is in no move of the order; an engineer in reserve must also not have moved
during Reserve Movement in the last enemy Movement segment (interpretations.md RS/RS 11.2).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rsr.engine import Context
from rsr.errors import RulesError
from rsr.hexgrid import hexside
from rsr.rulesets.red_star.state import ELIMINATED, RsState, Unit
from rsr.rulesets.red_star.terrain import allowance, bridge_exists, halha_between, in_supply, is_motorized


def movement_allowance(state: RsState, unit: Unit) -> Fraction:
    return allowance(state, unit, False, in_supply(state, unit))

COUNTER = "jp-bridge"
DESTROY_COST = 5         # RS/RS 11.1
PLACE_COST = 5           # RS/RS 11.2
PLACE_COST_MOTORIZED = 10


def check_shape(raw: Any, where: str) -> dict[str, str] | None:
    if raw is None:
        return None
    if isinstance(raw, dict) and set(raw) == {"exchange"}:  # RS/RS 11.2: a unit id, not a hexside
        if not isinstance(raw["exchange"], str):
            raise RulesError(f"{where}: bridge exchange names the engineer that receives the bridge counter "
                             "(RS/RS 11.2)")
        return {"exchange": raw["exchange"]}
    if not isinstance(raw, dict) or len(raw) != 1 or next(iter(raw)) not in ("destroy", "place", "leave", "pick_up") \
            or not isinstance(next(iter(raw.values())), str) or "-" not in next(iter(raw.values())):
        raise RulesError(f"{where}: bridge is {{destroy: hexside}}, {{place: hexside}}, {{leave: hexside}} or "
                         "{pick_up: hexside}, a hexside written \"2435-2535\", or {exchange: engineer id} "
                         "(RS/RS 11.1, 11.2)")
    action, side = next(iter(raw.items()))
    low, high = side.split("-", 1)  # a hexside
    return {action: hexside(low, high)}


def engineer_of(state: RsState, units: list[str]) -> Unit | None:
    for unit_id in units:
        if state.counter(unit_id).type == "engineer" and state.units[unit_id].on_map:
            return state.units[unit_id]
    return None


def segment_key(state: RsState) -> str:
    """The Movement segment now under way: game turn and place in the sequence of play."""
    return f"{state.turn}/{state.segment}"


def soviet_destroy_problem(state: RsState, units: list[str], standing: bool) -> str | None:
    """RS/RS 11.2: why Soviet units of a move may not destroy the Japanese bridge counter now, or None.

    ``standing``: the move has no path, so the unit was already next to the counter."""
    side_id = state.pontoon or ""
    low, high = side_id.split("-")
    if not any(state.units[u].on_map and state.units[u].hex in (low, high) for u in units):
        return f"no unit of the move is in {low} or {high}, next to the Japanese bridge on {side_id} (RS/RS 11.2)"
    if state.pontoon_left == segment_key(state):  # RS/RS 11.2: left intact, wait for a later segment
        return (f"the Soviet player left the Japanese bridge on {side_id} intact earlier in this Movement segment "
                "and may not destroy it before a later one (RS/RS 11.2)")
    if standing and state.pontoon_placed == segment_key(state):  # RS/RS 11.2: already adjacent, wait
        return (f"the Japanese bridge on {side_id} was placed this segment; a Soviet unit already next to it must "
                "wait for the next segment in which it may move (RS/RS 11.2)")
    return None


def problem(state: RsState, side: str, units: list[str], action: dict[str, str], left: dict[str, Fraction],
            standing: bool = False) -> str | None:
    """Why the bridge action cannot be done where the move ended, or None (``standing``: a move without path)."""
    kind, side_id = next(iter(action.items()))
    if kind == "leave":
        return None if side == "soviet" else "only the Soviet player leaves the Japanese bridge intact (RS/RS 11.2)"
    if kind == "destroy" and side == "soviet" and side_id == state.pontoon:  # RS/RS 11.2: any Soviet unit, no MP
        return soviet_destroy_problem(state, units, standing)
    engineer = engineer_of(state, units)
    if engineer is None:
        return "only an engineer may place or destroy a bridge (RS/RS 11.1, 11.2)"
    if kind == "exchange":
        return exchange_problem(state, side, engineer, side_id, left)
    low, high = side_id.split("-")
    if engineer.hex not in (low, high) or not state.static.grid.adjacent(low, high):
        return f"{engineer.id} in {engineer.hex} is not next to the hexside {side_id} (RS/RS 11.1, 11.2)"
    if kind == "pick_up":
        if state.pontoon != side_id:
            return f"the Japanese bridge counter is not on {side_id} (RS/RS 11.2)"
        if engineer.fired or engineer.disruption:
            return f"{engineer.id} has a Fired or disruption marker and may not pick up the bridge (RS/RS 11.2)"
        if left.get(engineer.id, Fraction(0)) < movement_allowance(state, engineer):
            return (f"{engineer.id} must spend the whole Movement segment next to the bridge: give it no path "
                    "(RS/RS 11.2)")
        return None
    if kind == "destroy":
        if not bridge_exists(state, side_id):
            return f"there is no bridge on {side_id} (RS/RS 11.1)"
        cost = DESTROY_COST
    else:
        if side != "japan" or state.carriers.get(COUNTER) != engineer.id:
            return f"{engineer.id} does not carry the Japanese bridge counter (RS/RS 11.2)"
        if not halha_between(state, low, high) or bridge_exists(state, side_id):
            return f"{side_id} is not an unbridged Halha hexside (RS/RS 11.2)"
        cost = PLACE_COST_MOTORIZED if is_motorized(state, engineer) else PLACE_COST
    if left.get(engineer.id, Fraction(0)) < cost:
        return (f"{engineer.id} needs {cost} more MP to {kind} the bridge on {side_id} and has "
                f"{left.get(engineer.id, Fraction(0))} left ({case_of(state, action)})")
    return None


def exchange_problem(state: RsState, side: str, giver: Unit, receiver_id: str, left: dict[str, Fraction]) -> \
        str | None:
    """RS/RS 11.2 exchange: why ``giver`` cannot hand the bridge counter to ``receiver_id`` now, or None."""
    if side != "japan" or state.carriers.get(COUNTER) != giver.id:
        return f"{giver.id} does not carry the Japanese bridge counter (RS/RS 11.2)"
    receiver = state.units.get(receiver_id)
    if receiver is None or receiver.side != side or not receiver.on_map or receiver_id == giver.id \
            or state.counter(receiver_id).type != "engineer":
        return f"{receiver_id} is not another Japanese engineer on the map (RS/RS 11.2)"
    if receiver.hex != giver.hex:
        return f"{receiver_id} in {receiver.hex} is not in {giver.id}'s hex {giver.hex} (RS/RS 11.2)"
    if left.get(giver.id, Fraction(0)) < movement_allowance(state, giver):
        return f"{giver.id} may use no MP in a segment it hands over the bridge: give it no path (RS/RS 11.2)"
    for unit in (giver, receiver):
        if unit.reserve and unit.id in state.reserve_movers:
            return (f"{unit.id} is in reserve and moved during Reserve Movement in the last enemy Movement "
                    "segment (RS/RS 11.2)")
    return None


def exchange_receivers(moves: list[Any]) -> dict[int, str]:
    """Move number -> the engineer a move hands the bridge counter to (RS/RS 11.2 exchange)."""
    return {m.number: m.bridge["exchange"] for m in moves if m.bridge and "exchange" in m.bridge}


def case_of(state: RsState, action: dict[str, str]) -> str:
    """The case a bridge action falls under: RS/RS 11.2 for anything done with or to the Japanese bridge counter
    (placing, picking up, handing over, leaving it, a Soviet unit destroying it and its waits), else RS/RS 11.1."""
    kind, side_id = next(iter(action.items()))
    if kind in ("place", "pick_up", "exchange", "leave") or side_id == state.pontoon:
        return "RS/RS 11.2"
    return "RS/RS 11.1"


def not_carried_out(state: RsState, ctx: Context, action: dict[str, str], why: str) -> None:
    """Report a bridge action that cannot be done, citing the case that stops it (RS/RS 11.1 or RS/RS 11.2)."""
    kind, side_id = next(iter(action.items()))
    ctx.emit("bridge", f"the bridge action is not carried out: {why}", case_of(state, action), hexside=side_id,
             done=False, action=f"{kind}-refused")


def act(state: RsState, ctx: Context, side: str, units: list[str], action: dict[str, str],
        left: dict[str, Fraction], standing: bool = False) -> int:
    """Carry out a bridge action at the end of a move, or say why it could not be done. Returns the MP the
    engineer spent on it (RS/RS 11.1, RS/RS 11.2: 5, or 10 to place the counter with a motorized engineer; 0 for
    any other action or one not carried out)."""
    why = problem(state, side, units, action, left, standing)
    kind, side_id = next(iter(action.items()))
    if kind == "leave":
        return 0
    if why:
        not_carried_out(state, ctx, action, why)
        return 0
    if kind == "destroy" and side == "soviet" and side_id == state.pontoon:  # RS/RS 11.2
        low, high = side_id.split("-")
        by = next(u for u in units if state.units[u].on_map and state.units[u].hex in (low, high))
        destroy(state, ctx, side_id, f"destroyed by {by} next to it (no MP)", "RS/RS 11.2")
        return 0
    engineer = engineer_of(state, units)
    assert engineer is not None
    if kind == "destroy":
        destroy(state, ctx, side_id, f"destroyed by {engineer.id} (+{DESTROY_COST} MP)", "RS/RS 11.1")
        return DESTROY_COST
    if kind == "exchange":
        state.carriers[COUNTER] = side_id
        state.units[COUNTER].hex = state.units[side_id].hex
        ctx.emit("bridge", f"{engineer.id} hands the Japanese bridge counter to {side_id} in {engineer.hex}",
                 "RS/RS 11.2", done=True, action="exchange", unit=engineer.id, to=side_id)
        return 0
    if kind == "pick_up":
        state.pontoon = None
        state.carriers[COUNTER] = engineer.id
        state.units[COUNTER].hex = engineer.hex
        ctx.emit("bridge", f"{engineer.id} picks up the Japanese bridge counter from {side_id}", "RS/RS 11.2",
                 hexside=side_id, done=True, action="pick_up", unit=engineer.id)
        return 0
    cost = PLACE_COST_MOTORIZED if is_motorized(state, engineer) else PLACE_COST
    state.pontoon = side_id
    state.pontoon_placed, state.pontoon_left = segment_key(state), ""  # RS/RS 11.2: the waits start afresh
    del state.carriers[COUNTER]
    state.units[COUNTER].hex = engineer.hex
    ctx.emit("bridge", f"{engineer.id} places the Japanese bridge counter across the Halha on {side_id}",
             "RS/RS 11.2", hexside=side_id, done=True, action="place", unit=engineer.id)
    return cost


def declare_pick_up(state: RsState, ctx: Context, side: str, units: list[str], action: dict[str, str],
                    left: dict[str, Fraction], pending: list[list[str]], reserve: bool = False) -> None:
    """RS/RS 11.2 removal: an engineer that is to spend the whole Movement segment next to the counter's
    hexside picks it up only when the segment ends; until then the counter stays a bridge (units may cross it,
    a Soviet unit reaching it may destroy it). Note it in ``pending`` (a MovementRun list), or say now why it
    cannot be done."""
    why = problem(state, side, units, action, left, standing=True)
    if why:
        not_carried_out(state, ctx, action, why)
        return
    engineer = engineer_of(state, units)
    assert engineer is not None
    pending.append([engineer.id, engineer.hex or "", action["pick_up"]])
    who = "reserve " if reserve else ""
    segment = "this" if not reserve else "this enemy"
    ctx.emit("bridge", f"{who}{engineer.id} stays by the Japanese bridge on {action['pick_up']} to pick it up at the "
             f"end of {segment} Movement segment", "RS/RS 11.2", done=False, action="pick_up-declared",
             unit=engineer.id, hexside=action["pick_up"])


def pick_up_at_end(state: RsState, ctx: Context, pending: list[list[str]], moved: list[str]) -> None:
    """RS/RS 11.2 removal, at the end of the Movement segment: each engineer that declared a pick-up and has
    stayed the whole segment in its hex (it is still there and not in ``moved``), without a Fired or
    Disruption marker, picks up the counter if it is still on that hexside."""
    for engineer_id, hex_id, side_id in pending:
        engineer = state.units[engineer_id]
        action = {"pick_up": side_id}
        if not engineer.on_map or engineer.hex != hex_id or engineer_id in moved:
            not_carried_out(state, ctx, action, f"{engineer_id} did not stay by {side_id} the whole segment "
                            "(RS/RS 11.2)")
            continue
        act(state, ctx, engineer.side, [engineer_id], action, {engineer_id: movement_allowance(state, engineer)},
            standing=True)


def destroy(state: RsState, ctx: Context, side_id: str, why: str, case: str) -> None:
    if side_id == state.pontoon:
        state.pontoon = None
        counter = state.units[COUNTER]
        counter.status, counter.hex = ELIMINATED, None  # RS/RS 11.2: permanently out of play
    elif side_id not in state.destroyed_bridges:
        state.destroyed_bridges.append(side_id)
        state.destroyed_bridges.sort()
    ctx.emit("bridge", f"the bridge on {side_id} is {why}", case, hexside=side_id, done=True, action="destroy")


def soviet_adjacency(state: RsState, ctx: Context, side: str, entered: dict[str, list[str]],
                     action: dict[str, str] | None) -> None:
    """RS/RS 11.2: a Soviet unit entering a hex of the counter's hexside destroys it, unless left intact by this
    move or earlier in this Movement segment (then the Soviet player waits for a later segment)."""
    if side != "soviet" or state.pontoon is None:
        return
    low, high = state.pontoon.split("-")
    if any(h in (low, high) for hexes in entered.values() for h in hexes):
        if action is not None and action.get("leave") == state.pontoon:
            state.pontoon_left = segment_key(state)
            ctx.emit("bridge", f"the Soviet player leaves the Japanese bridge on {state.pontoon} intact; he may "
                     "not destroy it before a later Movement segment", "RS/RS 11.2", hexside=state.pontoon,
                     done=False, action="leave")
            return
        if state.pontoon_left == segment_key(state):
            ctx.emit("bridge", f"the Japanese bridge on {state.pontoon} stays intact: the Soviet player left it "
                     "intact earlier in this Movement segment and must wait for a later one", "RS/RS 11.2",
                     hexside=state.pontoon, done=False, action="wait")
            return
        destroy(state, ctx, state.pontoon, "destroyed: a Soviet unit has reached it", "RS/RS 11.2")
