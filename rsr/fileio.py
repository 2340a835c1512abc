"""Files as rsr touches them (docs/protocol.md, "The game directory"): bounded reads from regular files only,
atomic writes (temp file, fsync, rename) that never pass through a symbolic link, and the locks.

Hostile sources are expected: a game directory may come from a shared git repository or an email, so a
"file" can be a FIFO, ``/dev/zero``, a link to either, or a folder that is really a link out of the game.
"""

from __future__ import annotations

import os
import stat
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from rsr.errors import BadInput

if TYPE_CHECKING:
    from filelock import FileLock

LOCK_TIMEOUT = 300.0


def read_limited(path: Path | str, limit: int, what: str = "file") -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; anything else is refused with one line.

    The file is opened without blocking (a FIFO cannot hang us) and checked on the open descriptor, so a
    file swapped for a device between a check and the read is still caught.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise BadInput(f"{path}: cannot read ({exc.strerror})") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise BadInput(f"{path}: not a regular file; rsr reads a {what} only from a regular file")
        if info.st_size > limit:
            raise BadInput(f"{path}: {info.st_size} bytes is too large for a {what} (at most {limit})")
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            total += len(chunk)
            if total > limit:
                raise BadInput(f"{path}: more than {limit} bytes; too large for a {what}")
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def check_no_links(root: Path, path: Path) -> None:
    """Refuse ``path`` if it, or any folder between ``root`` and it, is a symbolic link.

    A shared repository can carry a link named ``reports`` that points anywhere; rsr must never write
    through it.
    """
    root = Path(root)
    try:
        relative = Path(path).relative_to(root)
    except ValueError as exc:
        raise BadInput(f"{path} lies outside {root}") from exc
    if root.is_symlink():
        raise BadInput(f"{root} is a symbolic link; rsr does not write through links")
    current = root
    for part in relative.parts:
        current = current / part
        if current.is_symlink():
            raise BadInput(f"{current} is a symbolic link; rsr does not write through links")


def atomic_write(path: Path, data: bytes, mode: int = 0o644, root: Path | None = None, durable: bool = True) -> None:
    """Write ``data`` to ``path`` so that a crash leaves either the old file or the new one.

    With ``root`` (a game directory), no component from ``root`` down to ``path`` may be a link. Without
    ``durable`` nothing is flushed to the disk (no fsync): for caches, whose every entry is checked when
    read, so that one lost or torn by a crash is only ignored; never for a packet, a key or a journal.
    """
    if root is not None:
        check_no_links(root, path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if root is not None:
        check_no_links(root, path)  # a link could have appeared as a folder was made
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            if durable:
                os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    if not durable:
        return
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def game_lock(game_dir: Path, timeout: float = LOCK_TIMEOUT) -> FileLock:
    """The lock every writer of a game directory holds."""
    from filelock import FileLock  # (imported on first use: reading commands start faster, docs/performance.md)

    return FileLock(str(game_dir / ".rsr.lock"), timeout=timeout)


def acquire(lock: FileLock) -> None:
    from filelock import Timeout

    try:
        lock.acquire()
    except Timeout as exc:
        raise BadInput(f"{lock.lock_file} is held by another rsr process") from exc


# lock files this process holds, by path: (descriptor, depth); a nested hold of the same file is reentrant
_HELD: dict[str, list[int]] = {}
LOCK_POLL = 0.05  # seconds between tries while another process holds a lock


def _flock(path: Path, timeout: float) -> bool:
    """Lock ``path`` with ``flock`` as filelock does on POSIX (the same lock, so either waits for the other),
    without importing filelock (some 20-40 ms of a command's start-up); False where ``flock`` is
    missing (then filelock does it)."""
    try:
        import fcntl
    except ImportError:
        return False
    key = os.path.abspath(path)
    held = _HELD.get(key)
    if held is not None:
        held[1] += 1
        return True
    fd = os.open(key, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0), 0o644)
    deadline = time.monotonic() + timeout
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            if time.monotonic() >= deadline:
                os.close(fd)
                raise BadInput(f"{path} is held by another rsr process") from None
            time.sleep(LOCK_POLL)
        except OSError:  # no flock on this file system: filelock decides what to do
            os.close(fd)
            return False
    _HELD[key] = [fd, 1]
    return True


def _unflock(path: Path) -> None:
    import fcntl

    key = os.path.abspath(path)
    held = _HELD[key]
    held[1] -= 1
    if held[1] == 0:
        del _HELD[key]
        try:
            fcntl.flock(held[0], fcntl.LOCK_UN)
        finally:
            os.close(held[0])


@contextmanager
def locked(path: Path, timeout: float = LOCK_TIMEOUT) -> Iterator[None]:
    """Hold the lock file ``path`` (made if missing, never through a link) for the block."""
    if path.is_symlink():
        raise BadInput(f"{path} is a symbolic link; rsr does not lock through links")
    path.parent.mkdir(parents=True, exist_ok=True)
    if _flock(path, timeout):
        try:
            yield
        finally:
            _unflock(path)
        return
    from filelock import FileLock

    lock = FileLock(str(path), timeout=timeout)
    acquire(lock)
    try:
        yield
    finally:
        lock.release()


@contextmanager
def game_locked(game_dir: Path, timeout: float = LOCK_TIMEOUT) -> Iterator[None]:
    """Hold the game directory's lock: every decision to write is taken and carried out inside it."""
    if not (game_dir / "turns").is_dir():
        raise BadInput(f"{game_dir} is not a game directory (no turns/)")
    with locked(game_dir / ".rsr.lock", timeout):
        yield


def cache_home() -> Path:
    """rsr's cache folder: ``$RSR_HOME/cache``, else ``rsr`` in the user's cache folder (validated scenarios,
    compiled schemas)."""
    home = os.environ.get("RSR_HOME")
    if home:
        return Path(home) / "cache"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rsr"
