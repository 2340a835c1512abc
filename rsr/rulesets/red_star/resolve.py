"""Resolving one combat (RS/RS 6.1-6.93, RS/RS 7.55): firefights in order, then each CRT result.

The combat is a small machine kept in the state (``Combat.stage``, ``Combat.result``), so it can stop for a
decision nobody has answered (morale check or retreat, retreat path, advance) and carry on when the answer
arrives. Between decisions it runs on its own; each die it rolls names its case.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rsr.decisions import Decision, Policy
from rsr.engine import Context, Request
from rsr.errors import RulesError
from rsr.rulesets.red_star import combat as cm
from rsr.rulesets.red_star import retreat as rt
from rsr.rulesets.red_star import support
from rsr.rulesets.red_star.losses import lose_factors
from rsr.rulesets.red_star.sequence import MORALE_DIE
from rsr.rulesets.red_star.state import Ask, Combat, RsState, Unit, combat_by_id, enemy_of
from rsr.rulesets.red_star.terrain import current
from rsr.words import plural, plural_word


def resolve(state: RsState, ctx: Context, combat: Combat) -> bool:
    """Run ``combat`` until it ends (True) or waits for a decision in ``state.ask`` (False)."""
    while True:
        if state.ask is not None:
            return False
        if combat.result is not None:
            _apply_result(state, ctx, combat)
            continue
        stage = combat.stage
        if stage in ("waiting", "start"):
            if not cm.start(state, ctx, combat):
                combat.stage = "done"
                return True
            combat.stage = "participation" if combat.night else "defender-fire"
        elif stage == "participation":
            cm.participation(state, ctx, combat)
            combat.stage = "defender-fire"
        elif stage in ("defender-fire", "attacker-fire"):
            role = "defender" if stage == "defender-fire" else "attacker"
            plan = cm.choice_of(combat, role).get("fire") or []
            if combat.group < len(plan):
                group = plan[combat.group]
                other = "attacker" if role == "defender" else "defender"
                target_hex = combat.hex if role == "attacker" else (group.get("at") or _default_hex(state, combat))
                if cm.next_tied(state, combat, other, target_hex) and _ask_ties(state, combat, other, target_hex):
                    return False
                combat.group += 1
                _firefight(state, ctx, combat, role, group)
            else:
                combat.group = 0
                combat.last_printed = None
                if role == "defender":
                    combat.stage = "attacker-fire"
                else:
                    combat.stage = "night-results" if combat.night else "advance"
        elif stage == "night-results":
            if combat.deferred:
                combat.result = combat.deferred.pop(0)
                ctx.emit("night-result", f"night: the Soviet fire result on {combat.result['target']} is applied "
                         "now", "RS/RS 6.92", combat=combat.id, unit=combat.result["target"])
            else:
                combat.stage = "advance"
        elif stage == "advance":
            if not _advance(state, ctx, combat):
                return False
            combat.stage = "end"
        elif stage == "end":
            _finish(state, ctx, combat)
            combat.stage = "done"
        else:
            return True


# -- firefights ----------------------------------------------------------------------------------------------

def _default_hex(state: RsState, combat: Combat) -> str:
    """The defender's default target hex: the attacking hex with the most attacking factors, then by number."""
    hexes = cm.attack_hexes(combat)
    live = [h for h in hexes if cm.members(state, combat, "attacker", h)] or hexes
    return min(live, key=lambda h: (-sum(current(state, u) for u in cm.members(state, combat, "attacker", h)), h))


