"""Direct fire: offensive and defensive support in prepared combat (RS/RS 5.1, 5.3-5.32, 5.6-5.63, 10.3).

Each side names its supporting artillery with its secret prepared-combat choices (``support: [unit ids]``
next to ``lead`` and ``armor_protection``): the attacker's are sealed with his lead units, the defender
answers before they are revealed, so neither sees the other's before both are fixed (5.3: chosen
secretly, revealed together). Points are spent when the combat starts, right after the attacker's
ground-combat cost (6.1): one per gun, nothing for a defending gun in the attacked hex (S&T 158 errata); a
gun its side cannot pay for does not fire. A paid gun adds its factors, through the Combat Effectiveness
Chart's Weapons Direct Fire row, to its side's first firefight in the combat (our reading of "whenever
they fire" with 5.1's one fire per player turn; interpretations.md 5.3) and takes a Fired marker.
"""

from __future__ import annotations

from typing import Any

from rsr.engine import Context
from rsr.errors import RulesError
from rsr.rulesets.red_star.state import Combat, RsState, Unit, enemy_of
from rsr.rulesets.red_star.terrain import current, in_supply

GENERAL_BOX = {"japan": "red", "soviet": "white"}     # RS/RS 5.61: supports every unit of its side
SPECIAL_ID = {"japan": "red", "soviet": "white"}      # RS/RS 5.62: supports only its own formation number


def formation_allows(state: RsState, gun: Unit, unit: Unit) -> bool:
    """RS/RS 5.61, 5.62, Formation Chart: may ``gun`` give direct fire support to ``unit``?"""
    art = state.counter(gun.id)
    other = state.counter(unit.id)
    if art.side != other.side:
        return False
    if art.id_colour == SPECIAL_ID[art.side]:  # 5.62: a coloured ID number beats the box colour
        return art.formation_id is not None and other.formation_id == art.formation_id
    if art.box_colour == GENERAL_BOX[art.side]:
        return True
    return art.box_colour is not None and other.box_colour == art.box_colour


def _side_units(state: RsState, combat: Combat, role: str) -> list[Unit]:
    if role == "attacker":
        return [state.units[u] for u in combat.attackers]
    return state.units_in(combat.hex, combat.defender)


def support_problem(state: RsState, combat: Combat, role: str, gun_id: str) -> str | None:
    """Why ``gun_id`` may not support this side of the combat (RS/RS 5.1, 5.3-5.32, 5.6, 5.7, 10.3)."""
    side = combat.attacker if role == "attacker" else combat.defender
    gun = state.units.get(gun_id)
    if gun is None or gun.side != side or not gun.on_map:
        return f"{gun_id} is not a {side} unit on the map"
    counter = state.counter(gun_id)
    if not counter.artillery:
        return f"{gun_id} is not artillery (RS/RS 5.0)"
    if combat.kind != "prepared":
        return "direct fire support is given only in Prepared Combat (RS/RS 5.3, 7.54)"
    if role == "attacker" and combat.night:
        return "no Offensive Support in a night combat (RS/RS 5.31)"
    if combat.night:  # RS/RS 5.32 with 6.92: Weapons class (artillery too) does not fire at night, either side
        return "no Weapons class fire at night, so no Defensive Support in a night combat (RS/RS 5.32, 6.92)"
    if gun.fired:
        return f"{gun_id} has a Fired marker: artillery fires once per player turn (RS/RS 5.1)"
    if gun.disruption:
        return f"{gun_id} has a \"{gun.disruption}\" marker and may not conduct fire missions (RS/RS 5.7)"
    grid = state.static.grid
    distance = grid.distance(gun.hex or "", combat.hex)
    reach = counter.face(gun.reduced).range or 0
    if distance > reach:
        return (f"{gun_id} in {gun.hex} is {distance} hexes from {combat.hex}, beyond its range {reach} "
                "(RS/RS 5.31, 5.32, 5.51)")
    enemy = enemy_of(side)
    near_enemy = any(state.units_in(h, enemy) for h in state.static.neighbours(gun.hex or ""))
    if near_enemy or not in_supply(state, gun):
        targets = [combat.hex] if role == "attacker" else sorted(set(combat.attack_hexes.values()))
        if not any(grid.distance(gun.hex or "", h) <= 1 for h in targets):
            why = "is next to an enemy unit" if near_enemy else "is out of supply"
            return (f"{gun_id} {why} and may fire only at an adjacent unit (RS/RS 5.1, 10.3); "
                    f"{', '.join(targets)} is not adjacent")
    supported = [u for u in _side_units(state, combat, role) if not state.counter(u.id).artillery]
    if not any(formation_allows(state, gun, u) for u in supported):
        return (f"{gun_id} ({counter.box_colour} box, {counter.id_colour} ID {counter.formation_id}) may support "
                f"none of {', '.join(u.id for u in supported)} (RS/RS 5.6, Formation Chart)")
    return None


