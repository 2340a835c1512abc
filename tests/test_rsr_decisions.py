"""Red Sun Rising's land game on declared decisions (rsr/decisions.py): one object per kind of question, in the
module of the rule that raises it; one pending question in the state (``state.ask``); the stages' steps
declared in sequence.py and run by turn.py; the naval game behind one door (naval_seam.py)."""

from __future__ import annotations

import dataclasses
import inspect
from pathlib import Path
from typing import Any

import pytest

from rsr.cases import case_scenario, collect
from rsr.engine import enqueue, initial_position, resolve_pass
from rsr.errors import RulesError
from rsr.fairdice import ScriptedDice
from rsr.rulesets.red_sun_rising import ruleset as rsr_ruleset
from rsr.rulesets.red_sun_rising import turn
from rsr.rulesets.red_sun_rising.ruleset import DECISIONS, DRIVER, RedSunRising
from rsr.rulesets.red_sun_rising.sequence import STAGES
from rsr.rulesets.red_sun_rising.state import Ask, digest_fields
from rsr.scenario import load_scenario

REPO = Path(__file__).resolve().parents[1]
CASES = REPO / "tests" / "cases" / "red-sun-rising"

# each land decision and the rule module that declares it, raises it and applies it
HOMES = {"fleet-feeding": "supply", "fleet-moves": "supply", "assignments": "reinforcements",
         "land-movement": "movement", "overstack": "stacking", "retreats": "retreat",
         "land-combat-attacks": "combat", "step-losses": "combat", "trenches": "defences"}

# the policies and their defaults as players have always had them (before the redesign)
POLICY_DEFAULTS = {"step-losses": "reduce-first", "overstack": "weakest-first", "assignments": "ask",
                   "retreat": "never", "trenches": "build", "fleets": "stay", "feeding": "most-points",
                   "disband": "never", "raid": "most-cargo", "later-rounds": "repeat"}


def test_each_land_question_is_one_decision_in_the_module_of_its_rule() -> None:
    assert {d.kind: d.apply.__module__.rpartition(".")[2] for d in DECISIONS} == HOMES
    for decision in DECISIONS:
        module = inspect.getmodule(decision.apply)  # declared where its answer is applied
        assert module is not None and any(value is decision for value in vars(module).values()), decision.kind
        case = decision.case if isinstance(decision.case, str) else ""
        assert case.startswith("RSR ") and decision.who and decision.ids, decision.kind
        assert decision.schema is not None and decision.shape, f"{decision.kind}: its answer's form is declared"
    assert len(inspect.getsource(rsr_ruleset).splitlines()) < 300


def test_policies_and_their_defaults_are_those_players_had() -> None:
    assert RedSunRising.policy_defaults == POLICY_DEFAULTS
    assert sorted(DRIVER.policies) == sorted(POLICY_DEFAULTS)
    rules = RedSunRising()
    rules.check_policy("retreat", {"adjacent-to-cp": 2})
    with pytest.raises(RulesError, match=r"policy retreat is never, ask, or \{adjacent-to-cp: N\} with N >= 1"):
        rules.check_policy("retreat", {"adjacent-to-cp": 0})
    with pytest.raises(RulesError, match="policy step-losses is one of reduce-first, weakest-first, ask, not 'x'"):
        rules.check_policy("step-losses", "x")
    with pytest.raises(RulesError, match="Red Sun Rising has no policy 'nap' "):
        rules.check_policy("nap", "ask")


def test_every_declared_step_has_its_runner_and_raises_declared_decisions() -> None:
    steps = {step.key: step for stage in STAGES.values() for step in stage.steps}
    assert set(steps) == set(turn.STEPS)
    for step in steps.values():
        assert step.case.startswith("RSR "), step.key
        for kind in [k.strip() for k in step.asks.split(",") if k.strip()]:
            assert DRIVER.decision(kind) is not None, (step.key, kind)  # land and naval: one table
    asked = {k for s in steps.values() for k in s.asks.split(", ") if k}
    assert {k for k in asked if k in HOMES} == set(HOMES) and asked == set(DRIVER.decisions)


def run_case(name: str) -> tuple[Any, Any]:
    """The position and request a case file ends on."""
    ((_, spec),) = collect([CASES / f"{name}.yaml"])
    ruleset = RedSunRising()
    position = initial_position(ruleset, case_scenario(spec), {})
    for index, item in enumerate(spec["inputs"]):
        enqueue(position, 1000, item["side"], [{k: v for k, v in item.items() if k != "side"}])
        position.queues[item["side"]][-1] = dataclasses.replace(position.queues[item["side"]][-1], index=index)
    after, result = resolve_pass(ruleset, position, ScriptedDice(spec.get("dice", [])))
    return after, result.waiting


def test_the_pending_question_is_one_value_in_the_state() -> None:
    after, waiting = run_case("step-loss-asked")
    ask = after.state.ask
    assert isinstance(ask, Ask) and (ask.kind, ask.side, ask.id) == (waiting.kind, waiting.side, waiting.id)
    assert waiting.kind == "step-losses" and after.state.step == "resolve"
    loss = ask.data["loss"]
    assert waiting.options == {"steps": loss.steps, "units": loss.units}
    # the digest's form keeps the flag the question replaced (ruleset version 0.3)
    fields = digest_fields(after.state)
    assert fields["pending_loss"] is loss and "ask" not in fields and "step" not in fields


def test_the_digest_keeps_the_old_flags_and_refuses_an_older_pickle() -> None:
    ruleset = RedSunRising()
    state = ruleset.initial_state(load_scenario("red-sun-rising", "liaoyang-1904"), {})
    fields = ruleset.state_fields(state)
    for name in ("pending_loss", "pending_overstack", "feeding_due", "fleets_moved", "stage_started",
                 "retreat_done", "end_phase"):
        assert name in fields, name
    assert fields["stage_started"] is True and "ask" not in fields
    del state.__dict__["ask"]  # as a checkpoint pickled by rsr before the redesign would be
    assert ruleset.state_fields(state) == {"stale-checkpoint": True}
