"""Adjudication cases (docs/architecture.md): a position, inputs, scripted dice, and what must happen.

A case file is YAML validated by ``schemas/case.schema.json``. ``changes`` replaces keys of the scenario
document (set-up, trenches, turns, sequence); ``terrain``, ``hexsides`` (``replace_hexsides``),
``roads`` and ``rail`` override the map; ``inputs``
are what the sides sign, each with its ``side``; ``dice`` are the rolls in order; ``expect`` lists events
that must occur in order (each a subset of an event's fields), unit states, the request the game ends up
waiting for, or the error an illegal input must produce. The ``kind`` of an expected event must be one of
the catalogue of the case's ruleset (rsr/events.py; the schema lists them, written by tools/event_kinds.py).
"""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path
from typing import Any

from rsr.engine import Position, enqueue, initial_position, resolve_pass
from rsr.errors import BadInput, RsrError
from rsr.fairdice import ScriptedDice
from rsr.rulesets import get_ruleset
from rsr.scenario import Scenario, load_scenario
from rsr.schemas import validate
from rsr.yamlio import load_yaml_file


def collect(paths: list[Path]) -> list[tuple[Path, dict[str, Any]]]:
    files: list[Path] = []
    for path in paths:
        files += sorted(path.rglob("*.yaml")) if path.is_dir() else [path]
    cases = []
    for file in files:
        spec = load_yaml_file(file)
        validate("case", spec, str(file))
        cases.append((file, spec))
    return cases


def _subset(expected: Any, actual: Any) -> bool:
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and _subset(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return isinstance(actual, list) and len(expected) == len(actual) and all(
            _subset(e, a) for e, a in zip(expected, actual, strict=True))
    return bool(expected == actual)


def case_scenario(spec: dict[str, Any]) -> Scenario:
    base = load_scenario(spec["ruleset"], spec["scenario"])
    data = copy.deepcopy(base.data)
    for key, value in (spec.get("changes") or {}).items():
        data["scenario"][key] = value
    terrain = spec.get("terrain") or {}
    charted = {str(row.get("terrain")) for row in (data.get("tables", {}).get("terrain_effects") or {}).get(
        "terrain", []) if isinstance(row, dict)}
    for hex_id, kind in sorted(terrain.items()):
        if kind not in charted:
            raise BadInput(f"case {spec['id']}: terrain of {hex_id} is {kind!r}, which the Terrain Effects Chart "
                           f"does not know ({', '.join(sorted(charted))})")
    data["map"]["terrain"] = {**data["map"]["terrain"], **terrain}
    kept = [] if spec.get("replace_hexsides") else list(data["map"].get("hexsides", []))
    data["map"]["hexsides"] = kept + list(spec.get("hexsides") or [])
    for key in ("roads", "rail"):
        if key in spec:
            data["map"][key] = spec[key]
    validate(f"{spec['ruleset']}.scenario", data["scenario"], f"case {spec['id']} changes")
    return Scenario(base.ruleset, base.name, data, "case")


def run_case(path: Path, spec: dict[str, Any], kinds: list[str] | None = None) -> list[str]:
    """Run one case; return what did not match (empty when it passes). ``kinds`` gets the kind of every event
    the pass emitted."""
    ruleset = get_ruleset(spec["ruleset"])
    try:
        position = initial_position(ruleset, case_scenario(spec), {})
    except BadInput as exc:
        if "error" in spec["expect"] and spec["expect"]["error"] in str(exc):
            return []
        return [f"set-up refused: {exc}"]
    for index, item in enumerate(spec["inputs"]):
        data = {k: v for k, v in item.items() if k != "side"}
        if item["side"] not in ruleset.sides:
            return [f"inputs[{index}]: unknown side {item['side']!r}"]
        enqueue(position, 1000, item["side"], [data])
        position.queues[item["side"]][-1] = dataclasses.replace(position.queues[item["side"]][-1], index=index)
    dice = ScriptedDice(spec.get("dice", []))
    expect = spec["expect"]
    try:
        after, result = resolve_pass(ruleset, position, dice)
    except RsrError as exc:
        if "error" in expect and expect["error"] in str(exc):
            return []
        return [f"unexpected error: {exc}"]
    if kinds is not None:
        kinds += [event.kind for event in result.events]
    if "error" in expect:
        return [f"expected an error containing {expect['error']!r}, but the inputs were accepted"]
    return _compare(ruleset, after, result.events, result.waiting, dice, expect)


def _compare(ruleset: Any, after: Position, events: list[Any], waiting: Any, dice: ScriptedDice,
             expect: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    actual = [e.to_json() for e in events]
    cursor = 0
    for wanted in expect.get("events", []):
        while cursor < len(actual) and not _subset(wanted, actual[cursor]):
            cursor += 1
        if cursor == len(actual):
            problems.append(f"no event matching {wanted} (in order); events were: "
                            + "; ".join(e["text"] for e in actual))
            break
        cursor += 1
    for unwanted in expect.get("no_events", []):
        if any(_subset(unwanted, e) for e in actual):
            problems.append(f"an event matches {unwanted}, which must not happen")
    state = ruleset.state_json(after.state)
    for unit_id, fields in (expect.get("units") or {}).items():
        unit = state.get("units", {}).get(unit_id)
        if unit is None or not _subset(fields, unit):
            problems.append(f"unit {unit_id} is {unit}, expected {fields}")
    if "waiting" in expect:
        wanted = expect["waiting"]
        got = None if waiting is None else {"side": waiting.side, "kind": waiting.kind, "id": waiting.id}
        if not (wanted is None and got is None) and not (got is not None and _subset(wanted, got)):
            problems.append(f"the game waits for {got}, expected {wanted}")
    if "dice_used" in expect and len(dice.rolls) != expect["dice_used"]:
        problems.append(f"{len(dice.rolls)} dice rolled, expected {expect['dice_used']}")
    if dice.unused and "dice_used" not in expect:
        problems.append(f"scripted dice left unused: {dice.unused}")
    if "provisional" in expect:
        used = any(e.get("provisional") for e in actual)
        if used != expect["provisional"]:
            problems.append(f"provisional data used: {used}, expected {expect['provisional']}")
    return problems
