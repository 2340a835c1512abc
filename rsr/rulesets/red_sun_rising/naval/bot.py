"""A simple naval player for the demo and the packet-exchange test (not a rule): sailing orders that keep
blockades in place, sail loaded merchant fleets to the nearest coded hex and land them, and sail an
arriving Baltic fleet through the nearest merchant fleet's hex to Vladivostok."""

from __future__ import annotations

from typing import Any

from rsr.engine import Request
from rsr.rulesets.red_sun_rising.naval.data import NavalStatic


def _path(static: NavalStatic, start: int, goal: int) -> list[int]:
    dist = static.distances(goal)
    path, here = [], start
    while here != goal and here in dist:
        here = min(n for n in static.neighbours(here) if dist.get(n, 999) == dist[here] - 1)
        path.append(here)
    return path


def answer(state: Any, request: Request, round_by_round: bool = False) -> dict[str, Any] | None:
    static: NavalStatic = state.naval_static
    naval = state.naval
    if request.kind == "naval-landings":
        return {"landings": {m: info["hexes"][0] for m, info in sorted(request.options["merchants"].items())
                             if info["hexes"] and info["cargo"]}}
    if request.kind == "naval-round":
        return request.template
    if request.kind != "sailing-orders":
        return None
    orders: dict[str, Any] = {"fleets": {}, "round_by_round": round_by_round}
    for fleet_id in sorted(request.options["fleets"]):
        fleet = naval.fleets[fleet_id]
        if fleet.arrives == state.turn and naval.merchants:
            vlad = next(p.hex for p in static.ports if p.name == "Vladivostok")
            target = min(naval.merchants.values(), key=lambda m: (min(static.distances(m.hex).get(e, 99)
                                                                      for e in static.baltic_entry), m.id))
            entry = min(static.baltic_entry, key=lambda e: (static.distances(e).get(target.hex, 99), e))
            route = [entry] + _path(static, entry, target.hex) + _path(static, target.hex, vlad)
            orders["fleets"][fleet_id] = {"sortie": True, "route": route[:10], "search": "never"}
        else:
            orders["fleets"][fleet_id] = {"sortie": False, "route": [], "search": "never"}
    if request.side == "japan":
        orders["merchants"] = {}
        for merchant_id, info in sorted(request.options["merchants"].items()):
            if info["cargo"]:
                goal = min(static.code_hexes.values(), key=lambda h: (static.distances(info["hex"]).get(h, 99), h))
                orders["merchants"][merchant_id] = {"route": _path(static, info["hex"], goal)[:10]}
    return orders
