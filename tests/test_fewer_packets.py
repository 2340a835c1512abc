"""Fewer packets per game turn (issue 10): what rsr does so a turn fits in six emails with default policies.

* RSR 4.24, 11.24, 11.25: assault rounds 2 and 3 are answered by the standing policy ``later-rounds``
  (``repeat`` by default: each attack again with its attackers still able, at the same odds column or better).
* RS/RS 3.2, 4.1: the second player notes his entry hexes first, in the packet that ends the turn before.
* A seal that hides nothing (the opponent's part already fixed by his public standing policy) is not offered.
* Counted through real packet files between two homes (``rsr demo``'s players).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rsr import games as game_actions
from rsr import keys as keystore
from rsr import orders as order_actions
from rsr import reports as report_actions
from rsr.demo import player_home, run_demo
from rsr.engine import Position, Request, dry_run
from rsr.log import Replay, position_for_author
from rsr.rulesets.red_sun_rising import combat
from rsr.rulesets.red_sun_rising.state import RsrState


def _turns_of(game_dir: Path) -> list[str]:
    return sorted(p.name for p in (game_dir / "turns").iterdir())


def _packets_per_turn(game_dir: Path) -> dict[int, int]:
    """Packets after the acceptance, counted for the game turn of the position each was written against."""
    result = game_actions.load_game(game_dir, cache=False)
    counts: dict[int, int] = {}
    for record in result.passes:  # the pass resolving packet n is recorded by packet n + 1
        turn = int(getattr(record.after.state, "turn", 0)) if record.resolved >= 1 else 0
        counts[turn] = counts.get(turn, 0) + 1
    return counts


@pytest.mark.parametrize(("ruleset", "scenario", "most"), [
    ("red-sun-rising", "liaoyang-turn-1904", 7),   # a whole land turn: 6, and the packet revealing the last dice
    ("red-sun-rising", "liaoyang-1904", 3),        # both combat stages, three assault rounds each at most
    ("red-star", "july-1939-contact", 7),          # one whole game turn and the last reveal
])
def test_a_turn_by_mail_with_default_policies(tmp_path: Path, ruleset: str, scenario: str, most: int) -> None:
    alice = run_demo(tmp_path / "demo", echo=lambda _: None, scenario=scenario, ruleset_id=ruleset)
    after_acceptance = len(_turns_of(alice)) - 2
    assert 2 <= after_acceptance <= most, _turns_of(alice)


def test_later_assault_rounds_repeat_by_policy_in_one_packet(tmp_path: Path) -> None:
    """RSR 4.24, 11.25: the Russian player declares round 1 once; rounds 2 and 3 follow in the same pass."""
    alice = run_demo(tmp_path / "demo", echo=lambda _: None, scenario="liaoyang-1904")
    result = game_actions.load_game(alice, cache=False)
    events = [e for record in result.passes for e in record.events]
    declared = [e for e in events if e.kind == "policy" and "by policy later-rounds" in e.text]
    rounds = [e for e in events if e.kind == "round"]
    assert rounds, "a later assault round was fought"
    assert declared, "a later round was declared by the standing policy"
    asked = [item["request"] for packet in result.packets for item in packet.payload.get("inputs") or []
             if "request" in item]
    assert not [r for r in asked if re.search(r"/r[23]/attacks$", r)], asked


def _state_after_round_one() -> RsrState:
    """A position in round 2 of the Japanese combat stage, after a 2-1 attack on 1908 in round 1."""
    from rsr.cases import case_scenario
    from rsr.engine import enqueue, initial_position, resolve_pass
    from rsr.fairdice import ScriptedDice
    from rsr.rulesets import get_ruleset
    from rsr.yamlio import load_yaml_text

    path = Path(__file__).parent / "cases" / "red-sun-rising" / "later-rounds-repeat-while-the-odds-hold.yaml"
    spec = load_yaml_text(path.read_text(), str(path))
    ruleset = get_ruleset("red-sun-rising")
    position = initial_position(ruleset, case_scenario(spec), {})
    enqueue(position, 1000, "japan", [{"policy": "later-rounds", "rule": "ask"}, spec["inputs"][0]])
    after, result = resolve_pass(ruleset, position, ScriptedDice([1]))
    assert result.waiting is not None and result.waiting.id == "t7/japan/combat/r2/attacks"
    assert result.waiting.policy == "later-rounds"
    return after.state


def test_repeat_keeps_an_attack_whose_odds_hold() -> None:
    """RSR 11.25: die 1 gives 1/1; 12 against 4 is 3-1, better than the declared 2-1: repeated."""
    state = _state_after_round_one()
    assert combat.repeated_attacks(state, "japan") == {
        "attacks": [{"hex": "1908", "attackers": ["jp-2", "jp-4"], "command": "jp-2a", "advance": []}]}


def test_repeat_drops_an_attack_whose_odds_fell() -> None:
    """RSR 11.25: declared at a column above what the attackers now make, the attack is dropped; an attacker
    no longer next to the hex drops out of it."""
    state = _state_after_round_one()
    state.declared_round[0]["column"] = "4-1"
    assert combat.repeated_attacks(state, "japan") == {"attacks": []}
    unit = state.units["jp-4"]
    state.declared_round[0]["column"] = "1-1"
    unit.hex = "0801"  # no longer next to 1908: it drops out; jp-2 alone, 4 against 4, still makes 1-1
    repeated = combat.repeated_attacks(state, "japan")["attacks"]
    assert [a["attackers"] for a in repeated] == [["jp-2"]]


def _japan_at(tmp: Path, kind: str) -> tuple[Replay, Position, Request]:
    """Japan's own view of july-1939-contact after the acceptance, run forward (no dice) to the request of
    ``kind``; both players' keys in one home (hot-seat)."""
    with player_home(tmp / "home"):
        keystore.new_key("alice")
        keystore.new_key("bob")
        game_dir, invite = game_actions.new_game(tmp / "a", "red-star", "july-1939-contact", "japan", "alice", "Alice")
        bob_dir, accept = game_actions.accept_game(game_dir / "turns" / invite.file_name(), tmp / "b", "bob", "Bob")
        report_actions.receive(game_dir, bob_dir / "turns" / accept.file_name(), "alice")
        result = game_actions.load_game(game_dir)
        position, waiting, _ = position_for_author(result, keystore.load_key("alice"))
    ruleset = result.ruleset
    seq = len(result.packets)
    while waiting is not None and waiting.kind != kind:
        assert waiting.side == "japan", waiting
        answer = [{k: v for k, v in item.items() if k != "seal"} for item in ruleset.bot(position.state, waiting)]
        run = dry_run(ruleset, position, "japan", seq, answer)
        assert not run.stopped_at_die, "the contact position declares its combats before any die"
        position, waiting = run.position, run.next_request
    assert waiting is not None
    return result, position, waiting


