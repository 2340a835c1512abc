"""Counterbattery fire: announce, counter-announce, resolve last declared first (RS/RS 5.4-5.43).

When artillery fire is announced (bombardment or interdiction in the Artillery Fire segment, direct
support in the Prepared Combat segment) and before any of it resolves, the side it is aimed at may announce
counterbattery against the announced guns; the other side may then answer against those counterbattery
guns, and so on. The chain closes when both sides in a row have nothing to add. Declarations then resolve
from the last to the first (RS/RS 5.41); a suppressed or eliminated gun fires nothing and its points are lost.

Each declaration is a request (``counterbattery``) answered by the player or by his standing policy:
``none`` (the default: never), ``ask``, or a standing order ``{guns: [ids], against: [kinds]}``: each
listed gun able to fire answers announced enemy fire of those kinds (``missions``: bombardment and
interdiction; ``support``: direct support; ``counterbattery``; all three when ``against`` is left out) by
firing at the strongest enemy gun of those kinds it reaches. A side that has no
gun able to reach an announced enemy gun is not asked at all. A standing order lets a whole chain play in
the packets that carry the announcements; each side asked adds one packet exchange.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from rsr.decisions import Decision, Policy
from rsr.engine import Context, Request
from rsr.errors import RulesError
from rsr.provenance import is_provisional
from rsr.rulesets.red_star import artillery, losses
from rsr.rulesets.red_star.artillery import _provisional, charts, fire_range, indirect_problem, range_count, spotting
from rsr.rulesets.red_star.state import Ask, RsState, Unit, enemy_of
from rsr.rulesets.red_star.terrain import current, occupied, supplied_hexes
from rsr.words import plural, plural_word


def open_chain(state: RsState, ctx: Context, where: str, announced: dict[str, list[str]], first: str,
               prefix: str) -> None:
    """Start a chain: ``announced`` side -> guns whose fire was announced; ``first`` answers first."""
    state.cb = {"where": where, "announced": {k: list(v) for k, v in sorted(announced.items())}, "decl": [],
                "turn": first, "quiet": 0, "asks": 0, "prefix": prefix, "suppressed": [], "done": False}


KINDS = ("missions", "support", "counterbattery")


def targets_for(state: RsState, side: str, kinds: tuple[str, ...] = KINDS) -> list[str]:
    """Enemy guns whose fire is announced and unresolved: the targets ``side`` may counterbattery."""
    cb = state.cb
    enemy = enemy_of(side)
    announced_kind = "missions" if cb["where"] == "artillery" else "support"
    found = list(cb["announced"].get(enemy, [])) if announced_kind in kinds else []
    for decl in cb["decl"]:
        if decl["side"] == enemy and "counterbattery" in kinds:
            found += [g for g in decl["artillery"] if g not in found]
    return [g for g in found if state.units[g].on_map]


def used_guns(state: RsState, side: str) -> list[str]:
    cb = state.cb
    used = list(cb["announced"].get(side, []))
    for decl in cb["decl"]:
        if decl["side"] == side:
            used += decl["artillery"]
    return used


def candidates(state: RsState, side: str) -> list[str]:
    """The side's guns able to fire counterbattery now: indirect fire allowed, no fire announced yet."""
    supplied = supplied_hexes(state, side)
    enemy_hexes = occupied(state, enemy_of(side))
    used = used_guns(state, side)
    return [u.id for u in state.on_map(side) if state.counter(u.id).artillery and u.id not in used
            and indirect_problem(state, u, supplied, enemy_hexes) is None]


def reachable(state: RsState, gun_id: str, target_id: str) -> bool:
    gun, target = state.units[gun_id], state.units[target_id]
    count = range_count(state, gun.hex or "", target.hex or "")
    return 2 <= count <= fire_range(state, gun)


def step(state: RsState, ctx: Context) -> bool:
    """Walk the chain: ask whoever may answer; True once it is resolved."""
    cb = state.cb
    while not cb["done"]:
        if cb["quiet"] >= 2:
            resolve(state, ctx)
            cb["done"] = True
            break
        side = cb["turn"]
        targets = targets_for(state, side)
        guns = candidates(state, side)
        if not targets or not any(reachable(state, g, t) for g in guns for t in targets):
            cb["quiet"] += 1
            cb["turn"] = enemy_of(side)
            continue
        cb["asks"] += 1
        state.ask = Ask("counterbattery", side, f"{cb['prefix']}/counterbattery{cb['asks']}",
                        {"targets": targets, "guns": guns})
        return False
    return True


