"""Packets per game turn: how many emails one game turn costs, for every scenario (docs/performance.md).

    .venv/bin/python bench/packets_per_turn.py [--turns N] [--markdown]

Both players are the rulesets' own bots (the ones ``rsr demo`` uses), hot-seat in a scratch folder, going
through the same code as a player (``order_actions.submit``: orders checked, sealed, signed, replayed). Each bot
packet answers every request of its side that comes before the next die, as a player would batch them.
Two runs per scenario:

* default policies: the standing policies each ruleset starts with answer what they cover;
* every question asked: each side's first packet sets every policy to ``ask``, so each of those
  questions becomes a request answered in a packet.

A packet counts for the game turn of the position its author wrote against. The invitation and the
acceptance, and the packet that reveals the dice of the game's last pass once it is over, are counted
apart (once per game).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rsr import games as game_actions  # noqa: E402
from rsr import keys as keystore  # noqa: E402
from rsr import orders as order_actions  # noqa: E402
from rsr import progress  # noqa: E402
from rsr.engine import dry_run  # noqa: E402
from rsr.log import Replay, position_for_author  # noqa: E402
from rsr.rulesets import get_ruleset  # noqa: E402

BOLDNESS = {0: "1-2", 1: "1-1"}  # RSR bots' odds thresholds, as in rsr demo


@dataclass
class Count:
    ruleset: str
    scenario: str
    mode: str
    per_turn: Counter[int] = field(default_factory=Counter)
    finished: bool = False
    last_reveal: int = 0    # the packet after the game's end that reveals its last dice

    @property
    def turns(self) -> list[int]:
        return sorted(self.per_turn)


def policy_inputs(ruleset_id: str) -> list[dict[str, Any]]:
    ruleset = get_ruleset(ruleset_id)
    return [{"policy": kind, "rule": "ask"} for kind in sorted(ruleset.policy_defaults)]


def packet_inputs(result: Replay, key: keystore.KeyPair, side: str, boldness: str,
                  first: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], bool]:
    """Everything this side can answer before the next die; ``first`` (policies) goes in front of the
    first answer. Returns the inputs and whether ``first`` was used."""
    position, waiting, _ = position_for_author(result, key)
    inputs: list[dict[str, Any]] = []
    used = False
    seq = len(result.packets)
    if first and waiting is not None and waiting.side == side:
        inputs, used = list(first), True
        sealed = order_actions.seal_inputs(result.game_id, inputs, keep=False)
        run = dry_run(result.ruleset, position, side, seq, sealed)
        position, waiting = run.position, run.next_request
    while waiting is not None and waiting.side == side:
        unsealing = order_actions.unseal_input(result.game_id, waiting)
        if unsealing is not None:
            answer = [unsealing]
        else:
            answer = order_actions.unsealed_where_useless(result, position, side,
                                                    result.ruleset.bot(position.state, waiting, boldness))
        if not answer and waiting.unseals is not None:
            break  # a choice sealed in this very packet: its store entry is written when the packet is signed
        if not answer and waiting.policy:
            answer = [{"request": waiting.id, "answer": _as_default_policy(result, position.state, waiting)}]
        if not answer:
            raise RuntimeError(f"the bot has no answer to {waiting.id} ({waiting.prompt}): the game would stall")
        inputs += answer
        sealed = order_actions.seal_inputs(result.game_id, answer, keep=False)
        run = dry_run(result.ruleset, position, side, seq, sealed)
        if run.stopped_at_die:
            break
        position, waiting = run.position, run.next_request
    return inputs, used


def _as_default_policy(result: Replay, state: Any, request: Any) -> Any:
    """What the ruleset's default policy would answer; a bot that has no view of its own answers so when
    the question is put to it (every question asked)."""
    rule = result.ruleset.policy_defaults.get(request.policy)
    if rule is None or rule == "ask":
        raise RuntimeError(f"no default to answer {request.id} ({request.prompt}) with")
    return result.ruleset.answer_by_policy(state, request, rule)


def play(ruleset_id: str, scenario: str, ask_all: bool, max_turns: int, root: Path) -> Count:
    count = Count(ruleset_id, scenario, "every question asked" if ask_all else "default policies")
    os.environ["RSR_HOME"] = str(root / "home")
    ruleset = get_ruleset(ruleset_id)
    keystore.new_key("first")
    keystore.new_key("second")
    (root / "a").mkdir()
    (root / "b").mkdir()
    game_dir, invite = game_actions.new_game(root / "a", ruleset_id, scenario, ruleset.sides[0], "first", "First")
    pending = {ruleset.sides[0]: policy_inputs(ruleset_id) if ask_all else [],
               ruleset.sides[1]: policy_inputs(ruleset_id) if ask_all else []}
    game_actions.accept_game(game_dir / "turns" / invite.file_name(), root / "b", "second", "Second")
    names = {ruleset.sides[0]: "first", ruleset.sides[1]: "second"}
    # hot-seat: one game directory; the acceptance is copied into it
    for path in sorted((root / "b").glob("game-*/turns/0001-*")):
        (game_dir / "turns" / path.name).write_bytes(path.read_bytes())
    for _ in range(400):
        result = game_actions.load_game(game_dir)
        if progress.is_over(result):
            count.finished = True
            break
        side = result.next_author()
        key = keystore.load_key(names[side])
        position, waiting, _ = position_for_author(result, key)
        if waiting is None:  # the game is over: this packet only reveals its last dice (counted apart)
            order_actions.submit(game_dir, [], names[side])
            count.last_reveal += 1
            continue
        turn = int(getattr(position.state, "turn", 0))
        start = min(count.per_turn, default=turn)
        if turn >= start + max_turns:
            break
        inputs, used = packet_inputs(result, key, side, BOLDNESS[ruleset.sides.index(side)], pending[side])
        if used:
            pending[side] = []
        order_actions.submit(game_dir, inputs, names[side])
        count.per_turn[turn] += 1
    return count


def measure(max_turns: int, games: int, only: str | None) -> list[Count]:
    rows = []
    for ruleset_id, scenario, _ in game_actions.scenario_catalogue():
        if only and scenario != only:
            continue
        for ask_all in (False, True):
            for _ in range(games):
                with tempfile.TemporaryDirectory() as tmp:
                    rows.append(play(ruleset_id, scenario, ask_all, max_turns, Path(tmp)))
    return rows


def _spread(values: list[int]) -> str:
    low, high = min(values), max(values)
    mean = sum(values) / len(values)
    return f"{low}" if low == high else f"{low}-{high} (mean {mean:.1f})"


def table(rows: list[Count]) -> list[str]:
    """One line per scenario and game turn: packets in that turn over the games played, per mode. The
    dice differ from game to game (fresh keys), so the counts do too."""
    by_key: dict[tuple[str, str], dict[str, list[Count]]] = {}
    for row in rows:
        by_key.setdefault((row.ruleset, row.scenario), {}).setdefault(row.mode, []).append(row)
    lines = ["| scenario | ruleset | game turn | games | default policies | every question asked |",
             "|---|---|---|---|---|---|"]
    for (ruleset_id, scenario), modes in sorted(by_key.items()):
        default, asked = modes["default policies"], modes["every question asked"]
        turns = sorted({t for c in default + asked for t in c.turns})
        finished = all(c.finished for c in default + asked)
        for turn in turns:
            mark = " (a whole game)" if finished and len(turns) == 1 else ""
            lines.append(f"| {scenario} | {ruleset_id} | {turn}{mark} | {len(default)} | "
                         f"{_spread([c.per_turn[turn] for c in default])} | "
                         f"{_spread([c.per_turn[turn] for c in asked])} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=1, help="measure the first N game turns (default 1)")
    parser.add_argument("--games", type=int, default=3, help="games per scenario and mode (default 3)")
    parser.add_argument("--scenario", default=None, help="only this scenario")
    args = parser.parse_args()
    for line in table(measure(args.turns, args.games, args.scenario)):
        print(line)


if __name__ == "__main__":
    main()
