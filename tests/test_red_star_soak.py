"""Soak: the bots play whole Red Sun/Red Star games by mail (RS/RS 3.1, 13.1); every copy verifies.

Each game is run by ``rsr.demo.run_demo`` with ``ruleset_id="red-star"``: two fresh key pairs, orders files
written from what each player's own copy asks, signed packets mailed back and forth, and a third party's
copy rebuilt from the mailed packets. Three games per scenario, so three different pairs of keys and three
different dice streams. Slow (the full July scenario is eleven game turns), so behind the ``soak`` marker:
``make soak``. The one-turn game also runs in the normal suite (test_fewer_packets.py).
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
SCENARIOS = ["july-1939-contact", "july-1939"]


@pytest.mark.soak
@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("game", range(3))
def test_bots_play_red_star_and_every_copy_verifies(tmp_path: Path, scenario: str, game: int) -> None:
    out = tmp_path / f"{scenario}-{game}"
    alice = run_demo(out, echo=lambda _: None, scenario=scenario, ruleset_id="red-star")
    copies = [alice, *out.glob("players/bob/games/game-*"), *out.glob("audit/game-*")]
    assert len(copies) == 3, copies

    first = replay(load_log(alice))
    assert first.passes and first.passes[-1].waiting is None, "the game ran to its end"
    final = first.passes[-1].after.state
    assert final.finished and final.turn == len(final.dates), "every game turn of the scenario was played"
    events = [e for record in first.passes for e in record.events]
    assert any(e.kind == "game-over" for e in events), "the scenario was scored (RS/RS 13.1)"
    for side in ("japan", "soviet"):
        assert any(e.kind == "segment" and e.data.get("segment") == f"{side}.movement" for e in events)
    assert any(e.kind == "moved" for e in events), "the bots moved units"

    hashes = [p.state_hash for p in first.passes]
    for copy in copies[1:]:
        again = replay(load_log(copy))
        assert [p.state_hash for p in again.passes] == hashes, f"{copy} replays to the same positions"
    for copy in copies:
        run = subprocess.run([sys.executable, str(REPO / "tools" / "independent_verify.py"), str(copy)],
                             capture_output=True, text=True, check=False)
        assert run.returncode == 0, f"{copy}: " + run.stdout + run.stderr
