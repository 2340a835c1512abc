"""Sailing orders: what each side signs once for the whole Naval Sequence, checked here.

A side's orders name, per fleet: ``sortie`` (attempt initiative, RSR 4.11-4.12), ``route`` (the hexes to enter,
one per Movement Impulse; repeating a hex waits there), ``search`` ("never" or "always" when an enemy
at-sea fleet shares the hex, RSR 6.0), ``return_if_enemy_within`` (N: head for the nearest friendly port once
an enemy at-sea fleet is within N hexes), ``lay_mines`` (RSR 16.0, default true), ``flip_in_port`` (RSR 7.0
note: turn to the in-Port side once the route is done in a friendly port), ``leave_behind`` (RSR 7.73
errata: disabled ships under repair that stay in port); per merchant fleet a ``route``; ``load``
(RSR 7.4: merchant fleet -> land units stacked with it); ``compose`` (RSR 7.7), ``new_fleets`` (RSR 7.7: the
Japanese second fleet), ``attrition_order`` (RSR 15.15: the ships the Japanese gives up first);
``round_by_round`` true to be asked every round instead; ``battle_plan`` for every naval
battle of the stage, or ``sealed`` to answer a sealable ``battle-plan`` request instead (unsealed once both
sides have signed their sailing orders); ``appoint`` (RSR 19.3, RSR 8.79: admiral waiting in reserve -> fleet id or
``reserve``; admirals.py); ``blockade_support`` (RSR 10.26, RSR 15.0, Japanese only: fleet -> the merchant fleet in
its hex that supports its blockade; where it names none, or one not there at the end of movement, a merchant
fleet without a land-map counter is taken first, then the lowest id); ``routes: sealed``: the
fleets' routes follow in a sealable ``naval-routes`` request, unsealed once the enemy has signed his orders.
"""

from __future__ import annotations

from typing import Any

from rsr.decisions import Decision
from rsr.engine import Context, Sealed
from rsr.errors import RulesError
from rsr.rulesets.red_sun_rising.naval import admirals, initiative, plans, transport
from rsr.rulesets.red_sun_rising.naval.data import NavalStatic
from rsr.rulesets.red_sun_rising.naval.state import Fleet, NavalAsk, NavalState, on_map_fleets, queued, season

FLEET_KEYS = {"sortie", "route", "search", "return_if_enemy_within", "lay_mines", "flip_in_port", "leave_behind"}
TOP_KEYS = {"fleets", "merchants", "compose", "new_fleets", "attrition_order", "round_by_round", "load",
            "battle_plan", "surprise_attack", "appoint", "blockade_support",
            "routes"}  # plans.py; RSR 18.83; RSR 19.3
# (admirals.py); RSR 10.26 with RSR 15.0


