"""Checkpoints of replayed positions, so a command at the end of a long game does not replay it all.

A checkpoint is the pass that packet N's author recorded (its position, events, dice and what the game
then asked), kept in the rsr home under ``cache/<game id>/`` and named by N, the packet's hash and the
ruleset version. It lives outside the game directory, so nothing an opponent commits to a shared
repository can plant one. It is trusted only after its position hashes to the state that packet N's
signed resolution recorded; a checkpoint that is stale, damaged or unreadable is ignored and replay
starts further back. ``rsr verify`` never uses checkpoints.

Next to the checkpoints, ``files-v2-NNNNN.bin`` (one per 256 packets) record the packet files this
player's rsr has checked in full: by file name, the SHA-256 of the file's bytes, the packet's payload bytes,
signature, seq, side, game and prev, and the key that verified it. Reading the log
(``rsr.gamedir.read_log``) takes a file whose bytes hash the same as checked and checks only the others, so
a command at the end of a long game reads the log without de-armoring, parsing or verifying what it already
verified, and parses a payload only if something reads it (``rsr.packet.KnownPacket``). Each chunk carries
the SHA-256 of its own contents; a damaged or foreign chunk is ignored (its files are then checked), and a
changed packet file never matches its entry.
"""

from __future__ import annotations

import copy
import gc
import hashlib
import marshal
import os
import pickle
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rsr import keys as keystore
from rsr.engine import Position, Ruleset
from rsr.fileio import atomic_write, read_limited
from rsr.gamedir import KnownFile, read_log
from rsr.log import PassRecord, Replay, replay
from rsr.packet import Packet, header_of, self_signed_key
from rsr.provenance import SharedStatic

FORMAT = 2  # 2: positions carry contract version 2's void answers (rsr/engine.py Position)
MAX_CHECKPOINT = 256 * 1024 * 1024
KEEP = 3
# a checkpoint each MILESTONE packets is never pruned: ``report``, ``dice show`` and ``map`` of an old packet
# replay from the milestone before it (flat in the game's length), at a disk cost of about one
# checkpoint (some hundred KB) each MILESTONE packets
MILESTONE = 32
FILES_FORMAT = 2  # 2: each file's seq, side, game and prev instead of its parsed payload
FILES_CHUNK = 256  # packets a chunk of the record of checked files holds
FILES_MAGIC = b"rsr-checked-files-v2\n"
MAX_FILES_RECORD = 512 * 1024 * 1024

# within one process: what each (cache root, game) record holds, and the last replay of each game's log
_KNOWN: dict[tuple[Path, str], dict[str, KnownFile]] = {}
_REPLAYS: dict[tuple[Path, str], Replay] = {}


def cache_root() -> Path:
    return keystore.home() / "cache"


