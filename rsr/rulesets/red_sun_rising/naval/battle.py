"""The one interface to the tactical naval battle (RSR 4.4, 8.x: issue 13).

A battle is fought between two groups of fleets in one hex and returns the ships sunk and disabled, each
fleet's morale and which fleets withdraw. Until a battle engine is registered, nothing may start one:
:func:`require_battle` raises a RulesError before any die is rolled, so no battle is ever faked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rsr.errors import RulesError


@dataclass(frozen=True)
class BattleResult:
    sunk: list[str] = field(default_factory=list)
    disabled: list[str] = field(default_factory=list)
    morale: dict[str, int] = field(default_factory=dict)      # fleet id -> morale after the battle
    withdraws: list[str] = field(default_factory=list)        # fleet ids that break off (8.76 errata)


# (ctx, naval static, hex, russian fleets, japanese fleets, weather) -> BattleResult
BattleEngine = Callable[[Any, Any, int, list[Any], list[Any], str], BattleResult]
_ENGINE: list[BattleEngine] = []


def register_battle(engine: BattleEngine) -> None:
    """Issue 13 registers its tactical battle here."""
    _ENGINE[:] = [engine]


def require_battle(hex_number: int, why: str) -> BattleEngine:
    """RSR 6.0, 7.3, 8.1: a search that may start a naval battle needs the battle engine."""
    if not _ENGINE:
        raise RulesError(f"naval hex {hex_number}: {why} could start a naval battle (RSR 8.0), and the tactical "
                         "battle is not implemented yet (issue 13); do not search there this turn")
    return _ENGINE[0]
