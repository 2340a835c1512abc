"""RS/RS 10.2: the supply net spread over the map as bits (issue 24, real play) is the very net the spread over
sets gives, position by position of a bot game, with every bridge standing or none, and units cut off."""

from __future__ import annotations

import random

import pytest

from bench.games import play
from rsr.gamedir import load_log
from rsr.log import replay
from rsr.rulesets.red_star import terrain


@pytest.fixture(scope="module")
def positions(tmp_path_factory: pytest.TempPathFactory) -> list[object]:
    game_dir = play(tmp_path_factory.mktemp("supply-bits"), "red-star", "july-1939", 24)
    result = replay(load_log(game_dir), keep_positions=True)
    return [record.position.state for record in result.passes if record.position is not None]


def _both(state: object, side: str, monkeypatch: pytest.MonkeyPatch) -> tuple[frozenset[str], frozenset[str]]:
    state.static.memo.clear()  # type: ignore[attr-defined]
    bits = terrain.supplied_hexes(state, side)  # type: ignore[arg-type]
    state.static.memo.clear()  # type: ignore[attr-defined]
    with monkeypatch.context() as patch:
        patch.setattr(terrain, "_spread_as_bits", lambda *args: None)
        sets = terrain.supplied_hexes(state, side)  # type: ignore[arg-type]
    state.static.memo.clear()  # type: ignore[attr-defined]
    return bits, sets


@pytest.mark.parametrize("bridges", ["as played", "all standing", "none"])
def test_the_net_as_bits_is_the_net_as_sets(positions: list[object], bridges: str,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    assert len(positions) >= 10
    if bridges != "as played":
        monkeypatch.setattr(terrain, "bridge_exists", lambda state, side_id: bridges == "all standing")
    for state in positions[::3]:
        for side in ("japan", "soviet"):
            bits, sets = _both(state, side, monkeypatch)
            assert bits == sets
            assert bits  # (a net that reaches nothing would prove little)


def test_units_moved_at_random_cut_the_same_net(positions: list[object], monkeypatch: pytest.MonkeyPatch) -> None:
    """Enemy units and zones of control scattered over the map: the nets still agree, hex for hex."""
    import copy

    rng = random.Random(24)
    state = copy.deepcopy(positions[-1])
    hexes = sorted(state.static.links)  # type: ignore[attr-defined]
    smaller = 0
    for _ in range(6):
        for unit in state.on_map():  # type: ignore[attr-defined]
            unit.hex = rng.choice(hexes)
        for side in ("japan", "soviet"):
            bits, sets = _both(state, side, monkeypatch)
            assert bits == sets
            smaller += len(bits) < len(hexes)
    assert smaller  # (some net was cut)
