"""What this player's machine remembers about a game that is not part of the signed log.

``<game dir>/local.yaml`` holds the opponent's email address (set by ``rsr new --opponent-email`` or read
from the invitation's From by ``rsr accept``). It is unsigned, local and never shared: the game directory's
``.gitignore`` keeps it out of a shared repository, and nothing in it changes how the game replays.
"""

from __future__ import annotations

from email.utils import getaddresses, parseaddr
from pathlib import Path
from typing import Any

from rsr.errors import BadInput
from rsr.fileio import atomic_write
from rsr.yamlio import dump_yaml, load_yaml_file

LOCAL_FILE = "local.yaml"
IGNORED = (".rsr.lock", LOCAL_FILE, "outbox/")


def check_address(address: str, where: str) -> str:
    """One plain address (``name@host`` or ``Name <name@host>``), or bad input saying why."""
    pairs = getaddresses([address])
    if len(pairs) != 1 or "@" not in pairs[0][1] or any(c in pairs[0][1] for c in " \r\n<>,"):
        raise BadInput(f"{where}: {address!r} is not one email address")
    return address.strip()


def load_local(game_dir: Path) -> dict[str, Any]:
    path = game_dir / LOCAL_FILE
    if not path.exists():
        return {}
    data = load_yaml_file(path)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise BadInput(f"{path}: expected a mapping")
    return data


def opponent_email(game_dir: Path) -> str | None:
    value = load_local(game_dir).get("opponent_email")
    return str(value) if value else None


def record_opponent_email(game_dir: Path, address: str) -> None:
    data = load_local(game_dir)
    data["opponent_email"] = check_address(address, "opponent email")
    atomic_write(game_dir / LOCAL_FILE, dump_yaml(data).encode())
    ignore_local_files(game_dir)


def ignore_local_files(game_dir: Path) -> None:
    """Keep the lock, local.yaml and the outbox of written emails out of a shared repository."""
    path = game_dir / ".gitignore"
    lines = path.read_text().splitlines() if path.exists() else []
    missing = [name for name in IGNORED if name not in lines]
    if missing:
        atomic_write(path, ("\n".join(lines + missing) + "\n").encode())


def sender_of(raw_text: str) -> str | None:
    """The From address of an email message, or None when the text is not an email (a bare packet file)."""
    import email
    import email.policy

    head = raw_text[:65536].replace("\r\n", "\n")
    if "BEGIN RSR PACKET" in head.split("\n\n", 1)[0]:
        return None
    message = email.message_from_string(head, policy=email.policy.compat32)
    sender = message.get("From")
    if not sender:
        return None
    name, address = parseaddr(str(sender))
    if "@" not in address:
        return None
    return f"{name} <{address}>" if name else address
