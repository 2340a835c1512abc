"""Chain-of-command activation (RSR 9.0-9.18, RSR 4.23), with RSR 18.7, RSR 18.81 and RSR 18.9."""

from __future__ import annotations

from dataclasses import dataclass, field

from rsr.engine import Context
from rsr.rulesets.red_sun_rising.state import RsrState, Unit
from rsr.rulesets.red_sun_rising.terrain import command_radius_cost

SEASON_MODIFIER = {"winter": 2, "spring": 1, "autumn": 1, "summer": 0}  # RSR 9.17


def season(state: RsrState) -> str:
    turn = state.static.turn_info(state.turn)
    return turn.season if turn else "summer"


def month(state: RsrState) -> str:
    turn = state.static.turn_info(state.turn)
    return turn.month if turn else "?"


def command_value(state: RsrState, unit: Unit) -> int:
    """A unit's command value; the Port Arthur command uses whoever commands it this turn (RSR 18.7)."""
    acting = state.acting_commander.get(unit.id, unit.id)
    return state.static.counter(acting).values(unit.steps).command


def kind(state: RsrState, unit: Unit) -> str:
    counter = state.static.counter(unit.id)
    return counter.type if counter.command_unit else "combat"


def supreme_hq(state: RsrState, side: str) -> Unit | None:
    shqs = [u for _, u in sorted(state.units.items())
            if u.side == side and u.hex and u.steps > 0 and kind(state, u) == "shq"]
    return shqs[0] if shqs else None


def direct_superior(state: RsrState, unit: Unit) -> Unit | None:
    """RSR 9.0, RSR 9.16: the SHQ is superior to army HQs; a combat unit's is the command unit it is assigned to."""
    if kind(state, unit) == "shq":
        return None
    if kind(state, unit) == "army":
        return supreme_hq(state, unit.side)
    superior = state.units.get(unit.assigned_to or "")
    return superior if superior and superior.hex and superior.steps > 0 else None


def february_1904(state: RsrState) -> bool:
    return month(state) == "1904-02"


def february_surprise(state: RsrState, ctx: Context) -> None:
    """RSR 18.81: in February 1904 every Japanese combat and command unit on the land map is activated,
    whether or not the player lists it in his movement order; nobody rolls."""
    if not february_1904(state):
        return
    for _, unit in sorted(state.units.items()):
        if unit.side != "japan" or not unit.hex or unit.steps <= 0 or unit.activated:
            continue
        unit.activated = True
        if unit.id not in state.attempted:
            state.attempted.append(unit.id)
        ctx.emit("activation", f"{unit.id} is activated without a roll in February 1904", "RSR 18.81",
                 unit=unit.id, activated=True)


@dataclass
class Response:
    """A response value and how it was made up, for the report (RSR 9.11)."""

    value: int
    parts: list[str] = field(default_factory=list)
    may_attempt: bool = True
    reason: str = ""


def response_value(state: RsrState, unit: Unit) -> Response:
    """RSR 9.11-9.16, RSR 18.9: own command value, plus the superior's when in its command control."""
    counter = state.static.counter(unit.id)
    own = command_value(state, unit)
    superior = direct_superior(state, unit)
    if kind(state, unit) == "combat":
        if unit.assigned_to is None:
            return Response(0, may_attempt=False, reason="not assigned to a command unit (RSR 14.0)")
        if superior is None or not superior.activated:
            name = unit.assigned_to
            return Response(0, may_attempt=False, reason=f"its command unit {name} is not activated (RSR 9.13, 9.16)")
        if counter.type == "siege-artillery":
            value = command_value(state, superior)
            return Response(value, [f"siege artillery: {superior.id}'s command value {value} (RSR 18.9)"])
    elif kind(state, unit) == "army":
        if superior is None or not superior.activated:
            why = "no supreme HQ on the map" if superior is None else f"{superior.id} is not activated"
            return Response(own, [f"command {own}", f"no SHQ bonus: {why} (RSR 9.14)"])
    else:
        return Response(own, [f"command {own}"])
    assert superior is not None
    radius = command_radius_cost(state, unit.side, superior.hex or "", unit.hex or "")
    if radius is None:
        return Response(own, [f"command {own}", f"out of {superior.id}'s command radius (RSR 9.15, 9.18)"])
    bonus = command_value(state, superior)
    return Response(own + bonus, [f"command {own}", f"+{bonus} {superior.id} within {radius} MP (RSR 9.11, 9.18)"])


def port_arthur_follies(state: RsrState, ctx: Context, unit: Unit) -> None:
    """RSR 18.7: before the Port Arthur command activates, a die says who commands it this turn."""
    alternates = [c for c in state.static.counters.values() if c.alternate_for == unit.id]
    if not alternates or unit.id in state.acting_commander:
        return
    roll = ctx.roll(6, f"Port Arthur Follies: who commands {unit.id} this turn, RSR 18.7")
    if roll == 6:
        state.acting_commander[unit.id] = alternates[0].id
        ctx.emit("commander", f"{alternates[0].name} commands the Port Arthur HQ this turn (die 6)", "RSR 18.7",
                 unit=unit.id, commander=alternates[0].id)
    else:
        state.acting_commander[unit.id] = unit.id
        ctx.emit("commander", f"{state.static.counter(unit.id).name} commands the Port Arthur HQ this turn "
                 f"(die {roll})", "RSR 18.7", unit=unit.id, commander=unit.id)


def attempt_activation(state: RsrState, ctx: Context, unit: Unit) -> bool:
    """RSR 9.11: activated when the die, plus the season (RSR 9.17), is at most the response value."""
    state.attempted.append(unit.id)
    if unit.side == "japan" and february_1904(state):
        unit.activated = True
        ctx.emit("activation", f"{unit.id} is activated without a roll in February 1904", "RSR 18.81",
                 unit=unit.id, activated=True)
        return True
    if kind(state, unit) == "army":
        port_arthur_follies(state, ctx, unit)
    response = response_value(state, unit)
    if not response.may_attempt:
        ctx.emit("activation", f"{unit.id} may not attempt to activate: {response.reason}", "RSR 9.13",
                 unit=unit.id, activated=False)
        return False
    modifier = SEASON_MODIFIER[season(state)]
    die = ctx.roll(6, f"activation of {unit.id}, response {response.value}, RSR 9.11")
    total = die + modifier
    unit.activated = total <= response.value
    season_text = f" + {modifier} {season(state)} (RSR 9.17)" if modifier else ""
    ctx.emit("activation",
             f"{unit.id}: die {die}{season_text} = {total} against response {response.value} "
             f"({'; '.join(response.parts)}): {'activated' if unit.activated else 'fails'}",
             "RSR 9.11", unit=unit.id, die=die, modifier=modifier, total=total, response=response.value,
             parts=response.parts, activated=unit.activated)
    return unit.activated
