"""The Strategic Naval Sequence of Play as one stage of the game turn (RSR 4.1: 4.11-4.15).

Decisions: each side's sailing orders (Russia first, 4.11, then Japan, 4.12), or, for a side that asks
for it, its moves every round; everything else runs on its own from the orders and the dice.
"""

from __future__ import annotations

from typing import Any

from rsr.engine import Context, Request, Sealed
from rsr.errors import BadInput, RulesError
from rsr.rulesets.red_sun_rising.naval import (  # plans, succession, tactical: issue 13
    admirals,
    attrition,
    battle,
    initiative,
    mines,
    orders,
    plans,
    ports,
    succession,
    tactical,
    transport,
)
from rsr.rulesets.red_sun_rising.naval.data import NavalStatic
from rsr.rulesets.red_sun_rising.naval.search import search
from rsr.rulesets.red_sun_rising.naval.state import Fleet, Merchant, NavalState

ROUNDS = 10  # RSR 4.14, 7.0
SIDES = ("russia", "japan")
KINDS = ("sailing-orders", "naval-round", "naval-landings", "naval-disband")
BATTLE_KINDS = ("naval-range", "naval-targets", "naval-targets-unseal", "naval-torpedo", "naval-search-again",
                "naval-secondary", "naval-refuse")  # issue 13, hour by hour


def setup(state: Any, static: NavalStatic, spec: dict[str, Any], unit_factory: Any) -> NavalState:
    """RSR 19.1-19.2: fleets, admirals, ships and merchant fleets (with their cargo) from the scenario."""
    naval = NavalState()
    seen: set[str] = set()
    for fleet_id, raw in sorted((spec.get("fleets") or {}).items()):
        static.admiral(raw["admiral"])
        for ship_id in raw["ships"]:
            if static.ship(ship_id).side != raw["side"] or ship_id in seen:
                raise BadInput(f"naval set-up: {ship_id} is not a {raw['side']} ship, or is in two fleets")
            seen.add(ship_id)
        hex_number = int(raw["hex"])
        if hex_number not in static.hexes and not raw.get("arrives"):
            raise BadInput(f"naval set-up: {fleet_id} is in {hex_number}, not a naval hex")
        naval.fleets[fleet_id] = Fleet(fleet_id, raw["side"], raw["admiral"], hex_number, list(raw["ships"]),
                                       at_sea=bool(raw.get("at_sea", False)),
                                       morale=int(raw.get("morale", static.admiral(raw["admiral"]).initiative)),
                                       blockade=bool(raw.get("blockade", False)), arrives=int(raw.get("arrives", 0)))
    for merchant_id, raw in sorted((spec.get("merchant_fleets") or {}).items()):
        if merchant_id not in static.merchant_ids or int(raw["hex"]) not in static.hexes:
            raise BadInput(f"naval set-up: {merchant_id} is not a merchant fleet in a naval hex")
        cargo = list(raw.get("cargo", []))
        for unit_id in cargo:
            counter = state.static.counter(unit_id)
            if counter.side != "japan" or unit_id in state.units:
                raise BadInput(f"naval set-up: {unit_id} is not a Japanese unit free to embark")
            state.units[unit_id] = unit_factory(unit_id, counter)
        naval.merchants[merchant_id] = Merchant(merchant_id, int(raw["hex"]), cargo)
        transport.check_cargo(state, merchant_id, cargo)
    for unit_id, hex_number in sorted((spec.get("units") or {}).items()):
        counter = state.static.counter(unit_id)
        if counter.side != "japan" or unit_id in state.units or int(hex_number) not in static.hexes:
            raise BadInput(f"naval set-up: {unit_id} is not a Japanese unit free to wait in a naval hex")
        state.units[unit_id] = unit_factory(unit_id, counter)
        naval.ashore[unit_id] = int(hex_number)
    naval.in_port = {k: int(v) for k, v in sorted((spec.get("in_port") or {}).items())}
    naval.disabled = sorted(spec.get("disabled", []))
    naval.sunk = sorted(spec.get("sunk", []))
    naval.repairs = {k: int(v) for k, v in sorted((spec.get("repairs") or {}).items())}
    naval.mines = {str(k): int(v) for k, v in sorted((spec.get("mines") or {}).items())}
    naval.attrition_sinking_used = bool(spec.get("attrition_sinking_used", False))
    naval.naval_brigades = int(spec.get("naval_brigades", 0))
    ports.moor(static, naval, state.control, at_setup=True)  # RSR 18.2
    return naval


def start(state: Any, ctx: Context) -> None:
    """Start of the Naval Sequence: captures (18.2), home-port starts (7.0 errata), reset of the stage."""
    naval: NavalState = state.naval
    static: NavalStatic = state.naval_static
    ports.capture(ctx, static, naval, state.control)
    ports.moor(static, naval, state.control)  # RSR 18.2
    admirals.turn_record(ctx, static, naval, state.turn)  # RSR 17.3, 19.3: the Turn Record Track's admirals
    naval.phase, naval.orders_side, naval.orders, naval.round, naval.impulse = "orders", 0, {}, 0, "russia"
    naval.landed, naval.transfer_done, naval.disband_done = [], False, False
    naval.plan_queue, naval.plan_unseals, naval.battle, naval.battle_case = [], [], None, ""  # issue 13
    naval.route_unseals = []  # issue 22
    for fleet in naval.fleets.values():
        fleet.moved, fleet.returning, fleet.route_index, fleet.flip_in_port = False, False, 0, False
        fleet.broke_off = False
        fleet.at_sea = False
    for merchant in naval.merchants.values():
        merchant.moved, merchant.route_index = False, 0
        merchant.home_start = merchant.hex in static.home_ports  # RSR 7.0 errata
    if state.turn == initiative.FEBRUARY_1904 and surprise_flotillas(static, naval):
        naval.phase = "surprise"  # RSR 18.83 with 19.0: the game begins with the surprise torpedo attack


def surprise_flotillas(static: NavalStatic, naval: NavalState) -> list[str]:
    """RSR 18.83: the Japanese torpedo flotillas (not destroyer flotillas) on the map."""
    return sorted(s for f in on_map_fleets(naval, "japan") for s in f.ships
                  if s not in naval.sunk and static.ship(s).cls == "TF")


