"""When this copy of rsr first stored each packet of a game, kept in the rsr home (docs/protocol.md, "Times").

A packet's signed time is what its author says. A deadline counted from it alone lets an author backdate
his own packet and claim, seconds after it arrived, that the opponent let the deadline pass. The time this
machine stored the packet is one the opponent cannot fake, so ``status`` and ``claim check`` count a
deadline from the later of the two. One small file per game: ``arrivals/<game id>.json``, seq to UTC time.
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path

from rsr import keys as keystore
from rsr.errors import BadInput
from rsr.fileio import atomic_write, locked, read_limited
from rsr.times import format_time, parse_time

MAX_BYTES = 4 * 1024 * 1024


def _path(game_id: str) -> Path:
    return keystore.home() / "arrivals" / f"{game_id}.json"


def arrivals(game_id: str) -> dict[int, datetime.datetime]:
    """Every recorded arrival of the game (an unreadable record counts as none)."""
    path = _path(game_id)
    if not path.is_file() or path.is_symlink():
        return {}
    try:
        data = json.loads(read_limited(path, MAX_BYTES, "arrival record"))
        return {int(seq): parse_time(text) for seq, text in data.items()}
    except (ValueError, TypeError, AttributeError, BadInput, OSError):
        return {}  # (a damaged record never stops a command)


def arrived(game_id: str, seq: int) -> datetime.datetime | None:
    return arrivals(game_id).get(seq)


def record(game_id: str, seqs: list[int], now: datetime.datetime | None = None) -> None:
    """Note that packets ``seqs`` were stored now (a seq already noted keeps its first time)."""
    if not seqs:
        return
    when = format_time(now or datetime.datetime.now(datetime.UTC))
    path = _path(game_id)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with locked(path.parent / f".{game_id}.lock"):
            known = {str(seq): format_time(t) for seq, t in arrivals(game_id).items()}
            changed = False
            for seq in seqs:
                if str(seq) not in known:
                    known[str(seq)] = when
                    changed = True
            if changed:
                atomic_write(path, json.dumps(known, sort_keys=True).encode(), mode=0o600, durable=False)
    except OSError:
        pass  # (a record that cannot be written leaves deadlines counted from signed times, as before)
