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
    from rsr.catalogue import available as listed  # (the big data files skipped unparsed)

    return listed(ruleset, SCENARIO_ROOT)


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
        _CACHE[key] = _load_via_disk_cache(ruleset, name, overlay, folder)
    return _CACHE[key]


# -- the validated scenario kept between processes ----------------------------------------------------------
#
# Reading the YAML and checking it against the schemas costs a tenth of a second or more for every command;
# the result depends only on the bytes of the scenario files, the schemas and this code. So it is kept in
# ``<rsr home>/cache/scenarios/<key>.json``, ``key`` being the SHA-256 of those inputs. An entry records the
# SHA-256 of its own data and the scenario's hash; an entry that does not match (a corrupted or truncated
# file, an edit by hand) is ignored and written anew, never trusted. The cache is only an accelerator: if it
# cannot be written (a read-only home), everything works as without it.

CACHE_FORMAT = "rsr-scenario-cache-1"


def cache_dir() -> Path:
    """Where validated scenarios are kept: ``$RSR_HOME/cache/scenarios``, else the user's cache folder."""
    from rsr.fileio import cache_home

    return cache_home() / "scenarios"


def _cache_key(ruleset: str, name: str, overlay: Path | None, folder: Path) -> str | None:
    """SHA-256 of everything a loaded scenario depends on, or None if the files cannot be read."""
    digest = hashlib.sha256(f"{CACHE_FORMAT}\0{ruleset}\0{name}\0{overlay}\0".encode())
    try:
        files = sorted(folder.glob("*.yaml")) + (sorted(overlay.glob("*.yaml")) if overlay else [])
        files += sorted(SCHEMA_DIR.glob("*.schema.json"))
        for path in files:
            data = path.read_bytes()
            digest.update(f"{path.parent.name}/{path.name}\0{len(data)}\0".encode())
            digest.update(data)
    except OSError:
        return None
    return digest.hexdigest()


def read_cached(path: Path) -> tuple[dict[str, Any], str] | None:
    """The data and scenario hash of a cache entry, or None if it is missing, damaged or not ours."""
    import json

    try:
        header, _, body = path.read_bytes().partition(b"\n")
        meta = json.loads(header)
        if meta.get("format") != CACHE_FORMAT or hashlib.sha256(body).hexdigest() != meta.get("data_sha256"):
            return None
        data = json.loads(body)
    except (OSError, ValueError, AttributeError):
        return None
    if not isinstance(data, dict) or not isinstance(meta.get("scenario_sha256"), str):
        return None
    return data, meta["scenario_sha256"]


def _write_cached(path: Path, scenario: Scenario) -> None:
    import json
    import os
    import tempfile

    body = json.dumps(scenario.data, ensure_ascii=False, separators=(",", ":")).encode()
    if json.loads(body) != scenario.data:
        return  # something JSON cannot carry exactly: do not cache it
    header = json.dumps({"format": CACHE_FORMAT, "data_sha256": hashlib.sha256(body).hexdigest(),
                         "scenario_sha256": scenario.sha256}).encode()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as handle:
            handle.write(header + b"\n" + body)
        os.replace(tmp, path)
    except OSError:
        pass  # only an accelerator


def _load_via_disk_cache(ruleset: str, name: str, overlay: Path | None, folder: Path) -> Scenario:
    key = _cache_key(ruleset, name, overlay, folder) if folder.is_dir() else None
    if key is None:
        return _load_scenario(ruleset, name, overlay)
    path = cache_dir() / f"{key}.json"
    found = read_cached(path)
    if found is not None:
        data, sha256 = found
        return Scenario(ruleset, name, data, sha256)
    scenario = _load_scenario(ruleset, name, overlay)
    _write_cached(path, scenario)
    return scenario


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