def _firefight(state: RsState, ctx: Context, combat: Combat, role: str, group: dict[str, Any]) -> None:
    """RS/RS 6.3: one firefight of ``group`` against one target unit chosen by priority (RS/RS 6.2-6.25)."""
    side = cm.role_side(combat, role)
    other = "attacker" if role == "defender" else "defender"
    units = [state.units[u] for u in group["units"] if cm.can_fire(state, combat, role, state.units[u])]
    if not units:
        support.waste_assigned(state, ctx, combat, role, group, [])  # RS/RS 5.3: never alone (RS/RS 5.1)
        return
    target_hex = combat.hex if role == "attacker" else (group.get("at") or _default_hex(state, combat))
    targets = cm.legal_targets(state, combat, other, target_hex)
    if not targets:
        support.waste_assigned(state, ctx, combat, role, group, [])  # RS/RS 5.3
        return
    if not combat.support_paid and role == "defender" and not state.options.get("defender-fires-free"):
        # RS/RS 6.1 (rules option defender-fires-free: RS/RS 4.3, only the attacking side pays in ground combat)
        if state.support.get(side, 0) < 1:  # RS/RS 6.1: the defender pays one support point to fire at all
            ctx.emit("no-fire", f"{side} has no support point left and cannot fire in this combat", "RS/RS 6.1",
                     combat=combat.id, side=side)
            combat.stage = "attacker-fire"
            combat.group = 0
            combat.last_printed = None
            return
        state.support[side] -= 1
        combat.support_paid = True
        ctx.emit("support", f"{side} spends 1 support point to fire in defence ({state.support[side]} left)",
                 "RS/RS 6.1", side=side, spent=1, left=state.support[side])
    wanted = group.get("target", "next")
    target = targets[0]
    if wanted not in (None, "next"):
        chosen = next((t for t in targets if t.id == wanted), None)
        if chosen is None:
            ctx.emit("target", f"{wanted} is not a legal target now; firing at {target.id} instead", "RS/RS 6.24",
                     combat=combat.id, wanted=wanted, target=target.id)
        else:
            target = chosen
    solution = cm.solve(state, combat, role, units, target, target_hex, combat.last_printed, group)
    support.fired(state, combat, solution.support)  # RS/RS 5.1, RS/RS 5.3
    support.waste_assigned(state, ctx, combat, role, group, solution.support)  # RS/RS 5.3, RS/RS 5.51
    combat.last_printed = sum(solution.used.values())
    combat.firefights += 1
    number = combat.firefights
    die = ctx.roll(6, f"firefight {number} of {combat.id}: {side} fire at {target.id} in {target_hex}, RS/RS 6.3")
    cell = state.static.crt.cell(solution.column, die)
    provisional = list(solution.provisional)
    if cell.provisional:
        provisional.append(f"CRT {state.static.crt.columns[solution.column]} die {die}: {cell.provenance}")
    for unit in units:
        combat.fired.append(unit.id)
    if target.id not in combat.fired_upon:
        combat.fired_upon.append(target.id)
    if target_hex not in combat.hexes_fired_on:
        combat.hexes_fired_on.append(target_hex)
    crt = state.static.crt
    shifts = [{"value": s.value, "reason": s.reason, "case": s.case} for s in solution.shifts]
    shift_text = ", ".join(f"{s.value:+d} {s.reason}" for s in solution.shifts) or "no shifts"
    firers = [f"{u} ({solution.used[u]})" for u in solution.units]
    firers += [f"{g} ({solution.used[g]}, support)" for g in solution.support]
    ctx.emit(
        "firefight",
        f"firefight {number} ({combat.id}): {side} {' + '.join(firers)}"
        f" = {solution.strength} at {target.id} in {target_hex}; column {crt.columns[solution.base_column]}, "
        f"{shift_text} -> {crt.columns[solution.column]}; die {die} -> {cell.text}",
        "RS/RS 6.3", provisional=provisional,
        combat=combat.id, firefight=number, side=side, role=role,
        firing=[{"unit": u, "printed": solution.printed[u], "used": solution.used[u]} for u in solution.units],
        by_class=solution.by_class, strength=solution.strength, target=target.id, target_hex=target_hex,
        base_column=crt.columns[solution.base_column], shifts=shifts, net_shift=solution.net_shift,
        column=crt.columns[solution.column], die=die, result=cell.text, steps=cell.steps, morale=cell.morale,
        night=combat.night, support=list(solution.support),
        support_firing=[{"unit": g, "printed": solution.printed[g], "used": solution.used[g]}
                        for g in solution.support],
    )
    result: dict[str, Any] = {
        "target": target.id, "hex": target_hex, "role": other, "owner": target.side, "steps": cell.steps,
        "morale": cell.morale, "step": "loss", "choice": None, "firefight": number, "lost": [], "consumed": 0}
    if combat.night and role == "defender":
        combat.deferred.append(result)  # RS/RS 6.92: applied after the Japanese fire
    else:
        combat.result = result


