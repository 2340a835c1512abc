"""Retreats (RS/RS 6.7-6.72, RS/RS 8.4) and advance after combat (RS/RS 6.8-6.84).

A retreat path is counted in hexes; each hex of it must lie one hex further from the hex the retreat
started in (our reading of "away from the enemy", interpretations.md RS/RS 6.7). A unit on a map edge may go off
the map (RS/RS 6.72). Among the paths the rules allow, the legal ones are those that avoid an unbridged Halha
crossing that would destroy a unit (RS/RS 6.71, RS/RS 6.72), then enter the fewest enemy zones of control (RS/RS 8.4),
then stay on the map if they can, then end within the stacking limit if they can; the owner picks among those
(policy ``retreat``; ``auto`` takes the fewest losses, then the path ending nearest a friendly supply source,
RS/RS 6.71's "as directly as possible", which is a preference and never a filter, then hex numbers).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rsr.decisions import Decision, Policy
from rsr.engine import Context
from rsr.errors import RulesError
from rsr.hexgrid import hexside
from rsr.rulesets.red_star import stacking
from rsr.rulesets.red_star.losses import eliminate, lose_factors
from rsr.rulesets.red_star.state import OFF_MAP, Ask, Combat, RsState, Unit, enemy_of
from rsr.rulesets.red_star.terrain import (
    bridge_exists,
    current,
    distance_to_sources,
    occupied,
    unbridged_halha,
    unbridged_minor_river,
    zone_of_control,
)

OFF = "off"  # a retreat path's last step off the map edge (RS/RS 6.72)


@dataclass(frozen=True)
class RetreatPath:
    hexes: tuple[str, ...]
    zoc: int             # vacant enemy zones of control entered (RS/RS 8.4)
    fatal: int           # crossings that eliminate a non-Leg unit (RS/RS 6.72)
    off_map: bool
    distance: int        # to the nearest friendly supply source at the end (RS/RS 6.71)
    losses: int          # steps the stack will lose (RS/RS 6.72, RS/RS 8.4)
    overstack: int = 0   # 1 if the stack would end over the stacking limit (RS/RS 6.71)

    def rank(self) -> tuple[int, int, int, int]:
        """What the rules decide (RS/RS 6.71, RS/RS 6.72, RS/RS 8.4); the owner chooses among paths of equal rank.

        The distance to a friendly supply source is not part of it: RS/RS 6.71 says units *should* retreat as
        directly as possible toward such an edge, a preference the owner weighs, never a filter.
        """
        return (self.fatal, self.zoc, int(self.off_map), self.overstack)

    def key(self) -> tuple[int, int, int, int, int, int, tuple[str, ...]]:
        """Policy ``retreat: auto``: the legal path with the fewest losses, then the most direct toward a
        friendly supply source (RS/RS 6.71), then the lowest hex numbers."""
        return (*self.rank(), self.losses, self.distance, self.hexes)


def _classes(state: RsState, units: list[Unit]) -> set[str]:
    return {state.counter(u.id).cls for u in units}


def retreat_paths(state: RsState, side: str, units: list[Unit], start: str, length: int,
                  retreated: list[str]) -> list[RetreatPath]:
    """Every path of ``length`` hexes a stack may take, scored (RS/RS 6.7-6.72, RS/RS 8.4)."""
    grid = state.static.grid
    enemy = enemy_of(side)
    enemy_hexes = occupied(state, enemy)
    zoc = zone_of_control(state, enemy)
    holders = {u.hex for u in state.on_map(side) if u.id not in retreated and u.hex}
    classes = _classes(state, units)
    legs = sum(1 for u in units if state.counter(u.id).cls == "Leg")
    found: list[RetreatPath] = []

    ids = [u.id for u in units]

    def extend(path: tuple[str, ...], here: str, zocs: int, fatal: int, losses: int) -> None:
        if len(path) == length:
            occupants = [u.id for u in state.units_in(here, side) if u.id not in ids]
            over = int(stacking.legal(state, side, occupants + ids) is not None)
            found.append(RetreatPath(path, zocs, fatal, False, distance_to_sources(state, side, here), losses, over))
            return
        options = [h for h in state.static.neighbours(here)
                   if h in state.static.terrain and grid.distance(start, h) == len(path) + 1]
        if path and state.static.edge_of(here):
            found.append(RetreatPath(path + (OFF,), zocs, fatal, True, 0, losses))
        for there in options:
            if there in enemy_hexes:
                continue
            z, f, loss = zocs, fatal, losses
            if unbridged_halha(state, here, there):
                if classes - {"Leg"}:
                    f += 1
                loss += legs
            if unbridged_minor_river(state, here, there) and classes & {"Armor", "Weapons"}:
                loss += 1
            if there in zoc and there not in holders:
                z += 1
                loss += 1
            extend(path + (there,), there, z, f, loss)

    extend((), start, 0, 0, 0)
    if state.static.edge_of(start):
        found.append(RetreatPath((OFF,), 0, 0, True, 0, 0))
    return sorted(found, key=lambda p: p.key())


def legal_paths(paths: list[RetreatPath]) -> list[RetreatPath]:
    """The paths the owner may choose among (RS/RS 6.71, RS/RS 6.72, RS/RS 8.4): no avoidable crossing of the Halha
    that would destroy a unit, then the fewest enemy zones of control, off the map only when nothing better is left,
    within the stacking limit when possible. How directly a path heads for a friendly supply source (RS/RS 6.71) is the
    owner's preference, not a filter."""
    if not paths:
        return []
    best = min(p.rank() for p in paths)
    return [p for p in paths if p.rank() == best]


