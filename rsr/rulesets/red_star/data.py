"""The static data of a Red Sun/Red Star game (map, counters, charts), read from the pinned scenario.

Everything here is fixed for the whole game, shared between copies of the state and never hashed with
it. Every chart cell keeps its provenance string (docs/architecture.md), so an event that used a provisional value
can say so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rsr.errors import BadInput
from rsr.hexgrid import Grid, hexside
from rsr.provenance import SharedStatic, is_provisional

CLASSES = ("Armor", "Leg", "Weapons", "HQ")  # RS/RS 2.2, RS/RS 6.4: the ground combat classes
SIZE_ORDER = ("I", "II", "III", "X", "XX", "XXX")  # RS/RS 2.6


@dataclass(frozen=True)
class Side:
    """One face of a ground counter (RS/RS 2.2, RS/RS 2.4): combat factors, range (artillery only), allowance."""

    combat: int
    movement: int
    range: int | None = None

    def printed(self) -> str:
        """The values as the counter prints them: ``combat-range-movement``, or ``combat-movement``."""
        return f"{self.combat}-{self.range}-{self.movement}" if self.range else f"{self.combat}-{self.movement}"


@dataclass(frozen=True)
class Counter:
    """A unit's printed values (RS/RS 2.2-2.6); ``reduced`` None means a blank back (one face only)."""

    id: str
    side: str
    nationality: str
    name: str
    cls: str
    type: str
    size: str | None
    unit_id: str | None
    formation_id: str | None
    box_colour: str | None
    id_colour: str | None
    proficiency: int
    full: Side | None
    reduced: Side | None
    light_armor: int
    motorized: bool
    provenance: dict[str, str]
    default_provenance: str

    def face(self, reduced: bool) -> Side:
        assert self.full is not None, f"{self.id} has no ground values"
        return self.reduced if reduced and self.reduced is not None else self.full

    @property
    def ground(self) -> bool:
        return self.cls in CLASSES

    @property
    def artillery(self) -> bool:
        """RS/RS 2.5, RS/RS 5.0: a Weapons unit with a range value."""
        return self.cls == "Weapons" and self.full is not None and self.full.range is not None

    def provenance_of(self, what: str) -> str:
        return self.provenance.get(what, self.default_provenance)


@dataclass(frozen=True)
class CrtCell:
    steps: int
    morale: int
    text: str
    provenance: str

    @property
    def provisional(self) -> bool:
        return is_provisional(self.provenance)


@dataclass(frozen=True)
class Crt:
    """The Combat Results Table (RS/RS 6.1, RS/RS 6.6): fire-strength columns and d6 rows."""

    columns: tuple[str, ...]
    minimum: tuple[int, ...]
    cells: dict[int, tuple[CrtCell, ...]]
    column_provenance: tuple[str, ...]
    selection_provenance: str

    def column_for(self, strength: int) -> int:
        """The highest column whose minimum is not above ``strength`` (provisional for the CRT); at least 0."""
        index = 0
        for i, low in enumerate(self.minimum):
            if strength >= low:
                index = i
        return index

    def cell(self, column: int, die: int) -> CrtCell:
        return self.cells[die][column]


@dataclass(frozen=True)
class Effectiveness:
    multiplier: Fraction
    adjacent: Fraction | None
    provenance: str


@dataclass(frozen=True)
class TerrainCost:
    non_motorized: Fraction | None
    motorized: Fraction | None
    shift: int
    provenance: str
    direction: str | None = None

    def cost(self, motorized: bool) -> Fraction | None:
        return self.motorized if motorized else self.non_motorized


@dataclass(frozen=True)
class Bridge:
    """A bridge hexside (RS/RS 11.0-11.3) and the scenarios and turns in which it exists."""

    side: str
    name: str
    river: str
    scenarios: tuple[str, ...]
    from_turn: dict[str, str]
    armor_may_use: bool
    provenance: str


@dataclass(frozen=True)
class MoraleOutcome:
    """One row of the Morale Option Table with RS/RS 6.62 (tables.yaml ``morale_options``)."""

    choice: str
    owner: str
    retreat: str
    retreat_hexes: str | int
    factors_lost: str | int
    disruption: int
    note: str


@dataclass(frozen=True)
class SupplyEdge:
    side: str
    edge: str
    hexes: tuple[str, ...]
    condition: str | None
    provenance: str


