"""The geography file of the Red Sun/Red Star map of the Nomonhan / Khalkhin Gol battlefield: everything
the map library (tools/hexmap, a battlefield map) needs to draw scenarios/red-star/map.yaml.

1. The battlefield of 1939 as plain data, written from general knowledge. Coordinates are kilometres on
   a local plane: ``x`` east, ``y`` north, origin at the Soviet bridge just north of the mouth of the
   Holsten (the Japanese called it the Kawamata bridge), about 47.74 N 118.58 E. Nothing here is copied
   from the game's map (which the project does not have): it is the real ground at a scale of about a
   kilometre, good enough to lay out a provisional map. This part knows nothing of hex numbers.
2. The grid. Lines run north-south and are numbered eastward (the west edge is the Soviet side, rulebook
   10.1 and its example); positions are numbered southward (assumed: the low positions 08-14 of the
   Soviet entry hexes lie north of the Halha, and the example of 10.1 ties low positions to the northern
   edge). Alternate lines sit half a hex further south: ``shifted_lines: odd`` (part 4 says why).
3. What the rulebook says about particular hexes, and the local nudges that make the drawing agree.
4. The fit: the projection onto the grid (scale, rotation, origin) is a similarity fitted to the hexes
   the rulebook names (tools/hexmap/fit.py), and the set-up areas that chose ``shifted_lines``
   (``python -m tools.rs_map --fit``).
5. The map file: its id, header and provenance strings, and where it and its preview are written.
"""

from __future__ import annotations

from rsr.rulesets.red_star.data import Bridge
from tools.hexmap.grid import PlaneGrid, span
from tools.hexmap.named import Nudge, Place, Setup

Km = tuple[float, float]

# -- landmarks -------------------------------------------------------------------------------------------
# (name, position). The first five are fitted to rulebook hexes (ANCHORS); the rest only placed.
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

# =======================================================================================================
# 2. The grid
# =======================================================================================================

GRID = PlaneGrid(shifted_lines="odd", lines=(13, 50), positions=(1, 52))
GRID_PROVENANCE = ("derived: lines grow eastward (10.1 example); the west edge is line 13 (errata entry hexes "
                   "1308-1314 lie on it); positions grow southward (assumed); odd lines shifted (set-up areas "
                   "of 13.1 and 13.2 are compact only so, tools/hexmap/fit.py); the east, north and south "
                   "edges are our choice")


# =======================================================================================================
# 3. What the rulebook says about particular hexes
# =======================================================================================================

# Everything here cites the rulebook (``rulebook: <case>``), the errata (``errata: S&T 158``), or says how
# it was derived. Set-up hexes come with the bank of the Halha they must be on: the *right* bank is the
# east bank (and, north of the river's westward bend, the north bank), Manchukuo's side of Japan's claimed
# border; the *left* bank is the Mongolian side.

JULY, AUGUST, DREAM, CAMPAIGN = "13.1", "13.2", "13.3", "13.4"
ALL_SCENARIOS = [JULY, AUGUST, DREAM, CAMPAIGN]
SCENARIO_TITLES = {
    JULY: "Japanese July Attack (2-12 July 1939)",
    AUGUST: "Zhukov's Masterpiece (20-31 August 1939)",
    DREAM: "The Japanese Dream Scenario (August)",
    CAMPAIGN: "Campaign Game (2 July - 31 August 1939)",
}


def _s(scenario: str, side: str, label: str, hexes: list[str], bank: str, case: str, scattered: bool = False,
       note: str = "") -> Setup:
    return Setup(scenario, side, label, tuple(hexes), bank, f"rulebook: {case}", scattered, note)