def check_orders(answer: Any, side: str) -> dict[str, Any]:
    if not isinstance(answer, dict) or set(answer) - TOP_KEYS:
        raise RulesError(f"sailing orders are a mapping with keys {', '.join(sorted(TOP_KEYS))}")
    fleets = answer.get("fleets") or {}
    if not isinstance(fleets, dict):
        raise RulesError("sailing orders: fleets is {fleet id: orders}")
    for fleet_id, raw in sorted(fleets.items()):
        if not isinstance(raw, dict) or set(raw) - FLEET_KEYS:
            raise RulesError(f"sailing orders for {fleet_id}: keys are {', '.join(sorted(FLEET_KEYS))}")
        route = raw.get("route", [])
        if not isinstance(route, list) or not all(type(h) is int for h in route) or len(route) > 10:
            raise RulesError(f"sailing orders for {fleet_id}: route is at most ten naval hex numbers (RSR 4.14)")
        if raw.get("search", "never") not in ("never", "always"):
            raise RulesError(f"sailing orders for {fleet_id}: search is never or always")
        within = raw.get("return_if_enemy_within")
        if within is not None and (type(within) is not int or within < 0):
            raise RulesError(f"sailing orders for {fleet_id}: return_if_enemy_within is a number of hexes")
    if answer.get("battle_plan") not in (None, "sealed"):
        plans.check_plan(answer["battle_plan"], side)  # checked when signed, used when a battle starts
    if answer.get("routes") not in (None, "sealed"):
        raise RulesError("sailing orders: routes is sealed (the routes follow in their own sealable request) or absent")
    if answer.get("routes") == "sealed" and any((raw or {}).get("route") for raw in fleets.values()):
        raise RulesError("sailing orders: with routes: sealed, give the routes in the naval-routes request, not here")
    if "surprise_attack" in answer:  # its own request, before the Russian sailing orders (RSR 19.0)
        raise RulesError("sailing orders: the surprise torpedo attack is answered in its own request, "
                         "t1/naval/japan/surprise-attack, before the Russian sailing orders (RSR 18.83, 19.0)")
    load = answer.get("load") or {}
    if not isinstance(load, dict) or not all(isinstance(v, list) for v in load.values()):
        raise RulesError("sailing orders: load is {merchant fleet: [land unit ids]}")
    support = answer.get("blockade_support") or {}
    if not isinstance(support, dict) or not all(isinstance(v, str) for v in support.values()) \
            or len(set(support.values())) != len(support):
        raise RulesError("sailing orders: blockade_support is {Japanese fleet: merchant fleet}, one merchant fleet "
                         "to a fleet (RSR 15.0)")
    if support and side != "japan":
        raise RulesError("only a Japanese fleet goes on blockade (RSR 15.0)")
    merchants = answer.get("merchants") or {}
    if (merchants or load) and side != "japan":
        raise RulesError("only the Japanese has merchant fleets (RSR 7.4)")
    for merchant_id, raw in sorted(merchants.items()):
        route = raw.get("route", []) if isinstance(raw, dict) else None
        if not isinstance(route, list) or not all(type(h) is int for h in route) or len(route) > 10:
            raise RulesError(f"sailing orders for {merchant_id}: route is at most ten naval hex numbers")
    return answer


def check_round(answer: Any) -> dict[str, Any]:
    """A round-by-round answer: {fleets: {fleet: hex}, merchants: {merchant: hex}, search: [fleet ids],
    in_port: [fleet ids that turn to their in-Port side instead of moving, RSR 7.0 note]}."""
    if not isinstance(answer, dict) or set(answer) - {"fleets", "merchants", "search", "in_port"}:
        raise RulesError("a naval round answer is {fleets: {fleet: hex}, merchants: {merchant: hex}, search: [fleets], "
                         "in_port: [fleets]}")
    for key in ("fleets", "merchants"):
        moves = answer.get(key) or {}
        if not isinstance(moves, dict) or not all(type(h) is int for h in moves.values()):
            raise RulesError(f"{key} maps an id to the naval hex number it moves to (or stays in)")
    return answer


# -- the rules the sailing orders carry out (RSR 4.11-4.12, RSR 5.0, RSR 7.1, RSR 7.4, RSR 7.7, RSR 7.71-7.73) --

