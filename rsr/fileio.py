"""Atomic writes (temp file, fsync, rename) and the game-directory lock (docs/protocol.md)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from filelock import FileLock, Timeout

from rsr.errors import BadInput


def atomic_write(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Write ``data`` to ``path`` so that a crash leaves either the old file or the new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def game_lock(game_dir: Path, timeout: float = 10.0) -> FileLock:
    """The lock every writer of a game directory holds. Use as a context manager."""
    lock = FileLock(str(game_dir / ".rsr.lock"), timeout=timeout)
    return lock


def acquire(lock: FileLock) -> None:
    try:
        lock.acquire()
    except Timeout as exc:
        raise BadInput(f"{lock.lock_file} is held by another rsr process") from exc
