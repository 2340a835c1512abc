"""The pure rules engine: requests, inputs, events, and the resolution pass (docs/protocol.md, docs/architecture.md).

A ruleset is pure functions over plain data (see :class:`Ruleset`). The engine owns what is common to
every game: the queues of signed inputs waiting to be applied, standing policies, sealed answers, and the
walk that applies inputs with the dice of one key until it needs an answer nobody has signed yet.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, cast, overload

from rsr.canonical import STATE_ENCODER, state_bytes
from rsr.errors import BadInput, NeedDice, RulesError, VerificationError
from rsr.fairdice import Dice, NoDice, seal
from rsr.words import plain_value

T = TypeVar("T")


class Lazy(Generic[T]):
    """A dataclass field whose value may be given as a function of no arguments, called on first use.

    Replay asks ``next_request`` at every step but reads a request's legal options and template only when
    a policy, a bot or a person needs them, so a ruleset may pass ``options=lambda: {...}`` and the work
    is done only then (once: the value is kept). Reading the field always gives the value itself.
    """

    def __init__(self, empty: Callable[[], T] | None = None) -> None:
        self.empty = empty

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = "_lazy_" + name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> None: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> T: ...

    def __get__(self, instance: object | None, owner: type | None = None) -> T | None:
        if instance is None:
            return None  # the dataclass default
        value = instance.__dict__[self.slot]
        if callable(value):
            value = value()
            instance.__dict__[self.slot] = value
        return cast(T, value)

    def __set__(self, instance: object, value: T | Callable[[], T] | None) -> None:
        instance.__dict__[self.slot] = self.empty() if value is None and self.empty is not None else value


@dataclass(frozen=True)
class Request:
    """What the engine needs next from one side, with the legal options.

    ``id`` is unique within a game and stable across replays (it names the place in the sequence of
    play, e.g. ``t1/russia/combat/r2/attacks``); an input names the request it answers by this id.
    ``policy`` names the kind of standing policy that may answer it; ``sealable`` says the answer may
    be sealed (docs/protocol.md); ``unseals`` marks a request for the content of an earlier sealed answer.
    ``options`` and ``template`` may be given as functions of no arguments (see :class:`Lazy`).
    """

    id: str
    side: str
    kind: str
    prompt: str
    case: str
    options: Lazy[dict[str, Any]] = Lazy(dict)
    template: Lazy[Any] = Lazy()
    policy: str | None = None
    sealable: bool = False
    unseals: str | None = None

    def __getstate__(self) -> dict[str, Any]:
        """Copies and pickles (rsr/cache.py keeps the request a pass ended on) carry values, not functions."""
        state = dict(self.__dict__)
        for slot in ("_lazy_options", "_lazy_template"):
            if callable(state.get(slot)):
                state[slot] = state[slot]()
        return state


def forget_unread(request: Request | None, why: str) -> None:
    """Drop what ``request``'s options and template would still compute, if nobody read them yet.

    Their functions close over the whole state of the pass that asked (a verify of 2,000 packets kept 2,000
    states alive through them). Once that pass's position is no longer kept, reading them says so,
    as ``PassRecord.after`` does; the request's id, side, prompt and case stay.
    """
    if request is None:
        return

    def gone() -> Any:
        raise BadInput(why)

    for slot in ("_lazy_options", "_lazy_template"):
        if callable(request.__dict__.get(slot)):
            request.__dict__[slot] = gone


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

    def apply(self, state: Any, request: Request, answer: Any, dice: Dice,
              owned: bool = False) -> tuple[Any, list[Event]]:
        """The state after ``answer``; with ``owned`` the caller gives up ``state`` (it may be changed)."""
        ...

    def answer_by_policy(self, state: Any, request: Request, rule: Any) -> Any: ...

    def check_policy(self, kind: str, rule: Any) -> None: ...

    def state_json(self, state: Any) -> Any: ...

    def describe(self, state: Any) -> list[str]: ...

    def report_tables(self, events: list[Event]) -> list[tuple[str, list[str]]]: ...

    def state_fields(self, state: Any) -> dict[str, Any] | None:
        """The state's fields the digest covers, by name (None: it covers ``state_json``)."""
        ...

    def check_policy_in(self, state: Any, side: str, kind: str, rule: Any) -> None:
        """Check a standing policy against the position it is set in."""
        ...