SETUPS: list[Setup] = [
    # 13.1: Japan sets up east of the Halha (the scenario is their attempt to reach it)
    _s(JULY, "japan", "Yasuoka Task Force", ["2614", "2713", "2714", "2814", "2815", "2914"], "right", "13.1"),
    _s(JULY, "japan", "Kobayashi Task Force", span("2014", "2015") + span("2113", "2115") + span("2213", "2215"),
       "right", "13.1"),
    _s(JULY, "japan", "Hsingan Division cavalry", ["4643", "4540", "4538"], "right", "13.1", scattered=True),
    # 13.1 Soviet units west of the Halha (special rule 1 pins them on 2 July)
    _s(JULY, "soviet", "west bank units", ["1835", "1932", "1330", "1431", "2037", "2234", "2337", "2237"],
       "left", "13.1", scattered=True,
       note="8th Mongolian cavalry 22/8, 2/11 tanks, 7th Armored Brigade, 185th artillery, 1AG HQ"),
    _s(JULY, "soviet", "bridgehead units", ["2948", "2747", "3639", "3733", "3928", "3628", "3432", "3033",
                                             "3235", "2734", "2535", "3124", "2824", "2523"], "right", "13.1",
       scattered=True, note="the Soviet bridgehead east of the Halha"),
    # 13.2
    _s(AUGUST, "japan", "24 Engineers", ["3337"], "right", "13.2"),
    _s(AUGUST, "soviet", "Northern Group: 6th Mongolian Cavalry", ["1809", "1810", "1908", "1909"], "right",
       "13.2"),
    _s(AUGUST, "soviet", "Northern Group: 7th Armored Brigade", ["1711", "1811", "1812"], "right", "13.2"),
    _s(AUGUST, "soviet", "Northern Group: 2/11 and 3/11 tanks", ["1816", "1817", "1916"], "right", "13.2"),
    _s(AUGUST, "soviet", "Northern Group: 601/82 and 82 artillery",
       span("1613", "1614") + span("1712", "1714") + span("1813", "1814") + span("1913", "1914"), "right",
       "13.2"),
    _s(AUGUST, "soviet", "Central Group: 82nd Division",
       ["3039", "3139", "3141"] + span("3240", "3242") + span("3340", "3341") + span("3442", "3443"), "right",
       "13.2"),
    _s(AUGUST, "soviet", "Central Group: 5th Machinegun Brigade",
       span("2636", "2637") + span("2736", "2737") + span("2836", "2837") + span("2935", "2937") + ["3037"],
       "right", "13.2", note="printed 2736-2727, read as 2736-2737"),
    _s(AUGUST, "soviet", "Central Group: 149th Motorized Rifles", ["2635", "2734", "2735", "2835"], "right",
       "13.2"),
    _s(AUGUST, "soviet", "Central Group: 24th Motorized Rifles", ["2433", "2434", "2532", "2533", "2634"],
       "right", "13.2"),
    _s(AUGUST, "soviet", "Central Group: 36th Motorized Division", ["2535"], "right", "13.2"),
    _s(AUGUST, "soviet", "Central Group: 175th Artillery", span("2233", "2235") + ["2335"], "left", "13.2"),
    _s(AUGUST, "soviet", "Central Force Artillery Group", span("2339", "2341") + span("2440", "2442"), "left",
       "13.2"),
    _s(AUGUST, "soviet", "Southern Group: 57th Division",
       ["3445"] + span("3544", "3545") + span("3644", "3646") + span("3743", "3746") + span("3844", "3847")
       + span("3944", "3947") + span("4045", "4047") + span("4144", "4146") + span("4244", "4246"), "right",
       "13.2"),
    _s(AUGUST, "soviet", "Southern Group: 8th Armored Brigade", ["4347", "4447", "4448", "4547"], "right", "13.2"),
    _s(AUGUST, "soviet", "Southern Group: 6th Tank Brigade", span("3850", "3851") + span("3949", "3951"), "right",
       "13.2"),
    _s(AUGUST, "soviet", "Southern Group: 1/11 tanks and 11 artillery", ["3647", "3747", "3848"], "right", "13.2"),
    _s(AUGUST, "soviet", "Southern Group: 2/185 artillery", ["2847"], "right", "13.2"),
    _s(AUGUST, "soviet", "Southern Group: 8th Mongolian Cavalry", ["4648", "4747", "4748", "4848", "4849"],
       "right", "13.2"),
    _s(AUGUST, "soviet", "Southern Group reserves", span("2044", "2045") + span("2144", "2145")
       + span("2245", "2246"), "left", "13.2"),
    _s(AUGUST, "soviet", "1st Army Group HQ", ["2237"], "left", "13.2"),
]


# The bridges, as the game reads them (rsr/rulesets/red_star/data.py).
BRIDGES: list[Bridge] = [
    # 13.4 keeps every July special rule, so this bridge may be absent all campaign (an ambiguity)
    Bridge("1919-2019", "unnamed bridge", "halha", (AUGUST, DREAM), {}, True,
           "rulebook: 13.1 special rule 2 (absent in the July scenario)"),
    Bridge("2435-2535", "Kawamata bridge", "halha", tuple(ALL_SCENARIOS), {}, True,
           "provisional: the main Soviet bridge at the Holsten mouth, placed at victory hex 2535 (13.1)"),
    Bridge("2438-2538", "southern pontoon bridge", "halha", tuple(ALL_SCENARIOS), {}, True,
           "provisional: a second Soviet bridge, placed at victory hex 2538 (13.1); 11.0 says most Halha "
           "bridges were Soviet-built"),
    # 13.4 keeps every July special rule, so this bridge may be absent all campaign (an ambiguity)
    Bridge("3336-3337", "New Engineer Bridge", "minor-river", (AUGUST, DREAM), {}, True,
           "rulebook: 13.1 special rule 2 (absent in the July scenario); 13.2 sets up the 24th Engineers at 3337"),
    # 11.3: armor pays the minor river cost here
    Bridge("3636-3637", "Old Engineer Bridge", "minor-river", tuple(ALL_SCENARIOS),
           {JULY: "9 July", CAMPAIGN: "9 July"}, False, "rulebook: 11.3 and 13.1 special rule 2"),
]


