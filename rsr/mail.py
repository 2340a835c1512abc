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
import os
import re
import smtplib
import ssl
import stat
import tempfile
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from email.message import EmailMessage, Message
from email.utils import formatdate, make_msgid, parseaddr
from pathlib import Path
from typing import Any

from rsr import actions, contacts
from rsr import keys as keystore
from rsr.errors import BadInput, VerificationError, printable
from rsr.fileio import atomic_write, read_limited
from rsr.gamedir import Found, conflict, sort_packets
from rsr.log import Replay
from rsr.packet import Armored, Packet, check_self_signature, extract_blocks, open_packet
from rsr.report import pass_markdown
from rsr.safetext import visible
from rsr.yamlio import load_yaml_file

CONFIG_FILE = "mail.yaml"
MAX_MESSAGE_BYTES = 16 * 1024 * 1024
IMAP_LAST_MESSAGES = 1000  # --imap reads at most the newest this many messages of the folder
IMAP_DEADLINE = 120.0  # seconds for a whole --imap read (RSR_IMAP_DEADLINE overrides)
MAX_MAILBOX_MESSAGES = 100_000


class Messages(list[bytes]):
    """The raw messages of a mailbox, and one line for each message that was skipped (too large, unreadable)."""

    def __init__(self, items: Iterable[bytes] = (), skipped: list[str] | None = None) -> None:
        super().__init__(items)
        self.skipped: list[str] = skipped if skipped is not None else []


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
    if packet.seq >= 2 and not result.complete:  # replayed from a checkpoint after it
        from rsr.actions import old_resolution

        found = old_resolution(result, packet.seq - 1)
        if found is not None:
            return found.resolved, pass_markdown(result, found)
    return None


def packet_message(game_dir: Path, packet: Packet, sender: str | None, recipient: str | None) -> EmailMessage:
    from rsr.actions import load_game

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


def blocks_of(raw: bytes, skipped: list[str] | None = None, where: str = "a message") -> list[Armored]:
    """The armored blocks in one raw message; a message with a damaged block still yields the others.

    A message that is too large or that the email parser cannot take apart (MIME nested thousands deep, a
    broken header) is skipped with one line in ``skipped``: one bad message never blocks a mailbox."""
    if len(raw) > MAX_MESSAGE_BYTES:
        if skipped is not None:
            skipped.append(f"skipped {where}: {len(raw)} bytes, more than {MAX_MESSAGE_BYTES}")
        return []
    found = []
    try:
        message = email.message_from_bytes(raw, policy=email.policy.compat32)
        texts = message_texts(message)
    except (RecursionError, MemoryError) as exc:
        if skipped is not None:
            skipped.append(f"skipped {where}: nested too deeply to read ({type(exc).__name__})")
        return []
    except Exception as exc:  # the email package raises many kinds on hostile input; one message never blocks
        if skipped is not None:
            skipped.append(f"skipped {where}: cannot be read ({printable(type(exc).__name__ + ': ' + str(exc))})")
        return []
    for text in texts:
        if "BEGIN RSR PACKET" not in text:
            continue
        for chunk in re.split(r"(?=-----BEGIN RSR PACKET-----)", text):
            try:
                found += extract_blocks(chunk)
            except BadInput:
                continue  # no block, or one damaged beyond reading: not a packet we can use
    return found


def mailbox_blocks(messages: list[bytes], skipped: list[str]) -> list[Armored]:
    """Every block of every message, each message read on its own; bad ones are skipped with a line."""
    blocks: list[Armored] = []
    for number, raw in enumerate(messages, start=1):
        blocks += blocks_of(raw, skipped, f"message {number}")
    return blocks