def stack_losses(state: RsState, side: str, units: list[Unit], path: tuple[str, ...],
                 retreated: list[str]) -> list[str]:
    """The units among which the owner chooses who takes a stack's step loss on ``path`` (RS/RS 8.4: an Armor
    or Leg unit for each vacant enemy zone of control entered; RS/RS 6.72: an Armor or Weapons unit for an unbridged
    minor river), when there is a choice (two or more such units); else an empty list."""
    zoc = zone_of_control(state, enemy_of(side))
    holders = {u.hex for u in state.on_map(side) if u.id not in retreated and u.hex}
    here = units[0].hex or ""
    wanted: set[str] = set()
    for there in path:
        if there == OFF:
            break
        if unbridged_minor_river(state, here, there):
            wanted |= {"Armor", "Weapons"}
        if there in zoc and there not in holders:
            wanted |= {"Armor", "Leg"}
        here = there
    able = [u.id for u in units if state.counter(u.id).cls in wanted]
    return able if len(able) > 1 else []


def interdicted_bridge(state: RsState, side: str, here: str, there: str) -> str | None:
    """RS/RS 6.72: the hex holding an enemy interdiction marker at a bridge the retreat crosses from ``here`` to
    ``there``, or None. With a marker on both sides the hex entered counts (our reading: one roll per crossing,
    interpretations.md RS/RS 6.72)."""
    if there == OFF or not state.static.grid.adjacent(here, there) or not bridge_exists(state, hexside(here, there)):
        return None
    markers = state.interdiction.get(enemy_of(side), {})
    for hex_id in (there, here):
        if hex_id in markers:
            return hex_id
    return None


def bridge_exposed(state: RsState, side: str, units: list[Unit], path: tuple[str, ...]) -> list[str]:
    """The units of a retreating stack whose path crosses an enemy-interdicted bridge (RS/RS 6.72), when there
    are two or more of them (the enemy then chooses who takes the losses); else an empty list."""
    here = units[0].hex or ""
    for there in path:
        if there == OFF:
            break
        if interdicted_bridge(state, side, here, there):
            return sorted(u.id for u in units) if len(units) > 1 else []
        here = there
    return []


def interdiction_losses(state: RsState, ctx: Context, moving: list[Unit], here: str, there: str,
                        order: list[str] | None) -> None:
    """RS/RS 6.72 with RS/RS 5.22: a retreat over an interdicted bridge stops in the interdicted hex for an
    Interdiction Table roll; the result is the stack's step losses, taken in the interdicting player's order
    (a unit is eliminated before the next one loses anything); the survivors go on."""
    from rsr.rulesets.red_star import artillery

    side = moving[0].side
    hex_id = interdicted_bridge(state, side, here, there)
    if hex_id is None:
        return
    steps = artillery.interdiction_roll(state, ctx, side, hex_id, [u.id for u in moving], False, retreat=True)
    if steps <= 0:
        return
    ranking = order or default_loss_order(state, [u.id for u in moving], "most-factors")
    ordered = sorted(moving, key=lambda u: (ranking.index(u.id) if u.id in ranking else len(ranking), u.id))
    lose_factors(state, ctx, ordered, steps, f"retreat over the interdicted bridge {hexside(here, there)}",
                 "RS/RS 6.72")


