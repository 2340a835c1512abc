"""The game directory (docs/protocol.md, "The game directory"): reading turns/, writing packets, disputes
and game.yaml, under the game lock. What the packets mean is rsr/log.py's: this module reads files into
packets and hands them to ``replay``/``extend``, and writes what they accepted.
"""

from __future__ import annotations

import datetime
import gc
import hashlib
import json
import os
import re
import stat
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from rsr.errors import BadInput, RulesError, VerificationError, printable
from rsr.fileio import atomic_write, game_locked, read_limited
from rsr.keys import KeyPair, decode_public, fingerprint
from rsr.log import Replay, check_last_inputs, extend, my_side, pending_pass, replay
from rsr.packet import (
    Armored,
    Header,
    Packet,
    check_self_signature,
    checked_before,
    extract_blocks,
    known_packet,
    open_packet,
    parsed_lazily,
    read_packets,
    schema_checked_before,
    self_signed_key,
)
from rsr.yamlio import dump_yaml

MAX_PACKET_FILE = 8 * 1024 * 1024


def game_dir_name(game_id: str) -> str:
    return f"game-{game_id[:8]}"


def read_text_file(path: Path) -> str:
    """A packet file's text: a regular file of bounded size (a FIFO or a device is refused)."""
    return _text(read_limited(path, MAX_PACKET_FILE, "packet file"))


def _open_early(path: Path, text: str, seq: int) -> Packet:
    """Packet 0 or 1, which carries the key that checks it."""
    try:
        packet = read_packets(text, None)[0]
    except BadInput as exc:
        raise VerificationError(f"{path.name}: {exc}", seq) from exc
    section = "invite" if seq == 0 else "accept"
    if section not in packet.payload:
        raise VerificationError(f"{path.name} should hold the {section}, but holds packet {packet.seq} "
                                f"({packet.side})", seq)
    return packet


class KnownFile(NamedTuple):
    """A packet file an earlier command checked in full: the SHA-256 of the file's bytes then, the packet they
    held (payload bytes, signature, and its seq, side, game and prev) and the key its signature verified
    under (``packet``: the very object, within one process)."""

    file_sha256: bytes
    payload_bytes: bytes
    signature: bytes
    key: bytes
    header: Header | None = None
    packet: Packet | None = None
    stat: tuple[int, ...] | None = None  # the file's size, times and inode when its bytes were hashed


KnownFiles = Callable[[str], Mapping[str, KnownFile]]  # by game id: file name -> what was checked


@dataclass
class LogFiles:
    """The packets of turns/, in order, and the SHA-256 of each file's bytes by file name."""

    packets: list[Packet]
    digests: dict[str, bytes]
    stats: dict[str, tuple[int, ...]] = field(default_factory=dict)  # (of the files read, taken before reading)


def load_log(game_dir: Path) -> list[Packet]:
    """Read every packet file, check signatures and file names, and detect equivocation (everything checked)."""
    return read_log(game_dir).packets


def read_log(game_dir: Path, known: KnownFiles | None = None, lazy: bool = False) -> LogFiles:
    """Read every packet file, check signatures and file names, and detect equivocation.

    With ``known`` (what earlier commands checked, rsr/cache.py), a file from packet 2 on whose bytes hash
    exactly as they did when they were checked in full, signed by the key the game now pins for its side,
    is taken as checked: the same bytes give the same verdicts, so de-armoring, strict parsing, the schema
    and Ed25519 are not run again for it. Any other file (new, changed by one byte, renamed) is checked in
    full. The invite and the acceptance, which carry the keys, are always checked in full. ``rsr verify``
    passes no ``known``.

    Read-only: a fork (two packets at one seq) is reported with both file names; ``rsr receive`` is what
    writes proofs to disputes/.

    With ``lazy`` (``rsr verify``), the packets from 2 on are kept with their bytes only, their payloads
    parsed again when read (rsr/packet.py ``parsed_lazily``): memory flat in the log's length.
    """
    collecting = gc.isenabled()
    gc.disable()  # (reading makes thousands of objects that all live on: cycle collection would be wasted)
    try:
        return _read_log(game_dir, known, lazy)
    finally:
        if collecting:
            gc.enable()


