"""JSON Schema validation with errors that name the file and the path inside it."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rsr.errors import BadInput

if TYPE_CHECKING:
    import jsonschema

REPO_ROOT = Path(__file__).resolve().parent.parent
SCHEMA_DIR = REPO_ROOT / "schemas"


@cache
def _validator(name: str) -> jsonschema.protocols.Validator:
    import jsonschema  # (imported on first use: commands that validate nothing start faster)

    path = SCHEMA_DIR / f"{name}.schema.json"
    schema = json.loads(path.read_text())
    cls = jsonschema.validators.validator_for(schema)
    # the schemas ship with rsr and tests/test_performance.py checks each against its meta-schema, so a
    # command does not pay for that check again (it costs more than importing jsonschema)
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
