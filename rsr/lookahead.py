"""The whole turn ahead: every question the game will ask one player before the next die or the opponent.

Pure (no files, no clock, no dice): from the position an author writes against, the walk answers each
request of the author's side with what the player wrote for it (``written``) or, where nothing is written
yet, with the answer that does nothing (the template with its lists emptied; the template's own example where
the rules refuse that), and dry-runs the rules
(``rsr.engine.dry_run``, no dice) to see what the game asks next. It stops at the first die, at a question
for the opponent, or at the end of the game. ``rsr orders template`` lays out every question reached at
once, ``rsr orders check`` says which of them the orders answer, so a player writes the whole turn in one
packet instead of one question per packet.

Questions that come only after a die can still be answered in the same packet where the ruleset has a
standing policy for a plan signed before the dice (RS/RS 5.0, 6.1: the prepared combats planned with the
fire missions). Such a question is found by walking on as if the answer that rolls did nothing (the
options are those the position has before the dice), and it is answered by the policy input the ruleset's table
(:func:`prepared_table`) names for the end of its request id (``/prepared/combats``, ``/prepared/c<n>/attack-choices``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rsr.engine import Position, Request, Ruleset, dry_run
from rsr.errors import BadInput
from rsr.rulesets import get_ruleset

Inputs = list[dict[str, Any]]


@dataclass(frozen=True)
class Prepared:
    """How a question asked after a die is answered beforehand: by the standing policy ``policy``, whose
    rule is made from the answer the player writes (``rule``) and the game turn of the request."""

    policy: str
    rule: Callable[[int, Any], Any]
    note: str
    answer: Callable[[Any], Any] | None = None  # the answer a written rule stands for (to walk on after it)


def prepared_table(ruleset_id: str) -> dict[str, Prepared]:
    """The questions asked after a die that a plan signed before the dice may answer, by the end of their
    request id: the ruleset's ``prepared_questions`` hook (rsr/rulesets/base.py)."""
    return get_ruleset(ruleset_id).prepared_questions()


@dataclass
class Question:
    """One request of the walk, and the input that answers it in the walk."""

    request: Request
    item: dict[str, Any] | None       # the input used to walk on (None: the walk could not go on)
    source: str                       # "written", "nothing" (not written: nothing, else the template's example),
                                      # "sealed" (a choice sealed earlier, revealed), "planned" (by a plan)
    prepared: Prepared | None = None  # set for a question after a die, answered by a policy signed now
    at: Position | None = None        # the position where the game asks it (in the walk)


@dataclass
class Walk:
    """Every question of the player's side before the next die or the opponent's answer."""

    questions: list[Question]
    stopped_at_die: str | None = None        # the die the walk stopped at (its purpose)
    next_request: Request | None = None      # the opponent's question the walk reached, if it reached one
    blocked: str | None = None               # why the walk could not go on (a question needs a real answer)
    prepared: list[Question] = field(default_factory=list)  # questions after the die answered beforehand

    def written_ids(self) -> list[str]:
        return [q.request.id for q in self.questions if q.source == "written"]


def emptied(template: Any) -> Any:
    """The template with every list emptied: the answer that does nothing (no attacks, no moves)."""
    if isinstance(template, list):
        return []
    if isinstance(template, dict):
        return {key: emptied(value) for key, value in template.items()}
    return template


def prepared_for(ruleset_id: str, request_id: str) -> Prepared | None:
    """The entry of :func:`prepared_table` for the end of ``request_id``, if any."""
    for suffix, prepared in sorted(prepared_table(ruleset_id).items()):
        if re.search(f"{suffix}$", request_id):  # (a suffix may name a number: r"/c\d+/")
            return prepared
    return None


def game_turn(request_id: str) -> int | None:
    """The game turn a request id names (``t2/japan/...`` gives 2)."""
    found = re.match(r"t(\d+)/", request_id)
    return int(found.group(1)) if found else None


def prepared_input(ruleset_id: str, request_id: str, answer: Any) -> dict[str, Any] | None:
    """The policy input answering ``request_id`` (asked after a die) with ``answer``, signed now."""
    prepared, turn = prepared_for(ruleset_id, request_id), game_turn(request_id)
    if prepared is None or turn is None:
        return None
    return {"policy": prepared.policy, "rule": prepared.rule(turn, answer)}


def walk(ruleset: Ruleset, position: Position, waiting: Request | None, side: str, seq: int,
         written: Inputs | None = None, prepare: Callable[[Inputs], Inputs] = lambda items: items,
         unsealing: Callable[[Request], dict[str, Any] | None] = lambda request: None,
         limit: int = 64) -> Walk:
    """Walk the questions ``side`` will be asked from ``position`` (where the game asks ``waiting``).

    ``written`` are the player's inputs so far (answers by request id, policies); ``prepare`` turns
    inputs into what is signed (sealing), ``unsealing`` gives the reveal of a choice sealed earlier.
    Raises BadInput if a written answer is refused where the walk reaches it.
    """
    written = list(written or [])
    policies = [item for item in written if "policy" in item]
    by_request = {item["request"]: item for item in written if isinstance(item.get("request"), str)}
    found = _walk(ruleset, position, waiting, side, seq, policies, by_request, prepare, unsealing, limit)
    if found.stopped_at_die and found.questions and found.questions[-1].item is not None:
        found.prepared = _after_the_die(ruleset, position, side, seq, policies, by_request, found, prepare,
                                        unsealing, limit)
    return found


