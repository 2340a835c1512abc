"""The log and the game directory (docs/protocol.md): reading, replaying, checking, appending.

``replay`` is the one place that walks a log: it checks every packet (chain, alternation, reveals),
resolves each packet's inputs with the dice of its key, and compares what it gets with the resolution
the next packet recorded. ``verify`` is ``replay`` plus a report; ``receive`` is ``replay`` of the log
with the new packet before anything is written.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from rsr.engine import (
    Event,
    Position,
    Request,
    Ruleset,
    dry_run,
    enqueue,
    initial_position,
    resolve_pass,
)
from rsr.errors import BadInput, NeedDice, RulesError, VerificationError, printable
from rsr.fairdice import KeyedDice, NoDice, Roll, commitment, derive_secret, dice_key
from rsr.fileio import atomic_write, game_locked, read_limited
from rsr.keys import KeyPair, decode_public, fingerprint
from rsr.packet import (
    Packet,
    check_self_signature,
    extract_blocks,
    open_packet,
    read_packets,
    sign_payload,
    signature_ok,
)
from rsr.rulesets import get_ruleset
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
    position: Position | None  # None once a later pass exists, if replay was asked not to keep positions

    @property
    def after(self) -> Position:
        """The position this pass left (present unless replay was asked not to keep positions)."""
        if self.position is None:
            raise BadInput(f"the position after packet {self.resolved}'s resolution was not kept")
        return self.position


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
    complete: bool = True  # False when replay started from a checkpoint: ``passes`` holds the later ones only
    pending: dict[bytes, PassRecord | None] = field(default_factory=dict)  # pending_pass by public key

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


class CheckpointStore(Protocol):
    """Where replay may start from a position it reached before (rsr/cache.py keeps them in the rsr home)."""

    def newest(self, packets: list[Packet], ruleset: Ruleset) -> PassRecord | None: ...


def replay(packets: list[Packet], checkpoints: CheckpointStore | None = None, keep_positions: bool = True) -> Replay:
    """Check and replay a whole log. Raises VerificationError (or RulesError) at the first fault.

    Every packet's chain, turn and signature is always checked. With ``checkpoints``, the rules are
    replayed only after the newest checkpoint whose position still hashes to what its packet's resolution
    recorded (a stale or corrupted checkpoint is ignored); ``rsr verify`` never passes any. Without
    ``keep_positions`` only the last pass keeps its position (verify: memory flat in log length).
    """
    if not packets:
        raise VerificationError("the log is empty")
    ruleset, scenario, keys, opponent = _check_invite(packets[0])
    creator = packets[0].side
    names = dict(packets[0].payload["invite"]["names"])
    start = checkpoints.newest(packets, ruleset) if checkpoints is not None else None
    if start is None:
        position = initial_position(ruleset, scenario, packets[0].payload["invite"]["options"])
        result = Replay(packets[:0], ruleset, scenario, keys, names, creator, opponent, position)
        result.start_waiting = ruleset.next_request(position.state)
        resume = -1
    else:
        result = Replay(packets[:0], ruleset, scenario, keys, names, creator, opponent,
                        copy.deepcopy(start.after), passes=[start], complete=False)
        resume = start.resolver
    for packet in packets:
        _step(result, packet, resume, keep_positions)
    return result


def extend(result: Replay, new: list[Packet]) -> Replay:
    """``result`` with ``new`` packets appended and checked, without replaying what came before."""
    longer = dataclasses.replace(result, packets=list(result.packets), passes=list(result.passes),
                                 keys=dict(result.keys), names=dict(result.names),
                                 position=copy.deepcopy(result.position), pending={})
    for packet in new:
        _step(longer, packet, -1)
    return longer


def _step(result: Replay, packet: Packet, resume: int, keep_positions: bool = True) -> None:
    """Check one more packet and apply it: resolve its predecessor, then queue its inputs."""
    index = len(result.packets)
    result.packets.append(packet)
    _check_chain(result, index, packet, result.packets[0].game)
    if index == 1:
        _check_accept(result, packet)
    if not signature_ok(result.keys[packet.side], packet.signature, packet.payload_bytes):
        raise VerificationError(f"signature does not verify against {packet.side}'s key", packet.seq)
    if index >= 2 and index > resume:
        record = _resolve(result, result.packets[index - 1], packet, result.packets[index - 2])
        if result.passes and not keep_positions:
            result.passes[-1].position = None
        result.passes.append(record)
        assert record.position is not None  # (a fresh pass always has its position)
        result.position = record.position
    if index >= resume:
        enqueue(result.position, packet.seq, packet.side, packet.inputs)


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
    check_leftovers(ruleset, after, resolved)
    return PassRecord(resolved, resolver, resolver_side, key, list(dice.rolls), outcome.events,
                      after.digest(ruleset), outcome.waiting, after)


def check_leftovers(ruleset: Ruleset, after: Position, resolved: int) -> None:
    """What the pass resolving packet ``resolved`` left of its inputs: only standing policies, and valid ones.

    A policy waits in the queue until its side is next asked (that is what it is for), so it is checked now
    rather than when it is installed. Any other input an honest rsr signs is applied in this very pass: its
    dry run takes inputs only up to the first die and refuses any the game has not reached. One left over
    could only break a later pass, with the blame on the wrong packet.
    """
    for _, queue in sorted(after.queues.items()):
        for item in queue:
            if item.seq != resolved:
                continue
            if "policy" not in item.input:
                raise VerificationError(f"input {item.index + 1} was never used: the game went on without it "
                                        "(rsr signs only inputs the game has reached)", resolved)
            try:
                ruleset.check_policy(item.input["policy"], item.input["rule"])
            except (RulesError, BadInput) as exc:
                raise VerificationError(f"{item.where}: {exc}", resolved) from exc


def check_last_inputs(result: Replay) -> None:
    """The last packet's inputs as far as they go before the first die: they must not break the rules.

    Nobody but the next author knows the dice of the last packet, so ``replay`` cannot resolve it; but
    whatever the resolution applies before its first die is the same for every roll, and an input that
    breaks the rules there breaks them for good: the log could never be continued. Anyone can see that
    (``rsr verify``, a third party's ``rsr receive``). What lies after the first die is judged by the
    resolver's own rsr when it receives the packet.
    """
    if len(result.packets) < 2:
        return
    try:
        resolve_pass(result.ruleset, result.position, NoDice())
    except NeedDice:
        return
    except RulesError as exc:
        raise VerificationError(f"an input breaks the rules (before any die): {exc}", result.last.seq) from exc
    except VerificationError as exc:
        raise VerificationError(f"{exc.reason} (before any die)", result.last.seq) from exc


# -- the author's side: resolving the opponent's packet and writing the next one -------------------------------


def my_side(result: Replay, key: KeyPair) -> str:
    for side, pub in sorted(result.keys.items()):
        if pub == key.public_raw:
            return side
    raise BadInput(f"key {key.name} ({key.fingerprint}) is not a key of this game")


def own_nonce(result: Replay, side: str) -> bytes:
    """The fresh randomness ``side`` put into its own invite or acceptance (docs/protocol.md)."""
    packet = result.packets[0] if side == result.creator else result.packets[1]
    text = packet.payload.get("nonce")
    if text is None:
        raise BadInput(f"packet {packet.seq} of this game carries no nonce (made by an older rsr): its author's "
                       "dice could be predicted; start a new game")
    return bytes.fromhex(text)


def secret_for(result: Replay, key: KeyPair, seq: int) -> bytes:
    """The secret ``key``'s side commits to in its packet ``seq`` of this game."""
    side = my_side(result, key)
    return derive_secret(key.seed, bytes.fromhex(result.game_id), own_nonce(result, side), seq)


def pending_pass(result: Replay, key: KeyPair) -> PassRecord | None:
    """The pass this side's next packet will record: the opponent's last packet met with my reveal."""
    side = my_side(result, key)
    if result.next_author() != side or len(result.packets) < 2:
        return None
    if key.public_raw in result.pending:
        return result.pending[key.public_raw]
    last = result.last
    secret = secret_for(result, key, last.seq - 1)
    if commitment(secret) != result.packets[last.seq - 1].payload["commit"]:
        raise BadInput(f"key {key.name} does not reproduce the commitment of packet {last.seq - 1}")
    record = run_pass(result.ruleset, result.position, dice_key(secret, bytes.fromhex(result.game_id), last.hash),
                      last.seq, last.seq + 1, side)
    result.pending[key.public_raw] = record
    return record


def position_for_author(result: Replay, key: KeyPair) -> tuple[Position, Request | None, PassRecord | None]:
    """The position an author writes against, what the game asks, and the pass its packet will carry."""
    record = pending_pass(result, key)
    if record is not None and record.position is not None:
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


def _stamp(payload: dict[str, Any], time: str | None, message: str | None) -> None:
    """The optional signed time and free-text message of a packet (docs/protocol.md, "Payload")."""
    if time is not None:
        payload["time"] = time
    if message:
        payload["message"] = message


def build_packet(result: Replay, key: KeyPair, inputs: list[dict[str, Any]], time: str | None = None,
                 message: str | None = None) -> Packet:
    """Sign the next packet: reveal, resolution of the opponent's packet, my inputs, my next commit."""
    side = my_side(result, key)
    seq = len(result.packets)
    check_orders(result, key, inputs)
    payload: dict[str, Any] = {
        "v": 1, "game": result.game_id, "seq": seq, "side": side, "prev": result.last.hash_hex,
        "commit": commitment(secret_for(result, key, seq)), "inputs": inputs,
    }
    if seq >= 2:
        record = pending_pass(result, key)
        assert record is not None
        payload["reveal"] = secret_for(result, key, seq - 2).hex()
        payload["resolution"] = {"state": record.state_hash, "dice": [r.to_json() for r in record.rolls]}
    _stamp(payload, time, message)
    return sign_payload(payload, key)


def invite_packet(ruleset: Ruleset, scenario: Scenario, key: KeyPair, side: str, name: str, game_id: bytes,
                  opponent_key: bytes | None = None, options: dict[str, Any] | None = None, *,
                  nonce: bytes, deadline_hours: int | None = None, time: str | None = None) -> Packet:
    other_side(ruleset, side)
    keys = {side: _b64(key.public_raw)}
    if opponent_key is not None:
        keys[other_side(ruleset, side)] = _b64(opponent_key)
    invite: dict[str, Any] = {
        "ruleset": ruleset.id, "ruleset_version": ruleset.version, "scenario": scenario.name,
        "scenario_sha256": scenario.sha256, "options": options or {}, "keys": keys, "names": {side: name}}
    if deadline_hours is not None:
        invite["deadline_hours"] = deadline_hours
    payload = {
        "v": 1, "game": game_id.hex(), "seq": 0, "side": side, "prev": None, "nonce": nonce.hex(),
        "commit": commitment(derive_secret(key.seed, game_id, nonce, 0)), "inputs": [], "invite": invite,
    }
    _stamp(payload, time, None)
    return sign_payload(payload, key)


def accept_packet(invite: Packet, key: KeyPair, name: str, inputs: list[dict[str, Any]] | None = None, *,
                  nonce: bytes, time: str | None = None, message: str | None = None) -> Packet:
    ruleset = get_ruleset(invite.payload["invite"]["ruleset"])
    side = other_side(ruleset, invite.side)
    payload = {
        "v": 1, "game": invite.game, "seq": 1, "side": side, "prev": invite.hash_hex, "nonce": nonce.hex(),
        "commit": commitment(derive_secret(key.seed, bytes.fromhex(invite.game), nonce, 1)),
        "inputs": inputs or [], "accept": {"keys": {side: _b64(key.public_raw)}, "name": name},
    }
    _stamp(payload, time, message)
    return sign_payload(payload, key)


def _b64(raw: bytes) -> str:
    import base64

    return base64.b64encode(raw).decode()


# -- the directory ----------------------------------------------------------------------------------------


def game_dir_name(game_id: str) -> str:
    return f"game-{game_id[:8]}"


def read_text_file(path: Path) -> str:
    """A packet file's text: a regular file of bounded size (a FIFO or a device is refused)."""
    data = read_limited(path, MAX_PACKET_FILE, "packet file")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def _open_early(path: Path, text: str, seq: int) -> Packet:
    """Packet 0 or 1, which carries the key that checks it."""
    try:
        packet = read_packets(text, None)[0]
    except BadInput as exc:
        raise VerificationError(f"{path.name}: {exc}", seq) from exc
    section = "invite" if seq == 0 else "accept"
    if section not in packet.payload:
        raise VerificationError(f"{path.name} should hold the {section}, but holds packet {packet.seq} "
                                f"({packet.side})", seq)
    return packet


def load_log(game_dir: Path) -> list[Packet]:
    """Read every packet file, check signatures and file names, and detect equivocation.

    Read-only: a fork (two packets at one seq) is reported with both file names; ``rsr receive`` is what
    writes proofs to disputes/.
    """
    turns = game_dir / "turns"
    if not turns.is_dir():
        raise BadInput(f"{game_dir} is not a game directory (no turns/)")
    files = sorted(p for p in turns.iterdir() if p.suffix == ".rsr")
    if not files:
        raise VerificationError(f"{turns} holds no packets")
    by_seq: dict[int, list[tuple[Path, Packet]]] = {}
    keys: dict[str, bytes] | None = None
    for path in files:
        head = path.name.split("-")[0]
        if not (head.isascii() and head.isdigit()) or len(head) > 7:  # '①'.isdigit() is true, int('①') fails
            raise VerificationError(f"{printable(path.name)} is not named NNNN-side-tag.rsr")
        seq = int(head)
        text = read_text_file(path)
        try:
            blocks = extract_blocks(text)
        except BadInput as exc:
            raise VerificationError(f"{path.name}: {exc}", seq) from exc
        if len(blocks) != 1:
            raise VerificationError(f"{path.name} holds {len(blocks)} packets; a turn file holds one", seq)
        if seq <= 1:
            packet = _open_early(path, text, seq)
            if seq == 0:
                keys = {s: decode_public(t) for s, t in sorted(packet.payload["invite"]["keys"].items())}
            elif keys is not None:
                keys.update({s: decode_public(t) for s, t in sorted(packet.payload["accept"]["keys"].items())})
        else:
            if keys is None:
                raise VerificationError("packet 0 (the invite) is missing", 0)
            try:
                packet = open_packet(blocks[0], keys, seq)
            except BadInput as exc:
                raise VerificationError(f"{path.name}: {exc}", seq) from exc
            except VerificationError as exc:
                raise VerificationError(f"{path.name}: {exc.reason}", seq) from exc
        if packet.seq != seq:
            raise VerificationError(f"{path.name} holds packet {packet.seq}, not {seq}", seq)
        if path.name != packet.file_name():
            raise VerificationError(f"{path.name} should be named {packet.file_name()}", seq)
        by_seq.setdefault(seq, []).append((path, packet))
    for seq, found in sorted(by_seq.items()):
        if len(found) > 1:
            (first_path, first), (second_path, second) = found[0], found[1]
            who = f"both signed by {first.side} (equivocation)" if first.side == second.side else \
                f"by {first.side} and {second.side}"
            raise VerificationError(f"two different packets, {first_path.name} and {second_path.name}, {who}", seq)
    return [found[0][1] for _, found in sorted(by_seq.items())]


def write_dispute(game_dir: Path, name: str, heading: str, packets: list[Packet]) -> Path:
    """Keep rejected or conflicting packets, with why, in disputes/ (never through a link)."""
    text = heading + "\n\n" + "\n".join(p.armored() for p in packets)
    path = game_dir / "disputes" / name
    atomic_write(path, text.encode(), root=game_dir)
    return path


def equivocation(game_dir: Path, first: Packet, second: Packet) -> VerificationError:
    """Two packets at one seq by one side: write both as a proof to disputes/ and name the signer."""
    heading = (f"# Equivocation: two different packets at seq {first.seq}, both signed by {first.side}.\n"
               f"# Each verifies against {first.side}'s key; anyone can check them with rsr.")
    path = write_dispute(game_dir, f"{first.seq:04d}-{first.side}.txt", heading, [first, second])
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
    if "deadline_hours" in invite:
        summary["deadline_hours"] = invite["deadline_hours"]
    atomic_write(game_dir / "game.yaml", dump_yaml(summary).encode(), root=game_dir)


def create_game_dir(parent: Path, invite: Packet) -> Path:
    game_dir = parent / game_dir_name(invite.game)
    if game_dir.exists() or game_dir.is_symlink():
        raise BadInput(f"{game_dir} already exists")
    (game_dir / "turns").mkdir(parents=True)
    atomic_write(game_dir / ".gitignore", b".rsr.lock\n.cache/\n", root=game_dir)
    return game_dir


def write_packets(game_dir: Path, packets: list[Packet], after: Replay | None = None) -> Replay:
    """Write packets already checked against the log; the caller holds the game lock.

    ``after`` is the replay that already includes them (from :func:`extend`); without it the log is read
    and replayed again.
    """
    existing = {p.name for p in (game_dir / "turns").iterdir()}
    for packet in packets:
        name = packet.file_name()
        if name not in existing:
            atomic_write(game_dir / "turns" / name, packet.armored().encode(), root=game_dir)
    result = after if after is not None else replay(load_log(game_dir))
    if len(result.packets) <= 2 or not (game_dir / "game.yaml").exists():
        write_game_yaml(game_dir, result)
    return result


def append_packets(game_dir: Path, packets: list[Packet]) -> Replay:
    """Write packets already checked by ``replay``, under the game lock, one atomic file each."""
    with game_locked(game_dir):
        return write_packets(game_dir, packets)


def _open_incoming(log: list[Packet], keys: dict[str, bytes], block: Any) -> Packet:
    if len(log) == 1 and block.headers.get("Seq", "").startswith("1 "):
        packet = open_packet(block, None)  # the acceptance introduces its own key
        check_self_signature(packet)
        return packet
    return open_packet(block, keys)


Resolver = KeyPair | Callable[[Replay], KeyPair | None] | None


def incoming(game_dir: Path, text: str, source: str = "input", resolver: Resolver = None,
             result: Replay | None = None) -> tuple[list[Packet], list[Packet], Replay]:
    """Check packets from an email or file against the log: (new packets, already present, the replay with
    the new packets).

    The caller holds the game lock, so what is decided here is what gets written. Nothing is written
    unless the packets extend the log validly *and* apply: with ``resolver`` (this player's key, or a
    function of the extended log giving the key of the side that writes next) the pass this player's next
    packet will record is run too (without it, what anyone can check before the first die), and a packet
    whose inputs break the rules is kept in disputes/ with the reason instead of turns/. A second packet at
    an existing seq signed by the same side is equivocation and its proof goes to disputes/. ``result`` is
    the log already replayed (inside the same lock).
    """
    result = result if result is not None else replay(load_log(game_dir))
    log = result.packets
    keys = result.keys
    packets: list[Packet] = []
    for number, block in enumerate(extract_blocks(text), start=1):
        where = f"{source}, packet block {number} (header 'Seq: {printable(block.headers.get('Seq', '?'))}')"
        try:
            packet = _open_incoming(log, keys, block)
        except (BadInput, VerificationError) as exc:
            # a file that is not a well-formed packet signed by a player of this game is bad input here
            raise BadInput(f"{where}: {_packet_problem(exc, block, log)}") from exc
        if packet.game != log[0].game:
            raise BadInput(f"{where}: belongs to game {packet.game[:8]}, not to this game {log[0].game[:8]}")
        if all(p.payload_bytes != packet.payload_bytes for p in packets):
            packets.append(packet)  # the same packet twice in one email (text and HTML parts) is one packet
    new: list[Packet] = []
    known: list[Packet] = []
    for packet in sorted(packets, key=lambda p: p.seq):
        if packet.seq < len(log):
            if log[packet.seq].payload_bytes == packet.payload_bytes:
                known.append(packet)
                continue
            if log[packet.seq].side == packet.side:
                raise equivocation(game_dir, log[packet.seq], packet)
            raise VerificationError(f"{source}: seq {packet.seq} is already taken by {log[packet.seq].side}",
                                    packet.seq)
        expected = len(log) + len(new)
        if packet.seq != expected:
            raise VerificationError(f"{source}: the log has {expected} packets; packet {packet.seq} would leave "
                                    "a gap (send the missing ones first)", packet.seq)
        new.append(packet)
    after = _check_extension(game_dir, result, new, source, resolver) if new else result
    return new, known, after


def _packet_problem(exc: Exception, block: Any, log: list[Packet]) -> str:
    """Say what is wrong with a packet that does not open, as precisely as the headers allow."""
    game = block.headers.get("Game", "")
    if game and game != log[0].game and len(game) == 32:
        return f"belongs to another game ({printable(game[:8])}), not to this game {log[0].game[:8]}"
    return str(exc)


def _check_extension(game_dir: Path, result: Replay, new: list[Packet], source: str,
                     resolver: Resolver) -> Replay:
    """Extend the replay with ``new``; with a resolver key, also run the pass it will record."""
    try:
        after = extend(result, new)
        key = resolver(after) if callable(resolver) else resolver
        if key is not None and key.public_raw in after.keys.values() and \
                my_side(after, key) == after.next_author():
            pending_pass(after, key)
        else:
            check_last_inputs(after)  # a third party's copy: what anyone can check without the dice
    except (VerificationError, RulesError) as exc:
        bad = new[-1]
        path = write_dispute(
            game_dir, f"{bad.seq:04d}-{bad.side}-{bad.hash_hex[:8]}-rejected.txt",
            f"# Packet {bad.seq} by {bad.side} from {source} was rejected and not stored in turns/:\n# {exc}",
            new)
        raise VerificationError(f"{source}: rejected ({exc}); kept in {path}; the game waits for a valid "
                                f"packet {bad.seq}", bad.seq) from exc
    return after
