"""Every decision a Red Sun/Red Star player makes, one declared :class:`rsr.decisions.Decision` each.

Each entry says, in one place, what the question is (its request kind and id pattern), the case that raises
it, who answers, the options and the template a player is shown, the standing policy that may answer it
(with its default), the form of an answer (checked before any rule sees it) and how an answer is applied.
A rule raises a question by leaving ``Ask(kind, side, id, data)`` in ``state.ask``; the driver in
rsr/decisions.py does the rest. The questions a stage of the sequence of play raises (turn.py) are declared
here; those raised inside a rule live with that rule: morale, retreat, losses, target ties and advance in
resolve.py, overstack in retreat.py, counterbattery in counterbattery.py. ``DECISIONS`` gathers them all.

The table is in the order of the sequence of play (RS/RS 3.2, RS/RS 4.0-7.6); the policies keep the order in
which players have always seen them listed.
"""

from __future__ import annotations

from typing import Any

from rsr.decisions import Decision, Policy, RuleBroken, ShapeError, check_shape
from rsr.engine import Context, Request, Sealed
from rsr.errors import RulesError
from rsr.rulesets.red_star import artillery, counterbattery, force, movement, reserves, support
from rsr.rulesets.red_star import combat as cm
from rsr.rulesets.red_star.counterbattery import COUNTERBATTERY
from rsr.rulesets.red_star.resolve import ADVANCE, INTERDICTION_LOSSES, MORALE, RETREAT, RETREAT_LOSSES, TARGET_TIES
from rsr.rulesets.red_star.retreat import OVERSTACK
from rsr.rulesets.red_star.sequence import TURN, segment_side
from rsr.rulesets.red_star.state import Ask, Combat, MovementRun, RsState, enemy_of
from rsr.rulesets.red_star.terrain import allowance, supplied_hexes
from rsr.rulesets.red_star.turn import attack_options

# -- RS/RS 4.1: reinforcement entry hexes, noted in secret ------------------------------------------------


