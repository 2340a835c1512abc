"""The Red Sun Rising naval game on declared decisions (rsr/decisions.py): every question it asks is one
``Decision`` in the rule module that raises it, the question waited for is one value (``flow.pending``), the
Naval Sequence is a table of stages and a battle's hours a table of declared steps. Rules are cited as
``RSR <case>``."""

from __future__ import annotations

import copy
import inspect
import re
from typing import Any

import pytest

from rsr.decisions import Decision, ShapeError
from rsr.engine import Context, initial_position
from rsr.fairdice import ScriptedDice
from rsr.rulesets import get_ruleset
from rsr.rulesets.red_sun_rising.naval import battle_flow, bot, flow, plans
from rsr.rulesets.red_sun_rising.naval.state import NavalAsk
from rsr.rulesets.red_sun_rising.sequence import STAGES
from rsr.scenario import Scenario, load_scenario


def _game(scenario: str, changes: dict[str, Any] | None = None) -> tuple[Any, Any]:
    base = load_scenario("red-sun-rising", scenario)
    data = copy.deepcopy(base.data)
    data["scenario"].update(changes or {})
    game = get_ruleset("red-sun-rising")
    return game, initial_position(game, Scenario(base.ruleset, base.name, data, "test"), {}).state


def _case(decision: Decision, side: str) -> str:
    return decision.case(NavalAsk(decision.kind, side, "x")) if callable(decision.case) else decision.case


def test_every_naval_decision_is_declared_once_with_its_case_and_who_answers() -> None:
    """Each kind is one Decision: its case cited with the RSR prefix, who answers, its id pattern."""
    assert len(flow.DECISIONS) == 17
    for kind, decision in flow.DECISIONS.items():
        assert decision.kind == kind
        for side in ("russia", "japan"):
            assert re.fullmatch(r"RSR \d+\.\d+", _case(decision, side)), kind
        assert decision.who and decision.ids.startswith("t<turn>/"), kind


def test_each_decision_lives_in_the_module_of_its_rule() -> None:
    """The module that declares each decision is the one whose rule raises it (not flow.py)."""
    homes = {kind: inspect.getmodule(d.apply).__name__.rsplit(".", 1)[1]  # type: ignore[union-attr]
             for kind, d in flow.DECISIONS.items()}
    assert homes["sailing-orders"] == homes["naval-routes"] == homes["naval-routes-unseal"] == "orders"
    assert homes["battle-plan"] == homes["battle-plan-unseal"] == "plans"
    assert homes["naval-round"] == "movement" and homes["naval-raid"] == "raid"
    assert homes["naval-surprise-attack"] == "surprise"
    assert homes["naval-landings"] == "transport" and homes["naval-disband"] == "ports"
    assert {homes[k] for k in flow.BATTLE_KINDS} == {"battle_flow"}
    assert "flow" not in homes.values()


@pytest.mark.parametrize("scenario", ["naval-1904", "naval-1905"])
def test_the_pending_question_is_one_value_that_makes_the_request(scenario: str) -> None:
    """Through a Naval Sequence asked round by round, every request is the one its pending question (``state.ask``)
    and its declared decision make (same id, kind, case, prompt, options, template, sealing)."""
    game, state = _game(scenario)
    dice = ScriptedDice([3] * 400)
    seen: set[str] = set()
    while (request := game.next_request(state)) is not None and state.stage_key() == "naval":
        ask = state.ask
        assert ask is not None and (ask.kind, ask.side, ask.id) == (request.kind, request.side, request.id)
        made = flow.DECISIONS[ask.kind].request(state, ask)
        assert (made.case, made.prompt, made.options, made.template, made.sealable, made.unseals) == \
            (request.case, request.prompt, request.options, request.template, request.sealable, request.unseals)
        seen.add(request.kind)
        state, _ = game.apply(state, request, bot.answer(state, request, True), dice)
    assert "sailing-orders" in seen and "naval-round" in seen