# -- results -------------------------------------------------------------------------------------------------

def _victims(state: RsState, combat: Combat, result: dict[str, Any]) -> list[Unit]:
    """The target first, then the other units in the hex by target priority (RS/RS 6.61)."""
    ordered = cm.priority_order(state, combat, result["role"], result["hex"])
    target = state.units[result["target"]]
    rest = [u for u in ordered if u.id != target.id]
    return ([target] if target in cm.members(state, combat, result["role"], result["hex"]) else []) + rest


def _hex_units(state: RsState, combat: Combat, result: dict[str, Any]) -> list[Unit]:
    """All the owner's units in the target hex (RS/RS 6.62 counts them all for the check and its rating)."""
    return state.units_in(result["hex"], result["owner"])


def _apply_result(state: RsState, ctx: Context, combat: Combat) -> None:
    """RS/RS 6.6-6.62 and the Morale Option Table: losses, then the morale result, one step at a time."""
    result = combat.result
    assert result is not None
    step = result["step"]
    if step == "loss":
        if result["steps"] and _cascade_tied(state, combat, result, result["steps"]):
            return
        if result["steps"]:
            lose_factors(state, ctx, _victims(state, combat, result), result["steps"],
                         f"firefight {result['firefight']} of {combat.id}", "RS/RS 6.61")
        _note_vacated(state, combat, result, result["morale"])
        result["step"] = "morale"
        return
    if step == "morale":
        morale = result["morale"]
        present = cm.members(state, combat, result["role"], result["hex"])
        if not morale or not present:
            combat.result = None
            return
        total = sum(current(state, u) for u in _hex_units(state, combat, result))
        if total < morale:  # RS/RS 6.62: not enough factors in the hex to make a check
            ctx.emit("morale", f"{result['target']} must retreat: {plural(total, 'factor')} in {result['hex']} "
                     f"{plural_word('is', total)} fewer than the morale result {morale}", "RS/RS 6.62",
                     combat=combat.id, unit=result["target"], choice="no-check", allowed=False)
            result["announced"] = True
            result["choice"] = "no-check"
            result["step"] = "outcome"
            return
        if result["choice"] is None:
            state.ask = Ask("morale", result["owner"], f"{combat.id}/f{result['firefight']}/morale",
                            {"combat": combat.id, "unit": result["target"], "hex": result["hex"],
                             "morale": morale, "role": result["role"], "rating": _rating(state, combat, result)})
            return
        result["step"] = "outcome"
        return
    if step == "outcome":
        _outcome(state, ctx, combat, result)
        return
    if step == "retreat":
        _retreat_step(state, ctx, combat, result)
        return
    combat.result = None


def _ask_ties(state: RsState, combat: Combat, role: str, hex_id: str) -> bool:
    """RS/RS 6.25: ask the owner to order his tied units in ``hex_id`` (policy ``target-ties``)."""
    owner = cm.role_side(combat, role)
    units = [u.id for u in cm.members(state, combat, role, hex_id)]
    number = len(combat.tie_orders) + 1
    state.ask = Ask("target-ties", owner, f"{combat.id}/ties{number}",
                    {"combat": combat.id, "hex": hex_id, "role": role, "units": units})
    return True


def _cascade_tied(state: RsState, combat: Combat, result: dict[str, Any], loss: int) -> bool:
    """RS/RS 6.61 with RS/RS 6.25: losses beyond the target unit pass on by priority; ask first if that meets a tie."""
    hex_id = result["hex"]
    target = state.units[result["target"]]
    if not target.on_map or loss <= current(state, target):
        return False
    rest = [u for u in cm.members(state, combat, result["role"], hex_id) if u.id != target.id]
    if not cm.tied(state, combat, result["role"], hex_id, rest):
        return False
    return _ask_ties(state, combat, result["role"], hex_id)


