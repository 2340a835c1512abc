"""Checkpoints of replayed positions (rsr/cache.py): a command at the end of a game starts from the newest
checkpoint it can trust, and reaches exactly the state a replay from scratch reaches.

A checkpoint is trusted only if its position hashes to the state the packet's signed resolution recorded;
a damaged, stale or planted one is ignored. ``rsr verify`` never uses one.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from rsr.cache import HomeCheckpoints
from rsr.demo import run_demo
from rsr.game import load_log, replay


@pytest.fixture(scope="module")
def long_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("cache") / "demo"
    run_demo(out, echo=lambda _: None, scenario="liaoyang-turn-1904")  # a whole land turn
    return next(out.glob("audit/game-*"))


def test_cached_and_full_replay_agree_at_every_packet(long_game: Path, tmp_path: Path) -> None:
    packets = load_log(long_game)
    full = replay(packets)
    assert len(full.passes) >= 6
    store = HomeCheckpoints(tmp_path / "cache")
    started_from = []
    for end in range(3, len(packets) + 1):
        cached = replay(packets[:end], store)
        started_from.append(None if cached.complete else cached.passes[0].resolver)
        expected = full.passes[end - 3]
        assert cached.passes[-1].state_hash == expected.state_hash
        assert cached.position.digest(cached.ruleset) == replay(packets[:end]).position.digest(full.ruleset)
        store.save(cached)
    # every replay after the first started from the checkpoint the one before it left
    assert started_from[0] is None and started_from[1:] == list(range(2, len(packets) - 1))


def test_a_damaged_or_stale_checkpoint_is_ignored(long_game: Path, tmp_path: Path) -> None:
    packets = load_log(long_game)
    store = HomeCheckpoints(tmp_path / "cache")
    store.save(replay(packets))
    path = store.path(packets[-1], replay(packets[:1]).ruleset)
    assert path.exists()
    assert not replay(packets, store).complete  # the good checkpoint is used

    path.write_bytes(b"not a pickle")
    assert replay(packets, store).complete  # damaged: replayed from scratch

    record = replay(packets).passes[-1]
    record.position.state = replay(packets[:3]).passes[-1].position.state  # another position, same name
    path.write_bytes(pickle.dumps(record))
    result = replay(packets, store)
    assert result.complete
    assert result.passes[-1].state_hash == packets[-1].payload["resolution"]["state"]


def test_verify_does_not_use_checkpoints(long_game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from rsr import cache
    from rsr.cli import main

    calls: list[int] = []
    monkeypatch.setattr(cache.HomeCheckpoints, "newest", lambda self, p, r: calls.append(1))
    out = CliRunner().invoke(main, ["verify", str(long_game)])
    assert out.exit_code == 0 and calls == []
