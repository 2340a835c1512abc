"""Where opposing fleets meet: the searches of the Naval Search Stage and of every Search Impulse (RSR 4.13,
RSR 7.3, RSR 6.0), the battles they start (RSR 8.0, fought hour by hour in battle_flow.py), and a battle's
result on the fleets (RSR 8.1, RSR 8.71, RSR 8.75-8.79, RSR 19.3)."""

from __future__ import annotations

from typing import Any

from rsr.engine import Context
from rsr.rulesets.red_sun_rising.naval import attrition, battle, battle_flow, plans, succession
from rsr.rulesets.red_sun_rising.naval.data import NavalStatic
from rsr.rulesets.red_sun_rising.naval.search import search
from rsr.rulesets.red_sun_rising.naval.state import Fleet, NavalState, on_map_fleets

SIDES = ("russia", "japan")


def _searches_wanted(state: Any, side: str, fleet: Fleet) -> bool:
    rule = (state.naval.orders.get(side, {}).get("fleets") or {}).get(fleet.id, {}).get("search", "never")
    return bool(rule == "always" or fleet.id in state.naval.orders.get(side, {}).get("_round_search", []))


def searches(state: Any, ctx: Context, case: str) -> bool:
    """RSR 4.13, RSR 7.3 (RSR 6.0): in each hex, by number, where opposing at-sea fleets meet, the Japanese then the
    Russian may search; a sighting fights a battle (RSR 8.0). False while a battle waits for an hourly answer:
    the next pass resumes it, then the hexes after the battle's hex."""
    naval: NavalState = state.naval
    static: NavalStatic = state.naval_static
    after = -1
    if naval.battle is not None:
        if not _fight_on(state, ctx):
            return False
        after = naval.battle.hex
        naval.battle, naval.battle_case = None, ""
    for hex_number in sorted({f.hex for f in on_map_fleets(naval) if f.at_sea}):
        if hex_number <= after:
            continue
        here = [f for f in on_map_fleets(naval) if f.at_sea and f.hex == hex_number]
        if len({f.side for f in here}) < 2:
            continue
        for side in ("japan", "russia"):  # RSR 6.0: the Japanese may always search first
            searchers = [f for f in here if f.side == side and _searches_wanted(state, side, f)]
            if not searchers:
                continue
            engine = battle.require_battle(hex_number, f"a {side} search ({case})")
            ships = [s for f in searchers for s in f.ships if s not in naval.sunk]
            found, weather_now = search(ctx, static, hex_number, side, ships)
            if found:
                args = (ctx, static, hex_number, [f for f in here if f.side == "russia"],
                        [f for f in here if f.side == "japan"], weather_now, _battle_setting(state, hex_number))
                if engine is not battle_flow.fight:
                    _apply_battle(state, ctx, engine(*args))
                    break
                started = battle_flow.begin(*args)  # a battle that may stop at an hourly question
                if isinstance(started, battle.BattleResult):
                    _apply_battle(state, ctx, started)
                    break
                naval.battle, naval.battle_case = started, case
                if not _fight_on(state, ctx):
                    return False
                naval.battle, naval.battle_case = None, ""
                break
    naval.orders.get("russia", {}).pop("_round_search", None)
    naval.orders.get("japan", {}).pop("_round_search", None)
    return True


def _fight_on(state: Any, ctx: Context) -> bool:
    """RSR 4.4: fight the battle under way until it is over (its result applied) or waits for an answer."""
    result = battle_flow.run(ctx, state.naval_static, state.naval.battle, state.options)  # RSR 4.44 option
    if result is None:
        return False
    _apply_battle(state, ctx, result)
    return True


def _battle_setting(state: Any, hex_number: int) -> battle.BattleSetting:
    """RSR 8.1, RSR 8.42: the battle plans signed with the sailing orders, the ships already out, the port
    sides."""
    naval: NavalState = state.naval
    static: NavalStatic = state.naval_static
    signed = {side: naval.orders[side]["battle_plan"] for side in SIDES
              if isinstance(naval.orders.get(side), dict) and (isinstance(naval.orders[side].get("battle_plan"), dict)
                                                               or naval.orders[side].get("battle_plan") == plans.ASK)}
    return battle.BattleSetting(plans=signed, disabled=tuple(naval.disabled), sunk=tuple(naval.sunk),
                                port_sides=tuple(side for side in SIDES
                                                 if attrition.friendly_port(static, state.control, hex_number, side)),
                                options=dict(state.options))


