"""RS/RS 13.1: the end of a July scenario, its winner and level of victory (``RedStar.result``), and the
choices issue 9 gives back to the player that case files cannot express."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from rsr.engine import enqueue, initial_position, resolve_pass
from rsr.errors import BadInput, RulesError
from rsr.fairdice import ScriptedDice
from rsr.rulesets import get_ruleset
from rsr.rulesets.red_star import victory
from rsr.scenario import Scenario, load_scenario


def one_turn(setup: list[dict[str, Any]], name: str = "july-1939-contact", **extra: Any) -> Scenario:
    base = load_scenario("red-star", name)
    data = copy.deepcopy(base.data)
    data["scenario"].update({"setup": setup, "turns": [{"date": "4 July"}], "restrictions": [],
                             "support_points": {"japan": 0, "soviet": 0}, **extra})
    return Scenario("red-star", "test", data, "test")


def play_out(scen: Scenario) -> tuple[Any, Any]:
    """Both Movement segments pass with no moves; nothing else needs an answer."""
    ruleset = get_ruleset("red-star")
    position = initial_position(ruleset, scen, {})
    assert ruleset.result(position.state) is None  # RS/RS 13.1: scored only at the end
    for side in ("japan", "soviet"):
        enqueue(position, 1000, side, [{"request": f"t1/{side}/movement/orders", "answer": {"moves": []}}])
    after, outcome = resolve_pass(ruleset, position, ScriptedDice([]))
    assert outcome.waiting is None
    return ruleset, after


def test_the_scenario_ends_with_a_winner_and_a_level() -> None:
    """RS/RS 13.1: after the last turn the result names the winner and the level; the event agrees."""
    scen = one_turn([{"unit": "jp-1-64", "hex": "4410"}, {"unit": "su-1-149", "hex": "4420"},
                     {"unit": "su-2-149", "hex": "4430"}, {"unit": "su-3-149", "hex": "4440"},
                     {"unit": "mn-22-8", "hex": "4445"}, {"unit": "mn-23-8", "hex": "4446"},
                     {"unit": "su-2-11", "hex": "4447"}])
    ruleset, after = play_out(scen)
    result = ruleset.result(after.state)
    assert result is not None and result["case"] == "RS/RS 13.1"
    points = result["points"]
    assert points == victory.tally(after.state)[0]
    difference = points["japan"] - points["soviet"]
    assert result["difference"] == difference
    assert result["title"] == victory.level(difference)
    assert points["soviet"] >= 6  # six Soviet units supplied east of the Halha (13.1)
    assert result["winner"] == "soviet"


@pytest.mark.parametrize("difference,winner,level", [
    (17, "japan", "decisive"), (10, "japan", "significant"), (6, "japan", "marginal"), (5, None, "draw"),
    (0, None, "draw"), (-1, "soviet", "marginal"), (-6, "soviet", "significant"), (-12, "soviet", "decisive")])
def test_victory_levels(difference: int, winner: str | None, level: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """RS/RS 13.1: the table of levels, at each boundary."""
    monkeypatch.setattr(victory, "tally", lambda state: ({"japan": difference, "soviet": 0}, []))
    result = victory.outcome(None)  # type: ignore[arg-type]
    assert (result["winner"], result["level"]) == (winner, level)


def test_unknown_rule_option_is_refused_at_the_invitation() -> None:
    """Issue 9: an option the ruleset does not read is refused, naming it."""
    ruleset = get_ruleset("red-star")
    with pytest.raises(BadInput, match="no rule option 'artillery-st163'"):
        initial_position(ruleset, load_scenario("red-star", "july-1939-contact"), {"artillery-st163": True})
    with pytest.raises(BadInput, match="true or false"):
        initial_position(ruleset, load_scenario("red-star", "july-1939-contact"), {"halving-st163": "yes"})


def test_overstack_answer_must_leave_the_hex_legal_and_mark_only_the_excess() -> None:
    """RS/RS 4.11: the owner's excess units must bring the hex within the limit and be no more than that."""
    base = load_scenario("red-star", "july-1939")
    data = copy.deepcopy(base.data)
    data["scenario"].update({
        "setup": [{"unit": "jp-1-64", "hex": "4410"}, {"unit": "su-1-149", "hex": "4420"}],
        "turns": [{"date": "2 July"}, {"date": "3 July", "reinforcements": ["mk-1-cav", "mk-7-cav", "mk-8-cav"]}],
        "support_points": {"japan": 6, "soviet": 0}, "restrictions": [], "start_turn": 2})
    scen = Scenario("red-star", "test", data, "test")
    ruleset = get_ruleset("red-star")
    for answer, message in (({"units": ["mk-1-cav", "mk-7-cav"]}, "may stay in 5030"),
                            ({"units": []}, "stays over the limit"),
                            ({"units": ["jp-1-64"]}, "is not one of the units that arrived")):
        position = initial_position(ruleset, scen, {})
        enqueue(position, 1000, "japan", [
            {"policy": "overstack", "rule": "ask"},
            {"request": "t2/planning/japan/entry", "answer": {"entries": {u: "5030" for u in (
                "mk-1-cav", "mk-7-cav", "mk-8-cav")}}},
            {"request": "t2/overstack1", "answer": answer}])
        with pytest.raises(RulesError, match=message):
            resolve_pass(ruleset, position, ScriptedDice([]))
