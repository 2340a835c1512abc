"""Reserves: creating and losing the Reserve marker, reserve movement, Japanese release (RS/RS 7.6-7.64).

Reserve movement is the opponent acting in the middle of your movement (RS/RS 7.63): after each of your moves
(with its hasty attacks) the owner of reserve units may move some of them. That is a ``reserve-move``
request to him, answered by his standing policy:

* ``hold`` (the default): reserves do not move;
* ``ask``: he is asked after every enemy move (one packet exchange each time: slow by mail);
* a list of conditional orders signed in advance, each ``{units: [ids], path: [hexes], when: {enemy_within:
  N, of: hex}, hasty: [attacks]}`` (``hasty`` optional): the first time in a segment an enemy stack ends a
  move within N hexes of that hex, the units move along that path (as far as it is legal) and make the
  hasty attacks if they are still possible then. Everything in the condition is something the player could
  know when signing. An order may also carry the Soviet player's RS/RS 11.2 choice about the Japanese bridge
  counter, as an asked reserve move does: ``bridge: {leave: hexside}`` (a move reaching it leaves it intact)
  or, with an empty path, ``bridge: {destroy: hexside}`` (a unit already next to it destroys it, under the
  RS/RS 11.2 waits). A reserve engineer's order may end its move by blowing a bridge it moves next to or laying the
  Japanese bridge (RS/RS 7.63 with RS/RS 11.1, RS/RS 11.2): ``bridge: {destroy: hexside}`` or ``{place: hexside}`` with
  its path; if that whole move is not legal when the order fires, the bridge action is not carried out (the
  report says why) and the units move as far along the path as they can. A Soviet order without the key
  that reaches the counter destroys it, as every Soviet move does (RS/RS 11.2 makes destruction the effect of
  moving next to it; leaving it is the exception the player claims; interpretations.md RS/RS 11.2).

A reserve move may end with hasty attacks (RS/RS 7.63, RS/RS 7.5-7.55), written as in a movement order
(``hasty: [{hex, units, lead, armor_protection, fire}]``). Their attacker choices come with the reserve move,
in the clear (a reserve move is itself an answer in the clear); the phasing player's defence choices are
then asked (policy ``defence-choices``), and the attacks are resolved, all before his movement resumes
(interpretations.md RS/RS 7.63).

The Reserve marker policy ``reserves`` (Marker Adjustment, RS/RS 7.61, RS/RS 7.62) defaults to ``keep``: a marker stays
until its owner removes it (RS/RS 7.62), so removing one is always the player's choice; ``after-enemy-move`` (a
marker is removed once its unit has sat through one enemy Movement segment), ``release`` and ``ask`` are
standing choices he may make (interpretations.md RS/RS 7.62).
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

from rsr.engine import Context
from rsr.errors import RulesError
from rsr.fairdice import NoDice
from rsr.rulesets.red_star import bridges, movement
from rsr.rulesets.red_star import combat as cm
from rsr.rulesets.red_star.data import half_up
from rsr.rulesets.red_star.state import Combat, MovementRun, RsState, Unit, enemy_of
from rsr.rulesets.red_star.terrain import allowance, in_supply, zone_of_control
from rsr.words import plural

RELEASE_NEEDS = {1: 6, 2: 5, 3: 4}   # Japanese Reserve Release chart: stacks moved -> lowest releasing roll
RELEASE_FLOOR = 2                    # four or more stacks moved: 2-6


# -- creating and losing the marker -----------------------------------------------------------------------

def creation_problem(state: RsState, unit: Unit, enemy_zoc: frozenset[str] | None = None,
                     hqs: list[Unit] | None = None) -> str | None:
    """RS/RS 7.61: why ``unit`` may not take a Reserve marker now, or None. (``enemy_zoc`` and ``hqs``: the
    enemy's zone of control and the side's HQs on the map now, when the caller asks for many units.)"""
    if unit.reserve:
        return f"{unit.id} is already in reserve"
    if unit.fired or unit.disruption:
        return f"{unit.id} has a Fired or disruption marker (RS/RS 7.61)"
    if unit.hex in (enemy_zoc if enemy_zoc is not None else zone_of_control(state, enemy_of(unit.side))):
        return f"{unit.id} is in an enemy zone of control (RS/RS 7.61)"
    grid = state.static.grid
    if hqs is None:
        hqs = _hqs(state, unit.side)
    if not any(grid.distance(unit.hex or "", h.hex or "") <= 2 for h in hqs):
        return f"{unit.id} is not within two hexes of a friendly HQ (RS/RS 7.61)"
    return None


def _hqs(state: RsState, side: str) -> list[Unit]:
    return [u for u in state.on_map(side) if state.counter(u.id).cls == "HQ"]


def creatable(state: RsState, side: str) -> list[str]:
    enemy_zoc = zone_of_control(state, enemy_of(side))
    hqs = _hqs(state, side)
    return [u.id for u in state.on_map(side) if creation_problem(state, u, enemy_zoc, hqs) is None]


def lose_in_zoc(state: RsState, ctx: Context, mover: str) -> None:
    """RS/RS 7.62: a reserve unit that enemy units have put in their zone of control loses its marker."""
    zoc = zone_of_control(state, mover)
    for unit in state.on_map(enemy_of(mover)):
        if unit.reserve and unit.hex in zoc:
            unit.reserve = False
            ctx.emit("reserve-lost", f"{unit.id} is now in a {mover} zone of control and loses its Reserve marker",
                     "RS/RS 7.62", unit=unit.id)


def lose_after_combat(state: RsState, ctx: Context, combat: Combat) -> None:
    """RS/RS 7.62: once a combat is over, a reserve of either side that its advance or retreats have left in
    an enemy zone of control loses its marker (an enemy advance, or an enemy retreat, put it there; or it
    entered the zone itself, retreating; interpretations.md RS/RS 7.62)."""
    for side in (combat.attacker, combat.defender):
        lose_in_zoc(state, ctx, side)


def note_enemy_segment(state: RsState, mover: str) -> None:
    """Remember which reserves have sat through an enemy Movement segment (policy after-enemy-move); forget
    which of them moved in the one before (RS/RS 11.2)."""
    state.reserve_movers = [u for u in state.reserve_movers if state.units[u].side == mover]
    for unit in state.on_map(enemy_of(mover)):
        if unit.reserve and unit.id not in state.reserve_seen:
            state.reserve_seen.append(unit.id)
    state.reserve_seen.sort()


# -- reserve movement -------------------------------------------------------------------------------------

def movable(state: RsState, side: str, run: MovementRun) -> list[Unit]:
    """The side's reserve units that may still move in this enemy Movement segment (RS/RS 7.63, RS/RS 7.64)."""
    return [u for u in state.on_map(side) if u.reserve and u.id not in run.reserve_moved
            and allowance(state, u, False, in_supply(state, u)) > 0]


