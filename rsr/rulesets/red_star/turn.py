"""The Red Sun/Red Star sequence of play, run (RS/RS 3.0-3.2): each segment of :data:`sequence.TURN` is a stage.

:func:`advance` walks the segments in order; :data:`STAGES` names the function that runs each one. A stage
carries the rules out until a player must decide something, leaves that question in ``state.ask`` (one
value: which decision, for whom, under which request id, with what context) and returns False; the
decision table (``choices.py``) asks it and applies the answer, and the walk resumes where it stopped.
Where a segment pauses more than once, ``state.force_step`` and ``state.choices_stage`` say how far it got
(they are part of the state digest, so their values stay as they were).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rsr.engine import Context
from rsr.errors import RulesError
from rsr.rulesets.red_star import (
    artillery,
    bridges,
    counterbattery,
    force,
    movement,
    reserves,
    resolve,
    stacking,
    victory,
)
from rsr.rulesets.red_star import combat as cm
from rsr.rulesets.red_star import retreat as rt
from rsr.rulesets.red_star.sequence import TURN, segment_label, segment_side
from rsr.rulesets.red_star.state import Ask, Combat, MovementRun, RsState, combat_by_id, enemy_of
from rsr.rulesets.red_star.terrain import occupied
from rsr.words import plural, plural_word


def advance(state: RsState, ctx: Context) -> None:
    """Carry out whatever needs no decision, segment after segment (RS/RS 3.1-3.2)."""
    while not state.finished and state.ask is None:
        segment = TURN[state.segment]
        side = segment_side(state.segment, state.first, state.second)
        if not state.segment_started:
            state.segment_started = True
            start_segment(state, ctx)
            continue
        if not segment.implemented:
            next_segment(state)
            continue
        if STAGES[segment.key](state, ctx, side):
            next_segment(state)


def start_segment(state: RsState, ctx: Context) -> None:
    segment = TURN[state.segment]
    side = segment_side(state.segment, state.first, state.second)
    label = segment.name + (f" ({side})" if side else "")
    note = "" if segment.implemented else f": {segment.note}"
    ctx.emit("segment", f"{state.date()}: {label}{note}", f"RS/RS {segment.case}",
             turn=state.turn, date=state.date(), segment=segment_label(state.segment, state.first, state.second))
    state.force_step = ""
    state.declared = False
    state.combats = []
    state.combat_index = 0
    state.choices_stage = ""
    state.movement = None
    state.cb = {}  # RS/RS 5.41
    state.missions = []
    state.mission_round = 0
    state.mission_plan = {}
    if segment.key == "reinforcement-planning":
        state.entry_plans = {}
        force.receive_points(state, ctx)
    elif segment.key == "force-adjustment":
        state.player_turn += 1


def next_segment(state: RsState) -> None:
    state.segment += 1
    state.segment_started = False
    if state.segment >= len(TURN):
        state.segment = 0
        state.turn += 1


def run_reinforcement_planning(state: RsState, ctx: Context, side: str | None) -> bool:
    """RS/RS 3.2, RS/RS 4.1: each side with reinforcements due notes its entry hexes, secretly.

    The second player is asked first (the rules leave the order open: both note them secretly): his
    entry hexes stay hidden until his own player turn, so he seals them, and he can do so in the packet
    that ends the turn before. The first player answers after him and reveals his at once in his Force
    Adjustment segment, so his need no seal (docs/red-star/interpretations.md, RS/RS 3.2)."""
    for who in (state.second, state.first):
        if force.arriving(state, who) and who not in state.entry_plans:
            state.ask = Ask("entry-plan", who, f"t{state.turn}/planning/{who}/entry")
            return False
    return True


def run_force_adjustment(state: RsState, ctx: Context, side: str | None) -> bool:
    """RS/RS 4.0-4.4: returns from off the map, reinforcements, withdrawals, replacements."""
    assert side is not None
    if state.force_step == "":
        force.return_off_map(state, ctx)
        state.force_step = "unseal"
    if state.force_step == "unseal":
        if state.entry_plans.get(side) == "sealed":
            sealed = f"t{state.turn}/planning/{side}/entry"
            state.ask = Ask("unseal", side, f"{sealed}:unseal", {"sealed": sealed, "what": "entry",
                                                                 "case": "RS/RS 4.1"})
            state.entry_plans[side] = "revealing"
            return False
        state.force_step = "place"
    if state.force_step == "place":
        plan = state.entry_plans.get(side)
        force.place(state, ctx, side, plan if isinstance(plan, dict) else {})
        force.withdraw(state, ctx, side)
        state.force_step = "replace"
        if state.ask is not None:  # RS/RS 4.11: the owner first chooses who goes beneath a "2"
            return False
    # RS/RS 3.2 item 3, RS/RS 4.2: both players spend replacement points in the first player's Force Adjustment
    # segment, the first player first; the second player's own segment has no replacement step.
    if state.force_step == "replace":
        state.force_step = "asked"
        if side == state.first and force.may_ask(state, side):
            state.ask = Ask("replacements", side, f"t{state.turn}/{side}/force/replacements")
            return False
    if state.force_step in ("asked", "done"):
        state.force_step = "second-asked"
        second = state.second
        if side == state.first and force.may_ask(state, second):
            state.ask = Ask("replacements", second, f"t{state.turn}/{side}/force/{second}-replacements")
            return False
    return True


def run_artillery_fire(state: RsState, ctx: Context, side: str | None) -> bool:
    """RS/RS 5.0-5.2: the phasing side's interdiction markers of last turn come off; it may fire indirect
    missions, one at a time: each is announced, may draw counterbattery (RS/RS 5.41) and resolves before the next
    is chosen, while a gun can fire and a support point is left."""
    assert side is not None
    if state.force_step == "asked" and state.cb:
        if not counterbattery.step(state, ctx):
            return False
        artillery.resolve_missions(state, ctx, side, state.missions, state.cb["suppressed"])
        fired = bool(state.missions)
        state.missions = []
        state.cb = {}
        state.force_step = "resolved"
        if fired and artillery.eligible(state, side) and state.support.get(side, 0) >= 1:
            # RS/RS 5.2: the next mission is decided after the previous one's dice (policy fire-missions may
            # answer it from the player's standing plan)
            state.mission_round += 1
            state.force_step = "asked"
            state.ask = Ask("fire-missions", side,
                            f"t{state.turn}/{side}/artillery/missions/{state.mission_round + 1}")
            return False
    if state.force_step == "":
        state.force_step = "asked"
        artillery.clear_interdiction(state, ctx, side)
        if not artillery.eligible(state, side) or state.support.get(side, 0) < 1:
            ctx.emit("fire-missions", f"no {side} artillery can fire an indirect mission", "RS/RS 5.2",
                     side=side, missions=0)
            return True
        state.ask = Ask("fire-missions", side, f"t{state.turn}/{side}/artillery/missions")
        return False
    return True


def support_counterbattery(state: RsState, ctx: Context, side: str, combat: Combat) -> bool:
    """RS/RS 5.41: the direct support announced for this combat may draw counterbattery before it resolves."""
    if not state.cb:
        announced = {combat_side: list(cm.choice_of(combat, role).get("support") or [])
                     for combat_side, role in ((side, "attacker"), (enemy_of(side), "defender"))}
        counterbattery.open_chain(state, ctx, "prepared", announced, enemy_of(side), combat.id)
    return counterbattery.step(state, ctx)


def run_prepared_combat(state: RsState, ctx: Context, side: str | None) -> bool:
    """RS/RS 6.0-6.9: declare, then for each combat in order: its secret choices and direct support (RS/RS 5.3,
    RS/RS 6.1, RS/RS 6.21), counterbattery against that support (RS/RS 5.41), and its resolution; the next combat's
    choices are made once the one before has resolved."""
    assert side is not None
    if not state.declared:
        if not attack_options(state, side):
            ctx.emit("declared", f"no {side} unit is next to an enemy unit: no prepared combat", "RS/RS 6.0",
                     combat=None)
            return True
        state.ask = Ask("combats", side, f"t{state.turn}/{side}/prepared/combats")
        return False
    while state.combat_index < len(state.combats):
        combat = state.combats[state.combat_index]
        if combat.stage == "waiting":
            if not one_combat_choices(state, ctx, side, combat):
                return False
            if combat_live(state, combat) and not support_counterbattery(state, ctx, side, combat):  # RS/RS 5.41
                return False
            if not pay(state, ctx, combat):
                combat.stage = "done"
        if not resolve.resolve(state, ctx, combat):
            return False
        reserves.lose_after_combat(state, ctx, combat)  # RS/RS 7.62: an advance or retreat next to a reserve
        state.combat_index += 1
        state.choices_stage = ""
        state.cb = {}
    return True


def one_combat_choices(state: RsState, ctx: Context, side: str, combat: Combat) -> bool:
    """RS/RS 5.3, RS/RS 6.1, RS/RS 6.21, RS/RS 6.22: one prepared combat's secret choices, attacker's then defender's,
    then the attacker unseals his. Choices the attacker gave with his declaration (planning ahead) are checked again
    now: what the combats before have changed (a gun fired or suppressed, a unit gone) makes them void, said
    with why, and he is asked. A combat already called off (no attacker in place or nobody to attack) asks
    nothing."""
    if state.choices_stage == "":
        if not combat_live(state, combat):
            state.choices_stage = "done"
            return True
        recheck_planned_choice(state, ctx, combat)
        if combat.attack_choice is None:
            state.ask = Ask("attack-choices", side, f"{combat.id}/attack-choices", {"combats": [combat.id]})
            return False
        state.choices_stage = "defence"
    if state.choices_stage == "defence":
        state.ask = Ask("defence-choices", enemy_of(side), f"{combat.id}/defence-choices", {"combats": [combat.id]})
        return False
    if state.choices_stage == "unseal":
        sealed = f"{combat.id}/attack-choices"
        state.ask = Ask("unseal", side, f"{sealed}:unseal", {"sealed": sealed, "what": "attack",
                                                             "case": "RS/RS 6.21", "combats": [combat.id]})
        return False
    return True


def combat_live(state: RsState, combat: Combat) -> bool:
    """RS/RS 6.0: an attacking unit is still in place and the attacked hex still holds an enemy unit."""
    return bool(state.units_in(combat.hex, combat.defender)) and any(
        state.units[u].on_map and state.units[u].hex == combat.attack_hexes.get(u) for u in combat.attackers)


def recheck_planned_choice(state: RsState, ctx: Context, combat: Combat) -> None:
    """RS/RS 5.3, RS/RS 6.21: choices given with the declaration are checked again when the combat's turn comes."""
    if combat.inline is None or combat.attack_choice is None:
        return
    try:
        combat.attack_choice = cm.check_choice(state, combat, "attacker", combat.inline, combat.id)
    except RulesError as exc:
        combat.attack_choice = None
        ctx.emit("void", f"{combat.attacker}'s choices for {combat.id}, given with its declaration, are void: {exc}; "
                 f"{combat.attacker} is asked for them", "RS/RS 6.21", side=combat.attacker, combat=combat.id,
                 request=f"{combat.id}/attack-choices", source="declaration", reason=str(exc))


