"""Sending a packet by email: the RFC 5322 message (armored packet in the plain-text body, the same packet
attached, the Markdown report of the opponent's last packet), written to the outbox and, with ``--send``,
handed to the SMTP server of the mail settings."""

from __future__ import annotations

import email
import email.policy
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid, parseaddr
from pathlib import Path

from rsr import contacts
from rsr.errors import BadInput, printable
from rsr.fileio import atomic_write
from rsr.log import Replay
from rsr.mail.config import MailConfig, config_path, load_config, tls_context
from rsr.packet import Packet
from rsr.report import pass_markdown
from rsr.safetext import visible


def subject_for(result: Replay, packet: Packet) -> str:
    what = "invitation" if packet.seq == 0 else "acceptance" if packet.seq == 1 else "turn"
    return f"[rsr] game {packet.game[:8]} packet {packet.seq} ({packet.side}) {what}: {result.scenario.name}"


def last_report(result: Replay, packet: Packet) -> tuple[int, str] | None:
    """The report of the opponent's last packet, which ``packet`` resolves (none for packets 0 and 1)."""
    for record in result.passes:
        if record.resolver == packet.seq:
            return record.resolved, pass_markdown(result, record)
    if packet.seq >= 2 and not result.complete:  # replayed from a checkpoint after it
        from rsr.reports import old_resolution

        found = old_resolution(result, packet.seq - 1)
        if found is not None:
            return found.resolved, pass_markdown(result, found)
    return None


def packet_message(game_dir: Path, packet: Packet, sender: str | None, recipient: str | None) -> EmailMessage:
    from rsr.games import load_game

    result = load_game(game_dir)  # (from the home's checkpoints, as every player's command)
    if result.packets[packet.seq].payload_bytes != packet.payload_bytes:
        raise BadInput(f"packet {packet.seq} is not the one in {game_dir}")
    game_name = game_dir.name
    intro = [f"rsr packet {packet.seq} of game {packet.game} ({result.ruleset.id}, scenario "
             f"{result.scenario.name}), written by {packet.side} ({visible(result.names.get(packet.side, ''))}).", ""]
    if packet.seq == 0:
        intro += ["This is an invitation. To accept it, save this message (or point rsr at your mailbox) and run:",
                  "    rsr accept MESSAGE.eml --key YOURKEY --mail      (or --send)",
                  "Add --preview first to read the terms (and what a transcription replaces) without signing.", ""]
    else:
        intro += ["To take it in, run one of:",
                  f"    rsr receive {game_name} --maildir ~/Maildir      (or --mbox FILE, --imap)",
                  f"    rsr receive {game_name} MESSAGE.eml", ""]
    intro += ["The packet (signed; keep it intact when you reply or forward):", ""]
    report = last_report(result, packet)
    body = "\n".join(intro) + "\n" + packet.armored()
    if report is not None:
        body += f"\n\nWhat packet {report[0]} did (the report this packet's reveal resolves):\n\n" + report[1]
    message = EmailMessage(policy=email.policy.SMTP)
    message["Subject"] = subject_for(result, packet)
    try:
        if sender:
            message["From"] = contacts.check_address(sender, "sender")
        if recipient:
            message["To"] = contacts.check_address(recipient, "opponent's address")
    except (ValueError, TypeError) as exc:
        raise BadInput(f"an address of {game_dir.name} cannot go in an email header ({printable(str(exc))})") from exc
    message["Date"] = formatdate(localtime=True)
    domain = parseaddr(sender or "")[1].partition("@")[2] or None
    message["Message-ID"] = make_msgid("rsr", domain=domain)
    message["X-Rsr-Game"] = packet.game
    message["X-Rsr-Packet"] = f"{packet.seq} {packet.side}"
    # 7bit keeps the packet readable as it is in the raw message; anything else is quoted-printable
    plain_ascii = body.isascii() and max(len(line) for line in body.splitlines()) <= 900
    message.set_content(body, subtype="plain", charset="utf-8", cte="7bit" if plain_ascii else "quoted-printable")
    message.add_attachment(packet.armored().encode(), maintype="application", subtype="octet-stream",
                           filename=packet.file_name())
    if report is not None:
        message.add_attachment(report[1].encode(), maintype="text", subtype="markdown",
                               filename=f"report-{report[0]:04d}.md")
    return message


