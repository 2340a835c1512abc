"""Issue 14 acceptance: a Japanese player turn with artillery and a Soviet reserve, through signed packets.

Position ``july-1939-artillery`` (13.1 units, our own placement). The Japanese turn has a bombardment and an
interdiction (RS/RS 5.21, 5.22), a prepared combat with sealed offensive support and the Soviet's defensive
support given before the attacker reveals (5.3), a two-deep counterbattery chain played by standing orders
(5.41: Soviet counterbattery against the supporting gun, Japanese counterbattery against that gun), and a
Soviet reserve that interrupts the Japanese movement by a conditional order and is halted by the
interdiction (7.63, 5.22). The rest of the game is played by the bots; the log verifies with ``rsr verify``.
The dice are the real fair dice of the exchange, so the test checks what happens whatever they roll.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rsr import keys as keystore
from rsr.cli import main
from rsr.engine import Event, dry_run
from rsr.fairdice import seal
from rsr.game import (
    accept_packet,
    append_packets,
    build_packet,
    create_game_dir,
    invite_packet,
    load_log,
    my_side,
    position_for_author,
    replay,
)
from rsr.rulesets import get_ruleset
from rsr.scenario import load_scenario
from tests.support.games import seal_marked

C1 = "t1/japan/prepared/c1"
SCRIPT: dict[str, tuple[dict[str, Any], bool]] = {
    "t1/japan/artillery/missions": ({"missions": [
        {"bombard": "su-2-149", "artillery": ["jp-3-13-art"]},
        {"interdict": "4006", "artillery": ["jp-2-13-art", "jp-m-art", "jp-71-art"]}]}, False),
    "t1/japan/prepared/combats": ({"combats": [{"hex": "4411", "attackers": ["jp-1-71", "jp-2-71"]}]}, False),
    "t1/japan/prepared/attack-choices": ({"combats": {C1: {"lead": {"4410": "jp-1-71"},
                                                           "support": ["jp-1-13-art"]}}}, True),
    "t1/japan/prepared/defence-choices": ({"combats": {C1: {"lead": "su-1-149", "support": ["su-149-art"]}}}, False),
    "t1/japan/movement/orders": ({"moves": [{"units": ["jp-1-64"], "path": ["4403"]}]}, False),
}
RESERVE_PATH = ["3912", "4012", "4011", "4010", "4009", "4008", "4007", "4006", "4005"]
RESERVE_ORDER: list[dict[str, Any]] = [
    {"units": ["su-603-82"], "path": RESERVE_PATH, "when": {"enemy_within": 8, "of": "4008"}}]
STANDING: dict[str, list[dict[str, Any]]] = {
    "japan": [{"policy": "counterbattery", "rule": {"guns": ["jp-1ind-art"], "against": ["counterbattery"]}}],
    "soviet": [{"policy": "counterbattery", "rule": {"guns": ["su-1-185"], "against": ["support"]}},
               {"policy": "defence-choices", "rule": "ask"},
               {"policy": "reserve-moves", "rule": RESERVE_ORDER}],
}
ASKED: dict[str, list[dict[str, Any]]] = {
    "japan": [{"policy": "counterbattery", "rule": "ask"}],
    "soviet": [{"policy": "counterbattery", "rule": "ask"}, {"policy": "defence-choices", "rule": "ask"},
               {"policy": "reserve-moves", "rule": RESERVE_ORDER}],
}
ASKED_ANSWERS = {  # the same choices as the standing orders, given when asked
    "t1/japan/prepared/counterbattery1": {"fire": [{"target": "jp-1-13-art", "artillery": ["su-1-185"]}]},
    "t1/japan/prepared/counterbattery2": {"fire": [{"target": "su-1-185", "artillery": ["jp-1ind-art"]}]},
}


def author_packet(result: Any, key: keystore.KeyPair, store: dict[str, dict[str, Any]],
                  prefix: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The author's inputs up to the next die: scripted answers first, the bot for the rest, seals as asked."""
    ruleset = result.ruleset
    side = my_side(result, key)
    position, waiting, _ = position_for_author(result, key)
    inputs: list[dict[str, Any]] = list(prefix)
    if inputs:
        run = dry_run(ruleset, position, side, len(result.packets), inputs)
        position, waiting = run.position, run.next_request
    sealed_now: dict[str, dict[str, Any]] = {}
    while waiting is not None and waiting.side == side:
        if waiting.unseals is not None:
            if waiting.unseals not in store:
                break
            answer = [store.pop(waiting.unseals)]
        elif waiting.id in SCRIPT or waiting.id in ASKED_ANSWERS:
            choice, sealed = SCRIPT.get(waiting.id, (ASKED_ANSWERS.get(waiting.id, {}), False))
            if sealed:
                salt = os.urandom(16)
                sealed_now[waiting.id] = {"unseal": waiting.id, "salt": salt.hex(), "choice": choice}
                answer = [{"request": waiting.id, "sealed": seal(salt, choice)}]
            else:
                answer = [{"request": waiting.id, "answer": choice}]
        else:
            answer = seal_marked(ruleset.bot(position.state, waiting), sealed_now)
        if not answer:
            break
        inputs += answer
        run = dry_run(ruleset, position, side, len(result.packets), answer)
        if run.stopped_at_die:
            break
        position, waiting = run.position, run.next_request
    store.update(sealed_now)
    return inputs


