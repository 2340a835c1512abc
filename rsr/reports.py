"""Reports: what a game waits for (status), receiving the opponent's packets, and the Markdown report of
each resolved pass written beside the game; each function checks everything before it writes."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rsr import progress
from rsr.engine import Position, Request
from rsr.errors import BadInput
from rsr.fileio import atomic_write, game_locked, read_limited
from rsr.gamedir import incoming, write_packets
from rsr.games import choose_key, load_game, own_key, read_packet_text, remember, stored_side
from rsr.log import (
    PassRecord,
    Replay,
    pending_pass,
    position_for_author,
)
from rsr.packet import Packet
from rsr.report import pass_markdown


@dataclass
class Status:
    result: Replay
    side: str | None
    waiting: Request | None
    next_author: str
    pending: PassRecord | None
    lines: list[str] = field(default_factory=list)  # what happens next, one thing per line (rsr.progress)


AuthorView = tuple[Position, Request | None, PassRecord | None]


def author_view(result: Replay, key_name: str | None) -> tuple[str | None, AuthorView | None]:
    """This player's side (None if no key of the game is here) and, when the next packet is theirs,
    ``position_for_author``."""
    known = stored_side(result, key_name)
    if known is not None and (result.next_author() != known or progress.is_over(result)):
        return known, None  # (not this player's packet to write: the private key is not needed)
    try:
        key = choose_key(result, key_name)
        side = next(s for s, pub in sorted(result.keys.items()) if pub == key.public_raw)
    except (BadInput, StopIteration):
        return None, None
    if result.next_author() != side or progress.is_over(result):
        return side, None
    return side, position_for_author(result, key)


def status(game_dir: Path, key_name: str | None) -> Status:
    result = load_game(game_dir)
    side, view = author_view(result, key_name)
    waiting, pending = (view[1], view[2]) if view else (_waiting(result), None)
    return Status(result, side, waiting, result.next_author(), pending, progress.next_lines(result, side, view))


def _waiting(result: Replay) -> Request | None:
    return result.passes[-1].waiting if result.passes else result.start_waiting


def pending_request(result: Replay, key_name: str | None) -> Request | None:
    """The request this player's next packet must answer, if the next packet is theirs and one is asked."""
    side, view = author_view(result, key_name)
    if view is None or view[1] is None or view[1].side != side:
        return None
    return view[1]


def receive(game_dir: Path, source: Path | str, key_name: str | None) -> tuple[list[Packet], list[Path]]:
    """Take in packets from a file, stdin or an email; decide and write inside the game lock."""
    text = read_packet_text(source)
    label = "standard input" if str(source) == "-" else str(source)
    with game_locked(game_dir):
        result = load_game(game_dir)
        new, _, after = incoming(game_dir, text, label, lambda extended: own_key(extended, key_name), result)
        if new:
            write_packets(game_dir, new, after)
            remember(after)
            _RECEIVED[game_dir] = after
        return new, write_reports(game_dir, key_name, after)


_RECEIVED: dict[Path, Replay] = {}  # what ``receive`` just wrote, for its summary (same command, no re-read)


def receive_summary(game_dir: Path, new_seqs: list[int], key_name: str | None) -> list[str]:
    """What ``rsr receive`` prints after taking packets in (rsr.progress.receive_summary)."""
    if not new_seqs:
        return []
    result = _RECEIVED.pop(game_dir, None) or load_game(game_dir)
    side, view = author_view(result, key_name)
    return progress.receive_summary(result, side, new_seqs, view)


def resolutions(result: Replay, key_name: str | None, seq: int | None = None) -> list[PassRecord]:
    """Every resolution in the log, plus the one this player's next packet will record (if any);
    with ``seq``, only the resolution of that packet."""
    records = list(result.passes)
    try:
        mine = pending_pass(result, choose_key(result, key_name))
        if mine is not None:
            records.append(mine)
    except BadInput:
        pass  # no key of this game here: a third party sees the log's resolutions only
    if seq is not None:
        records = [r for r in records if r.resolved == seq]
        if not records and not result.complete:  # started from a checkpoint: an old packet's pass
            found = old_resolution(result, seq)
            records = [found] if found is not None else []
        if not records:
            raise BadInput(f"packet {seq} has not been resolved yet")
    return records


def old_resolution(result: Replay, seq: int) -> PassRecord | None:
    """The pass that resolved packet ``seq`` when ``result`` started from a checkpoint after it: replayed from
    the milestone checkpoint before it (rsr/cache.py), not from the start of the game."""
    if result.complete or not 1 <= seq < len(result.packets) - 1:
        return next((r for r in result.passes if r.resolved == seq), None)
    from rsr.cache import HomeCheckpoints

    return next((r for r in HomeCheckpoints().replay_to(result.packets, seq).passes if r.resolved == seq), None)


def report_text(result: Replay, record: PassRecord) -> str:
    """The report of one pass; the pass that ends the game also says who won, and by which case."""
    text = pass_markdown(result, record)
    if record.waiting is None:
        verdict = progress.game_result(result, record.after.state)
        said = progress.verdict_text(verdict)
        text = text.rstrip("\n") + "\n\n## Result\n\n" + said[:1].upper() + said[1:] + ".\n"
    return text


def write_reports(game_dir: Path, key_name: str | None, result: Replay | None = None) -> list[Path]:
    """Reports of the passes in the log, and of the pass my next packet will carry (never through a link).

    A report once written does not change, so only missing ones and the newest two are rendered.
    """
    result = result or load_game(game_dir)
    records = resolutions(result, key_name)
    written = []
    for number, record in enumerate(records):
        author = result.packets[record.resolved].side
        path = game_dir / "reports" / f"{record.resolved:04d}-{author}.md"
        if number < len(records) - 2 and path.is_file() and not path.is_symlink():
            written.append(path)
            continue
        text = report_text(result, record)
        if not _holds(path, text.encode()):
            atomic_write(path, text.encode(), root=game_dir)
        written.append(path)
    return written


def _holds(path: Path, data: bytes) -> bool:
    """Whether ``path`` is a regular file (not a link) holding ``data``; a FIFO or a device is never read."""
    if path.is_symlink() or not path.exists():
        return False
    try:
        return read_limited(path, len(data), "report") == data
    except BadInput:
        return False
