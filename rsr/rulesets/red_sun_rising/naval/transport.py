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
        coast = [h for h in coast if static.places.get(h) is not None and static.places[h].port
                 and state.control.get(h, "russia" if static.places[h].port else None) == "japan"]
    return [h for h in coast if not state.units_in(h, "russia")]


def cargo_list(raw: Any, where: str) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(u, str) for u in raw):
        raise RulesError(f"{where}: cargo is a list of unit ids")
    return list(raw)
