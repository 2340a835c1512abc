"""A simple Red Sun/Red Star player: legal inputs in orders-file form for any request.

It sees what a player sees (the request and the position). It seals what may be sealed (entry hexes,
prepared-combat choices), makes prepared attacks at 3:2 in factors or better (the Japanese at night when
only Leg and Armor units attack), moves Leg and Armor units toward the nearest enemy and makes a hasty
attack, with its choices given in the clear, where it arrives next to a weak enemy hex. Weapons and HQ
units stay where they are.
"""

from __future__ import annotations

import copy
from typing import Any

from rsr.engine import Request
from rsr.errors import RulesError
from rsr.rulesets.red_star import combat as cm
from rsr.rulesets.red_star import force, movement, stacking
from rsr.rulesets.red_star.sequence import HASTY_COST
from rsr.rulesets.red_star.state import RsState, enemy_of
from rsr.rulesets.red_star.terrain import current, is_motorized, zone_of_control

ATTACK_RATIO = 1.5   # prepared attacks at 3:2 in printed factors or better
HASTY_RATIO = 2.0    # hasty attacks at 2:1 or better


def answer(state: RsState, request: Request) -> list[dict[str, Any]]:
    """The bot's inputs for ``request`` ([] for an unseal: the orders layer reveals its own seal)."""
    kind = request.kind
    if kind == "unseal":
        return []
    if kind == "entry-plan":
        return [{"request": request.id, "answer": {"entries": force.default_plan(state, request.side)}, "seal": True}]
    if kind == "attack-choices":
        return [{"request": request.id, "answer": request.template, "seal": True}]
    if kind == "combats":
        return [{"request": request.id, "answer": {"combats": prepared_attacks(state, request.side)}}]
    if kind == "movement":
        return [{"request": request.id, "answer": moves(state, request.side)}]
    if kind == "reserves":
        return [{"request": request.id, "answer": {"release": list(request.options["units"])}}]
    if kind == "retreat":
        return [{"request": request.id, "answer": {"path": request.options["options"][0]}}]
    return [{"request": request.id, "answer": request.template}]


def _factors(state: RsState, hex_id: str, side: str) -> int:
    return sum(current(state, u) for u in state.units_in(hex_id, side))


def prepared_attacks(state: RsState, side: str) -> list[dict[str, Any]]:
    """RS/RS 6.0: each enemy hex, weakest first, with every free unit next to it, at 3:2 or better."""
    enemy = enemy_of(side)
    grid = state.static.grid
    free = {u.id: u for u in state.on_map(side) if cm.can_attack(state, u) is None}
    targets = sorted({h for u in free.values() for h in grid.neighbours(u.hex or "") if state.units_in(h, enemy)},
                     key=lambda h: (_factors(state, h, enemy), h))
    budget = state.support.get(side, 0)
    combats = []
    for hex_id in targets:
        attackers = sorted(u for u, unit in free.items() if grid.adjacent(unit.hex or "", hex_id))
        hexes = {free[u].hex for u in attackers}
        if not attackers or len(hexes) > budget:
            continue
        night = side == "japan" and all(state.counter(u).cls in ("Leg", "Armor") for u in attackers)
        if side == "japan" and not night:
            attackers = [u for u in attackers if state.counter(u).cls in ("Leg", "Armor")] or attackers
            night = all(state.counter(u).cls in ("Leg", "Armor") for u in attackers)
        strength = sum(current(state, state.units[u]) for u in attackers)
        if strength < ATTACK_RATIO * max(1, _factors(state, hex_id, enemy)):
            continue
        combats.append({"hex": hex_id, "attackers": attackers, "night": night})
        budget -= len({free[u].hex for u in attackers})
        for unit_id in attackers:
            del free[unit_id]
    return combats


def moves(state: RsState, side: str) -> dict[str, Any]:
    """RS/RS 7.0-7.5: Leg and Armor units close on the nearest enemy; a hasty attack where it pays."""
    enemy = enemy_of(side)
    grid = state.static.grid
    trial = copy.deepcopy(state)
    order: list[dict[str, Any]] = []
    budget = state.support.get(side, 0)
    attacked: list[str] = []
    for unit in state.on_map(side):
        counter = state.counter(unit.id)
        if counter.cls not in ("Leg", "Armor") or movement.restricted(state, unit):
            continue
        enemies = [u.hex for u in trial.on_map(enemy) if u.hex]
        if not enemies or unit.hex in zone_of_control(trial, enemy):
            continue
        here = trial.units[unit.id]
        options = movement.destinations(trial, here)
        goal = min(enemies, key=lambda h: (grid.distance(here.hex or h, h), h))
        ranked = sorted(options, key=lambda h: (grid.distance(h, goal), -options[h][1], h))
        for dest in ranked:
            path, left = options[dest]
            if not path:
                break
            if stacking.legal(trial, side, [u.id for u in trial.units_in(dest, side)] + [unit.id]) is not None:
                continue
            move: dict[str, Any] = {"units": [unit.id], "path": list(path)}
            hasty = _hasty(trial, unit.id, dest, left, budget, attacked)
            if hasty:
                move["hasty"] = [hasty]
            if _try(trial, side, move):
                order.append(move)
                if hasty:
                    budget -= 1
                    attacked.append(hasty["hex"])
                break
            move.pop("hasty", None)
            if _try(trial, side, move):
                order.append(move)
                break
    answer = {"trucks": [], "moves": order}
    while order:
        try:
            movement.check_order(state, side, answer)
            break
        except RulesError:
            order.pop()
    return answer


def _hasty(state: RsState, unit_id: str, dest: str, left: Any, budget: int,
           attacked: list[str]) -> dict[str, Any] | None:
    """RS/RS 7.5: a hasty attack from ``dest`` at the weakest adjacent enemy hex, 2:1 or better."""
    unit = state.units[unit_id]
    enemy = enemy_of(unit.side)
    if budget < 1 or left < HASTY_COST[is_motorized(state, unit)] or dest not in zone_of_control(state, enemy):
        return None
    grid = state.static.grid
    targets = sorted((h for h in grid.neighbours(dest) if state.units_in(h, enemy) and h not in attacked),
                     key=lambda h: (_factors(state, h, enemy), h))
    for hex_id in targets:
        if current(state, unit) >= HASTY_RATIO * max(1, _factors(state, hex_id, enemy)):
            return {"hex": hex_id, "units": [unit_id], "lead": unit_id, "armor_protection": False}
    return None


def _try(trial: RsState, side: str, move: dict[str, Any]) -> bool:
    """Check one move against the trial position and, if legal, carry it out there."""
    try:
        _, parsed = movement.parse_moves(trial, side, {"moves": [move]})
        walked = movement.walk(trial, side, parsed[0], strict=True)
        movement.check_hasty(trial, side, parsed[0], walked, [])
        if move.get("hasty"):
            attack = move["hasty"][0]
            declared = {"hex": attack["hex"], "attackers": attack["units"], "lead": attack["lead"],
                        "armor_protection": attack["armor_protection"]}
            combat = cm.parse_declaration(trial, side, declared, 1, [], "hasty", "bot",
                                          {u: move["path"][-1] for u in attack["units"]})
            cm.check_choice(trial, combat, "attacker", combat.inline, "bot")
    except RulesError:
        return False
    movement.apply_walk(trial, side, parsed[0], walked)
    return True

