"""Direct fire: offensive and defensive support in prepared combat (RS/RS 5.1, RS/RS 5.3-5.32, RS/RS 5.6-5.63,
RS/RS 10.3).

Each side names its supporting artillery with its secret prepared-combat choices (``support: [unit ids]``
next to ``lead`` and ``armor_protection``): the attacker's are sealed with his lead units, the defender
answers before they are revealed, so neither sees the other's before both are fixed (RS/RS 5.3: chosen
secretly, revealed together). Points are spent when the combat starts, right after the attacker's
ground-combat cost (RS/RS 6.1): one per gun, nothing for a defending gun in the attacked hex (S&T 158 errata); a
gun its side cannot pay for does not fire. A paid gun adds its factors, through the Combat Effectiveness
Chart's Weapons Direct Fire row, to the firefight its owner assigns it to (``support`` inside a firefight of
``fire``), or, unassigned, to its side's first firefight it may join (the Formation Chart checked against the
units it fires with, and RS/RS 5.1's adjacent-target limit against that firefight's target), and takes a Fired
marker (interpretations.md RS/RS 5.3).
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
    """RS/RS 5.61, RS/RS 5.62, Formation Chart: may ``gun`` give direct fire support to ``unit``?"""
    art = state.counter(gun.id)
    other = state.counter(unit.id)
    if art.side != other.side:
        return False
    if art.id_colour == SPECIAL_ID[art.side]:  # RS/RS 5.62: a coloured ID number beats the box colour
        return art.formation_id is not None and other.formation_id == art.formation_id
    if art.box_colour == GENERAL_BOX[art.side]:
        return True
    return art.box_colour is not None and other.box_colour == art.box_colour


def _side_units(state: RsState, combat: Combat, role: str) -> list[Unit]:
    if role == "attacker":
        return [state.units[u] for u in combat.attackers]
    return state.units_in(combat.hex, combat.defender)


def support_problem(state: RsState, combat: Combat, role: str, gun_id: str) -> str | None:
    """Why ``gun_id`` may not support this side of the combat (RS/RS 5.1, RS/RS 5.3-5.32, RS/RS 5.6, RS/RS 5.7,
    RS/RS 10.3)."""
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
    # RS/RS 5.32 with RS/RS 6.92: Weapons class (artillery too) does not fire at night, either side (rules option
    # night-defensive-support: RS/RS 5.31 alone bars support at night, so the defender's guns may support)
    if combat.night and not state.options.get("night-defensive-support"):
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
    """Default support: the defender's guns in the attacked hex, which fire for free (S&T 158 errata on RS/RS 5.3)."""
    if role != "defender":
        return []
    return [u.id for u in state.units_in(combat.hex, combat.defender)
            if state.counter(u.id).artillery and support_problem(state, combat, role, u.id) is None]


def pay(state: RsState, ctx: Context, combat: Combat) -> None:
    """RS/RS 5.3, RS/RS 6.1: each side pays one point per announced gun, in the order listed (S&T 158 errata: a
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


def with_assigned(raw: Any, fire: list[dict[str, Any]]) -> Any:
    """RS/RS 5.3: the guns a side allocates to a combat: its ``support`` list, then any gun it names only
    inside a firefight (left as given when it is not a list, for check_support to refuse)."""
    named = [g for group in fire for g in group.get("support", [])]
    if not named or (raw is not None and not isinstance(raw, list)):
        return raw
    listed = list(raw or [])
    return listed + [g for g in named if g not in listed]


def adjacent_only(state: RsState, gun: Unit) -> bool:
    """RS/RS 5.1, RS/RS 10.3: a gun next to an enemy unit, or out of supply, fires only at an adjacent unit."""
    enemy = enemy_of(gun.side)
    near_enemy = any(state.units_in(h, enemy) for h in state.static.neighbours(gun.hex or ""))
    return near_enemy or not in_supply(state, gun)


def joins(state: RsState, gun: Unit, units: list[Unit], target_hex: str) -> bool:
    """May ``gun`` add its factors to a firefight of ``units`` at ``target_hex``? The Formation Chart against
    the units it fires with (RS/RS 5.3, RS/RS 5.6), and RS/RS 5.1's adjacent target for a gun next to an enemy."""
    if not any(formation_allows(state, gun, u) for u in units if not state.counter(u.id).artillery):
        return False
    return state.static.grid.distance(gun.hex or "", target_hex) <= 1 or not adjacent_only(state, gun)


