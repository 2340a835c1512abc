"""Issue 14 acceptance: a Japanese player turn of the July scenario (13.1) with artillery and a Soviet reserve,
played through signed packets from the scenario's own set-up.

The game starts from ``july-1939`` as the rulebook sets it up and both players' first turn (2 July) is played
through packets with the orders below (ours: the rulebook prints no game). On 2 July the 23rd Engineers lay
the Japanese bridge at 1919-2019 (11.2, the Bain Tsagan crossing), the 1st and 2nd battalions of the 64th
march to 2520 and the guns of the 13th Field Artillery, the 1st Independent and the regimental guns of the
64th, 71st and 72nd move up behind them; the Soviets push the 3/9 motorized infantry into contact at 2521,
bring the 1/175 battery up to 2525 and the 36th tank battalion over the Kawamata bridge to 2436, where it
takes a Reserve marker within two hexes of the 1st Army Group HQ (7.61).

The acceptance turn is the Japanese player turn of 3 July (game turn 2): a bombardment of the 3/9 (5.21), an
interdiction of the west-bank track at 1925 (5.22), a prepared attack on 2521 with sealed offensive support
(the 1/13 battery) against Soviet defensive support (the 1/185) (5.3), a two-deep counterbattery chain by
standing orders (5.41: the Soviet 1/175 against the supporting gun, the Japanese 1st Independent against
the 1/175), and a Soviet reserve that interrupts the Japanese movement by a conditional order signed in
advance, drives up the track toward the Japanese bridge and is stopped by the interdiction (7.63, 5.22):
its signed path spends its whole allowance, so any extra MP halts it. The dice are the real fair dice of
the exchange, so the test checks what happens whatever they roll; the log verifies with ``rsr verify``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rsr import keys as keystore
from rsr.cli import main
from rsr.engine import Event
from rsr.gamedir import append_packets, create_game_dir, load_log
from rsr.log import accept_packet, build_packet, invite_packet, replay
from rsr.rulesets import get_ruleset
from rsr.scenario import load_scenario
from tests.support.games import bot_packet

C1 = "t2/japan/prepared/c1"
SCRIPT: dict[str, tuple[dict[str, Any], bool]] = {
    # 2 July (turn 1), Japan: no gun in range; the bridge is laid and the 64th and the guns move up
    "t1/japan/artillery/missions": ({"missions": []}, False),
    "t1/japan/movement/orders": ({"moves": [
        {"units": ["jp-23-eng"], "path": ["2115", "2116", "2117", "2118", "2019"], "bridge": {"place": "1919-2019"}},
        {"units": ["jp-1-64", "jp-2-64"], "path": ["2614", "2514", "2515", "2516", "2517", "2518", "2519", "2520"]},
        {"units": ["jp-1-13-art"], "path": ["2116", "2117", "2118", "2119", "2120", "2221", "2222"]},
        {"units": ["jp-1ind-art"], "path": ["2113", "2014", "1914", "1915", "2016", "2116", "2117", "2118", "2119",
                                            "2120"]},
        {"units": ["jp-3-13-art"], "path": ["2116", "2117", "2118", "2119", "2220", "2320"]},
        {"units": ["jp-2-13-art"], "path": ["2614", "2514", "2415", "2315", "2216", "2217", "2218", "2219", "2220",
                                            "2221", "2222", "2223"]},
        {"units": ["jp-71-art"], "path": ["2015", "2016", "2017", "2018", "2118", "2119", "2120", "2221", "2222",
                                          "2223", "2224"]},
        {"units": ["jp-72-art"], "path": ["2016", "2017", "2018", "2118", "2119", "2120", "2221", "2222", "2223",
                                          "2224"]},
        {"units": ["jp-64-art"], "path": ["2614", "2514", "2415", "2315", "2216", "2217", "2218", "2219", "2220",
                                          "2221", "2222", "2223", "2224"]}]}, False),
    # 2 July, Soviets (13.1 special rule 1: nothing west of the Halha moves)
    "t1/soviet/artillery/missions": ({"missions": []}, False),
    "t1/soviet/movement/orders": ({"moves": [
        {"units": ["su-3-9"], "path": ["2522", "2521"]},
        {"units": ["su-36-36-tk"], "path": ["2735", "2636", "2535", "2435", "2436"]},
        {"units": ["su-1-175"], "path": ["2932", "2832", "2731", "2631", "2530", "2529", "2528", "2527", "2526",
                                         "2525"]}]}, False),
    "t1/soviet/markers/reserves": ({"create": ["su-36-36-tk"], "release": []}, False),
    # 3 July (turn 2), the Japanese player turn of the acceptance
    "t2/japan/prepared/combats": ({"combats": [{"hex": "2521", "attackers": ["jp-1-64", "jp-2-64"]}]}, False),
    "t2/japan/prepared/c1/attack-choices": ({"combats": {C1: {"lead": {"2520": "jp-1-64"},
                                                           "support": ["jp-1-13-art"]}}}, True),
    "t2/japan/prepared/c1/defence-choices": ({"combats": {C1: {"lead": "su-3-9", "support": ["su-1-185"]}}}, False),
    "t2/japan/movement/orders": ({"moves": [{"units": ["jp-23-hq"], "path": ["2116"]}]}, False),
}
# 3 July: the Japanese plan their two missions ahead (policy fire-missions, RS/RS 5.2): each fires after the
# one before has resolved, with no packet of its own
PLANS: dict[str, list[dict[str, Any]]] = {"t2/japan/artillery/missions": [{"policy": "fire-missions", "rule": {
    "turn": 2, "missions": [{"bombard": "su-3-9", "artillery": ["jp-3-13-art"]},
                            {"interdict": "1925", "artillery": ["jp-2-13-art", "jp-71-art", "jp-72-art",
                                                                "jp-64-art"]}]}}]}
# The Soviet reserve's conditional order: when a Japanese stack ends a move within 6 hexes of the Japanese
# bridge, drive up the west-bank track toward it (16 MP: the whole allowance of the 36th tank battalion).
RESERVE_PATH = ["2336", "2237", "2137", "2136", "2135", "2134", "2133", "2132", "2131", "2130", "2129", "2128",
                "2127", "2027", "2026", "1925"]
RESERVE_ORDER: list[dict[str, Any]] = [
    {"units": ["su-36-36-tk"], "path": RESERVE_PATH, "when": {"enemy_within": 6, "of": "1919"}}]
STANDING: dict[str, list[dict[str, Any]]] = {
    "japan": [{"policy": "counterbattery", "rule": {"guns": ["jp-1ind-art"], "against": ["counterbattery"]}}],
    "soviet": [{"policy": "counterbattery", "rule": {"guns": ["su-1-175"], "against": ["support"]}},
               {"policy": "defence-choices", "rule": "ask"}, {"policy": "reserves", "rule": "ask"},
               {"policy": "reserve-moves", "rule": RESERVE_ORDER}],
}
ASKED: dict[str, list[dict[str, Any]]] = {
    "japan": [{"policy": "counterbattery", "rule": "ask"}],
    "soviet": [{"policy": "counterbattery", "rule": "ask"}, {"policy": "defence-choices", "rule": "ask"},
               {"policy": "reserves", "rule": "ask"}, {"policy": "reserve-moves", "rule": RESERVE_ORDER}],
}
ASKED_ANSWERS = {  # the same choices as the standing orders, given when asked (none in the 2 July turn)
    "t2/japan/artillery/counterbattery1": {"fire": []},
    "t2/japan/artillery/2/counterbattery1": {"fire": []},
    "t2/japan/prepared/c1/counterbattery1": {"fire": [{"target": "jp-1-13-art", "artillery": ["su-1-175"]}]},
    "t2/japan/prepared/c1/counterbattery2": {"fire": [{"target": "su-1-175", "artillery": ["jp-1ind-art"]}]},
}


def author_packet(result: Any, key: keystore.KeyPair, store: dict[str, dict[str, Any]],
                  prefix: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The author's inputs up to the next die: scripted answers first, the bot for the rest, seals as asked."""
    return bot_packet(result, key, store, prefix, scripted)