def surprise_targets(static: NavalStatic, naval: NavalState) -> list[str]:
    """RSR 18.83: every Russian capital ship in the game (on the map)."""
    return sorted(s for f in on_map_fleets(naval, "russia") for s in f.ships
                  if s not in naval.sunk and static.ship(s).capital)


def _season(state: Any) -> str:
    info = state.static.turn_info(state.turn)
    return info.season if info else "summer"


def on_map_fleets(naval: NavalState, side: str | None = None) -> list[Fleet]:
    return [naval.fleets[f] for f in sorted(naval.fleets)
            if (side is None or naval.fleets[f].side == side) and not naval.fleets[f].arrives]


def next_request(state: Any, base: str) -> Request | None:
    naval: NavalState = state.naval
    static: NavalStatic = state.naval_static
    if naval.battle is not None and naval.battle.asking is not None:  # issue 13: an admiral asked hour by hour
        return _battle_request(state, base)
    if naval.raid_asking:  # RSR 7.2
        return raid_request(state, base)
    if naval.phase == "surprise":  # RSR 18.83, 19.0: before the Russian writes his first sailing orders
        return Request(id=f"{base}/japan/surprise-attack", side="japan", kind="naval-surprise-attack",
                       prompt="February 1904: the surprise torpedo attack on Port Arthur opens the game; give each "
                              "torpedo flotilla that attacks its Russian capital ship",
                       case="RSR 18.83", options={"flotillas": surprise_flotillas(static, naval),
                                                  "targets": surprise_targets(static, naval)},
                       template={"attacks": {}})
    if naval.phase == "orders" and naval.plan_queue:
        kind, side = naval.plan_queue[0].split(":")
        if kind in ("routes", "routes-unseal"):  # issue 22
            return _routes_request(state, base, side, kind == "routes-unseal")
        return _plan_request(base, naval.plan_queue[0])
    if naval.phase == "orders":
        side = SIDES[naval.orders_side]
        fleets = {f.id: {"hex": f.hex, "admiral": f.admiral, "ships": list(f.ships), "blockade": f.blockade,
                         "arrives": f.arrives}
                  for f in state.naval.fleets.values() if f.side == side}
        arriving = {f.id: {"enters_on": list(static.baltic_entry)} for f in naval.fleets.values()
                    if f.side == side and f.arrives == state.turn}
        merchants = {m.id: {"hex": m.hex, "cargo": list(m.cargo)} for m in naval.merchants.values()} \
            if side == "japan" else {}
        template: dict[str, Any] = {"fleets": {f: {"sortie": False, "route": [], "search": "never"}
                                               for f in sorted(fleets)}, "round_by_round": False}
        for fleet_id in sorted(arriving):  # RSR 19.2: it must enter; the player picks the hex and the route
            template["fleets"][fleet_id] = {"sortie": True, "route": [static.baltic_entry[0]], "search": "never"}
        if side == "japan":
            template["merchants"] = {m: {"route": []} for m in sorted(merchants)}
        else:  # issue 22: the Russian routes follow sealed, so the Japanese signs his orders without seeing them
            template["routes"] = "sealed"
            for raw in template["fleets"].values():
                raw.pop("route", None)
        appointing = admirals.options(static, naval, side, state.turn)  # RSR 19.3
        if appointing:
            template["appoint"] = dict(appointing["policy"])
        return Request(id=f"{base}/{side}/sailing-orders", side=side, kind="sailing-orders",
                       prompt=f"{'Russian' if side == 'russia' else 'Japanese'} Naval Initiative Stage: sailing "
                              "orders for the whole Naval Sequence (or round_by_round: true)",
                       case="RSR 4.11" if side == "russia" else "RSR 4.12",
                       options={"fleets": fleets, "arriving": arriving, "merchants": merchants,
                                "mines": dict(naval.mines), "disabled": list(naval.disabled),  # 7.73, 18.83
                                **({"admirals": appointing} if appointing else {})},
                       template=template)
    if naval.phase == "rounds" and naval.impulse in SIDES and _asks(naval, naval.impulse):
        side = naval.impulse
        moves: dict[str, list[int]] = {f.id: [f.hex] + static.neighbours(f.hex)
                                       for f in on_map_fleets(naval, side) if f.at_sea}
        moves.update({f.id: list(static.baltic_entry) for f in naval.fleets.values()  # RSR 19.2
                      if f.side == side and f.arrives == state.turn and f.at_sea and naval.round == 1})
        shipping: dict[str, list[int]] = {m.id: [m.hex] + static.neighbours(m.hex) for m in naval.merchants.values()
                                          if side == "japan" and (naval.round > 1 or m.home_start)}
        return Request(id=f"{base}/round{naval.round}/{side}", side=side, kind="naval-round",
                       prompt=f"naval movement round {naval.round} of {ROUNDS}: {side} moves", case="RSR 7.1",
                       options={"fleets": moves, "merchants": shipping, "enemy": _positions(naval, _enemy(side))},
                       template={"fleets": {f: m[0] for f, m in moves.items()},
                                 "merchants": {m: h[0] for m, h in shipping.items()}, "search": [], "in_port": []})
    return None


def _asks(naval: NavalState, side: str) -> bool:
    return bool(naval.orders.get(side, {}).get("round_by_round"))


def _enemy(side: str) -> str:
    return "japan" if side == "russia" else "russia"


def _positions(naval: NavalState, side: str) -> dict[str, int]:
    return {f.id: f.hex for f in on_map_fleets(naval, side) if f.at_sea}