def parse(state: RsState, side: str, run: MovementRun, answer: Any) -> list[movement.Move]:
    """A reserve-move answer ``{moves: [{units, path, drop, hasty}]}`` checked on a copy (RS/RS 7.63: normal movement
    rules, and a hasty attack at the end of the move, RS/RS 7.5-7.54)."""
    if not isinstance(answer, dict) or set(answer) - {"moves", "orders", "refused"}:
        raise RulesError("a reserve move is {moves: [{units, path, drop, hasty}]} (RS/RS 7.63)")
    orders = answer.get("orders") or []
    if not isinstance(orders, list) or not all(type(n) is int for n in orders):  # (true is no number)
        raise RulesError("a reserve move's orders are the numbers of its conditional orders (RS/RS 7.63)")
    refused_actions(state, side, answer)  # RS/RS 11.2: what a conditional order could not do, said before any move
    _, moves = movement.parse_moves(state, side, {"moves": answer.get("moves") or []})
    free = {u.id for u in movable(state, side, run)}
    trial = copy.deepcopy(state)
    seen: list[str] = []
    hasty_used: list[str] = []
    for move in moves:
        if move.operational:
            raise RulesError(f"move {move.number}: reserves move their printed allowance (RS/RS 7.63)")
        first = trial.units.get(move.units[0])
        for unit_id in move.units:
            unit = trial.units.get(unit_id)
            if unit is None or unit_id not in free or unit_id in seen:
                raise RulesError(f"move {move.number}: {unit_id} is not a {side} reserve unit free to move now "
                                 "(RS/RS 7.63)")
            if first is None or unit.hex != first.hex:
                raise RulesError(f"move {move.number}: a stack moves from one hex (RS/RS 7.2)")
            seen.append(unit_id)
        kind = next(iter(move.bridge)) if move.bridge else ""
        if kind in ("pick_up", "destroy", "place") and not move.path:  # RS/RS 11.1, RS/RS 11.2: acting without moving
            assert move.bridge is not None
            full = {u: movement.allowance_of(trial, trial.units[u]) for u in move.units}
            why = bridges.problem(trial, side, list(move.units), move.bridge, full, standing=True)
            if why:
                raise RulesError(f"move {move.number}: {why}")
            if kind != "pick_up":  # (a pick-up waits for the end of the segment, RS/RS 11.2)
                bridges.act(trial, Context(NoDice()), side, list(move.units), move.bridge, full, standing=True)
            continue
        if kind in ("pick_up", "exchange"):
            raise RulesError(f"move {move.number}: in Reserve Movement an engineer picks up the Japanese bridge only "
                             "by staying put ({units: [engineer], path: [], bridge: {pick_up: hexside}}), and hands "
                             "it over only in its own Movement segment (RS/RS 11.2)")
        if kind == "leave" and side != "soviet":
            raise RulesError(f"move {move.number}: only the Soviet player leaves the Japanese bridge intact "
                             "(RS/RS 11.2)")
        walked = movement.walk(trial, side, move, strict=True)
        movement.check_hasty(trial, side, move, walked, hasty_used)  # RS/RS 7.63: a hasty attack may end it
        entered = movement.apply_walk(trial, side, move, walked)
        if kind in ("destroy", "place"):  # RS/RS 7.63 with RS/RS 11.1, RS/RS 11.2: an engineer acts where its move ends
            assert move.bridge is not None
            why = bridges.problem(trial, side, list(move.units), move.bridge, walked.left)
            if why:
                raise RulesError(f"move {move.number}: {why}")
            bridges.act(trial, Context(NoDice()), side, list(move.units), move.bridge, walked.left)
        bridges.soviet_adjacency(trial, Context(NoDice()), side, entered, move.bridge)  # RS/RS 11.2
    attacks = sum(len(m.hasty) for m in moves)
    if attacks > state.support.get(side, 0):
        raise RulesError(f"{attacks} hasty attacks cost {attacks} support points; {side} has "
                         f"{state.support.get(side, 0)} (RS/RS 4.3, 6.1)")
    declare_hasty(state, side, moves, "check")
    return moves


