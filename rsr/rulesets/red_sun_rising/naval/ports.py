"""Ships in port: repair, capture, disbandment (RSR 18.1, 18.2, 18.5), morale in port (8.78)."""

from __future__ import annotations

from typing import Any

from rsr.engine import Context
from rsr.errors import RulesError
from rsr.rulesets.red_sun_rising.naval.attrition import friendly_port
from rsr.rulesets.red_sun_rising.naval.data import NavalStatic
from rsr.rulesets.red_sun_rising.naval.state import NavalState

DISBAND_POINTS = 25   # RSR 18.5
MAX_BRIGADES = 2      # RSR 18.5


def repair(ctx: Context, static: NavalStatic, naval: NavalState, control: dict[str, str]) -> None:
    """RSR 18.1: a disabled ship repairs after as many turns in a friendly port as its defense strength."""
    resting: list[str] = []
    for fleet in [naval.fleets[f] for f in sorted(naval.fleets)]:
        if not fleet.moved and friendly_port(static, control, fleet.hex, fleet.side):
            resting += fleet.ships
    resting += [s for s, h in sorted(naval.in_port.items())
                if friendly_port(static, control, h, static.ship(s).side)]  # RSR 7.73: left in port to repair
    for ship_id in [s for s in resting if s in naval.disabled and s not in naval.unrepairable]:
        naval.repairs[ship_id] = naval.repairs.get(ship_id, 0) + 1
        ship = static.ship(ship_id)
        if naval.repairs[ship_id] >= ship.defense:
            naval.disabled.remove(ship_id)
            del naval.repairs[ship_id]
            ctx.emit("repair", f"{ship.name} is repaired after {ship.defense} turns in port", "RSR 18.1",
                     ship=ship_id)
        else:
            ctx.emit("repair", f"{ship.name}: {naval.repairs[ship_id]} of {ship.defense} turns of repair", "RSR 18.1",
                     ship=ship_id, turns=naval.repairs[ship_id])


def port_owner(control: dict[str, str], land_hex: str, printed: str) -> str:
    """Who holds a port: the side controlling its land-map city (19.4), else the side the map prints."""
    return control.get(land_hex, printed)


def moor(static: NavalStatic, naval: NavalState, control: dict[str, str], at_setup: bool = False) -> None:
    """RSR 18.2: note, for each fleet on its in-Port side, the friendly ports of its hex it lies in (at set-up
    also the ports the map prints as its own); a fleet at sea lies in none."""
    for fleet in [naval.fleets[f] for f in sorted(naval.fleets)]:
        if fleet.at_sea or fleet.arrives:
            fleet.in_port = []
            continue
        fleet.in_port = sorted(str(p.land_hex) for p in static.ports_in(fleet.hex) if p.land_hex and (
            port_owner(control, str(p.land_hex), p.friendly) == fleet.side or (at_setup and p.friendly == fleet.side)))


def capture(ctx: Context, static: NavalStatic, naval: NavalState, control: dict[str, str]) -> None:
    """RSR 18.2: a fleet whose port the enemy has taken is removed with all its ships, for either side: the
    ports it lay in (:func:`moor`) are all held by the enemy now."""
    for fleet in [naval.fleets[f] for f in sorted(naval.fleets)]:
        if fleet.at_sea or not fleet.in_port:
            continue
        printed = {str(p.land_hex): p for p in static.ports_in(fleet.hex) if p.land_hex}
        lost = [h for h in fleet.in_port if h in printed
                and port_owner(control, h, printed[h].friendly) != fleet.side]
        if lost and len(lost) == len(fleet.in_port):
            naval.sunk += [s for s in fleet.ships if s not in naval.sunk]
            del naval.fleets[fleet.id]
            ctx.emit("fleet-captured", f"{fleet.id} is captured in {printed[lost[0]].name}", "RSR 18.2",
                     fleet=fleet.id, hex=lost[0])


def disband(ctx: Context, state: Any, naval: NavalState, fleet_id: str, ships: list[str]) -> str:
    """RSR 18.5: permanently disable 25 defense points of ships in a port for a naval brigade there."""
    static: NavalStatic = state.naval_static
    fleet = naval.fleets.get(fleet_id)
    if fleet is None or fleet.side != "russia":
        raise RulesError(f"{fleet_id} is not a Russian fleet (RSR 18.5)")
    ports = [p for p in static.ports_in(fleet.hex) if p.land_hex and friendly_port(static, state.control, fleet.hex,
                                                                                      "russia")]
    if not ports:
        raise RulesError(f"{fleet_id} is not in a Russian port (RSR 18.5)")
    if naval.naval_brigades >= MAX_BRIGADES:
        raise RulesError("at most two naval brigades (RSR 18.5)")
    if set(ships) - set(fleet.ships) or set(ships) & set(naval.unrepairable) or set(ships) & set(naval.sunk):
        raise RulesError(f"only ships of {fleet_id} not already disbanded may be disbanded (RSR 18.5)")
    points = sum(static.ship(s).defense for s in ships)
    if points < DISBAND_POINTS:
        raise RulesError(f"{points} defense points; a naval brigade needs {DISBAND_POINTS} (RSR 18.5)")
    naval.naval_brigades += 1
    brigade = f"ru-nb{naval.naval_brigades}"
    for ship_id in ships:
        naval.unrepairable.append(ship_id)
        if ship_id not in naval.disabled:
            naval.disabled.append(ship_id)
        naval.repairs.pop(ship_id, None)
    land_hex = str(ports[0].land_hex)
    unit = state.units[brigade]
    unit.hex, unit.steps = land_hex, 1
    ctx.emit("naval-brigade", f"{points} defense points of {fleet_id} disabled for good: {brigade} forms in "
             f"{land_hex}", "RSR 18.5", fleet=fleet_id, ships=list(ships), unit=brigade, hex=land_hex)
    return brigade
