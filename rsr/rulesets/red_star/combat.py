"""Ground combat (RS/RS 6.0-6.55, RS/RS 7.5): declarations, lead units and armor protection, target priority,
firefights with maximum fire strength, combat effectiveness and CRT column shifts.

Applying a CRT result (step losses, morale, retreats, advance) is in :mod:`results` and :mod:`retreat`.
Artillery direct support (RS/RS 5.3) is a later issue: :func:`direct_support` is the one place where it will add
its factors to a firefight, and today it returns nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from rsr.engine import Context
from rsr.errors import RulesError
from rsr.hexgrid import hexside
from rsr.provenance import is_provisional
from rsr.rulesets.red_star import support
from rsr.rulesets.red_star.data import CLASSES, MoraleOutcome, half_up
from rsr.rulesets.red_star.state import Combat, RsState, Unit, enemy_of
from rsr.rulesets.red_star.terrain import (
    bridge_exists,
    current,
    in_supply,
    supplied_hexes,
    unbridged_halha,
    zone_of_control,
)
from rsr.words import plural

PRIORITY = ("Armor", "Leg", "Weapons", "HQ")              # RS/RS 6.2
PROTECTED_PRIORITY = ("Leg", "Armor", "Weapons", "HQ")    # RS/RS 6.22


# -- who is in a combat -----------------------------------------------------------------------------------

def role_side(combat: Combat, role: str) -> str:
    return combat.attacker if role == "attacker" else combat.defender


def members(state: RsState, combat: Combat, role: str, hex_id: str | None = None) -> list[Unit]:
    """Units of one side still taking part in the combat, in unit-id order.

    Defenders are every unit in the attacked hex; attackers are the assigned units still in the hex they
    attacked from (RS/RS 6.61: only assigned units absorb losses), minus any left out (RS/RS 6.91) or retreated.
    """
    if role == "defender":
        return [u for u in state.units_in(combat.hex, combat.defender)
                if u.id in combat.defenders and (hex_id is None or hex_id == combat.hex)]
    out = []
    for unit_id in sorted(combat.attackers):
        unit = state.units[unit_id]
        where = combat.attack_hexes.get(unit_id)
        if unit.on_map and unit.hex == where and unit_id not in combat.out and (hex_id is None or where == hex_id):
            out.append(unit)
    return out


def attack_hexes(combat: Combat) -> list[str]:
    return sorted(set(combat.attack_hexes.values()))


def can_attack(state: RsState, unit: Unit) -> str | None:
    """Why ``unit`` may not be assigned to an attack, or None (RS/RS 5.1, RS/RS 5.3, RS/RS 5.7, RS/RS 6.1,
    RS/RS 7.54)."""
    counter = state.counter(unit.id)
    if not counter.ground:
        return f"{unit.id} is not a ground combat unit"
    if unit.disruption:
        return f"{unit.id} has a \"{unit.disruption}\" marker and may not attack (RS/RS 5.7)"
    if unit.fired:
        return f"{unit.id} has a Fired marker and may not use its combat factors (RS/RS 6.1)"
    if counter.artillery:
        return (f"{unit.id} is artillery: it joins a prepared combat only as direct support, named under "
                "support in the choices (RS/RS 5.3)")
    return None


# -- declarations ------------------------------------------------------------------------------------------

CHOICE_KEYS = {"lead", "armor_protection", "fire", "support"}  # support: RS/RS 5.3


def parse_declaration(state: RsState, side: str, raw: Any, number: int, used: list[str], kind: str,
                      combat_id: str, origin: dict[str, str] | None = None) -> Combat:
    """Check one declared combat (RS/RS 6.0, RS/RS 6.1, RS/RS 6.9, RS/RS 7.5) and make its :class:`Combat`.

    ``origin`` gives the hex each attacker fires from when it is not where it stands now (a hasty attack
    checked before the move that brings it there).
    """
    where = f"combat {number}"
    allowed = {"hex", "attackers", "units", "night", "advance"} | CHOICE_KEYS
    if not isinstance(raw, dict) or set(raw) - allowed:
        raise RulesError(f"{where}: a combat is {{hex, attackers, night, advance, lead, armor_protection, fire}}")
    hex_id = raw.get("hex")
    attackers = raw.get("attackers") or raw.get("units") or []
    if not isinstance(hex_id, str) or not isinstance(attackers, list) or not attackers \
            or not all(isinstance(unit_id, str) for unit_id in attackers):
        raise RulesError(f"{where}: give the enemy hex and the attacking units (RS/RS 6.1)")
    enemy = enemy_of(side)
    if not state.units_in(hex_id, enemy):
        raise RulesError(f"{where}: {hex_id} holds no enemy unit to attack (RS/RS 6.0)")
    hexes: dict[str, str] = {}
    for unit_id in attackers:
        unit = state.units.get(unit_id)
        if unit is None or unit.side != side or not unit.on_map:
            raise RulesError(f"{where}: {unit_id} is not a {side} unit on the map")
        if unit_id in used:
            raise RulesError(f"{where}: {unit_id} already attacks this segment (RS/RS 6.31, our reading: one combat "
                             "per unit per segment)")
        why = can_attack(state, unit)
        if why:
            raise RulesError(f"{where}: {why}")
        start = (origin or {}).get(unit_id, unit.hex or "")
        if not state.static.grid.adjacent(start, hex_id):
            raise RulesError(f"{where}: {unit_id} in {start} is not adjacent to {hex_id} (RS/RS 6.0)")
        hexes[unit_id] = start
    night = bool(raw.get("night", False))
    if night:
        if side != "japan" or kind != "prepared":
            raise RulesError(f"{where}: only the Japanese may declare a Prepared Combat at night (RS/RS 6.9)")
        weapons = [u for u in attackers if state.counter(u).cls == "Weapons"]
        if weapons:
            raise RulesError(f"{where}: {weapons[0]} is Weapons class, which does not fire at night (RS/RS 6.92); "
                             "leave it out of the night attack")
    if len(set(attackers)) != len(attackers):
        raise RulesError(f"{where}: a unit is listed twice")
    used.extend(attackers)
    combat = Combat(id=combat_id, kind=kind, attacker=side, defender=enemy, hex=hex_id, attackers=sorted(attackers),
                    night=night, attack_hexes=hexes)
    advance = raw.get("advance")
    if advance is not None:
        combat.advance_plan = parse_advance_plan(state, combat, advance, where)
    inline = {k: raw[k] for k in sorted(CHOICE_KEYS) if k in raw}
    if inline:
        combat.inline = inline
    return combat


def planned_guns(raw: Any) -> list[str]:
    """The supporting guns a declared combat's inline choices name (``support`` and inside ``fire``, RS/RS 5.3)."""
    if not isinstance(raw, dict):
        return []
    named: list[Any] = raw["support"] if isinstance(raw.get("support"), list) else []
    groups: list[Any] = raw["fire"] if isinstance(raw.get("fire"), list) else []
    return [str(g) for g in named] + [str(g) for group in groups if isinstance(group, dict)
                                      and isinstance(group.get("support"), list) for g in group["support"]]


