"""Red Sun Rising step losses (RSR 11.5): a unit reduced or eliminated, for combat (RSR 11.x), attrition out of
supply (RSR 10.4) and the naval brigade (RSR 11.14) alike. Kept apart from combat.py so that supply.py can take
a step without importing combat, which imports supply.
"""

from __future__ import annotations

from rsr.engine import Context
from rsr.rulesets.red_sun_rising.state import RsrState, Unit


def eliminate(state: RsrState, ctx: Context, unit: Unit, why: str, case: str) -> None:
    hex_id = unit.hex
    unit.steps = 0
    unit.hex = None
    ctx.emit("eliminated", f"{unit.id} eliminated in {hex_id}: {why}", case, unit=unit.id, hex=hex_id)


def lose_step(state: RsrState, ctx: Context, unit: Unit, case: str = "RSR 11.5") -> None:
    """RSR 11.5, 11.51-11.52, 11.54: a division flips to its reduced side; a one-step unit is removed."""
    counter = state.static.counter(unit.id)
    if unit.steps >= 2:
        unit.steps -= 1
        reduced = counter.values(unit.steps)
        ctx.emit("reduced", f"{unit.id} loses a step and is reduced to {reduced.strength}-{reduced.command}-"
                 f"{reduced.movement}", "RSR 11.51", unit=unit.id, hex=unit.hex)
    else:
        eliminate(state, ctx, unit, "its last step lost", "RSR 11.54")
