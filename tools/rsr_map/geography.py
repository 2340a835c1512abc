"""The geography file of the Red Sun Rising land map: everything the map library (tools/hexmap, a theatre
map) needs to draw scenarios/red-sun-rising/map.yaml.

1. Real geography of the theatre, as simple data drawn from general knowledge. All points are (latitude N,
   longitude E) in decimal degrees. The shapes are deliberately coarse: a map hex is about 23 km across,
   so a few kilometres of error do not change any hex. Polygons may run past the map rectangle (about
   37.2-44.1 N, 120.9-132.9 E); only the part inside matters. This part knows nothing of hex numbers.
2. The grid and its fit to latitude and longitude (data-notes.md).
3. What the rulebook says about particular hexes, and the nudges that make the real geography agree.
4. The checks that chose ``shifted_lines`` (``python -m tools.rsr_map --fit``).
5. The map file: its id, header and provenance strings, and where it and its preview are written.
"""

from __future__ import annotations

from rsr.rulesets.red_sun_rising.data import Place as Pinned
from tools.hexmap.geometry import LatLon
from tools.hexmap.grid import GeoGrid, LatLonFit
from tools.hexmap.named import Control, HexFact
from tools.hexmap.theatre import CoastSplit, Waypoint

# ---------------------------------------------------------------------------------------------------
# Land. Everything inside a land polygon is land; everything else is sea (Yellow Sea, Bay of Korea,
# Gulf of Liaodong, Sea of Japan).
# ---------------------------------------------------------------------------------------------------

MAINLAND: list[LatLon] = [
    # north-west and north-east, outside the map
    (45.5, 119.5), (45.5, 135.0),
    # Primorye coast east of Vladivostok (Sea of Japan)
    (43.30, 135.0), (42.95, 134.0), (42.70, 133.10), (42.85, 132.88), (42.78, 132.62),
    # Ussuri Bay, east shore up to its head, then down the Muravyov-Amursky peninsula
    (43.10, 132.33), (43.30, 132.33), (43.34, 132.18), (43.20, 132.06), (43.05, 131.98),
    (43.07, 131.86),  # peninsula tip at Vladivostok (Golden Horn)
    # Amur Bay: up its east shore to the head (Razdolnaya mouth), down its west shore
    (43.18, 131.90), (43.32, 131.90), (43.36, 131.80), (43.28, 131.70), (43.10, 131.55),
    (42.88, 131.38), (42.78, 131.15),
    # Posyet Bay and the Tumen mouth
    (42.65, 130.85), (42.55, 130.75), (42.30, 130.70),
    # north-east Korea (Sea of Japan coast), southward
    (42.33, 130.42), (42.22, 130.28), (42.00, 130.05), (41.78, 129.80), (41.50, 129.68),
    (41.35, 129.78), (41.05, 129.62), (40.83, 129.73), (40.67, 129.20), (40.45, 128.92),
    (40.30, 128.65), (40.18, 128.35), (40.03, 128.18), (39.98, 127.95), (39.82, 127.62),
    (39.60, 127.52), (39.42, 127.40), (39.17, 127.45), (39.22, 127.56), (39.00, 127.72),
    (38.92, 127.90), (38.62, 128.30), (38.20, 128.60), (37.77, 128.93), (37.50, 129.12),
    (37.44, 129.17), (37.00, 129.42),
    # south of the map
    (36.30, 129.45), (36.30, 126.10),
    # Korea's west coast (Yellow Sea), northward
    (36.90, 126.15), (37.00, 126.45), (36.95, 126.85), (37.10, 126.75), (37.22, 126.66),
    (37.35, 126.70), (37.47, 126.60), (37.62, 126.58), (37.75, 126.56),  # Han-Imjin estuary
    (37.85, 126.52), (37.80, 126.32), (37.88, 126.12), (37.97, 125.92), (38.02, 125.70),  # Haeju
    (37.93, 125.35), (37.78, 125.18), (37.95, 124.95), (38.12, 124.70),  # Ongjin, Changsan cape
    (38.35, 124.85), (38.55, 125.05), (38.70, 125.22),
    (38.72, 125.38), (38.78, 125.30),  # Taedong estuary at Chinnampo
    (38.85, 125.15), (39.05, 125.10), (39.25, 125.15), (39.45, 125.20), (39.55, 125.30),  # Chongchon
    (39.62, 125.10), (39.66, 124.85), (39.70, 124.60), (39.80, 124.45), (39.92, 124.35),
    (39.95, 124.32),  # Yalu mouth, Korean bank
    # Liaodong peninsula, south-east coast (Bay of Korea), south-westward
    (39.86, 124.15), (39.82, 123.85), (39.88, 123.57), (39.80, 123.30), (39.68, 122.97),
    (39.55, 122.75), (39.40, 122.35), (39.25, 122.15), (39.10, 121.98),
    (39.06, 121.82), (38.99, 121.76),  # Talienwan (Dalian Bay) head, east of the Kinchou neck
    (38.93, 121.66), (38.86, 121.60), (38.82, 121.48), (38.78, 121.38),  # Dalny and the south shore
    (38.79, 121.26), (38.75, 121.18), (38.72, 121.13),  # Port Arthur and Liaotieshan
    # west coast (Gulf of Liaodong), northward
    (38.86, 121.10), (38.97, 121.22), (39.05, 121.45), (39.10, 121.62),  # Kinchou Bay, the neck
    (39.20, 121.55), (39.35, 121.60), (39.50, 121.45), (39.65, 121.45), (39.75, 121.62),
    (39.95, 121.80), (40.18, 122.05), (40.30, 122.10), (40.42, 122.20), (40.58, 122.22),
    (40.68, 122.22),  # Yingkou at the Liao mouth
    (40.76, 122.08), (40.84, 121.88), (40.90, 121.68), (40.88, 121.45), (40.85, 121.25),
    (40.80, 121.07), (40.70, 120.95), (40.55, 120.72), (40.20, 120.30), (40.00, 119.50),
]

