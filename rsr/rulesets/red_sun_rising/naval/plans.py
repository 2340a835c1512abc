"""Battle plans: what an admiral signs in advance for every choice of the tactical battle.

A plan answers, for every hour, the choices RSR 8.1-8.6 give a player:

* ``refuse_in_port`` (RSR 8.1): refuse combat when the battle hex is a friendly port of this side (true/false).
* ``range`` (RSR 8.42): a preferred range (a whole number of Range Boxes), or ``close`` (towards 0), ``hold``
  (keep the present range) or ``open`` (as far out as morale allows).
* ``break_off`` (RSR 8.8): conditions that turn the plan to ``open`` for the rest of the battle:
  ``morale_at_most`` N, ``sunk_points_at_least`` N (defense points of own ships sunk in this battle),
  ``after_hour`` N (from hour N+1 on).
* ``search`` (RSR 8.84): search for the enemy after a temporary break-off (true/false; never while breaking off).
* ``targets`` (RSR 8.51): among the legal targets of each capital ship, ``opposite`` (its opposite number first,
  then the lower box, then the higher), ``weakest`` (the lowest Defense Strength), ``strongest`` (the
  highest Attack Strength) or ``disabled`` (a disabled ship first, to sink it; RSR 8.52).
* ``torpedo`` (RSR 8.6): ``attack`` ``never`` / ``always`` / ``{range_at_most: N}``, ``flotillas`` (how many,
  taken in box order, RSR 8.61; ``all`` by default) and ``target`` ``capital`` (the enemy capital ship with the
  lowest Defense Strength), ``flotilla`` (an enemy flotilla) or ``flagship``.

* ``secondary`` (RSR 8.2, RSR 8.48): for this side's Secondary Force ships, ``{ship: box}`` (placed there at set-up
  and kept there; ships not named keep the box of their place at the back of the battleline) or ``weakest``
  (after every Range Determination Phase each moves to the box of the enemy capital ship with the lowest
  Defense Strength, to fire at it).

A plan left out, or any key left out, takes :data:`DEFAULT_PLAN` (docs/red-sun-rising/orders.md).

Hour by hour: ``range``, ``targets``, the torpedo ``attack``, ``search`` (RSR 8.84), ``secondary``
(RSR 8.48) and, once per battle, ``refuse_in_port`` (RSR 8.1) may each be ``ask``; the battle then stops at that
choice (every hour) and asks the admiral (battle_flow.py), while the plan's other keys keep answering for
him. A plan that is just ``ask`` asks the range, the targets and the torpedo option (:data:`ASK_PLAN`).
"""

from __future__ import annotations

from typing import Any

from rsr.decisions import Decision
from rsr.engine import Context, Sealed
from rsr.errors import RulesError
from rsr.rulesets.red_sun_rising.naval.state import queued

DEFAULT_PLAN: dict[str, Any] = {
    "refuse_in_port": False,
    "range": "hold",
    "break_off": {"morale_at_most": 0},
    "search": True,
    "targets": "opposite",
    "torpedo": {"attack": {"range_at_most": 2}, "flotillas": "all", "target": "capital"},
    "secondary": {},
}

ASK = "ask"
ASK_PLAN: dict[str, Any] = {"range": ASK, "targets": ASK, "torpedo": {"attack": ASK}}  # asked every hour

PLAN_KEYS = set(DEFAULT_PLAN)
BREAK_KEYS = {"morale_at_most", "sunk_points_at_least", "after_hour"}
TARGET_RULES = ("opposite", "weakest", "strongest", "disabled")
TORPEDO_TARGETS = ("capital", "flotilla", "flagship")


