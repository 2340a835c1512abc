"""JSON Schema validation with errors that name the file and the path inside it."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rsr.data import schemas_dir
from rsr.errors import BadInput

if TYPE_CHECKING:
    import jsonschema

SCHEMA_DIR: Path = schemas_dir()


@cache
def _validator(name: str) -> jsonschema.protocols.Validator:
    import jsonschema  # (imported on first use: commands that validate nothing start faster)

    path = SCHEMA_DIR / f"{name}.schema.json"
    schema = json.loads(path.read_text())
    cls = jsonschema.validators.validator_for(schema)
    # the schemas ship with rsr and tests/test_performance.py checks each against its meta-schema, so a
    # command does not pay for that check again (it costs more than importing jsonschema)
    return cls(schema)


# Schemas checked on the hot path (every packet of every log a command reads) are also compiled by
# fastjsonschema, which turns a schema into plain Python and checks a packet about fifteen times faster.
# It only ever says "valid" first: anything it refuses goes to jsonschema, the reference, for the verdict
# and the message (tests/test_performance.py compares the two on mutated packets).
FAST = ("packet",)


@cache
def _fast_validator(name: str) -> Callable[[Any], Any] | None:
    try:
        import fastjsonschema
    except ImportError:  # optional: without it jsonschema does all the work
        return None
    schema = _end_anchored(json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text()))
    # use_default=False: never fill in defaults (the payload must stay as signed)
    return fastjsonschema.compile(schema, use_default=False, use_formats=False)


def _end_anchored(schema: Any) -> Any:
    """The schema with each ``pattern`` ending in ``$`` ending in ``\\Z`` instead: Python's ``$`` also matches
    before a final newline, which the ECMA-262 ``$`` of JSON Schema (and jsonschema) does not."""
    if isinstance(schema, dict):
        return {k: (v[:-1] + "\\Z" if k == "pattern" and isinstance(v, str) and v.endswith("$")
                    and not v.endswith("\\$") else _end_anchored(v)) for k, v in schema.items()}
    if isinstance(schema, list):
        return [_end_anchored(v) for v in schema]
    return schema


def _fast_accepts(name: str, value: Any) -> bool:
    check = _fast_validator(name) if name in FAST else None
    if check is None:
        return False
    import fastjsonschema

    try:
        check(value)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def json_path(parts: Any) -> str:
    text = "$"
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text


def validate(name: str, value: Any, where: str) -> None:
    """Validate ``value`` against ``schemas/<name>.schema.json``; raise BadInput naming the path."""
    if _fast_accepts(name, value):
        return
    errors = sorted(_validator(name).iter_errors(value), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    if errors:
        first = errors[0]
        message = first.message if len(first.message) < 200 else first.message[:200] + "..."
        raise BadInput(f"{where}: {json_path(first.absolute_path)}: {message}")
