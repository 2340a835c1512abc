"""Step losses, replacement credit and elimination (RS/RS 2.4, RS/RS 4.13, RS/RS 4.22, RS/RS 6.61).

A "step" is a combat factor (RS/RS 6.61). A unit loses factors by flipping to its back or, reduced or with a
blank back, by elimination; factors removed beyond the loss are credited to its owner's replacement points
of its class (RS/RS 2.4, RS/RS 6.61): Armor to Armor, Leg to Leg, and Mongolian and Manchukuoan units to their own
pools (RS/RS 4.22). Weapons and HQ units can never use replacement points, so nothing is credited for them (our
reading, interpretations.md RS/RS 6.61).
"""

from __future__ import annotations

from rsr.engine import Context
from rsr.rulesets.red_star.state import ARRIVING, ELIMINATED, REPLACEMENTS, RsState, Unit
from rsr.rulesets.red_star.terrain import current, in_supply
from rsr.words import plural


def pool_of(state: RsState, unit: Unit) -> str | None:
    """Which replacement points a unit's surplus factors go to (RS/RS 2.4, RS/RS 4.22, RS/RS 6.61)."""
    counter = state.counter(unit.id)
    if counter.nationality == "mongolia":
        return "mongol"
    if counter.nationality == "manchukuo":
        return "manchu"
    if counter.cls == "Armor":
        return "armor"
    if counter.cls == "Leg":
        return "leg"
    return None


def eliminate(state: RsState, ctx: Context, unit: Unit, why: str, case: str) -> None:
    """Remove a unit (RS/RS 4.13 HQs come back as reinforcements, RS/RS 4.22 supply decides the Replacements box)."""
    supplied = in_supply(state, unit)
    counter = state.counter(unit.id)
    where = unit.hex
    if counter.cls == "HQ":
        unit.status = ARRIVING
        unit.arrives = state.turn + (1 if supplied else 2)
        fate = f"returns as a reinforcement on turn {unit.arrives} (RS/RS 4.13)"
    elif counter.cls == "Weapons" or not supplied:
        unit.status = ELIMINATED
        fate = ("permanently: Weapons units never return (RS/RS 4.22)" if counter.cls == "Weapons"
                else "permanently: out of supply (RS/RS 4.22)")
    else:
        unit.status = REPLACEMENTS
        fate = "to the Replacements box (RS/RS 4.22)"
    unit.hex = None
    unit.reduced = False
    unit.disruption = 0
    unit.fired = unit.reserve = unit.truck = False
    ctx.emit("eliminated", f"{unit.id} eliminated in {where} ({why}); {fate}", case, unit=unit.id, hex=where,
             status=unit.status, supplied=supplied)


def lose_factors(state: RsState, ctx: Context, units: list[Unit], factors: int, why: str, case: str) -> tuple[
        int, list[str]]:
    """Take ``factors`` from ``units`` in order (RS/RS 6.61): flip, then eliminate, then the next unit.

    Returns the factors actually removed and the units that lost any. Surplus is credited (RS/RS 2.4).
    """
    needed = factors
    removed_total = 0
    touched: list[str] = []
    last: Unit | None = None
    for unit in units:
        while needed > 0 and unit.on_map:
            before = current(state, unit)
            counter = state.counter(unit.id)
            if not unit.reduced and counter.reduced is not None:
                unit.reduced = True
                removed = before - current(state, unit)
                ctx.emit("reduced", f"{unit.id} flips to its reduced side ({before} -> {current(state, unit)} "
                         f"factors): {why}", case, unit=unit.id, factors=removed)
            else:
                removed = before
                eliminate(state, ctx, unit, why, case)
            needed -= removed
            removed_total += removed
            if unit.id not in touched:
                touched.append(unit.id)
            last = unit
        if needed <= 0:
            break
    if needed < 0 and last is not None:
        credit(state, ctx, last, -needed)
    return removed_total, touched


def credit(state: RsState, ctx: Context, unit: Unit, factors: int) -> None:
    """RS/RS 2.4, RS/RS 6.61: factors removed beyond the loss go to the owner's replacement points."""
    pool = pool_of(state, unit)
    if pool is None or factors <= 0:
        return
    points = state.replacement_points.setdefault(unit.side, {})
    points[pool] = points.get(pool, 0) + factors
    ctx.emit("replacement-credit", f"{plural(factors, 'surplus factor')} of {unit.id} credited to {unit.side} {pool} "
             f"replacement points (now {points[pool]})", "RS/RS 2.4", unit=unit.id, pool=pool, factors=factors)
