"""Static naval data: the Strategic Naval Map, ships, admirals, merchant fleets, naval tables."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from rsr.errors import BadInput
from rsr.hexgrid import Grid
from rsr.provenance import SharedStatic, is_provisional


@dataclass(frozen=True)
class NavalHex:
    number: int
    cell: str
    kind: str           # high-seas | coastal | port (RSR 6.1)
    provenance: str


@dataclass(frozen=True)
class Port:
    name: str
    hex: int
    friendly: str       # russia | japan | neutral
    home: bool
    land_hex: str | None
    provenance: str


@dataclass(frozen=True)
class Ship:
    id: str
    side: str
    name: str
    cls: str            # B | C | DF | TF
    attack: int
    defense: int
    provenance: str

    @property
    def capital(self) -> bool:  # RSR 3.5
        return self.cls in ("B", "C")


@dataclass(frozen=True)
class Admiral:
    id: str
    side: str
    name: str
    initiative: int
    provenance: str


def _prov(raw: Any, default: str) -> str:
    if isinstance(raw, dict):
        return "; ".join(f"{k} {v}" for k, v in sorted(raw.items()))
    return str(raw) if raw else default


@dataclass
class NavalStatic(SharedStatic):
    grid: Grid
    hexes: dict[int, NavalHex]
    impassable: frozenset[tuple[int, int]]
    ports: tuple[Port, ...]
    home_ports: tuple[int, ...]
    baltic_entry: tuple[int, ...]
    code_hexes: dict[str, int]          # code letter -> naval hex (RSR 7.5)
    ships: dict[str, Ship]
    admirals: dict[str, Admiral]
    merchant_ids: tuple[str, ...]
    attrition_rows: tuple[dict[str, Any], ...]
    crt_cells: dict[int, dict[int, int]]
    crt_provenance: str
    map_provenance: str
    by_cell: dict[str, int] = field(default_factory=dict)
    admiral_track: tuple[tuple[int, str, str], ...] = ()   # RSR 19.3: (turn, arrive | withdraw, name)

    def neighbours(self, number: int) -> list[int]:
        """RSR 7.1: the adjacent sea hexes a fleet may enter (impassable hexsides excluded)."""
        out = []
        for cell in self.grid.neighbours(self.hexes[number].cell):
            other = self.by_cell.get(cell)
            if other is not None and tuple(sorted((number, other))) not in self.impassable:
                out.append(other)
        return sorted(out)

    def distances(self, start: int) -> dict[int, int]:
        """Movement impulses from ``start`` to every sea hex (breadth first, ties by hex number)."""
        dist = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in self.neighbours(here):
                if there not in dist:
                    dist[there] = dist[here] + 1
                    queue.append(there)
        return dist

    def kind(self, number: int) -> str:
        return self.hexes[number].kind

    def ports_in(self, number: int) -> list[Port]:
        return [p for p in self.ports if p.hex == number]

    def code_of(self, number: int) -> str | None:
        return next((c for c, h in sorted(self.code_hexes.items()) if h == number), None)

    def ship(self, ship_id: str) -> Ship:
        try:
            return self.ships[ship_id]
        except KeyError as exc:
            raise BadInput(f"unknown ship {ship_id!r}") from exc

    def admiral(self, admiral_id: str) -> Admiral:
        if admiral_id == "jp-adm-incompetent" and admiral_id not in self.admirals:  # RSR 19.3
            return Admiral(admiral_id, "japan", "Incompetent", 1, "rulebook: 19.3 (initiative 1 when no admiral "
                           "is left)")
        try:
            return self.admirals[admiral_id]
        except KeyError as exc:
            raise BadInput(f"unknown admiral {admiral_id!r}") from exc

    def crt(self, column: int, die: int) -> tuple[int, bool]:
        """RSR 8.24: the Naval CRT result and whether the cell is provisional.

        Printed cells win; every other cell is the stand-in column - 5 + die (at least 0), flagged provisional.
        The stand-in is not the printed rows' pattern: it gives the printed column 4 rows 1 and 3 but one more
        than the other printed cells of rows 1-2 (interpretations.md, RSR 8.24). A die below 1 is no effect
        (RSR 8.24 errata).
        """
        if die < 1:
            return 0, False
        printed = self.crt_cells.get(column, {}).get(die)
        if printed is not None:
            return printed, is_provisional(self.crt_provenance)
        return max(0, column - 5 + die), True


def load_naval(data: dict[str, Any]) -> NavalStatic | None:
    """Build the naval data from the combined scenario (None when the scenario has no naval game)."""
    if "naval" not in data or "naval_map" not in data:
        return None
    nmap, naval = data["naval_map"], data["naval"]
    g = nmap["grid"]
    grid = Grid(g["shifted_lines"], tuple(g["lines"]), tuple(g["positions"]))
    hexes = {int(h["number"]): NavalHex(int(h["number"]), h["cell"], h["kind"], h["provenance"]) for h in nmap["hexes"]}
    by_cell = {h.cell: n for n, h in hexes.items()}
    if len(by_cell) != len(hexes):
        raise BadInput("naval map: two hex numbers share a cell")
    impassable = set()
    for item in nmap["impassable"]:
        a, b = (int(x) for x in item["side"].split("-"))
        if a not in hexes or b not in hexes or not grid.adjacent(hexes[a].cell, hexes[b].cell):
            raise BadInput(f"naval map: impassable side {item['side']} does not join two adjacent sea hexes")
        impassable.add((min(a, b), max(a, b)))
    default = naval.get("default_provenance", "provisional")
    ships = {s["id"]: Ship(s["id"], s["side"], s["name"], s["class"], int(s["attack"]), int(s["defense"]),
                           _prov(s.get("provenance"), default)) for s in naval["ships"]}
    admirals = {a["id"]: Admiral(a["id"], a["side"], a["name"], int(a["initiative"]),
                                 _prov(a.get("provenance"), default))
                for a in naval["admirals"]}
    cells = {int(c): {int(d): int(v) for d, v in row.items()} for c, row in naval["naval_crt"]["cells"].items()}
    return NavalStatic(
        grid=grid, hexes=hexes, impassable=frozenset(impassable),
        ports=tuple(Port(p["name"], int(p["hex"]), p["friendly"], bool(p["home"]), p.get("land_hex"), p["provenance"])
                    for p in nmap["ports"]),
        home_ports=tuple(int(h) for h in nmap["japanese_home_ports"]["hexes"]),
        baltic_entry=tuple(int(h) for h in nmap["baltic_entry"]["hexes"]),
        code_hexes={c["code"]: int(c["hex"]) for c in nmap["code_hexes"]},
        ships=ships, admirals=admirals, merchant_ids=tuple(m["id"] for m in naval["merchant_fleets"]),
        attrition_rows=tuple(naval["blockade_attrition"]["rows"]), crt_cells=cells,
        crt_provenance=naval["naval_crt"]["provenance"], map_provenance=nmap["provenance"], by_cell=by_cell,
        admiral_track=tuple(_admiral_track(data.get("track"))))


def _admiral_track(track: Any) -> list[tuple[int, str, str]]:
    from rsr.rulesets.red_sun_rising.naval.succession import admiral_track

    return admiral_track(track)