def play(tmp: Path, policies: dict[str, list[dict[str, Any]]]) -> tuple[Path, list[Event], int, int]:
    """Play the position to its end; returns the game, its events, all packets and the Japanese turn's."""
    ruleset = get_ruleset("red-star")
    japan = keystore.new_key(f"japan-{tmp.name}"[:40])
    soviet = keystore.new_key(f"soviet-{tmp.name}"[:40])
    invite = invite_packet(ruleset, load_scenario("red-star", "july-1939-artillery"), japan, "japan", "J",
                           bytes(range(16)), None, {}, nonce=bytes([1]) * 32)
    game_dir = create_game_dir(tmp, invite)
    append_packets(game_dir, [invite])
    append_packets(game_dir, [accept_packet(invite, soviet, "S", list(policies["soviet"]), nonce=bytes([2]) * 32)])
    keys = {"japan": japan, "soviet": soviet}
    store: dict[str, dict[str, Any]] = {}
    first = {"japan": list(policies["japan"])}
    japanese_turn = 0
    for _ in range(120):
        result = replay(load_log(game_dir))
        if result.passes and result.passes[-1].waiting is None:
            break
        if not japanese_turn and any(e.kind == "segment" and e.data.get("segment") == "soviet.force-adjustment"
                                     for record in result.passes for e in record.events):
            japanese_turn = len(result.packets)
        author = result.next_author()
        key = keys[author]
        append_packets(game_dir, [build_packet(result, key, author_packet(result, key, store,
                                                                          first.pop(author, [])))])
    else:
        raise AssertionError("the game did not end within 120 packets")
    result = replay(load_log(game_dir))
    events = [e for record in result.passes for e in record.events]
    return game_dir, events, len(result.packets), japanese_turn


@pytest.fixture(scope="module")
def artillery_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Event], int, int]:
    home = tmp_path_factory.mktemp("home")
    old = os.environ.get("RSR_HOME")
    os.environ["RSR_HOME"] = str(home)
    try:
        return play(tmp_path_factory.mktemp("game"), STANDING)
    finally:
        if old is None:
            del os.environ["RSR_HOME"]
        else:
            os.environ["RSR_HOME"] = old


