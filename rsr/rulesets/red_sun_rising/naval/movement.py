"""Naval movement (RSR 7.0-7.1, RSR 19.2, RSR 8.76 errata): each side's moves, from its sailing orders or asked round by
round (the ``naval-round`` decision)."""

from __future__ import annotations

from typing import Any

from rsr.decisions import Decision
from rsr.engine import Context
from rsr.errors import RulesError
from rsr.rulesets.red_sun_rising.naval import attrition, mines, orders
from rsr.rulesets.red_sun_rising.naval.data import NavalStatic
from rsr.rulesets.red_sun_rising.naval.state import Fleet, NavalAsk, NavalState, enemy, on_map_fleets

ROUNDS = 10  # RSR 4.14, RSR 7.0
NEXT_IMPULSE = {"russia": "japan", "japan": "raid"}  # RSR 7.0: the Russian moves first, then the Japanese, then raids


def homeward_steps(state: Any, fleet: Fleet) -> list[int]:
    """RSR 8.76 errata: every first hex of a shortest path to the nearest friendly port (any of them, when
    several are as near); [fleet.hex] when it is in one or none can be reached."""
    static: NavalStatic = state.naval_static
    targets = sorted(p.hex for p in static.ports if attrition.friendly_port(static, state.control, p.hex, fleet.side))
    if not targets or fleet.hex in targets:
        return [fleet.hex]
    reach = {step: min((static.distances(step)[t] for t in targets if t in static.distances(step)), default=None)
             for step in static.neighbours(fleet.hex)}
    near = [d for d in reach.values() if d is not None]
    if not near:
        return [fleet.hex]
    return sorted(step for step, d in reach.items() if d == min(near))


def nearest_port_step(state: Any, fleet: Fleet) -> int:
    """The step the sailing orders take home: the next hex of the fleet's own route when it lies on a shortest
    path (RSR 8.76 errata leaves the path to the player), else the lowest-numbered such hex."""
    steps = homeward_steps(state, fleet)
    route = ((state.naval.orders.get(fleet.side, {}).get("fleets") or {}).get(fleet.id) or {}).get("route") or []
    planned = route[fleet.route_index] if fleet.route_index < len(route) else None
    return planned if planned in steps else steps[0]


def moves_from_orders(state: Any, side: str) -> dict[str, Any]:
    """The moves this round's impulse takes from the signed sailing orders."""
    naval: NavalState = state.naval
    static: NavalStatic = state.naval_static
    signed = naval.orders.get(side, {})
    fleet_orders = signed.get("fleets") or {}
    moves: dict[str, Any] = {"fleets": {}, "merchants": {}}
    for fleet in [naval.fleets[f] for f in sorted(naval.fleets)]:
        if fleet.side != side or not fleet.at_sea:
            continue
        mine = fleet_orders.get(fleet.id, {})
        within = mine.get("return_if_enemy_within")
        if within is not None and not fleet.returning and not fleet.arrives:
            dist = static.distances(fleet.hex)
            near = [e for e in on_map_fleets(naval, enemy(side)) if e.at_sea and dist.get(e.hex, 99) <= within]
            if near:
                fleet.returning = True
                ctx_note = f"{fleet.id}: enemy fleet {near[0].id} within {within} hexes: returns to port"
                naval.orders[side].setdefault("_notes", []).append(ctx_note)
        route = mine.get("route", [])
        done = fleet.route_index >= len(route) and not fleet.arrives
        if mine.get("flip_in_port") and done and attrition.friendly_port(static, state.control, fleet.hex, side):
            fleet.at_sea, fleet.flip_in_port = False, True  # RSR 7.0 note
            naval.orders[side].setdefault("_notes", []).append(
                f"{fleet.id} turns to its in-Port side in naval hex {fleet.hex}")
            continue
        if fleet.returning and not fleet.arrives:
            moves["fleets"][fleet.id] = nearest_port_step(state, fleet)
        elif fleet.route_index < len(route):
            moves["fleets"][fleet.id] = route[fleet.route_index]
    for merchant_id, raw in sorted((signed.get("merchants") or {}).items()):
        merchant = naval.merchants.get(merchant_id)
        if merchant is None:
            continue
        route = raw.get("route", [])
        if merchant.route_index < len(route) and (naval.round > 1 or merchant.home_start):
            moves["merchants"][merchant_id] = route[merchant.route_index]
    return moves


