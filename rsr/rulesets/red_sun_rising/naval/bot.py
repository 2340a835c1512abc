"""A simple naval player for the demo and the packet-exchange test (not a rule): sailing orders that keep
blockades in place, sail loaded merchant fleets to the nearest coded hex and land them, and sail an
arriving Baltic fleet through the nearest merchant fleet's hex to Vladivostok."""

from __future__ import annotations

from typing import Any

from rsr.engine import Request
from rsr.rulesets.red_sun_rising.naval.attrition import friendly_port
from rsr.rulesets.red_sun_rising.naval.data import NavalStatic
from rsr.rulesets.red_sun_rising.naval.transport import CAPACITY, landing_hexes, transport_cost


def _path(static: NavalStatic, start: int, goal: int) -> list[int]:
    dist = static.distances(goal)
    path, here = [], start
    while here != goal and here in dist:
        here = min(n for n in static.neighbours(here) if dist.get(n, 999) == dist[here] - 1)
        path.append(here)
    return path


def _to_cities(state: Any, coast: list[str]) -> int:
    """How near the nearest of ``coast`` lies to a city RSR 19.4 counts that Japan does not hold (99: none)."""
    grid = state.static.grid
    cities = [h for h in state.static.victory_cities if state.control.get(h) != "japan"]
    return min((grid.distance(c, h) for c in coast for h in cities), default=99)


def answer(state: Any, request: Request, round_by_round: bool = False) -> dict[str, Any] | None:
    static: NavalStatic = state.naval_static
    naval = state.naval
    if request.kind == "naval-landings":  # as near as it can to a city RSR 19.4 counts that Japan lacks
        return {"landings": {m: min(info["hexes"], key=lambda h: (_to_cities(state, [h]), h))
                             for m, info in sorted(request.options["merchants"].items())
                             if info["hexes"] and info["cargo"]}}
    if request.kind == "naval-surprise-attack":  # RSR 18.83: every torpedo flotilla, the targets in turn
        flotillas, targets = request.options["flotillas"], request.options["targets"]
        return {"attacks": {b: targets[i % len(targets)] for i, b in enumerate(flotillas)} if targets else {}}
    if request.kind == "naval-round":  # follow the routes of its own sailing orders, one step a round
        signed = naval.orders.get(request.side, {})
        moves: dict[str, Any] = {"fleets": {}, "merchants": {}, "search": []}
        for kind, things in (("fleets", naval.fleets), ("merchants", naval.merchants)):
            for thing_id in sorted(request.options[kind]):
                route = (signed.get(kind) or {}).get(thing_id, {}).get("route", [])
                thing = things[thing_id]
                moves[kind][thing_id] = route[thing.route_index] if thing.route_index < len(route) else thing.hex
        return moves
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
            orders["fleets"][fleet_id] = {"sortie": True, "route": route[:10], "search": "never",
                                          "flip_in_port": True}
        else:
            orders["fleets"][fleet_id] = {"sortie": False, "route": [], "search": "never"}
    if request.side == "japan":
        orders["merchants"], orders["load"] = {}, {}
        waiting = sorted(u for u, h in naval.ashore.items())
        headquarters = sorted(u for u in state.off_map if state.units[u].side == "japan")  # RSR 17.11
        turn = state.static.turn_info(state.turn)
        winter = turn is not None and turn.season == "winter"
        goals = [h for h in sorted(static.code_hexes.values())
                 if friendly_port(static, state.control, h, "japan") or not winter]
        for merchant_id, info in sorted(request.options["merchants"].items()):
            points, load = sum(transport_cost(state, u) for u in info["cargo"]), []
            for unit_id in [u for u in waiting if naval.ashore[u] == info["hex"]]:
                if points + transport_cost(state, unit_id) <= CAPACITY:
                    points += transport_cost(state, unit_id)
                    load.append(unit_id)
                    waiting.remove(unit_id)
            distance = static.distances(info["hex"])
            rounds = 10 if info["hex"] in static.home_ports else 9  # RSR 7.0 errata
            reachable = [h for h in goals if distance.get(h, 99) <= rounds]
            if not info["cargo"] and not load and info["hex"] not in static.home_ports and (waiting or headquarters):
                # empty at sea: sail home to fetch the units and command units still waiting (RSR 7.4, RSR 17.11)
                wanted = sorted({naval.ashore[u] for u in waiting} & set(static.home_ports))
                wanted = wanted or sorted(static.home_ports)
                home = min(wanted, key=lambda h: (distance.get(h, 99), h))
                if distance.get(home, 99) <= 9:  # RSR 7.0 errata: as far as it can sail in one turn
                    orders["merchants"][merchant_id] = {"route": _path(static, info["hex"], home)}
                continue
            if not reachable:
                continue  # it would be lost at sea: it stays, loaded with nobody
            if headquarters and info["hex"] in static.home_ports:
                load += headquarters  # command units ride free (RSR 7.41)
                headquarters = []
            if load:
                orders["load"][merchant_id] = load
            if info["cargo"] or load:
                season = turn.season if turn is not None else ""
                goal = min(reachable, key=lambda h: (_to_cities(state, landing_hexes(state, static.code_of(h) or "",
                                                                                      season)), distance[h], h))
                orders["merchants"][merchant_id] = {"route": _path(static, info["hex"], goal)}
    return orders