OUR_NAME = "provisional: our name for the hex"
VICTORY_CASE = "rulebook: 13.1 (victory points for the last side to occupy or pass through)"
RULE_PLACES: list[Place] = [
    Place("2535", "Kawamata crossing", VICTORY_CASE, "right", 5,
          name_provenance="derived: the 36th Division engineers hold it in 13.1 and 13.2; the Holsten mouth"),
    Place("2330", "Bain Tsagan", VICTORY_CASE, "left", 3,
          name_provenance="derived: the height the Japanese crossed to in July (14.0 design notes)"),
    Place("2538", "southern crossing", VICTORY_CASE, "right", 1, name_provenance=OUR_NAME),
    Place("2643", "height south of the crossings", VICTORY_CASE, "right", 1, name_provenance=OUR_NAME),
    Place("3349", "western dune ridge", VICTORY_CASE, "right", 1, name_provenance=OUR_NAME),
    Place("3949", "eastern dune ridge", VICTORY_CASE, "right", 1, name_provenance=OUR_NAME),
    Place("3823", "Uzuru Pond depots", "rulebook: 13.2 special rule 6", "right", depot=True),
    Place("2237", "Khamar-Daba", "derived: the 1st Army Group HQ sets up here in 13.1 and 13.2", "left",
          name_provenance="provisional: Zhukov's command post hill"),
]

SOVIET_ENTRY = span("1308", "1314")
ENTRY_PROVENANCE = ("errata: S&T 158 (Soviet reinforcements enter north of the Halha in 1308-1314; "
                    "rulebook 4.1 requires a friendly supply-source edge hex)")

# Local nudges: (kind, hex, value, reason); the kinds are listed in tools/hexmap/named.py. Filled in after
# comparing the drawing with the rules.
NUDGES: list[Nudge] = []

# Checked after drawing (a failure stops the generator): hexes that must lie outside the Disputed Area,
# Halha hexsides the rules imply, and the landmarks that are crossings (not listed as places).
OUTSIDE_CLAIM: list[tuple[str, str]] = [("3823", "the Uzuru depots")]  # rulebook 13.2 special rule 6
HALHA_SIDES: list[tuple[str, str]] = [("2435-2535", "2535 should be at the east end of a Halha bridge")]
CROSSINGS = ("Kawamata bridge", "north crossing", "Old Engineer Bridge", "New Engineer Bridge")


# =======================================================================================================
# 4. The fit
# =======================================================================================================

# The projection is a similarity (uniform scale, rotation, translation) from the kilometre plane of
# geography.py to grid units, fitted by least squares to the landmarks whose hexes the rulebook fixes
# (``ANCHORS``). The fitted scale is checked against the rulebook's 3/4 mile per hex (2.9).
#
# ``shifted_lines``: the three bridge pairs the rulebook names (3636/3637, 3336/3337, 2019/1919) are
# neighbours under either choice, because ``AABB`` always touches ``AA(BB+-1)`` on its own line and
# ``BB`` on the next line; they cannot decide it. The scenario set-up areas do: 13.1 and 13.2 give the
# set-up of each group as a short list of hexes, and printed set-up areas are compact blobs. With ``odd``
# every multi-hex area is one connected blob (1711/1811-1812, 1816-1817/1916 and 3647/3747/3848 are tight
# triangles); with ``even`` four areas fall apart (``python -m tools.rs_map --fit``).

KM_PER_HEX = 0.75 * 1.609344  # rulebook 2.9: a hex is about 3/4 mile across

