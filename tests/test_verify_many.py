"""``rsr verify GAME... | FOLDER [--jobs N]`` (issue 24 target 6): many games, one line each, a summary,
and an exit status saying whether any failed; the pool's verdicts are the same as one process's."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rsr import club
from rsr.cli import main
from tests.support.games import duel_game, flip_byte

INPUTS = {2: [{"request": "r1/attack", "answer": 1}], 3: [{"request": "r1/defend", "answer": 2}]}

pytestmark = pytest.mark.usefixtures("duel_registered")


def run(*args: str) -> Any:
    out = CliRunner().invoke(main, list(args))
    assert out.exception is None or isinstance(out.exception, SystemExit), repr(out.exception)
    return out


@pytest.fixture
def club_folder(tmp_path: Path) -> Path:
    """A folder of three copies of one duel game, each in its own directory; plus a file that is no game."""
    game_dir, _ = duel_game(tmp_path / "made", INPUTS, 4)
    folder = tmp_path / "club"
    folder.mkdir()
    for name in ("a-game", "b-game", "c-game"):
        shutil.copytree(game_dir, folder / name)
    (folder / "notes.txt").write_text("not a game\n")
    (folder / "empty").mkdir()  # a folder without turns/: not a game, skipped
    return folder


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_folder_of_good_games_gives_one_line_each_and_a_summary(club_folder: Path, jobs: str) -> None:
    out = run("verify", str(club_folder), "--jobs", jobs)
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert [line.split(":")[0] for line in lines[:3]] == [f"ok   {club_folder / n}" for n in ("a-game", "b-game",
                                                                                           "c-game")]
    assert all("4 packets" in line for line in lines[:3])
    assert lines[3] == "3 games: 3 verified, 0 failed"
    assert len(lines) == 4


def test_one_bad_game_fails_the_run_and_is_named(club_folder: Path) -> None:
    bad = club_folder / "b-game"
    flip_byte(sorted((bad / "turns").iterdir())[3], 40)
    single = run("verify", str(bad))  # the same failure as verifying that game alone
    assert single.exit_code == 1
    out = run("verify", str(club_folder / "a-game"), str(bad), str(club_folder / "c-game"), "--jobs", "2")
    assert out.exit_code == 1, out.output
    lines = out.output.splitlines()
    assert lines[0].startswith("ok   ") and lines[2].startswith("ok   ")
    assert lines[1].startswith(f"FAIL {bad}: ")
    assert lines[1].split(": ", 1)[1] == single.output.strip().removeprefix("rsr: ")
    assert lines[3] == "3 games: 2 verified, 1 failed"


def test_the_pool_and_one_process_agree(club_folder: Path) -> None:
    games = club.games_named([club_folder])
    assert [g.name for g in games] == ["a-game", "b-game", "c-game"]
    flip_byte(sorted((games[0] / "turns").iterdir())[2], 30)
    alone = list(club.verify_many(games, jobs=1, dice=True))
    pooled = list(club.verify_many(games, jobs=2, dice=True))
    assert alone == pooled
    assert [v.ok for v in pooled] == [False, True, True]
    assert pooled[1].dice  # the dice audit comes back from the worker


def test_a_path_that_is_neither_a_game_nor_a_folder_of_games_is_bad_input(club_folder: Path, tmp_path: Path) -> None:
    out = run("verify", str(club_folder / "a-game"), str(club_folder / "missing"))
    assert out.exit_code == 2
    assert out.output.count("\n") == 1 and "missing is not a game directory" in out.output
    out = run("verify", str(club_folder / "empty"))
    assert out.exit_code == 2 and "holds no games" in out.output


def test_symlinked_games_are_not_followed(club_folder: Path, tmp_path: Path) -> None:
    (club_folder / "z-link").symlink_to(club_folder / "a-game")
    assert [g.name for g in club.games_named([club_folder])] == ["a-game", "b-game", "c-game"]
    out = run("verify", str(club_folder / "z-link"), str(club_folder / "a-game"))
    assert out.exit_code == 2 and "z-link" in out.output