def apply(state: Any, ctx: Context, request: Request, answer: Any) -> None:
    naval: NavalState = state.naval
    if request.kind == "sailing-orders":
        side = request.side
        signed = orders.check_orders(answer, side)
        check_routes(state, side, signed)  # issue 22: a route that could stall the game is refused before signing
        admirals.appoint(ctx, state.naval_static, naval, side, state.turn, signed.get("appoint"),
                         list(state.naval_static.admiral_track))  # RSR 19.3, 8.79: before initiative (5.0)
        _compose(state, ctx, side, signed)
        naval.orders[side] = signed
        sealed_routes = signed.get("routes") == "sealed"
        if not sealed_routes:
            _check_arrivals(state, side, signed)
        _load(state, ctx, signed.get("load") or {})
        if sealed_routes:  # issue 22: the routes, sealed, come next, before any die of this side (RSR 4.11, 7.1)
            naval.plan_queue.append(f"routes:{side}")
        if signed.get("battle_plan") == "sealed":  # issue 13: the sealed plan comes before any die of this side
            naval.plan_queue.append(f"seal:{side}")
        _orders_done(state, ctx, side)
        return
    if request.kind == "naval-routes":  # issue 22: the routes, sealed (or in clear), right after the orders
        naval.plan_queue.pop(0)
        if isinstance(answer, Sealed):
            naval.route_unseals.append(request.side)
            ctx.emit("sailing-orders", f"{request.side} seals the routes of its sailing orders", "RSR 7.1",
                     side=request.side, sealed=True)
        else:
            _take_routes(state, request.side, answer)
        _orders_done(state, ctx, request.side)
        return
    if request.kind == "naval-routes-unseal":
        naval.plan_queue.pop(0)
        _take_routes(state, request.side, answer)
        ctx.emit("sailing-orders", f"{request.side} unseals the routes of its sailing orders", "RSR 7.1",
                 side=request.side, sealed=False)
        _after_orders(naval)
        return
    if request.kind == "naval-surprise-attack":  # RSR 18.83 with 19.0
        if naval.phase != "surprise":
            raise RulesError("the surprise torpedo attack is made once, when the game begins (RSR 18.83, 19.0)")
        if not isinstance(answer, dict) or set(answer) != {"attacks"} or not isinstance(answer["attacks"], dict) \
                or not all(isinstance(k, str) and isinstance(v, str) for k, v in answer["attacks"].items()):
            raise RulesError("a surprise attack answer is {attacks: {Japanese torpedo flotilla: Russian capital ship}}")
        _surprise_attack(state, ctx, dict(answer["attacks"]))
        naval.phase = "orders"
        return
    if request.kind == "battle-plan":  # issue 13: the plan, sealed (or in clear), right after the sailing orders
        naval.plan_queue.pop(0)
        if isinstance(answer, Sealed):
            naval.plan_unseals.append(request.side)
            ctx.emit("battle-plan", f"{request.side} seals its battle plan", "RSR 8.42", side=request.side,
                     sealed=True)
        else:
            naval.orders[request.side]["battle_plan"] = plans.check_plan(answer, request.side)
        _orders_done(state, ctx, request.side)
        return
    if request.kind == "battle-plan-unseal":
        naval.plan_queue.pop(0)
        naval.orders[request.side]["battle_plan"] = plans.check_plan(answer, request.side)
        ctx.emit("battle-plan", f"{request.side} unseals its battle plan", "RSR 8.42", side=request.side,
                 sealed=False)
        _after_orders(naval)
        return
    if request.kind in BATTLE_KINDS:  # issue 13: an hourly answer; advance() fights on
        if naval.battle is None or naval.battle.asking is None or naval.battle.asking["kind"] != request.kind:
            raise RulesError(f"no naval battle waits for {request.kind}")
        tactical.take_answer(state.naval_static, naval.battle, request.kind, request.side, answer,
                             isinstance(answer, Sealed))
        return
    if request.kind == "naval-raid":  # RSR 7.2: the raid resumes in advance()
        apply_raid(state, answer)
        return
    if request.kind == "naval-round":
        moves = orders.check_round(answer)
        _move_side(state, ctx, request.side, moves)
        naval.impulse = "japan" if request.side == "russia" else "raid"
        return
    raise RulesError(f"no naval request of kind {request.kind!r}")


def _finish_orders(state: Any, ctx: Context, side: str, signed: dict[str, Any]) -> None:
    """The dice a side's sailing orders call for: initiative (4.11-4.12), then 7.73 errata (18.83 comes first,
    as its own request)."""
    _initiative(state, ctx, side, signed)
    _leave_behind(state, ctx, side, signed)
    state.naval.orders_side += 1


def _orders_done(state: Any, ctx: Context, side: str) -> None:
    """Once a side's sailing orders and whatever it seals with them (routes, battle plan) are in: its dice."""
    naval: NavalState = state.naval
    if naval.plan_queue and naval.plan_queue[0].split(":")[0] in ("routes", "seal"):
        return
    _finish_orders(state, ctx, side, naval.orders[side])
    _after_orders(naval)


def _take_routes(state: Any, side: str, answer: Any) -> None:
    """Issue 22: the routes of sealed sailing orders, checked as the orders' own routes are (RSR 7.1, 19.2)."""
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
    _check_arrivals(state, side, signed)
    naval.orders[side]["fleets"] = merged


def _routes_request(state: Any, base: str, side: str, unseal: bool) -> Request:
    """Issue 22: the routes of a side's sailing orders, sealable, so the enemy signs his orders without them
    (the board game keeps written orders secret; interpretations.md, 4.11-4.12)."""
    if unseal:
        return Request(id=f"{base}/{side}/naval-routes-unseal", side=side, kind="naval-routes-unseal",
                       prompt="reveal the sealed routes of your sailing orders", case="RSR 7.1",
                       unseals=f"{base}/{side}/naval-routes")
    naval: NavalState = state.naval
    static: NavalStatic = state.naval_static
    mine = [naval.fleets[f] for f in sorted(naval.fleets) if naval.fleets[f].side == side
            and (not naval.fleets[f].arrives or naval.fleets[f].arrives == state.turn)]
    options = {f.id: {"hex": f.hex if not f.arrives else None,
                      "next": list(static.baltic_entry) if f.arrives else static.neighbours(f.hex)} for f in mine}
    template = {f.id: ([static.baltic_entry[0]] if f.arrives else []) for f in mine}
    return Request(id=f"{base}/{side}/naval-routes", side=side, kind="naval-routes", case="RSR 7.1",
                   prompt="the route of each fleet for the ten rounds (answer it sealed: the enemy sees it only when "
                          "you unseal it, after his sailing orders)", options={"fleets": options},
                   template={"fleets": template}, sealable=True)


