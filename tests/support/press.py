"""A tiny test ruleset whose later questions depend on the dice, for contract version 2's tests.

Each round the ``attacker`` answers ``rN/attack`` (``go``): a d6 activates on 5 or 6. An activated attack
asks ``rN/press1`` (``yes``), which rolls again; on 5 or 6 it asks ``rN/press2`` (``yes``), and answering it
is a *full activation* (chance 1/9 from the first die). Then the ``defender`` answers ``rN/guard`` with a
lane 1-3; the attack's first die blocks lane ``die % 3 + 1``, and guarding a blocked lane breaks the rules.
The defender's standing policy ``guard`` (``lane-1``, ``lane-2``, ``lane-3`` or ``ask``) answers it: the dice
can make that answer illegal. Not a game of the project: it exercises "what you sign counts"
(docs/protocol.md) without depending on a real ruleset.
"""

from __future__ import annotations

import copy
import hashlib
from dataclasses import dataclass, field
from typing import Any

from rsr.canonical import canonical_bytes
from rsr.engine import Context, Event, Request, to_jsonable
from rsr.errors import RulesError
from rsr.fairdice import Dice
from rsr.rulesets.base import BaseRuleset
from rsr.scenario import Scenario


@dataclass
class PressState:
    rounds: int
    round: int = 1
    stage: str = "attack"
    blocked: int = 0
    full: list[int] = field(default_factory=list)
    guarded: list[int] = field(default_factory=list)


class Press(BaseRuleset):
    id = "press"
    version = "test"
    sides = ("attacker", "defender")
    policy_defaults: dict[str, Any] = {"guard": "ask"}

    def initial_state(self, scenario: Any, options: dict[str, Any]) -> PressState:
        return PressState(rounds=int(scenario.data["scenario"]["rounds"]))

    def next_request(self, state: PressState) -> Request | None:
        if state.round > state.rounds:
            return None
        base = f"r{state.round}"
        if state.stage == "guard":
            return Request(f"{base}/guard", "defender", "guard", "guard a lane", "TEST 12", {"lanes": [1, 2, 3]},
                           1, policy="guard")
        return Request(f"{base}/{state.stage}", "attacker", state.stage, "go on", "TEST 11", {}, "yes")

    def apply(self, state: PressState, request: Request, answer: Any, dice: Dice,
              owned: bool = False) -> tuple[PressState, list[Event]]:
        state = state if owned else copy.deepcopy(state)
        ctx = Context(dice)
        if state.stage == "guard":
            if answer not in (1, 2, 3):
                raise RulesError(f"lane {answer!r} is not 1, 2 or 3")
            if answer == state.blocked:
                raise RulesError(f"lane {answer} is blocked this round (TEST 12)")
            state.guarded.append(answer)
            state.round += 1
            state.stage = "attack"
            return state, ctx.events
        if answer not in ("go", "yes"):
            raise RulesError(f"answer {answer!r} is not go or yes")
        if state.stage == "press2":
            state.full.append(state.round)
            ctx.emit("full", f"round {state.round}: full activation")
            state.stage = "guard"
            return state, ctx.events
        value = ctx.roll(6, f"activation in round {state.round}, TEST 11")
        if state.stage == "attack":
            state.blocked = value % 3 + 1
        state.stage = ("press1" if state.stage == "attack" else "press2") if value >= 5 else "guard"
        return state, ctx.events

    def answer_by_policy(self, state: PressState, request: Request, rule: Any) -> Any:
        return int(rule[-1]) if isinstance(rule, str) and rule.startswith("lane-") else None

    def check_policy(self, kind: str, rule: Any) -> None:
        if kind != "guard" or rule not in ("lane-1", "lane-2", "lane-3", "ask"):
            raise RulesError(f"unknown policy {kind}: {rule}")

    def state_json(self, state: PressState) -> Any:
        return to_jsonable(state)

    def report_tables(self, events: list[Event]) -> list[tuple[str, list[str]]]:
        return []

    def describe(self, state: PressState) -> list[str]:
        return [f"round {state.round}, full activations {state.full}"]


def press_scenario(rounds: int = 20) -> Scenario:
    data = {"scenario": {"id": "press", "rounds": rounds}}
    return Scenario("press", f"press-{rounds}", data, hashlib.sha256(canonical_bytes(data)).hexdigest())
