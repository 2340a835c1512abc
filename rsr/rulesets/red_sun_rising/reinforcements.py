"""Reinforcements, replacements and withdrawals (RSR 17.0-17.3), and foreign aid triggers (RSR 18.3)."""

from __future__ import annotations

from typing import Any

from rsr.decisions import Decision, Policy
from rsr.engine import Context
from rsr.errors import RulesError
from rsr.rulesets.red_sun_rising import activation, supply
from rsr.rulesets.red_sun_rising.sequence import STAGES, Go
from rsr.rulesets.red_sun_rising.state import Ask, RsrState, Unit

RAILHEADS = ("3316", "3337")  # RSR 17.0, RSR 17.11: where Russian units and command units appear
FOREIGN_AID_CITIES = {"0220": "Seoul", "0801": "Port Arthur", "2008": "Liaoyang", "2309": "Mukden"}  # RSR 18.3


def start_of_stage(state: RsrState, ctx: Context, side: str) -> None:
    """What the Reinforcement Stage brings before the player decides (RSR 17.11-17.13, RSR 17.22, RSR 17.3)."""
    turn = state.static.turn_info(state.turn)
    if turn is None:
        return
    if side == "russia" and turn.russian_command_points:
        state.command_points += turn.russian_command_points
        ctx.emit("points", f"Russia receives {turn.russian_command_points} command points "
                 f"({state.command_points} in hand)", "RSR 17.13", points=state.command_points)
    if side == "japan" and turn.japanese_replacement_step:
        state.replacement_steps += 1
        ctx.emit("points", f"Japan receives a replacement step ({state.replacement_steps} in hand)", "RSR 17.22",
                 steps=state.replacement_steps)
    for unit_id in turn.withdraw:
        unit = state.units.get(unit_id)
        if unit is None or unit.side != side or unit.steps <= 0:
            continue
        unit.hex, unit.steps = None, 0
        for other in state.units.values():
            if other.assigned_to == unit_id:
                other.assigned_to = None
        ctx.emit("withdrawn", f"{unit_id} is withdrawn; its units must be re-assigned", "RSR 17.3", unit=unit_id)
    for unit_id in turn.arrive:
        counter = state.static.counters.get(unit_id)
        if counter is None or counter.side != side or unit_id in state.units:
            continue
        if side == "russia":
            free = [h for h in RAILHEADS if not state.units_in(h, "japan")] or [RAILHEADS[0]]
            state.units[unit_id] = Unit(unit_id, side, free[0], 1)
            ctx.emit("arrived", f"{unit_id} arrives at {free[0]} (the Reinforcement Stage order may place it at "
                     f"the other railhead instead)", "RSR 17.11", unit=unit_id, hex=free[0])
        else:
            state.units[unit_id] = Unit(unit_id, side, None, 1)
            state.off_map.append(unit_id)
            ctx.emit("arrived", f"{unit_id} arrives in a Japanese home port, awaiting naval transport (7.4)",
                     "RSR 17.11", unit=unit_id, hex=None)


def arrivals_this_stage(state: RsrState, side: str) -> list[str]:
    """Russian command units the Turn Record Track brought in this Reinforcement Stage (RSR 17.11)."""
    turn = state.static.turn_info(state.turn)
    if turn is None or side != "russia":
        return []
    return [u for u in turn.arrive if u in state.units and state.units[u].hex in RAILHEADS
            and state.units[u].side == side and u not in state.moved]


def place_arrivals(state: RsrState, ctx: Context, side: str, places: dict[str, Any]) -> None:
    """RSR 17.11: the Russian player puts each arriving command unit in 3316 or 3337, as he chooses."""
    arrived = arrivals_this_stage(state, side)
    for unit_id, hex_id in sorted(places.items()):
        if unit_id not in arrived:
            raise RulesError(f"{unit_id} is not a command unit arriving this Reinforcement Stage (RSR 17.11)")
        if hex_id not in RAILHEADS:
            raise RulesError(f"{unit_id} arrives in 3316 or 3337 (RSR 17.11), not {hex_id}")
        if state.units_in(str(hex_id), "japan"):
            raise RulesError(f"{hex_id} is held by the enemy")
        unit = state.units[unit_id]
        if unit.hex != hex_id:
            ctx.emit("arrived", f"{unit_id} is placed at {hex_id} instead", "RSR 17.11", unit=unit_id, hex=hex_id)
            unit.hex = str(hex_id)


