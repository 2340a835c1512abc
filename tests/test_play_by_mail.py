"""Playing by email for real (issue 16): `rsr submit --send` through an SMTP server on loopback (STARTTLS
with a throwaway certificate, authentication), `rsr receive --maildir` / `--mbox` / `--imap` reading what
it delivered; a whole game of each ruleset, one command to receive and one to send per player and turn."""

from __future__ import annotations

import email
import email.policy
import shutil
from pathlib import Path

import pytest

from tests.support.pbem import MailServer, Player, play_out, run

pytest.importorskip("aiosmtpd")

GAMES = [("red-sun-rising", "liaoyang-1904", "russia"), ("red-star", "july-1939-contact", None)]


@pytest.fixture
def mail_server(tmp_path: Path):  # type: ignore[no-untyped-def]
    server = MailServer(tmp_path / "server", {"alice": "alice-secret", "bob": "bob-secret"})
    server.root.mkdir()
    server.start()
    yield server
    server.stop()


def players(tmp_path: Path, server: MailServer) -> tuple[Player, Player]:
    made = []
    for name in ("alice", "bob"):
        home = tmp_path / name / "rsr-home"
        server.config_for(home, name)
        player = Player(name, home, {"RSR_HOME": str(home)})
        run(player, "key", "new", name)
        made.append(player)
    return made[0], made[1]


@pytest.mark.parametrize(("ruleset", "scenario", "side"), GAMES)
def test_a_whole_game_by_smtp_and_maildir(tmp_path: Path, mail_server: MailServer, ruleset: str, scenario: str,
                                          side: str | None) -> None:
    alice, bob = players(tmp_path, mail_server)
    from rsr.rulesets import get_ruleset

    sides = get_ruleset(ruleset).sides
    creator = side or sides[0]
    # Alice starts the game and mails the invitation: one command
    run(alice, "new", tmp_path / "alice" / "games", "--ruleset", ruleset, "--scenario", scenario, "--side", creator,
        "--key", "alice", "--name", "Alice", "--opponent-email", "bob@example.test", "--send")
    alice.game_dir = next((tmp_path / "alice" / "games").glob("game-*"))
    # Bob accepts what arrived in his Maildir and mails the acceptance back: one command; Alice's address
    # comes from the invitation's From
    out = run(bob, "accept", "--maildir", mail_server.maildir_path("bob"), "--key", "bob", "--name", "Bob",
              "--dir", tmp_path / "bob" / "games", "--send")
    assert "opponent's address: Alice <alice@example.test>" in out.output
    bob.game_dir = next((tmp_path / "bob" / "games").glob("game-*"))

    loop = play_out(alice, bob, lambda p: ["receive", p.game_dir, "--maildir", mail_server.maildir_path(p.name)],
                    lambda p, orders: ["submit", p.game_dir, orders, "--send"], tmp_path / "orders")

    # every message went through STARTTLS + AUTH as its sender
    assert set(mail_server.logins) == {"alice", "bob"}
    assert len(mail_server.logins) == loop + 2
    for player in (alice, bob):
        assert "verified" in run(player, "verify", player.game_dir).output
    assert sorted(p.name for p in (alice.game_dir / "turns").iterdir()) == \
        sorted(p.name for p in (bob.game_dir / "turns").iterdir())
    for path in (alice.game_dir / "turns").iterdir():
        assert path.read_bytes() == (bob.game_dir / "turns" / path.name).read_bytes()

    # a message as sent: subject names game, seq and side; packet in the text body and attached byte-exact;
    # the report of the opponent's last packet rides along
    box = mail_server.maildir("bob")
    messages = [email.message_from_bytes(box.get_bytes(k), policy=email.policy.default) for k in sorted(box.keys())]
    turn = next(m for m in messages if " packet 2 " in str(m["Subject"]))
    assert f"[rsr] game {alice.game_dir.name[5:]} packet 2 ({creator}) turn" in str(turn["Subject"])
    body = turn.get_body(preferencelist=("plain",))
    assert body is not None and "-----BEGIN RSR PACKET-----" in body.get_content()
    attachments = {part.get_filename(): part.get_content() for part in turn.iter_attachments()}
    packet_file = next(p for p in (alice.game_dir / "turns").glob("0002-*"))
    assert attachments[packet_file.name] == packet_file.read_bytes()
    assert "report-0001.md" in attachments

    # a third copy rebuilt from the archive mbox alone: every packet found, duplicates ignored, in order
    audit = tmp_path / "audit" / alice.game_dir.name
    (audit / "turns").mkdir(parents=True)
    invite = next((alice.game_dir / "turns").glob("0000-*"))
    shutil.copy(invite, audit / "turns" / invite.name)
    observer = Player("carol", tmp_path / "carol", {"RSR_HOME": str(tmp_path / "carol")})
    out = run(observer, "receive", audit, "--mbox", mail_server.root / "archive.mbox")
    assert out.output.count("received packet") == len(list((alice.game_dir / "turns").iterdir())) - 1
    assert "nothing new" in run(observer, "receive", audit, "--mbox", mail_server.root / "archive.mbox").output
    assert "verified" in run(observer, "verify", audit).output
    # and from Bob's own mbox (Alice's packets only): nothing new for Bob's finished game
    assert "nothing new" in run(bob, "receive", bob.game_dir, "--mbox", mail_server.mbox("bob")).output


