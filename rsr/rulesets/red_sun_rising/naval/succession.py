"""Admiral succession (RSR 19.3; the 3 April 1978 errata that replaces it is not in the rulebook text we have,
so the printed case applies: interpretations.md, RSR 19.3).

When an admiral is killed (RSR 8.75) his fleet gets, in this order: an admiral who arrived by the Turn Record Track
and waits without a fleet (admirals.py; interpretations.md, RSR 19.3 and the reserve), the next admiral of his side
scheduled on the Turn Record Track (he comes at once instead of on his turn), else the last living admiral of his
side withdrawn from the game, else an incompetent with an Initiative Rating of 1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # (data.py imports this module to read the admiral track: no circle at run time)
    from rsr.rulesets.red_sun_rising.naval.data import NavalStatic

INCOMPETENT = {"russia": "ru-adm-incompetent", "japan": "jp-adm-incompetent"}


def admiral_track(track: dict[str, Any] | None) -> list[tuple[int, str, str]]:
    """(turn, arrive | withdraw, admiral name) from the Turn Record Track data, in turn order."""
    out: list[tuple[int, str, str]] = []
    for row in (track or {}).get("turns", []):
        for kind in ("arrive", "withdraw"):
            out += [(int(row["turn"]), kind, str(name)) for name in row.get(f"admirals_{kind}") or []]
    return sorted(out)


def _by_name(static: NavalStatic, side: str, name: str) -> str | None:
    return next((a.id for a in sorted(static.admirals.values(), key=lambda a: a.id)
                 if a.side == side and a.name == name), None)


def successor(static: NavalStatic, track: list[tuple[int, str, str]], turn: int, side: str, dead: list[str],
              in_command: list[str], reserve: list[str] | None = None,
              withdrawn: list[str] | None = None) -> tuple[str, str]:
    """RSR 19.3: the admiral who takes over, and why. ``reserve``: admirals the track already brought who command
    no fleet (they come first: interpretations.md, RSR 19.3 turn record); ``withdrawn``: admirals who left the game
    alive during play, in the order they left (the track's own withdrawals count too)."""
    reserve, withdrawn = list(reserve or []), list(withdrawn or [])
    waiting = [a for a in reserve if static.admiral(a).side == side and a not in dead and a not in in_command]
    if waiting:
        return waiting[0], ("an admiral who arrived by the Turn Record Track and waits without a fleet takes it "
                            "(RSR 19.3)")
    free = [a for a in (_by_name(static, side, name) for t, kind, name in track if kind == "arrive" and t > turn)
            if a and a not in dead and a not in in_command and a not in withdrawn]
    if free:
        return free[0], "the next admiral on the Turn Record Track comes at once (RSR 19.3)"
    left = list(reversed(withdrawn)) + [_by_name(static, side, name) for t, kind, name in reversed(track)
                                        if kind == "withdraw" and t <= turn]
    gone = [a for a in left if a and static.admiral(a).side == side and a not in dead and a not in in_command]
    if gone:
        return gone[0], "the last living admiral withdrawn from the game returns (RSR 19.3)"
    return INCOMPETENT[side], "no admiral is left: an incompetent with Initiative Rating 1 (RSR 19.3)"


def morale_with(static: NavalStatic, morale: int, old: str, new: str) -> int:
    """RSR 8.79: a new admiral raises or lowers the fleet's morale by the difference of the Initiative Ratings,
    never below zero nor above his own rating (RSR 8.78); interpretations.md, RSR 8.79."""
    rating = static.admiral(new).initiative
    return max(0, min(rating, morale + rating - static.admiral(old).initiative))
