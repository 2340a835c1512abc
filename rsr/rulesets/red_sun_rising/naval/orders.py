"""Sailing orders (issue 12): what each side signs once for the whole Naval Sequence, checked here.

A side's orders name, per fleet: ``sortie`` (attempt initiative, 4.11-4.12), ``route`` (the hexes to enter,
one per Movement Impulse; repeating a hex waits there), ``search`` ("never" or "always" when an enemy
at-sea fleet shares the hex, 6.0), ``return_if_enemy_within`` (N: head for the nearest friendly port once
an enemy at-sea fleet is within N hexes), ``lay_mines`` (16.0, default true), ``flip_in_port`` (7.0
note: turn to the in-Port side once the route is done in a friendly port), ``leave_behind`` (7.73
errata: disabled ships under repair that stay in port); per merchant fleet a ``route``; ``load``
(7.4: merchant fleet -> land units stacked with it); ``compose`` (7.7), ``new_fleets`` (7.7: the
Japanese second fleet), ``attrition_order`` (15.15: the ships the Japanese gives up first);
``round_by_round`` true to be asked every round instead; ``battle_plan`` (issue 13, plans.py) for every naval
battle of the stage, or ``sealed`` to answer a sealable ``battle-plan`` request instead (unsealed once both
sides have signed their sailing orders); ``appoint`` (19.3, 8.79: admiral waiting in reserve -> fleet id or
``reserve``; admirals.py); ``blockade_support`` (10.26, 15.0, Japanese only: fleet -> the merchant fleet in
its hex that supports its blockade; where it names none, or one not there at the end of movement, a merchant
fleet without a land-map counter is taken first, then the lowest id); ``routes: sealed`` (issue 22): the
fleets' routes follow in a sealable ``naval-routes`` request, unsealed once the enemy has signed his orders.
"""

from __future__ import annotations

from typing import Any

from rsr.errors import RulesError
from rsr.rulesets.red_sun_rising.naval import plans

FLEET_KEYS = {"sortie", "route", "search", "return_if_enemy_within", "lay_mines", "flip_in_port", "leave_behind"}
TOP_KEYS = {"fleets", "merchants", "compose", "new_fleets", "attrition_order", "round_by_round", "load",
            "battle_plan", "surprise_attack", "appoint", "blockade_support",
            "routes"}  # issue 13: plans.py; 18.83; 19.3
# (admirals.py); issue 22: 10.26 with 15.0


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
        plans.check_plan(answer["battle_plan"], side)  # issue 13: checked when signed, used when a battle starts
    if answer.get("routes") not in (None, "sealed"):
        raise RulesError("sailing orders: routes is sealed (the routes follow in their own sealable request) or absent")
    if answer.get("routes") == "sealed" and any((raw or {}).get("route") for raw in fleets.values()):
        raise RulesError("sailing orders: with routes: sealed, give the routes in the naval-routes request, not here")
    if "surprise_attack" in answer:  # issue 22: its own request, before the Russian sailing orders (19.0)
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
    in_port: [fleet ids that turn to their in-Port side instead of moving, 7.0 note]}."""
    if not isinstance(answer, dict) or set(answer) - {"fleets", "merchants", "search", "in_port"}:
        raise RulesError("a naval round answer is {fleets: {fleet: hex}, merchants: {merchant: hex}, search: [fleets], "
                         "in_port: [fleets]}")
    for key in ("fleets", "merchants"):
        moves = answer.get(key) or {}
        if not isinstance(moves, dict) or not all(type(h) is int for h in moves.values()):
            raise RulesError(f"{key} maps an id to the naval hex number it moves to (or stays in)")
    return answer
