"""Finding a game's packets in real-looking mail (issue 16): quoted replies, HTML-only messages, forwarded
messages (inline and attached), .eml attachments, other games' packets, duplicates, gaps, equivocation."""

from __future__ import annotations

import base64
import mailbox
import shutil
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner

from rsr import games as game_actions
from rsr import keys as keystore
from rsr.cli import main
from rsr.errors import VerificationError
from rsr.gamedir import load_log, sort_packets
from rsr.log import build_packet, replay
from rsr.mail import read as mail_read
from rsr.mail import send as mail_send
from rsr.packet import Packet
from tests.support.games import duel_game

pytestmark = pytest.mark.usefixtures("duel_registered")

INPUTS = {2: [{"request": "r1/attack", "answer": 1}], 3: [{"request": "r1/defend", "answer": 2}]}


def copy_of(game_dir: Path, tmp: Path, upto: int, name: str = "copy") -> Path:
    """A player's copy holding packets 0..upto-1."""
    target = tmp / name / game_dir.name
    (target / "turns").mkdir(parents=True)
    for path in sorted((game_dir / "turns").iterdir())[:upto]:
        shutil.copy(path, target / "turns" / path.name)
    return target


def plain(body: str, subject: str = "our game") -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "a@example.test", "d@example.test", subject
    message.set_content(body)
    return message.as_bytes()


def quoted(packet: Packet) -> str:
    return "\n".join("> " + line for line in packet.armored().splitlines())


def html_only(packet: Packet) -> bytes:
    message = EmailMessage()
    message["From"], message["Subject"] = "a@example.test", "html"
    lines = "<br>\n".join(packet.armored().splitlines())
    message.set_content(f"<html><body><div>My move:</div><div style='font-family:monospace'>{lines}</div>"
                        "<p>&nbsp;</p></body></html>", subtype="html")
    return message.as_bytes()


def forwarded_as_attachment(packet: Packet) -> bytes:
    inner = EmailMessage()
    inner["From"], inner["Subject"] = "a@example.test", "original"
    inner.set_content("The move:\n\n" + packet.armored(), cte="base64")
    outer = EmailMessage()
    outer["From"], outer["Subject"] = "d@example.test", "Fwd: original"
    outer.set_content("Forwarding the move you sent to my old address.")
    outer.add_attachment(inner)
    return outer.as_bytes()


def eml_attachment(packet: Packet) -> bytes:
    inner = EmailMessage()
    inner["From"], inner["Subject"] = "a@example.test", "saved"
    inner.set_content(packet.armored(), cte="quoted-printable")
    outer = EmailMessage()
    outer["From"], outer["Subject"] = "d@example.test", "saved message"
    outer.set_content("see attachment")
    outer.add_attachment(inner.as_bytes(), maintype="application", subtype="octet-stream", filename="move.eml")
    return outer.as_bytes()


def test_every_packet_is_found_in_quoted_html_and_forwarded_mail(tmp_path: Path) -> None:
    game_dir, _ = duel_game(tmp_path / "a", INPUTS, 6)
    log = load_log(game_dir)
    keystore.new_key("other")
    _, other = game_actions.new_game(tmp_path / "b", "red-sun-rising", "liaoyang-1904", "russia", "other", "O")
    messages = [
        plain(f"Here is 3, and your 2 below.\n\n{log[3].armored()}\nOn Monday you wrote:\n{quoted(log[2])}\n"),
        html_only(log[4]),
        forwarded_as_attachment(log[5]),
        eml_attachment(log[2]),                                   # a duplicate
        plain("another game of mine:\n" + other.armored()),       # not this game
        plain("lunch?"),
    ]
    found = sort_packets([b for raw in messages for b in mail_read.blocks_of(raw)], load_log(copy_of(
        game_dir, tmp_path, 2)))
    assert [p.seq for p in found.new] == [2, 3, 4, 5]
    assert found.known == 0 and not found.conflicting and not found.after_gap
    # the same through a Maildir and the command line, in one command
    box = mailbox.Maildir(str(tmp_path / "Maildir"), create=True)
    for raw in reversed(messages):
        box.add(raw)
    mine = copy_of(game_dir, tmp_path, 2, "mine")
    out = CliRunner().invoke(main, ["receive", str(mine), "--maildir", str(tmp_path / "Maildir")])
    assert out.exit_code == 0, out.output
    assert [line for line in out.output.splitlines() if line.startswith("received")] == [
        f"received packet {seq} ({log[seq].side})" for seq in (2, 3, 4, 5)]
    assert [p.payload_bytes for p in load_log(mine)] == [p.payload_bytes for p in log]
    out = CliRunner().invoke(main, ["receive", str(mine), "--maildir", str(tmp_path / "Maildir")])
    assert out.exit_code == 0 and "nothing new" in out.output


