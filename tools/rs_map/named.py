"""What the rulebook says about particular hexes, and the local nudges that make the drawing agree.

Everything here cites the rulebook (``rulebook: <case>``), the errata (``errata: S&T 158``), or says how
it was derived. Set-up hexes come with the bank of the Halha they must be on: the *right* bank is the
east bank (and, north of the river's westward bend, the north bank), Manchukuo's side of Japan's claimed
border; the *left* bank is the Mongolian side.
"""

from __future__ import annotations

from dataclasses import dataclass, field

JULY, AUGUST, DREAM, CAMPAIGN = "13.1", "13.2", "13.3", "13.4"
ALL_SCENARIOS = [JULY, AUGUST, DREAM, CAMPAIGN]
SCENARIO_TITLES = {
    JULY: "Japanese July Attack (2-12 July 1939)",
    AUGUST: "Zhukov's Masterpiece (20-31 August 1939)",
    DREAM: "The Japanese Dream Scenario (August)",
    CAMPAIGN: "Campaign Game (2 July - 31 August 1939)",
}


def span(first: str, last: str) -> list[str]:
    """``span("3743", "3746")`` -> 3743 3744 3745 3746 (one line) or the same position on several lines."""
    a1, b1, a2, b2 = int(first[:2]), int(first[2:]), int(last[:2]), int(last[2:])
    if a1 == a2:
        return [f"{a1:02d}{b:02d}" for b in range(b1, b2 + 1)]
    assert b1 == b2, (first, last)
    return [f"{a:02d}{b1:02d}" for a in range(a1, a2 + 1)]


@dataclass(frozen=True)
class Setup:
    scenario: str
    side: str
    label: str
    hexes: tuple[str, ...]
    bank: str  # left | right
    provenance: str
    scattered: bool = False  # single hexes of separate units, not one area
    note: str = ""


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


@dataclass(frozen=True)
class Bridge:
    side: str
    river: str  # halha | minor-river
    name: str
    scenarios: tuple[str, ...]
    provenance: str
    from_turn: dict[str, str] = field(default_factory=dict)
    armor_may_use: bool = True
    note: str = ""


BRIDGES: list[Bridge] = [
    Bridge("1919-2019", "halha", "unnamed bridge", (AUGUST, DREAM),
           "rulebook: 13.1 special rule 2 (absent in the July scenario)",
           note="13.4 keeps every July special rule, so it may be absent all campaign (an ambiguity)"),
    Bridge("2435-2535", "halha", "Kawamata bridge", tuple(ALL_SCENARIOS),
           "provisional: the main Soviet bridge at the Holsten mouth, placed at victory hex 2535 (13.1)"),
    Bridge("2438-2538", "halha", "southern pontoon bridge", tuple(ALL_SCENARIOS),
           "provisional: a second Soviet bridge, placed at victory hex 2538 (13.1); 11.0 says most Halha "
           "bridges were Soviet-built"),
    Bridge("3336-3337", "minor-river", "New Engineer Bridge", (AUGUST, DREAM),
           "rulebook: 13.1 special rule 2 (absent in the July scenario); 13.2 sets up the 24th Engineers at 3337",
           note="13.4 keeps every July special rule, so it may be absent all campaign (an ambiguity)"),
    Bridge("3636-3637", "minor-river", "Old Engineer Bridge", tuple(ALL_SCENARIOS),
           "rulebook: 11.3 and 13.1 special rule 2", from_turn={JULY: "9 July", CAMPAIGN: "9 July"},
           armor_may_use=False, note="11.3: armor pays the minor river cost here"),
]


@dataclass(frozen=True)
class Place:
    hex: str
    name: str
    provenance: str
    bank: str
    victory_points: int = 0
    depot: bool = False
    name_provenance: str = ""


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

# Local nudges: (kind, hex, value, reason). Kinds: bank (left|right), holsten (north|south),
# claim (inside|outside the disputed area), terrain. Filled in after comparing the drawing with the rules.
NUDGES: list[tuple[str, str, str, str]] = []
