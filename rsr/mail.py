"""Playing by email: packet messages written and sent, mailboxes read (docs/playing-by-email.md).

Sending: a packet becomes a standard RFC 5322 message (MIME, built with Python's ``email`` package). The
armored packet is in the plain-text body, where it survives quoting and re-wrapping; the same packet is
attached byte for byte; the Markdown report of what the opponent's last packet did follows in the body and
as an attachment. ``--send`` hands the message to an SMTP server over STARTTLS (or implicit TLS) with the
host and credentials of ``<rsr home>/mail.yaml`` or the environment, never of the command line.

Receiving: every message of a Maildir, an mbox file or an IMAP folder is searched, in every part (plain
text, HTML, attachments, forwarded messages), for packets of the game. Packets of other games, copies of
packets already in the log and blocks that do not verify are set aside; the rest are received in order
through ``actions.receive``, so they get exactly the checks of a packet file.
"""

from __future__ import annotations

import email
import email.policy
import html
import imaplib
import mailbox
import os
import re
import smtplib
import ssl
import stat
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from email.message import EmailMessage, Message
from email.utils import formatdate, make_msgid, parseaddr
from pathlib import Path
from typing import Any

from rsr import actions, contacts
from rsr import keys as keystore
from rsr.errors import BadInput, VerificationError
from rsr.fileio import atomic_write
from rsr.game import Replay, equivocation, load_log, replay
from rsr.packet import Armored, Packet, check_self_signature, extract_blocks, open_packet, self_signed_key
from rsr.report import pass_markdown
from rsr.yamlio import load_yaml_file

CONFIG_FILE = "mail.yaml"
MAX_MESSAGE_BYTES = 16 * 1024 * 1024
IMAP_LAST_MESSAGES = 1000  # --imap reads at most the newest this many messages of the folder


# -- configuration ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Server:
    host: str
    port: int
    user: str | None
    password: str | None
    tls: str  # "starttls" or "ssl"
    cafile: str | None
    folder: str = "INBOX"


@dataclass(frozen=True)
class MailConfig:
    sender: str | None
    smtp: Server | None
    imap: Server | None


def config_path() -> Path:
    return keystore.home() / CONFIG_FILE


def _server(section: dict[str, Any], env_prefix: str, default_tls: str, ports: dict[str, int],
            where: str) -> Server | None:
    def value(key: str) -> Any:
        env = os.environ.get(f"{env_prefix}_{key.upper()}")
        return env if env not in (None, "") else section.get(key)

    host = value("host")
    if not host:
        return None
    tls = str(value("tls") or default_tls).lower()
    if tls not in ports:
        raise BadInput(f"{where}: tls is {tls!r}; use one of {', '.join(sorted(ports))} (mail is never sent in clear)")
    try:
        port = int(value("port") or ports[tls])
    except ValueError as exc:
        raise BadInput(f"{where}: port {value('port')!r} is not a number") from exc
    user = value("user")
    password = value("password")
    cafile = value("cafile")
    return Server(str(host), port, str(user) if user else None, str(password) if password else None, tls,
                  str(cafile) if cafile else None, str(value("folder") or "INBOX"))


def load_config() -> MailConfig:
    """``<rsr home>/mail.yaml``, each key overridden by its environment variable (RSR_SMTP_HOST, ...).

    A config file that holds a password must be readable by its owner only (mode 0600)."""
    path = config_path()
    data: dict[str, Any] = {}
    if path.exists():
        loaded = load_yaml_file(path)
        if loaded is not None and not isinstance(loaded, dict):
            raise BadInput(f"{path}: expected a mapping with 'from', 'smtp' and 'imap'")
        data = loaded or {}
        holds_password = any(isinstance(data.get(s), dict) and data[s].get("password") for s in ("smtp", "imap"))
        if holds_password and path.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise BadInput(f"{path} holds a password and is readable by others: chmod 600 {path}")
    for section in ("smtp", "imap"):
        if not isinstance(data.get(section, {}), dict):
            raise BadInput(f"{path}: '{section}' must be a mapping")
    smtp = _server(data.get("smtp", {}), "RSR_SMTP", "starttls", {"starttls": 587, "ssl": 465}, f"{path} smtp")
    imap = _server(data.get("imap", {}), "RSR_IMAP", "ssl", {"starttls": 143, "ssl": 993}, f"{path} imap")
    sender = os.environ.get("RSR_MAIL_FROM") or data.get("from")
    if sender:
        sender = contacts.check_address(str(sender), f"{path} from")
    return MailConfig(str(sender) if sender else None, smtp, imap)


