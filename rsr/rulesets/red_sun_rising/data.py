"""The static data of a Red Sun Rising game (map, counters, charts), read from the pinned scenario."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rsr.errors import BadInput
from rsr.hexgrid import Grid, hexside
from rsr.rulesets.red_sun_rising.crt import LandCrt, load_crt


@dataclass(frozen=True)
class Values:
    strength: int
    command: int
    movement: int


@dataclass(frozen=True)
class Counter:
    """A unit's printed values: ``full`` and, for two-step units, ``reduced`` (RSR 11.5)."""

    id: str
    side: str
    name: str
    type: str
    steps: int
    full: Values
    reduced: Values | None
    command_unit: bool
    provenance: str

    def values(self, steps: int) -> Values:
        if self.command_unit or steps >= self.steps or self.reduced is None:
            return self.full
        return self.reduced


@dataclass(frozen=True)
class Place:
    hex: str
    name: str
    city: bool = False
    port: bool = False
    fortress: bool = False
    provenance: str = ""


@dataclass(frozen=True)
class TerrainEffect:
    move: Fraction | None
    stacking: int | None
    die: int | None
    provenance: str


@dataclass
class Static:
    """Everything fixed for the whole game; shared, never copied, not part of the hashed state."""

    grid: Grid
    terrain: dict[str, str]
    hexsides: dict[str, list[str]]
    places: dict[str, Place]
    counters: dict[str, Counter]
    crt: LandCrt
    terrain_effects: dict[str, TerrainEffect]
    feature_effects: dict[str, TerrainEffect]
    map_provenance: str
    provenance_of_hex: dict[str, str] = field(default_factory=dict)

    def __deepcopy__(self, memo: dict[int, Any]) -> Static:
        return self

    def counter(self, unit_id: str) -> Counter:
        try:
            return self.counters[unit_id]
        except KeyError as exc:
            raise BadInput(f"unknown unit {unit_id!r}") from exc

    def side_features(self, first: str, second: str) -> list[str]:
        return self.hexsides.get(hexside(first, second), [])

    def is_fortress(self, hex_id: str) -> bool:
        place = self.places.get(hex_id)
        return bool(place and place.fortress)


def _fraction(text: str | None) -> Fraction | None:
    return None if text is None else Fraction(text)


def _values(raw: dict[str, Any]) -> Values:
    return Values(int(raw["strength"]), int(raw["command"]), int(raw["movement"]))


def _provenance(item: dict[str, Any], default: str) -> str:
    mark = item.get("provenance", default)
    if isinstance(mark, dict):
        return "; ".join(f"{k} {v}" for k, v in sorted(mark.items()))
    return str(mark)


def load_static(data: dict[str, Any]) -> Static:
    """Build :class:`Static` from the combined scenario document (already schema-validated)."""
    game_map = data["map"]
    grid_raw = game_map["grid"]
    grid = Grid(grid_raw["shifted_lines"], tuple(grid_raw["lines"]), tuple(grid_raw["positions"]))
    default = game_map.get("default_provenance", "provisional")
    hexsides: dict[str, list[str]] = {}
    for item in game_map.get("hexsides", []):
        first, second = item["side"].split("-")
        if not grid.adjacent(first, second):
            raise BadInput(f"map hexside {item['side']} joins hexes that are not adjacent")
        hexsides.setdefault(hexside(first, second), []).append(item["feature"])
    places = {
        p["hex"]: Place(p["hex"], p.get("name", ""), bool(p.get("city")), bool(p.get("port")),
                        bool(p.get("fortress")), _provenance(p, default))
        for p in game_map.get("places", [])
    }
    counters: dict[str, Counter] = {}
    counter_data = data["counters"]
    cdefault = counter_data.get("default_provenance", "provisional")
    for raw in counter_data.get("command_units", []):
        values = Values(0, int(raw["command"]), int(raw["movement"]))
        counters[raw["id"]] = Counter(raw["id"], raw["side"], raw["name"], raw.get("kind", "army"), 1, values,
                                      None, True, _provenance(raw, cdefault))
    for raw in counter_data.get("combat_units", []):
        reduced = _values(raw["reduced"]) if raw.get("reduced") else None
        counters[raw["id"]] = Counter(raw["id"], raw["side"], raw["name"], raw["type"], int(raw["steps"]),
                                      _values(raw["full"]), reduced, False, _provenance(raw, cdefault))
    tables = data["tables"]
    effects = tables["terrain_effects"]
    terrain_effects = {
        t["terrain"]: TerrainEffect(_fraction(t["move"]), t["stacking"], t["die"], t["provenance"])
        for t in effects["terrain"]
    }
    feature_effects = {
        f["feature"]: TerrainEffect(_fraction(f["move"]), f["stacking"], f["die"], f["provenance"])
        for f in effects["features"]
    }
    return Static(
        grid=grid,
        terrain=dict(game_map["terrain"]),
        hexsides=hexsides,
        places=places,
        counters=counters,
        crt=load_crt(tables["land_crt"]),
        terrain_effects=terrain_effects,
        feature_effects=feature_effects,
        map_provenance=default,
    )
