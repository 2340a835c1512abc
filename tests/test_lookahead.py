"""rsr/lookahead.py: the questions of a turn walked without dice (issue 23 section 1)."""

from __future__ import annotations

import pytest

from rsr import lookahead
from rsr.engine import initial_position
from rsr.errors import BadInput
from rsr.rulesets import get_ruleset
from rsr.scenario import load_scenario


def _start(ruleset_id: str, scenario: str) -> tuple[object, object, object]:
    ruleset = get_ruleset(ruleset_id)
    position = initial_position(ruleset, load_scenario(ruleset.id, scenario), {})
    return ruleset, position, ruleset.next_request(position.state)


def test_the_russian_turn_is_three_questions_before_any_die() -> None:
    """RSR 14.0, 4.23, 11.2: assignments, movement and the first assault round, no die between them."""
    ruleset, position, waiting = _start("red-sun-rising", "liaoyang-turn-1904")
    found = lookahead.walk(ruleset, position, waiting, "russia", 2)  # type: ignore[arg-type]
    assert [q.request.id for q in found.questions] == [
        "t7/russia/reinforcement/assign", "t7/russia/movement/orders", "t7/russia/combat/r1/attacks"]
    assert {q.source for q in found.questions} == {"nothing"}
    assert found.next_request is not None and found.next_request.side == "japan"
    assert found.stopped_at_die is None and found.prepared == []


def test_a_written_answer_is_used_and_a_bad_one_refused() -> None:
    ruleset, position, waiting = _start("red-sun-rising", "liaoyang-turn-1904")
    written = [{"request": "t7/russia/reinforcement/assign", "answer": {"assign": {}}}]
    found = lookahead.walk(ruleset, position, waiting, "russia", 2, written)  # type: ignore[arg-type]
    assert [q.source for q in found.questions] == ["written", "nothing", "nothing"]
    bad = [{"request": "t7/russia/reinforcement/assign", "answer": {"assign": {"ru-es1": "nobody"}}}]
    with pytest.raises(BadInput, match="RSR 14.0"):
        lookahead.walk(ruleset, position, waiting, "russia", 2, bad)  # type: ignore[arg-type]


def test_fire_missions_stop_at_their_dice_and_the_combats_after_them_are_planned() -> None:
    """RS/RS 5.2, 6.1: a bombardment rolls; the prepared combats after it are offered as a plan."""
    ruleset, position, waiting = _start("red-star", "july-1939-artillery")
    assert waiting is not None and waiting.id == "t1/japan/artillery/missions"  # type: ignore[attr-defined]
    quiet = lookahead.walk(ruleset, position, waiting, "japan", 2)  # type: ignore[arg-type]
    assert [q.request.id for q in quiet.questions] == [
        "t1/japan/artillery/missions", "t1/japan/prepared/combats", "t1/japan/movement/orders"]
    fire = [{"request": "t1/japan/artillery/missions",
             "answer": {"missions": [{"bombard": "su-1-149", "artillery": ["jp-m-art"]}]}}]
    found = lookahead.walk(ruleset, position, waiting, "japan", 2, fire)  # type: ignore[arg-type]
    assert [q.request.id for q in found.questions] == ["t1/japan/artillery/missions"]
    assert found.stopped_at_die is not None and "RS/RS 5.21" in found.stopped_at_die
    assert [q.request.id for q in found.prepared] == ["t1/japan/prepared/combats"]
    # with a plan that declares a combat, the attacker's choices for it follow (policy attack-choices)
    plan = lookahead.prepared_input("red-star", "t1/japan/prepared/combats",
                                    {"combats": [{"hex": "4411", "attackers": ["jp-1-71", "jp-2-71"]}]})
    assert plan == {"policy": "combats", "rule": {"turn": 1, "combats": [
        {"hex": "4411", "attackers": ["jp-1-71", "jp-2-71"]}]}}
    planned = lookahead.walk(ruleset, position, waiting, "japan", 2, [plan, *fire])  # type: ignore[arg-type]
    assert [q.request.id for q in planned.prepared] == ["t1/japan/prepared/combats",
                                                       "t1/japan/prepared/c1/attack-choices"]


def test_prepared_answers_are_keyed_by_the_end_of_the_request_id() -> None:
    assert lookahead.prepared_for("red-star", "t3/soviet/prepared/combats") is not None
    assert lookahead.prepared_for("red-star", "t3/soviet/movement/orders") is None
    assert lookahead.prepared_for("red-sun-rising", "t3/russia/prepared/combats") is None
    assert lookahead.game_turn("t12/japan/x") == 12 and lookahead.game_turn("naval/x") is None
    assert lookahead.emptied({"a": [1], "b": {"c": [2], "d": 3}}) == {"a": [], "b": {"c": [], "d": 3}}
