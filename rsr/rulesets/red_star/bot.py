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
    if kind == "combats":  # (its choices come sealed, combat by combat: RS/RS 6.21, RS/RS 5.3)
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



# -- artillery: bombardment, interdiction and offensive support ----------------------------------
# Planned apart from the answers above: RedStar.bot() routes fire-missions here and adds support to the
# bot's attack choices (support_for_attacks). Deterministic: every choice is sorted by numbers then ids.

BOMBARD_SHARE = 2        # the bot spends at most 1/BOMBARD_SHARE of its support points on fire missions
SUPPORT_PER_COMBAT = 2   # offensive support: at most two guns per combat


def fire_missions(state: RsState, side: str) -> dict[str, Any]:
    """RS/RS 5.21, RS/RS 5.22: bombard the enemy unit in contact that the most guns reach (2 points a gun), then
    interdict, with the guns left, the road or bridge hex with the most enemy units within two hexes (1 point
    per two guns); half the support points are kept for the ground combats that follow."""
    from rsr.rulesets.red_star import artillery

    budget = state.support.get(side, 0) // BOMBARD_SHARE
    guns = artillery.eligible(state, side)
    if not guns or budget < 1:
        return {"missions": []}
    enemy = enemy_of(side)
    grid = state.static.grid
    friends = [u.hex for u in state.on_map(side) if u.hex and not state.counter(u.id).artillery]
    missions: list[dict[str, Any]] = []
    free = list(guns)
    targets = []
    for target in state.on_map(enemy):
        if not target.hex or not state.counter(target.id).ground:
            continue
        if not any(grid.distance(h, target.hex) <= 1 for h in friends):
            continue  # RS/RS 5.53: spotted from next door, and it softens a hex the bot may attack
        reaching = [g for g in free if artillery.reaches(state, g, target.hex)]
        if reaching:
            strength = _indirect_strength(state, reaching, target)
            if strength >= 3:  # RS/RS 5.21 with the Combat Effectiveness Chart: not worth two points a gun below 3
                targets.append((-strength, current(state, target), target.id, reaching))
    if targets and budget >= 2:
        _, _, target_id, reaching = min(targets, key=lambda t: (t[0], t[1], t[2]))
        chosen = sorted(reaching, key=lambda g: (-current(state, g), g.id))[:budget // 2]
        missions.append({"bombard": target_id, "artillery": [g.id for g in chosen]})
        budget -= 2 * len(chosen)
        free = [g for g in free if g not in chosen]
    if free and budget >= 1:
        enemy_hexes = sorted({u.hex for u in state.on_map(enemy) if u.hex})
        scored = []
        candidates = sorted({h for e in enemy_hexes for h in grid.neighbours(e)} | set(enemy_hexes))
        for hex_id in candidates:
            if hex_id not in state.static.terrain or not artillery.interdiction_target(state, hex_id) \
                    or hex_id in state.interdiction.get(side, {}):
                continue
            reaching = [g for g in free if artillery.reaches(state, g, hex_id)]
            if not reaching:
                continue
            near = sum(1 for e in enemy_hexes if grid.distance(e, hex_id) <= 2)
            scored.append((-near, -sum(current(state, g) for g in reaching), hex_id, reaching))
        if scored:
            _, _, hex_id, reaching = min(scored, key=lambda t: (t[0], t[1], t[2]))
            chosen = sorted(reaching, key=lambda g: (-current(state, g), g.id))[:2 * budget]
            missions.append({"interdict": hex_id, "artillery": [g.id for g in chosen]})
    answer = {"missions": missions}
    while missions:
        try:
            artillery.check_missions(state, side, answer)
            break
        except RulesError:
            missions.pop()
    return answer


def _indirect_strength(state: RsState, guns: list[Any], target: Any) -> int:
    """The bombardment strength of ``guns`` against ``target`` through the Combat Effectiveness Chart (RS/RS 5.21)."""
    from fractions import Fraction
    from math import ceil

    from rsr.rulesets.red_star.combat import effectiveness

    multiplier, _ = effectiveness(state, "weapons-indirect-fire", state.counter(target.id).cls.lower(), False)
    return ceil(sum((Fraction(current(state, g)) * multiplier for g in guns), Fraction(0)))


def support_for_attacks(state: RsState, request: Request, inputs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """RS/RS 5.31, RS/RS 5.6: add offensive support to the bot's attack choices: for each combat, up to two guns
    that may support it, strongest first, while support points last after the ground-combat costs (RS/RS 6.1)."""
    from rsr.rulesets.red_star import support

    combats = [c for c in state.combats if c.id in (request.options or {})]
    if not combats:
        return inputs
    side = combats[0].attacker
    budget = state.support.get(side, 0) - sum(len(set(c.attack_hexes.values())) for c in combats
                                              if c.stage == "waiting")
    used: list[str] = []
    out = []
    for item in inputs:
        answer = item.get("answer")
        if item.get("request") != request.id or not isinstance(answer, dict) or not isinstance(
                answer.get("combats"), dict):
            out.append(item)
            continue
        answer = copy.deepcopy(answer)
        for combat in combats:
            choice = answer["combats"].get(combat.id)
            if not isinstance(choice, dict) or choice.get("support"):
                continue
            guns = sorted((g for g in state.on_map(side) if state.counter(g.id).artillery and g.id not in used
                           and support.support_problem(state, combat, "attacker", g.id) is None),
                          key=lambda g: (-current(state, g), g.id))
            chosen = [g.id for g in guns[:max(0, min(SUPPORT_PER_COMBAT, budget))]]
            if chosen:
                choice["support"] = chosen
                used += chosen
                budget -= len(chosen)
        out.append({**item, "answer": answer})
    return out


def fire_plan(state: RsState, request: Request) -> list[dict[str, Any]]:
    """RS/RS 5.2: the bot plans its missions ahead in its first answer (the first fires now; policy
    fire-missions ``planned``, the default, gives the others one after another, each after the one before has
    resolved), with its prepared combats planned alongside (policy combats); asked again in the same segment,
    it fires no more."""
    if request.options.get("mission", 1) > 1:
        return [{"request": request.id, "answer": {"missions": []}}]
    missions = fire_missions(state, request.side)
    return combats_planned_with(state, request.side, missions) + [{"request": request.id, "answer": missions}]


def combats_planned_with(state: RsState, side: str, missions: dict[str, Any]) -> list[dict[str, Any]]:
    """With fire missions to roll, the prepared combats go with them as a conditional plan (policy
    ``combats``, RS/RS 6.1), each with its choices inline, so the combats need no packet of their own after
    the fire's dice; what the fire changes is checked when the plan is declared."""
    if not any(missions.get(key) for key in missions):
        return []
    from rsr.rulesets.red_star import artillery

    try:
        checked = artillery.check_missions(state, side, missions)
    except RulesError:  # (missions the rules refuse are refused where they are signed; they pay for nothing)
        checked = []
    spent = sum(artillery.cost_of(state, m["mission"], len(m["artillery"])) for m in checked)
    fired = {g for m in checked for g in m["artillery"]}  # RS/RS 5.1: these guns will have fired
    plan = with_choices(state, side, prepared_attacks(state, side), spent, fired)
    return [{"policy": "combats", "rule": {"turn": state.turn, "combats": plan}}] if plan else []


def with_choices(state: RsState, side: str, attacks: list[dict[str, Any]], spent: int = 0,
                 fired: set[str] | frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    """RS/RS 6.1, RS/RS 6.21, RS/RS 5.31: the bot's prepared combats as far as the points left after ``spent`` pay their
    ground cost (one per attacking hex), each with its choices planned ahead in the clear: lead units and armor
    protection by the documented default, and up to two supporting guns while points last (guns in
    ``fired`` excluded). They are checked again when each combat's turn comes (turn.one_combat_choices)."""
    from rsr.rulesets.red_star import support

    scratch = copy.deepcopy(state)
    budget = state.support.get(side, 0) - spent
    plan = []
    used: list[str] = []
    combats = []
    for number, raw in enumerate(attacks, start=1):
        combat = cm.parse_declaration(scratch, side, raw, number, used, "prepared", f"plan/c{number}")
        cost = len(cm.attack_hexes(combat))
        if cost <= budget:
            combats.append((raw, combat))
            budget -= cost
    guns_used = set(fired)
    for raw, combat in combats:
        choice = cm.auto_choice(scratch, combat, "attacker")
        guns = sorted((g for g in scratch.on_map(side) if scratch.counter(g.id).artillery and g.id not in guns_used
                       and support.support_problem(scratch, combat, "attacker", g.id) is None),
                      key=lambda g: (-current(scratch, g), g.id))
        chosen = [g.id for g in guns[:max(0, min(SUPPORT_PER_COMBAT, budget))]]
        if chosen:
            choice["support"] = chosen
            guns_used.update(chosen)
            budget -= len(chosen)
        plan.append({**raw, **{k: v for k, v in choice.items() if v is not None}})
    return plan
