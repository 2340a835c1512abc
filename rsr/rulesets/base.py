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

from typing import TYPE_CHECKING, Any, ClassVar

from rsr.decisions import DecisionDriver
from rsr.engine import Event, Request
from rsr.errors import BadInput
from rsr.fairdice import Dice

if TYPE_CHECKING:
    from rsr.draw.hexmap import Scene
    from rsr.lookahead import Prepared


class BaseRuleset:
    """The hooks every ruleset has, with their defaults."""

    id: str
    version: str
    sides: tuple[str, str]
    policy_defaults: dict[str, Any] = {}  # noqa: RUF012 (each ruleset sets its own; nobody changes it)
    turn_record_in_scenarios: bool = False  # its turn track is in each scenario, not a data file (rsr data)

    # -- the engine's interface (rsr.engine.Ruleset): every ruleset writes these, or takes them from a driver

    def initial_state(self, scenario: Any, options: dict[str, Any]) -> Any:
        raise NotImplementedError

    def next_request(self, state: Any) -> Request | None:
        raise NotImplementedError

    def apply(self, state: Any, request: Request, answer: Any, dice: Dice,
              owned: bool = False) -> tuple[Any, list[Event]]:
        raise NotImplementedError

    def answer_by_policy(self, state: Any, request: Request, rule: Any) -> Any:
        raise NotImplementedError

    def check_policy(self, kind: str, rule: Any) -> None:
        raise NotImplementedError

    def state_json(self, state: Any) -> Any:
        raise NotImplementedError

    # -- optional hooks, with their defaults --------------------------------------------------------------

    def result(self, state: Any) -> dict[str, Any] | None:
        """The outcome once the game has ended (``{"winner", "level", "case", ...}``); None before that."""
        return None

    def bot(self, state: Any, request: Request, boldness: str | None = None) -> list[dict[str, Any]]:
        """A bot's inputs for ``request`` in orders-file form; none by default (a person must answer).
        ``boldness`` is the lowest odds column the bot attacks at, where its ruleset has such a bot."""
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

    def state_fields(self, state: Any) -> dict[str, Any] | None:
        """The state's fields its digest covers, by name (the engine writes them faster, rsr/engine.py); None
        by default (the digest covers ``state_json``)."""
        return None

    def check_policy_in(self, state: Any, side: str, kind: str, rule: Any) -> None:
        """Check a standing policy against the position (beyond ``check_policy``); nothing by default."""
        return None

    # -- what players are told before they play ------------------------------------------------------

    def first_needs(self, scenario: Any, options: dict[str, Any]) -> list[str]:
        """What must happen before ``scenario`` (with ``options``) gives what its title promises (a naval
        battle needs a sortie), from its set-up and the rules; none by default."""
        return []

    def prepared_questions(self) -> dict[str, Prepared]:
        """The questions asked after a die that a plan signed before the dice may answer, by the end of their
        request id (rsr/lookahead.py); none by default."""
        return {}

    # -- maps -------------------------------------------------------------------------------------------

    def map_scene(self, state: Any, before: Any, events: list[Event], title: str, subtitle: str,
                  map_data: dict[str, Any] | None = None,
                  declared: list[dict[str, Any]] | None = None) -> Scene:
        """The map of ``state`` with the arrows of ``events`` (the pass that led from ``before``), for rsr/draw;
        ``declared`` are the attacks the packet declared, ``map_data`` the scenario's ``map`` section."""
        raise BadInput(f"no map drawing for ruleset {self.id}")

    def has_naval_map(self, state: Any) -> bool:
        """The game has a second, naval, map (and naval battles to draw)."""
        return False

    def is_naval_pass(self, events: list[Event]) -> bool:
        """A pass that played the naval game and moved nothing on land (its player needs the naval map)."""
        return False

    def naval_scene(self, state: Any, events: list[Event], title: str, subtitle: str) -> Scene:
        """The naval map of ``state`` with the moves of ``events``."""
        raise BadInput(f"no naval map in ruleset {self.id}")

    def naval_cell(self, state: Any, around: str) -> str:
        """The cell of the naval map that the naval hex ``around`` (as a player writes it) names."""
        raise BadInput(f"no naval map in ruleset {self.id}")

    def battle_svg(self, state: Any, events: list[Event], title: str, at_hex: str | None = None,
                   hour: int | None = None) -> str:
        """The display of the naval battle fought in ``events`` after ``hour``."""
        raise BadInput(f"no naval battles in ruleset {self.id}")

    def naval_transcription_svg(self, transcription: Any, scenario: Any) -> str:
        """``rsr data show`` of a transcription of the naval data or naval map: the naval map it gives."""
        raise BadInput(f"no naval map in ruleset {self.id}")


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
