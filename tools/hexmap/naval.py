"""A strategic naval map drawn from real geography (Red Sun Rising's Strategic Naval Map, tools/rsr_naval_map):
a coarse hex grid laid over coasts in latitude and longitude, sea hexes found by sampling, ports put in sea
hexes, impassable hexsides where land lies between two sea hexes, and the sea hexes numbered so that every
number the rulebook names plays its printed role; the naval code areas take the land map's code areas
(theatre.py) to the naval hex holding their ports. Deterministic: no randomness, no set order.

The ruleset's geography file (``geo``) gives the grid, the coasts, the ports, the numbers the rulebook
fixes and every provenance string.
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any

import yaml

from rsr.rulesets.red_sun_rising.naval.data import load_naval
from rsr.rulesets.red_sun_rising.naval_map import naval_map_scene
from tools.hexmap.cli import ROOT
from tools.hexmap.geometry import LatLon, Polygon
from tools.hexmap.preview import fit_affine, line, preview_svg

SEA = 0.35  # a hex is sea when at least this share of its sample points is sea
PORT_SEA = 0.15  # ... or this share, for a hex holding a port
COAST = 'fill="none" stroke="#7a5c2e" stroke-width="1.2"'


class NavalGrid:
    """The coarse grid of a geography file: where each cell lies and what of it is land."""

    def __init__(self, geo: ModuleType) -> None:
        self.geo = geo
        self.land = [Polygon(p) for p in geo.LAND]

    def centre(self, cell: str) -> LatLon:
        g = self.geo
        line, pos = g.GRID.parse(cell)
        shifted = g.GRID.doubled(cell)[0] - 2 * pos
        return g.LAT0 + (line - 1) * g.DLAT, g.LON0 + (pos - 1 + shifted / 2) * g.DLON

    def is_land(self, lat: float, lon: float) -> bool:
        return any(p.contains(lat, lon) for p in self.land)

    def samples(self, cell: str) -> list[LatLon]:
        lat, lon = self.centre(cell)
        out = [(lat, lon)]
        for k in range(12):
            angle = math.pi / 6 * k
            for r in (0.3, 0.55):
                out.append((lat + r * self.geo.DLAT * math.sin(angle), lon + r * self.geo.DLON * math.cos(angle)))
        return out

    def sea_fraction(self, cell: str) -> float:
        points = self.samples(cell)
        return sum(not self.is_land(a, b) for a, b in points) / len(points)

    def cell_of(self, lat: float, lon: float, cells: list[str]) -> str:
        return min(cells, key=lambda c: (km(self.centre(c), (lat, lon)), c))


def km(a: LatLon, b: LatLon) -> float:
    dy = (a[0] - b[0]) * 111.0
    dx = (a[1] - b[1]) * 111.0 * math.cos(math.radians((a[0] + b[0]) / 2))
    return math.hypot(dx, dy)


def build(geo: ModuleType) -> dict[str, Any]:
    """The naval map file's content."""
    grid = NavalGrid(geo)
    lines, positions = geo.LINES, geo.POSITIONS
    every = [f"{a:02d}{b:02d}" for a in range(lines[0], lines[1] + 1) for b in range(positions[0], positions[1] + 1)]
    # a port lies in its own hex if that hex has some sea, else in the nearest sea hex
    own = {name: grid.cell_of(lat, lon, every) for name, lat, lon, *_ in geo.PORTS}
    sea = [c for c in every
           if grid.sea_fraction(c) >= SEA or (c in own.values() and grid.sea_fraction(c) >= PORT_SEA)]
    port_cells = {name: grid.cell_of(lat, lon, sea) for name, lat, lon, *_ in geo.PORTS}
    sea_set = set(sea)
    neighbours = geo.GRID.neighbours

    def crosses_land(a: str, b: str) -> bool:
        (la, oa), (lb, ob) = grid.centre(a), grid.centre(b)
        points = [(la + (lb - la) * t / 10, oa + (ob - oa) * t / 10) for t in range(2, 9)]
        return sum(grid.is_land(x, y) for x, y in points) >= 6

    impassable = sorted({"-".join(sorted((a, b))) for a in sea for b in neighbours(a)
                         if b in sea_set and crosses_land(a, b)})
    # numbering: the rulebook's numbers first (by role), then the rest in reading order
    numbers: dict[str, int] = {}
    fleet_provenance: dict[int, str] = {}
    for name, (number, provenance) in geo.FLEET_NUMBERS.items():
        numbers[port_cells[name]] = number
        fleet_provenance[number] = provenance
    entry_port = port_cells[geo.BALTIC_ENTRY_PORT]
    entry = geo.BALTIC_ENTRY
    k = geo.BALTIC_ENTRY_PORT_INDEX
    south = [c for c in sea if c[:2] == f"{lines[0]:02d}"]
    if entry_port not in south or south.index(entry_port) < k or len(south) < south.index(entry_port) + len(entry) - k:
        raise SystemExit(f"the grid does not put {geo.BALTIC_ENTRY_PORT} at place {k + 1} of {len(entry)} "
                         "southern-edge hexes; adjust LAT0")
    start = south.index(entry_port) - k
    for offset, cell in enumerate(south[start:start + len(entry)]):
        numbers[cell] = entry[0] + offset
    homes: list[str] = []
    for name, *_rest, home, _land in geo.PORTS:
        cell = port_cells[name]
        if home and cell != entry_port and cell not in homes and cell not in numbers:
            homes.append(cell)
    homes = sorted(homes[:len(geo.HOME_NUMBERS)])
    if len(homes) < len(geo.HOME_NUMBERS):
        raise SystemExit(f"fewer than {len(geo.HOME_NUMBERS)} distinct home-port hexes besides "
                         f"{numbers[entry_port]}")
    for cell, number in zip(homes, geo.HOME_NUMBERS, strict=True):
        numbers[cell] = number
    reserved = set(numbers.values())
    free = (n for n in range(1, 1000) if n not in reserved)
    for cell in sea:
        if cell not in numbers:
            numbers[cell] = next(free)
    home_cells = [entry_port] + homes
    neighbours_land = {c: any(n not in sea_set for n in neighbours(c)) or len(neighbours(c)) < 6 for c in sea}
    drawn = geo.PROVISIONAL.split(": ", 1)[1]
    hexes = []
    for cell in sorted(sea, key=lambda c: numbers[c]):
        ports = [p for p in geo.PORTS if port_cells[p[0]] == cell]
        coastal = grid.sea_fraction(cell) < 1.0 or (neighbours_land[cell] and any(
            n not in sea_set for n in neighbours(cell)))
        kind = "port" if ports else ("coastal" if coastal else "high-seas")
        lat, lon = grid.centre(cell)
        item: dict[str, Any] = {"number": numbers[cell], "cell": cell, "kind": kind,
                                "centre": [round(lat, 2), round(lon, 2)]}
        if ports:
            item["ports"] = [p[0] for p in ports]
        prov = geo.PROVISIONAL
        if numbers[cell] in fleet_provenance:
            prov = f"{fleet_provenance[numbers[cell]]}; hex {drawn}"
        elif cell in home_cells:
            prov = f"{geo.HOME_PROVENANCE} {drawn}"
        elif numbers[cell] in entry:
            prov = f"{geo.BALTIC_PROVENANCE} {drawn}"
        item["provenance"] = prov
        hexes.append(item)
    land = yaml.safe_load((ROOT / geo.LAND_MAP).read_text())
    land_ports = {p["hex"] for p in land["places"] if p.get("port")}
    codes = []
    taken: set[str] = set()
    for area in land["code_areas"]:
        cells = sorted({port_cells[name] for name, *_r, land_hex in geo.PORTS
                        if land_hex in land_ports and land_hex in area["hexes"]})
        if len(cells) != 1 or cells[0] in taken:
            raise SystemExit(f"code area {area['area']}: its land ports fall in naval hexes {cells}")
        cell = cells[0]
        taken.add(cell)
        codes.append({"code": area["area"], "hex": numbers[cell],
                      "land_coast": [area["hexes"][0], area["hexes"][-1]],
                      "provenance": geo.CODE_PROVENANCE.get(area["area"], geo.OTHER_CODE_PROVENANCE)})
    ports_out = []
    for name, _lat, _lon, side, home, land_hex in geo.PORTS:
        entry_item: dict[str, Any] = {"name": name, "hex": numbers[port_cells[name]], "friendly": side, "home": home}
        if land_hex:
            entry_item["land_hex"] = land_hex
        entry_item["provenance"] = geo.PORT_PROVENANCE.get(
            name, geo.HOME_PORT_PROVENANCE if home else geo.OTHER_PORT_PROVENANCE)
        ports_out.append(entry_item)
    return {
        "id": geo.MAP_ID,
        "provenance": geo.PROVISIONAL,
        "grid": {"shifted_lines": geo.GRID.shifted_lines, "lines": list(lines), "positions": list(positions),
                 "centre_of_0101": [geo.LAT0, geo.LON0], "spacing_degrees": [geo.DLAT, geo.DLON],
                 "provenance": geo.GRID_PROVENANCE},
        "hexes": hexes,
        "impassable": [{"side": f"{numbers[s[:4]]}-{numbers[s[5:]]}", "provenance": geo.PROVISIONAL}
                       for s in impassable],
        "ports": ports_out,
        "japanese_home_ports": {"hexes": sorted(numbers[c] for c in home_cells),
                                "provenance": geo.HOME_PORTS_PROVENANCE},
        "baltic_entry": {"hexes": list(entry), "provenance": "rulebook: 19.2"},
        "code_hexes": codes,
    }