def _plan_request(base: str, entry: str) -> Request:
    """Issue 13: a side that wrote ``battle_plan: sealed`` in its sailing orders seals its plan next; once both
    sides have signed their sailing orders, each sealed plan is unsealed before the Naval Search Stage."""
    kind, side = entry.split(":")
    if kind == "seal":
        return Request(id=f"{base}/{side}/battle-plan", side=side, kind="battle-plan",
                       prompt="battle plan for every naval battle of this Naval Sequence (answer it sealed: the "
                              "enemy sees it only when you unseal it, after both sides' sailing orders)",
                       case="RSR 8.42", options={"keys": sorted(plans.PLAN_KEYS)},
                       template=dict(plans.DEFAULT_PLAN), sealable=True)
    return Request(id=f"{base}/{side}/battle-plan-unseal", side=side, kind="battle-plan-unseal",
                   prompt="reveal your sealed battle plan", case="RSR 8.42", unseals=f"{base}/{side}/battle-plan")


def _after_orders(naval: NavalState) -> None:
    """After both sailing orders and any sealed plans: unseal the plans, then the Naval Search Stage."""
    if naval.plan_queue or naval.orders_side < len(SIDES):
        return
    if naval.plan_unseals or naval.route_unseals:
        naval.plan_queue = [f"routes-unseal:{side}" for side in naval.route_unseals] \
            + [f"unseal:{side}" for side in naval.plan_unseals]
        naval.plan_unseals, naval.route_unseals = [], []
        return
    naval.phase = "search"


def _compose(state: Any, ctx: Context, side: str, signed: dict[str, Any]) -> None:
    """RSR 7.7, 7.71: re-arrange ships among fleets that start the stage in one hex; the Japanese may
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
    """RSR 7.7 with 7.71 errata: the second fleet is led by a Japanese admiral in the game who commands no other
    fleet (not one killed, 8.75, gone from the game, 17.3, or still to come by the Turn Record Track, 19.3)."""
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
    """RSR 7.1, 19.2: every route of the sailing orders goes hex by hex to an adjacent sea hex (or stays), from the
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


def _check_arrivals(state: Any, side: str, signed: dict[str, Any]) -> None:
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


def _load(state: Any, ctx: Context, load: dict[str, list[str]]) -> None:
    """RSR 7.4, 7.41, 7.43, 17.11: a merchant fleet embarks land units that start the stage in its hex (or, in a
    home port, command units that arrived by the Turn Record Track), at most four command points a stage."""
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


def _leave_behind(state: Any, ctx: Context, side: str, signed: dict[str, Any]) -> None:
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


def _initiative(state: Any, ctx: Context, side: str, signed: dict[str, Any]) -> None:
    """RSR 4.11-4.12, 5.0: roll for each fleet that wishes to sortie."""
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
            initiative.roll_initiative(ctx, static, fleet, _season(state), state.turn)


def advance(state: Any, ctx: Context) -> bool:
    """Run the Naval Sequence up to the next decision; True once it is over (4.15 done)."""
    naval: NavalState = state.naval
    if naval.phase == "orders":
        return False
    if naval.phase == "search":
        if not _search_stage(state, ctx):
            return False  # issue 13: a battle waits for an admiral's hourly answer
        naval.phase, naval.round, naval.impulse = "rounds", 1, "russia"
        ctx.emit("round", f"naval movement round 1 of {ROUNDS}", "RSR 4.14", round=1)
    while naval.phase == "rounds":
        if naval.impulse in SIDES:
            side = naval.impulse
            if _asks(naval, side):
                return False
            _move_side(state, ctx, side, _moves_from_orders(state, side))
            naval.impulse = "japan" if side == "russia" else "raid"
            continue
        if naval.impulse == "raid":
            if not _raid(state, ctx):
                return False  # RSR 7.2: the Russian picks which merchant fleet a raid sinks
            naval.impulse = "search"
            continue
        if not _search_impulse(state, ctx):
            return False  # issue 13: a battle waits for an admiral's hourly answer
        if naval.round == 1:
            for fleet in on_map_fleets(naval, "japan"):
                initiative.blockade_initiative(ctx, fleet)
        if naval.round >= ROUNDS:
            _end_of_movement(state, ctx)
            naval.phase = "done"
            return True
        naval.round += 1
        naval.impulse = "russia"
        ctx.emit("round", f"naval movement round {naval.round} of {ROUNDS}", "RSR 4.14", round=naval.round)
    return naval.phase == "done"


def _searches_wanted(state: Any, side: str, fleet: Fleet) -> bool:
    rule = (state.naval.orders.get(side, {}).get("fleets") or {}).get(fleet.id, {}).get("search", "never")
    return bool(rule == "always" or fleet.id in state.naval.orders.get(side, {}).get("_round_search", []))


def _search_stage(state: Any, ctx: Context) -> bool:
    """RSR 4.13: opposing at-sea fleets in one hex may search (the Japanese first, 6.0)."""
    return _searches(state, ctx, "RSR 4.13")


def _search_impulse(state: Any, ctx: Context) -> bool:
    """RSR 7.3: the same after every raiding impulse."""
    return _searches(state, ctx, "RSR 7.3")