# The tip of Shandong (neutral China: Chefoo, Weihaiwei) reaches the south-west corner of the map.
SHANDONG: list[LatLon] = [
    (36.30, 119.50), (37.30, 119.50), (37.60, 120.30), (37.82, 120.75), (37.70, 121.05),
    (37.55, 121.40), (37.45, 121.65), (37.52, 122.12), (37.40, 122.70), (37.10, 122.55),
    (36.30, 122.00),
]

LAND: list[list[LatLon]] = [MAINLAND, SHANDONG]

# ---------------------------------------------------------------------------------------------------
# Relief. Land is rough (hills) unless a clear or mountain area says otherwise; mountain wins over
# clear. Korea, the Liaodong hills and eastern Manchuria are hill country; the Liao plain is open.
# ---------------------------------------------------------------------------------------------------

MOUNTAIN: dict[str, list[LatLon]] = {
    # Changbai (Paektu) massif, the Kaema plateau, the Nangnim and Hamgyong ranges
    "Changbai - Kaema - Nangnim": [
        (40.55, 126.55), (41.00, 126.45), (41.60, 126.90), (42.10, 127.30), (42.60, 127.75),
        (42.85, 128.30), (42.65, 128.90), (42.25, 129.05), (41.95, 129.35), (41.55, 129.42),
        (41.05, 129.25), (40.70, 128.75), (40.35, 128.10), (40.15, 127.55), (39.80, 127.20),
        (39.40, 126.95), (39.25, 126.65), (39.55, 126.45), (40.05, 126.40),
    ],
    # Myohyang mountains of north-west Korea
    "Myohyang": [(39.80, 125.95), (40.20, 125.80), (40.45, 126.30), (40.10, 126.45), (39.75, 126.35)],
    # Taebaek range, the spine behind Korea's east coast (Kumgang, Sorak, Odae)
    "Taebaek": [
        (37.20, 128.50), (37.55, 128.30), (38.00, 128.05), (38.50, 127.75), (38.85, 127.55),
        (39.00, 127.72), (38.60, 128.20), (38.10, 128.52), (37.65, 128.82), (37.20, 129.12),
    ],
    # the mountain belt between the Yalu and Liaoyang (Motien Ling, Fenghuang Shan)
    "Liaodong mountains": [
        (40.20, 123.10), (40.55, 123.25), (40.95, 123.55), (41.25, 124.00), (41.60, 124.45),
        (41.45, 124.90), (40.95, 124.35), (40.55, 123.95), (40.15, 123.50),
    ],
    # southern spurs of the Sikhote-Alin east of the Ussuri railway
    "Sikhote-Alin": [(43.05, 132.55), (43.60, 132.50), (44.50, 133.10), (44.50, 135.0), (42.90, 135.0)],
}

