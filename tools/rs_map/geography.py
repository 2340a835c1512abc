"""The Nomonhan / Khalkhin Gol battlefield of 1939 as plain data, written from general knowledge.

Coordinates are kilometres on a local plane: ``x`` east, ``y`` north, origin at the Soviet bridge just
north of the mouth of the Holsten (the Japanese called it the Kawamata bridge), about 47.74 N 118.58 E.
Nothing here is copied from the game's map (which the project does not have): it is the real ground at a
scale of about a kilometre, good enough to lay out a provisional map. The projection onto the hex grid
(scale, rotation, origin) is fitted in fit.py to the hexes the rulebook names; named.py then lists the
few local nudges needed to make the drawing agree with the rulebook exactly.
"""

from __future__ import annotations

Km = tuple[float, float]

# -- landmarks -------------------------------------------------------------------------------------------
# (name, position). The first five are fitted to rulebook hexes (fit.ANCHORS); the rest only placed.
LANDMARKS: dict[str, Km] = {
    "Kawamata bridge": (0.0, 0.0),  # Soviet bridge over the Halha at the Holsten mouth
    "north crossing": (-5.0, 19.0),  # where the Halha turns west below Bain Tsagan's north end
    "Old Engineer Bridge": (11.8, -1.4),  # on the Holsten, built by engineers in June
    "New Engineer Bridge": (9.2, -2.2),  # on the Holsten, built later, downstream of the old one
    "Uzuru Pond": (14.5, 15.2),  # water point and Japanese depots north of the Holsten
    "Khamar-Daba": (-3.2, -2.2),  # hill on the west bank: Zhukov's command post
    "Bain Tsagan": (-2.4, 7.0),  # Mt. Bayan Tsagaan, the flat-topped height on the west bank
    "Nomonhan Burd Obo": (19.8, 0.9),  # the border cairn that named the incident
    "Fui Heights": (0.0, 20.5),  # height 721, the northern end of the Japanese line in August
    "Remizov Heights": (5.5, 5.0),  # Balshagal heights (height 733) north of the Holsten
    "Noro Heights": (4.5, -5.0),  # height 742 south of the Holsten
    "Great Sand Dunes": (12.5, -10.5),  # the big dune field south of the Holsten
}

# -- the Halha (Khalkhin Gol) ------------------------------------------------------------------------------
# Downstream order. It comes in from the south-south-east, runs north past the Holsten mouth and Bain
# Tsagan, and turns west toward Buir Nuur about 19 km north of the Kawamata bridge. The ends run well
# past the map edges so that the river divides the map into a left (west and south) and right bank.
HALHA: list[Km] = [
    (3.6, -30.0), (3.0, -19.0), (2.2, -15.0), (1.3, -11.5), (0.6, -8.5), (0.3, -6.0), (0.1, -3.5),
    (0.05, -1.2), (0.0, 0.0), (-1.0, 1.1), (-1.05, 3.0), (-0.95, 5.0), (-1.05, 7.0), (-1.6, 9.0),
    (-2.3, 11.0), (-3.0, 13.0), (-3.8, 15.0), (-4.5, 17.0), (-5.0, 18.6), (-5.4, 19.8), (-6.8, 20.6),
    (-9.0, 21.0), (-11.0, 21.7), (-14.5, 22.4), (-30.0, 24.0),
]

# The foot of the steep west-bank bluffs (rulebook 2.7: the Soviet bank is the steep one). West of this
# line (and south of it where the river runs west) lies the Mongolian plateau; between it and the river,
# the flood plain. At Bain Tsagan the bluff stands right over the river.
WEST_BLUFF: list[Km] = [
    (2.0, -30.0), (1.6, -19.0), (0.8, -15.0), (-0.2, -11.5), (-0.8, -8.5), (-1.1, -6.0), (-1.3, -3.5),
    (-1.6, -1.2), (-1.8, 0.8), (-1.5, 3.0), (-1.2, 5.0), (-1.3, 7.0), (-1.8, 9.0), (-2.6, 11.0),
    (-3.4, 13.0), (-4.4, 15.0), (-5.3, 17.0), (-6.0, 18.6), (-7.0, 19.4), (-9.0, 19.8), (-11.0, 20.4),
    (-14.5, 21.0), (-30.0, 22.6),
]