def tls_context(server: Server) -> ssl.SSLContext:
    """Certificate and host name checked, always; ``cafile`` adds a CA (a private server's)."""
    if server.cafile and not Path(server.cafile).is_file():
        raise BadInput(f"cafile {server.cafile} (for {server.host}) does not exist")
    return ssl.create_default_context(cafile=server.cafile) if server.cafile else ssl.create_default_context()


# -- writing and sending -----------------------------------------------------------------------------------


def subject_for(result: Replay, packet: Packet) -> str:
    what = "invitation" if packet.seq == 0 else "acceptance" if packet.seq == 1 else "turn"
    return f"[rsr] game {packet.game[:8]} packet {packet.seq} ({packet.side}) {what}: {result.scenario.name}"


def last_report(result: Replay, packet: Packet) -> tuple[int, str] | None:
    """The report of the opponent's last packet, which ``packet`` resolves (none for packets 0 and 1)."""
    for record in result.passes:
        if record.resolver == packet.seq:
            return record.resolved, pass_markdown(result, record)
    return None


def packet_message(game_dir: Path, packet: Packet, sender: str | None, recipient: str | None) -> EmailMessage:
    result = replay(load_log(game_dir))
    if result.packets[packet.seq].payload_bytes != packet.payload_bytes:
        raise BadInput(f"packet {packet.seq} is not the one in {game_dir}")
    game_name = game_dir.name
    intro = [f"rsr packet {packet.seq} of game {packet.game} ({result.ruleset.id}, scenario "
             f"{result.scenario.name}), written by {packet.side} ({result.names.get(packet.side, '')}).", ""]
    if packet.seq == 0:
        intro += ["This is an invitation. To accept it, save this message (or point rsr at your mailbox) and run:",
                  "    rsr accept MESSAGE.eml --key YOURKEY --mail      (or --send)", ""]
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
    if sender:
        message["From"] = sender
    if recipient:
        message["To"] = recipient
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
    path = game_dir / "outbox" / (Path(packet.file_name()).stem + ".eml")
    atomic_write(path, message.as_bytes(policy=email.policy.SMTP))
    contacts.ignore_local_files(game_dir)
    return path


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


# -- reading mailboxes ---------------------------------------------------------------------------------------


_BREAKS = re.compile(r"(?i)<br\s*/?>|</(?:p|div|tr|li|pre|blockquote|h[1-6]|table)\s*>")
_TAGS = re.compile(r"<[^>]*>")


_PRE = re.compile(r"(?is)(<pre\b.*?</pre\s*>)")


def html_text(markup: str) -> str:
    """The text of an HTML part, with line breaks where the markup breaks lines: at <br> and the end of
    blocks, and inside <pre>; elsewhere a line end in the source is only a space."""
    markup = re.sub(r"(?is)<(script|style)\b.*?</\1\s*>", "", markup)
    pieces = _PRE.split(markup)
    markup = "".join(piece if piece[:4].lower() == "<pre" else piece.replace("\r", "").replace("\n", " ")
                     for piece in pieces)
    text = _TAGS.sub("", _BREAKS.sub("\n", markup))
    return html.unescape(text).replace("\xa0", " ")


def _part_text(part: Message) -> str:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    charset = part.get_content_charset() or "utf-8"
    try:
        return payload.decode(charset, errors="replace")
    except LookupError:
        return payload.decode("utf-8", errors="replace")


def message_texts(message: Message, depth: int = 0) -> list[str]:
    """Every text a packet may hide in: plain and HTML parts, attachments, forwarded messages."""
    texts: list[str] = []
    for part in message.walk():
        if part.is_multipart():
            continue  # multipart/* and message/rfc822 containers: walk() visits their parts
        maintype, subtype = part.get_content_maintype(), part.get_content_subtype()
        text = _part_text(part)
        if not text:
            continue
        if maintype == "text" and subtype == "html":
            texts.append(html_text(text))
        elif maintype == "text" or "BEGIN RSR PACKET" in text:
            texts.append(text)
        if depth < 3 and "BEGIN RSR PACKET" not in text and (part.get_filename() or "").lower().endswith(".eml"):
            texts += message_texts(email.message_from_string(text, policy=email.policy.compat32), depth + 1)
    return texts


def blocks_of(raw: bytes) -> list[Armored]:
    """The armored blocks in one raw message; a message with a damaged block still yields the others."""
    if len(raw) > MAX_MESSAGE_BYTES:
        return []
    message = email.message_from_bytes(raw, policy=email.policy.compat32)
    found = []
    for text in message_texts(message):
        if "BEGIN RSR PACKET" not in text:
            continue
        for chunk in re.split(r"(?=-----BEGIN RSR PACKET-----)", text):
            try:
                found += extract_blocks(chunk)
            except BadInput:
                continue  # no block, or one damaged beyond reading: not a packet we can use
    return found


