"""The log and the game directory (docs/protocol.md): reading, replaying, checking, appending.

``replay`` is the one place that walks a log: it checks every packet (chain, alternation, reveals),
resolves each packet's inputs with the dice of its key, and compares what it gets with the resolution
the next packet recorded. ``verify`` is ``replay`` plus a report; ``receive`` is ``replay`` of the log
with the new packet before anything is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rsr.engine import (
    Event,
    Position,
    Request,
    Ruleset,
    dry_run,
    enqueue,
    get_ruleset,
    initial_position,
    resolve_pass,
)
from rsr.errors import BadInput, RulesError, VerificationError
from rsr.fairdice import KeyedDice, Roll, commitment, derive_secret, dice_key
from rsr.fileio import acquire, atomic_write, game_lock
from rsr.keys import KeyPair, decode_public, fingerprint, verify_signature
from rsr.packet import (
    SIGN_PREFIX,
    Packet,
    check_self_signature,
    extract_blocks,
    open_packet,
    read_packets,
    sign_payload,
)
from rsr.scenario import Scenario, load_scenario
from rsr.yamlio import dump_yaml

MAX_PACKET_FILE = 8 * 1024 * 1024


@dataclass
class PassRecord:
    """One resolution pass: the inputs of packet ``resolved`` met the dice revealed by ``resolver``."""

    resolved: int
    resolver: int
    resolver_side: str
    key: bytes
    rolls: list[Roll]
    events: list[Event]
    state_hash: str
    waiting: Request | None
    position: Position


@dataclass
class Replay:
    """A log replayed: the game's fixed facts, every pass, and the position now."""

    packets: list[Packet]
    ruleset: Ruleset
    scenario: Scenario
    keys: dict[str, bytes]
    names: dict[str, str]
    creator: str
    opponent: str
    position: Position
    passes: list[PassRecord] = field(default_factory=list)
    start_waiting: Request | None = None

    @property
    def game_id(self) -> str:
        return self.packets[0].game

    @property
    def last(self) -> Packet:
        return self.packets[-1]

    def side_for_seq(self, seq: int) -> str:
        return self.creator if seq % 2 == 0 else self.opponent

    def next_author(self) -> str:
        return self.side_for_seq(len(self.packets))


def other_side(ruleset: Ruleset, side: str) -> str:
    first, second = ruleset.sides
    if side not in ruleset.sides:
        raise BadInput(f"{side!r} is not a side of {ruleset.id} ({first}, {second})")
    return second if side == first else first


def _check_invite(packet: Packet) -> tuple[Ruleset, Scenario, dict[str, bytes], str]:
    if packet.seq != 0 or "invite" not in packet.payload:
        raise VerificationError("the log does not start with an invite", packet.seq)
    invite = packet.payload["invite"]
    ruleset = get_ruleset(invite["ruleset"])
    if packet.side not in ruleset.sides:
        raise VerificationError(f"side {packet.side!r} is not a side of {ruleset.id}", 0)
    if invite["ruleset_version"] != ruleset.version:
        raise VerificationError(
            f"the game was created with {ruleset.id} version {invite['ruleset_version']}; this rsr has "
            f"{ruleset.version}", 0)
    scenario = load_scenario(ruleset.id, invite["scenario"])
    if scenario.sha256 != invite["scenario_sha256"]:
        raise VerificationError(
            f"scenario {scenario.name} data here hashes to {scenario.sha256[:16]}..., the invite pins "
            f"{invite['scenario_sha256'][:16]}... (different data or rsr version)", 0)
    keys = {side: decode_public(text) for side, text in sorted(invite["keys"].items())}
    for side in keys:
        if side not in ruleset.sides:
            raise VerificationError(f"the invite names a key for unknown side {side!r}", 0)
    return ruleset, scenario, keys, other_side(ruleset, packet.side)


