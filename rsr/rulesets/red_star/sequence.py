"""The Red Sun/Red Star sequence of play as data (RS/RS 3.0-3.2).

A game turn is two mutual phases, the first player's turn, the second player's turn and the completion
of the turn. ``player`` is ``first``/``second`` for segments of a player turn; the scenario names the first
player (RS/RS 13.1: Japan). ``implemented`` False marks a part whose rules belong to a later issue: it passes
with an event saying so, never silently and never faked.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Segment:
    key: str            # "reinforcement-planning", "prepared-combat", ...
    player: str | None  # "first", "second" or None for a mutual phase
    name: str
    case: str
    implemented: bool = True
    note: str = ""


TURN: tuple[Segment, ...] = (
    Segment("reinforcement-planning", None, "Reinforcement Planning Phase", "3.2"),
    Segment("air-operations", None, "Air Operations Phase", "3.1", False,
            "the optional air rules (12.0) are a later issue; the phase passes"),
    Segment("force-adjustment", "first", "Force Adjustment segment", "4.0"),
    Segment("artillery-fire", "first", "Artillery Fire segment", "5.0"),
    Segment("prepared-combat", "first", "Prepared Combat segment", "6.0"),
    Segment("movement", "first", "Movement segment", "7.0"),
    Segment("marker-adjustment", "first", "Marker Adjustment segment", "3.1"),
    Segment("force-adjustment", "second", "Force Adjustment segment", "4.0"),
    Segment("artillery-fire", "second", "Artillery Fire segment", "5.0"),
    Segment("prepared-combat", "second", "Prepared Combat segment", "6.0"),
    Segment("movement", "second", "Movement segment", "7.0"),
    Segment("marker-adjustment", "second", "Marker Adjustment segment", "3.1"),
    Segment("turn-completion", None, "Game Turn Completion", "3.1"),
)

SEGMENT_KEYS = tuple(s.key for s in TURN)


def segment_label(index: int, first: str, second: str) -> str:
    """``japan.prepared-combat`` style name of the segment at ``index`` of a game turn."""
    segment = TURN[index]
    if segment.player is None:
        return segment.key
    return f"{first if segment.player == 'first' else second}.{segment.key}"


def find_segment(label: str, first: str, second: str) -> int:
    for index in range(len(TURN)):
        if segment_label(index, first, second) == label:
            return index
    raise ValueError(label)


def segment_side(index: int, first: str, second: str) -> str | None:
    player = TURN[index].player
    if player is None:
        return None
    return first if player == "first" else second


# RS/RS 7.54 hasty attack movement costs (Player Aid): motorized 4 MP, non-motorized 2 MP
HASTY_COST = {True: 4, False: 2}
OPERATIONAL_DISTANCE = 4     # RS/RS 7.3: at least four hexes from every enemy unit
TRUCK_ALLOWANCE = 20         # RS/RS 7.4
MORALE_DIE = 6               # RS/RS 6.62: one die