def _read_log(game_dir: Path, known: KnownFiles | None, lazy: bool = False) -> LogFiles:
    turns = game_dir / "turns"
    if not turns.is_dir():
        raise BadInput(f"{game_dir} is not a game directory (no turns/)")
    # (a name ending in .rsr after something besides dots: os.path.splitext's ".rsr", without a call a file)
    names = sorted(n for n in os.listdir(turns) if n.endswith(".rsr") and n[:-4].strip("."))
    if not names:
        raise VerificationError(f"{turns} holds no packets")
    folder = str(turns) + os.sep
    by_seq: dict[int, list[tuple[str, Packet]]] = {}
    digests: dict[str, bytes] = {}
    stats: dict[str, tuple[int, ...]] = {}
    started = time.time_ns()
    keys: dict[str, bytes] | None = None
    checked: Mapping[str, KnownFile] = {}
    for name in names:
        head = name.split("-")[0]
        if not (head.isascii() and head.isdigit()) or len(head) > 7:  # '①'.isdigit() is true, int('①') fails
            raise VerificationError(f"{printable(name)} is not named NNNN-side-tag.rsr")
        seq = int(head)
        path = folder + name  # (os.path.join's result: a listed name holds no separator)
        entry = checked.get(name) if seq >= 2 and keys is not None else None
        now = file_stat(path)
        data: bytes | None = None
        if entry is not None and now is not None and entry.stat == now:
            digest = entry.file_sha256  # (the very file hashed then: not read again)
        else:
            data = read_limited(path, MAX_PACKET_FILE, "packet file")
            digest = hashlib.sha256(data).digest()
            if now is not None and now[2] < started - RACY_NS:
                stats[name] = now
        digests[name] = digest
        if seq <= 1 and known is not None and data is not None:
            _vouch_early(data, name, digest, known)
        packet = _known_packet(entry, digest, keys) if entry is not None else None
        if packet is None:
            if data is None:
                data = read_limited(path, MAX_PACKET_FILE, "packet file")
            packet = _read_packet_file(turns, name, _text(data), seq, keys)
        if seq == 0:
            keys = {s: decode_public(t) for s, t in sorted(packet.payload["invite"]["keys"].items())}
            checked = known(packet.game) if known is not None else {}
        elif seq == 1 and keys is not None:
            keys.update({s: decode_public(t) for s, t in sorted(packet.payload["accept"]["keys"].items())})
        if packet.seq != seq:
            raise VerificationError(f"{name} holds packet {packet.seq}, not {seq}", seq)
        if entry is not None and packet.payload_bytes is entry.payload_bytes:
            object.__setattr__(packet, "_file_name", name)  # (recorded under this name for these bytes)
        if name != packet.file_name():
            raise VerificationError(f"{name} should be named {packet.file_name()}", seq)
        by_seq.setdefault(seq, []).append((name, parsed_lazily(packet) if lazy and seq >= 2 else packet))
    for seq, found in sorted(by_seq.items()):
        if len(found) > 1:
            (first_name, first), (second_name, second) = found[0], found[1]
            who = f"both signed by {first.side} (equivocation)" if first.side == second.side else \
                f"by {first.side} and {second.side}"
            raise VerificationError(f"two different packets, {first_name} and {second_name}, {who}", seq)
    return LogFiles([found[0][1] for _, found in sorted(by_seq.items())], digests, stats)


# A file changed less than this before it is read is not vouched for by its stat (read again next time): file
# times tick coarsely, so a file rewritten in place at once, to the same size, might keep its times (as git's
# "racy" entries).
RACY_NS = 2_000_000_000


