"""A player who writes orders by hand from the templates alone (issue 23, "write the whole turn at once").

It reads what ``rsr orders template`` prints, as a person would: the legal options in the comments above
each question and the example answer below them. It fills in the few things a person would (a
bombardment with the first gun that reaches the first target listed, a prepared combat or an attack on the first
hex its attackers are listed against), keeps every other example as it is, asks for the template again
``--from`` its file until no new question appears, checks the file and signs it, all through the real
command line. Nothing here reads the game's state or calls rsr's functions.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

Run = Callable[..., str]  # run(*args) -> stdout of `rsr args...` (a failure raises)


def options_above(text: str, request_id: str) -> dict[str, Any]:
    """The ``legal options:`` comment block written above the question ``request_id`` (a person reads it)."""
    lines = text.splitlines()
    marker = f"[{request_id}]"
    start = next((i for i, line in enumerate(lines) if line.startswith("#") and marker in line), None)
    if start is None:
        return {}
    block: list[str] = []
    inside = False
    for line in lines[start + 1:]:
        if not line.startswith("#"):
            break
        if re.match(r"# legal options", line):
            inside = True
            continue
        if inside and line.startswith("#   "):
            block.append(line[4:])
        elif inside:
            break
    data = yaml.safe_load("\n".join(block)) if block else None
    return data if isinstance(data, dict) else {}


def _first_target(attackers: dict[str, list[str]]) -> tuple[str, list[str]] | None:
    """The first hex listed against any attacker, and every attacker listed against it."""
    hexes = sorted({h for listed in attackers.values() for h in listed or []})
    if not hexes:
        return None
    target = hexes[0]
    return target, sorted(u for u, listed in attackers.items() if target in (listed or []))


def fill(item: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """The answer a person writes for one question of the template."""
    if "policy" in item and isinstance(item.get("rule"), dict) and "combats" in item["rule"]:
        found = _first_target(options.get("attackers") or {})
        combats = [{"hex": found[0], "attackers": found[1]}] if found else []
        return {"policy": item["policy"], "rule": {**item["rule"], "combats": combats}}
    answer = item.get("answer")
    if not isinstance(answer, dict):
        return item
    if "missions" in answer:  # RS/RS 5.2: bombard the first target the guns reach, with the first gun that
        # reaches it (support points are kept for the combat the person plans after it: RS/RS 6.1)
        guns = options.get("artillery") or {}
        targets = sorted({t for gun in guns.values() for t in gun.get("bombard") or []})
        missions = []
        if targets:
            shooting = sorted(g for g, gun in guns.items() if targets[0] in (gun.get("bombard") or []))
            missions = [{"bombard": targets[0], "artillery": shooting[:1]}]
        return {**item, "answer": {**answer, "missions": missions}}
    if "combats" in answer and isinstance(answer["combats"], list):  # RS/RS 6.1: a combat costs support points
        found = _first_target(options.get("attackers") or {}) if options.get("support_points", 1) else None
        combats = [{"hex": found[0], "attackers": found[1]}] if found else []
        return {**item, "answer": {**answer, "combats": combats}}
    if "attacks" in answer:  # RSR 11.2
        found = _first_target(options.get("attackers") or {})
        attacks = [{"hex": found[0], "attackers": found[1], "command": None, "advance": []}] if found else []
        return {**item, "answer": {**answer, "attacks": attacks, "last_round": not attacks}}
    return item


def write_turn(run: Run, game: Path, orders: Path, rounds: int = 6) -> list[dict[str, Any]]:
    """Write this packet's orders from the templates alone (asking again ``--from`` the file while new
    questions appear), check them, and return them."""
    text = run("orders", "template", str(game))
    done: dict[str, dict[str, Any]] = {}
    inputs: list[dict[str, Any]] = []
    for _ in range(rounds):
        inputs = []
        changed = False
        for item in (yaml.safe_load(text) or {}).get("inputs") or []:
            key = str(item.get("request") or item.get("unseal") or item.get("policy"))
            if key not in done:
                done[key] = fill(item, options_above(text, str(item.get("request") or "")) if "request" in item
                                 else _options_of_plan(text, item))
                changed = True
            inputs.append(done[key])
        orders.write_text(yaml.safe_dump({"inputs": inputs}, sort_keys=False))
        if not changed:
            break
        text = run("orders", "template", str(game), "--from", str(orders))
    run("orders", "check", str(game), str(orders))
    return inputs


def _options_of_plan(text: str, item: dict[str, Any]) -> dict[str, Any]:
    """The options written above a plan (a policy answering a question after the dice)."""
    found = re.search(r"\[(t\d+/[^\]]*)\]\n(?:#.*\n)*?# legal options \(before the dice\)", text)
    return options_above(text.replace("# legal options (before the dice):", "# legal options:"),
                         found.group(1)) if found else {}
