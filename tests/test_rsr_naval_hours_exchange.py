"""Issue 13 acceptance, hour by hour: the same kind of multi-hour naval battle as test_rsr_naval_battle_exchange.py
(gunnery at more than one range, a torpedo attack phase, a morale loss, a break-off), but both admirals' plans
say ``ask`` for the range (RSR 8.42), the targets (8.51) and the torpedo option (8.6), so every hour stops for
their answers, carried in signed packet files between two keys and verified. The Japanese seals his targets
whenever both are asked and unseals them after the Russian has answered in the clear.

As in the plans test, a game's dice follow from fixed keys and packets, so the fixture plays game ids 1, 2, ...
until one has the battle asked for (the admirals' answers stay the same) and fails if none of the first 30 does.
The packet counts of both ways are in docs/red-sun-rising/naval-battle-packets.md."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rsr.cli import main
from rsr.engine import Event, Request, dry_run
from rsr.fairdice import seal
from rsr.gamedir import append_packets, load_log
from rsr.keys import KeyPair
from rsr.log import build_packet, position_for_author, replay
from rsr.rulesets import get_ruleset
from tests.test_rsr_naval_battle_exchange import TIME, start_battle_game, wanted

SALT = bytes(range(16, 32))
RUSSIAN = {"fleets": {"ru-fleet-1": {"sortie": True, "route": [], "search": "never"}},
           "battle_plan": {"range": "ask", "targets": "ask", "torpedo": {"attack": "ask"},
                           "break_off": {"sunk_points_at_least": 10}}}
JAPANESE = {"fleets": {"jp-fleet-1": {"sortie": True, "route": [], "search": "always"}}, "battle_plan": "ask"}


def admiral(request: Request) -> Any:
    """What each admiral answers when asked: Vitgeft holds the range, fires at a disabled ship where he can and
    never attacks with torpedoes; Togo closes to 2 boxes, fires at the weakest ship and attacks at range 3 or
    less with every flotilla at the weakest capital ship."""
    o = request.options
    if request.kind == "naval-range":
        if request.side == "russia":
            return {"range": "hold"}
        low, high = o["reach"]
        return {"range": min(max(2, low), high)}
    if request.kind == "naval-targets":
        if request.side == "japan":
            return {"targets": {}, "rule": "weakest"}
        hurt = o["display"]["japan"]["disabled"]
        named = {ship: next(t for t in legal if t in hurt) for ship, legal in sorted(o["targets"].items())
                 if any(t in hurt for t in legal)}
        return {"targets": named, "rule": "opposite"}
    if request.kind == "naval-torpedo":
        return {"attack": request.side == "japan" and o["range"] <= 3, "flotillas": "all", "target": "capital"}
    raise AssertionError(f"the admirals are not asked {request.kind}")


def inputs_for(result: Any, key: KeyPair, side: str, sealed: dict[str, Any]) -> list[dict[str, Any]]:
    """Every answer this side can give before the next die (docs/protocol.md): sailing orders, hourly answers,
    the Japanese targets sealed when the request allows it, and the unsealing of an earlier seal."""
    position, waiting, _ = position_for_author(result, key)
    inputs: list[dict[str, Any]] = []
    ruleset = result.ruleset
    while waiting is not None and waiting.side == side:
        if waiting.unseals:
            item: dict[str, Any] = {"unseal": waiting.unseals, "salt": SALT.hex(),
                                    "choice": sealed.pop(waiting.unseals)}
        elif waiting.kind == "sailing-orders":
            item = {"request": waiting.id, "answer": RUSSIAN if side == "russia" else JAPANESE}
        elif waiting.sealable and side == "japan":
            choice = admiral(waiting)
            sealed[waiting.id] = choice
            item = {"request": waiting.id, "sealed": seal(SALT, choice)}
        else:
            item = {"request": waiting.id, "answer": admiral(waiting)}
        inputs.append(item)
        trial = dry_run(ruleset, position, side, len(result.packets), inputs)
        if trial.stopped_at_die:
            break
        waiting = trial.next_request
    return inputs


def play(parent: Path, game: int) -> tuple[Path, list[Event], int, int]:
    """The game of the plans test, with both admirals asked hour by hour; returns the game folder, the events,
    the packets of the whole game and the packets signed while the battle was under way."""
    game_dir, keys = start_battle_game(parent, game)
    sealed: dict[str, Any] = {}
    in_battle = 0
    for _ in range(200):
        result = replay(load_log(game_dir))
        waiting = result.passes[-1].waiting if result.passes else result.start_waiting
        if waiting is None and len(result.passes) >= 2:
            break
        side = result.next_author()
        inputs = inputs_for(result, keys[side], side, sealed)
        in_battle += any("/battle/" in str(i.get("request") or i.get("unseal")) for i in inputs) \
            or (waiting is not None and "/battle/" in waiting.id)
        append_packets(game_dir, [build_packet(result, keys[side], inputs, time=TIME)])
    else:
        raise AssertionError("the game did not end in 200 packets")
    result = replay(load_log(game_dir))
    return game_dir, [e for p in result.passes for e in p.events], len(result.packets), in_battle


@pytest.fixture(scope="module")
def battle(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Event], int, int]:
    for game in range(1, 31):
        played = play(tmp_path_factory.mktemp(f"hours{game}"), game)
        if wanted(played[1]):
            return played
    raise AssertionError("none of 30 games had the battle the test asks for")


def test_the_hour_by_hour_game_verifies(battle: tuple[Path, list[Event], int, int]) -> None:
    game_dir, events, packets, in_battle = battle
    result = CliRunner().invoke(main, ["verify", str(game_dir)])
    assert result.exit_code == 0, result.output
    hours = next(e.data["hours"] for e in events if e.kind == "naval-battle-over")
    # the plans take 5 packets for the whole game; asked hour by hour each hour in sight costs packets
    assert packets > 5 + hours and in_battle >= hours, (packets, in_battle, hours)


def test_a_multi_hour_battle_asked_hour_by_hour(battle: tuple[Path, list[Event], int, int]) -> None:
    """RSR 4.4, RSR 8.42, RSR 8.5, RSR 8.51, RSR 8.6, RSR 8.72, RSR 8.76, RSR 8.8: the admirals' hourly answers
    move the range, name the targets and take the torpedo option; morale is lost and a fleet breaks off."""
    _, events, _, _ = battle
    moves = [e.data for e in events if e.kind == "naval-range-choice"]
    assert {m["side"] for m in moves} == {"russia", "japan"}
    assert all(m["wish"] == "hold" for m in moves if m["side"] == "russia")
    for m in moves:  # RSR 8.42: never more than the morale allows (the hourly answer is checked)
        assert m["range"] >= 0
    targets = [e.data for e in events if e.kind == "naval-targets-choice"]
    assert {t["side"] for t in targets} == {"russia", "japan"} and all(t["rule"] == "weakest" for t in targets
                                                                      if t["side"] == "japan")
    attacks = [e.data for e in events if e.kind == "naval-torpedo-option" and e.data["attack"]]
    assert attacks and all(a["side"] == "japan" for a in attacks)
    assert any(e.kind == "naval-morale" for e in events) and any(e.kind == "naval-break-off" for e in events)


def test_the_japanese_targets_travel_sealed(battle: tuple[Path, list[Event], int, int]) -> None:
    """RSR 8.5 (interpretations.md): gunnery is simultaneous, so the Japanese targets are sealed until the
    Russian has named his; the packet that carries them shows only the seal."""
    game_dir, _, _, _ = battle
    log = load_log(game_dir)
    sealed = [i for p in log for i in p.inputs if "sealed" in i and "/targets" in i["request"]]
    unsealed = [i for p in log for i in p.inputs if "unseal" in i]
    assert sealed and len(unsealed) == len(sealed)
    assert all(set(i) == {"request", "sealed"} for i in sealed)


def test_the_report_shows_the_hourly_answers(battle: tuple[Path, list[Event], int, int]) -> None:
    """RSR 4.4 (issue 13 item 3): the hour-by-hour table carries each admiral's asked range move and targets."""
    _, events, _, _ = battle
    table = dict(get_ruleset("red-sun-rising").report_tables(events))["Naval battle, hour by hour"]
    assert any("moves the range" in row and "RSR 8.42" in row for row in table)
    assert any("names its targets" in row and "RSR 8.51" in row for row in table)
    assert any("| asked |" in row for row in table)
