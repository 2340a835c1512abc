"""The kinds of thing a rulebook says about particular hexes, as the geography files of tools/rsr_map and
tools/rs_map list them: places pinned to a hex, facts checked after drawing, set-up areas, bridges, rule
places, and local nudges (a displacement of the real geography, or a hex's classification set by hand).

Entries cite case numbers (``rulebook: <case>``, ``errata: ...``) or say how they were derived; rulebook
text is never copied.
"""

from __future__ import annotations

from dataclasses import dataclass, field

LatLon = tuple[float, float]


@dataclass(frozen=True)
class Pinned:
    """A place the rules put in a given hex."""

    hex: str
    name: str
    provenance: str
    city: bool = False
    port: bool = False
    fortress: bool = False
    railhead: str | None = None


@dataclass(frozen=True)
class HexFact:
    """A fact the rules state about a hex, checked after the map is drawn."""

    hex: str
    land: bool = True
    coastal: bool = False
    rail: bool = False
    cite: str = ""


@dataclass(frozen=True)
class Control:
    """Move real point `real` to `target` (a hex number, meaning its centre, or a point), fading with
    distance (Gaussian, `sigma` degrees of latitude)."""

    name: str
    real: LatLon
    target: str | LatLon
    sigma: float
    why: str = field(default="")


@dataclass(frozen=True)
class Setup:
    """A scenario's set-up area and the bank of the main river it must lie on."""

    scenario: str
    side: str
    label: str
    hexes: tuple[str, ...]
    bank: str  # left | right
    provenance: str
    scattered: bool = False  # single hexes of separate units, not one area
    note: str = ""


@dataclass(frozen=True)
class Bridge:
    side: str
    river: str  # the hexside feature it crosses
    name: str
    scenarios: tuple[str, ...]
    provenance: str
    from_turn: dict[str, str] = field(default_factory=dict)
    armor_may_use: bool = True
    note: str = ""


@dataclass(frozen=True)
class Place:
    """A hex the rules give a role (victory points, depot), with the bank it must be on."""

    hex: str
    name: str
    provenance: str
    bank: str
    victory_points: int = 0
    depot: bool = False
    name_provenance: str = ""


# A nudge: (kind, hex, value, reason). Kinds: bank (left|right), plateau (yes|no), holsten (north|south),
# claim (inside|outside), height (NAME:add|NAME:remove), terrain (a terrain type).
Nudge = tuple[str, str, str, str]