def move_side(state: Any, ctx: Context, side: str, moves: dict[str, Any]) -> None:
    """RSR 7.1: every at-sea fleet (and merchant fleet) enters an adjacent hex or stays; Russians first."""
    naval: NavalState = state.naval
    static: NavalStatic = state.naval_static
    for note in naval.orders.get(side, {}).pop("_notes", []):
        ctx.emit("sailing-orders", note, "RSR 7.1", side=side)
    for fleet_id in moves.get("in_port") or []:  # RSR 7.0 note, asked round by round
        fleet = naval.fleets.get(str(fleet_id))
        if fleet is None or fleet.side != side or not fleet.at_sea or fleet.arrives \
                or not attrition.friendly_port(static, state.control, fleet.hex, side):
            raise RulesError(f"{fleet_id} is not an at-sea {side} fleet in a friendly port (RSR 7.0)")
        if str(fleet_id) in (moves.get("fleets") or {}):
            raise RulesError(f"{fleet_id} either moves or turns to its in-Port side (RSR 7.0)")
        fleet.at_sea, fleet.flip_in_port = False, True
        ctx.emit("sailing-orders", f"{fleet.id} turns to its in-Port side in naval hex {fleet.hex}", "RSR 7.0",
                 side=side)
    for fleet_id, target in sorted((moves.get("fleets") or {}).items()):
        fleet = naval.fleets.get(fleet_id)
        if fleet is None or fleet.side != side:
            raise RulesError(f"round {naval.round}: {fleet_id} is not a {side} fleet")
        if not fleet.at_sea:
            raise RulesError(f"round {naval.round}: {fleet_id} lacks command initiative and may not move (RSR 7.0)")
        if fleet.arrives:
            if target not in static.baltic_entry:  # RSR 19.2
                raise RulesError(f"{fleet_id} enters in round 1 on one of hexes "
                                 f"{static.baltic_entry[0]}-{static.baltic_entry[-1]} (RSR 19.2)")
            if naval.round != 1:
                raise RulesError(f"{fleet_id} enters during the first round (RSR 19.2)")
            fleet.arrives, fleet.hex, fleet.moved = 0, target, True
            fleet.route_index += 1
            ctx.emit("naval-move", f"{fleet_id} enters the map in naval hex {target}", "RSR 19.2",
                     fleet=fleet_id, frm=None, to=target, round=naval.round)
            continue
        fleet.route_index += 1
        if fleet.broke_off and target not in homeward_steps(state, fleet):
            raise RulesError(f"{fleet_id} broke off with morale zero: it must sail to the nearest friendly port by "
                             "a shortest path, next one of "
                             f"{', '.join(str(h) for h in homeward_steps(state, fleet))} (RSR 8.76 errata)")
        if target == fleet.hex:
            continue
        if target not in static.neighbours(fleet.hex):
            raise RulesError(f"round {naval.round}: {fleet_id} cannot sail from {fleet.hex} to {target}: not an "
                             "adjacent sea hex across a passable hexside (RSR 7.1)")
        struck = mines.struck_by_mines(fleet, state.options)  # RSR 16.0 (rules option mines-strike-russians-only)
        if struck:
            mines.strike(ctx, static, naval, fleet, fleet.hex, "leaves")
        frm, fleet.hex, fleet.moved = fleet.hex, target, True
        ctx.emit("naval-move", f"round {naval.round}: {fleet_id} sails {frm} -> {target}", "RSR 7.1",
                 fleet=fleet_id, frm=frm, to=target, round=naval.round)
        if struck:
            mines.strike(ctx, static, naval, fleet, target, "enters")
    for merchant_id, target in sorted((moves.get("merchants") or {}).items()):
        merchant = naval.merchants.get(merchant_id)
        if side != "japan" or merchant is None:
            raise RulesError(f"round {naval.round}: {merchant_id} is not a Japanese merchant fleet")
        if naval.round == 1 and not merchant.home_start and target != merchant.hex:
            raise RulesError(f"{merchant_id} did not start in a Japanese home port: it may not move in round 1 "
                             "(RSR 7.0 errata)")
        merchant.route_index += 1
        if target == merchant.hex:
            continue
        if target not in static.neighbours(merchant.hex):
            raise RulesError(f"round {naval.round}: {merchant_id} cannot sail from {merchant.hex} to {target} "
                             "(RSR 7.1)")
        if merchant_id in state.merchant_fleets:  # RSR 7.5: its land-map counter is taken off first
            land_hex = state.merchant_fleets.pop(merchant_id)
            ctx.emit("merchant-recalled", f"merchant fleet {merchant_id} leaves land hex {land_hex} before it sails "
                     "on the naval map", "RSR 7.5", merchant=merchant_id, hex=land_hex, round=naval.round)
        frm, merchant.hex, merchant.moved = merchant.hex, target, True
        ctx.emit("naval-move", f"round {naval.round}: merchant fleet {merchant_id} sails {frm} -> {target}",
                 "RSR 7.1", merchant=merchant_id, frm=frm, to=target, round=naval.round)
    naval.orders.setdefault(side, {})["_round_search"] = list(moves.get("search") or [])
    late = [f.id for f in naval.fleets.values() if f.side == side and f.arrives and f.arrives == state.turn]
    if late and naval.round == 1:
        raise RulesError(f"{', '.join(sorted(late))} must enter in round 1 on one of hexes "
                         f"{static.baltic_entry[0]}-{static.baltic_entry[-1]} (RSR 19.2)")


