"""Victory (RSR 19.4): cities the Japanese control, the end-of-season check, and the schedule of levels.

RSR 19.4 ends the campaign when, at the end of a season, the Japanese control fewer cities than the Turn
Record Track asks; when they reach a decisive victory (six cities or more); or after December 1905. In
each case the number of cities Japan controls then gives the winner and the level. A scenario that stops
earlier (a slice of the campaign) is judged by the same schedule on the cities held when it stops
(interpretations.md, RSR 19.4).
"""

from __future__ import annotations

from typing import Any

from rsr.rulesets.red_sun_rising.state import RsrState

# RSR 19.4: cities the Japanese control -> (winner, level); six or more is a Japanese decisive victory
SCHEDULE: tuple[tuple[int, str, str], ...] = (
    (1, "russia", "decisive"),
    (2, "russia", "substantial"),
    (3, "russia", "marginal"),
    (4, "japan", "marginal"),
    (5, "japan", "substantial"),
    (6, "japan", "decisive"),
)
DECISIVE_CITIES = 6  # RSR 19.4
LAST_MONTH = "1905-12"  # RSR 19.4: the campaign ends after the December 1905 Game-Turn


def japanese_cities(state: RsrState) -> list[str]:
    """RSR 19.4: the counted cities the Japanese control (a combat unit there, or the last to pass through)."""
    return [h for h in state.static.victory_cities if state.control.get(h) == "japan"]


def level_for(cities: int) -> tuple[str, str]:
    """RSR 19.4: the winner and victory level for the number of cities Japan controls."""
    for most, winner, level in SCHEDULE:
        if cities <= most:
            return winner, level
    return SCHEDULE[-1][1], SCHEDULE[-1][2]


def seasonal_check_fails(required: int | None, held: int) -> bool:
    """RSR 19.4: at a season's end Japan controls fewer cities than the track requires."""
    return required is not None and held < required


def is_decisive_victory(held: int) -> bool:
    """RSR 19.4: six cities or more is a Japanese decisive victory, which ends the game at once."""
    return held >= DECISIVE_CITIES


def end_of_turn_check(state: RsrState) -> dict[str, Any] | None:
    """At the end of a Game-Turn: the result if the game ends now, else None (RSR 19.4); the two predicates are
    the ones campaign.py's campaign_end applies to the Turn Record Track."""
    held = japanese_cities(state)
    turn = state.static.turn_info(state.turn)
    why = None
    if turn is not None and seasonal_check_fails(turn.cities_required, len(held)):
        why = (f"RSR 19.4: at the end of the season Japan controls {len(held)} of the {turn.cities_required} "
               "cities the Turn Record Track requires")
    elif is_decisive_victory(len(held)):
        why = f"RSR 19.4: Japan controls {len(held)} cities, a decisive victory, which ends the game"
    elif turn is not None and turn.month == LAST_MONTH:
        why = "RSR 19.4: the December 1905 Game-Turn is over"
    elif state.turn >= state.last_turn:
        why = ("RSR 19.4 schedule applied when the scenario stops (its last turn is over; interpretations.md, "
               "19.4)")
    if why is None:
        return None
    winner, level = level_for(len(held))
    return {"winner": winner, "level": level, "case": why, "cities": held, "turn": state.turn}
