"""The Red Sun Rising sequence of play, run (RSR 4.0): each stage of the scenario's sequence, step by step.

:func:`advance` walks the stages in order; each stage first does what it does on its own
(:func:`start_stage`), then runs its declared steps (sequence.py) through :data:`STEPS`. A step carries the
rules out and tells the walk what next (:class:`sequence.Go`): go on, or stop for the question it left in
``state.ask`` (one value, land or naval: which decision, for whom, under which request id, with what context).
The decision table (ruleset.py) asks it and applies the answer, and the walk resumes at ``state.step``.
"""

from __future__ import annotations

from collections.abc import Callable

from rsr.engine import Context
from rsr.rulesets.red_sun_rising import (
    activation,
    combat,
    defences,
    movement,
    reinforcements,
    retreat,
    stacking,
    supply,
    victory,
)
from rsr.rulesets.red_sun_rising.naval_seam import NAVAL
from rsr.rulesets.red_sun_rising.sequence import DONE, STAGES, Go
from rsr.rulesets.red_sun_rising.state import RoundRecord, RsrState
from rsr.words import plural

Run = Callable[[RsrState, Context, str], Go]


def advance(state: RsrState, ctx: Context) -> None:
    """Carry out whatever needs no decision, stage after stage, step after step (RSR 4.0)."""
    while not state.finished and state.ask is None:
        stage = STAGES[state.stage_key()]
        if not state.step:
            state.step = stage.steps[0].key
            start_stage(state, ctx, stage.key)
            continue
        if state.step == DONE:
            next_stage(state)
            continue
        keys = [s.key for s in stage.steps]
        go = STEPS[state.step](state, ctx, stage.side or "")
        if go is Go.WAIT:
            return
        if go is Go.ROUND:
            state.step = keys[0]
            continue
        at = keys.index(state.step) + 1
        state.step = keys[at] if at < len(keys) else DONE
        if go is Go.ASKED:
            return


def start_stage(state: RsrState, ctx: Context, key: str) -> None:
    """What each stage does on its own before anyone decides (RSR 4.21, RSR 4.22, RSR 10.4, RSR 17.x)."""
    if key == "naval":
        NAVAL.start(state, ctx)
    elif key.endswith("supply"):
        state.fleets_moved = False
    elif key.endswith("reinforcement"):
        reinforcements.start_of_stage(state, ctx, key.split(".")[0])
    elif key == "japan.movement":
        activation.february_surprise(state, ctx)  # RSR 18.81
    if key.endswith("combat"):
        if key == "japan.combat":
            activation.february_surprise(state, ctx)  # RSR 18.81, where the scenario has no movement stage
        state.retreat_results = []
        state.attacked_sources = []


def next_stage(state: RsrState) -> None:
    state.stage_index += 1
    state.assault_round = 1
    state.last_round = False
    state.declared_round = []
    state.round = RoundRecord()
    state.attempted = []
    state.step = ""
    if state.stage_index >= len(state.sequence):
        state.stage_index = 0
        state.turn += 1


def run_naval(key: str) -> Run:
    """RSR 4.11-4.15: a step of the Strategic Naval Sequence (sequence.NAVAL_STEPS), run by naval/flow.py."""
    def run(state: RsrState, ctx: Context, side: str) -> Go:
        return NAVAL.step(state, ctx, key)
    return run


def run_naval_arrivals(state: RsrState, ctx: Context, side: str) -> Go:
    """RSR 7.4-7.5, RSR 18.5: the Reinforcement Stage first settles the naval game's landings (Japan) or disbanding
    (Russia), where the naval game has any: asked once."""
    state.ask = NAVAL.arrivals(state)
    return Go.ON if state.ask is None else Go.ASKED


def run_heading(state: RsrState, ctx: Context, side: str) -> Go:
    """The report heads what follows the Reinforcement Stage order (the movement stage's activation dice)
    with the next stage's name: an event only, never in a state's opening events."""
    following = STAGES[state.sequence[(state.stage_index + 1) % len(state.sequence)]]
    ctx.emit("segment", following.name, f"RSR {following.case}", stage=following.key)
    return Go.ON


def run_end_of_turn(state: RsrState, ctx: Context, side: str) -> Go:
    """RSR 4.35: after the trenches (RSR 13.16), every unit flips to its unactivated side and the turn ends; the
    naval game's upkeep (RSR 18.1 repairs, RSR 18.2 captures, RSR 8.78 morale in port); victory (RSR 19.4)."""
    for unit in state.units.values():
        unit.activated = False
    NAVAL.end_of_turn(state, ctx)
    state.moved = []
    state.acting_commander = {}
    ctx.emit("stage", f"end of game turn {state.turn} ({activation.month(state)})", "RSR 4.35")
    outcome = victory.end_of_turn_check(state)
    if outcome is not None:
        state.finished = True
        state.result = outcome
        names = ", ".join(state.static.places[h].name if h in state.static.places else h
                          for h in outcome["cities"]) or "none"
        ctx.emit("game-over", f"the game ends after game turn {state.turn}: {outcome['winner'].capitalize()} "
                 f"{outcome['level']} victory; Japan controls {plural(len(outcome['cities']), 'city')} ({names}); "
                 f"{outcome['case']}", "RSR 19.4", winner=outcome["winner"], level=outcome["level"],
                 decided_by=outcome["case"], cities=outcome["cities"], turn=outcome["turn"])
    return Go.ON


# every step of sequence.py by its key, in the order of the sequence of play
STEPS: dict[str, Run] = {
    "naval-surprise": run_naval("naval-surprise"),
    "naval-orders": run_naval("naval-orders"),
    "naval-search": run_naval("naval-search"),
    "naval-rounds": run_naval("naval-rounds"),
    "naval-attrition": run_naval("naval-attrition"),
    "supply": supply.run_supply,
    "fleets": supply.run_fleet_moves,
    "naval-arrivals": run_naval_arrivals,
    "assignments": reinforcements.run_assignments,
    "heading": run_heading,
    "orders": movement.run_orders,
    "overstack": stacking.run_overstack,
    "end": movement.run_end,
    "retreats": retreat.run_retreats,
    "attacks": combat.run_attacks,
    "resolve": combat.run_resolve,
    "end-round": combat.run_end_round,
    "trenches-russia": defences.run_trenches("russia"),
    "trenches-japan": defences.run_trenches("japan"),
    "end-of-turn": run_end_of_turn,
}