def compose(state: Any, ctx: Context, side: str, signed: dict[str, Any]) -> None:
    """RSR 7.7, RSR 7.71: re-arrange ships among fleets that start the stage in one hex; the Japanese may
    form a second fleet beside his only one."""
    naval: NavalState = state.naval
    static: NavalStatic = state.naval_static
    compose = signed.get("compose") or {}
    for fleet_id, admiral_id in sorted((signed.get("new_fleets") or {}).items()):
        mine = on_map_fleets(naval, side)
        if side != "japan" or len(mine) != 1 or fleet_id in naval.fleets:
            raise RulesError("only the Japanese, with a single fleet on the map, may form a second fleet (RSR 7.7)")
        check_second_fleet_admiral(static, naval, str(admiral_id), state.turn)
        if not compose.get(fleet_id) or not compose.get(mine[0].id):
            raise RulesError(f"a second fleet needs at least one ship, and so does {mine[0].id}: give both their ships "
                             "in compose (RSR 7.7, 7.71)")
        naval.fleets[fleet_id] = Fleet(fleet_id, side, str(admiral_id), mine[0].hex, [],
                                       morale=static.admiral(str(admiral_id)).initiative)
        if str(admiral_id) in naval.reserve:  # RSR 19.3: a waiting admiral takes the new fleet
            naval.reserve.remove(str(admiral_id))
    if not compose:
        return
    fleets = [naval.fleets.get(f) for f in sorted(compose)]
    if any(f is None or f.side != side for f in fleets) or len({f.hex for f in fleets if f}) != 1:
        raise RulesError("fleets re-arranged together must be friendly fleets in one hex (RSR 7.7)")
    before = sorted(s for f in fleets if f for s in f.ships)
    after = sorted(s for f in sorted(compose) for s in compose[f])
    if before != after:
        raise RulesError("a re-arrangement must keep exactly the ships of those fleets (RSR 7.7, 7.71)")
    removed = []
    for fleet in fleets:
        assert fleet is not None
        fleet.ships = list(compose[fleet.id])
        if not fleet.ships:  # RSR 7.7: an empty fleet leaves the map
            del naval.fleets[fleet.id]
            removed.append(fleet.id)
    ctx.emit("composition", f"{side} re-arranges {', '.join(sorted(compose))}"
             + (f"; {', '.join(removed)} has no ship left and leaves the map" if removed else ""), "RSR 7.7",
             fleets={f: list(s) for f, s in sorted(compose.items())}, removed=removed)


def check_second_fleet_admiral(static: NavalStatic, naval: NavalState, admiral_id: str, turn: int) -> None:
    """RSR 7.7 with RSR 7.71 errata: the second fleet is led by a Japanese admiral in the game who commands no other
    fleet (not one killed, RSR 8.75, gone from the game, RSR 17.3, or still to come by the Turn Record Track,
    RSR 19.3)."""
    admiral = static.admiral(admiral_id)
    if admiral.side != "japan":
        raise RulesError(f"{admiral_id} is not a Japanese admiral: he cannot lead a Japanese fleet (RSR 7.7, 7.71)")
    if admiral_id in admirals.commanders(naval):
        raise RulesError(f"{admiral_id} already commands a fleet: a second fleet needs another admiral (RSR 7.71)")
    if admiral_id in naval.dead_admirals or admiral_id in naval.withdrawn:
        raise RulesError(f"{admiral_id} is no longer in the game (RSR 8.75, 17.3)")
    later = [t for t, kind, name in static.admiral_track if kind == "arrive" and name == admiral.name and t > turn]
    if later and admiral_id not in naval.reserve:
        raise RulesError(f"{admiral_id} arrives by the Turn Record Track on turn {later[0]} (RSR 19.3)")


def check_routes(state: Any, side: str, signed: dict[str, Any]) -> None:
    """RSR 7.1, RSR 19.2: every route of the sailing orders goes hex by hex to an adjacent sea hex (or stays), from the
    fleet's hex (an arriving fleet from its entry hex); checked when signed, so no later round can refuse it."""
    naval: NavalState = state.naval
    static: NavalStatic = state.naval_static
    for kind, things in (("fleets", naval.fleets), ("merchants", naval.merchants)):
        for thing_id, raw in sorted((signed.get(kind) or {}).items()):
            route = list((raw or {}).get("route") or [])
            thing = things.get(thing_id)
            if not route:
                continue
            if thing is None or (kind == "fleets" and naval.fleets[thing_id].side != side):
                raise RulesError(f"sailing orders: {thing_id} is not one of your {kind} (RSR 7.1)")
            arriving = kind == "fleets" and bool(naval.fleets[thing_id].arrives)
            here = route[0] if arriving else thing.hex
            for number, target in enumerate(route[1:] if arriving else route, start=2 if arriving else 1):
                if target != here and target not in static.neighbours(here):
                    raise RulesError(f"sailing orders: {thing_id}'s route, step {number}, goes from naval hex {here} "
                                     f"to {target}: not an adjacent sea hex across a passable hexside (RSR 7.1)")
                here = target


