"""Exact odds of a Red Sun Rising land attack (RSR 11.2, RSR 11.4, RSR 11.57), before it is declared.

The odds column, every die modifier (terrain RSR 11.41, river RSR 11.41, fortress and trenches RSR 13.2, command units
RSR 11.43) and the Land CRT are the rules module's own pure functions (combat.compute_odds, crt.lookup); this
module only enumerates the six faces of the die and sums the chances of each result.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rsr.errors import BadInput, RulesError
from rsr.odds import AttackSpec, OddsTable
from rsr.rulesets.red_sun_rising import combat, supply
from rsr.rulesets.red_sun_rising.crt import Cell
from rsr.rulesets.red_sun_rising.state import Attack, RsrState

DIE = range(1, 7)  # RSR 11.2: one six-sided die per attack


def loss_text(cell: Cell) -> str:
    """A CRT cell in words: attacker steps lost / defender steps lost (RSR 11.5)."""
    att = f"attacker loses {cell.attacker} step{'s' if cell.attacker != 1 else ''}" if cell.attacker else \
        "attacker loses nothing"
    dfn = f"defender loses {cell.defender} step{'s' if cell.defender != 1 else ''}" if cell.defender else \
        "defender loses nothing"
    return f"{cell.text}: {att}, {dfn}"


def check_odds_attack(state: RsrState, side: str, attack: Attack) -> list[str]:
    """What makes the odds meaningless (an error) and what would stop the attack now (a warning: the odds are
    still worth knowing while planning, e.g. before activation)."""
    grid = state.static.grid
    if not state.units_in(attack.defender_hex, combat.enemy_of(side)):
        raise BadInput(f"attack on {attack.defender_hex}: no {combat.enemy_of(side)} unit there (RSR 11.0)")
    cautions = []
    for unit_id in attack.attackers:
        unit = state.units.get(unit_id)
        if unit is None or unit.steps <= 0 or unit.hex is None:
            raise BadInput(f"attack on {attack.defender_hex}: {unit_id} is not a unit on the map")
        if unit.side != side:
            raise BadInput(f"attack on {attack.defender_hex}: {unit_id} is not a {side} unit")
        if not grid.adjacent(unit.hex, attack.defender_hex):
            raise BadInput(f"attack on {attack.defender_hex}: {unit_id} in {unit.hex} is not adjacent (RSR 11.0)")
        reason = combat.may_attack(state, unit)
        if reason:
            cautions.append(f"{unit_id} may not attack now: {reason}")
    if attack.command is not None:
        try:
            combat.check_attack_command(state, side, attack)
        except RulesError as exc:
            raise BadInput(f"attack on {attack.defender_hex}: {exc}") from exc
    return cautions


def attack_odds(state: RsrState, side: str, defender_hex: str, attackers: list[str],
                command: str | None = None) -> OddsTable:
    """RSR 11.2: the chance of each Land CRT result for one attack as the position stands now."""
    attack = Attack(defender_hex, list(attackers), command)
    cautions = check_odds_attack(state, side, attack)
    enemy = combat.enemy_of(side)
    defenders = combat.combat_units_in(state, defender_hex, enemy)
    attacker_hq = state.units[command] if command else None
    defender_hq = combat.defending_command(state, defender_hex, enemy)
    odds = combat.compute_odds(state, attack, defenders, attacker_hq, defender_hq)
    table = OddsTable(f"{side} attacks {defender_hex} with {', '.join(attackers)}"
                      + (f", command {command}" if command else ""))
    table.warnings += cautions
    att = " + ".join(f"{a} {combat.strength(state, state.units[a])}" for a in attackers)
    dfn = " + ".join(f"{d.id} {combat.strength(state, d)}" for d in defenders) or "no combat unit"
    table.how.append(f"strength {att} = {odds.attack} against {dfn} = {odds.defence}: odds column "
                     f"{odds.column or 'below 1-3'} (RSR 11.2, rounded for the defender)")
    for mod in odds.modifiers:
        table.how.append(f"die {mod.value:+d}: {mod.reason} ({mod.case})")
    total = odds.total_modifier
    if odds.modifiers:
        table.how.append(f"net die modifier {total:+d}; a modified die below {state.static.crt.die_low} reads as "
                         f"{state.static.crt.die_low}, above {state.static.crt.die_high} as "
                         f"{state.static.crt.die_high} (RSR 11.57)")
    if not defenders:
        table.warnings.append(f"no combat unit in {defender_hex}: the command units there are displaced without a "
                              "die (RSR 11.53)")
        return table
    unsupplied = [d.id for d in defenders if not supply.currently_supplied(state, d)]
    if unsupplied:
        table.warnings.append(f"{', '.join(unsupplied)} would be out of supply when attacked and is eliminated "
                              "without a die (RSR 10.37); the odds below are for the units left")
    crt = state.static.crt
    if odds.column is None:
        cell = crt.below_lowest
        table.add(loss_text(cell) + " (no die, RSR 11.57)", Fraction(1), "", cell.provisional)
        table.warnings.append(f"automatic result: {odds.attack} against {odds.defence} is worse than 1-3, so the "
                              f"attack is resolved as {cell.text} with no die (RSR 11.57): hopeless")
        return table
    for die in DIE:
        modified = die + total
        cell = crt.lookup(modified, odds.column)
        shown = f"{die}" if not total else f"{die} modified to {modified}"
        table.add(loss_text(cell), Fraction(1, 6), shown, cell.provisional)
        if cell.provisional:
            row = min(max(modified, crt.die_low), crt.die_high)
            table.provisional.append(f"Land CRT {odds.column} row {row}: {cell.provenance}")
    _warn(table)
    return table


def _warn(table: OddsTable) -> None:
    if len(table.outcomes) == 1:
        table.warnings.append(f"automatic: every die gives {table.outcomes[0].text.split(':')[0]}")
    if all("defender loses nothing" in o.text for o in table.outcomes):
        table.warnings.append("hopeless: no die costs the defender a step")


def side_of(state: RsrState, units: tuple[str, ...]) -> str:
    unit = state.units.get(units[0])
    if unit is None:
        raise BadInput(f"unknown unit {units[0]!r}")
    return unit.side


def odds_for_spec(state: RsrState, spec: AttackSpec) -> list[OddsTable]:
    if spec.support:
        raise BadInput(f"attack on {spec.hex}: Red Sun Rising has no artillery support (+GUN) in land combat")
    return [attack_odds(state, side_of(state, spec.units), spec.hex, list(spec.units), spec.extra)]


def odds_for_answer(state: RsrState, answer: dict[str, Any]) -> list[OddsTable]:
    """The declared attacks of an assault round (``{attacks: [{hex, attackers, command}]}``, RSR 11.2)."""
    tables = []
    for raw in answer.get("attacks") or []:
        if isinstance(raw, dict) and isinstance(raw.get("hex"), str) and raw.get("attackers"):
            units = tuple(str(a) for a in raw["attackers"])
            tables.append(attack_odds(state, side_of(state, units), raw["hex"], list(units), raw.get("command")))
    return tables