def file_stat(path: str) -> tuple[int, ...] | None:
    """What says a packet file is the one hashed before (a command reads only new or changed files):
    its size, modification and change times (the change time moves with every write and cannot be set back)
    and its inode and device. None for anything but a regular file (it is read, and refused, as before)."""
    try:
        info = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    return info.st_size, info.st_mtime_ns, info.st_ctime_ns, info.st_ino, info.st_dev


_GAME_LINE = re.compile(rb"^Game: ([0-9a-f]{8,64})[ \t\r]*$", re.M)


def _vouch_early(data: bytes, name: str, digest: bytes, known: KnownFiles) -> None:
    """Packet 0 or 1 names the key that checks it, so it is read in full every time; but if the record of
    checked files holds this file's very bytes, the signature it holds verified then, and is taken as
    verified now (a reading command then imports no cryptography, for start-up). The armor's Game line
    only says which record to look in: an entry counts only for bytes hashing as recorded."""
    found = _GAME_LINE.search(data[:4096])
    if found is None:
        return
    entry = known(found.group(1).decode("ascii")).get(name)
    if entry is not None and entry.file_sha256 == digest:
        checked_before(entry.key, entry.signature, entry.payload_bytes)
        schema_checked_before(entry.payload_bytes)


def _text(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _known_packet(entry: KnownFile, digest: bytes, keys: dict[str, bytes] | None) -> Packet | None:
    """The packet of a file checked before, if its bytes are the ones checked and its key is the game's."""
    if entry.file_sha256 != digest or keys is None:
        return None
    packet = entry.packet
    if packet is None or packet.payload_bytes != entry.payload_bytes or packet.signature != entry.signature:
        if entry.header is not None:
            packet = known_packet(entry.payload_bytes, entry.signature, entry.header)  # (parsed when read)
        else:
            try:
                payload = json.loads(entry.payload_bytes)
            except ValueError:
                return None
            if not isinstance(payload, dict):
                return None
            packet = Packet(payload, entry.payload_bytes, entry.signature)
    if keys.get(packet.side) != entry.key:
        return None
    checked_before(entry.key, entry.signature, entry.payload_bytes)
    return packet


def _read_packet_file(turns: Path, name: str, text: str, seq: int, keys: dict[str, bytes] | None) -> Packet:
    """One packet file (``turns/name``) checked in full: one armored block, signed by its side's key,
    canonical, in schema."""
    try:
        blocks = extract_blocks(text)
    except BadInput as exc:
        raise VerificationError(f"{name}: {exc}", seq) from exc
    if len(blocks) != 1:
        raise VerificationError(f"{name} holds {len(blocks)} packets; a turn file holds one", seq)
    if seq <= 1:
        return _open_early(turns / name, text, seq)
    if keys is None:
        raise VerificationError("packet 0 (the invite) is missing", 0)
    try:
        return open_packet(blocks[0], keys, seq)
    except BadInput as exc:
        raise VerificationError(f"{name}: {exc}", seq) from exc
    except VerificationError as exc:
        raise VerificationError(f"{name}: {exc.reason}", seq) from exc


def write_dispute(game_dir: Path, name: str, heading: str, packets: list[Packet]) -> Path:
    """Keep rejected or conflicting packets, with why, in disputes/ (never through a link)."""
    text = heading + "\n\n" + "\n".join(p.armored() for p in packets)
    path = game_dir / "disputes" / name
    atomic_write(path, text.encode(), root=game_dir)
    return path


def equivocation(game_dir: Path, first: Packet, second: Packet) -> VerificationError:
    """Two packets at one seq by one side: write both as a proof to disputes/ and name the signer."""
    heading = (f"# Equivocation: two different packets at seq {first.seq}, both signed by {first.side}.\n"
               f"# Each verifies against {first.side}'s key; anyone can check them with rsr.")
    path = write_dispute(game_dir, f"{first.seq:04d}-{first.side}.txt", heading, [first, second])
    return VerificationError(f"two different packets at seq {first.seq}, both signed by {first.side} "
                             f"(equivocation; proof written to {path})", first.seq)


def write_game_yaml(game_dir: Path, result: Replay) -> None:
    invite = result.packets[0].payload["invite"]
    summary = {
        "game": result.game_id,
        "ruleset": invite["ruleset"],
        "ruleset_version": invite["ruleset_version"],
        "scenario": invite["scenario"],
        "scenario_sha256": invite["scenario_sha256"],
        "options": invite["options"],
        "sides": {side: {"player": result.names.get(side, ""), "key": fingerprint(pub)}
                  for side, pub in sorted(result.keys.items())},
        "note": "generated from packet 0 and 1; the packets under turns/ are the truth",
    }
    if "deadline_hours" in invite:
        summary["deadline_hours"] = invite["deadline_hours"]
    atomic_write(game_dir / "game.yaml", dump_yaml(summary).encode(), root=game_dir)


def create_game_dir(parent: Path, invite: Packet) -> Path:
    game_dir = parent / game_dir_name(invite.game)
    if game_dir.exists() or game_dir.is_symlink():
        raise BadInput(f"{game_dir} already exists")
    (game_dir / "turns").mkdir(parents=True)
    atomic_write(game_dir / ".gitignore", b".rsr.lock\n.cache/\n", root=game_dir)
    return game_dir


def write_packets(game_dir: Path, packets: list[Packet], after: Replay | None = None) -> Replay:
    """Write packets already checked against the log; the caller holds the game lock.

    ``after`` is the replay that already includes them (from :func:`extend`); without it the log is read
    and replayed again.
    """
    existing = {p.name for p in (game_dir / "turns").iterdir()}
    for packet in packets:
        name = packet.file_name()
        if name not in existing:
            atomic_write(game_dir / "turns" / name, packet.armored().encode(), root=game_dir)
    if packets:
        from rsr import arrivals

        arrivals.record(packets[0].game, [p.seq for p in packets])  # (deadlines count from it: rsr/arrivals.py)
    result = after if after is not None else replay(load_log(game_dir))
    if len(result.packets) <= 2 or not (game_dir / "game.yaml").exists():
        write_game_yaml(game_dir, result)
    return result


def append_packets(game_dir: Path, packets: list[Packet]) -> Replay:
    """Write packets already checked by ``replay``, under the game lock, one atomic file each."""
    with game_locked(game_dir):
        return write_packets(game_dir, packets)


def _open_incoming(log: list[Packet], keys: dict[str, bytes], block: Any) -> Packet:
    if len(log) == 1 and block.headers.get("Seq", "").startswith("1 "):
        packet = open_packet(block, None)  # the acceptance introduces its own key
        check_self_signature(packet)
        return packet
    return open_packet(block, keys)


Resolver = KeyPair | Callable[[Replay], KeyPair | None] | None


def incoming(game_dir: Path, text: str, source: str = "input", resolver: Resolver = None,
             result: Replay | None = None) -> tuple[list[Packet], list[Packet], Replay]:
    """Check packets from an email or file against the log: (new packets, already present, the replay with
    the new packets).

    The caller holds the game lock, so what is decided here is what gets written. Nothing is written
    unless the packets extend the log validly *and* apply: with ``resolver`` (this player's key, or a
    function of the extended log giving the key of the side that writes next) the pass this player's next
    packet will record is run too (without it, what anyone can check before the first die), and a packet
    whose inputs break the rules is kept in disputes/ with the reason instead of turns/. A second packet at
    an existing seq signed by the same side is equivocation and its proof goes to disputes/. ``result`` is
    the log already replayed (inside the same lock).
    """
    result = result if result is not None else replay(load_log(game_dir))
    log = result.packets
    keys = result.keys
    packets: list[Packet] = []
    for number, block in enumerate(extract_blocks(text), start=1):
        where = f"{source}, packet block {number} (header 'Seq: {printable(block.headers.get('Seq', '?'))}')"
        try:
            packet = _open_incoming(log, keys, block)
        except (BadInput, VerificationError) as exc:
            # a file that is not a well-formed packet signed by a player of this game is bad input here
            raise BadInput(f"{where}: {_packet_problem(exc, block, log)}") from exc
        if packet.game != log[0].game:
            raise BadInput(f"{where}: belongs to game {packet.game[:8]}, not to this game {log[0].game[:8]}")
        if all(p.payload_bytes != packet.payload_bytes for p in packets):
            packets.append(packet)  # the same packet twice in one email (text and HTML parts) is one packet
    new: list[Packet] = []
    known: list[Packet] = []
    for packet in sorted(packets, key=lambda p: p.seq):
        if packet.seq < len(log):
            if log[packet.seq].payload_bytes == packet.payload_bytes:
                known.append(packet)
                continue
            if log[packet.seq].side == packet.side:
                raise equivocation(game_dir, log[packet.seq], packet)
            raise VerificationError(f"{source}: seq {packet.seq} is already taken by {log[packet.seq].side}",
                                    packet.seq)
        if result.contract >= 2 and "time" in packet.payload:  # (decided without dice: docs/protocol.md "Times")
            from rsr.times import BadTime, check_not_future

            try:
                check_not_future(packet.payload["time"], datetime.datetime.now(datetime.UTC))
            except BadTime as exc:
                raise VerificationError(f"{source}: refused: {exc}", packet.seq) from exc
        expected = len(log) + len(new)
        if packet.seq != expected:
            raise VerificationError(f"{source}: the log has {expected} packets; packet {packet.seq} would leave "
                                    "a gap (send the missing ones first)", packet.seq)
        new.append(packet)
    after = _check_extension(game_dir, result, new, source, resolver) if new else result
    return new, known, after


def _packet_problem(exc: Exception, block: Any, log: list[Packet]) -> str:
    """Say what is wrong with a packet that does not open, as precisely as the headers allow."""
    game = block.headers.get("Game", "")
    if game and game != log[0].game and len(game) == 32:
        return f"belongs to another game ({printable(game[:8])}), not to this game {log[0].game[:8]}"
    return str(exc)


def _check_extension(game_dir: Path, result: Replay, new: list[Packet], source: str,
                     resolver: Resolver) -> Replay:
    """Extend the replay with ``new``; with a resolver key, also run the pass it will record."""
    try:
        after = extend(result, new)
        key = resolver(after) if callable(resolver) else resolver
        if key is not None and key.public_raw in after.keys.values() and \
                my_side(after, key) == after.next_author():
            pending_pass(after, key)
        else:
            check_last_inputs(after)  # a third party's copy: what anyone can check without the dice
    except (VerificationError, RulesError) as exc:
        bad = new[-1]
        path = write_dispute(
            game_dir, f"{bad.seq:04d}-{bad.side}-{bad.hash_hex[:8]}-rejected.txt",
            f"# Packet {bad.seq} by {bad.side} from {source} was rejected and not stored in turns/:\n# {exc}",
            new)
        raise VerificationError(f"{source}: rejected ({exc}); kept in {path}; the game waits for a valid "
                                f"packet {bad.seq}", bad.seq) from exc
    return after


# -- triage: the packets a mailbox or a repository holds, measured against the log --------------------------


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
            keys[side] = decode_public(text)
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


def conflict(game_dir: Path, packets: list[Packet], other: Packet) -> VerificationError:
    """Two different packets for one seq: an equivocation proof when one side signed both, else who may write it."""
    mine = packets[other.seq]
    if mine.side == other.side:
        return equivocation(game_dir, mine, other)
    expected = packets[other.seq % 2].side  # the sides alternate from the invitation on
    return VerificationError(f"two different packets for seq {other.seq}: one by {mine.side}, one by {other.side}; "
                             f"seq {other.seq} is {expected}'s to write", other.seq)