_PLAIN = (str, int, bool, type(None))
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}  # a dataclass's field names, by class


def to_jsonable(value: Any) -> Any:
    """Plain JSON data from dataclasses, tuples and dicts, with dict keys as strings."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is dict:
        return {k if type(k) is str else str(k): v if type(v) in _PLAIN else to_jsonable(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [v if type(v) in _PLAIN else to_jsonable(v) for v in value]
    names = _FIELD_NAMES.get(kind)
    if names is None and dataclasses.is_dataclass(value) and not isinstance(value, type):
        names = _FIELD_NAMES[kind] = tuple(f.name for f in dataclasses.fields(value))
    if names is not None:
        return {name: v if type(v := getattr(value, name)) in _PLAIN else to_jsonable(v) for name in names}
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(to_jsonable(v) for v in value)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    raise TypeError(f"{type(value).__name__} is not plain state data")


# -- copying a position ------------------------------------------------------------------------------------

_ATOMIC = frozenset({str, int, bool, type(None), float, bytes})
_NIL = object()
_PLAIN_CLASSES: dict[type, bool] = {}


def _plain_class(kind: type) -> bool:
    """Whether ``copy.deepcopy`` copies instances of ``kind`` the generic way: a dataclass with a ``__dict__``
    and none of the hooks that change it (``__deepcopy__``, its own reduce, ``__setstate__``, slots, a
    ``copyreg`` entry). Such an instance is copied as a new object whose ``__dict__`` holds copies."""
    plain = _PLAIN_CLASSES.get(kind)
    if plain is None:
        import copyreg

        plain = (dataclasses.is_dataclass(kind) and not issubclass(kind, (dict, list, tuple, set, frozenset))
                 and not hasattr(kind, "__deepcopy__")
                 and not hasattr(kind, "__setstate__") and kind not in copyreg.dispatch_table
                 and kind.__reduce_ex__ is object.__reduce_ex__ and kind.__reduce__ is object.__reduce__
                 and getattr(kind, "__getstate__", object.__getstate__) is object.__getstate__
                 and kind.__new__ is object.__new__
                 and not any("__slots__" in vars(base) for base in kind.__mro__))
        _PLAIN_CLASSES[kind] = plain
    return plain


def deep_copy(value: T, memo: dict[int, Any] | None = None) -> T:
    """``copy.deepcopy(value, memo)``, faster for plain state data, with the same result.

    Dicts, lists, tuples and dataclasses without copy hooks are copied here with the same memo (so two
    references to one object still point to one copy); anything else (a class with its own
    ``__deepcopy__``, such as the fixed data every copy shares) goes to ``copy.deepcopy`` with that memo.
    """
    return cast(T, _deep_copy(value, {} if memo is None else memo))


def _deep_copy(x: Any, memo: dict[int, Any]) -> Any:
    kind = type(x)
    if kind in _ATOMIC:
        return x
    found = memo.get(id(x), _NIL)
    if found is not _NIL:
        return found
    if kind is dict:
        y: Any = {}
        memo[id(x)] = y
        for k, v in x.items():
            y[k if type(k) in _ATOMIC else _deep_copy(k, memo)] = v if type(v) in _ATOMIC else _deep_copy(v, memo)
        return y
    if kind is list:
        y = []
        memo[id(x)] = y
        y.extend([v if type(v) in _ATOMIC else _deep_copy(v, memo) for v in x])
        return y
    if kind is tuple:
        items = [v if type(v) in _ATOMIC else _deep_copy(v, memo) for v in x]
        if id(x) in memo:  # (as copy.deepcopy: a tuple reached again through its own items)
            return memo[id(x)]
        if all(a is b for a, b in zip(items, x, strict=True)):
            return x
        y = memo[id(x)] = tuple(items)
        return y
    if _plain_class(kind):
        y = object.__new__(kind)
        memo[id(x)] = y
        state = x.__dict__
        if state:
            y.__dict__.update({k: v if type(v) in _ATOMIC else _deep_copy(v, memo) for k, v in state.items()})
        return y
    return copy.deepcopy(x, memo)


# -- the digest's text, written in parts (Position.digest_bytes) ------------------------------------------

_STATE_TEXT = STATE_ENCODER.encode
_KEY_TEXT: dict[str, str] = {}
_RECORD_TEXT: dict[Any, str] = {}  # (class, field values, their types) -> the record's JSON text
_RECORD_GETTERS: dict[type, Any] = {}  # a flat record class -> the getter of its fields' values (or None)
_MEMO_LIMIT = 200_000


def _key_text(key: str) -> str:
    text = _KEY_TEXT.get(key)
    if text is None:
        if len(_KEY_TEXT) > _MEMO_LIMIT:
            _KEY_TEXT.clear()
        text = _KEY_TEXT[key] = _STATE_TEXT(key)
    return text


def _record_getter(kind: type) -> Any:
    """For a dataclass of two or more fields, the getter of its field values in field order; else None."""
    if kind in _RECORD_GETTERS:
        return _RECORD_GETTERS[kind]
    getter = None
    if dataclasses.is_dataclass(kind):
        names = tuple(f.name for f in dataclasses.fields(kind))
        if len(names) >= 2:
            getter = (operator.attrgetter(*names), names)
    _RECORD_GETTERS[kind] = getter
    return getter


def _records_text(value: Any) -> str | None:
    """``STATE_ENCODER.encode(to_jsonable(value))`` for a dict of flat records (dataclasses of plain values, one
    class, string keys), from the memo of each record's text; None for anything else."""
    if type(value) is not dict or not value:
        return None
    kind = type(next(iter(value.values())))
    found = _record_getter(kind)
    if found is None:
        return None
    getter, names = found
    memo = _RECORD_TEXT
    parts = []
    for key in sorted(value):
        record = value[key]
        if type(key) is not str or type(record) is not kind:
            return None
        values = getter(record)
        memo_key = (kind, values, tuple(map(type, values)))
        text = memo.get(memo_key)
        if text is None:
            if not all(type(v) in _PLAIN for v in values):
                return None
            if len(memo) > _MEMO_LIMIT:
                memo.clear()
            text = memo[memo_key] = _STATE_TEXT(dict(zip(names, values, strict=True)))
        parts.append(_key_text(key) + ":" + text)
    return "{" + ",".join(parts) + "}"


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
    # contract version 2 (docs/protocol.md, "What you sign counts"): requests whose answer the dice made
    # illegal, with why; asked again and never answered by a policy until answered. Contract 1 games
    # (``contract`` 1) refuse such a packet as they always did.
    void: dict[str, str] = field(default_factory=dict)
    contract: int = 1
    resigned: str | None = None  # the side that signed {resign: true} (docs/protocol.md, "Resigning")

    def to_json(self, ruleset: Ruleset) -> dict[str, Any]:
        out = {
            "state": ruleset.state_json(self.state),
            "policies": to_jsonable(self.policies),
            "seals": to_jsonable(self.seals),
            "queues": {side: [[q.seq, q.index] for q in items] for side, items in sorted(self.queues.items())},
        }
        if self.void:  # (absent when empty: the digests of every position without a void answer are unchanged)
            out["void"] = dict(self.void)
        if self.resigned is not None:  # (only then: every digest of a game without a resignation is unchanged)
            out["resigned"] = self.resigned
        return out

    def digest(self, ruleset: Ruleset) -> str:
        """SHA-256 of the position's canonical JSON (:func:`rsr.canonical.state_bytes`)."""
        return hashlib.sha256(self.digest_bytes(ruleset)).hexdigest()

    def digest_bytes(self, ruleset: Ruleset) -> bytes:
        """The bytes the digest covers: ``state_bytes(self.to_json(ruleset))``, written faster.

        Sorted-key JSON of a dict is ``{`` + the sorted ``"key":value`` pairs joined by commas + ``}``, so
        the text is assembled from parts: a ruleset that names the state fields its digest covers
        (``state_fields``) has each dict of flat records (the units: dataclasses of plain values) written
        from a memo of each record's text, keyed by the record's values and their types; everything else
        goes through the same encoder as before. A test compares the bytes with ``state_bytes``.
        """
        fields = ruleset.state_fields(self.state) if self.resigned is None else None
        if fields is None:
            return state_bytes(self.to_json(ruleset))
        try:
            records: dict[str, str] = {}
            state = {}
            for name, value in fields.items():
                text = _records_text(value)
                if text is None:
                    state[name] = to_jsonable(value)
                else:
                    mark = state[name] = f"\x00rsr-records-{len(records)}\x00"
                    records[_STATE_TEXT(mark)] = text
            plain: dict[str, Any] = {
                "policies": to_jsonable(self.policies),
                "queues": {side: [[q.seq, q.index] for q in items] for side, items in self.queues.items()},
                "seals": to_jsonable(self.seals),
                "state": state,
            }
            if self.void:
                plain["void"] = dict(self.void)
            whole = _STATE_TEXT(plain)
            for mark, text in records.items():
                if whole.count(mark) != 1:  # (a state string that holds the mark: write it the plain way)
                    return state_bytes(self.to_json(ruleset))
                whole = whole.replace(mark, text)
            return whole.encode("utf-8")
        except (TypeError, ValueError, UnicodeEncodeError):
            return state_bytes(self.to_json(ruleset))  # (raises the error the plain path gives)