def pay(state: RsState, ctx: Context, combat: Combat) -> bool:
    """RS/RS 6.1, Ground Combat Support Cost: one support point per attacking hex."""
    present = [u for u in combat.attackers if state.units[u].on_map
               and state.units[u].hex == combat.attack_hexes.get(u)]
    if not present or not state.units_in(combat.hex, combat.defender):
        return True  # called off at the start; nothing to pay
    cost = len({combat.attack_hexes[u] for u in present})
    have = state.support.get(combat.attacker, 0)
    if have < cost:
        ctx.emit("combat-off", f"{combat.id}: not enough support points ({have} for {cost})", "RS/RS 6.1",
                 combat=combat.id)
        return False
    state.support[combat.attacker] = have - cost
    ctx.emit("support", f"{combat.attacker} spends {plural(cost, 'support point')} on {combat.id} "
             f"({state.support[combat.attacker]} left)", "RS/RS 6.1", side=combat.attacker, spent=cost,
             left=state.support[combat.attacker])
    return True


def combat_choices(state: RsState, side: str, where: str) -> bool:
    """RS/RS 6.1, RS/RS 6.21, RS/RS 6.22, RS/RS 7.5: the hasty attacks' secret choices, all before the first move: the
    attacker's, the defender's, then the attacker unseals (prepared combats: one_combat_choices, one combat at a
    time)."""
    if not state.combats:
        return True
    prefix = f"t{state.turn}/{side}/{where}"
    if state.choices_stage == "":
        need = [c.id for c in state.combats if c.inline is None and c.attack_choice is None]
        if need:
            state.ask = Ask("attack-choices", side, f"{prefix}/attack-choices", {"combats": need})
            return False
        state.choices_stage = "defence"
    if state.choices_stage == "defence":
        state.ask = Ask("defence-choices", enemy_of(side), f"{prefix}/defence-choices",
                        {"combats": [c.id for c in state.combats]})
        return False
    if state.choices_stage == "unseal":
        sealed = f"{prefix}/attack-choices"
        state.ask = Ask("unseal", side, f"{sealed}:unseal", {
            "sealed": sealed, "what": "attack", "case": "RS/RS 6.21",
            "combats": [c.id for c in state.combats if c.attack_sealed and c.attack_choice is None]})
        return False
    return True


