"""Exact odds of a Red Sun/Red Star combat before it is declared: the defender's fire and the attacker's fire
(RS/RS 6.3-6.55), each CRT result (RS/RS 6.6), and what the morale result then does with a morale check (RS/RS 6.62) or
without one, by the Morale Option Table.

Fire strength, column and shifts come from the rules module's pure functions (combat.solve with the
default lead units and fire plan of ``auto_choice``); this module enumerates the faces of the firefight die
and of the morale die and sums the chances. Each firefight is counted from the position before any fire of
the combat: losses of an earlier firefight can change a later one (say so in the output). Artillery direct
support (RS/RS 5.3) is part of combat.solve, so it is already in a firefight's strength.

Fire missions of the Artillery Fire segment (RS/RS 5.21 bombardment, RS/RS 5.22 interdiction) take their check,
strength, column, spotting and bridge modifiers and results from artillery.py; this module rolls every face of the die.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

from rsr.engine import Context
from rsr.errors import BadInput, RulesError
from rsr.fairdice import NoDice
from rsr.odds import AttackSpec, FireSpec, OddsTable
from rsr.provenance import is_provisional
from rsr.rulesets.red_star import artillery as art
from rsr.rulesets.red_star import combat as cm
from rsr.rulesets.red_star import support
from rsr.rulesets.red_star.data import CrtCell, MoraleOutcome
from rsr.rulesets.red_star.sequence import MORALE_DIE
from rsr.rulesets.red_star.state import Combat, RsState, Unit, enemy_of
from rsr.rulesets.red_star.terrain import current
from rsr.words import plural, plural_word

DIE = range(1, 7)  # RS/RS 6.1: one six-sided die per firefight


def morale_rating(state: RsState, combat: Combat, hex_id: str, owner: str) -> int:
    """RS/RS 6.62: the highest proficiency in the hex, less one out of supply (RS/RS 10.3), Soviets less one at night
    (RS/RS 6.92): the rules module's own reading."""
    from rsr.rulesets.red_star.resolve import morale_rating as rating

    return rating(state, combat, state.units_in(hex_id, owner))


def outcome_words(line: MoraleOutcome, steps: int, morale: int) -> str:
    """One Morale Option Table line (RS/RS 6.62) for a CRT result of ``steps``/``morale``, in words."""
    lost = steps + (morale if line.factors_lost == "morale" else int(line.factors_lost))
    parts = [f"loses {lost} factor{'s' if lost != 1 else ''}" if lost else "loses no factor"]
    if line.retreat != "none":
        hexes = morale if line.retreat_hexes == "morale" else int(line.retreat_hexes)
        who = "the target unit" if line.retreat == "target-unit" else "every unit in the hex"
        parts.append(f"{who} retreats {hexes} hex{'es' if hexes != 1 else ''}")
    if line.disruption:
        parts.append(f"\"{line.disruption}\" marker")
    return ", ".join(parts)


def firefight_table(state: RsState, combat: Combat, role: str, units: list[Unit], target: Unit,
                    target_hex: str) -> OddsTable:
    """One firefight: every CRT result and, for a morale result, the check and the Morale Option Table."""
    side = cm.role_side(combat, role)
    other = "attacker" if role == "defender" else "defender"
    solution = cm.solve(state, combat, role, units, target, target_hex, None)
    crt = state.static.crt
    table = OddsTable(f"{side} fire ({role}): {' + '.join(u.id for u in units)} at {target.id} in {target_hex}")
    classes = ", ".join(f"{c['class']} {c['factors']} x {c['multiplier']} = {c['value']}" for c in solution.by_class)
    table.how.append(f"fire strength {solution.strength} ({classes}) (RS/RS 6.4): column "
                     f"{crt.columns[solution.base_column]}")
    for shift in solution.shifts:
        table.how.append(f"shift {shift.value:+d}: {shift.reason} ({shift.case})")
    table.how.append(f"final column {crt.columns[solution.column]} (shifts past the ends stop there: errata)")
    table.provisional += solution.provisional
    owner = target.side
    rating = morale_rating(state, combat, target_hex, owner)
    in_hex = sum(current(state, u) for u in state.units_in(target_hex, owner))
    table.how.append(f"morale check (RS/RS 6.62): passes on a die of {rating} or less ({rating} in 6); allowed "
                     f"when the {plural(in_hex, 'factor')} in {target_hex} {plural_word('is', in_hex)} at least "
                     "the morale result")
    stand_ins: dict[str, list[str]] = {}
    for die in DIE:
        cell: CrtCell = crt.cell(solution.column, die)
        if cell.provisional:
            stand_ins.setdefault(cell.provenance, []).append(str(die))
        _add_cell(table, state, cell, die, other, in_hex, rating)
    for provenance, dice in sorted(stand_ins.items()):
        table.provisional.append(f"CRT column {crt.columns[solution.column]}, die {', '.join(dice)}: {provenance}")
    table.notes.append(f"{target.id} is the target by priority (RS/RS 6.2-6.25) with the default lead units; "
                       "factors lost beyond a unit pass to the next by priority (6.61)")
    if all(o.text.startswith("-/-") for o in table.outcomes):
        table.warnings.append("hopeless: no die has any effect on the target")
    elif len(table.outcomes) == 1:
        table.warnings.append(f"automatic: every die gives {table.outcomes[0].text}")
    return table


