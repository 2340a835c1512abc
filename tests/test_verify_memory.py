"""Verify's memory stays flat in the log's length (issue 24 target 2): once a pass's position is dropped,
nothing else keeps its state alive, in particular not the lazy options of the request the pass ended on."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path
from typing import Any

import pytest

from rsr.demo import run_demo
from rsr.engine import Request, forget_unread
from rsr.errors import BadInput
from rsr.gamedir import load_log
from rsr.games import verify_game
from rsr.log import replay


@pytest.fixture(scope="module")
def land_turn(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("memory") / "demo"
    run_demo(out, echo=lambda _: None, scenario="liaoyang-turn-1904")  # a whole land turn of Red Sun Rising
    return next(out.glob("audit/game-*"))


def live(kind: type) -> int:
    gc.collect()
    return sum(1 for obj in gc.get_objects() if type(obj) is kind)


def test_a_forgotten_request_frees_what_its_options_closed_over() -> None:
    class Big:
        pass

    def asking(big: Big) -> Request:
        return Request("r1", "a", "kind", "prompt", "X 1.0", options=lambda: {"n": id(big)},
                       template=lambda: [id(big)])

    held = Big()
    alive = weakref.ref(held)
    request = asking(held)
    del held
    forget_unread(request, "the request after packet 4's resolution was not kept")
    gc.collect()
    assert alive() is None
    with pytest.raises(BadInput, match="packet 4"):
        _ = request.options
    assert (request.id, request.side, request.prompt) == ("r1", "a", "prompt")
    read = Request("r2", "a", "kind", "prompt", "X 1.0", options=lambda: {"n": 1})
    assert read.options == {"n": 1}
    forget_unread(read, "unused")
    assert read.options == {"n": 1}  # a value already read stays


def test_verify_keeps_only_the_last_state_alive(land_turn: Path) -> None:
    packets = load_log(land_turn)
    kept = replay(packets)  # every position kept: one state a pass
    kind: Any = type(kept.position.state)
    assert len(kept.passes) >= 5
    assert live(kind) >= len(kept.passes)
    del kept
    before = live(kind)  # (states the demo's own process still holds, in caches)
    result = verify_game(land_turn)
    assert live(kind) - before <= 2, "states of dropped passes are still alive"
    last = result.passes[-1].waiting
    if last is not None:
        assert isinstance(last.options, dict)  # the request the game waits on still answers


def test_verify_keeps_no_parsed_payload_nor_events_of_old_packets(land_turn: Path) -> None:
    """Verify keeps each packet's bytes, not its parsed payload, and an old pass's dice, not its events
    (issue 24 target 2: 12 KB a packet); what it reports is what a replay keeping everything finds."""
    from rsr.packet import KnownPacket

    full = replay(load_log(land_turn))
    result = verify_game(land_turn)
    assert len(result.packets) == len(full.packets) >= 7
    for packet, same in zip(result.packets, full.packets, strict=True):
        assert (packet.payload_bytes, packet.signature, packet.file_name()) == \
            (same.payload_bytes, same.signature, same.file_name())
    old = result.packets[2:-2]
    assert old and all(isinstance(p, KnownPacket) and "payload" not in p.__dict__ for p in old)
    assert old[0].payload == full.packets[2].payload  # (parsed again when read)
    assert all(not r.events for r in result.passes[:-1]) and result.passes[-1].events
    assert [[roll.to_json() for roll in r.rolls] for r in result.passes] == \
        [[roll.to_json() for roll in r.rolls] for r in full.passes]
    assert result.passes[-1].state_hash == full.passes[-1].state_hash
