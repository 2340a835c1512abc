"""Races under the lock (issue 8 part 3) and abandonment made visible (part 6), through real processes.

Every decision to write is taken inside the game lock on what was read inside it: ten receives of one
packet at once write it once; two submits at once sign one packet. Packets carry their signed time, an
invite may set a deadline, status says who owes a packet since when, and an overdue claim can be checked
by anyone holding the game (docs/protocol.md, "Abandonment").
"""

from __future__ import annotations

import datetime
import os
import subprocess
import sys
from pathlib import Path

from rsr import claims, gamedir
from rsr import log as gamelog
from tests.test_grinding import Table, first_game, only_game, turn


def rsr_process(home: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "RSR_HOME": str(home)}
    return subprocess.Popen([sys.executable, "-m", "rsr.cli", *args], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_ten_parallel_receives_write_one_packet(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = first_game(table, "liaoyang-turn-1904")  # a whole land turn: the game goes on
    table.rsr("alice", "submit", str(alice), "--pass")
    packet = turn(alice, 4)
    runs = [rsr_process(table.home("bob"), "receive", str(bob), str(packet)) for _ in range(10)]
    outputs = [(run.wait(timeout=300), run.stdout.read() if run.stdout else "", run.stderr.read() if run.stderr
                else "") for run in runs]
    assert all(code == 0 for code, _, _ in outputs), outputs
    received = [out for _, out, _ in outputs if "received packet 4" in out]
    nothing = [out for _, out, _ in outputs if "nothing new" in out]
    assert len(received) == 1 and len(nothing) == 9, outputs
    assert len(list((bob / "turns").glob("0004-*"))) == 1
    table.rsr("bob", "verify", str(bob))


def test_two_parallel_submits_sign_one_packet(tmp_path: Path) -> None:
    table = Table(tmp_path)
    alice, bob = first_game(table, "liaoyang-turn-1904")  # a whole land turn: the game goes on
    table.rsr("alice", "submit", str(alice), "--pass")
    table.rsr("bob", "receive", str(bob), str(turn(alice, 4)))
    orders = []
    for n in range(2):
        path = tmp_path / f"orders-{n}.yaml"
        path.write_text(f"inputs: []\nmessage: version {n}\n")
        orders.append(path)
    runs = [rsr_process(table.home("bob"), "submit", str(bob), str(path)) for path in orders]
    codes = sorted(run.wait(timeout=300) for run in runs)
    assert codes == [0, 2], [run.stderr.read() if run.stderr else "" for run in runs]
    assert len(list((bob / "turns").glob("0005-*"))) == 1
    table.rsr("bob", "verify", str(bob))


def test_signed_times_deadlines_status_and_overdue_claims(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.rsr("alice", "key", "new", "alice")
    table.rsr("bob", "key", "new", "bob")
    table.rsr("alice", "new", str(table.games("alice")), "--scenario", "liaoyang-1904", "--side", "russia",
              "--key", "alice", "--deadline-hours", "48")
    alice = only_game(table.games("alice"))
    table.rsr("bob", "accept", str(turn(alice, 0)), "--key", "bob", "--dir", str(table.games("bob")))
    bob = only_game(table.games("bob"))
    table.rsr("alice", "receive", str(alice), str(turn(bob, 1)))
    log = gamedir.load_log(alice)
    assert log[0].payload["invite"]["deadline_hours"] == 48
    assert all("time" in packet.payload for packet in log)
    status = table.rsr("bob", "status", str(bob))
    assert "waiting for russia's packet 2 since" in status and "deadline" in status

    result = gamelog.replay(log)
    bob_key = table.with_home("bob")
    sent = claims.parse_time(log[1].payload["time"])
    # Bob waits for Alice's packet 2; before the deadline there is nothing to claim
    early = sent + datetime.timedelta(hours=47)
    try:
        claims.make_claim(result, bob_key, early)
        raise AssertionError("a claim before the deadline was signed")
    except Exception as exc:  # noqa: BLE001 - BadInput is what we expect
        assert "has not passed" in str(exc)
    late = sent + datetime.timedelta(hours=49)
    text = claims.make_claim(result, bob_key, late)
    assert "BEGIN RSR CLAIM" in text
    lines = claims.check_claim(result, text)
    assert lines[0].startswith("valid claim signed by japan") and "had passed" in lines[1]
    assert "still missing" in lines[2]
    # the claimed side cannot make the claim, and a changed claim does not verify
    alice_key = table.with_home("alice")
    try:
        claims.make_claim(result, alice_key, late)
        raise AssertionError("the side that owes the packet signed a claim")
    except Exception as exc:  # noqa: BLE001
        assert "yours to write" in str(exc)
    body = text.splitlines()
    body[4] = body[4][:-2] + ("AA" if body[4][-2:] != "AA" else "BB")
    try:
        claims.check_claim(result, "\n".join(body))
        raise AssertionError("a changed claim verified")
    except Exception as exc:  # noqa: BLE001
        assert "signature" in str(exc) or "JSON" in str(exc) or "base64" in str(exc)
    # through the command line, the claim file checks against the game
    claim_file = tmp_path / "claim.txt"
    claim_file.write_text(text)
    out = table.rsr("alice", "claim", "check", str(alice), str(claim_file))
    assert "valid claim signed by japan" in out