def scripted(state: Any, request: Any) -> list[dict[str, Any]] | None:
    """This test's own answer to ``request`` (sealed where the script says so), or None for the bot's."""
    if request.id in PLANS:
        return list(PLANS[request.id])
    if request.id not in SCRIPT and request.id not in ASKED_ANSWERS:
        return None
    choice, sealed = SCRIPT.get(request.id, (ASKED_ANSWERS.get(request.id, {}), False))
    return [{"request": request.id, "answer": choice, **({"seal": True} if sealed else {})}]


def _reached(result: Any, label: str, turn: int) -> bool:
    return any(e.kind == "segment" and e.data.get("segment") == label and e.data.get("turn") == turn
               for record in result.passes for e in record.events)


def play(tmp: Path, policies: dict[str, list[dict[str, Any]]]) -> tuple[Path, list[Event], int, int]:
    """Play 13.1 from its set-up to the end of the Japanese player turn of 3 July; returns the game, the events
    of that player turn, all packets, and the packets exchanged during that player turn."""
    ruleset = get_ruleset("red-star")
    japan = keystore.new_key(f"japan-{tmp.name}"[:40])
    soviet = keystore.new_key(f"soviet-{tmp.name}"[:40])
    invite = invite_packet(ruleset, load_scenario("red-star", "july-1939"), japan, "japan", "J",
                           bytes(range(16)), None, {}, nonce=bytes([1]) * 32)
    game_dir = create_game_dir(tmp, invite)
    append_packets(game_dir, [invite])
    append_packets(game_dir, [accept_packet(invite, soviet, "S", list(policies["soviet"]), nonce=bytes([2]) * 32)])
    keys = {"japan": japan, "soviet": soviet}
    store: dict[str, dict[str, Any]] = {}
    first = {"japan": list(policies["japan"])}
    began = 0
    for _ in range(80):
        result = replay(load_log(game_dir))
        if not began and _reached(result, "japan.force-adjustment", 2):
            began = len(result.packets)
        if _reached(result, "soviet.force-adjustment", 2):
            break
        author = result.next_author()
        key = keys[author]
        append_packets(game_dir, [build_packet(result, key, author_packet(result, key, store,
                                                                          first.pop(author, [])))])
    else:
        raise AssertionError("the Japanese player turn of 3 July did not end within 80 packets")
    result = replay(load_log(game_dir))
    events: list[Event] = []
    on = False
    for record in result.passes:
        for event in record.events:
            if event.kind == "segment" and event.data.get("turn") == 2 and event.data.get("segment") == \
                    "japan.force-adjustment":
                on = True
            if event.kind == "segment" and event.data.get("turn") == 2 and event.data.get("segment") == \
                    "soviet.force-adjustment":
                on = False
            if on:
                events.append(event)
    return game_dir, events, len(result.packets), len(result.packets) - began


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
    """The whole log (13.1 set-up, 2 July, the Japanese turn of 3 July) verifies from a second copy's view."""
    game_dir, events, packets, turn = artillery_game
    out = CliRunner().invoke(main, ["verify", str(game_dir)])
    assert out.exit_code == 0, out.output
    assert 0 < turn < packets and events
    assert events[0].data["date"] == "3 July"
    print({"packets": packets, "japanese player turn of 3 July": turn})


