"""The behaviour-preservation corpus's CI sample (tools/corpus.py; issue 21).

Two bot games of Red Sun/Red Star (the contact scenario and the artillery scenario), played by mail on the
code before the decisions redesign, kept as their packet files (tests/corpus/games/*/game) with what a replay
gave then (expected.json: every pass's digest and events, every request built, the one each pass waits for).
Today's code must replay them to the same. The whole corpus (five games per scenario and every case file,
recorded outside the repository) is checked with ``python tools/corpus.py check DIR``.

A deliberate change of behaviour (a rules fix) re-records the sample: ``python tools/corpus.py record
tests/corpus --games 0 --no-cases`` (and says so in its commit).
"""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "tests" / "corpus"


def corpus_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rsr_corpus_tool", REPO / "tools" / "corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GAMES = sorted(p.parent.name for p in (SAMPLE / "games").glob("*/expected.json"))


def test_the_sample_holds_a_game_of_each_kind() -> None:
    assert GAMES == ["july-1939-artillery-0", "july-1939-contact-0"]


@pytest.mark.parametrize("name", GAMES)
def test_a_recorded_game_replays_to_the_same_digests_events_and_requests(name: str) -> None:
    tool = corpus_tool()
    where = SAMPLE / "games" / name
    expected = json.loads((where / "expected.json").read_text(encoding="utf-8"))
    actual = {"game": expected["game"], **tool.game_record(where / expected["game"])}
    assert len(expected["passes"]) > 5 and expected["asked"], "the recording holds a real game"
    assert tool.differences(expected, actual) == []


def test_check_reports_a_game_that_replays_differently(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tool = corpus_tool()
    copy = tmp_path / "games" / "july-1939-artillery-0"
    shutil.copytree(SAMPLE / "games" / "july-1939-artillery-0", copy)
    expected = json.loads((copy / "expected.json").read_text(encoding="utf-8"))
    expected["asked"][0]["prompt"] += " (changed)"
    (copy / "expected.json").write_text(json.dumps(expected), encoding="utf-8")
    assert tool.check(tmp_path) == 1
    out = capsys.readouterr().out
    assert "DIFFERS games/july-1939-artillery-0/expected.json: .asked[0].prompt" in out
    assert out.rstrip().endswith("1 recorded, 1 differ")