def asks_round_by_round(naval: NavalState, side: str) -> bool:
    """The side's sailing orders say round_by_round: its moves are asked every round (RSR 7.1)."""
    return bool(naval.orders.get(side, {}).get("round_by_round"))


def round_ask(state: Any, base: str) -> NavalAsk | None:
    """RSR 7.1: a side asked round by round is asked in its own Movement Impulse."""
    naval: NavalState = state.naval
    if naval.impulse in ("russia", "japan") and asks_round_by_round(naval, naval.impulse):
        return NavalAsk("naval-round", naval.impulse, f"{base}/round{naval.round}/{naval.impulse}")
    return None


def _positions(naval: NavalState, side: str) -> dict[str, int]:
    return {f.id: f.hex for f in on_map_fleets(naval, side) if f.at_sea}


def _round_options(state: Any, ask: Any) -> dict[str, Any]:
    naval: NavalState = state.naval
    static: NavalStatic = state.naval_static
    side = ask.side
    moves: dict[str, list[int]] = {f.id: [f.hex] + static.neighbours(f.hex)
                                   for f in on_map_fleets(naval, side) if f.at_sea}
    moves.update({f.id: list(static.baltic_entry) for f in naval.fleets.values()  # RSR 19.2
                  if f.side == side and f.arrives == state.turn and f.at_sea and naval.round == 1})
    shipping: dict[str, list[int]] = {m.id: [m.hex] + static.neighbours(m.hex) for m in naval.merchants.values()
                                      if side == "japan" and (naval.round > 1 or m.home_start)}
    return {"fleets": moves, "merchants": shipping, "enemy": _positions(naval, enemy(side))}


def _round_template(state: Any, ask: Any) -> dict[str, Any]:
    options = _round_options(state, ask)
    return {"fleets": {f: m[0] for f, m in options["fleets"].items()},
            "merchants": {m: h[0] for m, h in options["merchants"].items()}, "search": [], "in_port": []}


def _apply_round(state: Any, ctx: Context, ask: Any, answer: Any) -> None:
    move_side(state, ctx, ask.side, orders.check_round(answer))
    state.naval.impulse = NEXT_IMPULSE[ask.side]


NAVAL_ROUND = Decision(
    kind="naval-round", ids="t<turn>/naval/round<round>/<side>", case="RSR 7.1",
    who="a side whose sailing orders say round_by_round: true, in its Movement Impulse of every round",
    prompt=lambda state, ask: f"naval movement round {state.naval.round} of {ROUNDS}: {ask.side} moves",
    options=_round_options, template=_round_template, apply=_apply_round,
    schema={"type": "object", "additionalProperties": False,
            "properties": {"fleets": {}, "merchants": {}, "search": {}, "in_port": {}}},
    shape="a naval round answer is {fleets: {fleet: hex}, merchants: {merchant: hex}, search: [fleets], "
          "in_port: [fleets]}")
