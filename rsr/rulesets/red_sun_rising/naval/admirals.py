"""Admirals on the Turn Record Track (RSR 17.3, RSR 19.3, RSR 8.79; interpretations.md, RSR 19.3 turn record).

The track (turns.yaml ``admirals_arrive`` / ``admirals_withdraw``) brings admirals into the game and takes them
out. At the start of each Naval Sequence:

* an admiral the track withdraws leaves the game (RSR 17.3); if he commanded a fleet, that fleet is *vacant*;
* an admiral the track brings arrives (unless he already came early as a successor, RSR 19.3, or is dead) and
  waits in the *reserve* of his side.

When a side signs its sailing orders it appoints (``appoint: {admiral: fleet | reserve}``): an admiral from
the reserve takes command of one of its fleets on the map, and the admiral he replaces leaves the game alive
(so RSR 19.3 may call him back later). Whatever the orders leave open follows the standing policy
(:func:`default_appointments`): a vacant fleet takes the first arriving admiral (RSR 19.3's order when none
arrives); an admiral arriving this turn then takes the fleet whose admiral has the lowest Initiative Rating
below his own, else stays in reserve. Each appointment moves the fleet's morale by the difference of the
ratings (RSR 8.79). The fleet's admiral is what its initiative (RSR 5.0), its morale cap (RSR 8.78) and its battles use.
"""

from __future__ import annotations

from typing import Any

from rsr.engine import Context
from rsr.errors import RulesError
from rsr.rulesets.red_sun_rising.naval import succession
from rsr.rulesets.red_sun_rising.naval.data import NavalStatic
from rsr.rulesets.red_sun_rising.naval.state import Fleet, NavalState

RESERVE = "reserve"


def admiral_id(static: NavalStatic, side: str | None, name: str) -> str | None:
    """The admiral counter a track entry names (by the printed name)."""
    return next((a.id for a in sorted(static.admirals.values(), key=lambda a: a.id)
                 if (side is None or a.side == side) and a.name == name), None)


def commanders(naval: NavalState) -> list[str]:
    return sorted(f.admiral for f in naval.fleets.values())


def scheduled(static: NavalStatic, turn: int, kind: str) -> list[str]:
    """The admirals the track brings (``arrive``) or takes out (``withdraw``) on ``turn``, in track order."""
    names = [name for t, k, name in static.admiral_track if t == turn and k == kind]
    return [a for a in (admiral_id(static, None, n) for n in names) if a]


def turn_record(ctx: Context, static: NavalStatic, naval: NavalState, turn: int) -> None:
    """RSR 17.3, RSR 19.3: this turn's withdrawals, then this turn's arrivals (start of the Naval Sequence)."""
    naval.vacant = [f for f in naval.vacant if f in naval.fleets]
    for adm in scheduled(static, turn, "withdraw"):
        if adm in naval.dead_admirals or adm in naval.withdrawn:
            continue
        if adm in naval.reserve:
            naval.reserve.remove(adm)
        fleet = next((f for f in _fleets(naval) if f.admiral == adm), None)
        naval.withdrawn.append(adm)
        if fleet is not None and fleet.id not in naval.vacant:
            naval.vacant.append(fleet.id)
        ctx.emit("admiral-withdrawn", f"{static.admiral(adm).name} leaves the game (Turn Record Track)"
                 + (f": {fleet.id} needs a new admiral" if fleet else ""), "RSR 17.3",
                 provisional=[f"Turn Record Track, turn {turn}: provisional (turns.yaml)"],
                 admiral=adm, fleet=fleet.id if fleet else None)
    for adm in scheduled(static, turn, "arrive"):
        if adm in naval.dead_admirals or adm in naval.reserve or adm in naval.withdrawn or adm in commanders(naval):
            why = "is dead" if adm in naval.dead_admirals else "is already in the game (RSR 19.3)"
            ctx.emit("admiral-arrives", f"{static.admiral(adm).name} was due on the Turn Record Track but {why}",
                     "RSR 19.3", admiral=adm, arrived=False)
            continue
        naval.reserve.append(adm)
        ctx.emit("admiral-arrives", f"{static.admiral(adm).name} (Initiative Rating "
                 f"{static.admiral(adm).initiative}) arrives by the Turn Record Track", "RSR 19.3",
                 provisional=[f"Turn Record Track, turn {turn}: provisional (turns.yaml)",
                              f"initiative rating of {static.admiral(adm).name}: provisional"],
                 admiral=adm, arrived=True)


def _fleets(naval: NavalState, side: str | None = None) -> list[Fleet]:
    return [naval.fleets[f] for f in sorted(naval.fleets) if side is None or naval.fleets[f].side == side]


def _on_map(naval: NavalState, side: str, turn: int) -> list[Fleet]:
    """Fleets an admiral may be put on: on the map now (the Baltic fleet only from its arrival turn, RSR 19.2)."""
    return [f for f in _fleets(naval, side) if not f.arrives or f.arrives <= turn]


