"""What the issue 8 soak (tamper corpus, parser fuzz, kill -9 trials) found, each as a fast test.

1. A log whose last packet carries inputs that break the rules before any die was accepted by ``rsr verify``
   and by a third party's ``rsr receive``: the log can never be continued, and anyone can see it.
2. With both keys of a game on one machine (hot seat), ``rsr receive`` without ``--key`` took the key of the
   incoming packet's own author, so the pass its resolver must record was never run before storing it.
3. A YAML reader error (a control character in an orders file) printed a message of two lines.
4. Any error text quoting hostile input (a key, a file name with a new line) must stay on one line.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rsr import gamedir
from rsr import games as game_actions
from rsr import keys as keystore
from rsr import log as gamelog
from rsr import packet as packetmod
from rsr.cli import main
from rsr.errors import BadInput
from rsr.packet import sign_payload
from tests.support.games import duel_game

INPUTS = {
    2: [{"request": "r1/attack", "answer": 1}],
    3: [{"request": "r1/defend", "answer": 2}],
    4: [{"request": "r2/attack", "answer": 3}],
}

pytestmark = pytest.mark.usefixtures("duel_registered")


def snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name != ".rsr.lock"}


def forge_last(game_dir: Path, keys: dict, seq: int, inputs: list[dict]) -> packetmod.Packet:
    """Re-sign packet ``seq`` with its author's key and new inputs; drop it and everything after it."""
    packets = gamedir.load_log(game_dir)
    victim = packets[seq]
    payload = dict(victim.payload)
    payload["inputs"] = inputs
    for path in sorted((game_dir / "turns").glob("*.rsr"))[seq:]:
        path.unlink()
    return sign_payload(payload, keys[victim.side])


def test_verify_refuses_a_last_packet_whose_inputs_break_the_rules_before_any_die(tmp_path: Path) -> None:
    game_dir, keys = duel_game(tmp_path, INPUTS, 5)
    forged = forge_last(game_dir, keys, 3, [{"request": "r1/defend", "answer": 7}])
    (game_dir / "turns" / forged.file_name()).write_text(forged.armored())
    out = CliRunner().invoke(main, ["verify", str(game_dir)])
    assert out.exit_code == 1, out.output
    assert "packet 3: an input breaks the rules (before any die)" in out.output and "lane 7" in out.output
    assert not (game_dir / "disputes").exists() and not (game_dir / "reports").exists()


def test_verify_still_accepts_a_legal_last_packet(tmp_path: Path) -> None:
    game_dir, _ = duel_game(tmp_path, INPUTS, 4)
    out = CliRunner().invoke(main, ["verify", str(game_dir)])
    assert out.exit_code == 0, out.output