def check_arrivals(state: Any, side: str, signed: dict[str, Any]) -> None:
    """RSR 19.2: the Baltic fleet enters in round 1 on a hex 12-19; sailing orders must say which."""
    naval: NavalState = state.naval
    static: NavalStatic = state.naval_static
    for fleet in [naval.fleets[f] for f in sorted(naval.fleets)]:
        if fleet.side != side or fleet.arrives != state.turn or signed.get("round_by_round"):
            continue
        route = ((signed.get("fleets") or {}).get(fleet.id) or {}).get("route") or []
        if not route or route[0] not in static.baltic_entry:
            raise RulesError(f"{fleet.id} enters in round 1 on one of hexes {static.baltic_entry[0]}-"
                             f"{static.baltic_entry[-1]}: start its route there (RSR 19.2)")


def load(state: Any, ctx: Context, load: dict[str, list[str]]) -> None:
    """RSR 7.4, RSR 7.41, RSR 7.43, RSR 17.11: a merchant fleet embarks land units that start the stage in its
    hex (or, in a home port, command units that arrived by the Turn Record Track), at most four command points a
    stage."""
    naval: NavalState = state.naval
    static: NavalStatic = state.naval_static
    for merchant_id, units in sorted(load.items()):
        merchant = naval.merchants.get(merchant_id)
        if merchant is None:
            raise RulesError(f"{merchant_id} is not a merchant fleet on the naval map (RSR 7.4)")
        for unit_id in units:
            here = naval.ashore.get(str(unit_id)) == merchant.hex
            arrived = str(unit_id) in state.off_map and merchant.hex in static.home_ports
            if not (here or arrived):
                raise RulesError(f"{unit_id} does not start the Naval Movement Stage stacked with {merchant_id} "
                                 f"in naval hex {merchant.hex} (RSR 7.4, 17.11)")
        transport.check_cargo(state, merchant_id, merchant.cargo + [str(u) for u in units])
        for unit_id in units:
            naval.ashore.pop(str(unit_id), None)
            if str(unit_id) in state.off_map:
                state.off_map.remove(str(unit_id))
            merchant.cargo.append(str(unit_id))
        ctx.emit("embark", f"merchant fleet {merchant_id} embarks {', '.join(units)} in naval hex {merchant.hex}",
                 "RSR 7.4", merchant=merchant_id, units=list(units), hex=merchant.hex)


def roll_initiative(state: Any, ctx: Context, side: str, signed: dict[str, Any]) -> None:
    """RSR 4.11-4.12, RSR 5.0: roll for each fleet that wishes to sortie."""
    naval: NavalState = state.naval
    static: NavalStatic = state.naval_static
    wanted = signed.get("fleets") or {}
    for fleet_id in sorted(wanted):
        fleet = naval.fleets.get(fleet_id)
        if fleet is None or fleet.side != side:
            raise RulesError(f"{fleet_id} is not a {side} fleet")
        if wanted[fleet_id].get("sortie") or (fleet.arrives and fleet.arrives == state.turn):
            if fleet.arrives and fleet.arrives != state.turn:
                raise RulesError(f"{fleet_id} has not arrived yet (RSR 19.2)")
            initiative.roll_initiative(ctx, static, fleet, season(state), state.turn)