CLEAR: dict[str, list[LatLon]] = {
    # the Liao plain west of the railway, the Manchurian plain up to Kuanchengtzu and the Horqin steppe
    # north of the Liaoxi hills
    "Liao plain": [
        (40.15, 121.95), (40.20, 122.20), (40.45, 122.45), (40.75, 122.75), (41.05, 123.00),
        (41.30, 123.35), (41.55, 123.45), (41.80, 123.70), (42.10, 123.75), (42.40, 124.05),
        (42.75, 124.25), (43.10, 124.55), (43.50, 125.10), (43.95, 125.65), (44.50, 125.90),
        (44.50, 119.50), (42.70, 119.50), (42.55, 121.70), (42.00, 122.25), (41.25, 121.90),
        (40.95, 120.50), (40.15, 120.50),
    ],
    "Han basin (Seoul)": [
        (37.25, 126.50), (37.25, 127.20), (37.65, 127.25), (38.00, 127.00), (37.95, 126.50),
        (37.60, 126.40),
    ],
    "Hwanghae lowland": [
        (37.85, 125.10), (38.05, 125.20), (38.60, 125.40), (38.70, 125.90), (38.30, 126.10),
        (37.90, 126.60), (37.75, 126.30),
    ],
    "Pyongyang plain": [(38.70, 125.30), (39.25, 125.30), (39.30, 125.95), (38.95, 126.05), (38.70, 125.80)],
    "Chongchon - Yalu coastal lowland": [
        (39.30, 125.20), (39.80, 124.45), (40.10, 124.45), (40.15, 124.75), (39.90, 125.30),
        (39.75, 125.85), (39.40, 125.80),
    ],
    "Hamhung plain": [(39.75, 127.35), (40.05, 127.40), (40.05, 127.80), (39.80, 127.75)],
    # the Razdolnaya and Khanka lowland around Nikolsk
    "Nikolsk lowland": [
        (43.35, 131.35), (43.35, 131.95), (43.80, 132.20), (44.50, 132.50), (44.50, 131.30),
        (43.90, 131.20),
    ],
}

# ---------------------------------------------------------------------------------------------------
# Rivers, from source (or the map edge) to mouth or confluence.
# ---------------------------------------------------------------------------------------------------

RIVERS: dict[str, list[LatLon]] = {
    "Yalu": [
        (42.00, 128.05), (41.70, 128.05), (41.40, 128.18), (41.50, 127.50), (41.78, 126.88),
        (41.45, 126.55), (41.15, 126.25), (40.90, 125.80), (40.65, 125.35), (40.46, 124.95),
        (40.30, 124.70), (40.20, 124.50), (40.10, 124.40), (39.95, 124.33), (39.85, 124.30),
    ],
    "Tumen": [
        (42.05, 128.25), (42.23, 128.85), (42.23, 129.20), (42.45, 129.55), (42.43, 129.75),
        (42.75, 129.85), (42.97, 129.85), (42.95, 130.00), (42.75, 130.25), (42.55, 130.45),
        (42.42, 130.60), (42.30, 130.70),
    ],
    # the Liao from the West Liao confluence (Fudedian) past Tieling and Xinmin to Newchwang; in 1904 its
    # main mouth was at Yingkou
    "Liao": [
        (43.60, 120.80), (43.55, 122.20), (43.35, 123.00), (42.95, 123.55), (42.55, 123.60),
        (42.25, 123.65), (42.00, 123.10), (41.60, 122.75), (41.30, 122.50), (41.02, 122.42),
        (40.85, 122.35), (40.68, 122.22),
    ],
    "East Liao": [(42.90, 125.15), (43.25, 124.60), (43.25, 124.00), (42.95, 123.55)],
    "Hun": [
        (42.10, 125.00), (41.95, 124.40), (41.88, 123.95), (41.77, 123.45), (41.50, 123.10),
        (41.20, 122.70), (41.02, 122.42),
    ],
    "Taizi": [
        (41.20, 124.60), (41.35, 124.10), (41.30, 123.77), (41.35, 123.45), (41.31, 123.17),
        (41.15, 122.85), (41.02, 122.42),
    ],
    "Han": [
        (37.20, 128.20), (37.30, 127.65), (37.53, 127.32), (37.52, 127.00), (37.58, 126.80),
        (37.70, 126.65), (37.75, 126.56),
    ],
    "North Han": [(38.15, 127.75), (37.88, 127.73), (37.60, 127.45), (37.53, 127.32)],
    "Imjin": [(38.70, 127.30), (38.30, 127.20), (38.00, 126.95), (37.85, 126.75), (37.75, 126.62)],
    "Taedong": [
        (40.00, 126.60), (39.75, 126.30), (39.40, 126.00), (39.02, 125.75), (38.85, 125.55),
        (38.75, 125.35),
    ],
    "Chongchon": [(40.30, 126.25), (40.00, 125.95), (39.80, 125.80), (39.62, 125.62), (39.55, 125.30)],
    "Sungari": [
        (42.30, 127.80), (42.80, 127.10), (43.30, 126.85), (43.72, 126.68), (43.85, 126.55),
        (44.30, 126.40),
    ],
    "Suifen (Razdolnaya)": [
        (44.30, 130.90), (43.95, 131.15), (43.85, 131.55), (43.78, 131.95), (43.55, 131.92),
        (43.36, 131.82),
    ],
}

