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


STATE_ENCODER = json.JSONEncoder(ensure_ascii=False, allow_nan=False, sort_keys=True, separators=(",", ":"))


def state_bytes(value: Any) -> bytes:
    """The canonical form of a game *state* for its digest (never of signed data, which is RFC 8785).

    JSON with object keys sorted, no whitespace, strings as UTF-8 with only the escapes JSON requires,
    integers, booleans and null: what the C encoder of the standard library writes. For the plain data a
    state holds (string keys of the Basic Multilingual Plane, integers below 2**53) these bytes equal
    RFC 8785's, at a small fraction of the cost of a pure-Python canonicaliser.
    """
    try:
        return STATE_ENCODER.encode(value).encode("utf-8")
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


def strict_loads(data: bytes, *, require_canonical: bool = True) -> Any:
    """Parse JSON bytes strictly: UTF-8, no duplicate keys, no floats, bounded depth.

    With ``require_canonical`` the bytes must equal their own RFC 8785 re-encoding.
    """
    if data.count(b"[") + data.count(b"{") > 100_000:
        raise BadInput("JSON has too many containers")
    if require_canonical:
        fast = _canonical_fast(data)
        if fast is not None:
            return fast
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
    except RecursionError as exc:  # the C parser stops absurd nesting itself; our limit is below
        raise BadInput(f"JSON nested deeper than {MAX_DEPTH} levels") from exc
    safe_ints = _depth_and_safe_ints(value)
    if require_canonical and not _is_canonical(value, data, safe_ints):
        raise BadInput("payload is not in RFC 8785 canonical form")
    return value


MAX_SAFE_INTEGER = 2**53 - 1  # RFC 8785 (I-JSON): integers beyond cannot be written
_NOT_DIGITS = bytes(0x30 if 0x30 <= b <= 0x39 else 0x2E for b in range(256))  # digits -> "0", the rest -> "."
_LONG_RUN = b"0" * 16  # every integer of at most 15 digits is within MAX_SAFE_INTEGER
_FAST_DECODER = json.JSONDecoder(parse_float=_reject_float, parse_constant=_reject_constant)


def _canonical_fast(data: bytes) -> Any | None:
    """The value of ``data`` when a quick look proves it passes every check of ``strict_loads``; else None
    (and ``strict_loads`` decides, with its messages).

    The quick look: ASCII bytes with at most ``MAX_DEPTH`` brackets (so no deeper nesting), no run of 16
    digits (so every integer is within RFC 8785's domain), parsed by the C parser with floats and constants
    refused, and equal to the C encoder's sorted-key form of what was parsed, which for such values is the
    RFC 8785 form. A duplicate key would be lost in parsing and make the re-encoded bytes shorter, so equal
    bytes also prove there is none.
    """
    if not data.isascii() or data.count(b"[") + data.count(b"{") > MAX_DEPTH or \
            _LONG_RUN in data.translate(_NOT_DIGITS):
        return None
    try:
        value = _FAST_DECODER.decode(data.decode("ascii"))
    except (ValueError, BadInput, RecursionError):
        return None
    try:
        if STATE_ENCODER.encode(value).encode("ascii") != data:
            return None
    except (TypeError, ValueError):
        return None
    return value


def _depth_and_safe_ints(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Refuse nesting deeper than ``limit``; say whether every integer is within RFC 8785's domain."""
    stack = [(value, 1)]
    safe = True
    while stack:
        item, level = stack.pop()
        if level > limit:
            raise BadInput(f"JSON nested deeper than {limit} levels")
        if isinstance(item, dict):
            stack.extend((v, level + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, level + 1) for v in item)
        elif isinstance(item, int) and not -MAX_SAFE_INTEGER <= item <= MAX_SAFE_INTEGER:
            safe = False
    return safe


def _is_canonical(value: Any, data: bytes, safe_ints: bool) -> bool:
    """Are ``data`` the RFC 8785 bytes of ``value``?

    For ASCII text with integers in the I-JSON range (every packet rsr writes), RFC 8785 and the standard
    library's C encoder with sorted keys agree byte for byte (key order by UTF-16 unit and by code point
    coincide on ASCII; the same escapes), so that is checked first; anything else, or any difference,
    goes to the RFC 8785 encoder for the answer.
    """
    if safe_ints and data.isascii() and STATE_ENCODER.encode(value).encode("utf-8") == data:
        return True
    return canonical_bytes(value) == data
