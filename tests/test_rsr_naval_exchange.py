"""Issue 12 acceptance: a Strategic Naval Sequence of Play (RSR 4.1) with a blockade (RSR 15.0), a raid on
merchants (RSR 7.2), a transport that lands a Japanese army (RSR 7.4, RSR 7.5), mines (RSR 16.0) and the
Baltic fleet's arrival (RSR 19.2), played through packet files between two keys and verified."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from rsr.cli import main
from rsr.rulesets.red_sun_rising.naval import bot


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("naval") / "demo"
    result = CliRunner().invoke(main, ["demo", "--out", str(out), "--scenario", "naval-1905"])
    assert result.exit_code == 0, result.output
    return out, result.output


@pytest.fixture(scope="module")
def played_round_by_round(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The same Naval Sequence with both sides asking to be asked every round (the bot's choice only)."""
    out = tmp_path_factory.mktemp("naval-rounds") / "demo"
    original = bot.answer
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bot, "answer", lambda state, request: original(state, request, round_by_round=True))
        result = CliRunner().invoke(main, ["demo", "--out", str(out), "--scenario", "naval-1905"])
    assert result.exit_code == 0, result.output
    return out, result.output


def _packets(output: str) -> int:
    return int(re.search(r"(\d+) packets were mailed", output).group(1))  # type: ignore[union-attr]


@pytest.mark.soak  # a second whole demo game; the cheap engine-level count is in test_rsr_naval.py
def test_packets_with_sailing_orders_and_round_by_round(played: tuple[Path, str],
                                                        played_round_by_round: tuple[Path, str]) -> None:
    """Issue 12 item 4 (RSR 4.14, 7.0): sailing orders need one packet a side for the Naval Sequence; asked
    round by round, each of the ten rounds costs a packet a side. Both games verify."""
    orders, rounds = _packets(played[1]), _packets(played_round_by_round[1])
    assert rounds - orders >= 18
    out = played_round_by_round[0]
    for game_dir in sorted(out.glob("audit/game-*")):
        result = CliRunner().invoke(main, ["verify", str(game_dir)])
        assert result.exit_code == 0, result.output
    reports = "\n".join(p.read_text() for p in sorted(out.glob("players/alice/games/game-*/reports/*.md")))
    assert "raids naval hex" in reports and "transfers from naval hex" in reports


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


@pytest.mark.soak  # a whole first Game-Turn from the printed set-up
def test_february_1904_first_turn_through_packets(tmp_path: Path) -> None:
    """RSR 19.1, RSR 19.2, RSR 7.4, RSR 7.5: the armies embark in the home ports and land in Korea by the naval
    game, then both land sequences run; every copy verifies."""
    out = tmp_path / "demo"
    result = CliRunner().invoke(main, ["demo", "--out", str(out), "--scenario", "naval-1904"])
    assert result.exit_code == 0, result.output
    reports = "\n".join(p.read_text() for p in sorted(out.glob("players/alice/games/game-*/reports/*.md")))
    assert "transfers from naval hex" in reports and "embarks" in reports
    assert "lost at sea" not in reports
    for game_dir in sorted(out.glob("audit/game-*")):
        assert CliRunner().invoke(main, ["verify", str(game_dir)]).exit_code == 0
