"""The packets-per-game-turn measure (bench/packets_per_turn.py, docs/performance.md) counts what it says."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from rsr.gamedir import load_log

BENCH = Path(__file__).resolve().parents[1] / "bench" / "packets_per_turn.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("packets_per_turn", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


ppt = _load()


@pytest.mark.parametrize("ask_all", [False, True], ids=["default", "ask-all"])
def test_every_packet_after_the_acceptance_is_counted_once(tmp_path: Path, ask_all: bool,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RSR_HOME", str(tmp_path / "home"))
    count = ppt.play("red-sun-rising", "liaoyang-1904", ask_all, 5, tmp_path)
    assert count.finished
    packets = load_log(next((tmp_path / "a").glob("game-*")))
    assert count.last_reveal == 1  # the packet after the game's end that reveals its last dice
    assert sum(count.per_turn.values()) + count.last_reveal == len(packets) - 2
    assert count.turns == [7]
    asked = [item for packet in packets for item in packet.payload["inputs"] if "policy" in item]
    assert bool(asked) == ask_all
    if ask_all:
        assert {item["rule"] for item in asked} == {"ask"}
        assert {item["policy"] for item in asked} == set(ppt.get_ruleset("red-sun-rising").policy_defaults)


def test_table_gives_a_spread_over_games() -> None:
    rows = []
    for mode, values in (("default policies", [5, 7]), ("every question asked", [9, 9])):
        for value in values:
            row = ppt.Count("red-sun-rising", "x", mode, finished=True)
            row.per_turn[7] = value
            rows.append(row)
    lines = ppt.table(rows)
    assert lines[2] == "| x | red-sun-rising | 7 (a whole game) | 2 | 5-7 (mean 6.0) | 9 |"
