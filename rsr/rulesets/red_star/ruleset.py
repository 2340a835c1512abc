"""The Red Sun/Red Star ruleset: the engine interface over the sequence of play (RS/RS 3.0-3.2).

The game is a walk through :data:`sequence.TURN`; each segment has a handler that runs on its own until it
needs a decision, which it leaves in ``state.ask``. :meth:`RedStar.next_request` turns that into a
:class:`Request`; :meth:`RedStar.apply` takes the answer and walks on.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from rsr.engine import Context, Event, Request, Sealed
from rsr.errors import BadInput, RulesError
from rsr.fairdice import Dice, NoDice
from rsr.rulesets import register
from rsr.rulesets.red_star import (
    artillery,
    bridges,
    counterbattery,
    force,
    movement,
    reserves,
    resolve,
    stacking,
    support,
    victory,
)
from rsr.rulesets.red_star import combat as cm
from rsr.rulesets.red_star import retreat as rt
from rsr.rulesets.red_star.data import load_static
from rsr.rulesets.red_star.sequence import TURN, find_segment, segment_label, segment_side
from rsr.rulesets.red_star.state import (
    ARRIVING,
    ON_MAP,
    REPLACEMENTS,
    Ask,
    Combat,
    MovementRun,
    RsState,
    Unit,
    enemy_of,
)
from rsr.rulesets.red_star.terrain import allowance, current, occupied, supplied_hexes

POLICIES: dict[str, tuple[str, ...]] = {
    "attack-choices": ("ask", "auto"),          # RS/RS 6.21, 6.22 (the attacker's secret choices)
    "defence-choices": ("auto", "ask"),         # RS/RS 6.21, 6.22 (the defender's)
    "morale": ("check", "retreat", "ask"),      # RS/RS 6.62 (or {check-if-rating-at-least: N})
    "retreat": ("auto", "ask"),                 # RS/RS 6.7
    "retreat-losses": ("fewest-factors", "most-factors", "ask"),  # RS/RS 8.4, 6.72 (who takes a stack's loss)
    "interdiction-losses": ("most-factors", "fewest-factors", "ask"),  # RS/RS 6.72: the enemy's bridge losses
    "target-ties": ("highest-proficiency", "lowest-proficiency", "lowest-id", "ask"),  # RS/RS 6.25
    "overstack": ("newest", "ask"),             # RS/RS 4.11 (which units go beneath a "2")
    "advance": ("into-hex", "none", "ask"),     # RS/RS 6.8
    "replacements": ("restore", "none", "ask"),  # RS/RS 4.23
    "reserves": ("after-enemy-move", "keep", "release", "ask"),  # RS/RS 7.61, 7.62 (issue 14: new default)
    "reserve-moves": ("hold", "ask"),           # RS/RS 7.63 (or a list of conditional orders, reserves.py)
    # -- artillery (issue 14, rsr/rulesets/red_star/artillery.py) --
    "fire-missions": ("ask", "hold"),           # RS/RS 5.2: the phasing player's bombardment and interdiction
    "combats": ("ask",),                        # RS/RS 6.1 (or a plan signed before the fire: {turn, combats})
    "counterbattery": ("none", "ask"),          # RS/RS 5.41 (or a standing order {guns: [ids]})
}


def rule_options(static: Any, chosen: dict[str, Any], where: str) -> dict[str, bool]:
    """The rule options of a game: each one the tables list (tables.yaml), on or off; any other is refused."""
    known = static.rule_options
    options: dict[str, bool] = {}
    for name, value in sorted(chosen.items()):
        if name not in known:
            raise BadInput(f"{where}: Red Sun/Red Star has no rule option {name!r} (known: "
                           f"{', '.join(sorted(known)) or 'none'})")
        if not isinstance(value, bool):
            raise BadInput(f"{where}: rule option {name!r} is true or false, not {value!r}")
        options[name] = value
    return options


# fields of RsState left out of the state digest: the scenario's fixed data (pinned by its hash), the
# static tables, and the opening events (reported, not state) -- as RsState.to_json leaves out the last two
FIXED_STATE = ("dates", "turn_track", "restrictions", "static", "opening_events")


class RedStar:
    """Red Sun/Red Star (S&T 158). See docs/red-star/coverage.md for what is implemented."""

    id = "red-star"
    version = "0.2"  # 0.2: the state digest leaves out the fixed scenario data (FIXED_STATE)
    sides = ("japan", "soviet")
    policy_defaults: dict[str, Any] = {"attack-choices": "ask", "defence-choices": "auto", "morale": "check",
                                       "retreat": "auto", "retreat-losses": "fewest-factors",
                                       "interdiction-losses": "most-factors",
                                       "target-ties": "highest-proficiency", "overstack": "newest",
                                       "advance": "into-hex", "replacements": "restore",
                                       "reserves": "after-enemy-move", "reserve-moves": "hold",
                                       "fire-missions": "ask",
                                       "counterbattery": "none"}

    # -- set-up -------------------------------------------------------------------------------------------

    def initial_state(self, scenario: Any, options: dict[str, Any]) -> RsState:
        data = scenario.data
        static = load_static(data)
        spec = data["scenario"]
        first = spec["first_player"]
        second = enemy_of(first)
        turns = list(spec["turns"])
        state = RsState(static=static, scenario_key=str(spec["scenario"]), first=first, second=second,
                        dates=[str(t["date"]) for t in turns], turn_track=turns,
                        options=rule_options(static, {**spec.get("options", {}), **options}, scenario.name))
        state.support = {side: int(spec.get("support_points", {}).get(side, 0)) for side in (first, second)}
        state.replacement_points = {side: {k: int(v) for k, v in sorted(spec.get("replacement_points", {}).get(
            side, {}).items())} for side in (first, second)}
        state.restrictions = list(spec.get("restrictions", []))
        for item in spec["setup"]:
            unit_id = item["unit"]
            counter = static.counter(unit_id)
            if unit_id in state.units:
                raise BadInput(f"scenario {scenario.name}: unit {unit_id} is set up twice")
            if item.get("status") == "replacements":
                state.units[unit_id] = Unit(unit_id, counter.side, REPLACEMENTS, None)
                continue
            hex_id = item.get("hex", "")
            if hex_id not in static.terrain:
                raise BadInput(f"scenario {scenario.name}: {unit_id} is set up in {hex_id!r}, not a hex of the map")
            state.units[unit_id] = Unit(unit_id, counter.side, ON_MAP, hex_id,
                                        reduced=bool(item.get("reduced", False)) and counter.reduced is not None,
                                        disruption=int(item.get("disruption", 0)), fired=bool(item.get("fired")),
                                        reserve=bool(item.get("reserve", False)))
            if item.get("with"):
                state.carriers[unit_id] = item["with"]
        for number, entry in enumerate(turns, start=1):
            for unit_id in entry.get("reinforcements", []):
                counter = static.counter(unit_id)
                if unit_id in state.units:
                    raise BadInput(f"scenario {scenario.name}: {unit_id} is both set up and a reinforcement")
                state.units[unit_id] = Unit(unit_id, counter.side, ARRIVING, None, arrives=number)
        for unit_id in state.carriers:
            state.units[unit_id].side = static.counter(unit_id).side
        for hex_id in sorted(static.victory_points):
            sides = {u.side for u in state.units_in(hex_id)}
            if len(sides) == 1:
                state.victory_hexes[hex_id] = sides.pop()
        start = spec.get("start")
        if start:
            try:
                state.segment = find_segment(start, first, second)
            except ValueError:
                raise BadInput(f"scenario {scenario.name}: no segment {start!r} in the sequence of play") from None
        state.turn = int(spec.get("start_turn", 1))
        opening = Context(NoDice())
        self._continue(state, opening)
        state.opening_events = opening.events
        return state

    # -- the oracle: who must act now ---------------------------------------------------------------------

    def next_request(self, state: RsState) -> Request | None:
        if state.finished or state.ask is None:
            return None
        ask = state.ask
        builder = getattr(self, "_request_" + ask.kind.replace("-", "_"))
        request: Request = builder(state, ask)
        return request

    def _request_entry_plan(self, state: RsState, ask: Ask) -> Request:
        return Request(ask.id, ask.side, "entry-plan", f"Reinforcement Planning, {state.date()}: secret entry hexes "
                       "for your reinforcements (units left out are delayed)", "RS/RS 4.1",
                       options=lambda: {"units": [u.id for u in force.arriving(state, ask.side)],
                                        "hexes": force.entry_hexes(state, ask.side)},
                       template=lambda: {"entries": force.default_plan(state, ask.side)}, sealable=True)

    def _request_unseal(self, state: RsState, ask: Ask) -> Request:
        return Request(ask.id, ask.side, "unseal", f"reveal your sealed choice {ask.data['sealed']}",
                       ask.data.get("case", "RS/RS 6.21"), unseals=ask.data["sealed"])

    # -- artillery (issue 14) --
    def _request_fire_missions(self, state: RsState, ask: Ask) -> Request:
        return Request(ask.id, ask.side, "fire-missions", f"Artillery Fire segment, {state.date()}: bombardment "
                       "and interdiction missions (an empty list fires none)", "RS/RS 5.2",
                       options=lambda: {"artillery": artillery.options(state, ask.side),
                                        "support_points": state.support.get(ask.side, 0)},
                       template={"missions": []}, policy="fire-missions")

    def _answer_fire_missions(self, state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
        missions = artillery.check_missions(state, ask.side, answer)
        artillery.announce(state, ctx, ask.side, missions)
        state.missions = missions
        guns = [g for m in missions for g in m["artillery"]]
        counterbattery.open_chain(state, ctx, "artillery", {ask.side: guns}, enemy_of(ask.side),
                                  f"t{state.turn}/{ask.side}/artillery")

    def _request_counterbattery(self, state: RsState, ask: Ask) -> Request:
        def options() -> dict[str, Any]:
            targets = {t: {"hex": state.units[t].hex, "factors": current(state, state.units[t])}
                       for t in ask.data["targets"]}
            guns = {g: {"hex": state.units[g].hex, "range": artillery.fire_range(state, state.units[g]),
                        "reaches": [t for t in ask.data["targets"] if counterbattery.reachable(state, g, t)]}
                    for g in ask.data["guns"]}
            return {"targets": targets, "guns": guns, "support_points": state.support.get(ask.side, 0),
                    "chain": list(state.cb.get("decl", []))}

        return Request(ask.id, ask.side, "counterbattery", "announced enemy fire: counterbattery against any of "
                       f"{', '.join(ask.data['targets'])} before it resolves?", "RS/RS 5.41",
                       options=options, template={"fire": []}, policy="counterbattery")

    def _answer_counterbattery(self, state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
        counterbattery.declare(state, ctx, ask.side, counterbattery.check(state, ask.side, answer))

    def _support_counterbattery(self, state: RsState, ctx: Context, side: str) -> bool:
        """RS/RS 5.41: announced direct support may draw counterbattery before any combat resolves."""
        if not state.cb:
            announced = {combat_side: [g for c in state.combats for g in (cm.choice_of(c, role).get("support") or [])]
                         for combat_side, role in ((side, "attacker"), (enemy_of(side), "defender"))}
            counterbattery.open_chain(state, ctx, "prepared", announced, enemy_of(side),
                                      f"t{state.turn}/{side}/prepared")
        return counterbattery.step(state, ctx)

    def _run_artillery_fire(self, state: RsState, ctx: Context, side: str | None) -> bool:
        """RS/RS 5.0-5.2: the phasing side's markers of last turn come off; it may fire indirect missions."""
        assert side is not None
        if state.force_step == "asked" and state.cb:
            if not counterbattery.step(state, ctx):
                return False
            artillery.resolve_missions(state, ctx, side, state.missions, state.cb["suppressed"])
            state.missions = []
            state.force_step = "resolved"
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
    # -- end artillery --

    def _request_replacements(self, state: RsState, ask: Ask) -> Request:
        return Request(ask.id, ask.side, "replacements", f"Force Adjustment, {state.date()}: spend replacement "
                       "points", "RS/RS 4.23",
                       options=lambda: {"points": dict(state.replacement_points.get(ask.side, {})),
                                        "restore": {u.id: force.restore_cost(state, u)
                                                    for u in force.restorable(state, ask.side)},
                                        "return": [u.id for u in force.returnable(state, ask.side)],
                                        "pools": {u.id: list(force.pools_for(state, u)) for u in
                                                  force.restorable(state, ask.side)
                                                  + force.returnable(state, ask.side)}},
                       template=lambda: force.auto_replacements(state, ask.side), policy="replacements")

    def _request_combats(self, state: RsState, ask: Ask) -> Request:
        return Request(ask.id, ask.side, "combats", f"Prepared Combat segment, {state.date()}: declare combats "
                       "(an empty list declares none)", "RS/RS 6.1",
                       options=lambda: {"attackers": self.attack_options(state, ask.side),
                                        "support_points": state.support.get(ask.side, 0)},
                       template={"combats": []}, policy="combats")

    def _request_attack_choices(self, state: RsState, ask: Ask) -> Request:
        combats = [c for c in state.combats if c.id in ask.data["combats"]]
        return Request(ask.id, ask.side, "attack-choices", "secret lead units and armor protection for your "
                       "attacks (seal them)", "RS/RS 6.21",
                       options={c.id: {"hex": c.hex, "attackers": list(c.attackers)} for c in combats},
                       template=lambda: {"combats": {c.id: cm.auto_choice(state, c, "attacker") for c in combats}},
                       policy="attack-choices", sealable=True)

    def _request_defence_choices(self, state: RsState, ask: Ask) -> Request:
        combats = [c for c in state.combats if c.id in ask.data["combats"]]
        return Request(ask.id, ask.side, "defence-choices", "lead units and armor protection of the hexes you "
                       "defend", "RS/RS 6.21",
                       options=lambda: {c.id: {"hex": c.hex,
                                               "defenders": [u.id for u in state.units_in(c.hex, ask.side)],
                                               "attackers": list(c.attackers)} for c in combats},
                       template=lambda: {"combats": {c.id: cm.auto_choice(state, c, "defender") for c in combats}},
                       policy="defence-choices")

    def _request_morale(self, state: RsState, ask: Ask) -> Request:
        d = ask.data
        return Request(ask.id, ask.side, "morale", f"morale result {d['morale']} on {d['unit']} in {d['hex']}: "
                       f"make a morale check (rating {d['rating']}) or retreat?", "RS/RS 6.62",
                       options={"choice": ["check", "retreat"], **d}, template={"choice": "check"}, policy="morale")

    def _request_retreat(self, state: RsState, ask: Ask) -> Request:
        d = ask.data
        return Request(ask.id, ask.side, "retreat", f"retreat {', '.join(d['units'])} {d['hexes']} hex(es) from "
                       f"{d['hex']}", "RS/RS 6.7", options=dict(d), template={"path": d["options"][0]},
                       policy="retreat")

    def _request_retreat_losses(self, state: RsState, ask: Ask) -> Request:
        d = ask.data
        return Request(ask.id, ask.side, "retreat-losses", f"the retreat of {', '.join(d['units'])} costs the stack "
                       "step losses: which unit takes them first?", "RS/RS 8.4", options=dict(d),
                       template={"order": rt.default_loss_order(state, d["units"], "fewest-factors")},
                       policy="retreat-losses")

    def _request_interdiction_losses(self, state: RsState, ask: Ask) -> Request:
        d = ask.data
        return Request(ask.id, ask.side, "interdiction-losses", f"the enemy stack {', '.join(d['units'])} retreats "
                       "over a bridge next to your interdiction marker: which unit takes its step losses first?",
                       "RS/RS 6.72", options=dict(d),
                       template={"order": rt.default_loss_order(state, d["units"], "most-factors")},
                       policy="interdiction-losses")

    def _answer_interdiction_losses(self, state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
        resolve.answer_interdiction_losses(state, self._combat(state, ask.data["combat"]), answer)

    def _request_target_ties(self, state: RsState, ask: Ask) -> Request:
        d = ask.data
        return Request(ask.id, ask.side, "target-ties", f"units of equal priority and factors in {d['hex']}: in "
                       "which order are they fired on (and take losses)?", "RS/RS 6.25", options=dict(d),
                       template={"order": cm.tie_order(state, d["units"], "highest-proficiency")},
                       policy="target-ties")

    def _request_overstack(self, state: RsState, ask: Ask) -> Request:
        d = ask.data
        return Request(ask.id, ask.side, "overstack", f"{d['hex']} is over the stacking limit: which of "
                       f"{', '.join(d['units'])} go beneath a \"2\" marker?", "RS/RS 4.11",
                       options={"hex": d["hex"], "units": d["units"], "case": d["case"]},
                       template={"units": d["default"]}, policy="overstack")

    def _request_advance(self, state: RsState, ask: Ask) -> Request:
        d = ask.data
        combat = self._combat(state, d["combat"])
        return Request(ask.id, ask.side, "advance", f"{d['hex']} is empty: advance up to {d['hexes']} hex(es)?",
                       "RS/RS 6.8", options=dict(d),
                       template=lambda: {"units": rt.default_advance(state, combat), "path": [d["hex"]]},
                       policy="advance")

    def _request_movement(self, state: RsState, ask: Ask) -> Request:
        side = ask.side

        def options() -> dict[str, Any]:
            supplied = supplied_hexes(state, side)
            movable = {u.id: str(allowance(state, u, False, u.hex in supplied)) for u in state.on_map(side)
                       if not movement.restricted(state, u)}
            return {"units": movable, "support_points": state.support.get(side, 0)}

        return Request(ask.id, side, "movement", f"Movement segment, {state.date()}: trucks and moves in order, "
                       "each with its hasty attacks", "RS/RS 7.0", options=options,
                       template={"trucks": [], "moves": []})

    def _request_reserves(self, state: RsState, ask: Ask) -> Request:
        units = [u.id for u in state.on_map(ask.side) if u.reserve]
        return Request(ask.id, ask.side, "reserves", "Marker Adjustment: Reserve markers to remove or place",
                       "RS/RS 7.61, 7.62",
                       options=lambda: {"units": units, "creatable": reserves.creatable(state, ask.side),
                                        "seen": [u for u in units if u in state.reserve_seen]},
                       template={"release": [], "create": []}, policy="reserves")

    # -- reserve movement (issue 14) --
    def _request_reserve_move(self, state: RsState, ask: Ask) -> Request:
        run = state.movement
        assert run is not None
        last = run.moves[run.index - 1]
        units = {u.id: {"hex": u.hex, "allowance": str(allowance(state, u))}
                 for u in reserves.movable(state, ask.side, run)}
        return Request(ask.id, ask.side, "reserve-move", f"the enemy has moved {', '.join(last['units'])}: "
                       "interrupt with reserve movement?", "RS/RS 7.63",
                       options={"units": units, "enemy_move": dict(last)}, template={"moves": []},
                       policy="reserve-moves")

    def _answer_reserve_move(self, state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
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

    def _reserve_hasty(self, state: RsState, ctx: Context, side: str, run: MovementRun) -> bool:
        """RS/RS 7.63, 7.55: the reserves' hasty attacks, resolved before the phasing player moves on; the
        phasing player (the defender) gives his defence choices first."""
        pending = [self._combat(state, c) for c in run.reserve_combats]
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
            if combat.stage == "waiting" and not self._pay(state, ctx, combat):
                combat.stage = "done"
                continue
            if not resolve.resolve(state, ctx, combat):
                return False
        run.reserve_combats = []
        return True

    def _reserve_interruption(self, state: RsState, ctx: Context, side: str, run: MovementRun) -> bool:
        """RS/RS 7.62, 7.63: after each enemy move and its hasty attacks, reserves may interrupt."""
        if run.reserve_combats and not self._reserve_hasty(state, ctx, side, run):  # RS/RS 7.63
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
    # -- end reserve movement --

    def attack_options(self, state: RsState, side: str) -> dict[str, list[str]]:
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

    # -- applying an answer -------------------------------------------------------------------------------

    def apply(self, state: RsState, request: Request, answer: Any, dice: Dice,
              owned: bool = False) -> tuple[RsState, list[Event]]:
        state = state if owned else copy.deepcopy(state)  # the engine's own copy may be changed in place
        ctx = Context(dice)
        ctx.events, state.opening_events = list(state.opening_events), []
        ask = state.ask
        if ask is None or ask.id != request.id:
            raise RulesError(f"the game does not ask for {request.id} now")
        state.ask = None
        handler: Callable[[RsState, Context, Ask, Any], None] = getattr(
            self, "_answer_" + ask.kind.replace("-", "_"))
        handler(state, ctx, ask, answer)
        self._continue(state, ctx)
        return state, ctx.events

    def _answer_entry_plan(self, state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
        if isinstance(answer, Sealed):
            state.entry_plans[ask.side] = "sealed"
            ctx.emit("sealed", f"{ask.side} seals its reinforcement entry hexes", "RS/RS 4.1", side=ask.side,
                     request=ask.id)
            return
        state.entry_plans[ask.side] = force.check_plan(state, ask.side, answer)
        ctx.emit("entry-plan", f"{ask.side} plans its reinforcement entry (in the clear)", "RS/RS 4.1",
                 side=ask.side, plan=state.entry_plans[ask.side])

    def _answer_unseal(self, state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
        what = ask.data["what"]
        if what == "entry":
            plan = force.check_plan(state, ask.side, answer, revealed=True)
            state.entry_plans[ask.side] = plan
            ctx.emit("unsealed", f"{ask.side} reveals its entry hexes: "
                     f"{', '.join(f'{u} at {h}' for u, h in sorted(plan.items())) or 'none (all delayed)'}",
                     "RS/RS 4.1", side=ask.side, request=ask.data["sealed"], choice=plan)
            return
        self._set_attack_choices(state, ctx, ask.side, answer, revealed=True)
        state.choices_stage = "done"

    def _answer_replacements(self, state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
        force.apply_replacements(state, ctx, ask.side, answer)
        state.force_step = "done" if ask.side == state.first else "second-asked"

    def _answer_combats(self, state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
        """RS/RS 6.0, 6.1: the phasing player's prepared combats, checked before any die."""
        dropped = answer.get("dropped") if isinstance(answer, dict) else None
        if not isinstance(dropped, cm.DroppedParts):  # (only a standing plan's answer carries one)
            dropped = None
        if not isinstance(answer, dict) or set(answer) - {"combats"} - ({"dropped"} if dropped is not None else set()) \
                or not isinstance(answer.get("combats", []), list):
            raise RulesError("a combat order is {combats: [{hex, attackers, night, advance, ...}]} (RS/RS 6.1)")
        for planned, reason in dropped or []:
            ctx.emit("void", f"{ask.side}'s planned combat {planned} (policy combats) is void: {reason}", "RS/RS 6.1",
                     side=ask.side, request=ask.id, source="policy combats", reason=reason)
        used: list[str] = []
        combats = []
        cost = 0
        prefix = f"t{state.turn}/{ask.side}/prepared"
        for number, raw in enumerate(answer.get("combats") or [], start=1):
            combat = cm.parse_declaration(state, ask.side, raw, number, used, "prepared", f"{prefix}/c{number}")
            if combat.inline is not None:
                combat.attack_choice = cm.check_choice(state, combat, "attacker", combat.inline,
                                                       f"combat {number}")
            cost += len(cm.attack_hexes(combat))
            combats.append(combat)
        if cost > state.support.get(ask.side, 0):
            raise RulesError(f"these combats cost {cost} support point(s), one per attacking hex; {ask.side} has "
                             f"{state.support.get(ask.side, 0)} (RS/RS 6.1)")
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

    def _set_attack_choices(self, state: RsState, ctx: Context, side: str, answer: Any, revealed: bool) -> None:
        if not isinstance(answer, dict) or set(answer) != {"combats"} or not isinstance(answer["combats"], dict):
            raise RulesError("attack choices are {combats: {combat id: {lead, armor_protection, fire}}} (RS/RS 6.21)")
        wanted = [c for c in state.combats if c.inline is None and c.attack_choice is None]
        for combat in wanted:
            raw = answer["combats"].get(combat.id)
            if raw is None:
                raise RulesError(f"give the choices for {combat.id} (RS/RS 6.21)")
            combat.attack_choice = cm.check_choice(state, combat, "attacker", raw, combat.id)
            if revealed:
                ctx.emit("unsealed", f"{side} reveals its choices for {combat.id}: lead "
                         f"{', '.join(f'{v} in {k}' for k, v in sorted(combat.attack_choice['lead'].items()))}, "
                         f"armor protection {'yes' if combat.attack_choice['armor_protection'] else 'no'}",
                         "RS/RS 6.22", combat=combat.id, side=side, choice=combat.attack_choice)
        extra = sorted(set(answer["combats"]) - {c.id for c in wanted})
        if extra:
            raise RulesError(f"{extra[0]} is not a combat waiting for your choices")
        support.check_unique(state.combats, "attacker")  # RS/RS 5.1 (issue 14)

    def _answer_attack_choices(self, state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
        if isinstance(answer, Sealed):
            for combat in state.combats:
                if combat.inline is None and combat.attack_choice is None:
                    combat.attack_sealed = True
            ctx.emit("sealed", f"{ask.side} seals its lead units and armor protection", "RS/RS 6.1",
                     side=ask.side, request=ask.id)
        else:
            self._set_attack_choices(state, ctx, ask.side, answer, revealed=False)
        state.choices_stage = "defence"

    def _answer_defence_choices(self, state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
        if not isinstance(answer, dict) or set(answer) != {"combats"} or not isinstance(answer["combats"], dict):
            raise RulesError("defence choices are {combats: {combat id: {lead, armor_protection, fire}}} "
                             "(RS/RS 6.21)")
        for combat in state.combats:
            if combat.id not in ask.data["combats"]:
                continue  # RS/RS 7.63: a reserve's hasty attack is answered on its own
            raw = answer["combats"].get(combat.id)
            if raw is None:
                raise RulesError(f"give the defence choices for {combat.id} (RS/RS 6.21)")
            combat.defence_choice = cm.check_choice(state, combat, "defender", raw, combat.id)
        support.check_unique(state.combats, "defender")  # RS/RS 5.1 (issue 14)
        if ask.data.get("reserve"):
            return  # RS/RS 7.63: the reserves' hasty attacks; the phasing player's choices are long settled
        state.choices_stage = "unseal" if any(c.attack_sealed for c in state.combats) else "done"

    def _answer_morale(self, state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
        resolve.answer_morale(state, self._combat(state, ask.data["combat"]), answer)

    def _answer_retreat(self, state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
        resolve.answer_retreat(state, self._combat(state, ask.data["combat"]), answer)

    def _answer_retreat_losses(self, state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
        resolve.answer_retreat_losses(state, self._combat(state, ask.data["combat"]), answer)

    def _answer_target_ties(self, state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
        combat = self._combat(state, ask.data["combat"])
        resolve.answer_ties(state, combat, ask.data["hex"], answer)
        ctx.emit("target-ties", f"{ask.side} orders its tied units in {ask.data['hex']}: "
                 f"{', '.join(combat.tie_orders[ask.data['hex']])}", "RS/RS 6.25", combat=combat.id,
                 hex=ask.data["hex"], order=list(combat.tie_orders[ask.data["hex"]]))

    def _answer_overstack(self, state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
        pending = state.marks[0]
        units = rt.check_marks(state, pending, answer)
        state.marks.pop(0)
        rt.mark(state, ctx, pending["hex"], units, pending["case"])
        rt.ask_marks(state)

    def _answer_advance(self, state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
        resolve.answer_advance(state, self._combat(state, ask.data["combat"]), answer)

    def _answer_movement(self, state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
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

    def _answer_reserves(self, state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
        if not isinstance(answer, dict) or set(answer) - {"release", "create"}:
            raise RulesError("a reserves answer is {release: [unit ids], create: [unit ids]} (RS/RS 7.61, 7.62)")
        for unit_id in answer.get("create") or []:  # RS/RS 7.61 (issue 14)
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
                raise RulesError(f"{unit_id} has no {ask.side} Reserve marker (RS/RS 7.62)")
            unit.reserve = False
            ctx.emit("reserve", f"{unit_id}'s Reserve marker is removed", "RS/RS 7.62", unit=unit_id)
        state.force_step = "reserves-done"

    # -- policies -----------------------------------------------------------------------------------------

    def check_policy_in(self, state: RsState, side: str, kind: str, rule: Any) -> None:
        """RS/RS 6.1: a combat plan for the current turn is checked against the position it is set in."""
        if kind == "combats" and isinstance(rule, dict) and rule.get("turn") == state.turn and not state.declared:
            cm.check_plan(state, side, rule["combats"])

    def answer_by_policy(self, state: RsState, request: Request, rule: Any) -> Any:
        kind = request.kind
        ask = state.ask
        if ask is None:
            return None
        if kind == "combats" and isinstance(rule, dict):  # RS/RS 5.0, 6.1: the combats planned with the fire
            return cm.planned_combats(state, request.side, rule["combats"]) if rule["turn"] == state.turn else None
        if kind == "attack-choices" and rule == "auto":
            return {"combats": {c.id: cm.auto_choice(state, c, "attacker") for c in state.combats
                                if c.id in ask.data["combats"]}}
        if kind == "defence-choices" and rule == "auto":
            return {"combats": {c.id: cm.auto_choice(state, c, "defender") for c in state.combats
                                if c.id in ask.data["combats"]}}
        if kind == "morale":
            if rule in ("check", "retreat"):
                return {"choice": rule}
            if isinstance(rule, dict):
                return {"choice": "check" if ask.data["rating"] >= rule["check-if-rating-at-least"] else "retreat"}
        if kind == "retreat" and rule == "auto":
            return {"path": ask.data["options"][0]}
        if kind == "overstack" and rule == "newest":
            return {"units": list(ask.data["default"])}
        if kind == "target-ties" and rule != "ask":
            return {"order": cm.tie_order(state, ask.data["units"], rule)}
        if kind in ("retreat-losses", "interdiction-losses") and rule in ("fewest-factors", "most-factors"):
            return {"order": rt.default_loss_order(state, ask.data["units"], rule)}
        if kind == "advance" and rule in ("into-hex", "none"):
            if rule == "none":
                return {"units": []}
            combat = self._combat(state, ask.data["combat"])
            return {"units": rt.default_advance(state, combat), "path": [combat.hex]}
        if kind == "replacements" and rule in ("restore", "none"):
            return force.auto_replacements(state, request.side) if rule == "restore" else {}
        if kind == "fire-missions" and rule == "hold":  # artillery (issue 14)
            return {"missions": []}
        if kind == "counterbattery" and rule == "none":
            return {"fire": []}
        if kind == "counterbattery" and isinstance(rule, dict):
            return counterbattery.standing_order(state, request.side, list(rule["guns"]),
                                                 tuple(rule.get("against", counterbattery.KINDS)))
        if kind == "reserves" and rule in ("keep", "release"):
            return {"release": [] if rule == "keep" else list(request.options["units"])}
        if kind == "reserves" and rule == "after-enemy-move":  # issue 14: no reserve sits out the scenario
            return {"release": list(request.options["seen"])}
        if kind == "reserve-move" and rule == "hold":
            return {"moves": []}
        if kind == "reserve-move" and isinstance(rule, list) and state.movement is not None:
            return reserves.standing(state, request.side, state.movement, rule)
        return None

    def check_policy(self, kind: str, rule: Any) -> None:
        if kind not in POLICIES:
            raise RulesError(f"Red Sun/Red Star has no policy {kind!r} (known: {', '.join(sorted(POLICIES))})")
        if kind == "morale" and isinstance(rule, dict):
            value = rule.get("check-if-rating-at-least")
            if set(rule) != {"check-if-rating-at-least"} or type(value) is not int or not 0 <= value <= 7:
                raise RulesError("policy morale is check, retreat, ask, or {check-if-rating-at-least: N}")
            return
        if kind == "combats" and isinstance(rule, dict):  # RS/RS 6.1: a plan signed before the fire's dice
            turn, combats = rule.get("turn"), rule.get("combats")
            if set(rule) != {"turn", "combats"} or not isinstance(turn, int) or isinstance(turn, bool) or turn < 1 \
                    or not isinstance(combats, list) or not all(isinstance(c, dict) for c in combats):
                raise RulesError("policy combats is ask, or {turn: N, combats: [{hex, attackers, ...}]}: the "
                                 "prepared combats of game turn N, declared when the game asks for them")
            return
        if kind == "reserve-moves" and isinstance(rule, list):  # RS/RS 7.63 conditional orders (issue 14)
            reserves.check_standing(rule)
            return
        if kind == "counterbattery" and isinstance(rule, dict):  # RS/RS 5.41 standing order (issue 14)
            guns = rule.get("guns")
            against = rule.get("against", list(counterbattery.KINDS))
            bad_guns = not isinstance(guns, list) or not all(isinstance(g, str) for g in guns)
            if set(rule) - {"guns", "against"} or bad_guns or not isinstance(against, list) \
                    or set(against) - set(counterbattery.KINDS):
                raise RulesError("policy counterbattery is none, ask, or {guns: [your artillery unit ids], against: "
                                 "[missions, support, counterbattery]}")
            return
        if rule not in POLICIES[kind]:
            raise RulesError(f"policy {kind} is one of {', '.join(POLICIES[kind])}, not {rule!r}")

    # -- the walk through the sequence of play ------------------------------------------------------------

    def _continue(self, state: RsState, ctx: Context) -> None:
        """Carry out whatever needs no decision, segment after segment (RS/RS 3.1-3.2)."""
        while not state.finished and state.ask is None:
            segment = TURN[state.segment]
            side = segment_side(state.segment, state.first, state.second)
            if not state.segment_started:
                state.segment_started = True
                self._start_segment(state, ctx)
                continue
            if not segment.implemented:
                self._next_segment(state)
                continue
            handler: Callable[[RsState, Context, str | None], bool] = getattr(
                self, "_run_" + segment.key.replace("-", "_"))
            if handler(state, ctx, side):
                self._next_segment(state)

    def _start_segment(self, state: RsState, ctx: Context) -> None:
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
        state.cb = {}  # RS/RS 5.41 (issue 14)
        state.missions = []
        if segment.key == "reinforcement-planning":
            state.entry_plans = {}
            force.receive_points(state, ctx)
        elif segment.key == "force-adjustment":
            state.player_turn += 1

    def _next_segment(self, state: RsState) -> None:
        state.segment += 1
        state.segment_started = False
        if state.segment >= len(TURN):
            state.segment = 0
            state.turn += 1

    def _run_reinforcement_planning(self, state: RsState, ctx: Context, side: str | None) -> bool:
        """RS/RS 3.2, 4.1: each side with reinforcements due notes its entry hexes, secretly.

        The second player is asked first (the rules leave the order open: both note them secretly): his
        entry hexes stay hidden until his own player turn, so he seals them, and he can do so in the packet
        that ends the turn before. The first player answers after him and reveals his at once in his Force
        Adjustment segment, so his need no seal (docs/red-star/interpretations.md, RS/RS 3.2)."""
        for who in (state.second, state.first):
            if force.arriving(state, who) and who not in state.entry_plans:
                state.ask = Ask("entry-plan", who, f"t{state.turn}/planning/{who}/entry")
                return False
        return True

    def _run_force_adjustment(self, state: RsState, ctx: Context, side: str | None) -> bool:
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
        # RS/RS 3.2 item 3, 4.2: both players spend replacement points in the first player's Force Adjustment
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

    def _run_prepared_combat(self, state: RsState, ctx: Context, side: str | None) -> bool:
        """RS/RS 6.0-6.9: declare, choose in secret, then resolve each combat in order."""
        assert side is not None
        if not state.declared:
            if not self.attack_options(state, side):
                ctx.emit("declared", f"no {side} unit is next to an enemy unit: no prepared combat", "RS/RS 6.0",
                         combat=None)
                return True
            state.ask = Ask("combats", side, f"t{state.turn}/{side}/prepared/combats")
            return False
        if not self._choices(state, side, "prepared"):
            return False
        if state.combat_index == 0 and not self._support_counterbattery(state, ctx, side):  # RS/RS 5.41 (issue 14)
            return False
        while state.combat_index < len(state.combats):
            combat = state.combats[state.combat_index]
            if combat.stage == "waiting" and not self._pay(state, ctx, combat):
                combat.stage = "done"
            if not resolve.resolve(state, ctx, combat):
                return False
            state.combat_index += 1
        return True

    def _pay(self, state: RsState, ctx: Context, combat: Combat) -> bool:
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
        ctx.emit("support", f"{combat.attacker} spends {cost} support point(s) on {combat.id} "
                 f"({state.support[combat.attacker]} left)", "RS/RS 6.1", side=combat.attacker, spent=cost,
                 left=state.support[combat.attacker])
        return True

    def _choices(self, state: RsState, side: str, where: str) -> bool:
        """RS/RS 6.1, 6.21, 6.22: the attacker's secret choices, the defender's, then the attacker unseals."""
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
            state.ask = Ask("unseal", side, f"{sealed}:unseal", {"sealed": sealed, "what": "attack",
                                                                 "case": "RS/RS 6.21"})
            return False
        return True

    def _run_movement(self, state: RsState, ctx: Context, side: str | None) -> bool:
        """RS/RS 7.0-7.5: carry out the movement order, resolving hasty attacks where stacks stop."""
        assert side is not None
        run = state.movement
        if run is None:
            reserves.note_enemy_segment(state, side)  # RS/RS 7.62 default policy (issue 14)
            state.ask = Ask("movement", side, f"t{state.turn}/{side}/movement/orders")
            return False
        if not self._choices(state, side, "movement"):
            return False
        while run.index < len(run.moves):
            if not self._reserve_interruption(state, ctx, side, run):  # RS/RS 7.63 (issue 14)
                return False
            move = run.moves[run.index]
            if not run.executing:
                self._execute_move(state, ctx, side, move, run)
                run.executing = True
            for combat_id in move["hasty"]:
                combat = self._combat(state, combat_id)
                if combat.stage == "done":
                    continue
                if combat.stage == "waiting":
                    if not self._pay(state, ctx, combat):
                        combat.stage = "done"
                        continue
                    run.attacked += [u for u in combat.attackers if u not in run.attacked]
                if not resolve.resolve(state, ctx, combat):
                    return False
            run.index += 1
            run.executing = False
        if not self._reserve_interruption(state, ctx, side, run):  # RS/RS 7.63 (issue 14)
            return False
        self._end_movement(state, ctx, side, run)
        return True

    def _execute_move(self, state: RsState, ctx: Context, side: str, raw: dict[str, Any], run: MovementRun) -> None:
        move = movement.Move(tuple(raw["units"]), tuple(raw["path"]), dict(raw["drop"]), raw["operational"], [],
                             raw["number"])
        alive = [u for u in move.units if state.units[u].on_map]
        if alive and not move.path and raw.get("bridge"):  # RS/RS 11.2 pick-up or destruction without moving
            bridges.act(state, ctx, side, alive, raw["bridge"], {u: movement.allowance_of(state, state.units[u])
                                                                 for u in alive}, standing=True)
        if not alive or not move.path:
            return
        first = state.units[alive[0]].hex
        move.units = tuple(u for u in alive if state.units[u].hex == first)
        walked = artillery.walk_interdicted(state, ctx, side, move)  # RS/RS 5.22 (issue 14)
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
        self._carry(state)
        reserves.lose_in_zoc(state, ctx, side)  # RS/RS 7.62 (issue 14)
        if raw.get("bridge"):  # RS/RS 11.1, 11.2 (issue 14)
            bridges.act(state, ctx, side, list(move.units), raw["bridge"], walked.left)
        bridges.soviet_adjacency(state, ctx, side, entered, raw.get("bridge"))
        if walked.problem:
            ctx.emit("path-cut", f"move {move.number} stops early: {walked.problem}", "RS/RS 7.1",
                     move=move.number, reason=walked.problem)

    def _carry(self, state: RsState) -> None:
        """The bridge counter stays with the engineer carrying it (RS/RS 11.2; bridges are a later issue)."""
        for bridge_id, engineer_id in sorted(state.carriers.items()):
            engineer = state.units.get(engineer_id)
            if engineer is not None and engineer.on_map:
                state.units[bridge_id].hex = engineer.hex

    def _end_movement(self, state: RsState, ctx: Context, side: str, run: MovementRun) -> None:
        """RS/RS 9.0: stacking is checked at the end of the segment; units still over go beneath a "2"."""
        reserves.pick_up_at_segment_end(state, ctx, run)  # RS/RS 11.2, a reserve engineer (issue 14)
        hexes = sorted({state.units[u].hex or "" for u in run.moved if state.units[u].on_map})
        for hex_id in hexes:
            if stacking.hex_problem(state, hex_id, side):
                rt.overstack(state, ctx, hex_id, side, [u for u in run.moved if state.units[u].hex == hex_id],
                             "RS/RS 9.0")
        self._carry(state)

    def _run_marker_adjustment(self, state: RsState, ctx: Context, side: str | None) -> bool:
        """RS/RS 3.1, 5.7, 7.4, 7.62: the phasing side's Fired, Disruption and truck markers come off."""
        assert side is not None
        if state.force_step == "":
            for unit in state.on_map(side):
                removed = [name for name, on in (("Fired", unit.fired), (f"\"{unit.disruption}\"", unit.disruption),
                                                 ("truck", unit.truck)) if on]
                if removed:
                    unit.fired = unit.truck = False
                    unit.disruption = 0
                    ctx.emit("markers", f"{unit.id}: {', '.join(removed)} marker(s) removed", "RS/RS 5.7",
                             unit=unit.id)
            state.force_step = "reserves"
            if any(u.reserve for u in state.on_map(side)) or reserves.creatable(state, side):
                state.ask = Ask("reserves", side, f"t{state.turn}/{side}/markers/reserves")
                return False
        return True

    def _run_turn_completion(self, state: RsState, ctx: Context, side: str | None) -> bool:
        """RS/RS 3.1: the game turn ends; after the last one the scenario is scored (13.1)."""
        for unit in state.units.values():
            unit.no_move = False
        if state.turn >= len(state.dates):
            state.finished = True
            victory.score(state, ctx)
            ctx.emit("game-over", f"the scenario ends after {state.date()}", "RS/RS 13.1")
            return False
        return True

    # -- the result ---------------------------------------------------------------------------------------

    def result(self, state: RsState) -> dict[str, Any] | None:
        """RS/RS 13.1: once the scenario has ended, ``{"winner", "level", "case", ...}``; None before that.

        ``winner`` is ``japan``, ``soviet`` or None (a draw); ``level`` ``decisive``, ``significant``,
        ``marginal`` or ``draw``; ``title`` the rulebook's name of the level; ``points`` each side's total.
        """
        if not state.finished:
            return None
        return victory.outcome(state)

    # -- the bot ------------------------------------------------------------------------------------------

    def bot(self, state: RsState, request: Request) -> list[dict[str, Any]]:
        """Legal inputs for ``request`` in orders-file form (rsr.rulesets.red_star.bot)."""
        from rsr.rulesets.red_star import bot

        if request.kind == "fire-missions":  # issue 14: the bot's artillery plan
            missions = bot.fire_missions(state, request.side)
            return bot.combats_planned_with(state, request.side, missions) + [
                {"request": request.id, "answer": missions}]
        inputs = bot.answer(state, request)
        if request.kind == "attack-choices":  # issue 14: offensive support (RS/RS 5.31)
            inputs = bot.support_for_attacks(state, request, inputs)
        return inputs

    # -- helpers and views --------------------------------------------------------------------------------

    def _combat(self, state: RsState, combat_id: str) -> Combat:
        for combat in state.combats:
            if combat.id == combat_id:
                return combat
        raise RulesError(f"no combat {combat_id} is in progress")

    def report_tables(self, events: list[Event]) -> list[tuple[str, list[str]]]:
        from rsr.rulesets.red_star.report import tables

        return tables(events)

    def state_json(self, state: RsState) -> Any:
        """The state that the digest covers: not the scenario's fixed turn track, dates and restrictions,
        which the scenario hash in the invitation already pins (and which would make every digest cost
        as much as the scenario is long)."""
        from rsr.engine import to_jsonable

        return {k: to_jsonable(v) for k, v in self.state_fields(state).items()}

    def state_fields(self, state: RsState) -> dict[str, Any]:
        """The state's fields that the digest covers, as they are (``state_json`` is their JSON form)."""
        return {k: v for k, v in state.__dict__.items() if k not in FIXED_STATE}

    def describe(self, state: RsState) -> list[str]:
        segment = TURN[state.segment]
        side = segment_side(state.segment, state.first, state.second)
        lines = [f"{state.date()} (turn {state.turn} of {len(state.dates)}), {segment.name}"
                 + (f" ({side})" if side else ""),
                 "support points: " + ", ".join(f"{s} {v}" for s, v in sorted(state.support.items())),
                 "replacement points: " + "; ".join(
                     f"{s} " + (", ".join(f"{k} {v}" for k, v in sorted(p.items()) if v) or "none")
                     for s, p in sorted(state.replacement_points.items()))]
        by_hex: dict[str, list[str]] = {}
        for unit in state.on_map():
            counter = state.counter(unit.id)
            face = counter.face(unit.reduced)
            marks = []
            if unit.disruption:
                marks.append(f"D{unit.disruption}")
            if unit.fired:
                marks.append("fired")
            if unit.reserve:
                marks.append("reserve")
            if unit.truck:
                marks.append("truck")
            values = f"{face.combat}-{face.range}-{face.movement}" if face.range else f"{face.combat}-{face.movement}"
            by_hex.setdefault(unit.hex or "?", []).append(
                f"{unit.id} {values}{' r' if unit.reduced else ''}" + (f" [{' '.join(marks)}]" if marks else ""))
        for hex_id in sorted(by_hex):
            lines.append(f"  {hex_id} [{state.static.terrain.get(hex_id, '?')}]: " + ", ".join(by_hex[hex_id]))
        waiting = [u.id for u in state.units.values() if u.status == ARRIVING]
        if waiting:
            lines.append("arriving: " + ", ".join(sorted(waiting)))
        return lines


register(RedStar.id)(RedStar)
