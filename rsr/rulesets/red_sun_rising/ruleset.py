"""The Red Sun Rising ruleset: the engine interface over the stages implemented so far (RSR 4.0)."""

from __future__ import annotations

import copy
import functools
from typing import TYPE_CHECKING, Any

from rsr.engine import Context, Event, Request
from rsr.errors import BadInput, RulesError
from rsr.fairdice import Dice, NoDice
from rsr.rulesets import register
from rsr.rulesets.red_sun_rising import (
    activation,
    combat,
    defences,
    movement,
    reinforcements,
    stacking,
    supply,
    victory,
)
from rsr.rulesets.red_sun_rising.data import load_static
from rsr.rulesets.red_sun_rising.hooks import RsrHooks
from rsr.rulesets.red_sun_rising.sequence import ASSAULT_ROUNDS, IMPLEMENTED, STAGES
from rsr.rulesets.red_sun_rising.state import Attack, PendingLoss, RsrState, Unit
from rsr.words import plural

if TYPE_CHECKING:
    from rsr.rulesets.red_sun_rising.naval import flow as naval_flow  # issue 12
else:
    class _NavalFlow:
        """naval/flow.py (issue 12), imported when the rules first need it: a land game's ``rsr status`` never
        does (issue 24, start-up)."""

        def __getattr__(self, name: str) -> Any:
            from rsr.rulesets.red_sun_rising.naval import flow

            return getattr(flow, name)

    naval_flow = _NavalFlow()

LOSS_RULES = ("reduce-first", "weakest-first", "ask")
POLICIES: dict[str, tuple[str, ...]] = {
    "step-losses": LOSS_RULES,                   # RSR 11.5
    "overstack": ("weakest-first", "ask"),       # RSR 12.2
    "assignments": ("keep", "ask"),              # RSR 14.0
    "retreat": ("never", "ask"),                 # RSR 11.1 (or {adjacent-to-cp: N})
    "trenches": ("build", "never", "ask"),       # RSR 13.1
    "fleets": ("stay", "ask"),                   # RSR 10.25
    "feeding": ("most-points", "ask"),           # RSR 10.32, 10.42
    "disband": ("never", "ask"),                 # RSR 18.5 (naval game, issue 12)
    "raid": ("most-cargo", "lowest-id", "ask"),  # RSR 7.2: which merchant fleet a raid sinks (issue 22)
    "later-rounds": ("repeat", "stop", "ask"),   # RSR 4.24, 11.24-11.25: assault rounds 2 and 3
}


# Rules options a scenario or an invite may switch on, each read by the engine and tested by a case.
KNOWN_OPTIONS: dict[str, str] = {
    "rail-stacking-4": "RSR 9.46: a rail hex holds at most 4 command points (the lower of rail and terrain limits)",
}


def check_options(options: dict[str, Any], where: str) -> None:
    """Refuse an option the ruleset does not know: an option that does nothing is a silent rules change."""
    for name in sorted(options):
        if name not in KNOWN_OPTIONS:
            known = ", ".join(sorted(KNOWN_OPTIONS))
            raise BadInput(f"{where}: unknown Red Sun Rising option {name!r} (known: {known})")
        if type(options[name]) is not bool:  # ("false", a string, once switched the rule on)
            raise BadInput(f"{where}: option {name!r} is true or false, not {options[name]!r}")


# fields of RsrState left out of the state digest: the scenario's fixed data (pinned by its hash) and the
# static tables (as RsrState.to_json leaves them out)
FIXED_STATE = ("sequence", "turns", "static", "naval_static")