# ---------------------------------------------------------------------------------------------------
# Towns. `city` marks the larger places a victory schedule might count; `port` marks harbours usable
# by transports (see PINNED in part 3 for the rulebook's own ports).
# ---------------------------------------------------------------------------------------------------

PLACES: dict[str, LatLon] = {
    "Port Arthur": (38.80, 121.25),
    "Dalny": (38.92, 121.63),
    "Kinchou": (39.10, 121.72),
    "Pitszewo": (39.40, 122.35),
    "Telissu": (39.63, 122.00),
    "Kaiping": (40.40, 122.35),
    "Tashihchiao": (40.63, 122.50),
    "Newchwang (Yingkou)": (40.67, 122.23),
    "Haicheng": (40.85, 122.75),
    "Liaoyang": (41.27, 123.17),
    "Mukden": (41.80, 123.43),
    "Tieling": (42.29, 123.84),
    "Sipingkai": (43.17, 124.37),
    "Kuanchengtzu": (43.90, 125.32),
    "Kirin": (43.85, 126.55),
    "Takushan": (39.88, 123.57),
    "Hsiuyen": (40.29, 123.27),
    "Fenghuangcheng": (40.45, 124.07),
    "Antung": (40.12, 124.38),
    "Wiju": (40.20, 124.53),
    "Anju": (39.62, 125.65),
    "Pyongyang": (39.02, 125.75),
    "Chinnampo": (38.73, 125.40),
    "Haeju": (38.04, 125.71),
    "Kaesong": (37.97, 126.55),
    "Seoul": (37.57, 126.98),
    "Chemulpo": (37.47, 126.62),
    "Wonsan (Gensan)": (39.15, 127.44),
    "Hamhung": (39.92, 127.54),
    "Songjin": (40.67, 129.20),
    "Kyongsong": (41.58, 129.60),
    "Hoeryong": (42.44, 129.75),
    "Hunchun": (42.87, 130.36),
    "Novokievsk": (42.70, 130.80),
    "Vladivostok": (43.12, 131.89),
    "Nikolsk": (43.80, 131.95),
}

# Larger towns that a victory schedule might count (RSR 19.4 counts cities; the Turn Record Track that
# says how many is missing). The rulebook's own cities are in PINNED (part 3).
CITIES: frozenset[str] = frozenset({
    "Newchwang (Yingkou)", "Mukden", "Tieling", "Kirin", "Antung", "Seoul", "Chemulpo", "Pyongyang",
    "Wonsan (Gensan)", "Hamhung", "Nikolsk",
})

# Harbours usable all year by transports (besides the rulebook's 0801, 0803 and 2937). Newchwang is left
# out: it froze in winter, and rulebook 7.5's example names only 0801 and 0803 as winter ports of area A.
PORTS: frozenset[str] = frozenset({"Chemulpo", "Chinnampo", "Wonsan (Gensan)"})

PLACE_PROVENANCE: dict[str, str] = {
    "Seoul": "derived: the grid fit puts Seoul on 0220 (data-notes); its capture counts in rulebook 18.3",
    "Mukden": "derived: the data-notes grid fit (near 2208-2308; the real town falls in 2309); its capture "
    "counts in rulebook 18.3",
}

# Not on the map: Fusan (35.10 N, 129.04 E) lies about ten lines south of line 01; Harbin (45.75 N)
# about nine lines north of the top edge.
OFF_MAP: dict[str, LatLon] = {"Fusan": (35.10, 129.04), "Harbin": (45.75, 126.63)}

