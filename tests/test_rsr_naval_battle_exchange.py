"""Issue 13 acceptance: a multi-hour naval battle (gunnery at more than one range, a torpedo attack phase, a
morale loss, a break-off) played through signed packet files between two keys from both sides' battle plans,
then verified. Keys, nonces and signed times are fixed, so a game's dice (from the players' secrets and the
packets, docs/protocol.md) repeat on every run; but they change whenever the packets or the state hashes
change, so the fixture plays games with game ids 1, 2, ... until one has the battle this test asks for (the
plans below stay the same) and the test fails if none of the first 40 does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rsr.cli import main
from rsr.engine import Event
from rsr.fairdice import seal
from rsr.gamedir import append_packets, create_game_dir, load_log
from rsr.keys import KeyPair
from rsr.log import accept_packet, build_packet, invite_packet, replay
from rsr.rulesets import get_ruleset
from rsr.scenario import load_scenario

TIME = "2026-01-01T00:00:00Z"
SALT = bytes(range(16))
RUSSIAN = {"fleets": {"ru-fleet-1": {"sortie": True, "route": [], "search": "never"}},
           "battle_plan": {"range": "hold", "break_off": {"sunk_points_at_least": 10}, "targets": "disabled",
                           "torpedo": {"attack": "never"}}}
JAPANESE = {"fleets": {"jp-fleet-1": {"sortie": True, "route": [], "search": "always"}},
            "battle_plan": {"range": 2, "torpedo": {"attack": {"range_at_most": 3}, "target": "capital"}}}


def start_battle_game(parent: Path, game: int) -> tuple[Path, dict[str, KeyPair]]:
    """Vitgeft (Russian) invites Togo to naval-battle-1904 (fixed keys, game id from ``game``); Togo accepts."""
    ruleset = get_ruleset("red-sun-rising")
    keys = {"russia": KeyPair("vitgeft", bytes([1]) * 32), "japan": KeyPair("togo", bytes([2]) * 32)}
    invite = invite_packet(ruleset, load_scenario("red-sun-rising", "naval-battle-1904"), keys["russia"], "russia",
                           "Vitgeft", bytes([game]) * 16, None, {}, nonce=bytes([3]) * 32, time=TIME)
    game_dir = create_game_dir(parent, invite)
    append_packets(game_dir, [invite])
    append_packets(game_dir, [accept_packet(invite, keys["japan"], "Togo", [], nonce=bytes([4]) * 32, time=TIME)])
    return game_dir, keys


def play(parent: Path, sealed: bool = False, game: int = 8) -> tuple[Path, list[Event], int]:
    """Vitgeft (Russian) invites, Togo accepts with his sailing orders and plan; Vitgeft's follow in packet 2.
    ``sealed``: Vitgeft seals his plan in packet 2 and unseals it once Togo's orders are in."""
    game_dir, keys = start_battle_game(parent, game)
    # the Russians are asked first (7.1); Togo answers when the game asks him (an input the game has not
    # reached is never signed: docs/protocol.md)
    pending: dict[str, list[list[dict[str, Any]]]] = {
        "russia": [[{"request": "t7/naval/russia/sailing-orders", "answer": RUSSIAN}]],
        "japan": [[{"request": "t7/naval/japan/sailing-orders", "answer": JAPANESE}]]}
    if sealed:
        pending["russia"] = [[{"request": "t7/naval/russia/sailing-orders",
                               "answer": dict(RUSSIAN, battle_plan="sealed")},
                              {"request": "t7/naval/russia/battle-plan", "sealed": seal(SALT, RUSSIAN["battle_plan"])}],
                             [{"unseal": "t7/naval/russia/battle-plan", "salt": SALT.hex(),
                               "choice": RUSSIAN["battle_plan"]}]]
    return play_pending(game_dir, keys, pending)


def play_pending(game_dir: Path, keys: dict[str, Any],
                 pending: dict[str, list[list[dict[str, Any]]]]) -> tuple[Path, list[Event], int]:
    """Each side in turn signs its next packet of ``pending`` (an empty one when it has none left) until the
    naval stage is done; returns the game folder, every event and the packets of the game."""
    for _ in range(12):
        result = replay(load_log(game_dir))
        waiting = result.passes[-1].waiting if result.passes else result.start_waiting
        if waiting is None and len(result.passes) >= 2:
            break
        side = result.next_author()
        inputs = pending[side].pop(0) if pending.get(side) else []
        append_packets(game_dir, [build_packet(result, keys[side], inputs, time=TIME)])
    result = replay(load_log(game_dir))
    return game_dir, [e for p in result.passes for e in p.events], len(result.packets)


def wanted(events: list[Event]) -> bool:
    """Gunnery at two ranges or more, a torpedo attack phase, a morale loss and a break-off."""
    fired = {e.data["hour"] for e in events if e.kind == "naval-gunnery"}
    ranges = {e.data["range"] for e in events if e.kind == "naval-hour" and e.data["hour"] in fired}
    return (len(ranges) >= 2 and any(e.kind == "naval-torpedo-option" and e.data["attack"] for e in events)
            and any(e.kind == "naval-morale" for e in events) and any(e.kind == "naval-break-off" for e in events))


