"""Tampering with a game directory makes ``rsr verify`` exit 1 naming the packet and the reason.

docs/protocol.md; the issue's acceptance list: flipped bytes in any payload or signature, reordered,
dropped and foreign packets, a wrong reveal, an out-of-turn packet, and two packets at one seq.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rsr import gamedir
from rsr import log as gamelog
from rsr.cli import main
from rsr.packet import sign_payload
from tests.support.duel import duel_scenario
from tests.support.games import duel_game, flip_byte

INPUTS = {
    2: [{"request": "r1/attack", "answer": 1}],
    3: [{"request": "r1/defend", "answer": 2}],
    4: [{"request": "r2/attack", "answer": 3}],
    5: [{"request": "r2/defend", "answer": 1}],
}


pytestmark = pytest.mark.usefixtures("duel_registered")


@pytest.fixture
def played(tmp_path: Path) -> tuple[Path, dict]:
    return duel_game(tmp_path, INPUTS, 7)


def verify(game_dir: Path) -> tuple[int, str]:
    out = CliRunner().invoke(main, ["verify", str(game_dir)])
    return out.exit_code, out.output


def turn_files(game_dir: Path) -> list[Path]:
    return sorted((game_dir / "turns").glob("*.rsr"))


def test_untouched_game_verifies(played: tuple[Path, dict]) -> None:
    code, output = verify(played[0])
    assert code == 0, output
    assert "7 packets" in output


def test_flipping_any_body_line_of_any_packet_is_caught(played: tuple[Path, dict], tmp_path: Path) -> None:
    game_dir = played[0]
    for index, path in enumerate(turn_files(game_dir)):
        body_lines = len([x for x in path.read_text().split("\n")
                          if x and not x.startswith(("-----", "Game:", "Seq:"))])
        for line in range(body_lines):
            copy = tmp_path / f"copy-{index}-{line}"
            shutil.copytree(game_dir, copy)
            flip_byte(copy / "turns" / path.name, line)
            code, output = verify(copy)
            assert code in (1, 2) and output.startswith("rsr: "), (path.name, line, output)
            assert "Traceback" not in output
            if index >= 2:
                assert f"packet {index}" in output, output


def test_reordered_packets_are_caught(played: tuple[Path, dict]) -> None:
    game_dir = played[0]
    files = turn_files(game_dir)
    a, b = files[3], files[4]
    text_a, text_b = a.read_text(), b.read_text()
    a.write_text(text_b)
    b.write_text(text_a)
    code, output = verify(game_dir)
    assert code == 1 and "packet 3" in output


def test_dropped_packet_is_caught(played: tuple[Path, dict]) -> None:
    game_dir = played[0]
    turn_files(game_dir)[3].unlink()
    code, output = verify(game_dir)
    assert code == 1 and "packet 4" in output and "missing or out of order" in output


def test_packet_from_another_game_is_caught(played: tuple[Path, dict], tmp_path: Path) -> None:
    game_dir, keys = played
    # the same players start a second game; its packet 4 is replayed into the first game
    from rsr.gamedir import append_packets, create_game_dir, load_log
    from rsr.log import accept_packet, build_packet, invite_packet, replay
    from rsr.rulesets import get_ruleset

    ruleset = get_ruleset("duel")
    invite = invite_packet(ruleset, duel_scenario(), keys["attacker"], "attacker", "A", bytes([9]) * 16, None, {},
                           nonce=bytes([1]) * 32)
    second = create_game_dir(tmp_path / "second", invite)
    append_packets(second, [invite, accept_packet(invite, keys["defender"], "D", nonce=bytes([2]) * 32)])
    for seq in range(2, 5):
        result = replay(load_log(second))
        append_packets(second, [build_packet(result, keys[result.next_author()], INPUTS.get(seq, []))])
    foreign = sorted((second / "turns").glob("0004-*"))[0]
    mine = turn_files(game_dir)[4]
    mine.unlink()
    shutil.copy(foreign, game_dir / "turns" / foreign.name)
    code, output = verify(game_dir)
    assert code == 1 and "packet 4" in output and "another game" in output


def test_wrong_reveal_is_caught(played: tuple[Path, dict]) -> None:
    game_dir, keys = played
    packets = gamedir.load_log(game_dir)
    victim = packets[4]
    payload = dict(victim.payload)
    payload["reveal"] = "00" * 32
    forged = sign_payload(payload, keys[victim.side])
    for path in turn_files(game_dir)[4:]:
        path.unlink()
    (game_dir / "turns" / forged.file_name()).write_text(forged.armored())
    code, output = verify(game_dir)
    assert code == 1 and "packet 4: reveal does not match the commitment in packet 2" in output


def test_wrong_die_in_resolution_is_caught(played: tuple[Path, dict]) -> None:
    game_dir, keys = played
    packets = gamedir.load_log(game_dir)
    victim = next(p for p in packets if p.payload.get("resolution", {}).get("dice"))
    payload = dict(victim.payload)
    dice = [dict(d) for d in payload["resolution"]["dice"]]
    dice[0]["value"] = 7 - dice[0]["value"]
    payload["resolution"] = {"state": payload["resolution"]["state"], "dice": dice}
    forged = sign_payload(payload, keys[victim.side])
    for path in turn_files(game_dir)[victim.seq:]:
        path.unlink()
    (game_dir / "turns" / forged.file_name()).write_text(forged.armored())
    code, output = verify(game_dir)
    assert code == 1 and f"packet {victim.seq}: resolution die 0" in output


def test_out_of_turn_packet_is_caught(played: tuple[Path, dict]) -> None:
    game_dir, keys = played
    result = gamelog.replay(gamedir.load_log(game_dir))
    wrong = keys["attacker"] if result.next_author() == "defender" else keys["defender"]
    side = "attacker" if wrong is keys["attacker"] else "defender"
    seq = len(result.packets)
    payload = {"v": result.contract, "game": result.game_id, "seq": seq, "side": side, "prev": result.last.hash_hex,
               "commit": "0" * 64,
               "reveal": "00" * 32, "resolution": {"state": "00" * 32, "dice": []}, "inputs": []}
    forged = sign_payload(payload, wrong)
    (game_dir / "turns" / forged.file_name()).write_text(forged.armored())
    code, output = verify(game_dir)
    assert code == 1 and f"packet {seq}: written by {side} out of turn" in output


def test_two_packets_at_one_seq_are_named_and_verify_stays_read_only(played: tuple[Path, dict]) -> None:
    """A fork in turns/ (two files at one seq) names both files and the signer; verify writes nothing."""
    game_dir, keys = played
    packets = gamedir.load_log(game_dir)
    victim = packets[5]
    payload = dict(victim.payload)
    payload["inputs"] = [{"request": "r2/defend", "answer": 3}]
    forged = sign_payload(payload, keys[victim.side])
    (game_dir / "turns" / forged.file_name()).write_text(forged.armored())
    code, output = verify(game_dir)
    assert code == 1
    assert f"packet 5: two different packets, {victim.file_name()}" in output or \
        f"and {victim.file_name()}, both signed by {victim.side} (equivocation)" in output
    assert f"both signed by {victim.side} (equivocation)" in output
    assert not (game_dir / "disputes").exists()


def test_receive_of_an_equivocating_packet_writes_a_dispute(played: tuple[Path, dict], tmp_path: Path) -> None:
    game_dir, keys = played
    packets = gamedir.load_log(game_dir)
    victim = packets[6]
    payload = dict(victim.payload)
    payload["inputs"] = [{"policy": "aim", "rule": "careful"}]
    forged = sign_payload(payload, keys[victim.side])
    mail = tmp_path / "mail.txt"
    mail.write_text("Hello\n" + forged.armored())
    out = CliRunner().invoke(main, ["receive", str(game_dir), str(mail), "--key", "att"])
    assert out.exit_code == 1, out.output
    assert (game_dir / "disputes" / f"0006-{victim.side}.txt").exists()