def check(state: RsState, side: str, answer: Any) -> list[dict[str, Any]]:
    """A counterbattery answer: ``{fire: [{target: gun id, artillery: [ids]}]}`` (RS/RS 5.41, RS/RS 5.42)."""
    if not isinstance(answer, dict) or set(answer) - {"fire"} or not isinstance(answer.get("fire", []), list):
        raise RulesError("counterbattery is {fire: [{target: enemy gun, artillery: [your guns]}]} (RS/RS 5.41)")
    targets = targets_for(state, side)
    guns = candidates(state, side)
    used: list[str] = []
    out = []
    total = 0
    for number, raw in enumerate(answer.get("fire") or [], start=1):
        if not isinstance(raw, dict) or set(raw) != {"target", "artillery"} or not isinstance(raw["artillery"], list):
            raise RulesError(f"counterbattery {number}: give target and artillery (RS/RS 5.41)")
        if raw["target"] not in targets:
            raise RulesError(f"counterbattery {number}: {raw['target']} is not an enemy gun whose fire is announced "
                             f"(targets: {', '.join(targets)}) (RS/RS 5.41)")
        for gun_id in raw["artillery"]:
            if gun_id not in guns or gun_id in used:
                raise RulesError(f"counterbattery {number}: {gun_id} cannot fire counterbattery now (it is not your "
                                 "artillery, has fired or announced fire, or may not fire indirectly) (RS/RS 5.1, "
                                 "5.41)")
            used.append(gun_id)
        if raw["artillery"]:
            out.append({"target": str(raw["target"]), "artillery": list(raw["artillery"])})
            total += len(raw["artillery"]) * charts(state).costs["counterbattery"]
    if total > state.support.get(side, 0):
        raise RulesError(f"this counterbattery costs {total} support point(s); {side} has "
                         f"{state.support.get(side, 0)} (RS/RS 5.42)")
    return out


def declare(state: RsState, ctx: Context, side: str, fire: list[dict[str, Any]]) -> None:
    """Announce the declarations: one point per gun (RS/RS 5.42), Fired markers; the turn passes to the enemy."""
    cb = state.cb
    per_gun = charts(state).costs["counterbattery"]
    for item in fire:
        cost = per_gun * len(item["artillery"])
        state.support[side] -= cost
        for gun_id in item["artillery"]:
            state.units[gun_id].fired = True
        level = len(cb["decl"]) + 1
        cb["decl"].append({"side": side, "target": item["target"], "artillery": list(item["artillery"]),
                           "level": level, "cost": cost})
        ctx.emit("counterbattery-declared", f"counterbattery {level}: {side} announces {', '.join(item['artillery'])} "
                 f"against {item['target']} ({plural(cost, 'support point')}, {state.support[side]} left)",
                 "RS/RS 5.41",
                 side=side, level=level, target=item["target"], artillery=list(item["artillery"]), cost=cost)
    if not fire:
        ctx.emit("counterbattery-pass", f"{side} announces no counterbattery", "RS/RS 5.41", side=side)
    cb["quiet"] = 0 if fire else cb["quiet"] + 1
    cb["turn"] = enemy_of(side)


def standing_order(state: RsState, side: str, guns: list[str], kinds: tuple[str, ...] = KINDS) -> dict[str, Any]:
    """Policy ``{guns: [...], against: [...]}``: each listed gun able to fire shoots at the strongest
    announced enemy gun of those kinds it reaches (most factors, then unit id); guns on one target fire
    together."""
    targets = targets_for(state, side, kinds)
    able = [g for g in candidates(state, side) if g in guns]
    by_target: dict[str, list[str]] = {}
    for gun_id in able:
        reach = [t for t in targets if reachable(state, gun_id, t)]
        if reach:
            best = min(reach, key=lambda t: (-current(state, state.units[t]), t))
            by_target.setdefault(best, []).append(gun_id)
    cost = 0
    fire = []
    for target, group in sorted(by_target.items()):
        affordable = max(0, state.support.get(side, 0) - cost)
        group = group[:affordable]
        if group:
            fire.append({"target": target, "artillery": group})
            cost += len(group)
    return {"fire": fire}