@pytest.fixture(scope="module")
def battle(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Event], int]:
    for game in range(1, 41):
        played = play(tmp_path_factory.mktemp(f"battle{game}"), game=game)
        if wanted(played[1]):
            return played
    raise AssertionError("none of 40 games had the battle the test asks for")


def test_the_battle_game_verifies(battle: tuple[Path, list[Event], int]) -> None:
    game_dir, _, packets = battle
    assert packets == 5  # invite, accept, Russian orders and plan, Japanese orders and plan, last resolution
    result = CliRunner().invoke(main, ["verify", str(game_dir)])
    assert result.exit_code == 0, result.output


def test_a_multi_hour_battle_from_the_plans(battle: tuple[Path, list[Event], int]) -> None:
    """RSR 4.4, RSR 8.22, RSR 8.42, RSR 8.44, RSR 8.5, RSR 8.6, RSR 8.72, RSR 8.76, RSR 8.77, RSR 8.86:
    gunnery at several ranges, torpedo attacks, morale lost, a break-off (by a plan or at zero morale)."""
    _, events, _ = battle
    plans = {e.data["side"]: e.data for e in events if e.kind == "naval-plan"}
    assert plans["russia"]["default"] is False and plans["russia"]["plan"]["targets"] == "disabled"
    hours = [e.data for e in events if e.kind == "naval-hour"]
    fired_at = {e.data["hour"] for e in events if e.kind == "naval-gunnery"}
    ranges = {h["range"] for h in hours if h["hour"] in fired_at}
    assert len(hours) >= 2 and len(ranges) >= 2, ranges
    assert any(e.kind == "naval-torpedo-option" and e.data["attack"] for e in events)
    assert any(e.kind in ("naval-return-fire", "naval-torpedo", "naval-flotilla-gunnery") for e in events)
    attacks = [e.data for e in events if e.kind == "naval-torpedo-option" and e.data["attack"]]
    assert attacks and all(len(a["flotillas"]) >= 1 for a in attacks)
    losses = [e.data for e in events if e.kind == "naval-morale"]
    assert losses and all(d["morale"] < d["before"] for d in losses)
    breaks = [e.data for e in events if e.kind == "naval-break-off"]
    overs = [e.data for e in events if e.kind == "naval-battle-over"]  # a game may hold more than one battle
    assert breaks and max(o["hours"] for o in overs) >= 2
    for over in overs:  # 8.76: the fleet at zero morale leaves
        if "morale zero" in over["ended"]:
            assert over["withdraws"], over
    # every gunnery roll is logged with its modifiers: range, weather, a disabled firer (8.54)
    battle: list[Event] = []
    for e in events:  # battle by battle: a game may fight more than one, each with its own hours
        battle.append(e)
        if e.kind != "naval-battle-over":
            continue
        hours_of = {x.data["hour"]: x.data for x in battle if x.kind == "naval-hour"}
        for roll in (x.data for x in battle if x.kind == "naval-gunnery"):
            hour = hours_of[roll["hour"]]
            assert roll["modifier"] in (-hour["range"], -hour["range"] - 3) or hour["weather"] != "clear"
        battle = []


def test_the_report_shows_the_battle_hour_by_hour(battle: tuple[Path, list[Event], int]) -> None:
    _, events, _ = battle
    tables = dict(get_ruleset("red-sun-rising").report_tables(events))
    assert len(tables["Naval battle, hour by hour"]) > 6
    rolls = tables["Naval battle rolls"]
    assert any("| gunnery |" in row for row in rolls) and any("(**provisional**)" in row for row in rolls)


def test_a_sealed_plan_is_unsealed_after_both_sailing_orders(tmp_path: Path) -> None:
    """RSR 8.42 (issue 13): the Russian plan travels sealed (only its hash is in his packet) and is unsealed
    after the Japanese has signed his own orders; the battle then uses it. Sealing costs a round trip. (Games
    are tried as in the fixture until Vitgeft's fleet sorties and is found.)"""
    for game in range(1, 41):
        game_dir, events, packets = play(tmp_path / str(game), sealed=True, game=game)
        if any(e.kind == "naval-setup" for e in events):
            break
    else:
        raise AssertionError("no battle in 40 games")
    assert packets == 6  # one more than in the clear: the unsealing packet
    result = CliRunner().invoke(main, ["verify", str(game_dir)])
    assert result.exit_code == 0, result.output
    log = load_log(game_dir)
    assert "range" not in str(log[2].inputs[1]) and set(log[2].inputs[1]) == {"request", "sealed"}
    kinds = [(e.kind, e.data.get("sealed")) for e in events if e.kind == "battle-plan"]
    assert kinds == [("battle-plan", True), ("battle-plan", False)]
    plan = next(e.data for e in events if e.kind == "naval-plan" and e.data["side"] == "russia")
    assert plan["default"] is False and plan["plan"]["targets"] == "disabled"