def replay(packets: list[Packet]) -> Replay:
    """Check and replay a whole log. Raises VerificationError (or RulesError) at the first fault."""
    if not packets:
        raise VerificationError("the log is empty")
    ruleset, scenario, keys, opponent = _check_invite(packets[0])
    creator = packets[0].side
    game = packets[0].game
    position = initial_position(ruleset, scenario, packets[0].payload["invite"]["options"])
    result = Replay(packets, ruleset, scenario, keys, dict(packets[0].payload["invite"]["names"]), creator,
                    opponent, position)
    result.start_waiting = ruleset.next_request(position.state)
    for index, packet in enumerate(packets):
        _check_chain(result, index, packet, game)
        if index == 1:
            _check_accept(result, packet)
        if not verify_signature(result.keys[packet.side], packet.signature, SIGN_PREFIX + packet.payload_bytes):
            raise VerificationError(f"signature does not verify against {packet.side}'s key", packet.seq)
        if index >= 2:
            record = _resolve(result, packets[index - 1], packet, packets[index - 2])
            result.passes.append(record)
            result.position = record.position
        enqueue(result.position, packet.seq, packet.side, packet.inputs)
    return result


def _check_chain(result: Replay, index: int, packet: Packet, game: str) -> None:
    if packet.seq != index:
        raise VerificationError(f"found at position {index} of the log (a packet is missing or out of order)",
                                packet.seq)
    if packet.game != game:
        raise VerificationError(f"belongs to game {packet.game}, not {game} (replayed from another game?)",
                                packet.seq)
    expected_side = result.side_for_seq(index)
    if packet.side != expected_side:
        raise VerificationError(f"written by {packet.side} out of turn: seq {index} is {expected_side}'s",
                                packet.seq)
    if index > 0 and packet.payload["prev"] != result.packets[index - 1].hash_hex:
        raise VerificationError(f"prev does not match the hash of packet {index - 1} (chain broken)", packet.seq)


def _check_accept(result: Replay, packet: Packet) -> None:
    accept = packet.payload.get("accept")
    if not accept:
        raise VerificationError("packet 1 must be the acceptance", 1)
    for side, text in sorted(accept["keys"].items()):
        raw = decode_public(text)
        if side != packet.side:
            raise VerificationError(f"the acceptance names a key for {side}, not its own side", 1)
        pinned = result.keys.get(side)
        if pinned is not None and pinned != raw:
            raise VerificationError(f"the acceptance's key {fingerprint(raw)} is not the key the invite pinned "
                                    f"for {side} ({fingerprint(pinned)})", 1)
        result.keys[side] = raw
    result.names[packet.side] = accept["name"]
    if packet.side not in result.keys:
        raise VerificationError("the acceptance carries no key for its author", 1)


def _resolve(result: Replay, resolved: Packet, resolver: Packet, committed: Packet) -> PassRecord:
    """Check ``resolver``'s reveal and replay the pass that resolves ``resolved``."""
    reveal = bytes.fromhex(resolver.payload["reveal"])
    if commitment(reveal) != committed.payload["commit"]:
        raise VerificationError(f"reveal does not match the commitment in packet {committed.seq}", resolver.seq)
    key = dice_key(reveal, bytes.fromhex(result.game_id), resolved.hash)
    record = run_pass(result.ruleset, result.position, key, resolved.seq, resolver.seq, resolver.side)
    recorded = resolver.payload["resolution"]
    mine = [r.to_json() for r in record.rolls]
    for n, (theirs, ours) in enumerate(zip(recorded["dice"], mine, strict=False)):
        if theirs != ours:
            raise VerificationError(f"resolution die {n} is {theirs}, replay gives {ours}", resolver.seq)
    if len(recorded["dice"]) != len(mine):
        raise VerificationError(f"resolution lists {len(recorded['dice'])} dice, replay rolls {len(mine)}",
                                resolver.seq)
    if recorded["state"] != record.state_hash:
        raise VerificationError(f"resolution state {recorded['state'][:16]}... differs from the replay's "
                                f"{record.state_hash[:16]}... (different rsr version or a bug)", resolver.seq)
    return record