def execute(state: RsState, ctx: Context, combat: Combat | None, units: list[Unit], path: tuple[str, ...],
            marker: int, retreated: list[str], loss_order: list[str] | None = None,
            interdiction_order: list[str] | None = None) -> None:
    """Carry a stack along its retreat path (RS/RS 6.7-6.72, RS/RS 8.4) and mark it (RS/RS 6.62)."""
    side = units[0].side
    enemy = enemy_of(side)
    zoc = zone_of_control(state, enemy)
    holders = {u.hex for u in state.on_map(side) if u.id not in retreated and u.hex}
    start = units[0].hex or ""
    here = start
    moving = list(units)
    entered: list[str] = []
    for there in path:
        if there == OFF:
            for unit in moving:
                unit.status = OFF_MAP
                unit.exit_hex = here
                unit.hex = None
                unit.arrives = state.player_turn
                ctx.emit("off-map", f"{unit.id} retreats off the map from {here}; it returns next player turn",
                         "RS/RS 6.72", unit=unit.id, hex=here)
            moving = []
            break
        bridge_hit = interdicted_bridge(state, side, here, there) if moving else None  # RS/RS 6.72
        if bridge_hit == here:  # the marker is on this side: the stack rolls before it crosses
            interdiction_losses(state, ctx, moving, here, there, interdiction_order)
            moving = [u for u in moving if u.on_map]
            if not moving:
                break
        if unbridged_halha(state, here, there):
            for unit in list(moving):
                if state.counter(unit.id).cls == "Leg":
                    lose_factors(state, ctx, [unit], 1, f"retreat across the Halha {here}-{there}", "RS/RS 6.72")
                else:
                    eliminate(state, ctx, unit, f"cannot retreat across the Halha {here}-{there}", "RS/RS 6.72")
            moving = [u for u in moving if u.on_map]
        if unbridged_minor_river(state, here, there):
            hit = [u for u in moving if state.counter(u.id).cls in ("Armor", "Weapons")]
            if hit:
                lose_factors(state, ctx, [_loss_choice(state, hit, loss_order)], 1,
                             f"retreat across the minor river {here}-{there}", "RS/RS 6.72")
                moving = [u for u in moving if u.on_map]
        if there in zoc and there not in holders and moving:
            fighters = [u for u in moving if state.counter(u.id).cls in ("Armor", "Leg")]
            if fighters:
                lose_factors(state, ctx, [_loss_choice(state, fighters, loss_order)], 1,
                             f"retreat through the enemy zone of control in {there}", "RS/RS 8.4")
            else:
                for unit in list(moving):
                    eliminate(state, ctx, unit, f"Weapons/HQ stack retreating into the enemy zone of control in "
                              f"{there}", "RS/RS 8.4")
            moving = [u for u in moving if u.on_map]
        for unit in moving:
            unit.hex = there
        entered.append(there)
        if bridge_hit == there and moving:  # the stack stops in the interdicted hex it has entered to roll
            interdiction_losses(state, ctx, moving, here, there, interdiction_order)
            moving = [u for u in moving if u.on_map]
        mark_victory(state, there, side, moving)
        here = there
    for unit in moving:
        if marker and unit.disruption < marker:
            unit.disruption = marker
        retreated.append(unit.id)
    if moving:
        ctx.emit("retreat", f"{', '.join(u.id for u in moving)} retreat {' -> '.join([start, *entered])}"
                 + (f" with a \"{marker}\" marker" if marker else ""), "RS/RS 6.7",
                 units=[u.id for u in moving], frm=start, path=entered, marker=marker,
                 combat=combat.id if combat else None)
        overstack(state, ctx, here, side, [u.id for u in moving], "RS/RS 6.71")


def _loss_choice(state: RsState, units: list[Unit], order: list[str] | None) -> Unit:
    """The unit of a stack that takes a stack's step loss: the owner's choice (RS/RS 8.4), given as an order of
    preference (request ``retreat-losses``); units he did not list come after, fewest factors first."""
    ranking = order or []
    return min(units, key=lambda u: (ranking.index(u.id) if u.id in ranking else len(ranking),
                                     current(state, u), u.id))


def default_loss_order(state: RsState, unit_ids: list[str], rule: str) -> list[str]:
    """Policy ``retreat-losses``: ``fewest-factors`` (the default) or ``most-factors`` first, then unit id."""
    sign = -1 if rule == "most-factors" else 1
    return sorted(unit_ids, key=lambda u: (sign * current(state, state.units[u]), u))