class DroppedParts(list[tuple[int, str]]):
    """The parts of a standing combat plan the position no longer allows, with why: (number, reason) pairs.
    Only :func:`planned_combats` makes one (a signed input is plain JSON and can never hold it); the ruleset
    reports each as void (docs/protocol.md, "What you sign counts")."""


def check_plan(state: RsState, side: str, plan: list[Any]) -> None:
    """RS/RS 6.1: a combat plan signed with the fire, checked against the position it is signed in (before the
    fire's dice): every combat must be declarable now, so a typo or an attacker not adjacent is refused before
    signing, never dropped silently later."""
    used: list[str] = []
    prefix = f"t{state.turn}/{side}/prepared"
    costs = []
    guns: dict[str, int] = {}
    for number, raw in enumerate(plan, start=1):
        combat = parse_declaration(state, side, raw, number, used, "prepared", f"{prefix}/c{number}")
        costs.append(len(attack_hexes(combat)))
        for gun_id in dict.fromkeys(planned_guns(raw)):  # RS/RS 5.1: a gun fires once per player turn
            if gun_id in guns:
                raise RulesError(f"combat {number}: {gun_id} already supports combat {guns[gun_id]}: artillery "
                                 "fires once per player turn (RS/RS 5.1)")
            guns[gun_id] = number
    # RS/RS 6.1: one support point per attacking hex, paid in the plan's order as far as the points go (a combat
    # the dice void frees its points for the next); a plan none of whose combats can ever be paid is refused
    left = state.support.get(side, 0)
    if costs and min(costs) > left:
        raise RulesError(f"no planned combat can be paid: the cheapest costs {plural(min(costs), 'support point')}, "
                         f"{side} has {left} left once the fire missions of these orders are paid (RS/RS 6.1)")


def planned_combats(state: RsState, side: str, plan: list[Any]) -> dict[str, Any]:
    """Standing policy ``combats: {turn, combats}`` (RS/RS 5.0, RS/RS 6.1): prepared combats the player signed
    with his fire missions, before their dice, declared now as far as they still can be. A combat that the
    position no longer allows (target gone, attacker eliminated, disrupted or fired, support points spent)
    is dropped, the others keep their order; inline choices that no longer fit are dropped and the game asks
    for them (policy ``attack-choices``). The player's own conditional order: nothing is chosen for him."""
    kept: list[dict[str, Any]] = []
    used: list[str] = []
    dropped = DroppedParts()
    guns_kept: list[str] = []
    budget = state.support.get(side, 0)
    prefix = f"t{state.turn}/{side}/prepared"
    for planned, raw in enumerate(plan, start=1):
        number = len(kept) + 1
        trial_used = list(used)
        try:
            combat = parse_declaration(state, side, raw, number, trial_used, "prepared", f"{prefix}/c{number}")
        except RulesError as exc:
            dropped.append((planned, str(exc)))
            continue
        cost = len(attack_hexes(combat))
        if cost > budget:
            dropped.append((planned, f"it costs {plural(cost, 'support point')}, {side} has {budget} left (RS/RS 6.1)"))
            continue
        entry = dict(raw)
        if combat.inline is not None:
            try:
                check_choice(state, combat, "attacker", combat.inline, f"combat {number}")
                if set(planned_guns(raw)) & set(guns_kept):
                    raise RulesError("a gun of its support already supports a combat kept before it (RS/RS 5.1)")
            except RulesError:
                entry = {k: v for k, v in raw.items() if k not in CHOICE_KEYS}
        guns_kept += planned_guns(entry)
        kept.append(entry)
        used, budget = trial_used, budget - cost
    return {"combats": kept, "dropped": dropped} if dropped else {"combats": kept}