def maildir_messages(path: Path) -> list[bytes]:
    if not all((path / sub).is_dir() for sub in ("cur", "new", "tmp")):
        raise BadInput(f"{path} is not a Maildir (it needs cur/, new/ and tmp/)")
    box = mailbox.Maildir(str(path), factory=None, create=False)
    return [box.get_bytes(key) for key in sorted(box.keys())]


def mbox_messages(path: Path) -> list[bytes]:
    if not path.is_file():
        raise BadInput(f"{path} is not an mbox file")
    box = mailbox.mbox(str(path), factory=None, create=False)
    try:
        return [box.get_bytes(key) for key in box.keys()]
    finally:
        box.close()


def imap_messages(config: MailConfig | None = None) -> list[bytes]:
    """The newest messages of the configured IMAP folder, read without marking them seen."""
    config = config or load_config()
    server = config.imap
    if server is None:
        raise BadInput(f"no IMAP server: set imap: host: in {config_path()} or RSR_IMAP_HOST")
    if not server.user or server.password is None:
        raise BadInput(f"no IMAP user and password: set imap: user: and password: in {config_path()} "
                       "or RSR_IMAP_USER and RSR_IMAP_PASSWORD")
    context = tls_context(server)
    try:
        client: imaplib.IMAP4
        if server.tls == "ssl":
            client = imaplib.IMAP4_SSL(server.host, server.port, ssl_context=context, timeout=60)
        else:
            client = imaplib.IMAP4(server.host, server.port, timeout=60)
            client.starttls(ssl_context=context)
        try:
            client.login(server.user, server.password)
            status, _ = client.select(server.folder)  # BODY.PEEK below leaves the Seen flag alone
            if status != "OK":
                raise BadInput(f"{server.host}: no folder {server.folder!r}")
            status, found = client.search(None, "ALL")
            numbers = found[0].split() if status == "OK" and found and found[0] else []
            out = []
            for number in numbers[-IMAP_LAST_MESSAGES:]:
                status, data = client.fetch(number.decode(), "(BODY.PEEK[])")
                for item in data if status == "OK" else []:
                    if isinstance(item, tuple) and isinstance(item[1], bytes):
                        out.append(item[1])
            return out
        finally:
            try:
                client.logout()
            except (imaplib.IMAP4.error, OSError):
                pass
    except imaplib.IMAP4.error as exc:
        raise BadInput(f"{server.host}:{server.port}: IMAP: {exc}") from exc
    except ssl.SSLError as exc:
        raise BadInput(f"{server.host}:{server.port}: TLS failed: {exc.reason or exc}") from exc
    except OSError as exc:
        raise BadInput(f"{server.host}:{server.port}: cannot connect ({exc.strerror or exc})") from exc


def read_mailbox(maildir: Path | None, mbox: Path | None, imap: bool) -> list[bytes]:
    chosen = [x for x in (maildir, mbox, imap or None) if x]
    if len(chosen) != 1:
        raise BadInput("give exactly one of --maildir DIR, --mbox FILE, --imap")
    if maildir is not None:
        return maildir_messages(maildir)
    if mbox is not None:
        return mbox_messages(mbox)
    return imap_messages()


# -- sorting what a mailbox holds ----------------------------------------------------------------------------


@dataclass
class Found:
    """The packets of one game in a mailbox, measured against its log."""

    new: list[Packet] = field(default_factory=list)        # the next packets, in order, without a gap
    known: int = 0                                         # copies of packets already in the log
    conflicting: list[Packet] = field(default_factory=list)  # a different packet at a seq the log holds
    after_gap: list[int] = field(default_factory=list)     # seqs that wait for a missing earlier packet
    unverified: int = 0                                    # blocks naming this game that do not verify


def _block_game(block: Armored) -> str | None:
    game = block.headers.get("Game")
    return game.strip().lower() if game else None


def log_keys(log: list[Packet]) -> dict[str, bytes]:
    """The players' keys, as the invitation and the acceptance pin them (load_log has checked both)."""
    keys: dict[str, bytes] = {}
    for packet in log[:2]:
        section = packet.payload.get("invite") or packet.payload.get("accept") or {}
        for side, text in sorted(section.get("keys", {}).items()):
            keys[side] = keystore.decode_public(text)
    return keys