def declare_hasty(state: RsState, side: str, moves: list[movement.Move], prefix: str) -> list[Combat]:
    """RS/RS 7.63, RS/RS 7.5: the hasty attacks that end reserve moves, with the attacker's choices given now (in the
    clear, with the reserve move; one lead unit is chosen for him only when the stack has a single unit)."""
    used: list[str] = []
    combats: list[Combat] = []
    for move in moves:
        final = move.path[-1] if move.path else ""
        for number, raw in enumerate(move.hasty, start=1):
            declared = {k: v for k, v in raw.items() if k != "units"}
            declared["attackers"] = raw.get("units") or []
            combat = cm.parse_declaration(state, side, declared, number, used, "hasty",
                                          f"{prefix}/m{move.number}h{number}",
                                          {u: final for u in declared["attackers"]})
            combat.attack_choice = cm.check_choice(state, combat, "attacker", combat.inline or {},
                                                   f"{combat.id} (RS/RS 7.63: a reserve's hasty attack gives its "
                                                   "choices with the move)")
            combats.append(combat)
    return combats


def august(state: RsState) -> bool:
    """RS/RS 7.64: the August procedure applies from the 2-5 August game turn on."""
    return "August" in state.date() and "July" not in state.date()


def released(state: RsState, ctx: Context, run: MovementRun, unit_id: str) -> bool:
    """RS/RS 7.64, Japanese Reserve Release chart: may this Japanese reserve unit move?"""
    if state.units[unit_id].side != "japan":
        return True
    if run.released and not august(state):
        return True
    stacks = max(1, run.index)
    need = RELEASE_NEEDS.get(stacks, RELEASE_FLOOR)
    die = ctx.roll(6, f"Japanese reserve release of {unit_id} ({stacks} Soviet move(s) so far), RS/RS 7.64")
    ok = die >= need
    if ok and not august(state):
        run.released = True
    ctx.emit("release", f"{unit_id}: release roll {die} ({need}-6 needed after {plural(stacks, 'Soviet move')}): "
             + ("released" if ok else "not released: it may not move this segment"), "RS/RS 7.64", unit=unit_id,
             die=die, need=need, released=ok, stacks=stacks)
    return ok