def test_the_bridge_and_the_reserve_come_from_the_first_turn(
        artillery_game: tuple[Path, list[Event], int, int]) -> None:
    """RS/RS 11.2, 7.61: the 2 July turn laid the Japanese bridge and made the Soviet reserve (no set-up edits)."""
    game_dir, _, _, _ = artillery_game
    result = replay(load_log(game_dir))
    everything = [e for record in result.passes for e in record.events]
    placed = [e for e in everything if e.kind == "bridge" and e.data.get("action") == "place"]
    assert placed and placed[0].data["hexside"] == "1919-2019"
    made = [e for e in everything if e.kind == "reserve" and e.data.get("created")]
    assert [e.data["unit"] for e in made] == ["su-36-36-tk"]


def test_bombardment_and_interdiction(artillery_game: tuple[Path, list[Event], int, int]) -> None:
    """RS/RS 5.21, 5.22: the bombardment rolls on the table; the interdiction halts the Soviet reserve."""
    _, events, _, _ = artillery_game
    bombard = [e for e in _kinds(events, "fire-mission") if e.data.get("mission_kind") == "bombard"]
    assert bombard and bombard[0].data["target"] == "su-3-9" and bombard[0].data["column"] == 3
    interdict = [e for e in _kinds(events, "fire-mission") if e.data.get("mission_kind") == "interdict"]
    assert interdict and interdict[0].data["strength"] == 6 and interdict[0].data["cost"] == 2
    roll = _kinds(events, "interdiction")
    assert roll and roll[0].data["hex"] == "1925" and roll[0].data["units"] == ["su-36-36-tk"]
    assert roll[0].data["extra"] >= 2  # column 6 never gives less than 2 extra MP
    halted = _kinds(events, "interdicted")
    assert halted and halted[0].data["unit"] == "su-36-36-tk"  # its signed path used its whole allowance


