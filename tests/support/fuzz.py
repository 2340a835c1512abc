"""A fuzzer that plays whole games of every scenario through the real exchange (issue 20, section 8).

Two players, each with a key store and a game folder of their own, pass packet files (or the same packets
inside an email message) to each other. At each turn the author's answers are the ruleset's bot's, or, at
the fuzzer's will, a near-legal or hostile variant of them: a value swapped for another one the request
names, a number pushed out of range, a key dropped or invented, a list emptied or doubled, a type changed,
terminal escapes and over-long strings. Whatever the author's own rsr signs must be taken in and resolved by
the opponent's rsr; what it refuses before signing is replaced by the bot's answer.

What counts as a defect:

* ``traceback``: anything but a typed refusal (``BadInput``) escapes ``submit`` or ``receive``;
* ``stall``: a packet rsr signed that the opponent's rsr does not take in, or a request that the bot's own
  legal answer cannot satisfy;
* ``invariant``: a unit vanishes or appears, steps or markers out of range, a unit on a hex not on the map;
* ``verdict``: the two players' copies replay to different positions, or the resolver, ``verify`` of each
  copy, a third copy made of the packets alone, and the independent verifier do not all agree.

The fuzzer's own choices come from ``random.Random(seed)`` (test code, not rules code): the keys are fresh,
so each game's dice differ, and every game folder is kept for a finding to be replayed.
"""

from __future__ import annotations

import email.message
import random
import shutil
import subprocess
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rsr import games as game_actions
from rsr import keys as keystore
from rsr import orders as order_actions
from rsr import reports as report_actions
from rsr.demo import bot_inputs, player_home
from rsr.engine import to_jsonable
from rsr.errors import BadInput
from rsr.fileio import atomic_write
from rsr.log import position_for_author
from rsr.packet import Packet
from rsr.rulesets import get_ruleset

REPO = Path(__file__).resolve().parents[2]

HOSTILE_STRINGS = ["\x1b[2J\x1b[31mpwned", "\u202eevil", "A" * 5000, "../../../etc/passwd", "0612", "", " ",
                   "t1/japan/movement/orders", "null", "\x00", "ünïcødé", "-1", "1e9"]
KINDS = ("traceback", "stall", "invariant", "verdict")
HOSTILE_VALUES: list[Any] = [None, True, False, 0, -1, 2**63, 10**40, [], {}, [[[[[]]]]], {"": {"": {}}}, 1.5]


@dataclass
class Finding:
    kind: str        # traceback | stall | invariant | verdict
    scenario: str
    seed: int
    seq: int
    detail: str
    game_dir: str = ""


@dataclass
class Outcome:
    """One fuzzed game: how far it went and what it found."""

    ruleset: str
    scenario: str
    seed: int
    packets: int = 0
    mutants_tried: int = 0
    mutants_refused: int = 0
    mutants_signed: int = 0
    by_mail: int = 0
    finished: bool = False
    findings: list[Finding] = field(default_factory=list)


# ---------------------------------------------------------------- mutations


def vocabulary(value: Any, strings: set[str], numbers: set[int]) -> None:
    """Every text and whole number a request names: the near-legal values a mutation swaps in."""
    if isinstance(value, bool):
        return
    if isinstance(value, str):
        strings.add(value)
    elif isinstance(value, int):
        numbers.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            strings.add(str(key))
            vocabulary(item, strings, numbers)
    elif isinstance(value, (list, tuple)):
        for item in value:
            vocabulary(item, strings, numbers)