def leave_behind(state: Any, ctx: Context, side: str, signed: dict[str, Any]) -> None:
    """RSR 7.71-7.73 errata: a sortie takes every ship, except disabled ships under repair left in port."""
    naval: NavalState = state.naval
    for fleet_id, raw in sorted((signed.get("fleets") or {}).items()):
        left = [str(s) for s in raw.get("leave_behind") or []]
        fleet = naval.fleets.get(fleet_id)
        if not left or fleet is None:
            continue
        if set(left) - set(fleet.ships) or set(left) - set(naval.disabled):
            raise RulesError(f"{fleet_id} may leave behind only its own disabled ships (RSR 7.72, 7.73)")
        if not fleet.at_sea:
            continue  # it does not sortie: nothing is left behind
        if not set(fleet.ships) - set(left):
            raise RulesError(f"{fleet_id} would sail with no ship (RSR 7.71)")
        fleet.ships = [s for s in fleet.ships if s not in left]
        for ship_id in left:
            naval.in_port[ship_id] = fleet.hex
        ctx.emit("composition", f"{fleet_id} sorties leaving {', '.join(left)} in port", "RSR 7.73",
                 fleet=fleet_id, ships=left)


def finish(state: Any, ctx: Context, side: str, signed: dict[str, Any]) -> None:
    """The dice a side's sailing orders call for, once they and whatever it seals with them are in: initiative
    (RSR 4.11-4.12), then RSR 7.73 errata (RSR 18.83 comes first, as its own request)."""
    roll_initiative(state, ctx, side, signed)
    leave_behind(state, ctx, side, signed)


def take_routes(state: Any, side: str, answer: Any) -> None:
    """RSR 4.11-4.12: the routes of sealed sailing orders, checked as the orders' own routes are (RSR 7.1,
    RSR 19.2)."""
    naval: NavalState = state.naval
    if not isinstance(answer, dict) or set(answer) - {"fleets"} or not isinstance(answer.get("fleets", {}), dict):
        raise RulesError("routes are {fleets: {fleet id: [naval hexes]}}")
    fleets = naval.orders[side].get("fleets") or {}
    merged = {f: dict(fleets[f] or {}) for f in sorted(fleets)}
    for fleet_id, route in sorted((answer.get("fleets") or {}).items()):
        if not isinstance(route, list) or not all(type(h) is int for h in route) or len(route) > 10:
            raise RulesError(f"routes: {fleet_id} has at most ten naval hex numbers (RSR 4.14)")
        fleet = naval.fleets.get(fleet_id)
        if fleet is None or fleet.side != side:
            raise RulesError(f"routes: {fleet_id} is not a {side} fleet")
        merged.setdefault(fleet_id, {"sortie": False, "search": "never"})["route"] = list(route)
    signed = {**naval.orders[side], "fleets": merged}
    check_routes(state, side, signed)
    check_arrivals(state, side, signed)
    naval.orders[side]["fleets"] = merged


# -- the decisions: sailing orders, their sealed routes (and the sealed battle plan, plans.py) -----------------

SIDES = ("russia", "japan")  # RSR 4.11-4.12: the Russian writes his sailing orders first
QUEUED = {"routes": "naval-routes", "seal": "battle-plan",   # sealed with the sailing orders, right after them
          "routes-unseal": "naval-routes-unseal", "unseal": "battle-plan-unseal"}  # once both sides have signed


def orders_ask(state: Any, base: str) -> NavalAsk | None:
    """RSR 4.11-4.12: what a side seals with its orders comes first (then, once both sides have signed, its
    unsealing: NavalState.plan_queue); else the next side's sailing orders."""
    naval: NavalState = state.naval
    if naval.plan_queue:
        what, side = naval.plan_queue[0].split(":")
        kind = QUEUED[what]
        sealed = {"sealed": f"{base}/{side}/{kind.removesuffix('-unseal')}"} if kind.endswith("-unseal") else {}
        return NavalAsk(kind, side, f"{base}/{side}/{kind}", sealed)
    if naval.orders_side < len(SIDES):
        side = SIDES[naval.orders_side]
        return NavalAsk("sailing-orders", side, f"{base}/{side}/sailing-orders")
    return None