def answer_ties(state: RsState, combat: Combat, hex_id: str, answer: Any) -> None:
    """The owner's order of his units in ``hex_id`` among equals of priority and factors (RS/RS 6.25)."""
    order = answer.get("order") if isinstance(answer, dict) and set(answer) == {"order"} else None
    if not isinstance(order, list) or not all(isinstance(u, str) for u in order):
        raise RulesError("a target-ties answer is {order: [unit ids]}, first to be fired on first (RS/RS 6.25)")
    side = combat.attacker if hex_id != combat.hex else combat.defender
    for unit_id in order:
        unit = state.units.get(unit_id)
        if unit is None or unit.hex != hex_id or unit.side != side:
            raise RulesError(f"{unit_id} is not one of your units in {hex_id} (RS/RS 6.25)")
    combat.tie_orders[hex_id] = list(order)


def morale_rating(state: RsState, combat: Combat, units: Iterable[Unit]) -> int:
    """RS/RS 6.62: the single highest proficiency among ``units``, one less out of supply (RS/RS 10.3) and, for
    Soviet units, one less at night (RS/RS 6.92)."""
    best = 0
    for unit in units:
        value = state.counter(unit.id).proficiency
        if unit.id in combat.unsupplied:
            value -= 1
        if combat.night and unit.side == "soviet":
            value -= 1
        best = max(best, value)
    return best


def _rating(state: RsState, combat: Combat, result: dict[str, Any]) -> int:
    return morale_rating(state, combat, _hex_units(state, combat, result))


def _outcome(state: RsState, ctx: Context, combat: Combat, result: dict[str, Any]) -> None:
    """Apply one line of the Morale Option Table (tables.yaml ``morale_options``) with RS/RS 6.62."""
    morale = result["morale"]
    role = result["role"]
    choice = result["choice"]
    if choice == "check":
        rating = _rating(state, combat, result)
        die = ctx.roll(MORALE_DIE, f"morale check of {result['target']} in {result['hex']} (rating {rating}), "
                       "RS/RS 6.62")
        choice = "pass" if die <= rating else "fail"
        ctx.emit("morale", f"morale check in {result['hex']}: die {die} vs {rating}: {choice}", "RS/RS 6.62",
                 combat=combat.id, unit=result["target"], choice=choice, die=die, rating=rating, morale=morale)
    elif result["choice"] == "no-check" and not result.get("announced"):
        ctx.emit("morale", f"{result['owner']} makes no morale check for {result['target']}", "RS/RS 6.62",
                 combat=combat.id, unit=result["target"], choice="no-check")
    outcome = cm.morale_outcome(state, choice, role)  # RS/RS 6.62, the Morale Option Table
    lost: list[str] = []
    if outcome.factors_lost == "morale" and _cascade_tied(state, combat, result, morale):
        result["choice"] = choice  # the check is made; its losses wait for the owner's order (RS/RS 6.25)
        return
    if outcome.factors_lost == "morale":
        present = cm.members(state, combat, role, result["hex"])
        before = sum(current(state, u) for u in present)
        removed, lost = lose_factors(state, ctx, _victims(state, combat, result), morale,
                                     f"morale result {morale} in {result['hex']}", "RS/RS 6.62")
        result["consumed"] = min(before, morale)
        # RS/RS 6.62 Fail #2 limits the advance to the part of the result the losses did not use up; that is
        # said of a failed check only. Emptied any other way, the advance may be the whole result (RS/RS 6.81).
        _note_vacated(state, combat, result,
                      max(1, morale - result["consumed"]) if choice == "fail" else morale)
    if outcome.disruption and outcome.retreat == "none":
        for unit_id in lost:  # RS/RS 6.62 #3: the attacker's units that lost steps
            unit = state.units[unit_id]
            if unit.on_map and unit.disruption < outcome.disruption:
                unit.disruption = outcome.disruption
                ctx.emit("disrupted", f"{unit_id} receives a \"{outcome.disruption}\" marker", "RS/RS 6.62",
                         unit=unit_id, level=outcome.disruption)
    if outcome.retreat == "none":
        combat.result = None
        return
    if outcome.retreat == "target-unit":
        units = [u for u in cm.members(state, combat, role, result["hex"]) if u.id == result["target"]]
    else:
        units = [u for u in _hex_units(state, combat, result)]
    result["retreat_units"] = [u.id for u in units]
    result["marker"] = outcome.disruption
    result["step"] = "retreat"
    if not units:
        combat.result = None