# ---------------------------------------------------------------------------------------------------
# Railways of 1904 and main roads, as waypoints. A waypoint is a place name, a (lat, lon) point, or a
# hex number that the rulebook pins (see PINNED and ALIASES below); consecutive waypoints are joined by the straightest
# run of adjacent hexes.
# ---------------------------------------------------------------------------------------------------

RAILWAYS: dict[str, list[Waypoint]] = {
    # Chinese Eastern Railway, southern branch (the "South Manchurian" line): Port Arthur - Kinchou
    # junction (Nanguanling) - Telissu - Kaiping - Tashihchiao - Haicheng - Liaoyang - Mukden - Tieling -
    # Kuanchengtzu, which leaves the map northward for Harbin.
    "south-manchurian": [
        "Port Arthur", (38.84, 121.45), "@junction", "@1004", "@1105", (39.63, 122.00), (39.95, 122.05),
        (40.18, 122.12), "Kaiping", "@1606", "Tashihchiao", "Haicheng", (41.10, 123.00), "Liaoyang",
        (41.55, 123.30), "Mukden", "Tieling", (42.54, 124.04), (42.78, 124.10), "Sipingkai",
        (43.50, 124.82), "Kuanchengtzu",
    ],
    "dalny-branch": ["@junction", "Dalny"],
    "newchwang-branch": ["Tashihchiao", "Newchwang (Yingkou)"],
    # Ussuri Railway Vladivostok - Nikolsk, where the Chinese Eastern main line (to Harbin) and the
    # Ussuri line (to Khabarovsk) leave the map.
    "ussuri": ["Vladivostok", (43.35, 131.98), (43.60, 131.93), "Nikolsk", "@3337"],
}

ROADS: dict[str, list[Waypoint]] = {
    # the Mandarin road of the Korean invasion: Seoul - Pyongyang - Anju - Wiju, over the Yalu to
    # Fenghuangcheng and the Motien pass to Liaoyang
    "Seoul - Wiju - Liaoyang": [
        "Seoul", "Kaesong", (38.33, 126.40), (38.51, 125.76), "Pyongyang", (39.42, 125.63), "Anju",
        (39.69, 125.22), (39.80, 124.92), "Wiju", (40.22, 124.45), "Fenghuangcheng", (40.62, 123.80),
        (40.85, 123.58), (41.05, 123.40), "Liaoyang",
    ],
    "Seoul - Chemulpo": ["Seoul", "Chemulpo"],
    "Seoul - Wonsan": ["Seoul", (37.74, 127.05), (38.15, 127.31), (38.42, 127.29), (39.03, 127.53),
                       "Wonsan (Gensan)"],
    "Pyongyang - Wonsan": ["Pyongyang", (39.25, 126.20), (39.22, 126.65), "Wonsan (Gensan)"],
    "Pyongyang - Chinnampo": ["Pyongyang", "Chinnampo"],
    "Wonsan - Hoeryong": [
        "Wonsan (Gensan)", "Hamhung", (40.03, 127.95), (40.00, 128.33), (40.46, 128.90), "Songjin",
        (40.96, 129.33), "Kyongsong", (42.05, 129.70), "Hoeryong",
    ],
    "Hoeryong - Vladivostok": [
        "Hoeryong", (42.95, 130.00), "Hunchun", "Novokievsk", (43.20, 131.48), (43.45, 131.80),
        "Vladivostok",
    ],
    "Antung - Pitszewo (coast road)": ["Antung", "Takushan", (39.68, 122.97), "Pitszewo", "Kinchou"],
    "Takushan - Haicheng": ["Takushan", "Hsiuyen", (40.60, 123.00), "Haicheng"],
    "Newchwang - Liaoyang": ["Newchwang (Yingkou)", (40.86, 122.50), "Haicheng"],
    "Liaoyang - Mukden - Tieling": ["Liaoyang", (41.55, 123.35), "Mukden", "Tieling"],
    "Tieling - Kirin": ["Tieling", (42.54, 124.04), (42.95, 124.90), (43.30, 125.60), (43.60, 126.20),
                        "Kirin"],
    "Kirin - Kuanchengtzu": ["Kirin", (43.88, 125.95), "Kuanchengtzu"],
}

# =======================================================================================================
# 2. The grid and its fit to latitude and longitude
# =======================================================================================================

