"""What this player's machine remembers about a game that is not part of the signed log.

``<game dir>/local.yaml`` holds the opponent's email address (set by ``rsr new --opponent-email`` or read
from the invitation's From by ``rsr accept``). It is unsigned, local and never shared: the game directory's
``.gitignore`` keeps it out of a shared repository, and nothing in it changes how the game replays.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from rsr.errors import BadInput, printable
from rsr.fileio import atomic_write, read_limited
from rsr.yamlio import MAX_YAML_BYTES, dump_yaml, load_yaml_file

LOCAL_FILE = "local.yaml"
# local files: the lock, addresses, written emails, and what rsr derives from the packets (reports, game.yaml,
# disputes), which every command rewrites and a shared repository never carries
IGNORED = (".rsr.lock", ".cache/", LOCAL_FILE, "outbox/", "reports/", "game.yaml", "disputes/")
MAX_IGNORE_FILE = 64 * 1024


def check_address(address: str, where: str) -> str:
    """One plain address (``name@host`` or ``Name <name@host>``), or bad input saying why."""
    if any(not ch.isprintable() for ch in address) or "=?" in address:
        raise BadInput(f"{where}: {printable(address)} holds control characters or encoded words; "
                       "not one email address")
    from email.utils import getaddresses

    pairs = getaddresses([address])
    if len(pairs) != 1 or "@" not in pairs[0][1] or any(c in pairs[0][1] for c in " \r\n<>,"):
        raise BadInput(f"{where}: {printable(address)} is not one email address")
    return address.strip()


def load_local(game_dir: Path) -> dict[str, Any]:
    path = game_dir / LOCAL_FILE
    if path.is_symlink():
        raise BadInput(f"{path} is a symbolic link; rsr never reads through a link (remove it)")
    if not path.exists():
        return {}
    data = _plain_counts(path)
    if data is None:
        data = load_yaml_file(path)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise BadInput(f"{path}: expected a mapping")
    return data


def opponent_email(game_dir: Path) -> str | None:
    value = load_local(game_dir).get("opponent_email")
    return check_address(str(value), f"{game_dir / LOCAL_FILE} opponent_email") if value else None


def record_opponent_email(game_dir: Path, address: str) -> None:
    data = load_local(game_dir)
    data["opponent_email"] = check_address(address, "opponent email")
    atomic_write(game_dir / LOCAL_FILE, dump_yaml(data).encode(), root=game_dir)
    ignore_local_files(game_dir)


def remember_local(game_dir: Path, key: str, value: Any) -> None:
    """Set one entry of local.yaml (what this machine remembers, never shared)."""
    data = load_local(game_dir)
    data[key] = value
    atomic_write(game_dir / LOCAL_FILE, (_counts_yaml(data) or dump_yaml(data)).encode(), root=game_dir)
    ignore_local_files(game_dir)


# local.yaml holding only counts (``shown_through: 57``, written by every receive) is read and written
# without the YAML library, whose import is some 15-40 ms of a command's start-up; the text is
# the one PyYAML writes and reads for such a mapping, and anything else goes through PyYAML (a name holds a _,
# so it is never one YAML reads as null or a boolean)
_COUNT_LINE = re.compile(r"([a-z]{1,30}_[a-z_]{1,30}): (0|[1-9][0-9]{0,15})")


def _plain_counts(path: Path) -> dict[str, Any] | None:
    """local.yaml read as plain ``name: count`` lines (None: not that simple, or a name twice)."""
    text = read_limited(path, MAX_YAML_BYTES, "YAML file")  # (as load_yaml_file reads it: the same refusals)
    if not text.isascii() or not text.endswith(b"\n"):
        return None
    data: dict[str, Any] = {}
    for line in text.decode("ascii")[:-1].split("\n"):
        match = _COUNT_LINE.fullmatch(line)
        if match is None or match[1] in data:
            return None
        data[match[1]] = int(match[2])
    return data


def _counts_yaml(data: dict[str, Any]) -> str | None:
    """``data`` as PyYAML writes it when it holds only counts under plain names, else None."""
    lines = [f"{key}: {value}" for key, value in data.items()
             if isinstance(key, str) and type(value) is int and _COUNT_LINE.fullmatch(f"{key}: {value}")]
    return "\n".join(lines) + "\n" if data and len(lines) == len(data) else None


def ignore_local_files(game_dir: Path) -> None:
    """Keep the lock, local.yaml and the outbox of written emails out of a shared repository."""
    path = game_dir / ".gitignore"
    if path.is_symlink():  # a committed link would make rsr read (and push) its target
        raise BadInput(f"{path} is a symbolic link; rsr never reads or writes through a link (remove it)")
    text = read_limited(path, MAX_IGNORE_FILE, ".gitignore").decode("utf-8", "replace") if path.exists() else ""
    lines = text.splitlines()
    missing = [name for name in IGNORED if name not in lines]
    if missing:
        atomic_write(path, ("\n".join(lines + missing) + "\n").encode(), root=game_dir)


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
    from email.utils import parseaddr

    name, address = parseaddr(str(sender))
    if "@" not in address or any(not ch.isprintable() or ch in " <>," for ch in address):
        return None
    try:  # an encoded display name may hide CR LF: keep it only when it decodes to one printable line
        from email.header import decode_header, make_header

        name = str(make_header(decode_header(name))) if name else ""
    except (ValueError, LookupError, UnicodeError):
        name = ""
    if not name or "=?" in name or any(not ch.isprintable() or ch in '"<>\\,;:@()[]' for ch in name):
        return address
    return f"{name} <{address}>"