@dataclass(frozen=True)
class FireTable:
    """One artillery table (RS/RS 5.21, RS/RS 5.22, RS/RS 5.42; Player Aid): columns by strength, rows by die 1 to
    6+."""

    name: str
    columns: tuple[int, ...]
    rows: tuple[tuple[str, ...], ...]   # rows[die - 1][column]
    columns_provenance: str
    cells_provenance: str

    def column_for(self, strength: int) -> int | None:
        """The highest column not above ``strength`` (Player Aid); None below the first column."""
        best = None
        for index, value in enumerate(self.columns):
            if value <= strength:
                best = index
        return best

    def result(self, column: int, die: int) -> str:
        """The cell of a modified roll: above 6 reads the "6+" row, below 1 the first row."""
        row = min(max(die, 1), len(self.rows))
        return self.rows[row - 1][column]


@dataclass(frozen=True)
class ArtilleryCharts:
    """RS/RS 5.0-5.53: the three artillery tables, spotting modifiers and support point costs."""

    bombardment: FireTable
    counterbattery: FireTable
    interdiction: FireTable
    spotting: tuple[tuple[int | None, int], ...]   # (up to this distance or None, die modifier)
    spotting_provenance: str
    costs: dict[str, int]
    costs_provenance: str
    selection_provenance: str
    bridge_modifier: int
    bridge_modifier_provenance: str


def _fire_table(name: str, raw: dict[str, Any], default: str) -> FireTable:
    rows = tuple(tuple(str(v) for v in cell["results"]) for cell in sorted(raw["cells"], key=lambda c: c["die"]))
    for row in rows:
        if len(row) != len(raw["columns"]):
            raise BadInput(f"tables: the {name} table has a row of {len(row)} cells for {len(raw['columns'])} columns")
    return FireTable(name, tuple(int(c) for c in raw["columns"]), rows,
                     str(raw.get("columns_provenance", default)), str(raw.get("cells_provenance", default)))


def _artillery(raw: dict[str, Any] | None, default: str) -> ArtilleryCharts | None:
    if raw is None:
        return None
    return ArtilleryCharts(
        bombardment=_fire_table("Bombardment", raw["bombardment"], default),
        counterbattery=_fire_table("Counterbattery", raw["counterbattery"], default),
        interdiction=_fire_table("Interdiction", raw["interdiction"], default),
        spotting=tuple((None if s["up_to"] is None else int(s["up_to"]), int(s["modifier"])) for s in raw["spotting"]),
        spotting_provenance=str(raw.get("spotting_provenance", default)),
        costs={str(k): int(v) for k, v in sorted(raw["costs"].items())},
        costs_provenance=str(raw.get("costs_provenance", default)),
        selection_provenance=str(raw.get("column_selection_provenance", default)),
        bridge_modifier=int(raw.get("bridge_modifier", -1)),
        bridge_modifier_provenance=str(raw.get("bridge_modifier_provenance", default)))


@dataclass
class Static(SharedStatic):
    """Everything fixed for the whole game; shared, never copied, not part of the hashed state."""

    grid: Grid
    terrain: dict[str, str]
    features: dict[str, tuple[str, ...]]
    slope_up: dict[str, str]
    bridges: dict[str, Bridge]
    road_links: frozenset[str]
    supply_edges: tuple[SupplyEdge, ...]
    areas: dict[str, frozenset[str]]
    victory_points: dict[str, int]
    entry_hexes: dict[str, tuple[str, ...]]
    counters: dict[str, Counter]
    crt: Crt
    effectiveness: dict[tuple[str, str], Effectiveness]
    effectiveness_options: dict[str, dict[tuple[str, str], Effectiveness]]
    rule_options: dict[str, bool]  # every rule option id (tables.yaml) and its default
    terrain_costs: dict[str, TerrainCost]
    hexside_costs: dict[str, TerrainCost]
    road_cost: TerrainCost
    morale: dict[tuple[str, str], MoraleOutcome]
    map_provenance: str
    place_provenance: dict[str, str] = field(default_factory=dict)
    artillery: ArtilleryCharts | None = None   # RS/RS 5.0 charts (tables.yaml ``artillery``)
    nbrs: dict[str, tuple[str, ...]] = field(default_factory=dict)  # neighbours on the map, sorted
    links: dict[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)  # (neighbour, hexside) pairs
    halha_sides: frozenset[str] = frozenset()
    memo: dict[tuple[Any, ...], Any] = field(default_factory=dict)  # pure memo of derived tables (terrain.py)

    def __post_init__(self) -> None:
        self.nbrs = {h: tuple(n for n in self.grid.neighbours(h) if n in self.terrain) for h in sorted(self.terrain)}
        self.links = {h: tuple((n, hexside(h, n)) for n in ns) for h, ns in self.nbrs.items()}
        self.halha_sides = frozenset(side for side, feats in self.features.items() if "halha" in feats)

    def neighbours(self, hex_id: str) -> tuple[str, ...]:
        found = self.nbrs.get(hex_id)
        if found is None:
            return tuple(n for n in self.grid.neighbours(hex_id) if n in self.terrain)
        return found

    def counter(self, unit_id: str) -> Counter:
        try:
            return self.counters[unit_id]
        except KeyError as exc:
            raise BadInput(f"unknown unit {unit_id!r}") from exc

    def side_features(self, first: str, second: str) -> tuple[str, ...]:
        return self.features.get(hexside(first, second), ())

    def edge_of(self, hex_id: str) -> bool:
        a, b = self.grid.parse(hex_id)
        return a in self.grid.lines or b in self.grid.positions


