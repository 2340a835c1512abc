"""The decision driver (rsr/decisions.py) and the base ruleset (rsr/rulesets/base.py), tried on a ruleset
of a few lines: the walkthroughs "adding a ruleset" and "adding a decision" of docs/architecture.md.

The toy game "duel of dice": each turn the first side calls a number of dice (a declared decision with a
policy), both roll, the higher total scores; after two turns the game ends. A second decision, added in a
test the way the walkthrough says, lets the loser of a turn ask for a re-roll.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from rsr.decisions import Decision, DecisionDriver, Policy, RuleBroken, ShapeError
from rsr.engine import Context, Event, Position, Request, enqueue, initial_position, resolve_pass
from rsr.errors import RulesError
from rsr.fairdice import ScriptedDice
from rsr.rulesets import REGISTRY, get_ruleset, register
from rsr.rulesets.base import DecisionRuleset
from rsr.rulesets.red_star.choices import DECISIONS
from rsr.rulesets.red_star.ruleset import DRIVER, RedStar


@dataclass
class Ask:
    kind: str
    side: str
    id: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class DuelState:
    turn: int = 1
    score: dict[str, int] = field(default_factory=lambda: {"red": 0, "blue": 0})
    dice: int = 0
    rerolled: int = 0
    ask: Ask | None = None
    finished: bool = False
    opening_events: list[Event] = field(default_factory=list)


def make_advance(reroll: bool = False) -> Any:
    """The toy's sequence of play: ask for the call, then roll; two turns. With ``reroll`` (the decision
    added in the walkthrough) blue, having lost a turn, is asked whether to re-roll it (once a turn)."""

    def advance(state: DuelState, ctx: Context) -> None:
        while not state.finished and state.ask is None:
            if state.turn > 2:
                state.finished = True
            elif state.dice == 0:
                state.ask = Ask("call", "red", f"t{state.turn}/call")
            else:
                totals = {side: sum(ctx.roll(6, f"{side} die") for _ in range(state.dice))
                          for side in ("red", "blue")}
                winner = max(totals, key=lambda s: (totals[s], s == "blue"))
                state.score[winner] += 1
                ctx.emit("scored", f"{winner} scores", "TOY 2", winner=winner)
                if reroll and winner == "red" and state.rerolled < state.turn:  # TOY 3
                    state.ask = Ask("reroll", "blue", f"t{state.turn}/reroll", {"dice": state.dice})
                    state.rerolled = state.turn
                state.turn, state.dice = state.turn + 1, 0

    return advance


advance = make_advance()


def apply_call(state: DuelState, ctx: Context, ask: Ask, answer: Any) -> None:
    if answer["dice"] > 3:
        raise RuleBroken("call at most three dice", "TOY 1")
    state.dice = answer["dice"]


CALL = Decision(
    "call", "t{turn}/call", "TOY 1", "red",
    prompt=lambda state, ask: f"turn {state.turn}: how many dice?",
    options=lambda state, ask: {"dice": [1, 2, 3]}, template=lambda state, ask: {"dice": 1},
    policy=Policy("call", ("one", "ask"), default="one",
                  answer=lambda state, ask, request, rule: {"dice": 1} if rule == "one" else None),
    schema={"type": "object", "required": ["dice"], "properties": {"dice": {"type": "integer"}},
            "additionalProperties": False},
    shape="a call is {dice: N} (TOY 1)", apply=apply_call)


class Duel(DecisionRuleset):
    id = "toy-duel"
    version = "1"
    sides = ("red", "blue")
    driver = DecisionDriver("Duel", [CALL], advance)
    policy_defaults = driver.policy_defaults()

    def initial_state(self, scenario: Any, options: dict[str, Any]) -> DuelState:
        state = DuelState()
        advance(state, Context(ScriptedDice([])))
        return state

    def state_json(self, state: DuelState) -> Any:
        return {"turn": state.turn, "score": state.score, "dice": state.dice}


@pytest.fixture
def duel() -> Any:
    register(Duel.id)(Duel)
    yield get_ruleset(Duel.id)
    del REGISTRY[Duel.id]


def play(ruleset: Any, inputs: list[dict[str, Any]], dice: list[int], policies: list[dict[str, Any]] | None = None
         ) -> tuple[Position, Any]:
    position = initial_position(ruleset, None, {})
    enqueue(position, 2, "red", [*(policies or []), *inputs])
    return resolve_pass(ruleset, position, ScriptedDice(dice))


def test_a_new_ruleset_is_one_class_one_registry_line_and_its_decisions(duel: Any) -> None:
    assert duel.policy_defaults == {"call": "one"}
    request = duel.next_request(duel.initial_state(None, {}))
    assert (request.id, request.side, request.kind, request.case, request.policy) == (
        "t1/call", "red", "call", "TOY 1", "call")
    assert request.options == {"dice": [1, 2, 3]} and request.template == {"dice": 1}
    after, result = play(duel, [{"request": "t1/call", "answer": {"dice": 2}},
                                {"request": "t2/call", "answer": {"dice": 1}}], [6, 6, 1, 1, 2, 5])
    assert after.state.finished and after.state.score == {"red": 1, "blue": 1}
    assert [e.data["winner"] for e in result.events if e.kind == "scored"] == ["red", "blue"]


def test_the_default_policy_answers_and_a_set_policy_is_checked(duel: Any) -> None:
    after, result = play(duel, [], [3, 4, 5, 2])
    assert after.state.finished and any(e.kind == "policy" for e in result.events)
    with pytest.raises(RulesError, match="policy call is one of one, ask, not 'two'"):
        play(duel, [], [], [{"policy": "call", "rule": "two"}])
    with pytest.raises(RulesError, match="Duel has no policy 'raise'"):
        duel.check_policy("raise", "ask")


def test_an_answer_of_the_wrong_shape_is_refused_before_the_rule_sees_it(duel: Any) -> None:
    state = duel.initial_state(None, {})
    request = duel.next_request(state)
    with pytest.raises(ShapeError, match=r"a call is \{dice: N\} \(TOY 1\)"):
        duel.apply(state, request, {"dice": "many"}, ScriptedDice([]))
    with pytest.raises(RuleBroken) as broken:
        duel.apply(state, request, {"dice": 4}, ScriptedDice([]))
    assert broken.value.case == "TOY 1" and str(broken.value) == "call at most three dice (TOY 1)"
    assert state.ask is not None and state.dice == 0, "a refused answer changes nothing"
    with pytest.raises(RulesError, match="does not ask for t9/call"):
        duel.apply(state, Request("t9/call", "red", "call", "", ""), {"dice": 1}, ScriptedDice([]))


def test_adding_a_decision_is_one_object_and_the_rule_that_raises_it(duel: Any) -> None:
    """The walkthrough: the loser of a turn may re-roll once (a new kind, asked by the sequence of play)."""

    def apply_reroll(state: DuelState, ctx: Context, ask: Ask, answer: Any) -> None:
        if answer["reroll"]:
            state.turn -= 1
            state.score["red"] -= 1
            state.dice = ask.data["dice"]

    reroll = Decision("reroll", "t{turn}/reroll", "TOY 3", "blue, having lost the turn",
                      prompt=lambda state, ask: "re-roll the turn?", apply=apply_reroll,
                      schema={"type": "object", "required": ["reroll"],
                              "properties": {"reroll": {"type": "boolean"}}},
                      shape="a re-roll is {reroll: true|false} (TOY 3)")
    driver = DecisionDriver("Duel", [CALL, reroll], make_advance(reroll=True))
    state = duel.initial_state(None, {})
    state, events = driver.apply(state, driver.next_request(state), {"dice": 1}, ScriptedDice([6, 1]))
    request = driver.next_request(state)
    assert (request.id, request.side, request.kind, request.case) == ("t1/reroll", "blue", "reroll", "TOY 3")
    with pytest.raises(ShapeError, match="a re-roll is"):
        driver.apply(state, request, {"reroll": "yes"}, ScriptedDice([]))
    state, events = driver.apply(state, request, {"reroll": True}, ScriptedDice([1, 6]))
    assert state.score == {"red": 0, "blue": 1} and state.turn == 2
    assert driver.next_request(state).id == "t2/call", "blue won the re-roll: nothing more to ask"


def test_red_star_declares_each_kind_once_and_its_policies_in_one_table() -> None:
    kinds = [d.kind for d in DECISIONS]
    assert len(kinds) == len(set(kinds)) == 18
    assert RedStar.policy_defaults == DRIVER.policy_defaults()
    assert list(RedStar.policy_defaults) == [
        "attack-choices", "defence-choices", "morale", "retreat", "retreat-losses", "interdiction-losses",
        "target-ties", "overstack", "advance", "replacements", "reserves", "reserve-moves", "fire-missions",
        "counterbattery"]
    assert sorted(DRIVER.policies) == sorted([*RedStar.policy_defaults, "combats"])
    for decision in DECISIONS:
        assert decision.case and decision.who and decision.ids, decision.kind


def test_red_star_policy_forms_are_checked_by_their_decision() -> None:
    red_star = RedStar()
    red_star.check_policy("morale", {"check-if-rating-at-least": 4})
    with pytest.raises(RulesError, match="policy morale is check, retreat, ask, or"):
        red_star.check_policy("morale", {"check-if-rating-at-least": 9})
    with pytest.raises(RulesError, match="policy retreat is one of auto, ask, not"):
        red_star.check_policy("retreat", {"x": 1})
    with pytest.raises(RulesError, match="Red Sun/Red Star has no policy 'nap'"):
        red_star.check_policy("nap", "ask")
