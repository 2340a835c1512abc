"""``rsr demo``: two players with generated keys play the sample exchange through real packet files.

Each player has a key store and a copy of the game directory of their own; the only thing that passes
between them is the packet file the other wrote (``mail/``), exactly as by email. At the end both
copies are verified, and so is a fresh third copy made from the mailed packets alone.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rsr import games as game_actions
from rsr import keys as keystore
from rsr import orders as order_actions
from rsr import progress
from rsr import reports as report_actions
from rsr.engine import Position, Request, dry_run
from rsr.errors import BadInput
from rsr.fileio import atomic_write
from rsr.log import Replay, position_for_author
from rsr.packet import Packet
from rsr.rulesets import DEFAULT_RULESET, get_ruleset
from rsr.scenario import load_scenario
from rsr.yamlio import dump_yaml

SCENARIO = "liaoyang-1904"


@contextmanager
def player_home(path: Path) -> Iterator[None]:
    """Run as one player: their own key store (RSR_HOME)."""
    before = os.environ.get("RSR_HOME")
    os.environ["RSR_HOME"] = str(path)
    try:
        yield
    finally:
        if before is None:
            del os.environ["RSR_HOME"]
        else:
            os.environ["RSR_HOME"] = before


class Player:
    def __init__(self, root: Path, name: str, side: str) -> None:
        self.name, self.side = name, side
        self.home = root / "players" / name / "rsr-home"
        self.games = root / "players" / name / "games"
        self.games.mkdir(parents=True, exist_ok=True)
        self.game_dir: Path | None = None

    def mail(self, root: Path, packet: Packet) -> Path:
        path = root / "mail" / f"{packet.seq:04d}-from-{self.name}.rsr"
        atomic_write(path, packet.armored().encode())
        return path


def bot_inputs(result: Replay, key: keystore.KeyPair, position: Position, waiting: Request | None, side: str,
               boldness: str) -> list[dict[str, Any]]:
    """A bot's whole packet: answers to every request of its side that comes before the next die.

    The bot is the ruleset's (its ``bot`` hook, rsr/rulesets/base.py). Sealed choices go through the same
    orders layer as a person's (order_actions.seal_inputs), and a choice sealed earlier is unsealed from the
    player's own store when the game asks for it.
    """
    inputs: list[dict[str, Any]] = []
    while waiting is not None and waiting.side == side:
        unsealing = order_actions.unseal_input(result.game_id, waiting)
        if unsealing is not None:
            answer = [unsealing]
        else:
            answer = order_actions.unsealed_where_useless(result, position, side,
                                                    result.ruleset.bot(position.state, waiting, boldness))
        if not answer:
            break
        inputs += answer
        sealed = order_actions.seal_inputs(result.game_id, answer, keep=False)
        run = dry_run(result.ruleset, position, side, len(result.packets), sealed)
        if run.stopped_at_die:
            break
        position, waiting = run.position, run.next_request
    return inputs


def run_demo(out: Path, echo: Callable[[str], None] = print, scenario: str = SCENARIO,
             ruleset_id: str = DEFAULT_RULESET, data_files: list[Path] | None = None) -> Path:
    """Play ``scenario`` by mail between two generated keys in ``out``; return Alice's game directory."""
    ruleset = get_ruleset(ruleset_id)
    load_scenario(ruleset.id, scenario)  # refuse an unknown scenario before anything is written
    if out.exists() and any(out.iterdir()):
        raise BadInput(f"{out} is not empty; give --out a new or empty folder")
    out.mkdir(parents=True, exist_ok=True)
    alice = Player(out, "alice", ruleset.sides[0])
    bob = Player(out, "bob", ruleset.sides[1])
    for player in (alice, bob):
        with player_home(player.home):
            pair = keystore.new_key(player.name)
            echo(f"{player.name} ({player.side}) key {pair.fingerprint}")

    with player_home(alice.home):
        alice.game_dir, invite = game_actions.new_game(alice.games, ruleset.id, scenario, alice.side, "alice",
                                                  "Alice", data_files=data_files)
    mailed = alice.mail(out, invite)
    echo(f"alice invites bob: {mailed}")
    with player_home(bob.home):
        bob.game_dir, packet = game_actions.accept_game(mailed, bob.games, "bob", "Bob")
    mailed = bob.mail(out, packet)
    echo(f"bob accepts: {mailed}")

    # Alice plays Russia boldly (attacks at 1-2 or better), Bob plays Japan at 1-1 or better. Each writes
    # an orders file from what his own copy of the game asks, checks it, signs it and mails the packet.
    boldness = {"alice": "1-2", "bob": "1-1"}  # RSR bots' odds thresholds
    receiver, other = alice, bob
    packets_sent = 2
    for _ in range(200):
        with player_home(receiver.home):
            assert receiver.game_dir is not None
            report_actions.receive(receiver.game_dir, mailed, None)
            result = game_actions.load_game(receiver.game_dir)
            if result.passes and result.passes[-1].waiting is None:
                echo(f"{receiver.name} receives the last reveal: the game is over and every die is public")
                echo(progress.result_line(progress.game_result(result, result.position.state)))
                break
            key = game_actions.choose_key(result, None)
            position, waiting, _ = position_for_author(result, key)
            inputs = bot_inputs(result, key, position, waiting, receiver.side, boldness[receiver.name])
            orders = out / "mail" / f"{len(result.packets):04d}-orders-{receiver.name}.yaml"
            atomic_write(orders, dump_yaml({"inputs": inputs}).encode())
            packet = order_actions.submit(receiver.game_dir, order_actions.load_orders(orders), None)
        mailed = receiver.mail(out, packet)
        packets_sent += 1
        what = f"orders {orders.name}" if inputs else "its reveal and resolution only"
        echo(f"{receiver.name} sends packet {packet.seq} with {what}")
        receiver, other = other, receiver
    else:
        raise BadInput("the demo game did not end within 200 packets")

    # a third party rebuilds the game from the mailed packets alone and verifies it
    audit = out / "audit" / alice.game_dir.name
    (audit / "turns").mkdir(parents=True)
    for path in sorted((alice.game_dir / "turns").iterdir()):
        shutil.copy(path, audit / "turns" / path.name)
    for game_dir in (alice.game_dir, bob.game_dir, audit):
        assert game_dir is not None
        result = game_actions.verify_game(game_dir)  # the full check `rsr verify` makes
        rolls = sum(len(r.rolls) for r in result.passes)
        echo(f"verified {game_dir}: {len(result.packets)} packets, {rolls} dice")
    echo(f"{packets_sent} packets were mailed")
    echo(f"reports: {alice.game_dir / 'reports'} and {bob.game_dir / 'reports'}")
    status = game_actions.load_game(alice.game_dir)
    echo("final position:")
    for line in status.ruleset.describe(status.position.state):
        echo("  " + line)
    return alice.game_dir
