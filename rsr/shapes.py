"""A checker for the small part of JSON Schema the rules' answer shapes use (rsr/decisions.py), so that a
command replaying a few answers does not import jsonschema (about a third of a receive's start-up).

``simple_checker(schema)`` returns a function giving jsonschema's own verdict (Draft 2020-12) for a schema
built only of the keywords below, and None for any other schema (the caller then uses jsonschema itself):

* ``type`` of ``object``, ``array`` or ``string`` (the types whose meaning has no JSON-versus-Python catch:
  an ``integer`` would have to refuse ``True`` and accept ``1.0``);
* ``properties``, ``required``, ``additionalProperties`` (true or false), ``propertyNames``;
* ``enum`` of strings only.

tests/test_shapes.py checks the verdicts against jsonschema's on many answers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Checker = Callable[[Any], bool]

_TYPES: dict[str, type] = {"object": dict, "array": list, "string": str}
_KEYWORDS = frozenset({"type", "properties", "required", "additionalProperties", "propertyNames", "enum"})


def simple_checker(schema: Any) -> Checker | None:
    """jsonschema's verdict for ``schema`` as a plain function, or None if it uses more than this module knows."""
    if schema is True or schema == {}:
        return lambda value: True
    if not isinstance(schema, dict) or not set(schema) <= _KEYWORDS:
        return None
    parts: list[Checker] = []
    if "type" in schema:
        kind = _TYPES.get(schema["type"]) if isinstance(schema["type"], str) else None
        if kind is None:
            return None
        parts.append(_is_a(kind))
    if "enum" in schema:
        allowed = schema["enum"]
        if not isinstance(allowed, list) or not all(isinstance(item, str) for item in allowed):
            return None
        parts.append(_one_of(tuple(allowed)))
    object_part = _object_checker(schema)
    if object_part is False:
        return None
    if object_part is not True:
        parts.append(object_part)

    def check(value: Any) -> bool:
        return all(part(value) for part in parts)

    return check


def _is_a(kind: type) -> Checker:
    return lambda value: isinstance(value, kind)


def _one_of(allowed: tuple[str, ...]) -> Checker:
    return lambda value: isinstance(value, str) and value in allowed


def _object_checker(schema: dict[str, Any]) -> Checker | bool:
    """The object keywords of ``schema`` (they say nothing of a value that is not an object): True if none,
    False if one is beyond this module."""
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    extra = schema.get("additionalProperties", True)
    names = schema.get("propertyNames")
    if not isinstance(properties, dict) or not isinstance(required, list) or \
            not all(isinstance(name, str) for name in required) or not isinstance(extra, bool):
        return False
    checkers: dict[str, Checker] = {}
    for name, sub in properties.items():
        found = simple_checker(sub)
        if found is None:
            return False
        checkers[name] = found
    name_check = simple_checker(names) if names is not None else None
    if names is not None and name_check is None:
        return False
    if not checkers and not required and extra and name_check is None:
        return True

    def check(value: Any) -> bool:
        if not isinstance(value, dict):
            return True
        if any(name not in value for name in required):
            return False
        for key, item in value.items():
            if name_check is not None and not name_check(key):
                return False
            found = checkers.get(key)
            if found is not None:
                if not found(item):
                    return False
            elif not extra:
                return False
        return True

    return check