def _searches(state: Any, ctx: Context, case: str) -> bool:
    """False while a battle waits for an hourly answer (issue 13): the next pass resumes it, then the hexes
    after the battle's hex."""
    naval: NavalState = state.naval
    static: NavalStatic = state.naval_static
    after = -1
    if naval.battle is not None:
        if not _fight_on(state, ctx):
            return False
        after = naval.battle.hex
        naval.battle, naval.battle_case = None, ""
    for hex_number in sorted({f.hex for f in on_map_fleets(naval) if f.at_sea}):
        if hex_number <= after:
            continue
        here = [f for f in on_map_fleets(naval) if f.at_sea and f.hex == hex_number]
        if len({f.side for f in here}) < 2:
            continue
        for side in ("japan", "russia"):  # RSR 6.0: the Japanese may always search first
            searchers = [f for f in here if f.side == side and _searches_wanted(state, side, f)]
            if not searchers:
                continue
            engine = battle.require_battle(hex_number, f"a {side} search ({case})")
            ships = [s for f in searchers for s in f.ships if s not in naval.sunk]
            found, weather_now = search(ctx, static, hex_number, side, ships)
            if found:
                args = (ctx, static, hex_number, [f for f in here if f.side == "russia"],
                        [f for f in here if f.side == "japan"], weather_now, _battle_setting(state, hex_number))
                if engine is not tactical.fight:
                    _apply_battle(state, ctx, engine(*args))
                    break
                started = tactical.begin(*args)  # issue 13: a battle that may stop at an hourly request
                if isinstance(started, battle.BattleResult):
                    _apply_battle(state, ctx, started)
                    break
                naval.battle, naval.battle_case = started, case
                if not _fight_on(state, ctx):
                    return False
                naval.battle, naval.battle_case = None, ""
                break
    naval.orders.get("russia", {}).pop("_round_search", None)
    naval.orders.get("japan", {}).pop("_round_search", None)
    return True


def _fight_on(state: Any, ctx: Context) -> bool:
    """Issue 13: fight the battle under way until it is over (its result applied) or waits for an answer."""
    result = tactical.run(ctx, state.naval_static, state.naval.battle)
    if result is None:
        return False
    _apply_battle(state, ctx, result)
    return True


def _battle_request(state: Any, base: str) -> Request:
    """Issue 13: the hourly request of a battle whose admiral's plan says ``ask`` (RSR 8.42, 8.51, 8.6)."""
    naval: NavalState = state.naval
    fight = naval.battle
    ask = fight.asking
    side, kind = ask["side"], ask["kind"]
    where = f"{base}/battle/r{naval.round}/hex{fight.hex}/h{fight.hour}/{side}"
    static: NavalStatic = state.naval_static

    def options() -> dict[str, Any]:  # read only when a person or a bot looks (Lazy)
        return tactical.request_options(static, fight, side)

    if kind == "naval-range":
        allowance = tactical.opening_allowance(static, fight.forces[side])
        return Request(id=f"{where}/range", side=side, kind=kind, case="RSR 8.42", options=options,
                       prompt=f"naval battle, hour {fight.hour} of {fight.hours}: move the range (now {fight.range}, "
                              f"by up to {allowance} boxes): close, hold, open or a number of boxes",
                       template={"range": "hold"})
    if kind == "naval-targets":
        return Request(id=f"{where}/targets", side=side, kind=kind, case="RSR 8.51", options=options,
                       prompt=f"naval battle, hour {fight.hour}: the target of each capital ship (its opposite "
                              "number or the box either side)" + (" - you may seal it" if ask["sealable"] else ""),
                       template={"targets": {}, "rule": "opposite"}, sealable=bool(ask["sealable"]))
    if kind == "naval-targets-unseal":
        return Request(id=f"{where}/targets-unseal", side=side, kind=kind, case="RSR 8.51",
                       prompt=f"naval battle, hour {fight.hour}: reveal your sealed targets",
                       unseals=f"{where}/targets")
    if kind == "naval-refuse":
        return Request(id=f"{where}/refuse", side=side, kind=kind, case="RSR 8.1", options=options,
                       prompt=f"the enemy has found your fleet in naval hex {fight.hex}, a friendly port: refuse "
                              "combat (turn to the in-Port side, one morale less) or fight?",
                       template={"refuse": False})
    if kind == "naval-search-again":
        return Request(id=f"{where}/search", side=side, kind=kind, case="RSR 8.84", options=options,
                       prompt=f"naval battle, hour {fight.hour}: the enemy is out of sight ({fight.weather}, range "
                              f"{fight.range}): search for him?", template={"search": True})
    if kind == "naval-secondary":
        return Request(id=f"{where}/secondary", side=side, kind=kind, case="RSR 8.48", options=options,
                       prompt=f"naval battle, hour {fight.hour}: move Secondary Force ships to other boxes (ships "
                              "not named stay)", template={"boxes": {}})
    return Request(id=f"{where}/torpedo", side=side, kind=kind, case="RSR 8.6", options=options,
                   prompt=f"naval battle, hour {fight.hour}: your torpedo attack option (range {fight.range})",
                   template={"attack": False, "flotillas": "all", "target": "capital"})


def _surprise_attack(state: Any, ctx: Context, targets: dict[str, str]) -> None:
    """RSR 18.83 with 19.0 (issue 22): in February 1904, before the Russian sailing orders, each Japanese torpedo
    flotilla on the map may torpedo any Russian capital ship in the game, once (interpretations.md, 18.83)."""
    naval: NavalState = state.naval
    static: NavalStatic = state.naval_static
    boats, capital = set(surprise_flotillas(static, naval)), set(surprise_targets(static, naval))
    for boat, target in sorted(targets.items()):
        if boat not in boats:
            raise RulesError(f"{boat} is not a Japanese torpedo flotilla on the map (RSR 18.83: destroyer flotillas "
                             "do not make the surprise attack)")
        if target not in capital:
            raise RulesError(f"{target} is not a Russian capital ship in the game (RSR 18.83)")
    if not targets:
        ctx.emit("naval-surprise", "the Japanese makes no surprise torpedo attack", "RSR 18.83")
        return
    result = tactical.surprise_torpedo_attack(ctx, static, dict(targets), list(naval.disabled))
    naval.disabled += [s for s in result.disabled if s not in naval.disabled]
    naval.sunk += [s for s in result.sunk if s not in naval.sunk]
    naval.disabled = [s for s in naval.disabled if s not in naval.sunk]


def _battle_setting(state: Any, hex_number: int) -> battle.BattleSetting:
    """Issue 13: the battle plans signed with the sailing orders, the ships already out, the port sides (8.1)."""
    naval: NavalState = state.naval
    static: NavalStatic = state.naval_static
    signed = {side: naval.orders[side]["battle_plan"] for side in SIDES
              if isinstance(naval.orders.get(side), dict) and (isinstance(naval.orders[side].get("battle_plan"), dict)
                                                               or naval.orders[side].get("battle_plan") == plans.ASK)}
    return battle.BattleSetting(plans=signed, disabled=tuple(naval.disabled), sunk=tuple(naval.sunk),
                                port_sides=tuple(side for side in SIDES
                                                 if attrition.friendly_port(static, state.control, hex_number, side)))