def maildir_messages(path: Path) -> Messages:
    """Every message of a Maildir (new/ and cur/), read one by one from regular files with a size bound;
    a message too large, a link or anything but a regular file is skipped with a line."""
    if path.is_symlink() or not all((path / sub).is_dir() and not (path / sub).is_symlink()
                                    for sub in ("cur", "new", "tmp")):
        raise BadInput(f"{path} is not a Maildir (it needs cur/, new/ and tmp/, not links)")
    out = Messages()
    names = sorted((sub, name) for sub in ("cur", "new") for name in os.listdir(path / sub)
                   if not name.startswith("."))
    if len(names) > MAX_MAILBOX_MESSAGES:
        out.skipped.append(f"{path} holds {len(names)} messages; only the newest {MAX_MAILBOX_MESSAGES} are read")
        names = names[-MAX_MAILBOX_MESSAGES:]
    for sub, name in names:
        file = path / sub / name
        try:
            out.append(read_limited(file, MAX_MESSAGE_BYTES, "message") if not file.is_symlink() else
                       _refuse_link(file))
        except BadInput as exc:
            out.skipped.append(f"skipped {sub}/{printable(name)}: {printable(str(exc), 160)}")
    return out


def _refuse_link(path: Path) -> bytes:
    raise BadInput(f"{path} is a symbolic link; rsr never reads through a link")


def mbox_messages(path: Path) -> Messages:
    """The messages of an mbox file, split at its ``From `` lines as they are read: each is bounded in
    size on its own (a message too large is skipped with a line, the others are read)."""
    if path.is_symlink() or not path.is_file():
        raise BadInput(f"{path} is not an mbox file (a regular file, not a link)")
    out = Messages()
    current: list[bytes] = []
    size = 0
    too_large = False
    number = 0

    def finish() -> None:
        nonlocal current, size, too_large
        if number and too_large:
            out.skipped.append(f"skipped message {number}: more than {MAX_MESSAGE_BYTES} bytes")
        elif number and len(out) < MAX_MAILBOX_MESSAGES:
            out.append(b"".join(current))
        current, size, too_large = [], 0, False

    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise BadInput(f"{path} is not an mbox file (a regular file)")
        previous_blank = True
        while True:
            line = handle.readline(1 << 16)
            if not line:
                break
            if line.startswith(b"From ") and previous_blank:
                finish()
                number += 1
                previous_blank = False
                continue  # the separator line is not part of the message
            previous_blank = line in (b"\n", b"\r\n")
            if not number:
                continue  # text before the first From line is no message
            size += len(line)
            if size > MAX_MESSAGE_BYTES:
                too_large, current = True, []
            elif not too_large:
                current.append(line)
    finish()
    return out


def imap_deadline() -> float:
    text = os.environ.get("RSR_IMAP_DEADLINE", "")
    try:
        value = float(text) if text else IMAP_DEADLINE
    except ValueError as exc:
        raise BadInput(f"RSR_IMAP_DEADLINE={printable(text)} is not a number of seconds") from exc
    if not 0 < value <= 86400:
        raise BadInput(f"RSR_IMAP_DEADLINE={printable(text)} must be between 0 and 86400 seconds")
    return value


class _BoundedLiterals:
    """An IMAP literal (``{size}``) larger than a message may be is refused before anything is read."""

    def read(self, size: int) -> bytes:
        if size < 0 or size > MAX_MESSAGE_BYTES + 65536:
            raise imaplib.IMAP4.abort(f"the server announced a literal of {size} bytes; at most {MAX_MESSAGE_BYTES}")
        return super().read(size)  # type: ignore[misc]


class _IMAP(_BoundedLiterals, imaplib.IMAP4):
    pass


class _IMAPSSL(_BoundedLiterals, imaplib.IMAP4_SSL):
    pass


