"""Red Sun/Red Star rules that adjudication case files cannot reach, and the ruleset's engine contract.

The flame tank company (RS/RS 6.23, 6.55) is not among the counters of the July scenario, so these tests add
one to an in-memory copy of the scenario data; everything else goes through the same engine calls as
``rsr case run``.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from rsr.engine import enqueue, initial_position, resolve_pass
from rsr.errors import RulesError, VerificationError
from rsr.fairdice import NoDice, ScriptedDice, seal
from rsr.rulesets import get_ruleset
from rsr.rulesets.red_star import stacking
from rsr.rulesets.red_star.data import load_static
from rsr.scenario import Scenario, load_scenario

FLAME = {"id": "su-ft", "side": "soviet", "nationality": "ussr", "name": "OT-133 flame tank company",
         "class": "Armor", "type": "flamethrower-tank", "size": "I", "unit_id": "FT", "formation_id": None,
         "box_colour": "white", "id_colour": "black", "proficiency": 3, "full": {"combat": 2, "movement": 18},
         "reduced": None, "steps": 1, "light_armor": 0, "motorized": True,
         "setup": {"scenario": "13.2", "area": "Southern Group"},
         "provenance": {"unit": "provisional: a test counter for 6.23 and 6.55"}}


def scenario(setup: list[dict[str, Any]], start: str, support: dict[str, int], extra: bool = True) -> Scenario:
    base = load_scenario("red-star", "july-1939")
    data = copy.deepcopy(base.data)
    if extra:
        data["counters"]["units"].append(FLAME)
    data["scenario"].update({"setup": setup, "start": start, "turns": [{"date": "2 July"}],
                             "support_points": support, "restrictions": []})
    return Scenario("red-star", "test", data, "test")


def run(scen: Scenario, inputs: list[dict[str, Any]], dice: list[int]) -> list[Any]:
    ruleset = get_ruleset("red-star")
    position = initial_position(ruleset, scen, {})
    for item in inputs:
        enqueue(position, 1000, item["side"], [{k: v for k, v in item.items() if k != "side"}])
    _, result = resolve_pass(ruleset, position, ScriptedDice(dice))
    return result.events


def test_flame_tank_draws_the_first_defensive_fire() -> None:
    """RS/RS 6.23: an attacking flame tank is fired on first, before its hex's lead unit."""
    scen = scenario([{"unit": "jp-1-64", "hex": "4411"}, {"unit": "su-1-149", "hex": "4410"},
                     {"unit": "su-ft", "hex": "4410"}], "soviet.prepared-combat", {"japan": 3, "soviet": 5})
    events = run(scen, [{"side": "soviet", "request": "t1/soviet/prepared/combats", "answer": {"combats": [
        {"hex": "4411", "attackers": ["su-1-149", "su-ft"], "lead": "su-1-149"}]}}], [6, 6])
    fights = [e.data for e in events if e.kind == "firefight"]
    assert fights[0]["side"] == "japan" and fights[0]["target"] == "su-ft"


def test_flame_tank_is_ordinary_armor_in_defence() -> None:
    """RS/RS 6.23: defending, the flame tank is a normal Armor unit: the lead unit comes first."""
    scen = scenario([{"unit": "jp-1-64", "hex": "4410"}, {"unit": "jp-2-64", "hex": "4410"},
                     {"unit": "su-1-149", "hex": "4411"}, {"unit": "su-ft", "hex": "4411"}],
                    "japan.prepared-combat", {"japan": 3, "soviet": 0})
    events = run(scen, [
        {"side": "soviet", "policy": "defence-choices", "rule": "ask"},
        {"side": "japan", "request": "t1/japan/prepared/combats", "answer": {"combats": [
            {"hex": "4411", "attackers": ["jp-1-64", "jp-2-64"], "lead": "jp-1-64",
             "fire": [["jp-1-64"], ["jp-2-64"]]}]}},
        {"side": "soviet", "request": "t1/japan/prepared/c1/defence-choices",
         "answer": {"combats": {"t1/japan/prepared/c1": {"lead": "su-1-149"}}}}], [6, 6])
    targets = [e.data["target"] for e in events if e.kind == "firefight"]
    assert targets == ["su-1-149", "su-ft"]


