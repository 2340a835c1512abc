"""The quick paths of reading a packet (issue 11) give the verdicts of the full checks they stand for.

* ``rsr.canonical._canonical_fast`` accepts a payload only if ``strict_loads`` (UTF-8, no duplicate key, no
  float, bounded depth, RFC 8785 form) accepts it too, and then gives the same value;
* ``rsr.packet._exact_block`` reads a turn file as rsr writes it exactly as the tolerant reader does, and
  leaves any other text to it;
* ``rsr.schemas._exclusive_one_of`` rewrites a ``oneOf`` as ``anyOf`` only where no value can fit two
  branches: the compiled check then judges every mutated packet as jsonschema does on the shipped schema.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rsr import canonical, schemas
from rsr.errors import BadInput

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**60), max_value=2**60)
    | st.text(max_size=8) | st.sampled_from(["a", "é", "\u2028", "0123456789012345678"]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=4), children, max_size=4),
    max_leaves=20,
)


def _encoded(value: Any) -> bytes:
    """Sorted-key compact JSON: RFC 8785 for most values, not for big integers or some text (on purpose)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _strict(data: bytes) -> Any:
    """``strict_loads`` with the quick path turned off."""
    saved = canonical._canonical_fast
    canonical._canonical_fast = lambda _data: None  # type: ignore[assignment]
    try:
        return canonical.strict_loads(data)
    finally:
        canonical._canonical_fast = saved


def _agree(data: bytes) -> None:
    fast = canonical._canonical_fast(data)
    if fast is None:
        return
    assert _strict(data) == fast and type(_strict(data)) is type(fast)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_quick_canonical_check_accepts_only_what_the_full_check_accepts(value: Any) -> None:
    data = _encoded(value)
    _agree(data)
    if data.isascii() and data.count(b"[") + data.count(b"{") <= canonical.MAX_DEPTH:
        try:
            _strict(data)
        except BadInput:
            return
        if canonical._LONG_RUN not in data.translate(canonical._NOT_DIGITS):  # no run of 16 digits anywhere
            assert canonical._canonical_fast(data) == value  # the quick path is taken, not only safe


@settings(max_examples=300, deadline=None)
@given(json_values, st.data())
def test_quick_canonical_check_on_mutated_bytes(value: Any, data: st.DataObject) -> None:
    raw = bytearray(_encoded(value))
    for _ in range(data.draw(st.integers(min_value=1, max_value=3))):
        if not raw:
            break
        at = data.draw(st.integers(min_value=0, max_value=len(raw) - 1))
        raw[at] = data.draw(st.sampled_from(b' ",:{}[]01-9eE.a\\\n'))
    _agree(bytes(raw))


@pytest.mark.parametrize("text", [
    '{"a":1,"a":1}', '{"a":1.0}', '{"a":1e5}', '{"b":1,"a":2}', '{"a":9007199254740993}', '{"a":-0}',
    '{"a":NaN}', '{"a":"\\u00e9"}', '{ "a":1}', '[' * 70 + ']' * 70, '{"a":"x"}\n', '{"a":01}',
])
def test_quick_canonical_check_leaves_every_doubt_to_the_full_check(text: str) -> None:
    assert canonical._canonical_fast(text.encode()) is None


def test_only_exclusive_one_of_is_rewritten() -> None:
    schema = json.loads((schemas.SCHEMA_DIR / "packet.schema.json").read_text())
    rewritten = schemas._exclusive_one_of(schema)
    assert "anyOf" in rewritten["$defs"]["input"] and "oneOf" not in rewritten["$defs"]["input"]
    assert "oneOf" in rewritten["properties"]["prev"]  # null or a hash: not closed objects, left alone
    open_branches = {"type": "object", "oneOf": [
        {"additionalProperties": False, "required": ["a"], "properties": {"a": {}, "b": {}}},
        {"additionalProperties": False, "required": ["b"], "properties": {"a": {}, "b": {}}}]}
    assert "oneOf" in schemas._exclusive_one_of(open_branches)  # {"a", "b"} fits both: not exclusive
    untyped = {"oneOf": open_branches["oneOf"][:1] + [
        {"additionalProperties": False, "required": ["c"], "properties": {"c": {}}}]}
    assert "oneOf" in schemas._exclusive_one_of(untyped)  # without "type": "object" a string fits both