def resolve(state: RsState, ctx: Context) -> None:
    """RS/RS 5.41, RS/RS 5.42: last declared first, on the Counterbattery Table, like a bombardment."""
    from rsr.rulesets.red_star.combat import effectiveness

    cb = state.cb
    chart = charts(state)
    table = chart.counterbattery
    suppressed: list[str] = cb["suppressed"]
    for decl in reversed(cb["decl"]):
        side = decl["side"]
        live = [g for g in decl["artillery"] if state.units[g].on_map and g not in suppressed]
        for gun_id in decl["artillery"]:
            if gun_id not in live:
                ctx.emit("cancelled", f"{gun_id} was {'suppressed' if state.units[gun_id].on_map else 'eliminated'} "
                         f"and does not fire counterbattery {decl['level']}; its point is lost", "RS/RS 5.41",
                         unit=gun_id, level=decl["level"])
        target = state.units[decl["target"]]
        firing = [g for g in live if target.on_map and reachable(state, g, target.id)]
        for gun_id in live:
            if gun_id not in firing and target.on_map:
                ctx.emit("wasted", f"{gun_id} cannot reach {target.id}: counterbattery {decl['level']} wasted, its "
                         "point lost", "RS/RS 5.51", unit=gun_id, level=decl["level"])
        if not firing or not target.on_map:
            continue
        multiplier, cec = effectiveness(state, "weapons-indirect-fire", "weapons", False)
        strength = math.ceil(sum((Fraction(current(state, state.units[g])) * multiplier for g in firing),
                                 Fraction(0)))
        column = table.column_for(strength)
        base = {"side": side, "level": decl["level"], "target": target.id, "artillery": firing, "strength": strength}
        if column is None:
            ctx.emit("counterbattery", f"counterbattery {decl['level']}: {plural(strength, 'factor')} "
                     f"{plural_word('is', strength)} below the table's first column ({table.columns[0]}): no effect",
                     "RS/RS 5.42", **base, result="-", column=None)
            continue
        modifier, distance = spotting(state, side, target.hex or "")
        die = ctx.roll(6, f"counterbattery {decl['level']}: {', '.join(firing)} at {target.id}, RS/RS 5.42")
        result = table.result(column, die + modifier)
        provisional = _provisional(table, chart.selection_provenance)
        if is_provisional(cec):
            provisional.append(f"Combat Effectiveness weapons-indirect-fire vs weapons: {cec}")
        ctx.emit("counterbattery", f"counterbattery {decl['level']} ({side}): {', '.join(firing)} at {target.id} in "
                 f"{target.hex}: {plural(strength, 'factor')}, column {table.columns[column]}, die {die}"
                 f"{f' +{modifier} spotting ({distance} hexes)' if modifier else ''}: {result}", "RS/RS 5.42",
                 provisional, **base, column=table.columns[column], die=die, modifier=modifier, result=result)
        if result in ("s", "X"):
            if result == "X":
                losses.lose_factors(state, ctx, [target], 1, f"counterbattery {decl['level']}", "RS/RS 5.42")
                if flipped_only(state, target):
                    continue
            target.fired = True
            if target.id not in suppressed:
                suppressed.append(target.id)
            ctx.emit("suppressed", f"{target.id} is suppressed: Fired marker; its announced fire is cancelled",
                     "RS/RS 5.41", unit=target.id)


def flipped_only(state: RsState, target: Unit) -> bool:
    """RS/RS 5.41 with the Counterbattery Table, rules option ``counterbattery-x-only-flips``: a gun an X flipped
    (still on the map) is neither suppressed nor eliminated, so it keeps its announced fire. Without the option an
    X also suppresses (interpretations.md, RS/RS 5.41)."""
    return bool(state.options.get("counterbattery-x-only-flips")) and target.on_map


# -- the decision: RS/RS 5.41 counterbattery against announced fire --------------------------------


def counterbattery_options(state: RsState, ask: Ask) -> dict[str, Any]:
    targets = {t: {"hex": state.units[t].hex, "factors": current(state, state.units[t])}
               for t in ask.data["targets"]}
    guns = {g: {"hex": state.units[g].hex, "range": artillery.fire_range(state, state.units[g]),
                "reaches": [t for t in ask.data["targets"] if reachable(state, g, t)]}
            for g in ask.data["guns"]}
    return {"targets": targets, "guns": guns, "support_points": state.support.get(ask.side, 0),
            "chain": list(state.cb.get("decl", []))}


def counterbattery_by_policy(state: RsState, ask: Ask, request: Request, rule: Any) -> Any:
    if rule == "none":
        return {"fire": []}
    if isinstance(rule, dict):  # RS/RS 5.41: a standing order
        return standing_order(state, request.side, list(rule["guns"]), tuple(rule.get("against", KINDS)))
    return None


def check_counterbattery_order(rule: dict[str, Any]) -> None:
    guns = rule.get("guns")
    against = rule.get("against", list(KINDS))
    bad_guns = not isinstance(guns, list) or not all(isinstance(g, str) for g in guns)
    if set(rule) - {"guns", "against"} or bad_guns or not isinstance(against, list) \
            or set(against) - set(KINDS):
        raise RulesError("policy counterbattery is none, ask, or {guns: [your artillery unit ids], against: "
                         "[missions, support, counterbattery]}")


COUNTERBATTERY = Decision(
    "counterbattery", "{chain prefix}/counterbattery{n}", "RS/RS 5.41", "the side whose turn it is to answer fire",
    prompt=lambda state, ask: "announced enemy fire: counterbattery against any of "
                              f"{', '.join(ask.data['targets'])} before it resolves?",
    options=counterbattery_options, template=lambda state, ask: {"fire": []},
    policy=Policy("counterbattery", ("none", "ask"), default="none", answer=counterbattery_by_policy, form=dict,
                  check=check_counterbattery_order),
    apply=lambda state, ctx, ask, answer: declare(
        state, ctx, ask.side, check(state, ask.side, answer)))