def run_movement(state: RsState, ctx: Context, side: str | None) -> bool:
    """RS/RS 7.0-7.5: carry out the movement order, resolving hasty attacks where stacks stop."""
    assert side is not None
    run = state.movement
    if run is None:
        reserves.note_enemy_segment(state, side)  # RS/RS 7.62 default policy
        state.ask = Ask("movement", side, f"t{state.turn}/{side}/movement/orders")
        return False
    if not combat_choices(state, side, "movement"):
        return False
    while run.index < len(run.moves):
        if not reserve_interruption(state, ctx, side, run):  # RS/RS 7.63
            return False
        move = run.moves[run.index]
        if not run.executing:
            execute_move(state, ctx, side, move, run)
            run.executing = True
        for combat_id in move["hasty"]:
            combat = combat_by_id(state, combat_id)
            if combat.stage == "done":
                continue
            if combat.stage == "waiting":
                if not pay(state, ctx, combat):
                    combat.stage = "done"
                    continue
                run.attacked += [u for u in combat.attackers if u not in run.attacked]
            if not resolve.resolve(state, ctx, combat):
                return False
            reserves.lose_after_combat(state, ctx, combat)  # RS/RS 7.62
        run.index += 1
        run.executing = False
    if not reserve_interruption(state, ctx, side, run):  # RS/RS 7.63
        return False
    end_movement(state, ctx, side, run)
    return True