# Hex numbers are AABB: AA is the line, BB the position along it (docs/data-format.md). Lines run west to
# east and are stacked northward; alternate lines are offset by half a hex toward higher BB (which ones
# is shifted_lines, chosen by the checks of part 4). The fit to the real map comes from the notes on the
# rulebook's missing components ("Derived"): each line is about 0.205 degrees of latitude north of the
# one before, each position about 0.296 degrees of longitude east of the one before, and the centre of
# hex 0801 (Port Arthur) is at 38.80 N 121.25 E.
LATLON_FIT = LatLonFit(lat0=38.80, lon0=121.25, dlat=0.205, dlon=0.296, anchor=(8, 1))
GRID = GeoGrid(LATLON_FIT, shifted_lines="even", lines=(1, 33), positions=(1, 40))
GRID_PROVENANCE = "derived: data-notes.md grid fit"


# =======================================================================================================
# 3. What the rulebook says about particular hexes
# =======================================================================================================

# The rulebook text is never copied here: entries cite case numbers (and "Player's Notes" for the designer
# notes printed after the rules).

# Places whose hex the rules (or the grid fit that the rules' hexes imply) fix, as the game reads places
# (rsr/rulesets/red_sun_rising/data.py).
PINNED: dict[str, Pinned] = {
    "Port Arthur": Pinned("0801", "Port Arthur", True, True, True, provenance="rulebook: 7.5, 10.12, 13.2, 19.2"),
    "Dalny": Pinned("0803", "Dalny", True, True,
                    provenance="rulebook: 7.5, 18.42 (port; city status provisional)"),
    "Vladivostok": Pinned("2937", "Vladivostok", True, True, True, provenance="rulebook: 10.12, 13.2, 19.2"),
    "Kuanchengtzu": Pinned(
        "3316", "Kuanchengtzu", city=True, railhead="russia",
        provenance="rulebook: 10.11, 17.1, 18.41, 19.2 (the town's name is provisional)",
    ),
    "Nikolsk railhead": Pinned(
        "3337", "Ussuri railhead", railhead="russia", provenance="rulebook: 10.11, 17.1, 18.41",
    ),
    "Novokievsk": Pinned("2734", "Novokievsk", provenance="rulebook: 19.2 (set-up hex; the name is provisional)"),
    "Liaoyang": Pinned(
        "2008", "Liaoyang", city=True,
        provenance="derived: the Player's Notes defence lines 2007/1908-1910 and 1907/1807-1811 ring hex 2008 "
        "at one and two hexes; its capture counts in rulebook 18.3",
    ),
}

# Extra hexes the waypoints of RAILWAYS and ROADS may use ("@junction").
ALIASES: dict[str, str] = {
    # the junction (Nanguanling, near Kinchou) of the Dalny branch: adjacent to 0803 and on the way to 1004
    "junction": "0903",
}

# Facts the rules state about hexes, checked after the map is drawn (a failure stops the generator).
FACTS: list[HexFact] = [
    HexFact("0801", coastal=True, rail=True, cite="rulebook 7.5, 10.12, 13.2, 19.2"),
    HexFact("0803", coastal=True, rail=True, cite="rulebook 7.5, 18.42"),
    HexFact("2937", coastal=True, rail=True, cite="rulebook 10.12, 13.2, 19.2"),
    HexFact("3316", rail=True, cite="rulebook 10.11, 18.41"),
    HexFact("3337", rail=True, cite="rulebook 10.11, 18.41"),
    HexFact("1004", rail=True, cite="Player's Notes (rail between Port Arthur and Liaoyang)"),
    HexFact("1105", rail=True, cite="Player's Notes (rail between Port Arthur and Liaoyang)"),
    HexFact("1606", rail=True, cite="Player's Notes (rail supply line)"),
    HexFact("1706", coastal=True, cite="Player's Notes (summer landing site)"),
    HexFact("1701", coastal=True, cite="rulebook 7.5 (first coastal hex of code area A)"),
    HexFact("1210", coastal=True, cite="rulebook 7.5 (last coastal hex of code area A)"),
    HexFact("2734", cite="rulebook 19.2 (set-up hex)"),
    HexFact("1412", cite="Player's Notes (at the Yalu)"),
] + [HexFact(h, cite="Player's Notes (Liaoyang defence lines)") for h in (
    "1907", "1807", "1808", "1809", "1811", "2007", "1908", "1909", "1910")]


