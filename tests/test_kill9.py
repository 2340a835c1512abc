"""Issue 8 acceptance: ``kill -9`` of ``rsr receive`` and ``rsr submit`` at random moments never breaks a log.

Two players (each with an rsr home of their own) play a Red Sun/Red Star game through real commands. A
snapshot of Japan's game directory and home is taken just before a receive and just before a submit; each
trial copies it, starts the real ``rsr`` in a subprocess and sends SIGKILL after a delay drawn from a seeded
generator (so the delays are reproducible; where the process is when the signal lands is up to the
machine). Afterwards the log must verify, and the signing journal must agree with turns/:

* the packet in neither: the next submit signs it;
* in the journal only (killed between journaling and writing): the next submit refuses, and
  ``rsr receive GAME_DIR <journal file>`` puts the very packet back;
* in both, byte for byte; never in turns/ without the journal.

200 trials behind ``make soak``; 2 in the normal suite, plus a deterministic test of the journal-only case.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from rsr import games as game_actions
from rsr import keys as keystore
from rsr import orders as order_actions
from rsr import reports as report_actions
from rsr.cli import main
from rsr.demo import bot_inputs, player_home
from rsr.gamedir import load_log
from rsr.log import position_for_author
from rsr.yamlio import dump_yaml

RSR = Path(sys.executable).parent / "rsr"


@dataclass
class Snapshot:
    """Japan's copy of the game and rsr home, and what to feed the command under test."""

    root: Path
    game_dir: Path
    home: Path
    argument: Path  # the mailed packet (receive) or the orders file (submit)
    seq: int  # the seq the command writes


@dataclass
class Setup:
    receive: Snapshot
    submit: Snapshot
    game_id: str


def _step(game_dir: Path, mail: Path, name: str) -> Path:
    """One player's turn in his own home: orders from the bot, checked, signed; returns the mailed packet."""
    result = game_actions.load_game(game_dir)
    key = game_actions.choose_key(result, None)
    position, waiting, _ = position_for_author(result, key)
    side = result.next_author()
    inputs = bot_inputs(result, key, position, waiting, side, "1-1")
    orders = mail / f"{len(result.packets):04d}-orders-{name}.yaml"
    orders.write_text(dump_yaml({"inputs": inputs}))
    packet = order_actions.submit(game_dir, order_actions.load_orders(orders), None)
    path = mail / f"{packet.seq:04d}-{name}.rsr"
    path.write_text(packet.armored())
    return path


def _snapshot(src_dir: Path, src_home: Path, argument: Path, dest: Path, seq: int) -> Snapshot:
    shutil.copytree(src_dir, dest / "game")
    shutil.copytree(src_home, dest / "home")
    shutil.copy(argument, dest / argument.name)
    return Snapshot(dest, dest / "game", dest / "home", dest / argument.name, seq)


def make_setup(root: Path) -> Setup:
    homes = {"alice": root / "alice-home", "bob": root / "bob-home"}
    mail = root / "mail"
    mail.mkdir(parents=True)
    for name, home in homes.items():
        with player_home(home):
            keystore.new_key(name)
    with player_home(homes["alice"]):
        game_a, invite = game_actions.new_game(root / "alice", "red-star", "july-1939-contact", "japan", "alice",
                                               "Alice")
    (mail / "0000.rsr").write_text(invite.armored())
    with player_home(homes["bob"]):
        game_b, accept = game_actions.accept_game(mail / "0000.rsr", root / "bob", "bob", "Bob")
    (mail / "0001.rsr").write_text(accept.armored())
    with player_home(homes["alice"]):
        report_actions.receive(game_a, mail / "0001.rsr", None)
        sent = _step(game_a, mail, "alice")
    with player_home(homes["bob"]):
        report_actions.receive(game_b, sent, None)
        sent = _step(game_b, mail, "bob")
    receive = _snapshot(game_a, homes["alice"], sent, root / "snap-receive", 3)
    with player_home(homes["alice"]):
        report_actions.receive(game_a, sent, None)
        result = game_actions.load_game(game_a)
        key = game_actions.choose_key(result, None)
        position, waiting, _ = position_for_author(result, key)
        inputs = bot_inputs(result, key, position, waiting, "japan", "1-1")
    orders = mail / "0004-orders-alice.yaml"
    orders.write_text(dump_yaml({"inputs": inputs}))
    submit = _snapshot(game_a, homes["alice"], orders, root / "snap-submit", 4)
    return Setup(receive, submit, invite.game)


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Setup:
    return make_setup(tmp_path_factory.mktemp("kill9"))


def copy_snapshot(snap: Snapshot, dest: Path) -> Snapshot:
    shutil.copytree(snap.root, dest)
    return Snapshot(dest, dest / "game", dest / "home", dest / snap.argument.name, snap.seq)


def command(kind: str, snap: Snapshot) -> list[str]:
    return [str(RSR), kind, str(snap.game_dir), str(snap.argument)]


def run_killed(kind: str, snap: Snapshot, delay: float) -> int:
    env = dict(os.environ, RSR_HOME=str(snap.home))
    process = subprocess.Popen(command(kind, snap), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        process.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGKILL)
        process.wait()
    assert process.stderr is not None
    err = process.stderr.read().decode()
    process.stderr.close()
    assert "Traceback" not in err, err
    return process.returncode


def in_home(snap: Snapshot, args: list[str]) -> tuple[int, str]:
    out = CliRunner().invoke(main, args, env={"RSR_HOME": str(snap.home)})
    if out.exception is not None and not isinstance(out.exception, SystemExit):
        raise out.exception
    return out.exit_code, out.output


def verifies(snap: Snapshot) -> None:
    code, output = in_home(snap, ["verify", str(snap.game_dir)])
    assert code == 0, output


