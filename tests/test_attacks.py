"""What an attack on rsr as a hostile opponent found (issue 8 parts 2-5), each reproduced and now refused.

Nothing rsr signs or stores may break a log or stall a game; bad input gets one line and exit 2 and
changes nothing; every decision to write is taken inside the lock; hostile files and links are refused;
keys behave as ssh users expect. docs/protocol.md and docs/reliability.md explain the rules tested here.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rsr import gamedir, journal
from rsr import keys as keystore
from rsr import log as gamelog
from rsr.cli import main
from rsr.packet import sign_payload
from tests.support.games import duel_game

INPUTS = {2: [{"request": "r1/attack", "answer": 1}], 3: [{"request": "r1/defend", "answer": 2}]}

pytestmark = pytest.mark.usefixtures("duel_registered")


def snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name != ".rsr.lock"}


def run(*args: str) -> Any:
    out = CliRunner().invoke(main, list(args))
    assert out.exception is None or isinstance(out.exception, SystemExit), repr(out.exception)
    return out


def one_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1, output
    return lines[0]


@pytest.fixture
def game(tmp_path: Path) -> tuple[Path, dict[str, keystore.KeyPair]]:
    return duel_game(tmp_path, INPUTS, 4)  # packets 0-3; the attacker writes packet 4


# -- part 2: nothing rsr signs can break the log ------------------------------------------------------------


@pytest.mark.parametrize("value", ["0.5", ".inf", "1.0e+30", "2026-12-01", "!!binary aGVsbG8=", "10000000000000000000"])
def test_orders_that_no_packet_can_carry_are_refused_before_signing(game: tuple[Path, dict], tmp_path: Path,
                                                                     value: str) -> None:
    game_dir, _ = game
    orders = tmp_path / "orders.yaml"
    orders.write_text(f"inputs:\n- request: r2/attack\n  answer: {value}\n")
    before = snapshot(game_dir)
    for command in (["orders", "check"], ["submit"]):
        out = run(*command, str(game_dir), str(orders), "--key", "att")
        assert out.exit_code == 2, out.output
        assert "inputs[1].answer" in one_line(out.output)
    assert snapshot(game_dir) == before
    assert journal.signed_payload(gamedir.load_log(game_dir)[0].game, 4) is None
    assert run("verify", str(game_dir)).exit_code == 0


def test_a_sealed_choice_that_could_never_be_unsealed_is_refused(game: tuple[Path, dict], tmp_path: Path) -> None:
    game_dir, _ = game
    orders = tmp_path / "orders.yaml"
    orders.write_text("inputs:\n- request: r2/attack\n  answer: 7\n  seal: true\n")  # lanes are 1, 2, 3
    before = snapshot(game_dir)
    for command in (["orders", "check"], ["submit"]):
        out = run(*command, str(game_dir), str(orders), "--key", "att")
        assert out.exit_code == 2, out.output
        assert "sealed choice for r2/attack is not legal" in one_line(out.output)
    assert snapshot(game_dir) == before
    orders.write_text("inputs:\n- request: r2/attack\n  answer: 3\n  seal: true\n")
    assert run("submit", str(game_dir), str(orders), "--key", "att").exit_code == 0


def forged_next(game_dir: Path, author: keystore.KeyPair, inputs: list[dict[str, Any]]) -> Any:
    """A packet signed with the real key, with a true reveal and resolution, whose inputs break the rules."""
    result = gamelog.replay(gamedir.load_log(game_dir))
    seq = len(result.packets)
    record = gamelog.pending_pass(result, author)
    assert record is not None
    payload = {"v": result.contract, "game": result.game_id, "seq": seq, "side": gamelog.my_side(result, author),
               "prev": result.last.hash_hex, "commit": "0" * 64,
               "reveal": gamelog.secret_for(result, author, seq - 2).hex(),
               "resolution": {"state": record.state_hash, "dice": [r.to_json() for r in record.rolls]},
               "inputs": inputs}
    return sign_payload(payload, author)


@pytest.mark.parametrize("answer", [7, [1], {"lane": 1}, None])
def test_a_received_packet_that_does_not_apply_goes_to_disputes_not_turns(game: tuple[Path, dict], tmp_path: Path,
                                                                          answer: Any) -> None:
    game_dir, keys = game
    bad = forged_next(game_dir, keys["attacker"], [{"request": "r2/attack", "answer": answer}])
    mail = tmp_path / "mail.txt"
    mail.write_text(bad.armored())
    turns_before = sorted(p.name for p in (game_dir / "turns").iterdir())
    out = run("receive", str(game_dir), str(mail), "--key", "def")
    assert out.exit_code == 1, out.output
    line = one_line(out.output)
    assert "mail.txt" in line and "packet 4" in line and "rejected" in line and "waits for a valid packet 4" in line
    assert sorted(p.name for p in (game_dir / "turns").iterdir()) == turns_before
    kept = list((game_dir / "disputes").glob("0004-attacker-*-rejected.txt"))
    assert len(kept) == 1 and "BEGIN RSR PACKET" in kept[0].read_text()
    assert run("status", str(game_dir), "--key", "att").exit_code == 0
    assert run("verify", str(game_dir)).exit_code == 0


def test_an_acceptance_in_the_invitation_file_is_named_not_a_traceback(game: tuple[Path, dict]) -> None:
    game_dir, _ = game
    invite, accept = sorted((game_dir / "turns").iterdir())[:2]
    invite.write_text(accept.read_text())
    out = run("verify", str(game_dir))
    assert out.exit_code == 1
    assert "should hold the invite" in one_line(out.output)


# -- part 3: races and the lock -------------------------------------------------------------------------------


def test_a_second_submit_at_one_seq_is_refused_by_the_journal(game: tuple[Path, dict], tmp_path: Path) -> None:
    game_dir, _ = game
    first = tmp_path / "first.yaml"
    first.write_text("inputs:\n- request: r2/attack\n  answer: 1\n")
    assert run("submit", str(game_dir), str(first), "--key", "att").exit_code == 0
    copy = tmp_path / "copy"
    import shutil

    shutil.copytree(game_dir, copy)
    for path in (copy / "turns").glob("0004-*"):
        path.unlink()  # a second copy of the game, one packet behind
    second = tmp_path / "second.yaml"
    second.write_text("inputs:\n- request: r2/attack\n  answer: 2\n")
    out = run("submit", str(copy), str(second), "--key", "att")
    assert out.exit_code == 2 and "you already signed packet 4" in one_line(out.output)
    assert not list((copy / "turns").glob("0004-*"))


# -- part 4: hostile sources and the file system ------------------------------------------------------------


def hostile_sources(tmp_path: Path) -> dict[str, Path]:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    sources = {"dev-zero": Path("/dev/zero"), "fifo": fifo, "folder": tmp_path}
    for name, target in list(sources.items()):
        link = tmp_path / f"link-to-{name}"
        link.symlink_to(target)
        sources[f"link-to-{name}"] = link
    return sources


def test_devices_fifos_and_links_to_them_are_refused_everywhere(game: tuple[Path, dict], tmp_path: Path) -> None:
    game_dir, _ = game
    before = snapshot(game_dir)
    (tmp_path / "hostile").mkdir()
    for name, source in sorted(hostile_sources(tmp_path / "hostile").items()):
        for command in (["receive", str(game_dir), str(source)], ["orders", "check", str(game_dir), str(source)],
                        ["submit", str(game_dir), str(source)]):
            out = run(*command, "--key", "att")
            assert out.exit_code == 2, (name, command, out.output)
            one_line(out.output)
    assert snapshot(game_dir) == before


def test_a_device_in_turns_is_refused_by_verify(game: tuple[Path, dict]) -> None:
    game_dir, _ = game
    (game_dir / "turns" / "0009-attacker-deadbeef.rsr").symlink_to("/dev/zero")
    out = run("verify", str(game_dir))
    assert out.exit_code == 2 and "not a regular file" in one_line(out.output)


@pytest.mark.parametrize("folder", ["reports", "disputes"])
def test_rsr_never_writes_through_a_linked_folder(game: tuple[Path, dict], tmp_path: Path, folder: str) -> None:
    game_dir, keys = game
    outside = tmp_path / "outside"
    outside.mkdir()
    if (game_dir / folder).exists():
        import shutil

        shutil.rmtree(game_dir / folder)
    (game_dir / folder).symlink_to(outside)
    if folder == "reports":
        orders = tmp_path / "orders.yaml"
        orders.write_text("inputs:\n- request: r2/attack\n  answer: 1\n")
        out = run("submit", str(game_dir), str(orders), "--key", "att")
    else:
        bad = forged_next(game_dir, keys["attacker"], [{"request": "r2/attack", "answer": 9}])
        mail = tmp_path / "mail.txt"
        mail.write_text(bad.armored())
        out = run("receive", str(game_dir), str(mail), "--key", "def")
    assert out.exit_code == 2, out.output
    assert "symbolic link" in one_line(out.output)
    assert list(outside.iterdir()) == []


def test_verify_is_read_only(game: tuple[Path, dict]) -> None:
    game_dir, _ = game
    before = snapshot(game_dir)
    assert run("verify", str(game_dir), "--dice").exit_code == 0
    assert snapshot(game_dir) == before


def test_the_same_packet_twice_in_one_email_is_one_packet(game: tuple[Path, dict], tmp_path: Path) -> None:
    game_dir, keys = game
    result = gamelog.replay(gamedir.load_log(game_dir))
    packet = gamelog.build_packet(result, keys["attacker"], [{"request": "r2/attack", "answer": 1}])
    mail = tmp_path / "mail.txt"
    mail.write_text("text part\n" + packet.armored() + "\nhtml part\n> " + packet.armored().replace("\n", "\n> "))
    out = run("receive", str(game_dir), str(mail), "--key", "def")
    assert out.exit_code == 0, out.output
    assert out.output.count("received packet 4") == 1


def test_unsigned_headers_never_echo_control_characters(game: tuple[Path, dict], tmp_path: Path) -> None:
    game_dir, keys = game
    result = gamelog.replay(gamedir.load_log(game_dir))
    packet = gamelog.build_packet(result, keys["attacker"], [{"request": "r2/attack", "answer": 1}])
    text = packet.armored().replace("Seq: 4 attacker", "Seq: 4 attacker\x1b[2J\x07")
    mail = tmp_path / "mail.txt"
    mail.write_text(text)
    out = run("receive", str(game_dir), str(mail), "--key", "def")
    assert out.exit_code == 2
    assert "\x1b" not in out.output and "\x07" not in out.output
    assert "mail.txt" in out.output


def test_a_packet_of_another_game_says_so(game: tuple[Path, dict], tmp_path: Path) -> None:
    game_dir, keys = game
    result = gamelog.replay(gamedir.load_log(game_dir))
    payload = dict(gamelog.build_packet(result, keys["attacker"], []).payload)
    payload["game"] = "ab" * 16
    foreign = sign_payload(payload, keys["attacker"])
    mail = tmp_path / "mail.txt"
    mail.write_text(foreign.armored())
    out = run("receive", str(game_dir), str(mail), "--key", "def")
    assert out.exit_code == 2
    assert "belongs to" in one_line(out.output) and "abababab" in out.output


# -- part 5: keys ----------------------------------------------------------------------------------------------


def test_a_private_key_others_can_read_is_refused_with_the_fix(tmp_path: Path) -> None:
    keystore.new_key("k")
    path = keystore.key_dir() / "k.key"
    path.chmod(0o644)
    with pytest.raises(Exception, match=f"chmod 600 {path}"):
        keystore.load_key("k")
    out = run("new", str(tmp_path), "--scenario", "liaoyang-1904", "--side", "russia", "--key", "k")
    assert out.exit_code == 2 and f"chmod 600 {path}" in one_line(out.output)
    assert not list(tmp_path.glob("game-*"))


def test_passphrases_come_from_the_variable_or_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = keystore.new_key("plain")
    monkeypatch.setenv("RSR_PASSPHRASE", "unused")
    assert keystore.load_key("plain").seed == plain.seed  # an unencrypted key ignores the variable
    locked_key = keystore.new_key("locked", "s3cret")
    monkeypatch.setenv("RSR_PASSPHRASE", "s3cret")
    assert keystore.load_key("locked").seed == locked_key.seed
    monkeypatch.delenv("RSR_PASSPHRASE")
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    with pytest.raises(Exception) as refused:
        keystore.load_key("locked")
    assert "RSR_PASSPHRASE" in str(refused.value) and "--passphrase" not in str(refused.value)
    asked: list[str] = []
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("click.prompt", lambda text, **kw: asked.append(text) or (kw["hide_input"] and "s3cret"))
    assert keystore.load_key("locked").seed == locked_key.seed
    assert asked == ["passphrase for key locked"]


def test_an_answer_of_the_wrong_shape_is_a_rules_error_not_a_traceback(game: tuple[Path, dict], tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Rules code that meets a list where it wants a hex id (TypeError: unhashable) rejects the input."""
    from tests.support.duel import Duel

    real = Duel.apply

    def picky(self: Duel, state: Any, request: Any, answer: Any, dice: Any, owned: bool = False) -> Any:
        {answer: 1}  # noqa: B018 - hashes the answer as rules code does with a hex id
        return real(self, state, request, answer, dice, owned)

    monkeypatch.setattr(Duel, "apply", picky)
    game_dir, keys = game
    orders = tmp_path / "orders.yaml"
    orders.write_text("inputs:\n- request: r2/attack\n  answer: [1, 2]\n")
    out = run("orders", "check", str(game_dir), str(orders), "--key", "att")
    assert out.exit_code == 2 and "wrong shape (TypeError" in one_line(out.output)
    bad = forged_next(game_dir, keys["attacker"], [{"request": "r2/attack", "answer": [1, 2]}])
    mail = tmp_path / "mail.txt"
    mail.write_text(bad.armored())
    out = run("receive", str(game_dir), str(mail), "--key", "def")
    assert out.exit_code == 1 and "wrong shape" in one_line(out.output)