def reserve_interruption(state: RsState, ctx: Context, side: str, run: MovementRun) -> bool:
    """RS/RS 7.62, RS/RS 7.63: after each enemy move and its hasty attacks, reserves may interrupt."""
    if run.reserve_combats and not reserve_hasty(state, ctx, side, run):  # RS/RS 7.63
        return False
    if run.executing or run.index == 0 or run.reserve_done >= run.index:
        return True
    reserves.lose_in_zoc(state, ctx, side)
    owner = enemy_of(side)
    if not reserves.movable(state, owner, run):
        run.reserve_done = run.index
        return True
    state.ask = Ask("reserve-move", owner, f"t{state.turn}/{side}/movement/reserves{run.index}")
    return False


def reserve_hasty(state: RsState, ctx: Context, side: str, run: MovementRun) -> bool:
    """RS/RS 7.63, RS/RS 7.55: the reserves' hasty attacks, resolved before the phasing player moves on; the
    phasing player (the defender) gives his defence choices first."""
    pending = [combat_by_id(state, c) for c in run.reserve_combats]
    need = [c.id for c in pending if c.stage == "waiting" and c.defence_choice is None
            and state.units_in(c.hex, side)
            and any(state.units[u].on_map and state.units[u].hex == c.attack_hexes.get(u) for u in c.attackers)]
    if need:
        state.ask = Ask("defence-choices", side, f"t{state.turn}/{side}/movement/reserves{run.reserve_done}"
                        "/defence-choices", {"combats": need, "reserve": True})
        return False
    for combat in pending:
        if combat.stage == "done":
            continue
        if combat.stage == "waiting" and not pay(state, ctx, combat):
            combat.stage = "done"
            continue
        if not resolve.resolve(state, ctx, combat):
            return False
        reserves.lose_after_combat(state, ctx, combat)  # RS/RS 7.62
    run.reserve_combats = []
    return True