# (landmark, hex or hexside it must fall on, why)
ANCHORS: list[tuple[str, str, str]] = [
    ("Kawamata bridge", "2435-2535",
     "derived: 2535 is the 5-point hex of 13.1 and holds the 36th Division engineers in 13.1 and 13.2"),
    ("north crossing", "1919-2019", "rulebook: 13.1 special rule 2 (the unnamed bridge)"),
    ("Old Engineer Bridge", "3636-3637", "rulebook: 11.3 and 13.1 special rule 2"),
    ("New Engineer Bridge", "3336-3337", "rulebook: 13.1 special rule 2"),
    ("Uzuru Pond", "3823", "rulebook: 13.2 special rule 6 (the depots)"),
]
# landmarks compared with a hex but not fitted to it
CHECKS: list[tuple[str, str, str]] = [
    ("Khamar-Daba", "2237", "the 1st Army Group HQ sets up there in 13.1 and 13.2"),
    ("Bain Tsagan", "2330", "the 3-point hex of 13.1, read as the height the Japanese crossed to"),
]
# the bridge pairs the rulebook names, compared under both shifted_lines choices
FIT_BRIDGE_PAIRS = ("3636/3637", "3336/3337", "2019/1919")


# =======================================================================================================
# 5. The map file
# =======================================================================================================

MAP_YAML = "scenarios/red-star/map.yaml"
MAP_SVG = "docs/red-star/map-provisional.svg"
PREVIEW_TITLE = ("Red Sun/Red Star: PROVISIONAL map of the Nomonhan battlefield, drawn by tools/rs_map",
                 "not the published map (docs/red-star/map.md)")
PREVIEW_LEGEND = [
    "terrain: clear, desert, dunes (waves), marsh (tufts)",
    "Halha (thick blue), Holsten (blue), streams; border claim (red dashes)",
    "slopes: ticks toward the lower hex; bridges: black, purple when not in every scenario",
    "roads (brown), tracks (dashed); Disputed Area tinted pink; victory hexes of 13.1 ringed",
    "thin lines: the real rivers, claim, bluff and areas, projected",
]
HEADER = [
    "# Red Sun/Red Star (S&T 158) map of the Nomonhan / Khalkhin Gol battlefield: PROVISIONAL. The printed",
    "# map is not available to the project; this one is drawn from real geography and fitted to every hex",
    "# the rulebook names. Generated by `python -m tools.rs_map`; do not edit by hand (edit tools/rs_map and",
    "# regenerate). How it was drawn, and how to replace it with a transcription of the real map:",
    "# docs/red-star/map.md.",
]
MAP_ID = "rs-nomonhan-provisional-1"
RULESET = "red-star"
DEFAULT_PROVENANCE = "provisional: drawn from real geography by tools/rs_map"
TERRAIN_TYPES: dict[str, str] = {
    "clear": "provisional: grass steppe of the Mongolian plateau west of the Halha and the Holsten meadows",
    "desert": "rulebook: 2.7 (the ground both sides of the rivers is largely desert): sandy, hummocky steppe",
    "dunes": "provisional: the big sand-dune fields (the text's desert at its worst), e.g. the Great Sand Dunes",
    "marsh": "rulebook: 2.7 (swamp reaching about a mile from each bank of the Halha)",
}
FEATURES: dict[str, str] = {
    "halha": "rulebook: 2.7, 6.72, 6.84, 8.1, 10.2 (the major river); its course is provisional",
    "minor-river": "rulebook: 2.7, 6.72, 6.84, 11.3 (the Holsten); its course is provisional",
    "stream": "provisional: the Holsten above Nomonhan, drawn as a stream (a stream costs one column shift)",
    "slope": "provisional: steep west-bank bluffs (rulebook 2.7) and the edges of heights; `up` names the "
             "higher hex",
    "bridge": "rulebook: 11.0-11.3 (bridges over the Halha and the Holsten); each bridge item names its own source",
    "border-claim": "provisional: the Soviet/Mongolian claim line, 15-20 km east of the Halha through Nomonhan "
                    "Burd Obo; 13.2 bounds the Disputed Area by it",
}
# (side, edge, condition or "", provenance): the supply-source edges of rulebook 10.1
SUPPLY_EDGES: list[tuple[str, str, str, str]] = [
    ("soviet", "west", "", "errata: S&T 158 (the whole western edge); rulebook: 10.1"),
    ("japan", "east", "", "rulebook: 10.1"),
    ("japan", "north", "east-of-westernmost-friendly-line   # only lines greater than the line of the "
     "westernmost Japanese or Manchukuo unit", "rulebook: 10.1 (and its example)"),
]
DISPUTED_PROVENANCE = ("rulebook: 13.2 (east of the Halha, west of the Soviet Border Claim line, to the map edges); "
                       "the hexes follow the provisional lines")
WEST_OF_HALHA_PROVENANCE = ("rulebook: 13.1 victory points, 13.4 (the Mongolian side of the Halha); the hexes "
                            "follow the provisional river")