def write_message(game_dir: Path, packet: Packet, message: EmailMessage) -> Path:
    """``<game dir>/outbox/NNNN-side-tag.eml``: the message as a mail client opens it."""
    check_outbox(game_dir)
    path = game_dir / "outbox" / (Path(packet.file_name()).stem + ".eml")
    try:
        data = message.as_bytes(policy=email.policy.SMTP)
    except (ValueError, TypeError) as exc:
        raise BadInput(f"the email of packet {packet.seq} cannot be written ({printable(str(exc))})") from exc
    atomic_write(path, data, root=game_dir)
    contacts.ignore_local_files(game_dir)
    return path


def check_outbox(game_dir: Path) -> None:
    """Before signing anything that goes by mail: the outbox and .gitignore are not links."""
    for path in (game_dir / "outbox", game_dir / ".gitignore", game_dir / "local.yaml"):
        if path.is_symlink():
            raise BadInput(f"{path} is a symbolic link; rsr never writes through a link (remove it); nothing signed")


def send_message(message: EmailMessage, config: MailConfig) -> None:
    server = config.smtp
    if server is None:
        raise BadInput(f"no SMTP server: set smtp: host: in {config_path()} or RSR_SMTP_HOST")
    context = tls_context(server)
    try:
        client: smtplib.SMTP
        if server.tls == "ssl":
            client = smtplib.SMTP_SSL(server.host, server.port, timeout=60, context=context)
        else:
            client = smtplib.SMTP(server.host, server.port, timeout=60)
        with client:
            if server.tls == "starttls":
                client.ehlo()
                if not client.has_extn("starttls"):
                    raise BadInput(f"{server.host}:{server.port} does not offer STARTTLS; rsr sends nothing in clear")
                client.starttls(context=context)
                client.ehlo()
            if server.user:
                if server.password is None:
                    raise BadInput(f"no SMTP password for {server.user}: set smtp: password: in {config_path()} "
                                   "or RSR_SMTP_PASSWORD")
                login(client, server.user, server.password)
            client.send_message(message)
    except smtplib.SMTPAuthenticationError as exc:
        raise BadInput(f"{server.host}: the SMTP server refused the login of {server.user} ({exc.smtp_code})") from exc
    except smtplib.SMTPException as exc:
        raise BadInput(f"{server.host}:{server.port}: sending failed: {exc}") from exc
    except ssl.SSLError as exc:
        raise BadInput(f"{server.host}:{server.port}: TLS failed: {exc.reason or exc}") from exc
    except OSError as exc:
        raise BadInput(f"{server.host}:{server.port}: cannot connect ({exc.strerror or exc})") from exc


def login(client: smtplib.SMTP, user: str, password: str) -> None:
    """AUTH PLAIN when offered (one round trip, inside TLS), else smtplib's own choice of mechanism."""
    mechanisms = client.esmtp_features.get("auth", "").upper().split()
    if "PLAIN" not in mechanisms:
        client.login(user, password)
        return
    client.user, client.password = user, password
    client.auth("PLAIN", client.auth_plain)


@dataclass
class Mailed:
    path: Path
    sent_to: str | None


def check_can_send(recipient: str | None, game: str) -> MailConfig:
    """Everything --send needs that can be known before signing: an address, a sender, a server."""
    config = load_config()
    if not recipient:
        raise BadInput(f"no address for the opponent of {game}: give --to ADDRESS (or --opponent-email with "
                       "new and accept); it is then remembered")
    if not config.sender:
        raise BadInput(f"no sender address: set from: in {config_path()} or RSR_MAIL_FROM")
    if config.smtp is None:
        raise BadInput(f"no SMTP server: set smtp: host: in {config_path()} or RSR_SMTP_HOST")
    if config.smtp.user and config.smtp.password is None:
        raise BadInput(f"no SMTP password for {config.smtp.user}: set smtp: password: in {config_path()} "
                       "or RSR_SMTP_PASSWORD")
    return config


def mail_packet(game_dir: Path, packet: Packet, send: bool, recipient: str | None = None) -> Mailed:
    """Write the message of ``packet`` to the outbox and, with ``send``, deliver it over SMTP."""
    recipient = recipient or contacts.opponent_email(game_dir)
    config = check_can_send(recipient, game_dir.name) if send else load_config()
    message = packet_message(game_dir, packet, config.sender, recipient)
    path = write_message(game_dir, packet, message)
    if send:
        send_message(message, config)
    return Mailed(path, recipient if send else None)


