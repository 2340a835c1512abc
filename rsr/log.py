"""The log replayed (docs/protocol.md): packets in, positions out; no file is read or written here.

``replay`` is the one place that walks a log: it checks every packet (chain, alternation, reveals),
resolves each packet's inputs with the dice of its key, and compares what it gets with the resolution
the next packet recorded. ``extend`` checks and applies more packets on top of a replay. The author's
side (``pending_pass``, ``build_packet``) computes the pass its next packet will record and signs it.
The game directory's files are rsr/gamedir.py's; data flows one way: files -> packets -> this module ->
positions -> reports.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from rsr.engine import (
    Event,
    InputRefused,
    Position,
    Request,
    Ruleset,
    check_before_dice,
    check_policies,
    dry_run,
    enqueue,
    forget_unread,
    initial_position,
    is_resignation,
    refuse_unused,
    resolve_pass,
)
from rsr.errors import BadInput, NeedDice, RulesError, VerificationError
from rsr.fairdice import (
    KeyedDice,
    NoDice,
    Roll,
    commitment,
    content_without_commit,
    derive_secret,
    derive_secret_v3,
    dice_key,
)
from rsr.keys import KeyPair, decode_public, fingerprint
from rsr.packet import KNOWN_VERSIONS, PROTOCOL_VERSION, Packet, forget_payload, sign_payload, signature_ok
from rsr.rulesets import get_ruleset
from rsr.scenario import Scenario, load_scenario

if TYPE_CHECKING:
    from rsr.rulesets.base import BaseRuleset


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
    ruleset: BaseRuleset  # (the engine's interface and the hooks of rsr/rulesets/base.py)
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
    contract: int = 1  # the contract version of the game's invite (docs/protocol.md, "Versions")

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


def _check_invite(packet: Packet) -> tuple[BaseRuleset, Scenario, dict[str, bytes], str]:
    if packet.seq != 0 or "invite" not in packet.payload:
        raise VerificationError("the log does not start with an invite", packet.seq)
    contract_version(packet)
    invite = packet.payload["invite"]
    ruleset = get_ruleset(invite["ruleset"])
    if packet.side not in ruleset.sides:
        raise VerificationError(f"side {packet.side!r} is not a side of {ruleset.id}", 0)
    if invite["ruleset_version"] != ruleset.version:
        raise VerificationError(
            f"the game was created with {ruleset.id} version {invite['ruleset_version']}; this rsr has "
            f"{ruleset.version}", 0)
    scenario = load_scenario(ruleset.id, invite["scenario"])
    if "data" in invite:  # a player's transcription of the printed sheets (rsr/transcription.py)
        from rsr.transcription import from_invite, scenario_with

        try:
            scenario = scenario_with(scenario, from_invite(ruleset.id, invite["data"]))
        except BadInput as exc:
            raise VerificationError(f"the invitation's transcription: {exc}", 0) from exc
    if scenario.sha256 != invite["scenario_sha256"]:
        raise VerificationError(
            f"scenario {scenario.name} data here hashes to {scenario.sha256[:16]}..., the invite pins "
            f"{invite['scenario_sha256'][:16]}... (different data or rsr version)", 0)
    keys = {side: decode_public(text) for side, text in sorted(invite["keys"].items())}
    for side in keys:
        if side not in ruleset.sides:
            raise VerificationError(f"the invite names a key for unknown side {side!r}", 0)
    return ruleset, scenario, keys, other_side(ruleset, packet.side)


def contract_version(invite: Packet) -> int:
    """The contract version a game is played under: its invite's ``v``, one this rsr knows."""
    version = invite.payload["v"]
    if version not in KNOWN_VERSIONS:
        known = " and ".join(str(v) for v in KNOWN_VERSIONS)
        raise VerificationError(f"the game uses contract version {version}, which this rsr does not know (it knows "
                                f"{known}): upgrade rsr to play it", invite.seq)
    return int(version)


def _check_contract(result: Replay, index: int, packet: Packet) -> None:
    """Every packet of a game carries its invite's version; under version 2 its time is read strictly and
    never goes backwards along the chain (docs/protocol.md, "Times")."""
    if packet.payload["v"] != result.contract:
        raise VerificationError(f"carries contract version {packet.payload['v']}, but the game is played under "
                                f"version {result.contract}", packet.seq)
    if result.contract < 2:
        return
    from rsr.times import BadTime, check_not_backwards, parse_time

    try:
        if "time" in packet.payload:
            parse_time(packet.payload["time"])
        if index > 0:
            check_not_backwards(result.packets[index - 1].payload.get("time"), packet.payload.get("time"))
    except BadTime as exc:
        raise VerificationError(str(exc), packet.seq) from exc
    for number, item in enumerate(packet.inputs, start=1):
        if "unseal" in item and len(str(item.get("salt", ""))) != 32:
            raise VerificationError(f"input {number}: an unsealing's salt is exactly 16 bytes (32 hex) under "
                                    "contract version 2", packet.seq)