def parse_advance_plan(state: RsState, combat: Combat, raw: Any, where: str) -> dict[str, Any]:
    """RS/RS 6.8: the units that advance if the hex is emptied, and optionally a path beyond it."""
    if raw in ("none", False):
        return {"units": [], "path": []}
    if not isinstance(raw, dict) or set(raw) - {"units", "path"}:
        raise RulesError(f"{where}: advance is {{units: [...], path: [...]}} or none (RS/RS 6.8)")
    units = raw.get("units") or []
    path = raw.get("path") or []
    for unit_id in units:
        if unit_id not in combat.attackers:
            raise RulesError(f"{where}: {unit_id} may advance only if it takes part in the attack (RS/RS 6.8)")
        if state.counter(unit_id).cls == "Weapons":
            raise RulesError(f"{where}: {unit_id} is Weapons class and may not advance after combat (RS/RS 6.8)")
    if path and path[0] != combat.hex:
        raise RulesError(f"{where}: an advance enters the defender's hex {combat.hex} first (RS/RS 6.81)")
    return {"units": list(units), "path": list(path)}


def check_choice(state: RsState, combat: Combat, role: str, raw: Any, where: str) -> dict[str, Any]:
    """RS/RS 6.21, RS/RS 6.22, RS/RS 6.3: a side's lead units, armor protection and fire plan for one combat.

    ``lead`` names one unit per hex the side fights from (a bare unit id when there is one hex);
    ``fire`` is a list of firefights, each a list of unit ids or ``{units, target, at}``; omitted, every
    unit fires in one firefight at the target priority requires (the default fire plan).
    """
    if not isinstance(raw, dict) or set(raw) - CHOICE_KEYS:
        raise RulesError(f"{where}: choices are {{lead, armor_protection, fire, support}} (RS/RS 6.21, 6.22, 5.3)")
    units = members(state, combat, role) if combat.stage != "waiting" else _planned(state, combat, role)
    by_hex: dict[str, list[str]] = {}
    for unit in units:
        by_hex.setdefault(_hex_of(combat, role, unit), []).append(unit.id)
    lead_raw = raw.get("lead")
    if isinstance(lead_raw, str):
        if len(by_hex) != 1:
            raise RulesError(f"{where}: give one lead unit for each of the hexes {', '.join(sorted(by_hex))} "
                             "(RS/RS 6.21)")
        lead_raw = {next(iter(by_hex)): lead_raw}
    lead: dict[str, str] = {}
    if lead_raw is None:
        lead_raw = {}
    if not isinstance(lead_raw, dict):
        raise RulesError(f"{where}: lead is a unit id, or hex -> unit id (RS/RS 6.21)")
    for hex_id in sorted(by_hex):
        chosen = lead_raw.get(hex_id)
        if chosen is None and len(by_hex[hex_id]) == 1:
            chosen = by_hex[hex_id][0]
        if chosen is None:
            raise RulesError(f"{where}: choose a lead unit in {hex_id} (RS/RS 6.21)")
        if chosen not in by_hex[hex_id]:
            raise RulesError(f"{where}: lead unit {chosen} is not one of the units in {hex_id} in this combat "
                             "(RS/RS 6.21)")
        lead[hex_id] = chosen
    extra = sorted(set(lead_raw) - set(by_hex))
    if extra:
        raise RulesError(f"{where}: {extra[0]} is not a hex this side fights from (RS/RS 6.21)")
    protection = bool(raw.get("armor_protection", False))
    if protection:
        if not any(state.counter(u.id).cls == "Armor" for u in units):
            raise RulesError(f"{where}: armor protection needs an Armor class unit in the combat (RS/RS 6.22)")
        armored = [u for u in lead.values() if state.counter(u).cls == "Armor"]
        if armored:
            raise RulesError(f"{where}: {armored[0]} is Armor and the lead unit, so armor protection may not be "
                             "chosen (RS/RS 6.22)")
    fire = _check_fire(state, combat, role, raw.get("fire"), by_hex, lead, where)
    listed = support.with_assigned(raw.get("support"), fire)  # RS/RS 5.3: a gun named in a firefight is allocated
    guns = support.check_support(state, combat, role, listed, where)  # RS/RS 5.3
    support.check_assignments(state, combat, role, fire, where)  # RS/RS 5.1, RS/RS 5.3, RS/RS 5.6
    return {"lead": lead, "armor_protection": protection, "fire": fire, "support": guns}