def execute(state: RsState, ctx: Context, side: str, run: MovementRun, moves: list[movement.Move]) -> None:
    """Carry out reserve moves (RS/RS 7.63, RS/RS 7.62, RS/RS 7.64, RS/RS 5.22) as an interruption of the enemy's
    movement."""
    from rsr.rulesets.red_star import artillery
    from rsr.rulesets.red_star import retreat as rt

    for move in moves:
        kind = next(iter(move.bridge)) if move.bridge else ""
        if kind in ("destroy", "place") and not move.path:  # RS/RS 11.1, RS/RS 11.2: already next to the hexside
            units = [u for u in move.units if state.units[u].on_map and state.units[u].reserve]
            # RS/RS 7.64: a Japanese engineer spending MP on a bridge is a reserve moving (no roll for the Soviets)
            units = [u for u in units if released(state, ctx, run, u)]
            run.reserve_moved += [u for u in move.units if u not in run.reserve_moved]
            if units:
                assert move.bridge is not None
                full = {u: movement.allowance_of(state, state.units[u]) for u in units}
                cost = bridges.act(state, ctx, side, units, move.bridge, full, standing=True)
                engineer = bridges.engineer_of(state, units)
                lose_by_cost(state, ctx, engineer, cost)
                if cost and engineer is not None:  # RS/RS 11.2 exchange: it has used MP in Reserve Movement
                    state.reserve_movers = sorted({*state.reserve_movers, engineer.id})
            continue
        if move.bridge is not None and "pick_up" in move.bridge:  # RS/RS 11.2: waits for the segment's end
            engineer = bridges.engineer_of(state, list(move.units))
            if engineer is not None:
                bridges.declare_pick_up(state, ctx, side, [engineer.id], move.bridge,
                                        {engineer.id: movement.allowance_of(state, engineer)}, run.reserve_pickups,
                                        reserve=True)
                run.reserve_moved += [engineer.id] if engineer.id not in run.reserve_moved else []
            continue
        units = [u for u in move.units if state.units[u].on_map and state.units[u].reserve]
        units = [u for u in units if released(state, ctx, run, u)]
        run.reserve_moved += [u for u in move.units if u not in run.reserve_moved]
        if not units:
            continue
        state.reserve_movers = sorted({*state.reserve_movers, *units})  # RS/RS 11.2 exchange by a reserve
        move = movement.Move(tuple(units), move.path, {k: v for k, v in move.drop.items() if k in units}, False, [],
                             move.number, move.bridge)
        start = state.units[units[0]].hex or ""
        walked = artillery.walk_interdicted(state, ctx, side, move)
        entered = movement.apply_walk(state, side, move, walked)
        spent: dict[str, Fraction] = {}
        for unit_id in units:
            hexes = entered.get(unit_id, [])
            for hex_id in hexes:
                rt.mark_victory(state, hex_id, side, [state.units[unit_id]])
            spent[unit_id] = walked.allowance[unit_id] - walked.left[unit_id]
            ctx.emit("reserve-moved", f"interruption: reserve {unit_id} moves {' -> '.join([start, *hexes])} "
                     f"({movement.fraction_text(spent[unit_id])} of "
                     f"{movement.fraction_text(walked.allowance[unit_id])} MP)",
                     "RS/RS 7.63", unit=unit_id, frm=start, to=hexes[-1] if hexes else start, path=hexes,
                     interruption=run.index)
        # RS/RS 7.63 with RS/RS 11.1, RS/RS 11.2: the engineer acts where its move ends
        if kind in ("destroy", "place"):
            assert move.bridge is not None
            cost = bridges.act(state, ctx, side, units, move.bridge, walked.left)
            engineer = bridges.engineer_of(state, units)
            if engineer is not None:  # RS/RS 7.62: the MP of a bridge action are spent in Reserve Movement
                spent[engineer.id] += cost
        enemy_zoc = zone_of_control(state, enemy_of(side))
        for unit_id in units:
            unit = state.units[unit_id]
            printed = state.counter(unit_id).face(unit.reduced).movement
            if spent[unit_id] > half_up(printed) or unit.hex in enemy_zoc:  # RS/RS 7.62
                unit.reserve = False
                why = "entered an enemy zone of control" if unit.hex in enemy_zoc else (
                    f"spent over half its allowance ({movement.fraction_text(spent[unit_id])} of {printed})")
                ctx.emit("reserve-lost", f"{unit_id} {why} and loses its Reserve marker", "RS/RS 7.62", unit=unit_id)
        bridges.soviet_adjacency(state, ctx, side, entered, move.bridge)  # RS/RS 11.2: a leave may come with it


