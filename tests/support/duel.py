"""A tiny ruleset for testing the engine and protocol: sealed choices, a policy, and a die.

``attacker`` secretly picks a lane (sealable), ``defender`` picks a lane in the clear, the attacker
unseals, and if the lanes differ a d6 decides whether the shot hits (policy ``aim``: ``careful`` adds 1).
It is not a game of the project; it exercises the dice and sealed choices of docs/protocol.md without
depending on a real ruleset.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from rsr.engine import Context, Event, Request, Sealed, to_jsonable
from rsr.errors import RulesError
from rsr.fairdice import Dice
from rsr.rulesets.base import BaseRuleset
from rsr.scenario import Scenario


@dataclass
class DuelState:
    rounds: int
    round: int = 1
    attacker_lane: Any = None
    defender_lane: int | None = None
    hits: list[int] = field(default_factory=list)


class Duel(BaseRuleset):
    id = "duel"
    version = "test"
    sides = ("attacker", "defender")
    policy_defaults: dict[str, Any] = {"aim": "quick"}

    def initial_state(self, scenario: Any, options: dict[str, Any]) -> DuelState:
        return DuelState(rounds=int(scenario.data["scenario"]["rounds"]))

    def next_request(self, state: DuelState) -> Request | None:
        if state.round > state.rounds:
            return None
        base = f"r{state.round}"
        if state.attacker_lane is None:
            return Request(f"{base}/attack", "attacker", "lane", "pick a lane", "TEST 1", {"lanes": [1, 2, 3]},
                           1, sealable=True)
        if state.defender_lane is None:
            return Request(f"{base}/defend", "defender", "lane", "pick a lane", "TEST 2", {"lanes": [1, 2, 3]}, 1)
        return Request(f"{base}/attack:unseal", "attacker", "unseal", "unseal your lane", "TEST 3",
                       unseals=f"{base}/attack")

    def apply(self, state: DuelState, request: Request, answer: Any, dice: Dice,
              owned: bool = False) -> tuple[DuelState, list[Event]]:
        state = state if owned else copy.deepcopy(state)  # the engine's own copy may be changed in place
        ctx = Context(dice)
        if isinstance(answer, Sealed):
            state.attacker_lane = "sealed"
            ctx.emit("sealed", "attacker sealed a lane")
            return state, ctx.events
        if answer not in (1, 2, 3):
            raise RulesError(f"lane {answer!r} is not 1, 2 or 3")
        if request.kind == "lane" and request.side == "attacker":
            state.attacker_lane = answer
            self._shoot(state, ctx, answer)
        elif request.kind == "lane":
            state.defender_lane = answer
            if state.attacker_lane != "sealed":
                self._shoot(state, ctx, state.attacker_lane)
        else:
            self._shoot(state, ctx, answer)
        return state, ctx.events

    def _shoot(self, state: DuelState, ctx: Context, lane: int) -> None:
        if state.defender_lane is None:
            return
        if lane != state.defender_lane:
            value = ctx.roll(6, f"shot in round {state.round}, TEST 4")
            if value >= 4:
                state.hits.append(state.round)
        ctx.emit("round", f"round {state.round}: attacker {lane}, defender {state.defender_lane}")
        state.round += 1
        state.attacker_lane = None
        state.defender_lane = None

    def answer_by_policy(self, state: DuelState, request: Request, rule: Any) -> Any:
        return None

    def check_policy(self, kind: str, rule: Any) -> None:
        if kind != "aim" or rule not in ("quick", "careful", "ask"):
            raise RulesError(f"unknown policy {kind}: {rule}")

    def state_json(self, state: DuelState) -> Any:
        return to_jsonable(state)

    def report_tables(self, events: list[Event]) -> list[tuple[str, list[str]]]:
        return []

    def describe(self, state: DuelState) -> list[str]:
        return [f"round {state.round}, hits {state.hits}"]


def duel_scenario(rounds: int = 2) -> Scenario:
    data = {"scenario": {"id": "duel", "rounds": rounds}}
    import hashlib

    from rsr.canonical import canonical_bytes

    return Scenario("duel", "duel", data, hashlib.sha256(canonical_bytes(data)).hexdigest())
