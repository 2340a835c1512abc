"""The sample game: two generated keys, real packet files, three verified copies (issue 2 acceptance)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rsr.cli import main

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo") / "demo"
    result = CliRunner().invoke(main, ["demo", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "the game is over and every die is public" in result.output
    return out


def test_demo_games_verify_through_the_command_line(demo_dir: Path) -> None:
    copies = sorted(demo_dir.glob("players/*/games/game-*")) + sorted(demo_dir.glob("audit/game-*"))
    assert len(copies) == 3
    outputs = set()
    for game_dir in copies:
        out = CliRunner().invoke(main, ["verify", str(game_dir), "--dice"])
        assert out.exit_code == 0, out.output
        outputs.add(out.output)
    assert len(outputs) == 1, "every copy replays to the same dice"


def test_demo_game_passes_the_independent_checker(demo_dir: Path) -> None:
    """tools/independent_verify.py was written from docs/protocol.md alone, not from rsr's code."""
    audit = next(demo_dir.glob("audit/game-*"))
    run = subprocess.run([sys.executable, str(REPO / "tools" / "independent_verify.py"), str(audit)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "dice checked" in run.stdout


def test_demo_reports_show_combat_and_flag_provisional_data(demo_dir: Path) -> None:
    reports = sorted(demo_dir.glob("players/alice/games/game-*/reports/*.md"))
    assert reports
    text = "\n".join(p.read_text() for p in reports)
    assert "## Combats" in text and "| # | defender hex |" in text
    assert "RSR 11.2" in text


def test_demo_refuses_a_non_empty_folder(tmp_path: Path) -> None:
    (tmp_path / "x").write_text("")
    out = CliRunner().invoke(main, ["demo", "--out", str(tmp_path)])
    assert out.exit_code == 2 and "not empty" in out.output
