"""Mines (RSR 16.0)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rsr.engine import Context
from rsr.rulesets.red_sun_rising.naval.state import Fleet, NavalState

if TYPE_CHECKING:  # (a type only: the land game imports this module for its policy, start-up)
    from rsr.rulesets.red_sun_rising.naval.data import NavalStatic

MINEABLE = ("Port Arthur", "Vladivostok")  # RSR 16.0


def mineable_hexes(static: NavalStatic) -> list[int]:
    return sorted({p.hex for p in static.ports if p.name in MINEABLE})


def lay_mines(ctx: Context, static: NavalStatic, naval: NavalState, fleet: Fleet, wanted: bool) -> None:
    """RSR 16.0: a blockading Japanese fleet that did not move raises the level in a mineable hex by one."""
    if not wanted or fleet.side != "japan" or not fleet.blockade or fleet.moved \
            or fleet.hex not in mineable_hexes(static):
        return
    key = str(fleet.hex)
    naval.mines[key] = naval.mines.get(key, 0) + 1
    ctx.emit("mines", f"{fleet.id} lays mines: naval hex {fleet.hex} mine level {naval.mines[key]}", "RSR 16.0",
             fleet=fleet.id, hex=fleet.hex, level=naval.mines[key])


def battle_order(static: NavalStatic, naval: NavalState, fleet: Fleet) -> list[str]:
    """RSR 8.2 (for RSR 16.0): battleships in fleet order, then cruisers by attack strength, high first."""
    afloat = [s for s in fleet.ships if s not in naval.sunk]
    battleships = [s for s in afloat if static.ship(s).cls == "B"]
    cruisers = sorted((s for s in afloat if static.ship(s).cls == "C"), key=lambda s: -static.ship(s).attack)
    return battleships + cruisers


# Rules option ``mines-strike-russians-only`` (RSR 16.0 read by its purpose, interpretations.md): only Russian fleets
# are struck by the mines the Japanese lay; by default every fleet is ("every time a fleet" enters or leaves).
RUSSIANS_ONLY = "mines-strike-russians-only"


def struck_by_mines(fleet: Fleet, options: dict[str, Any]) -> bool:
    """RSR 16.0: whether ``fleet`` risks the mines of a hex it enters or leaves under the game's rules options."""
    return fleet.side == "russia" or not options.get(RUSSIANS_ONLY)


def strike(ctx: Context, static: NavalStatic, naval: NavalState, fleet: Fleet, hex_number: int, how: str) -> None:
    """RSR 16.0: entering or leaving a mined port: a die picks one of the first six ships, which the mine
    level attacks on the Naval CRT (RSR 8.24: disabled at its defense, sunk at twice it or when hit again)."""
    level = naval.mines.get(str(hex_number), 0)
    if level <= 0:
        return
    order = battle_order(static, naval, fleet)
    pick = ctx.roll(6, f"mine position for {fleet.id} {how} naval hex {hex_number}, RSR 16.0")
    if pick > len(order):
        ctx.emit("mines", f"{fleet.id} {how} mined hex {hex_number}: position {pick} is empty, no effect",
                 "RSR 16.0", fleet=fleet.id, hex=hex_number, position=pick, ship=None)
        return
    ship = static.ship(order[pick - 1])
    die = ctx.roll(6, f"mine attack on {ship.name}, column {level}, RSR 16.0")
    result, provisional = static.crt(level, die)
    outcome = apply_hit(naval, ship.id, ship.defense, result)
    ctx.emit("mines", f"{fleet.id} {how} mined hex {hex_number}: mine level {level} attacks {ship.name} "
             f"(position {pick}), die {die} -> {result} against defense {ship.defense}: {outcome}", "RSR 16.0",
             provisional=([f"Naval CRT column {level} die {die}: provisional"] if provisional else [])
             + ([f"defense strength of {ship.name}: provisional"] if "provisional" in ship.provenance else []),
             fleet=fleet.id, hex=hex_number, position=pick, ship=ship.id, die=die, result=result, outcome=outcome)


def apply_hit(naval: NavalState, ship_id: str, defense: int, result: int) -> str:
    """RSR 8.24: result >= 2 x defense sinks; >= defense disables, and a disabled ship disabled again sinks."""
    if result >= 2 * defense or (result >= defense and ship_id in naval.disabled):
        naval.sunk.append(ship_id)
        if ship_id in naval.disabled:
            naval.disabled.remove(ship_id)
        naval.repairs.pop(ship_id, None)
        return "sunk"
    if result >= defense:
        naval.disabled.append(ship_id)
        naval.repairs[ship_id] = 0
        return "disabled"
    return "no effect"
