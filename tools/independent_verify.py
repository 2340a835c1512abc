"""Independent checker for an rsr game directory.

Written from the protocol contract only: docs/protocol.md and the dice vectors under tests/vectors/. It
neither imports nor reads the `rsr` package, so a passing run shows that the contract is enough for a third
party to check signatures, the chain, every reveal and every die.

Usage: python tools/independent_verify.py GAME_DIR   (exit 0: all well, 1: first failure, 2: usage)
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rfc8785
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

BEGIN = "-----BEGIN RSR PACKET-----"
END = "-----END RSR PACKET-----"
SIGNATURE_PREFIX = b"rsr-packet-v1\x00"
HEX64 = re.compile(r"[0-9a-f]{64}")
HEX32 = re.compile(r"[0-9a-f]{32}")
FIELDS = {"v", "game", "seq", "side", "prev", "commit", "reveal", "resolution", "inputs", "invite", "accept",
          "nonce", "time", "message"}
TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")
VERSIONS = (1, 2)  # the contract versions this checker knows (protocol.md, "Versions")
SALT_V2 = re.compile(r"[0-9a-f]{32}")


class VerifyError(Exception):
    """A check failed; `where` is the packet's seq (or a file name when the seq is not known yet)."""

    def __init__(self, where: int | str, reason: str) -> None:
        super().__init__(f"packet {where}: {reason}")
        self.where = where
        self.reason = reason


@dataclass
class Armored:
    path: Path
    game: str
    seq: int
    side: str
    payload: bytes
    signature: bytes


# --- 3.2 / 3.3 primitives -------------------------------------------------------------------------------


def commit_of(secret: bytes) -> bytes:
    return hashlib.sha256(b"rsr-commit-v1" + secret).digest()


def dice_key(reveal: bytes, game_id: bytes, packet_hash: bytes) -> bytes:
    return hmac.new(reveal, b"rsr-dice-v1" + game_id + packet_hash, hashlib.sha256).digest()


def roll(key: bytes, n: int, sides: int) -> int:
    if not 1 <= sides <= 256:
        raise ValueError(f"a die needs 1..256 sides, not {sides}")
    limit = 256 - 256 % sides
    c = 0
    while True:
        msg = b"rsr-roll-v1" + n.to_bytes(8, "big") + c.to_bytes(4, "big")
        for b in hmac.new(key, msg, hashlib.sha256).digest():
            if b < limit:
                return b % sides + 1
        c += 1


def seal_of(salt: bytes, choice: Any) -> bytes:
    return hashlib.sha256(b"rsr-seal-v1" + salt + rfc8785.dumps(choice)).digest()


def packet_hash(payload: bytes) -> bytes:
    return hashlib.sha256(payload).digest()


# --- 3.4 the packet on the wire ---------------------------------------------------------------------------


def strict_b64(text: str, what: str, where: int | str) -> bytes:
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise VerifyError(where, f"{what}: bad base64 ({exc})") from None
    if base64.b64encode(raw).decode("ascii") != text:
        raise VerifyError(where, f"{what}: base64 is not in strict (canonical) form")
    return raw