def check_support(state: RsState, combat: Combat, role: str, raw: Any, where: str) -> list[str]:
    """The ``support`` list of a side's choices for one combat."""
    if raw is None:
        return []
    if not isinstance(raw, list) or not all(isinstance(u, str) for u in raw):
        raise RulesError(f"{where}: support is a list of artillery unit ids (RS/RS 5.3)")
    if len(set(raw)) != len(raw):
        raise RulesError(f"{where}: a supporting gun is listed twice (RS/RS 5.1)")
    for gun_id in raw:
        problem = support_problem(state, combat, role, gun_id)
        if problem:
            raise RulesError(f"{where}: {problem}")
    return list(raw)


def check_unique(combats: list[Combat], role: str) -> None:
    """RS/RS 5.1: a gun supports one combat only (it fires once per player turn)."""
    seen: dict[str, str] = {}
    for combat in combats:
        choice = combat.attack_choice if role == "attacker" else combat.defence_choice
        for gun_id in (choice or {}).get("support", []):
            if gun_id in seen:
                raise RulesError(f"{gun_id} supports both {seen[gun_id]} and {combat.id}: artillery fires once per "
                                 "player turn (RS/RS 5.1)")
            seen[gun_id] = combat.id


def auto_support(state: RsState, combat: Combat, role: str) -> list[str]:
    """Default support: the defender's guns in the attacked hex, which fire for free (S&T 158 errata on 5.3)."""
    if role != "defender":
        return []
    return [u.id for u in state.units_in(combat.hex, combat.defender)
            if state.counter(u.id).artillery and support_problem(state, combat, role, u.id) is None]


def pay(state: RsState, ctx: Context, combat: Combat) -> None:
    """RS/RS 5.3, 6.1: each side pays one point per announced gun, in the order listed (S&T 158 errata: a
    defending gun in the attacked hex is free); a gun that is gone, or that cannot be paid for, does not fire."""
    for role in ("attacker", "defender"):
        side = combat.attacker if role == "attacker" else combat.defender
        choice = combat.attack_choice if role == "attacker" else combat.defence_choice
        paid: list[str] = []
        suppressed = state.cb.get("suppressed", [])
        for gun_id in (choice or {}).get("support", []):
            gun = state.units[gun_id]
            if gun_id in suppressed or not gun.on_map:  # RS/RS 5.41: no fire, and the point is lost all the same
                lost = 0 if (role == "defender" and gun.hex == combat.hex) or state.support.get(side, 0) < 1 else 1
                state.support[side] = state.support.get(side, 0) - lost
                ctx.emit("cancelled", f"{gun_id} was {'suppressed' if gun.on_map else 'eliminated'} by counterbattery "
                         f"and does not support {combat.id} ({lost} support point lost)", "RS/RS 5.41",
                         combat=combat.id, unit=gun_id, side=side, lost=lost)
                continue
            if support_problem(state, combat, role, gun_id) is not None:
                ctx.emit("support-off", f"{gun_id} can no longer support {combat.id}", "RS/RS 5.3",
                         combat=combat.id, unit=gun_id, side=side)
                continue
            free = role == "defender" and gun.hex == combat.hex
            if not free and state.support.get(side, 0) < 1:
                ctx.emit("support-off", f"{side} has no support point left for {gun_id}'s support of {combat.id}",
                         "RS/RS 5.3", combat=combat.id, unit=gun_id, side=side)
                continue
            if not free:
                state.support[side] -= 1
            paid.append(gun_id)
            ctx.emit("direct-support", f"{gun_id} gives {'offensive' if role == 'attacker' else 'defensive'} support "
                     f"in {combat.id} ({'free: in the attacked hex' if free else '1 support point'}; {side} has "
                     f"{state.support.get(side, 0)} left)", "RS/RS 5.31" if role == "attacker" else "RS/RS 5.32",
                     combat=combat.id, unit=gun_id, side=side, role=role, cost=0 if free else 1,
                     left=state.support.get(side, 0))
        combat.support_guns[role] = paid


def rows(state: RsState, combat: Combat, role: str, target_hex: str) -> list[dict[str, Any]]:
    """The hook of combat.direct_support: guns paid for and not yet fired, each with its factors."""
    out = []
    for gun_id in combat.support_guns.get(role, []):
        gun = state.units[gun_id]
        if gun_id in combat.fired or not gun.on_map or gun.fired or gun.disruption:
            continue
        out.append({"unit": gun_id, "row": "weapons-direct-fire", "factors": current(state, gun),
                    "adjacent": state.static.grid.distance(gun.hex or "", target_hex) <= 1})
    return out


def fired(state: RsState, combat: Combat, guns: list[str]) -> None:
    """RS/RS 5.1: a supporting gun takes its Fired marker when its fire is used."""
    for gun_id in guns:
        state.units[gun_id].fired = True
        if gun_id not in combat.fired:
            combat.fired.append(gun_id)