def _paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [here]
    if isinstance(value, dict):
        for key in sorted(value, key=str):
            out += _paths(value[key], (*here, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _paths(item, (*here, index))
    return out


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    _get(value, path[:-1])[path[-1]] = new
    return value


def mutate(answer: Any, rng: random.Random, strings: list[str], numbers: list[int], hostile: bool) -> Any:
    """One change at one place in ``answer`` (a copy): near-legal from the request's own vocabulary, or
    hostile (types, escapes, sizes)."""
    answer = to_jsonable(answer)
    path = rng.choice(_paths(answer))
    node = _get(answer, path)
    if hostile:
        new = rng.choice(HOSTILE_STRINGS + HOSTILE_VALUES)
        return _set(answer, path, new)
    if isinstance(node, bool):
        return _set(answer, path, not node)
    if isinstance(node, int):
        choices = [node + 1, node - 1, 0, -1, node * 10 + 7] + numbers[:20]
        return _set(answer, path, rng.choice(choices))
    if isinstance(node, str):
        return _set(answer, path, rng.choice(strings) if strings else node + "x")
    if isinstance(node, list):
        how = rng.randrange(4)
        if how == 0 or not node:
            return _set(answer, path, [])
        if how == 1:
            return _set(answer, path, node + [rng.choice(node)])
        if how == 2:
            return _set(answer, path, node[: rng.randrange(len(node))])
        shuffled = list(node)
        rng.shuffle(shuffled)
        return _set(answer, path, shuffled)
    if isinstance(node, dict):
        if node and rng.random() < 0.5:
            key = rng.choice(sorted(node, key=str))
            del node[key]
            return answer
        node[rng.choice(strings) if strings else "extra"] = rng.choice(strings or ["x"])
        return answer
    return _set(answer, path, rng.choice(strings) if strings else None)


def mutate_inputs(inputs: list[dict[str, Any]], rng: random.Random, request_words: tuple[list[str], list[int]],
                  hostility: float) -> list[dict[str, Any]]:
    """A variant of a whole packet's inputs: one answer changed, or the list itself cut or doubled."""
    out = [to_jsonable(item) for item in inputs]
    strings, numbers = request_words
    roll = rng.random()
    if not out or roll < 0.1:
        return out + [{"request": rng.choice(strings or ["nothing"]), "answer": rng.choice(HOSTILE_VALUES)}]
    if roll < 0.2:
        return out[:-1] if len(out) > 1 else out + out
    index = rng.randrange(len(out))
    item = out[index]
    if "answer" in item and rng.random() < 0.85:
        item["answer"] = mutate(item["answer"], rng, strings, numbers, hostile=rng.random() < hostility)
    else:
        out[index] = mutate(item, rng, strings, numbers, hostile=rng.random() < hostility)
    return out


# ---------------------------------------------------------------- invariants


def invariants(ruleset_id: str, first: Any, state: Any) -> list[str]:
    """What must hold at every pass of every game: every unit accounted for, values in range, units on the
    map's hexes."""
    broken: list[str] = []
    units = getattr(state, "units", None)
    if units is None:
        return broken
    if sorted(units) != sorted(first.units):
        gone = sorted(set(first.units) - set(units))
        new = sorted(set(units) - set(first.units))
        broken.append(f"units changed: gone {gone[:5]}, new {new[:5]}")
    hexes = state.static.terrain
    for unit_id in sorted(units):
        unit = units[unit_id]
        if ruleset_id == "red-sun-rising":
            printed = state.static.counters[unit_id].steps if unit_id in state.static.counters else None
            if unit.steps < 0 or (printed is not None and unit.steps > printed):
                broken.append(f"{unit_id} has {unit.steps} steps (printed {printed})")
            if unit.steps > 0 and unit.hex is not None and unit.hex not in hexes:
                broken.append(f"{unit_id} stands on {unit.hex!r}, not a hex of the map")
        else:
            if unit.disruption not in (0, 1, 2):
                broken.append(f"{unit_id} has disruption {unit.disruption}")
            if unit.status == "map" and (unit.hex is None or unit.hex not in hexes):
                broken.append(f"{unit_id} is on the map at {unit.hex!r}, not a hex of the map")
    naval = getattr(state, "naval", None)
    if naval is not None:
        for fleet_id in sorted(naval.fleets):
            fleet = naval.fleets[fleet_id]
            if not 0 <= fleet.morale <= 10:
                broken.append(f"fleet {fleet_id} morale {fleet.morale}")
    return broken


# ---------------------------------------------------------------- the exchange


@dataclass
class Home:
    name: str
    side: str
    home: Path
    games: Path
    game_dir: Path | None = None


def _deliver(root: Path, packet: Packet, sender: str, by_mail: bool) -> Path:
    """The packet as its own file, or inside an email message as a mail client would save it."""
    if not by_mail:
        path = root / "mail" / f"{packet.seq:04d}-from-{sender}.rsr"
        atomic_write(path, packet.armored().encode())
        return path
    message = email.message.EmailMessage()
    message["From"] = f"{sender}@example.test"
    message["To"] = "opponent@example.test"
    message["Subject"] = f"rsr packet {packet.seq}"
    message.set_content(packet.armored(), cte="quoted-printable")
    path = root / "mail" / f"{packet.seq:04d}-from-{sender}.eml"
    atomic_write(path, bytes(message))
    return path


def _traced(outcome: Outcome, seq: int, where: str, call: Callable[[], Any]) -> tuple[bool, Any]:
    """Run ``call``; a typed refusal comes back as (False, message), anything else is a finding."""
    try:
        return True, call()
    except BadInput as refusal:
        return False, str(refusal)
    except Exception:  # noqa: BLE001 - the fuzzer hunts exactly these
        outcome.findings.append(Finding("traceback", outcome.scenario, outcome.seed, seq,
                                        f"{where}: {traceback.format_exc(limit=6)}"))
        return False, None


def _receiving(player: Home, mailed: Path) -> Callable[[], Any]:
    assert player.game_dir is not None
    game_dir = player.game_dir
    return lambda: report_actions.receive(game_dir, mailed, None)


def fuzz_game(root: Path, ruleset_id: str, scenario: str, seed: int, limit: int = 40,
              mutation_rate: float = 0.4, hostility: float = 0.3, mail_rate: float = 0.3,
              independent: bool = True) -> Outcome:
    """Play ``scenario`` for at most ``limit`` packets with fuzzed answers; return what happened."""
    rng = random.Random(seed)
    ruleset = get_ruleset(ruleset_id)
    outcome = Outcome(ruleset_id, scenario, seed)
    root.mkdir(parents=True, exist_ok=True)
    players = [Home(name, side, root / name / "home", root / name / "games")
               for name, side in zip(("alice", "bob"), ruleset.sides, strict=True)]
    for player in players:
        player.games.mkdir(parents=True, exist_ok=True)
        with player_home(player.home):
            keystore.new_key(player.name)
    alice, bob = players
    with player_home(alice.home):
        alice.game_dir, invite = game_actions.new_game(alice.games, ruleset_id, scenario, alice.side, "alice", "Alice")
    with player_home(bob.home):
        bob.game_dir, accept = game_actions.accept_game(_deliver(root, invite, "alice", False), bob.games, "bob", "Bob")
    mailed = _deliver(root, accept, "bob", False)
    outcome.packets = 2
    first_state = None
    receiver = alice
    while outcome.packets < limit:
        assert receiver.game_dir is not None
        with player_home(receiver.home):
            before = len(game_actions.load_game(receiver.game_dir).packets)
            ok, _ = _traced(outcome, before, "receive", _receiving(receiver, mailed))
            result = game_actions.load_game(receiver.game_dir)
            if not ok or len(result.packets) == before:
                if not outcome.findings:
                    outcome.findings.append(Finding("stall", scenario, seed, before,
                                                    f"{receiver.name} did not take in {mailed.name}",
                                                    str(receiver.game_dir)))
                return outcome
            if first_state is None and result.passes:
                first_state = result.passes[0].after.state
            for record in result.passes[max(0, before - 1):]:
                for problem in invariants(ruleset_id, first_state, record.after.state):
                    outcome.findings.append(Finding("invariant", scenario, seed, record.seq, problem,
                                                    str(receiver.game_dir)))
            if outcome.findings:
                return outcome
            if result.passes and result.passes[-1].waiting is None:
                outcome.finished = True
                break
            packet = _author(outcome, rng, result, receiver, mutation_rate, hostility)
            if packet is None:
                return outcome
        by_mail = rng.random() < mail_rate
        outcome.by_mail += by_mail
        mailed = _deliver(root, packet, receiver.name, by_mail)
        outcome.packets += 1
        receiver = bob if receiver is alice else alice
    if not outcome.finished:  # the packet limit: the last packet still reaches its reader
        with player_home(receiver.home):
            ok, _ = _traced(outcome, outcome.packets, "receive", _receiving(receiver, mailed))
        if outcome.findings:
            return outcome
    _agree(outcome, root, alice, bob, independent)
    return outcome


def _author(outcome: Outcome, rng: random.Random, result: Any, player: Home, mutation_rate: float,
            hostility: float) -> Packet | None:
    """The author's next packet: a fuzzed variant if his rsr signs it, else the bot's own answers."""
    assert player.game_dir is not None
    key = game_actions.choose_key(result, None)
    position, waiting, _ = position_for_author(result, key)
    seq = len(result.packets)
    ok, legal = _traced(outcome, seq, "the bot's answers",
                        lambda: bot_inputs(result, key, position, waiting, player.side, "1-1"))
    if not ok:
        if not outcome.findings:
            outcome.findings.append(Finding("stall", outcome.scenario, outcome.seed, seq,
                                            f"the bot's own answers are illegal: {legal}", str(player.game_dir)))
        return None
    if waiting is not None and rng.random() < mutation_rate:
        strings: set[str] = set()
        numbers: set[int] = set()
        vocabulary(to_jsonable(waiting.options), strings, numbers)
        vocabulary(to_jsonable(waiting.template), strings, numbers)
        words = (sorted(strings), sorted(numbers))
        fuzzed = mutate_inputs(legal, rng, words, hostility)
        outcome.mutants_tried += 1
        ok, packet = _traced(outcome, seq, "submit (fuzzed)",
                             lambda: order_actions.submit(player.game_dir, fuzzed, None))
        if outcome.findings:
            return None
        if ok:
            outcome.mutants_signed += 1
            return packet  # type: ignore[no-any-return]
        outcome.mutants_refused += 1
    ok, packet = _traced(outcome, seq, "submit (bot)", lambda: order_actions.submit(player.game_dir, legal, None))
    if not ok:
        if not outcome.findings:
            outcome.findings.append(Finding("stall", outcome.scenario, outcome.seed, seq,
                                            f"the bot's own answers were refused: {packet}", str(player.game_dir)))
        return None
    return packet  # type: ignore[no-any-return]


def _agree(outcome: Outcome, root: Path, alice: Home, bob: Home, independent: bool) -> None:
    """One verdict: both players' copies, a third copy of the packets alone, verify and the independent
    verifier."""
    assert alice.game_dir is not None and bob.game_dir is not None
    audit = root / "audit" / alice.game_dir.name
    (audit / "turns").mkdir(parents=True)
    for path in sorted((alice.game_dir / "turns").iterdir()):
        shutil.copy(path, audit / "turns" / path.name)
    hashes = {}
    verdicts = {}
    for name, home, game_dir in (("alice", alice.home, alice.game_dir), ("bob", bob.home, bob.game_dir),
                                 ("audit", alice.home, audit)):
        with player_home(home):
            ok, result = _traced(outcome, outcome.packets, f"verify {name}",
                                 lambda g=game_dir: game_actions.verify_game(g))
        verdicts[name] = ok
        if ok:
            hashes[name] = [p.state_hash for p in result.passes]
    if independent:
        run = subprocess.run([sys.executable, str(REPO / "tools" / "independent_verify.py"), str(audit)],
                             capture_output=True, text=True, check=False)
        verdicts["independent"] = run.returncode == 0
    if len(set(verdicts.values())) != 1 or not all(verdicts.values()):
        outcome.findings.append(Finding("verdict", outcome.scenario, outcome.seed, outcome.packets,
                                        f"verdicts differ or fail: {verdicts}", str(alice.game_dir)))
    if len({tuple(h) for h in hashes.values()}) > 1:
        outcome.findings.append(Finding("verdict", outcome.scenario, outcome.seed, outcome.packets,
                                        "the copies replay to different positions", str(alice.game_dir)))


def every_scenario() -> list[tuple[str, str]]:
    return [(ruleset_id, name) for ruleset_id, names in sorted(game_actions.scenarios_by_ruleset().items())
            for name in names if ruleset_id != "duel"]
