"""One way to ask a player: every kind of decision is a declared :class:`Decision`; one driver asks and applies.

A ruleset that uses this module keeps the question it waits for as one value in its state (``state.ask``:
which decision, for whom, under which request id, with what context) and walks its sequence of play as
data until a rule raises a question. The :class:`DecisionDriver` then does, for every kind of decision,
what a ruleset's ``next_request``, ``apply``, ``answer_by_policy`` and ``check_policy`` do (the engine's
:class:`rsr.engine.Ruleset` interface): it builds the request from the decision, checks an answer's shape
against the decision's schema before any rule sees it, hands it to the decision's ``apply``, then lets the
sequence of play run on. Policies (standing answers, docs/protocol.md) are declared with their decision.

Errors are typed: :class:`ShapeError` for an answer of the wrong form (caught before the rules), and
:class:`RuleBroken` for a well-formed answer the rules forbid, with the case it breaks as a field. Both are
:class:`rsr.errors.RulesError`, so the engine reports them as it always has.

Adding a decision is one object (see docs/architecture.md, "Adding a decision"). Red Sun Rising's land and naval
games are built on it, as one table (red_sun_rising/ruleset.py).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from rsr.engine import Context, Event, Request, Sealed
from rsr.errors import RulesError
from rsr.fairdice import Dice


class ShapeError(RulesError):
    """An answer that is not of the decision's form (its schema); no rule has seen it."""


class RuleBroken(RulesError):
    """A well-formed answer that a rule forbids; ``case`` is the case it breaks (``RS/RS 6.1``)."""

    def __init__(self, text: str, case: str) -> None:
        self.case = case
        super().__init__(f"{text} ({case})")


class Pending(Protocol):
    """The question a game waits for: one value in the state (``state.ask``)."""

    kind: str
    side: str
    id: str
    data: dict[str, Any]


@dataclass(frozen=True)
class Policy:
    """A standing answer a player may set for one kind of decision (``rsr policy``, docs/protocol.md).

    ``choices`` are the named rules (``ask`` answers nothing: the game asks); ``default`` is the rule a
    player starts with (None: the policy is not set until the player sets it). ``form`` is the type of a
    structured rule (``{check-if-rating-at-least: N}``, a list of conditional orders), checked by ``check``.
    ``answer`` turns a rule into an answer for the pending question, or None where the rule does not answer.
    """

    name: str
    choices: tuple[str, ...]
    answer: Callable[[Any, Any, Request, Any], Any]
    default: Any = None
    form: type | None = None
    check: Callable[[Any], None] | None = None
    check_in: Callable[[Any, str, Any], None] | None = None  # a rule checked against the position it is set in


def _nothing(state: Any, ask: Any) -> dict[str, Any]:
    return {}


@dataclass(frozen=True)
class Decision:
    """One kind of question a rule puts to a player, declared in one place.

    ``kind`` is the request kind (and the pending question's kind); ``ids`` documents the request id
    pattern; ``case`` cites the rule (a function of the pending question where it varies); ``who`` says
    who answers (the pending question names the side). ``prompt``, ``options`` and ``template`` build the
    request from the state and the pending question (options and template are computed only when read).
    ``schema`` is the JSON schema of an answer, checked before ``apply`` with ``shape`` as the one-line
    error; ``apply`` carries out an answer (it may leave a new question in the state).
    """

    kind: str
    ids: str
    case: str | Callable[[Any], str]
    who: str
    prompt: Callable[[Any, Any], str]
    apply: Callable[[Any, Context, Any, Any], None]
    options: Callable[[Any, Any], Any] = _nothing
    template: Callable[[Any, Any], Any] | None = None
    policy: Policy | None = None
    schema: dict[str, Any] | None = None
    shape: str = ""
    sealable: bool | Callable[[Any], bool] = False  # (a function of the pending question where it varies)
    unseals: bool = False
    policy_applies: Callable[[Any, Any], bool] | None = None  # the policy answers only some questions of the kind
    _validator: Any = field(default=None, compare=False, repr=False)


    def request(self, state: Any, ask: Pending) -> Request:
        """The request that asks ``ask.side`` this question now."""
        case = self.case(ask) if callable(self.case) else self.case
        template = self.template
        return Request(ask.id, ask.side, self.kind, self.prompt(state, ask), case,
                       options=lambda: self.options(state, ask),
                       template=None if template is None else (lambda: template(state, ask)),
                       policy=self.policy.name if self.policy and (
                           self.policy_applies is None or self.policy_applies(state, ask)) else None,
                       sealable=self.sealable(ask) if callable(self.sealable) else self.sealable,
                       unseals=ask.data["sealed"] if self.unseals else None)

    def check_shape(self, answer: Any) -> None:
        """ShapeError unless ``answer`` (not a sealed one: its content is hidden) fits the schema."""
        if self.schema is None or isinstance(answer, Sealed):
            return
        validator = self._validator
        if validator is None:  # (made on first use; jsonschema only for a shape rsr/shapes.py cannot check)
            validator = _shape_checker(self.schema)
            object.__setattr__(self, "_validator", validator)
        if not validator(answer):
            raise ShapeError(self.shape)


