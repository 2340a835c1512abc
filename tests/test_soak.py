"""Soak: bots play whole scenarios through the real packet exchange many times; every game verifies.

Slow, so behind the ``soak`` marker: ``make soak``. A quick one-game version of each runs in the normal
suite (test_demo.py, test_rsr_movement_exchange.py, test_rsr_land_turn_exchange.py).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rsr.demo import run_demo
from rsr.gamedir import load_log
from rsr.log import replay

REPO = Path(__file__).resolve().parents[1]
SCENARIOS = ["liaoyang-1904", "korea-1904", "liaoyang-turn-1904"]


@pytest.mark.soak
@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("game", range(8))
def test_bots_play_and_every_game_verifies(tmp_path: Path, scenario: str, game: int) -> None:
    out = tmp_path / f"{scenario}-{game}"
    game_dir = run_demo(out, echo=lambda _: None, scenario=scenario)
    first = replay(load_log(game_dir))
    assert first.passes and first.passes[-1].waiting is None, "the game ran to its end"
    again = replay(load_log(next(out.glob("audit/game-*"))))
    assert [p.state_hash for p in again.passes] == [p.state_hash for p in first.passes]
    run = subprocess.run([sys.executable, str(REPO / "tools" / "independent_verify.py"), str(game_dir)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
