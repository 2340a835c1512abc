"""What the Red Sun Rising rulebook says about particular land-map hexes, and the nudges that make the
real geography agree with it.

The rulebook text is never copied here: entries cite case numbers (and "Player's Notes" for the designer
notes printed after the rules). Where the plain projection of real geography (grid.py) puts a feature a
hex or so away from the hex the rules name, the rules win: a smooth local displacement ("warp") moves
the geography near that feature, so the coast, rivers and towns around it move together.
"""

from __future__ import annotations

from dataclasses import dataclass, field

LatLon = tuple[float, float]


@dataclass(frozen=True)
class Pinned:
    """A place the rules put in a given hex."""

    hex: str
    name: str
    provenance: str
    city: bool = False
    port: bool = False
    fortress: bool = False
    railhead: str | None = None


# Places whose hex the rules (or the grid fit that the rules' hexes imply) fix.
PINNED: dict[str, Pinned] = {
    "Port Arthur": Pinned("0801", "Port Arthur", "rulebook: 7.5, 10.12, 13.2, 19.2", True, True, True),
    "Dalny": Pinned("0803", "Dalny", "rulebook: 7.5, 18.42 (port; city status provisional)", True, True),
    "Vladivostok": Pinned("2937", "Vladivostok", "rulebook: 10.12, 13.2, 19.2", True, True, True),
    "Kuanchengtzu": Pinned(
        "3316", "Kuanchengtzu", "rulebook: 10.11, 17.1, 18.41, 19.2 (the town's name is provisional)",
        city=True, railhead="russia",
    ),
    "Nikolsk railhead": Pinned(
        "3337", "Ussuri railhead", "rulebook: 10.11, 17.1, 18.41",
        railhead="russia",
    ),
    "Novokievsk": Pinned("2734", "Novokievsk", "rulebook: 19.2 (set-up hex; the name is provisional)"),
    "Liaoyang": Pinned(
        "2008", "Liaoyang",
        "derived: the Player's Notes defence lines 2007/1908-1910 and 1907/1807-1811 ring hex 2008 at one "
        "and two hexes; its capture counts in rulebook 18.3",
        city=True,
    ),
}

# Extra hexes the waypoints of named.RAILWAYS may use ("@junction").
ALIASES: dict[str, str] = {
    # the junction (Nanguanling, near Kinchou) of the Dalny branch: adjacent to 0803 and on the way to 1004
    "junction": "0903",
}


@dataclass(frozen=True)
class HexFact:
    """A fact the rules state about a hex, checked after the map is drawn."""

    hex: str
    land: bool = True
    coastal: bool = False
    rail: bool = False
    cite: str = ""


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


@dataclass(frozen=True)
class Control:
    """Move real point `real` to `target` (a hex number, meaning its centre, or a point), fading with
    distance (Gaussian, `sigma` degrees of latitude)."""

    name: str
    real: LatLon
    target: str | LatLon
    sigma: float
    why: str = field(default="")


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
