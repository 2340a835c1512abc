"""The engine's resolution rules (docs/protocol.md): dry runs stop at dice, sealed answers, policies."""

from __future__ import annotations

import pytest

from rsr.engine import dry_run, enqueue, initial_position, resolve_pass
from rsr.errors import BadInput, RulesError, VerificationError
from rsr.fairdice import ScriptedDice, seal
from tests.support.duel import Duel, duel_scenario

SALT = bytes(range(16))


def start() -> tuple[Duel, object]:
    ruleset = Duel()
    return ruleset, initial_position(ruleset, duel_scenario(), {})


def test_pass_stops_at_an_answer_nobody_signed() -> None:
    ruleset, pos = start()
    enqueue(pos, 2, "attacker", [{"request": "r1/attack", "answer": 1}])
    after, result = resolve_pass(ruleset, pos, ScriptedDice([]))
    assert result.waiting is not None and result.waiting.id == "r1/defend"
    assert result.applied == ["packet 2 input 1"]
    assert after.queues["attacker"] == []


def test_dry_run_accepts_up_to_the_first_die_and_refuses_beyond() -> None:
    ruleset, pos = start()
    enqueue(pos, 2, "attacker", [{"request": "r1/attack", "answer": 1}])
    pos, _ = resolve_pass(ruleset, pos, ScriptedDice([]))
    run = dry_run(ruleset, pos, "defender", 3, [{"request": "r1/defend", "answer": 2}])
    assert run.stopped_at_die is not None and "shot" in run.stopped_at_die
    with pytest.raises(BadInput, match="input 2 comes after a die roll"):
        dry_run(ruleset, pos, "defender", 3, [{"request": "r1/defend", "answer": 2},
                                               {"request": "r2/defend", "answer": 1}])


def test_dry_run_refuses_inputs_the_game_has_not_reached() -> None:
    ruleset, pos = start()
    with pytest.raises(BadInput, match="input 2 is not needed yet"):
        dry_run(ruleset, pos, "attacker", 2, [{"request": "r1/attack", "answer": 1},
                                              {"request": "r2/attack", "answer": 1}])


def test_illegal_and_stale_inputs_are_named() -> None:
    ruleset, pos = start()
    with pytest.raises(BadInput, match="packet 2 input 1: lane 7"):
        dry_run(ruleset, pos, "attacker", 2, [{"request": "r1/attack", "answer": 7}])
    enqueue(pos, 2, "attacker", [{"request": "r9/attack", "answer": 1}])
    with pytest.raises(RulesError, match="answers 'r9/attack' but the game asks attacker for r1/attack"):
        resolve_pass(ruleset, pos, ScriptedDice([]))


def test_sealed_choice_is_hidden_until_unsealed() -> None:
    """Sealed choices (docs/protocol.md): the sealed content stays hidden while the other side answers openly."""
    ruleset, pos = start()
    enqueue(pos, 2, "attacker", [{"request": "r1/attack", "sealed": seal(SALT, 3)}])
    pos, result = resolve_pass(ruleset, pos, ScriptedDice([]))
    assert result.waiting is not None and result.waiting.id == "r1/defend"
    assert "3" not in repr(ruleset.state_json(pos.state))
    enqueue(pos, 3, "defender", [{"request": "r1/defend", "answer": 1}])
    pos, result = resolve_pass(ruleset, pos, ScriptedDice([]))
    assert result.waiting is not None and result.waiting.unseals == "r1/attack"
    enqueue(pos, 4, "attacker", [{"unseal": "r1/attack", "salt": SALT.hex(), "choice": 3}])
    pos, result = resolve_pass(ruleset, pos, ScriptedDice([5]))
    assert pos.state.hits == [1]


def test_wrong_unseal_is_rejected() -> None:
    ruleset, pos = start()
    enqueue(pos, 2, "attacker", [{"request": "r1/attack", "sealed": seal(SALT, 3)}])
    enqueue(pos, 3, "defender", [{"request": "r1/defend", "answer": 1}])
    enqueue(pos, 4, "attacker", [{"unseal": "r1/attack", "salt": SALT.hex(), "choice": 2}])
    with pytest.raises(VerificationError, match="packet 4: input 1: the unsealed choice for r1/attack does not match"):
        resolve_pass(ruleset, pos, ScriptedDice([5]))


def test_sealing_a_request_that_is_not_sealable_is_refused() -> None:
    ruleset, pos = start()
    enqueue(pos, 2, "attacker", [{"request": "r1/attack", "answer": 1}])
    enqueue(pos, 3, "defender", [{"request": "r1/defend", "sealed": seal(SALT, 1)}])
    with pytest.raises(RulesError, match="may not be answered sealed"):
        resolve_pass(ruleset, pos, ScriptedDice([5]))


def test_policies_are_installed_in_order_and_checked() -> None:
    ruleset, pos = start()
    enqueue(pos, 2, "attacker", [{"policy": "aim", "rule": "careful"}, {"request": "r1/attack", "answer": 1}])
    pos, result = resolve_pass(ruleset, pos, ScriptedDice([]))
    assert pos.policies["attacker"]["aim"] == "careful"
    assert result.events[0].kind == "policy"
    enqueue(pos, 3, "defender", [{"policy": "aim", "rule": "wild"}])
    with pytest.raises(RulesError, match="packet 3 input 1: unknown policy"):
        resolve_pass(ruleset, pos, ScriptedDice([]))


def test_the_pass_is_pure() -> None:
    ruleset, pos = start()
    enqueue(pos, 2, "attacker", [{"request": "r1/attack", "answer": 1}])
    before = pos.digest(ruleset)
    resolve_pass(ruleset, pos, ScriptedDice([]))
    assert pos.digest(ruleset) == before