class HomeCheckpoints:
    """The checkpoints kept in this player's rsr home."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root or cache_root()

    def load(self, game_dir: Path) -> Replay:
        """The game's log read and replayed, from what this home already checked (checkpoints and files)."""
        collecting = gc.isenabled()
        gc.disable()  # reading makes thousands of objects that all live on: cycle collection would be wasted
        try:
            log = read_log(game_dir, self.known_files)
        finally:
            if collecting:
                gc.enable()
        game = log.packets[0].game
        last = _REPLAYS.get((self.root, game))
        if last is not None and len(last.packets) == len(log.packets) and _same_packets(last.packets, log.packets):
            return last  # every file is one this process read before: the same packets replay the same
        result = replay(log.packets, self)
        self.save(result)
        self.save_files(result, log.digests, stats=log.stats)
        return result

    def remember(self, result: Replay) -> None:
        """Keep the newest pass of ``result`` and record its packets' files as written by rsr (best effort)."""
        self.save(result)
        before = self.known_files(result.game_id)
        digests = {}
        for packet in result.packets[2:]:
            name = packet.file_name()
            known = before.get(name)
            if known is None or known.payload_bytes != packet.payload_bytes:
                digests[name] = hashlib.sha256(packet.armored().encode()).digest()
        self.save_files(result, digests, partial=True)

    def files_path(self, game_id: str, chunk: int) -> Path:
        """The record of the checked files of packets ``chunk * FILES_CHUNK`` to the next chunk's first."""
        return self.root / game_id / f"files-v{FILES_FORMAT}-{chunk:05d}.bin"

    def known_files(self, game_id: str) -> Mapping[str, KnownFile]:
        """The packet files of ``game_id`` checked in full before (a missing or damaged record: none of its)."""
        memo = _KNOWN.get((self.root, game_id))
        if memo is not None:
            return memo
        entries: dict[str, KnownFile] = {}
        folder = self.root / game_id
        try:
            names = sorted(os.listdir(folder)) if folder.is_dir() else []
        except OSError:
            names = []
        prefix = f"files-v{FILES_FORMAT}-"
        for name in names:
            head = name[len(prefix):-len(".bin")]
            if name.startswith(prefix) and name.endswith(".bin") and head.isascii() and head.isdigit():
                entries.update(_read_chunk(folder / name, int(head)))
        _KNOWN[(self.root, game_id)] = entries
        return entries

    def save_files(self, result: Replay, digests: Mapping[str, bytes], partial: bool = False,
                   stats: Mapping[str, tuple[int, ...]] | None = None) -> None:
        """Record the files of ``result``'s packets whose bytes hash to ``digests`` (with
        ``partial``, a packet missing from ``digests`` keeps what the record says); only the chunks of the
        record that changed are written (a receive writes one)."""
        before = self.known_files(result.game_id)
        entries: dict[str, KnownFile] = {}
        dirty: set[int] = set()
        stats = stats or {}
        new = tuple.__new__  # (KnownFile's own constructor without its keyword handling: once per packet)
        for index, packet in enumerate(result.packets):  # (packets 0 and 1 too: rsr/gamedir.py _vouch_early)
            name = packet.file_name()
            old = before.get(name)
            digest = digests.get(name)
            if digest is None and partial and old is not None:
                digest = old.file_sha256
            # (packets 0 and 1: the key each introduces and was checked under, whatever the game pins later)
            key = self_signed_key(packet) if index <= 1 else result.keys.get(packet.side)
            if digest is None or key is None:
                continue
            # (the file's stat when read, or the one recorded for the same bytes)
            stat = stats.get(name) or (old.stat if old is not None and old.file_sha256 == digest else None)
            if old is not None and old.file_sha256 == digest and old.payload_bytes == packet.payload_bytes and \
                    old.signature == packet.signature and old.key == key and old.stat == stat:
                entries[name] = old if old.packet is packet else \
                    new(KnownFile, (old[0], old[1], old[2], old[3], old[4], packet, old[6]))
                continue
            dirty.add(_chunk_of(name))
            entries[name] = KnownFile(digest, packet.payload_bytes, packet.signature, key, header_of(packet), packet,
                                      stat)
        dirty.update(_chunk_of(name) for name in before.keys() - entries.keys())
        _REPLAYS[(self.root, result.game_id)] = result
        _KNOWN[(self.root, result.game_id)] = entries  # (with the packet objects: read again, they are reused)
        if not dirty:
            return
        chunks: dict[int, dict[str, KnownFile]] = {}
        for name, entry in entries.items():
            chunks.setdefault(_chunk_of(name), {})[name] = entry
        for chunk in sorted(dirty):
            mine = chunks.get(chunk, {})
            path = self.files_path(result.game_id, chunk)
            try:
                if not mine:
                    path.unlink(missing_ok=True)
                    continue
                body = marshal.dumps({name: _stored(e) for name, e in sorted(mine.items())})
                data = FILES_MAGIC + hashlib.sha256(body).hexdigest().encode() + b"\n" + body
                atomic_write(path, data, mode=0o600, durable=False)  # (a cache: checked when read)
                path.with_name(f"files-v1-{chunk:05d}.bin").unlink(missing_ok=True)  # (the older format's)
            except OSError:
                return

    def path(self, packet: Packet, ruleset: Ruleset) -> Path:
        return (self.root / packet.game /
                f"{packet.seq:06d}-{packet.hash_hex[:16]}-{ruleset.id}-{ruleset.version}-v{FORMAT}.pickle")

    def newest(self, packets: list[Packet], ruleset: Ruleset) -> PassRecord | None:
        for packet in reversed(packets[2:]):
            path = self.path(packet, ruleset)
            if not path.exists():
                continue
            record = self._load(path, packet, ruleset)
            if record is not None:
                return record
        return None

    def _load(self, path: Path, packet: Packet, ruleset: Ruleset) -> PassRecord | None:
        collecting = gc.isenabled()
        gc.disable()  # (a position is thousands of objects that all live on)
        try:
            record = pickle.loads(read_limited(path, MAX_CHECKPOINT, "checkpoint"))  # noqa: S301 - own home only
        except Exception:  # noqa: BLE001 - any damage means: not a usable checkpoint
            return None
        finally:
            if collecting:
                gc.enable()
        if not isinstance(record, PassRecord) or record.resolver != packet.seq:
            return None
        recorded = packet.payload.get("resolution", {}).get("state")
        try:
            if record.state_hash != recorded or record.after.digest(ruleset) != recorded:
                return None
        except Exception:  # noqa: BLE001
            return None
        return record

    def save(self, result: Replay) -> None:
        """Keep the newest pass of ``result``, and every milestone pass it replayed (best effort: a cache that
        cannot be written is no error)."""
        if not result.passes:
            return
        for record in result.passes[:-1]:
            if record.resolver % MILESTONE == 0 and record.position is not None:
                self._save_pass(result, record)
        self._save_pass(result, result.passes[-1])

    def replay_to(self, packets: list[Packet], seq: int) -> Replay:
        """The log up to the packet that resolves packet ``seq``, replayed from the newest checkpoint before it
        (a milestone): a command about an old packet replays a few dozen packets, not the whole game."""
        return replay(packets[:seq + 2], self)

    def _save_pass(self, result: Replay, last: PassRecord) -> None:
        packet = result.packets[last.resolver]
        path = self.path(packet, result.ruleset)
        if path.exists():
            return
        record = copy.copy(last)
        position = copy.deepcopy(last.after)
        for side, queue in position.queues.items():  # the position as it was before packet N's inputs queued
            position.queues[side] = [q for q in queue if q.seq != packet.seq]
        _drop_memos(position)
        record.position = position
        try:
            atomic_write(path, pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL), mode=0o600, durable=False)
        except (OSError, pickle.PicklingError, TypeError, AttributeError):
            return
        self._prune(path.parent)

    def _prune(self, folder: Path) -> None:
        """The newest ``KEEP`` checkpoints stay, and every milestone (one each ``MILESTONE`` packets)."""
        for old in sorted(p for p in folder.glob("*.pickle") if not _is_milestone(p))[:-KEEP]:
            try:
                old.unlink()
            except OSError:
                pass