def build(state: RsrState, ctx: Context, orders: list[Any]) -> None:
    """RSR 17.0, RSR 17.13: the Russian builds new units at 3316 or 3337 for their command value in points."""
    for number, item in enumerate(orders, start=1):
        if not isinstance(item, dict) or set(item) != {"unit", "hex"}:
            raise RulesError(f"build {number}: give unit and hex")
        counter = state.static.counters.get(str(item["unit"]))
        if counter is None or counter.side != "russia" or counter.setup != "build" or counter.command_unit:
            raise RulesError(f"build {number}: {item['unit']} is not a unit Russia can build (RSR 17.0)")
        if counter.id in state.units:
            raise RulesError(f"build {number}: {counter.id} has already been built or was lost for good (RSR 11.54)")
        if item["hex"] not in RAILHEADS:
            raise RulesError(f"build {number}: new units appear in 3316 or 3337 (RSR 17.0), not {item['hex']}")
        if any(u.side == "japan" for u in state.units_in(item["hex"])):
            raise RulesError(f"build {number}: {item['hex']} is held by the enemy")
        cost = counter.full.command
        if cost > state.command_points:
            raise RulesError(f"build {number}: {counter.id} costs {cost} command points, "
                             f"{state.command_points} are left (RSR 17.0)")
        state.command_points -= cost
        state.units[counter.id] = Unit(counter.id, "russia", item["hex"], counter.steps)
        ctx.emit("built", f"Russia builds {counter.id} at {item['hex']} for {cost} command points "
                 f"({state.command_points} left); assign it to a command unit", "RSR 17.0",
                 unit=counter.id, hex=item["hex"])


def rebuild(state: RsrState, ctx: Context, side: str, unit_ids: list[Any]) -> None:
    """RSR 17.2, RSR 17.21-17.22, RSR 11.55: a reduced division stacked with its command unit returns to full strength
    for one command point (Russia) or one replacement step (Japan)."""
    for unit_id in unit_ids:
        unit = state.units.get(str(unit_id))
        counter = state.static.counters.get(str(unit_id))
        if unit is None or counter is None or unit.side != side or not unit.hex or unit.steps != 1 \
                or counter.steps != 2:
            raise RulesError(f"{unit_id} is not a reduced {side} division on the map (RSR 17.2)")
        hq = state.units.get(unit.assigned_to or "")
        if hq is None or hq.hex != unit.hex:
            raise RulesError(f"{unit_id} is not stacked with its command unit (RSR 17.2)")
        if side == "russia":
            if state.command_points < 1:
                raise RulesError(f"no command point left to rebuild {unit_id} (RSR 17.21)")
            state.command_points -= 1
        else:
            if state.replacement_steps < 1:
                raise RulesError(f"no replacement step left to rebuild {unit_id} (RSR 17.22)")
            state.replacement_steps -= 1
        unit.steps = 2
        ctx.emit("rebuilt", f"{unit_id} is rebuilt to full strength", "RSR 17.2", unit=unit_id)


# -- the Reinforcement Stage's order (sequence.REINFORCEMENT; the naval landings before it: step naval-arrivals) ---


def run_assignments(state: RsrState, ctx: Context, side: str) -> Go:
    """RSR 14.0, RSR 17.0-17.2: the phasing player's Reinforcement Stage order (decision ``assignments``)."""
    state.ask = Ask("assignments", side, f"{state.request_base()}/assign")
    return Go.ASKED


def assignment_options(state: RsrState, ask: Ask) -> dict[str, Any]:
    """Every combat unit with its command unit, every command unit, and where arriving command units may go."""
    side = ask.side
    units = {u.id: u.assigned_to for _, u in sorted(state.units.items())
             if u.side == side and u.hex and u.steps > 0 and activation.kind(state, u) == "combat"}
    commands = [u.id for _, u in sorted(state.units.items())
                if u.side == side and u.hex and u.steps > 0 and activation.kind(state, u) != "combat"]
    return {"units": units, "command_units": commands,
            "arrivals": {u: list(RAILHEADS) for u in arrivals_this_stage(state, side)}}