def test_flame_tank_shift_against_leg_only() -> None:
    """RS/RS 6.55: one column right when the flame tanks fire at a Japanese Leg unit, none at Armor."""
    shifts = {}
    for target in ("jp-1-64", "jp-3tk"):
        scen = scenario([{"unit": target, "hex": "4411"}, {"unit": "su-ft", "hex": "4410"}],
                        "soviet.prepared-combat", {"japan": 0, "soviet": 5})
        events = run(scen, [{"side": "soviet", "request": "t1/soviet/prepared/combats", "answer": {"combats": [
            {"hex": "4411", "attackers": ["su-ft"], "lead": "su-ft"}]}}], [6])
        shifts[target] = next(e.data["shifts"] for e in events if e.kind == "firefight")
    assert {"value": 1, "reason": "flamethrower tanks against Leg", "case": "RS/RS 6.55"} in shifts["jp-1-64"]
    assert not any("flamethrower" in s["reason"] for s in shifts["jp-3tk"])


def test_unseal_that_does_not_match_is_refused() -> None:
    """Sealed choices (docs/protocol.md) with RS/RS 6.21: the revealed choices must be the sealed ones."""
    scen = scenario([{"unit": "jp-1-64", "hex": "4410"}, {"unit": "su-1-149", "hex": "4411"}],
                    "japan.prepared-combat", {"japan": 3, "soviet": 0}, extra=False)
    salt = bytes(range(16))
    chosen = {"combats": {"t1/japan/prepared/c1": {"lead": "jp-1-64"}}}
    other = {"combats": {"t1/japan/prepared/c1": {"lead": "jp-1-64", "armor_protection": False}}}
    inputs = [{"side": "japan", "request": "t1/japan/prepared/combats",
               "answer": {"combats": [{"hex": "4411", "attackers": ["jp-1-64"]}]}},
              {"side": "japan", "request": "t1/japan/prepared/c1/attack-choices", "sealed": seal(salt, chosen)},
              {"side": "japan", "unseal": "t1/japan/prepared/c1/attack-choices", "salt": salt.hex(), "choice": other}]
    with pytest.raises(VerificationError, match="does not match its seal"):
        run(scen, inputs, [6])


def test_policies_are_checked() -> None:
    """RS/RS 6.62 and 6.7: only the documented policy values are accepted."""
    ruleset = get_ruleset("red-star")
    ruleset.check_policy("morale", {"check-if-rating-at-least": 4})
    for kind, rule in (("morale", "sometimes"), ("retreat", "never"), ("moral", "check"),
                       ("morale", {"check-if-rating-at-least": "x"})):
        with pytest.raises(RulesError):
            ruleset.check_policy(kind, rule)


def test_stacking_limits() -> None:
    """RS/RS 9.1, 9.2: one formation any number, two different units, companies and HQs free."""
    scen = load_scenario("red-star", "july-1939")
    state = get_ruleset("red-star").initial_state(scen, {})
    assert stacking.legal(state, "japan", ["jp-1-71", "jp-2-71", "jp-3-71", "jp-71-art", "jp-71-at"]) is None
    assert stacking.legal(state, "japan", ["jp-1-64", "jp-1-71", "jp-25-at", "jp-23-hq"]) is None
    assert stacking.legal(state, "japan", ["jp-1-64", "jp-1-71", "jp-1-72"]) is not None
    assert stacking.legal(state, "soviet", ["su-1-149", "su-2-149", "su-3-149", "su-149-art"]) is None
    assert stacking.legal(state, "soviet", ["su-1-149", "su-2-11"]) is None
    assert "RS/RS 9.2" in (stacking.legal(state, "soviet", ["su-603-82", "su-1-149"]) or "")