def _retreat_step(state: RsState, ctx: Context, combat: Combat, result: dict[str, Any]) -> None:
    units = [state.units[u] for u in result.get("retreat_units", []) if state.units[u].on_map]
    if not units:
        combat.result = None
        return
    if "paths" not in result:
        start = units[0].hex or result["hex"]
        paths = rt.legal_paths(rt.retreat_paths(state, units[0].side, units, start, result["morale"],
                                                result.setdefault("retreated", [])))
        if not paths:
            for unit in units:
                from rsr.rulesets.red_star.losses import eliminate

                eliminate(state, ctx, unit, "no retreat path", "RS/RS 6.7")
            _after_retreat(state, combat, result)
            combat.result = None
            return
        result["options"] = [list(p.hexes) for p in paths]
        result["paths"] = None
        state.ask = Ask("retreat", units[0].side, f"{combat.id}/f{result['firefight']}/retreat",
                        {"combat": combat.id, "units": [u.id for u in units], "hex": units[0].hex,
                         "hexes": result["morale"], "options": result["options"]})
        return
    plan: dict[str, list[str]] = result["paths"]
    groups: dict[tuple[str, ...], list[Unit]] = {}
    for unit in units:
        groups.setdefault(tuple(plan[unit.id]), []).append(unit)
    if "loss_order" not in result:
        # RS/RS 8.4, RS/RS 6.72: a stack's step loss falls on the unit its owner chooses; ask when there is a choice
        choices = {" ".join(path): rt.stack_losses(state, units[0].side, group, path, result.get("retreated", []))
                   for path, group in sorted(groups.items())}
        choices = {k: v for k, v in choices.items() if v}
        result["loss_order"] = None
        if choices:
            state.ask = Ask("retreat-losses", units[0].side, f"{combat.id}/f{result['firefight']}/retreat-losses",
                            {"combat": combat.id, "units": sorted({u for v in choices.values() for u in v}),
                             "paths": choices})
            return
    if "interdiction_order" not in result:
        # RS/RS 6.72: over an interdicted bridge the player who placed the marker picks who takes the losses
        exposed = sorted({u for path, group in groups.items()
                          for u in rt.bridge_exposed(state, units[0].side, group, path)})
        result["interdiction_order"] = None
        if exposed:
            state.ask = Ask("interdiction-losses", enemy_of(units[0].side),
                            f"{combat.id}/f{result['firefight']}/interdiction-losses",
                            {"combat": combat.id, "units": exposed})
            return
    for path, group in sorted(groups.items()):
        rt.execute(state, ctx, combat, group, path, result["marker"], result.setdefault("retreated", []),
                   result.get("loss_order"), result.get("interdiction_order"))
    if result["role"] == "attacker" and combat.night:
        combat.japanese_retreated = True
    _after_retreat(state, combat, result)
    combat.result = None


def answer_retreat(state: RsState, combat: Combat, answer: Any) -> None:
    """The owner's retreat paths (RS/RS 6.7): one path for all, or unit -> path; each among the legal ones."""
    result = combat.result
    assert result is not None
    units = result["retreat_units"]
    options = [tuple(p) for p in result["options"]]
    if isinstance(answer, dict) and "path" in answer and set(answer) == {"path"}:
        plan = {u: answer["path"] for u in units}
    elif isinstance(answer, dict) and isinstance(answer.get("paths"), dict) and set(answer) == {"paths"}:
        plan = dict(answer["paths"])
    else:
        raise RulesError("a retreat answer is {path: [hexes]} or {paths: {unit: [hexes]}} (RS/RS 6.7)")
    for unit_id in units:
        path = plan.get(unit_id)
        if path is None or tuple(path) not in options:
            raise RulesError(f"{unit_id}: {path} is not one of the legal retreat paths {', '.join(map(str, options))} "
                             "(RS/RS 6.71, 8.4)")
    result["paths"] = {u: list(plan[u]) for u in units}