def test_a_wrong_password_is_refused_and_the_packet_sent_again_later(tmp_path: Path, mail_server: MailServer) -> None:
    alice, _ = players(tmp_path, mail_server)
    config = alice.home / "mail.yaml"
    config.write_text(config.read_text().replace("password: alice-secret", "password: wrong"))
    from click.testing import CliRunner

    from rsr.cli import main

    out = CliRunner().invoke(main, ["new", str(tmp_path / "g"), "--scenario", "liaoyang-1904", "--side", "russia",
                                    "--key", "alice", "--opponent-email", "bob@example.test", "--send"],
                             env=alice.env)
    assert out.exit_code == 2
    assert "refused the login of alice" in out.output, out.output
    assert "rsr mail" in out.output  # the packet is signed and kept; the message says how to send it again
    assert len(mail_server.maildir("bob")) == 0
    config.write_text(config.read_text().replace("password: wrong", "password: alice-secret"))
    game_dir = next((tmp_path / "g").glob("game-*"))
    out = CliRunner().invoke(main, ["mail", str(game_dir), "--send"], env=alice.env)
    assert out.exit_code == 0, out.output
    assert "sent packet 0 to bob@example.test" in out.output
    assert len(mail_server.maildir("bob")) == 1


def test_a_config_file_with_a_password_must_be_private(tmp_path: Path, mail_server: MailServer) -> None:
    alice, _ = players(tmp_path, mail_server)
    (alice.home / "mail.yaml").chmod(0o644)
    from click.testing import CliRunner

    from rsr.cli import main

    out = CliRunner().invoke(main, ["new", str(tmp_path / "g"), "--scenario", "liaoyang-1904", "--side", "russia",
                                    "--key", "alice", "--opponent-email", "bob@example.test", "--send"],
                             env=alice.env)
    assert out.exit_code == 2 and "chmod 600" in out.output


def test_inbox_lists_waiting_packets_and_invitations(tmp_path: Path, mail_server: MailServer) -> None:
    alice, bob = players(tmp_path, mail_server)
    run(alice, "new", tmp_path / "alice" / "games", "--scenario", "liaoyang-1904", "--side", "russia",
        "--key", "alice", "--opponent-email", "bob@example.test", "--send")
    out = run(bob, "inbox", tmp_path / "bob" / "games", "--maildir", mail_server.maildir_path("bob"))
    assert "invitation to game" in out.output and "from Alice <alice@example.test>" in out.output
    run(bob, "accept", "--maildir", mail_server.maildir_path("bob"), "--key", "bob",
        "--dir", tmp_path / "bob" / "games", "--send")
    out = run(alice, "inbox", tmp_path / "alice" / "games", "--maildir", mail_server.maildir_path("alice"))
    assert "1 new packet in the mailbox (1)" in " ".join(out.output.split())
    game_dir = next((tmp_path / "alice" / "games").glob("game-*"))
    run(alice, "receive", game_dir, "--maildir", mail_server.maildir_path("alice"))
    out = run(alice, "inbox", tmp_path / "alice" / "games", "--maildir", mail_server.maildir_path("alice"))
    assert "your packet next (russia)" in " ".join(out.output.split()) and "new packet" not in out.output


def test_imap_folder_read_through_an_in_process_server(tmp_path: Path, mail_server: MailServer) -> None:
    """aioimaplib's in-process IMAP server (over TLS with the throwaway certificate) holds Alice's mail."""
    imap_testing = pytest.importorskip("aioimaplib.imap_testing_server")
    import asyncio
    import threading

    from tests.support.pbem import free_port, server_context

    alice, bob = players(tmp_path, mail_server)
    run(alice, "new", tmp_path / "alice" / "games", "--scenario", "liaoyang-1904", "--side", "russia",
        "--key", "alice", "--opponent-email", "bob@example.test", "--send")
    run(bob, "accept", "--maildir", mail_server.maildir_path("bob"), "--key", "bob",
        "--dir", tmp_path / "bob" / "games", "--send")
    game_dir = next((tmp_path / "alice" / "games").glob("game-*"))

    loop = asyncio.new_event_loop()
    server = imap_testing.MockImapServer(loop=loop)
    port = free_port()
    key = mail_server.root / "key.pem"
    started = threading.Event()

    def serve() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(server.run_server(host="127.0.0.1", port=port,
                                                  ssl_context=server_context(mail_server.cert, key)))
        started.set()
        loop.run_forever()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    assert started.wait(10)
    try:
        box = mail_server.maildir("alice")
        for k in sorted(box.keys()):
            message = email.message_from_bytes(box.get_bytes(k))
            loop.call_soon_threadsafe(server.receive, imap_testing.Mail(message), "alice")
        env = dict(alice.env, RSR_IMAP_HOST="127.0.0.1", RSR_IMAP_PORT=str(port), RSR_IMAP_USER="alice",
                   RSR_IMAP_PASSWORD="alice-secret", RSR_IMAP_TLS="ssl", RSR_IMAP_CAFILE=str(mail_server.cert))
        reader = Player("alice", alice.home, env)
        out = run(reader, "receive", game_dir, "--imap")
        assert "received packet 1 (japan)" in out.output
        assert "nothing new" in run(reader, "receive", game_dir, "--imap").output
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