def test_reserve_interrupts_the_japanese_movement(artillery_game: tuple[Path, list[Event], int, int]) -> None:
    """RS/RS 7.63: the conditional reserve order fires after the Japanese move, in the Japanese movement."""
    _, events, _, _ = artillery_game
    moved = next(i for i, e in enumerate(events) if e.kind == "moved" and e.data["unit"] == "jp-23-hq")
    reserve = next(i for i, e in enumerate(events) if e.kind == "reserve-moved")
    assert moved < reserve
    assert events[reserve].data["unit"] == "su-36-36-tk" and events[reserve].data["to"] == "2026"


def test_secret_support_and_two_deep_counterbattery(artillery_game: tuple[Path, list[Event], int, int]) -> None:
    """RS/RS 5.3, 5.41, 5.42: sealed offensive support, defensive support, chain resolved last first."""
    _, events, _, _ = artillery_game
    sealed = [e for e in _kinds(events, "sealed") if e.data["side"] == "japan"]
    assert sealed
    declared = _kinds(events, "counterbattery-declared")
    assert [(e.data["side"], e.data["level"], e.data["target"]) for e in declared[:2]] == [
        ("soviet", 1, "jp-1-13-art"), ("japan", 2, "su-1-175")]
    resolved = [e for e in events if e.kind in ("counterbattery", "cancelled") and "level" in e.data]
    assert resolved[0].data["level"] == 2  # the last declared resolves first
    first_reveal = next(i for i, e in enumerate(events) if e.kind == "unsealed" and e.data.get("combat") == C1)
    chain = events.index(declared[0])
    assert first_reveal < chain
    supports = {e.data["unit"] for e in events if e.kind in ("direct-support", "cancelled") and "unit" in e.data}
    assert {"jp-1-13-art", "su-1-185"} <= supports


def test_packets_standing_orders_against_asking(tmp_path: Path,
                                                artillery_game: tuple[Path, list[Event], int, int]) -> None:
    """What the turn costs: standing counterbattery orders against being asked at each link (measured)."""
    _, _, standing_total, standing_turn = artillery_game
    home = tmp_path / "home"
    home.mkdir()
    old = os.environ.get("RSR_HOME")
    os.environ["RSR_HOME"] = str(home)
    try:
        _, events, asked_total, asked_turn = play(tmp_path, ASKED)
    finally:
        if old is None:
            del os.environ["RSR_HOME"]
        else:
            os.environ["RSR_HOME"] = old
    assert len(_kinds(events, "counterbattery-declared")) >= 2
    assert asked_turn > standing_turn
    print({"standing orders": (standing_turn, standing_total), "asked": (asked_turn, asked_total)})


def test_report_shows_the_chain_and_the_interruption(artillery_game: tuple[Path, list[Event], int, int]) -> None:
    """Issue 14 report: missions, the chain in declaration then resolution order, reserve moves as interruptions."""
    _, events, _, _ = artillery_game
    tables = dict(get_ruleset("red-star").report_tables(events))
    artillery = "\n".join(tables["Artillery"])
    assert artillery.index("declared, level 1") < artillery.index("declared, level 2") < artillery.index(
        "resolved, level 2")
    assert "**provisional**" in artillery and "bombard" in artillery
    assert "| interruption |" in "\n".join(tables["Reserves and bridges"])
