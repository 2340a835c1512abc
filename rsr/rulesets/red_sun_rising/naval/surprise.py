"""The surprise torpedo attack on Port Arthur that opens the 1904 game (RSR 18.83 with RSR 19.0): its decision.

Before the Russian writes his first sailing orders, the Japanese gives each torpedo flotilla that attacks its
Russian capital ship; the attack itself (one roll each on the 1 column, no return fire) is
tactical.surprise_torpedo_attack.
"""

from __future__ import annotations

from typing import Any

from rsr.decisions import Decision
from rsr.engine import Context
from rsr.errors import RulesError
from rsr.rulesets.red_sun_rising.naval import tactical
from rsr.rulesets.red_sun_rising.naval.data import NavalStatic
from rsr.rulesets.red_sun_rising.naval.initiative import FEBRUARY_1904
from rsr.rulesets.red_sun_rising.naval.state import NavalAsk, NavalState, on_map_fleets
from rsr.rulesets.red_sun_rising.sequence import Go


def surprise_flotillas(static: NavalStatic, naval: NavalState) -> list[str]:
    """RSR 18.83: the Japanese torpedo flotillas (not destroyer flotillas) on the map."""
    return sorted(s for f in on_map_fleets(naval, "japan") for s in f.ships
                  if s not in naval.sunk and static.ship(s).cls == "TF")


def surprise_targets(static: NavalStatic, naval: NavalState) -> list[str]:
    """RSR 18.83: every Russian capital ship in the game (on the map)."""
    return sorted(s for f in on_map_fleets(naval, "russia") for s in f.ships
                  if s not in naval.sunk and static.ship(s).capital)


def surprise_attack(state: Any, ctx: Context, targets: dict[str, str]) -> None:
    """RSR 18.83 with RSR 19.0: in February 1904, before the Russian sailing orders, each Japanese torpedo
    flotilla on the map may torpedo any Russian capital ship in the game, once (interpretations.md, RSR 18.83)."""
    naval: NavalState = state.naval
    static: NavalStatic = state.naval_static
    boats, capital = set(surprise_flotillas(static, naval)), set(surprise_targets(static, naval))
    for boat, target in sorted(targets.items()):
        if boat not in boats:
            raise RulesError(f"{boat} is not a Japanese torpedo flotilla on the map (RSR 18.83: destroyer flotillas "
                             "do not make the surprise attack)")
        if target not in capital:
            raise RulesError(f"{target} is not a Russian capital ship in the game (RSR 18.83)")
    if not targets:
        ctx.emit("naval-surprise", "the Japanese makes no surprise torpedo attack", "RSR 18.83")
        return
    result = tactical.surprise_torpedo_attack(ctx, static, dict(targets), list(naval.disabled))
    naval.disabled += [s for s in result.disabled if s not in naval.disabled]
    naval.sunk += [s for s in result.sunk if s not in naval.sunk]
    naval.disabled = [s for s in naval.disabled if s not in naval.sunk]


def _apply(state: Any, ctx: Context, ask: Any, answer: Any) -> None:
    if not isinstance(answer, dict) or set(answer) != {"attacks"} or not isinstance(answer["attacks"], dict) \
            or not all(isinstance(k, str) and isinstance(v, str) for k, v in answer["attacks"].items()):
        raise RulesError("a surprise attack answer is {attacks: {Japanese torpedo flotilla: Russian capital ship}}")
    surprise_attack(state, ctx, dict(answer["attacks"]))  # (made once: the step that asks it is then over)


def run_surprise(state: Any, ctx: Context) -> Go:
    """RSR 18.83 with RSR 19.0: in February 1904 the game begins with the Japanese surprise torpedo attack, asked
    once where he has a torpedo flotilla on the map (the first step of the Naval Sequence, flow.STEPS)."""
    if state.turn != FEBRUARY_1904 or not surprise_flotillas(state.naval_static, state.naval):
        return Go.ON
    state.ask = surprise_ask(state, state.request_base())
    return Go.ASKED


def surprise_ask(state: Any, base: str) -> NavalAsk:
    """RSR 18.83, RSR 19.0: asked once, at the start of the February 1904 Naval Sequence (:func:`run_surprise`)."""
    return NavalAsk("naval-surprise-attack", "japan", f"{base}/japan/surprise-attack")


SURPRISE_ATTACK = Decision(
    kind="naval-surprise-attack", ids="t<turn>/naval/japan/surprise-attack", case="RSR 18.83",
    who="the Japanese, in February 1904, before the Russian sailing orders (RSR 19.0)",
    prompt=lambda state, ask: ("February 1904: the surprise torpedo attack on Port Arthur opens the game; give each "
                               "torpedo flotilla that attacks its Russian capital ship"),
    options=lambda state, ask: {"flotillas": surprise_flotillas(state.naval_static, state.naval),
                                "targets": surprise_targets(state.naval_static, state.naval)},
    template=lambda state, ask: {"attacks": {}}, apply=_apply,
    schema={"type": "object", "required": ["attacks"], "additionalProperties": False,
            "properties": {"attacks": {"type": "object"}}},
    shape="a surprise attack answer is {attacks: {Japanese torpedo flotilla: Russian capital ship}}")
