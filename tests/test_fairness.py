"""Why nobody can cheat at dice (docs/protocol.md), shown on a real signed game.

* The author of packet j cannot obtain the dice its inputs will meet: they are keyed by the secret the
  opponent reveals in packet j+1, which is in no file the author holds and not derivable from its key.
* The resolver cannot choose them: its reveal must open the commitment it made in packet j-1, which
  packet j's hash chain shows existed before packet j; the packet's bytes are fixed by the author's
  signature. Exactly one key is acceptable, and it gives exactly the recorded dice.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rsr import gamedir
from rsr import log as gamelog
from rsr.errors import VerificationError
from rsr.fairdice import commitment, dice_key, roll_value
from tests.support.games import duel_game

INPUTS = {
    2: [{"request": "r1/attack", "answer": 1}],
    3: [{"request": "r1/defend", "answer": 2}],  # this answer needs a die: the shot
}


pytestmark = pytest.mark.usefixtures("duel_registered")


def test_author_cannot_obtain_its_dice(tmp_path: Path) -> None:
    """Packet 3 (defender) needs a die; it is keyed by the attacker's reveal in packet 4."""
    game_dir, keys = duel_game(tmp_path, INPUTS, 4)  # packets 0-3 exist; packet 3 is unresolved
    log = gamedir.load_log(game_dir)
    game_id = bytes.fromhex(log[0].game)
    result = gamelog.replay(log)
    the_secret = gamelog.secret_for(result, keys["attacker"], 2)  # what packet 4 will reveal
    everything_the_author_holds = b"".join(p.read_bytes() for p in game_dir.rglob("*") if p.is_file())
    assert the_secret.hex().encode() not in everything_the_author_holds
    assert the_secret not in everything_the_author_holds
    # the author's own key derives different secrets
    assert all(gamelog.secret_for(result, keys["defender"], s) != the_secret for s in range(len(result.packets)))
    # and the die really depends on that secret: other secrets give other streams
    streams = {tuple(roll_value(dice_key(os.urandom(32), game_id, log[3].hash), n, 6) for n in range(8))
               for _ in range(20)}
    assert len(streams) > 1


def test_resolver_cannot_choose_the_dice(tmp_path: Path) -> None:
    game_dir, keys = duel_game(tmp_path, INPUTS, 5)  # packet 4 resolves packet 3
    log = gamedir.load_log(game_dir)
    committed, resolved, resolver = log[2], log[3], log[4]
    # the commitment predates the resolved packet: packet 3 names packet 2's hash
    assert resolved.payload["prev"] == committed.hash_hex
    reveal = bytes.fromhex(resolver.payload["reveal"])
    assert commitment(reveal) == committed.payload["commit"]
    # only that reveal opens the commitment; any other choice of secret is refused
    for _ in range(50):
        assert commitment(os.urandom(32)) != committed.payload["commit"]
    # and the one acceptable key gives exactly the recorded dice
    key = dice_key(reveal, bytes.fromhex(log[0].game), resolved.hash)
    recorded = resolver.payload["resolution"]["dice"]
    assert recorded, "the defender's answer needed a die"
    assert [roll_value(key, d["n"], d["sides"]) for d in recorded] == [d["value"] for d in recorded]
    # a resolver who reveals another secret is caught by verify
    from rsr.packet import sign_payload

    payload = dict(resolver.payload)
    payload["reveal"] = os.urandom(32).hex()
    forged = sign_payload(payload, keys["attacker"])
    with pytest.raises(VerificationError, match="reveal does not match the commitment"):
        gamelog.replay(log[:4] + [forged])