class RedSunRising(RsrHooks):
    """Red Sun Rising (SPI 1977). See docs/red-sun-rising/coverage.md for what is implemented."""

    id = "red-sun-rising"
    version = "0.3"  # 0.2: the state digest leaves out the fixed scenario data (FIXED_STATE); 0.3: issue 22 (rules
    # as written: surprise attack and sealed Russian sailing orders change the naval requests, 18.9 retreats)
    sides = ("russia", "japan")
    known_options = KNOWN_OPTIONS
    policy_defaults: dict[str, Any] = {"step-losses": "reduce-first", "overstack": "weakest-first",
                                       "assignments": "ask", "retreat": "never", "trenches": "build",
                                       "fleets": "stay", "feeding": "most-points", "disband": "never",
                                       "raid": "most-cargo", "later-rounds": "repeat"}

    # -- set-up ---------------------------------------------------------------------------------------

    def initial_state(self, scenario: Any, options: dict[str, Any]) -> RsrState:
        data = scenario.data
        static = load_static(data)
        spec = data["scenario"]
        for key in spec["sequence"]:
            if key not in STAGES:
                raise BadInput(f"scenario {scenario.name}: unknown stage {key!r}")
            if key not in IMPLEMENTED:
                raise BadInput(f"scenario {scenario.name}: stage {key!r} is not implemented yet")
        check_options(dict(spec.get("options", {})), f"scenario {scenario.name}")
        check_options(dict(options), "rules options")
        first = int(spec.get("first_turn", 1))
        state = RsrState(static=static, sequence=list(spec["sequence"]), turns=int(spec["turns"]), turn=first,
                         last_turn=first + int(spec["turns"]) - 1, options=dict(spec.get("options", {})))
        state.options.update(options)
        state.control = {h: side for h, side in sorted(spec.get("control", {}).items())}
        for item in spec["setup"]:
            counter = static.counter(item["unit"])
            if item["unit"] in state.units:
                raise BadInput(f"scenario {scenario.name}: unit {item['unit']} is set up twice")
            hex_id = item["hex"]
            if not static.grid.on_map(hex_id) or static.terrain.get(hex_id, "sea") == "sea":
                raise BadInput(f"scenario {scenario.name}: {item['unit']} is set up in {hex_id}, not a land hex")
            state.units[counter.id] = Unit(
                id=counter.id, side=counter.side, hex=hex_id, steps=int(item.get("steps", counter.steps)),
                activated=bool(item.get("activated", False)), in_supply=bool(item.get("in_supply", True)),
                assigned_to=item.get("assigned_to"),
            )
        state.trenches = {h: int(level) for h, level in sorted(spec.get("trenches", {}).items())}
        state.supply_levels = {"0801": 6, "2937": 3}  # RSR 10.12
        state.supply_levels.update({h: int(v) for h, v in sorted(spec.get("supply_levels", {}).items())})
        for fleet, where in sorted(spec.get("merchant_fleets", {}).items()):
            state.merchant_fleets[fleet] = where if isinstance(where, str) else where["hex"]
            if isinstance(where, dict) and where.get("blockade"):
                state.blockade_fleets.append(fleet)
        state.command_points = int(spec.get("command_points", 0))
        state.replacement_steps = int(spec.get("replacement_steps", 0))
        state.destroyed_fortresses = sorted(spec.get("destroyed_fortresses", []))
        # -- naval game (issue 12): ships, fleets and merchant fleets with their cargo (19.1-19.2)
        from rsr.rulesets.red_sun_rising.naval.data import load_naval  # issue 12 (imported here: issue 24)

        state.naval_static = load_naval(data)
        if state.naval_static is not None:
            state.naval = naval_flow.setup(state, state.naval_static, spec.get("naval") or {}, _embarked_unit)
        elif "naval" in spec["sequence"]:
            raise BadInput(f"scenario {scenario.name}: the naval stage needs include naval and naval_map")
        # -- end naval game
        reinforcements.check_foreign_aid(state, Context(NoDice()))  # achievements made before the start
        if supply.plays_supply_stage(state, "japan"):
            # RSR 10.32 with 4.21: the Japanese units a scenario states in supply were fed in the Supply Stage
            # before the start; that unplayed sharing-out is taken to be the default one (interpretations.md)
            stated = {u for u, unit in state.units.items() if unit.side == "japan" and unit.in_supply}
            state.fed_by = {u: f for u, f in supply.feeding_by_policy(state).items() if u in stated}
        # the first stage's automatic start needs no die (supply, reinforcement points, arrivals); its events
        # are reported with the first resolution
        opening = Context(NoDice())
        self._continue(state, opening)
        state.opening_events = opening.events
        return state

    # -- the oracle: who must act now -------------------------------------------------------------------

    def next_request(self, state: RsrState) -> Request | None:
        if state.finished:
            return None
        stage = STAGES[state.stage_key()]
        base = f"t{state.turn}/{stage.key.replace('.', '/')}"
        # -- naval game (issue 12)
        if stage.key == "naval":
            return naval_flow.next_request(state, base)
        if stage.key == "japan.reinforcement" and state.naval is not None:
            landing = naval_flow.landing_request(state, base)
            if landing is not None:
                return landing
        if stage.key == "russia.reinforcement" and state.naval is not None:
            disband = naval_flow.disband_request(state, base)
            if disband is not None:
                return disband
        # -- end naval game
        if stage.key == "end":
            side = self.sides[state.end_phase]
            return Request(
                id=f"{base}/{side}/trenches", side=side, kind="trenches",
                prompt=f"End Stage: trench levels to build ({side})", case="RSR 13.11",
                options=lambda: {"hexes": defences.trench_sites(state, side)},
                template=lambda: {"build": defences.trench_sites(state, side)}, policy="trenches")
        assert stage.side is not None
        acting: str = stage.side  # (for the lazy options below)
        if stage.key == "japan.supply" and state.feeding_due:
            def feeding_options() -> dict[str, Any]:
                options = supply.feeding_options(state)
                return {"units": {u: f for u, f in options.items() if f}, "fleets": supply.japanese_fleets(state),
                        "points": {u: activation.command_value(state, state.units[u]) for u in options if options[u]}}

            return Request(
                id=f"{base}/feeding", side="japan", kind="fleet-feeding",
                prompt="Supply Stage: which units each merchant fleet feeds (four command points a fleet)",
                case="RSR 10.32", options=feeding_options,
                template=lambda: {"feed": supply.feeding_by_policy(state)}, policy="feeding")
        if stage.key == "japan.supply":
            return Request(
                id=f"{base}/fleets", side="japan", kind="fleet-moves",
                prompt="end of the Supply Stage: shift merchant fleets on the land map", case="RSR 10.25",
                options=lambda: {"fleets": {f: supply.fleet_destinations(state, f)
                                            for f in sorted(state.merchant_fleets)}},
                template={"moves": {}}, policy="fleets")
        if stage.key.endswith("reinforcement"):
            return self._assignment_request(state, stage.side, base, stage.name)
        if stage.key.endswith("movement"):
            if state.pending_overstack:
                hex_id = state.pending_overstack[0]
                return Request(
                    id=f"{base}/overstack/{hex_id}", side=stage.side, kind="overstack",
                    prompt=f"{hex_id} is over its stacking limit of {stacking.stacking_limit(state, hex_id)}: "
                           "choose the units to eliminate",
                    case="RSR 12.2",
                    options={"hex": hex_id, "units": [u.id for u in state.units_in(hex_id, stage.side)]},
                    template=lambda: {"eliminate": stacking.excess_by_policy(state, hex_id, acting)},
                    policy="overstack")
            return self._movement_request(state, stage.side, base, stage.name)
        prefix = f"{base}/r{state.assault_round}"
        if state.pending_loss is None and not state.retreat_done:
            defender = combat.enemy_of(stage.side)
            return Request(
                id=f"{prefix}/retreats", side=defender, kind="retreats",
                prompt=f"{stage.name}, before assault round {state.assault_round}: units to retreat before combat",
                case="RSR 11.11", options=lambda: {"units": combat.retreat_candidates(state, defender)},
                template={"retreats": []}, policy="retreat")
        if state.pending_loss is not None:
            loss = state.pending_loss
            return Request(
                id=f"{prefix}/a{loss.attack_index + 1}/{loss.role}-losses",
                side=loss.side,
                kind="step-losses",
                prompt=f"choose {loss.steps} step loss(es) among your {loss.role} units in attack "
                       f"{loss.attack_index + 1}",
                case="RSR 11.5",
                options={"steps": loss.steps, "units": list(loss.units)},
                template={"units": loss.units[: loss.steps]},
                policy="step-losses",
            )
        return Request(
            id=f"{prefix}/attacks",
            side=stage.side,
            kind="land-combat-attacks",
            prompt=f"{stage.name}, assault round {state.assault_round} of {ASSAULT_ROUNDS}: declare attacks "
                   "(none ends the stage)" + ("; later rounds follow your policy later-rounds (default: repeat "
                                              "at the same odds or better; set it to ask to be asked)"
                                              if state.assault_round == 1 else ""),
            case="RSR 11.2",
            options=lambda: self.attack_options(state, acting),
            template={"attacks": [{"hex": "HHHH", "attackers": ["unit-id"], "command": None, "advance": []}],
                      "advance_into": {h: [] for h in state.retreat_results}, "last_round": False},
            policy="later-rounds" if state.assault_round > 1 else None,
        )

    def _assignment_request(self, state: RsrState, side: str, base: str, name: str) -> Request:
        """RSR 14.0: assign or re-assign combat units to command units in the Reinforcement Stage."""
        units = {u.id: u.assigned_to for _, u in sorted(state.units.items())
                 if u.side == side and u.hex and u.steps > 0 and activation.kind(state, u) == "combat"}
        commands = [u.id for _, u in sorted(state.units.items())
                    if u.side == side and u.hex and u.steps > 0 and activation.kind(state, u) != "combat"]
        return Request(
            id=f"{base}/assign", side=side, kind="assignments",
            prompt=f"{name}: assign or re-assign combat units to command units; builds, rebuilds, resupply "
                   "and where arriving command units are placed",
            case="RSR 14.0", options={"units": units, "command_units": commands,
                                      "arrivals": {u: list(reinforcements.RAILHEADS)
                                                   for u in reinforcements.arrivals_this_stage(state, side)}},
            template={"assign": {}}, policy="assignments")

    def _movement_request(self, state: RsrState, side: str, base: str, name: str) -> Request:
        """RSR 4.23: the activation order and each unit's path, executed roll by roll."""
        @functools.cache
        def units() -> dict[str, dict[str, Any]]:  # built only when the options or the template are read
            found = {}
            for _, unit in sorted(state.units.items()):
                if unit.side != side or not unit.hex or unit.steps <= 0:
                    continue
                found[unit.id] = {"hex": unit.hex, "kind": activation.kind(state, unit),
                                  "movement": str(movement.movement_allowance(state, unit)),
                                  "assigned_to": unit.assigned_to}
            return found

        def template() -> dict[str, Any]:
            chain = [u for u, info in units().items() if info["kind"] == "shq"]
            chain += [u for u, info in units().items() if info["kind"] == "army"]
            chain += [u for u, info in units().items() if info["kind"] == "combat" and info["assigned_to"]]
            return {"steps": [{"unit": u, "path": []} for u in chain]}

        return Request(
            id=f"{base}/orders", side=side, kind="land-movement",
            prompt=f"{name} ({activation.month(state)}, {activation.season(state)}): activation order and paths",
            case="RSR 4.23", options=lambda: {"units": units()}, template=template)

    def attack_options(self, state: RsrState, side: str) -> dict[str, Any]:
        """Every unit that may attack now and the enemy hexes next to it (RSR 11.0, 11.21)."""
        grid = state.static.grid
        options: dict[str, list[str]] = {}
        for unit_id, unit in sorted(state.units.items()):
            if unit.side != side or unit.steps <= 0 or unit.hex is None or combat.may_attack(state, unit):
                continue
            targets = [h for h in grid.neighbours(unit.hex) if state.units_in(h, combat.enemy_of(side))]
            if targets:
                options[unit_id] = targets
        return {"attackers": options}

    # -- applying an answer ---------------------------------------------------------------------------

    def apply(self, state: RsrState, request: Request, answer: Any, dice: Dice,
              owned: bool = False) -> tuple[RsrState, list[Event]]:
        state = state if owned else copy.deepcopy(state)  # the engine's own copy may be changed in place
        ctx = Context(dice)
        ctx.events, state.opening_events = list(state.opening_events), []
        if request.kind == "land-combat-attacks":
            self._declare_attacks(state, ctx, request.side, answer)
        elif request.kind == "step-losses":
            self._take_losses(state, ctx, answer)
        elif request.kind == "assignments":
            reinforcements.reinforcement_answer(state, ctx, request.side, answer, self._assign)
            self._next_stage(state)
            # the report heads what follows (the activation dice of the movement stage) with its own stage;
            # an event only, emitted in apply: never in the state's opening events, so no digest changes
            stage = STAGES[state.stage_key()]
            ctx.emit("segment", stage.name, f"RSR {stage.case}", stage=stage.key)
        elif request.kind == "fleet-feeding":
            if not isinstance(answer, dict) or set(answer) != {"feed"} or not isinstance(answer["feed"], dict):
                raise RulesError("a feeding answer is {feed: {unit: merchant fleet}}")
            feed = {str(k): str(v) for k, v in answer["feed"].items()}
            supply.check_feeding(state, feed)
            supply.judge_japanese_supply(state, ctx, feed)
            supply.attrition(state, ctx, "japan")
            state.feeding_due = False
        elif request.kind == "fleet-moves":
            if not isinstance(answer, dict) or not isinstance(answer.get("moves", {}), dict):
                raise RulesError("a fleet answer is {moves: {fleet: hex}}")
            supply.move_fleets(state, ctx, {str(k): str(v) for k, v in answer.get("moves", {}).items()})
            state.fleets_moved = True
        elif request.kind == "retreats":
            if not isinstance(answer, dict) or not isinstance(answer.get("retreats"), list):
                raise RulesError("a retreat answer is {retreats: [{unit, path}]}")
            combat.retreat_before_combat(state, ctx, request.side, answer["retreats"])
            state.retreat_done = True
        elif request.kind == "trenches":
            if not isinstance(answer, dict) or not isinstance(answer.get("build"), list):
                raise RulesError("a trench answer is {build: [hexes]}")
            defences.build_trenches(state, ctx, request.side, [str(h) for h in answer["build"]])
            state.end_phase += 1
        elif request.kind == "land-movement":
            steps = movement.parse_order(state, request.side, answer)
            movement.execute(state, ctx, steps)
            reinforcements.check_foreign_aid(state, ctx)
            state.pending_overstack = stacking.overstacked(state, request.side)
            if not state.pending_overstack:
                self._end_movement(state, ctx)
        elif request.kind == "overstack":
            self._overstack(state, ctx, request.side, answer)
        # -- naval game (issue 12)
        elif request.kind in ("sailing-orders", "naval-round", "battle-plan", "battle-plan-unseal",
                              "naval-surprise-attack", "naval-routes", "naval-routes-unseal", "naval-raid") \
                or request.kind in naval_flow.BATTLE_KINDS:  # + issue 13
            naval_flow.apply(state, ctx, request, answer)
        elif request.kind == "naval-landings":
            naval_flow.apply_landings(state, ctx, answer)
        elif request.kind == "naval-disband":
            naval_flow.apply_disband(state, ctx, answer, _embarked_unit)
        # -- end naval game
        else:
            raise RulesError(f"Red Sun Rising has no request of kind {request.kind!r}")
        self._continue(state, ctx)
        return state, ctx.events

    def _declare_attacks(self, state: RsrState, ctx: Context, side: str, answer: Any) -> None:
        """RSR 11.2, 11.22-11.25, 4.24: the phasing player's attacks for one assault round.

        Each attack may name the units that advance if the hex is left empty (11.3); ``advance_into`` names
        units to move into hexes the defender left by retreating before combat (11.13).
        """
        if not isinstance(answer, dict) or not isinstance(answer.get("attacks"), list) \
                or set(answer) - {"attacks", "last_round", "advance_into"}:
            raise RulesError("an attack order is {attacks: [{hex, attackers, command, advance}], advance_into, "
                             "last_round}")
        attacks: list[Attack] = []
        scratch = copy.deepcopy(state)
        for number, raw in enumerate(answer["attacks"], start=1):
            if not isinstance(raw, dict) or set(raw) - {"hex", "attackers", "command", "advance"}:
                raise RulesError(f"attack {number}: give hex, attackers and optionally command and advance")
            attackers = raw.get("attackers")
            advance = raw.get("advance") or []
            if not isinstance(raw.get("hex"), str) or not isinstance(attackers, list) or not all(
                isinstance(a, str) for a in attackers
            ) or not isinstance(advance, list):
                raise RulesError(f"attack {number}: hex is a hex number, attackers and advance lists of unit ids")
            attack = Attack(raw["hex"], list(attackers), raw.get("command"), [str(a) for a in advance])
            try:
                combat.check_attack(scratch, side, attack)
            except RulesError as exc:
                raise RulesError(f"attack {number} on {attack.defender_hex}: {exc}") from exc
            if set(attack.advance) - set(attack.attackers):
                raise RulesError(f"attack {number}: only its attackers may advance into {attack.defender_hex} "
                                 "(RSR 11.3)")
            for unit_id in attack.advance:
                why = combat.check_may_advance(state, state.units[unit_id], attack.defender_hex)
                if why:
                    raise RulesError(f"attack {number}: {unit_id} may not advance into {attack.defender_hex}: {why}")
            scratch.round.attacked += attack.attackers
            scratch.round.defended += [u.id for u in scratch.units_in(attack.defender_hex, combat.enemy_of(side))]
            if attack.command:
                scratch.round.commands_used.append(attack.command)
            attacks.append(attack)
        into = answer.get("advance_into") or {}
        if not isinstance(into, dict):
            raise RulesError("advance_into is {hex: [unit ids]}")
        for hex_id, units in sorted(into.items()):
            if hex_id not in state.retreat_results:
                raise RulesError(f"{hex_id} was not left by a retreat before combat this round (RSR 11.13)")
            for unit_id in units:
                unit = state.units.get(unit_id)
                if unit is None or unit.side != side or not unit.hex or unit.steps <= 0 \
                        or not state.static.grid.adjacent(unit.hex, hex_id) or not unit.activated:
                    raise RulesError(f"{unit_id} is not an activated {side} unit next to {hex_id} (RSR 11.13)")
                why = combat.check_may_advance(state, unit, hex_id)
                if why:
                    raise RulesError(f"{unit_id} may not advance into {hex_id}: {why}")
        state.advance_into = {h: [str(u) for u in units] for h, units in sorted(into.items())}
        state.declared_round = [combat.declared_record(state, side, a) for a in attacks]
        state.attacks = attacks
        state.next_attack = 0
        state.last_round = bool(answer.get("last_round", False)) or not attacks
        if not attacks:
            ctx.emit("stage", f"{side} declares no attacks in assault round {state.assault_round}", "RSR 11.24")

    def _take_losses(self, state: RsrState, ctx: Context, answer: Any) -> None:
        pending = state.pending_loss
        if pending is None:
            raise RulesError("no step losses are waiting")
        if not isinstance(answer, dict) or not isinstance(answer.get("units"), list):
            raise RulesError("a step-loss answer is {units: [unit ids, one per step]}")
        combat.check_loss_choice(pending, state, answer["units"])
        for unit_id in answer["units"]:
            combat.lose_step(state, ctx, state.units[unit_id])
        attack = state.attacks[pending.attack_index]
        if pending.role == "defender":
            attack.defender_done = True
        else:
            attack.attacker_done = True
        state.pending_loss = None

    def answer_by_policy(self, state: RsrState, request: Request, rule: Any) -> Any:
        if request.kind == "step-losses" and rule in ("reduce-first", "weakest-first"):
            pending = state.pending_loss
            assert pending is not None
            units = [state.units[u] for u in pending.units if state.units[u].steps > 0]
            return {"units": combat.loss_order(state, units, rule)[: pending.steps]}
        if request.kind == "overstack" and rule == "weakest-first":
            return {"eliminate": stacking.excess_by_policy(state, request.options["hex"], request.side)}
        if request.kind == "assignments" and rule == "keep":
            return {"assign": {}}
        if request.kind == "retreats" and rule != "ask":
            return {"retreats": [] if rule == "never" else combat.retreat_by_rule(state, request.side, rule)}
        if request.kind == "fleet-feeding" and rule == "most-points":
            return {"feed": supply.feeding_by_policy(state)}
        if request.kind == "naval-disband" and rule == "never":  # naval game (issue 12)
            return {"disband": {}}
        if request.kind == "naval-raid" and rule in ("most-cargo", "lowest-id"):  # RSR 7.2 (issue 22)
            return {"sink": naval_flow.raid_by_policy(state.naval, int(request.options["hex"]), rule)}
        if request.kind == "fleet-moves" and rule == "stay":
            return {"moves": {}}
        if request.kind == "land-combat-attacks" and rule in ("repeat", "stop"):  # RSR 4.24, 11.25
            return combat.repeated_attacks(state, request.side) if rule == "repeat" else {"attacks": []}
        if request.kind == "trenches" and rule in ("build", "never"):
            return {"build": request.options["hexes"] if rule == "build" else []}
        return None

    def check_policy(self, kind: str, rule: Any) -> None:
        if kind not in POLICIES:
            raise RulesError(f"Red Sun Rising has no policy {kind!r} (known: {', '.join(sorted(POLICIES))})")
        if kind == "retreat" and isinstance(rule, dict):
            value = rule.get("adjacent-to-cp")
            if set(rule) != {"adjacent-to-cp"} or type(value) is not int or value < 1:  # (true is no number)
                raise RulesError("policy retreat is never, ask, or {adjacent-to-cp: N} with N >= 1")
            return
        if rule not in POLICIES[kind]:
            raise RulesError(f"policy {kind} is one of {', '.join(POLICIES[kind])}, not {rule!r}")

    def _assign(self, state: RsrState, ctx: Context, side: str, answer: Any) -> None:
        """RSR 14.0: any number of combat units to any command unit of their side."""
        if not isinstance(answer, dict) or not isinstance(answer.get("assign", {}), dict) or set(answer) - {"assign"}:
            raise RulesError("an assignment answer is {assign: {unit: command unit}}")
        for unit_id, hq_id in sorted(answer.get("assign", {}).items()):
            unit, hq = state.units.get(unit_id), state.units.get(str(hq_id))
            if unit is None or unit.side != side or not unit.hex or unit.steps <= 0 \
                    or activation.kind(state, unit) != "combat":
                raise RulesError(f"{unit_id} is not a {side} combat unit on the map (RSR 14.0)")
            if hq is None or hq.side != side or not hq.hex or hq.steps <= 0 or activation.kind(state, hq) == "combat":
                raise RulesError(f"{hq_id} is not a {side} command unit on the map (RSR 14.0)")
            if unit.assigned_to != hq.id:
                unit.assigned_to = hq.id
                ctx.emit("assigned", f"{unit_id} is assigned to {hq.id}", "RSR 14.0", unit=unit_id, command=hq.id)

    def _overstack(self, state: RsrState, ctx: Context, side: str, answer: Any) -> None:
        if not isinstance(answer, dict) or not isinstance(answer.get("eliminate"), list):
            raise RulesError("an overstack answer is {eliminate: [unit ids]}")
        hex_id = state.pending_overstack[0]
        stacking.check_choice(state, hex_id, side, answer["eliminate"])
        stacking.eliminate_excess(state, ctx, hex_id, side, answer["eliminate"])
        state.pending_overstack.pop(0)
        if not state.pending_overstack:
            self._end_movement(state, ctx)

    def _end_movement(self, state: RsrState, ctx: Context) -> None:
        ctx.emit("stage", f"{STAGES[state.stage_key()].name} ends", "RSR 4.23")
        self._next_stage(state)

    # -- automatic steps between decisions ---------------------------------------------------------------

    def _continue(self, state: RsrState, ctx: Context) -> None:
        """Carry out whatever needs no decision: stage starts, supply, attacks, rounds, the turn's end."""
        while not state.finished and state.pending_loss is None:
            key = state.stage_key()
            if not state.stage_started:
                state.stage_started = True
                self._start_stage(state, ctx, key)
                continue
            if key == "naval":  # naval game (issue 12)
                if naval_flow.advance(state, ctx):
                    self._next_stage(state)
                    continue
                return
            if key.endswith("supply"):
                if key == "japan.supply" and state.feeding_due:
                    return  # RSR 10.32: which units the fleets feed (policy "feeding" answers by default)
                if key == "japan.supply" and state.merchant_fleets and not state.fleets_moved:
                    return  # RSR 10.25: the fleets may shift (policy "fleets" answers by default)
                self._next_stage(state)
                continue
            if key == "end":
                if state.end_phase < len(self.sides):
                    return  # each side's trench decision (policy "trenches" answers it by default)
                self._end_stage(state, ctx)
                continue
            if not key.endswith("combat") or not state.retreat_done:
                return  # reinforcement and movement orders, retreat decisions
            if state.next_attack < len(state.attacks):
                self._resolve(state, ctx, state.next_attack)
                continue
            if not state.attacks and not state.last_round:
                return  # waiting for this round's attack declaration
            self._end_round(state, ctx)
            if state.stage_key() == key and not state.attacks:
                return

    def _start_stage(self, state: RsrState, ctx: Context, key: str) -> None:
        """What each stage does on its own before anyone decides (RSR 4.21, 4.22, 10.4, 17.x)."""
        stage = STAGES[key]
        if key == "naval":  # naval game (issue 12)
            naval_flow.start(state, ctx)
        elif key.endswith("supply"):
            assert stage.side is not None
            state.fleets_moved = False
            if stage.side == "japan" and any(supply.feeding_options(state).values()):
                state.feeding_due = True  # RSR 10.32: the player shares out the fleets' points, then attrition
            else:
                supply.judge_supply(state, ctx, stage.side)
                supply.attrition(state, ctx, stage.side)
        elif key.endswith("reinforcement"):
            assert stage.side is not None
            reinforcements.start_of_stage(state, ctx, stage.side)
        elif key == "japan.movement":
            activation.february_surprise(state, ctx)  # RSR 18.81
        if key.endswith("combat"):
            if key == "japan.combat":
                activation.february_surprise(state, ctx)  # RSR 18.81, where the scenario has no movement stage
            state.retreat_done = False
            state.retreat_results = []
            state.attacked_sources = []
        elif key == "end":
            state.end_phase = 0

    def _resolve(self, state: RsrState, ctx: Context, index: int) -> None:
        """RSR 11.2: resolve attack ``index`` up to its result, then the losses on each side."""
        attack = state.attacks[index]
        side = state.units[attack.attackers[0]].side
        enemy = combat.enemy_of(side)
        if attack.result is None:
            self._roll_attack(state, ctx, index, side, enemy)
            if attack.result is None:  # resolved without a die (11.53)
                state.next_attack += 1
                return
        assert attack.result is not None
        if not attack.defender_done:
            defenders = combat.combat_units_in(state, attack.defender_hex, enemy)
            if not self._assign_losses(state, ctx, index, "defender", enemy, defenders, attack.result[1]):
                return
            attack.defender_done = True
        if not attack.attacker_done:
            attackers = [state.units[a] for a in attack.attackers if state.units[a].steps > 0]
            if not self._assign_losses(state, ctx, index, "attacker", side, attackers, attack.result[0]):
                return
            attack.attacker_done = True
        self._after_attack(state, ctx, attack, enemy)
        state.next_attack += 1

    def _roll_attack(self, state: RsrState, ctx: Context, index: int, side: str, enemy: str) -> None:
        attack = state.attacks[index]
        hex_id = attack.defender_hex
        state.round.attacked += attack.attackers
        state.round.defended += [u.id for u in state.units_in(hex_id, enemy)]
        defenders = combat.combat_units_in(state, hex_id, enemy)
        if not defenders:
            self._command_unit_alone(state, ctx, hex_id, enemy)
            return
        # RSR 10.13: an attack on units supplied from Port Arthur or Vladivostok costs that fortress supply;
        # the source is the one the defender traces to now, at the attack (11.2)
        sources = {d.id: supply.source_now(state, d) if supply.plays_supply_stage(state, d.side) else
                   state.supply_source.get(d.id) for d in defenders}
        state.attacked_sources += [src for d in defenders if (src := sources[d.id]) in supply.FORTRESS_SOURCES
                                   and src is not None]
        # RSR 10.37 with 11.2: the defender traces supply now; a unit out of supply is eliminated, no die
        for unit in [d for d in defenders if not self._defender_in_supply(state, d)]:
            combat.eliminate(state, ctx, unit, "out of supply when attacked", "RSR 10.37")
        defenders = [d for d in defenders if d.steps > 0]
        if not defenders:
            attack.result = [0, 0]
            return
        attacker_hq = state.units[attack.command] if attack.command else None
        defender_hq = combat.defending_command(state, hex_id, enemy)
        for hq in (attacker_hq, defender_hq):
            if hq is not None:
                state.round.commands_used.append(hq.id)
        odds = combat.compute_odds(state, attack, defenders, attacker_hq, defender_hq)
        die = None
        if odds.column is not None:
            die = ctx.roll(6, f"land combat die, attack {index + 1} on {hex_id}, RSR 11.2")
        cell = combat.cell_for(state, odds, die)
        attack.result = [cell.attacker, cell.defender]
        modified = None if die is None else die + odds.total_modifier
        ctx.emit(
            "combat",
            f"attack {index + 1} on {hex_id}: {odds.attack} vs {odds.defence} -> "
            f"{odds.column or 'below 1-3'}; die {die if die is not None else '-'}"
            f"{'' if modified is None else f' modified {modified:+d}'.replace('+', '') if odds.modifiers else ''}"
            f" -> {cell.text}",
            "RSR 11.2",
            provisional=[f"land CRT {odds.column} row {modified}: {cell.provenance}"] if cell.provisional else [],
            attack=index + 1,
            hex=hex_id,
            attackers=[{"unit": a, "strength": combat.strength(state, state.units[a])} for a in attack.attackers],
            defenders=[{"unit": d.id, "strength": combat.strength(state, d)} for d in defenders],
            attack_strength=odds.attack,
            defence_strength=odds.defence,
            column=odds.column,
            modifiers=[{"value": m.value, "reason": m.reason, "case": m.case} for m in odds.modifiers],
            die=die,
            modified_die=modified,
            row=None if modified is None else min(max(modified, state.static.crt.die_low), state.static.crt.die_high),
            result=cell.text,
            cell_provenance=cell.provenance,
        )

    def _defender_in_supply(self, state: RsrState, unit: Unit) -> bool:
        """RSR 10.37 with 11.2: traced at the attack; in scenarios without Supply Stages, as the scenario states."""
        return supply.currently_supplied(state, unit)

    def _assign_losses(self, state: RsrState, ctx: Context, index: int, role: str, side: str,
                       units: list[Unit], steps: int) -> bool:
        """Apply ``steps`` losses at once if there is no choice, else leave a request (RSR 11.5)."""
        if steps <= 0 or not units:
            return True
        available = sum(u.steps for u in units)
        if available <= steps or len(units) == 1:  # no choice to make: every step, or one unit's
            for _ in range(min(steps, available)):
                unit = next(u for u in units if u.steps > 0)
                combat.lose_step(state, ctx, unit)
            return True
        hex_id = state.attacks[index].defender_hex
        state.pending_loss = PendingLoss(side, hex_id, steps, [u.id for u in units], index, role)
        return False

    def _after_attack(self, state: RsrState, ctx: Context, attack: Attack, enemy: str) -> None:
        """RSR 11.56: no combat unit left in the hex takes its command units with it."""
        hex_id = attack.defender_hex
        if combat.combat_units_in(state, hex_id, enemy):
            return
        for hq in combat.command_units_in(state, hex_id, enemy):
            combat.eliminate(state, ctx, hq, "every combat unit in its hex was eliminated", "RSR 11.56")
        if not state.units_in(hex_id, enemy):
            combat.vacate(state, ctx, hex_id)
            if hex_id not in state.round.vacated:
                state.round.vacated.append(hex_id)

    def _command_unit_alone(self, state: RsrState, ctx: Context, hex_id: str, side: str) -> None:
        """RSR 11.53: a command unit attacked alone joins the nearest friendly supplied stack, or is lost.

        "Nearest" is counted in hexes; ties go to the lowest hex number (interpretations.md, 11.53).
        """
        grid = state.static.grid
        for hq in combat.command_units_in(state, hex_id, side):
            stacks = sorted({
                u.hex for u in state.units.values()
                if u.side == side and u.hex and u.hex != hex_id and u.steps > 0
                and not combat.is_command(state, u) and supply.currently_supplied(state, u)
            })
            supplied = supply.currently_supplied(state, hq)
            if not supplied or not stacks:
                combat.eliminate(state, ctx, hq, "attacked alone and not in supply" if not supplied
                                 else "attacked alone with no friendly stack in supply", "RSR 11.53")
                continue
            target = min(stacks, key=lambda h: (grid.distance(hex_id, h), h))
            hq.hex = target
            ctx.emit("moved", f"{hq.id} attacked alone in {hex_id}: placed with the nearest friendly stack in "
                     f"supply, {target}", "RSR 11.53", unit=hq.id, frm=hex_id, to=target)
        if hex_id not in state.round.vacated:
            state.round.vacated.append(hex_id)

    def _end_round(self, state: RsrState, ctx: Context) -> None:
        """RSR 11.3, 4.24: advances into emptied hexes, then another round at the phasing player's option
        (at most three); at the end of the stage, fortress supply is spent (10.13)."""
        stage = STAGES[state.stage_key()]
        for attack in state.attacks:
            if attack.advance and attack.defender_hex in state.round.vacated + state.retreat_results:
                combat.advance_after_combat(state, ctx, attack.defender_hex, attack.advance)
        for hex_id, units in sorted(state.advance_into.items()):
            combat.advance_after_combat(state, ctx, hex_id, units)
        reinforcements.check_foreign_aid(state, ctx)
        finished_round = state.assault_round
        state.attacks = []
        state.next_attack = 0
        state.advance_into = {}
        state.retreat_results = []
        if state.last_round or finished_round >= ASSAULT_ROUNDS:
            ctx.emit("stage", f"{stage.name} ends after assault round {finished_round}", "RSR 4.24")
            supply.expend_fortress_supply(state, ctx)
            self._next_stage(state)
        else:
            state.assault_round += 1
            state.round = type(state.round)()
            state.retreat_done = False
            ctx.emit("round", f"assault round {state.assault_round} begins", "RSR 4.24")

    def _next_stage(self, state: RsrState) -> None:
        state.stage_index += 1
        state.assault_round = 1
        state.last_round = False
        state.declared_round = []
        state.round = type(state.round)()
        state.attempted = []
        state.stage_started = False
        if state.stage_index >= len(state.sequence):
            state.stage_index = 0
            state.turn += 1

    def _end_stage(self, state: RsrState, ctx: Context) -> None:
        """RSR 4.35: after the trenches (13.16), every unit flips to its unactivated side and the turn ends.

        Naval upkeep (18.1 repairs, 18.2 captures, 8.78 morale in port) runs here for the naval game (issue 12).
        """
        for unit in state.units.values():
            unit.activated = False
        naval_flow.end_stage(state, ctx)  # naval game (issue 12): 18.1, 18.2, 8.78
        state.moved = []
        state.acting_commander = {}
        ctx.emit("stage", f"end of game turn {state.turn} ({activation.month(state)})", "RSR 4.35")
        outcome = victory.end_of_turn_check(state)
        if outcome is not None:
            state.finished = True
            state.result = outcome
            names = ", ".join(state.static.places[h].name if h in state.static.places else h
                              for h in outcome["cities"]) or "none"
            ctx.emit("game-over", f"the game ends after game turn {state.turn}: {outcome['winner'].capitalize()} "
                     f"{outcome['level']} victory; Japan controls {plural(len(outcome['cities']), 'city')} ({names}); "
                     f"{outcome['case']}", "RSR 19.4", winner=outcome["winner"], level=outcome["level"],
                     decided_by=outcome["case"], cities=outcome["cities"], turn=outcome["turn"])
            return
        self._next_stage(state)

    # -- views -------------------------------------------------------------------------------------------

    def result(self, state: RsrState) -> dict[str, Any] | None:
        """How the game ended (RSR 19.4): {winner, level, case, cities, turn}, or None while it goes on."""
        return None if state.result is None else dict(state.result)

    def report_tables(self, events: list[Event]) -> list[tuple[str, list[str]]]:
        from rsr.rulesets.red_sun_rising.report import tables

        return tables(events)

    def state_json(self, state: RsrState) -> Any:
        """The state that the digest covers: not the scenario's fixed sequence of stages and length, which
        the scenario hash in the invitation already pins."""
        from rsr.engine import to_jsonable

        return {k: to_jsonable(v) for k, v in self.state_fields(state).items()}

    def state_fields(self, state: RsrState) -> dict[str, Any]:
        """The state's fields that the digest covers, as they are (``state_json`` is their JSON form)."""
        return {k: v for k, v in state.__dict__.items() if k not in FIXED_STATE and not (k == "naval" and v is None)}

    def describe(self, state: RsrState) -> list[str]:
        lines = [f"Game turn {state.turn} ({activation.month(state)}, {activation.season(state)}), "
                 f"{STAGES[state.stage_key()].name}"
                 + (f", assault round {state.assault_round}" if "combat" in state.stage_key() else "")]
        by_hex: dict[str, list[str]] = {}
        for unit_id, unit in sorted(state.units.items()):
            if unit.hex and unit.steps > 0:
                counter = state.static.counter(unit_id)
                values = counter.values(unit.steps)
                label = (f"{unit_id} (HQ {values.command})" if counter.command_unit
                         else f"{unit_id} {values.strength}-{values.command}-{values.movement}")
                by_hex.setdefault(unit.hex, []).append(label)
        for hex_id in sorted(by_hex):
            extra = []
            if state.trenches.get(hex_id):
                extra.append(f"trench {state.trenches[hex_id]}")
            if state.static.is_fortress(hex_id):
                extra.append("fortress" + (" (destroyed)" if hex_id in state.destroyed_fortresses else ""))
            terrain = state.static.terrain.get(hex_id, "?")
            lines.append(f"  {hex_id} [{terrain}{', ' + ', '.join(extra) if extra else ''}]: "
                         + ", ".join(by_hex[hex_id]))
        if state.naval is not None:
            lines += naval_flow.describe(state)  # naval game (issue 12)
        return lines


def _embarked_unit(unit_id: str, counter: Any) -> Unit:
    """Naval game (issue 12): a land unit off the land map, on a merchant fleet or just formed (7.4, 18.5)."""
    return Unit(id=unit_id, side=counter.side, hex=None, steps=counter.steps)


register(RedSunRising.id)(RedSunRising)
