"""Generate the provisional Red Sun Rising Strategic Naval Map (scenarios/red-sun-rising/naval-map.yaml).

    python -m tools.rsr_naval_map           # write the file
    python -m tools.rsr_naval_map --check   # fail if the written file is not what the code makes

The printed Strategic Naval Map is not available (data-notes.md). This draws a stand-in from real
geography on a coarse hex grid (about 130 km a hex) and numbers its hexes so that every number the
rulebook names plays its printed role (docs/red-sun-rising/naval-map.md). Deterministic: no randomness,
no set order.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import yaml  # noqa: E402

from rsr.draw.naval import naval_map_scene  # noqa: E402
from rsr.hexgrid import Grid  # noqa: E402
from rsr.rulesets.red_sun_rising.naval.data import load_naval  # noqa: E402
from tools.hexmap.geometry import Polygon  # noqa: E402
from tools.hexmap.preview import fit_affine, line, preview_svg  # noqa: E402
from tools.rsr_map import geography as geo  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "scenarios" / "red-sun-rising" / "naval-map.yaml"
SVG = ROOT / "docs" / "red-sun-rising" / "naval-map-provisional.svg"
LAND_MAP = ROOT / "scenarios" / "red-sun-rising" / "map.yaml"

LAT0, DLAT = 31.4, 1.40     # centre latitude of line 1, spacing of lines
LON0, DLON = 120.0, 1.80    # centre longitude of position 1 on unshifted lines, spacing of positions
LINES, POSITIONS = (1, 10), (1, 12)
GRID = Grid("even", LINES, POSITIONS)
PROVISIONAL = "provisional: drawn from real geography by tools/rsr_naval_map"

# Coarse coasts south of the land map's mainland polygon (which stops at 36.3 N), and Japan.
SOUTH_KOREA = [(36.30, 126.10), (36.30, 129.45), (35.50, 129.45), (35.10, 129.10), (34.90, 128.40),
               (34.70, 127.70), (34.40, 126.80), (34.50, 126.30), (35.10, 126.40), (35.80, 126.60)]
CHINA = [(36.30, 119.50), (36.30, 122.00), (35.80, 121.00), (35.10, 119.50), (34.30, 120.30),
         (33.00, 120.90), (32.00, 121.80), (31.60, 121.90), (31.00, 121.90), (30.50, 122.00),
         (29.50, 121.90), (29.50, 117.00), (36.30, 117.00)]
KYUSHU = [(33.95, 130.90), (33.55, 131.70), (32.80, 132.00), (31.90, 131.50), (31.00, 131.10),
          (31.10, 130.20), (32.00, 130.10), (32.60, 129.60), (33.20, 129.50), (33.60, 130.20)]
SHIKOKU = [(34.40, 133.00), (34.30, 134.60), (33.80, 134.70), (33.30, 134.20), (32.75, 133.00),
           (33.00, 132.40), (33.70, 132.50)]
HONSHU = [(33.95, 130.92), (34.40, 131.30), (35.00, 132.40), (35.50, 133.20), (35.60, 134.50),
          (35.70, 135.50), (36.40, 136.10), (37.50, 136.90), (37.00, 137.60), (37.80, 138.80),
          (39.00, 139.80), (40.50, 139.90), (41.40, 140.30), (41.50, 141.30), (40.50, 141.80),
          (38.30, 141.50), (37.00, 141.00), (35.70, 140.90), (35.00, 140.00), (34.60, 138.80),
          (34.70, 137.50), (34.20, 136.80), (33.45, 135.80), (34.30, 135.10), (34.70, 135.30),
          (34.60, 134.20), (34.30, 133.10), (34.20, 132.40), (33.90, 131.50)]
HOKKAIDO = [(41.40, 140.00), (42.50, 139.80), (43.30, 141.30), (44.00, 141.70), (44.00, 145.00),
            (42.00, 143.20), (41.80, 141.00)]
LAND = [Polygon(p) for p in (geo.MAINLAND, geo.SHANDONG, SOUTH_KOREA, CHINA, KYUSHU, SHIKOKU, HONSHU, HOKKAIDO)]

# Ports: (name, lat, lon, friendly side or "neutral", Japanese home port, land-map hex). Home-port order is
# the priority in which six hexes beside 14 are picked for 24-27, 35, 47.
PORTS: list[tuple[str, float, float, str, bool, str | None]] = [
    ("Port Arthur", 38.80, 121.25, "russia", False, "0801"),
    ("Dalny", 38.92, 121.63, "russia", False, "0803"),
    ("Vladivostok", 43.12, 131.89, "russia", False, "2937"),
    ("Kagoshima", 31.58, 130.55, "japan", True, None),
    ("Sasebo", 33.16, 129.72, "japan", True, None),
    ("Moji", 33.95, 130.96, "japan", True, None),
    ("Ujina (Hiroshima)", 34.35, 132.47, "japan", True, None),
    ("Kobe", 34.69, 135.19, "japan", True, None),
    ("Maizuru", 35.47, 135.38, "japan", True, None),
    ("Yokosuka", 35.28, 139.67, "japan", True, None),
    ("Nagasaki", 32.75, 129.87, "japan", False, None),
    ("Fusan", 35.10, 129.04, "japan", False, None),
    ("Chemulpo", 37.47, 126.62, "japan", False, "0120"),
    ("Chinnampo", 38.73, 125.40, "japan", False, "0815"),
    ("Wonsan", 39.15, 127.45, "japan", False, "1022"),
    ("Chefoo", 37.54, 121.39, "neutral", False, None),
    ("Weihaiwei", 37.50, 122.12, "neutral", False, None),
]


def centre(cell: str) -> tuple[float, float]:
    line, pos = GRID.parse(cell)
    shifted = GRID.doubled(cell)[0] - 2 * pos
    return LAT0 + (line - 1) * DLAT, LON0 + (pos - 1 + shifted / 2) * DLON


def is_land(lat: float, lon: float) -> bool:
    return any(p.contains(lat, lon) for p in LAND)


def samples(cell: str) -> list[tuple[float, float]]:
    lat, lon = centre(cell)
    out = [(lat, lon)]
    for k in range(12):
        angle = math.pi / 6 * k
        for r in (0.3, 0.55):
            out.append((lat + r * DLAT * math.sin(angle), lon + r * DLON * math.cos(angle)))
    return out


def sea_fraction(cell: str) -> float:
    points = samples(cell)
    return sum(not is_land(a, b) for a, b in points) / len(points)


def km(a: tuple[float, float], b: tuple[float, float]) -> float:
    dy = (a[0] - b[0]) * 111.0
    dx = (a[1] - b[1]) * 111.0 * math.cos(math.radians((a[0] + b[0]) / 2))
    return math.hypot(dx, dy)


def cell_of(lat: float, lon: float, cells: list[str]) -> str:
    return min(cells, key=lambda c: (km(centre(c), (lat, lon)), c))


def land_centre(hex_id: str) -> tuple[float, float]:
    """The land map's projection (docs/red-sun-rising/map.md)."""
    line, pos = int(hex_id[:2]), int(hex_id[2:])
    return 38.80 + (line - 8) * 0.205, 121.25 + (pos - 1 - (0.5 if line % 2 else 0)) * 0.296