def _add_cell(table: OddsTable, state: RsState, cell: CrtCell, die: int, target_role: str, in_hex: int,
              rating: int) -> None:
    steps, morale = cell.steps, cell.morale
    pass_p = Fraction(max(0, min(rating, MORALE_DIE)), MORALE_DIE)
    p = Fraction(1, 6)
    if not morale:
        words = f"loses {steps} factor{'s' if steps != 1 else ''}" if steps else "no effect"
        table.add(f"{cell.text}: {words}", p, str(die), cell.provisional)
        return
    if in_hex - steps < morale:
        line = cm.morale_outcome(state, "no-check", target_role)
        table.add(f"{cell.text}: too few factors for a morale check: {outcome_words(line, steps, morale)}", p,
                  str(die), cell.provisional)
        return
    passed = cm.morale_outcome(state, "pass", target_role)
    failed = cm.morale_outcome(state, "fail", target_role)
    if pass_p:
        table.add(f"{cell.text}, morale check passed: {outcome_words(passed, steps, morale)}", p * pass_p,
                  f"{die}, morale die 1-{rating}", cell.provisional)
    if pass_p < 1:
        table.add(f"{cell.text}, morale check failed: {outcome_words(failed, steps, morale)}", p * (1 - pass_p),
                  f"{die}, morale die {rating + 1}-{MORALE_DIE}", cell.provisional)
    no_check = cm.morale_outcome(state, "no-check", target_role)
    note = f"without a check, a morale result {morale}: {outcome_words(no_check, 0, morale)} (Morale Option Table)"
    if note not in table.notes:
        table.notes.append(note)


def _default_hex(state: RsState, combat: Combat) -> str:
    """The attacking hex with the most attacking factors, then the lowest number (as resolve.py does)."""
    hexes = cm.attack_hexes(combat)
    return min(hexes, key=lambda h: (-sum(current(state, u) for u in cm.members(state, combat, "attacker", h)), h))


def combat_odds(state: RsState, side: str, hex_id: str, attackers: list[str], night: bool = False,
                guns: tuple[str, ...] = (), choice: dict[str, Any] | None = None) -> list[OddsTable]:
    """RS/RS 6.1-6.62: the defender's first firefight and the attacker's, each with its exact outcomes; ``guns``
    give the attacker's offensive support (RS/RS 5.31), ``choice`` his attack choices (lead, armor protection,
    support; RS/RS 6.21, RS/RS 6.22, RS/RS 5.3) instead of the defaults. The defender's choices are his defaults
    (auto_choice): his guns in the attacked hex support free (RS/RS 5.32, S&T 158 errata); guns elsewhere are his
    secret choice."""
    trial = copy.deepcopy(state)
    try:
        combat = cm.parse_declaration(trial, side, {"hex": hex_id, "attackers": list(attackers), "night": night},
                                      1, [], "prepared", "odds")
        if choice is not None:
            plain = {k: v for k, v in choice.items() if k != "fire"}
            combat.attack_choice = cm.check_choice(trial, combat, "attacker", plain, f"choices for {hex_id}")
        else:
            combat.attack_choice = cm.auto_choice(trial, combat, "attacker")
            combat.attack_choice["support"] = support.check_support(trial, combat, "attacker", list(guns),
                                                                    "support")
    except RulesError as exc:
        raise BadInput(f"combat on {hex_id}: {exc}") from exc
    # both sides' choices are fixed before the combat starts and the support is paid (RS/RS 5.3, RS/RS 6.1)
    combat.defence_choice = cm.auto_choice(trial, combat, "defender")
    ctx = Context(NoDice())
    if not cm.start(trial, ctx, combat):
        raise BadInput(f"combat on {hex_id}: nothing to fight")
    tables: list[OddsTable] = []
    defender = enemy_of(side)
    firing = [u for u in cm.members(trial, combat, "defender") if cm.can_fire(trial, combat, "defender", u)]
    if trial.support.get(defender, 0) < 1 and not trial.options.get("defender-fires-free"):  # RS/RS 6.1
        empty = OddsTable(f"{defender} fire (defender)")
        empty.warnings.append(f"{defender} has no support point left and cannot fire in defence (RS/RS 6.1)")
        tables.append(empty)
    elif firing:
        at = _default_hex(trial, combat)
        target = cm.next_target(trial, combat, "attacker", at)
        if target is not None:
            tables.append(firefight_table(trial, combat, "defender", firing, target, at))
    shooters = [u for u in cm.members(trial, combat, "attacker") if cm.can_fire(trial, combat, "attacker", u)]
    target = cm.next_target(trial, combat, "defender", hex_id)
    if shooters and target is not None:
        tables.append(firefight_table(trial, combat, "attacker", shooters, target, hex_id))
    paid = [e.text.replace(f" in {combat.id} ", " ") for e in ctx.events if e.kind in ("direct-support", "support-off")]
    for table in tables:
        table.how[:0] = [f"support: {text} (RS/RS 5.3)" for text in paid]
        table.notes.append("each firefight is counted from the position before any fire of this combat; the "
                           "losses of the first change the second")
        if "fire (defender)" in table.title:
            table.notes.append("the defender may also name guns outside the hex for defensive support, his "
                               "secret choice (RS/RS 5.32): not counted")
    return tables


