"""Red Sun Rising as one sequence of play (RSR 4.0): the naval game's questions are declared decisions of the
game's one table and wait, as the land game's do, in the one pending value ``state.ask``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rsr.engine import Context, initial_position
from rsr.fairdice import ScriptedDice
from rsr.rulesets import get_ruleset
from rsr.rulesets.red_sun_rising import bot as bots
from rsr.rulesets.red_sun_rising import ruleset as rsr_ruleset
from rsr.rulesets.red_sun_rising import turn
from rsr.rulesets.red_sun_rising.naval import flow, ports, raid
from rsr.rulesets.red_sun_rising.sequence import STAGES, Go
from rsr.rulesets.red_sun_rising.state import naval_phase
from rsr.scenario import load_scenario

REPO = Path(__file__).resolve().parents[1]


def _start(scenario: str) -> tuple[Any, Any]:
    game = get_ruleset("red-sun-rising")
    return game, initial_position(game, load_scenario("red-sun-rising", scenario), {}).state


def _answer(game: Any, state: Any, request: Any) -> Any:
    """A standing policy's answer where the request has one, else the demo bot's, else the template."""
    if request.policy:
        answer = game.answer_by_policy(state, request, game.policy_defaults.get(request.policy))
        if answer is not None:
            return answer
    inputs = bots.answer(state, request)
    return inputs[0]["answer"] if inputs else request.template


def test_one_table_holds_every_land_and_naval_decision_once() -> None:
    """Every naval kind (naval/flow.py) is found in the game's table; no kind is declared twice."""
    driver = rsr_ruleset.DRIVER
    land = [d.kind for d in rsr_ruleset.DECISIONS]
    assert len(set(land)) == len(land) and not set(land) & set(flow.DECISIONS)
    for kind, decision in flow.DECISIONS.items():
        assert driver.decision(kind) is decision, kind
    assert driver.decision("no-such-question") is None
    # RSR 7.2, RSR 18.5: the naval policies are the decisions' own, with their defaults
    assert driver.policies["raid"] is raid.RAID.policy and driver.policies["disband"] is ports.DISBAND.policy
    assert {"raid": "most-cargo", "disband": "never"}.items() <= rsr_ruleset.RedSunRising.policy_defaults.items()


@pytest.mark.parametrize("scenario", ["naval-1905", "naval-1904"])
def test_every_question_waits_in_the_one_pending_value(scenario: str) -> None:
    """Naval stage (RSR 4.11-4.15), landings (RSR 7.5) and land stages alike: the request is the one the
    pending ``state.ask`` and its declared decision make."""
    game, state = _start(scenario)
    dice = ScriptedDice([4, 2, 5, 3, 6, 1] * 400)
    kinds: set[str] = set()
    for _ in range(120):
        request = game.next_request(state)
        if request is None:
            break
        ask = state.ask
        assert ask is not None and (ask.kind, ask.side, ask.id) == (request.kind, request.side, request.id)
        made = rsr_ruleset.DRIVER.decision(ask.kind).request(state, ask)  # type: ignore[union-attr]
        assert (made.case, made.prompt, made.policy, made.sealable) == \
            (request.case, request.prompt, request.policy, request.sealable)
        if state.stage_key() == "naval":  # RSR 4.1: the step of the Naval Sequence that asks, its phase of old
            assert state.step in flow.STEPS and naval_phase(state) in ("surprise", "orders", "search", "rounds")
        kinds.add(request.kind)
        state, _ = game.apply(state, request, _answer(game, state, request), dice)
    assert "sailing-orders" in kinds and {"assignments", "trenches"} <= kinds
    if scenario == "naval-1905":
        assert "naval-landings" in kinds


def test_the_landings_are_raised_by_the_reinforcement_stage_step() -> None:
    """RSR 7.5: the Japanese Reinforcement Stage's naval-arrivals step asks the landings once (Go.ASKED), then the
    stage goes on to its assignments."""
    game, state = _start("naval-1905")
    dice = ScriptedDice([4, 2, 5, 3, 6, 1] * 400)
    while (request := game.next_request(state)) is not None and request.kind != "naval-landings":
        state, _ = game.apply(state, request, _answer(game, state, request), dice)
    assert request is not None and state.stage_key() == "japan.reinforcement" and state.step == "assignments"
    assert [s.key for s in STAGES["japan.reinforcement"].steps][0] == "naval-arrivals"
    state.ask = None
    assert turn.run_naval_arrivals(state, Context(dice), "japan") is Go.ASKED
    assert state.ask is not None and state.ask.id == request.id


def test_a_checkpoint_from_before_the_join_is_stale() -> None:
    """A state pickled by an older rsr waited for a naval question with ``ask`` None: its digest cannot match."""
    game, state = _start("naval-1905")
    assert state.ask is not None and state.ask.kind == "sailing-orders"
    assert "stale-checkpoint" not in game.state_fields(state)
    state.ask = None
    assert game.state_fields(state) == {"stale-checkpoint": True}


def test_a_land_game_never_loads_the_naval_rules() -> None:
    """Start-up: the naval decisions join the table when a naval game first asks one."""
    probe = ("import sys\nfrom rsr.engine import initial_position\nfrom rsr.rulesets import get_ruleset\n"
             "from rsr.scenario import load_scenario\n"
             "game = get_ruleset('red-sun-rising')\n"
             "for name in sys.argv[1:]:\n"
             "    state = initial_position(game, load_scenario('red-sun-rising', name), {}).state\n"
             "    print(game.next_request(state).kind, 'rsr.rulesets.red_sun_rising.naval.flow' in sys.modules)\n")
    run = subprocess.run([sys.executable, "-c", probe, "liaoyang-1904", "naval-1905"], capture_output=True,
                         text=True, check=True, cwd=REPO)
    land, naval = run.stdout.split("\n")[:2]
    assert land.endswith("False") and naval == "sailing-orders True"


def test_the_digest_keeps_the_naval_phase_of_version_0_3() -> None:
    """The naval stage's steps replace the naval state's ``phase``; the digest's form derives it (RSR 18.83 surprise,
    RSR 4.11 orders, done after the stage), so games in progress keep their digests."""
    game, state = _start("naval-1904")  # February 1904: the surprise attack opens the game (RSR 19.0)
    assert state.ask.kind == "naval-surprise-attack" and state.step == "naval-orders"
    assert "phase" not in state.naval.__dict__ and game.state_fields(state)["naval"]["phase"] == "surprise"
    game, state = _start("naval-1905")
    assert game.state_fields(state)["naval"]["phase"] == "orders"
    dice = ScriptedDice([4, 2, 5, 3, 6, 1] * 400)
    while state.stage_key() == "naval":
        request = game.next_request(state)
        state, _ = game.apply(state, request, _answer(game, state, request), dice)
    assert game.state_fields(state)["naval"]["phase"] == "done"


def test_a_raid_choice_waits_in_the_pending_value_and_the_digest_keeps_its_hex() -> None:
    """RSR 7.2: the hex whose raid waits for the Russian's choice is the pending question's context; the digest's form
    keeps it as the naval state's ``raid_asking`` of version 0.3 (0 while no raid waits)."""
    game, state = _start("naval-1905")
    assert "raid_asking" not in state.naval.__dict__ and game.state_fields(state)["naval"]["raid_asking"] == 0
    state.ask = raid.raid_ask(state, 31)
    assert state.ask.id == f"t{state.turn}/naval/round0/russia/raid/hex31"
    assert game.state_fields(state)["naval"]["raid_asking"] == 31
    assert raid.RAID.request(state, state.ask).options["hex"] == 31