def overstack(state: RsState, ctx: Context, hex_id: str, side: str, newcomers: list[str], case: str) -> None:
    """RS/RS 4.11, RS/RS 6.71, RS/RS 6.82, RS/RS 9.0: units that end over the stacking limit go beneath a "2" marker.

    Which of the newcomers are the excess is the owner's choice (RS/RS 4.11): when more than one choice is possible
    the game asks (request ``overstack``, policy default ``newest``); otherwise the markers go on at once.
    """
    present = [u.id for u in state.units_in(hex_id, side)]
    marked = stacking.excess(state, side, present, newcomers)
    if not marked:
        return
    candidates = [u for u in newcomers if u in present and stacking.counts(state, u)]
    if len(candidates) <= len(marked):
        mark(state, ctx, hex_id, marked, case)
        return
    state.marks_asked += 1
    state.marks.append({"id": f"t{state.turn}/overstack{state.marks_asked}", "hex": hex_id, "side": side,
                        "units": candidates, "default": marked, "case": case})
    ask_marks(state)


def ask_marks(state: RsState) -> None:
    """Put the next waiting "2"-marker choice to its owner (RS/RS 4.11)."""
    from rsr.rulesets.red_star.state import Ask

    if state.ask is None and state.marks:
        pending = state.marks[0]
        state.ask = Ask("overstack", pending["side"], pending["id"], dict(pending))


def mark(state: RsState, ctx: Context, hex_id: str, unit_ids: list[str], case: str) -> None:
    for unit_id in sorted(unit_ids):
        state.units[unit_id].disruption = 2
        ctx.emit("overstacked", f"{unit_id} ends over the stacking limit in {hex_id}: \"2\" marker", case,
                 unit=unit_id, hex=hex_id)


def check_marks(state: RsState, pending: dict[str, Any], answer: Any) -> list[str]:
    """RS/RS 4.11, RS/RS 9.0: the owner's excess units: some of the newcomers, leaving the hex within the limit,
    and none that could stay without breaking it."""
    units = answer.get("units") if isinstance(answer, dict) and set(answer) == {"units"} else None
    if not isinstance(units, list) or not all(isinstance(u, str) for u in units):
        raise RulesError("an overstack answer is {units: [unit ids]}: the units beneath a \"2\" marker (RS/RS 4.11)")
    side = pending["side"]
    present = [u.id for u in state.units_in(pending["hex"], side)]
    for unit_id in units:
        if unit_id not in pending["units"]:
            raise RulesError(f"{unit_id} is not one of the units that arrived in {pending['hex']} "
                             f"({', '.join(pending['units'])}) (RS/RS 4.11)")
    rest = [u for u in present if u not in units]
    problem = stacking.legal(state, side, rest)
    if problem:
        raise RulesError(f"{pending['hex']} stays over the limit: {problem}")
    for unit_id in units:
        if stacking.legal(state, side, rest + [unit_id]) is None:
            raise RulesError(f"{unit_id} may stay in {pending['hex']} within the limit; only excess units go "
                             "beneath a \"2\" (RS/RS 4.11)")
    return sorted(set(units))


def mark_victory(state: RsState, hex_id: str, side: str, units: list[Unit]) -> None:
    """RS/RS 13.1: the last side whose unit occupies or passes through a victory hex holds its points."""
    if hex_id in state.static.victory_points and units:
        state.victory_hexes[hex_id] = side


# -- advance after combat ------------------------------------------------------------------------------------

def advance_units(state: RsState, combat: Combat) -> list[Unit]:
    """RS/RS 6.8: attackers still in place, except Weapons units (and units under a "2" marker, which may not
    move at all, RS/RS 5.7)."""
    from rsr.rulesets.red_star.combat import members

    return [u for u in members(state, combat, "attacker")
            if state.counter(u.id).cls != "Weapons" and u.disruption < 2]


