"""Issue 4 acceptance: a complete Russian and Japanese Land Sequence of Play (supply, reinforcement,
movement, up to three assault rounds, End Stage) through packet files between two keys, verified."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rsr.cli import main

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("turn") / "demo"
    result = CliRunner().invoke(main, ["demo", "--out", str(out), "--scenario", "liaoyang-turn-1904"])
    assert result.exit_code == 0, result.output
    return out, result.output


def test_the_whole_turn_verifies_everywhere(played: tuple[Path, str]) -> None:
    out, output = played
    packets = int(re.search(r"(\d+) packets were mailed", output).group(1))  # type: ignore[union-attr]
    assert 5 <= packets <= 30  # rounds and combats depend on the dice, hence on the random keys
    for game_dir in sorted(out.glob("players/*/games/game-*")) + sorted(out.glob("audit/game-*")):
        result = CliRunner().invoke(main, ["verify", str(game_dir)])
        assert result.exit_code == 0, result.output
    audit = next(out.glob("audit/game-*"))
    run = subprocess.run([sys.executable, str(REPO / "tools" / "independent_verify.py"), str(audit)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr


def test_every_stage_of_both_land_sequences_ran(played: tuple[Path, str]) -> None:
    out, _ = played
    reports = "\n".join(p.read_text() for p in sorted(out.glob("players/alice/games/game-*/reports/*.md")))
    for stage in ("Russian Land Movement Stage ends", "Russian Land Combat Stage ends",
                  "Japanese Land Movement Stage ends", "Japanese Land Combat Stage ends", "end of game turn 7"):
        assert stage in reports, stage
    assert "RSR 4.35" in reports and "trenches" in reports
