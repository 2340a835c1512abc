"""Red Sun/Red Star game state: plain dataclasses, hashed through their JSON form."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeVar

from rsr.errors import RulesError
from rsr.rulesets.red_star.data import Counter, Static

T = TypeVar("T")

# where a unit is (RS/RS 4.1, RS/RS 4.13, RS/RS 4.22, RS/RS 4.4, RS/RS 6.72)
ON_MAP = "map"
ARRIVING = "arriving"          # a reinforcement or a returning HQ not yet placed (RS/RS 4.1, RS/RS 4.13)
REPLACEMENTS = "replacements"  # eliminated in supply, in the Replacements box (RS/RS 4.22)
ELIMINATED = "eliminated"      # permanently out of play (RS/RS 4.22)
OFF_MAP = "off-map"            # retreated off the board, returns next player turn (RS/RS 6.72)
WITHDRAWN = "withdrawn"        # removed by the Turn Record (RS/RS 4.4)


@dataclass
class Unit:
    """A ground unit. ``reduced`` is the back of the counter (RS/RS 2.4)."""

    id: str
    side: str
    status: str = ON_MAP
    hex: str | None = None
    reduced: bool = False
    disruption: int = 0        # RS/RS 5.7: "1" or "2" marker
    fired: bool = False        # RS/RS 5.1 Fired marker
    reserve: bool = False      # RS/RS 7.6 Reserve marker
    truck: bool = False        # RS/RS 7.4 truck marker
    no_move: bool = False      # RS/RS 4.11: entered in an enemy zone of control this turn
    arrives: int | None = None  # the game turn it may enter (RS/RS 4.1, RS/RS 4.12, RS/RS 4.13) or return (RS/RS 6.72)
    exit_hex: str | None = None  # where it left the board (RS/RS 6.72)

    @property
    def on_map(self) -> bool:
        return self.status == ON_MAP and self.hex is not None

    def markers(self, short: bool = False) -> list[str]:
        """The markers on the unit, as ``rsr show`` names them (``fired``) or a counter drawing (``F``)."""
        named = [f"D{self.disruption}"] if self.disruption else []
        named += [name for name, on in (("fired", self.fired), ("reserve", self.reserve), ("truck", self.truck))
                  if on]
        return [name if name.startswith("D") or not short else name[0].upper() for name in named]


@dataclass
class Combat:
    """One ground combat, prepared (RS/RS 6.0) or hasty (RS/RS 7.5), and how far its resolution has gone."""

    id: str
    kind: str                          # "prepared" | "hasty"
    attacker: str
    defender: str
    hex: str
    attackers: list[str]
    night: bool = False
    advance_plan: dict[str, Any] | None = None
    inline: dict[str, Any] | None = None         # choices given with the declaration (public)
    attack_choice: dict[str, Any] | None = None  # RS/RS 6.21-6.22 lead units, armor protection, fire plan
    attack_sealed: bool = False
    defence_choice: dict[str, Any] | None = None
    stage: str = "waiting"
    defenders: list[str] = field(default_factory=list)
    attack_hexes: dict[str, str] = field(default_factory=dict)  # attacking unit -> its hex at the start
    out: list[str] = field(default_factory=list)                # left out: night (RS/RS 6.91), retreated (RS/RS 6.62)
    fired: list[str] = field(default_factory=list)              # RS/RS 6.31: each unit fires once
    fired_upon: list[str] = field(default_factory=list)         # RS/RS 6.24
    hexes_fired_on: list[str] = field(default_factory=list)     # RS/RS 6.21: the first enemy fire into a hex
    group: int = 0
    last_printed: int | None = None                             # RS/RS 6.32
    unsupplied: list[str] = field(default_factory=list)         # RS/RS 10.3 at the instant of combat
    deferred: list[dict[str, Any]] = field(default_factory=list)  # RS/RS 6.92: night fire results held back
    result: dict[str, Any] | None = None                        # the CRT result being applied
    vacated: bool = False
    advance_hexes: int = 0
    japanese_retreated: bool = False
    firefights: int = 0
    support_paid: bool = False
    tie_orders: dict[str, list[str]] = field(default_factory=dict)  # RS/RS 6.25: hex -> the owner's order
    support_guns: dict[str, list[str]] = field(default_factory=dict)  # RS/RS 5.3: role -> paid guns


@dataclass
class MovementRun:
    """A movement order being carried out (RS/RS 7.0-7.5): its moves and how far it has gone."""

    side: str
    moves: list[dict[str, Any]]
    index: int = 0
    moved: list[str] = field(default_factory=list)     # units that have moved this segment (RS/RS 7.2)
    attacked: list[str] = field(default_factory=list)  # units that made a hasty attack (RS/RS 7.53)
    spent: dict[str, str] = field(default_factory=dict)  # unit -> MP left after its move, as a fraction text
    combats: list[str] = field(default_factory=list)   # ids of the hasty attacks declared by the order
    executing: bool = False
    # RS/RS 7.63-7.64 reserve movement by the other side
    reserve_done: int = 0                                     # moves after which reserves have had their say
    reserve_moved: list[str] = field(default_factory=list)    # reserve units that moved (or failed release)
    released: bool = False                                    # RS/RS 7.64 July: a Japanese unit achieved release
    triggered: list[int] = field(default_factory=list)        # conditional reserve orders already carried out
    reserve_combats: list[str] = field(default_factory=list)  # RS/RS 7.63: the reserves' hasty attacks still to resolve
    reserve_pickups: list[list[str]] = field(default_factory=list)  # RS/RS 11.2: [engineer, hex, hexside] by a reserve
    pickups: list[list[str]] = field(default_factory=list)  # RS/RS 11.2: the same, by the mover (at the end)


@dataclass
class Ask:
    """The decision the game waits for; next_request turns it into a Request."""

    kind: str
    side: str
    id: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class RsState:
    static: Static
    scenario_key: str
    first: str
    second: str
    dates: list[str]
    turn_track: list[dict[str, Any]]
    turn: int = 1
    segment: int = 0
    segment_started: bool = False
    finished: bool = False
    units: dict[str, Unit] = field(default_factory=dict)
    support: dict[str, int] = field(default_factory=dict)                      # RS/RS 4.3
    replacement_points: dict[str, dict[str, int]] = field(default_factory=dict)  # RS/RS 4.21
    victory_hexes: dict[str, str] = field(default_factory=dict)                # RS/RS 13.1: last side in each hex
    entry_plans: dict[str, Any] = field(default_factory=dict)                  # side -> plan or "sealed"
    combats: list[Combat] = field(default_factory=list)                        # the segment's combats
    combat_index: int = 0
    choices_stage: str = ""          # "" | "attack" | "defence" | "unseal" | "done" for the combat batch
    movement: MovementRun | None = None
    ask: Ask | None = None
    restrictions: list[dict[str, Any]] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    destroyed_bridges: list[str] = field(default_factory=list)
    opening_events: list[Any] = field(default_factory=list)
    declared: bool = False           # this segment's combats have been declared
    withdrawals: list[str] = field(default_factory=list)   # RS/RS 4.4: due but out of supply, still waiting
    force_step: str = ""             # how far the Force Adjustment segment has gone
    player_turn: int = 0             # serial number of the current player turn (RS/RS 6.72 returns)
    carriers: dict[str, str] = field(default_factory=dict)  # the bridge counter -> the engineer carrying it
    marks: list[dict[str, Any]] = field(default_factory=list)  # RS/RS 4.11: "2" markers waiting for the owner
    marks_asked: int = 0
    interdiction: dict[str, dict[str, int]] = field(default_factory=dict)  # RS/RS 5.22: side -> hex -> factors
    missions: list[dict[str, Any]] = field(default_factory=list)  # RS/RS 5.2: announced, not yet resolved
    cb: dict[str, Any] = field(default_factory=dict)   # RS/RS 5.41: the segment's counterbattery chain
    mission_round: int = 0           # RS/RS 5.2: the segment's missions so far, each chosen after the one before
    mission_plan: dict[str, Any] = field(default_factory=dict)  # RS/RS 5.2: policy fire-missions' plan, how far
    reserve_seen: list[str] = field(default_factory=list)  # reserves that sat through an enemy Movement segment
    pontoon: str | None = None       # RS/RS 11.2: the hexside the Japanese bridge counter spans
    reserve_movers: list[str] = field(default_factory=list)  # RS/RS 11.2: reserves that moved in the last enemy segment
    pontoon_placed: str = ""         # RS/RS 11.2: "turn/segment" in which the bridge counter was placed
    pontoon_left: str = ""           # RS/RS 11.2: "turn/segment" in which the Soviet player left it intact

    def __deepcopy__(self, memo: dict[int, Any]) -> RsState:
        """Units hold only plain values, so a field-by-field copy is enough for them (and much faster)."""
        from rsr.engine import deep_copy

        clone = _shallow(self)
        fields = clone.__dict__
        new = object.__new__
        for name, value in self.__dict__.items():
            if name == "units":  # plain values: a shallow copy of each unit (``_shallow``, inlined)
                units = fields["units"] = {}
                for k, u in value.items():
                    clone_unit = units[k] = new(type(u))
                    clone_unit.__dict__ = u.__dict__.copy()
            elif name in ("static", "dates", "turn_track", "restrictions"):
                continue  # fixed for the whole game
            elif type(value) not in _ATOMIC:
                fields[name] = deep_copy(value, memo)
        return clone

    def counter(self, unit_id: str) -> Counter:
        return self.static.counter(unit_id)

    def units_in(self, hex_id: str, side: str | None = None) -> list[Unit]:
        """Ground units in ``hex_id`` in unit-id order (the bridge counter and air units excluded)."""
        units = self.units
        return [u for k in self._ground_order() if (u := units[k]).hex == hex_id and u.status == ON_MAP
                and (side is None or u.side == side)]

    def on_map(self, side: str | None = None) -> list[Unit]:
        units = self.units
        if side is None:
            return [u for k in self._ground_order() if (u := units[k]).status == ON_MAP and u.hex is not None]
        return [u for k in self._ground_order() if (u := units[k]).side == side and u.status == ON_MAP
                and u.hex is not None]

    def _ground_in_order(self) -> list[Unit]:
        """Every ground unit (wherever it is) in unit-id order."""
        units = self.units
        return [units[k] for k in self._ground_order()]

    def _ground_order(self) -> tuple[str, ...]:
        """The ids of the ground units in unit-id order. The order and which counters are ground units are
        fixed facts of the unit ids, memoised with the static data on the ids present."""
        ids = tuple(self.units)
        order: tuple[str, ...] | None = self.static.memo.get(("ground-order", ids))
        if order is None:
            order = tuple(sorted(k for k in ids if self.static.counter(k).ground))
            self.static.memo[("ground-order", ids)] = order
        return order

    def date(self) -> str:
        return self.dates[self.turn - 1] if 0 < self.turn <= len(self.dates) else f"turn {self.turn}"

    def turn_of_date(self, date: str) -> int | None:
        return self.dates.index(date) + 1 if date in self.dates else None

    def to_json(self) -> dict[str, Any]:
        from rsr.engine import to_jsonable

        data = {k: v for k, v in self.__dict__.items() if k not in ("static", "opening_events")}
        return dict(to_jsonable(data))


_ATOMIC = (str, int, bool, type(None))


def _shallow(unit: T) -> T:
    """``copy.copy`` of a unit (a plain dataclass), without the generic copy protocol's cost."""
    clone = object.__new__(type(unit))
    clone.__dict__.update(unit.__dict__)
    return clone


def enemy_of(side: str) -> str:
    return "soviet" if side == "japan" else "japan"


def combat_by_id(state: RsState, combat_id: str) -> Combat:
    for combat in state.combats:
        if combat.id == combat_id:
            return combat
    raise RulesError(f"no combat {combat_id} is in progress")
