"""The campaign scenario (campaign-1904) played through real packets by the bots: the full Game-Turn of RSR 4.0
(the Strategic Naval Sequence, both Land Sequences, the End Stage) repeated month by month from the Turn Record
Track, until RSR 19.4 ends the game. A short game here; the ``soak`` marker plays whole campaigns and prints
months played, packets per month and the winner."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from rsr import games as game_actions
from rsr import scenario
from rsr.demo import run_demo
from rsr.rulesets import get_ruleset
from rsr.scenario import SCENARIO_ROOT, available


def _play(tmp_path: Path) -> tuple[dict[str, object], list[str], int]:
    alice = run_demo(tmp_path / "demo", echo=lambda _: None, scenario="campaign-1904")
    result = game_actions.load_game(alice, cache=False)
    state = result.position.state
    assert state.finished and state.result is not None, "the campaign ends by RSR 19.4"
    events = [e for record in result.passes for e in record.events]
    months = [e.text for e in events if e.kind == "stage" and e.text.startswith("end of game turn")]
    return dict(state.result), months, len(result.packets)


def _bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, months: int) -> None:
    """A copy of the scenario folder whose campaign stops after ``months`` turns (the short test's bound)."""
    root = tmp_path / "scenarios"
    shutil.copytree(SCENARIO_ROOT / "red-sun-rising", root / "red-sun-rising")
    spec = root / "red-sun-rising" / "campaign-1904.yaml"
    spec.write_text(spec.read_text().replace("turns: 23\n", f"turns: {months}\n"))
    monkeypatch.setattr(scenario, "SCENARIO_ROOT", root)


def test_the_campaign_is_listed() -> None:
    assert "campaign-1904" in available("red-sun-rising")


def test_no_city_is_required_at_the_end_of_february_1904_in_the_campaign() -> None:
    """RSR 19.4 (provisional): the campaign sets aside the track's first requirement (Seoul, February 1904), which
    no Japanese unit can meet (RSR 14.0, RSR 17.11); naval-1904 keeps it, and every later season end is the track's."""
    game = get_ruleset("red-sun-rising")
    campaign = game.initial_state(scenario.load_scenario("red-sun-rising", "campaign-1904"), {})
    first_turn = game.initial_state(scenario.load_scenario("red-sun-rising", "naval-1904"), {})
    assert campaign.static.turn_info(1).cities_required is None
    assert first_turn.static.turn_info(1).cities_required == 1
    for number in range(2, 24):
        assert campaign.static.turn_info(number) == first_turn.static.turn_info(number)
    assert (campaign.turn, campaign.last_turn) == (1, 23)


def test_three_months_of_the_war_through_packets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """February to April 1904: the naval sequence, the landings, the armies fetched from the home ports (RSR 7.4,
    RSR 17.11), command points and replacement steps from the track, each month in turn; the scenario's bound ends
    it."""
    _bounded(tmp_path, monkeypatch, 3)
    alice = run_demo(tmp_path / "demo", echo=lambda _: None, scenario="campaign-1904")
    result = game_actions.load_game(alice, cache=False)
    events = [e for record in result.passes for e in record.events]
    months = [e.text for e in events if e.kind == "stage" and e.text.startswith("end of game turn")]
    assert [re.search(r"\((\d{4}-\d\d)\)", m).group(1) for m in months] == ["1904-02", "1904-03", "1904-04"]  # type: ignore[union-attr]
    assert result.position.state.finished and result.position.state.result["turn"] == 3
    points = [e for e in events if e.kind == "points" and e.case == "RSR 17.13"]
    assert len(points) == 3, "Russian command points arrive every month (RSR 17.13)"
    assert any(e.kind == "points" and e.case == "RSR 17.22" for e in events), "April brings a replacement step"
    assert len(result.packets) <= 3 * 14 + 2


@pytest.mark.soak
@pytest.mark.parametrize("game", range(6))
def test_whole_campaigns_soak(tmp_path: Path, game: int, capsys: pytest.CaptureFixture[str]) -> None:
    outcome, months, packets = _play(tmp_path)
    with capsys.disabled():
        print(f"\ncampaign-1904 game {game}: {len(months)} months, {packets} packets "
              f"({packets / max(1, len(months)):.1f} a month), {outcome['winner']} {outcome['level']}")


def test_the_campaign_starts_from_the_printed_set_up_of_naval_1904() -> None:
    """RSR 19.1, RSR 19.2: the campaign's placement is naval-1904's, which test_rsr_campaign_data.py derives from
    campaign.yaml; only the name, title and length differ."""
    campaign = scenario.load_scenario("red-sun-rising", "campaign-1904").data["scenario"]
    first_turn = scenario.load_scenario("red-sun-rising", "naval-1904").data["scenario"]
    for key in ("setup", "naval", "control", "sequence", "first_turn", "include"):
        assert campaign[key] == first_turn[key], key
    assert (campaign["turns"], first_turn["turns"]) == (23, 1)  # RSR 19.4: February 1904 to December 1905