def checked_log(game_dir: Path) -> list[Packet]:
    """The game's packets, every file checked as ``rsr.gamedir.load_log`` checks it, except a file whose bytes
    this home checked in full before (its record of checked files): what every player's command reads, without
    replaying the rules (a mailbox's packets sorted against the log)."""
    return read_log(game_dir, HomeCheckpoints().known_files).packets


def _stored(entry: KnownFile) -> tuple[Any, ...]:
    """An entry as written: with what checking the chain reads (the payload itself is parsed only if read), and
    the file's stat when it has one."""
    header = entry.header if entry.header is not None or entry.packet is None else header_of(entry.packet)
    stored = (entry.file_sha256, entry.payload_bytes, entry.signature, entry.key, header)
    return stored if entry.stat is None else stored + (entry.stat,)


def _same_packets(mine: list[Packet], read: list[Packet]) -> bool:
    """Whether the log read holds the very packets of an earlier replay in this process (from packet 2 on, the
    same objects: ``read_log`` reused them because every file hashed as checked)."""
    early = zip(mine[:2], read[:2], strict=True)
    return all(a.payload_bytes == b.payload_bytes and a.signature == b.signature for a, b in early) \
        and all(a is b for a, b in zip(mine[2:], read[2:], strict=True))


def _drop_memos(position: Position) -> None:
    """Leave out of a checkpoint the memo tables of the game's fixed data (rsr.provenance.SharedStatic): they
    are derived, recomputed on demand, and grow over a game to most of a checkpoint's size."""
    state = position.state
    for name, value in list(vars(state).items()):
        if isinstance(value, SharedStatic) and isinstance(getattr(value, "memo", None), dict):
            lean = copy.copy(value)  # (the live fixed data is shared with the replay: never changed here)
            object.__setattr__(lean, "memo", {})
            object.__setattr__(state, name, lean)


def _is_milestone(path: Path) -> bool:
    head = path.name.split("-")[0]
    return head.isdigit() and int(head) % MILESTONE == 0


def _chunk_of(name: str) -> int:
    return int(name.split("-")[0]) // FILES_CHUNK


def _read_chunk(path: Path, chunk: int) -> dict[str, KnownFile]:
    """One chunk of the record, or nothing if it is unreadable, damaged (its own SHA-256 does not match) or
    holds an entry that does not belong in it."""
    try:
        data = read_limited(path, MAX_FILES_RECORD, "record of checked files")
    except Exception:  # noqa: BLE001 - unreadable means: nothing known
        return {}
    head, _, rest = data.partition(b"\n")
    digest, _, body = rest.partition(b"\n")
    if head + b"\n" != FILES_MAGIC or hashlib.sha256(body).hexdigest().encode() != digest:
        return {}
    try:
        raw = marshal.loads(body)
    except (EOFError, ValueError, TypeError):
        return {}
    if not isinstance(raw, dict):
        return {}
    entries: dict[str, KnownFile] = {}
    new = tuple.__new__  # (KnownFile's own constructor, without its keyword handling: thousands of entries)
    for name, value in raw.items():
        # (written out: this loop runs once per packet of the game)
        if not (type(name) is str and type(value) is tuple and name[:4].isascii() and name[:4].isdigit()
                and _chunk_of(name) == chunk):
            return {}
        size = len(value)
        if size == 6:
            stat = value[5]
            if not (type(stat) is tuple and len(stat) == 5 and type(stat[0]) is int and type(stat[1]) is int
                    and type(stat[2]) is int and type(stat[3]) is int and type(stat[4]) is int):
                return {}
        elif size == 5:
            stat = None
        else:
            return {}
        header = value[4]
        if not (type(value[0]) is bytes and type(value[1]) is bytes and type(value[2]) is bytes
                and type(value[3]) is bytes and type(header) is tuple and len(header) == 4
                and type(header[0]) is int and type(header[1]) is str and type(header[2]) is str
                and type(header[3]) is str):
            return {}
        entries[name] = new(KnownFile, (value[0], value[1], value[2], value[3], header, None, stat))
    return entries