def run_pass(ruleset: Ruleset, position: Position, key: bytes, resolved: int, resolver: int,
             resolver_side: str) -> PassRecord:
    dice = KeyedDice(key)
    try:
        after, outcome = resolve_pass(ruleset, position, dice)
    except RulesError as exc:
        raise VerificationError(f"an input breaks the rules: {exc}", resolved) from exc
    except VerificationError as exc:
        raise exc
    return PassRecord(resolved, resolver, resolver_side, key, list(dice.rolls), outcome.events,
                      after.digest(ruleset), outcome.waiting, after)


# -- the author's side: resolving the opponent's packet and writing the next one -------------------------------


def my_side(result: Replay, key: KeyPair) -> str:
    for side, pub in sorted(result.keys.items()):
        if pub == key.public_raw:
            return side
    raise BadInput(f"key {key.name} ({key.fingerprint}) is not a key of this game")


def pending_pass(result: Replay, key: KeyPair) -> PassRecord | None:
    """The pass this side's next packet will record: the opponent's last packet met with my reveal."""
    side = my_side(result, key)
    if result.next_author() != side or len(result.packets) < 2:
        return None
    last = result.last
    secret = derive_secret(key.seed, bytes.fromhex(result.game_id), last.seq - 1)
    if commitment(secret) != result.packets[last.seq - 1].payload["commit"]:
        raise BadInput(f"key {key.name} does not reproduce the commitment of packet {last.seq - 1}")
    return run_pass(result.ruleset, result.position, dice_key(secret, bytes.fromhex(result.game_id), last.hash),
                    last.seq, last.seq + 1, side)


def position_for_author(result: Replay, key: KeyPair) -> tuple[Position, Request | None, PassRecord | None]:
    """The position an author writes against, what the game asks, and the pass its packet will carry."""
    record = pending_pass(result, key)
    if record is not None:
        return record.position, record.waiting, record
    waiting = result.passes[-1].waiting if result.passes else result.start_waiting
    return result.position, waiting, None


def check_orders(result: Replay, key: KeyPair, inputs: list[dict[str, Any]]) -> Any:
    side = my_side(result, key)
    if result.next_author() != side:
        raise BadInput(f"it is not {side}'s packet to write: waiting for {result.next_author()}")
    if len(result.packets) == 0:
        raise BadInput("the game has no invite")
    if len(result.packets) == 1 and inputs:
        pass  # the acceptance may carry inputs (docs/protocol.md)
    position, _, _ = position_for_author(result, key)
    return dry_run(result.ruleset, position, side, len(result.packets), inputs)


def build_packet(result: Replay, key: KeyPair, inputs: list[dict[str, Any]]) -> Packet:
    """Sign the next packet: reveal, resolution of the opponent's packet, my inputs, my next commit."""
    side = my_side(result, key)
    seq = len(result.packets)
    check_orders(result, key, inputs)
    game_bytes = bytes.fromhex(result.game_id)
    payload: dict[str, Any] = {
        "v": 1, "game": result.game_id, "seq": seq, "side": side, "prev": result.last.hash_hex,
        "commit": commitment(derive_secret(key.seed, game_bytes, seq)), "inputs": inputs,
    }
    if seq >= 2:
        record = pending_pass(result, key)
        assert record is not None
        payload["reveal"] = derive_secret(key.seed, game_bytes, seq - 2).hex()
        payload["resolution"] = {"state": record.state_hash, "dice": [r.to_json() for r in record.rolls]}
    return sign_payload(payload, key)


