"""Red Sun Rising game state: plain dataclasses, hashed through their JSON form."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rsr.rulesets.red_sun_rising.data import Static


@dataclass
class Unit:
    """A land unit on the map. ``steps`` 0 means eliminated (RSR 11.5)."""

    id: str
    side: str
    hex: str | None
    steps: int
    activated: bool = False
    in_supply: bool = True
    assigned_to: str | None = None


@dataclass
class Attack:
    """One declared attack of an assault round (RSR 11.2)."""

    defender_hex: str
    attackers: list[str]
    command: str | None = None
    advance: list[str] = field(default_factory=list)   # RSR 11.3: who advances if the hex is vacated
    result: list[int] | None = None     # [attacker steps, defender steps] once rolled
    defender_done: bool = False
    attacker_done: bool = False


@dataclass
class PendingLoss:
    """Step losses waiting for the owner's choice of units (RSR 11.5)."""

    side: str
    hex: str
    steps: int
    units: list[str]
    attack_index: int
    role: str  # "attacker" | "defender"


@dataclass
class RoundRecord:
    """Who has attacked, defended, and which command units modified a die this round (11.22-11.23, 11.45)."""

    attacked: list[str] = field(default_factory=list)
    defended: list[str] = field(default_factory=list)
    commands_used: list[str] = field(default_factory=list)
    vacated: list[str] = field(default_factory=list)


@dataclass
class RsrState:
    static: Static
    sequence: list[str]
    turns: int
    turn: int = 1
    stage_index: int = 0
    assault_round: int = 1
    units: dict[str, Unit] = field(default_factory=dict)
    trenches: dict[str, int] = field(default_factory=dict)
    destroyed_fortresses: list[str] = field(default_factory=list)
    round: RoundRecord = field(default_factory=RoundRecord)
    attacks: list[Attack] = field(default_factory=list)
    next_attack: int = 0
    last_round: bool = False
    pending_loss: PendingLoss | None = None
    finished: bool = False
    last_turn: int = 1
    control: dict[str, str] = field(default_factory=dict)         # city hex -> side (19.4)
    options: dict[str, Any] = field(default_factory=dict)
    moved: list[str] = field(default_factory=list)                # units that moved this game turn (13.11)
    attempted: list[str] = field(default_factory=list)            # activation attempted this stage (9.1)
    acting_commander: dict[str, str] = field(default_factory=dict)  # RSR 18.7: HQ id -> counter commanding
    pending_overstack: list[str] = field(default_factory=list)    # hexes waiting for the owner's choice (12.2)
    supply_levels: dict[str, int] = field(default_factory=dict)   # RSR 10.12: turns of supply in 0801, 2937
    supply_source: dict[str, str] = field(default_factory=dict)   # unit -> source hex it traced to (10.13)
    attacked_sources: list[str] = field(default_factory=list)     # PA/Vladivostok whose units were attacked
    merchant_fleets: dict[str, str] = field(default_factory=dict) # fleet id -> land-map hex (10.21)
    fed_by: dict[str, str] = field(default_factory=dict)          # Japanese unit -> fleet feeding it (10.32)
    feeding_due: bool = False                                      # the 10.32 choice of this Supply Stage waits
    blockade_fleets: list[str] = field(default_factory=list)      # fleets supporting a blockade (10.26)
    fleets_moved: bool = False                                     # this Supply Stage's 10.25 step is over
    command_points: int = 0                                        # RSR 17.13, accumulated
    replacement_steps: int = 0                                     # RSR 17.22, accumulated
    off_map: list[str] = field(default_factory=list)              # arrived, awaiting transport (17.11)
    foreign_aid: list[str] = field(default_factory=list)          # RSR 18.3 achievements earned
    opening_events: list[Any] = field(default_factory=list)       # events of the opening automatic steps
    stage_started: bool = False                                    # the stage's automatic start has run
    end_phase: int = 0                                             # End Stage: 0 russia, 1 japan trenches, 2 done
    advance_into: dict[str, list[str]] = field(default_factory=dict)  # 11.13: hex vacated by retreat -> units
    retreat_done: bool = False                                     # this round's 11.1 step is over
    retreat_results: list[str] = field(default_factory=list)      # hexes vacated by 11.1 this round
    advance_pending: list[str] = field(default_factory=list)      # vacated hexes awaiting an advance (11.3)
    declared_round: list[dict[str, Any]] = field(default_factory=list)  # last round's attacks, as declared
    result: dict[str, Any] | None = None                           # RSR 19.4: winner, level, case once over
    # -- naval game (issue 12): None in scenarios without it; naval_static is fixed data, never hashed
    naval: Any = None
    naval_static: Any = None

    def stage_key(self) -> str:
        return self.sequence[self.stage_index]

    def units_in(self, hex_id: str, side: str | None = None) -> list[Unit]:
        return [u for _, u in sorted(self.units.items())
                if u.hex == hex_id and u.steps > 0 and (side is None or u.side == side)]

    def to_json(self) -> dict[str, Any]:
        from rsr.engine import to_jsonable

        data = {k: v for k, v in self.__dict__.items()
                if k not in ("static", "naval_static") and not (k == "naval" and v is None)}
        return to_jsonable(data)
