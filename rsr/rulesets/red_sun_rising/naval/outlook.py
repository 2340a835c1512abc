"""What must happen before a naval scenario gives a battle, for the player starting it.

Read from the scenario's own set-up and the rules, never from a note written beside them (a scenario's
data is pinned by the invitation's hash, so a game in progress keeps its scenario as it was): every fleet
starts the Naval Sequence in port (RSR 7.0 errata) and puts to sea only with command initiative, a die
plus the season's modifier at most its admiral's rating (RSR 4.11-4.12, RSR 5.0), unless a case gives it
without a die (RSR 18.82, RSR 19.2) or it blockades (RSR 15.0).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rsr.rulesets.red_sun_rising.naval.initiative import automatic_initiative, initiative_modifier
from rsr.rulesets.red_sun_rising.naval.state import on_map_fleets
from rsr.rulesets.red_sun_rising.naval.state import season as season_of


def sortie_chance(rating: int, modifier: int) -> Fraction:
    """RSR 5.0: the chance that a d6 plus ``modifier`` is at most ``rating``."""
    return Fraction(sum(1 for die in range(1, 7) if die + modifier <= rating), 6)


def first_needs(state: Any) -> list[str]:
    """One line per fleet whose putting to sea depends on a die, with its exact chance; empty for a state
    without a naval game."""
    naval = getattr(state, "naval", None)
    if naval is None or not naval.fleets:
        return []
    season = season_of(state)
    modifier = initiative_modifier(season)
    lines = []
    for fleet in on_map_fleets(naval):
        if automatic_initiative(fleet, state.turn) or fleet.blockade:
            continue
        admiral = state.naval_static.admiral(fleet.admiral)
        chance = sortie_chance(admiral.initiative, modifier)
        faces = chance * 6
        odds = (f"{faces} of the 6 faces of the die, {chance.numerator} chance{'' if chance.numerator == 1 else 's'} "
                f"in {chance.denominator}" if faces else "no face of the die")
        lines.append(f"{fleet.id} ({fleet.side}) puts to sea only with command initiative: a die + {modifier} "
                     f"({season}) at most {admiral.name}'s rating {admiral.initiative}: {odds} (RSR 4.11, 5.0); "
                     "otherwise it stays in port this turn")
    if lines:
        lines.append("a battle at sea then needs a search that finds the enemy fleet (RSR 4.13, 6.0)")
    return lines
