"""Issue 20, sections 4 and 5: the attacks of a hostile opponent or shared repository on the git and mail
exchange, each tried through the real command line. Every one is refused with one line and exit 2 (or
1 for a packet that does not verify), nothing is signed, merged or written, and no secret leaves the machine.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from rsr.cli import main
from tests.support.pbem import Player, run
from tests.test_play_by_git import git, start

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")


def invoke(player: Player, *args: object) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], env=player.env)


def one_line_refusal(out: Result, code: int = 2) -> None:
    assert out.exit_code == code, out.output
    assert "Traceback" not in out.output
    assert len(out.output.strip().splitlines()) == 1, out.output


def hostile_clone(tmp_path: Path, origin: Path) -> Path:
    evil = tmp_path / "evil"
    git(tmp_path, "clone", "-q", str(origin), str(evil))
    return evil


def push_change(evil: Path, message: str) -> None:
    git(evil, "add", "-A")
    git(evil, "commit", "-q", "-m", message)
    git(evil, "push", "-q")


@pytest.fixture
def game(tmp_path: Path) -> tuple[Player, Player, Path]:
    """Alice and Bob, two clones of one bare repository; Alice has received Bob's acceptance and pushed
    packet 2; Bob has not received it yet."""
    alice, bob, origin = start(tmp_path, "red-sun-rising", "liaoyang-1904", "russia")
    run(alice, "receive", alice.game_dir, "--git")
    run(alice, "submit", alice.game_dir, "--pass", "--git", "--push")
    return alice, bob, origin


def refused_receive(bob: Player, code: int = 2) -> Result:
    """``rsr receive --git`` refuses: HEAD, the log and the working tree stay as they were."""
    assert bob.game_dir is not None
    head = git(bob.game_dir, "rev-parse", "HEAD")
    turns = sorted(p.name for p in (bob.game_dir / "turns").iterdir())
    out = invoke(bob, "receive", bob.game_dir, "--git")
    one_line_refusal(out, code)
    assert "nothing was merged" in out.output
    assert git(bob.game_dir, "rev-parse", "HEAD") == head
    assert sorted(p.name for p in (bob.game_dir / "turns").iterdir()) == turns
    return out


# -- receive --git merges only what it checked -------------------------------------------------------------


def test_a_deleted_old_turn_file_refuses_the_merge(tmp_path: Path, game: tuple[Player, Player, Path]) -> None:
    alice, bob, origin = game
    evil = hostile_clone(tmp_path, origin)
    (evil / alice.game_dir.name / "turns" / next(
        p.name for p in (evil / alice.game_dir.name / "turns").glob("0001-*"))).unlink()
    push_change(evil, "roll the game back")
    out = refused_receive(bob)
    assert "deletes a turn file" in out.output


def test_a_renamed_old_turn_file_refuses_the_merge(tmp_path: Path, game: tuple[Player, Player, Path]) -> None:
    alice, bob, origin = game
    evil = hostile_clone(tmp_path, origin)
    turns = evil / alice.game_dir.name / "turns"
    old = next(turns.glob("0001-*"))
    old.rename(turns / "0001-japan-accepted.rsr")
    push_change(evil, "rename")
    refused_receive(bob)


def test_an_edited_old_turn_file_refuses_the_merge(tmp_path: Path, game: tuple[Player, Player, Path]) -> None:
    alice, bob, origin = game
    evil = hostile_clone(tmp_path, origin)
    old = next((evil / alice.game_dir.name / "turns").glob("0001-*"))
    old.write_bytes(old.read_bytes() + b"\n")
    push_change(evil, "edit")
    out = refused_receive(bob)
    assert "changes a turn file already in the log" in out.output


def test_a_non_ascii_file_name_in_turns_is_checked_and_refused(tmp_path: Path,
                                                               game: tuple[Player, Player, Path]) -> None:
    alice, bob, origin = game
    evil = hostile_clone(tmp_path, origin)
    turns = evil / alice.game_dir.name / "turns"
    packet = next(turns.glob("0002-*"))
    (turns / "0003-japan-\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9.rsr").write_bytes(packet.read_bytes())
    push_change(evil, "a name git would quote")
    out = refused_receive(bob)
    assert "NNNN-side-tag.rsr" in out.output


def test_working_tree_encoding_attributes_refuse_the_merge(tmp_path: Path,
                                                           game: tuple[Player, Player, Path]) -> None:
    _, bob, origin = game
    evil = hostile_clone(tmp_path, origin)
    with (evil / ".gitattributes").open("a") as handle:
        handle.write("*.md working-tree-encoding=UTF-16LE\n")
    push_change(evil, "attributes")
    out = refused_receive(bob)
    assert "attribute rsr did not write" in out.output


def test_a_gitattributes_inside_the_game_refuses_the_merge(tmp_path: Path,
                                                           game: tuple[Player, Player, Path]) -> None:
    alice, bob, origin = game
    evil = hostile_clone(tmp_path, origin)
    (evil / alice.game_dir.name / ".gitattributes").write_text("*.rsr filter=evil\n")
    push_change(evil, "attributes")
    refused_receive(bob)


def test_a_file_outside_the_games_refuses_the_merge(tmp_path: Path, game: tuple[Player, Player, Path]) -> None:
    _, bob, origin = game
    evil = hostile_clone(tmp_path, origin)
    (evil / "run-me.sh").write_text("echo hi\n")
    push_change(evil, "unrelated")
    out = refused_receive(bob)
    assert "no game's" in out.output


def test_another_games_broken_packet_refuses_the_merge(tmp_path: Path, game: tuple[Player, Player, Path]) -> None:
    alice, bob, origin = game
    evil = hostile_clone(tmp_path, origin)
    other = evil / "game-0badc0de" / "turns"
    other.mkdir(parents=True)
    (other / "0000-japan-invite.rsr").write_text("not a packet\n")
    push_change(evil, "another game")
    out = refused_receive(bob, code=1)
    assert "game-0badc0de" in out.output


def test_a_committed_symbolic_link_refuses_the_merge(tmp_path: Path, game: tuple[Player, Player, Path]) -> None:
    alice, bob, origin = game
    evil = hostile_clone(tmp_path, origin)
    (evil / alice.game_dir.name / "turns" / "0003-japan-0badc0de.rsr").symlink_to("/etc/passwd")
    push_change(evil, "link")
    out = refused_receive(bob)
    assert "symbolic link" in out.output


def test_a_huge_blob_is_refused_before_it_is_read(tmp_path: Path, game: tuple[Player, Player, Path]) -> None:
    alice, bob, origin = game
    evil = hostile_clone(tmp_path, origin)
    (evil / alice.game_dir.name / "turns" / "0003-japan-0badc0de.rsr").write_bytes(b"A" * (9 * 1024 * 1024))
    push_change(evil, "big")
    out = refused_receive(bob)
    assert "bytes in the remote; at most" in out.output


def test_the_honest_packet_still_merges_after_an_attack_is_withdrawn(tmp_path: Path,
                                                                     game: tuple[Player, Player, Path]) -> None:
    alice, bob, origin = game
    evil = hostile_clone(tmp_path, origin)
    (evil / "run-me.sh").write_text("echo hi\n")
    push_change(evil, "unrelated")
    refused_receive(bob)
    (evil / "run-me.sh").unlink()
    push_change(evil, "withdrawn")  # the file came and went: the merge brings no change to it
    out = run(bob, "receive", bob.game_dir, "--git")
    assert "received packet 2 (russia)" in out.output


# -- links in the repository: never read or written through -------------------------------------------------


def test_a_gitignore_link_never_pushes_its_target(tmp_path: Path) -> None:
    """The inviter commits GAME/.gitignore as a link to a secret; accept --git --push refuses before signing."""
    alice, bob, origin = start(tmp_path, "red-sun-rising", "liaoyang-1904", "russia")
    evil = hostile_clone(tmp_path, origin)
    secret = tmp_path / "secret.txt"
    secret.write_text("RSR_PASSPHRASE=hunter2\n")
    # a new invitation's clone, as Bob would get it: the game's .gitignore is a link to a secret
    carol = Player("carol", tmp_path / "carol" / "home", {**bob.env, "RSR_HOME": str(tmp_path / "carol" / "home")})
    run(carol, "key", "new", "carol")
    link = evil / alice.game_dir.name / ".gitignore"
    link.unlink()
    link.symlink_to(secret)
    push_change(evil, "link the ignore file")
    clone = tmp_path / "carol" / "repo"
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    game_dir = clone / alice.game_dir.name
    before = sorted(p.name for p in (game_dir / "turns").iterdir())
    out = invoke(carol, "receive", game_dir, "--git")
    assert out.exit_code == 2 and "symbolic link" in out.output
    out = invoke(carol, "submit", game_dir, "--git", "--push")
    one_line_refusal(out)
    assert "symbolic link" in out.output
    assert sorted(p.name for p in (game_dir / "turns").iterdir()) == before
    assert "hunter2" not in git(clone, "log", "-p", "--all")


def test_accept_git_refuses_a_linked_gitignore_before_signing(tmp_path: Path) -> None:
    alice, bob, origin = start(tmp_path, "red-sun-rising", "liaoyang-1904", "russia")
    # a second invitation whose game directory carries a .gitignore link to /proc/self/environ
    secret = tmp_path / "environ"
    secret.write_text("RSR_SMTP_PASSWORD=s3cret\n")
    repo = tmp_path / "alice" / "repo"
    git(repo, "pull", "-q", "--no-rebase")
    run(alice, "new", repo, "--ruleset", "red-star", "--scenario", "july-1939-contact", "--side", "soviet",
        "--key", "alice", "--name", "Alice", "--git")
    second = next(p for p in repo.glob("game-*") if p.name != alice.game_dir.name)
    (second / ".gitignore").unlink()
    (second / ".gitignore").symlink_to(secret)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "hostile")
    git(repo, "push", "-q")
    git(bob.game_dir.parent, "pull", "-q")
    out = invoke(bob, "accept", bob.game_dir.parent / second.name, "--key", "bob", "--git", "--push")
    one_line_refusal(out)
    assert "symbolic link" in out.output
    assert not list((bob.game_dir.parent / second.name / "turns").glob("0001-*"))
    assert "s3cret" not in git(repo, "log", "-p", "--all")


def test_a_gitattributes_link_is_never_written_through(tmp_path: Path, game: tuple[Player, Player, Path]) -> None:
    alice, bob, origin = game
    run(bob, "receive", bob.game_dir, "--git")
    target = tmp_path / "outside.txt"
    target.write_text("untouched\n")
    repo = bob.game_dir.parent
    (repo / ".gitattributes").unlink()
    (repo / ".gitattributes").symlink_to(target)
    turns = sorted(p.name for p in (bob.game_dir / "turns").iterdir())
    out = invoke(bob, "submit", bob.game_dir, "--pass", "--git")
    one_line_refusal(out)
    assert "symbolic link" in out.output and "nothing" not in target.read_text()
    assert target.read_text() == "untouched\n"
    assert sorted(p.name for p in (bob.game_dir / "turns").iterdir()) == turns  # nothing signed


def test_an_outbox_link_refuses_submit_mail_before_signing(tmp_path: Path, game: tuple[Player, Player, Path]) -> None:
    alice, bob, origin = game
    run(bob, "receive", bob.game_dir, "--git")
    outside = tmp_path / "outside"
    outside.mkdir()
    (bob.game_dir / "outbox").symlink_to(outside)
    turns = sorted(p.name for p in (bob.game_dir / "turns").iterdir())
    out = invoke(bob, "submit", bob.game_dir, "--pass", "--mail")
    one_line_refusal(out)
    assert "symbolic link" in out.output and "nothing signed" in out.output
    assert list(outside.iterdir()) == []
    assert sorted(p.name for p in (bob.game_dir / "turns").iterdir()) == turns


# -- section 4: receive never downgrades its own checks -------------------------------------------------------


def test_receive_with_a_key_it_cannot_unlock_stops(tmp_path: Path) -> None:
    alice, bob, origin = start(tmp_path, "red-sun-rising", "liaoyang-1904", "russia")
    run(alice, "receive", alice.game_dir, "--git")
    run(alice, "submit", alice.game_dir, "--pass", "--git", "--push")
    # Bob's key is now protected by a passphrase he has not given (cron, no RSR_PASSPHRASE)
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from rsr import keys as keystore

    key_file = bob.home / "keys" / "bob.key"
    pair = keystore.load_key("bob", directory=bob.home / "keys")
    private = Ed25519PrivateKey.from_private_bytes(pair.seed)
    key_file.write_bytes(private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                               serialization.BestAvailableEncryption(b"right")))
    before = sorted(p.name for p in (bob.game_dir / "turns").iterdir())
    head = git(bob.game_dir, "rev-parse", "HEAD")
    for env in ({**bob.env, "RSR_PASSPHRASE": "wrong"}, {k: v for k, v in bob.env.items() if k != "RSR_PASSPHRASE"}):
        out = CliRunner().invoke(main, ["receive", str(bob.game_dir), "--git"], env=env)
        assert out.exit_code == 2, out.output
        assert "passphrase" in out.output and "nothing was received" in out.output
        assert sorted(p.name for p in (bob.game_dir / "turns").iterdir()) == before
        assert git(bob.game_dir, "rev-parse", "HEAD") == head
    out = CliRunner().invoke(main, ["receive", str(bob.game_dir), "--git"], env={**bob.env, "RSR_PASSPHRASE": "right"})
    assert out.exit_code == 0, out.output
    assert "received packet 2" in out.output


# -- issue 23, section 4: you always see what your opponent did ------------------------------------------------


def test_a_packet_merged_without_its_summary_is_shown_at_the_next_receive(tmp_path: Path) -> None:
    alice, bob, origin = start(tmp_path, "red-sun-rising", "liaoyang-1904", "russia")
    out = run(alice, "receive", alice.game_dir, "--git")
    assert "received packet 1" in out.output
    run(alice, "submit", alice.game_dir, "--pass", "--git", "--push")
    # Bob's clone takes Alice's packet 2 by a plain git pull (as an automatic merge would): no summary shown
    git(bob.game_dir.parent, "pull", "-q", "--no-rebase")
    out = run(bob, "receive", bob.game_dir, "--git")
    assert "nothing new" in out.output
    assert "not shown before: packet 2" in out.output and "russia's packet 2" in out.output
    out = run(bob, "receive", bob.game_dir, "--git")  # shown once: not again
    assert "not shown before" not in out.output


def test_a_push_merges_another_games_checked_packets_and_says_so(tmp_path: Path) -> None:
    alice, bob, origin = start(tmp_path, "red-sun-rising", "liaoyang-1904", "russia")
    run(alice, "receive", alice.game_dir, "--git")
    # Bob starts a second game in the same repository and pushes it while Alice writes her packet
    run(bob, "new", bob.game_dir.parent, "--ruleset", "red-star", "--scenario", "july-1939-contact",
        "--side", "soviet", "--key", "bob", "--name", "Bob", "--git", "--push")
    out = run(alice, "submit", alice.game_dir, "--pass", "--git", "--push")
    assert "merged (checked) from the remote: game-" in out.output and "/turns/0000-soviet-invite.rsr" in out.output
    assert "pushed to" in out.output
    out = run(bob, "receive", bob.game_dir, "--git")
    assert "received packet 2 (russia)" in out.output
