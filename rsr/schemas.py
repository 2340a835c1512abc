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
def _fast_validator(name: str, variant: str = "") -> Callable[[Any], Any] | None:
    """The compiled check of schema ``name``; with ``variant`` (packet only), the schema as it stands for
    packets of that kind of seq (see :func:`_seq_variant`)."""
    try:
        import fastjsonschema
    except ImportError:  # optional: without it jsonschema does all the work
        return None
    schema = _absent_as_false(_exclusive_one_of(_end_anchored(json.loads((SCHEMA_DIR / f"{name}.schema.json")
                                                                         .read_text()))))
    if variant:
        schema = _seq_variant(schema, variant)
    compiled = _compiled_code(schema, fastjsonschema)
    if compiled is None:
        # use_default=False: never fill in defaults (the payload must stay as signed)
        return fastjsonschema.compile(schema, use_default=False, use_formats=False)
    root, code = compiled
    namespace: dict[str, Any] = {}
    exec(code, namespace)  # noqa: S102 - fastjsonschema's own generated validator, compiled once (below)
    check: Callable[[Any], Any] = namespace[root]
    return check


CODE_CACHE_FORMAT = b"rsr-schema-code-1"


def _compiled_code(schema: Any, fastjsonschema: Any) -> tuple[str, Any] | None:
    """fastjsonschema's validator for ``schema`` as a code object, kept in the rsr home's cache between
    processes: generating and compiling it costs tens of milliseconds a command, loading it a fraction of one.
    Keyed by the schema, fastjsonschema's version and this Python's bytecode tag; an entry whose own SHA-256
    does not match is ignored and written anew. None when no code can be made (then ``compile`` is used)."""
    import copy
    import hashlib
    import marshal
    import sys

    from rsr.fileio import cache_home

    key = hashlib.sha256(b"\0".join([
        CODE_CACHE_FORMAT, json.dumps(schema, sort_keys=True).encode(), str(fastjsonschema.VERSION).encode(),
        str(sys.implementation.cache_tag).encode(), sys.version.encode()])).hexdigest()
    path = cache_home() / "schemas" / f"{key}.marshal"
    try:
        data = path.read_bytes()
        digest, _, body = data.partition(b"\n")
        if hashlib.sha256(body).hexdigest().encode() == digest:
            root, code = marshal.loads(body)
            if isinstance(root, str) and type(code).__name__ == "code":
                return root, code
    except (OSError, ValueError, EOFError, TypeError):
        pass
    try:
        source = fastjsonschema.compile_to_code(copy.deepcopy(schema), use_default=False, use_formats=False)  # (it
        # changes the dict it is given)
    except Exception:  # noqa: BLE001 - fall back to fastjsonschema.compile, which will say what is wrong
        return None
    root = next((line[4:line.index("(")] for line in source.splitlines() if line.startswith("def ")), None)
    if root is None:
        return None
    code = compile(source, f"<fastjsonschema {key[:12]}>", "exec")
    body = marshal.dumps((root, code))
    try:
        from rsr.fileio import atomic_write

        atomic_write(path, hashlib.sha256(body).hexdigest().encode() + b"\n" + body, mode=0o600, durable=False)
    except OSError:
        pass
    return root, code


def _end_anchored(schema: Any) -> Any:
    """The schema with each ``pattern`` ending in ``$`` ending in ``\\Z`` instead: Python's ``$`` also matches
    before a final newline, which the ECMA-262 ``$`` of JSON Schema (and jsonschema) does not."""
    if isinstance(schema, dict):
        return {k: (v[:-1] + "\\Z" if k == "pattern" and isinstance(v, str) and v.endswith("$")
                    and not v.endswith("\\$") else _end_anchored(v)) for k, v in schema.items()}
    if isinstance(schema, list):
        return [_end_anchored(v) for v in schema]
    return schema


_CLOSED_BRANCH = frozenset({"additionalProperties", "required", "properties", "description", "title"})


def _exclusive_one_of(schema: Any) -> Any:
    """The schema with each ``oneOf`` that can never have two branches valid at once written ``anyOf``: the
    same verdicts, but the compiled check stops at the first branch that fits instead of trying them all
    (each failed branch costs an exception). A ``oneOf`` qualifies when it sits in a ``"type": "object"``
    schema and its branches are closed objects (``additionalProperties: false``, only ``properties`` and
    ``required``) each of which requires a property another branch does not allow: an object valid in one
    branch then carries a key the others refuse."""
    if isinstance(schema, list):
        return [_exclusive_one_of(v) for v in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _exclusive_one_of(v) for k, v in schema.items()}
    branches = out.get("oneOf")
    if out.get("type") == "object" and isinstance(branches, list) and "anyOf" not in out and \
            all(_closed_branch(b) for b in branches) and \
            all(set(a["required"]) - set(b["properties"]) for a in branches for b in branches if a is not b):
        out["anyOf"] = out.pop("oneOf")
    return out


