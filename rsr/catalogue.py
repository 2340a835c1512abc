"""The scenario catalogue: which scenarios each ruleset has, and their titles, without loading any ruleset.

``rsr scenarios`` and ``rsr demo --help`` list the scenarios; they must start about as fast as ``import
click`` (docs/performance.md). A ruleset's folder holds its scenarios next to the big data files they
include (maps, counters, tables). A scenario is a YAML mapping with the top-level keys ``include`` and
``ruleset`` (rsr/scenario.py); a file whose bytes never spell ``include`` and ``ruleset`` cannot have those
keys, so it is skipped without being parsed, and only the small scenario files are read as YAML. (A key
spelled with YAML escapes, such as ``"\\x69nclude"``, would be missed: no scenario is written so.)
Nothing here imports a ruleset, the schemas or the scenario loader.

The listing is kept in ``<rsr home>/cache/catalogue.json`` with the name, size and modification time of
every YAML file of every ruleset folder; while none of them changed, the listing is read from there and no
YAML is parsed (nor the YAML library imported). It is display only: nothing a game computes comes from it,
and a damaged, foreign or stale entry is ignored and written anew.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from rsr.errors import BadInput

MAX_SCENARIO_BYTES = 4 * 1024 * 1024  # as rsr/yamlio.py bounds any YAML file


def scenario_root() -> Path:
    """Where the scenarios are: the scenario loader's folder when it is loaded (tests and the bench point
    it elsewhere), else the installed data."""
    loaded = sys.modules.get("rsr.scenario")
    if loaded is not None:
        return Path(loaded.SCENARIO_ROOT)
    from rsr.data import scenarios_dir

    return scenarios_dir()


def _may_be_scenario(path: Path) -> bool:
    """False only for a file that cannot be a scenario: its bytes never spell both top-level keys."""
    from rsr.fileio import read_limited

    try:
        data = read_limited(path, MAX_SCENARIO_BYTES, "YAML file")
    except (BadInput, OSError):
        return True  # (let the YAML reader say what is wrong, as it always did)
    # (a key never stands on a line that starts with #: such a line is a comment, or inside a scalar)
    text = b"\n".join(line for line in data.splitlines() if not line.lstrip().startswith(b"#"))
    return b"include" in text and b"ruleset" in text


def scenario_data(path: Path) -> dict | None:
    """The scenario file's mapping, or None when the file is not a scenario (another data file, or not YAML)."""
    from rsr.yamlio import load_yaml_file

    if not _may_be_scenario(path):
        return None
    try:
        data = load_yaml_file(path)
    except BadInput:
        return None
    return data if isinstance(data, dict) and "include" in data and "ruleset" in data else None


def available(ruleset: str, root: Path | None = None) -> list[str]:
    """The names of ``ruleset``'s scenarios, in name order."""
    folder = (root or scenario_root()) / ruleset
    return sorted(p.stem for p in folder.glob("*.yaml") if scenario_data(p) is not None)


def by_ruleset(root: Path | None = None) -> dict[str, list[str]]:
    """Every ruleset rsr knows with the names of its scenarios."""
    from rsr.rulesets import known_rulesets

    names: dict[str, list[str]] = {ruleset_id: [] for ruleset_id in known_rulesets()}
    for ruleset_id, name, _ in catalogue(root):
        names[ruleset_id].append(name)
    return names


def catalogue(root: Path | None = None) -> list[tuple[str, str, str]]:
    """(ruleset, scenario, title) of every scenario, rulesets and scenarios in name order."""
    from rsr.rulesets import known_rulesets

    base = root or scenario_root()
    rulesets = known_rulesets()
    files = _file_signature(base, rulesets)
    kept = _read_kept(base, files)
    if kept is not None:
        return kept
    rows = []
    for ruleset_id in rulesets:
        folder = base / ruleset_id
        for path in sorted(folder.glob("*.yaml"), key=lambda p: p.stem):
            data = scenario_data(path)
            if data is not None:
                rows.append((ruleset_id, path.stem, str(data.get("title", "")).strip()))
    _keep(base, files, rows)
    return rows


# -- the listing kept between processes -------------------------------------------------------------------

CATALOGUE_FORMAT = "rsr-catalogue-1"
MAX_KEPT_BYTES = 1024 * 1024


def kept_path() -> Path:
    """``$RSR_HOME/cache/catalogue.json``, else in the user's cache folder (as rsr/scenario.py's cache)."""
    home = os.environ.get("RSR_HOME")
    if home:
        return Path(home) / "cache" / "catalogue.json"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rsr" / "catalogue.json"


def _file_signature(base: Path, rulesets: list[str]) -> list[list[Any]]:
    """[ruleset/file, size, mtime_ns] of every YAML file of every ruleset folder, in name order."""
    found: list[list[Any]] = []
    for ruleset_id in rulesets:
        folder = base / ruleset_id
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if entry.name.endswith(".yaml"):
                try:
                    info = entry.stat()
                except OSError:
                    continue
                found.append([f"{ruleset_id}/{entry.name}", info.st_size, info.st_mtime_ns])
    return found


def _read_kept(base: Path, files: list[list[Any]]) -> list[tuple[str, str, str]] | None:
    """The kept listing if it was made from exactly these files, else None (missing, damaged, stale)."""
    try:
        fd = os.open(kept_path(), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        data = os.read(fd, MAX_KEPT_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    try:
        kept = json.loads(data) if len(data) <= MAX_KEPT_BYTES else None
        if not (isinstance(kept, dict) and kept.get("format") == CATALOGUE_FORMAT and kept.get("root") == str(base)
                and kept.get("files") == files):
            return None
        if hashlib.sha256(json.dumps(kept["rows"]).encode()).hexdigest() != kept.get("rows_sha256"):
            return None  # (a damaged or hand-edited listing)
        rows = [(str(r), str(n), str(t)) for r, n, t in kept["rows"]]
    except (ValueError, TypeError, KeyError):
        return None
    return rows


def _keep(base: Path, files: list[list[Any]], rows: list[tuple[str, str, str]]) -> None:
    """Write the listing for the next command; a home that cannot be written only means no speed-up."""
    from rsr.fileio import atomic_write

    digest = hashlib.sha256(json.dumps(rows).encode()).hexdigest()
    text = json.dumps({"format": CATALOGUE_FORMAT, "root": str(base), "files": files, "rows": rows,
                       "rows_sha256": digest})
    try:
        atomic_write(kept_path(), text.encode(), durable=False)
    except (OSError, BadInput):
        pass
