"""Bot-played games for the benchmarks, made in memory in time linear in their length.

``rsr demo`` plays through the game directories, so every packet replays the whole log (quadratic); the
benchmarks need logs of thousands of packets, so this plays the same bots (``rsr.demo.bot_inputs``, the
rulesets' own bots) against one :class:`rsr.log.Replay` kept up to date packet by packet, signing with
the real ``build_packet``. The packets are written as a game directory that ``rsr verify`` reads.

A long log needs a long game: ``lengthened`` writes a copy of a real scenario whose turn track repeats
its last turn until it has ``turns`` turns (bench data only, never shipped: it lives under bench/.cache).
"""

from __future__ import annotations

import copy
import os
import shutil
from pathlib import Path
from typing import Any

from rsr import keys as keystore
from rsr import orders as order_actions
from rsr.demo import bot_inputs, player_home
from rsr.engine import enqueue
from rsr.gamedir import create_game_dir
from rsr.log import Replay, accept_packet, build_packet, invite_packet, pending_pass, position_for_author, replay
from rsr.packet import Packet
from rsr.scenario import load_scenario
from rsr.yamlio import dump_yaml, load_yaml_file

REPO = Path(__file__).resolve().parents[1]


def lengthened(root: Path, ruleset_id: str, scenario: str, turns: int) -> str:
    """Write ``<root>/<ruleset>/<scenario>-<turns>.yaml``: ``scenario`` with its last turn repeated."""
    source = REPO / "scenarios" / ruleset_id
    folder = root / ruleset_id
    folder.mkdir(parents=True, exist_ok=True)
    for path in source.glob("*.yaml"):
        if not (folder / path.name).exists():
            shutil.copy(path, folder / path.name)
    data = load_yaml_file(source / f"{scenario}.yaml")
    name = f"{scenario}-{turns}"
    data["id"] = name
    if isinstance(data.get("turns"), list):
        last = data["turns"][-1]
        while len(data["turns"]) < turns:
            extra = copy.deepcopy(last)  # (shared dicts would be written as YAML aliases)
            extra["date"] = f"extra {len(data['turns']) + 1}"
            extra.pop("reinforcements", None)
            data["turns"].append(extra)
    else:
        data["turns"] = turns
    (folder / f"{name}.yaml").write_text(dump_yaml(data))
    return name


def use_scenario_root(root: Path) -> None:
    """Point this process's scenario lookup at ``root`` (a copy of scenarios/ plus bench scenarios)."""
    import rsr.scenario

    rsr.scenario.SCENARIO_ROOT = root


def play(out: Path, ruleset_id: str, scenario: str, max_packets: int = 100_000) -> Path:
    """Bots play ``scenario`` to its end (or ``max_packets``); return the game directory written."""
    from rsr.rulesets import get_ruleset

    ruleset = get_ruleset(ruleset_id)
    data = load_scenario(ruleset.id, scenario)
    homes = {side: out / "homes" / side for side in ruleset.sides}
    pairs = {}
    for side, home in homes.items():
        with player_home(home):
            pairs[side] = keystore.new_key(side)
    first, second = ruleset.sides
    invite = invite_packet(ruleset, data, pairs[first], first, first, os.urandom(16), None, {},
                           nonce=os.urandom(32))
    accept = accept_packet(invite, pairs[second], second, nonce=os.urandom(32))
    result = replay([invite, accept])
    boldness = {first: "1-2", second: "1-1"}
    while len(result.packets) < max_packets:
        side = result.next_author()
        key = pairs[side]
        with player_home(homes[side]):
            if result.passes and result.passes[-1].waiting is None:
                break
            position, waiting, _ = position_for_author(result, key)
            inputs = bot_inputs(result, key, position, waiting, side, boldness[side])
            record = pending_pass(result, key)
            packet = build_packet(result, key, order_actions.seal_inputs(result.game_id, inputs, keep=True))
        _extend(result, packet, record)
    game_dir = create_game_dir(out, invite)
    for packet in result.packets:
        (game_dir / "turns" / packet.file_name()).write_text(packet.armored())
    return game_dir


def _extend(result: Replay, packet: Packet, record: Any) -> None:
    """``game.extend`` without resolving the pass again: the author's own pass is the one it recorded."""
    result.packets.append(packet)
    result.pending.clear()
    if record is not None:
        result.passes.append(record)
        result.position = record.position
    enqueue(result.position, packet.seq, packet.side, packet.inputs)