def test_a_missing_packet_leaves_the_later_ones_waiting(tmp_path: Path) -> None:
    game_dir, _ = duel_game(tmp_path, INPUTS, 6)
    log = load_log(game_dir)
    mine = copy_of(game_dir, tmp_path, 2)
    got = mail_read.receive_from_mailbox(mine, [plain(log[2].armored()), plain(log[4].armored())], None)
    assert [p.seq for p in got.new] == [2]
    assert got.found.after_gap == [4]
    assert len(load_log(mine)) == 3


def test_a_second_packet_for_one_seq_by_one_key_is_an_equivocation(tmp_path: Path) -> None:
    game_dir, keys = duel_game(tmp_path, INPUTS, 4)
    log = load_log(game_dir)
    twin = build_packet(replay(log[:2]), keys["attacker"], [{"request": "r1/attack", "answer": 2}])
    assert twin.seq == 2 and twin.payload_bytes != log[2].payload_bytes
    mine = copy_of(game_dir, tmp_path, 4)
    with pytest.raises(VerificationError, match="both signed by attacker"):
        mail_read.receive_from_mailbox(mine, [plain(log[3].armored() + twin.armored())], None)
    assert (mine / "disputes" / "0002-attacker.txt").exists()
    assert len(load_log(mine)) == 4


def test_a_damaged_block_does_not_hide_the_others(tmp_path: Path) -> None:
    game_dir, _ = duel_game(tmp_path, INPUTS, 4)
    log = load_log(game_dir)
    broken = log[2].armored().replace("-----END RSR PACKET-----", "")
    blocks = mail_read.blocks_of(plain(broken + "\n" + log[3].armored()))
    assert len(blocks) == 1
    forged = log[3].armored().splitlines()
    forged[5] = forged[5][:-4] + ("AAAA" if not forged[5].endswith("AAAA") else "BBBB")
    found = sort_packets(mail_read.blocks_of(plain("\n".join(forged))), load_log(copy_of(game_dir, tmp_path, 3)))
    assert found.unverified == 1 and not found.new


def test_html_text_keeps_lines_and_entities() -> None:
    assert mail_read.html_text("<p>a&gt;b</p><div>c<br/>d</div><script>x</script>") == "a>b\nc\nd\n"


def test_the_message_written_for_a_packet(tmp_path: Path) -> None:
    game_dir, _ = duel_game(tmp_path, INPUTS, 4)
    log = load_log(game_dir)
    message = mail_send.packet_message(game_dir, log[3], "Ann <a@example.test>", "d@example.test")
    assert message["Subject"].startswith(f"[rsr] game {log[3].game[:8]} packet 3 (defender) turn")
    assert message["X-Rsr-Packet"] == "3 defender"
    body = message.get_body(preferencelist=("plain",))
    assert body is not None and log[3].armored() in body.get_content()
    assert "What packet 2 did" in body.get_content()
    files = {p.get_filename(): p for p in message.iter_attachments()}
    assert files[log[3].file_name()].get_content() == log[3].armored().encode()
    assert files["report-0002.md"].get_content().startswith("# Game")
    raw = message.as_bytes()
    assert b"\r\n" in raw and base64.b64encode(log[3].armored().encode())[:40] in raw.replace(b"\r\n", b"")
    # and it reads back as the same packet
    found = sort_packets(mail_read.blocks_of(raw), load_log(copy_of(game_dir, tmp_path, 3)))
    assert [p.payload_bytes for p in found.new] == [log[3].payload_bytes]