def reinforcement_answer(state: RsrState, ctx: Context, ask: Ask, answer: Any) -> None:
    """The Reinforcement Stage order: where arriving command units go (RSR 17.11, Russia), resupply (RSR 10.14,
    Russia), builds (RSR 17.0), rebuilds (RSR 17.2), assignments (RSR 14.0) last, so new units can be assigned at
    once."""
    side = ask.side
    if side != "russia" and (answer.get("build") or answer.get("resupply") or answer.get("arrive")):
        raise RulesError("only Russia builds units, resupplies fortresses and places arriving command units "
                         "(RSR 17.0, 10.14, 17.11)")
    if not isinstance(answer.get("arrive") or {}, dict):
        raise RulesError("arrive is {command unit: 3316 or 3337}")
    place_arrivals(state, ctx, side, answer.get("arrive") or {})
    if answer.get("resupply"):
        supply.resupply(state, ctx, str(answer["resupply"]))
    build(state, ctx, list(answer.get("build") or []))
    rebuild(state, ctx, side, list(answer.get("rebuild") or []))
    assign(state, ctx, side, answer.get("assign") or {})


def assign(state: RsrState, ctx: Context, side: str, orders: Any) -> None:
    """RSR 14.0: any number of combat units to any command unit of their side."""
    if not isinstance(orders, dict):
        raise RulesError("an assignment answer is {assign: {unit: command unit}}")
    for unit_id, hq_id in sorted(orders.items()):
        unit, hq = state.units.get(unit_id), state.units.get(str(hq_id))
        if unit is None or unit.side != side or not unit.hex or unit.steps <= 0 \
                or activation.kind(state, unit) != "combat":
            raise RulesError(f"{unit_id} is not a {side} combat unit on the map (RSR 14.0)")
        if hq is None or hq.side != side or not hq.hex or hq.steps <= 0 or activation.kind(state, hq) == "combat":
            raise RulesError(f"{hq_id} is not a {side} command unit on the map (RSR 14.0)")
        if unit.assigned_to != hq.id:
            unit.assigned_to = hq.id
            ctx.emit("assigned", f"{unit_id} is assigned to {hq.id}", "RSR 14.0", unit=unit_id, command=hq.id)


ASSIGNMENTS = Decision(
    "assignments", "t{turn}/{side}/reinforcement/assign", "RSR 14.0", "the phasing player",
    prompt=lambda state, ask: f"{STAGES[state.stage_key()].name}: assign or re-assign combat units to command "
                              "units; builds, rebuilds, resupply and where arriving command units are placed",
    options=assignment_options,
    template=lambda state, ask: {"assign": {}},
    policy=Policy("assignments", ("keep", "ask"), default="ask",
                  answer=lambda state, ask, request, rule: {"assign": {}} if rule == "keep" else None),
    schema={"type": "object", "propertyNames": {"enum": ["assign", "build", "rebuild", "resupply", "arrive"]}},
    shape="a reinforcement order is {assign: {...}, build: [...], rebuild: [...], resupply: hex, "
          "arrive: {command unit: 3316 or 3337}}",
    apply=reinforcement_answer)


def check_foreign_aid(state: RsrState, ctx: Context) -> None:
    """RSR 18.3: note each achievement that earns Japan a merchant fleet (the naval game places it)."""
    earned = []
    if "rail" not in state.foreign_aid and any(
        u.side == "japan" and u.hex in state.static.rail_hexes and u.steps > 0
        and activation.kind(state, u) == "combat" for u in state.units.values()
    ):
        earned.append(("rail", "a Japanese unit first occupies a rail hex"))
    for hex_id, name in sorted(FOREIGN_AID_CITIES.items()):
        if hex_id not in state.foreign_aid and state.control.get(hex_id) == "japan":
            earned.append((hex_id, f"Japan captures {name}"))
    for key, text in earned:
        state.foreign_aid.append(key)
        ctx.emit("foreign-aid", f"foreign aid: {text}; a merchant fleet is due in a home port in the next "
                 "Japanese Reinforcement Stage", "RSR 18.3", achievement=key)