def check_advance(state: RsState, combat: Combat, unit_ids: list[str], path: list[str]) -> str | None:
    """Why an advance is not allowed (RS/RS 6.81-6.84), or None. Each unit enters the vacated hex from its
    own hex; the rest of the path is taken together."""
    eligible = {u.id for u in advance_units(state, combat)}
    for unit_id in unit_ids:
        if unit_id not in eligible:
            return f"{unit_id} may not advance (RS/RS 6.8)"
    if not path or not unit_ids:
        return None
    if path[0] != combat.hex:
        return f"an advance enters the vacated hex {combat.hex} first (RS/RS 6.81)"
    if len(path) > combat.advance_hexes:
        return f"the advance may go {combat.advance_hexes} hex(es) (RS/RS 6.81)"
    side = combat.attacker
    enemy_hexes = occupied(state, enemy_of(side))
    zoc = zone_of_control(state, enemy_of(side))
    friendly = occupied(state, side)
    grid = state.static.grid
    legs_only = all(state.counter(u).cls == "Leg" for u in unit_ids)
    steps = [(state.units[u].hex or "", path[0]) for u in unit_ids]
    steps += list(zip(path, path[1:], strict=False))
    for here, there in steps:
        if not grid.adjacent(here, there):
            return f"{there} is not adjacent to {here} (RS/RS 6.81)"
        if there in enemy_hexes:
            return f"{there} holds enemy units (RS/RS 6.81)"
        side_id = hexside(here, there)
        features = state.static.features.get(side_id, ())
        if "halha" in features and not bridge_exists(state, side_id):
            return f"an advance crosses the Halha only on a bridge ({side_id}, RS/RS 6.84)"
        if "minor-river" in features and not bridge_exists(state, side_id) and not legs_only:
            return f"only Leg units advance across a minor river ({side_id}, RS/RS 6.84)"
    for there in path[1:-1]:
        if there in zoc and there not in friendly:
            return f"the advance must stop in {there}, an enemy zone of control (RS/RS 6.83)"
    return None


def stop_in_zoc(state: RsState, combat: Combat, path: list[str]) -> list[str]:
    """RS/RS 6.83: after the vacated hex, an advance stops in the first vacant enemy zone of control."""
    zoc = zone_of_control(state, enemy_of(combat.attacker))
    friendly = occupied(state, combat.attacker)
    for index, hex_id in enumerate(path[1:], start=1):
        if hex_id in zoc and hex_id not in friendly:
            return path[: index + 1]
    return path


def default_advance(state: RsState, combat: Combat) -> list[str]:
    """Policy ``advance: into-hex``: eligible attackers, strongest first, into the vacated hex while the hex
    stays within the stacking limit (docs/red-star/orders.md)."""
    chosen: list[str] = []
    for unit in sorted(advance_units(state, combat), key=lambda u: (-current(state, u), u.id)):
        if check_advance(state, combat, [unit.id], [combat.hex]) is not None:
            continue
        if stacking.legal(state, combat.attacker, chosen + [unit.id]) is None:
            chosen.append(unit.id)
    return chosen


def execute_advance(state: RsState, ctx: Context, combat: Combat, unit_ids: list[str], path: list[str]) -> None:
    """RS/RS 6.8-6.82: move the advancing units; an overstacked end puts them beneath a "2" marker."""
    if not unit_ids:
        ctx.emit("advance", f"no advance into {combat.hex}", "RS/RS 6.8", combat=combat.id, units=[])
        return
    units = [state.units[u] for u in unit_ids]
    frm = {u.id: u.hex for u in units}
    for there in path or [combat.hex]:
        for unit in units:
            unit.hex = there
        mark_victory(state, there, combat.attacker, units)
    end = units[0].hex or combat.hex
    for unit in units:
        ctx.emit("advance", f"{unit.id} advances {frm[unit.id]} -> {' -> '.join(path or [combat.hex])}",
                 "RS/RS 6.8", combat=combat.id, unit=unit.id, frm=frm[unit.id], to=end, path=list(path or [combat.hex]))
    overstack(state, ctx, end, combat.attacker, unit_ids, "RS/RS 6.82")


def path_data(path: RetreatPath) -> dict[str, Any]:
    return {"path": list(path.hexes), "enemy_zoc": path.zoc, "losses": path.losses, "off_map": path.off_map}


# -- the decision: RS/RS 4.11, RS/RS 9.0 which units go beneath a "2" ------------------------------------


def apply_overstack(state: RsState, ctx: Context, ask: Ask, answer: Any) -> None:
    pending = state.marks[0]
    units = check_marks(state, pending, answer)
    state.marks.pop(0)
    mark(state, ctx, pending["hex"], units, pending["case"])
    ask_marks(state)


OVERSTACK = Decision(
    "overstack", "t{turn}/overstack{n}", "RS/RS 4.11", "the owner of the overstacked hex",
    prompt=lambda state, ask: f"{ask.data['hex']} is over the stacking limit: which of "
                              f"{', '.join(ask.data['units'])} go beneath a \"2\" marker?",
    options=lambda state, ask: {"hex": ask.data["hex"], "units": ask.data["units"], "case": ask.data["case"]},
    template=lambda state, ask: {"units": ask.data["default"]},
    policy=Policy("overstack", ("newest", "ask"), default="newest",
                  answer=lambda state, ask, request, rule: {"units": list(ask.data["default"])} if rule == "newest"
                  else None),
    apply=apply_overstack)