def _absent_as_false(schema: Any) -> Any:
    """The schema with each ``"not": {"anyOf": [{"required": [a]}, {"required": [b]}]}`` (neither a nor b
    present) in a ``then`` of an object schema's ``allOf`` written ``"properties": {a: false, b: false}``: the
    same verdict on an object (a ``false`` property schema refuses the property when present), checked
    without an exception raised and caught for every branch. Only where the ``then`` gives a, b no schema
    of its own; anything else is left as it is."""
    if not isinstance(schema, dict) or schema.get("type") != "object" or not isinstance(schema.get("allOf"), list):
        return schema
    out = dict(schema)
    out["allOf"] = [_then_absent_as_false(part) for part in schema["allOf"]]
    return out


def _then_absent_as_false(part: Any) -> Any:
    then = part.get("then") if isinstance(part, dict) else None
    refused = then.get("not") if isinstance(then, dict) else None
    if not (isinstance(then, dict) and isinstance(refused, dict) and set(refused) == {"anyOf"}
            and isinstance(refused["anyOf"], list)):
        return part
    names = []
    for branch in refused["anyOf"]:
        if not (isinstance(branch, dict) and set(branch) == {"required"} and isinstance(branch["required"], list)
                and len(branch["required"]) == 1 and isinstance(branch["required"][0], str)):
            return part
        names.append(branch["required"][0])
    properties = then.get("properties", {})
    if not isinstance(properties, dict) or any(n in properties for n in names):
        return part
    new_then = {k: v for k, v in then.items() if k != "not"}
    new_then["properties"] = {**properties, **{n: False for n in names}}
    return {**part, "then": new_then}


SEQ_VARIANTS = {"0": {"const": 0}, "1": {"const": 1}, "2+": {"minimum": 2}}


def _seq_variant(schema: Any, variant: str) -> Any:
    """The packet schema for packets whose ``seq`` is an integer of ``variant`` (0, 1, or 2 and up): its
    ``allOf`` of ``if seq ... then ...`` parts replaced by the one ``then`` that applies, merged in. The same
    verdict on such a packet (the other conditions fail, so their ``then`` never applied), checked without an
    exception raised and caught for each condition that fails. A property the ``then`` narrows to one branch
    of the base's ``oneOf`` takes that branch alone (``prev``: null at seq 0, a hash after); any other is
    checked against both. A schema of another shape is returned as it is."""
    parts = schema.get("allOf") if isinstance(schema, dict) else None
    conditions = [part.get("if") for part in parts or [] if isinstance(part, dict)]
    if not parts or len(conditions) != len(parts) or any(
            not isinstance(c, dict) or set(c) != {"properties"} or set(c["properties"]) != {"seq"}
            or set(part) != {"if", "then"} for c, part in zip(conditions, parts, strict=True)):
        return schema
    chosen = [part["then"] for part in parts if part["if"]["properties"]["seq"] == SEQ_VARIANTS[variant]]
    if len(chosen) != 1 or set(chosen[0]) - {"required", "properties"}:
        return schema
    then = chosen[0]
    out = {k: v for k, v in schema.items() if k != "allOf"}
    out["required"] = list(out.get("required", [])) + [r for r in then.get("required", [])
                                                        if r not in out.get("required", [])]
    properties = dict(out.get("properties", {}))
    for key, narrow in then.get("properties", {}).items():
        base = properties.get(key)
        branches = base.get("oneOf") if isinstance(base, dict) and set(base) == {"oneOf"} else None
        if narrow is False or base is None:
            properties[key] = narrow
        elif isinstance(branches, list) and narrow in branches:
            properties[key] = narrow
        else:
            properties[key] = {"allOf": [base, narrow]}
    out["properties"] = properties
    return out


def _closed_branch(branch: Any) -> bool:
    return isinstance(branch, dict) and set(branch) <= _CLOSED_BRANCH and \
        branch.get("additionalProperties") is False and isinstance(branch.get("properties"), dict) and \
        isinstance(branch.get("required"), list)


def _fast_accepts(name: str, value: Any) -> bool:
    seq = value.get("seq") if name == "packet" and isinstance(value, dict) else None
    variant = "" if type(seq) is not int or seq < 0 else "0" if seq == 0 else "1" if seq == 1 else "2+"
    check = _fast_validator(name, variant) if name in FAST else None
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
