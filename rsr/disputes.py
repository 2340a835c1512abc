"""Proofs kept in a game's ``disputes/`` folder, read back for ``rsr verify`` and ``rsr status``
(docs/protocol.md, "The game directory").

A proof of equivocation is two different packets at one seq, both signed by the same player of this game.
The file's own words are not trusted (in a shared git repository anyone may commit one): each proof is
checked again from its packets, against the keys the log pins.
"""

from __future__ import annotations

from pathlib import Path

from rsr.errors import BadInput, VerificationError
from rsr.fileio import read_limited
from rsr.log import Replay
from rsr.packet import Packet, extract_blocks, open_packet

MAX_PROOF_BYTES = 4 * 1024 * 1024
MAX_PROOFS = 200


def equivocations(game_dir: Path, result: Replay) -> list[str]:
    """One line per checked proof of equivocation in ``disputes/``: who signed two packets at which seq."""
    folder = game_dir / "disputes"
    if folder.is_symlink() or not folder.is_dir():
        return []
    lines: list[str] = []
    for path in sorted(folder.glob("*.txt"))[:MAX_PROOFS]:
        pair = _proof(path, result)
        if pair is not None:
            first, second = pair
            lines.append(f"equivocation: {first.side} signed two different packets at seq {first.seq} "
                         f"(proof: disputes/{path.name})")
    return lines


def _proof(path: Path, result: Replay) -> tuple[Packet, Packet] | None:
    if path.is_symlink():
        return None
    try:
        text = read_limited(path, MAX_PROOF_BYTES, "dispute file").decode("utf-8", errors="replace")
        packets = [open_packet(block, result.keys) for block in extract_blocks(text)]
    except (BadInput, VerificationError, OSError):
        return None
    for i, first in enumerate(packets):
        for second in packets[i + 1:]:
            if first.game == second.game == result.game_id and first.seq == second.seq and \
                    first.side == second.side and first.payload_bytes != second.payload_bytes:
                return first, second
    return None