def invite_packet(ruleset: Ruleset, scenario: Scenario, key: KeyPair, side: str, name: str, game_id: bytes,
                  opponent_key: bytes | None = None, options: dict[str, Any] | None = None) -> Packet:
    other_side(ruleset, side)
    keys = {side: _b64(key.public_raw)}
    if opponent_key is not None:
        keys[other_side(ruleset, side)] = _b64(opponent_key)
    payload = {
        "v": 1, "game": game_id.hex(), "seq": 0, "side": side, "prev": None,
        "commit": commitment(derive_secret(key.seed, game_id, 0)), "inputs": [],
        "invite": {"ruleset": ruleset.id, "ruleset_version": ruleset.version, "scenario": scenario.name,
                   "scenario_sha256": scenario.sha256, "options": options or {}, "keys": keys,
                   "names": {side: name}},
    }
    return sign_payload(payload, key)


def accept_packet(invite: Packet, key: KeyPair, name: str, inputs: list[dict[str, Any]] | None = None) -> Packet:
    ruleset = get_ruleset(invite.payload["invite"]["ruleset"])
    side = other_side(ruleset, invite.side)
    payload = {
        "v": 1, "game": invite.game, "seq": 1, "side": side, "prev": invite.hash_hex,
        "commit": commitment(derive_secret(key.seed, bytes.fromhex(invite.game), 1)), "inputs": inputs or [],
        "accept": {"keys": {side: _b64(key.public_raw)}, "name": name},
    }
    return sign_payload(payload, key)


def _b64(raw: bytes) -> str:
    import base64

    return base64.b64encode(raw).decode()


# -- the directory ----------------------------------------------------------------------------------------


def game_dir_name(game_id: str) -> str:
    return f"game-{game_id[:8]}"


def read_text_file(path: Path) -> str:
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise BadInput(f"{path}: cannot read ({exc.strerror})") from exc
    if size > MAX_PACKET_FILE:
        raise BadInput(f"{path}: {size} bytes is too large for a packet file (at most {MAX_PACKET_FILE})")
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def load_log(game_dir: Path) -> list[Packet]:
    """Read every packet file, check signatures and file names, and detect equivocation."""
    turns = game_dir / "turns"
    if not turns.is_dir():
        raise BadInput(f"{game_dir} is not a game directory (no turns/)")
    files = sorted(p for p in turns.iterdir() if p.suffix == ".rsr")
    if not files:
        raise VerificationError(f"{turns} holds no packets")
    by_seq: dict[int, list[tuple[Path, Packet]]] = {}
    keys: dict[str, bytes] | None = None
    for path in files:
        try:
            seq = int(path.name.split("-")[0])
        except ValueError as exc:
            raise VerificationError(f"{path.name} is not named NNNN-side-tag.rsr") from exc
        blocks = extract_blocks(read_text_file(path))
        if len(blocks) != 1:
            raise VerificationError(f"{path.name} holds {len(blocks)} packets; a turn file holds one", seq)
        if seq <= 1:
            packet = read_packets(read_text_file(path), None)[0]
            if seq == 0:
                keys = {s: decode_public(t) for s, t in packet.payload["invite"]["keys"].items()}
            elif keys is not None:
                keys.update({s: decode_public(t) for s, t in packet.payload["accept"]["keys"].items()})
        else:
            if keys is None:
                raise VerificationError("packet 0 (the invite) is missing", 0)
            try:
                packet = open_packet(blocks[0], keys, seq)
            except BadInput as exc:
                raise VerificationError(f"{path.name}: {exc}", seq) from exc
        if packet.seq != seq:
            raise VerificationError(f"{path.name} holds packet {packet.seq}, not {seq}", seq)
        if path.name != packet.file_name():
            raise VerificationError(f"{path.name} should be named {packet.file_name()}", seq)
        by_seq.setdefault(seq, []).append((path, packet))
    for found in by_seq.values():
        if len(found) > 1:
            raise equivocation(game_dir, found[0][1], found[1][1])
    return [found[0][1] for _, found in sorted(by_seq.items())]


