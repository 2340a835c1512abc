"""RS/RS 5.2 (issue 22, point 14): fire missions one at a time, and the plan a player may set ahead (policy
``fire-missions: {turn, missions}``), checked whole where it is set; RS/RS ruleset 0.4 refuses a 0.3 game
with a line naming both versions.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rsr import keys as keystore
from rsr.engine import initial_position
from rsr.errors import RulesError, VerificationError
from rsr.gamedir import append_packets, create_game_dir, load_log
from rsr.log import accept_packet, invite_packet, replay
from rsr.rulesets import get_ruleset
from rsr.rulesets.red_star.ruleset import RedStar
from rsr.scenario import load_scenario


def _at_fire_missions() -> tuple[Any, Any]:
    ruleset = get_ruleset("red-star")
    position = initial_position(ruleset, load_scenario("red-star", "july-1939-artillery"), {})
    request = ruleset.next_request(position.state)
    assert request is not None and request.id == "t1/japan/artillery/missions"
    return ruleset, position.state


def test_a_plan_is_checked_whole_where_it_is_set() -> None:
    """RS/RS 5.2, 4.3: a plan set before the segment's first mission: each mission legal, no gun twice, and
    the points to pay them all; else it is refused before any die (never voided after the dice)."""
    ruleset, state = _at_fire_missions()
    good = {"turn": 1, "missions": [{"bombard": "su-1-149", "artillery": ["jp-1-13-art"]}]}
    ruleset.check_policy("fire-missions", good)
    ruleset.check_policy_in(state, "japan", "fire-missions", good)
    twice = {"turn": 1, "missions": [{"bombard": "su-1-149", "artillery": ["jp-1-13-art"]},
                                     {"interdict": "4006", "artillery": ["jp-1-13-art"]}]}
    with pytest.raises(RulesError, match="jp-1-13-art already has a mission"):
        ruleset.check_policy_in(state, "japan", "fire-missions", twice)
    guns = ["jp-1-13-art", "jp-3-13-art"]
    dear = {"turn": 1, "missions": [{"bombard": "su-1-149", "artillery": [g]} for g in guns]}
    ruleset.check_policy_in(state, "japan", "fire-missions", dear)
    state.support["japan"] = 3
    with pytest.raises(RulesError, match="these missions cost 4 support point.s.; japan has 3"):
        ruleset.check_policy_in(state, "japan", "fire-missions", dear)
    later = {"turn": 2, "missions": dear["missions"]}  # another turn's plan: checked when its turn comes
    ruleset.check_policy_in(state, "japan", "fire-missions", later)
    with pytest.raises(RulesError, match="policy fire-missions is planned, ask, hold, or"):
        ruleset.check_policy("fire-missions", {"turn": 1, "missions": "all"})


def test_the_policy_answers_one_mission_at_a_time() -> None:
    """RS/RS 5.2: the plan's answer to a request names one mission; used up, it answers "no more"."""
    ruleset, state = _at_fire_missions()
    request = ruleset.next_request(state)
    plan = {"turn": 1, "missions": [{"bombard": "su-1-149", "artillery": ["jp-1-13-art"]},
                                    {"interdict": "4006", "artillery": ["jp-2-13-art"]}]}
    answer = ruleset.answer_by_policy(state, request, plan)
    assert answer["missions"] == plan["missions"][:1] and answer["plan"]["next"] == 1
    state.mission_plan = {"missions": plan["missions"], "next": 2}
    assert ruleset.answer_by_policy(state, request, plan)["missions"] == []
    assert ruleset.answer_by_policy(state, request, {**plan, "turn": 2}) is None  # not this turn's: asked
    assert ruleset.answer_by_policy(state, request, "hold") == {"missions": []}
    assert ruleset.answer_by_policy(state, request, "planned") is None  # the segment's first mission is asked


def test_a_hand_written_plan_marker_is_refused() -> None:
    """Only the policy makes the plan's progress (artillery.PlanStep); a signed answer cannot claim one."""
    ruleset, state = _at_fire_missions()
    request = ruleset.next_request(state)
    from rsr.fairdice import ScriptedDice

    with pytest.raises(RulesError, match="fire missions are"):
        ruleset.apply(state, request, {"missions": [], "plan": {"next": 5, "dropped": [], "missions": []}},
                      ScriptedDice([]))


def test_a_game_begun_under_ruleset_0_3_is_refused_with_both_versions(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A game in progress survives an upgrade: an RS/RS 0.3 game (one answer fixed every fire mission) is not
    replayed under 0.4's request ids; the line names the version it was begun with and this rsr's."""
    monkeypatch.setenv("RSR_HOME", str(tmp_path / "home"))
    ruleset = get_ruleset("red-star")
    japan, soviet = keystore.new_key("japan-0-3"), keystore.new_key("soviet-0-3")
    monkeypatch.setattr(RedStar, "version", "0.3")
    invite = invite_packet(ruleset, load_scenario("red-star", "july-1939"), japan, "japan", "J", bytes(range(16)),
                           None, {}, nonce=bytes([1]) * 32)
    game_dir = create_game_dir(tmp_path / "games", invite)
    append_packets(game_dir, [invite])
    append_packets(game_dir, [accept_packet(invite, soviet, "S", [], nonce=bytes([2]) * 32)])
    monkeypatch.setattr(RedStar, "version", "0.4")
    assert get_ruleset("red-star").version == "0.4"
    with pytest.raises(VerificationError, match="the game was created with red-star version 0.3; this rsr has 0.4"):
        replay(load_log(game_dir))