def parse_armor(text: str, where: int | str, path: Path = Path("-")) -> Armored:
    lines: list[str] = []
    state = "before"
    for raw in text.replace("\r", "").split("\n"):
        line = raw.strip()
        while line.startswith(">"):
            line = line[1:].strip()
        if line == BEGIN:
            if state != "before":
                raise VerifyError(where, "more than one BEGIN RSR PACKET")
            state = "inside"
        elif line == END and state == "inside":
            state = "after"
        elif state == "inside":
            lines.append(line)
    if state != "after":
        raise VerifyError(where, "no complete BEGIN/END RSR PACKET block")
    sections: list[list[str]] = [[]]
    for line in lines:
        if line:
            sections[-1].append(line)
        elif sections[-1]:
            sections.append([])
    sections = [s for s in sections if s]
    if len(sections) != 3:
        raise VerifyError(where, f"expected headers, payload and signature sections, found {len(sections)}")
    headers: dict[str, str] = {}
    for line in sections[0]:
        name, sep, value = line.partition(":")
        if not sep or name in headers or name not in ("Game", "Seq"):
            raise VerifyError(where, f"bad header line {line!r}")
        headers[name] = value.strip()
    seq_side = headers.get("Seq", "").split()
    if "Game" not in headers or len(seq_side) != 2 or not (seq_side[0].isascii() and seq_side[0].isdigit()):
        raise VerifyError(where, "headers must be 'Game: <id>' and 'Seq: <n> <side>'")
    payload = strict_b64("".join(sections[1]), "payload", where)
    signature = strict_b64("".join(sections[2]), "signature", where)
    if len(signature) != 64:
        raise VerifyError(where, f"signature is {len(signature)} bytes, not 64")
    return Armored(path, headers["Game"], int(seq_side[0]), seq_side[1], payload, signature)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise ValueError(f"duplicate key {key!r}")
        obj[key] = value
    return obj


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_canonical(payload: bytes, where: int | str) -> dict[str, Any]:
    try:
        text = payload.decode("utf-8")
        obj = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
        canonical = rfc8785.dumps(obj)
    except (UnicodeDecodeError, ValueError) as exc:
        raise VerifyError(where, f"payload is not valid JSON: {exc}") from None
    if canonical != payload:
        raise VerifyError(where, "payload is not canonical RFC 8785 JSON")
    if not isinstance(obj, dict):
        raise VerifyError(where, "payload is not a JSON object")
    return obj


def load_key(text: Any, where: int, side: str) -> Ed25519PublicKey:
    raw = strict_b64(text, f"key of {side}", where) if isinstance(text, str) else b""
    if len(raw) != 32:
        raise VerifyError(where, f"key of {side} is not a base64 32-byte Ed25519 public key")
    return Ed25519PublicKey.from_public_bytes(raw)


def check_signature(key: Ed25519PublicKey, packet: Armored) -> None:
    try:
        key.verify(packet.signature, SIGNATURE_PREFIX + packet.payload)
    except InvalidSignature:
        raise VerifyError(packet.seq, f"bad signature (side {packet.side})") from None


# --- 3.1 / 3.3b / 3.5 the log ---------------------------------------------------------------------------


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def utc_seconds(text: str, seq: int) -> int:
    """Contract 2: a time is a real UTC date and time of the years 1970-2999; its seconds since 1970."""
    year, month, day = int(text[0:4]), int(text[5:7]), int(text[8:10])
    hour, minute, second = int(text[11:13]), int(text[14:16]), int(text[17:19])
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    days_in = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    if not (1970 <= year <= 2999 and 1 <= month <= 12 and 1 <= day <= days_in[month - 1] and hour <= 23
            and minute <= 59 and second <= 59):
        raise VerifyError(seq, f"time {text} is not a real UTC time of 1970-2999")
    days = sum(366 if y % 4 == 0 and (y % 100 != 0 or y % 400 == 0) else 365 for y in range(1970, year))
    days += sum(days_in[:month - 1]) + day - 1
    return ((days * 24 + hour) * 60 + minute) * 60 + second


