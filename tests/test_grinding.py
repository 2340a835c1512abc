"""Dice grinding (issue 8 part 1): a replayed invitation, a borrowed game id and a rolled-back copy must
never make a player commit again to a secret it has already revealed (docs/protocol.md, "No secret is
committed twice").

The attacker's plan in each case: learn the victim's secret from an earlier game (it is public once
revealed), then try hundreds of orders files that mean the same thing, compute the dice each would meet
under that secret, and sign the one that rolls best. Each test plays the attack through the real command
line with two rsr homes and shows that the victim's rsr refuses (the journal), and that even a victim with
an empty journal (a new machine) commits to a fresh secret (the nonce), so the attacker predicts no die.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from rsr import gamedir
from rsr import keys as keystore
from rsr import log as gamelog
from rsr.cli import main
from rsr.fairdice import commitment, dice_key, roll_value
from rsr.packet import read_packets, sign_payload
from rsr.rulesets import get_ruleset
from rsr.scenario import load_scenario

SCENARIO = "liaoyang-1904"
VARIANTS = 300
DICE_PER_VARIANT = 10


class Table:
    """Two players, each with an rsr home of their own, talking through files."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.runner = CliRunner()

    def home(self, who: str) -> Path:
        return self.root / who / "home"

    def games(self, who: str) -> Path:
        path = self.root / who / "games"
        path.mkdir(parents=True, exist_ok=True)
        return path

    def rsr(self, who: str, *args: str, code: int = 0) -> str:
        out = self.runner.invoke(main, list(args), env={"RSR_HOME": str(self.home(who))})
        assert out.exit_code == code, f"rsr {' '.join(args)} as {who}: {out.output}"
        assert out.exception is None or isinstance(out.exception, SystemExit), out.exception
        return out.output

    def with_home(self, who: str, key: str | None = None) -> keystore.KeyPair:
        import os

        os.environ["RSR_HOME"] = str(self.home(who))
        return keystore.load_key(key or who)


def only_game(folder: Path) -> Path:
    found = sorted(folder.glob("game-*"))
    assert len(found) == 1, found
    return found[0]


def turn(game_dir: Path, seq: int) -> Path:
    return sorted((game_dir / "turns").glob(f"{seq:04d}-*.rsr"))[0]


def first_game(table: Table, scenario: str = SCENARIO) -> tuple[Path, Path]:
    """Alice invites Bob; both send a packet without orders, so Bob's packet 3 reveals his first secret."""
    table.rsr("alice", "key", "new", "alice")
    table.rsr("bob", "key", "new", "bob")
    table.rsr("alice", "new", str(table.games("alice")), "--scenario", scenario, "--side", "russia", "--key", "alice")
    alice = only_game(table.games("alice"))
    table.rsr("bob", "accept", str(turn(alice, 0)), "--key", "bob", "--dir", str(table.games("bob")))
    bob = only_game(table.games("bob"))
    table.rsr("alice", "receive", str(alice), str(turn(bob, 1)))
    table.rsr("alice", "submit", str(alice), "--pass")
    table.rsr("bob", "receive", str(bob), str(turn(alice, 2)))
    table.rsr("bob", "submit", str(bob), "--pass")
    table.rsr("alice", "receive", str(alice), str(turn(bob, 3)))
    return alice, bob


def predicted_hits(table: Table, attacker: str, invite_file: Path, accept_file: Path,
                   old_secret: bytes) -> tuple[int, int, int]:
    """Alice grinds packet 2 of the new game: VARIANTS orders that mean the same (only the message differs).

    Returns (variants whose dice key Alice could compute, dice she predicted right, dice compared). The true
    dice come from Bob's secret for packet 1 of *this* game, read with Bob's own key.
    """
    parent = table.root / attacker / "replayed"
    invite = read_packets(invite_file.read_text(), None)[0]
    game_dir = parent / gamedir.game_dir_name(invite.game)
    (game_dir / "turns").mkdir(parents=True)
    shutil.copy(invite_file, game_dir / "turns" / invite.file_name())
    table.rsr(attacker, "receive", str(game_dir), str(accept_file))
    result = gamelog.replay(gamedir.load_log(game_dir))
    alice_key = table.with_home(attacker)
    bob_key = table.with_home("bob-new-machine", "bob")
    true_secret = gamelog.secret_for(result, bob_key, 1)
    assert commitment(true_secret) == result.packets[1].payload["commit"]
    game_id = bytes.fromhex(result.game_id)
    base = gamelog.build_packet(result, alice_key, [], "2026-12-01T12:00:00Z").payload
    known = right = compared = 0
    for variant in range(VARIANTS):
        packet = sign_payload({**base, "message": f"good luck ({variant})"}, alice_key)
        guess = dice_key(old_secret, game_id, packet.hash)
        truth = dice_key(true_secret, game_id, packet.hash)
        known += guess == truth
        for n in range(DICE_PER_VARIANT):
            compared += 1
            right += roll_value(guess, n, 6) == roll_value(truth, n, 6)
    return known, right, compared


