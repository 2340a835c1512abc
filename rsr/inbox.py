"""``rsr inbox``: the games under a folder, whose packet is next, and what waits for each of them.

A game directory is ``game-*`` holding ``turns/``: the folder itself, its children, or its grandchildren
(a folder of cloned repositories). With a mailbox, every message is read once and its packets sorted per
game (rsr.gamedir.sort_packets); with ``--git``, each game's repository is fetched and the packets it adds
to the game are counted. Invitations in the mailbox that no game directory answers yet are listed too.
"""

from __future__ import annotations

from pathlib import Path

from rsr import keys as keystore
from rsr.errors import RsrError
from rsr.gamedir import game_dir_name, sort_packets
from rsr.packet import Armored
from rsr.progress import is_over
from rsr.safetext import visible
from rsr.transcription import sheet_name
from rsr.words import plural


def game_dirs(folder: Path) -> list[Path]:
    if (folder / "turns").is_dir():
        return [folder]
    found = sorted(p for p in folder.glob("game-*") if (p / "turns").is_dir())
    found += sorted(p for p in folder.glob("*/game-*") if (p / "turns").is_dir())
    return found


def turn_line(game_dir: Path) -> tuple[str, str | None]:
    """``game-1a2b3c4d  red-star july-1939-contact  7 packets  your packet next``, and the game id."""
    from rsr.cache import HomeCheckpoints

    try:
        result = HomeCheckpoints().load(game_dir)  # (from this home's checkpoints, as status)
    except RsrError as exc:
        return f"{game_dir}  cannot be read: {exc}", None
    mine = keystore.find_keys_for(result.keys)
    next_side = result.next_author()
    if is_over(result):
        turn = "the game is over"
    elif next_side in mine:
        turn = f"your packet next ({next_side})"
    else:
        turn = f"waiting for {next_side}"
    line = f"{game_dir}  {result.ruleset.id} {result.scenario.name}  {plural(len(result.packets), 'packet')}  {turn}"
    return line, result.game_id


def inbox_lines(folder: Path, messages: list[bytes] | None, use_git: bool) -> list[str]:
    from rsr.cache import checked_log
    from rsr.mail import read as mail_read

    dirs = game_dirs(folder)
    skipped: list[str] = list(getattr(messages, "skipped", []))
    blocks: list[Armored] = []
    if messages is not None:
        blocks = mail_read.mailbox_blocks(messages, skipped)
    lines = []
    known_games = set()
    for game_dir in dirs:
        line, game_id = turn_line(game_dir)
        if game_id is None:
            lines.append(line)
            continue
        known_games.add(game_id)
        extra = []
        try:
            if messages is not None:
                found = sort_packets(blocks, checked_log(game_dir))  # (from this home's record, as turn_line)
                if found.new:
                    extra.append(f"{plural(len(found.new), 'new packet')} in the mailbox "
                                 f"({', '.join(str(p.seq) for p in found.new)}): "
                                 f"rsr receive {game_dir} with the same mailbox option")
                if found.conflicting:
                    extra.append(f"{plural(len(found.conflicting), 'conflicting packet')} in the mailbox")
                if found.after_gap:
                    extra.append(f"packets {', '.join(map(str, found.after_gap))} wait for an earlier one")
            if use_git:
                from rsr import gitsync

                waiting = gitsync.unreceived(game_dir)
                if waiting:
                    extra.append(f"{plural(len(waiting), 'new packet')} in the remote: rsr receive {game_dir} --git")
        except RsrError as exc:
            extra.append(f"cannot check: {exc}")
        lines.append(line + ("  " + "; ".join(extra) if extra else ""))
    if messages is not None:
        for packet, sender, _ in mail_read.invitations(messages):
            if packet.game in known_games:
                continue
            invite = packet.payload["invite"]
            lines.append(f"invitation to game {packet.game[:8]} ({game_dir_name(packet.game)}) from "
                         f"{visible(sender or invite['names'].get(packet.side, '?'), 200)}: "
                         f"{visible(invite['ruleset'], 80)} {visible(invite['scenario'], 80)}, they play "
                         f"{packet.side}" + (", on their transcription of the printed " + " and ".join(
                             visible(sheet_name(d.get("kind")), 20) for d in invite["data"])
                             if invite.get("data") else "")
                         + f": rsr accept --game {packet.game[:8]} --key YOURKEY (with the same mailbox option; "
                         "--preview shows the terms first)")
    lines += [visible(line, 300) for line in skipped]  # one bad message never hides the others
    if not lines:
        lines.append(f"no game directories under {folder}")
    return lines