def check_fields(p: dict[str, Any], seq: int, version: int | None = None) -> None:
    def need(ok: bool, reason: str) -> None:
        if not ok:
            raise VerifyError(seq, reason)

    need(not set(p) - FIELDS, f"unknown fields {sorted(set(p) - FIELDS)}")
    need(is_int(p.get("v")), "v is not an integer")
    need(version is not None or p["v"] in VERSIONS, f"contract version {p['v']} is not known to this checker")
    need(version is None or p["v"] == version, f"v is {p['v']}, the game's version is {version}")
    need(isinstance(p.get("game"), str) and bool(HEX32.fullmatch(p["game"])), "game is not 32 lowercase hex")
    need(is_int(p.get("seq")) and p["seq"] == seq, f"payload seq {p.get('seq')!r} where {seq} was expected")
    need(isinstance(p.get("side"), str) and bool(p["side"]), "side is missing")
    need("prev" in p and (p["prev"] is None) == (seq == 0), "prev must be null at seq 0 only")
    need(isinstance(p.get("commit"), str) and bool(HEX64.fullmatch(p["commit"])), "commit is not 64 hex")
    need(isinstance(p.get("inputs", []), list), "inputs is not a list")
    need(seq != 0 or not p.get("inputs"), "packet 0 carries inputs")
    need(("invite" in p) == (seq == 0) and ("accept" in p) == (seq == 1), "invite/accept in the wrong packet")
    need("nonce" not in p or (seq <= 1 and isinstance(p["nonce"], str) and bool(HEX64.fullmatch(p["nonce"]))),
         "nonce must be 64 hex, in packet 0 or 1 only")
    need("time" not in p or (isinstance(p["time"], str) and bool(TIME.fullmatch(p["time"]))),
         "time is not YYYY-MM-DDTHH:MM:SSZ")
    need("message" not in p or (isinstance(p["message"], str) and len(p["message"]) <= 2000),
         "message is not text of at most 2000 characters")
    if p["v"] >= 2:
        for item in p.get("inputs", []):
            if isinstance(item, dict) and "unseal" in item:
                need(isinstance(item.get("salt"), str) and bool(SALT_V2.fullmatch(item["salt"])),
                     "an unsealing's salt is not exactly 16 bytes (32 hex)")
    later = seq >= 2
    need(("reveal" in p) == later and ("resolution" in p) == later, "reveal/resolution present iff seq >= 2")
    if later:
        need(isinstance(p["reveal"], str) and bool(HEX64.fullmatch(p["reveal"])), "reveal is not 64 hex")
        res = p["resolution"]
        need(isinstance(res, dict) and set(res) == {"state", "dice"}, "resolution must be {state, dice}")
        need(isinstance(res["state"], str) and bool(HEX64.fullmatch(res["state"])), "state is not 64 hex")
        need(isinstance(res["dice"], list), "resolution.dice is not a list")


def check_dice(p: dict[str, Any], previous_payload: bytes) -> int:
    seq = p["seq"]
    key = dice_key(bytes.fromhex(p["reveal"]), bytes.fromhex(p["game"]), packet_hash(previous_payload))
    for i, die in enumerate(p["resolution"]["dice"]):
        if not isinstance(die, dict) or set(die) != {"n", "sides", "value", "purpose"}:
            raise VerifyError(seq, f"die #{i} is not {{n, sides, value, purpose}}")
        if not is_int(die["n"]) or die["n"] != i:
            raise VerifyError(seq, f"die #{i} has n={die['n']!r}; n must run 0, 1, 2, ...")
        if not is_int(die["sides"]) or not 1 <= die["sides"] <= 256:
            raise VerifyError(seq, f"die n={i} has sides={die['sides']!r}")
        if not isinstance(die["purpose"], str) or not die["purpose"]:
            raise VerifyError(seq, f"die n={i} has no purpose")
        expected = roll(key, i, die["sides"])
        if die["value"] != expected or not is_int(die["value"]):
            raise VerifyError(seq, f"die n={i} d{die['sides']} ({die['purpose']}) is {die['value']!r}, "
                                   f"the key gives {expected}")
    return len(p["resolution"]["dice"])


def read_turns(game_dir: Path) -> list[Armored]:
    by_seq: dict[int, Armored] = {}
    for path in sorted((game_dir / "turns").glob("*.rsr")):
        packet = parse_armor(path.read_bytes().decode("utf-8", "replace"), path.name, path)
        if packet.seq in by_seq:
            raise VerifyError(packet.seq, f"two files for one seq (fork): {by_seq[packet.seq].path.name}, "
                                          f"{path.name}")
        by_seq[packet.seq] = packet
    if not by_seq:
        raise VerifyError(0, "no turns/*.rsr files")
    for seq in range(max(by_seq) + 1):
        if seq not in by_seq:
            raise VerifyError(seq, "missing (gap in the log)")
    return [by_seq[seq] for seq in range(len(by_seq))]


