"""Trenches (RSR 13.1x): built in the End Stage by units that stood still, away from the enemy."""

from __future__ import annotations

from rsr.engine import Context
from rsr.errors import RulesError
from rsr.rulesets.red_sun_rising import activation
from rsr.rulesets.red_sun_rising.state import RsrState

TRENCH_MINIMUM_CP = 3  # RSR 13.11
MAX_TRENCH = 2         # RSR 13.11


def trench_sites(state: RsrState, side: str) -> list[str]:
    """RSR 13.11-13.15: hexes where ``side`` may add a trench level this End Stage.

    At least three command points of combat units that have not moved (or retreated or advanced) this
    game turn, none adjacent to an enemy unit; command units do not count (13.15); fortress hexes may
    have trenches too (13.12); at most level 2.
    """
    grid = state.static.grid
    enemies = {u.hex for u in state.units.values() if u.side != side and u.hex and u.steps > 0}
    sites = []
    hexes = sorted({u.hex for u in state.units.values() if u.side == side and u.hex and u.steps > 0})
    for hex_id in hexes:
        if state.trenches.get(hex_id, 0) >= MAX_TRENCH:
            continue
        builders = [u for u in state.units_in(hex_id, side)
                    if activation.kind(state, u) == "combat" and u.id not in state.moved]
        if sum(activation.command_value(state, u) for u in builders) < TRENCH_MINIMUM_CP:
            continue
        if any(h in enemies for h in grid.neighbours(hex_id)):
            continue
        sites.append(hex_id)
    return sites


def build_trenches(state: RsrState, ctx: Context, side: str, hexes: list[str]) -> None:
    """RSR 13.11, 13.16: one level per hex per turn, placed in the End Stage."""
    sites = trench_sites(state, side)
    for hex_id in hexes:
        if hex_id not in sites:
            raise RulesError(f"{side} cannot build a trench in {hex_id} this turn (RSR 13.11)")
    for hex_id in sorted(set(hexes)):
        state.trenches[hex_id] = state.trenches.get(hex_id, 0) + 1
        ctx.emit("trench", f"{side} builds a level {state.trenches[hex_id]} trench in {hex_id}", "RSR 13.11",
                 hex=hex_id, level=state.trenches[hex_id], side=side)