def execute_move(state: RsState, ctx: Context, side: str, raw: dict[str, Any], run: MovementRun) -> None:
    move = movement.Move(tuple(raw["units"]), tuple(raw["path"]), dict(raw["drop"]), raw["operational"], [],
                         raw["number"])
    alive = [u for u in move.units if state.units[u].on_map]
    if alive and not move.path and raw.get("bridge"):  # RS/RS 11.2 pick-up or destruction without moving
        full = {u: movement.allowance_of(state, state.units[u]) for u in alive}
        if "pick_up" in raw["bridge"]:  # RS/RS 11.2: picked up at the end of the segment, not now
            bridges.declare_pick_up(state, ctx, side, alive, raw["bridge"], full, run.pickups)
        else:
            bridges.act(state, ctx, side, alive, raw["bridge"], full, standing=True)
    if not alive or not move.path:
        return
    first = state.units[alive[0]].hex
    move.units = tuple(u for u in alive if state.units[u].hex == first)
    walked = artillery.walk_interdicted(state, ctx, side, move)  # RS/RS 5.22
    start = first or ""
    entered = movement.apply_walk(state, side, move, walked)
    run.moved += [u for u in move.units if u not in run.moved]
    for unit_id, hexes in sorted(entered.items()):
        for hex_id in hexes:
            rt.mark_victory(state, hex_id, side, [state.units[unit_id]])
        spent = movement.fraction_text(walked.allowance[unit_id] - walked.left[unit_id])
        ctx.emit("moved", f"{unit_id} moves {' -> '.join([start, *hexes])} ({spent} "
                 f"of {movement.fraction_text(walked.allowance[unit_id])} MP)", "RS/RS 7.1", unit=unit_id,
                 frm=start, to=hexes[-1], path=hexes, move=move.number)
    carry(state)
    reserves.lose_in_zoc(state, ctx, side)  # RS/RS 7.62
    if raw.get("bridge"):  # RS/RS 11.1, RS/RS 11.2
        bridges.act(state, ctx, side, list(move.units), raw["bridge"], walked.left)
    bridges.soviet_adjacency(state, ctx, side, entered, raw.get("bridge"))
    if walked.problem:
        ctx.emit("path-cut", f"move {move.number} stops early: {walked.problem}", "RS/RS 7.1",
                 move=move.number, reason=walked.problem)


def carry(state: RsState) -> None:
    """The bridge counter stays with the engineer carrying it (RS/RS 11.2; bridges are a later issue)."""
    for bridge_id, engineer_id in sorted(state.carriers.items()):
        engineer = state.units.get(engineer_id)
        if engineer is not None and engineer.on_map:
            state.units[bridge_id].hex = engineer.hex


