"""The Strategic Naval Sequence of Play (RSR 4.1: RSR 4.11-4.15): its steps, and the naval decisions.

The Naval Sequence is one stage of the game's sequence of play, its steps declared in sequence.py
(``NAVAL_STEPS``: the surprise attack of RSR 18.83 in February 1904, the sailing orders, the Naval Search Stage,
the ten movement rounds with their raids and searches, the end of movement and attrition) and run by turn.py
like every land step, through :data:`STEPS` here; the game's ``state.step`` names the current one. A battle found
by a search (encounters.py) runs hour by hour (battle_flow.py) inside the step that found it.

Every question the naval game asks is one declared :class:`rsr.decisions.Decision` in the rule module that
raises it (:data:`DECISIONS`, part of the game's one table in ruleset.py); the question waited for is
:func:`pending`, which the naval step of the sequence of play (turn.py) raises into the game's one pending value
(``RsrState.ask``). The Japanese landings (RSR 7.5) and the Russian naval brigades (RSR 18.5) are asked in the
land Reinforcement Stages (:func:`land_stage_ask`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rsr.decisions import Decision
from rsr.engine import Context
from rsr.errors import BadInput
from rsr.rulesets.red_sun_rising.naval import (
    admirals,
    attrition,
    battle_flow,
    encounters,
    initiative,
    mines,
    movement,
    orders,
    plans,
    ports,
    raid,
    surprise,
    transport,
)
from rsr.rulesets.red_sun_rising.naval.data import NavalStatic
from rsr.rulesets.red_sun_rising.naval.state import Fleet, Merchant, NavalAsk, NavalState, on_map_fleets, season
from rsr.rulesets.red_sun_rising.sequence import Go

ROUNDS = movement.ROUNDS  # RSR 4.14, RSR 7.0
SIDES = ("russia", "japan")

DECISIONS: dict[str, Decision] = {d.kind: d for d in (
    surprise.SURPRISE_ATTACK,                                  # RSR 18.83
    orders.SAILING_ORDERS, orders.ROUTES, orders.ROUTES_UNSEAL,  # RSR 4.11-4.12, RSR 7.1
    plans.BATTLE_PLAN, plans.BATTLE_PLAN_UNSEAL,               # RSR 8.42
    movement.NAVAL_ROUND,                                      # RSR 7.1
    raid.RAID,                                                 # RSR 7.2
    *battle_flow.DECISIONS,                                    # RSR 8.1, RSR 8.42, RSR 8.48, RSR 8.51, RSR 8.6
    transport.LANDINGS,                                        # RSR 7.5 (Japanese Reinforcement Stage)
    ports.DISBAND,                                             # RSR 18.5 (Russian Reinforcement Stage)
)}
KINDS = ("sailing-orders", "naval-round", "naval-landings", "naval-disband")
BATTLE_KINDS = tuple(d.kind for d in battle_flow.DECISIONS)


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
    """Start of the Naval Sequence: captures (RSR 18.2), home-port starts (RSR 7.0 errata), reset of the stage."""
    naval: NavalState = state.naval
    static: NavalStatic = state.naval_static
    ports.capture(ctx, static, naval, state.control)
    ports.moor(static, naval, state.control)  # RSR 18.2
    admirals.turn_record(ctx, static, naval, state.turn)  # RSR 17.3, RSR 19.3: the Turn Record Track's admirals
    naval.orders_side, naval.orders, naval.round, naval.impulse = 0, {}, 0, "russia"
    naval.landed, naval.transfer_done, naval.disband_done = [], False, False
    naval.plan_queue, naval.plan_unseals, naval.battle, naval.battle_case = [], [], None, ""
    naval.route_unseals = []
    for fleet in naval.fleets.values():
        fleet.moved, fleet.returning, fleet.route_index, fleet.flip_in_port = False, False, 0, False
        fleet.broke_off = False
        fleet.at_sea = False
    for merchant in naval.merchants.values():
        merchant.moved, merchant.route_index = False, 0
        merchant.home_start = merchant.hex in static.home_ports  # RSR 7.0 errata


# -- the steps of the Naval Sequence (sequence.NAVAL_STEPS): each runs as far as it goes without a decision, then
# leaves its question in ``state.ask`` ----------------------------------------------------------------------------

def _orders(state: Any, ctx: Context) -> Go:
    """RSR 4.11-4.12: each side's sailing orders (the Russian first) and what it seals with them, then their dice."""
    return Go.ON if orders.run_orders(state, ctx) else _waits(state, orders.orders_ask)