def answer_retreat_losses(state: RsState, combat: Combat, answer: Any) -> None:
    """The owner's order of the units that take a retreating stack's step losses (RS/RS 8.4, RS/RS 6.72)."""
    result = combat.result
    assert result is not None and state.ask is None
    order = answer.get("order") if isinstance(answer, dict) and set(answer) == {"order"} else None
    if not isinstance(order, list) or not all(isinstance(u, str) for u in order):
        raise RulesError("a retreat-losses answer is {order: [unit ids]}, first to take a loss first (RS/RS 8.4)")
    allowed = set(result.get("retreat_units", []))
    for unit_id in order:
        if unit_id not in allowed:
            raise RulesError(f"{unit_id} is not one of the retreating units {sorted(allowed)} (RS/RS 8.4)")
    result["loss_order"] = list(order)


def answer_interdiction_losses(state: RsState, combat: Combat, answer: Any) -> None:
    """The interdicting player's order of the retreating units that take the bridge losses (RS/RS 6.72)."""
    result = combat.result
    assert result is not None and state.ask is None
    order = answer.get("order") if isinstance(answer, dict) and set(answer) == {"order"} else None
    if not isinstance(order, list) or not all(isinstance(u, str) for u in order):
        raise RulesError("an interdiction-losses answer is {order: [enemy unit ids]}, first to take losses first "
                         "(RS/RS 6.72)")
    allowed = set(result.get("retreat_units", []))
    for unit_id in order:
        if unit_id not in allowed:
            raise RulesError(f"{unit_id} is not one of the retreating units {sorted(allowed)} (RS/RS 6.72)")
    result["interdiction_order"] = list(order)


def answer_morale(state: RsState, combat: Combat, answer: Any) -> None:
    """The owner's choice: make a morale check or retreat (RS/RS 6.62)."""
    result = combat.result
    assert result is not None
    choice = answer.get("choice") if isinstance(answer, dict) else answer
    if choice not in ("check", "retreat"):
        raise RulesError("a morale answer is {choice: check} or {choice: retreat} (RS/RS 6.62)")
    result["choice"] = "check" if choice == "check" else "no-check"


def _after_retreat(state: RsState, combat: Combat, result: dict[str, Any]) -> None:
    _note_vacated(state, combat, result, result["morale"])


def _note_vacated(state: RsState, combat: Combat, result: dict[str, Any], hexes: int) -> None:
    """RS/RS 6.8: once the defender's hex is empty the attacker may advance up to ``hexes`` hexes."""
    if result["role"] != "defender" or combat.vacated:
        return
    if not state.units_in(combat.hex, combat.defender):
        combat.vacated = True
        combat.advance_hexes = max(1, hexes)


# -- advance and the end of combat -----------------------------------------------------------------------------

def _advance(state: RsState, ctx: Context, combat: Combat) -> bool:
    """RS/RS 6.8-6.84, RS/RS 6.92: advance after combat; False while waiting for the attacker's choice."""
    if not combat.vacated or state.units_in(combat.hex, combat.defender):
        return True
    if combat.night:
        combat.advance_hexes = 1  # RS/RS 6.92
        if combat.japanese_retreated:
            ctx.emit("advance", "no advance: Japanese units retreated from Soviet fire in the night attack",
                     "RS/RS 6.92", combat=combat.id, units=[])
            return True
    if not rt.advance_units(state, combat):
        return True
    plan = combat.advance_plan
    if plan is None:
        state.ask = Ask("advance", combat.attacker, f"{combat.id}/advance",
                        {"combat": combat.id, "units": [u.id for u in rt.advance_units(state, combat)],
                         "hexes": combat.advance_hexes, "hex": combat.hex})
        return False
    units = [u for u in plan["units"] if u in {x.id for x in rt.advance_units(state, combat)}]
    path = rt.stop_in_zoc(state, combat, list(plan.get("path") or [combat.hex])[: combat.advance_hexes])
    problem = rt.check_advance(state, combat, units, path)
    if problem:  # RS/RS 6.81: keep the longest part of the planned path that is still legal, not one hex only
        legal = [combat.hex]
        for length in range(len(path) - 1, 1, -1):
            if rt.check_advance(state, combat, units, path[:length]) is None:
                legal = path[:length]
                break
        ctx.emit("advance-cut", f"advance of {', '.join(units)} stops in {legal[-1]}: {problem}", "RS/RS 6.81",
                 combat=combat.id)
        path = legal
    rt.execute_advance(state, ctx, combat, units, path)
    return True