def _apply_battle(state: Any, ctx: Context, result: battle.BattleResult) -> None:
    naval: NavalState = state.naval
    for ship_id in result.disabled:
        if ship_id not in naval.disabled:
            naval.disabled.append(ship_id)
    naval.sunk += [s for s in result.sunk if s not in naval.sunk]
    naval.disabled = [s for s in naval.disabled if s not in naval.sunk]  # issue 13: a sunk ship is not repaired
    for fleet_id in result.to_port:  # RSR 8.1: refused in its friendly port
        if fleet_id in naval.fleets:
            naval.fleets[fleet_id].at_sea = False
    for fleet_id, morale in sorted(result.morale.items()):
        if fleet_id in naval.fleets:
            naval.fleets[fleet_id].morale = morale
    for fleet_id in result.withdraws:
        if fleet_id in naval.fleets:
            naval.fleets[fleet_id].returning = True  # RSR 8.76 errata: home by the shortest path
            naval.fleets[fleet_id].broke_off = True  # ... and no raiding, whatever a new admiral does to morale
            fleet = naval.fleets[fleet_id]
            if attrition.friendly_port(state.naval_static, state.control, fleet.hex, fleet.side):
                fleet.at_sea = False  # issue 13: already in its nearest friendly port (interpretations.md, 8.76)
    for fleet_id, dead in sorted(result.admirals_killed.items()):  # RSR 8.75, 19.3 (issue 13)
        fleet = naval.fleets[fleet_id]
        naval.dead_admirals.append(dead)
        in_command = sorted(f.admiral for f in naval.fleets.values())
        fleet.admiral, why = succession.successor(state.naval_static, list(state.naval_static.admiral_track),
                                                  state.turn, fleet.side, naval.dead_admirals, in_command,
                                                  naval.reserve, naval.withdrawn)
        if fleet.admiral in naval.reserve:  # RSR 19.3: an admiral waiting without a fleet (admirals.py)
            naval.reserve.remove(fleet.admiral)
        fleet.morale = succession.morale_with(state.naval_static, fleet.morale, dead, fleet.admiral)
        ctx.emit("admiral-succession", f"{fleet_id}: {dead} is dead; {fleet.admiral} takes command: {why}; "
                 f"morale {fleet.morale} (RSR 8.79)", "RSR 19.3", fleet=fleet_id, dead=dead, admiral=fleet.admiral,
                 morale=fleet.morale)
    ctx.emit("naval-battle", "naval battle fought", "RSR 8.0", sunk=list(result.sunk), disabled=list(result.disabled))


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


def _nearest_port_step(state: Any, fleet: Fleet) -> int:
    """The step the sailing orders take home: the next hex of the fleet's own route when it lies on a shortest
    path (8.76 errata leaves the path to the player), else the lowest-numbered such hex."""
    steps = homeward_steps(state, fleet)
    route = ((state.naval.orders.get(fleet.side, {}).get("fleets") or {}).get(fleet.id) or {}).get("route") or []
    planned = route[fleet.route_index] if fleet.route_index < len(route) else None
    return planned if planned in steps else steps[0]


def _moves_from_orders(state: Any, side: str) -> dict[str, Any]:
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
            near = [e for e in on_map_fleets(naval, _enemy(side)) if e.at_sea and dist.get(e.hex, 99) <= within]
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
            moves["fleets"][fleet.id] = _nearest_port_step(state, fleet)
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


def _move_side(state: Any, ctx: Context, side: str, moves: dict[str, Any]) -> None:
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
        mines.strike(ctx, static, naval, fleet, fleet.hex, "leaves")
        frm, fleet.hex, fleet.moved = fleet.hex, target, True
        ctx.emit("naval-move", f"round {naval.round}: {fleet_id} sails {frm} -> {target}", "RSR 7.1",
                 fleet=fleet_id, frm=frm, to=target, round=naval.round)
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


def raid_victims(naval: NavalState, hex_number: int) -> list[str]:
    return sorted(m for m, merchant in naval.merchants.items() if merchant.hex == hex_number)


def raid_by_policy(naval: NavalState, hex_number: int, rule: str) -> str:
    """Standing policy ``raid`` (RSR 7.2): ``most-cargo`` sinks the merchant fleet carrying the most land units
    (ties: lowest id), ``lowest-id`` the lowest id."""
    victims = raid_victims(naval, hex_number)
    if rule == "most-cargo":
        return sorted(victims, key=lambda m: (-len(naval.merchants[m].cargo), m))[0]
    return victims[0]


def raid_request(state: Any, base: str) -> Request | None:
    """RSR 7.2: which merchant fleet of the hex a raid sinks is the Russian player's choice."""
    naval: NavalState = state.naval
    if not naval.raid_asking:
        return None
    hex_number = naval.raid_asking
    victims = {m: list(naval.merchants[m].cargo) for m in raid_victims(naval, hex_number)}
    return Request(id=f"{base}/round{naval.round}/russia/raid/hex{hex_number}", side="russia", kind="naval-raid",
                   prompt=f"round {naval.round}: your fleet raids naval hex {hex_number}: which merchant fleet sinks?",
                   case="RSR 7.2", options={"hex": hex_number, "merchants": victims},
                   template={"sink": raid_by_policy(naval, hex_number, "most-cargo")}, policy="raid")


def apply_raid(state: Any, answer: Any) -> None:
    naval: NavalState = state.naval
    hex_number = naval.raid_asking
    if not hex_number:
        raise RulesError("no raid waits for a choice (RSR 7.2)")
    victims = raid_victims(naval, hex_number)
    if not isinstance(answer, dict) or set(answer) != {"sink"} or answer["sink"] not in victims:
        raise RulesError(f"a raid answer is {{sink: merchant fleet}}, one of {', '.join(victims)} (RSR 7.2)")
    naval.raid_choices[str(hex_number)] = str(answer["sink"])
    naval.raid_asking = 0