def _search_stage(state: Any, ctx: Context) -> Go:
    """RSR 4.13: opposing at-sea fleets in one hex may search (the Japanese first, RSR 6.0); a battle it starts
    waits for the admirals' hourly answers."""
    return Go.ON if encounters.searches(state, ctx, "RSR 4.13") else _waits(state)


def _first_round(state: Any, ctx: Context) -> None:
    """RSR 4.14: the Naval Movement Stage opens with round 1, the Russian impulse first (RSR 7.0)."""
    naval: NavalState = state.naval
    naval.round, naval.impulse = 1, "russia"
    ctx.emit("round", f"naval movement round 1 of {ROUNDS}", "RSR 4.14", round=1)


def _movement_stage(state: Any, ctx: Context) -> Go:
    """RSR 4.14: the Naval Movement Stage, its ten rounds (:func:`_rounds`); round 0 until it opens."""
    if state.naval.round == 0:
        _first_round(state, ctx)
    return Go.ON if _rounds(state, ctx) else _waits(state, movement.round_ask)


def _rounds(state: Any, ctx: Context) -> bool:
    """RSR 4.14, RSR 7.0-7.3: ten rounds of a Russian and a Japanese Movement Impulse (RSR 7.1), a Raiding
    Impulse (RSR 7.2) and a Search Impulse (RSR 7.3); after round 1 the Japanese blockade initiative (RSR 5.0)."""
    naval: NavalState = state.naval
    while True:
        if naval.impulse in SIDES:
            side = naval.impulse
            if movement.asks_round_by_round(naval, side):
                return False  # its moves are asked (movement.NAVAL_ROUND)
            movement.move_side(state, ctx, side, movement.moves_from_orders(state, side))
            naval.impulse = movement.NEXT_IMPULSE[side]
            continue
        if naval.impulse == "raid":
            if not raid.raid(state, ctx):
                return False  # RSR 7.2: the Russian picks which merchant fleet a raid sinks
            naval.impulse = "search"
            continue
        if not encounters.searches(state, ctx, "RSR 7.3"):
            return False  # a battle waits for an admiral's hourly answer
        if naval.round == 1:
            for fleet in on_map_fleets(naval, "japan"):
                initiative.blockade_initiative(ctx, fleet)
        if naval.round >= ROUNDS:
            return True
        naval.round += 1
        naval.impulse = "russia"
        ctx.emit("round", f"naval movement round {naval.round} of {ROUNDS}", "RSR 4.14", round=naval.round)


def _attrition(state: Any, ctx: Context) -> Go:
    """RSR 4.14 (its end), RSR 4.15: blockade, mines, lost at sea, the in-Port side, attrition; the Naval Sequence
    is over. (It asks nothing, so the game never waits here.)"""
    _end_of_movement(state, ctx)
    return Go.ON


def _waits(state: Any, stage_ask: Callable[[Any, str], NavalAsk | None] | None = None) -> Go:
    """The step waits for the question a rule raised (a raid's choice, RSR 7.2), else the one :func:`pending`
    finds; it runs again once that is answered."""
    if state.ask is None:
        state.ask = pending(state, state.request_base(), stage_ask)
    return Go.WAIT


# every step of sequence.NAVAL_STEPS by its key, in the order of the Naval Sequence (turn.py runs them)
STEPS: dict[str, Callable[[Any, Context], Go]] = {
    "naval-surprise": surprise.run_surprise,  # RSR 18.83, February 1904 only (RSR 19.0)
    "naval-orders": _orders,           # RSR 4.11-4.12, the Naval Initiative Stages
    "naval-search": _search_stage,     # RSR 4.13, the Naval Search Stage
    "naval-rounds": _movement_stage,   # RSR 4.14, the Naval Movement Stage
    "naval-attrition": _attrition,     # RSR 4.15, its end and the Attrition Stage
}


def pending(state: Any, base: str, stage_ask: Callable[[Any, str], NavalAsk | None] | None = None) -> NavalAsk | None:
    """The question a step of the Naval Sequence waits for: a battle's hourly question first, then the step's own
    (``stage_ask``)."""
    naval: NavalState = state.naval
    if naval.battle is not None and naval.battle.asking is not None:
        return battle_flow.pending(naval.battle, f"{base}/battle/r{naval.round}/hex{naval.battle.hex}")
    return stage_ask(state, base) if stage_ask is not None else None


