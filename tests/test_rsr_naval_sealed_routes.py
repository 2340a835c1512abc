"""Issue 22, point 8: the Russian sailing orders' routes travel sealed, so the Japanese signs his own orders
without being able to read them, and are unsealed before the Naval Search Stage (RSR 4.11, 4.12, 7.1). Played
through signed packet files between two keys, then verified; packets counted with and without the seal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from click.testing import CliRunner

from rsr.cli import main
from rsr.engine import Event
from rsr.fairdice import seal
from rsr.gamedir import load_log
from tests.test_rsr_naval_battle_exchange import play_pending, start_battle_game

SALT = bytes(range(16, 32))
ROUTE = [44, 42]  # out of Port Arthur's hex and back, so the fleet ends the stage in port (15.23)
RUSSIAN = {"fleets": {"ru-fleet-1": {"sortie": True, "search": "never"}}, "routes": "sealed"}
JAPANESE = {"fleets": {"jp-fleet-1": {"sortie": False, "route": [], "search": "never"}}}


def play(parent: Path, sealed: bool, game: int = 1) -> tuple[Path, list[Event], int]:
    game_dir, keys = start_battle_game(parent, game)
    routes = {"fleets": {"ru-fleet-1": ROUTE}}
    if sealed:
        russian = [[{"request": "t7/naval/russia/sailing-orders", "answer": RUSSIAN},
                    {"request": "t7/naval/russia/naval-routes", "sealed": seal(SALT, routes)}],
                   [{"unseal": "t7/naval/russia/naval-routes", "salt": SALT.hex(), "choice": routes}]]
    else:
        clear = {"fleets": {"ru-fleet-1": {"sortie": True, "search": "never", "route": ROUTE}}}
        russian = [[{"request": "t7/naval/russia/sailing-orders", "answer": clear}]]
    pending: dict[str, list[list[dict[str, Any]]]] = {
        "russia": russian, "japan": [[{"request": "t7/naval/japan/sailing-orders", "answer": JAPANESE}]]}
    return play_pending(game_dir, keys, pending)


def test_sealed_russian_routes_are_hidden_until_the_japanese_has_signed(tmp_path: Path) -> None:
    """RSR 4.11, RSR 4.12, RSR 7.1: the Russian packet carries only the routes' seal; the Japanese orders come
    next; the unsealed routes then move the fleet (when it has the initiative). Sealing costs one packet."""
    for game in range(1, 21):
        game_dir, events, packets = play(tmp_path / f"s{game}", sealed=True, game=game)
        if any(e.kind == "initiative" and e.data.get("fleet") == "ru-fleet-1" and e.data.get("initiative")
               for e in events):
            break
    else:
        raise AssertionError("Vitgeft never had the initiative in 20 games")
    log = load_log(game_dir)
    russian = log[2].inputs
    assert set(russian[1]) == {"request", "sealed"} and str(ROUTE) not in str(russian)
    assert log[3].side == "japan" and log[4].side == "russia" and "unseal" in log[4].inputs[0]
    moves = [e.data["to"] for e in events if e.kind == "naval-move" and e.data.get("fleet") == "ru-fleet-1"]
    assert moves == ROUTE
    assert [e.data.get("sealed") for e in events if e.kind == "sailing-orders" and "sealed" in e.data] == [True, False]
    result = CliRunner().invoke(main, ["verify", str(game_dir)])
    assert result.exit_code == 0, result.output
    _, _, clear_packets = play(tmp_path / "clear", sealed=False, game=game)
    assert packets == clear_packets + 1  # the unsealing packet
