"""Issue 13 item 2, measured as players would play it: two homes (each player's own RSR_HOME with his own key
and his own copy of the game), packet files written by ``orders.submit`` and taken in by ``reports.receive``,
the Japanese hourly targets sealed with ``seal: true`` and unsealed from the salt kept in his home. One game is
played with battle plans, one with both admirals asked hour by hour, each until a game has the multi-hour
battle of the acceptance (the dice are the real fair dice of the exchange); both copies of each game verify.
The figures are in docs/red-sun-rising/naval-battle-packets.md."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rsr import games as game_actions
from rsr import keys as keystore
from rsr import orders as order_actions
from rsr import progress
from rsr import reports as report_actions
from rsr.cli import main
from rsr.engine import Event, dry_run
from rsr.gamedir import load_log
from rsr.log import my_side, position_for_author, replay
from tests.test_rsr_naval_battle_exchange import JAPANESE as PLAN_JAPANESE
from tests.test_rsr_naval_battle_exchange import RUSSIAN as PLAN_RUSSIAN
from tests.test_rsr_naval_battle_exchange import wanted
from tests.test_rsr_naval_hours_exchange import JAPANESE as ASK_JAPANESE
from tests.test_rsr_naval_hours_exchange import RUSSIAN as ASK_RUSSIAN
from tests.test_rsr_naval_hours_exchange import admiral

ORDERS = {"plans": {"russia": PLAN_RUSSIAN, "japan": PLAN_JAPANESE},
          "hours": {"russia": ASK_RUSSIAN, "japan": ASK_JAPANESE}}
PLAYERS = {"russia": "vitgeft", "japan": "togo"}


def orders_for(game_dir: Path, key_name: str, mode: str) -> list[dict[str, Any]]:
    """The player's orders file: every answer up to the next die, sealed where the Japanese may seal."""
    result = game_actions.load_game(game_dir)
    key = keystore.load_key(key_name)
    side = my_side(result, key)
    position, waiting, _ = position_for_author(result, key)
    inputs: list[dict[str, Any]] = []
    while waiting is not None and waiting.side == side:
        if waiting.unseals:
            unsealing = order_actions.unseal_input(result.game_id, waiting)
            assert unsealing is not None, "the salt of a sealed choice is kept in the player's home"
            item: dict[str, Any] = unsealing
        elif waiting.kind == "sailing-orders":
            item = {"request": waiting.id, "answer": ORDERS[mode][side]}
        else:
            item = {"request": waiting.id, "answer": admiral(waiting)}
            if waiting.sealable and side == "japan":
                item["seal"] = True
        inputs.append(item)
        trial = dry_run(result.ruleset, position, side, len(result.packets),
                        order_actions.seal_inputs(result.game_id, inputs, keep=False))
        if trial.stopped_at_die:
            break
        waiting = trial.next_request
    return inputs


def play(root: Path, mode: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Path], list[Event], int]:
    homes = {side: root / f"home-{side}" for side in PLAYERS}
    dirs: dict[str, Path] = {}

    def at_home(side: str) -> None:
        monkeypatch.setenv("RSR_HOME", str(homes[side]))

    at_home("russia")
    keystore.new_key("vitgeft")
    dirs["russia"], invite = game_actions.new_game(root / "russia", "red-sun-rising", "naval-battle-1904", "russia",
                                              "vitgeft", "Vitgeft")
    (root / "invite.rsr").write_text(invite.armored())
    at_home("japan")
    keystore.new_key("togo")
    dirs["japan"], accept = game_actions.accept_game(root / "invite.rsr", root / "japan", "togo", "Togo")
    (root / "packet-1.rsr").write_text(accept.armored())
    at_home("russia")
    report_actions.receive(dirs["russia"], root / "packet-1.rsr", "vitgeft")
    for _ in range(200):
        result = game_actions.load_game(dirs["russia"])
        if progress.is_over(result):
            break
        side = result.next_author()
        other = "japan" if side == "russia" else "russia"
        at_home(side)
        packet_file = root / f"packet-{len(result.packets)}.rsr"
        order_actions.submit(dirs[side], orders_for(dirs[side], PLAYERS[side], mode), PLAYERS[side], out=packet_file)
        at_home(other)
        report_actions.receive(dirs[other], packet_file, PLAYERS[other])
    else:
        raise AssertionError("the game did not end in 200 packets")
    result = replay(load_log(dirs["russia"]))  # every pass from the start (load_game may resume at a checkpoint)
    return list(dirs.values()), [e for p in result.passes for e in p.events], len(result.packets)


@pytest.mark.soak  # two whole games per mode at most a few dozen packets each, with real dice
@pytest.mark.parametrize("mode", ["plans", "hours"])
def test_one_battle_both_ways_between_two_homes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mode: str) -> None:
    """RSR 4.4, RSR 8.42, RSR 8.5, RSR 8.6, RSR 8.72, RSR 8.8: the acceptance battle through packet files
    between two homes; the packets it took are printed (pytest -s) for the issue note."""
    for attempt in range(40):
        dirs, events, packets = play(tmp_path / f"{mode}{attempt}", mode, monkeypatch)
        if wanted(events):
            break
    else:
        raise AssertionError(f"no game of 40 had the battle asked for ({mode})")
    for game_dir in dirs:
        out = CliRunner().invoke(main, ["verify", str(game_dir)])
        assert out.exit_code == 0, out.output
    over = next(e.data for e in events if e.kind == "naval-battle-over")
    seen = sum(1 for e in events if e.kind == "naval-hour" and e.data["how"] in ("plans", "asked", "maneuver"))
    print(f"\n{mode}: {packets} packets for the game; battle of {over['hours']} hours ({seen} in sight): "
          f"{over['ended']}")
    if mode == "plans":
        assert packets == 5
    else:
        assert packets > 5 + seen and any(e.kind == "naval-targets-choice" for e in events)
