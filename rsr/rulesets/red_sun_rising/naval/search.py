"""Naval search (RSR 4.13, RSR 6.0-6.24, RSR 7.3)."""

from __future__ import annotations

from rsr.engine import Context
from rsr.rulesets.red_sun_rising.naval.data import NavalStatic

SEARCH_LIMIT = {"high-seas": 1, "coastal": 2, "port": 3}  # RSR 6.11-6.13


def search_limit(static: NavalStatic, hex_number: int) -> int:
    """RSR 6.1: the limit depends on the kind of hex the fleets share."""
    return SEARCH_LIMIT[static.kind(hex_number)]


def weather(die: int) -> str:
    """RSR 6.21: 1-4 clear, 5 fog, 6 storm."""
    return "clear" if die <= 4 else ("fog" if die == 5 else "storm")


def search_modifier(weather_now: str, destroyer_flotillas: int) -> int:
    """RSR 6.22-6.24: +1 fog, +2 storm, -1 per destroyer flotilla of the searcher (torpedo flotillas do not
    count); all cumulative."""
    return {"clear": 0, "fog": 1, "storm": 2}[weather_now] - destroyer_flotillas


def search(ctx: Context, static: NavalStatic, hex_number: int, side: str, ships: list[str]) -> tuple[bool, str]:
    """RSR 6.0: weather first, then the search die; sighted when the modified die <= the limit."""
    weather_now = weather(ctx.roll(6, f"weather in naval hex {hex_number}, RSR 6.21"))
    destroyers = sum(1 for s in ships if static.ship(s).cls == "DF")
    die = ctx.roll(6, f"{side} search in naval hex {hex_number}, RSR 6.22")
    modifier = search_modifier(weather_now, destroyers)
    limit = search_limit(static, hex_number)
    found = die + modifier <= limit
    ctx.emit("search", f"{side} searches naval hex {hex_number} ({static.kind(hex_number)}, limit {limit}): "
             f"{weather_now}, die {die} {modifier:+d} -> {'sighted' if found else 'nothing'}", "RSR 6.0",
             provisional=[f"kind of naval hex {hex_number}: {static.hexes[hex_number].provenance}"]
             if static.hexes[hex_number].provenance.startswith("provisional") else [],
             side=side, hex=hex_number, weather=weather_now, die=die, modifier=modifier, limit=limit, found=found)
    return found, weather_now