def build() -> dict[str, Any]:
    every = [f"{a:02d}{b:02d}" for a in range(LINES[0], LINES[1] + 1) for b in range(POSITIONS[0], POSITIONS[1] + 1)]
    # a port lies in its own hex if that hex has some sea, else in the nearest sea hex
    own = {name: cell_of(lat, lon, every) for name, lat, lon, *_ in PORTS}
    sea = [c for c in every if sea_fraction(c) >= 0.35 or (c in own.values() and sea_fraction(c) >= 0.15)]
    port_cells = {name: cell_of(lat, lon, sea) for name, lat, lon, *_ in PORTS}
    sea_set = set(sea)

    def crosses_land(a: str, b: str) -> bool:
        (la, oa), (lb, ob) = centre(a), centre(b)
        points = [(la + (lb - la) * t / 10, oa + (ob - oa) * t / 10) for t in range(2, 9)]
        return sum(is_land(x, y) for x, y in points) >= 6

    impassable = sorted({"-".join(sorted((a, b))) for a in sea for b in GRID.neighbours(a)
                         if b in sea_set and crosses_land(a, b)})
    # numbering: the rulebook's numbers first (by role), then the rest in reading order
    numbers: dict[str, int] = {}
    numbers[port_cells["Port Arthur"]] = 42
    numbers[port_cells["Vladivostok"]] = 54
    kagoshima = port_cells["Kagoshima"]
    south = [c for c in sea if c[:2] == "01"]
    if kagoshima not in south or south.index(kagoshima) < 2 or len(south) < south.index(kagoshima) + 6:
        raise SystemExit("the grid does not put Kagoshima third of eight southern-edge hexes; adjust LAT0")
    start = south.index(kagoshima) - 2
    for offset, cell in enumerate(south[start:start + 8]):
        numbers[cell] = 12 + offset
    homes: list[str] = []
    for name, *_rest, home, _land in PORTS:
        cell = port_cells[name]
        if home and cell != kagoshima and cell not in homes and cell not in numbers:
            homes.append(cell)
    homes = sorted(homes[:6])
    if len(homes) < 6:
        raise SystemExit("fewer than six distinct home-port hexes besides 14")
    for cell, number in zip(homes, (24, 25, 26, 27, 35, 47), strict=True):
        numbers[cell] = number
    reserved = set(numbers.values())
    free = (n for n in range(1, 1000) if n not in reserved)
    for cell in sea:
        if cell not in numbers:
            numbers[cell] = next(free)
    home_cells = [kagoshima] + homes
    neighbours_land = {c: any(n not in sea_set for n in GRID.neighbours(c)) or len(GRID.neighbours(c)) < 6 for c in sea}
    hexes = []
    for cell in sorted(sea, key=lambda c: numbers[c]):
        ports = [p for p in PORTS if port_cells[p[0]] == cell]
        coastal = sea_fraction(cell) < 1.0 or (neighbours_land[cell] and any(
            n not in sea_set for n in GRID.neighbours(cell)))
        kind = "port" if ports else ("coastal" if coastal else "high-seas")
        lat, lon = centre(cell)
        item: dict[str, Any] = {"number": numbers[cell], "cell": cell, "kind": kind,
                                "centre": [round(lat, 2), round(lon, 2)]}
        if ports:
            item["ports"] = [p[0] for p in ports]
        prov = PROVISIONAL
        if numbers[cell] == 42:
            prov = "rulebook: 19.2 (Russian 1st Fleet, Port Arthur, sets up in 42); hex drawn " + PROVISIONAL[13:]
        elif numbers[cell] == 54:
            prov = "rulebook: 19.2 (Russian 2nd Fleet, Vladivostok, sets up in 54); hex drawn " + PROVISIONAL[13:]
        elif cell in home_cells:
            prov = "rulebook: 19.1 (a Japanese set-up hex with a merchant fleet); port chosen " + PROVISIONAL[13:]
        elif 12 <= numbers[cell] <= 19:
            prov = "rulebook: 19.2 (Baltic fleet entry hexes 12-19); placed on the southern edge " + PROVISIONAL[13:]
        item["provenance"] = prov
        hexes.append(item)
    # code hexes (7.5): the naval hex holding the land-map port(s) of the code area; the 7.5 example (a
    # winter landing from A goes to 0801 or 0803) with 15.21 (in winter a merchant fleet survives only in
    # port or on blockade) means hex A holds Port Arthur and Dalny; every other area has one port
    land = yaml.safe_load(LAND_MAP.read_text())
    land_ports = {p["hex"] for p in land["places"] if p.get("port")}
    codes = []
    taken: set[str] = set()
    for area in land["code_areas"]:
        cells = sorted({port_cells[name] for name, *_r, land_hex in PORTS
                        if land_hex in land_ports and land_hex in area["hexes"]})
        if len(cells) != 1 or cells[0] in taken:
            raise SystemExit(f"code area {area['area']}: its land ports fall in naval hexes {cells}")
        cell = cells[0]
        taken.add(cell)
        codes.append({"code": area["area"], "hex": numbers[cell],
                      "land_coast": [area["hexes"][0], area["hexes"][-1]],
                      "provenance": ("derived: 7.5 example (code A covers 1701-1210 and its winter ports 0801, 0803) "
                                     "with 15.21; the hex holding them" if area["area"] == "A" else
                                     "provisional: the naval hex holding the area's land-map port, as for A")})
    ports_out = []
    for name, _lat, _lon, side, home, land_hex in PORTS:
        cell = port_cells[name]
        entry: dict[str, Any] = {"name": name, "hex": numbers[cell], "friendly": side, "home": home}
        if land_hex:
            entry["land_hex"] = land_hex
        if name in ("Port Arthur", "Vladivostok"):
            entry["provenance"] = "rulebook: 10.12, 16.0, 19.2 (Russian ports, mineable)"
        elif name == "Dalny":
            entry["provenance"] = "rulebook: 7.5 example (0803 a winter port of code A)"
        elif home:
            entry["provenance"] = ("derived: 17.11 and 19.1 (the Japanese set-up hexes are home ports); "
                                   "which real port: provisional")
        else:
            entry["provenance"] = "provisional: friendly side is our reading of 1904 (interpretations.md, 7.5)"
        ports_out.append(entry)
    return {
        "id": "rsr-naval-provisional-1",
        "provenance": PROVISIONAL,
        "grid": {"shifted_lines": "even", "lines": list(LINES), "positions": list(POSITIONS),
                 "centre_of_0101": [LAT0, LON0], "spacing_degrees": [DLAT, DLON],
                 "provenance": "provisional: a coarse grid chosen for this stand-in (tools/rsr_naval_map)"},
        "hexes": hexes,
        "impassable": [{"side": f"{numbers[s[:4]]}-{numbers[s[5:]]}", "provenance": PROVISIONAL} for s in impassable],
        "ports": ports_out,
        "japanese_home_ports": {"hexes": sorted(numbers[c] for c in home_cells),
                                "provenance": "derived: 17.11 with 19.1 (where 19.1 sets up merchant fleets)"},
        "baltic_entry": {"hexes": list(range(12, 20)), "provenance": "rulebook: 19.2"},
        "code_hexes": codes,
    }


