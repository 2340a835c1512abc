"""Trenches (RSR 13.1x): built in the End Stage by units that stood still, away from the enemy."""

from __future__ import annotations

from typing import Any

from rsr.decisions import Decision, Policy
from rsr.engine import Context
from rsr.errors import RulesError
from rsr.rulesets.red_sun_rising import activation
from rsr.rulesets.red_sun_rising.sequence import Go
from rsr.rulesets.red_sun_rising.state import Ask, RsrState

TRENCH_MINIMUM_CP = 3  # RSR 13.11
MAX_TRENCH = 2         # RSR 13.11


def trench_sites(state: RsrState, side: str) -> list[str]:
    """RSR 13.11-13.15: hexes where ``side`` may add a trench level this End Stage.

    At least three command points of combat units that have not moved (or retreated or advanced) this
    game turn, none adjacent to an enemy unit; command units do not count (RSR 13.15); fortress hexes may
    have trenches too (RSR 13.12); at most level 2.
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
    """RSR 13.11, RSR 13.16: one level per hex per turn, placed in the End Stage."""
    sites = trench_sites(state, side)
    for hex_id in hexes:
        if hex_id not in sites:
            raise RulesError(f"{side} cannot build a trench in {hex_id} this turn (RSR 13.11)")
    for hex_id in sorted(set(hexes)):
        state.trenches[hex_id] = state.trenches.get(hex_id, 0) + 1
        ctx.emit("trench", f"{side} builds a level {state.trenches[hex_id]} trench in {hex_id}", "RSR 13.11",
                 hex=hex_id, level=state.trenches[hex_id], side=side)


# -- the End Stage's trench decisions, Russia's then Japan's (sequence.END) ----------------------------------


def run_trenches(side: str) -> Any:
    """RSR 13.11, RSR 13.16: ``side`` says where it builds a trench level this End Stage (decision ``trenches``)."""
    def run(state: RsrState, ctx: Context, stage_side: str | None) -> Go:
        state.ask = Ask("trenches", side, f"{state.request_base()}/{side}/trenches")
        return Go.ASKED

    return run


def apply_trenches(state: RsrState, ctx: Context, ask: Ask, answer: Any) -> None:
    build_trenches(state, ctx, ask.side, [str(h) for h in answer["build"]])


TRENCHES = Decision(
    "trenches", "t{turn}/end/{side}/trenches", "RSR 13.11", "each side, Russia first",
    prompt=lambda state, ask: f"End Stage: trench levels to build ({ask.side})",
    options=lambda state, ask: {"hexes": trench_sites(state, ask.side)},
    template=lambda state, ask: {"build": trench_sites(state, ask.side)},
    policy=Policy("trenches", ("build", "never", "ask"), default="build",
                  answer=lambda state, ask, request, rule: ({"build": request.options["hexes"] if rule == "build"
                                                             else []} if rule in ("build", "never") else None)),
    schema={"type": "object", "required": ["build"], "properties": {"build": {"type": "array"}}},
    shape="a trench answer is {build: [hexes]}", apply=apply_trenches)
