"""Exact odds of an attack or a firefight before it is sent: every outcome with its probability, counted
over every face of every die (enumerated, never sampled), from the tables, shifts and modifiers in force.

Each ruleset computes its own :class:`OddsTable` (rsr/rulesets/*/odds.py); this module holds the common
shape, the parsing of ``HEX:UNIT,UNIT`` attack specs and of ``bombard:UNIT:GUNS`` / ``interdict:HEX:GUNS`` fire
missions, and the text layout (80 columns).
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rsr.errors import BadInput
from rsr.rulesets import get_ruleset


@dataclass
class Outcome:
    """One result and the chance of it; ``dice`` names the faces that give it (for checking by hand)."""

    text: str
    probability: Fraction
    dice: str = ""
    provisional: bool = False


@dataclass
class OddsTable:
    title: str
    how: list[str] = field(default_factory=list)          # strengths, column, every shift or modifier, with cases
    outcomes: list[Outcome] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    provisional: list[str] = field(default_factory=list)  # provenance of the stand-in data used
    notes: list[str] = field(default_factory=list)

    def add(self, text: str, probability: Fraction, dice: str = "", provisional: bool = False) -> None:
        """Add an outcome, merging it with an earlier one of the same text."""
        for outcome in self.outcomes:
            if outcome.text == text:
                outcome.probability += probability
                outcome.dice = "; ".join(x for x in (outcome.dice, dice) if x)
                outcome.provisional = outcome.provisional or provisional
                return
        self.outcomes.append(Outcome(text, probability, dice, provisional))

    def probability_of(self, text: str) -> Fraction:
        return sum((o.probability for o in self.outcomes if o.text == text), Fraction(0))

    @property
    def total(self) -> Fraction:
        return sum((o.probability for o in self.outcomes), Fraction(0))


@dataclass(frozen=True)
class AttackSpec:
    """``HEX:UNIT,UNIT[+GUN,GUN][/EXTRA]``: the hex attacked, the attacking units, the guns giving offensive
    support (RS/RS 5.31), and an optional extra word (RSR: the command unit that modifies the die; RS/RS:
    ``night``)."""

    hex: str
    units: tuple[str, ...]
    extra: str | None = None
    support: tuple[str, ...] = ()


def parse_attack(text: str) -> AttackSpec:
    hex_part, sep, rest = text.partition(":")
    listed, _, extra = rest.partition("/")
    units_part, plus, guns_part = listed.partition("+")
    units = tuple(u.strip() for u in units_part.split(",") if u.strip())
    guns = tuple(g.strip() for g in guns_part.split(",") if g.strip())
    if not sep or len(hex_part) != 4 or not hex_part.isdigit() or not units or (plus and not guns):
        raise BadInput(f"attack {text!r}: write HEX:UNIT,UNIT (e.g. 1809:ru-es9,ru-es1), optionally +GUN,GUN "
                       "(supporting artillery) and /COMMAND or /night")
    return AttackSpec(hex_part, units, extra.strip() or None, guns)


@dataclass(frozen=True)
class FireSpec:
    """``bombard:UNIT:GUN,GUN`` or ``interdict:HEX:GUN,GUN``: an artillery fire mission (Red Sun/Red Star 5.21,
    5.22), its target (an enemy unit, or a road or bridge hex) and the guns given it."""

    mission: str
    target: str
    guns: tuple[str, ...]


FIRE_MISSIONS = ("bombard", "interdict")


def parse_fire(text: str) -> FireSpec:
    kind, _, rest = text.partition(":")
    target, sep, guns_part = rest.partition(":")
    guns = tuple(g.strip() for g in guns_part.split(",") if g.strip())
    if kind not in FIRE_MISSIONS or not sep or not target.strip() or not guns:
        raise BadInput(f"fire mission {text!r}: write bombard:UNIT:GUN,GUN (e.g. bombard:su-2-149:jp-3-13-art) or "
                       "interdict:HEX:GUN,GUN (e.g. interdict:4006:jp-2-13-art,jp-m-art)")
    return FireSpec(kind, target.strip(), guns)


def parse_spec(text: str) -> AttackSpec | FireSpec:
    """An attack (``HEX:UNIT,UNIT[/EXTRA]``) or a fire mission (``bombard:...``, ``interdict:...``)."""
    if text.partition(":")[0] in FIRE_MISSIONS:
        return parse_fire(text)
    return parse_attack(text)


def percent(probability: Fraction) -> str:
    return f"{float(probability) * 100:5.1f}%"


def fraction_text(probability: Fraction, denominator: int) -> str:
    """The chance as a count of equally likely cases (e.g. 4/36), so a player can check it by hand."""
    scaled = probability * denominator
    if scaled.denominator == 1:
        return f"{scaled.numerator}/{denominator}"
    return f"{probability.numerator}/{probability.denominator}"


def common_denominator(table: OddsTable) -> int:
    return math.lcm(1, *(o.probability.denominator for o in table.outcomes))


def table_lines(table: OddsTable, width: int = 80) -> list[str]:
    """The table as plain text, no line wider than ``width``."""
    wrap = textwrap.TextWrapper(width=width, subsequent_indent="    ", break_on_hyphens=False)
    lines = wrap.wrap(table.title)
    for item in table.how:
        lines += textwrap.wrap(item, width, initial_indent="  ", subsequent_indent="    ", break_on_hyphens=False)
    denominator = common_denominator(table)
    for outcome in sorted(table.outcomes, key=lambda o: (-o.probability, o.text)):
        mark = " [provisional]" if outcome.provisional else ""
        head = f"  {percent(outcome.probability)} {fraction_text(outcome.probability, denominator):>7}  "
        body = outcome.text + (f" (die {outcome.dice})" if outcome.dice else "") + mark
        lines += textwrap.wrap(body, width, initial_indent=head, subsequent_indent=" " * len(head),
                               break_on_hyphens=False)
    for warning in table.warnings:
        lines += textwrap.wrap(f"WARNING: {warning}", width, initial_indent="  ", subsequent_indent="    ")
    for note in table.notes:
        lines += textwrap.wrap(f"note: {note}", width, initial_indent="  ", subsequent_indent="    ")
    for item in sorted(set(table.provisional)):
        lines += textwrap.wrap(f"provisional data: {item}", width, initial_indent="  ", subsequent_indent="    ")
    return lines


def ruleset_odds(ruleset_id: str) -> Any:
    """The odds module of a ruleset: its ``odds`` hook (rsr/rulesets/base.py)."""
    module = get_ruleset(ruleset_id).odds()
    if module is None:
        raise BadInput(f"no odds for ruleset {ruleset_id}")
    return module


def odds_for_specs(ruleset_id: str, state: Any, specs: list[AttackSpec | FireSpec]) -> list[OddsTable]:
    module = ruleset_odds(ruleset_id)
    tables: list[OddsTable] = []
    for spec in specs:
        if isinstance(spec, FireSpec):
            fire = getattr(module, "fire_odds_for_spec", None)
            if fire is None:
                raise BadInput(f"{spec.mission}:{spec.target}: ruleset {ruleset_id} has no artillery fire missions")
            tables += fire(state, spec)
        else:
            tables += module.odds_for_spec(state, spec)
    return tables


def odds_for_inputs(ruleset_id: str, state: Any, inputs: list[dict[str, Any]]) -> list[OddsTable]:
    """Odds of every attack or combat named in an orders file's answers (``rsr orders check``)."""
    module = ruleset_odds(ruleset_id)
    tables: list[OddsTable] = []
    for item in inputs:
        answer = item.get("answer") if isinstance(item, dict) else None
        if isinstance(answer, dict):
            tables += module.odds_for_answer(state, answer)
    return tables