def test_crt_column_choice_and_clamp() -> None:
    """RS/RS 6.5 and the CRT: the highest column not above the strength; shifts stop at the ends."""
    static = load_static(load_scenario("red-star", "july-1939").data)
    crt = static.crt
    assert crt.columns[crt.column_for(7)] == "5"
    assert crt.columns[crt.column_for(1)] == "1"
    assert crt.columns[crt.column_for(60)] == "35+"
    assert crt.cell(crt.columns.index("12"), 3).text == "-/2"


def test_the_july_scenario_loads_and_asks_japan_to_move() -> None:
    """RS/RS 13.1, 3.2, 5.2: Japan moves first; on 2 July its guns may fire (5.2), and with no units in contact
    (no prepared combat) it is then asked for movement."""
    ruleset = get_ruleset("red-star")
    position = initial_position(ruleset, load_scenario("red-star", "july-1939"), {})
    request = ruleset.next_request(position.state)
    assert request is not None and request.id == "t1/japan/artillery/missions" and request.side == "japan"
    state, _ = ruleset.apply(position.state, request, {"missions": []}, NoDice())
    request = ruleset.next_request(state)
    assert request is not None and request.id == "t1/japan/movement/orders" and request.side == "japan"
    on_map = [u for u in position.state.units.values() if u.status == "map"]
    assert len(on_map) == 60  # 36 Japanese with the bridge counter, 24 Soviet (13.1)


def test_report_tables_show_each_firefight() -> None:
    """The report lists firefights with factors, column, shifts, die and what followed (issue 5 report)."""
    scen = scenario([{"unit": "jp-1-64", "hex": "4410"}, {"unit": "jp-2-64", "hex": "4410"},
                     {"unit": "su-3-149", "hex": "4411", "reduced": True}], "japan.prepared-combat",
                    {"japan": 3, "soviet": 0}, extra=False)
    events = run(scen, [{"side": "japan", "request": "t1/japan/prepared/combats", "answer": {"combats": [
        {"hex": "4411", "attackers": ["jp-1-64", "jp-2-64"], "lead": "jp-1-64"}]}}], [3])
    tables = dict(get_ruleset("red-star").report_tables(events))
    text = "\n".join(tables["Firefights"])
    assert "jp-1-64 (4) + jp-2-64 (4)" in text and "-/2" in text and "retreat" in text
    assert tables["Secret choices"]


def test_orders_worked_example_is_legal() -> None:
    """docs/red-star/orders.md: the worked Japanese player turn plays on the contact position (RS/RS 6.9, 7.5)."""
    import re
    from pathlib import Path

    from rsr.yamlio import load_yaml_text

    text = (Path(__file__).resolve().parents[1] / "docs" / "red-star" / "orders.md").read_text()
    worked = text[text.index("## A worked example"):]
    blocks = [load_yaml_text(b, "orders.md") for b in re.findall(r"```yaml\n(.*?)```", worked, re.S)]
    salt = bytes(range(16))
    inputs: list[dict[str, Any]] = []
    reveal: list[dict[str, Any]] = []
    for block in blocks:
        for item in block["inputs"]:
            if item.get("seal"):
                inputs.append({"side": "japan", "request": item["request"], "sealed": seal(salt, item["answer"])})
                reveal.append({"side": "japan", "unseal": item["request"], "salt": salt.hex(),
                               "choice": item["answer"]})
            else:
                inputs.append({"side": "japan", **item})
        inputs += reveal
        reveal = []
    # the movement order follows the reveal: move it after the unsealing input
    movement = [i for i in inputs if i.get("request") == "t1/japan/movement/orders"]
    inputs = [i for i in inputs if i not in movement] + movement
    ruleset = get_ruleset("red-star")
    position = initial_position(ruleset, load_scenario("red-star", "july-1939-contact"), {})
    for item in inputs:
        enqueue(position, 1000, "japan", [{k: v for k, v in item.items() if k != "side"}])
    _, result = resolve_pass(ruleset, position, ScriptedDice([3] * 40))
    kinds = [e.kind for e in result.events]
    assert "participation" in kinds and "unsealed" in kinds
    assert any(e.kind == "combat-start" and e.data["combat_kind"] == "hasty" for e in result.events)
    assert result.waiting is not None and result.waiting.side == "soviet"
