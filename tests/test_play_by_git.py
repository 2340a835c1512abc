"""Playing through a shared git repository (issue 16): two clones of one bare repository exchange a whole
game of each ruleset with `rsr submit --git --push` and `rsr receive --git`, one command each per turn."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from rsr.cli import main
from tests.support.pbem import GIT_IDENTITY, Player, play_out, run

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")

GAMES = [("red-sun-rising", "liaoyang-1904", "russia"), ("red-star", "july-1939-contact", "soviet")]


def git(cwd: Path, *args: str) -> str:
    env = dict(os.environ, **GIT_IDENTITY)
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True, env=env).stdout


def setup(tmp_path: Path) -> tuple[Player, Player, Path]:
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "--bare", "-q", str(origin))
    made = []
    for name in ("alice", "bob"):
        home = tmp_path / name / "rsr-home"
        player = Player(name, home, dict(GIT_IDENTITY, RSR_HOME=str(home)))
        run(player, "key", "new", name)
        made.append(player)
    return made[0], made[1], origin


def start(tmp_path: Path, ruleset: str, scenario: str, side: str) -> tuple[Player, Player, Path]:
    alice, bob, origin = setup(tmp_path)
    # Alice: a clone of the (empty) shared repository, then one command starts the game there and pushes it
    git(tmp_path, "clone", "-q", str(origin), str(tmp_path / "alice" / "repo"))
    run(alice, "new", tmp_path / "alice" / "repo", "--ruleset", ruleset, "--scenario", scenario, "--side", side,
        "--key", "alice", "--name", "Alice", "--git", "--push")
    alice.game_dir = next((tmp_path / "alice" / "repo").glob("game-*"))
    # Bob: a clone, which already holds the invitation; one command accepts it in place and pushes
    git(tmp_path, "clone", "-q", str(origin), str(tmp_path / "bob" / "repo"))
    bob.game_dir = tmp_path / "bob" / "repo" / alice.game_dir.name
    run(bob, "accept", bob.game_dir, "--key", "bob", "--name", "Bob", "--git", "--push")
    return alice, bob, origin


@pytest.mark.parametrize(("ruleset", "scenario", "side"), GAMES)
def test_a_whole_game_through_two_clones(tmp_path: Path, ruleset: str, scenario: str, side: str) -> None:
    alice, bob, origin = start(tmp_path, ruleset, scenario, side)
    loop = play_out(alice, bob, lambda p: ["receive", p.game_dir, "--git"],
                    lambda p, orders: ["submit", p.game_dir, orders, "--git", "--push"], tmp_path / "orders")
    assert loop >= 3  # liaoyang-1904: attacks, attacks and reveal, reveal
    assert alice.game_dir is not None and bob.game_dir is not None
    # the last packet written is in the other clone too
    run(alice, "receive", alice.game_dir, "--git")
    run(bob, "receive", bob.game_dir, "--git")
    for player in (alice, bob):
        assert "verified" in run(player, "verify", player.game_dir).output
    for path in (alice.game_dir / "turns").iterdir():
        assert path.read_bytes() == (bob.game_dir / "turns" / path.name).read_bytes()
    # a third, fresh clone holds the whole game, byte-exact, and verifies
    audit = tmp_path / "audit"
    git(tmp_path, "clone", "-q", str(origin), str(audit))
    audit_game = audit / alice.game_dir.name
    for path in (alice.game_dir / "turns").iterdir():
        assert path.read_bytes() == (audit_game / "turns" / path.name).read_bytes()
    assert "verified" in run(alice, "verify", audit_game).output
    # conventional commit messages; packets marked -text; local files kept out of the repository
    log = git(audit, "log", "--format=%s")
    count = len(list((alice.game_dir / "turns").iterdir()))
    assert f"rsr({alice.game_dir.name}): invitation 0 by {side}" in log
    assert f"rsr({alice.game_dir.name}): packet {count - 1} by" in log
    assert "*.rsr -text" in (audit / ".gitattributes").read_text()
    assert git(audit, "check-attr", "text", "--", f"{alice.game_dir.name}/turns/x.rsr").strip().endswith("unset")
    tracked = git(audit, "ls-files").split()
    assert not any(name.endswith(("local.yaml", ".rsr.lock")) for name in tracked)
    # reports, game.yaml and disputes are local (issue 20, section 5): derived, ignored, never committed
    assert not any(name.startswith(f"{alice.game_dir.name}/reports/") for name in tracked)
    assert f"{alice.game_dir.name}/game.yaml" not in tracked
    assert not git(alice.game_dir.parent, "status", "--porcelain").strip()  # nothing left untracked


def test_a_packet_written_twice_with_one_key_is_an_equivocation(tmp_path: Path) -> None:
    alice, bob, origin = start(tmp_path, "red-sun-rising", "liaoyang-1904", "russia")
    assert alice.game_dir is not None
    run(alice, "receive", alice.game_dir, "--git")
    # Alice has a second clone with the same key, and writes packet 2 on both
    second = tmp_path / "alice" / "laptop"
    git(tmp_path, "clone", "-q", str(origin), str(second))
    orders = tmp_path / "orders.yaml"
    template = run(alice, "orders", "template", alice.game_dir).output
    request = next(line.split("request: ")[1] for line in template.splitlines() if "request: " in line)
    orders.write_text(f"inputs:\n- request: {request}\n  answer: {{attacks: []}}\n")
    run(alice, "submit", alice.game_dir, "--pass", "--git", "--push")
    # on the same computer her signing journal refuses a second packet 2 (docs/protocol.md)
    same_home = Player("alice", alice.home, alice.env, second / alice.game_dir.name)
    refused = CliRunner().invoke(main, ["submit", str(same_home.game_dir), str(orders), "--git"], env=alice.env)
    assert refused.exit_code == 2 and "you already signed packet 2" in refused.output
    # another computer (her key copied, not her journal) can sign one: that is the equivocation shown here
    laptop_home = tmp_path / "alice" / "laptop-home"
    shutil.copytree(alice.home / "keys", laptop_home / "keys")
    laptop = Player("alice", laptop_home, {**alice.env, "RSR_HOME": str(laptop_home)}, second / alice.game_dir.name)
    run(laptop, "submit", laptop.game_dir, orders, "--git")
    out = CliRunner().invoke(main, ["receive", str(laptop.game_dir), "--git"], env=laptop.env)
    assert out.exit_code == 1
    assert "two different packets at seq 2, both signed by russia" in out.output
    assert "nothing was merged" in out.output
    proof = laptop.game_dir / "disputes" / "0002-russia.txt"
    assert proof.read_text().count("-----BEGIN RSR PACKET-----") == 2
    # the laptop's pushing is refused too, with the reason
    out = CliRunner().invoke(main, ["submit", str(laptop.game_dir), "--git", "--push"], env=laptop.env)
    assert out.exit_code != 0


def test_submit_push_refuses_while_the_remote_holds_unreceived_packets(tmp_path: Path) -> None:
    alice, bob, _ = start(tmp_path, "red-sun-rising", "liaoyang-1904", "russia")
    assert alice.game_dir is not None
    out = CliRunner().invoke(main, ["submit", str(alice.game_dir), "--git", "--push"], env=alice.env)
    assert out.exit_code == 2
    assert "you have not received" in out.output and "rsr receive" in out.output
    assert len(list((alice.game_dir / "turns").iterdir())) == 1
    out = run(alice, "inbox", alice.game_dir.parent, "--git")
    assert "1 packets  waiting for japan  1 new packet(s) in the remote" in out.output
    run(alice, "receive", alice.game_dir, "--git")
    out = run(alice, "inbox", alice.game_dir.parent, "--git")
    assert "2 packets  your packet next (russia)" in out.output and "in the remote" not in out.output


def test_receive_git_refuses_a_tampered_packet_before_merging(tmp_path: Path) -> None:
    alice, bob, origin = start(tmp_path, "red-sun-rising", "liaoyang-1904", "russia")
    assert alice.game_dir is not None and bob.game_dir is not None
    run(alice, "receive", alice.game_dir, "--git")
    run(alice, "submit", alice.game_dir, "--pass", "--git", "--push")
    # someone with push access rewrites Alice's packet 2 in the shared repository
    evil = tmp_path / "evil"
    git(tmp_path, "clone", "-q", str(origin), str(evil))
    packet = next((evil / alice.game_dir.name / "turns").glob("0002-*"))
    lines = packet.read_text().split("\n")
    lines[5] = lines[5][:10] + ("A" if lines[5][10] != "A" else "B") + lines[5][11:]
    packet.write_text("\n".join(lines))
    git(evil, "commit", "-q", "-am", "tamper")
    git(evil, "push", "-q")
    head = git(bob.game_dir, "rev-parse", "HEAD")
    out = CliRunner().invoke(main, ["receive", str(bob.game_dir), "--git"], env=bob.env)
    assert out.exit_code == 1, out.output
    assert "does not verify" in out.output and "nothing was merged" in out.output
    assert git(bob.game_dir, "rev-parse", "HEAD") == head
    assert len(list((bob.game_dir / "turns").iterdir())) == 2


def test_git_missing_is_one_clear_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    alice, _, _ = setup(tmp_path)
    env = dict(alice.env, PATH=str(tmp_path / "empty"))
    out = CliRunner().invoke(main, ["new", str(tmp_path / "repo"), "--scenario", "liaoyang-1904", "--side", "russia",
                                    "--key", "alice", "--git"], env=env)
    assert out.exit_code == 2
    assert "git is not installed" in out.output
    assert not (tmp_path / "repo").exists() or not any((tmp_path / "repo").iterdir())


def test_new_git_makes_the_repository_and_pushes_to_a_new_remote(tmp_path: Path) -> None:
    alice, bob, origin = setup(tmp_path)
    run(alice, "new", tmp_path / "alice" / "fresh", "--scenario", "liaoyang-1904", "--side", "russia",
        "--key", "alice", "--git", "--remote", str(origin), "--push")
    clone = tmp_path / "bob" / "repo"
    git(tmp_path, "clone", "-q", str(origin), str(clone))
    (game,) = list(clone.glob("game-*"))
    out = run(bob, "accept", game / "turns" / next((game / "turns").iterdir()).name, "--key", "bob", "--dir", clone,
              "--git", "--push")
    assert "committed packet 1" in out.output
    assert "received packet 1 (japan)" in run(alice, "receive", tmp_path / "alice" / "fresh" / game.name,
                                                 "--git").output
