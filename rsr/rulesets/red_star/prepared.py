"""RS/RS 5.0, RS/RS 6.1: the questions asked after the fire missions' dice that a plan signed before them answers
(the ruleset's ``prepared_questions`` hook; rsr/lookahead.py walks on to them)."""

from __future__ import annotations

from typing import Any

from rsr.lookahead import Prepared


def _combats_plan(turn: int, answer: Any) -> Any:
    """RS/RS 5.0, RS/RS 6.1: policy ``combats: {turn, combats}``, the prepared combats of this game turn."""
    combats = answer.get("combats", []) if isinstance(answer, dict) else []
    return {"turn": turn, "combats": combats}


def _attack_choices_auto(turn: int, answer: Any) -> Any:
    """RS/RS 6.21, RS/RS 6.22: the attacker's choices made by the documented default (policy ``auto``)."""
    return "auto"


#: the questions asked after a die that a plan signed before the dice may answer, by the end of the
#: request id (a pattern)
PREPARED: dict[str, Prepared] = {
    "/prepared/combats": Prepared(
        "combats", _combats_plan,
        "asked after the fire missions' dice: your plan, signed now, declares these combats when the game "
        "comes to them (policy combats, this game turn only; a combat the fire made illegal is dropped)",
        lambda rule: {"combats": rule.get("combats", []) if isinstance(rule, dict) else []}),
    r"/prepared/c\d+/attack-choices": Prepared(  # RS/RS 6.21, RS/RS 5.3: asked for each combat in turn
        "attack-choices", _attack_choices_auto,
        "asked after the fire missions' dice: lead units and armor protection chosen by rsr's documented "
        "default (policy attack-choices auto, which stands until you set it to ask)"),
}