def lose_by_cost(state: RsState, ctx: Context, engineer: Unit | None, cost: int) -> None:
    """RS/RS 7.62: a reserve engineer that spends over half its printed allowance on a bridge action without
    moving (RS/RS 11.1, RS/RS 11.2) loses its Reserve marker."""
    if engineer is None or not cost or not engineer.reserve:
        return
    printed = state.counter(engineer.id).face(engineer.reduced).movement
    if cost > half_up(printed):
        engineer.reserve = False
        ctx.emit("reserve-lost", f"{engineer.id} spent over half its allowance ({cost} of {printed}) and loses its "
                 "Reserve marker", "RS/RS 7.62", unit=engineer.id)


def standing(state: RsState, side: str, run: MovementRun, orders: list[dict[str, Any]]) -> dict[str, Any]:
    """Conditional reserve orders: those whose trigger the enemy's last move met, once per segment each."""
    grid = state.static.grid
    last = run.moves[run.index - 1] if run.index else None
    ends = sorted({state.units[u].hex or "" for u in (last or {}).get("units", []) if state.units[u].on_map})
    free = {u.id for u in movable(state, side, run)}
    out: list[dict[str, Any]] = []
    fired: list[int] = []
    refused: list[dict[str, Any]] = []
    for number, order in enumerate(orders):
        when = order["when"]
        if number in run.triggered or not all(u in free for u in order["units"]):
            continue
        if not any(grid.distance(h, when["of"]) <= int(when["enemy_within"]) for h in ends if h):
            continue
        path = list(order["path"])
        hasty = list(order.get("hasty") or [])
        choice = standing_bridge(side, order.get("bridge"))
        if not path and choice:  # RS/RS 11.2: a unit already next to the Japanese bridge destroys it, if it may
            whole = {"units": list(order["units"]), "path": [], **choice}
            try:
                parse(state, side, run, {"moves": [*out, whole]})
                out.append(whole)
            except RulesError:  # an RS/RS 11.2 wait: the order is spent without a move, and the report says why
                refused.append({"units": list(order["units"]), **choice})
            fired.append(number)
            continue
        acts = next(iter(choice.get("bridge") or {}), "") in ("destroy", "place")
        # RS/RS 7.63 with RS/RS 11.1, RS/RS 11.2: an engineer that moves, then blows or lays a bridge
        if acts and not hasty:
            whole = {"units": list(order["units"]), "path": path, **choice}
            try:
                parse(state, side, run, {"moves": [*out, whole]})
                fired.append(number)
                out.append(whole)
                continue
            except RulesError:  # the bridge action is not carried out (said why); the move goes as far as it can
                refused.append({"units": list(order["units"]), "path": path, **choice})
                choice = {}
        if hasty:  # RS/RS 7.63: the whole signed move with its hasty attacks, if it is still legal
            whole = {"units": list(order["units"]), "path": path, "hasty": hasty, **choice}
            try:
                parse(state, side, run, {"moves": [*out, whole]})
                fired.append(number)
                out.append(whole)
                continue
            except RulesError:
                pass
        while path:  # as far along the signed path as is legal now
            try:
                parse(state, side, run, {"moves": [*out, {"units": list(order["units"]), "path": path, **choice}]})
                break
            except RulesError:
                path.pop()
        fired.append(number)
        if path:
            out.append({"units": list(order["units"]), "path": path, **choice})
    return {"moves": out, "orders": fired, **({"refused": refused} if refused else {})}


def report_refused(state: RsState, ctx: Context, side: str, answer: dict[str, Any]) -> None:
    """RS/RS 11.2: say why a conditional order's bridge destruction from the hex next to the counter was not
    carried out when it fired (``refused`` in the answer; the reason is worked out again here, by the rules)."""
    for units, action, moved in refused_actions(state, side, answer):
        full = {u: movement.allowance_of(state, state.units[u]) for u in units}
        why = None if moved else bridges.problem(state, side, units, action, full, standing=True)
        # RS/RS 7.63 with RS/RS 11.1, RS/RS 11.2: the signed move with the bridge action was not legal when it fired
        if moved:
            why = (f"the conditional order's move with it ({', '.join(units)} along {', '.join(moved)}) was not "
                   "legal when the order fired, so the units moved as far along it as they could without it "
                   "(RS/RS 7.63)")
        if why:
            bridges.not_carried_out(state, ctx, action, why)


