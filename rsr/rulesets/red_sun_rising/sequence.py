"""The Red Sun Rising sequence of play as data (RSR 4.0).

The full land sequence is listed here; a scenario names the stages it plays (``sequence:`` in its YAML),
and loading refuses a stage that has no implementation yet, so nothing is silently skipped.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Stage:
    key: str        # "russia.combat"
    side: str | None
    name: str
    case: str


LAND_SEQUENCE: tuple[Stage, ...] = (
    Stage("russia.supply", "russia", "Russian Supply Stage", "4.21"),
    Stage("russia.reinforcement", "russia", "Russian Reinforcement Stage", "4.22"),
    Stage("russia.movement", "russia", "Russian Land Movement Stage", "4.23"),
    Stage("russia.combat", "russia", "Russian Land Combat Stage", "4.24"),
    Stage("japan.supply", "japan", "Japanese Supply Stage", "4.31"),
    Stage("japan.reinforcement", "japan", "Japanese Reinforcement Stage", "4.32"),
    Stage("japan.movement", "japan", "Japanese Land Movement Stage", "4.33"),
    Stage("japan.combat", "japan", "Japanese Land Combat Stage", "4.34"),
    Stage("end", None, "End Stage", "4.35"),
)

# -- naval game (issue 12): the Strategic Naval Sequence of Play (4.11-4.15) as one stage before the land
# sequences; a scenario that plays it lists "naval" first.
NAVAL_SEQUENCE: tuple[Stage, ...] = (
    Stage("naval", None, "Strategic Naval Sequence", "4.1"),
)

STAGES = {stage.key: stage for stage in NAVAL_SEQUENCE + LAND_SEQUENCE}

# Stages whose rules are implemented: the whole land sequence and the Strategic Naval Sequence (4.1, issue 12;
# a search that could start a tactical battle, 4.4, is refused until issue 13). Japanese units now arrive
# by sea through the naval stage (7.4-7.5).
IMPLEMENTED = frozenset(stage.key for stage in LAND_SEQUENCE + NAVAL_SEQUENCE)

ASSAULT_ROUNDS = 3  # RSR 4.24, 11.0: at most three assault rounds per combat stage