def _fraction(text: Any) -> Fraction | None:
    return None if text is None else Fraction(str(text))


def _provenance(value: Any, key: str, default: str) -> str:
    if isinstance(value, dict):
        return str(value.get(key, default))
    return str(value) if value else default


def _face(raw: dict[str, Any] | None) -> Side | None:
    if not raw:
        return None
    return Side(int(raw["combat"]), int(raw["movement"]), int(raw["range"]) if "range" in raw else None)


def _counters(data: dict[str, Any]) -> dict[str, Counter]:
    default = data.get("default_provenance", "provisional: counters")
    counters: dict[str, Counter] = {}
    for raw in data["units"]:
        if raw["id"] in counters:
            raise BadInput(f"counters: unit {raw['id']} is listed twice")
        counters[raw["id"]] = Counter(
            id=raw["id"], side=raw["side"], nationality=raw["nationality"], name=raw["name"], cls=raw["class"],
            type=raw["type"], size=raw.get("size"), unit_id=raw.get("unit_id"),
            formation_id=raw.get("formation_id"), box_colour=raw.get("box_colour"),
            id_colour=raw.get("id_colour"), proficiency=int(raw.get("proficiency", 0)),
            full=_face(raw.get("full")), reduced=_face(raw.get("reduced")),
            light_armor=int(raw.get("light_armor", 0)), motorized=bool(raw.get("motorized", False)),
            provenance=dict(raw.get("provenance", {})), default_provenance=default,
        )
    return counters


def _crt(raw: dict[str, Any], default: str) -> Crt:
    columns = tuple(str(c) for c in raw["columns"])
    minimum = tuple(int(m) for m in raw["column_minimum"])
    low, high = raw["die_range"]
    cells: dict[int, tuple[CrtCell, ...]] = {}
    for row in raw["cells"]:
        results = row["results"]
        provs = row.get("provenance", [default] * len(results))
        parsed = []
        for text, prov in zip(results, provs, strict=True):
            steps, morale = text.split("/")
            parsed.append(CrtCell(0 if steps == "-" else int(steps), 0 if morale == "-" else int(morale), text,
                                  prov))
        cells[int(row["die"])] = tuple(parsed)
    if sorted(cells) != list(range(low, high + 1)) or any(len(r) != len(columns) for r in cells.values()):
        raise BadInput("tables: the CRT needs one row per die value and one cell per column")
    return Crt(columns, minimum, cells, tuple(raw.get("columns_provenance", [default] * len(columns))),
               str(raw.get("column_selection_provenance", default)))


def _terrain_cost(item: dict[str, Any], default: str, what: str) -> TerrainCost:
    move = item["move"]
    prov = item.get("provenance", default)
    return TerrainCost(_fraction(move["non_motorized"]), _fraction(move["motorized"]), int(item.get("shift", 0)),
                       _provenance(prov, what, default), item.get("direction"))