def _planned(state: RsState, combat: Combat, role: str) -> list[Unit]:
    """Members as declared, before the combat starts (hasty attackers may not have arrived yet)."""
    if role == "attacker":
        return [state.units[u] for u in combat.attackers]
    return state.units_in(combat.hex, combat.defender)


def _hex_of(combat: Combat, role: str, unit: Unit) -> str:
    return combat.attack_hexes.get(unit.id, unit.hex or "") if role == "attacker" else combat.hex


def _check_fire(state: RsState, combat: Combat, role: str, raw: Any, by_hex: dict[str, list[str]],
                lead: dict[str, str], where: str) -> list[dict[str, Any]]:
    """RS/RS 6.21, RS/RS 6.3, RS/RS 6.31: firefights in order; each unit once; a hex's lead fires in its first one."""
    everyone = sorted(u for ids in by_hex.values() for u in ids)
    if raw is None:
        return [{"units": everyone, "target": "next", "at": None}]
    if not isinstance(raw, list):
        raise RulesError(f"{where}: fire is a list of firefights (RS/RS 6.3)")
    groups: list[dict[str, Any]] = []
    seen: list[str] = []
    for number, item in enumerate(raw, start=1):
        if isinstance(item, list):
            item = {"units": item}
        if not isinstance(item, dict) or set(item) - {"units", "target", "at", "support"} or not item.get("units"):
            raise RulesError(f"{where}: firefight {number} is a list of units or {{units, target, at, support}} "
                             "(RS/RS 6.3, 5.3)")
        for unit_id in item["units"]:
            if unit_id not in everyone:
                raise RulesError(f"{where}: firefight {number}: {unit_id} is not a unit of this side in the combat")
            if unit_id in seen:
                raise RulesError(f"{where}: firefight {number}: {unit_id} already fires in this combat (RS/RS 6.31)")
        at = item.get("at")
        if at is not None and (role != "defender" or at not in attack_hexes(combat)):
            raise RulesError(f"{where}: firefight {number}: at names an attacking hex, for the defender only")
        group = {"units": list(item["units"]), "target": item.get("target", "next"), "at": at}
        if item.get("support") is not None:  # RS/RS 5.3: the owner assigns a gun to the firefight it joins
            guns = item["support"]
            if not isinstance(guns, list) or not all(isinstance(g, str) for g in guns):
                raise RulesError(f"{where}: firefight {number}: support is a list of artillery unit ids (RS/RS 5.3)")
            group["support"] = list(guns)
        groups.append(group)
        seen += list(item["units"])
    for hex_id, unit_ids in sorted(by_hex.items()):
        first = next((g for g in groups if set(g["units"]) & set(unit_ids)), None)
        if first is not None and lead[hex_id] not in first["units"]:
            raise RulesError(f"{where}: the lead unit {lead[hex_id]} must fire in the first firefight out of "
                             f"{hex_id} (RS/RS 6.21)")
    return groups


def auto_choice(state: RsState, combat: Combat, role: str) -> dict[str, Any]:
    """The documented default (policies ``attack-choices``/``defence-choices`` ``auto``, docs/red-star/orders.md):
    in each hex the strongest Leg unit leads (else the strongest unit), armor protection whenever an Armor
    unit is present and none leads, and every unit fires in one firefight."""
    units = _planned(state, combat, role) if combat.stage == "waiting" else members(state, combat, role)
    by_hex: dict[str, list[Unit]] = {}
    for unit in units:
        by_hex.setdefault(_hex_of(combat, role, unit), []).append(unit)
    lead = {}
    for hex_id, group in sorted(by_hex.items()):
        legs = [u for u in group if state.counter(u.id).cls == "Leg"] or group
        lead[hex_id] = min(legs, key=lambda u: (-current(state, u), u.id)).id
    has_armor = any(state.counter(u.id).cls == "Armor" for u in units)
    armored_lead = any(state.counter(u).cls == "Armor" for u in lead.values())
    return {"lead": lead, "armor_protection": has_armor and not armored_lead, "fire": None,
            "support": support.auto_support(state, combat, role)}  # RS/RS 5.3


# -- target priority ----------------------------------------------------------------------------------------

def choice_of(combat: Combat, role: str) -> dict[str, Any]:
    choice = combat.attack_choice if role == "attacker" else combat.defence_choice
    return choice or {"lead": {}, "armor_protection": False, "fire": [], "support": []}


