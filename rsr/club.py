"""``rsr verify GAME... | FOLDER``: many games checked at once, one game a process, on every core.

A club's referee (or a player with many games) verifies a whole folder of games. Every game is checked
exactly as ``rsr verify GAME`` checks one (rsr/games.py ``verify_game``: the whole log replayed from the
invitation, nothing trusted from a cache); the games are independent, so a pool of worker processes checks
them side by side. Each game gives one line, in the order the games were named (a folder's games in name
order), then one summary line. The exit status is 0 when every game verified, else the highest status of a
game that did not (1 a verification or rules failure, 2 bad input such as a folder that is not a game).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from rsr.errors import BadInput, RsrError, printable

MAX_GAMES = 100_000  # (a bound on one folder's listing)


@dataclass(frozen=True)
class GameVerdict:
    """What verifying one game found: ``code`` 0 when it verified, else the exit status of its error."""

    game: str
    code: int
    summary: str
    dice: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.code == 0

    def line(self) -> str:
        return f"{'ok  ' if self.ok else 'FAIL'} {printable(self.game, 200)}: {printable(self.summary, 300)}"


def is_game_dir(path: Path) -> bool:
    """A game directory holds ``turns/`` (a symlinked folder or turns/ is never read: it is not a game)."""
    turns = path / "turns"
    return not path.is_symlink() and path.is_dir() and not turns.is_symlink() and turns.is_dir()


def games_named(paths: Iterable[Path]) -> list[Path]:
    """The games to verify: each path that is a game directory, and for a folder that is not one, the game
    directories directly inside it in name order (symlinks skipped). A path that is neither is bad input."""
    games: list[Path] = []
    for path in paths:
        if is_game_dir(path):
            games.append(path)
            continue
        if path.is_symlink() or not path.is_dir():
            raise BadInput(f"{printable(str(path), 200)} is not a game directory nor a folder of games")
        inside = []
        with os.scandir(path) as entries:
            for count, entry in enumerate(entries):
                if count >= MAX_GAMES:
                    raise BadInput(f"{printable(str(path), 200)} holds more than {MAX_GAMES} entries")
                if not entry.is_symlink() and entry.is_dir(follow_symlinks=False) and is_game_dir(Path(entry.path)):
                    inside.append(Path(entry.path))
        if not inside:
            raise BadInput(f"{printable(str(path), 200)} is not a game directory (no turns/) and holds no games")
        games.extend(sorted(inside))
    return games


def verify_one(game_dir: Path, dice: bool = False) -> GameVerdict:
    """``rsr verify`` of one game, its failure kept as a verdict instead of raised."""
    from rsr.games import verify_game

    try:
        result = verify_game(game_dir)
    except RsrError as exc:
        return GameVerdict(str(game_dir), exc.exit_code, " ".join(str(exc).splitlines()))
    except RecursionError:
        return GameVerdict(str(game_dir), BadInput.exit_code, "input nested too deeply")
    except (OSError, UnicodeError) as exc:
        return GameVerdict(str(game_dir), BadInput.exit_code, str(exc))
    rolls = sum(len(r.rolls) for r in result.passes)
    audit: list[str] = []
    if dice:
        from rsr.report import dice_audit

        audit = list(dice_audit(result))
    return GameVerdict(str(game_dir), 0, f"{len(result.packets)} packets, {len(result.passes)} resolutions, "
                       f"{rolls} dice", audit)


def _verify_for_pool(job: tuple[Path, bool]) -> GameVerdict:
    return verify_one(*job)


def cores() -> int:
    """The processors this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def verify_many(games: Sequence[Path], jobs: int | None = None, dice: bool = False) -> Iterator[GameVerdict]:
    """Every game's verdict, in the order given, as soon as it and those before it are known. ``jobs``
    worker processes (default: one a processor, never more than there are games); 1 checks here, in turn."""
    workers = min(jobs or cores(), len(games))
    if workers <= 1:
        for game in games:
            yield verify_one(game, dice)
        return
    # fork where the system has it: the workers start with rsr already imported (the parent is one thread)
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method)) as pool:
        yield from pool.map(_verify_for_pool, [(game, dice) for game in games], chunksize=1)


def summary(verdicts: Sequence[GameVerdict]) -> str:
    failed = sum(1 for v in verdicts if not v.ok)
    return f"{len(verdicts)} games: {len(verdicts) - failed} verified, {failed} failed"


def exit_code(verdicts: Sequence[GameVerdict]) -> int:
    return max((v.code for v in verdicts), default=0)


def is_folder_of_games(path: Path) -> bool:
    """A folder that is not itself a game (``rsr verify FOLDER`` checks the games inside it)."""
    return not path.is_symlink() and path.is_dir() and not is_game_dir(path)
