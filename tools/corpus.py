"""A behaviour-preservation corpus: record bot games and case runs, then check that the code replays them alike.

    python tools/corpus.py record OUT [--games N] [--ruleset red-star] [--scenario NAME ...]
    python tools/corpus.py check OUT

``record`` plays ``N`` bot games of every scenario of the ruleset by mail (``rsr.demo.run_demo``: real keys,
real packet files) and runs every case file of the ruleset; for each it writes ``expected.json``: per
resolution pass the state digest, the events, and the request the game then waits for (id, kind, prompt,
case, options, template, policy, seal flags), everything a player or a bot sees. ``check`` replays every
recorded game from its packet files, and every case from its file, with the code at hand, and compares with
what was recorded. It prints one line per item that differs and a total; it exits 1 when any differ.

Record on the code before a change (from a copy of the tree, so editing does not disturb it), check after.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


def request_json(request: Any) -> Any:
    """Everything a player sees of a request, as JSON data."""
    from rsr.engine import to_jsonable

    if request is None:
        return None
    return {"id": request.id, "side": request.side, "kind": request.kind, "prompt": request.prompt,
            "case": request.case, "options": to_jsonable(request.options), "template": to_jsonable(request.template),
            "policy": request.policy, "sealable": request.sealable, "unseals": request.unseals}


@contextmanager
def every_request(ruleset_id: str) -> Iterator[list[Any]]:
    """Every request the ruleset builds meanwhile, as JSON (those a policy answers too, which no one waits for)."""
    from rsr.rulesets import get_ruleset

    kind = type(get_ruleset(ruleset_id))
    asked: list[Any] = []
    original = kind.next_request

    def next_request(self: Any, state: Any) -> Any:
        request = original(self, state)
        asked.append(request_json(request))
        return request

    kind.next_request = next_request  # type: ignore[method-assign]
    try:
        yield asked
    finally:
        kind.next_request = original  # type: ignore[method-assign]


def game_record(game_dir: Path) -> dict[str, Any]:
    """The replay of one game directory's packets: per pass its digest, events and the request it waits for,
    and every request built on the way."""
    from rsr.gamedir import load_log
    from rsr.log import replay

    packets = load_log(game_dir)
    with every_request(packets[0].payload["invite"]["ruleset"]) as asked:
        result = replay(packets)
    return {"start": request_json(result.start_waiting), "asked": asked,
            "passes": [{"resolved": p.resolved, "digest": p.state_hash, "events": [e.to_json() for e in p.events],
                        "waiting": request_json(p.waiting)} for p in result.passes]}


def case_record(path: Path) -> dict[str, Any]:
    """One case file run as ``rsr case run`` runs it, kept whole: events, digest, waiting request or error."""
    from rsr.cases import case_scenario
    from rsr.engine import enqueue, initial_position, resolve_pass
    from rsr.errors import RsrError
    from rsr.fairdice import ScriptedDice
    from rsr.rulesets import get_ruleset
    from rsr.yamlio import load_yaml_file

    spec = load_yaml_file(path)
    ruleset = get_ruleset(spec["ruleset"])
    try:
        position = initial_position(ruleset, case_scenario(spec), {})
    except RsrError as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}
    start = request_json(ruleset.next_request(position.state))
    for index, item in enumerate(spec["inputs"]):
        data = {k: v for k, v in item.items() if k != "side"}
        enqueue(position, 1000, item["side"], [data])
        position.queues[item["side"]][-1] = dataclasses.replace(position.queues[item["side"]][-1], index=index)
    with every_request(spec["ruleset"]) as asked:
        try:
            after, result = resolve_pass(ruleset, position, ScriptedDice(spec.get("dice", [])))
        except RsrError as exc:
            return {"start": start, "asked": asked, "error": f"{type(exc).__name__}: {exc}"}
    return {"start": start, "asked": asked, "digest": after.digest(ruleset),
            "events": [e.to_json() for e in result.events], "waiting": request_json(result.waiting),
            "applied": list(result.applied)}


def _write(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def record(out: Path, ruleset_id: str, games: int, scenarios: list[str] | None, cases: bool) -> int:
    from rsr.demo import run_demo
    from rsr.scenario import available

    names = scenarios or available(ruleset_id)
    out.mkdir(parents=True, exist_ok=True)
    for name in names:
        for number in range(games):
            where = out / "games" / f"{name}-{number}"
            if not (where / "play").exists():  # played once; the expectations may be recorded again
                run_demo(where / "play", echo=lambda _: None, scenario=name, ruleset_id=ruleset_id)
            game_dir = next((where / "play" / "players" / "alice" / "games").glob("game-*"))
            _write(where / "expected.json", {"game": str(game_dir.relative_to(where)), **game_record(game_dir)})
            print(f"recorded {where.name}", flush=True)
    for expected_path in sorted((out / "games").glob("*/expected.json")):  # games kept without their players
        game = json.loads(expected_path.read_text(encoding="utf-8"))["game"]
        if not game.startswith("play/"):
            _write(expected_path, {"game": game, **game_record(expected_path.parent / game)})
            print(f"recorded {expected_path.parent.name}", flush=True)
    if cases:
        (out / "cases").mkdir(exist_ok=True)
        for path in sorted((REPO / "tests" / "cases" / ruleset_id).glob("*.yaml")):
            _write(out / "cases" / f"{path.stem}.json", {"file": str(path.relative_to(REPO)), **case_record(path)})
        print(f"recorded {len(list((out / 'cases').glob('*.json')))} case runs", flush=True)
    return 0


def differences(expected: Any, actual: Any, where: str = "") -> list[str]:
    """Where two JSON values differ (the first few places)."""
    if type(expected) is not type(actual):
        return [f"{where or '.'}: {expected!r} != {actual!r}"[:300]]
    if isinstance(expected, dict):
        found: list[str] = []
        for key in sorted(set(expected) | set(actual)):
            if key not in expected or key not in actual:
                found.append(f"{where}.{key}: only in {'recorded' if key in expected else 'now'}")
            else:
                found += differences(expected[key], actual[key], f"{where}.{key}")
        return found[:5]
    if isinstance(expected, list):
        if len(expected) != len(actual):
            return [f"{where}: {len(expected)} items recorded, {len(actual)} now"]
        found = []
        for index, (a, b) in enumerate(zip(expected, actual, strict=True)):
            found += differences(a, b, f"{where}[{index}]")
        return found[:5]
    return [] if expected == actual else [f"{where or '.'}: {expected!r} != {actual!r}"[:300]]


def check(out: Path) -> int:
    from rsr.errors import RsrError

    items = 0
    differ = 0
    for expected_path in sorted((out / "games").glob("*/expected.json")) + sorted((out / "cases").glob("*.json")):
        items += 1
        expected = json.loads(expected_path.read_text(encoding="utf-8"))
        try:
            if "game" in expected:
                actual: dict[str, Any] = {"game": expected["game"],
                                          **game_record(expected_path.parent / expected["game"])}
            else:
                actual = {"file": expected["file"], **case_record(REPO / expected["file"])}
        except RsrError as exc:
            actual = {"refused": f"{type(exc).__name__}: {exc}"}
        found = differences(expected, actual)
        if found:
            differ += 1
            print(f"DIFFERS {expected_path.relative_to(out)}: " + "; ".join(found))
    print(f"{items} recorded, {differ} differ")
    return 1 if differ or not items else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record")
    rec.add_argument("out", type=Path)
    rec.add_argument("--games", type=int, default=5, help="new games per scenario (0: only re-record)")
    rec.add_argument("--ruleset", default="red-star")
    rec.add_argument("--scenario", action="append")
    rec.add_argument("--no-cases", action="store_true")
    chk = sub.add_parser("check")
    chk.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    if args.command == "record":
        return record(args.out, args.ruleset, args.games, args.scenario, not args.no_cases)
    return check(args.out)


if __name__ == "__main__":
    sys.exit(main())
