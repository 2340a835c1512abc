"""Checkpoints of replayed positions, so a command at the end of a long game does not replay it all.

A checkpoint is the pass that packet N's author recorded (its position, events, dice and what the game
then asked), kept in the rsr home under ``cache/<game id>/`` and named by N, the packet's hash and the
ruleset version. It lives outside the game directory, so nothing an opponent commits to a shared
repository can plant one. It is trusted only after its position hashes to the state that packet N's
signed resolution recorded; a checkpoint that is stale, damaged or unreadable is ignored and replay
starts further back. ``rsr verify`` never uses checkpoints.
"""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

from rsr import keys as keystore
from rsr.engine import Ruleset
from rsr.fileio import atomic_write, read_limited
from rsr.log import PassRecord, Replay
from rsr.packet import Packet

FORMAT = 1
MAX_CHECKPOINT = 256 * 1024 * 1024
KEEP = 3


def cache_root() -> Path:
    return keystore.home() / "cache"


class HomeCheckpoints:
    """The checkpoints kept in this player's rsr home."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = root or cache_root()

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
        try:
            record = pickle.loads(read_limited(path, MAX_CHECKPOINT, "checkpoint"))  # noqa: S301 - own home only
        except Exception:  # noqa: BLE001 - any damage means: not a usable checkpoint
            return None
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
        """Keep the newest pass of ``result`` (best effort: a cache that cannot be written is no error)."""
        if not result.passes:
            return
        last = result.passes[-1]
        packet = result.packets[last.resolver]
        path = self.path(packet, result.ruleset)
        if path.exists():
            return
        record = copy.copy(last)
        position = copy.deepcopy(last.after)
        for side, queue in position.queues.items():  # the position as it was before packet N's inputs queued
            position.queues[side] = [q for q in queue if q.seq != packet.seq]
        record.position = position
        try:
            atomic_write(path, pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL), mode=0o600)
        except (OSError, pickle.PicklingError, TypeError, AttributeError):
            return
        self._prune(path.parent)

    def _prune(self, folder: Path) -> None:
        for old in sorted(folder.glob("*.pickle"))[:-KEEP]:
            try:
                old.unlink()
            except OSError:
                pass
