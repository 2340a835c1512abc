"""The faster state copy and digest of issue 11, phase 4, give what the plain ones give.

``rsr.engine.deep_copy`` must copy exactly as ``copy.deepcopy`` does (same values, shared objects still
shared, the fixed data never copied); ``Position.digest_bytes`` must write exactly the bytes of
``state_bytes(position.to_json(ruleset))``, for every position of a real game of each ruleset, and for
the awkward cases a game may never reach (a record that holds ``True`` where another held ``1``, a state
string that looks like the writer's own place-holder).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

import pytest

from rsr.canonical import state_bytes
from rsr.engine import Position, QueuedInput, deep_copy, initial_position
from rsr.gamedir import load_log
from rsr.log import replay
from rsr.provenance import SharedStatic
from rsr.rulesets import get_ruleset
from rsr.scenario import load_scenario
from tests.support.played import played_game


@dataclass
class _Leaf:
    name: str
    items: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class _Frozen:
    label: str
    data: dict[str, Any]


class _Fixed(SharedStatic):
    def __init__(self) -> None:
        self.table = [1, 2, 3]


def _shape(value: Any, seen: dict[int, int] | None = None) -> Any:
    """The value with every mutable object numbered by first appearance: equal shapes mean equal values and
    the same sharing between the parts."""
    seen = {} if seen is None else seen
    if isinstance(value, (str, int, float, bool, type(None), bytes)):
        return (type(value).__name__, value)
    if isinstance(value, SharedStatic):
        return ("shared", id(value))
    if id(value) in seen:
        return ("seen", seen[id(value)])
    number = seen[id(value)] = len(seen)
    if isinstance(value, dict):
        return ("dict", number, [(_shape(k, seen), _shape(v, seen)) for k, v in value.items()])
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, number, [_shape(v, seen) for v in value])
    return (type(value).__name__, number, [(k, _shape(v, seen)) for k, v in vars(value).items()])


def test_deep_copy_copies_as_copy_deepcopy_does() -> None:
    shared = [1, 2]
    leaf = _Leaf("a", shared)
    fixed = _Fixed()
    value = {
        "leaves": [leaf, leaf, _Leaf("b")],
        "shared": shared,
        "frozen": _Frozen("f", {"x": [leaf]}),
        "tuple": (1, "two", [3]),
        "plain tuple": (1, 2),
        "fixed": fixed,
        "nested": {"deep": [{"deeper": [None, True, 0, 1.5, b"x"]}]},
    }
    value["self"] = value  # (a cycle)
    mine, theirs = deep_copy(value), copy.deepcopy(value)
    assert _shape(mine) == _shape(theirs)
    assert mine["leaves"][0] is mine["leaves"][1] and mine["leaves"][0].items is mine["shared"]
    assert mine["leaves"][0] is not leaf and mine["shared"] is not shared
    assert mine["fixed"] is fixed and mine["self"] is mine
    assert mine["plain tuple"] is value["plain tuple"]
    mine["shared"].append(9)
    assert shared == [1, 2] and mine["leaves"][1].items == [1, 2, 9]


@pytest.mark.parametrize("ruleset_id", ["red-sun-rising", "red-star"])
def test_positions_copy_and_digest_as_the_plain_ways_at_every_pass(ruleset_id: str) -> None:
    """Every position of a whole demo game: the copy equals copy.deepcopy's and the digest bytes equal
    ``state_bytes`` of the position's JSON (the replay itself checks each digest against the signed one)."""
    result = replay(load_log(played_game(ruleset_id)))
    assert len(result.passes) >= 2
    for record in result.passes:
        position = record.after
        assert position is not None
        expected = state_bytes(position.to_json(result.ruleset))
        assert position.digest_bytes(result.ruleset) == expected
        mine = deep_copy(position)
        assert mine.state is not position.state
        assert state_bytes(mine.to_json(result.ruleset)) == expected
        assert _shape(mine.queues) == _shape(copy.deepcopy(position.queues))
        assert _shape(mine.policies) == _shape(copy.deepcopy(position.policies))


def test_a_record_holding_true_where_another_held_one_is_written_as_true() -> None:
    """JSON tells ``true`` from ``1`` though Python's equality does not: the memo of record texts keys on
    the types too."""
    ruleset = get_ruleset("red-star")
    position = initial_position(ruleset, load_scenario("red-star", "july-1939"), {})
    unit = next(iter(position.state.units.values()))
    for value in (1, True, 0, False, 1):
        unit.disruption = value
        assert position.digest_bytes(ruleset) == state_bytes(position.to_json(ruleset))
    unit.disruption = 0


def test_a_state_string_that_looks_like_the_place_holder_changes_nothing() -> None:
    ruleset = get_ruleset("red-star")
    position = initial_position(ruleset, load_scenario("red-star", "july-1939"), {})
    position.state.pontoon_placed = "\x00rsr-records-0\x00"
    position.state.pontoon_left = "\x00rsr-records-1\x00"
    assert position.digest_bytes(ruleset) == state_bytes(position.to_json(ruleset))
    position.policies["japan"]["odd"] = "\x00rsr-records-0\x00"
    assert position.digest_bytes(ruleset) == state_bytes(position.to_json(ruleset))


def test_queued_inputs_are_copied_not_shared() -> None:
    """The copy a pass works on never reaches into the packet's own payload (a ruleset may change what it
    is given)."""
    payload = {"answer": {"moves": [["a", "b"]]}, "request": "r1"}
    position = Position(state={"n": 1}, queues={"x": [QueuedInput(3, 0, payload)]}, policies={"x": {}})
    mine = deep_copy(position)
    mine.queues["x"][0].input["answer"]["moves"].append(["c"])
    assert payload == {"answer": {"moves": [["a", "b"]]}, "request": "r1"}