def test_html_pre_blocks_keep_their_line_ends(tmp_path: Path) -> None:
    game_dir, _ = duel_game(tmp_path, INPUTS, 4)
    log = load_log(game_dir)
    message = EmailMessage()
    message["From"], message["Subject"] = "a@example.test", "quoted by a mail client"
    message.set_content("<html><body><p>Reply</p><blockquote><pre class='moz-quote-pre'>"
                        + log[2].armored().replace(">", "&gt;") + "</pre></blockquote></body></html>",
                        subtype="html", cte="quoted-printable")
    found = sort_packets(mail_read.blocks_of(message.as_bytes()), load_log(copy_of(game_dir, tmp_path, 2)))
    assert [p.seq for p in found.new] == [2]


def test_a_packet_by_the_other_side_at_a_taken_seq_is_named_clearly(tmp_path: Path) -> None:
    from rsr.packet import sign_payload

    game_dir, keys = duel_game(tmp_path, INPUTS, 4)
    log = load_log(game_dir)
    payload = dict(log[2].payload, side="defender")
    other = sign_payload(payload, keys["defender"])
    mine = copy_of(game_dir, tmp_path, 4)
    with pytest.raises(VerificationError, match="one by attacker, one by defender; seq 2 is attacker's to write"):
        mail_read.receive_from_mailbox(mine, [plain(other.armored())], None)
    assert not (mine / "disputes").exists()


def test_a_saved_message_is_received_and_accepted_as_a_file(tmp_path: Path) -> None:
    game_dir, _ = duel_game(tmp_path, INPUTS, 4)
    log = load_log(game_dir)
    eml = tmp_path / "saved.eml"
    eml.write_bytes(mail_send.packet_message(game_dir, log[3], "a@example.test", "d@example.test").as_bytes())
    mine = copy_of(game_dir, tmp_path, 3)
    out = CliRunner().invoke(main, ["receive", str(mine), str(eml)])
    assert out.exit_code == 0 and "received packet 3 (defender)" in out.output


def mailed_invitation(tmp_path: Path, runner: CliRunner) -> Path:
    """Keys alice and bob; alice invites by mail (Liaoyang, as Russia) in ``tmp_path/a``: her invitation's email."""
    assert runner.invoke(main, ["key", "new", "alice"]).exit_code == 0
    assert runner.invoke(main, ["key", "new", "bob"]).exit_code == 0
    out = runner.invoke(main, ["new", str(tmp_path / "a"), "--scenario", "liaoyang-1904", "--side", "russia",
                               "--key", "alice", "--mail"])
    assert out.exit_code == 0, out.output
    (eml,) = list((tmp_path / "a").glob("game-*/outbox/0000-*.eml"))
    return eml


def test_accept_reads_the_opponent_address_from_a_saved_invitation(tmp_path: Path) -> None:
    runner = CliRunner()
    eml = mailed_invitation(tmp_path, runner)
    text = eml.read_text().replace("Subject:", "From: Alice <alice@example.test>\nSubject:", 1)
    eml.write_text(text)
    out = runner.invoke(main, ["accept", str(eml), "--key", "bob", "--dir", str(tmp_path / "b"), "--mail"])
    assert out.exit_code == 0, out.output
    assert "opponent's address: Alice <alice@example.test>" in out.output
    (game,) = list((tmp_path / "b").glob("game-*"))
    sent = next((game / "outbox").glob("0001-*.eml")).read_text()
    assert "To: Alice <alice@example.test>" in sent