def _kinds(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def test_the_artillery_turn_verifies(artillery_game: tuple[Path, list[Event], int, int]) -> None:
    game_dir, _, packets, japanese_turn = artillery_game
    out = CliRunner().invoke(main, ["verify", str(game_dir)])
    assert out.exit_code == 0, out.output
    assert 0 < japanese_turn <= packets
    print({"packets": packets, "japanese player turn": japanese_turn})


def test_bombardment_and_interdiction(artillery_game: tuple[Path, list[Event], int, int]) -> None:
    """RS/RS 5.21, 5.22: the bombardment rolls on the table; the interdiction halts the Soviet reserve."""
    _, events, _, _ = artillery_game
    bombard = [e for e in _kinds(events, "fire-mission") if e.data.get("mission_kind") == "bombard"]
    assert bombard and bombard[0].data["target"] == "su-2-149" and bombard[0].data["column"] == 3
    interdict = [e for e in _kinds(events, "fire-mission") if e.data.get("mission_kind") == "interdict"]
    assert interdict and interdict[0].data["strength"] == 8 and interdict[0].data["cost"] == 2
    roll = _kinds(events, "interdiction")
    assert roll and roll[0].data["hex"] == "4006" and roll[0].data["units"] == ["su-603-82"]
    halted = _kinds(events, "interdicted")
    assert halted and halted[0].data["unit"] == "su-603-82"  # column 8 never gives less than 3 extra MP


def test_reserve_interrupts_the_japanese_movement(artillery_game: tuple[Path, list[Event], int, int]) -> None:
    """RS/RS 7.63: the conditional reserve order fires after the Japanese move, between Japanese moves."""
    _, events, _, _ = artillery_game
    moved = next(i for i, e in enumerate(events) if e.kind == "moved" and e.data["unit"] == "jp-1-64")
    reserve = next(i for i, e in enumerate(events) if e.kind == "reserve-moved")
    assert moved < reserve
    assert events[reserve].data["unit"] == "su-603-82" and events[reserve].data["to"] == "4007"


def test_secret_support_and_two_deep_counterbattery(artillery_game: tuple[Path, list[Event], int, int]) -> None:
    """RS/RS 5.3, 5.41, 5.42: sealed offensive support, defensive support, chain resolved last first."""
    _, events, _, _ = artillery_game
    sealed = [e for e in _kinds(events, "sealed") if e.data["side"] == "japan"]
    assert sealed
    declared = _kinds(events, "counterbattery-declared")
    assert [(e.data["side"], e.data["level"], e.data["target"]) for e in declared[:2]] == [
        ("soviet", 1, "jp-1-13-art"), ("japan", 2, "su-1-185")]
    resolved = [e for e in events if e.kind in ("counterbattery", "cancelled") and "level" in e.data]
    assert resolved[0].data["level"] == 2  # the last declared resolves first
    first_reveal = next(i for i, e in enumerate(events) if e.kind == "unsealed" and e.data.get("combat") == C1)
    chain = events.index(declared[0])
    assert first_reveal < chain
    supports = {e.data["unit"] for e in events if e.kind in ("direct-support", "cancelled") and "unit" in e.data}
    assert {"jp-1-13-art", "su-149-art"} <= supports


def test_packets_standing_orders_against_asking(tmp_path: Path,
                                                artillery_game: tuple[Path, list[Event], int, int]) -> None:
    """What a chain costs: standing counterbattery orders against being asked at each link (measured)."""
    _, _, standing, standing_turn = artillery_game
    home = tmp_path / "home"
    home.mkdir()
    old = os.environ.get("RSR_HOME")
    os.environ["RSR_HOME"] = str(home)
    try:
        _, events, asked, asked_turn = play(tmp_path, ASKED)
    finally:
        if old is None:
            del os.environ["RSR_HOME"]
        else:
            os.environ["RSR_HOME"] = old
    assert len(_kinds(events, "counterbattery-declared")) >= 2
    assert asked_turn > standing_turn
    print({"standing orders": (standing_turn, standing), "asked": (asked_turn, asked)})


def test_report_shows_the_chain_and_the_interruption(artillery_game: tuple[Path, list[Event], int, int]) -> None:
    """Issue 14 report: missions, the chain in declaration then resolution order, reserve moves as interruptions."""
    _, events, _, _ = artillery_game
    tables = dict(get_ruleset("red-star").report_tables(events))
    artillery = "\n".join(tables["Artillery"])
    assert artillery.index("declared, level 1") < artillery.index("declared, level 2") < artillery.index(
        "resolved, level 2")
    assert "**provisional**" in artillery and "bombard" in artillery
    assert "| interruption |" in "\n".join(tables["Reserves and bridges"])
