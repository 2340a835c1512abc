"""Reading mailboxes: every message of a Maildir, an mbox file or an IMAP folder searched, in every part,
for packets of the game; new ones received in order through the same checks as a packet file."""

from __future__ import annotations

import email
import email.policy
import html
import imaplib
import os
import re
import ssl
import stat
import tempfile
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from email.message import Message
from pathlib import Path
from typing import Any

from rsr import contacts
from rsr import reports as report_actions
from rsr.errors import BadInput, VerificationError, printable
from rsr.fileio import read_limited
from rsr.gamedir import Found, conflict, sort_packets
from rsr.mail.config import MailConfig, config_path, load_config, tls_context
from rsr.packet import Armored, Packet, check_self_signature, extract_blocks, open_packet

MAX_MESSAGE_BYTES = 16 * 1024 * 1024
IMAP_LAST_MESSAGES = 1000  # --imap reads at most the newest this many messages of the folder
IMAP_DEADLINE = 120.0  # seconds for a whole --imap read (RSR_IMAP_DEADLINE overrides)
MAX_MAILBOX_MESSAGES = 100_000


class Messages(list[bytes]):
    """The raw messages of a mailbox, and one line for each message that was skipped (too large, unreadable)."""

    def __init__(self, items: Iterable[bytes] = (), skipped: list[str] | None = None) -> None:
        super().__init__(items)
        self.skipped: list[str] = skipped if skipped is not None else []




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
    """Receive every new packet of this game that ``messages`` hold, in order, through report_actions.receive."""
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
            got, reports = report_actions.receive(game_dir, path, key_name)
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
