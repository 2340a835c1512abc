"""Ships in port: repair, capture, disbandment (RSR 18.1, RSR 18.2, RSR 18.5), morale in port (RSR 8.78)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rsr.decisions import Decision, Policy
from rsr.engine import Context, Request
from rsr.errors import RulesError
from rsr.rulesets.red_sun_rising.naval.attrition import friendly_port
from rsr.rulesets.red_sun_rising.naval.state import NavalAsk, NavalState, on_map_fleets
from rsr.rulesets.red_sun_rising.state import Unit

if TYPE_CHECKING:  # (a type only: the land game imports this module for its policy, start-up)
    from rsr.rulesets.red_sun_rising.naval.data import NavalStatic

DISBAND_POINTS = 25   # RSR 18.5
MAX_BRIGADES = 2      # RSR 18.5


def repair(ctx: Context, static: NavalStatic, naval: NavalState, control: dict[str, str]) -> None:
    """RSR 18.1: a disabled ship repairs after as many turns in a friendly port as its defense strength."""
    resting: list[str] = []
    for fleet in [naval.fleets[f] for f in sorted(naval.fleets)]:
        if not fleet.moved and friendly_port(static, control, fleet.hex, fleet.side):
            resting += fleet.ships
    resting += [s for s, h in sorted(naval.in_port.items())
                if friendly_port(static, control, h, static.ship(s).side)]  # RSR 7.73: left in port to repair
    for ship_id in [s for s in resting if s in naval.disabled and s not in naval.unrepairable]:
        naval.repairs[ship_id] = naval.repairs.get(ship_id, 0) + 1
        ship = static.ship(ship_id)
        if naval.repairs[ship_id] >= ship.defense:
            naval.disabled.remove(ship_id)
            del naval.repairs[ship_id]
            ctx.emit("repair", f"{ship.name} is repaired after {ship.defense} turns in port", "RSR 18.1",
                     ship=ship_id)
        else:
            ctx.emit("repair", f"{ship.name}: {naval.repairs[ship_id]} of {ship.defense} turns of repair", "RSR 18.1",
                     ship=ship_id, turns=naval.repairs[ship_id])


def port_owner(control: dict[str, str], land_hex: str, printed: str) -> str:
    """Who holds a port: the side controlling its land-map city (RSR 19.4), else the side the map prints."""
    return control.get(land_hex, printed)


def moor(static: NavalStatic, naval: NavalState, control: dict[str, str], at_setup: bool = False) -> None:
    """RSR 18.2: note, for each fleet on its in-Port side, the friendly ports of its hex it lies in (at set-up
    also the ports the map prints as its own); a fleet at sea lies in none."""
    for fleet in [naval.fleets[f] for f in sorted(naval.fleets)]:
        if fleet.at_sea or fleet.arrives:
            fleet.in_port = []
            continue
        fleet.in_port = sorted(str(p.land_hex) for p in static.ports_in(fleet.hex) if p.land_hex and (
            port_owner(control, str(p.land_hex), p.friendly) == fleet.side or (at_setup and p.friendly == fleet.side)))


def capture(ctx: Context, static: NavalStatic, naval: NavalState, control: dict[str, str]) -> None:
    """RSR 18.2: a fleet whose port the enemy has taken is removed with all its ships, for either side: the
    ports it lay in (:func:`moor`) are all held by the enemy now."""
    for fleet in [naval.fleets[f] for f in sorted(naval.fleets)]:
        if fleet.at_sea or not fleet.in_port:
            continue
        printed = {str(p.land_hex): p for p in static.ports_in(fleet.hex) if p.land_hex}
        lost = [h for h in fleet.in_port if h in printed
                and port_owner(control, h, printed[h].friendly) != fleet.side]
        if lost and len(lost) == len(fleet.in_port):
            naval.sunk += [s for s in fleet.ships if s not in naval.sunk]
            del naval.fleets[fleet.id]
            ctx.emit("fleet-captured", f"{fleet.id} is captured in {printed[lost[0]].name}", "RSR 18.2",
                     fleet=fleet.id, hex=lost[0])


def disband(ctx: Context, state: Any, naval: NavalState, fleet_id: str, ships: list[str]) -> str:
    """RSR 18.5: permanently disable 25 defense points of ships in a port for a naval brigade there."""
    static: NavalStatic = state.naval_static
    fleet = naval.fleets.get(fleet_id)
    if fleet is None or fleet.side != "russia":
        raise RulesError(f"{fleet_id} is not a Russian fleet (RSR 18.5)")
    ports = [p for p in static.ports_in(fleet.hex) if p.land_hex and friendly_port(static, state.control, fleet.hex,
                                                                                      "russia")]
    if not ports:
        raise RulesError(f"{fleet_id} is not in a Russian port (RSR 18.5)")
    if naval.naval_brigades >= MAX_BRIGADES:
        raise RulesError("at most two naval brigades (RSR 18.5)")
    if set(ships) - set(fleet.ships) or set(ships) & set(naval.unrepairable) or set(ships) & set(naval.sunk):
        raise RulesError(f"only ships of {fleet_id} not already disbanded may be disbanded (RSR 18.5)")
    points = sum(static.ship(s).defense for s in ships)
    if points < DISBAND_POINTS:
        raise RulesError(f"{points} defense points; a naval brigade needs {DISBAND_POINTS} (RSR 18.5)")
    naval.naval_brigades += 1
    brigade = f"ru-nb{naval.naval_brigades}"
    for ship_id in ships:
        naval.unrepairable.append(ship_id)
        if ship_id not in naval.disabled:
            naval.disabled.append(ship_id)
        naval.repairs.pop(ship_id, None)
    land_hex = str(ports[0].land_hex)
    unit = state.units[brigade]
    unit.hex, unit.steps = land_hex, 1
    ctx.emit("naval-brigade", f"{points} defense points of {fleet_id} disabled for good: {brigade} forms in "
             f"{land_hex}", "RSR 18.5", fleet=fleet_id, ships=list(ships), unit=brigade, hex=land_hex)
    return brigade


# -- the decision: the Russian Reinforcement Stage's naval brigades (RSR 18.5) ---------------------------------

def disband_options(state: Any) -> dict[str, list[str]]:
    """RSR 18.5: each Russian fleet in a friendly port with 25 defense points of ships it may disable."""
    naval: NavalState = state.naval
    static: NavalStatic = state.naval_static
    fleets = {f.id: [s for s in f.ships if s not in naval.unrepairable and s not in naval.sunk]
              for f in on_map_fleets(naval, "russia") if friendly_port(static, state.control, f.hex, "russia")}
    return {f: s for f, s in fleets.items() if sum(static.ship(x).defense for x in s) >= DISBAND_POINTS}


def disband_ask(state: Any, base: str) -> NavalAsk | None:
    """RSR 18.5: asked once in the Russian Reinforcement Stage while a brigade may still be formed."""
    naval: NavalState | None = state.naval
    if naval is None or naval.disband_done or naval.naval_brigades >= MAX_BRIGADES or not disband_options(state):
        return None
    return NavalAsk("naval-disband", "russia", f"{base}/disband")


def embarked_unit(unit_id: str, counter: Any) -> Unit:
    """A land unit off the land map, just formed (RSR 18.5) or on a merchant fleet (RSR 7.4)."""
    return Unit(id=unit_id, side=counter.side, hex=None, steps=counter.steps)


def form_brigades(state: Any, ctx: Context, answer: Any, unit_factory: Callable[[str, Any], Any]) -> None:
    """RSR 18.5: each fleet named disables its ships and forms the next naval brigade."""
    if not isinstance(answer, dict) or not isinstance(answer.get("disband", {}), dict) or set(answer) - {"disband"}:
        raise RulesError("a disbandment answer is {disband: {fleet: [ship ids]}}")
    for fleet_id, ships in sorted(answer.get("disband", {}).items()):
        brigade = f"ru-nb{state.naval.naval_brigades + 1}"
        if brigade not in state.units:
            state.units[brigade] = unit_factory(brigade, state.static.counter(brigade))
        disband(ctx, state, state.naval, fleet_id, [str(s) for s in ships])
    state.naval.disband_done = True


def _by_policy(state: Any, ask: Any, request: Request, rule: Any) -> Any:
    return {"disband": {}} if rule == "never" else None


DISBAND = Decision(
    kind="naval-disband", ids="t<turn>/russia/reinforcement/disband", case="RSR 18.5",
    who="the Russian, in his Reinforcement Stage, with 25 defense points of ships in a friendly port",
    prompt=lambda state, ask: ("Russian Reinforcement Stage: disable 25 defense points of ships in port for a naval "
                               "brigade?"),
    options=lambda state, ask: {"fleets": disband_options(state)}, template=lambda state, ask: {"disband": {}},
    policy=Policy("disband", ("never", "ask"), _by_policy, default="never"),
    apply=lambda state, ctx, ask, answer: form_brigades(state, ctx, answer, embarked_unit),
    schema={"type": "object", "additionalProperties": False, "properties": {"disband": {"type": "object"}}},
    shape="a disbandment answer is {disband: {fleet: [ship ids]}}")