def test_a_wrong_shape_is_refused_before_any_rule_with_the_one_line_error() -> None:
    """RSR 4.11: sailing orders with an unknown key are a ShapeError carrying the orders' form."""
    game, state = _game("naval-1905")
    ask = state.ask
    assert ask is not None and ask.kind == "sailing-orders"
    with pytest.raises(ShapeError, match="sailing orders are a mapping with keys"):
        flow.answer(state, Context(ScriptedDice([])), ask, {"fleets": {}, "wishes": True})


def test_the_naval_sequence_is_a_table_of_stages() -> None:
    """RSR 4.1, RSR 4.15: the steps of the naval stage in the order of the Naval Sequence, each with its case, each
    run by flow.py."""
    steps = STAGES["naval"].steps
    assert [s.key for s in steps] == list(flow.STEPS) == ["naval-surprise", "naval-orders", "naval-search",
                                                          "naval-rounds", "naval-attrition"]
    assert [s.case for s in steps] == ["RSR 18.83", "RSR 4.11-4.12", "RSR 4.13", "RSR 4.14", "RSR 4.14-4.15"]


def test_every_battle_step_and_hourly_question_is_declared() -> None:
    """RSR 4.4: each step a battle can stand at is a key of battle_flow.STEPS, and each question a step
    leaves is one of battle_flow.DECISIONS."""
    source = inspect.getsource(battle_flow)
    steps = {f"range:{side}" for side in ("russia", "japan")}  # (built from the side: "range:russia" if ...)
    for targets, values in re.findall(r"^ *([a-z_.]+(?:, [a-z_.]+)*) = (.+)$", source, re.M):
        names, given = targets.split(", "), values.split(", ")
        if "battle.step" in names and len(names) == len(given):
            steps |= set(re.findall(r'(?<!== )"([a-z:]+)"', given[names.index("battle.step")]))
    assert {"hour", "search", "sighting", "secondary", "targets", "torpedo"} <= steps
    assert steps <= set(battle_flow.STEPS) and "morale" in battle_flow.STEPS
    for step in battle_flow.STEPS.values():
        assert re.fullmatch(r"RSR \d+\.\d+", step.case), step.key
    asked = set(re.findall(r'"kind": "(naval-[a-z-]+)"', source))
    assert asked and asked <= {d.kind for d in battle_flow.DECISIONS}


def test_an_hourly_question_names_its_battle_hour_and_side() -> None:
    """RSR 8.42: a plan that asks the range stops the battle; the pending value's id names round, hex, hour
    and side, as the game's request ids always have."""
    from rsr.rulesets.red_sun_rising.naval.state import Fleet

    game, state = _game("naval-1905")
    static = state.naval_static
    ru = Fleet("ru", "russia", next(a for a in sorted(static.admirals) if static.admiral(a).side == "russia"), 42,
               [s for s in sorted(static.ships) if static.ship(s).side == "russia" and static.ship(s).capital][:2],
               morale=3)
    jp = Fleet("jp", "japan", next(a for a in sorted(static.admirals) if static.admiral(a).side == "japan"), 42,
               [s for s in sorted(static.ships) if static.ship(s).side == "japan" and static.ship(s).capital][:2],
               morale=3)
    from rsr.rulesets.red_sun_rising.naval.battle import BattleSetting

    fight = battle_flow.begin(Context(ScriptedDice([3, 3])), static, 42, [ru], [jp], "clear",
                              BattleSetting(plans={"russia": dict(plans.ASK_PLAN)}))
    assert isinstance(fight, battle_flow.Battle)
    assert battle_flow.run(Context(ScriptedDice([])), static, fight) is None
    ask = battle_flow.pending(fight, "t3/naval/battle/r2/hex42")
    assert (ask.kind, ask.side, ask.id) == ("naval-range", "russia", "t3/naval/battle/r2/hex42/h1/russia/range")