def summary(data: dict[str, Any]) -> str:
    kinds = {k: sum(1 for h in data["hexes"] if h["kind"] == k) for k in ("port", "coastal", "high-seas")}
    return (f"{len(data['hexes'])} sea hexes ({kinds['port']} port, {kinds['coastal']} coastal, "
            f"{kinds['high-seas']} high seas), {len(data['impassable'])} impassable hexsides, "
            f"{len(data['ports'])} ports, code hexes {len(data['code_hexes'])}")


def to_yaml(data: dict[str, Any], geo: ModuleType) -> str:
    return geo.HEADER + yaml.safe_dump(data, sort_keys=False, width=110, default_flow_style=None, allow_unicode=True)


def preview(data: dict[str, Any], geo: ModuleType) -> str:
    """A preview to check the map by eye, drawn by rsr/draw as the game draws the naval map: hexes by kind,
    numbers, code letters, impassable sides, ports; the coarse real coasts as brown lines."""
    naval = yaml.safe_load((ROOT / geo.NAVAL_DATA).read_text(encoding="utf-8"))
    static = load_naval({"naval_map": data, "naval": naval})
    assert static is not None
    scene = naval_map_scene(static, {}, *geo.PREVIEW_TITLE)
    grid = NavalGrid(geo)
    corners = [f"{geo.LINES[0]:02d}{geo.POSITIONS[0]:02d}", f"{geo.LINES[0]:02d}{geo.POSITIONS[1]:02d}",
               f"{geo.LINES[1]:02d}{geo.POSITIONS[0]:02d}"]
    to_pixels = fit_affine([(grid.centre(c), scene.layout.centre(c)) for c in corners])
    scene.overlays += [line(poly, to_pixels, COAST, True) for poly in geo.LAND]
    scene.legend.append(("", "brown lines: the coarse real coasts the hexes were drawn from"))
    return preview_svg(scene)
