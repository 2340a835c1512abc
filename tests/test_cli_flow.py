"""A game played only through the command line, as two players on two machines would (docs/architecture.md)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import yaml
from click.testing import CliRunner, Result

from rsr.cli import main


def rsr(home: Path, *args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), env={"RSR_HOME": str(home)}, input=input, catch_exceptions=False)


def test_keys_are_private_and_show_fingerprints(tmp_path: Path) -> None:
    home = tmp_path / "h"
    out = rsr(home, "key", "new", "alice")
    assert out.exit_code == 0 and "SHA256:" in out.output
    mode = stat.S_IMODE(os.stat(home / "keys" / "alice.key").st_mode)
    assert mode == 0o600
    shown = rsr(home, "key", "show", "alice")
    assert shown.output.split()[1] == out.output.split()[2]
    again = rsr(home, "key", "new", "alice")
    assert again.exit_code == 2 and "already exists" in again.output


def test_passphrase_protected_key(tmp_path: Path) -> None:
    home = tmp_path / "h"
    out = rsr(home, "key", "new", "carol", "--passphrase", input="s3cret\ns3cret\n")
    assert out.exit_code == 0, out.output
    assert b"ENCRYPTED" in (home / "keys" / "carol.key").read_bytes()
    games = tmp_path / "g"
    games.mkdir()
    refused = rsr(home, "new", str(games), "--scenario", "liaoyang-1904", "--side", "russia", "--key", "carol")
    assert refused.exit_code == 2 and "passphrase" in refused.output
    env = {"RSR_HOME": str(home), "RSR_PASSPHRASE": "s3cret"}
    ok = CliRunner().invoke(main, ["new", str(games), "--scenario", "liaoyang-1904", "--side", "russia",
                                   "--key", "carol"], env=env)
    assert ok.exit_code == 0, ok.output


def test_a_turn_by_email_through_the_command_line(tmp_path: Path) -> None:
    alice, bob = tmp_path / "alice", tmp_path / "bob"
    (alice / "games").mkdir(parents=True)
    (bob / "games").mkdir(parents=True)
    assert rsr(alice, "key", "new", "alice").exit_code == 0
    assert rsr(bob, "key", "new", "bob").exit_code == 0
    out = rsr(alice, "new", str(alice / "games"), "--scenario", "liaoyang-1904", "--side", "russia",
              "--key", "alice", "--name", "Alice")
    assert out.exit_code == 0, out.output
    a_dir = next((alice / "games").glob("game-*"))
    invite = next((a_dir / "turns").glob("0000-*"))
    out = rsr(bob, "accept", str(invite), "--key", "bob", "--dir", str(bob / "games"), "--name", "Bob")
    assert out.exit_code == 0, out.output
    b_dir = next((bob / "games").glob("game-*"))
    accept = next((b_dir / "turns").glob("0001-*"))
    assert rsr(alice, "receive", str(a_dir), str(accept)).exit_code == 0

    status = rsr(alice, "status", str(a_dir))
    assert "the game asks russia" in status.output and "(yours)" in status.output
    template = rsr(alice, "orders", "template", str(a_dir))
    assert template.exit_code == 0 and "t7/russia/combat/r1/attacks" in template.output
    options = yaml.safe_load(template.output)
    assert options["inputs"][0]["request"] == "t7/russia/combat/r1/attacks"

    bad = tmp_path / "bad.yaml"
    bad.write_text("inputs:\n  - request: t7/russia/combat/r1/attacks\n    answer:\n      attacks:\n"
                   "        - {hex: '1809', attackers: [ru-es1]}\n")
    checked = rsr(alice, "orders", "check", str(a_dir), str(bad))
    assert checked.exit_code == 2
    assert checked.output == ("rsr: packet 2 input 1: attack 1 on 1809: ru-es1 in 1908 is not adjacent to 1809 "
                              "(RSR 11.0)\n")

    orders = tmp_path / "orders.yaml"
    orders.write_text("inputs:\n  - request: t7/russia/combat/r1/attacks\n    answer:\n      attacks:\n"
                      "        - {hex: '1809', attackers: [ru-es9]}\n      last_round: true\n")
    checked = rsr(alice, "orders", "check", str(a_dir), str(orders))
    assert checked.exit_code == 0 and "the rest depends on dice" in checked.output
    mail = tmp_path / "to-bob.txt"
    out = rsr(alice, "submit", str(a_dir), str(orders), "--out", str(mail))
    assert out.exit_code == 0, out.output
    assert "wrote packet 2 (russia)" in out.output

    out = rsr(bob, "receive", str(b_dir), str(mail))
    assert out.exit_code == 0, out.output
    report = rsr(bob, "report", str(b_dir), "2", "--format", "md")
    assert report.exit_code == 0 and "## Combats" in report.output and "1809" in report.output
    # the game now asks Bob for his attacks: a packet with no orders is refused (it would answer nothing and
    # cost Alice a packet back), unless he passes on purpose
    refused = rsr(bob, "submit", str(b_dir))
    assert refused.exit_code == 2 and "no orders given while the game asks you" in refused.output
    assert "--pass" in refused.output and not list((b_dir / "turns").glob("0003-*"))
    # Bob's reply carries his reveal: now Alice sees the same dice
    out = rsr(bob, "submit", str(b_dir), "--pass")
    assert out.exit_code == 0, out.output
    reply = sorted((b_dir / "turns").glob("0003-*"))[0]
    assert rsr(alice, "receive", str(a_dir), str(reply)).exit_code == 0
    assert (a_dir / "reports" / "0002-russia.md").read_text() == (b_dir / "reports" / "0002-russia.md").read_text()
    verify = rsr(alice, "verify", str(a_dir), "--dice")
    assert verify.exit_code == 0 and "land combat die" in verify.output
    # receiving the same packet again changes nothing
    again = rsr(alice, "receive", str(a_dir), str(reply))
    assert again.exit_code == 0 and "nothing new" in again.output


def test_out_of_turn_submit_is_refused(tmp_path: Path) -> None:
    home = tmp_path / "h"
    rsr(home, "key", "new", "alice")
    (tmp_path / "g").mkdir()
    rsr(home, "new", str(tmp_path / "g"), "--scenario", "liaoyang-1904", "--side", "russia", "--key", "alice")
    game = next((tmp_path / "g").glob("game-*"))
    out = rsr(home, "submit", str(game))
    assert out.exit_code == 2 and "not russia's packet to write" in out.output


def test_unknown_scenario_and_side(tmp_path: Path) -> None:
    home = tmp_path / "h"
    rsr(home, "key", "new", "alice")
    out = rsr(home, "new", str(tmp_path), "--scenario", "nowhere", "--side", "russia", "--key", "alice")
    assert out.exit_code == 2 and "no scenario 'nowhere'" in out.output
    out = rsr(home, "new", str(tmp_path), "--scenario", "liaoyang-1904", "--side", "france", "--key", "alice")
    assert out.exit_code == 2 and "'france' is not a side" in out.output
    assert not list(tmp_path.glob("game-*"))


def test_play_answers_at_the_terminal(tmp_path: Path) -> None:
    alice, bob = tmp_path / "alice", tmp_path / "bob"
    for home, name in ((alice, "alice"), (bob, "bob")):
        (home / "games").mkdir(parents=True)
        rsr(home, "key", "new", name)
    rsr(alice, "new", str(alice / "games"), "--scenario", "liaoyang-1904", "--side", "russia", "--key", "alice")
    a_dir = next((alice / "games").glob("game-*"))
    rsr(bob, "accept", str(next((a_dir / "turns").glob("0000-*"))), "--key", "bob", "--dir", str(bob / "games"))
    b_dir = next((bob / "games").glob("game-*"))
    rsr(alice, "receive", str(a_dir), str(next((b_dir / "turns").glob("0001-*"))))
    typed = ("inputs:\n- request: t7/russia/combat/r1/attacks\n  answer:\n    attacks: []\n\n" + "y\n")
    out = rsr(alice, "play", str(a_dir), input=typed)
    assert out.exit_code == 0, out.output
    assert "wrote packet 2" in out.output
