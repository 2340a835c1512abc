"""Naval Command Initiative (RSR 4.11, RSR 4.12, RSR 5.0, RSR 15.0, RSR 18.82, RSR 19.2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rsr.engine import Context
from rsr.rulesets.red_sun_rising.naval.state import Fleet

if TYPE_CHECKING:  # (a type only: the land game imports this module for its policy, start-up)
    from rsr.rulesets.red_sun_rising.naval.data import NavalStatic

SEASON_MODIFIER = {"winter": 2, "spring": 1, "autumn": 1, "summer": 0}  # RSR 5.0

FEBRUARY_1904 = 1  # RSR 18.8: the first game turn


def initiative_modifier(season: str) -> int:
    """RSR 5.0: +2 in winter, +1 in spring and autumn, none in summer."""
    return SEASON_MODIFIER[season]


def automatic_initiative(fleet: Fleet, turn: int) -> str | None:
    """The cases that give a fleet initiative without a die: RSR 18.82 (February 1904, Japanese fleets) and
    RSR 19.2 (the Baltic fleet on its arrival turn)."""
    if fleet.side == "japan" and turn == FEBRUARY_1904:
        return "RSR 18.82"
    if fleet.arrives and fleet.arrives == turn:
        return "RSR 19.2"
    return None


def roll_initiative(ctx: Context, static: NavalStatic, fleet: Fleet, season: str, turn: int) -> bool:
    """RSR 4.11-4.12, RSR 5.0: die + season modifier <= the admiral's rating flips the fleet to its at-Sea side."""
    free = automatic_initiative(fleet, turn)
    if free:
        fleet.at_sea = True
        ctx.emit("initiative", f"{fleet.id} has command initiative without a roll", free, fleet=fleet.id,
                 initiative=True)
        return True
    admiral = static.admiral(fleet.admiral)
    die = ctx.roll(6, f"naval command initiative of {fleet.id} ({admiral.name}), RSR 5.0")
    modifier = initiative_modifier(season)
    success = die + modifier <= admiral.initiative
    fleet.at_sea = success
    ctx.emit("initiative", f"{fleet.id}: die {die} + {modifier} ({season}) against {admiral.name}'s "
             f"{admiral.initiative}: {'sorties' if success else 'stays in port'}", "RSR 5.0",
             provisional=[f"initiative rating of {admiral.name}: {admiral.provenance}"]
             if "provisional" in admiral.provenance else [],
             fleet=fleet.id, die=die, modifier=modifier, rating=admiral.initiative, initiative=success)
    return success


def blockade_initiative(ctx: Context, fleet: Fleet) -> None:
    """RSR 5.0 exception, RSR 7.0 note, RSR 15.0: a blockading fleet without initiative gains it after round 1."""
    if fleet.blockade and not fleet.at_sea:
        fleet.at_sea = True
        ctx.emit("initiative", f"{fleet.id} is on blockade: command initiative at the end of round 1", "RSR 15.0",
                 fleet=fleet.id, initiative=True)
