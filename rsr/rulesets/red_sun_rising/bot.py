"""A simple Red Sun Rising player that chooses legal inputs: the demo's opponent, and the driver of soak tests.

A bot sees only what a player sees (the request and the position) and answers with an ordinary
orders list, so everything it does goes through the same checks, signing and replay as a person's.
"""

from __future__ import annotations

from typing import Any

from rsr.engine import Request
from rsr.rulesets.red_sun_rising import combat, movement
from rsr.rulesets.red_sun_rising.crt import COLUMNS, odds_column
from rsr.rulesets.red_sun_rising.state import RsrState


def greedy_attacks(state: RsrState, request: Request, min_column: str = "1-1") -> dict[str, Any]:
    """RSR: attack each adjacent enemy hex, weakest first, with every free attacker next to it,
    when the odds reach ``min_column``; name a command unit stacked with the attackers if one fits."""
    free = dict(request.options["attackers"])
    targets = sorted({h for hexes in free.values() for h in hexes},
                     key=lambda h: (sum(combat.strength(state, u) for u in combat.combat_units_in(
                         state, h, combat.enemy_of(request.side))), h))
    attacks = []
    for hex_id in targets:
        attackers = sorted(u for u, hexes in free.items() if hex_id in hexes)
        if not attackers:
            continue
        defenders = combat.combat_units_in(state, hex_id, combat.enemy_of(request.side))
        total = sum(combat.strength(state, state.units[u]) for u in attackers)
        column = odds_column(total, sum(combat.strength(state, d) for d in defenders))
        if defenders and (column is None or COLUMNS.index(column) < COLUMNS.index(min_column)):
            continue
        command = _command_for(state, attackers)
        attacks.append({"hex": hex_id, "attackers": attackers, "command": command})
        for unit in attackers:
            del free[unit]
    return {"attacks": attacks, "last_round": not attacks}


def _command_for(state: RsrState, attackers: list[str]) -> str | None:
    used = set(state.round.commands_used)
    for unit_id in attackers:
        hq_id = state.units[unit_id].assigned_to
        hq = state.units.get(hq_id or "")
        if hq and hq.steps > 0 and hq.id not in used and any(state.units[a].hex == hq.hex for a in attackers):
            return hq.id
    return None


def advance_orders(state: RsrState, request: Request) -> dict[str, Any]:
    """RSR 4.23: every command unit and unit in chain order, each heading for the nearest enemy-held city
    (or enemy unit) as far as a legal path takes it; command units first, so they lead."""
    grid = state.static.grid
    side = request.side
    enemy = combat.enemy_of(side)
    # the cities RSR 19.4 counts come first, then any other city, then the enemy's units
    targets = sorted(h for h in state.static.victory_cities if state.control.get(h, enemy) != side)
    targets = targets or sorted(h for h, p in state.static.places.items()
                                if p.city and state.control.get(h, enemy) != side)
    targets = targets or sorted({u.hex for u in state.units.values()
                                 if u.side != side and u.hex and u.steps > 0})
    steps = []
    for item in request.template["steps"]:
        unit = state.units[item["unit"]]
        if not targets:
            steps.append({"unit": unit.id, "path": []})
            continue
        goal = min(targets, key=lambda h: (grid.distance(unit.hex or h, h), h))
        options = movement.destinations(state, unit)
        best = min(options, key=lambda h: (grid.distance(h, goal), len(options[h]), h))
        steps.append({"unit": unit.id, "path": list(options[best])})
    return {"steps": steps}


def assign_all(state: RsrState, request: Request) -> dict[str, Any]:
    """RSR 14.0: give every unassigned combat unit to the nearest command unit of its side."""
    grid = state.static.grid
    commands = request.options["command_units"]
    assign = {}
    for unit_id, current in request.options["units"].items():
        if current is None and commands:
            here = state.units[unit_id].hex or ""
            assign[unit_id] = min(commands, key=lambda c: (grid.distance(here, state.units[c].hex or here), c))
    return {"assign": assign}


def answer(state: Any, request: Request, min_column: str = "1-1") -> list[dict[str, Any]]:
    """The bot's inputs for ``request`` (an empty list where a standing policy answers)."""
    if request.kind == "land-combat-attacks":
        return [{"request": request.id, "answer": greedy_attacks(state, request, min_column)}]
    if request.kind == "land-movement":
        return [{"request": request.id, "answer": advance_orders(state, request)}]
    if request.kind in ("sailing-orders", "naval-round", "naval-landings",
                        "naval-surprise-attack"):  # naval game
        from rsr.rulesets.red_sun_rising.naval import bot as naval_bot

        return [{"request": request.id, "answer": naval_bot.answer(state, request)}]
    if request.kind == "assignments":
        return [{"request": request.id, "answer": assign_all(state, request)}]
    return []
