"""The Red Sun Rising sequence of play as data (RSR 4.0).

The full land sequence is listed here; a scenario names the stages it plays (``sequence:`` in its YAML),
and loading refuses a stage that has no implementation yet, so nothing is silently skipped.

Each stage declares its steps, in order: the things it does after its automatic start (``turn.start_stage``),
each either done at once or by asking a player (a declared decision, ruleset.py's table). ``turn.py`` runs
them; the state holds the step to run next (``RsrState.step``) and the question waited for (``RsrState.ask``).
The Land Combat Stage's steps are one assault round, played up to three times (RSR 4.24).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Go(Enum):
    """What a step tells the sequence of play (turn.py) when it has run."""

    ON = "on"        # the step is over: run the next one
    ASKED = "asked"  # it left its question in ``state.ask``; the step is over once that is answered
    WAIT = "wait"    # it left its question in ``state.ask``; run the step again once that is answered
    ROUND = "round"  # RSR 4.24: another assault round; run the stage's steps again from the first


@dataclass(frozen=True)
class Step:
    key: str        # "retreats": the name turn.py runs it by
    case: str       # the rule it carries out ("RSR 11.1")
    asks: str = ""  # the decision it may raise (a request kind), if any


@dataclass(frozen=True)
class Stage:
    key: str        # "russia.combat"
    side: str | None
    name: str
    case: str
    steps: tuple[Step, ...] = ()


DONE = "done"  # RsrState.step once a stage's steps are over (its last question may still wait for an answer)

SUPPLY = (Step("supply", "RSR 10.3-10.4, 10.32", asks="fleet-feeding"),
          Step("fleets", "RSR 10.25", asks="fleet-moves"))
REINFORCEMENT = (Step("naval-arrivals", "RSR 7.4-7.5, 18.5", asks="naval-landings, naval-disband"),
                 Step("assignments", "RSR 14.0, RSR 17.0-17.2", asks="assignments"),
                 Step("heading", "RSR 4.0"))  # the report heads what follows with the next stage's name
MOVEMENT = (Step("orders", "RSR 4.23, 9.1", asks="land-movement"),
            Step("overstack", "RSR 12.2", asks="overstack"),
            Step("end", "RSR 4.23"))
ASSAULT_ROUND = (Step("retreats", "RSR 11.1", asks="retreats"),
                 Step("attacks", "RSR 11.2", asks="land-combat-attacks"),
                 Step("resolve", "RSR 11.2-11.5", asks="step-losses"),
                 Step("end-round", "RSR 11.3, 4.24"))
END = (Step("trenches-russia", "RSR 13.1", asks="trenches"),
       Step("trenches-japan", "RSR 13.1", asks="trenches"),
       Step("end-of-turn", "RSR 4.35, 19.4"))


LAND_SEQUENCE: tuple[Stage, ...] = (
    Stage("russia.supply", "russia", "Russian Supply Stage", "4.21", SUPPLY),
    Stage("russia.reinforcement", "russia", "Russian Reinforcement Stage", "4.22", REINFORCEMENT),
    Stage("russia.movement", "russia", "Russian Land Movement Stage", "4.23", MOVEMENT),
    Stage("russia.combat", "russia", "Russian Land Combat Stage", "4.24", ASSAULT_ROUND),
    Stage("japan.supply", "japan", "Japanese Supply Stage", "4.31", SUPPLY),
    Stage("japan.reinforcement", "japan", "Japanese Reinforcement Stage", "4.32", REINFORCEMENT),
    Stage("japan.movement", "japan", "Japanese Land Movement Stage", "4.33", MOVEMENT),
    Stage("japan.combat", "japan", "Japanese Land Combat Stage", "4.34", ASSAULT_ROUND),
    Stage("end", None, "End Stage", "4.35", END),
)

# -- the Strategic Naval Sequence of Play (RSR 4.11-4.15) as one stage before the land sequences (a scenario that plays
# it lists "naval" first); its steps run in naval/flow.py (``STEPS``), and a battle a search finds runs hour by hour
# inside the step that found it (naval/battle_flow.py).
BATTLE_ASKS = ("naval-refuse, naval-search-again, naval-range, naval-secondary, naval-targets, naval-targets-unseal, "
               "naval-torpedo")  # a battle's hourly questions (naval/battle_flow.py)
NAVAL_STEPS = (Step("naval-surprise", "RSR 18.83", asks="naval-surprise-attack"),  # February 1904 only (RSR 19.0)
               Step("naval-orders", "RSR 4.11-4.12", asks="sailing-orders, naval-routes, battle-plan, "
                                                      "naval-routes-unseal, battle-plan-unseal"),
               Step("naval-search", "RSR 4.13", asks=BATTLE_ASKS),
               Step("naval-rounds", "RSR 4.14", asks=f"naval-round, naval-raid, {BATTLE_ASKS}"),
               Step("naval-attrition", "RSR 4.14-4.15"))
NAVAL_SEQUENCE: tuple[Stage, ...] = (Stage("naval", None, "Strategic Naval Sequence", "4.1", NAVAL_STEPS),)

STAGES = {stage.key: stage for stage in NAVAL_SEQUENCE + LAND_SEQUENCE}

# Stages whose rules are implemented: the whole land sequence and the Strategic Naval Sequence (RSR 4.1) with its
# tactical battles (RSR 4.4). Japanese units now arrive
# by sea through the naval stage (RSR 7.4-7.5).
IMPLEMENTED = frozenset(stage.key for stage in LAND_SEQUENCE + NAVAL_SEQUENCE)

ASSAULT_ROUNDS = 3  # RSR 4.24, RSR 11.0: at most three assault rounds per combat stage
