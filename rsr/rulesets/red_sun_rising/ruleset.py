"""The Red Sun Rising ruleset (RSR 4.0): set-up, result, views; the play itself is declared data.

The sequence of play runs in ``turn.py`` (the stages of sequence.py, each with its declared steps, the Strategic
Naval Sequence one of them); every question a player answers, land or naval, is a declared decision, in the rule
module that raises it (``DECISIONS`` below, and naval/flow.py's ``DECISIONS``); the generic driver
(rsr/decisions.py) turns the pending question (``state.ask``) into a request and applies the answer. See
docs/architecture.md.
"""

from __future__ import annotations

from typing import Any

from rsr.decisions import DecisionDriver
from rsr.engine import Context, Event
from rsr.errors import BadInput
from rsr.fairdice import NoDice
from rsr.rulesets import register
from rsr.rulesets.red_sun_rising import (
    activation,
    combat,
    defences,
    movement,
    reinforcements,
    retreat,
    stacking,
    supply,
    turn,
)
from rsr.rulesets.red_sun_rising.data import load_static
from rsr.rulesets.red_sun_rising.hooks import RsrHooks
from rsr.rulesets.red_sun_rising.naval import ports, raid
from rsr.rulesets.red_sun_rising.naval_seam import NAVAL
from rsr.rulesets.red_sun_rising.sequence import IMPLEMENTED, STAGES
from rsr.rulesets.red_sun_rising.state import RsrState, Unit, digest_fields

# Rules options a scenario or an invite may switch on, each read by the engine and tested by a case.
KNOWN_OPTIONS: dict[str, str] = {
    "rail-stacking-4": "RSR 9.46: a rail hex holds at most 4 command points (the lower of rail and terrain limits)",
    "search-in-gunnery-phase": "RSR 4.44: a naval range opened beyond sight is searched for in the same hour, in "
                               "place of the Gunnery Combat Phase (default: next hour, after its weather, RSR 8.84)",
    "successor-next-turn": "RSR 19.3: a killed admiral's successor takes command on the next Game-Turn (default: "
                           "at the end of the battle)",
    "mines-strike-russians-only": "RSR 16.0: only Russian fleets are struck by mines (default: every fleet)",
}


def check_options(options: dict[str, Any], where: str) -> None:
    """Refuse an option the ruleset does not know: an option that does nothing is a silent rules change."""
    for name in sorted(options):
        if name not in KNOWN_OPTIONS:
            known = ", ".join(sorted(KNOWN_OPTIONS))
            raise BadInput(f"{where}: unknown Red Sun Rising option {name!r} (known: {known})")
        if type(options[name]) is not bool:  # ("false", a string, once switched the rule on)
            raise BadInput(f"{where}: option {name!r} is true or false, not {options[name]!r}")


# Every land decision, in the order of the sequence of play (RSR 4.21-4.35); the naval game's (naval/flow.py
# DECISIONS: the Strategic Naval Sequence, RSR 4.11-4.15, and the Reinforcement Stages' landings and disbanding,
# RSR 7.5, RSR 18.5) join the table when a game first asks one (start-up); their policies are listed now.
DECISIONS = (supply.FEEDING, supply.FLEET_MOVES, reinforcements.ASSIGNMENTS, movement.LAND_MOVEMENT,
             stacking.OVERSTACK, retreat.RETREATS, combat.ATTACKS, combat.STEP_LOSSES, defences.TRENCHES)
NAVAL_POLICIES = tuple(d.policy for d in (ports.DISBAND, raid.RAID) if d.policy is not None)  # RSR 18.5, RSR 7.2
DRIVER = DecisionDriver("Red Sun Rising", DECISIONS, turn.advance, NAVAL_POLICIES, later=NAVAL.decisions)


class RedSunRising(RsrHooks):
    """Red Sun Rising (SPI 1977). See docs/red-sun-rising/coverage.md for what is implemented."""

    id = "red-sun-rising"
    version = "0.3"  # 0.2: the state digest leaves out the fixed scenario data (FIXED_STATE); 0.3: rules as written
    # (the surprise attack and sealed Russian sailing orders change the naval requests, RSR 18.9 retreats)
    sides = ("russia", "japan")
    known_options = KNOWN_OPTIONS
    driver = DRIVER
    policy_defaults = DRIVER.policy_defaults()

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
        # -- naval game: ships, fleets and merchant fleets with their cargo (RSR 19.1-19.2)
        from rsr.rulesets.red_sun_rising.naval.data import load_naval  # (imported here: start-up)

        state.naval_static = load_naval(data)
        if state.naval_static is not None:
            state.naval = NAVAL.setup(state, spec.get("naval") or {})
        elif "naval" in spec["sequence"]:
            raise BadInput(f"scenario {scenario.name}: the naval stage needs include naval and naval_map")
        reinforcements.check_foreign_aid(state, Context(NoDice()))  # achievements made before the start
        if supply.plays_supply_stage(state, "japan"):
            # RSR 10.32 with RSR 4.21: the Japanese units a scenario states in supply were fed in the Supply Stage
            # before the start; that unplayed sharing-out is taken to be the default one (interpretations.md)
            stated = {u for u, unit in state.units.items() if unit.side == "japan" and unit.in_supply}
            state.fed_by = {u: f for u, f in supply.feeding_by_policy(state).items() if u in stated}
        # the first stage's automatic start needs no die (supply, reinforcement points, arrivals); its events
        # are reported with the first resolution
        opening = Context(NoDice())
        turn.advance(state, opening)
        state.opening_events = opening.events
        return state

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
        """The state's fields that the digest covers, in their explicit form (state.digest_fields)."""
        return digest_fields(state)

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
        return lines + NAVAL.describe(state)



register(RedSunRising.id)(RedSunRising)