def initial_position(ruleset: Ruleset, scenario: Any, options: dict[str, Any], contract: int = 1) -> Position:
    return Position(
        state=ruleset.initial_state(scenario, options),
        queues={side: [] for side in ruleset.sides},
        policies={side: dict(ruleset.policy_defaults) for side in ruleset.sides},
        contract=contract,
    )


@dataclass
class PassResult:
    """What one resolution pass did, and why it stopped."""

    events: list[Event]
    applied: list[str]
    waiting: Request | None


def enqueue(position: Position, seq: int, side: str, inputs: list[dict[str, Any]]) -> None:
    """Queue a packet's inputs; a resignation (``{resign: true}``, alone in its packet) is not queued: it ends
    the game at once, with nothing left to resolve (docs/protocol.md, "Resigning")."""
    if any(is_resignation(item) for item in inputs):
        position.resigned = side
        return
    position.queues[side].extend(QueuedInput(seq, i, item) for i, item in enumerate(inputs))


def is_resignation(item: Any) -> bool:
    """The input ``{resign: true}``."""
    return isinstance(item, dict) and item.get("resign") is True


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
        events.append(Event("policy", f"{side} sets policy {kind}: {plain_value(rule)}", None,
                            {"side": side, "policy": kind, "rule": rule}))


def _check_unseal(position: Position, item: QueuedInput, request: Request) -> Any:
    sealed = position.seals.get(request.unseals or "")
    if sealed is None or sealed["side"] != request.side:
        raise VerificationError(f"input {item.index + 1} unseals {request.unseals}, which {request.side} never sealed",
                                item.seq)
    try:
        salt = bytes.fromhex(item.input["salt"])
        actual = seal(salt, item.input["choice"], position.contract)
    except (ValueError, BadInput) as exc:
        raise VerificationError(f"input {item.index + 1}: unseal cannot be checked: {exc}", item.seq) from exc
    if actual != sealed["seal"]:
        raise VerificationError(
            f"input {item.index + 1}: the unsealed choice for {request.unseals} does not match its seal", item.seq
        )
    del position.seals[request.unseals or ""]
    return item.input["choice"]