def _walk(ruleset: Ruleset, position: Position, waiting: Request | None, side: str, seq: int, chosen: Inputs,
          by_request: dict[str, dict[str, Any]], prepare: Callable[[Inputs], Inputs],
          unsealing: Callable[[Request], dict[str, Any] | None], limit: int,
          plans: Inputs | None = None) -> Walk:
    chosen = list(chosen)
    result = Walk([])
    current, at = waiting, position
    while current is not None and current.side == side and len(result.questions) < limit:
        item, source = _answer_for(current, by_request, unsealing)
        if source == "nothing" and plans:
            planned = _planned_answer(ruleset.id, current, plans)
            item, source = (planned, "planned") if planned is not None else (item, source)
        if item is None:
            result.questions.append(Question(current, None, source))
            result.blocked = f"{current.id} waits for the choice you sealed, which is not on this machine"
            return result
        question = Question(current, item, source, at=at)
        result.questions.append(question)
        try:
            if source == "nothing":  # the template's own example where the rules take it, else nothing
                item, run = _example_or_nothing(ruleset, position, side, seq, chosen, current, item, prepare)
                question.item = item
            else:
                run = dry_run(ruleset, position, side, seq, prepare([*chosen, item]))
        except BadInput as exc:
            if source == "written":
                raise
            question.item = None
            result.blocked = f"what the game asks after {current.id} depends on your answer to it ({exc})"
            return result
        chosen.append(item)
        if run.stopped_at_die:
            result.stopped_at_die = run.stopped_at_die
            return result
        current, at = run.next_request, run.position
    result.next_request = current
    return result


def _example_or_nothing(ruleset: Ruleset, position: Position, side: str, seq: int, chosen: Inputs,
                        request: Request, nothing: dict[str, Any],
                        prepare: Callable[[Inputs], Inputs]) -> tuple[dict[str, Any], Any]:
    """Walk on past a question not written yet with the answer that does nothing, or, where the rules refuse
    it, with the template's example answer (what a player who leaves it as it is signs)."""
    try:
        return nothing, dry_run(ruleset, position, side, seq, prepare([*chosen, nothing]))
    except BadInput:
        example = {"request": request.id, "answer": request.template}
        if example == nothing:
            raise
        return example, dry_run(ruleset, position, side, seq, prepare([*chosen, example]))


def _answer_for(request: Request, by_request: dict[str, dict[str, Any]],
                unsealing: Callable[[Request], dict[str, Any] | None]) -> tuple[dict[str, Any] | None, str]:
    if request.unseals is not None:
        return unsealing(request), "sealed"
    if request.id in by_request:
        return by_request[request.id], "written"
    return {"request": request.id, "answer": emptied(request.template)}, "nothing"


def _planned_answer(ruleset_id: str, request: Request, plans: Inputs) -> dict[str, Any] | None:
    """The answer a written plan (a policy of :func:`prepared_table`) gives ``request``, to walk on after it."""
    prepared = prepared_for(ruleset_id, request.id)
    if prepared is None or prepared.answer is None:
        return None
    rule = next((item.get("rule") for item in plans if item.get("policy") == prepared.policy), None)
    return None if rule is None else {"request": request.id, "answer": prepared.answer(rule)}


def _after_the_die(ruleset: Ruleset, position: Position, side: str, seq: int, policies: Inputs,
                   by_request: dict[str, dict[str, Any]], found: Walk, prepare: Callable[[Inputs], Inputs],
                   unsealing: Callable[[Request], dict[str, Any] | None], limit: int) -> list[Question]:
    """The questions after the die that :func:`prepared_table` lets the player answer now: walk on as if the
    answer that rolls did nothing (its lists emptied), the questions after it answered as written (or by the
    written plan), and keep the questions the table names."""
    last = found.questions[-1]
    if last.item is None or "answer" not in last.item:
        return []
    quiet = dict(by_request)
    quiet.update({q.request.id: q.item for q in found.questions if q.item is not None and "request" in q.item})
    quiet[last.request.id] = {"request": last.request.id, "answer": emptied(last.item["answer"])}
    if quiet[last.request.id] == last.item:
        return []  # the die is not the player's choice: nothing known beyond it
    planned = {p.policy for p in prepared_table(ruleset.id).values()}
    plans = [item for item in policies if item.get("policy") in planned]
    policies = [item for item in policies if item.get("policy") not in planned]  # (they would answer them)
    try:
        beyond = _walk(ruleset, position, found.questions[0].request, side, seq, policies,
                       {k: v for k, v in quiet.items() if v is not None}, prepare, unsealing, limit, plans)
    except BadInput:
        return []
    seen = {q.request.id for q in found.questions}
    later = []
    for question in beyond.questions:
        if question.request.id in seen:
            continue
        prepared = prepared_for(ruleset.id, question.request.id)
        if prepared is not None:
            later.append(Question(question.request, None, "prepared", prepared, question.at))
    return later
