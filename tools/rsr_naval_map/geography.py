"""The geography file of the Red Sun Rising Strategic Naval Map (3.1): everything the map library
(tools/hexmap/naval.py) needs to draw scenarios/red-sun-rising/naval-map.yaml.

The printed Strategic Naval Map is not available (data-notes.md). The library draws a stand-in from real
geography on a coarse hex grid (about 130 km a hex) and numbers its hexes so that every number the
rulebook names plays its printed role (docs/red-sun-rising/naval-map.md).

1. The coarse grid and the real coasts and ports (general knowledge; the land map's own mainland and
   Shandong polygons, tools/rsr_map/geography.py, plus coarse outlines further south and of Japan).
2. The numbers the rulebook fixes and where each comes from.
3. The map file: its id, header and provenance strings, and where it and its preview are written.
"""

from __future__ import annotations

from rsr.hexgrid import Grid
from tools.rsr_map.geography import MAINLAND, SHANDONG

# =======================================================================================================
# 1. The grid, the coasts and the ports
# =======================================================================================================

LAT0, DLAT = 31.4, 1.40     # centre latitude of line 1, spacing of lines
LON0, DLON = 120.0, 1.80    # centre longitude of position 1 on unshifted lines, spacing of positions
LINES, POSITIONS = (1, 10), (1, 12)
GRID = Grid("even", LINES, POSITIONS)
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
LAND = [MAINLAND, SHANDONG, SOUTH_KOREA, CHINA, KYUSHU, SHIKOKU, HONSHU, HOKKAIDO]

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


# =======================================================================================================
# 2. The numbers the rulebook fixes
# =======================================================================================================

# The Russian fleets' set-up hexes (rulebook 19.2): the naval hex of the port gets the number.
FLEET_NUMBERS: dict[str, tuple[int, str]] = {
    "Port Arthur": (42, "rulebook: 19.2 (Russian 1st Fleet, Port Arthur, sets up in 42)"),
    "Vladivostok": (54, "rulebook: 19.2 (Russian 2nd Fleet, Vladivostok, sets up in 54)"),
}
# The Baltic fleet's entry hexes 12-19 (rulebook 19.2) are eight hexes of the southern edge (line 01) with
# Kagoshima's hex the third, so that Kagoshima is 14 (a Japanese set-up hex of 19.1).
BALTIC_ENTRY = range(12, 20)
BALTIC_ENTRY_PORT, BALTIC_ENTRY_PORT_INDEX = "Kagoshima", 2
BALTIC_PROVENANCE = "rulebook: 19.2 (Baltic fleet entry hexes 12-19); placed on the southern edge"
# The other Japanese set-up hexes with a merchant fleet (rulebook 19.1), given to home ports in PORTS order.
HOME_NUMBERS = (24, 25, 26, 27, 35, 47)
HOME_PROVENANCE = "rulebook: 19.1 (a Japanese set-up hex with a merchant fleet); port chosen"
HOME_PORTS_PROVENANCE = "derived: 17.11 with 19.1 (where 19.1 sets up merchant fleets)"
# Code hexes (7.5): the naval hex holding the land-map port(s) of the code area; the 7.5 example (a
# winter landing from A goes to 0801 or 0803) with 15.21 (in winter a merchant fleet survives only in
# port or on blockade) means hex A holds Port Arthur and Dalny; every other area has one port.
CODE_PROVENANCE = {"A": "derived: 7.5 example (code A covers 1701-1210 and its winter ports 0801, 0803) with 15.21; "
                        "the hex holding them"}
OTHER_CODE_PROVENANCE = "provisional: the naval hex holding the area's land-map port, as for A"
# Ports: where each one's side and role come from.
PORT_PROVENANCE = {
    "Port Arthur": "rulebook: 10.12, 16.0, 19.2 (Russian ports, mineable)",
    "Vladivostok": "rulebook: 10.12, 16.0, 19.2 (Russian ports, mineable)",
    "Dalny": "rulebook: 7.5 example (0803 a winter port of code A)",
}
HOME_PORT_PROVENANCE = ("derived: 17.11 and 19.1 (the Japanese set-up hexes are home ports); "
                        "which real port: provisional")
OTHER_PORT_PROVENANCE = "provisional: friendly side is our reading of 1904 (interpretations.md, 7.5)"


# =======================================================================================================
# 3. The map file
# =======================================================================================================

MAP_ID = "rsr-naval-provisional-1"
MAP_YAML = "scenarios/red-sun-rising/naval-map.yaml"
MAP_SVG = "docs/red-sun-rising/naval-map-provisional.svg"
LAND_MAP = "scenarios/red-sun-rising/map.yaml"  # its code areas
NAVAL_DATA = "scenarios/red-sun-rising/naval.yaml"  # ships and tables, for drawing the preview as the game does
PROVISIONAL = "provisional: drawn from real geography by tools/rsr_naval_map"
GRID_PROVENANCE = "provisional: a coarse grid chosen for this stand-in (tools/rsr_naval_map)"
PREVIEW_TITLE = ("Red Sun Rising: PROVISIONAL Strategic Naval Map (tools/rsr_naval_map)",
                 "drawn from real geography; not the published map (docs/red-sun-rising/naval-map.md)")
HEADER = """# Red Sun Rising: the provisional Strategic Naval Map (3.1). GENERATED by tools/rsr_naval_map; do not
# edit by hand. The printed map is not available: see docs/red-sun-rising/naval-map.md for how this stand-in
# is drawn and which numbers the rulebook fixes. `cell` places a hex on an AABB grid (rsr/hexgrid.py) for
# adjacency; `number` is the hex number players use.
"""