# The rules win where the plain projection of real geography puts a feature a hex or so away from the hex
# the rules name: a smooth local displacement (tools/hexmap/fit.py, Warp) moves the geography near each
# control onto its target, so the coast, rivers and towns around it move together.
CONTROLS: list[Control] = [
    Control("Port Arthur", (38.80, 121.25), "0801", 0.25, "anchor of the grid fit (hex 0801)"),
    Control("Dalny", (38.92, 121.63), (38.82, 121.80), 0.20,
            "Dalny is hex 0803 (rulebook 7.5); real Dalny projects onto 0802/0902"),
    Control("rail near Kinchou", (39.21, 121.81), "1004", 0.35,
            "the railway passes 1004 (Player's Notes); the real line is one hex further west"),
    Control("rail at Pulandian", (39.40, 121.97), "1105", 0.35,
            "the railway passes 1105 (Player's Notes); the real line is one hex further west"),
    Control("rail near Kaiping", (40.44, 122.38), "1606", 0.35,
            "the railway passes 1606 (Player's Notes); the real line is one hex further west"),
    Control("Yingkou", (40.67, 122.23), (40.64, 122.49), 0.30,
            "1706 is a coastal landing hex next to the rail at 1606 (Player's Notes): the Liao mouth "
            "coast moves one hex east"),
    Control("Liaoyang", (41.27, 123.17), "2008", 0.35, "Liaoyang is hex 2008 (see PINNED)"),
    Control("Gulf of Liaodong, north-west shore", (40.80, 121.07), (40.57, 121.07), 0.35,
            "1701 is a coastal hex (rulebook 7.5); the real shore is about one line further north"),
    Control("Liaodong east coast at Pikou", (39.40, 122.38), (39.40, 122.68), 0.35,
            "keeps the peninsula its real width while its rail moves east to 1004/1105"),
    Control("Liaodong east coast near Tengshaho", (39.20, 122.10), (39.20, 122.38), 0.30,
            "keeps the peninsula its real width while its rail moves east to 1004/1105"),
    Control("Liaodong coast at Chuangho", (39.68, 122.97), (39.55, 123.12), 0.35,
            "1210 is a coastal hex (rulebook 7.5): the coast from Chuangho to the Yalu moves about one line "
            "south"),
    Control("Liaodong coast at Takushan", (39.87, 123.60), (39.60, 123.62), 0.35,
            "1210 is a coastal hex (rulebook 7.5): the real coast is about one line further north"),
    Control("Liaodong coast at Tatungkou", (39.86, 124.05), (39.62, 124.05), 0.30,
            "1210 is a coastal hex (rulebook 7.5): the real coast is about one line further north"),
    Control("Kuanchengtzu", (43.90, 125.32), "3316", 0.40,
            "the northern railhead is 3316 (rulebook 10.11); real Kuanchengtzu projects onto 3315"),
]

# Hexes whose terrain is set by hand after the projection, with the reason; "land" means land with the
# relief found at the hex centre. Used only where the warp of CONTROLS cannot satisfy a named hex.
TERRAIN_OVERRIDES: dict[str, tuple[str, str]] = {
    "0803": ("land", "Dalny (port, rulebook 7.5) stands on a headland much smaller than a hex, so the "
                     "projection leaves hex 0803 mostly water"),
    "2937": ("land", "Vladivostok (fortress and port, rulebook 13.2) stands on the Muravyov-Amursky "
                     "peninsula, narrower than a hex, so the projection leaves hex 2937 mostly water"),
}

# Towns put in a neighbouring hex by hand, with the reason (a town by a river belongs on its own bank).
PLACE_OVERRIDES: dict[str, tuple[str, str]] = {
    "Antung": ("1411", "Antung is on the Manchurian bank of the Yalu; its projected hex 1412 lies across the "
                       "Yalu hexside 1411-1412"),
}

# rulebook 7.5: the coast is split into naval code areas. A runs from 1701 to 1210 (its example); the
# rest of that coast is B up to the coast hex nearest Chinnampo, then C; the east coast from Vladivostok
# is D down to the coast hex nearest Hamhung, then E (provisional: see CODE_PROVENANCE).
CODE_AREAS = CoastSplit(first=("A", "1701", "1210"), rest=("B", "Chinnampo", "C"),
                        other=("Vladivostok", "D", "Hamhung", "E"))


# =======================================================================================================
# 4. The checks that chose shifted_lines
# =======================================================================================================

