"""Signed packets on the wire (docs/protocol.md, "Packets" and "On the wire").

A packet is RFC 8785 canonical JSON, signed with Ed25519 over ``"rsr-packet-v1" || 0x00 || payload``,
armored as two base64 sections between BEGIN/END lines. Reading is tolerant of what email does to text
(quote marks, re-wrapping, CRLF, text around the block) and strict about everything else: the
signature is checked before the JSON is parsed, and the payload must be canonical and match the schema.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from rsr.canonical import canonical_bytes, strict_loads
from rsr.errors import BadInput, VerificationError, printable
from rsr.keys import KeyPair, verify_signature
from rsr.schemas import validate

BEGIN = "-----BEGIN RSR PACKET-----"
END = "-----END RSR PACKET-----"
SIGN_PREFIX = b"rsr-packet-v1\x00"
MAX_ARMOR_BYTES = 8 * 1024 * 1024
MAX_PAYLOAD_BYTES = 4 * 1024 * 1024
PROTOCOL_VERSION = 2  # the contract version new games are started under (docs/protocol.md, "Versions")
KNOWN_VERSIONS = (1, 2)  # a game keeps the version of its invite for its whole life


@dataclass(frozen=True)
class Packet:
    """A packet whose signature bytes are known; ``payload`` is the parsed canonical JSON."""

    payload: dict[str, Any]
    payload_bytes: bytes
    signature: bytes

    @property
    def seq(self) -> int:
        return int(self.payload["seq"])

    @property
    def side(self) -> str:
        return str(self.payload["side"])

    @property
    def game(self) -> str:
        return str(self.payload["game"])

    @property
    def hash(self) -> bytes:
        """SHA-256 of the signed payload bytes (computed once: the bytes never change)."""
        found: bytes | None = self.__dict__.get("_hash")
        if found is None:
            found = hashlib.sha256(self.payload_bytes).digest()
            object.__setattr__(self, "_hash", found)  # (a memo, not a field: equality and the dataclass ignore it)
        return found

    @property
    def hash_hex(self) -> str:
        found: str | None = self.__dict__.get("_hash_hex")
        if found is None:
            found = self.hash.hex()
            object.__setattr__(self, "_hash_hex", found)
        return found

    @property
    def prev(self) -> str:
        """The hash of the packet before (hex), as this packet's payload signs it."""
        return str(self.payload["prev"])

    @property
    def inputs(self) -> list[dict[str, Any]]:
        return list(self.payload.get("inputs", []))

    def file_name(self) -> str:
        """``0000-japan-invite.rsr``, ``0001-russia-accept.rsr``, ``0002-japan-1a2b3c4d.rsr``."""
        found: str | None = self.__dict__.get("_file_name")
        if found is None:
            tag = "invite" if self.seq == 0 else "accept" if self.seq == 1 else self.hash_hex[:8]
            found = f"{self.seq:04d}-{self.side}-{tag}.rsr"
            object.__setattr__(self, "_file_name", found)
        return found

    def armored(self) -> str:
        return armor(self.payload_bytes, self.signature, self.game, self.seq, self.side)



Header = tuple[int, str, str, str]  # seq, side, game, prev: what checking the chain reads of every packet


class _ParsedWhenRead:
    """The payload of a :class:`KnownPacket`, parsed from its bytes the first time it is read, then kept."""

    def __get__(self, instance: KnownPacket | None, owner: type | None = None) -> Any:
        if instance is None:
            return self
        payload = json.loads(instance.payload_bytes)  # (canonical JSON, checked in full when it was recorded)
        instance.__dict__["payload"] = payload
        return payload


class KnownPacket(Packet):
    """A packet from a file this player's rsr checked in full before (rsr/cache.py's record of checked files).

    Reading the log of a long game and checking its chain needs only each packet's seq, side, game and prev,
    recorded with the file; the payload is parsed from its bytes only if something reads it (most packets
    before the newest checkpoint are never read again). Same bytes, same payload: only when it is parsed
    differs.
    """

    payload = _ParsedWhenRead()

    @property
    def seq(self) -> int:
        return self.__dict__["_header"][0]

    @property
    def side(self) -> str:
        return self.__dict__["_header"][1]

    @property
    def game(self) -> str:
        return self.__dict__["_header"][2]

    @property
    def prev(self) -> str:
        return self.__dict__["_header"][3]