def refused_actions(state: RsState, side: str,
                    answer: dict[str, Any]) -> list[tuple[list[str], dict[str, str], list[str]]]:
    """The ``refused`` entries of a reserve-move answer, checked: (the side's units, bridge action, the signed
    path of an engineer's move that was to end with it)."""
    out: list[tuple[list[str], dict[str, str], list[str]]] = []
    refused = answer.get("refused") or []
    if not isinstance(refused, list):
        raise RulesError("refused is a list of {units, bridge} (conditional reserve orders, RS/RS 11.2)")
    for item in refused:
        if not isinstance(item, dict) or not isinstance(item.get("units"), list) \
                or not all(isinstance(u, str) and u in state.units for u in item["units"]):
            raise RulesError("refused is a list of {units, bridge} (conditional reserve orders, RS/RS 11.2)")
        action = bridges.check_shape(item.get("bridge"), "refused")
        path = item.get("path") or []
        if not isinstance(path, list) or not all(isinstance(h, str) for h in path):
            raise RulesError("refused is a list of {units, bridge, path} (conditional reserve orders, RS/RS 11.2)")
        if action is not None:
            out.append(([u for u in item["units"] if state.units[u].side == side], action, list(path)))
    return out


def standing_bridge(side: str, raw: Any) -> dict[str, Any]:
    """The RS/RS 11.2 choice a conditional order carries, as move keys: ``{bridge: {leave|destroy: hexside}}``.

    Only the Soviet player has the choice to leave the Japanese bridge intact; a Japanese order's ``leave``
    has nothing to act on and is dropped."""
    if not isinstance(raw, dict) or ("leave" in raw and side != "soviet"):
        return {}
    return {"bridge": dict(raw)}


def pick_up_at_segment_end(state: RsState, ctx: Context, run: MovementRun) -> None:
    """RS/RS 11.2 removal at the end of a Movement segment: first by the moving side's engineers, then by a
    reserve engineer of the other side (it must also have moved in no interruption)."""
    bridges.pick_up_at_end(state, ctx, run.pickups, [])
    bridges.pick_up_at_end(state, ctx, run.reserve_pickups, state.reserve_movers)
    run.pickups = []
    run.reserve_pickups = []


def check_standing(rule: Any) -> None:
    """The shape of a conditional reserve order list (policy ``reserve-moves``)."""
    if not isinstance(rule, list):
        raise RulesError("policy reserve-moves is hold, ask, or a list of {units, path, when: {enemy_within, of}, "
                         "hasty}")
    for number, item in enumerate(rule, start=1):
        if not isinstance(item, dict) or {"units", "path", "when"} - set(item) or set(item) - {
                "units", "path", "when", "hasty", "bridge"} or not isinstance(item["when"], dict) \
                or not isinstance(item.get("hasty", []), list) \
                or set(item["when"]) != {"enemy_within", "of"} or type(item["when"]["enemy_within"]) is not int \
                or not isinstance(item["units"], list) or not isinstance(item["path"], list):
            raise RulesError("a conditional reserve order is {units: [ids], path: [hexes], when: {enemy_within: N, "
                             "of: hex}, hasty: [{hex, units, lead}] (optional), bridge: {leave|destroy|place: "
                             "hexside} (optional)} (RS/RS 7.63, 11.1, 11.2)")
        check_standing_bridge(item, f"conditional reserve order {number}")


def check_standing_bridge(item: dict[str, Any], where: str) -> None:
    """RS/RS 11.2: the bridge choice a conditional reserve order may sign in advance, the same as an asked
    reserve move: leave the Japanese bridge intact when the move reaches it, or (empty path) destroy it from
    the hex next to it."""
    action = bridges.check_shape(item.get("bridge"), where)
    if action is None:
        return
    kind = next(iter(action))
    if kind not in ("leave", "destroy", "place"):
        raise RulesError(f"{where}: a conditional reserve order's bridge is {{leave: hexside}}, {{destroy: "
                         "hexside}} or {place: hexside} (RS/RS 7.63, 11.1, 11.2)")
    if kind in ("destroy", "place") and item["path"] and item.get("hasty"):
        raise RulesError(f"{where}: an engineer's move that ends by blowing or laying a bridge makes no hasty "
                         "attack in the same order (RS/RS 7.63, 11.1, 11.2)")
    if kind == "leave" and not item["path"]:
        raise RulesError(f"{where}: bridge leave is for a move that reaches the Japanese bridge: give it a path "
                         "(RS/RS 11.2)")