def answer_advance(state: RsState, combat: Combat, answer: Any) -> None:
    """The attacker's advance: {units, path}; an empty list of units means no advance (RS/RS 6.8)."""
    if not isinstance(answer, dict) or set(answer) - {"units", "path"}:
        raise RulesError("an advance answer is {units: [...], path: [...]} (RS/RS 6.8)")
    units = list(answer.get("units") or [])
    path = list(answer.get("path") or ([combat.hex] if units else []))
    problem = rt.check_advance(state, combat, units, path)
    if problem:
        raise RulesError(problem)
    combat.advance_plan = {"units": units, "path": path}


def _finish(state: RsState, ctx: Context, combat: Combat) -> None:
    """RS/RS 6.93: every Japanese unit that took part in a night attack ends beneath a "2" marker."""
    if combat.night:
        for unit_id in sorted(combat.attackers):
            unit = state.units[unit_id]
            if unit_id not in combat.out and unit.on_map:
                unit.disruption = 2
                ctx.emit("disrupted", f"{unit_id} took part in the night attack: \"2\" marker", "RS/RS 6.93",
                         unit=unit_id, level=2)
    ctx.emit("combat-end", f"combat {combat.id} on {combat.hex} ends"
             + (f"; the hex is {'empty' if combat.vacated else 'held'}"), "RS/RS 6.1", combat=combat.id,
             hex=combat.hex, vacated=combat.vacated)


# -- the decisions a combat raises as it resolves (RS/RS 6.25, RS/RS 6.62, RS/RS 6.7, RS/RS 6.72, RS/RS 6.8, RS/RS 8.4)
# ----------


def morale_by_policy(state: RsState, ask: Ask, request: Request, rule: Any) -> Any:
    if rule in ("check", "retreat"):
        return {"choice": rule}
    if isinstance(rule, dict):
        return {"choice": "check" if ask.data["rating"] >= rule["check-if-rating-at-least"] else "retreat"}
    return None


def check_morale_rule(rule: dict[str, Any]) -> None:
    value = rule.get("check-if-rating-at-least")
    if set(rule) != {"check-if-rating-at-least"} or type(value) is not int or not 0 <= value <= 7:
        raise RulesError("policy morale is check, retreat, ask, or {check-if-rating-at-least: N}")


MORALE = Decision(
    "morale", "{combat}/f{firefight}/morale", "RS/RS 6.62", "the owner of the unit with the morale result",
    prompt=lambda state, ask: f"morale result {ask.data['morale']} on {ask.data['unit']} in {ask.data['hex']}: "
                              f"make a morale check (rating {ask.data['rating']}) or retreat?",
    options=lambda state, ask: {"choice": ["check", "retreat"], **ask.data},
    template=lambda state, ask: {"choice": "check"},
    policy=Policy("morale", ("check", "retreat", "ask"), default="check", answer=morale_by_policy, form=dict,
                  check=check_morale_rule),
    apply=lambda state, ctx, ask, answer: answer_morale(state, combat_by_id(state, ask.data["combat"]), answer))

RETREAT = Decision(
    "retreat", "{combat}/f{firefight}/retreat", "RS/RS 6.7", "the owner of the retreating stack",
    prompt=lambda state, ask: f"retreat {', '.join(ask.data['units'])} {ask.data['hexes']} hex(es) from "
                              f"{ask.data['hex']}",
    options=lambda state, ask: dict(ask.data), template=lambda state, ask: {"path": ask.data["options"][0]},
    policy=Policy("retreat", ("auto", "ask"), default="auto",
                  answer=lambda state, ask, request, rule: {"path": ask.data["options"][0]} if rule == "auto"
                  else None),
    apply=lambda state, ctx, ask, answer: answer_retreat(state, combat_by_id(state, ask.data["combat"]), answer))