def land_stage_ask(state: Any, base: str) -> NavalAsk | None:
    """The naval questions of the land stages: the Japanese landings (RSR 7.5), the Russian naval brigades
    (RSR 18.5)."""
    if state.naval is None:
        return None
    key = state.stage_key()
    if key == "japan.reinforcement":
        return transport.landing_ask(state, base)
    if key == "russia.reinforcement":
        return ports.disband_ask(state, base)
    return None


def answer(state: Any, ctx: Context, ask: NavalAsk, reply: Any) -> None:
    """Apply ``reply`` to the pending naval question ``ask`` by its declared decision (as the game's decision
    driver does, rsr/decisions.py)."""
    decision = DECISIONS[ask.kind]
    decision.check_shape(reply)
    decision.apply(state, ctx, ask, reply)


# -- the end of movement, the End Stage (RSR 4.14-4.15, RSR 15.0, RSR 16.0, RSR 18.1-18.2, RSR 8.78) ----------

def _end_of_movement(state: Any, ctx: Context) -> None:
    """After round 10: blockade (RSR 15.0), mines (RSR 16.0), lost at sea (RSR 15.2), in-port side (RSR 4.14),
    attrition (RSR 4.15)."""
    naval: NavalState = state.naval
    static: NavalStatic = state.naval_static
    the_season = season(state)
    chosen = naval.orders.get("japan", {}).get("blockade_support") or {}
    support = attrition.blockade_support(static, naval, on_map_fleets(naval, "japan"), state.control, dict(chosen),
                                         state.merchant_fleets)  # RSR 15.0, RSR 10.26: one merchant fleet each
    for fleet in on_map_fleets(naval, "japan"):
        fleet.blockade = fleet.id in support
        if fleet.blockade:
            ctx.emit("blockade", f"{fleet.id} is on blockade in naval hex {fleet.hex}, supported by merchant fleet "
                     f"{support[fleet.id]}", "RSR 15.0", fleet=fleet.id, hex=fleet.hex, merchant=support[fleet.id])
    state.blockade_fleets = sorted(support.values())  # RSR 10.26: only these feed no land unit
    for fleet in on_map_fleets(naval, "japan"):
        wanted = (naval.orders.get("japan", {}).get("fleets") or {}).get(fleet.id, {}).get("lay_mines", True)
        mines.lay_mines(ctx, static, naval, fleet, bool(wanted))
    attrition.lost_at_sea(ctx, static, naval, state.control, the_season, state.units, state.merchant_fleets,
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
            attrition.blockade_attrition(ctx, static, naval, fleet, the_season, list(order))
    ctx.emit("stage", "Attrition Stage ends", "RSR 4.15")


def end_stage(state: Any, ctx: Context) -> None:
    """End Stage naval upkeep: repairs (RSR 18.1), captures (RSR 18.2), morale in port (RSR 8.78)."""
    naval: NavalState | None = state.naval
    if naval is None:
        return
    static: NavalStatic = state.naval_static
    ports.repair(ctx, static, naval, state.control)
    ports.capture(ctx, static, naval, state.control)
    ports.moor(static, naval, state.control)  # RSR 18.2
    for fleet in on_map_fleets(naval):
        # RSR 8.78: the cap is the commanding admiral's rating; a fleet left without one (its admiral killed, the
        # successor due next Game-Turn: rules option successor-next-turn, RSR 19.3) has none, so it gains nothing
        rating = 0 if fleet.id in naval.vacant else static.admiral(fleet.admiral).initiative
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
    if naval.battle is not None:
        fight = naval.battle
        lines.append(f"    naval battle in hex {fight.hex}: hour {fight.hour} of {fight.hours}, {fight.weather}, range "
                     f"{fight.range}, morale {fight.forces['russia'].morale} / {fight.forces['japan'].morale}")
    if naval.mines:
        lines.append("    mines: " + ", ".join(f"hex {h} level {v}" for h, v in sorted(naval.mines.items())))
    if naval.reserve:  # RSR 19.3: admirals who arrived by the Turn Record Track and command no fleet
        lines.append("    admirals waiting: " + ", ".join(f"{static.admiral(a).name} ({static.admiral(a).initiative})"
                                                        for a in naval.reserve))
    return lines


battle_flow.register()  # the tactical battle fights every naval battle (RSR 8.0)
