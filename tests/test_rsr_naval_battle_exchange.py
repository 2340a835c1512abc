"""Issue 13 acceptance: a multi-hour naval battle (gunnery at more than one range, a torpedo attack phase, a
morale loss, a break-off) played through signed packet files between two keys from both sides' battle plans,
then verified. The keys, nonces, game id and signed times are fixed, so the dice (which come from the
players' secrets, docs/protocol.md) are the same on every run; the plans below were signed without knowing
them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rsr.cli import main
from rsr.engine import Event, get_ruleset
from rsr.game import accept_packet, append_packets, build_packet, create_game_dir, invite_packet, load_log, replay
from rsr.keys import KeyPair
from rsr.scenario import load_scenario

TIME = "2026-01-01T00:00:00Z"
RUSSIAN = {"fleets": {"ru-fleet-1": {"sortie": True, "route": [], "search": "never"}},
           "battle_plan": {"range": "hold", "break_off": {"sunk_points_at_least": 10}, "targets": "disabled",
                           "torpedo": {"attack": "never"}}}
JAPANESE = {"fleets": {"jp-fleet-1": {"sortie": True, "route": [], "search": "always"}},
            "battle_plan": {"range": 2, "torpedo": {"attack": {"range_at_most": 3}, "target": "capital"}}}


def play(parent: Path) -> tuple[Path, list[Event], int]:
    """Vitgeft (Russian) invites, Togo accepts with his sailing orders and plan; Vitgeft's follow in packet 2."""
    ruleset = get_ruleset("red-sun-rising")
    keys = {"russia": KeyPair("vitgeft", bytes([1]) * 32), "japan": KeyPair("togo", bytes([2]) * 32)}
    invite = invite_packet(ruleset, load_scenario("red-sun-rising", "naval-battle-1904"), keys["russia"], "russia",
                           "Vitgeft", bytes([8]) * 16, None, {}, nonce=bytes([3]) * 32, time=TIME)
    game_dir = create_game_dir(parent, invite)
    append_packets(game_dir, [invite])
    append_packets(game_dir, [accept_packet(invite, keys["japan"], "Togo",
                                            [{"request": "t7/naval/japan/sailing-orders", "answer": JAPANESE}],
                                            nonce=bytes([4]) * 32, time=TIME)])
    pending: dict[str, list[dict[str, Any]]] = {
        "russia": [{"request": "t7/naval/russia/sailing-orders", "answer": RUSSIAN}]}
    for _ in range(10):
        result = replay(load_log(game_dir))
        waiting = result.passes[-1].waiting if result.passes else result.start_waiting
        if waiting is None and len(result.passes) >= 2:
            break
        side = result.next_author()
        append_packets(game_dir, [build_packet(result, keys[side], pending.pop(side, []), time=TIME)])
    result = replay(load_log(game_dir))
    return game_dir, [e for p in result.passes for e in p.events], len(result.packets)


@pytest.fixture(scope="module")
def battle(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Event], int]:
    return play(tmp_path_factory.mktemp("battle"))


def test_the_battle_game_verifies(battle: tuple[Path, list[Event], int]) -> None:
    game_dir, _, packets = battle
    assert packets == 4  # invite, accept + Japanese orders and plan, Russian orders and plan, last resolution
    result = CliRunner().invoke(main, ["verify", str(game_dir)])
    assert result.exit_code == 0, result.output


def test_a_multi_hour_battle_from_the_plans(battle: tuple[Path, list[Event], int]) -> None:
    """RSR 4.4, RSR 8.22, RSR 8.42, RSR 8.44, RSR 8.5, RSR 8.6, RSR 8.64, RSR 8.72, RSR 8.76, RSR 8.77, RSR 8.86:
    gunnery at several ranges, the Naval Maneuver Table after two unchanged ranges, torpedo attacks in more than
    one hour, morale lost to sinkings, the fleet at zero morale opening the range until it is out of sight."""
    _, events, _ = battle
    plans = {e.data["side"]: e.data for e in events if e.kind == "naval-plan"}
    assert plans["russia"]["default"] is False and plans["russia"]["plan"]["targets"] == "disabled"
    hours = [e.data for e in events if e.kind == "naval-hour"]
    fired_at = {e.data["hour"] for e in events if e.kind == "naval-gunnery"}
    ranges = {h["range"] for h in hours if h["hour"] in fired_at}
    assert len(hours) >= 4 and len(ranges) >= 2, ranges
    assert any(e.kind == "naval-maneuver" for e in events)
    assert any(e.kind == "naval-torpedo-option" and e.data["attack"] for e in events)
    assert any(e.kind in ("naval-return-fire", "naval-torpedo", "naval-flotilla-gunnery") for e in events)
    attacks = [e.data["hour"] for e in events if e.kind == "naval-torpedo-option" and e.data["attack"]]
    assert len(attacks) >= 2  # 8.64: no limit to the attacks a flotilla makes
    losses = [e.data for e in events if e.kind == "naval-morale" and e.data["side"] == "russia"]
    assert losses and losses[-1]["morale"] == 0
    assert any(e.kind == "naval-break-off" and e.data["reason"] == "morale zero" for e in events)
    over = next(e.data for e in events if e.kind == "naval-battle-over")
    assert over["ended"] == "broken off (morale zero)" and over["withdraws"] == ["ru-fleet-1"]
    # every gunnery roll is logged with its modifiers: range, weather, a disabled firer (8.54)
    for e in events:
        if e.kind == "naval-gunnery":
            hour = next(h for h in hours if h["hour"] == e.data["hour"])
            assert e.data["modifier"] in (-hour["range"], -hour["range"] - 3) or hour["weather"] != "clear"


def test_the_report_shows_the_battle_hour_by_hour(battle: tuple[Path, list[Event], int]) -> None:
    _, events, _ = battle
    tables = dict(get_ruleset("red-sun-rising").report_tables(events))
    assert len(tables["Naval battle, hour by hour"]) > 6
    rolls = tables["Naval battle rolls"]
    assert any("| gunnery |" in row for row in rolls) and any("(**provisional**)" in row for row in rolls)
