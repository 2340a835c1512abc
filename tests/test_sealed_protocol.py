"""Sealed choices through signed packets (docs/protocol.md), with the test duel ruleset."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rsr import gamedir
from rsr import log as gamelog
from rsr.cli import main
from rsr.fairdice import seal
from tests.support.duel import Duel, duel_scenario
from tests.support.games import duel_game

SALT = bytes(range(16, 32))


pytestmark = pytest.mark.usefixtures("duel_registered")


def test_sealed_game_verifies(tmp_path: Path) -> None:
    inputs = {
        2: [{"request": "r1/attack", "sealed": seal(SALT, 2)}],
        3: [{"request": "r1/defend", "answer": 1}],
        4: [{"unseal": "r1/attack", "salt": SALT.hex(), "choice": 2}],
    }
    game_dir, _ = duel_game(tmp_path, inputs, 6)
    out = CliRunner().invoke(main, ["verify", str(game_dir), "--dice"])
    assert out.exit_code == 0, out.output
    assert "shot in round 1" in out.output


def test_wrong_unseal_cannot_be_signed(tmp_path: Path) -> None:
    inputs = {
        2: [{"request": "r1/attack", "sealed": seal(SALT, 2)}],
        3: [{"request": "r1/defend", "answer": 1}],
        4: [{"unseal": "r1/attack", "salt": SALT.hex(), "choice": 3}],
    }
    with pytest.raises(Exception, match="does not match its seal"):
        duel_game(tmp_path, inputs, 6)


def test_wrong_unseal_in_a_forged_log_fails_verify(tmp_path: Path) -> None:
    """A packet whose unseal does not match (signed by a tool that skipped the check) fails verify."""
    inputs = {
        2: [{"request": "r1/attack", "sealed": seal(SALT, 2)}],
        3: [{"request": "r1/defend", "answer": 1}],
    }
    game_dir, keys = duel_game(tmp_path, inputs, 4)
    result = gamelog.replay(gamedir.load_log(game_dir))
    key = keys["attacker"]
    from rsr.packet import sign_payload

    record = gamelog.pending_pass(result, key)
    assert record is not None
    payload = {
        "v": result.contract, "game": result.game_id, "seq": 4, "side": "attacker", "prev": result.last.hash_hex,
        "commit": "0" * 64,
        "reveal": gamelog.secret_for(result, key, 2).hex(),
        "resolution": {"state": record.state_hash, "dice": [r.to_json() for r in record.rolls]},
        "inputs": [{"unseal": "r1/attack", "salt": SALT.hex(), "choice": 3}],
    }
    forged = sign_payload(payload, key)
    (game_dir / "turns" / forged.file_name()).write_text(forged.armored())
    # the forgery is only caught when its inputs are resolved, i.e. once packet 5 exists
    defender = keys["defender"]
    payload5 = {
        "v": result.contract, "game": result.game_id, "seq": 5, "side": "defender", "prev": forged.hash_hex,
        "commit": "0" * 64,
        "reveal": gamelog.secret_for(result, defender, 3).hex(),
        "resolution": {"state": "0" * 64, "dice": []}, "inputs": [],
    }
    fifth = sign_payload(payload5, defender)
    (game_dir / "turns" / fifth.file_name()).write_text(fifth.armored())
    out = CliRunner().invoke(main, ["verify", str(game_dir)])
    assert out.exit_code == 1
    assert "packet 4: input 1: the unsealed choice for r1/attack does not match its seal" in out.output


def test_sealed_orders_through_the_command_line(tmp_path: Path) -> None:
    """`seal: true` in an orders file seals the choice; the template later offers its unsealing."""
    import yaml

    from rsr import keys as keystore

    runner = CliRunner()
    attacker = keystore.new_key("att")
    keystore.new_key("def")
    ruleset = Duel()
    invite = gamelog.invite_packet(ruleset, duel_scenario(), attacker, "attacker", "A", bytes(range(16)), None, {},
                                   nonce=bytes([1]) * 32)
    game_dir = gamedir.create_game_dir(tmp_path, invite)
    gamedir.append_packets(game_dir, [invite])
    out = runner.invoke(main, ["receive", str(game_dir), "-"], input=gamelog.accept_packet(
        invite, keystore.load_key("def"), "D", nonce=bytes([2]) * 32).armored())
    assert out.exit_code == 0, out.output

    template = runner.invoke(main, ["orders", "template", str(game_dir), "--key", "att"])
    assert "seal: true" in template.output
    orders = tmp_path / "a.yaml"
    orders.write_text("inputs:\n- request: r1/attack\n  answer: 3\n  seal: true\n")
    out = runner.invoke(main, ["submit", str(game_dir), str(orders), "--key", "att"])
    assert out.exit_code == 0, out.output
    packet = gamedir.load_log(game_dir)[-1]
    assert set(packet.inputs[0]) == {"request", "sealed"}  # the choice itself is not in the packet

    orders.write_text("inputs:\n- request: r1/defend\n  answer: 1\n")
    out = runner.invoke(main, ["submit", str(game_dir), str(orders), "--key", "def"])
    assert out.exit_code == 0, out.output
    template = runner.invoke(main, ["orders", "template", str(game_dir), "--key", "att"])
    assert "your sealed choice" in template.output
    prefilled = yaml.safe_load(template.output)
    assert prefilled["inputs"][0]["unseal"] == "r1/attack" and prefilled["inputs"][0]["choice"] == 3
    orders.write_text(template.output)
    out = runner.invoke(main, ["submit", str(game_dir), str(orders), "--key", "att"])
    assert out.exit_code == 0, out.output
    out = runner.invoke(main, ["submit", str(game_dir), "--key", "def"])
    assert out.exit_code == 0, out.output
    verify = runner.invoke(main, ["verify", str(game_dir), "--dice"])
    assert verify.exit_code == 0 and "shot in round 1" in verify.output
    assert not list(game_dir.rglob("*.json")), "salts never go into the game directory"
