"""Write the event kinds of the catalogue (rsr/events.py and each ruleset's events.py) into the case file
schema, so a case file expecting an event of a kind its ruleset never emits is refused.

    python tools/event_kinds.py          # rewrite schemas/case.schema.json
    python tools/event_kinds.py --check  # exit 1 if the schema and the catalogue differ
    python tools/event_kinds.py --corpus DIR  # list the events of a corpus (tools/corpus.py) not declared
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rsr.events import event_kinds  # noqa: E402
from rsr.rulesets import BUILTIN  # noqa: E402

SCHEMA = ROOT / "schemas" / "case.schema.json"


def kind_rules() -> list[dict[str, Any]]:
    """One if/then per built-in ruleset: the ``kind`` of an expected (or unwanted) event is one of its kinds."""
    rules = []
    for ruleset_id in sorted(BUILTIN):
        kind = {"properties": {"kind": {"enum": sorted(event_kinds(ruleset_id))}}}
        rules.append({
            "if": {"properties": {"ruleset": {"const": ruleset_id}}, "required": ["ruleset"]},
            "then": {"properties": {"expect": {"properties": {"events": {"items": kind},
                                                              "no_events": {"items": kind}}}}},
        })
    return rules


def with_kinds(schema: dict[str, Any]) -> dict[str, Any]:
    return {**schema, "allOf": kind_rules()}


def undeclared(corpus: Path) -> list[str]:
    """The events of a recorded corpus (tools/corpus.py record) whose kind the catalogue of their ruleset lacks,
    one line each: the games by the ruleset of their game.yaml, the cases by that of their case file."""
    from rsr.cases import collect
    from rsr.yamlio import load_yaml_file

    case_rulesets = {spec["id"]: spec["ruleset"] for _, spec in collect([ROOT / "tests" / "cases"])}
    found = []
    for path in sorted((corpus / "games").glob("*/expected.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        ruleset_id = load_yaml_file(path.parent / record["game"] / "game.yaml")["ruleset"]
        events = [e for p in record["passes"] for e in p["events"]]
        found += [f"{path}: {e['kind']}" for e in events if e["kind"] not in event_kinds(ruleset_id)]
    for path in sorted((corpus / "cases").glob("*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        ruleset_id = case_rulesets.get(path.stem)
        if ruleset_id is None:
            found.append(f"{path}: no case file tests/cases/*/{path.stem}.yaml")
            continue
        found += [f"{path}: {e['kind']}" for e in record.get("events", []) if e["kind"] not in event_kinds(ruleset_id)]
    return found


def main(argv: list[str]) -> int:
    if argv[:1] == ["--corpus"] and len(argv) == 2:
        missing = undeclared(Path(argv[1]))
        print("\n".join(missing) if missing else f"every event kind of {argv[1]} is in the catalogue")
        return 1 if missing else 0
    schema = json.loads(SCHEMA.read_text())
    wanted = with_kinds(schema)
    if "--check" in argv:
        if schema != wanted:
            print(f"{SCHEMA.relative_to(ROOT)} does not list the event kinds of the catalogue: "
                  "run python tools/event_kinds.py", file=sys.stderr)
            return 1
        return 0
    SCHEMA.write_text(json.dumps(wanted, indent=2, ensure_ascii=False) + "\n")
    print(f"wrote {SCHEMA.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