def assert_no_die_predicted(known: int, right: int, compared: int) -> None:
    assert known == 0
    # 3,000 six-sided dice guessed with an unrelated key: about 500 right by chance, never all of them
    assert compared == VARIANTS * DICE_PER_VARIANT
    assert right < compared * 0.25


def copy_key_to_new_machine(table: Table, who: str) -> None:
    target = table.home(f"{who}-new-machine") / "keys"
    target.mkdir(parents=True)
    for path in (table.home(who) / "keys").iterdir():
        shutil.copy2(path, target / path.name)


def test_a_replayed_invitation_is_refused_and_predicts_no_die(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = first_game(table)
    old_secret = bytes.fromhex(gamedir.load_log(alice)[3].payload["reveal"])  # public since packet 3

    # the control: with the secret Bob committed to in the old game, Alice predicts every die of it
    old = gamedir.load_log(alice)
    assert commitment(old_secret) == old[1].payload["commit"]

    # Alice mails the old invitation again; Bob's rsr remembers it accepted that game
    again = table.rsr("bob", "accept", str(turn(alice, 0)), "--key", "bob", "--dir", str(tmp_path / "bob2"), code=2)
    assert "already accepted an invitation to game" in again
    assert not (tmp_path / "bob2").exists() or not any((tmp_path / "bob2").iterdir())

    # Bob on a new machine (his key copied, no journal): the acceptance is new, and so is its secret
    copy_key_to_new_machine(table, "bob")
    fresh = tmp_path / "bob-new-machine" / "games"
    fresh.mkdir(parents=True)
    table.rsr("bob-new-machine", "accept", str(turn(alice, 0)), "--key", "bob", "--dir", str(fresh))
    new_accept = turn(only_game(fresh), 1)
    assert new_accept.read_text() != turn(bob, 1).read_text()
    assert read_packets(new_accept.read_text(), None)[0].payload["commit"] != old[1].payload["commit"]
    assert_no_die_predicted(*predicted_hits(table, "alice", turn(alice, 0), new_accept, old_secret))


def test_a_borrowed_game_id_is_refused_and_predicts_no_die(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = first_game(table)
    public = gamedir.load_log(alice)
    old_secret = bytes.fromhex(public[3].payload["reveal"])

    # Carol, a third party, invites Bob to a "new" game carrying the id of the public game
    table.rsr("carol", "key", "new", "carol")
    carol_key = table.with_home("carol")
    ruleset = get_ruleset("red-sun-rising")
    invite = gamelog.invite_packet(ruleset, load_scenario(ruleset.id, SCENARIO), carol_key, "russia", "Carol",
                                   bytes.fromhex(public[0].game), None, {}, nonce=bytes(32))
    borrowed = tmp_path / "carol-invite.rsr"
    borrowed.write_text(invite.armored())
    out = table.rsr("bob", "accept", str(borrowed), "--key", "bob", "--dir", str(tmp_path / "bob2"), code=2)
    assert "already accepted an invitation to game" in out

    copy_key_to_new_machine(table, "bob")
    fresh = tmp_path / "bob-new-machine" / "games"
    fresh.mkdir(parents=True)
    table.rsr("bob-new-machine", "accept", str(borrowed), "--key", "bob", "--dir", str(fresh))
    new_accept = turn(only_game(fresh), 1)
    assert read_packets(new_accept.read_text(), None)[0].payload["commit"] != public[1].payload["commit"]
    assert_no_die_predicted(*predicted_hits(table, "carol", borrowed, new_accept, old_secret))


def test_a_rolled_back_copy_cannot_sign_again_and_is_restored_from_the_journal(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = first_game(table)
    signed = turn(bob, 3).read_text()
    turn(bob, 3).unlink()  # a git reset loses Bob's packet 3
    out = table.rsr("bob", "submit", str(bob), "--pass", code=2)
    assert "you already signed packet 3" in out
    assert sorted(p.name for p in (bob / "turns").iterdir()) == sorted(p.name for p in (alice / "turns").iterdir()
                                                                        if not p.name.startswith("0003"))
    journal_file = table.home("bob") / "journal" / gamedir.load_log(alice)[0].game / "000003.rsr"
    assert journal_file.exists()
    table.rsr("bob", "receive", str(bob), str(journal_file))
    assert turn(bob, 3).read_text() == signed
    table.rsr("bob", "verify", str(bob))
