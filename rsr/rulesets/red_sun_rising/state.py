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
class Ask:
    """The question the game waits for (one value: which decision, for whom, under which request id, with
    what context); the decision table (ruleset.py, rsr/decisions.py) turns it into a request."""

    kind: str
    side: str
    id: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class RoundRecord:
    """Who has attacked, defended, and which command units modified a die this round (RSR 11.22-11.23, RSR 11.45)."""

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
    finished: bool = False
    last_turn: int = 1
    control: dict[str, str] = field(default_factory=dict)         # city hex -> side (RSR 19.4)
    options: dict[str, Any] = field(default_factory=dict)
    moved: list[str] = field(default_factory=list)                # units that moved this game turn (RSR 13.11)
    attempted: list[str] = field(default_factory=list)            # activation attempted this stage (RSR 9.1)
    acting_commander: dict[str, str] = field(default_factory=dict)  # RSR 18.7: HQ id -> counter commanding
    supply_levels: dict[str, int] = field(default_factory=dict)   # RSR 10.12: turns of supply in 0801, 2937
    supply_source: dict[str, str] = field(default_factory=dict)   # unit -> source hex it traced to (RSR 10.13)
    attacked_sources: list[str] = field(default_factory=list)     # PA/Vladivostok whose units were attacked
    merchant_fleets: dict[str, str] = field(default_factory=dict) # fleet id -> land-map hex (RSR 10.21)
    fed_by: dict[str, str] = field(default_factory=dict)          # Japanese unit -> fleet feeding it (RSR 10.32)
    blockade_fleets: list[str] = field(default_factory=list)      # fleets supporting a blockade (RSR 10.26)
    fleets_moved: bool = False  # a record of this Supply Stage's RSR 10.25 answer, for the digest only (digest_fields)
    command_points: int = 0                                        # RSR 17.13, accumulated
    replacement_steps: int = 0                                     # RSR 17.22, accumulated
    off_map: list[str] = field(default_factory=list)              # arrived, awaiting transport (RSR 17.11)
    foreign_aid: list[str] = field(default_factory=list)          # RSR 18.3 achievements earned
    opening_events: list[Any] = field(default_factory=list)       # events of the opening automatic steps
    advance_into: dict[str, list[str]] = field(default_factory=dict)  # RSR 11.13: hex vacated by retreat -> units
    retreat_results: list[str] = field(default_factory=list)      # hexes vacated by RSR 11.1 this round
    advance_pending: list[str] = field(default_factory=list)      # vacated hexes awaiting an advance (RSR 11.3)
    declared_round: list[dict[str, Any]] = field(default_factory=list)  # last round's attacks, as declared
    result: dict[str, Any] | None = None                           # RSR 19.4: winner, level, case once over
    ask: Ask | None = None     # the question the game waits for, land or naval (None while rules run, or over)
    step: str = ""             # the step of the stage's declared steps to run next ("": the stage has not started)
    # -- naval game: None in scenarios without it; naval_static is fixed data, never hashed
    naval: Any = None
    naval_static: Any = None

    def stage_key(self) -> str:
        return self.sequence[self.stage_index]

    def request_base(self) -> str:
        """The start of every request id of the current stage: ``t3/japan/combat``."""
        return f"t{self.turn}/{self.stage_key().replace('.', '/')}"

    def units_in(self, hex_id: str, side: str | None = None) -> list[Unit]:
        return [u for _, u in sorted(self.units.items())
                if u.hex == hex_id and u.steps > 0 and (side is None or u.side == side)]

    def to_json(self) -> dict[str, Any]:
        from rsr.engine import to_jsonable

        return {k: to_jsonable(v) for k, v in digest_fields(self).items()}


# fields of RsrState left out of the state digest: the scenario's fixed data (pinned by its hash in the invitation)
# and the static tables; ``ask`` and ``step`` are there in the form they had before (digest_fields)
FIXED_STATE = ("sequence", "turns", "static", "naval_static")
SIDES = ("russia", "japan")


def digest_fields(state: RsrState) -> dict[str, Any]:
    """The fields the state digest covers, in the explicit form of ruleset version 0.3, so that a game in
    progress keeps its digests (docs/protocol.md).

    Before the pending question became one value (``ask``) and the stages' progress one declared step
    (``step``), the state held flags; the form keeps them, derived from the position at rest (where the game
    waits for an answer or has ended, the only place a digest is taken): the step losses and overstacked hexes
    waiting (RSR 11.5, RSR 12.2), the feeding choice due (RSR 10.32), whether the stage had started, whether this
    round's retreat before combat was over (RSR 11.1: sticky until the next Land Combat Stage) and how far the End
    Stage's trenches were (RSR 13.1: 2 from the End Stage to the next). ``fleets_moved`` (RSR 10.25) cannot be derived
    and is kept in the state as a record.
    """
    if "ask" not in state.__dict__ or (state.ask is None and not state.finished):
        # a checkpoint pickled by an older rsr (before the pending question was one value, or before the naval
        # game's questions waited in it too): give a digest it cannot match
        return {"stale-checkpoint": True}
    fields = {k: v for k, v in state.__dict__.items()
              if k not in FIXED_STATE and k not in ("ask", "step") and not (k == "naval" and v is None)}
    ask = state.ask
    kind = ask.kind if ask is not None else None
    key = state.stage_key()
    fields["pending_loss"] = ask.data["loss"] if ask is not None and kind == "step-losses" else None
    fields["pending_overstack"] = list(ask.data["hexes"]) if ask is not None and kind == "overstack" else []
    fields["feeding_due"] = kind == "fleet-feeding"
    fields["stage_started"] = state.step != ""
    fields["retreat_done"] = (kind != "retreats" if key.endswith("combat")
                              else _reached_before(state, lambda k: k.endswith("combat")))
    if key == "end":
        fields["end_phase"] = SIDES.index(ask.side) if ask is not None else 2
    else:
        fields["end_phase"] = 2 if _reached_before(state, lambda k: k == "end") else 0
    if state.naval is not None:
        from rsr.engine import to_jsonable

        raiding = ask.data["hex"] if ask is not None and kind == "naval-raid" else 0  # RSR 7.2: raid_asking
        fields["naval"] = {**to_jsonable(state.naval), "phase": naval_phase(state), "raid_asking": raiding}
    return fields


def naval_phase(state: RsrState) -> str:
    """The naval state's ``phase`` of ruleset version 0.3 (the stage of the Naval Sequence it was in), derived from
    the step of the naval stage at rest (``naval-orders`` is ``orders``; the surprise attack, asked once, waits
    while the step is already the next): ``done`` once a naval stage has been played, else ``orders``, as set up."""
    if state.stage_key() == "naval" and state.step:
        if state.ask is not None and state.ask.kind == "naval-surprise-attack":
            return "surprise"
        return state.step.removeprefix("naval-")
    return "done" if _reached_before(state, lambda k: k == "naval") else "orders"


def _reached_before(state: RsrState, matches: Any) -> bool:
    """A stage ``matches`` has been played in this game before the current one (a game starts at the first
    stage of its first turn)."""
    first_turn = state.last_turn - state.turns + 1
    return any(matches(k) for k in state.sequence[:state.stage_index]) or (
        state.turn > first_turn and any(matches(k) for k in state.sequence))
