"""The pure rules engine: requests, inputs, events, and the resolution pass (docs/protocol.md, docs/architecture.md).

A ruleset is pure functions over plain data (see :class:`Ruleset`). The engine owns what is common to
every game: the queues of signed inputs waiting to be applied, standing policies, sealed answers, and the
walk that applies inputs with the dice of one key until it needs an answer nobody has signed yet.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from rsr.canonical import canonical_bytes
from rsr.errors import BadInput, NeedDice, RulesError, VerificationError
from rsr.fairdice import Dice, NoDice, seal


@dataclass(frozen=True)
class Request:
    """What the engine needs next from one side, with the legal options.

    ``id`` is unique within a game and stable across replays (it names the place in the sequence of
    play, e.g. ``t1/russia/combat/r2/attacks``); an input names the request it answers by this id.
    ``policy`` names the kind of standing policy that may answer it; ``sealable`` says the answer may
    be sealed (docs/protocol.md); ``unseals`` marks a request for the content of an earlier sealed answer.
    """

    id: str
    side: str
    kind: str
    prompt: str
    case: str
    options: dict[str, Any] = field(default_factory=dict)
    template: Any = None
    policy: str | None = None
    sealable: bool = False
    unseals: str | None = None


@dataclass(frozen=True)
class Sealed:
    """The answer the ruleset sees for a sealed input: answered, content hidden."""

    request: str


@dataclass
class Event:
    """A structured record of what happened; reports are rendered from events, tests assert on them."""

    kind: str
    text: str
    case: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    provisional: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "text": self.text, "data": to_jsonable(self.data)}
        if self.case:
            out["case"] = self.case
        if self.provisional:
            out["provisional"] = list(self.provisional)
        return out


class Context:
    """What a ruleset's ``apply`` works with: the dice and the event list, nothing else."""

    def __init__(self, dice: Dice) -> None:
        self.dice = dice
        self.events: list[Event] = []

    def emit(self, kind: str, text: str, case: str | None = None, provisional: list[str] | None = None,
             **data: Any) -> Event:
        event = Event(kind, text, case, data, list(provisional or []))
        self.events.append(event)
        return event

    def roll(self, sides: int, purpose: str) -> int:
        """Roll one die for ``purpose`` (which should cite the case) and record it as an event."""
        value = self.dice.roll(sides, purpose)
        rolls = getattr(self.dice, "rolls", [])
        n = rolls[-1].n if rolls else None
        self.emit("die", f"d{sides} rolled {value}: {purpose}", None, n=n, sides=sides, value=value,
                  purpose=purpose)
        return value


class Ruleset(Protocol):
    """The interface every game implements (docs/architecture.md)."""

    id: str
    version: str
    sides: tuple[str, str]
    policy_defaults: dict[str, Any]

    def initial_state(self, scenario: Any, options: dict[str, Any]) -> Any: ...

    def next_request(self, state: Any) -> Request | None: ...

    def apply(self, state: Any, request: Request, answer: Any, dice: Dice) -> tuple[Any, list[Event]]: ...

    def answer_by_policy(self, state: Any, request: Request, rule: Any) -> Any: ...

    def check_policy(self, kind: str, rule: Any) -> None: ...

    def state_json(self, state: Any) -> Any: ...

    def describe(self, state: Any) -> list[str]: ...

    def report_tables(self, events: list[Event]) -> list[tuple[str, list[str]]]: ...


REGISTRY: dict[str, Callable[[], Ruleset]] = {}


def register(ruleset_id: str) -> Callable[[Callable[[], Ruleset]], Callable[[], Ruleset]]:
    """Class decorator: make a ruleset available by id."""

    def deco(factory: Callable[[], Ruleset]) -> Callable[[], Ruleset]:
        REGISTRY[ruleset_id] = factory
        return factory

    return deco


def get_ruleset(ruleset_id: str) -> Ruleset:
    import rsr.rulesets  # noqa: F401  (registers the built-in rulesets)

    if ruleset_id not in REGISTRY:
        known = ", ".join(sorted(REGISTRY))
        raise BadInput(f"unknown ruleset {ruleset_id!r} (known: {known})")
    return REGISTRY[ruleset_id]()