# -- the Holsten (Khailastyn Gol) ------------------------------------------------------------------------
# From its mouth upstream: it comes from the east past Nomonhan. Narrow (rulebook 2.7: 10-13 feet), a
# minor river up to Nomonhan and a mere stream above it.
HOLSTEN: list[Km] = [
    (0.05, -1.2), (1.0, -1.5), (2.0, -1.6), (4.5, -1.4), (7.0, -2.0), (9.2, -2.2), (10.5, -1.8),
    (11.8, -1.4), (14.5, -1.0), (17.0, -0.5), (19.6, -0.4), (22.0, -1.6), (25.0, -2.8), (40.0, -6.0),
]
HOLSTEN_STREAM_FROM_X = 19.8  # above Nomonhan the Holsten is drawn as a stream

# -- the Soviet/Mongolian border claim ------------------------------------------------------------------
# From north to south, 15-20 km east of the Halha, through Nomonhan Burd Obo. Japan claimed the Halha.
CLAIM_LINE: list[Km] = [
    (5.0, 60.0), (6.0, 42.0), (9.0, 30.0), (12.5, 18.0), (13.3, 14.8), (16.0, 8.0), (19.0, 2.5),
    (19.8, 0.9), (20.1, -1.5), (20.3, -5.0), (20.8, -10.0), (22.3, -15.0), (23.3, -18.0), (24.0, -22.0),
    (25.0, -40.0),
]

# -- heights: areas whose edge is a slope ----------------------------------------------------------------
# (name, centre, semi-axis east-west, semi-axis north-south), all in km.
HEIGHTS: list[tuple[str, Km, float, float]] = [
    ("Bain Tsagan", (-2.6, 6.8), 1.6, 2.8),
    ("Khamar-Daba", (-3.2, -2.2), 1.2, 1.0),
    ("Fui Heights", (0.0, 20.5), 2.0, 1.6),
    ("Remizov Heights", (5.5, 5.0), 2.2, 1.5),
    ("Noro Heights", (4.5, -5.0), 1.8, 1.3),
    ("height south of the crossings", (2.2, -10.2), 1.2, 1.0),
    ("western dune ridge", (9.0, -17.0), 1.5, 1.2),
    ("eastern dune ridge", (15.0, -17.3), 1.5, 1.2),
]

# -- sand ---------------------------------------------------------------------------------------------------
DUNES: list[tuple[str, list[Km]]] = [
    ("Great Sand Dunes", [(6.5, -6.5), (12.0, -5.0), (17.5, -6.0), (19.0, -10.0), (18.0, -14.5),
                          (12.0, -15.5), (7.0, -14.0), (5.0, -10.0)]),
    ("sand hills north of Fui", [(-2.0, 23.0), (3.0, 24.5), (6.0, 23.0), (5.0, 21.0), (2.5, 22.0),
                                 (-1.0, 22.5)]),
]

# -- roads and tracks ---------------------------------------------------------------------------------------
# Waypoints are either a km point or the name of a landmark; "hex:AABB" forces a hex (bridge ends).
ROADS: list[tuple[str, list[str | Km]]] = [
    ("Tamsag-Bulak road", [(-16.0, -3.0), (-8.0, -2.6), "Khamar-Daba", "hex:2435", "hex:2535"]),
    ("Holsten road", ["hex:2535", (3.0, -0.5), (6.5, -0.9), "hex:3636", (15.0, 0.0), "Nomonhan Burd Obo",
                      (24.0, 0.5), (32.0, 0.0)]),
    ("Hailar road", [(17.5, 45.0), (16.0, 30.0), (15.0, 20.0), "Uzuru Pond", (12.0, 8.0), (10.0, 1.5),
                     "hex:3336", "hex:3337", (9.0, -5.0), (10.5, -12.0), (12.0, -16.0)]),
    ("Uzuru-Nomonhan track", ["Uzuru Pond", (17.5, 8.0), "Nomonhan Burd Obo"]),
    ("Fui track", ["Uzuru Pond", (8.0, 19.0), (3.0, 20.8), "Fui Heights", "hex:2019", "hex:1919"]),
    ("west bank track", ["hex:1919", (-7.0, 16.0), (-5.0, 11.0), (-3.2, 7.5), (-3.5, 2.0), "Khamar-Daba",
                         "hex:2438"]),
    ("south crossing road", ["hex:2438", "hex:2538", (3.5, -3.5), (8.5, -5.0)]),
    ("west bank south track", ["hex:2438", (-2.5, -8.0), (-1.5, -15.0), (-0.5, -30.0)]),
    ("north bank track", [(-16.0, 27.5), (-8.0, 26.0), (-3.5, 23.0), "Fui Heights"]),
    ("Bain Tsagan track", [(-16.0, 8.5), (-8.0, 8.0), (-3.2, 7.5)]),
]