def _raid(state: Any, ctx: Context) -> bool:
    """RSR 7.2 (with errata): a Russian at-sea fleet with morale above zero, which has not broken off a battle
    at morale zero this stage (8.76 errata), sinks one merchant fleet in its hex, whatever Japanese fleets are
    there; the cargo goes with it (7.42). Where the hex holds several, the Russian picks (request ``naval-raid``,
    policy ``raid``); False while that choice is awaited."""
    naval: NavalState = state.naval
    raiders = [f for f in on_map_fleets(naval, "russia") if f.at_sea and f.morale > 0 and not f.broke_off]
    for hex_number in sorted({f.hex for f in raiders}):
        victims = raid_victims(naval, hex_number)
        if not victims or f"{hex_number}:done" in naval.raid_choices:
            continue  # nothing to sink, or sunk already before a choice in a later hex was asked
        chosen = victims[0] if len(victims) == 1 else naval.raid_choices.get(str(hex_number))
        if chosen is None:
            naval.raid_asking = hex_number
            return False
        merchant = naval.merchants.pop(chosen)
        naval.raid_choices[f"{hex_number}:done"] = chosen
        raider = next(f.id for f in raiders if f.hex == hex_number)
        for unit_id in merchant.cargo:
            state.units[unit_id].steps = 0
        state.merchant_fleets.pop(merchant.id, None)
        ctx.emit("raid", f"round {naval.round}: {raider} raids naval hex {hex_number}: merchant fleet {merchant.id} "
                 "is sunk" + (f" with {', '.join(merchant.cargo)}" if merchant.cargo else ""), "RSR 7.2",
                 fleet=raider, hex=hex_number, merchant=merchant.id, cargo=list(merchant.cargo), round=naval.round)
    naval.raid_choices = {}
    return True


def _end_of_movement(state: Any, ctx: Context) -> None:
    """After round 10: blockade (15.0), mines (16.0), lost at sea (15.2), in-port side (4.14), attrition (4.15)."""
    naval: NavalState = state.naval
    static: NavalStatic = state.naval_static
    season = _season(state)
    chosen = naval.orders.get("japan", {}).get("blockade_support") or {}
    support = attrition.blockade_support(static, naval, on_map_fleets(naval, "japan"), state.control, dict(chosen),
                                         state.merchant_fleets)  # RSR 15.0, 10.26: one merchant fleet each
    for fleet in on_map_fleets(naval, "japan"):
        fleet.blockade = fleet.id in support
        if fleet.blockade:
            ctx.emit("blockade", f"{fleet.id} is on blockade in naval hex {fleet.hex}, supported by merchant fleet "
                     f"{support[fleet.id]}", "RSR 15.0", fleet=fleet.id, hex=fleet.hex, merchant=support[fleet.id])
    state.blockade_fleets = sorted(support.values())  # RSR 10.26: only these feed no land unit
    for fleet in on_map_fleets(naval, "japan"):
        wanted = (naval.orders.get("japan", {}).get("fleets") or {}).get(fleet.id, {}).get("lay_mines", True)
        mines.lay_mines(ctx, static, naval, fleet, bool(wanted))
    attrition.lost_at_sea(ctx, static, naval, state.control, season, state.units, state.merchant_fleets,
                          sorted(support.values()))
    for fleet in on_map_fleets(naval):
        fleet.at_sea = False  # RSR 4.14: every fleet ends on its in-Port side
        back = sorted(s for s, h in naval.in_port.items() if h == fleet.hex and s not in naval.sunk)
        if back:  # RSR 7.71: ships in port rejoin the fleet that comes back to them
            fleet.ships += back
            for ship_id in back:
                del naval.in_port[ship_id]
    ports.moor(static, naval, state.control)  # RSR 18.2: the ports each fleet now lies in
    ctx.emit("stage", "Naval Movement Stage ends", "RSR 4.14")
    order = naval.orders.get("japan", {}).get("attrition_order") or []
    for fleet in on_map_fleets(naval, "japan"):
        if fleet.blockade:
            attrition.blockade_attrition(ctx, static, naval, fleet, season, list(order))
    ctx.emit("stage", "Attrition Stage ends", "RSR 4.15")


# -- the Japanese Reinforcement Stage: transfer to the land map (7.5) ---------------------------------------

def landing_request(state: Any, base: str) -> Request | None:
    naval: NavalState | None = state.naval
    if naval is None or naval.transfer_done:
        return None
    options = _landing_options(state)
    if not options:
        return None
    return Request(id=f"{base}/landings", side="japan", kind="naval-landings",
                   prompt="Japanese Reinforcement Stage: merchant fleets in coded hexes may transfer to the land map "
                          "with their cargo", case="RSR 7.5",
                   options={"merchants": options}, template={"landings": {}})


def _landing_options(state: Any) -> dict[str, Any]:
    naval: NavalState = state.naval
    static: NavalStatic = state.naval_static
    out = {}
    for merchant in [naval.merchants[m] for m in sorted(naval.merchants)]:
        code = static.code_of(merchant.hex)
        if code is None or merchant.id in state.merchant_fleets:
            continue
        out[merchant.id] = {"code": code, "cargo": list(merchant.cargo),
                            "hexes": transport.landing_hexes(state, code, _season(state))}
    return out


