"""Bad input to the email and git options (issue 16): one line, exit status 2, the game directory untouched,
and nothing signed when a send or a commit could not happen anyway."""

from __future__ import annotations

import hashlib
import mailbox
from pathlib import Path

import pytest
from click.testing import CliRunner

from rsr.cli import main
from tests.support.games import duel_game

pytestmark = pytest.mark.usefixtures("duel_registered")

INPUTS = {2: [{"request": "r1/attack", "answer": 1}]}


def snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name != ".rsr.lock"}


@pytest.mark.parametrize("args", [
    ["--send"],                                       # no mail settings, no opponent address
    ["--send", "--to", "bob@example.test"],           # an address, but no mail settings
    ["--send", "--to", "not an address"],
    ["--push"],                                       # --push without --git
    ["--git"],                                        # not in a git repository
    ["--git", "--push"],
])
def test_submit_refuses_before_signing(tmp_path: Path, args: list[str]) -> None:
    game_dir, _ = duel_game(tmp_path, INPUTS, 3)
    before = snapshot(game_dir)
    out = CliRunner().invoke(main, ["submit", str(game_dir), *args], env={"PATH": str(tmp_path / "no-git")}
                             if "--git" in args else None)
    assert out.exit_code == 2, out.output
    assert out.output.startswith("rsr: ") and out.output.count("\n") == 1
    assert snapshot(game_dir) == before


@pytest.mark.parametrize("args", [
    [],                                                # no source at all
    ["--maildir", "missing"],
    ["--mbox", "missing.mbox"],
    ["--maildir", "Maildir", "--mbox", "x.mbox"],      # two sources
    ["PACKET", "--maildir", "Maildir"],
    ["--imap"],                                        # no IMAP settings
    ["--git"],                                         # not in a git repository
])
def test_receive_sources_are_checked(tmp_path: Path, args: list[str]) -> None:
    game_dir, _ = duel_game(tmp_path, INPUTS, 3)
    mailbox.Maildir(str(tmp_path / "Maildir"), create=True)
    (tmp_path / "x.mbox").write_text("")
    (tmp_path / "PACKET").write_text("")
    before = snapshot(game_dir)
    full = [str(tmp_path / a) if a in ("missing", "missing.mbox", "Maildir", "x.mbox", "PACKET") else a
            for a in args]
    out = CliRunner().invoke(main, ["receive", str(game_dir), *full])
    assert out.exit_code == 2, out.output
    assert out.output.startswith("rsr: ") and out.output.count("\n") == 1
    assert snapshot(game_dir) == before


def test_new_send_without_an_address_writes_nothing(tmp_path: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["key", "new", "alice"]).exit_code == 0
    out = runner.invoke(main, ["new", str(tmp_path / "games"), "--scenario", "liaoyang-1904", "--side", "russia",
                               "--key", "alice", "--send"])
    assert out.exit_code == 2 and "no address for the opponent" in out.output
    assert not (tmp_path / "games").exists()


def test_mail_writes_an_eml_without_any_settings(tmp_path: Path) -> None:
    game_dir, _ = duel_game(tmp_path, INPUTS, 3)
    orders = tmp_path / "orders.yaml"
    orders.write_text("inputs:\n  - {request: r1/defend, answer: 2}\n")
    out = CliRunner().invoke(main, ["submit", str(game_dir), str(orders), "--mail"])
    assert out.exit_code == 0, out.output
    (eml,) = list((game_dir / "outbox").glob("0003-*.eml"))
    assert "-----BEGIN RSR PACKET-----" in eml.read_text()
    assert "outbox/" in (game_dir / ".gitignore").read_text()