def sort_packets(blocks: Iterable[Armored], log: list[Packet]) -> Found:
    """Which of ``blocks`` are this game's, checked against its keys: new, known, conflicting."""
    game = log[0].game
    found = Found()
    candidates: dict[bytes, Packet] = {}
    keys = log_keys(log)
    # the invitation and acceptance first: an acceptance found here pins the key its later packets need
    for block in sorted(blocks, key=lambda b: not b.headers.get("Seq", "").startswith(("0 ", "1 "))):
        named = _block_game(block)
        if named is not None and named != game:
            continue  # another game's packet
        try:
            seq_header = block.headers.get("Seq", "")
            if seq_header.startswith("0 "):
                packet = open_packet(block, None)
                check_self_signature(packet)
                if packet.payload_bytes != log[0].payload_bytes:
                    raise VerificationError("another invitation", 0)
            elif len(log) == 1 and seq_header.startswith("1 "):
                packet = open_packet(block, None)  # the acceptance introduces its author's key
                check_self_signature(packet)
                if packet.payload.get("prev") != log[0].hash_hex:
                    raise VerificationError("an acceptance of another invitation", 1)
                keys.setdefault(packet.side, self_signed_key(packet))
            else:
                packet = open_packet(block, keys)
        except (BadInput, VerificationError):
            if named == game:
                found.unverified += 1
            continue
        if packet.game != game:
            continue
        candidates.setdefault(packet.payload_bytes, packet)
    by_seq: dict[int, list[Packet]] = {}
    for packet in candidates.values():
        by_seq.setdefault(packet.seq, []).append(packet)
    next_seq = len(log)
    for seq in sorted(by_seq):
        packets = sorted(by_seq[seq], key=lambda p: p.payload_bytes)
        if seq < len(log):
            for packet in packets:
                if packet.payload_bytes == log[seq].payload_bytes:
                    found.known += 1
                else:
                    found.conflicting.append(packet)
        elif seq == next_seq:
            found.new.append(packets[0])
            found.conflicting += packets[1:]  # two packets for one new seq: receive refuses and says why
            next_seq += 1
        else:
            found.after_gap.append(seq)
    return found


@dataclass
class Received:
    new: list[Packet]
    reports: list[Path]
    found: Found


def receive_from_mailbox(game_dir: Path, messages: list[bytes], key_name: str | None) -> Received:
    """Receive every new packet of this game that ``messages`` hold, in order, through actions.receive."""
    log = load_log(game_dir)
    blocks = [block for raw in messages for block in blocks_of(raw)]
    found = sort_packets(blocks, log)
    for packet in found.conflicting:
        raise conflict(game_dir, log + found.new, packet)
    if not found.new:
        return Received([], [], found)
    # the acceptance goes in alone: the log must pin its key before the packets signed with it are read
    batches = [found.new[:1], found.new[1:]] if found.new[0].seq == 1 else [found.new]
    new: list[Packet] = []
    reports: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="rsr-mail-") as tmp:
        for number, batch in enumerate(b for b in batches if b):
            path = Path(tmp) / f"packets-{number}.txt"
            path.write_text("".join(p.armored() + "\n" for p in batch))
            got, reports = actions.receive(game_dir, path, key_name)
            new += got
    return Received(new, reports, found)


def conflict(game_dir: Path, packets: list[Packet], other: Packet) -> VerificationError:
    """Two different packets for one seq: an equivocation proof when one side signed both, else who may write it."""
    mine = packets[other.seq]
    if mine.side == other.side:
        return equivocation(game_dir, mine, other)
    expected = packets[other.seq % 2].side  # the sides alternate from the invitation on
    return VerificationError(f"two different packets for seq {other.seq}: one by {mine.side}, one by {other.side}; "
                             f"seq {other.seq} is {expected}'s to write", other.seq)


def invitations(messages: list[bytes]) -> list[tuple[Packet, str | None, bytes]]:
    """Invitations (packet 0) in the messages that verify against their own key: (packet, From, raw)."""
    out: dict[bytes, tuple[Packet, str | None, bytes]] = {}
    for raw in messages:
        for block in blocks_of(raw):
            if not block.headers.get("Seq", "").startswith("0 "):
                continue
            try:
                packet = open_packet(block, None)
                check_self_signature(packet)
            except (BadInput, VerificationError):
                continue
            if packet.seq == 0 and packet.payload_bytes not in out:
                out[packet.payload_bytes] = (packet, contacts.sender_of(raw.decode("utf-8", "replace")), raw)
    return sorted(out.values(), key=lambda item: item[0].game)