def known_packet(payload_bytes: bytes, signature: bytes, header: Header) -> Packet:
    """The packet of a file checked before, its payload parsed only when read (:class:`KnownPacket`)."""
    packet = object.__new__(KnownPacket)
    packet.__dict__.update(payload_bytes=payload_bytes, signature=signature, _header=header)
    return packet


def parsed_lazily(packet: Packet) -> Packet:
    """The same packet, its payload parsed again from its bytes when read (a :class:`KnownPacket`): a reader
    that holds thousands of packets keeps their bytes, not their parsed payloads (``rsr verify``)."""
    if isinstance(packet, KnownPacket):
        return packet
    lazy = known_packet(packet.payload_bytes, packet.signature, header_of(packet))
    for memo in ("_hash", "_hash_hex", "_file_name"):
        if memo in packet.__dict__:
            lazy.__dict__[memo] = packet.__dict__[memo]
    return lazy


def forget_payload(packet: Packet) -> None:
    """Drop the parsed payload of a :class:`KnownPacket` (parsed again if read again)."""
    if isinstance(packet, KnownPacket):
        packet.__dict__.pop("payload", None)


def header_of(packet: Packet) -> Header:
    return packet.seq, packet.side, packet.game, packet.prev

_VERIFIED: set[tuple[bytes, bytes, bytes]] = set()  # (key, signature, payload) triples that verified
_MAX_VERIFIED = 1 << 16


def signature_ok(public_raw: bytes, signature: bytes, payload_bytes: bytes) -> bool:
    """Does ``signature`` sign ``payload_bytes`` (with the packet prefix) under ``public_raw``?

    Ed25519 is checked once per process for each (key, signature, payload): reading a log and replaying
    it both ask, and a command may do both several times. The answer depends only on the three byte
    strings, so a changed payload or signature is always checked afresh.
    """
    if (public_raw, signature, payload_bytes) in _VERIFIED:
        return True
    if not verify_signature(public_raw, signature, SIGN_PREFIX + payload_bytes):
        return False
    if len(_VERIFIED) >= _MAX_VERIFIED:
        _VERIFIED.clear()
    _VERIFIED.add((public_raw, signature, payload_bytes))
    return True


_SCHEMA_CHECKED: set[bytes] = set()  # SHA-256 of payloads that parsed strictly and matched the schema


def checked_before(public_raw: bytes, signature: bytes, payload_bytes: bytes) -> None:
    """Take a packet's signature as verified under ``public_raw``. Only for exactly these bytes when an earlier
    command checked them in full (a game directory's file whose bytes hash as they did then, rsr/gamedir.py);
    any other bytes are checked. (Read from an email again, the payload is parsed and schema-checked anew.)"""
    if len(_VERIFIED) >= _MAX_VERIFIED:
        _VERIFIED.clear()
    _VERIFIED.add((public_raw, signature, payload_bytes))


def schema_checked_before(payload_bytes: bytes) -> None:
    """Take these payload bytes as canonical and in schema: only when an earlier command checked them in full
    (packets 0 and 1 of a game directory whose files hash as recorded, rsr/gamedir.py ``_vouch_early``)."""
    _SCHEMA_CHECKED.add(hashlib.sha256(payload_bytes).digest())


def forget_checks() -> None:
    """Forget every signature and schema check of this process (benchmarks of cold reading; tests)."""
    _VERIFIED.clear()
    _SCHEMA_CHECKED.clear()


def sign_payload(payload: dict[str, Any], key: KeyPair) -> Packet:
    """Validate, canonicalise and sign a payload."""
    validate("packet", payload, where="packet payload")
    data = canonical_bytes(payload)
    return Packet(payload, data, key.sign(SIGN_PREFIX + data))


def _wrap(data: bytes) -> list[str]:
    text = base64.b64encode(data).decode()
    return [text[i:i + 64] for i in range(0, len(text), 64)]


def armor_lines(begin: str, end: str, headers: list[str], payload_bytes: bytes, signature: bytes) -> list[str]:
    """An armored block: BEGIN, header lines, blank, payload base64, blank, signature base64, END."""
    return [begin, *headers, "", *_wrap(payload_bytes), "", *_wrap(signature), end]


def armor(payload_bytes: bytes, signature: bytes, game: str, seq: int, side: str) -> str:
    return "\n".join(armor_lines(BEGIN, END, [f"Game: {game}", f"Seq: {seq} {side}"], payload_bytes,
                                 signature)) + "\n"