def side_of(state: RsState, units: tuple[str, ...]) -> str:
    unit = state.units.get(units[0])
    if unit is None:
        raise BadInput(f"unknown unit {units[0]!r}")
    return unit.side


def odds_for_spec(state: RsState, spec: AttackSpec) -> list[OddsTable]:
    if spec.extra not in (None, "night"):
        raise BadInput(f"attack on {spec.hex}: the only extra word is /night (RS/RS 6.9)")
    return combat_odds(state, side_of(state, spec.units), spec.hex, list(spec.units), spec.extra == "night",
                       spec.support)


def hasty_odds(state: RsState, move: dict[str, Any]) -> list[OddsTable]:
    """RS/RS 7.5: the hasty attacks of one move, from the hex where the moving stack stops (the end of its
    path; the move itself is checked by the rules, and units dropped on the way are not counted)."""
    path = move.get("path") or []
    movers = move.get("units") or ([move["unit"]] if "unit" in move else [])
    if not path or not isinstance(path, list):
        return []
    trial = copy.deepcopy(state)
    for unit_id in movers:
        if unit_id in trial.units:
            trial.units[unit_id].hex = str(path[-1])
    tables: list[OddsTable] = []
    for raw in move.get("hasty") or []:
        if isinstance(raw, dict) and isinstance(raw.get("hex"), str) and isinstance(raw.get("units"), list):
            units = tuple(str(u) for u in raw["units"])
            for table in combat_odds(trial, side_of(trial, units), raw["hex"], list(units)):
                table.title = f"hasty attack from {path[-1]}: {table.title}"
                tables.append(table)
    return tables


def choices_odds(state: RsState, chosen: dict[str, Any]) -> list[OddsTable]:
    """The attack choices of the declared combats: each combat counted with its lead units, armor protection
    and supporting guns (RS/RS 6.21, RS/RS 6.22, RS/RS 5.31)."""
    tables: list[OddsTable] = []
    known = {c.id for c in state.combats}
    for combat_id in sorted(str(k) for k in chosen if str(k) not in known):
        tables.append(OddsTable(f"{combat_id}: not declared in the position these orders answer; its odds "
                                "with these choices are shown once the declaration has been sent"))
    for combat in state.combats:
        raw = chosen.get(combat.id)
        if not isinstance(raw, dict):
            continue
        for table in combat_odds(state, combat.attacker, combat.hex, list(combat.attackers), combat.night,
                                 choice=raw):
            table.title = f"{combat.id}: {table.title}"
            if raw.get("fire"):
                table.notes.append("counted with every unit in one firefight; the fire plan given splits it")
            tables.append(table)
    return tables