def turn_at(snap: Snapshot, seq: int) -> list[Path]:
    return sorted((snap.game_dir / "turns").glob(f"{seq:04d}-*.rsr"))


def journal_entry(snap: Snapshot, game_id: str, seq: int) -> Path:
    return snap.home / "journal" / game_id / f"{seq:06d}.rsr"


def payload_of(path: Path) -> bytes:
    from rsr.packet import extract_blocks

    return extract_blocks(path.read_text())[0].payload_bytes


def check_receive_trial(snap: Snapshot) -> str:
    """After a killed receive: the log verifies, holds the packet or not, and a new receive completes it."""
    verifies(snap)
    there = turn_at(snap, snap.seq)
    outcome = "packet written" if there else "nothing written"
    if there:
        assert there[0].read_bytes() == snap.argument.read_bytes()
    code, output = in_home(snap, ["receive", str(snap.game_dir), str(snap.argument)])
    assert code == 0, output
    assert len(turn_at(snap, snap.seq)) == 1
    verifies(snap)
    return outcome


def check_submit_trial(snap: Snapshot, game_id: str) -> str:
    """After a killed submit: verify, journal and turns/ agree, and the game goes on (or is put back)."""
    verifies(snap)
    entry = journal_entry(snap, game_id, snap.seq)
    there = turn_at(snap, snap.seq)
    if there:
        assert entry.exists(), "a packet in turns/ that the journal does not hold"
        assert payload_of(there[0]) == payload_of(entry)
        return "journal and turns/"
    if not entry.exists():
        code, output = in_home(snap, ["submit", str(snap.game_dir), str(snap.argument)])
        assert code == 0, output
        assert journal_entry(snap, game_id, snap.seq).exists() and len(turn_at(snap, snap.seq)) == 1
        verifies(snap)
        return "nothing signed (submitted again)"
    code, output = in_home(snap, ["submit", str(snap.game_dir), str(snap.argument)])
    assert code == 2 and "already signed" in output, output
    assert not turn_at(snap, snap.seq)
    code, output = in_home(snap, ["receive", str(snap.game_dir), str(entry)])
    assert code == 0, output
    restored = turn_at(snap, snap.seq)
    assert len(restored) == 1 and payload_of(restored[0]) == payload_of(entry)
    verifies(snap)
    return "journal only (put back by receive)"


def full_duration(kind: str, snap: Snapshot, dest: Path) -> float:
    trial = copy_snapshot(snap, dest)
    started = time.monotonic()
    done = subprocess.run(command(kind, trial), env=dict(os.environ, RSR_HOME=str(trial.home)),
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return time.monotonic() - started


def run_trials(setup: Setup, root: Path, count: int, seed: int) -> dict[str, Counter[str]]:
    rng = random.Random(seed)
    durations = {kind: full_duration(kind, getattr(setup, kind), root / f"timing-{kind}")
                 for kind in ("receive", "submit")}
    outcomes: dict[str, Counter[str]] = {"receive": Counter(), "submit": Counter()}
    for number in range(count):
        kind = "receive" if number % 2 == 0 else "submit"
        delay = rng.uniform(0.0, 1.1 * durations[kind])
        trial = copy_snapshot(getattr(setup, kind), root / f"trial-{number:03d}")
        code = run_killed(kind, trial, delay)
        state = "finished" if code == 0 else "killed" if code == -signal.SIGKILL else f"exit {code}"
        assert code in (0, -signal.SIGKILL), f"trial {number} ({kind}, {delay:.2f} s): exit {code}"
        result = check_receive_trial(trial) if kind == "receive" else check_submit_trial(trial, setup.game_id)
        outcomes[kind][f"{state}: {result}"] += 1
        shutil.rmtree(trial.root)
    outcomes["durations"] = Counter({k: round(v, 2) for k, v in durations.items()})  # type: ignore[dict-item]
    return outcomes


def test_kill9_a_few_trials(setup: Setup, tmp_path: Path) -> None:
    outcomes = run_trials(setup, tmp_path, 2, seed=9)
    assert sum(outcomes["receive"].values()) + sum(outcomes["submit"].values()) == 2


def test_submit_killed_after_the_journal_is_put_back_by_receive(setup: Setup, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The journal-only state made deterministically: the write to turns/ dies after the journal has the packet.
    The next submit refuses (it would sign a second packet at that seq); receiving the journal file restores
    the very packet, and the game verifies."""
    trial = copy_snapshot(setup.submit, tmp_path / "trial")

    def killed(*_: object, **__: object) -> None:
        raise KeyboardInterrupt("killed")

    monkeypatch.setattr(order_actions, "write_packets", killed)
    with player_home(trial.home), pytest.raises(KeyboardInterrupt):
        order_actions.submit(trial.game_dir, order_actions.load_orders(trial.argument), None)
    monkeypatch.undo()
    assert not turn_at(trial, trial.seq) and journal_entry(trial, setup.game_id, trial.seq).exists()
    assert check_submit_trial(trial, setup.game_id) == "journal only (put back by receive)"
    assert len(load_log(trial.game_dir)) == trial.seq + 1


@pytest.mark.soak
def test_kill9_200_trials(setup: Setup, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import resource

    started = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    outcomes = run_trials(setup, tmp_path, 200, seed=20261201)
    took = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    children = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    with capsys.disabled():
        print(f"\nkill -9 trials: 200 in {took:.0f} s wall ({children:.0f} s CPU in the killed processes); "
              f"uninterrupted run times (s): {dict(outcomes['durations'])}")
        for kind in ("receive", "submit"):
            for outcome, n in sorted(outcomes[kind].items()):
                print(f"  {kind:8} {n:4}  {outcome}")
    assert sum(outcomes["receive"].values()) + sum(outcomes["submit"].values()) == 200