def check_assignments(state: RsState, combat: Combat, role: str, fire: list[dict[str, Any]], where: str) -> None:
    """RS/RS 5.1, RS/RS 5.3, RS/RS 5.6: each gun assigned to one firefight, which it may join: a unit of that firefight
    passes the Formation Chart, and a gun next to an enemy fires only at an adjacent hex (a defender's
    firefight with no ``at`` is checked when it fires, its target hex not being known before)."""
    seen: dict[str, int] = {}
    for number, group in enumerate(fire, start=1):
        for gun_id in group.get("support", []):
            if gun_id in seen:
                raise RulesError(f"{where}: {gun_id} is assigned to firefights {seen[gun_id]} and {number}: "
                                 "artillery fires once per player turn (RS/RS 5.1)")
            seen[gun_id] = number
            gun = state.units[gun_id]
            units = [state.units[u] for u in group["units"]]
            fighters = [u for u in units if not state.counter(u.id).artillery]
            if not any(formation_allows(state, gun, u) for u in fighters):
                counter = state.counter(gun_id)
                raise RulesError(f"{where}: firefight {number}: {gun_id} ({counter.box_colour} box, "
                                 f"{counter.id_colour} ID {counter.formation_id}) may support none of "
                                 f"{', '.join(u.id for u in fighters)} (RS/RS 5.6, Formation Chart)")
            target_hex = combat.hex if role == "attacker" else group.get("at")
            if target_hex is not None and adjacent_only(state, gun) \
                    and state.static.grid.distance(gun.hex or "", target_hex) > 1:
                raise RulesError(f"{where}: firefight {number}: {gun_id} is next to an enemy unit or out of supply "
                                 f"and may fire only at an adjacent unit; {target_hex} is not adjacent "
                                 "(RS/RS 5.1, 10.3)")


def assigned(combat: Combat, role: str) -> set[str]:
    """Guns its owner assigned to a particular firefight of this combat (RS/RS 5.3)."""
    choice = (combat.attack_choice if role == "attacker" else combat.defence_choice) or {}
    return {g for group in (choice.get("fire") or []) for g in group.get("support", [])}


def waste_assigned(state: RsState, ctx: Context, combat: Combat, role: str, group: dict[str, Any],
                   joined: list[str]) -> None:
    """RS/RS 5.3 with RS/RS 5.51: a gun assigned to a firefight it cannot join there (the formation's units no
    longer fire in it, or RS/RS 5.1's adjacent target is not the one fired at) is wasted: it keeps its cost and
    takes its Fired marker, and fires in no other firefight."""
    side = combat.attacker if role == "attacker" else combat.defender
    for gun_id in group.get("support", []):
        gun = state.units[gun_id]
        if gun_id in joined or gun_id not in combat.support_guns.get(role, []) or gun_id in combat.fired \
                or not gun.on_map or gun.fired or gun.disruption:
            continue
        fired(state, combat, [gun_id])
        ctx.emit("support-off", f"{gun_id} may not join the firefight it was assigned to in {combat.id}: its fire "
                 "is wasted (Fired marker)", "RS/RS 5.3", combat=combat.id, unit=gun_id, side=side, wasted=True)


def rows(state: RsState, combat: Combat, role: str, target_hex: str, units: list[Unit] | None = None,
         group: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The hook of combat.direct_support: guns paid for and not yet fired that join this firefight, each
    with its factors: those assigned to it, and unassigned ones that may join it (RS/RS 5.1, RS/RS 5.3, RS/RS 5.6)."""
    out = []
    elsewhere = assigned(combat, role) - set((group or {}).get("support", []))
    for gun_id in combat.support_guns.get(role, []):
        gun = state.units[gun_id]
        if gun_id in combat.fired or not gun.on_map or gun.fired or gun.disruption or gun_id in elsewhere:
            continue
        if units is not None and not joins(state, gun, units, target_hex):
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