def verify_game(game_dir: Path) -> Iterator[tuple[int, str, int]]:
    """Yield (seq, side, dice checked) per packet in order; raise VerifyError at the first failure."""
    keys: dict[str, Ed25519PublicKey] = {}
    raw_keys: dict[str, str] = {}
    payloads: list[dict[str, Any]] = []
    packets = read_turns(game_dir)
    for packet in packets:
        seq = packet.seq
        if seq >= 2:  # the key is known before the payload is parsed: even seq creator, odd seq opponent
            check_signature(keys[payloads[seq % 2]["side"]], packet)
        p = parse_canonical(packet.payload, seq)
        check_fields(p, seq, payloads[0]["v"] if payloads else None)
        if p["v"] >= 2 and "time" in p:  # contract 2: real times, never going backwards along the chain
            now = utc_seconds(p["time"], seq)
            if seq and "time" in payloads[-1] and now < utc_seconds(payloads[-1]["time"], seq):
                raise VerifyError(seq, f"time {p['time']} is before the previous packet's {payloads[-1]['time']}")
        side = p["side"]
        if seq <= 1:
            block = p["invite" if seq == 0 else "accept"]
            if not isinstance(block, dict) or not isinstance(block.get("keys"), dict):
                raise VerifyError(seq, "invite/accept has no keys object")
            if seq == 1 and side == payloads[0]["side"]:
                raise VerifyError(seq, "packet 1 comes from the inviting side")
            for key_side, text in block["keys"].items():
                if raw_keys.setdefault(key_side, text) != text:
                    raise VerifyError(seq, f"key of {key_side} differs from the one pinned by packet 0")
                keys[key_side] = load_key(text, seq, key_side)
            if side not in keys:
                raise VerifyError(seq, f"no public key for the author's side {side}")
            if len(keys) > 2 or (seq == 1 and set(keys) != {payloads[0]["side"], side}):
                raise VerifyError(seq, f"keys name sides {sorted(keys)}, not this game's two sides")
            check_signature(keys[side], packet)
        elif side != payloads[seq % 2]["side"]:
            raise VerifyError(seq, f"side {side} breaks the alternation")
        if seq and p["game"] != payloads[0]["game"]:
            raise VerifyError(seq, "game id differs from packet 0")
        if (packet.game, packet.seq, packet.side) != (p["game"], seq, side):
            raise VerifyError(seq, "header Game/Seq lines do not match the payload")
        if seq and p["prev"] != packet_hash(packets[seq - 1].payload).hex():
            raise VerifyError(seq, "prev is not the SHA-256 of the previous packet's payload")
        suffix = ("invite", "accept")[seq] if seq <= 1 else packet_hash(packet.payload).hex()[:8]
        if packet.path.name != f"{seq:04d}-{side}-{suffix}.rsr":
            raise VerifyError(seq, f"file name {packet.path.name} should be {seq:04d}-{side}-{suffix}.rsr")
        dice = 0
        if seq >= 2:
            if commit_of(bytes.fromhex(p["reveal"])).hex() != payloads[seq - 2]["commit"]:
                raise VerifyError(seq, f"reveal does not match the commit of packet {seq - 2}")
            dice = check_dice(p, packets[seq - 1].payload)
        payloads.append(p)
        yield seq, side, dice


def main(argv: list[str]) -> int:
    if len(argv) != 2 or not (Path(argv[1]) / "turns").is_dir():
        print("usage: independent_verify.py GAME_DIR   (GAME_DIR must contain turns/)", file=sys.stderr)
        return 2
    count = dice = 0
    try:
        for seq, side, n in verify_game(Path(argv[1])):
            print(f"{seq:4d} {side:<10} OK" + (f"  ({n} dice)" if n else ""))
            count, dice = count + 1, dice + n
    except VerifyError as exc:
        print(exc)
        return 1
    print(f"{count} packets, {dice} dice checked")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