def rank(state: RsState, combat: Combat, role: str, unit: Unit, hex_id: str) -> int:
    """RS/RS 6.2, RS/RS 6.21-6.23: 0 an attacking flame tank, 1 the hex's lead unit not yet fired on, then classes."""
    counter = state.counter(unit.id)
    choice = choice_of(combat, role)
    if role == "attacker" and counter.type == "flamethrower-tank":
        return 0
    if choice["lead"].get(hex_id) == unit.id and unit.id not in combat.fired_upon:
        return 1
    order = PROTECTED_PRIORITY if choice["armor_protection"] else PRIORITY
    return 2 + order.index(counter.cls) if counter.cls in order else 9


def priority_order(state: RsState, combat: Combat, role: str, hex_id: str) -> list[Unit]:
    """Every unit of one side in ``hex_id`` in the order fire must take them (RS/RS 6.24, RS/RS 6.25); among units of
    equal priority and factors, the order their owner gave (request ``target-ties``), then unit id."""
    units = members(state, combat, role, hex_id)
    order = combat.tie_orders.get(hex_id, [])
    return sorted(units, key=lambda u: (rank(state, combat, role, u, hex_id), -current(state, u),
                                        order.index(u.id) if u.id in order else len(order), u.id))


def tied(state: RsState, combat: Combat, role: str, hex_id: str, units: list[Unit]) -> bool:
    """RS/RS 6.25: do two of ``units`` share priority and current factors, with no order from their owner yet?"""
    if hex_id in combat.tie_orders:
        return False
    keys = [(rank(state, combat, role, u, hex_id), current(state, u)) for u in units]
    return len(set(keys)) < len(keys)


def next_tied(state: RsState, combat: Combat, role: str, hex_id: str) -> bool:
    """RS/RS 6.25: is the choice of the next target unit (RS/RS 6.24) a tie its owner settles?"""
    fresh = [u for u in members(state, combat, role, hex_id) if u.id not in combat.fired_upon]
    if not fresh:
        return False
    best = min(rank(state, combat, role, u, hex_id) for u in fresh)
    top = [u for u in fresh if rank(state, combat, role, u, hex_id) == best]
    most = max(current(state, u) for u in top)
    return tied(state, combat, role, hex_id, [u for u in top if current(state, u) == most])


def tie_order(state: RsState, unit_ids: list[str], rule: str) -> list[str]:
    """Policy ``target-ties``: the owner's standing order among tied units (RS/RS 6.25)."""
    def proficiency_of(unit_id: str) -> int:
        return state.counter(unit_id).proficiency

    if rule == "highest-proficiency":
        return sorted(unit_ids, key=lambda u: (-proficiency_of(u), u))
    if rule == "lowest-proficiency":
        return sorted(unit_ids, key=lambda u: (proficiency_of(u), u))
    return sorted(unit_ids)


def next_target(state: RsState, combat: Combat, role: str, hex_id: str) -> Unit | None:
    """RS/RS 6.24-6.25: the unit of highest priority not yet fired on in this combat."""
    fresh = [u for u in priority_order(state, combat, role, hex_id) if u.id not in combat.fired_upon]
    return fresh[0] if fresh else None


def legal_targets(state: RsState, combat: Combat, role: str, hex_id: str) -> list[Unit]:
    """RS/RS 6.24: the next unit by priority, or any unit already fired on (it may be fired on again)."""
    again = [u for u in members(state, combat, role, hex_id) if u.id in combat.fired_upon]
    nxt = next_target(state, combat, role, hex_id)
    return ([nxt] if nxt else []) + again


# -- firefight arithmetic ---------------------------------------------------------------------------------

@dataclass
class Shift:
    value: int      # positive: to the right, for the firer; negative: to the left, for the target
    reason: str
    case: str
    provenance: str = "rulebook"


@dataclass
class FireSolution:
    """Everything a firefight computes before its die (RS/RS 6.3-6.55)."""

    units: list[str]
    printed: dict[str, int]
    used: dict[str, int]
    by_class: list[dict[str, Any]]
    strength: int
    target: str
    target_hex: str
    base_column: int
    shifts: list[Shift]
    column: int
    provisional: list[str] = field(default_factory=list)
    support: list[str] = field(default_factory=list)  # RS/RS 5.3: supporting guns

    @property
    def net_shift(self) -> int:
        return sum(s.value for s in self.shifts)


def can_fire(state: RsState, combat: Combat, role: str, unit: Unit) -> bool:
    """RS/RS 5.3, RS/RS 5.7, RS/RS 6.1, RS/RS 6.31, RS/RS 6.92: may ``unit`` fire now?"""
    counter = state.counter(unit.id)
    if unit.id in combat.fired or unit.fired or unit not in members(state, combat, role):
        return False
    if counter.artillery:
        return False  # artillery fires only as direct support (RS/RS 5.3), a later issue
    if combat.night and counter.cls == "Weapons":
        return False  # RS/RS 6.92
    return not (role == "attacker" and unit.disruption)  # RS/RS 5.7: disrupted units may not attack


