"""The Red Sun/Red Star bot uses its artillery (issue 14): bombardment and interdiction missions in the
Artillery Fire segment (RS/RS 5.21, 5.22) and offensive support in its prepared attacks (5.31, 5.6).

Everything goes through the ruleset's bot entry point (``RedStar.bot``), as the demo and the soak games do.
"""

from __future__ import annotations

from typing import Any

from rsr.engine import enqueue, initial_position, resolve_pass
from rsr.fairdice import ScriptedDice
from rsr.rulesets import get_ruleset
from rsr.rulesets.red_star import artillery, support
from rsr.scenario import load_scenario


def _position() -> Any:
    ruleset = get_ruleset("red-star")
    return ruleset, initial_position(ruleset, load_scenario("red-star", "july-1939-artillery"), {})


def test_the_bot_plans_a_legal_bombardment() -> None:
    """RS/RS 5.21, 5.53: the Japanese bot bombards an enemy unit next to its own units with guns in range,
    spends no more than half its support points, and the plan passes the rules' own check."""
    ruleset, position = _position()
    request = ruleset.next_request(position.state)
    assert request is not None and request.kind == "fire-missions"
    inputs = ruleset.bot(position.state, request)
    assert inputs == ruleset.bot(position.state, request)  # deterministic
    answer = next(item for item in inputs if "request" in item)["answer"]  # after a combats plan, if any
    checked = artillery.check_missions(position.state, "japan", answer)
    bombard = [m for m in checked if m["mission"] == "bombard"]
    assert bombard, answer
    grid = position.state.static.grid
    target = position.state.units[bombard[0]["bombard"]]
    japanese = [u.hex for u in position.state.on_map("japan") if not position.state.counter(u.id).artillery]
    assert any(grid.distance(target.hex, h) <= 1 for h in japanese)
    spent = sum(artillery.cost_of(position.state, m["mission"], len(m["artillery"])) for m in checked)
    assert 0 < spent <= position.state.support["japan"] // 2


def test_the_bot_gives_offensive_support_to_its_attack() -> None:
    """RS/RS 5.31, 5.6: the bot's sealed attack choices name a gun that may support the attack."""
    ruleset, position = _position()
    state = position.state
    inputs: list[dict[str, Any]] = [
        {"side": "japan", "request": "t1/japan/artillery/missions", "answer": {"missions": []}},
        {"side": "japan", "request": "t1/japan/prepared/combats",
         "answer": {"combats": [{"hex": "4411", "attackers": ["jp-1-71", "jp-2-71"]}]}}]
    for item in inputs:
        enqueue(position, 1000, item["side"], [{k: v for k, v in item.items() if k != "side"}])
    after, result = resolve_pass(ruleset, position, ScriptedDice([]))
    request = result.waiting
    assert request is not None and request.kind == "attack-choices"
    state = after.state
    answer = ruleset.bot(state, request)
    choice = answer[0]["answer"]["combats"]["t1/japan/prepared/c1"]
    combat = next(c for c in state.combats if c.id == "t1/japan/prepared/c1")
    assert 0 < len(choice["support"]) <= 2
    assert all(support.support_problem(state, combat, "attacker", g) is None for g in choice["support"])
    assert answer[0].get("seal") is True  # the seal stays as the bot decided


def test_a_bot_turn_fires_its_guns() -> None:
    """A Japanese player turn played by the bots (scripted dice) fires at least one mission."""
    ruleset, position = _position()
    state = position.state
    events: list[Any] = []
    for _ in range(60):
        request = ruleset.next_request(state)
        if request is None or request.id.startswith("t1/soviet"):
            break
        answer = ruleset.bot(state, request)
        if not answer:
            break
        answered = next(item for item in answer if "request" in item)  # a combats plan may come first
        state, new = ruleset.apply(state, request, answered["answer"], ScriptedDice([3] * 40))
        events += new
    assert any(e.kind == "fire-mission" for e in events)
