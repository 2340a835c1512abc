"""Victory in the July scenario (RS/RS 13.1): points for units across the Halha, losses and victory hexes."""

from __future__ import annotations

from typing import Any

from rsr.engine import Context
from rsr.rulesets.red_star.state import ELIMINATED, REPLACEMENTS, RsState
from rsr.rulesets.red_star.terrain import supplied_hexes

LEVELS = (  # RS/RS 13.1: the Japanese total minus the Soviet total
    (17, "Japanese Decisive Victory"),
    (10, "Japanese Significant Victory"),
    (6, "Japanese Marginal Victory"),
    (0, "Draw"),
    (-5, "Soviet Marginal Victory"),
    (-11, "Soviet Significant Victory"),
)


def level(difference: int) -> str:
    for low, name in LEVELS:
        if difference >= low:
            return name
    return "Soviet Decisive Victory"


def tally(state: RsState) -> tuple[dict[str, int], list[str]]:
    """RS/RS 13.1 victory points as the position stands; the Japanese bridge (RS/RS 11.2) is a later issue."""
    west = state.static.areas.get("west_of_halha", frozenset())
    points = {"japan": 0, "soviet": 0}
    lines: list[str] = []
    supplied = {side: supplied_hexes(state, side) for side in ("japan", "soviet")}
    for unit in state.on_map():
        if unit.hex not in supplied[unit.side]:
            continue
        counter = state.counter(unit.id)
        if unit.side == "japan" and unit.hex in west:
            value = 1 if counter.size == "I" else 2
            points["japan"] += value
            lines.append(f"japan +{value}: {unit.id} supplied west of the Halha")
        elif unit.side == "soviet" and unit.hex not in west:
            points["soviet"] += 1
            lines.append(f"soviet +1: {unit.id} supplied east of the Halha")
    for unit_id, unit in sorted(state.units.items()):
        if unit.status not in (REPLACEMENTS, ELIMINATED):
            continue
        counter = state.counter(unit_id)
        other = "japan" if unit.side == "soviet" else "soviet"
        points[other] += 1
        lines.append(f"{other} +1: {unit_id} destroyed")
        if unit.side == "japan" and counter.type == "tank" and counter.size == "III":
            points["soviet"] += 3
            lines.append(f"soviet +3: tank regiment {unit_id} destroyed")
    for hex_id, side in sorted(state.victory_hexes.items()):
        value = state.static.victory_points.get(hex_id, 0)
        points[side] += value
        lines.append(f"{side} +{value}: last in victory hex {hex_id}")
    return points, lines


def outcome(state: RsState) -> dict[str, Any]:
    """RS/RS 13.1: the winner and the level of victory from the points difference (None for a draw)."""
    points, _ = tally(state)
    difference = points["japan"] - points["soviet"]
    name = level(difference)
    winner = None if name == "Draw" else ("japan" if name.startswith("Japanese") else "soviet")
    grade = "draw" if winner is None else name.split()[1].lower()
    return {"winner": winner, "level": grade, "case": "RS/RS 13.1", "title": name,
            "points": dict(points), "difference": difference}


def score(state: RsState, ctx: Context) -> dict[str, int]:
    """RS/RS 13.1 victory points at the end of the scenario, reported as one event."""
    points, lines = tally(state)
    difference = points["japan"] - points["soviet"]
    ctx.emit("victory", f"victory points: Japan {points['japan']}, Soviets {points['soviet']}; difference "
             f"{difference:+d}: {level(difference)}", "RS/RS 13.1", japan=points["japan"], soviet=points["soviet"],
             difference=difference, level=level(difference), lines=lines)
    return points