def _tolerant(text: str) -> list[Any]:
    from rsr import packet

    saved = packet._exact_block
    packet._exact_block = lambda _text: None  # type: ignore[assignment]
    try:
        return [(b.headers, b.payload_bytes, b.signature) for b in packet.extract_blocks(text)]
    except BadInput as exc:
        return [str(exc)]
    finally:
        packet._exact_block = saved


def _quick(text: str) -> list[Any]:
    from rsr import packet

    try:
        return [(b.headers, b.payload_bytes, b.signature) for b in packet.extract_blocks(text)]
    except BadInput as exc:
        return [str(exc)]


MUTATIONS = ["\n", " ", "\r", "\t", ">", "A", "=", ":", "G", "x", "\n\n", "\u00a0", "\x0c"]


@settings(max_examples=1000, deadline=None)
@given(st.binary(min_size=1, max_size=400), st.binary(min_size=64, max_size=64), st.data())
def test_the_exact_armor_reads_as_the_tolerant_reader(payload: bytes, signature: bytes, data: st.DataObject) -> None:
    from rsr.packet import _exact_block, armor

    text = armor(payload, signature, "ab" * 16, 7, "japan")
    assert _exact_block(text) is not None
    assert _quick(text) == _tolerant(text)
    chars = list(text)
    for _ in range(data.draw(st.integers(min_value=1, max_value=3))):
        at = data.draw(st.integers(min_value=0, max_value=len(chars) - 1))
        chars[at] = data.draw(st.sampled_from(MUTATIONS))
    mutated = "".join(chars)
    assert _quick(mutated) == _tolerant(mutated)


def test_absent_properties_checked_as_false_refuse_what_the_schema_refuses() -> None:
    """The packet schema's "none of these sections" (RS/RS or RSR alike: a later packet carries no invite,
    acceptance or nonce) still refuses them once written as ``false`` properties for the fast check."""
    schema = json.loads((schemas.SCHEMA_DIR / "packet.schema.json").read_text())
    rewritten = schemas._absent_as_false(schema)
    assert all("not" not in part["then"] for part in rewritten["allOf"])
    reference = schemas._validator("packet")  # jsonschema on the shipped schema: the reference
    for payload in _packets():
        for extra in ("invite", "accept", "nonce", "reveal", "resolution"):
            mutated = {**payload, extra: payload.get(extra, {"x": 1})}
            assert schemas._fast_accepts("packet", mutated) == reference.is_valid(mutated), (payload["seq"], extra)


def _packets() -> list[dict[str, Any]]:
    import tempfile
    from pathlib import Path

    from rsr.demo import run_demo
    from rsr.gamedir import load_log

    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "demo"
        run_demo(out, echo=lambda _: None, scenario="liaoyang-1904")
        return [p.payload for p in load_log(next(out.glob("audit/game-*")))]


def test_the_fast_check_of_a_packet_uses_the_schema_of_its_kind_of_seq() -> None:
    """The packet schema's ``if seq ... then ...`` parts, resolved per kind of seq for the fast check: no
    condition left to fail (each failure costs an exception), the same verdicts (the property test in
    tests/test_performance.py compares them with jsonschema on mutated packets)."""
    schema = schemas._absent_as_false(json.loads((schemas.SCHEMA_DIR / "packet.schema.json").read_text()))
    reference = schemas._validator("packet")
    for variant, required in (("0", "invite"), ("1", "accept"), ("2+", "resolution")):
        resolved = schemas._seq_variant(schema, variant)
        assert "allOf" not in resolved and required in resolved["required"]
    assert schemas._seq_variant(schema, "2+")["properties"]["prev"] == {"$ref": "#/$defs/sha256"}
    for payload in _packets():
        assert schemas._fast_accepts("packet", payload) and reference.is_valid(payload)
        for seq in (0, 1, 2, -1, "2", True):
            mutated = {**payload, "seq": seq}
            assert not schemas._fast_accepts("packet", mutated) or reference.is_valid(mutated), (payload["seq"], seq)
