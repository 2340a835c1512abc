"""Issue 12 acceptance: a Strategic Naval Sequence of Play (RSR 4.1) with a blockade (RSR 15.0), a raid on
merchants (RSR 7.2), a transport that lands a Japanese army (RSR 7.4, RSR 7.5), mines (RSR 16.0) and the
Baltic fleet's arrival (RSR 19.2), played through packet files between two keys and verified."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from rsr.cli import main


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("naval") / "demo"
    result = CliRunner().invoke(main, ["demo", "--out", str(out), "--scenario", "naval-1905"])
    assert result.exit_code == 0, result.output
    return out, result.output


def test_naval_sequence_through_packets_verifies(played: tuple[Path, str]) -> None:
    out, output = played
    packets = int(re.search(r"(\d+) packets were mailed", output).group(1))  # type: ignore[union-attr]
    assert packets <= 8  # sailing orders: one packet a side for the whole Naval Sequence
    for game_dir in sorted(out.glob("players/*/games/game-*")) + sorted(out.glob("audit/game-*")):
        result = CliRunner().invoke(main, ["verify", str(game_dir)])
        assert result.exit_code == 0, result.output
    reports = "\n".join(p.read_text() for p in sorted(out.glob("players/alice/games/game-*/reports/*.md")))
    for text in ("enters the map in naval hex", "raids naval hex", "is on blockade in naval hex",
                 "lays mines", "embarks", "transfers from naval hex", "Attrition Stage ends", "Naval routes"):
        assert text in reports, text
    landing = next(line for line in reports.splitlines() if "transfers from naval hex" in line)
    assert "jp-4a" in landing and "jp-10" in landing  # the 4th Army lands on the land map (RSR 7.5)