def end_movement(state: RsState, ctx: Context, side: str, run: MovementRun) -> None:
    """RS/RS 9.0: stacking is checked at the end of the segment; units still over go beneath a "2"."""
    reserves.pick_up_at_segment_end(state, ctx, run)  # RS/RS 11.2, a reserve engineer
    hexes = sorted({state.units[u].hex or "" for u in run.moved if state.units[u].on_map})
    for hex_id in hexes:
        if stacking.hex_problem(state, hex_id, side):
            rt.overstack(state, ctx, hex_id, side, [u for u in run.moved if state.units[u].hex == hex_id],
                         "RS/RS 9.0")
    carry(state)


def run_marker_adjustment(state: RsState, ctx: Context, side: str | None) -> bool:
    """RS/RS 3.1, RS/RS 5.7, RS/RS 7.4, RS/RS 7.61, RS/RS 7.62: the phasing side places and removes Reserve markers,
    then its Fired, Disruption and truck markers come off.

    RS/RS 7.61: a unit with a Fired or Disruption marker may not take a Reserve marker, so the reserves are
    settled while those markers are still on (interpretations.md RS/RS 7.61)."""
    assert side is not None
    if state.force_step == "":
        state.force_step = "reserves"
        if any(u.reserve for u in state.on_map(side)) or reserves.creatable(state, side):
            state.ask = Ask("reserves", side, f"t{state.turn}/{side}/markers/reserves")
            return False
    remove_markers(state, ctx, side)
    return True


def remove_markers(state: RsState, ctx: Context, side: str) -> None:
    """RS/RS 5.7, RS/RS 7.4: the phasing side's Fired, Disruption and truck markers come off."""
    for unit in state.on_map(side):
        removed = [name for name, on in (("Fired", unit.fired), (f"\"{unit.disruption}\"", unit.disruption),
                                         ("truck", unit.truck)) if on]
        if removed:
            unit.fired = unit.truck = False
            unit.disruption = 0
            ctx.emit("markers", f"{unit.id}: {', '.join(removed)} {plural_word('marker', len(removed))} removed",
                     "RS/RS 5.7",
                     unit=unit.id)
    if state.options.get("fired-off-each-player-turn"):  # RS/RS 5.1 read as once per player turn (option)
        for unit in state.on_map(enemy_of(side)):
            if unit.fired:
                unit.fired = False
                ctx.emit("markers", f"{unit.id}: Fired marker removed at the end of the player turn (rule "
                         "option fired-off-each-player-turn)", "RS/RS 5.1", unit=unit.id)


def run_turn_completion(state: RsState, ctx: Context, side: str | None) -> bool:
    """RS/RS 3.1: the game turn ends; after the last one the scenario is scored (RS/RS 13.1)."""
    for unit in state.units.values():
        unit.no_move = False
    if state.turn >= len(state.dates):
        state.finished = True
        victory.score(state, ctx)
        ctx.emit("game-over", f"the scenario ends after {state.date()}", "RS/RS 13.1")
        return False
    return True


def attack_options(state: RsState, side: str) -> dict[str, list[str]]:
    """Every unit that may attack now and the enemy hexes next to it (RS/RS 6.0)."""
    grid = state.static.grid
    options: dict[str, list[str]] = {}
    enemy_hexes = occupied(state, enemy_of(side))  # (the hexes holding an enemy ground unit: one pass)
    for unit in state.on_map(side):
        if cm.can_attack(state, unit) or unit.hex is None:
            continue
        targets = [h for h in grid.neighbours(unit.hex) if h in enemy_hexes]
        if targets:
            options[unit.id] = targets
    return options


Stage = Callable[[RsState, Context, "str | None"], bool]

# the stage that runs each segment of the sequence of play (sequence.TURN), by segment key
STAGES: dict[str, Stage] = {
    "reinforcement-planning": run_reinforcement_planning,
    "force-adjustment": run_force_adjustment,
    "artillery-fire": run_artillery_fire,
    "prepared-combat": run_prepared_combat,
    "movement": run_movement,
    "marker-adjustment": run_marker_adjustment,
    "turn-completion": run_turn_completion,
}
