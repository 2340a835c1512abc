"""Issue 3 acceptance: a full Russian and a full Japanese Land Movement Stage (with their Reinforcement
Stages' unit assignment, RSR 14.0) played through packet files between two keys, then verified."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from rsr.cli import main

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("korea") / "demo"
    result = CliRunner().invoke(main, ["demo", "--out", str(out), "--scenario", "korea-1904"])
    assert result.exit_code == 0, result.output
    assert "5 packets were mailed" in result.output
    return out


def test_both_copies_and_the_audit_copy_verify(played: Path) -> None:
    for game_dir in sorted(played.glob("players/*/games/game-*")) + sorted(played.glob("audit/game-*")):
        out = CliRunner().invoke(main, ["verify", str(game_dir), "--dice"])
        assert out.exit_code == 0, out.output
        assert "activation of" in out.output  # RSR 9.11 rolls are in the dice audit
    audit = next(played.glob("audit/game-*"))
    run = subprocess.run([sys.executable, str(REPO / "tools" / "independent_verify.py"), str(audit)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr


def test_reports_show_activation_rolls_and_moves(played: Path) -> None:
    reports = {p.name: p.read_text() for p in next(played.glob("players/alice/games/game-*")).glob("reports/*.md")}
    russian = reports["0002-russia.md"]
    assert "## Activation" in russian and "| unit | die | season | total | response |" in russian
    assert "ru-shq-kuropatkin" in russian and "spring" in russian
    assert "RSR 14.0" in russian  # the Reinforcement Stage assigned the unassigned 19.2 units
    japanese = reports["0003-japan.md"]
    assert "jp-1a" in japanese and "jp-2a" in japanese


def test_the_orders_were_real_files(played: Path) -> None:
    orders = sorted((played / "mail").glob("*-orders-*.yaml"))
    assert [p.name for p in orders][:2] == ["0002-orders-alice.yaml", "0003-orders-bob.yaml"]
    text = orders[0].read_text()
    assert "t4/russia/reinforcement/assign" in text and "t4/russia/movement/orders" in text


def test_map_command_draws_the_position_and_moves(played: Path, tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    game_dir = next(played.glob("players/alice/games/game-*"))
    svg = tmp_path / "map.svg"
    out = CliRunner().invoke(main, ["map", str(game_dir), "2", "--out", str(svg), "--whole"])
    assert out.exit_code == 0, out.output
    root = ET.parse(svg).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    hexes = [p for p in root.findall(f"{ns}polygon") if p.find(f"{ns}title") is not None]
    assert len(hexes) == 33 * 40  # every hex of the provisional map (--whole; the default crops to the action)
    titles = " ".join(t.text or "" for t in root.iter(f"{ns}title"))
    assert "ru-pa-stoessel" in titles and "jp-1a" in titles
    bad = CliRunner().invoke(main, ["map", str(game_dir), "99", "--out", str(svg)])
    assert bad.exit_code == 2 and "not been resolved" in bad.output