def imap_messages(config: MailConfig | None = None) -> Messages:
    """The newest messages of the configured IMAP folder, read without marking them seen.

    The whole read has a deadline (RSR_IMAP_DEADLINE, 120 s by default): a server that answers one byte at
    a time is cut off then, with one line."""
    config = config or load_config()
    server = config.imap
    if server is None:
        raise BadInput(f"no IMAP server: set imap: host: in {config_path()} or RSR_IMAP_HOST")
    if not server.user or server.password is None:
        raise BadInput(f"no IMAP user and password: set imap: user: and password: in {config_path()} "
                       "or RSR_IMAP_USER and RSR_IMAP_PASSWORD")
    context = tls_context(server)
    deadline = imap_deadline()
    expired = threading.Event()
    started = time.monotonic()
    sockets: list[Any] = []

    def cut_off() -> None:
        expired.set()
        for sock in sockets:
            try:
                sock.shutdown(2)  # SHUT_RDWR: a read blocked on a trickling server returns at once
            except OSError:
                pass

    class Plain(_IMAP):
        def _create_socket(self, timeout: float | None) -> Any:
            sock = super()._create_socket(timeout)  # type: ignore[misc]
            sockets.append(sock)
            return sock

    class Secure(_IMAPSSL):
        def _create_socket(self, timeout: float | None) -> Any:
            sock = super()._create_socket(timeout)  # type: ignore[misc]
            sockets.append(sock)
            return sock

    timer = threading.Timer(deadline, cut_off)
    timer.daemon = True
    timer.start()
    late = BadInput(f"{server.host}:{server.port}: the IMAP server did not finish within {deadline:g} s "
                    "(RSR_IMAP_DEADLINE); nothing was received")
    try:
        per_call = max(1.0, min(60.0, deadline))
        client: imaplib.IMAP4
        if server.tls == "ssl":
            client = Secure(server.host, server.port, ssl_context=context, timeout=per_call)
        else:
            client = Plain(server.host, server.port, timeout=per_call)
        if expired.is_set():
            raise late
        if server.tls != "ssl":
            client.starttls(ssl_context=context)
        try:
            client.login(server.user, server.password)
            status, _ = client.select(server.folder)  # BODY.PEEK below leaves the Seen flag alone
            if status != "OK":
                raise BadInput(f"{server.host}: no folder {printable(server.folder)}")
            status, found = client.search(None, "ALL")
            numbers = found[0].split() if status == "OK" and found and found[0] else []
            out = Messages()
            for number in numbers[-IMAP_LAST_MESSAGES:]:
                if expired.is_set() or time.monotonic() - started > deadline:
                    raise late
                status, data = client.fetch(number.decode(), "(BODY.PEEK[])")
                for item in data if status == "OK" else []:
                    if isinstance(item, tuple) and isinstance(item[1], bytes):
                        out.append(item[1])
            return out
        finally:
            if not expired.is_set():
                try:
                    client.logout()
                except (imaplib.IMAP4.error, OSError):
                    pass
    except (imaplib.IMAP4.error, OSError, OverflowError, ValueError, EOFError) as exc:
        if expired.is_set():
            raise late from exc
        if isinstance(exc, ssl.SSLError):
            raise BadInput(f"{server.host}:{server.port}: TLS failed: {exc.reason or exc}") from exc
        if isinstance(exc, OSError) and not isinstance(exc, imaplib.IMAP4.error):
            raise BadInput(f"{server.host}:{server.port}: cannot connect ({exc.strerror or exc})") from exc
        raise BadInput(f"{server.host}:{server.port}: IMAP: {printable(str(exc), 200)}") from exc
    finally:
        timer.cancel()


def read_mailbox(maildir: Path | None, mbox: Path | None, imap: bool) -> Messages:
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
class Received:
    new: list[Packet]
    reports: list[Path]
    found: Found
    skipped: list[str] = field(default_factory=list)


def receive_from_mailbox(game_dir: Path, messages: list[bytes], key_name: str | None) -> Received:
    """Receive every new packet of this game that ``messages`` hold, in order, through actions.receive."""
    from rsr.cache import checked_log  # (files this home checked in full before are not checked again)

    log = checked_log(game_dir)
    skipped = list(getattr(messages, "skipped", []))
    blocks = mailbox_blocks(messages, skipped)
    found = sort_packets(blocks, log)
    for packet in found.conflicting:
        raise conflict(game_dir, log + found.new, packet)
    if not found.new:
        return Received([], [], found, skipped)
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
    return Received(new, reports, found, skipped)


def invitations(messages: list[bytes]) -> list[tuple[Packet, str | None, bytes]]:
    """Invitations (packet 0) in the messages that verify against their own key: (packet, From, raw)."""
    out: dict[bytes, tuple[Packet, str | None, bytes]] = {}
    for raw in messages:
        for block in blocks_of(raw, []):
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