def odds_for_answer(state: RsState, answer: dict[str, Any]) -> list[OddsTable]:
    """Fire missions (``{missions: [{bombard | interdict, artillery}]}``, RS/RS 5.2), prepared combats
    (``{combats: [{hex, attackers, night}]}``, RS/RS 6.0), the attack choices of declared combats (``{combats:
    {combat id: {lead, armor_protection, fire, support}}}``, RS/RS 6.21, RS/RS 5.31) and the hasty attacks of a
    movement order (``{moves: [{units, path, hasty: [{hex, units}]}]}``, RS/RS 7.5) of an orders file."""
    tables: list[OddsTable] = []
    missions = answer.get("missions")
    if isinstance(missions, list) and missions:
        first = missions[0].get("artillery") if isinstance(missions[0], dict) else None
        if isinstance(first, list) and first:
            tables += mission_odds(state, side_of(state, (str(first[0]),)), missions)
    for move in answer.get("moves") or []:
        if isinstance(move, dict) and move.get("hasty"):
            tables += hasty_odds(state, move)
    chosen = answer.get("combats")
    if isinstance(chosen, dict):
        tables += choices_odds(state, chosen)
        return tables
    for raw in answer.get("combats") or []:
        listed = (raw.get("attackers") or raw.get("units")) if isinstance(raw, dict) else None
        if isinstance(raw, dict) and isinstance(raw.get("hex"), str) and isinstance(listed, list) and listed:
            units = tuple(str(u) for u in listed)
            tables += combat_odds(state, side_of(state, units), raw["hex"], list(units), bool(raw.get("night")))
    return tables


# -- fire missions (RS/RS 5.2-5.22, RS/RS 5.51, RS/RS 5.53) -----------------------------------------------------------

def _checked_missions(state: RsState, side: str, missions: list[Any]) -> list[dict[str, Any]]:
    """The rules' own check of the whole order (RS/RS 5.1, RS/RS 5.2, RS/RS 5.21, RS/RS 5.22, RS/RS 4.3)."""
    try:
        return art.check_missions(state, side, {"missions": missions})
    except RulesError as exc:
        raise BadInput(f"fire missions: {exc}") from exc


def _mission_head(state: RsState, side: str, mission: dict[str, Any], table: OddsTable) -> list[Unit]:
    """Cost, and the guns that reach the target; a gun that does not is wasted (RS/RS 5.51)."""
    guns = [state.units[g] for g in mission["artillery"]]
    cost = art.cost_of(state, mission["mission"], len(guns))
    table.how.append(f"{plural(cost, 'support point')} of {state.support.get(side, 0)} (Artillery Support Point Costs, "
                     "RS/RS 4.3)")
    firing = [g for g in guns if art.reaches(state, g, mission["hex"])]
    for gun in guns:
        if gun not in firing:
            counted = art.range_count(state, gun.hex or "", mission["hex"])
            table.warnings.append(f"{gun.id} in {gun.hex} cannot reach {mission['hex']} (range "
                                  f"{art.fire_range(state, gun)}, {counted}"
                                  " hexes counted; at least one hex must lie between): wasted, its points lost "
                                  "(RS/RS 5.51)")
    table.notes.append("enemy counterbattery may suppress or eliminate a gun before the mission resolves; its "
                       "factors are then lost (RS/RS 5.41)")
    return firing


def _judge(table: OddsTable, nothing: str) -> None:
    """Warn of a hopeless mission (every die gives ``nothing``) or an automatic one (every die the same)."""
    if table.outcomes and all(o.text == nothing for o in table.outcomes):
        table.warnings.append(f"hopeless: every die gives {nothing}")
    elif len(table.outcomes) == 1:
        table.warnings.append(f"automatic: every die gives {table.outcomes[0].text}")


def bombardment_effect(state: RsState, target: Unit, code: str) -> tuple[str, bool]:
    """What a Bombardment Table result does to ``target`` now, and whether it changes anything: the rules' own
    apply_bombardment (RS/RS 5.21, RS/RS 5.7) run on a copy of the position."""
    if code == "-":
        return "-: no effect", False
    trial = copy.deepcopy(state)
    ctx = Context(NoDice())
    art.apply_bombardment(trial, ctx, trial.units[target.id], code)
    if not ctx.events:
        return f"{code}: no effect ({target.id} already has a \"{target.disruption}\" marker)", False
    return f"{code}: {'; '.join(e.text for e in ctx.events)}", True