class AnswerError(RulesError):
    """An answer (a standing policy's, a default's, or an input whose own dice made it impossible) that the
    rules cannot apply after the dice began to roll: contract version 2 records it as void."""


class InputRefused(RulesError):
    """A signed input refused for a reason that does not depend on the packet's dice (contract version 2)."""


class _Void(Exception):
    """Raised inside one try of a pass: answer number ``step`` of the pass is void, for ``reason``."""

    def __init__(self, step: int, reason: str) -> None:
        super().__init__(reason)
        self.step = step
        self.reason = reason


_ANSWER_ERRORS = (RulesError, BadInput, TypeError, KeyError, ValueError, AttributeError, IndexError, RecursionError)


def _take_answer(ruleset: Ruleset, position: Position, request: Request) -> tuple[bool, Any, str]:
    """Find the answer to ``request``: the next queued input, else a standing policy, else nothing.

    A queued input that answers a different request is stale (an error) unless a policy answers this
    one first: policies stand in for round trips, so a side's later answers may already be queued.
    Under contract version 2 a request whose answer was void is never answered by a policy again, and a
    policy that cannot form its answer raises :class:`AnswerError` (made void by the pass).
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
    if request.policy and request.unseals is None and request.id not in position.void:
        rule = position.policies[request.side].get(request.policy)
        if rule is not None and rule != "ask":
            if position.contract >= 2:
                try:
                    answer = ruleset.answer_by_policy(position.state, request, rule)
                except _ANSWER_ERRORS as exc:
                    raise AnswerError(f"policy {request.policy} gives no answer ({type(exc).__name__}: "
                                      f"{str(exc)[:200]})") from exc
            else:
                answer = ruleset.answer_by_policy(position.state, request, rule)
            if answer is not None:
                return True, answer, f"policy {request.policy}"
    if queue:
        item = queue[0]
        asked = item.input.get("request") or item.input.get("unseal")
        raise RulesError(f"{item.where} answers {asked!r} but the game asks {request.side} for {request.id} "
                         f"({request.prompt})")
    return False, None, ""


def _dice_mark(dice: Dice) -> tuple[int, Any]:
    rolls = getattr(dice, "rolls", None)
    return (len(rolls) if isinstance(rolls, list) else 0), getattr(dice, "_next", None)


def _dice_reset(dice: Dice, mark: tuple[int, Any]) -> None:
    """Put a dice source back where :func:`_dice_mark` found it (the try of a pass that met a void answer)."""
    rolls = getattr(dice, "rolls", None)
    if isinstance(rolls, list) and len(rolls) > mark[0]:
        del rolls[mark[0]:]
    if mark[1] is not None:
        dice._next = mark[1]  # type: ignore[attr-defined]


def _rolled(dice: Dice) -> int:
    rolls = getattr(dice, "rolls", None)
    return len(rolls) if isinstance(rolls, list) else 0


def resolve_pass(ruleset: Ruleset, position: Position, dice: Dice) -> tuple[Position, PassResult]:
    """Apply queued inputs with one dice source until an answer is missing or the game ends.

    Pure: returns a new position. Raises RulesError or VerificationError for a bad input, and
    NeedDice if the source is the dry-run :class:`NoDice` (with the position it stopped at as
    ``position``). The position is copied once per try, here; the ruleset then changes that copy in place
    (``owned``), answer after answer.

    Contract version 2 (docs/protocol.md, "What you sign counts"): an input taken after the apply that
    rolled the pass's first die is refused (:class:`InputRefused`, the same whatever the dice); an answer
    that fails once a die has rolled (a policy's at any time) is void. The pass is then tried again from
    the start with the same dice, the void answer recorded instead of applied, and it stops there: the game
    asks that side again.
    """
    if position.contract < 2:
        return _pass(ruleset, position, dice, None)
    voids: dict[int, str] = {}
    mark = _dice_mark(dice)
    while True:
        try:
            return _pass(ruleset, position, dice, voids)
        except _Void as void:
            if void.step in voids:  # (cannot happen: the second try records the void before applying)
                raise RulesError(f"answer {void.step} of the pass is void twice") from void
            voids[void.step] = void.reason
            _dice_reset(dice, mark)


def _pass(ruleset: Ruleset, position: Position, dice: Dice,
          voids: dict[int, str] | None) -> tuple[Position, PassResult]:
    """One try of :func:`resolve_pass`; ``voids`` (contract 2) names the answers, by number, found void."""
    position = deep_copy(position)
    events: list[Event] = []
    applied: list[str] = []
    start = _rolled(dice)
    first_die: str | None = None  # the purpose of the pass's first die, once an answer has rolled it
    step = 0
    while True:
        request = None if position.resigned is not None else ruleset.next_request(position.state)
        if request is None:
            return position, PassResult(events, applied, None)
        _install_policies(ruleset, position, request.side, events)
        try:
            found, answer, source = _take_answer(ruleset, position, request)
        except AnswerError as exc:
            if voids is None:
                raise
            if step not in voids:
                raise _Void(step, str(exc)) from exc
            found, answer, source = True, None, f"policy {request.policy}"
        if not found:
            return position, PassResult(events, applied, request)
        if voids is not None:
            if first_die is not None and not source.startswith("policy"):
                raise InputRefused(f"{source} comes after a die roll ({first_die}): an input must be answerable "
                                   "before the packet's first die; send it once the dice are known")
            if step in voids:
                _void(position, request, source, voids[step], events)
                return position, PassResult(events, applied, request)
        before = _rolled(dice)
        try:
            position.state, new_events = ruleset.apply(position.state, request, answer, dice, owned=True)
        except NeedDice as need:
            need.position = position  # type: ignore[attr-defined]
            raise
        except (RulesError, BadInput) as exc:
            if voids is not None and (source.startswith("policy") or _rolled(dice) > start):
                _late_first(position, dice, before, first_die)
                raise _Void(step, f"{exc}") from exc
            raise RulesError(f"{source}: {exc}") from exc
        except (TypeError, KeyError, ValueError, AttributeError, IndexError, RecursionError) as exc:
            # a signed answer of the wrong shape must be rejected like any illegal answer, never crash a replay
            reason = f"the answer to {request.id} has the wrong shape ({type(exc).__name__}: {str(exc)[:200]})"
            if voids is not None and (source.startswith("policy") or _rolled(dice) > start):
                _late_first(position, dice, before, first_die)
                raise _Void(step, reason) from exc
            raise RulesError(f"{source}: {reason}") from exc
        if first_die is None and _rolled(dice) > before:
            first_die = dice.rolls[before].purpose  # type: ignore[attr-defined]
            if voids is not None:  # what the dry run, stopped at this die, finds unused: the same whatever the dice
                refuse_unused(position, None, first_die, None)
        position.void.pop(request.id, None)
        step += 1
        if source.startswith("policy"):
            events.append(Event("policy", f"{request.side} answered {request.id} by {source}", None,
                                {"request": request.id, "answer": answer}))
        events.extend(new_events)
        applied.append(source)


def _late_first(position: Position, dice: Dice, before: int, first_die: str | None) -> None:
    """Before an answer that rolled the pass's first die is found void: the inputs still queued come after that
    die and refuse the packet, exactly as if the answer had applied (the verdict may not depend on the dice)."""
    if first_die is None and _rolled(dice) > before:
        refuse_unused(position, None, dice.rolls[before].purpose, None)  # type: ignore[attr-defined]


def _void(position: Position, request: Request, source: str, reason: str, events: list[Event]) -> None:
    """Record a void answer (contract 2): an event naming it, why, and the case; the request is asked again."""
    position.void[request.id] = reason[:300]
    events.append(Event("void", f"{request.side}'s answer to {request.id} ({source}) is void after the dice: "
                                f"{reason[:300]}; {request.side} is asked again", request.case,
                        {"side": request.side, "request": request.id, "source": source, "reason": reason[:300]}))


def check_policies(ruleset: Ruleset, position: Position, seq: int) -> None:
    """Every standing policy packet ``seq`` sets is valid (no die decides that): else :class:`InputRefused`.

    A ruleset may also check a policy against the position it is set in (``check_policy_in(state, side,
    kind, rule)``): a plan whose parts are wrong already then (a typo, a unit not adjacent) is refused before
    signing rather than dropped when the dice have rolled."""
    for side, queue in sorted(position.queues.items()):
        for item in queue:
            if item.seq == seq and "policy" in item.input:
                try:
                    ruleset.check_policy(item.input["policy"], item.input["rule"])
                    ruleset.check_policy_in(position.state, side, item.input["policy"], item.input["rule"])
                except (RulesError, BadInput) as exc:
                    raise InputRefused(f"{item.where}: {exc}") from exc


def check_before_dice(ruleset: Ruleset, position: Position, seq: int) -> str | None:
    """The checks of packet ``seq``'s inputs that do not depend on its dice (contract version 2), on the
    position with them queued: every policy it sets is valid, and every other input is used, legally, before
    the pass's first die. Raises :class:`InputRefused`; returns the purpose of the first die (None when the
    inputs reach no die). The signer's dry run and every receiver run this same check.
    """
    check_policies(ruleset, position, seq)
    stopped: str | None = None
    try:
        after, result = resolve_pass(ruleset, position, NoDice())
    except NeedDice as need:
        after, stopped, waiting = getattr(need, "position", position), need.purpose, None
        _check_plans_at_the_die(ruleset, position, after, seq)
    except InputRefused:
        raise
    except (RulesError, VerificationError) as exc:
        raise InputRefused(str(getattr(exc, "reason", exc))) from exc
    else:
        waiting = result.waiting
    refuse_unused(after, seq, stopped, waiting)
    return stopped


def _check_plans_at_the_die(ruleset: Ruleset, before: Position, after: Position, seq: int) -> None:
    """A plan set by packet ``seq`` checked again where its first die stops the pass: what the packet's own
    answers did before that die (support points a fire mission spent, say) is known without dice, so a plan
    it already makes impossible is refused now rather than void later."""
    if after is before:
        return
    for side, queue in sorted(before.queues.items()):
        for item in queue:
            if item.seq != seq or "policy" not in item.input:
                continue
            kind, rule = item.input["policy"], item.input["rule"]
            if after.policies.get(side, {}).get(kind) != rule:
                continue
            try:
                ruleset.check_policy_in(after.state, side, kind, rule)
            except (RulesError, BadInput) as exc:
                raise InputRefused(f"{item.where}: {exc}") from exc


def refuse_unused(after: Position, seq: int | None, stopped: str | None, waiting: Request | None) -> None:
    """Refuse the first input (of packet ``seq``, or of any packet) other than a policy that a pass left unused:
    after the die ``stopped`` when there is one, else at the request ``waiting``. Contract version 2."""
    for _, queue in sorted(after.queues.items()):
        for item in queue:
            if (seq is not None and item.seq != seq) or "policy" in item.input:
                continue
            if stopped is not None:
                raise InputRefused(f"{item.where} comes after a die roll ({stopped}): an input must be answerable "
                                   "before the packet's first die; send it once the dice are known")
            asked = f"{waiting.side} for {waiting.id}" if waiting else "nothing (the game is over)"
            raise InputRefused(f"{item.where} is not needed yet: the game now asks {asked}")


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
