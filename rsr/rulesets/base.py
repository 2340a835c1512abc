"""The base of a ruleset: every optional hook declared once, with its default (docs/architecture.md).

A ruleset is one package (``rsr/rulesets/<name>/``) holding its rules, data loading, bots, odds and
drawings; it registers one class. :class:`BaseRuleset` gives every hook the generic layers may call a
default, so they call hooks instead of asking which ruleset they hold. :class:`DecisionRuleset` adds the
four methods of the engine's interface (``next_request``, ``apply``, ``answer_by_policy``, ``check_policy``)
from a :class:`rsr.decisions.DecisionDriver`: a ruleset built on it declares its decisions and its sequence
of play, and writes none of those four itself.

Both rulesets are built on it (Red Sun Rising with its naval game: one table, one pending question).
"""

from __future__ import annotations

from typing import Any, ClassVar

from rsr.decisions import DecisionDriver
from rsr.engine import Event, Request
from rsr.fairdice import Dice


class BaseRuleset:
    """The hooks every ruleset has, with their defaults."""

    id: str
    version: str
    sides: tuple[str, str]
    policy_defaults: dict[str, Any] = {}  # noqa: RUF012 (each ruleset sets its own; nobody changes it)

    def result(self, state: Any) -> dict[str, Any] | None:
        """The outcome once the game has ended (``{"winner", "level", "case", ...}``); None before that."""
        return None

    def bot(self, state: Any, request: Request) -> list[dict[str, Any]]:
        """A bot's inputs for ``request`` in orders-file form; none by default (a person must answer)."""
        return []

    def odds(self) -> Any:
        """The module that gives the odds of an attack (``odds_for_spec``, ``odds_for_answer``), or None."""
        return None

    def report_tables(self, events: list[Event]) -> list[tuple[str, list[str]]]:
        """Extra tables for a pass's report (combat results and the like); none by default."""
        return []

    def describe(self, state: Any) -> list[str]:
        """Lines that describe the position for ``rsr show``."""
        return []


class DecisionRuleset(BaseRuleset):
    """A ruleset whose every question is a declared decision (rsr/decisions.py)."""

    driver: ClassVar[DecisionDriver]

    def next_request(self, state: Any) -> Request | None:
        return self.driver.next_request(state)

    def apply(self, state: Any, request: Request, answer: Any, dice: Dice,
              owned: bool = False) -> tuple[Any, list[Event]]:
        return self.driver.apply(state, request, answer, dice, owned)

    def answer_by_policy(self, state: Any, request: Request, rule: Any) -> Any:
        return self.driver.answer_by_policy(state, request, rule)

    def check_policy(self, kind: str, rule: Any) -> None:
        self.driver.check_policy(kind, rule)

    def check_policy_in(self, state: Any, side: str, kind: str, rule: Any) -> None:
        self.driver.check_policy_in(state, side, kind, rule)