class CheckpointStore(Protocol):
    """Where replay may start from a position it reached before (rsr/cache.py keeps them in the rsr home)."""

    def newest(self, packets: list[Packet], ruleset: Ruleset) -> PassRecord | None: ...


def replay(packets: list[Packet], checkpoints: CheckpointStore | None = None, keep_positions: bool = True,
           on_pass: Callable[[Replay, PassRecord], None] | None = None) -> Replay:
    """Check and replay a whole log. Raises VerificationError (or RulesError) at the first fault.

    Every packet's chain, turn and signature is always checked. With ``checkpoints``, the rules are
    replayed only after the newest checkpoint whose position still hashes to what its packet's resolution
    recorded (a stale or corrupted checkpoint is ignored); ``rsr verify`` never passes any. Without
    ``keep_positions`` only the last pass keeps its position (verify: memory flat in log length).
    ``on_pass(result, record)`` sees each new pass before it is added to ``result.passes``, while the pass
    before it still has its position (``rsr report --all``: a page a pass, memory flat).
    """
    if not packets:
        raise VerificationError("the log is empty")
    ruleset, scenario, keys, opponent = _check_invite(packets[0])
    creator = packets[0].side
    names = dict(packets[0].payload["invite"]["names"])
    contract = contract_version(packets[0])
    start = checkpoints.newest(packets, ruleset) if checkpoints is not None else None
    if start is None:
        position = initial_position(ruleset, scenario, packets[0].payload["invite"]["options"], contract)
        result = Replay(packets[:0], ruleset, scenario, keys, names, creator, opponent, position, contract=contract)
        result.start_waiting = ruleset.next_request(position.state)
        resume = -1
    else:
        result = Replay(packets[:0], ruleset, scenario, keys, names, creator, opponent,
                        copy.deepcopy(start.after), passes=[start], complete=False, contract=contract)
        resume = start.resolver
    for packet in packets:
        _step(result, packet, resume, keep_positions, on_pass)
    return result


def extend(result: Replay, new: list[Packet]) -> Replay:
    """``result`` with ``new`` packets appended and checked, without replaying what came before."""
    longer = dataclasses.replace(result, packets=list(result.packets), passes=list(result.passes),
                                 keys=dict(result.keys), names=dict(result.names),
                                 position=copy.deepcopy(result.position), pending={})
    for packet in new:
        _step(longer, packet, -1)
    return longer


def _step(result: Replay, packet: Packet, resume: int, keep_positions: bool = True,
          on_pass: Callable[[Replay, PassRecord], None] | None = None) -> None:
    """Check one more packet and apply it: resolve its predecessor, then queue its inputs."""
    index = len(result.packets)
    if result.position.resigned is not None:
        raise VerificationError(f"the game ended when {result.position.resigned} resigned; no packet may follow",
                                packet.seq)
    result.packets.append(packet)
    _check_chain(result, index, packet, result.packets[0].game)
    if index == 1:
        _check_accept(result, packet)
    if not signature_ok(result.keys[packet.side], packet.signature, packet.payload_bytes):
        raise VerificationError(f"signature does not verify against {packet.side}'s key", packet.seq)
    if index > resume:
        _check_contract(result, index, packet)
    if index >= 2 and index > resume:
        record = _resolve(result, result.packets[index - 1], packet, result.packets[index - 2])
        if on_pass is not None:
            on_pass(result, record)
        if result.passes and not keep_positions:
            result.passes[-1].position = None
            result.passes[-1].events = []  # (verify reads an old pass's dice, never its events)
            forget_unread(result.passes[-1].waiting, f"the request after packet {result.passes[-1].resolved}'s "
                          "resolution was not kept")
            forget_payload(result.packets[index - 2])  # (read from its bytes again if anything reads it)
        result.passes.append(record)
        assert record.position is not None  # (a fresh pass always has its position)
        result.position = record.position
    if index >= resume:
        inputs = packet.inputs
        if any(is_resignation(item) for item in inputs) and (index < 2 or len(inputs) != 1):
            raise VerificationError("a resignation is the only input of a packet after the acceptance", packet.seq)
        enqueue(result.position, packet.seq, packet.side, inputs)


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
    if index > 0 and packet.prev != result.packets[index - 1].hash_hex:
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
    if position.contract >= 2:
        try:  # contract 2: the policies a packet sets are checked before its first die, wherever they stand
            check_policies(ruleset, position, resolved)
        except InputRefused as exc:
            raise VerificationError(f"an input breaks the rules: {exc}", resolved) from exc
    dice = KeyedDice(key)
    try:
        after, outcome = resolve_pass(ruleset, position, dice)
    except RulesError as exc:
        raise VerificationError(f"an input breaks the rules: {exc}", resolved) from exc
    except VerificationError as exc:
        raise exc
    if position.contract >= 2:  # the dry run's words (refuse_unused), the same whatever the dice
        try:
            refuse_unused(after, resolved, None, outcome.waiting)
        except InputRefused as exc:
            raise VerificationError(f"an input breaks the rules: {exc}", resolved) from exc
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
    if result.contract >= 2:  # the same check the signer's rsr made, and every receiver's (contract 2)
        try:
            check_before_dice(result.ruleset, result.position, result.last.seq)
        except InputRefused as exc:
            raise VerificationError(f"an input breaks the rules (before any die): {exc}", result.last.seq) from exc
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