def apply_entry_plan(state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
    if isinstance(answer, Sealed):
        state.entry_plans[ask.side] = "sealed"
        ctx.emit("sealed", f"{ask.side} seals its reinforcement entry hexes", "RS/RS 4.1", side=ask.side,
                 request=ask.id)
        return
    state.entry_plans[ask.side] = force.check_plan(state, ask.side, answer)
    ctx.emit("entry-plan", f"{ask.side} plans its reinforcement entry (in the clear)", "RS/RS 4.1",
             side=ask.side, plan=state.entry_plans[ask.side])


ENTRY_PLAN = Decision(
    "entry-plan", "t{turn}/planning/{side}/entry", "RS/RS 4.1", "each side with reinforcements due",
    prompt=lambda state, ask: f"Reinforcement Planning, {state.date()}: secret entry hexes for your "
                              "reinforcements (units left out are delayed)",
    options=lambda state, ask: {"units": [u.id for u in force.arriving(state, ask.side)],
                                "hexes": force.entry_hexes(state, ask.side)},
    template=lambda state, ask: {"entries": force.default_plan(state, ask.side)},
    sealable=True, apply=apply_entry_plan)


# -- RS/RS 4.1, RS/RS 6.21: a sealed choice revealed -------------------------------------------------------------


def apply_unseal(state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
    if ask.data["what"] == "entry":
        plan = force.check_plan(state, ask.side, answer, revealed=True)
        state.entry_plans[ask.side] = plan
        ctx.emit("unsealed", f"{ask.side} reveals its entry hexes: "
                 f"{', '.join(f'{u} at {h}' for u, h in sorted(plan.items())) or 'none (all delayed)'}",
                 "RS/RS 4.1", side=ask.side, request=ask.data["sealed"], choice=plan)
        return
    set_attack_choices(state, ctx, ask.side, answer, revealed=True, ids=ask.data.get("combats"))
    state.choices_stage = "done"


UNSEAL = Decision(
    "unseal", "{sealed request id}:unseal", lambda ask: ask.data.get("case", "RS/RS 6.21"),
    "the side that sealed the choice",
    prompt=lambda state, ask: f"reveal your sealed choice {ask.data['sealed']}", unseals=True, apply=apply_unseal)


# -- RS/RS 5.2: indirect fire missions, one at a time (RS/RS 5.41 counterbattery: counterbattery.py) -------

MISSIONS_SHAPE = "fire missions are {missions: [{bombard: unit id | interdict: hex, artillery: [ids]}]} (RS/RS 5.2)"


def apply_fire_missions(state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
    """RS/RS 5.2: one mission (or none: no more this segment) is announced, may draw counterbattery (RS/RS 5.41) and
    resolves before the next is asked. An answer listing several is checked whole now, before any die; its
    first mission fires now and the rest is the player's plan, which policy fire-missions ``planned`` (the
    default) answers the next requests from, each mission checked again when its turn comes."""
    if isinstance(answer, dict) and "plan" in answer:  # the policy's answer: the plan's next mission
        step = answer["plan"]
        if not isinstance(step, artillery.PlanStep):
            raise ShapeError(MISSIONS_SHAPE)
        answer = {k: v for k, v in answer.items() if k != "plan"}
        for planned, reason in step["dropped"]:
            ctx.emit("void", f"{ask.side}'s planned mission {planned} (policy fire-missions) is void: {reason}",
                     "RS/RS 5.2", side=ask.side, request=ask.id, source="policy fire-missions", reason=reason)
        state.mission_plan = {"missions": step["missions"], "next": step["next"]}
    elif isinstance(answer, dict) and isinstance(answer.get("missions"), list):
        state.mission_plan = {"missions": list(answer["missions"][1:]), "next": 0} if len(answer["missions"]) > 1 \
            else {}
    missions = artillery.check_missions(state, ask.side, answer, state.mission_round + 1)[:1]
    if not missions:
        if state.mission_round == 0:
            artillery.announce(state, ctx, ask.side, [])
        else:
            ctx.emit("fire-missions", f"{ask.side} fires no more artillery missions", "RS/RS 5.2", side=ask.side,
                     missions=0)
        return
    artillery.announce(state, ctx, ask.side, missions)
    state.missions = missions
    round_part = f"/{state.mission_round + 1}" if state.mission_round else ""  # the first keeps its ids
    counterbattery.open_chain(state, ctx, "artillery", {ask.side: missions[0]["artillery"]}, enemy_of(ask.side),
                              f"t{state.turn}/{ask.side}/artillery{round_part}")


def mission_options(state: RsState, ask: Ask) -> dict[str, Any]:
    """RS/RS 5.2, RS/RS 4.3: the guns that may fire and what each reaches, and the support points left to pay."""
    return {"artillery": artillery.options(state, ask.side), "support_points": state.support.get(ask.side, 0),
            "mission": state.mission_round + 1}


def check_mission_plan(rule: dict[str, Any]) -> None:
    """RS/RS 5.2: policy fire-missions' plan is {turn: N, missions: [...]}."""
    turn, missions = rule.get("turn"), rule.get("missions")
    if set(rule) != {"turn", "missions"} or not isinstance(turn, int) or isinstance(turn, bool) or turn < 1 \
            or not isinstance(missions, list) or not all(isinstance(m, dict) for m in missions):
        raise RulesError("policy fire-missions is planned, ask, hold, or {turn: N, missions: [{bombard | "
                         "interdict, artillery}]}: the missions of game turn N, fired one after another in that order")


def check_mission_plan_in(state: RsState, side: str, rule: Any) -> None:
    """RS/RS 5.2: a plan for this turn, set in the side's Artillery Fire segment before its second mission, is
    checked where it is set (the missions it has not yet given, against the guns and points left): before the
    first mission, or where the pass stops at the first mission's die (what that mission spent is known)."""
    if not isinstance(rule, dict) or rule.get("turn") != state.turn or state.mission_round:
        return
    if TURN[state.segment].key != "artillery-fire" or segment_side(state.segment, state.first, state.second) != side:
        return
    if state.ask is not None and not (state.ask.kind == "fire-missions" and state.ask.side == side):
        return
    if state.ask is None and not state.missions:
        return
    plan = rule["missions"]
    done = int(state.mission_plan.get("next", 0)) if state.mission_plan.get("missions") == plan else 0
    artillery.check_plan(state, side, plan[done:])


def missions_by_policy(state: RsState, ask: Ask, request: Request, rule: Any) -> Any:
    """RS/RS 5.2: ``hold`` fires none; ``planned`` gives the next mission of the list the player's last answer
    named (none left: no more; nothing to answer at the segment's first request); a plan ``{turn, missions}``
    for this turn gives its next mission (artillery.next_planned)."""
    if rule == "hold":
        return {"missions": []}
    if rule == "planned":
        if state.mission_round == 0:
            return None
        return artillery.next_planned(state, request.side, list(state.mission_plan.get("missions") or []))
    if isinstance(rule, dict) and rule.get("turn") == state.turn:
        return artillery.next_planned(state, request.side, rule["missions"])
    return None


def next_mission_template(state: RsState, ask: Ask) -> dict[str, Any]:
    """The example answer: the next mission of the player's list, if one is left (RS/RS 5.2)."""
    plan = list(state.mission_plan.get("missions") or [])
    left = plan[int(state.mission_plan.get("next", 0)):]
    return {"missions": left[:1]}


FIRE_MISSIONS = Decision(
    "fire-missions", "t{turn}/{side}/artillery/missions, t{turn}/{side}/artillery/missions/{n}", "RS/RS 5.2",
    "the phasing player",
    prompt=lambda state, ask: f"Artillery Fire segment, {state.date()}: your mission {state.mission_round + 1} "
                              "(bombardment or interdiction; more listed are your plan for the next ones; an empty "
                              "list fires no more this segment)",
    options=mission_options,
    template=next_mission_template,
    policy=Policy("fire-missions", ("planned", "ask", "hold"), default="planned", answer=missions_by_policy,
                  form=dict, check=check_mission_plan, check_in=check_mission_plan_in),
    apply=apply_fire_missions)


# -- RS/RS 4.23: replacement points ------------------------------------------------------------------------


def apply_replacements(state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
    force.apply_replacements(state, ctx, ask.side, answer)
    state.force_step = "done" if ask.side == state.first else "second-asked"


REPLACEMENTS = Decision(
    "replacements", "t{turn}/{first}/force/replacements, t{turn}/{first}/force/{second}-replacements", "RS/RS 4.23",
    "each side, in the first player's Force Adjustment segment (RS/RS 3.2)",
    prompt=lambda state, ask: f"Force Adjustment, {state.date()}: spend replacement points",
    options=lambda state, ask: {
        "points": dict(state.replacement_points.get(ask.side, {})),
        "restore": {u.id: force.restore_cost(state, u) for u in force.restorable(state, ask.side)},
        "return": [u.id for u in force.returnable(state, ask.side)],
        "pools": {u.id: list(force.pools_for(state, u))
                  for u in force.restorable(state, ask.side) + force.returnable(state, ask.side)}},
    template=lambda state, ask: force.auto_replacements(state, ask.side),
    policy=Policy("replacements", ("restore", "none", "ask"), default="restore",
                  answer=lambda state, ask, request, rule: (force.auto_replacements(state, request.side)
                                                            if rule == "restore" else {} if rule == "none" else None)),
    apply=apply_replacements)


# -- RS/RS 6.0, RS/RS 6.1: prepared combats ----------------------------------------------------------------------


def apply_combats(state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
    """RS/RS 6.0, RS/RS 6.1: the phasing player's prepared combats, checked before any die."""
    combats_shape(answer)
    for planned, reason in answer.get("dropped") or []:
        ctx.emit("void", f"{ask.side}'s planned combat {planned} (policy combats) is void: {reason}", "RS/RS 6.1",
                 side=ask.side, request=ask.id, source="policy combats", reason=reason)
    used: list[str] = []
    combats = []
    cost = 0
    prefix = f"t{state.turn}/{ask.side}/prepared"
    for number, raw in enumerate(answer.get("combats") or [], start=1):
        combat = cm.parse_declaration(state, ask.side, raw, number, used, "prepared", f"{prefix}/c{number}")
        if combat.inline is not None:
            combat.attack_choice = cm.check_choice(state, combat, "attacker", combat.inline, f"combat {number}")
        cost += len(cm.attack_hexes(combat))
        combats.append(combat)
    if cost > state.support.get(ask.side, 0):
        raise RuleBroken(f"these combats cost {cost} support point(s), one per attacking hex; {ask.side} has "
                         f"{state.support.get(ask.side, 0)}", "RS/RS 6.1")
    support.check_unique(combats, "attacker")  # RS/RS 5.1: a gun planned for two combats fires in one only
    state.combats = combats
    state.combat_index = 0
    state.choices_stage = ""
    state.declared = True
    for combat in combats:
        ctx.emit("declared", f"{combat.id}: {', '.join(combat.attackers)} will attack {combat.hex}"
                 + (" at night" if combat.night else ""), "RS/RS 6.1", combat=combat.id, hex=combat.hex,
                 attackers=list(combat.attackers), night=combat.night, inline=combat.inline is not None)
    if not combats:
        ctx.emit("declared", f"{ask.side} declares no prepared combat", "RS/RS 6.0", combat=None)


COMBATS_SHAPE = "a combat order is {combats: [{hex, attackers, night, advance, ...}]} (RS/RS 6.1)"


def combats_shape(answer: Any) -> None:
    """A combat order's keys: ``combats``, and ``dropped`` only in the answer a standing plan gives."""
    if set(answer) - {"combats", "dropped"} or ("dropped" in answer and not isinstance(answer["dropped"],
                                                                                      cm.DroppedParts)):
        raise ShapeError(COMBATS_SHAPE)


def check_plan_in(state: RsState, side: str, rule: Any) -> None:
    """RS/RS 6.1: a combat plan for the current turn is checked against the position it is set in."""
    if isinstance(rule, dict) and rule.get("turn") == state.turn and not state.declared:
        cm.check_plan(state, side, rule["combats"])


def combats_by_policy(state: RsState, ask: Ask, request: Request, rule: Any) -> Any:
    """RS/RS 5.0, RS/RS 6.1: the combats planned with the fire, declared when the game asks for them."""
    if isinstance(rule, dict):
        return cm.planned_combats(state, request.side, rule["combats"]) if rule["turn"] == state.turn else None
    return None


def check_combat_plan(rule: dict[str, Any]) -> None:
    """RS/RS 6.1: a plan signed before the fire's dice."""
    turn, combats = rule.get("turn"), rule.get("combats")
    if set(rule) != {"turn", "combats"} or not isinstance(turn, int) or isinstance(turn, bool) or turn < 1 \
            or not isinstance(combats, list) or not all(isinstance(c, dict) for c in combats):
        raise RulesError("policy combats is ask, or {turn: N, combats: [{hex, attackers, ...}]}: the "
                         "prepared combats of game turn N, declared when the game asks for them")


COMBATS = Decision(
    "combats", "t{turn}/{side}/prepared/combats", "RS/RS 6.1", "the phasing player",
    prompt=lambda state, ask: f"Prepared Combat segment, {state.date()}: declare combats (an empty list declares "
                              "none)",
    options=lambda state, ask: {"attackers": attack_options(state, ask.side),
                                "support_points": state.support.get(ask.side, 0)},
    template=lambda state, ask: {"combats": []},
    policy=Policy("combats", ("ask",), answer=combats_by_policy, form=dict, check=check_combat_plan,
                  check_in=check_plan_in),
    schema={"type": "object", "properties": {"combats": {"type": "array"}, "dropped": {}}},
    shape=COMBATS_SHAPE,
    apply=apply_combats)


# -- RS/RS 6.21, RS/RS 6.22: the secret choices of attacker and defender -----------------------------------------

CHOICES_SCHEMA: dict[str, Any] = {"type": "object", "required": ["combats"], "properties": {
    "combats": {"type": "object"}}, "additionalProperties": False}
ATTACK_SHAPE = "attack choices are {combats: {combat id: {lead, armor_protection, fire}}} (RS/RS 6.21)"


def set_attack_choices(state: RsState, ctx: Context, side: str, answer: Any, revealed: bool,
                       ids: list[str] | None = None) -> None:
    """RS/RS 6.21: the attacker's choices for the combats asked (``ids``; every combat still without them when
    None)."""
    check_shape(CHOICES_SCHEMA, answer, ATTACK_SHAPE)
    wanted = [c for c in state.combats if c.attack_choice is None and (c.id in ids if ids is not None
                                                                       else c.inline is None)]
    for combat in wanted:
        raw = answer["combats"].get(combat.id)
        if raw is None:
            raise RuleBroken(f"give the choices for {combat.id}", "RS/RS 6.21")
        combat.attack_choice = cm.check_choice(state, combat, "attacker", raw, combat.id)
        if revealed:
            ctx.emit("unsealed", f"{side} reveals its choices for {combat.id}: lead "
                     f"{', '.join(f'{v} in {k}' for k, v in sorted(combat.attack_choice['lead'].items()))}, "
                     f"armor protection {'yes' if combat.attack_choice['armor_protection'] else 'no'}",
                     "RS/RS 6.22", combat=combat.id, side=side, choice=combat.attack_choice)
    extra = sorted(set(answer["combats"]) - {c.id for c in wanted})
    if extra:
        raise RulesError(f"{extra[0]} is not a combat waiting for your choices")
    support.check_unique(state.combats, "attacker")  # RS/RS 5.1


def apply_attack_choices(state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
    if isinstance(answer, Sealed):
        for combat in asked_combats(state, ask):
            if combat.attack_choice is None:
                combat.attack_sealed = True
        ctx.emit("sealed", f"{ask.side} seals its lead units and armor protection", "RS/RS 6.1",
                 side=ask.side, request=ask.id)
    else:
        set_attack_choices(state, ctx, ask.side, answer, revealed=False, ids=ask.data["combats"])
    state.choices_stage = "defence"


def asked_combats(state: RsState, ask: Ask) -> list[Combat]:
    return [c for c in state.combats if c.id in ask.data["combats"]]


def auto_choices(role: str) -> Any:
    """The ``auto`` policy of a side's secret choices (RS/RS 6.21): combat.auto_choice for each combat."""
    def answer(state: RsState, ask: Ask, request: Request, rule: Any) -> Any:
        if rule != "auto":
            return None
        return {"combats": {c.id: cm.auto_choice(state, c, role) for c in asked_combats(state, ask)}}
    return answer


ATTACK_CHOICES = Decision(
    "attack-choices", "t{turn}/{side}/prepared/c{n}/attack-choices, t{turn}/{side}/movement/attack-choices",
    "RS/RS 6.21", "the attacker",
    prompt=lambda state, ask: "secret lead units and armor protection for your attacks (seal them)",
    options=lambda state, ask: {c.id: {"hex": c.hex, "attackers": list(c.attackers)}
                                for c in asked_combats(state, ask)},
    template=lambda state, ask: {"combats": {c.id: cm.auto_choice(state, c, "attacker")
                                             for c in asked_combats(state, ask)}},
    policy=Policy("attack-choices", ("ask", "auto"), default="ask", answer=auto_choices("attacker")),
    schema=CHOICES_SCHEMA, shape=ATTACK_SHAPE, sealable=True, apply=apply_attack_choices)


def apply_defence_choices(state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
    for combat in state.combats:
        if combat.id not in ask.data["combats"]:
            continue  # RS/RS 7.63: a reserve's hasty attack is answered on its own
        raw = answer["combats"].get(combat.id)
        if raw is None:
            raise RuleBroken(f"give the defence choices for {combat.id}", "RS/RS 6.21")
        combat.defence_choice = cm.check_choice(state, combat, "defender", raw, combat.id)
    support.check_unique(state.combats, "defender")  # RS/RS 5.1
    if ask.data.get("reserve"):
        return  # RS/RS 7.63: the reserves' hasty attacks; the phasing player's choices are long settled
    state.choices_stage = "unseal" if any(c.attack_sealed and c.attack_choice is None
                                          for c in asked_combats(state, ask)) else "done"


DEFENCE_CHOICES = Decision(
    "defence-choices", "t{turn}/{side}/prepared/c{n}/defence-choices, t{turn}/{side}/movement/defence-choices, "
    "t{turn}/{side}/movement/reserves{n}/defence-choices", "RS/RS 6.21", "the defender",
    prompt=lambda state, ask: "lead units and armor protection of the hexes you defend",
    options=lambda state, ask: {c.id: {"hex": c.hex, "defenders": [u.id for u in state.units_in(c.hex, ask.side)],
                                       "attackers": list(c.attackers)} for c in asked_combats(state, ask)},
    template=lambda state, ask: {"combats": {c.id: cm.auto_choice(state, c, "defender")
                                             for c in asked_combats(state, ask)}},
    policy=Policy("defence-choices", ("auto", "ask"), default="auto", answer=auto_choices("defender")),
    schema=CHOICES_SCHEMA, shape="defence choices are {combats: {combat id: {lead, armor_protection, fire}}} "
                                 "(RS/RS 6.21)",
    apply=apply_defence_choices)


# -- RS/RS 7.0-7.5: the movement order ---------------------------------------------------------------------


def movement_options(state: RsState, ask: Ask) -> dict[str, Any]:
    supplied = supplied_hexes(state, ask.side)
    movable = {u.id: str(allowance(state, u, False, u.hex in supplied)) for u in state.on_map(ask.side)
               if not movement.restricted(state, u)}
    return {"units": movable, "support_points": state.support.get(ask.side, 0)}


def apply_movement(state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
    """RS/RS 7.0-7.5: check the whole order, then set it going (hasty attacks first need choices)."""
    side = ask.side
    trucks, moves = movement.check_order(state, side, answer)
    prefix = f"t{state.turn}/{side}/movement"
    run = MovementRun(side, [])
    combats: list[Combat] = []
    for move in moves:
        ids = []
        used: list[str] = []
        final = move.path[-1] if move.path else ""
        for number, raw in enumerate(move.hasty, start=1):
            declared = {k: v for k, v in raw.items() if k != "units"}
            declared["attackers"] = raw["units"]
            combat = cm.parse_declaration(state, side, declared, number, used, "hasty",
                                          f"{prefix}/m{move.number}h{number}", {u: final for u in raw["units"]})
            if combat.inline is not None:
                combat.attack_choice = cm.check_choice(state, combat, "attacker", combat.inline, combat.id)
            combats.append(combat)
            ids.append(combat.id)
        run.moves.append({"units": list(move.units), "path": list(move.path), "drop": dict(move.drop),
                          "operational": move.operational, "number": move.number, "hasty": ids,
                          "bridge": move.bridge})
    for unit_id in trucks:
        state.units[unit_id].truck = True
        ctx.emit("truck", f"{unit_id} receives a truck marker (allowance 20)", "RS/RS 7.4", unit=unit_id)
    state.movement = run
    state.combats = combats
    state.combat_index = 0
    state.choices_stage = ""


MOVEMENT = Decision(
    "movement", "t{turn}/{side}/movement/orders", "RS/RS 7.0", "the phasing player",
    prompt=lambda state, ask: f"Movement segment, {state.date()}: trucks and moves in order, each with its hasty "
                              "attacks",
    options=movement_options, template=lambda state, ask: {"trucks": [], "moves": []}, apply=apply_movement)


# -- RS/RS 7.61-7.63: reserves -----------------------------------------------------------------------------


def apply_reserves(state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
    for unit_id in answer.get("create") or []:  # RS/RS 7.61
        unit = state.units.get(unit_id)
        if unit is None or unit.side != ask.side or not unit.on_map:
            raise RulesError(f"{unit_id} is not a {ask.side} unit on the map")
        problem = reserves.creation_problem(state, unit)
        if problem:
            raise RulesError(problem)
    for unit_id in answer.get("create") or []:
        state.units[unit_id].reserve = True
        if unit_id in state.reserve_seen:
            state.reserve_seen.remove(unit_id)
        ctx.emit("reserve", f"{unit_id} receives a Reserve marker", "RS/RS 7.61", unit=unit_id, created=True)
    for unit_id in answer.get("release") or []:
        unit = state.units.get(unit_id)
        if unit is None or unit.side != ask.side or not unit.reserve:
            raise RuleBroken(f"{unit_id} has no {ask.side} Reserve marker", "RS/RS 7.62")
        unit.reserve = False
        ctx.emit("reserve", f"{unit_id}'s Reserve marker is removed", "RS/RS 7.62", unit=unit_id)
    state.force_step = "reserves-done"


def reserves_options(state: RsState, ask: Ask) -> dict[str, Any]:
    units = [u.id for u in state.on_map(ask.side) if u.reserve]
    return {"units": units, "creatable": reserves.creatable(state, ask.side),
            "seen": [u for u in units if u in state.reserve_seen]}


def reserves_by_policy(state: RsState, ask: Ask, request: Request, rule: Any) -> Any:
    if rule in ("keep", "release"):
        return {"release": [] if rule == "keep" else list(request.options["units"])}
    if rule == "after-enemy-move":  # RS/RS 7.62: the owner's standing choice to release a reserve that has waited
        return {"release": list(request.options["seen"])}
    return None


RESERVES = Decision(
    "reserves", "t{turn}/{side}/markers/reserves", "RS/RS 7.61, 7.62", "the phasing player",
    prompt=lambda state, ask: "Marker Adjustment: Reserve markers to remove or place",
    options=reserves_options, template=lambda state, ask: {"release": [], "create": []},
    # RS/RS 7.62: a marker stays until its owner removes it; removing it is his choice, never the default
    policy=Policy("reserves", ("keep", "after-enemy-move", "release", "ask"), default="keep",
                  answer=reserves_by_policy),
    schema={"type": "object", "propertyNames": {"enum": ["release", "create"]}},
    shape="a reserves answer is {release: [unit ids], create: [unit ids]} (RS/RS 7.61, 7.62)",
    apply=apply_reserves)


def reserve_move_options(state: RsState, ask: Ask) -> dict[str, Any]:
    run = state.movement
    assert run is not None
    units = {u.id: {"hex": u.hex, "allowance": str(allowance(state, u))}
             for u in reserves.movable(state, ask.side, run)}
    return {"units": units, "enemy_move": dict(run.moves[run.index - 1])}


def apply_reserve_move(state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
    run = state.movement
    assert run is not None
    moves = reserves.parse(state, ask.side, run, answer)
    combats = reserves.declare_hasty(state, ask.side, moves, ask.id)  # RS/RS 7.63 hasty attacks
    run.triggered += [int(n) for n in (answer.get("orders") or [])]
    reserves.execute(state, ctx, ask.side, run, moves)
    reserves.report_refused(state, ctx, ask.side, answer)  # RS/RS 11.2 waits met by conditional orders
    for combat in combats:
        ctx.emit("declared", f"{combat.id}: reserve {', '.join(combat.attackers)} will make a hasty attack on "
                 f"{combat.hex}", "RS/RS 7.63", combat=combat.id, hex=combat.hex,
                 attackers=list(combat.attackers), night=False, inline=True, interruption=run.index)
    if combats:
        state.choices_stage = "done"  # the phasing player's choices were all settled before his first move
    state.combats += combats
    run.reserve_combats = [c.id for c in combats]
    run.reserve_done = run.index


def reserve_moves_by_policy(state: RsState, ask: Ask, request: Request, rule: Any) -> Any:
    if rule == "hold":
        return {"moves": []}
    if isinstance(rule, list) and state.movement is not None:  # RS/RS 7.63 conditional orders
        return reserves.standing(state, request.side, state.movement, rule)
    return None


def last_enemy_move(state: RsState) -> dict[str, Any]:
    run = state.movement
    assert run is not None
    return run.moves[run.index - 1]


RESERVE_MOVE = Decision(
    "reserve-move", "t{turn}/{phasing side}/movement/reserves{n}", "RS/RS 7.63", "the non-phasing player",
    prompt=lambda state, ask: f"the enemy has moved {', '.join(last_enemy_move(state)['units'])}: interrupt with "
                              "reserve movement?",
    options=reserve_move_options, template=lambda state, ask: {"moves": []},
    policy=Policy("reserve-moves", ("hold", "ask"), default="hold", answer=reserve_moves_by_policy, form=list,
                  check=reserves.check_standing),
    apply=apply_reserve_move)


# the policies are listed to players in this order (attack-choices first, counterbattery last)
DECISIONS: tuple[Decision, ...] = (
    ATTACK_CHOICES, DEFENCE_CHOICES, MORALE, RETREAT, RETREAT_LOSSES, INTERDICTION_LOSSES, TARGET_TIES, OVERSTACK,
    ADVANCE, REPLACEMENTS, RESERVES, RESERVE_MOVE, FIRE_MISSIONS, COMBATS, COUNTERBATTERY,
    ENTRY_PLAN, UNSEAL, MOVEMENT,
)
