"""JSON Schema validation with errors that name the file and the path inside it."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from rsr.data import schemas_dir
from rsr.errors import BadInput

SCHEMA_DIR: Path = schemas_dir()


@cache
def _validator(name: str) -> jsonschema.protocols.Validator:
    path = SCHEMA_DIR / f"{name}.schema.json"
    schema = json.loads(path.read_text())
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def json_path(parts: Any) -> str:
    text = "$"
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text


def validate(name: str, value: Any, where: str) -> None:
    """Validate ``value`` against ``schemas/<name>.schema.json``; raise BadInput naming the path."""
    errors = sorted(_validator(name).iter_errors(value), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    if errors:
        first = errors[0]
        message = first.message if len(first.message) < 200 else first.message[:200] + "..."
        raise BadInput(f"{where}: {json_path(first.absolute_path)}: {message}")
