"""Scenario data: YAML under ``scenarios/<ruleset>/``, validated by JSON Schemas, pinned by hash.

A scenario file names the data files it includes (map, counters, tables); the loaded scenario is one
document ``{scenario: ..., map: ..., counters: ..., tables: ...}`` whose RFC 8785 SHA-256 packet 0
records, so both players provably play the same data. A player who owns the game may pass an overlay
directory whose files replace the included ones of the same name (a transcription of the real map or
charts); the hash then pins that data instead. The folder ships inside the package as rsr.data.scenarios
(rsr/data/__init__.py finds it).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rsr.canonical import canonical_bytes
from rsr.data import scenarios_dir
from rsr.errors import BadInput
from rsr.schemas import SCHEMA_DIR, validate
from rsr.yamlio import load_yaml_file

SCENARIO_ROOT = scenarios_dir()
NAME_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")


@dataclass(frozen=True)
class Scenario:
    ruleset: str
    name: str
    data: dict[str, Any]
    sha256: str


def available(ruleset: str) -> list[str]:
    folder = SCENARIO_ROOT / ruleset
    return sorted(p.stem for p in folder.glob("*.yaml") if _is_scenario(p))


def _is_scenario(path: Path) -> bool:
    try:
        data = load_yaml_file(path)
    except BadInput:
        return False
    return isinstance(data, dict) and "include" in data and "ruleset" in data


def _validate_part(ruleset: str, part: str, value: Any, where: str) -> None:
    name = f"{ruleset}.{part}"
    if (SCHEMA_DIR / f"{name}.schema.json").exists():
        validate(name, value, where)
    elif (SCHEMA_DIR / f"{part}.schema.json").exists():
        validate(part, value, where)
    else:
        raise BadInput(f"{where}: no schema for part {part!r} of ruleset {ruleset}")


def _signature(folder: Path, overlay: Path | None) -> tuple[tuple[str, int, int], ...]:
    paths = sorted(folder.glob("*.yaml")) + (sorted(overlay.glob("*.yaml")) if overlay else [])
    return tuple((str(p), p.stat().st_mtime_ns, p.stat().st_size) for p in paths)


_CACHE: dict[tuple[Any, ...], Scenario] = {}


def load_scenario(ruleset: str, name: str, overlay: Path | None = None) -> Scenario:
    """Load, validate and hash a scenario; errors name the file and the path inside it.

    Parsed scenarios are kept per process, keyed by the files' sizes and times, since one command may
    replay a log several times. Callers must not change the returned data.
    """
    folder = SCENARIO_ROOT / ruleset
    key = (ruleset, name, str(overlay), _signature(folder, overlay) if folder.is_dir() else ())
    if key not in _CACHE:
        _CACHE.clear()
        _CACHE[key] = _load_scenario(ruleset, name, overlay)
    return _CACHE[key]


def _load_scenario(ruleset: str, name: str, overlay: Path | None) -> Scenario:
    if not NAME_RE.match(name):
        raise BadInput(f"scenario name {name!r} is not valid")
    folder = SCENARIO_ROOT / ruleset
    path = folder / f"{name}.yaml"
    if not path.exists():
        known = ", ".join(available(ruleset)) or "none"
        raise BadInput(f"ruleset {ruleset} has no scenario {name!r} (known: {known})")
    main = load_yaml_file(path)
    _validate_part(ruleset, "scenario", main, str(path))
    if main["ruleset"] != ruleset:
        raise BadInput(f"{path}: scenario is for ruleset {main['ruleset']}, not {ruleset}")
    combined: dict[str, Any] = {"scenario": main}
    for part, file_name in sorted(main["include"].items()):
        part_path = folder / file_name
        if overlay is not None and (overlay / file_name).exists():
            part_path = overlay / file_name
        if not part_path.exists():
            raise BadInput(f"{path}: include.{part} names {file_name}, which does not exist")
        value = load_yaml_file(part_path)
        _validate_part(ruleset, part, value, str(part_path))
        combined[part] = value
    digest = hashlib.sha256(canonical_bytes(combined)).hexdigest()
    return Scenario(ruleset, name, combined, digest)
