"""The static data of a Red Sun Rising game (map, counters, charts), read from the pinned scenario."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rsr.errors import BadInput
from rsr.hexgrid import Grid, hexside
from rsr.provenance import SharedStatic
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
    alternate_for: str | None = None   # RSR 18.7: Smirnov may command in Stoessel's place
    setup: str = ""                    # "build": the Russian may build it with command points (RSR 17.0)

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
    railhead: str | None = None
    provenance: str = ""


@dataclass(frozen=True)
class Turn:
    """One Game-Turn of the Turn Record Track (season drives RSR 9.17 and more)."""

    number: int
    month: str
    season: str
    russian_command_points: int = 0          # RSR 17.13
    japanese_replacement_step: bool = False  # RSR 17.22
    arrive: tuple[str, ...] = ()             # RSR 17.11
    withdraw: tuple[str, ...] = ()           # RSR 17.3
    cities_required: int | None = None       # RSR 19.4: at the end of a season, the cities Japan must hold


@dataclass(frozen=True)
class TerrainEffect:
    move: Fraction | None
    stacking: int | None
    die: int | None
    provenance: str


@dataclass
class Static(SharedStatic):
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
    rail_links: frozenset[str] = frozenset()     # hexsides along which a rail line runs (RSR 18.4)
    road_links: frozenset[str] = frozenset()     # hexsides along which a road runs (RSR 9.46)
    rail_hexes: frozenset[str] = frozenset()
    turns: tuple[Turn, ...] = ()
    victory_cities: tuple[str, ...] = ()        # RSR 19.4: the hexes of the cities the track counts
    code_areas: dict[str, str] = field(default_factory=dict)  # coastal hex -> naval code area (RSR 7.5)
    provenance_of_hex: dict[str, str] = field(default_factory=dict)

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

    def is_land(self, hex_id: str) -> bool:
        return self.grid.on_map(hex_id) and self.terrain.get(hex_id, "sea") != "sea"

    def turn_info(self, number: int) -> Turn | None:
        return next((t for t in self.turns if t.number == number), None)

    def railheads(self, side: str) -> list[str]:
        return sorted(h for h, p in self.places.items() if p.railhead == side)


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
                        bool(p.get("fortress")), p.get("railhead"), _provenance(p, default))
        for p in game_map.get("places", [])
    }
    rail_links = _links(grid, game_map.get("rail", []), "rail")
    road_links = _links(grid, game_map.get("roads", []), "road")
    rail_hexes = frozenset(h for line in game_map.get("rail", []) for h in line["hexes"])
    # RSR 19.4: a scenario may set its own cities required at a turn's end in place of the track's (campaign-1904)
    required = {int(k): v for k, v in sorted(((data.get("scenario") or {}).get("cities_required") or {}).items())}
    turns = tuple(Turn(int(t["turn"]), str(t["month"]), str(t["season"]), int(t.get("russian_command_points", 0)),
                       bool(t.get("japanese_replacement_step", False)), tuple(t.get("arrive", [])),
                       tuple(t.get("withdraw", [])),
                       _required(required[int(t["turn"])] if int(t["turn"]) in required else t.get("cities_required")))
                  for t in data.get("track", {}).get("turns", []))
    by_name = {p.name: h for h, p in places.items()}
    victory_cities = tuple(sorted(
        str(c["hex"]) if c.get("hex") else by_name.get(str(c["name"]), "")
        for c in data.get("track", {}).get("cities", [])))
    if "" in victory_cities:
        raise BadInput("track cities: a city of 19.4 has no hex and no place of that name on the map")
    counters: dict[str, Counter] = {}
    counter_data = data["counters"]
    cdefault = counter_data.get("default_provenance", "provisional")
    for raw in counter_data.get("command_units", []):
        values = Values(0, int(raw["command"]), int(raw["movement"]))
        counters[raw["id"]] = Counter(raw["id"], raw["side"], raw["name"], raw.get("kind", "army"), 1, values,
                                      None, True, _provenance(raw, cdefault), raw.get("alternate_for"))
    for raw in counter_data.get("combat_units", []):
        reduced = _values(raw["reduced"]) if raw.get("reduced") else None
        setup = raw.get("setup", "")
        counters[raw["id"]] = Counter(raw["id"], raw["side"], raw["name"], raw["type"], int(raw["steps"]),
                                      _values(raw["full"]), reduced, False, _provenance(raw, cdefault),
                                      setup=setup if isinstance(setup, str) else "map")
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
        rail_links=rail_links,
        road_links=road_links,
        rail_hexes=rail_hexes,
        turns=turns,
        victory_cities=victory_cities,
        code_areas={h: str(area["area"]) for area in game_map.get("code_areas", []) for h in area["hexes"]},
    )


def _links(grid: Grid, lines: list[dict[str, Any]], what: str) -> frozenset[str]:
    """The hexsides a rail line or road runs along: between consecutive hexes of its path."""
    links = set()
    for line in lines:
        hexes = line["hexes"]
        for first, second in zip(hexes, hexes[1:], strict=False):
            if not grid.adjacent(first, second):
                name = line.get("line") or line.get("name")
                raise BadInput(f"map {what} {name}: {first} and {second} are not adjacent")
            links.add(hexside(first, second))
    return frozenset(links)


def _required(value: Any) -> int | None:
    """RSR 19.4: the cities required at a turn's end (None: the turn ends no season, or the check is off)."""
    return None if value is None else int(value)