def test_a_seal_is_offered_only_where_it_hides_something(tmp_path: Path) -> None:
    """RS/RS 6.1, 6.21, 6.22: the attacker's choices are sealed only while the defender has his own to make."""
    result, position, waiting = _japan_at(tmp_path, "attack-choices")
    item = {"request": waiting.id, "answer": waiting.template, "seal": True}
    # the defender's choices come from his standing policy (auto, the default): public and fixed already
    assert not order_actions.seal_hides_anything(result, position, "japan", item)
    assert order_actions.unsealed_where_useless(result, position, "japan", [item]) == [
        {"request": waiting.id, "answer": waiting.template}]
    # the defender asks to be asked: now the seal keeps the attacker's choices from him
    position.policies["soviet"]["defence-choices"] = "ask"
    assert order_actions.seal_hides_anything(result, position, "japan", item)
    assert order_actions.unsealed_where_useless(result, position, "japan", [item]) == [item]


def test_combats_planned_with_the_fire_are_declared_as_far_as_they_still_can_be(tmp_path: Path) -> None:
    """RS/RS 5.0, 6.1: a side that fires before its combats may sign them with the fire missions (policy
    ``combats: {turn, combats}``); they are declared when the game asks, and what the fire made impossible
    is dropped, so the combats need no packet of their own after the fire's dice."""
    from rsr.rulesets.red_star import bot
    from rsr.rulesets.red_star import combat as cm

    result, position, waiting = _japan_at(tmp_path, "combats")
    state = position.state
    plan = bot.combats_planned_with(state, "japan", {"missions": [{"guns": ["x"]}]})[0]["rule"]["combats"]
    assert plan and all("lead" in c for c in plan)
    assert cm.planned_combats(state, "japan", plan) == {"combats": plan}
    # the first target's defenders are gone: that combat is dropped, the rest stand
    for unit in state.units_in(plan[0]["hex"], "soviet"):
        unit.hex = None
    answer = cm.planned_combats(state, "japan", plan)
    assert answer["combats"] == plan[1:]
    assert [n for n, _ in answer["dropped"]] == [1] and "no enemy unit" in answer["dropped"][0][1]  # (issue 20)
    state.support["japan"] = 0  # no support point left to pay for an attacking hex (6.1)
    answer = cm.planned_combats(state, "japan", plan)
    assert answer["combats"] == [] and len(answer["dropped"]) == len(plan)
    assert all("support point" in reason for n, reason in answer["dropped"] if n > 1)
    # through the engine: the plan answers the request, no packet needed
    _, position, waiting = _japan_at(tmp_path / "again", "combats")
    rule = {"turn": position.state.turn, "combats": plan}
    run = dry_run(result.ruleset, position, "japan", len(result.packets), [{"policy": "combats", "rule": rule}])
    assert run.stopped_at_die, "declared by the plan, the first combat rolls its dice in the same pass"
    assert plan[0]["attackers"][0] in run.stopped_at_die  # RS/RS 6.91: its first attacker's night die
    # a plan for another turn does not answer, and a malformed one is refused when signed
    other = {"turn": position.state.turn + 1, "combats": plan}
    run = dry_run(result.ruleset, position, "japan", len(result.packets), [{"policy": "combats", "rule": other}])
    assert run.next_request is not None and run.next_request.kind == "combats"
    with pytest.raises(Exception, match="policy combats is ask"):
        dry_run(result.ruleset, position, "japan", len(result.packets),
                [{"policy": "combats", "rule": {"turn": 1, "combats": "all"}}])