def load_static(data: dict[str, Any]) -> Static:
    """Build :class:`Static` from the combined scenario document (already schema-validated)."""
    game_map = data["map"]
    g = game_map["grid"]
    grid = Grid(g["shifted_lines"], tuple(g["lines"]), tuple(g["positions"]))
    default = game_map.get("default_provenance", "provisional: map")
    features: dict[str, list[str]] = {}
    slope_up: dict[str, str] = {}
    bridges: dict[str, Bridge] = {}
    for item in game_map.get("hexsides", []):
        first, second = item["side"].split("-")
        if not grid.adjacent(first, second):
            raise BadInput(f"map hexside {item['side']} joins hexes that are not adjacent")
        side = hexside(first, second)
        feature = item["feature"]
        if feature == "bridge":
            bridges[side] = Bridge(side, str(item.get("name", "bridge")), str(item.get("river", "halha")),
                                   tuple(item.get("scenarios", [])), dict(item.get("from_turn", {})),
                                   bool(item.get("armor_may_use", True)), str(item.get("provenance", default)))
            continue
        features.setdefault(side, [])
        if feature not in features[side]:
            features[side].append(feature)
        if feature == "slope" and item.get("up"):
            slope_up[side] = item["up"]
    road_links: set[str] = set()
    for road in game_map.get("roads", []):
        hexes = road["hexes"]
        for first, second in zip(hexes, hexes[1:], strict=False):
            if not grid.adjacent(first, second):
                raise BadInput(f"map road {road.get('name', '?')}: {first} and {second} are not adjacent")
            road_links.add(hexside(first, second))
    victory: dict[str, int] = {}
    entry: dict[str, list[str]] = {}
    place_provenance: dict[str, str] = {}
    for place in game_map.get("places", []):
        if place.get("victory_points"):
            victory[place["hex"]] = int(place["victory_points"])
            place_provenance[place["hex"]] = str(place.get("provenance", default))
        if place.get("entry"):
            entry.setdefault(place["entry"]["side"], []).append(place["hex"])
    edges = tuple(SupplyEdge(e["side"], e["edge"], tuple(e["hexes"]), e.get("condition"),
                             str(e.get("provenance", default))) for e in game_map.get("supply_edges", []))
    areas = {name: frozenset(area["hexes"]) for name, area in sorted(game_map.get("areas", {}).items())}

    tables = data["tables"]
    tdefault = tables.get("default_provenance", "provisional: tables")
    crt = _crt(tables["crt"], tdefault)
    cec_raw = tables["combat_effectiveness"]
    effectiveness = {
        (c["firer"], c["target"]): Effectiveness(Fraction(str(c["multiplier"])),
                                                 _fraction(c.get("adjacent_multiplier")),
                                                 str(c.get("provenance", tdefault)))
        for c in cec_raw["cells"]
    }
    effectiveness_options = {
        str(o["id"]): {(c["firer"], c["target"]): Effectiveness(Fraction(str(c["multiplier"])),
                                                                _fraction(c.get("adjacent_multiplier")),
                                                                str(c.get("provenance", o.get("provenance", tdefault))))
                       for c in o.get("cells", [])}
        for o in cec_raw.get("options", [])}
    rule_options = {str(o["id"]): bool(o.get("default", False))
                    for o in [*cec_raw.get("options", []), *tables.get("options", [])]}
    tec = tables["terrain_effects"]
    terrain_costs = {t["terrain"]: _terrain_cost(t, tdefault, "move") for t in tec["terrain"]}
    hexside_costs = {t["feature"]: _terrain_cost(t, tdefault, "move") for t in tec["hexsides"]}
    road = tec["roads"]
    road_cost = TerrainCost(_fraction(road["move"]["non_motorized"]), _fraction(road["move"]["motorized"]), 0,
                            str(road.get("provenance", tdefault)))
    morale = {
        (o["choice"], o["owner"]): MoraleOutcome(o["choice"], o["owner"], o["retreat"], o["retreat_hexes"],
                                                 o["factors_lost"], int(o["disruption"]), str(o.get("note", "")))
        for o in tables["morale_options"]["outcomes"]
    }
    for hex_id, kind in game_map["terrain"].items():
        if kind not in terrain_costs:
            raise BadInput(f"map hex {hex_id}: terrain {kind!r} is not on the Terrain Effects Chart")
    return Static(
        grid=grid, terrain=dict(game_map["terrain"]), features={k: tuple(v) for k, v in sorted(features.items())},
        slope_up=slope_up, bridges=bridges, road_links=frozenset(road_links), supply_edges=edges, areas=areas,
        victory_points=victory, entry_hexes={k: tuple(sorted(v)) for k, v in sorted(entry.items())},
        counters=_counters(data["counters"]), crt=crt, effectiveness=effectiveness,
        effectiveness_options=effectiveness_options, rule_options=rule_options, terrain_costs=terrain_costs,
        hexside_costs=hexside_costs, road_cost=road_cost, morale=morale, map_provenance=default,
        place_provenance=place_provenance, artillery=_artillery(tables.get("artillery"), tdefault),
    )


def half_up(value: int | Fraction) -> int:
    """Half a value, fractions rounded up (RS/RS Marker Effects Summary: half of 7 is 4, a quarter of 1 is 1)."""
    return math.ceil(Fraction(value) / 2)