# Both conventions share the grid fit of data-notes.md (line -> latitude, position -> longitude, 0801 at
# Port Arthur); they differ only in which lines sit half a hex east. The test measures, for each:
#
# * how far (in hex widths) the real place lies from the centre of the hex the rules name for it;
# * how far the hexes the Player's Notes put on the railway lie from the real 1904 railway;
# * whether hexes the rules treat as neighbours or as a continuous line are adjacent;
# * how the two Liaoyang defence lines of the Player's Notes sit around the Liaoyang hex: the inner line
#   (2007 1908 1909 1910) should be closer than the outer (1907 1807 1808 1809 1811).
FIT_PLACES: list[tuple[str, str]] = [
    ("Dalny", "0803"), ("Vladivostok", "2937"), ("Kuanchengtzu", "3316"), ("Novokievsk", "2734"),
    ("Seoul", "0220"), ("Newchwang (Yingkou)", "1706"), ("Liaoyang", "2008"),
]
FIT_RAIL = ["1004", "1105", "1606"]
REAL_RAILWAY = [
    (38.80, 121.25), (38.84, 121.45), (39.03, 121.68), (39.40, 121.97), (39.63, 122.00), (40.18, 122.12),
    (40.40, 122.35), (40.63, 122.50), (40.85, 122.75), (41.10, 123.00), (41.27, 123.17),
]
INNER = ["2007", "1908", "1909", "1910"]
OUTER = ["1907", "1807", "1808", "1809", "1811"]
FIT_PAIRS = [("1004", "1105", "rail hexes named together"), ("1606", "1706", "landing next to the rail hex"),
             ("2007", "1908", "inner line"), ("1908", "1909", "inner line"), ("1909", "1910", "inner line"),
             ("1907", "1807", "outer line"), ("1807", "1808", "outer line"), ("1808", "1809", "outer line")]
FIT_RINGS = ("2008", "Liaoyang", {"inner line": INNER, "outer line": OUTER})


# =======================================================================================================
# 5. The map file
# =======================================================================================================

MAP_YAML = "scenarios/red-sun-rising/map.yaml"
MAP_SVG = "docs/red-sun-rising/map-provisional.svg"
PREVIEW_TITLE = ("Red Sun Rising: PROVISIONAL land map, drawn from real geography by tools/rsr_map",
                 "not the published map (docs/red-sun-rising/map.md)")
CODE_AREA_COLOUR = {"A": "#d62728", "B": "#9467bd", "C": "#1f77b4", "D": "#2ca02c", "E": "#ff7f0e"}
PREVIEW_LEGEND = [
    "terrain: clear, rough (dots), mountain (peaks), sea",
    "blue sides: rivers; black sides: impassable; brown dashes: roads; black with ties: rail",
    "bold: city; red ring: fortress; dashed inner rings: naval code areas A-E (7.5), "
    + ", ".join(f"{a} {c}" for a, c in CODE_AREA_COLOUR.items()),
    "thin lines: the real coast and rivers after the local nudges",
]
HEADER = [
    "# Red Sun Rising land map: PROVISIONAL, drawn from real geography on the hex grid that the rulebook's",
    "# hex numbers imply. Generated by `python -m tools.rsr_map`; do not edit by hand (edit",
    "# tools/rsr_map and regenerate). How it was drawn and how to replace it with a transcription of the",
    "# real map: docs/red-sun-rising/map.md. Land hexes next to a sea hex are coastal (not listed).",
]
MAP_ID = "rsr-land-provisional-1"
DEFAULT_PROVENANCE = "provisional: drawn from real geography by tools/rsr_map"

RAIL_PROVENANCE = {
    "south-manchurian": "provisional: the 1904 railway Port Arthur - Liaoyang - Mukden - Kuanchengtzu; its "
    "railhead 3316 is rulebook 10.11 and its passage through 1004, 1105 and 1606 is from the Player's Notes",
    "dalny-branch": "provisional: the 1904 branch to Dalny, a rail hex the Japanese may trace to (rulebook 18.42)",
    "newchwang-branch": "provisional: the 1904 branch from Tashihchiao to Newchwang (Yingkou)",
    "ussuri": "provisional: the 1904 Ussuri railway Vladivostok - Nikolsk; its railhead 3337 is rulebook 10.11 "
    "and Vladivostok's rail link to it is rulebook 10.14",
}
IMPASSABLE_PROVENANCE = "provisional: sea between two land hexes (their centre line is mostly water)"
CODE_PROVENANCE = {
    "A": "rulebook: 7.5 (its example places transports on coastal hexes 1701 to 1210, and in winter on 0801 "
    "or 0803); the hexes between the two ends follow the provisional coast",
}
OTHER_CODE_PROVENANCE = "provisional: the rest of the mainland coast split among B-E in order along it"
