"""The signing journal: every packet this player's rsr signed, kept in the rsr home (docs/protocol.md,
"No secret is committed twice").

A player's secrets are derived from the private key, the game id, the player's own fresh nonce and the
seq. Signing two different packets at one seq of one game would commit the same secret twice, and the
second time the opponent may already have seen it revealed. The journal makes that impossible on this
machine: before rsr signs packet N of a game it checks that it never signed a packet N of that game, and
it keeps a copy of everything it signed, so a game directory that lost packets (a ``git reset``, a
restored backup) can be put back instead of signed again. It is the same idea as a validator's
slashing-protection database.
"""

from __future__ import annotations

from pathlib import Path

from rsr import keys as keystore
from rsr.errors import BadInput
from rsr.fileio import atomic_write, locked, read_limited
from rsr.packet import MAX_ARMOR_BYTES, Packet, extract_blocks


def journal_dir() -> Path:
    return keystore.home() / "journal"


def entry_path(game_id: str, seq: int) -> Path:
    return journal_dir() / game_id / f"{seq:06d}.rsr"


def signed_payload(game_id: str, seq: int) -> bytes | None:
    """The payload bytes of the packet this machine signed at ``seq`` of ``game_id``, if any."""
    path = entry_path(game_id, seq)
    if not path.exists() and not path.is_symlink():
        return None
    try:
        blocks = extract_blocks(read_limited(path, MAX_ARMOR_BYTES, "journal entry").decode("utf-8", "replace"))
    except BadInput as exc:
        # what was signed there is unknown, so nothing may be signed in its place
        raise BadInput(f"your journal entry {path} is damaged ({exc}); rsr will not sign packet {seq} of game "
                       f"{game_id[:8]} until it holds the packet you sent (copy it from the game's turns/ or "
                       "your sent mail)") from exc
    return blocks[0].payload_bytes


def refuse_if_signed(game_id: str, seq: int) -> None:
    """Refuse to sign packet ``seq`` of a game when this machine already signed one."""
    if signed_payload(game_id, seq) is not None:
        path = entry_path(game_id, seq)
        raise BadInput(
            f"you already signed packet {seq} of game {game_id[:8]} (your journal keeps it: {path}); signing "
            f"a different packet {seq} would let your opponent know your dice. Put it back with "
            f"'rsr receive GAME_DIR {path}' and send it again")


def accepted_before(game_id: str) -> Path | None:
    """Where this machine keeps its acceptance of ``game_id``, if it ever accepted that game."""
    path = entry_path(game_id, 1)
    return path if path.exists() else None


def record(packet: Packet) -> None:
    """Keep ``packet`` as signed; refuse if a different packet of that game and seq is already kept.

    Called after every check and before the packet is written anywhere else, under the journal's lock.
    """
    path = entry_path(packet.game, packet.seq)
    with locked(journal_dir() / ".lock"):
        existing = signed_payload(packet.game, packet.seq)
        if existing is not None:
            if existing == packet.payload_bytes:
                return
            raise BadInput(f"your journal already holds a different packet {packet.seq} of game "
                           f"{packet.game[:8]} ({path}); refusing to sign a second one")
        atomic_write(path, packet.armored().encode(), mode=0o600)