def to_jsonable(value: Any) -> Any:
    """Plain JSON data from dataclasses, tuples and dicts, with dict keys as strings."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(to_jsonable(v) for v in value)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    raise TypeError(f"{type(value).__name__} is not plain state data")


@dataclass(frozen=True)
class QueuedInput:
    """A signed input waiting to be applied, with where it came from."""

    seq: int
    index: int
    input: dict[str, Any]

    @property
    def where(self) -> str:
        return f"packet {self.seq} input {self.index + 1}"


@dataclass
class Position:
    """Everything the log implies at one point: the ruleset's state plus the engine's bookkeeping."""

    state: Any
    queues: dict[str, list[QueuedInput]]
    policies: dict[str, dict[str, Any]]
    seals: dict[str, dict[str, str]] = field(default_factory=dict)

    def to_json(self, ruleset: Ruleset) -> dict[str, Any]:
        return {
            "state": ruleset.state_json(self.state),
            "policies": to_jsonable(self.policies),
            "seals": to_jsonable(self.seals),
            "queues": {side: [[q.seq, q.index] for q in items] for side, items in sorted(self.queues.items())},
        }

    def digest(self, ruleset: Ruleset) -> str:
        return hashlib.sha256(canonical_bytes(self.to_json(ruleset))).hexdigest()


def initial_position(ruleset: Ruleset, scenario: Any, options: dict[str, Any]) -> Position:
    return Position(
        state=ruleset.initial_state(scenario, options),
        queues={side: [] for side in ruleset.sides},
        policies={side: dict(ruleset.policy_defaults) for side in ruleset.sides},
    )


@dataclass
class PassResult:
    """What one resolution pass did, and why it stopped."""

    events: list[Event]
    applied: list[str]
    waiting: Request | None


def enqueue(position: Position, seq: int, side: str, inputs: list[dict[str, Any]]) -> None:
    position.queues[side].extend(QueuedInput(seq, i, item) for i, item in enumerate(inputs))


def _install_policies(ruleset: Ruleset, position: Position, side: str, events: list[Event]) -> None:
    queue = position.queues[side]
    while queue and "policy" in queue[0].input:
        item = queue.pop(0)
        kind, rule = item.input["policy"], item.input["rule"]
        try:
            ruleset.check_policy(kind, rule)
        except RulesError as exc:
            raise RulesError(f"{item.where}: {exc}") from exc
        position.policies[side][kind] = rule
        events.append(Event("policy", f"{side} sets policy {kind}: {rule}", None,
                            {"side": side, "policy": kind, "rule": rule}))


def _check_unseal(position: Position, item: QueuedInput, request: Request) -> Any:
    sealed = position.seals.get(request.unseals or "")
    if sealed is None or sealed["side"] != request.side:
        raise VerificationError(f"input {item.index + 1} unseals {request.unseals}, which {request.side} never sealed",
                                item.seq)
    try:
        salt = bytes.fromhex(item.input["salt"])
        actual = seal(salt, item.input["choice"])
    except (ValueError, BadInput) as exc:
        raise VerificationError(f"input {item.index + 1}: unseal cannot be checked: {exc}", item.seq) from exc
    if actual != sealed["seal"]:
        raise VerificationError(
            f"input {item.index + 1}: the unsealed choice for {request.unseals} does not match its seal", item.seq
        )
    del position.seals[request.unseals or ""]
    return item.input["choice"]


def _take_answer(ruleset: Ruleset, position: Position, request: Request) -> tuple[bool, Any, str]:
    """Find the answer to ``request``: the next queued input, else a standing policy, else nothing.

    A queued input that answers a different request is stale (an error) unless a policy answers this
    one first: policies stand in for round trips, so a side's later answers may already be queued.
    """
    queue = position.queues[request.side]
    if queue:
        item = queue[0]
        data = item.input
        if request.unseals is not None and data.get("unseal") == request.unseals:
            queue.pop(0)
            return True, _check_unseal(position, item, request), item.where
        if data.get("request") == request.id:
            queue.pop(0)
            if "sealed" in data:
                if not request.sealable:
                    raise RulesError(f"{item.where}: request {request.id} may not be answered sealed")
                position.seals[request.id] = {"side": request.side, "seal": data["sealed"]}
                return True, Sealed(request.id), item.where
            return True, data["answer"], item.where
    if request.policy and request.unseals is None:
        rule = position.policies[request.side].get(request.policy)
        if rule is not None and rule != "ask":
            answer = ruleset.answer_by_policy(position.state, request, rule)
            if answer is not None:
                return True, answer, f"policy {request.policy}"
    if queue:
        item = queue[0]
        asked = item.input.get("request") or item.input.get("unseal")
        raise RulesError(f"{item.where} answers {asked!r} but the game asks {request.side} for {request.id} "
                         f"({request.prompt})")
    return False, None, ""


def resolve_pass(ruleset: Ruleset, position: Position, dice: Dice) -> tuple[Position, PassResult]:
    """Apply queued inputs with one dice source until an answer is missing or the game ends.

    Pure: returns a new position. Raises RulesError or VerificationError for a bad input, and
    NeedDice if the source is the dry-run :class:`NoDice`.
    """
    position = copy.deepcopy(position)
    events: list[Event] = []
    applied: list[str] = []
    while True:
        request = ruleset.next_request(position.state)
        if request is None:
            return position, PassResult(events, applied, None)
        _install_policies(ruleset, position, request.side, events)
        found, answer, source = _take_answer(ruleset, position, request)
        if not found:
            return position, PassResult(events, applied, request)
        try:
            position.state, new_events = ruleset.apply(position.state, request, answer, dice)
        except RulesError as exc:
            raise RulesError(f"{source}: {exc}") from exc
        if source.startswith("policy"):
            events.append(Event("policy", f"{request.side} answered {request.id} by {source}", None,
                                {"request": request.id, "answer": answer}))
        events.extend(new_events)
        applied.append(source)


@dataclass
class DryRun:
    """What an author's own tool can see before signing: how far its inputs go without dice."""

    accepted: int
    position: Position
    events: list[Event]
    next_request: Request | None
    stopped_at_die: str | None