def test_an_armor_lead_with_armor_protection_cannot_be_sealed_rs_rs_6_22(tmp_path: Path) -> None:
    """RS/RS 6.22: an Armor lead unit rules out armor protection. Sealed, that choice could never be
    unsealed and the game would stall at the reveal; rsr refuses to seal it."""
    from tests.test_grinding import Table, only_game, turn

    table = Table(tmp_path)
    table.rsr("japan", "key", "new", "japan")
    table.rsr("soviet", "key", "new", "soviet")
    table.rsr("japan", "new", str(table.games("japan")), "--ruleset", "red-star", "--scenario",
              "july-1939-contact", "--side", "japan", "--key", "japan")
    japan = only_game(table.games("japan"))
    table.rsr("soviet", "accept", str(turn(japan, 0)), "--key", "soviet", "--dir", str(table.games("soviet")))
    table.rsr("japan", "receive", str(japan), str(turn(only_game(table.games("soviet")), 1)))
    before = snapshot(japan)
    orders = tmp_path / "orders.yaml"
    choice = ("- request: t1/japan/prepared/c1/attack-choices\n  answer:\n    combats:\n      t1/japan/prepared/c1:\n"
              "        lead: {{'4414': jp-4tk}}\n        armor_protection: {protection}\n  seal: true\n")
    declare = ("inputs:\n- request: t1/japan/prepared/combats\n  answer:\n    combats:\n    - hex: '4415'\n"
               "      attackers: [jp-3tk, jp-4tk]\n")
    orders.write_text(declare + choice.format(protection="true"))
    for command in ("orders", "submit"):
        args = ["orders", "check", str(japan), str(orders)] if command == "orders" else ["submit", str(japan),
                                                                                         str(orders)]
        out = table.rsr("japan", *args, code=2)
        assert "sealed choice for t1/japan/prepared/c1/attack-choices is not legal" in out and "6.22" in out
    assert snapshot(japan) == before
    orders.write_text(declare + choice.format(protection="false"))
    table.rsr("japan", "submit", str(japan), str(orders))