def firer_class(state: RsState, unit: Unit) -> str:
    """The Combat Effectiveness Chart row of a firing unit (RS/RS 6.41).

    Headquarters are Leg units (RS/RS 2.2) and fire on the Leg row. A Weapons unit in ground combat fires at an
    adjacent hex, which is direct fire: the Weapons Direct Fire row of the errata (antitank units have a row
    of their own, from the examples of play).
    """
    counter = state.counter(unit.id)
    if counter.cls == "Weapons":
        return "weapons-antitank" if counter.type == "antitank" else "weapons-direct-fire"
    if counter.cls == "HQ":
        return "leg"  # RS/RS 2.2
    return counter.cls.lower()


def effectiveness(state: RsState, row: str, target_class: str, adjacent: bool) -> tuple[Fraction, str]:
    """RS/RS 6.4-6.43: the multiplier of one chart cell and its provenance; the errata's "normal if adjacent"
    value applies to fire at an adjacent hex, and an enabled rule option replaces the cells it names."""
    cell = state.static.effectiveness[(row, target_class)]
    for option_id, cells in sorted(state.static.effectiveness_options.items()):
        if state.options.get(option_id) and (row, target_class) in cells:
            cell = cells[(row, target_class)]
    if adjacent and cell.adjacent is not None:
        return cell.adjacent, cell.provenance
    return cell.multiplier, cell.provenance


