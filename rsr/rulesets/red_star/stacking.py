"""Stacking (RS/RS 9.0-9.2).

Company-sized units and HQs never count. Of the others, a hex may hold every unit of one formation
(the formation ID to the right of the unit-type box), or at most two units. On the Soviet side an
infantry regiment or an airborne brigade fills a hex alone, and formations of those do not stack freely
(RS/RS 9.2). A unit without a formation ID shares a formation with nobody (our reading, interpretations.md RS/RS 9.1).
"""

from __future__ import annotations

from rsr.rulesets.red_star.state import RsState


def counts(state: RsState, unit_id: str) -> bool:
    """RS/RS 9.1, RS/RS 9.2: companies (size I) and HQs stack freely."""
    counter = state.counter(unit_id)
    return counter.ground and counter.size != "I" and counter.cls != "HQ"


def _big_soviet(state: RsState, unit_id: str) -> bool:
    """RS/RS 9.2: an infantry regiment or an airborne brigade."""
    counter = state.counter(unit_id)
    return (counter.type == "infantry" and counter.size == "III") or (
        counter.type == "airborne-infantry" and counter.size == "X")


def legal(state: RsState, side: str, unit_ids: list[str]) -> str | None:
    """Why ``unit_ids`` (one side's units in one hex) break the stacking limit, or None (RS/RS 9.1, RS/RS 9.2)."""
    counted = sorted(u for u in unit_ids if counts(state, u))
    if len(counted) <= 1:
        return None
    formations = {state.counter(u).formation_id for u in counted}
    if side == "soviet" and any(_big_soviet(state, u) for u in counted):
        return "a Soviet infantry regiment or airborne brigade stacks only with companies and HQs (RS/RS 9.2)"
    if len(formations) == 1 and None not in formations:
        return None
    if len(counted) <= 2:
        return None
    case = "RS/RS 9.1" if side == "japan" else "RS/RS 9.2"
    return (f"{len(counted)} units of different formations ({', '.join(counted)}) may not stack; at most two, "
            f"or any number of one formation ({case})")


def hex_problem(state: RsState, hex_id: str, side: str) -> str | None:
    return legal(state, side, [u.id for u in state.units_in(hex_id, side)])


def excess(state: RsState, side: str, unit_ids: list[str], newcomers: list[str]) -> list[str]:
    """Which units to mark as over the limit (the "2" marker of RS/RS 4.11, RS/RS 6.71, RS/RS 6.82): newcomers last in,
    first.

    Units already there keep their place; the newest arrivals are marked until the rest is legal.
    """
    keep = list(unit_ids)
    marked: list[str] = []
    for unit_id in reversed(newcomers):
        if legal(state, side, keep) is None:
            break
        if unit_id in keep and counts(state, unit_id):
            keep.remove(unit_id)
            marked.append(unit_id)
    return sorted(marked)