def _whole(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise RulesError(f"battle plan: {what} is a whole number, 0 or more")
    return value


def check_plan(raw: Any, side: str) -> dict[str, Any]:
    """A complete plan: the signed keys checked, every key left out filled from DEFAULT_PLAN."""
    if raw is None:
        raw = {}
    if raw == ASK:
        raw = dict(ASK_PLAN)
    if not isinstance(raw, dict) or set(raw) - PLAN_KEYS:
        raise RulesError(f"{side} battle plan: a mapping with keys {', '.join(sorted(PLAN_KEYS))}")
    plan = {**DEFAULT_PLAN, **raw}
    if not all(isinstance(plan[key], bool) or plan[key] == ASK for key in ("refuse_in_port", "search")):
        raise RulesError(f"{side} battle plan: refuse_in_port and search are true, false or ask")
    wanted = plan["range"]
    if wanted not in ("close", "hold", "open", ASK):
        _whole(wanted, f"{side} range (close, hold, open or a number of Range Boxes)")
    breaks = plan["break_off"] or {}
    if not isinstance(breaks, dict) or set(breaks) - BREAK_KEYS:
        raise RulesError(f"{side} battle plan: break_off keys are {', '.join(sorted(BREAK_KEYS))}")
    for key, value in sorted(breaks.items()):
        _whole(value, f"{side} break_off {key}")
    plan["break_off"] = dict(breaks)
    if plan["targets"] not in TARGET_RULES + (ASK,):
        raise RulesError(f"{side} battle plan: targets is one of {', '.join(TARGET_RULES)}")
    torpedo = {**DEFAULT_PLAN["torpedo"], **(plan["torpedo"] or {})}
    if set(torpedo) - {"attack", "flotillas", "target"}:
        raise RulesError(f"{side} battle plan: torpedo keys are attack, flotillas, target")
    attack = torpedo["attack"]
    if isinstance(attack, dict):
        if set(attack) != {"range_at_most"}:
            raise RulesError(f"{side} battle plan: torpedo attack is never, always or {{range_at_most: N}}")
        _whole(attack["range_at_most"], f"{side} torpedo range_at_most")
    elif attack not in ("never", "always", ASK):
        raise RulesError(f"{side} battle plan: torpedo attack is never, always, ask or {{range_at_most: N}}")
    if torpedo["flotillas"] != "all":
        _whole(torpedo["flotillas"], f"{side} torpedo flotillas")
    aims = torpedo["target"] if isinstance(torpedo["target"], dict) else {"": torpedo["target"]}
    if not aims or not all(isinstance(k, str) and v in TORPEDO_TARGETS for k, v in aims.items()):
        raise RulesError(f"{side} battle plan: torpedo target is one of {', '.join(TORPEDO_TARGETS)}, or "
                         "{flotilla: one of them} for each flotilla (RSR 8.61; flotillas not named: capital)")
    plan["torpedo"] = torpedo
    secondary = plan["secondary"] or {}
    if secondary in ("weakest", ASK):
        return plan
    if not isinstance(secondary, dict) or not all(isinstance(k, str) for k in secondary):
        raise RulesError(f"{side} battle plan: secondary is {{capital ship: Secondary Force box}}")
    for ship, box in sorted(secondary.items()):
        if _whole(box, f"{side} secondary box of {ship}") < 1:
            raise RulesError(f"{side} battle plan: Secondary Force boxes start at 1")
    plan["secondary"] = dict(secondary)
    return plan


def wants_break_off(plan: dict[str, Any], morale: int, sunk_points: int, hour: int) -> bool:
    """The plan's break-off conditions (any one is enough)."""
    rule = plan["break_off"]
    return (("morale_at_most" in rule and morale <= rule["morale_at_most"])
            or ("sunk_points_at_least" in rule and sunk_points >= rule["sunk_points_at_least"])
            or ("after_hour" in rule and hour > rule["after_hour"]))


def wants_torpedo_attack(plan: dict[str, Any], range_now: int) -> bool:
    attack = plan["torpedo"]["attack"]
    if isinstance(attack, dict):
        return range_now <= int(attack["range_at_most"])
    return bool(attack == "always")


# -- the decisions: a battle plan sealed with the sailing orders, and its unsealing (RSR 8.42) ---------------

def _apply_plan(state: Any, ctx: Context, ask: Any, answer: Any) -> None:
    if isinstance(answer, Sealed):
        state.naval.plan_unseals.append(ask.side)
        ctx.emit("battle-plan", f"{ask.side} seals its battle plan", "RSR 8.42", side=ask.side, sealed=True)
    else:
        state.naval.orders[ask.side]["battle_plan"] = check_plan(answer, ask.side)


BATTLE_PLAN = Decision(
    kind="battle-plan", ids="t<turn>/naval/<side>/battle-plan", case="RSR 8.42",
    who="a side whose sailing orders say battle_plan: sealed, right after them",
    prompt=lambda state, ask: ("battle plan for every naval battle of this Naval Sequence (answer it sealed: the "
                               "enemy sees it only when you unseal it, after both sides' sailing orders)"),
    options=lambda state, ask: {"keys": sorted(PLAN_KEYS)}, template=lambda state, ask: dict(DEFAULT_PLAN),
    sealable=True, apply=queued(_apply_plan))


def _apply_unsealed_plan(state: Any, ctx: Context, ask: Any, answer: Any) -> None:
    state.naval.orders[ask.side]["battle_plan"] = check_plan(answer, ask.side)
    ctx.emit("battle-plan", f"{ask.side} unseals its battle plan", "RSR 8.42", side=ask.side, sealed=False)


BATTLE_PLAN_UNSEAL = Decision(
    kind="battle-plan-unseal", ids="t<turn>/naval/<side>/battle-plan-unseal", case="RSR 8.42",
    who="a side that sealed its battle plan, once both sides have signed their sailing orders",
    prompt=lambda state, ask: "reveal your sealed battle plan", unseals=True, apply=queued(_apply_unsealed_plan))