def dry_run(ruleset: Ruleset, position: Position, side: str, seq: int, inputs: list[dict[str, Any]]) -> DryRun:
    """Run ``inputs`` without dice (docs/protocol.md): stop at the first die; reject what lies beyond it.

    Raises BadInput naming the first input that is illegal or that comes after a die roll.
    """
    trial = copy.deepcopy(position)
    enqueue(trial, seq, side, inputs)
    try:
        after, result = resolve_pass(ruleset, trial, NoDice())
    except NeedDice as need:
        accepted = _accepted_before_die(ruleset, position, side, seq, inputs)
        if accepted < len(inputs):
            raise BadInput(
                f"input {accepted + 1} comes after a die roll ({need.purpose}); send it once the dice are known"
            ) from None
        return DryRun(len(inputs), trial, [], None, need.purpose)
    except (RulesError, VerificationError) as exc:
        raise BadInput(str(exc)) from exc
    remaining = [q for q in after.queues[side] if q.seq == seq]
    if remaining:
        waiting = result.waiting
        asked = f"{waiting.side} for {waiting.id}" if waiting else "nothing (the game is over)"
        raise BadInput(f"input {remaining[0].index + 1} is not needed yet: the game now asks {asked}")
    return DryRun(len(inputs), after, result.events, result.waiting, None)


def _accepted_before_die(ruleset: Ruleset, position: Position, side: str, seq: int,
                         inputs: list[dict[str, Any]]) -> int:
    """How many leading inputs a dry run can take in before (and including) the one that rolls."""
    for count in range(1, len(inputs) + 1):
        trial = copy.deepcopy(position)
        enqueue(trial, seq, side, inputs[:count])
        try:
            resolve_pass(ruleset, trial, NoDice())
        except NeedDice:
            return count
        except (RulesError, VerificationError) as exc:
            raise BadInput(str(exc)) from exc
    return len(inputs)