# Rules option ``successor-next-turn`` (RSR 19.3 read to the letter, interpretations.md): the successor of an
# admiral killed in battle takes command when the next Game-Turn's sailing orders are written, not at once.
SUCCESSOR_NEXT_TURN = "successor-next-turn"


def _successor_next_turn(ctx: Context, naval: NavalState, fleet: Fleet, dead: str) -> None:
    """RSR 19.3 ("arrives on the next Game-Turn"), under the rules option ``successor-next-turn``: the fleet is
    vacant until the next Naval Sequence, whose sailing orders must fill it (admirals.py: an admiral arriving
    that turn, else one waiting in the reserve, else RSR 19.3's order); until then its morale stays at zero
    (RSR 8.75) and nobody takes its admiral's place."""
    naval.vacant.append(fleet.id)
    ctx.emit("admiral-succession", f"{fleet.id}: {dead} is dead; his successor takes command on the next "
             f"Game-Turn (rules option {SUCCESSOR_NEXT_TURN}); morale {fleet.morale}", "RSR 19.3", fleet=fleet.id,
             dead=dead, admiral=None, morale=fleet.morale)


def _apply_battle(state: Any, ctx: Context, result: battle.BattleResult) -> None:
    """RSR 8.0: a battle's result on the fleets: ships sunk and disabled, morale (RSR 8.71), refusal (RSR 8.1), the
    withdrawal at morale zero (RSR 8.76 errata), an admiral killed and his successor (RSR 8.75, RSR 8.79, RSR 19.3)."""
    naval: NavalState = state.naval
    for ship_id in result.disabled:
        if ship_id not in naval.disabled:
            naval.disabled.append(ship_id)
    naval.sunk += [s for s in result.sunk if s not in naval.sunk]
    naval.disabled = [s for s in naval.disabled if s not in naval.sunk]  # a sunk ship is not repaired (RSR 18.1)
    for fleet_id in result.to_port:  # RSR 8.1: refused in its friendly port
        if fleet_id in naval.fleets:
            naval.fleets[fleet_id].at_sea = False
    for fleet_id, morale in sorted(result.morale.items()):
        if fleet_id in naval.fleets:
            naval.fleets[fleet_id].morale = morale
    for fleet_id in result.withdraws:
        if fleet_id in naval.fleets:
            naval.fleets[fleet_id].returning = True  # RSR 8.76 errata: home by the shortest path
            naval.fleets[fleet_id].broke_off = True  # ... and no raiding, whatever a new admiral does to morale
            fleet = naval.fleets[fleet_id]
            if attrition.friendly_port(state.naval_static, state.control, fleet.hex, fleet.side):
                fleet.at_sea = False  # already in its nearest friendly port (interpretations.md, RSR 8.76)
    for fleet_id, dead in sorted(result.admirals_killed.items()):  # RSR 8.75, RSR 19.3
        fleet = naval.fleets[fleet_id]
        if fleet_id in naval.vacant:  # already without an admiral (rules option successor-next-turn)
            continue
        naval.dead_admirals.append(dead)
        if state.options.get(SUCCESSOR_NEXT_TURN):
            _successor_next_turn(ctx, naval, fleet, dead)
            continue
        in_command = sorted(f.admiral for f in naval.fleets.values())
        fleet.admiral, why = succession.successor(state.naval_static, list(state.naval_static.admiral_track),
                                                  state.turn, fleet.side, naval.dead_admirals, in_command,
                                                  naval.reserve, naval.withdrawn)
        if fleet.admiral in naval.reserve:  # RSR 19.3: an admiral waiting without a fleet (admirals.py)
            naval.reserve.remove(fleet.admiral)
        fleet.morale = succession.morale_with(state.naval_static, fleet.morale, dead, fleet.admiral)
        ctx.emit("admiral-succession", f"{fleet_id}: {dead} is dead; {fleet.admiral} takes command: {why}; "
                 f"morale {fleet.morale} (RSR 8.79)", "RSR 19.3", fleet=fleet_id, dead=dead, admiral=fleet.admiral,
                 morale=fleet.morale)
    ctx.emit("naval-battle", "naval battle fought", "RSR 8.0", sunk=list(result.sunk), disabled=list(result.disabled))
