"""Provenance of scenario data (docs/data-format.md) and the plain-data habits both rulesets share."""

from __future__ import annotations

from typing import Any

SOURCES = ("rulebook", "errata", "derived", "provisional", "overlay")


def is_provisional(provenance: str) -> bool:
    """True when a table cell or map item is our own stand-in; reports flag results that used one."""
    return provenance.startswith("provisional")


class SharedStatic:
    """Mixin for a game's fixed data: shared by every copy of the state, never copied, never hashed."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return self