def loss_order_by_policy(state: RsState, ask: Ask, request: Request, rule: Any) -> Any:
    if rule in ("fewest-factors", "most-factors"):
        return {"order": rt.default_loss_order(state, ask.data["units"], rule)}
    return None


RETREAT_LOSSES = Decision(
    "retreat-losses", "{combat}/f{firefight}/retreat-losses", "RS/RS 8.4", "the owner of the retreating stack",
    prompt=lambda state, ask: f"the retreat of {', '.join(ask.data['units'])} costs the stack step losses: which "
                              "unit takes them first?",
    options=lambda state, ask: dict(ask.data),
    template=lambda state, ask: {"order": rt.default_loss_order(state, ask.data["units"], "fewest-factors")},
    policy=Policy("retreat-losses", ("fewest-factors", "most-factors", "ask"), default="fewest-factors",
                  answer=loss_order_by_policy),
    apply=lambda state, ctx, ask, answer: answer_retreat_losses(
        state, combat_by_id(state, ask.data["combat"]), answer))

INTERDICTION_LOSSES = Decision(
    "interdiction-losses", "{combat}/f{firefight}/interdiction-losses", "RS/RS 6.72",
    "the owner of the interdiction marker (the retreating stack's enemy)",
    prompt=lambda state, ask: f"the enemy stack {', '.join(ask.data['units'])} retreats over a bridge next to your "
                              "interdiction marker: which unit takes its step losses first?",
    options=lambda state, ask: dict(ask.data),
    template=lambda state, ask: {"order": rt.default_loss_order(state, ask.data["units"], "most-factors")},
    policy=Policy("interdiction-losses", ("most-factors", "fewest-factors", "ask"), default="most-factors",
                  answer=loss_order_by_policy),
    apply=lambda state, ctx, ask, answer: answer_interdiction_losses(
        state, combat_by_id(state, ask.data["combat"]), answer))


def apply_target_ties(state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
    combat = combat_by_id(state, ask.data["combat"])
    answer_ties(state, combat, ask.data["hex"], answer)
    ctx.emit("target-ties", f"{ask.side} orders its tied units in {ask.data['hex']}: "
             f"{', '.join(combat.tie_orders[ask.data['hex']])}", "RS/RS 6.25", combat=combat.id,
             hex=ask.data["hex"], order=list(combat.tie_orders[ask.data["hex"]]))


TARGET_TIES = Decision(
    "target-ties", "{combat}/ties{n}", "RS/RS 6.25", "the owner of the tied units",
    prompt=lambda state, ask: f"units of equal priority and factors in {ask.data['hex']}: in which order are they "
                              "fired on (and take losses)?",
    options=lambda state, ask: dict(ask.data),
    template=lambda state, ask: {"order": cm.tie_order(state, ask.data["units"], "highest-proficiency")},
    policy=Policy("target-ties", ("highest-proficiency", "lowest-proficiency", "lowest-id", "ask"),
                  default="highest-proficiency",
                  answer=lambda state, ask, request, rule: {"order": cm.tie_order(state, ask.data["units"], rule)}),
    apply=apply_target_ties)


def apply_advance(state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
    answer_advance(state, combat_by_id(state, ask.data["combat"]), answer)


def advance_by_policy(state: RsState, ask: Ask, request: Request, rule: Any) -> Any:
    if rule == "none":
        return {"units": []}
    if rule == "into-hex":
        combat = combat_by_id(state, ask.data["combat"])
        return {"units": rt.default_advance(state, combat), "path": [combat.hex]}
    return None


ADVANCE = Decision(
    "advance", "{combat}/advance", "RS/RS 6.8", "the attacker",
    prompt=lambda state, ask: f"{ask.data['hex']} is empty: advance up to {ask.data['hexes']} hex(es)?",
    options=lambda state, ask: dict(ask.data),
    template=lambda state, ask: {"units": rt.default_advance(state, combat_by_id(state, ask.data["combat"])),
                                 "path": [ask.data["hex"]]},
    policy=Policy("advance", ("into-hex", "none", "ask"), default="into-hex", answer=advance_by_policy),
    apply=apply_advance)