def unarmor(text: str, begin: str, end: str, what: str) -> tuple[bytes, bytes]:
    """The payload and signature of the one ``begin``/``end`` block in ``text`` (headers are ignored)."""
    lines = [_clean_line(line) for line in text[:MAX_ARMOR_BYTES].split("\n")]
    if begin not in lines:
        raise BadInput(f"no '{begin}' block found")
    start = lines.index(begin)
    try:
        stop = lines.index(end, start + 1)
    except ValueError as exc:
        raise BadInput(f"the {what} is truncated: no '{end}'") from exc
    body = [line for line in lines[start + 1:stop] if not re.match(r"^[A-Za-z]+:", line)]
    sections = "\n".join(body).strip().split("\n\n")
    if len(sections) != 2:
        raise BadInput(f"the {what} has {len(sections)} base64 sections; expected payload and signature")
    payload = _b64(sections[0].replace("\n", ""), "payload")
    signature = _b64(sections[1].replace("\n", ""), "signature")
    if len(signature) != 64:
        raise BadInput(f"the {what}'s signature is {len(signature)} bytes; an Ed25519 signature is 64")
    return payload, signature


@dataclass(frozen=True)
class Armored:
    """The raw parts of one armored block, before any check."""

    headers: dict[str, str]
    payload_bytes: bytes
    signature: bytes


_MERGED_HEADERS = re.compile(r"^Game:\s*(\S+)\s+Seq:\s*(.*)$")
_HEADER = re.compile(r"^(Game|Seq):\s*(.*)$")


def _clean_line(line: str) -> str:
    line = line.replace("\r", "").strip()
    while line.startswith(">"):
        line = line[1:].lstrip()
    return line


def _b64(text: str, what: str) -> bytes:
    if not text:
        raise BadInput(f"the packet's {what} section is empty")
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise BadInput(f"the packet's {what} section is not valid base64") from exc


def extract_blocks(text: str) -> list[Armored]:
    """Find every armored packet in ``text`` (an email, a file), tolerating email damage."""
    if len(text) > MAX_ARMOR_BYTES:
        raise BadInput(f"input is {len(text)} characters; a packet file is at most {MAX_ARMOR_BYTES}")
    exact = _exact_block(text)
    if exact is not None:
        return [exact]
    blocks: list[Armored] = []
    lines = [line.strip() for line in text.replace("\r", "").split("\n")]
    if ">" in text:
        lines = [_clean_line(line) for line in lines]  # quoted in a reply (rare: the plain case costs less)
    i = 0
    while i < len(lines):
        if lines[i] != BEGIN:
            i += 1
            continue
        try:
            end = lines.index(END, i + 1)
        except ValueError as exc:
            raise BadInput("packet is truncated: BEGIN RSR PACKET without END") from exc
        blocks.append(_parse_block(lines[i + 1:end]))
        i = end + 1
    if not blocks:
        raise BadInput("no '-----BEGIN RSR PACKET-----' block found")
    return blocks


def _exact_block(text: str) -> Armored | None:
    """The block of a text that is exactly one packet as rsr armors it (a turn file as written), or None.

    Read the quick way, then armored again and compared with the text: only a text the tolerant reader
    below would read to the same headers, payload and signature passes; anything else goes to it."""
    if "\r" in text:
        return None
    lines = text.split("\n")
    if len(lines) < 8 or lines[0] != BEGIN or lines[-2:] != [END, ""] or lines[3] != "" or \
            not lines[1].startswith("Game: ") or not lines[2].startswith("Seq: ") or " " in lines[1][6:].strip():
        return None
    try:
        gap = lines.index("", 4)
        payload = base64.b64decode("".join(lines[4:gap]), validate=True)
        signature = base64.b64decode("".join(lines[gap + 1:-2]), validate=True)
    except (ValueError, binascii.Error):
        return None
    if not payload or len(payload) > MAX_PAYLOAD_BYTES or len(signature) != 64:
        return None
    # the text is rsr's armor of these bytes: each section's base64 exactly, in lines of 64 but the last
    if not (_wrapped_exactly(lines[4:gap], payload) and _wrapped_exactly(lines[gap + 1:-2], signature)):
        return None
    return Armored({"Game": lines[1][6:].strip(), "Seq": lines[2][5:].strip()}, payload, signature)


def _wrapped_exactly(lines: list[str], data: bytes) -> bool:
    """Are ``lines`` the base64 of ``data`` as ``_wrap`` writes it (lines of 64, the last 1 to 64)?"""
    return bool(lines) and all(len(line) == 64 for line in lines[:-1]) and 0 < len(lines[-1]) <= 64 and \
        "".join(lines).encode() == base64.b64encode(data)


