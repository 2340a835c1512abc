"""The event kinds: every kind of event a pass can record, declared once with what it means.

The engine's own kinds are here (``ENGINE_EVENT_KINDS``); each ruleset declares the kinds its rules emit in
the ``events`` module of its package (``EVENT_KINDS``: kind -> meaning). ``event_kinds(ruleset_id)`` is the
catalogue of one ruleset: the engine's kinds and its own. The case file schema (schemas/case.schema.json)
lists the same kinds per ruleset, so a case expecting an event no rule can emit is refused; tools/event_kinds.py
writes that list from this catalogue and tests/test_event_kinds.py checks they agree and that every event
the case files and the corpus emit is declared.
"""

from __future__ import annotations

import importlib

from rsr.rulesets import BUILTIN

#: the kinds the engine itself records, whatever the ruleset
ENGINE_EVENT_KINDS: dict[str, str] = {
    "die": "a die rolled from the pass's dice: its sides, value, number in the stream and purpose",
    "policy": "a standing policy set by a side, or a request answered by one of its policies",
    "void": "an answer, or an action a policy planned, found void after the dice (contract 2): why; the request"
            " is asked again",
}

def ruleset_event_kinds(ruleset_id: str) -> dict[str, str]:
    """The kinds the rules of built-in ruleset ``ruleset_id`` emit (``<its package>.events``), without the
    engine's; empty for a ruleset that is not built in."""
    package = BUILTIN.get(ruleset_id)
    if package is None:
        return {}
    kinds: dict[str, str] = importlib.import_module(f"{package}.events").EVENT_KINDS
    return kinds


def event_kinds(ruleset_id: str) -> dict[str, str]:
    """Every kind an event of a ``ruleset_id`` game may have: the engine's and the ruleset's own."""
    return {**ENGINE_EVENT_KINDS, **ruleset_event_kinds(ruleset_id)}
