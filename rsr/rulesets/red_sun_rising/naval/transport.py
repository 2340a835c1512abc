"""Merchant transport and transfer to the land map (RSR 7.4-7.45, 7.5, 15.21)."""

from __future__ import annotations

from typing import Any

from rsr.errors import RulesError

CAPACITY = 4  # RSR 7.4: command points per merchant fleet per Naval Movement Stage


def transport_cost(state: Any, unit_id: str) -> int:
    """RSR 7.4, 7.41, 7.43: a unit's command value; command units free; siege artillery 4."""
    counter = state.static.counter(unit_id)
    if counter.command_unit:
        return 0
    if counter.type == "siege-artillery":
        return 4
    return counter.values(state.units[unit_id].steps).command


def check_cargo(state: Any, merchant_id: str, cargo: list[str]) -> None:
    """RSR 7.4: at most four command points of land units (command units ride free)."""
    total = sum(transport_cost(state, u) for u in cargo)
    if total > CAPACITY:
        raise RulesError(f"merchant fleet {merchant_id} carries {total} command points; at most {CAPACITY} "
                         "(RSR 7.4, 7.41, 7.43)")


def landing_hexes(state: Any, code: str, season: str) -> list[str]:
    """RSR 7.5: any coastal land hex of the code area; in winter only a friendly port in it; never a hex
    holding enemy land units (7.45 errata)."""
    static = state.static
    coast = sorted(h for h, area in static.code_areas.items() if area == code)
    if season == "winter":
        coast = [h for h in coast if friendly_land_port(state, h)]
    return [h for h in coast if not state.units_in(h, "russia")]


def friendly_land_port(state: Any, hex_id: str) -> bool:
    """A land-map port the Japanese may use: a city he controls (19.4), or a port friendly to him by the
    naval map when no one has taken it (Korean ports, provisional)."""
    place = state.static.places.get(hex_id)
    if place is None or not place.port:
        return False
    if hex_id in state.control:
        return bool(state.control[hex_id] == "japan")
    return any(p.land_hex == hex_id and p.friendly == "japan" for p in state.naval_static.ports)


def cargo_list(raw: Any, where: str) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(u, str) for u in raw):
        raise RulesError(f"{where}: cargo is a list of unit ids")
    return list(raw)
