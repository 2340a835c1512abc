"""rsr/shapes.py gives jsonschema's own verdict for the simple answer shapes of the rules (issue 24)."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from rsr.rulesets.red_star import choices
from rsr.shapes import simple_checker

SCHEMAS: list[Any] = [
    {},
    {"type": "object", "properties": {"combats": {"type": "array"}, "dropped": {}}},
    choices.CHOICES_SCHEMA,
    {"type": "object", "propertyNames": {"enum": ["release", "create"]}},
    {"type": "string", "enum": ["a", "b"]},
    {"properties": {"x": {"type": "string"}}, "required": ["x", "y"]},
]

VALUES: list[Any] = [
    None, True, False, 0, 1, 1.0, -3, "", "a", "b", "release", "combats", [], [1], [{}], {}, {"combats": {}},
    {"combats": []}, {"combats": {"c1": {"lead": "u"}}}, {"combats": {}, "extra": 1}, {"combats": None},
    {"dropped": 5}, {"combats": [], "dropped": {"x": 1}}, {"release": [], "create": []}, {"release": 1},
    {"other": 1}, {"release": [], "other": 2}, {"x": "s", "y": 1}, {"x": 3, "y": 1}, {"x": "s"}, {"y": None},
    {1: 2}, {"": ""},
]


@pytest.mark.parametrize("schema", SCHEMAS, ids=range(len(SCHEMAS)))
def test_the_simple_checker_agrees_with_jsonschema(schema: Any) -> None:
    check = simple_checker(schema)
    assert check is not None
    reference = jsonschema.Draft202012Validator(schema)
    for value in VALUES:
        if isinstance(value, dict) and any(not isinstance(key, str) for key in value):
            continue  # (not JSON: answers come from JSON)
        assert check(value) is reference.is_valid(value), (schema, value)


@pytest.mark.parametrize("schema", [
    {"type": "integer"}, {"type": "number"}, {"type": ["object", "null"]}, {"enum": [1, 2]}, {"minItems": 1},
    {"properties": {"a": {"type": "boolean"}}}, {"additionalProperties": {"type": "string"}},
    {"type": "object", "properties": {"a": {"items": {}}}}, {"propertyNames": {"pattern": "^a"}},
])
def test_any_other_schema_is_left_to_jsonschema(schema: Any) -> None:
    assert simple_checker(schema) is None