def run_orders(state: Any, ctx: Context) -> bool:
    """RSR 4.11-4.12: once a side's orders and whatever it seals with them are in, the dice they call for; once
    both sides' are, the sealed routes and plans are unsealed, then the Naval Search Stage."""
    naval: NavalState = state.naval
    while not naval.plan_queue:
        if naval.orders_side < len(SIDES):
            side = SIDES[naval.orders_side]
            if side not in naval.orders:
                return False  # its sailing orders are asked
            finish(state, ctx, side, naval.orders[side])
            naval.orders_side += 1
            continue
        if naval.plan_unseals or naval.route_unseals:
            naval.plan_queue = [f"routes-unseal:{side}" for side in naval.route_unseals] \
                + [f"unseal:{side}" for side in naval.plan_unseals]
            naval.plan_unseals, naval.route_unseals = [], []
            return False
        return True
    return False


def _orders_options(state: Any, ask: Any) -> dict[str, Any]:
    naval: NavalState = state.naval
    static: NavalStatic = state.naval_static
    side = ask.side
    fleets = {f.id: {"hex": f.hex, "admiral": f.admiral, "ships": list(f.ships), "blockade": f.blockade,
                     "arrives": f.arrives}
              for f in naval.fleets.values() if f.side == side}
    arriving = {f.id: {"enters_on": list(static.baltic_entry)} for f in naval.fleets.values()
                if f.side == side and f.arrives == state.turn}
    merchants = {m.id: {"hex": m.hex, "cargo": list(m.cargo)} for m in naval.merchants.values()} \
        if side == "japan" else {}
    appointing = admirals.options(static, naval, side, state.turn)  # RSR 19.3
    return {"fleets": fleets, "arriving": arriving, "merchants": merchants,
            "mines": dict(naval.mines), "disabled": list(naval.disabled),  # RSR 7.73, RSR 18.83
            **({"admirals": appointing} if appointing else {})}


def _orders_template(state: Any, ask: Any) -> dict[str, Any]:
    naval: NavalState = state.naval
    static: NavalStatic = state.naval_static
    side = ask.side
    template: dict[str, Any] = {"fleets": {f: {"sortie": False, "route": [], "search": "never"}
                                           for f in sorted(f.id for f in naval.fleets.values() if f.side == side)},
                                "round_by_round": False}
    for fleet in sorted(f.id for f in naval.fleets.values() if f.side == side and f.arrives == state.turn):
        template["fleets"][fleet] = {"sortie": True, "route": [static.baltic_entry[0]], "search": "never"}  # RSR 19.2
    if side == "japan":
        template["merchants"] = {m: {"route": []} for m in sorted(naval.merchants)}
    else:  # RSR 4.11: the Russian routes follow sealed, so the Japanese signs his orders without seeing them
        template["routes"] = "sealed"
        for raw in template["fleets"].values():
            raw.pop("route", None)
    appointing = admirals.options(static, naval, side, state.turn)  # RSR 19.3
    if appointing:
        template["appoint"] = dict(appointing["policy"])
    return template


def _apply_orders(state: Any, ctx: Context, ask: Any, answer: Any) -> None:
    """RSR 4.11-4.12: the orders are checked and kept; what the side seals with them (routes, battle plan) is
    asked next; the dice they call for roll once all of it is in (:func:`run_orders`)."""
    naval: NavalState = state.naval
    side = ask.side
    signed = check_orders(answer, side)
    check_routes(state, side, signed)  # a route that could stall the game is refused before signing
    admirals.appoint(ctx, state.naval_static, naval, side, state.turn, signed.get("appoint"),
                     list(state.naval_static.admiral_track))  # RSR 19.3, RSR 8.79: before initiative (RSR 5.0)
    compose(state, ctx, side, signed)
    naval.orders[side] = signed
    sealed_routes = signed.get("routes") == "sealed"
    if not sealed_routes:
        check_arrivals(state, side, signed)
    load(state, ctx, signed.get("load") or {})
    if sealed_routes:  # the routes, sealed, come next, before any die of this side (RSR 4.11, RSR 7.1)
        naval.plan_queue.append(f"routes:{side}")
    if signed.get("battle_plan") == "sealed":  # the sealed plan comes before any die of this side (RSR 8.42)
        naval.plan_queue.append(f"seal:{side}")