def check_shape(schema: dict[str, Any], answer: Any, shape: str) -> None:
    """ShapeError ``shape`` unless ``answer`` fits ``schema`` (for an answer that comes another way: unsealed)."""
    if not _shape_checker(schema)(answer):
        raise ShapeError(shape)


def _shape_checker(schema: dict[str, Any]) -> Callable[[Any], bool]:
    """jsonschema's verdict on an answer (Draft 2020-12): from rsr/shapes.py for the simple shapes the rules
    use, so that replaying a few answers does not import jsonschema."""
    from rsr.shapes import simple_checker

    found = simple_checker(schema)
    if found is not None:
        return found
    import jsonschema

    return jsonschema.Draft202012Validator(schema).is_valid


class DecisionDriver:
    """Asks and applies every declared decision of a ruleset; the sequence of play runs in ``advance``.

    The state must have ``ask`` (the pending question or None), ``finished`` and ``opening_events`` (the
    events of the set-up, reported with the first answer). ``advance(state, ctx)`` carries the game on
    until a rule leaves a new question in ``state.ask`` or the game ends.
    """

    def __init__(self, game: str, decisions: Iterable[Decision], advance: Callable[[Any, Context], None],
                 policies: Iterable[Policy] = (), later: Callable[[], Iterable[Decision]] | None = None) -> None:
        """``later`` gives more decisions, whose modules are imported only when a game first asks one of them
        (Red Sun Rising's naval game: start-up); ``policies`` are the policies of those."""
        self.game = game
        self.decisions = {d.kind: d for d in decisions}
        self.advance = advance
        self.policies = {d.policy.name: d.policy for d in self.decisions.values() if d.policy is not None}
        self.policies.update((p.name, p) for p in policies)
        self._later = later

    def decision(self, kind: str) -> Decision | None:
        """The decision of this kind (None: the ruleset has none)."""
        if kind not in self.decisions and self._later is not None:
            for decision in self._later():
                self.decisions.setdefault(decision.kind, decision)
            self._later = None
        return self.decisions.get(kind)

    def _declared(self, kind: str) -> Decision:
        decision = self.decision(kind)
        if decision is None:  # (a rule raised a question no table declares: a bug, said plainly)
            raise RulesError(f"{self.game} has no decision {kind!r}")
        return decision

    def policy_defaults(self) -> dict[str, Any]:
        return {name: p.default for name, p in self.policies.items() if p.default is not None}

    def next_request(self, state: Any) -> Request | None:
        if state.finished or state.ask is None:
            return None
        return self._declared(state.ask.kind).request(state, state.ask)

    def apply(self, state: Any, request: Request, answer: Any, dice: Dice,
              owned: bool = False) -> tuple[Any, list[Event]]:
        state = state if owned else copy.deepcopy(state)  # the engine's own copy may be changed in place
        ctx = Context(dice)
        ctx.events, state.opening_events = list(state.opening_events), []
        ask = state.ask
        if ask is None or ask.id != request.id:
            raise RulesError(f"the game does not ask for {request.id} now")
        decision = self._declared(ask.kind)
        decision.check_shape(answer)
        state.ask = None
        decision.apply(state, ctx, ask, answer)
        self.advance(state, ctx)
        return state, ctx.events

    def answer_by_policy(self, state: Any, request: Request, rule: Any) -> Any:
        ask = state.ask
        decision = self.decision(request.kind)
        if ask is None or decision is None or decision.policy is None:
            return None
        return decision.policy.answer(state, ask, request, rule)

    def check_policy_in(self, state: Any, side: str, kind: str, rule: Any) -> None:
        """A policy checked against the position it is set in (the engine's ``check_policy_in``)."""
        policy = self.policies.get(kind)
        if policy is not None and policy.check_in is not None:
            policy.check_in(state, side, rule)

    def check_policy(self, kind: str, rule: Any) -> None:
        policy = self.policies.get(kind)
        if policy is None:
            raise RulesError(f"{self.game} has no policy {kind!r} (known: {', '.join(sorted(self.policies))})")
        if policy.form is not None and isinstance(rule, policy.form) and policy.check is not None:
            policy.check(rule)
            return
        if rule not in policy.choices:
            raise RulesError(f"policy {kind} is one of {', '.join(policy.choices)}, not {rule!r}")
