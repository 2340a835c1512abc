"""The Attrition Stage: blockade attrition and lost at sea (RSR 4.15, RSR 15.0-15.23)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rsr.engine import Context
from rsr.rulesets.red_sun_rising.naval.initiative import SEASON_MODIFIER
from rsr.rulesets.red_sun_rising.naval.mines import apply_hit
from rsr.rulesets.red_sun_rising.naval.state import Fleet, NavalState

if TYPE_CHECKING:  # (a type only: the land game imports this module for its policy, start-up)
    from rsr.rulesets.red_sun_rising.naval.data import NavalStatic


def friendly_port(static: NavalStatic, control: dict[str, str], hex_number: int, side: str) -> bool:
    """A port hex friendly to ``side``: by the map, or by who controls its land-map city (RSR 18.2, RSR 19.4)."""
    for port in static.ports_in(hex_number):
        owner = control.get(port.land_hex, port.friendly) if port.land_hex else port.friendly
        if owner == side:
            return True
    return False


def may_blockade(static: NavalStatic, fleet: Fleet, control: dict[str, str]) -> bool:
    """RSR 15.0: a Japanese fleet, at the end of movement, in a coastal hex or a port hex that is not simply his
    own port: one holding a Russian port is blockading it (the Port Arthur hex is where mines are laid, RSR 16.0); in
    his own port he is in port (interpretations.md, RSR 15.0). It still needs a merchant fleet of its own."""
    own_port = friendly_port(static, control, fleet.hex, "japan") and not friendly_port(static, control, fleet.hex,
                                                                                          "russia")
    return fleet.side == "japan" and static.kind(fleet.hex) in ("coastal", "port") and not own_port


def blockade_support(static: NavalStatic, naval: NavalState, fleets: list[Fleet], control: dict[str, str],
                     chosen: dict[str, str], land_merchants: dict[str, str]) -> dict[str, str]:
    """RSR 15.0 with RSR 10.26: each fleet that may blockade takes one merchant fleet in its hex (no merchant fleet
    serves two). The Japanese player's choice (``chosen``) first; for the rest, a merchant fleet with no land-map
    counter (it feeds nobody anyway), then the lowest id (interpretations.md, RSR 10.26)."""
    taken: dict[str, str] = {}
    candidates = [f for f in fleets if may_blockade(static, f, control)]
    for fleet in candidates:
        wanted = chosen.get(fleet.id)
        merchant = naval.merchants.get(wanted) if wanted else None
        if merchant is not None and merchant.hex == fleet.hex and wanted not in taken.values():
            taken[fleet.id] = str(wanted)
    for fleet in candidates:
        if fleet.id in taken:
            continue
        free = sorted((m in land_merchants, m) for m, merchant in naval.merchants.items()
                      if merchant.hex == fleet.hex and m not in taken.values())
        if free:
            taken[fleet.id] = free[0][1]
    return taken


def attrition_row(static: NavalStatic, total: int) -> dict[str, object]:
    """RSR 15.15: the row of the Blockade Attrition Table (totals past 8 read as 8)."""
    total = max(1, min(total, 8))
    return next(r for r in static.attrition_rows if r["die"][0] <= total <= r["die"][1])


def blockade_attrition(ctx: Context, static: NavalStatic, naval: NavalState, fleet: Fleet, season: str,
                       loss_order: list[str]) -> None:
    """RSR 15.1-15.15: die + season; 5 or 10 defense points disabled, or two battleships sunk once a game.

    The Japanese chooses the ships (RSR 15.15): ``loss_order`` from his sailing orders, then the fleet's order.
    """
    die = ctx.roll(6, f"blockade attrition of {fleet.id}, RSR 15.1")
    modifier = SEASON_MODIFIER[season]  # RSR 15.11-15.14
    row = attrition_row(static, die + modifier)
    if row["result"] == "sink-battleships" and naval.attrition_sinking_used:
        row = attrition_row(static, 6)  # RSR 15.15: later 7-8 results read as 6
    afloat = [s for s in loss_order if s in fleet.ships] + [s for s in fleet.ships if s not in loss_order]
    afloat = [s for s in afloat if s not in naval.sunk]
    hit: list[str] = []
    if row["result"] == "sink-battleships":
        naval.attrition_sinking_used = True
        for ship_id in [s for s in afloat if static.ship(s).cls == "B"][:2]:
            naval.sunk.append(ship_id)
            hit.append(ship_id)
    elif row["result"] == "disable":
        points = int(str(row["points"]))
        for ship_id in [s for s in afloat if s not in naval.disabled]:
            if points <= 0:
                break
            apply_hit(naval, ship_id, static.ship(ship_id).defense, static.ship(ship_id).defense)
            points -= static.ship(ship_id).defense
            hit.append(ship_id)
    shaky = [static.ship(s).name for s in hit
             if row["result"] == "disable" and "provisional" in static.ship(s).provenance]
    ctx.emit("blockade-attrition", f"{fleet.id} on blockade: die {die} + {modifier} -> {row['result']}"
             + (f": {', '.join(hit)}" if hit else ""), "RSR 15.1",
             provisional=[f"defense strengths of {', '.join(shaky)}: provisional"] if shaky else [],
             fleet=fleet.id, die=die, modifier=modifier,
             result=row["result"], ships=hit)


def lost_at_sea(ctx: Context, static: NavalStatic, naval: NavalState, control: dict[str, str], season: str,
                units: dict[str, object], land_merchants: dict[str, str], supporting: list[str]) -> None:
    """RSR 15.2-15.23: at the end of the Naval Movement Stage, who is not safe is eliminated."""
    for fleet in [naval.fleets[f] for f in sorted(naval.fleets)]:
        if fleet.arrives:
            continue
        safe = fleet.blockade or friendly_port(static, control, fleet.hex, fleet.side)
        if fleet.at_sea and not safe:  # RSR 15.23
            naval.sunk += [s for s in fleet.ships if s not in naval.sunk]
            del naval.fleets[fleet.id]
            ctx.emit("lost-at-sea", f"{fleet.id} is at sea in naval hex {fleet.hex}, neither on blockade nor in "
                     "port: eliminated", "RSR 15.23", fleet=fleet.id, hex=fleet.hex)
    for merchant in [naval.merchants[m] for m in sorted(naval.merchants)]:
        in_port = friendly_port(static, control, merchant.hex, "japan")
        if season == "winter":  # RSR 15.21: only the merchant fleet that supplies a blockade (RSR 15.0, RSR 10.26)
            safe = in_port or merchant.id in supporting
            case = "RSR 15.21"
        else:  # RSR 15.22
            safe = static.kind(merchant.hex) in ("coastal", "port")
            case = "RSR 15.22"
        if not safe:
            del naval.merchants[merchant.id]
            land_merchants.pop(merchant.id, None)  # both of its counters go (RSR 7.5)
            ctx.emit("lost-at-sea", f"merchant fleet {merchant.id} in naval hex {merchant.hex} is lost at sea"
                     + (f" with {', '.join(merchant.cargo)}" if merchant.cargo else ""), case,
                     merchant=merchant.id, hex=merchant.hex, cargo=list(merchant.cargo))
            for unit_id in merchant.cargo:  # RSR 7.42
                unit = units[unit_id]
                unit.steps = 0  # type: ignore[attr-defined]
