"""Helpers that play whole games through the real packet exchange, for protocol tests."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rsr import keys as keystore
from rsr.gamedir import append_packets, create_game_dir, load_log
from rsr.log import accept_packet, build_packet, invite_packet, replay
from rsr.packet import Packet
from rsr.rulesets import get_ruleset


def duel_game(tmp: Path, inputs_by_seq: dict[int, list[dict[str, Any]]], total: int) -> tuple[Path, dict[str, Any]]:
    """Play the test duel through signed packets; both keys on one machine (hot-seat)."""
    from tests.support.duel import duel_scenario

    a = keystore.new_key("att")
    d = keystore.new_key("def")
    ruleset = get_ruleset("duel")
    invite = invite_packet(ruleset, duel_scenario(), a, "attacker", "A", bytes(range(16)), None, {},
                           nonce=bytes([1]) * 32)
    game_dir = create_game_dir(tmp, invite)
    append_packets(game_dir, [invite])
    append_packets(game_dir, [accept_packet(invite, d, "D", inputs_by_seq.get(1, []), nonce=bytes([2]) * 32)])
    keys = {"attacker": a, "defender": d}
    for seq in range(2, total):
        result = replay(load_log(game_dir))
        key = keys[result.next_author()]
        append_packets(game_dir, [build_packet(result, key, inputs_by_seq.get(seq, []))])
    return game_dir, keys


def packets_of(game_dir: Path) -> list[Packet]:
    return load_log(game_dir)


def flip_byte(path: Path, offset_in_body: int) -> None:
    """Change one base64 character inside the armored body of a packet file."""
    text = path.read_text()
    lines = text.split("\n")
    body = [i for i, line in enumerate(lines) if line and not line.startswith(("-----", "Game:", "Seq:"))]
    index = body[offset_in_body % len(body)]
    line = lines[index]
    pos = len(line) // 2
    replacement = "A" if line[pos] != "A" else "B"
    lines[index] = line[:pos] + replacement + line[pos + 1:]
    path.write_text("\n".join(lines))


def env_without_home() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "RSR_HOME"}


def seal_marked(items: list[dict[str, Any]], sealed_now: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """A bot's answers as signed: those it marks ``seal: true`` become sealed inputs (docs/protocol.md), their
    unsealing kept in ``sealed_now`` for the author's next packet."""
    import os

    from rsr.fairdice import seal

    out = []
    for item in items:
        if item.get("seal"):
            salt = os.urandom(16)
            sealed_now[item["request"]] = {"unseal": item["request"], "salt": salt.hex(), "choice": item["answer"]}
            out.append({"request": item["request"], "sealed": seal(salt, item["answer"])})
        else:
            out.append(item)
    return out


def bot_packet(result: Any, key: keystore.KeyPair, store: dict[str, dict[str, Any]],
               prefix: list[dict[str, Any]] | None = None,
               scripted: Callable[[Any, Any], list[dict[str, Any]] | None] | None = None) -> list[dict[str, Any]]:
    """Everything the author answers before the next die: ``prefix`` (standing policies) first, then for each
    request the ``scripted(state, request)`` answer where it gives one, else the ruleset's bot; what is
    marked ``seal: true`` is sealed, and a choice sealed earlier is unsealed from ``store`` when asked."""
    from rsr.engine import dry_run
    from rsr.log import my_side, position_for_author

    ruleset = result.ruleset
    side = my_side(result, key)
    position, waiting, _ = position_for_author(result, key)
    inputs: list[dict[str, Any]] = list(prefix or [])
    if inputs:
        run = dry_run(ruleset, position, side, len(result.packets), inputs)
        position, waiting = run.position, run.next_request
    sealed_now: dict[str, dict[str, Any]] = {}
    while waiting is not None and waiting.side == side:
        if waiting.unseals is not None:
            if waiting.unseals not in store:
                break  # sealed in this very packet: it is revealed in the next one
            answer = [store.pop(waiting.unseals)]
        else:
            given = scripted(position.state, waiting) if scripted else None
            answer = seal_marked(given if given is not None else ruleset.bot(position.state, waiting), sealed_now)
        if not answer:
            break
        inputs += answer
        run = dry_run(ruleset, position, side, len(result.packets), answer)
        if run.stopped_at_die:
            break
        position, waiting = run.position, run.next_request
    store.update(sealed_now)
    return inputs
