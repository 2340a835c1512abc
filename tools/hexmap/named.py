"""The kinds of thing a rulebook says about particular hexes, as the geography files of tools/rsr_map and
tools/rs_map list them: facts checked after drawing, set-up areas, rule places, and local nudges (a
displacement of the real geography, or a hex's classification set by hand). Places pinned to a hex and
bridges are the game's own types (rsr/rulesets/red_sun_rising/data.py Place, rsr/rulesets/red_star/data.py
Bridge), so the generator and the game agree on what they are.

Entries cite case numbers (``rulebook: <case>``, ``errata: ...``) or say how they were derived; rulebook
text is never copied.
"""

from __future__ import annotations

from dataclasses import dataclass, field

LatLon = tuple[float, float]


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