def secret_for(result: Replay, key: KeyPair, seq: int, payload: dict[str, Any] | None = None) -> bytes:
    """The secret ``key``'s side commits to in its packet ``seq`` of this game (``payload``: that packet's
    payload, when it is not in the log yet; contract 2 derives the secret from it too)."""
    side = my_side(result, key)
    if result.contract < 2:
        return derive_secret(key.seed, bytes.fromhex(result.game_id), own_nonce(result, side), seq)
    if payload is None:
        payload = result.packets[seq].payload
    return derive_secret_v3(key.seed, bytes.fromhex(result.game_id), own_nonce(result, side), seq,
                            content_without_commit(payload))


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
    run = dry_run(result.ruleset, position, side, len(result.packets), inputs)
    if result.contract >= 2:  # the very check every receiver makes (docs/protocol.md, "What you sign counts")
        trial = copy.deepcopy(position)
        enqueue(trial, len(result.packets), side, inputs)
        try:
            check_before_dice(result.ruleset, trial, len(result.packets))
        except InputRefused as exc:
            raise BadInput(str(exc)) from exc
    return run


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
        "v": result.contract, "game": result.game_id, "seq": seq, "side": side, "prev": result.last.hash_hex,
        "inputs": inputs,
    }
    if seq >= 2:
        record = pending_pass(result, key)
        assert record is not None
        payload["reveal"] = secret_for(result, key, seq - 2).hex()
        payload["resolution"] = {"state": record.state_hash, "dice": [r.to_json() for r in record.rolls]}
    _stamp(payload, time, message)
    payload["commit"] = commitment(secret_for(result, key, seq, payload))
    return sign_payload(payload, key)


def invite_packet(ruleset: Ruleset, scenario: Scenario, key: KeyPair, side: str, name: str, game_id: bytes,
                  opponent_key: bytes | None = None, options: dict[str, Any] | None = None, *,
                  nonce: bytes, deadline_hours: int | None = None, time: str | None = None,
                  version: int = PROTOCOL_VERSION, data: list[dict[str, Any]] | None = None) -> Packet:
    other_side(ruleset, side)
    keys = {side: _b64(key.public_raw)}
    if opponent_key is not None:
        keys[other_side(ruleset, side)] = _b64(opponent_key)
    invite: dict[str, Any] = {
        "ruleset": ruleset.id, "ruleset_version": ruleset.version, "scenario": scenario.name,
        "scenario_sha256": scenario.sha256, "options": options or {}, "keys": keys, "names": {side: name}}
    if deadline_hours is not None:
        invite["deadline_hours"] = deadline_hours
    if data:
        invite["data"] = data
    payload: dict[str, Any] = {
        "v": version, "game": game_id.hex(), "seq": 0, "side": side, "prev": None, "nonce": nonce.hex(),
        "inputs": [], "invite": invite,
    }
    _stamp(payload, time, None)
    payload["commit"] = _first_commit(key, game_id, nonce, 0, payload)
    return sign_payload(payload, key)


def _first_commit(key: KeyPair, game_id: bytes, nonce: bytes, seq: int, payload: dict[str, Any]) -> str:
    """The commitment of an invite or acceptance, under the contract version its payload carries."""
    if payload["v"] < 2:
        return commitment(derive_secret(key.seed, game_id, nonce, seq))
    return commitment(derive_secret_v3(key.seed, game_id, nonce, seq, content_without_commit(payload)))


def accept_packet(invite: Packet, key: KeyPair, name: str, inputs: list[dict[str, Any]] | None = None, *,
                  nonce: bytes, time: str | None = None, message: str | None = None) -> Packet:
    ruleset = get_ruleset(invite.payload["invite"]["ruleset"])
    side = other_side(ruleset, invite.side)
    payload: dict[str, Any] = {
        "v": invite.payload["v"], "game": invite.game, "seq": 1, "side": side, "prev": invite.hash_hex,
        "nonce": nonce.hex(), "inputs": inputs or [],
        "accept": {"keys": {side: _b64(key.public_raw)}, "name": name},
    }
    _stamp(payload, time, message)
    payload["commit"] = _first_commit(key, bytes.fromhex(invite.game), nonce, 1, payload)
    return sign_payload(payload, key)


def _b64(raw: bytes) -> str:
    import base64

    return base64.b64encode(raw).decode()
