"""Naval game state: fleets, merchant fleets, mines, repairs (plain dataclasses, hashed via JSON)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps
from typing import Any

from rsr.rulesets.red_sun_rising.state import Ask


@dataclass
class Fleet:
    """A fleet marker (RSR 3.2): its admiral, ships, hex, side up (at sea / in port) and morale (RSR 8.71)."""

    id: str
    side: str
    admiral: str
    hex: int
    ships: list[str]
    at_sea: bool = False
    morale: int = 0
    blockade: bool = False          # RSR 15.0: ended the last Naval Movement Stage on blockade
    moved: bool = False             # RSR 16.0: moved during this Naval Movement Stage
    arrives: int = 0                # RSR 19.2: the turn the Baltic fleet enters (0: on the map)
    returning: bool = False         # a sailing-order condition sent it home
    flip_in_port: bool = False      # RSR 7.0 note: flipped to its in-Port side in a friendly port this stage
    route_index: int = 0
    broke_off: bool = False         # RSR 8.76 errata: broke off a battle at morale zero this stage
    in_port: list[str] = field(default_factory=list)  # RSR 18.2: land hexes of the friendly ports it lies in


@dataclass
class Merchant:
    """A Japanese merchant fleet (RSR 7.4): its naval hex, cargo, and whether it starts in a home port (RSR 7.0
    errata)."""

    id: str
    hex: int
    cargo: list[str] = field(default_factory=list)
    home_start: bool = False
    moved: bool = False
    route_index: int = 0


# The question the naval game waits for is the game's one pending value (``RsrState.ask``: which decision, for
# whom, under which request id, with what context), raised by the naval step of the sequence of play from
# ``flow.pending`` or by the rule (a raid's choice, RSR 7.2). The naval state keeps the words its digest has always
# covered (the queue of sealed answers, the battle's step); the step of the Naval Sequence is the game's
# ``state.step`` and the raid's hex is in ``state.ask`` (red_sun_rising/state.py's digest form derives both).
NavalAsk = Ask


def queued(apply: Callable[[Any, Any, Any, Any], None]) -> Callable[[Any, Any, Any, Any], None]:
    """The ``apply`` of a question asked from ``NavalState.plan_queue`` (orders.orders_ask): answered, it leaves
    the queue."""
    @wraps(apply)  # (it stays the rule module's own)
    def answered(state: Any, ctx: Any, ask: Any, answer: Any) -> None:
        state.naval.plan_queue.pop(0)
        apply(state, ctx, ask, answer)
    return answered


@dataclass
class NavalState:
    fleets: dict[str, Fleet] = field(default_factory=dict)
    merchants: dict[str, Merchant] = field(default_factory=dict)
    sunk: list[str] = field(default_factory=list)
    disabled: list[str] = field(default_factory=list)
    repairs: dict[str, int] = field(default_factory=dict)       # RSR 18.1: turns spent in a friendly port
    unrepairable: list[str] = field(default_factory=list)       # RSR 18.5: disbanded ships
    mines: dict[str, int] = field(default_factory=dict)         # RSR 16.0: naval hex -> mine level
    attrition_sinking_used: bool = False                        # RSR 15.15: the 7-8 result happens once
    naval_brigades: int = 0                                     # RSR 18.5
    orders_side: int = 0                                        # 0 russia, 1 japan
    orders: dict[str, Any] = field(default_factory=dict)        # side -> signed sailing orders
    round: int = 0
    impulse: str = "movement"
    landed: list[str] = field(default_factory=list)             # merchant fleets that transferred (RSR 7.5)
    ashore: dict[str, int] = field(default_factory=dict)        # RSR 19.1: land unit -> naval hex, not embarked
    in_port: dict[str, int] = field(default_factory=dict)       # RSR 7.73 errata: ship left in port -> hex
    transfer_done: bool = False
    disband_done: bool = False
    dead_admirals: list[str] = field(default_factory=list)      # RSR 8.75, RSR 19.3: killed in a naval battle
    plan_queue: list[str] = field(default_factory=list)         # "seal:<side>" / "unseal:<side>" asks
    plan_unseals: list[str] = field(default_factory=list)       # sides whose sealed plan awaits unsealing
    route_unseals: list[str] = field(default_factory=list)      # sides whose sealed routes await unsealing
    raid_choices: dict[str, str] = field(default_factory=dict)  # RSR 7.2: naval hex -> merchant fleet to sink
    reserve: list[str] = field(default_factory=list)            # RSR 19.3: arrived by the track, no fleet yet
    withdrawn: list[str] = field(default_factory=list)          # RSR 17.3, RSR 19.3: left the game alive, in order
    vacant: list[str] = field(default_factory=list)             # RSR 17.3: fleets whose admiral the track withdrew
    battle: Any = None                                          # battle_flow.Battle under way, asked hourly (RSR 4.4)
    battle_case: str = ""                                       # the search (RSR 4.13 / RSR 7.3) it interrupted


def on_map_fleets(naval: NavalState, side: str | None = None) -> list[Fleet]:
    """The fleets on the Strategic Naval Map (not the Baltic fleet still to arrive, RSR 19.2), by id."""
    return [naval.fleets[f] for f in sorted(naval.fleets)
            if (side is None or naval.fleets[f].side == side) and not naval.fleets[f].arrives]


def enemy(side: str) -> str:
    return "japan" if side == "russia" else "russia"


def season(state: Any) -> str:
    """The season of the game turn (RSR 4.0 Turn Record Track), which naval rules read (RSR 5.0, RSR 7.5, RSR 15.1)."""
    info = state.static.turn_info(state.turn)
    return info.season if info else "summer"