def _parse_block(body: list[str]) -> Armored:
    headers: dict[str, str] = {}
    start = len(body)
    for number, line in enumerate(body):
        merged = _MERGED_HEADERS.match(line)  # a mail client reflowed the two lines
        if merged:
            headers["Game"], headers["Seq"] = merged.group(1), merged.group(2).strip()
            continue
        match = _HEADER.match(line)
        if match:
            headers[match.group(1)] = match.group(2).strip()
            continue
        if line:
            start = number
            break
    # after the headers: sections of base64 lines separated by blank lines (any number of them)
    sections = ["".join(chunk.split("\n")) for chunk in "\n".join(body[start:]).split("\n\n")]
    sections = [s for s in sections if s]
    if len(sections) != 2:
        raise BadInput(f"packet block has {len(sections)} base64 sections; expected payload and signature")
    payload = _b64(sections[0], "payload")
    signature = _b64(sections[1], "signature")
    if len(payload) > MAX_PAYLOAD_BYTES:
        raise BadInput(f"payload is {len(payload)} bytes; at most {MAX_PAYLOAD_BYTES}")
    if len(signature) != 64:
        raise BadInput(f"signature is {len(signature)} bytes; an Ed25519 signature is 64")
    return Armored(headers, payload, signature)


def open_packet(block: Armored, keys: dict[str, bytes] | None, seq_hint: int | None = None) -> Packet:
    """Verify and parse one block.

    ``keys`` are the game's pinned public keys by side. The signature is verified *before* the JSON
    is parsed: against the key of the side named in the ``Seq:`` header, or against every pinned key.
    Packets 0 and 1 carry their own key and are checked against it after parsing (``keys`` None).
    """
    where = seq_hint
    if keys is not None:
        header_side = block.headers.get("Seq", "").split(" ")[-1]
        candidates = [keys[header_side]] if header_side in keys else [keys[s] for s in sorted(keys)]
        if not any(signature_ok(k, block.signature, block.payload_bytes) for k in candidates):
            raise VerificationError("signature does not verify against the game's keys", where)
    digest = hashlib.sha256(block.payload_bytes).digest()
    checked = digest in _SCHEMA_CHECKED
    payload = strict_loads(block.payload_bytes, require_canonical=not checked)
    if not isinstance(payload, dict):
        raise BadInput("payload is not a JSON object")
    if not checked:  # the same bytes passed the canonical-form and schema checks earlier in this process
        validate("packet", payload, where=f"packet {payload.get('seq', '?')} payload")
        _SCHEMA_CHECKED.add(digest)
    packet = Packet(payload, block.payload_bytes, block.signature)
    object.__setattr__(packet, "_hash", digest)  # (the memo of Packet.hash, already computed here)
    _check_headers(block.headers, packet)
    return packet


def _check_headers(headers: dict[str, str], packet: Packet) -> None:
    game = headers.get("Game")
    if game is not None and game != packet.game:
        raise VerificationError(f"header names game {printable(game)} but the payload is of game {packet.game}",
                                packet.seq)
    seq = headers.get("Seq")
    if seq is not None and seq != f"{packet.seq} {packet.side}":
        raise VerificationError(f"header says 'Seq: {printable(seq)}' but the payload is {packet.seq} {packet.side}",
                                packet.seq)


def self_signed_key(packet: Packet) -> bytes:
    """The key packet 0 or 1 introduces for its own author."""
    from rsr.keys import decode_public

    section = packet.payload.get("invite") or packet.payload.get("accept") or {}
    text = section.get("keys", {}).get(packet.side)
    if not text:
        raise VerificationError(f"packet carries no key for its author {packet.side}", packet.seq)
    return decode_public(text)


def check_self_signature(packet: Packet) -> None:
    if not signature_ok(self_signed_key(packet), packet.signature, packet.payload_bytes):
        raise VerificationError("signature does not verify against the key the packet introduces", packet.seq)


def read_packets(text: str, keys: dict[str, bytes] | None = None) -> list[Packet]:
    """Read every packet in a text; for a game's first two packets pass ``keys=None``."""
    packets = []
    for block in extract_blocks(text):
        if keys is None:
            # verify-before-parse still holds: parse only to learn the key, then verify before use
            packet = open_packet(block, None)
            check_self_signature(packet)
        else:
            packet = open_packet(block, keys)
        packets.append(packet)
    return packets
