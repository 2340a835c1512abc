"""Issue 20, sections 5 (mail) and 6 (terminal): one bad message never blocks a mailbox, IMAP has a deadline and
bounded literals, a From: header cannot inject lines, and nothing a packet or a mail carries reaches a
terminal or a report raw. Each through the real command line."""

from __future__ import annotations

import mailbox
import socket
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from rsr import games as game_actions
from rsr import orders as order_actions
from rsr import safetext
from rsr.cli import main
from rsr.gamedir import load_log
from rsr.mail import read as mail_read
from tests.support.games import duel_game
from tests.test_mail_reading import INPUTS, copy_of, mailed_invitation, plain

HOSTILE = "\x1b]0;pwned\x07Eve\x1b[2J\x9b31m\u202egnp.exe"


def nested(depth: int) -> bytes:
    head = "From: eve@example.test\r\nSubject: deep\r\nMIME-Version: 1.0\r\n"
    parts = [head]
    for level in range(depth):
        parts.append(f'Content-Type: multipart/mixed; boundary="b{level}"\r\n\r\n--b{level}\r\n')
    parts.append("Content-Type: text/plain\r\n\r\nhello\r\n")
    return "".join(parts).encode()


@pytest.mark.usefixtures("duel_registered")
def test_a_message_nested_3000_deep_is_skipped_and_the_good_packets_taken(tmp_path: Path) -> None:
    game_dir, _ = duel_game(tmp_path / "a", INPUTS, 4)
    log = load_log(game_dir)
    box = mailbox.Maildir(str(tmp_path / "Maildir"), create=True)
    box.add(nested(3000))
    box.add(plain("my move\n\n" + log[2].armored() + "\n" + log[3].armored()))
    mine = copy_of(game_dir, tmp_path, 2, "mine")
    out = CliRunner().invoke(main, ["receive", str(mine), "--maildir", str(tmp_path / "Maildir")])
    assert out.exit_code == 0, out.output
    assert "received packet 2" in out.output and "received packet 3" in out.output
    assert "skipped message" in out.output and "nested too deeply" in out.output
    out = CliRunner().invoke(main, ["inbox", str(tmp_path / "mine"), "--maildir", str(tmp_path / "Maildir")])
    assert out.exit_code == 0 and "skipped message" in out.output


