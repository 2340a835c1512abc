"""Canonical JSON (RFC 8785) and a strict JSON reader.

The signed bytes of a packet are RFC 8785 canonical JSON; we use the ``rfc8785`` package for the
encoding and refuse anything that is not already canonical, has duplicate keys, floats, or is
nested absurdly deep.
"""

from __future__ import annotations

import json
from typing import Any

import rfc8785

from rsr.errors import BadInput

MAX_DEPTH = 64


def canonical_bytes(value: Any) -> bytes:
    """The RFC 8785 encoding of ``value``."""
    try:
        return rfc8785.dumps(value)
    except (rfc8785.CanonicalizationError, TypeError, ValueError) as exc:
        raise BadInput(f"value cannot be written as canonical JSON: {exc}") from exc


_STATE_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False, sort_keys=True, separators=(",", ":"))


def state_bytes(value: Any) -> bytes:
    """The canonical form of a game *state* for its digest (never of signed data, which is RFC 8785).

    JSON with object keys sorted, no whitespace, strings as UTF-8 with only the escapes JSON requires,
    integers, booleans and null: what the C encoder of the standard library writes. For the plain data a
    state holds (string keys of the Basic Multilingual Plane, integers below 2**53) these bytes equal
    RFC 8785's, at a small fraction of the cost of a pure-Python canonicaliser.
    """
    try:
        return _STATE_ENCODER.encode(value).encode("utf-8")
    except (TypeError, ValueError, UnicodeEncodeError) as exc:
        raise BadInput(f"state cannot be written as canonical JSON: {exc}") from exc


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise BadInput(f"duplicate key {key!r} in JSON")
        result[key] = value
    return result


def _reject_float(text: str) -> Any:
    raise BadInput(f"number {text} is not an integer; packets carry integers only")


def _reject_constant(text: str) -> Any:
    raise BadInput(f"{text} is not JSON")


def _depth(value: Any, limit: int = MAX_DEPTH) -> int:
    stack = [(value, 1)]
    deepest = 0
    while stack:
        item, level = stack.pop()
        deepest = max(deepest, level)
        if level > limit:
            raise BadInput(f"JSON nested deeper than {limit} levels")
        if isinstance(item, dict):
            stack.extend((v, level + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, level + 1) for v in item)
    return deepest


def strict_loads(data: bytes, *, require_canonical: bool = True) -> Any:
    """Parse JSON bytes strictly: UTF-8, no duplicate keys, no floats, bounded depth.

    With ``require_canonical`` the bytes must equal their own RFC 8785 re-encoding.
    """
    if data.count(b"[") + data.count(b"{") > 100_000:
        raise BadInput("JSON has too many containers")
    try:
        text = data.decode("utf-8")
        value = json.loads(
            text,
            object_pairs_hook=_no_duplicates,
            parse_float=_reject_float,
            parse_constant=_reject_constant,
        )
    except UnicodeDecodeError as exc:
        raise BadInput(f"payload is not UTF-8: {exc.reason}") from exc
    except json.JSONDecodeError as exc:
        raise BadInput(f"payload is not JSON: {exc.msg} at byte {exc.pos}") from exc
    except RecursionError as exc:  # the C parser stops absurd nesting itself; _depth applies our limit
        raise BadInput(f"JSON nested deeper than {MAX_DEPTH} levels") from exc
    _depth(value)
    if require_canonical and canonical_bytes(value) != data:
        raise BadInput("payload is not in RFC 8785 canonical form")
    return value
