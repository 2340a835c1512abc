"""The rulesets and their registry: a ruleset id names a factory; built-in rulesets are imported on first use.

The engine knows nothing of the rulesets (data flows one way: packets -> replay -> positions); the
game layer asks here for a ruleset by the id an invitation names. Importing this package imports no
ruleset, so commands that never apply a rule (``rsr --help``, ``rsr dice roll``) do not pay for them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from rsr.errors import BadInput

if TYPE_CHECKING:
    from rsr.rulesets.base import BaseRuleset as Ruleset

# built-in rulesets: id -> the module whose import registers it
BUILTIN: dict[str, str] = {
    "red-sun-rising": "rsr.rulesets.red_sun_rising",
    "red-star": "rsr.rulesets.red_star",
}

#: the ruleset a scenario name picks when no ruleset has it alone, and the scenario ``rsr demo`` plays in each
DEFAULT_RULESET = "red-sun-rising"
DEMO_SCENARIOS: dict[str, str] = {"red-sun-rising": "liaoyang-1904", "red-star": "july-1939-contact"}

REGISTRY: dict[str, Callable[[], Ruleset]] = {}


def register(ruleset_id: str) -> Callable[[Callable[[], Ruleset]], Callable[[], Ruleset]]:
    """Class decorator: make a ruleset available by id."""

    def deco(factory: Callable[[], Ruleset]) -> Callable[[], Ruleset]:
        REGISTRY[ruleset_id] = factory
        return factory

    return deco


def known_rulesets() -> list[str]:
    return sorted(set(BUILTIN) | set(REGISTRY))


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset named ``ruleset_id``; BadInput naming the known ones if there is none."""
    if ruleset_id not in REGISTRY and ruleset_id in BUILTIN:
        importlib.import_module(BUILTIN[ruleset_id])
    if ruleset_id not in REGISTRY:
        raise BadInput(f"unknown ruleset {ruleset_id!r} (known: {', '.join(known_rulesets())})")
    return REGISTRY[ruleset_id]()