def equivocation(game_dir: Path, first: Packet, second: Packet) -> VerificationError:
    """Two packets at one seq by one side: write both as a proof to disputes/ and name the signer."""
    proof = (f"# Equivocation: two different packets at seq {first.seq}, both signed by {first.side}.\n"
             f"# Each verifies against {first.side}'s key; anyone can check them with rsr.\n\n"
             + first.armored() + "\n" + second.armored())
    path = game_dir / "disputes" / f"{first.seq:04d}-{first.side}.txt"
    atomic_write(path, proof.encode())
    return VerificationError(f"two different packets at seq {first.seq}, both signed by {first.side} "
                             f"(equivocation; proof written to {path})", first.seq)


def write_game_yaml(game_dir: Path, result: Replay) -> None:
    invite = result.packets[0].payload["invite"]
    summary = {
        "game": result.game_id,
        "ruleset": invite["ruleset"],
        "ruleset_version": invite["ruleset_version"],
        "scenario": invite["scenario"],
        "scenario_sha256": invite["scenario_sha256"],
        "options": invite["options"],
        "sides": {side: {"player": result.names.get(side, ""), "key": fingerprint(pub)}
                  for side, pub in sorted(result.keys.items())},
        "note": "generated from packet 0 and 1; the packets under turns/ are the truth",
    }
    atomic_write(game_dir / "game.yaml", dump_yaml(summary).encode())


def create_game_dir(parent: Path, invite: Packet) -> Path:
    game_dir = parent / game_dir_name(invite.game)
    if game_dir.exists():
        raise BadInput(f"{game_dir} already exists")
    (game_dir / "turns").mkdir(parents=True)
    atomic_write(game_dir / ".gitignore", b".rsr.lock\n")
    (game_dir / ".rsr.lock").touch()
    return game_dir


def append_packets(game_dir: Path, packets: list[Packet]) -> None:
    """Write packets already checked by ``replay``, under the game lock, one atomic file each."""
    lock = game_lock(game_dir)
    acquire(lock)
    try:
        existing = {p.name for p in (game_dir / "turns").iterdir()}
        for packet in packets:
            name = packet.file_name()
            if name in existing:
                continue
            atomic_write(game_dir / "turns" / name, packet.armored().encode())
        result = replay(load_log(game_dir))
        write_game_yaml(game_dir, result)
    finally:
        lock.release()


def incoming(game_dir: Path, text: str) -> tuple[list[Packet], list[Packet]]:
    """Check packets from an email or file against the log: (new packets, already present).

    Nothing is written unless the packets extend the log validly; a second packet at an existing seq
    signed by the same side is equivocation and its proof goes to disputes/.
    """
    log = load_log(game_dir)
    keys = replay(log).keys
    packets = []
    for block in extract_blocks(text):
        try:
            if len(log) == 1 and block.headers.get("Seq", "").startswith("1 "):
                packet = open_packet(block, None)  # the acceptance introduces its own key
                check_self_signature(packet)
            else:
                packet = open_packet(block, keys)
        except (BadInput, VerificationError) as exc:
            # a file that is not a well-formed packet signed by a player of this game is bad input here
            raise BadInput(f"incoming packet: {exc}") from exc
        packets.append(packet)
    new: list[Packet] = []
    known: list[Packet] = []
    for packet in sorted(packets, key=lambda p: p.seq):
        if packet.game != log[0].game:
            raise VerificationError(f"belongs to game {packet.game}, not {log[0].game}", packet.seq)
        if packet.seq < len(log):
            if log[packet.seq].payload_bytes == packet.payload_bytes:
                known.append(packet)
                continue
            if log[packet.seq].side == packet.side:
                raise equivocation(game_dir, log[packet.seq], packet)
            raise VerificationError(f"seq {packet.seq} is already taken by {log[packet.seq].side}", packet.seq)
        if packet.seq != len(log) + len(new):
            raise VerificationError(f"the log has {len(log) + len(new)} packets; packet {packet.seq} would leave "
                                    "a gap", packet.seq)
        new.append(packet)
    if new:
        replay(log + new)  # everything checked before anything is written
    return new, known