@pytest.mark.usefixtures("duel_registered")
def test_an_mbox_is_read_message_by_message_with_a_size_bound(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    game_dir, _ = duel_game(tmp_path / "a", INPUTS, 3)
    log = load_log(game_dir)
    monkeypatch.setattr(mail_read, "MAX_MESSAGE_BYTES", 100_000)
    box = tmp_path / "mbox"
    big = plain("x" * 200_000)
    good = plain("move:\n\n" + log[2].armored())
    box.write_bytes(b"From eve Mon Jan  1 00:00:00 2026\n" + big + b"\n\nFrom a Mon Jan  1 00:00:00 2026\n" + good
                    + b"\n")
    messages = mail_read.mbox_messages(box)
    assert len(messages) == 1 and len(messages.skipped) == 1 and "more than 100000" in messages.skipped[0]
    mine = copy_of(game_dir, tmp_path, 2, "mine")
    out = CliRunner().invoke(main, ["receive", str(mine), "--mbox", str(box)])
    assert out.exit_code == 0, out.output
    assert "received packet 2" in out.output and "skipped message 1" in out.output


def trickling_server(payload: bytes, every: float) -> tuple[int, threading.Event]:
    """A TCP server that sends ``payload`` one byte at a time, ``every`` seconds apart."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    done = threading.Event()

    def serve() -> None:
        conn, _ = listener.accept()
        try:
            for byte in payload:
                if done.is_set():
                    break
                conn.sendall(bytes([byte]))
                time.sleep(every)
        except OSError:
            pass
        finally:
            conn.close()
            listener.close()

    threading.Thread(target=serve, daemon=True).start()
    return listener.getsockname()[1], done


def imap_env(port: int, deadline: str) -> dict[str, str]:
    return {"RSR_IMAP_HOST": "127.0.0.1", "RSR_IMAP_PORT": str(port), "RSR_IMAP_USER": "u",
            "RSR_IMAP_PASSWORD": "p", "RSR_IMAP_TLS": "starttls", "RSR_IMAP_DEADLINE": deadline}


def test_an_imap_server_trickling_bytes_is_cut_off_at_the_deadline(tmp_path: Path) -> None:
    port, done = trickling_server(b"* OK " + b"x" * 200 + b"\r\n", 0.2)
    started = time.monotonic()
    out = CliRunner().invoke(main, ["inbox", str(tmp_path), "--imap"], env=imap_env(port, "2"))
    done.set()
    assert time.monotonic() - started < 10
    assert out.exit_code == 2, out.output
    assert "did not finish within 2 s" in out.output and "Traceback" not in out.output


def test_an_imap_literal_of_size_10_to_the_20_is_refused(tmp_path: Path) -> None:
    port, done = trickling_server(b"* OK {100000000000000000000}\r\n", 0)
    out = CliRunner().invoke(main, ["inbox", str(tmp_path), "--imap"], env=imap_env(port, "20"))
    done.set()
    assert out.exit_code == 2, out.output
    assert "literal" in out.output and "Traceback" not in out.output


def test_the_imap_deadline_must_be_a_number(tmp_path: Path) -> None:
    out = CliRunner().invoke(main, ["inbox", str(tmp_path), "--imap"], env=imap_env(1, "soon"))
    assert out.exit_code == 2 and "RSR_IMAP_DEADLINE" in out.output


def test_a_from_header_hiding_crlf_never_reaches_a_header(tmp_path: Path) -> None:
    runner = CliRunner()
    eml = mailed_invitation(tmp_path, runner)
    hostile = "=?utf-8?b?RXZlDQpCY2M6IHZpY3RpbUBleGFtcGxlLnRlc3Q=?="  # "Eve\r\nBcc: victim@example.test"
    eml.write_text(eml.read_text().replace("Subject:", f"From: {hostile} <eve@example.test>\nSubject:", 1))
    out = runner.invoke(main, ["accept", str(eml), "--key", "bob", "--dir", str(tmp_path / "b"), "--mail"])
    assert out.exit_code == 0, out.output
    assert "opponent's address: eve@example.test" in out.output
    (game,) = list((tmp_path / "b").glob("game-*"))
    sent = next((game / "outbox").glob("0001-*.eml")).read_text()
    assert "Bcc" not in sent and "To: eve@example.test" in sent
    out = runner.invoke(main, ["mail", str(game), "1"])
    assert out.exit_code == 0, out.output


def test_safetext_escapes_every_hidden_character() -> None:
    shown = safetext.visible(HOSTILE)
    assert not safetext.has_hidden(shown)
    assert "\\x1b" in shown and "\\u202e" in shown and "\\x9b" in shown and "Eve" in shown
    assert safetext.markdown("[x](http://e) **b** <img>") == "\\[x\\](http://e) \\*\\*b\\*\\* \\<img\\>"
    assert safetext.visible_lines("a\nb\x1b") == ["a", "b\\x1b"]
    assert safetext.screen("[bold]x") == "\\[bold]x"


def test_a_hostile_name_and_message_never_reach_the_terminal_raw(tmp_path: Path) -> None:
    """A modified rsr signs a name and a message full of escape sequences; status, report, inbox and receive
    show them escaped."""
    runner = CliRunner()
    assert runner.invoke(main, ["key", "new", "alice"]).exit_code == 0
    assert runner.invoke(main, ["key", "new", "eve"]).exit_code == 0
    game_dir, invite = game_actions.new_game(tmp_path, "red-sun-rising", "liaoyang-1904", "russia", "alice", "Alice")
    accepted, _ = game_actions.accept_game(game_dir / "turns" / invite.file_name(), tmp_path / "eve", "eve", HOSTILE)
    outputs = [runner.invoke(main, ["status", str(accepted), "--key", "eve"]),
               runner.invoke(main, ["inbox", str(tmp_path / "eve")])]
    alice_copy = game_dir
    packet = next((accepted / "turns").glob("0001-*"))
    outputs.append(runner.invoke(main, ["receive", str(alice_copy), str(packet), "--key", "alice"]))
    empty = order_actions.pass_answer(game_actions.load_game(alice_copy), "alice")
    order_actions.submit(alice_copy, [empty] if empty else [], "alice", message="hi \u202eevil\x9b31m\u2066")
    outputs.append(runner.invoke(main, ["status", str(alice_copy), "--key", "alice"]))
    outputs.append(runner.invoke(main, ["report", str(alice_copy), "--format", "text"]))
    outputs.append(runner.invoke(main, ["report", str(alice_copy), "--format", "md"]))
    for out in outputs:
        assert out.exit_code == 0, out.output
        assert not any(ch in out.output for ch in "\x1b\x07\x9b\u202e"), out.output
    assert any("Eve" in out.output for out in outputs)
    for report in (alice_copy / "reports").glob("*.md"):
        assert not any(ch in report.read_text() for ch in "\x1b\x07\x9b\u202e")


def test_a_name_with_hidden_characters_is_refused_before_signing(tmp_path: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["key", "new", "alice"]).exit_code == 0
    for name in ("\x1b[2JEve", "Eve\u202e", "E" * 65):
        out = runner.invoke(main, ["new", str(tmp_path), "--scenario", "liaoyang-1904", "--side", "russia",
                                   "--key", "alice", "--name", name])
        assert out.exit_code == 2, out.output
        assert "\x1b" not in out.output and "\u202e" not in out.output
        assert not list(tmp_path.glob("game-*"))