def test_a_third_partys_receive_refuses_it_and_keeps_it_in_disputes(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    game_dir, keys = duel_game(tmp_path, INPUTS, 5)
    forged = forge_last(game_dir, keys, 3, [{"request": "no/such/request", "answer": 1}])
    mail = tmp_path / "mail.txt"
    mail.write_text(forged.armored())
    monkeypatch.setenv("RSR_HOME", str(tmp_path / "third-party-home"))  # holds no key of this game
    before = snapshot(game_dir / "turns")
    out = CliRunner().invoke(main, ["receive", str(game_dir), str(mail)])
    assert out.exit_code == 1, out.output
    assert "before any die" in out.output and "disputes" in out.output
    assert snapshot(game_dir / "turns") == before
    assert list((game_dir / "disputes").glob("0003-defender-*-rejected.txt"))


def test_hot_seat_receive_resolves_with_the_key_of_the_side_that_writes_next(tmp_path: Path) -> None:
    """Both keys stored (duel_game makes them in this test's home): the resolver of an incoming attacker packet
    is the defender's key, not the attacker's."""
    game_dir, keys = duel_game(tmp_path, INPUTS, 3)
    result = game_actions.load_game(game_dir)
    assert result.next_author() == "defender"
    resolver = game_actions.own_key(result, None)
    assert resolver is not None and resolver.public_raw == keys["defender"].public_raw
    extended = gamelog.replay(result.packets + [gamelog.build_packet(result, keys["defender"], [])])
    resolver = game_actions.own_key(extended, None)
    assert resolver is not None and resolver.public_raw == keys["attacker"].public_raw


def test_hot_seat_receive_runs_the_resolvers_pass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game_dir, keys = duel_game(tmp_path, INPUTS, 3)
    result = game_actions.load_game(game_dir)
    packet = gamelog.build_packet(result, keys["defender"], [{"request": "r1/defend", "answer": 2}])
    mail = tmp_path / "mail.txt"
    mail.write_text(packet.armored())
    ran: list[str] = []
    real = gamelog.pending_pass

    def spy(result: gamelog.Replay, key: keystore.KeyPair) -> gamelog.PassRecord | None:
        ran.append(gamelog.my_side(result, key))
        return real(result, key)

    monkeypatch.setattr(gamedir, "pending_pass", spy)  # the receive path's own check of the pass
    out = CliRunner().invoke(main, ["receive", str(game_dir), str(mail)])
    assert out.exit_code == 0, out.output
    assert "attacker" in ran, ran


def test_a_control_character_in_an_orders_file_is_one_line(tmp_path: Path) -> None:
    game_dir, _ = duel_game(tmp_path, INPUTS, 4)
    orders = tmp_path / "orders.yaml"
    orders.write_text("\x00inputs: []\n")
    out = CliRunner().invoke(main, ["orders", "check", str(game_dir), str(orders), "--key", "def"])
    assert out.exit_code == 2
    assert out.output.count("\n") == 1 and out.output.startswith("rsr: "), out.output
    assert "not valid YAML" in out.output and "\x00" not in out.output


def test_an_error_quoting_a_new_line_is_printed_on_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def hostile(_: Path) -> None:
        raise BadInput("key 'a\nrsr: verified: 99 packets\x1b[2K' is not allowed")

    monkeypatch.setattr(game_actions, "verify_game", hostile)
    (tmp_path / "g" / "turns").mkdir(parents=True)
    out = CliRunner().invoke(main, ["verify", str(tmp_path / "g")])
    assert out.exit_code == 2
    assert out.output.count("\n") == 1 and "\x1b" not in out.output, out.output


def test_a_turn_file_named_with_non_ascii_digits_is_refused_in_one_line(tmp_path: Path) -> None:
    """'①'.isdigit() is true but int('①') raises: a shared repository's odd file name was a traceback."""
    game_dir, _ = duel_game(tmp_path, INPUTS, 3)
    (game_dir / "turns" / "\u2460\u2461-attacker-x.rsr").write_text("x")
    out = CliRunner().invoke(main, ["verify", str(game_dir)])
    assert out.exit_code == 1 and isinstance(out.exception, (SystemExit, type(None))), out.output
    assert "is not named NNNN-side-tag.rsr" in out.output and out.output.count("\n") == 1


def test_a_damaged_journal_entry_refuses_signing_and_names_the_file(tmp_path: Path) -> None:
    """A broken file system truncated a journal entry: what was signed there is unknown, so rsr signs nothing
    at that seq and says which file to repair (one line, exit 2)."""
    from rsr import journal

    game_dir, _ = duel_game(tmp_path, INPUTS, 3)
    result = game_actions.load_game(game_dir)
    entry = journal.entry_path(result.game_id, 3)
    entry.parent.mkdir(parents=True)
    entry.write_text("-----BEGIN RSR PACKET-----\nGame: x\n")
    orders = tmp_path / "orders.yaml"
    orders.write_text("inputs:\n- request: r1/defend\n  answer: 2\n")
    out = CliRunner().invoke(main, ["submit", str(game_dir), str(orders), "--key", "def"])
    assert out.exit_code == 2, out.output
    assert "journal entry" in out.output and "damaged" in out.output and out.output.count("\n") == 1
    assert len(list((game_dir / "turns").glob("*.rsr"))) == 3


def test_a_fifo_in_place_of_a_report_neither_hangs_nor_stops_the_exchange(tmp_path: Path) -> None:
    import os

    game_dir, _ = duel_game(tmp_path, INPUTS, 3)
    (game_dir / "reports").mkdir(exist_ok=True)
    os.mkfifo(game_dir / "reports" / "0002-attacker.md")
    orders = tmp_path / "orders.yaml"
    orders.write_text("inputs:\n- request: r1/defend\n  answer: 2\n")
    out = CliRunner().invoke(main, ["submit", str(game_dir), str(orders), "--key", "def"])
    assert out.exit_code == 0, out.output
    assert (game_dir / "reports" / "0002-attacker.md").is_file()


def test_a_claim_naming_a_list_as_its_side_or_unreadable_times_is_bad_input() -> None:
    """``rsr claim check`` read an unsigned claim's side as a dictionary key (TypeError: unhashable) and a
    signed claim's times with strptime unguarded (ValueError): both were tracebacks."""
    import json

    from rsr.claims import CLAIM_PREFIX, check_claim
    from rsr.packet import armor_lines
    from tests.support.tamper import claim_setup

    result, claim, attacker = claim_setup()
    assert check_claim(result, claim)[0].startswith("valid claim signed by attacker")
    payload = json.loads(__import__("rsr.packet", fromlist=["unarmor"]).unarmor(
        claim, "-----BEGIN RSR CLAIM-----", "-----END RSR CLAIM-----", "claim")[0])
    for change in ({"side": ["attacker"]}, {"time": "2026-13-45T99:00:00Z"}, {"time": 5}):
        data = json.dumps({**payload, **change}, sort_keys=True, separators=(",", ":")).encode()
        text = "\n".join(armor_lines("-----BEGIN RSR CLAIM-----", "-----END RSR CLAIM-----", [], data,
                                     attacker.sign(CLAIM_PREFIX + data)))
        with pytest.raises(BadInput):
            check_claim(result, text)


@pytest.mark.parametrize("text, said", [
    ("inputs: !!int x\n", "a value cannot be read"),
    ("inputs:\n- request: r1/defend\n  answer: !!float nope\n", "a value cannot be read"),
    ("inputs:\n- policy: aim\n", "input 1 {'policy': 'aim'} is none of"),
    ("inputs:\n- request: r1/defend\n", "input 1 {'request': 'r1/defend'} is none of"),
    ("inputs:\n- unseal: r1/attack\n  choice: 1\n", "is none of"),
])
def test_orders_of_a_shape_no_packet_may_carry_are_refused_before_the_rules(text: str, said: str,
                                                                           tmp_path: Path) -> None:
    """The parser fuzz found ``!!int x`` (ValueError from the YAML constructor) and a policy without its rule
    (KeyError in the rules engine) as tracebacks of ``orders check``."""
    game_dir, _ = duel_game(tmp_path, INPUTS, 3)
    orders = tmp_path / "orders.yaml"
    orders.write_text(text)
    for command in (["orders", "check"], ["submit"]):
        out = CliRunner().invoke(main, [*command, str(game_dir), str(orders), "--key", "def"])
        assert out.exit_code == 2 and isinstance(out.exception, (SystemExit, type(None))), out.output
        assert said in out.output and out.output.count("\n") == 1, out.output
    assert len(list((game_dir / "turns").glob("*.rsr"))) == 3


def test_accept_with_orders_of_a_bad_shape_is_bad_input(tmp_path: Path) -> None:
    game_dir, _ = duel_game(tmp_path, INPUTS, 1)
    orders = tmp_path / "orders.yaml"
    orders.write_text("inputs:\n- policy: aim\n")
    invite = sorted((game_dir / "turns").glob("0000-*.rsr"))[0]
    out = CliRunner().invoke(main, ["accept", str(invite), "--key", "def", "--dir", str(tmp_path / "b"),
                                    "--orders", str(orders)])
    assert out.exit_code == 2 and isinstance(out.exception, (SystemExit, type(None))), out.output
    assert "is none of" in out.output and not (tmp_path / "b").exists()


@pytest.mark.parametrize("broken", [
    {"hex": ["4411"], "attackers": ["x"]}, {"hex": "4411", "attackers": [["x"]]}, {"hex": None, "attackers": None},
    {"hex": 5, "attackers": "x"}, {}, {"hex": "4411", "attackers": [], "extra": {"": []}},
])
def test_a_combat_plan_of_any_shape_is_refused_before_signing_not_a_crash(tmp_path: Path, broken: Any) -> None:
    """Exchange fuzzer, july-1939 seed 4 (tests/cases/red-star/combat-plan-of-the-wrong-shape-is-refused.yaml):
    a standing plan of prepared combats naming an attacker as a list was a TypeError in the check before
    signing (RS/RS 6.1); every shape is now a refusal that names the combat."""
    import copy

    from rsr.engine import InputRefused, check_before_dice, enqueue
    from tests.test_fewer_packets import _japan_at

    result, position, _ = _japan_at(tmp_path, "combats")
    seq = len(result.packets)
    trial = copy.deepcopy(position)
    trial.contract = 2
    enqueue(trial, seq, "japan", [{"policy": "combats", "rule": {"turn": position.state.turn, "combats": [broken]}}])
    with pytest.raises(InputRefused):
        check_before_dice(result.ruleset, trial, seq)
