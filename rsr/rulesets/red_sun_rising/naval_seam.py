"""Where the land game meets the naval game (naval/flow.py), in one object: :data:`NAVAL`.

The land game's questions are declared decisions held in ``state.ask`` (ruleset.py, rsr/decisions.py); the
naval game still builds and applies its own requests, so while ``state.ask`` is None the game
waits for the naval game's question, if any. Every call from the land side to the naval side goes through
this object, and nothing else imports naval/flow.py:

* ``setup``: the naval set-up at the start (RSR 19.1-19.2);
* ``start`` and ``run``: the Strategic Naval Sequence, one stage of the sequence of play (RSR 4.1; its one
  step, sequence.NAVAL_SEQUENCE); ``run`` says whether the stage is over;
* ``question``: the naval question the game waits for now (the naval stage's, or the landings and disbanding
  of the Reinforcement Stages, RSR 7.4-7.5, RSR 18.5: the step ``naval`` of sequence.REINFORCEMENT waits for it);
* ``apply``, ``answer_by_policy`` and ``POLICIES``: answering it (ruleset.py calls them while ``state.ask``
  is None);
* ``end_of_turn`` (RSR 18.1, RSR 18.2, RSR 8.78) and ``describe``.

Once the naval game's questions are declared decisions too, they join ruleset.py's table and ``state.ask``;
``question``, ``apply``, ``answer_by_policy`` and ``POLICIES`` then go, and ``run`` (with the Reinforcement
Stage's naval step) raises them as every land step does.
"""

from __future__ import annotations

from typing import Any

from rsr.decisions import Policy
from rsr.engine import Context, Request
from rsr.rulesets.red_sun_rising.state import RsrState, Unit


def _flow() -> Any:
    """naval/flow.py, imported when the rules first need it: a land game's ``rsr status`` never does (start-up)."""
    from rsr.rulesets.red_sun_rising.naval import flow

    return flow


def embarked_unit(unit_id: str, counter: Any) -> Unit:
    """A land unit off the land map, on a merchant fleet or just formed (RSR 7.4, RSR 18.5)."""
    return Unit(id=unit_id, side=counter.side, hex=None, steps=counter.steps)


# the naval questions' standing policies (docs/protocol.md), listed with the land ones
POLICIES = (
    Policy("disband", ("never", "ask"), default="never",  # RSR 18.5
           answer=lambda state, ask, request, rule: {"disband": {}} if rule == "never" else None),
    Policy("raid", ("most-cargo", "lowest-id", "ask"), default="most-cargo",  # RSR 7.2: which merchant fleet
           answer=lambda state, ask, request, rule: (  # a raid sinks
               {"sink": _flow().raid_by_policy(state.naval, int(request.options["hex"]), rule)}
               if rule in ("most-cargo", "lowest-id") else None)),
)
_BY_KIND = {"naval-disband": POLICIES[0], "naval-raid": POLICIES[1]}


class NavalSeam:
    """The land game's one door into the naval game (see the module's docstring)."""

    def setup(self, state: RsrState, spec: dict[str, Any]) -> Any:
        """RSR 19.1-19.2: ships, fleets, and merchant fleets with their cargo."""
        return _flow().setup(state, state.naval_static, spec, embarked_unit)

    def start(self, state: RsrState, ctx: Context) -> None:
        _flow().start(state, ctx)

    def run(self, state: RsrState, ctx: Context) -> bool:
        """RSR 4.11-4.15: carry the naval stage on; True once it is over."""
        return bool(_flow().advance(state, ctx))

    def question(self, state: RsrState) -> Request | None:
        """The naval question the game waits for now, or None."""
        key = state.stage_key()
        if key == "naval":
            return _flow().next_request(state, state.request_base())
        if state.naval is None:
            return None
        if key == "japan.reinforcement":
            return _flow().landing_request(state, state.request_base())  # RSR 7.4-7.5
        if key == "russia.reinforcement":
            return _flow().disband_request(state, state.request_base())  # RSR 18.5
        return None

    def apply(self, state: RsrState, ctx: Context, request: Request, answer: Any) -> None:
        flow = _flow()
        if request.kind == "naval-landings":
            flow.apply_landings(state, ctx, answer)
        elif request.kind == "naval-disband":
            flow.apply_disband(state, ctx, answer, embarked_unit)
        else:
            flow.apply(state, ctx, request, answer)

    def answer_by_policy(self, state: RsrState, request: Request, rule: Any) -> Any:
        policy = _BY_KIND.get(request.kind)
        return None if policy is None else policy.answer(state, None, request, rule)

    def end_of_turn(self, state: RsrState, ctx: Context) -> None:
        """RSR 18.1 repairs, RSR 18.2 captures, RSR 8.78 morale in port."""
        _flow().end_stage(state, ctx)

    def describe(self, state: RsrState) -> list[str]:
        return list(_flow().describe(state)) if state.naval is not None else []


NAVAL = NavalSeam()