def direct_support(state: RsState, combat: Combat, role: str, units: list[Unit], target_hex: str,
                   group: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """RS/RS 5.3, RS/RS 5.31, RS/RS 5.32: artillery direct fire joining a side's firefight, as ``{unit, row, factors,
    adjacent}`` (rsr/rulesets/red_star/support.py). It joins only fire by non-artillery units (RS/RS 5.1)."""
    if not units:
        return []
    return support.rows(state, combat, role, target_hex, units, group)


def proficiency(state: RsState, combat: Combat, unit: Unit, firing: bool, role: str) -> int:
    """Printed proficiency with RS/RS 10.3 (out of supply -1) and RS/RS 6.92 (night: Japanese firing +1, Soviets -1)."""
    value = state.counter(unit.id).proficiency
    if unit.id in combat.unsupplied:
        value -= 1
    if combat.night and firing:
        value += 1 if unit.side == "japan" else -1
    return value


def solve(state: RsState, combat: Combat, role: str, units: list[Unit], target: Unit, target_hex: str,
          cap: int | None, group: dict[str, Any] | None = None) -> FireSolution:
    """RS/RS 6.3-6.55: fire strength, column and shifts of one firefight."""
    static = state.static
    printed = {u.id: current(state, u) for u in units}
    used: dict[str, int] = {}
    budget = cap
    for unit in units:  # RS/RS 6.32: factors beyond the previous firefight's are ignored, from the last listed
        take = printed[unit.id] if budget is None else min(printed[unit.id], budget)
        used[unit.id] = take
        if budget is not None:
            budget -= take
    provisional: list[str] = []
    target_class = state.counter(target.id).cls.lower()
    keep_fractions = bool(state.options.get("halving-st163"))  # errata: S&T 163, fractions kept to the total
    classes: dict[str, Fraction] = {}
    for unit in units:
        row = firer_class(state, unit)
        value = Fraction(used[unit.id])
        if role == "defender" and unit.disruption >= 2 and value:
            # RS/RS 5.7: a "2" marker halves a defender's factors (after RS/RS 6.32's count)
            value = value / 2 if keep_fractions else Fraction(half_up(value))
        classes[row] = classes.get(row, Fraction(0)) + value
    by_class = []
    exact = Fraction(0)
    adjacent = all(state.static.grid.adjacent(u.hex or "", target_hex) for u in units)
    for row, total in sorted(classes.items()):
        multiplier, provenance = effectiveness(state, row, target_class, adjacent)
        # RS/RS 6.43: fractions round up per class; under halving-st163 only the total is rounded
        value = total * multiplier if keep_fractions else Fraction(math.ceil(total * multiplier))
        exact += value
        by_class.append({"class": row, "factors": _number(total), "multiplier": str(multiplier),
                         "value": _number(value), "provenance": provenance})
        if is_provisional(provenance):
            provisional.append(f"Combat Effectiveness {row} vs {target_class}: {provenance}")
    guns = []
    for gun in direct_support(state, combat, role, units, target_hex, group):  # RS/RS 5.3, errata: the chart
        multiplier, provenance = effectiveness(state, gun["row"], target_class, gun["adjacent"])
        # RS/RS 6.32 with RS/RS 5.3: a gun's printed factors count toward the maximum fire strength like any
        # firer's; listed after the units, its factors are the first ignored beyond the cap
        take = int(gun["factors"]) if budget is None else min(int(gun["factors"]), budget)
        printed[gun["unit"]] = int(gun["factors"])
        used[gun["unit"]] = take
        if budget is not None:
            budget -= take
        total = Fraction(take)
        value = total * multiplier if keep_fractions else Fraction(math.ceil(total * multiplier))
        exact += value
        guns.append(gun["unit"])
        by_class.append({"class": f"{gun['row']} ({gun['unit']}, support)", "factors": _number(total),
                         "multiplier": str(multiplier), "value": _number(value), "provenance": provenance})
        if is_provisional(provenance):
            provisional.append(f"Combat Effectiveness {gun['row']} vs {target_class}: {provenance}")
    strength = math.ceil(exact)
    crt = static.crt
    base = crt.column_for(strength)
    if is_provisional(crt.selection_provenance):
        provisional.append(f"CRT column choice: {crt.selection_provenance}")
    shifts = column_shifts(state, combat, role, units, target, target_hex)
    for shift in shifts:
        if is_provisional(shift.provenance):
            provisional.append(f"{shift.reason}: {shift.provenance}")
    column = min(max(base + sum(s.value for s in shifts), 0), len(crt.columns) - 1)  # errata: clamp at the ends
    if is_provisional(crt.column_provenance[column]):
        provisional.append(f"CRT column {crt.columns[column]}: {crt.column_provenance[column]}")
    return FireSolution([u.id for u in units], printed, used, by_class, strength, target.id, target_hex, base,
                        shifts, column, provisional, guns)


def column_shifts(state: RsState, combat: Combat, role: str, units: list[Unit], target: Unit,
                  target_hex: str) -> list[Shift]:
    """RS/RS 6.5-6.55: every shift with its reason; positive to the right (for the firer)."""
    shifts: list[Shift] = []
    other = "defender" if role == "attacker" else "attacker"
    # RS/RS 6.51 proficiency: the firers' average, fractions kept, against the target's rating
    ratings = [proficiency(state, combat, u, True, role) for u in units]
    average = Fraction(sum(ratings), len(ratings))
    target_rating = proficiency(state, combat, target, False, other)
    diff = average - target_rating
    if abs(diff) >= 1:
        steps = min(3, math.floor(abs(diff)))
        shifts.append(Shift(steps if diff > 0 else -steps,
                            f"proficiency {_fraction_text(average)} vs {target_rating}", "RS/RS 6.51"))
    # RS/RS 6.52 terrain: the target hex, and the hexside fired across that gives the fewest shifts
    static = state.static
    terrain = static.terrain_costs[static.terrain[target_hex]]
    if terrain.shift:
        shifts.append(Shift(-terrain.shift, f"{static.terrain[target_hex]} in {target_hex}", "RS/RS 6.52",
                            terrain.provenance))
    fired_from = sorted({u.hex or "" for u in units})
    sides = [hexside_shift(state, h, target_hex) for h in fired_from]
    best = min(sides, key=lambda s: (s[0], s[1]))
    if best[0]:
        shifts.append(Shift(-best[0], f"hexside {best[1]}", "RS/RS 6.52", best[2]))
    # RS/RS 6.53 encirclement
    if encircled(state, role_side(combat, role), target_hex):
        shifts.append(Shift(1, f"{target_hex} encircled", "RS/RS 6.53"))
    # RS/RS 6.54 light armor on the target
    light = state.counter(target.id).light_armor
    if light:
        shifts.append(Shift(light, f"{target.id} light armor +{light}", "RS/RS 6.54",
                            state.counter(target.id).provenance_of("light_armor")))
    # RS/RS 6.55 the flame tank company against Japanese Leg units
    if target.side == "japan" and state.counter(target.id).cls == "Leg" and any(
            state.counter(u.id).type == "flamethrower-tank" for u in units):
        shifts.append(Shift(1, "flamethrower tanks against Leg", "RS/RS 6.55"))
    return shifts


def hexside_shift(state: RsState, frm: str, to: str) -> tuple[int, str, str]:
    """Shifts for the target of fire across the hexside ``frm``-``to`` (RS/RS 6.52, provisional chart).

    Each feature counts once; a slope only when firing up into its higher hex; a bridge replaces the shift of
    the river it spans.
    """
    static = state.static
    side_id = hexside(frm, to)
    total = 0
    names = []
    provenance = "rulebook"
    bridged = bridge_exists(state, side_id)
    for feature in static.features.get(side_id, ()):
        if feature in ("halha", "minor-river") and bridged:
            continue
        if feature == "slope" and static.slope_up.get(side_id) != to:
            continue
        cost = static.hexside_costs.get(feature)
        if cost is None or not cost.shift:
            continue
        total += cost.shift
        names.append(feature)
        provenance = cost.provenance if is_provisional(cost.provenance) else provenance
    if bridged and static.hexside_costs["bridge"].shift:
        total += static.hexside_costs["bridge"].shift
        names.append("bridge")
        provenance = static.hexside_costs["bridge"].provenance
    return total, f"{side_id} ({', '.join(names) or 'open'})", provenance


def encircled(state: RsState, firing_side: str, target_hex: str) -> bool:
    """RS/RS 6.53: each hex next to the target holds a firing-side unit, is in its ZOC, or is closed to the
    target (across an unbridged Halha, our reading). Hexes off the map are not counted."""
    zoc = zone_of_control(state, firing_side)
    own = {u.hex for u in state.on_map(firing_side)}
    for there in state.static.neighbours(target_hex):
        if there not in state.static.terrain:
            continue
        if there in own or there in zoc or unbridged_halha(state, target_hex, there):
            continue
        return False
    return True


def _number(value: Fraction) -> int | str:
    """A whole number as an int, a fraction as text (event data stays JSON)."""
    return int(value) if value.denominator == 1 else _fraction_text(value)


def _fraction_text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


# -- the start of a combat ------------------------------------------------------------------------------------

def start(state: RsState, ctx: Context, combat: Combat) -> bool:
    """Fix the participants and their supply (RS/RS 6.1, RS/RS 10.3); False if the combat is called off."""
    defenders = state.units_in(combat.hex, combat.defender)
    attackers = [state.units[u] for u in combat.attackers]
    present = [u for u in attackers if u.on_map and u.hex == combat.attack_hexes.get(u.id)]
    if not defenders or not present:
        why = "the defender's hex is empty" if not defenders else "no attacking unit is in place"
        ctx.emit("combat-off", f"{combat.id}: combat on {combat.hex} called off: {why}", "RS/RS 6.0",
                 combat=combat.id, hex=combat.hex)
        return False
    combat.defenders = [u.id for u in defenders]
    combat.out = sorted(u.id for u in attackers if u not in present)
    tables = {side: supplied_hexes(state, side) for side in (combat.attacker, combat.defender)}
    combat.unsupplied = sorted(u.id for u in defenders + present if not in_supply(state, u, tables[u.side]))
    for unit_id in combat.unsupplied:
        ctx.emit("supply", f"{unit_id} is out of supply in combat: proficiency -1", "RS/RS 10.3", unit=unit_id)
    ctx.emit("combat-start",
             f"{combat.kind} combat {combat.id}: {combat.attacker} attacks {combat.hex} "
             f"({', '.join(combat.defenders)}) with {', '.join(u.id for u in present)}"
             + (" at night" if combat.night else ""),
             "RS/RS 6.1" if combat.kind == "prepared" else "RS/RS 7.55", combat=combat.id, combat_kind=combat.kind,
             hex=combat.hex, attackers=[u.id for u in present], defenders=list(combat.defenders), night=combat.night)
    for role in ("attacker", "defender"):
        choice = choice_of(combat, role)
        ctx.emit("choices", f"{role_side(combat, role)} {role}: lead "
                 f"{', '.join(f'{v} in {k}' for k, v in sorted(choice['lead'].items()))}; armor protection "
                 f"{'yes' if choice['armor_protection'] else 'no'}", "RS/RS 6.21", combat=combat.id, role=role,
                 lead=dict(choice["lead"]), armor_protection=choice["armor_protection"],
                 fire=choice.get("fire"), sealed=(combat.attack_sealed if role == "attacker" else False),
                 support=list(choice.get("support", [])))
    support.pay(state, ctx, combat)  # RS/RS 5.3
    return True


def participation(state: RsState, ctx: Context, combat: Combat) -> None:
    """RS/RS 6.91: each Japanese Armor and Leg attacker joins a night attack on a roll within its proficiency."""
    for unit in members(state, combat, "attacker"):
        counter = state.counter(unit.id)
        if counter.cls not in ("Armor", "Leg"):
            continue
        rating = counter.proficiency - (1 if unit.id in combat.unsupplied else 0)
        die = ctx.roll(6, f"night participation of {unit.id} (proficiency {rating}), RS/RS 6.91")
        if die <= rating:
            ctx.emit("participation", f"{unit.id} joins the night attack ({die} <= {rating})", "RS/RS 6.91",
                     unit=unit.id, die=die, rating=rating, joins=True)
        else:
            unit.disruption = 2
            combat.out.append(unit.id)
            ctx.emit("participation", f"{unit.id} stays out of the night attack ({die} > {rating}): \"2\" marker",
                     "RS/RS 6.91", unit=unit.id, die=die, rating=rating, joins=False)
    combat.out.sort()


CLASS_NAMES = CLASSES


def morale_outcome(state: RsState, choice: str, role: str) -> MoraleOutcome:
    """The Morale Option Table's line for a choice and the target's role (tables.yaml ``morale_options``, RS/RS 6.62).

    Rules option ``morale-no-check-as-6-62``: an attacking unit whose owner declines the check is read by RS/RS 6.62
    instead of the table, so every unit of his in the target hex retreats, beneath a "1" marker (interpretations.md,
    RS/RS 6.62 against the Morale Option Table)."""
    outcome = state.static.morale[(choice, role)]
    if choice == "no-check" and role == "attacker" and state.options.get("morale-no-check-as-6-62"):
        return replace(outcome, retreat="all-units-in-hex", disruption=1,
                       note="rules option morale-no-check-as-6-62: RS/RS 6.62 read, not the table")
    return outcome