def apply_landings(state: Any, ctx: Context, answer: Any) -> None:
    """RSR 7.5, 7.44-7.45, 15.21: place the merchant counter and its cargo on the chosen coastal hex."""
    naval: NavalState = state.naval
    if not isinstance(answer, dict) or not isinstance(answer.get("landings", {}), dict) or set(answer) - {"landings"}:
        raise RulesError("a landing answer is {landings: {merchant fleet: land hex}}")
    options = _landing_options(state)  # in winter only friendly ports (RSR 7.5; interpretations.md, 7.5)
    for merchant_id, hex_id in sorted(answer.get("landings", {}).items()):
        if merchant_id not in options:
            raise RulesError(f"{merchant_id} is not a merchant fleet in a coded hex (RSR 7.4, 7.5)")
        if str(hex_id) not in options[merchant_id]["hexes"]:
            raise RulesError(f"{merchant_id} may land only on {', '.join(options[merchant_id]['hexes']) or 'no hex'} "
                             "(RSR 7.5, 7.45)")
        merchant = naval.merchants[merchant_id]
        state.merchant_fleets[merchant_id] = str(hex_id)
        for unit_id in merchant.cargo:
            state.units[unit_id].hex = str(hex_id)  # RSR 7.44: no activation needed
        code = options[merchant_id]["code"]
        ctx.emit("landing", f"merchant fleet {merchant_id} transfers from naval hex {merchant.hex} "
                 f"(code {code}) to {hex_id}"
                 + (f" with {', '.join(merchant.cargo)}" if merchant.cargo else ""), "RSR 7.5",
                 provisional=[] if code == "A" else [f"coded hex {code} of the naval map: provisional"],
                 merchant=merchant_id, hex=str(hex_id), cargo=list(merchant.cargo))
        merchant.cargo = []
        naval.landed.append(merchant_id)
    naval.transfer_done = True


# -- the Russian Reinforcement Stage: naval brigades (18.5) -------------------------------------------------

def disband_request(state: Any, base: str) -> Request | None:
    naval: NavalState | None = state.naval
    if naval is None or naval.disband_done or naval.naval_brigades >= ports.MAX_BRIGADES:
        return None
    static: NavalStatic = state.naval_static
    fleets = {f.id: [s for s in f.ships if s not in naval.unrepairable and s not in naval.sunk]
              for f in on_map_fleets(naval, "russia")
              if attrition.friendly_port(static, state.control, f.hex, "russia")}
    fleets = {f: s for f, s in fleets.items() if sum(static.ship(x).defense for x in s) >= ports.DISBAND_POINTS}
    if not fleets:
        return None
    return Request(id=f"{base}/disband", side="russia", kind="naval-disband",
                   prompt="Russian Reinforcement Stage: disable 25 defense points of ships in port for a naval "
                          "brigade?",
                   case="RSR 18.5", options={"fleets": fleets}, template={"disband": {}}, policy="disband")


def apply_disband(state: Any, ctx: Context, answer: Any, unit_factory: Any) -> None:
    if not isinstance(answer, dict) or not isinstance(answer.get("disband", {}), dict) or set(answer) - {"disband"}:
        raise RulesError("a disbandment answer is {disband: {fleet: [ship ids]}}")
    for fleet_id, ships in sorted(answer.get("disband", {}).items()):
        brigade = f"ru-nb{state.naval.naval_brigades + 1}"
        if brigade not in state.units:
            state.units[brigade] = unit_factory(brigade, state.static.counter(brigade))
        ports.disband(ctx, state, state.naval, fleet_id, [str(s) for s in ships])
    state.naval.disband_done = True


def end_stage(state: Any, ctx: Context) -> None:
    """End Stage naval upkeep: repairs (18.1), captures (18.2), morale in port (8.78)."""
    naval: NavalState | None = state.naval
    if naval is None:
        return
    static: NavalStatic = state.naval_static
    ports.repair(ctx, static, naval, state.control)
    ports.capture(ctx, static, naval, state.control)
    ports.moor(static, naval, state.control)  # RSR 18.2
    for fleet in on_map_fleets(naval):
        rating = static.admiral(fleet.admiral).initiative
        if not fleet.moved and attrition.friendly_port(static, state.control, fleet.hex, fleet.side) \
                and fleet.morale < rating:
            fleet.morale += 1
            ctx.emit("morale", f"{fleet.id} spends the turn in port: morale {fleet.morale}", "RSR 8.78",
                     fleet=fleet.id, morale=fleet.morale)


def describe(state: Any) -> list[str]:
    """The Strategic Naval Map in a few lines: fleets, merchant fleets and their cargo, mines."""
    naval: NavalState | None = state.naval
    if naval is None:
        return []
    static: NavalStatic = state.naval_static
    lines = ["  Strategic Naval Map:"]
    for fleet in [naval.fleets[f] for f in sorted(naval.fleets)]:
        afloat = [s for s in fleet.ships if s not in naval.sunk]
        disabled = [s for s in afloat if s in naval.disabled]
        where = f"arrives turn {fleet.arrives}" if fleet.arrives else f"hex {fleet.hex}"
        lines.append(f"    {fleet.id} ({static.admiral(fleet.admiral).name}, morale {fleet.morale}) {where}, "
                     f"{'at sea' if fleet.at_sea else 'in port'}{', on blockade' if fleet.blockade else ''}: "
                     f"{len(afloat)} ships" + (f", {len(disabled)} disabled" if disabled else ""))
    for merchant in [naval.merchants[m] for m in sorted(naval.merchants)]:
        cargo = f": {', '.join(merchant.cargo)}" if merchant.cargo else ""
        lines.append(f"    {merchant.id} hex {merchant.hex}{cargo}")
    waiting: dict[int, list[str]] = {}
    for unit_id, hex_number in sorted(naval.ashore.items()):
        waiting.setdefault(hex_number, []).append(unit_id)
    for hex_number in sorted(waiting):
        lines.append(f"    waiting in hex {hex_number}: {', '.join(waiting[hex_number])}")
    if naval.battle is not None:  # issue 13
        fight = naval.battle
        lines.append(f"    naval battle in hex {fight.hex}: hour {fight.hour} of {fight.hours}, {fight.weather}, range "
                     f"{fight.range}, morale {fight.forces['russia'].morale} / {fight.forces['japan'].morale}")
    if naval.mines:
        lines.append("    mines: " + ", ".join(f"hex {h} level {v}" for h, v in sorted(naval.mines.items())))
    if naval.reserve:  # RSR 19.3: admirals who arrived by the Turn Record Track and command no fleet
        lines.append("    admirals waiting: " + ", ".join(f"{static.admiral(a).name} ({static.admiral(a).initiative})"
                                                        for a in naval.reserve))
    return lines


tactical.register()  # issue 13: the tactical battle fights every naval battle (RSR 8.0)