HEADER = """# Red Sun Rising: the provisional Strategic Naval Map (3.1). GENERATED by tools/rsr_naval_map; do not
# edit by hand. The printed map is not available: see docs/red-sun-rising/naval-map.md for how this stand-in
# is drawn and which numbers the rulebook fixes. `cell` places a hex on an AABB grid (rsr/hexgrid.py) for
# adjacency; `number` is the hex number players use.
"""


def render() -> str:
    return HEADER + yaml.safe_dump(build(), sort_keys=False, width=110, default_flow_style=None, allow_unicode=True)


NAVAL_DATA = ROOT / "scenarios" / "red-sun-rising" / "naval.yaml"
LAND_POLYS = (geo.MAINLAND, geo.SHANDONG, SOUTH_KOREA, CHINA, KYUSHU, SHIKOKU, HONSHU, HOKKAIDO)
COAST = 'fill="none" stroke="#7a5c2e" stroke-width="1.2"'


def render_svg(data: dict[str, Any]) -> str:
    """A preview to check the map by eye, drawn by rsr/draw as the game draws the naval map: hexes by kind,
    numbers, code letters, impassable sides, ports; the coarse real coasts as brown lines."""
    static = load_naval({"naval_map": data, "naval": yaml.safe_load(NAVAL_DATA.read_text(encoding="utf-8"))})
    assert static is not None
    scene = naval_map_scene(static, {}, "Red Sun Rising: PROVISIONAL Strategic Naval Map (tools/rsr_naval_map)",
                            "drawn from real geography; not the published map (docs/red-sun-rising/naval-map.md)")
    cells = [GRID.parse(c) for c in ("0101", "0112", "1001")]
    to_pixels = fit_affine([(centre(f"{a:02d}{b:02d}"), scene.layout.centre(f"{a:02d}{b:02d}")) for a, b in cells])
    scene.overlays += [line(poly, to_pixels, COAST, True) for poly in LAND_POLYS]
    scene.legend.append(("", "brown lines: the coarse real coasts the hexes were drawn from"))
    return preview_svg(scene)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    text = render()
    svg = render_svg(yaml.safe_load(text))
    if args.check:
        for path, wanted in ((OUT, text), (SVG, svg)):
            if not path.exists() or path.read_text() != wanted:
                print(f"{path} differs from what tools/rsr_naval_map makes", file=sys.stderr)
                return 1
        return 0
    OUT.write_text(text)
    SVG.write_text(svg)
    print(f"wrote {OUT} and {SVG}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