def default_appointments(static: NavalStatic, naval: NavalState, side: str, turn: int,
                         taken: dict[str, str]) -> dict[str, str]:
    """The standing policy for what the sailing orders leave open (``taken``: appointments already made)."""
    out: dict[str, str] = {}
    used = set(taken)
    filled = {f for f in taken.values() if f != RESERVE}
    arriving = [a for a in scheduled(static, turn, "arrive") if a in naval.reserve and a not in used]
    pool = [a for a in naval.reserve if a not in used and static.admiral(a).side == side]
    for fleet_id in [f for f in naval.vacant if naval.fleets[f].side == side and f not in filled]:
        if pool:
            adm = next((a for a in pool if a in arriving), pool[0])
            pool.remove(adm)
            out[adm] = fleet_id
            filled.add(fleet_id)
    for adm in [a for a in pool if a in arriving]:
        rating = static.admiral(adm).initiative
        weaker = sorted((static.admiral(f.admiral).initiative, f.id) for f in _on_map(naval, side, turn)
                        if f.id not in filled and f.id not in naval.vacant
                        and static.admiral(f.admiral).initiative < rating)
        out[adm] = weaker[0][1] if weaker else RESERVE
        if weaker:
            filled.add(weaker[0][1])
    return out


def options(static: NavalStatic, naval: NavalState, side: str, turn: int) -> dict[str, Any]:
    """What the sailing-orders request shows about admirals (empty when there is nothing to decide)."""
    reserve = [a for a in naval.reserve if static.admiral(a).side == side]
    vacant = [f for f in naval.vacant if naval.fleets[f].side == side]
    if not reserve and not vacant:
        return {}
    return {"reserve": {a: static.admiral(a).initiative for a in reserve}, "vacant": vacant,
            "policy": default_appointments(static, naval, side, turn, {})}


def appoint(ctx: Context, static: NavalStatic, naval: NavalState, side: str, turn: int, wanted: Any,
            track: list[tuple[int, str, str]]) -> None:
    """RSR 19.3, RSR 8.79: the side's appointments, then the standing policy for the rest; vacant fleets always
    get an admiral (RSR 19.3's order when the reserve is empty)."""
    if wanted is None:
        wanted = {}
    if not isinstance(wanted, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in wanted.items()):
        raise RulesError("sailing orders: appoint is {admiral: fleet id or reserve} (RSR 19.3)")
    filled: set[str] = set()
    for adm, target in sorted(wanted.items()):
        if adm not in naval.reserve or static.admiral(adm).side != side:
            raise RulesError(f"{adm} is not a {side} admiral waiting to be appointed (RSR 19.3); waiting: "
                             f"{', '.join(a for a in naval.reserve if static.admiral(a).side == side) or 'none'}")
        if target == RESERVE:
            continue
        if target not in [f.id for f in _on_map(naval, side, turn)] or target in filled:
            raise RulesError(f"{adm} may take command of one {side} fleet on the map, not {target!r} (RSR 19.3)")
        filled.add(target)
    chosen = dict(sorted(wanted.items()))
    policy = default_appointments(static, naval, side, turn, chosen)
    for adm, target in list(chosen.items()) + list(policy.items()):
        if target != RESERVE:
            _take_command(ctx, static, naval, naval.fleets[target], adm,
                          "standing policy" if adm in policy else "sailing orders")
        elif adm in policy:
            ctx.emit("admiral-appointed", f"{static.admiral(adm).name} stays in reserve: no fleet has a weaker "
                     "admiral (standing policy)", "RSR 19.3", admiral=adm, fleet=None, by="standing policy")
    for fleet_id in [f for f in naval.vacant if naval.fleets[f].side == side]:
        new, why = succession.successor(static, track, turn, side, naval.dead_admirals, commanders(naval),
                                        naval.reserve, naval.withdrawn)  # nobody waits: the order of RSR 19.3
        if wanted.get(new) == RESERVE:
            raise RulesError(f"{fleet_id} has lost its admiral: {new} may not stay in reserve (RSR 19.3)")
        _take_command(ctx, static, naval, naval.fleets[fleet_id], new, why)


def _take_command(ctx: Context, static: NavalStatic, naval: NavalState, fleet: Fleet, new: str, by: str) -> None:
    old = fleet.admiral
    vacant = fleet.id in naval.vacant
    before = fleet.morale
    fleet.morale = succession.morale_with(static, fleet.morale, old, new)  # RSR 8.79
    fleet.admiral = new
    if new in naval.reserve:
        naval.reserve.remove(new)
    if vacant:
        naval.vacant.remove(fleet.id)
    elif old not in naval.withdrawn and old not in naval.dead_admirals:
        naval.withdrawn.append(old)  # relieved, alive: RSR 19.3 may call him back
    ctx.emit("admiral-appointed", f"{static.admiral(new).name} takes command of {fleet.id} "
             f"({'its admiral left the game' if vacant else 'relieving ' + static.admiral(old).name}); morale "
             f"{before} -> {fleet.morale} (RSR 8.79)", "RSR 19.3", admiral=new, fleet=fleet.id, predecessor=old,
             morale=fleet.morale, by=by)