def bombardment_odds(state: RsState, side: str, mission: dict[str, Any]) -> OddsTable:
    """RS/RS 5.21, RS/RS 5.53: every face of the die on the Bombardment Table."""
    chart = art.charts(state)
    fire = chart.bombardment
    target = state.units[mission["bombard"]]
    table = OddsTable(f"mission {mission['number']}: {side} bombards {target.id} in {mission['hex']} with "
                      f"{', '.join(mission['artillery'])}")
    firing = _mission_head(state, side, mission, table)
    strength, multiplier, target_class, provenance = art.bombard_strength(state, target, firing)
    factors = sum(current(state, g) for g in firing)
    table.how.append(f"strength {strength}: {plural(factors, 'factor')} x{multiplier} indirect fire against "
                     f"{target_class}, rounded up (RS/RS 5.21, 6.43)")
    if is_provisional(provenance):
        table.provisional.append(f"Combat Effectiveness weapons-indirect-fire vs {target_class}: {provenance}")
    column = fire.column_for(strength)
    if column is None or not firing:
        table.add("-: no effect", Fraction(1))
        table.how.append(f"below the first column ({fire.columns[0]}) of the Bombardment Table (Player Aid)")
        table.warnings.append("hopeless: no strength reaches the table, the points are spent for nothing")
        return table
    table.how.append(f"column {fire.columns[column]}: the highest column not above the strength (Player Aid)")
    modifier, distance = art.spotting(state, side, mission["hex"])
    table.how.append(f"spotting {modifier:+d}: the nearest {side} unit is {distance} hex(es) from the target, "
                     "measured now (RS/RS 5.53)")
    table.how.append("a modified die above 6 reads the 6+ row (Player Aid)")
    changes = False
    for die in DIE:
        words, changed = bombardment_effect(state, target, fire.result(column, die + modifier))
        changes = changes or changed
        table.add(words, Fraction(1, 6), str(die), is_provisional(fire.cells_provenance))
    table.provisional += art._provisional(fire, chart.selection_provenance)
    if not changes:
        table.warnings.append(f"hopeless: no die has any effect on {target.id}")
    elif len(table.outcomes) == 1:
        table.warnings.append(f"automatic: every die gives {table.outcomes[0].text}")
    return table


def interdiction_odds(state: RsState, side: str, mission: dict[str, Any]) -> OddsTable:
    """RS/RS 5.22, RS/RS 5.53, RS/RS 7.3: the marker's factors, and every face of the die an enemy stack entering the
    hex rolls on the Interdiction Table (modifiers as they stand now)."""
    chart = art.charts(state)
    fire = chart.interdiction
    hex_id = mission["hex"]
    table = OddsTable(f"mission {mission['number']}: {side} interdicts {hex_id} with "
                      f"{', '.join(mission['artillery'])}")
    firing = _mission_head(state, side, mission, table)
    factors = sum(current(state, g) for g in firing)
    column = fire.column_for(factors)
    table.how.append(f"marker of {plural(factors, 'factor')} (RS/RS 5.22)")
    if column is None or not firing:
        table.add("no marker: no strength left", Fraction(1))
        table.warnings.append("hopeless: no gun fires, no marker is placed and the points are spent")
        return table
    spot, distance, bridge = art.interdiction_modifiers(state, side, hex_id)
    table.how.append(f"column {fire.columns[column]}: the highest column not above the factors (Player Aid)")
    table.how.append(f"spotting {spot:+d}: the nearest {side} unit is {distance} hex(es) away, measured now; it is "
                     "measured again when an enemy stack enters (RS/RS 5.53)")
    if bridge:
        table.how.append(f"bridge {bridge:+d}: {hex_id} is next to a bridge hexside (Player Aid)")
    for die in DIE:
        printed = int(fire.result(column, die + spot + bridge))
        words = (f"{printed} extra MP for a stack entering ({printed * 2} in operational movement, RS/RS 7.3)"
                 if printed else "no extra MP")
        table.add(words, Fraction(1, 6), str(die), is_provisional(fire.cells_provenance))
    table.notes.append("the roll is made by each enemy stack that enters the hex while the marker stays (until "
                       f"{side}'s next Artillery Fire segment); a unit that cannot pay halts before it")
    if bridge:
        table.notes.append("a stack retreating over the bridge next to the marker loses as many steps as the "
                           "number rolled (RS/RS 6.72)")
    table.provisional += art._provisional(fire, chart.selection_provenance)
    _judge(table, "no extra MP")
    return table


def mission_odds(state: RsState, side: str, missions: list[Any]) -> list[OddsTable]:
    """Every mission of one fire order, checked whole by the rules, each counted from the position now."""
    tables = []
    for mission in _checked_missions(state, side, missions):
        if mission["mission"] == "bombard":
            tables.append(bombardment_odds(state, side, mission))
        else:
            tables.append(interdiction_odds(state, side, mission))
    if len(tables) > 1:
        for table in tables:
            table.notes.append("each mission is counted from the position before any of them resolves")
    return tables


def fire_odds_for_spec(state: RsState, spec: FireSpec) -> list[OddsTable]:
    """``bombard:UNIT:GUNS`` or ``interdict:HEX:GUNS`` on the command line."""
    return mission_odds(state, side_of(state, spec.guns), [{spec.mission: spec.target, "artillery": list(spec.guns)}])