def test_an_input_the_game_never_reaches_is_rejected_not_left_to_break_a_later_pass(
        game: tuple[Path, dict], tmp_path: Path) -> None:
    """A re-signed packet may carry inputs beyond what its pass uses (an honest rsr refuses them before
    signing). Left queued they would break some later pass and stall the game; the resolver refuses the
    packet now, and a policy left waiting for its side must at least be a valid one."""
    game_dir, keys = game
    for extra, reason in (({"request": "r2/attack", "answer": 2}, "input 2 is not needed yet"),
                          ({"policy": "aim", "rule": "reckless"}, "unknown policy aim: reckless")):
        bad = forged_next(game_dir, keys["attacker"], [{"request": "r2/attack", "answer": 1}, extra])
        mail = tmp_path / "mail.txt"
        mail.write_text(bad.armored())
        out = run("receive", str(game_dir), str(mail), "--key", "def")
        assert out.exit_code == 1 and reason in one_line(out.output), out.output
        assert not list((game_dir / "turns").glob("0004-*"))
    good = forged_next(game_dir, keys["attacker"], [{"request": "r2/attack", "answer": 1},
                                                    {"policy": "aim", "rule": "careful"}])
    mail = tmp_path / "mail.txt"
    mail.write_text(good.armored())
    assert run("receive", str(game_dir), str(mail), "--key", "def").exit_code == 0
