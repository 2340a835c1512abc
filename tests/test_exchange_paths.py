"""Real exchange paths (docs/architecture.md): packets through an SMTP server on loopback into a Maildir, and
through two clones of a git repository."""

from __future__ import annotations

import mailbox
import shutil
import smtplib
import socketserver
import subprocess
import threading
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner

from rsr.cli import main


class SmtpHandler(socketserver.StreamRequestHandler):
    """A minimal SMTP server (RFC 5321 subset) that delivers every message into a Maildir."""

    maildir: Path

    def reply(self, line: str) -> None:
        self.wfile.write((line + "\r\n").encode())

    def handle(self) -> None:
        self.reply("220 rsr-test ESMTP")
        while True:
            line = self.rfile.readline().decode().strip()
            verb = line.split(" ")[0].upper()
            if verb in ("HELO", "EHLO"):
                self.reply("250 rsr-test")
            elif verb in ("MAIL", "RCPT", "RSET", "NOOP"):
                self.reply("250 OK")
            elif verb == "DATA":
                self.reply("354 end with .")
                lines = []
                while True:
                    data = self.rfile.readline().decode()
                    if data in (".\r\n", ".\n"):
                        break
                    lines.append(data[1:] if data.startswith("..") else data)
                mailbox.Maildir(str(self.maildir)).add("".join(lines))
                self.reply("250 queued")
            elif verb == "QUIT" or not line:
                self.reply("221 bye")
                return
            else:
                self.reply("502 not implemented")


@pytest.fixture
def smtp_server(tmp_path: Path):  # type: ignore[no-untyped-def]
    maildir = tmp_path / "Maildir"
    mailbox.Maildir(str(maildir), create=True)
    handler = type("Handler", (SmtpHandler,), {"maildir": maildir})
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1], maildir
    server.shutdown()
    server.server_close()


def new_players(tmp_path: Path) -> tuple[dict[str, str], dict[str, str], Path, Path]:
    alice = {"RSR_HOME": str(tmp_path / "alice")}
    bob = {"RSR_HOME": str(tmp_path / "bob")}
    runner = CliRunner()
    assert runner.invoke(main, ["key", "new", "alice"], env=alice).exit_code == 0
    assert runner.invoke(main, ["key", "new", "bob"], env=bob).exit_code == 0
    return alice, bob, tmp_path / "alice-games", tmp_path / "bob-games"


@pytest.mark.parametrize("encoding", ["quoted-printable", "base64", "7bit"])
def test_packets_by_smtp_into_a_maildir(tmp_path: Path, smtp_server: tuple[int, Path], encoding: str) -> None:
    port, maildir = smtp_server
    alice, bob, a_games, b_games = new_players(tmp_path)
    runner = CliRunner()
    a_games.mkdir()
    b_games.mkdir()
    out = runner.invoke(main, ["new", str(a_games), "--scenario", "liaoyang-1904", "--side", "russia",
                               "--key", "alice"], env=alice)
    assert out.exit_code == 0, out.output
    a_dir = next(a_games.glob("game-*"))
    invite = next((a_dir / "turns").glob("0000-*")).read_text()

    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "alice@example.test", "bob@example.test", "Red Sun Rising"
    message.set_content("Bob, my invitation:\n\n" + invite + "\nAlice\n", cte=encoding if encoding != "7bit" else None)
    with smtplib.SMTP("127.0.0.1", port) as client:
        client.send_message(message)
    box = mailbox.Maildir(str(maildir))
    (key,) = list(box.keys())
    eml = tmp_path / "invite.eml"
    eml.write_bytes(box.get_bytes(key))
    if encoding == "quoted-printable":
        assert b"=3D" in eml.read_bytes() or b"=\n" in eml.read_bytes()
    out = runner.invoke(main, ["accept", str(eml), "--key", "bob", "--dir", str(b_games)], env=bob)
    assert out.exit_code == 0, out.output
    b_dir = next(b_games.glob("game-*"))
    accept = next((b_dir / "turns").glob("0001-*"))
    out = runner.invoke(main, ["receive", str(a_dir), str(accept)], env=alice)
    assert out.exit_code == 0, out.output
    assert runner.invoke(main, ["verify", str(a_dir)], env=alice).exit_code == 0


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True,
                          env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                               "GIT_COMMITTER_EMAIL": "t@t", "HOME": str(cwd), "PATH": "/usr/bin:/bin"}).stdout


@pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")
def test_packets_through_two_clones_of_a_git_repository(tmp_path: Path) -> None:
    alice, bob, a_repo, b_repo = new_players(tmp_path)
    runner = CliRunner()
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "--bare", "-q", str(origin))
    git(tmp_path, "clone", "-q", str(origin), str(a_repo))
    out = runner.invoke(main, ["new", str(a_repo), "--scenario", "liaoyang-1904", "--side", "russia",
                               "--key", "alice"], env=alice)
    assert out.exit_code == 0, out.output
    git(a_repo, "add", "-A")
    git(a_repo, "commit", "-q", "-m", "invite")
    git(a_repo, "push", "-q", "origin", "HEAD:main")
    git(tmp_path, "clone", "-q", "-b", "main", str(origin), str(b_repo))
    b_dir = next(b_repo.glob("game-*"))
    invite = next((b_dir / "turns").glob("0000-*"))
    # Bob accepts into a scratch folder, then copies his packet into the shared game directory
    scratch = tmp_path / "bob-scratch"
    scratch.mkdir()
    out = runner.invoke(main, ["accept", str(invite), "--key", "bob", "--dir", str(scratch)], env=bob)
    assert out.exit_code == 0, out.output
    accept = next(scratch.glob("game-*/turns/0001-*"))
    out = runner.invoke(main, ["receive", str(b_dir), str(accept)], env=bob)
    assert out.exit_code == 0, out.output
    git(b_repo, "add", "-A")
    git(b_repo, "commit", "-q", "-m", "accept")
    git(b_repo, "push", "-q", "origin", "HEAD:main")
    git(a_repo, "pull", "-q", "origin", "main")
    a_dir = next(a_repo.glob("game-*"))
    orders = tmp_path / "orders.yaml"
    assert runner.invoke(main, ["verify", str(a_dir)], env=alice).exit_code == 0
    out = runner.invoke(main, ["orders", "template", str(a_dir)], env=alice)
    assert "t7/russia/combat/r1/attacks" in out.output
    orders.write_text("inputs:\n- request: t7/russia/combat/r1/attacks\n  answer: {attacks: []}\n")
    out = runner.invoke(main, ["submit", str(a_dir), str(orders)], env=alice)
    assert out.exit_code == 0, out.output
    git(a_repo, "add", "-A")
    git(a_repo, "commit", "-q", "-m", "turn")
    git(a_repo, "push", "-q", "origin", "HEAD:main")
    git(b_repo, "pull", "-q", "origin", "main")
    out = runner.invoke(main, ["verify", str(b_dir)], env=bob)
    assert out.exit_code == 0, out.output
    assert "3 packets" in out.output
