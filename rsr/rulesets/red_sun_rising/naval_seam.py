"""Where the land game meets the naval game (naval/flow.py), in one object: :data:`NAVAL`.

Every question of the game, land or naval, is a declared decision in one table (ruleset.py) and waits as one
value, ``state.ask``; the naval game's questions are raised there by the naval steps of the sequence of play
(turn.py). Every other call from the land side to the naval side goes through this object, and nothing else
imports naval/flow.py, so that a land game's ``rsr status`` never loads the naval rules (start-up):

* ``setup``: the naval set-up at the start (RSR 19.1-19.2);
* ``start`` and ``step``: the Strategic Naval Sequence, one stage of the sequence of play (RSR 4.1), and each of
  its steps (sequence.NAVAL_STEPS), which leaves its question in ``state.ask``;
* ``arrivals``: the landings and disbanding of the Reinforcement Stages (RSR 7.4-7.5, RSR 18.5: the step
  ``naval-arrivals`` of sequence.REINFORCEMENT raises it);
* ``decisions``: the naval decisions, for the table (loaded when a game first asks one);
* ``end_of_turn`` (RSR 18.1, RSR 18.2, RSR 8.78) and ``describe``.
"""

from __future__ import annotations

from typing import Any, cast

from rsr.decisions import Decision
from rsr.engine import Context
from rsr.rulesets.red_sun_rising.sequence import Go
from rsr.rulesets.red_sun_rising.state import Ask, RsrState, Unit


def _flow() -> Any:
    """naval/flow.py, imported when the rules first need it: a land game's ``rsr status`` never does (start-up)."""
    from rsr.rulesets.red_sun_rising.naval import flow

    return flow


def embarked_unit(unit_id: str, counter: Any) -> Unit:
    """A land unit off the land map, on a merchant fleet or just formed (RSR 7.4, RSR 18.5)."""
    return Unit(id=unit_id, side=counter.side, hex=None, steps=counter.steps)


class NavalSeam:
    """The land game's one door into the naval game (see the module's docstring)."""

    def setup(self, state: RsrState, spec: dict[str, Any]) -> Any:
        """RSR 19.1-19.2: ships, fleets, and merchant fleets with their cargo."""
        return _flow().setup(state, state.naval_static, spec, embarked_unit)

    def start(self, state: RsrState, ctx: Context) -> None:
        _flow().start(state, ctx)

    def step(self, state: RsrState, ctx: Context, key: str) -> Go:
        """RSR 4.11-4.15: one step of the naval stage (sequence.NAVAL_STEPS); its question waits in ``state.ask``."""
        return cast(Go, _flow().STEPS[key](state, ctx))

    def arrivals(self, state: RsrState) -> Ask | None:
        """RSR 7.4-7.5, RSR 18.5: the landings (Japan) or disbanding (Russia) of a Reinforcement Stage, if any."""
        return _flow().land_stage_ask(state, state.request_base()) if state.naval is not None else None

    def decisions(self) -> tuple[Decision, ...]:
        return tuple(_flow().DECISIONS.values())

    def end_of_turn(self, state: RsrState, ctx: Context) -> None:
        """RSR 18.1 repairs, RSR 18.2 captures, RSR 8.78 morale in port."""
        _flow().end_stage(state, ctx)

    def describe(self, state: RsrState) -> list[str]:
        return list(_flow().describe(state)) if state.naval is not None else []


NAVAL = NavalSeam()