SAILING_ORDERS = Decision(
    kind="sailing-orders", ids="t<turn>/naval/<side>/sailing-orders",
    case=lambda ask: "RSR 4.11" if ask.side == "russia" else "RSR 4.12",
    who="each side in turn, the Russian first (RSR 4.11, then 4.12)",
    prompt=lambda state, ask: (f"{'Russian' if ask.side == 'russia' else 'Japanese'} Naval Initiative Stage: sailing "
                               "orders for the whole Naval Sequence (or round_by_round: true)"),
    options=_orders_options, template=_orders_template, apply=_apply_orders,
    schema={"type": "object", "additionalProperties": False, "properties": {key: {} for key in sorted(TOP_KEYS)}},
    shape=f"sailing orders are a mapping with keys {', '.join(sorted(TOP_KEYS))}")


def _apply_routes(state: Any, ctx: Context, ask: Any, answer: Any) -> None:
    if isinstance(answer, Sealed):
        state.naval.route_unseals.append(ask.side)
        ctx.emit("sailing-orders", f"{ask.side} seals the routes of its sailing orders", "RSR 7.1",
                 side=ask.side, sealed=True)
    else:
        take_routes(state, ask.side, answer)


def _routes_options(state: Any, ask: Any) -> dict[str, Any]:
    naval: NavalState = state.naval
    static: NavalStatic = state.naval_static
    mine = [naval.fleets[f] for f in sorted(naval.fleets) if naval.fleets[f].side == ask.side
            and (not naval.fleets[f].arrives or naval.fleets[f].arrives == state.turn)]
    return {"fleets": {f.id: {"hex": f.hex if not f.arrives else None,
                              "next": list(static.baltic_entry) if f.arrives else static.neighbours(f.hex)}
                       for f in mine}}


def _routes_template(state: Any, ask: Any) -> dict[str, Any]:
    naval: NavalState = state.naval
    mine = [naval.fleets[f] for f in sorted(naval.fleets) if naval.fleets[f].side == ask.side
            and (not naval.fleets[f].arrives or naval.fleets[f].arrives == state.turn)]
    return {"fleets": {f.id: ([state.naval_static.baltic_entry[0]] if f.arrives else []) for f in mine}}


ROUTES = Decision(
    kind="naval-routes", ids="t<turn>/naval/<side>/naval-routes", case="RSR 7.1",
    who="a side whose sailing orders say routes: sealed, right after them (the board game keeps written orders "
        "secret; interpretations.md, 4.11-4.12)",
    prompt=lambda state, ask: ("the route of each fleet for the ten rounds (answer it sealed: the enemy sees it only "
                               "when you unseal it, after his sailing orders)"),
    options=_routes_options, template=_routes_template, sealable=True, apply=queued(_apply_routes),
    schema={"type": "object", "additionalProperties": False, "properties": {"fleets": {"type": "object"}}},
    shape="routes are {fleets: {fleet id: [naval hexes]}}")


def _apply_routes_unseal(state: Any, ctx: Context, ask: Any, answer: Any) -> None:
    take_routes(state, ask.side, answer)
    ctx.emit("sailing-orders", f"{ask.side} unseals the routes of its sailing orders", "RSR 7.1",
             side=ask.side, sealed=False)


ROUTES_UNSEAL = Decision(
    kind="naval-routes-unseal", ids="t<turn>/naval/<side>/naval-routes-unseal", case="RSR 7.1",
    who="a side that sealed its routes, once both sides have signed their sailing orders",
    prompt=lambda state, ask: "reveal the sealed routes of your sailing orders", unseals=True,
    apply=queued(_apply_routes_unseal),
    schema={"type": "object", "additionalProperties": False, "properties": {"fleets": {"type": "object"}}},
    shape="routes are {fleets: {fleet id: [naval hexes]}}")
