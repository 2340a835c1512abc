"""The one interface to the tactical naval battle (RSR 4.4, RSR 8.0-8.87).

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
    withdraws: list[str] = field(default_factory=list)        # fleet ids that break off (RSR 8.76 errata)
    to_port: list[str] = field(default_factory=list)          # fleet ids that refused in their port (RSR 8.1)
    hours: list[dict[str, Any]] = field(default_factory=list)  # the hour-by-hour log
    admirals_killed: dict[str, str] = field(default_factory=dict)  # fleet id -> admiral killed (RSR 8.75, RSR 19.3)


@dataclass(frozen=True)
class BattleSetting:
    """What the naval game knows that the battle needs: the signed battle plans by side, the
    ships already disabled or sunk, the sides to which the battle hex is a friendly port (RSR 8.1), and the
    game's rules options."""

    plans: dict[str, Any] = field(default_factory=dict)
    disabled: tuple[str, ...] = ()
    sunk: tuple[str, ...] = ()
    port_sides: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)  # the game's rules options (RSR 4.44 search timing)


# (ctx, naval static, hex, russian fleets, japanese fleets, weather, setting) -> BattleResult
BattleEngine = Callable[[Any, Any, int, list[Any], list[Any], str, BattleSetting], BattleResult]
_ENGINE: list[BattleEngine] = []


def register_battle(engine: BattleEngine) -> None:
    """The tactical battle (battle_flow.fight) registers itself here."""
    _ENGINE[:] = [engine]


def require_battle(hex_number: int, why: str) -> BattleEngine:
    """RSR 6.0, RSR 7.3, RSR 8.1: a search that may start a naval battle needs the battle engine."""
    if not _ENGINE:
        raise RulesError(f"naval hex {hex_number}: {why} could start a naval battle (RSR 8.0), and the tactical "
                         "battle is not implemented yet; do not search there this turn")
    return _ENGINE[0]
