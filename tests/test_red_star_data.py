"""Red Sun/Red Star scenario data (scenarios/red-star/): the provisional map, the charts and the counters of
the July scenario load, validate against their schemas, and agree with what the rulebook and its errata say.

Expected values below are written from the rulebook (the rulebook text) and
the notes on the rulebook's missing components, independently of the generator in tools/rs_map. Set RS_MAP_YAML,
RS_TABLES_YAML or RS_COUNTERS_YAML to check a player's transcription of the same shape instead
(docs/red-star/data.md).
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rsr.hexgrid import Grid, path_is_contiguous
from rsr.schemas import validate
from rsr.yamlio import load_yaml_file

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "scenarios" / "red-star"
MAP = Path(os.environ.get("RS_MAP_YAML", DATA / "map.yaml"))
TABLES = Path(os.environ.get("RS_TABLES_YAML", DATA / "tables.yaml"))
COUNTERS = Path(os.environ.get("RS_COUNTERS_YAML", DATA / "counters.yaml"))
SOURCES = {"rulebook", "errata", "derived", "provisional", "overlay"}
HEXSIDE_FEATURES = {"halha", "minor-river", "stream", "slope", "bridge", "border-claim"}


@pytest.fixture(scope="module")
def mapdata() -> dict[str, Any]:
    data = load_yaml_file(MAP)
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def tables() -> dict[str, Any]:
    data = load_yaml_file(TABLES)
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def counters() -> dict[str, Any]:
    data = load_yaml_file(COUNTERS)
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def grid(mapdata: dict[str, Any]) -> Grid:
    g = mapdata["grid"]
    return Grid(g["shifted_lines"], tuple(g["lines"]), tuple(g["positions"]))


def rectangle(grid: Grid) -> list[str]:
    return [f"{a:02d}{b:02d}" for a in range(grid.lines[0], grid.lines[1] + 1)
            for b in range(grid.positions[0], grid.positions[1] + 1)]


def sides_with(mapdata: dict[str, Any], feature: str) -> set[str]:
    return {s["side"] for s in mapdata.get("hexsides", []) if s["feature"] == feature}


def side(a: str, b: str) -> str:
    low, high = sorted((a, b))
    return f"{low}-{high}"


def flood(grid: Grid, start: str, blocked: set[str]) -> set[str]:
    """Hexes reachable from ``start`` without crossing a hexside in ``blocked``."""
    seen = {start}
    todo = deque([start])
    while todo:
        h = todo.popleft()
        for n in grid.neighbours(h):
            if n not in seen and side(h, n) not in blocked:
                seen.add(n)
                todo.append(n)
    return seen


@pytest.fixture(scope="module")
def left_bank(mapdata: dict[str, Any], grid: Grid) -> set[str]:
    """The Mongolian (west and south) side of the Halha: everything reachable from the south-west corner."""
    corner = f"{grid.lines[0]:02d}{grid.positions[1]:02d}"
    return flood(grid, corner, sides_with(mapdata, "halha"))


def place(mapdata: dict[str, Any], hex_id: str, **want: Any) -> dict[str, Any]:
    found = [p for p in mapdata["places"] if p["hex"] == hex_id and all(p.get(k) == v for k, v in want.items())]
    assert len(found) == 1, f"expected one place at {hex_id} with {want}, found {found}"
    return found[0]


def provenances(value: Any) -> Iterator[str]:
    """Every provenance string in a loaded file (keys named provenance or ending in _provenance)."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "provenance" or k.endswith("_provenance"):
                if isinstance(v, str):
                    yield v
                elif isinstance(v, list):
                    yield from (x for x in v if isinstance(x, str))
                elif isinstance(v, dict):
                    yield from (x for x in v.values() if isinstance(x, str))
            else:
                yield from provenances(v)
    elif isinstance(value, list):
        for v in value:
            yield from provenances(v)


# -- every file ----------------------------------------------------------------------------------------------


def test_files_validate_against_their_schemas(mapdata: dict[str, Any], tables: dict[str, Any],
                                              counters: dict[str, Any]) -> None:
    validate("map", mapdata, str(MAP))
    validate("red-star.tables", tables, str(TABLES))
    validate("red-star.counters", counters, str(COUNTERS))


@pytest.mark.parametrize("which", ["map", "tables", "counters"])
def test_every_provenance_names_a_known_source(which: str, mapdata: dict[str, Any], tables: dict[str, Any],
                                               counters: dict[str, Any]) -> None:
    data = {"map": mapdata, "tables": tables, "counters": counters}[which]
    found = list(provenances(data))
    assert found
    for text in found:
        source, sep, rest = text.partition(": ")
        assert sep and rest.strip() and source in SOURCES, f"{which}: bad provenance {text!r}"


# -- the map -------------------------------------------------------------------------------------------------


def test_map_grid_is_the_rulebook_numbering(mapdata: dict[str, Any], grid: Grid) -> None:
    """RS/RS 10.1: hex numbers grow eastward from the Soviet west edge; the errata's entry hexes 1308-1314
    lie on the west edge (RS/RS 4.1), so the first line is 13."""
    assert mapdata["grid"]["line_axis"] == "east"
    assert grid.lines[0] == 13
    assert grid.shifted_lines in ("even", "odd")


def test_every_hex_of_the_rectangle_has_terrain(mapdata: dict[str, Any], grid: Grid) -> None:
    terrain = mapdata["terrain"]
    assert set(terrain) == set(rectangle(grid))
    assert set(terrain.values()) <= set(mapdata["terrain_types"])
    assert {"desert", "marsh"} <= set(terrain.values())  # RS/RS 2.7 names both


def test_hexsides_join_adjacent_hexes(mapdata: dict[str, Any], grid: Grid) -> None:
    seen: set[tuple[str, str]] = set()
    for s in mapdata["hexsides"]:
        a, b = s["side"].split("-")
        assert a < b, s
        assert grid.on_map(a) and grid.on_map(b), s
        assert grid.adjacent(a, b), s
        assert s["feature"] in HEXSIDE_FEATURES, s
        assert (s["side"], s["feature"]) not in seen, f"duplicate {s}"
        seen.add((s["side"], s["feature"]))
        if s["feature"] == "slope":
            assert s["up"] in (a, b), s


def test_rivers_and_the_claim_line_are_unbroken(mapdata: dict[str, Any], grid: Grid, left_bank: set[str]) -> None:
    """RS/RS 2.7: the Halha divides the map in two; every Halha hexside lies between the two banks."""
    halha = sides_with(mapdata, "halha")
    assert halha
    for s in halha:
        a, b = s.split("-")
        assert (a in left_bank) != (b in left_bank), s
    assert 0 < len(left_bank) < len(rectangle(grid))
    for feature in ("minor-river", "border-claim"):
        assert sides_with(mapdata, feature), feature


def test_bridges_span_the_hexsides_the_rules_name(mapdata: dict[str, Any], grid: Grid) -> None:
    """RS/RS 11.3 and RS/RS 13.1 special rule 2: the Old Engineer Bridge 3636/3637 and the New Engineer
    Bridge 3336/3337 cross the Holsten, the unnamed bridge 2019/1919 the Halha; only the Old Engineer
    Bridge exists in the July scenario, from the 9 July turn; armor pays the river cost on it."""
    bridges = {s["side"]: s for s in mapdata["hexsides"] if s["feature"] == "bridge"}
    for pair, river in (("3636-3637", "minor-river"), ("3336-3337", "minor-river"), ("1919-2019", "halha")):
        assert pair in bridges, pair
        assert grid.adjacent(*pair.split("-"))
        assert pair in sides_with(mapdata, river), f"{pair} is not a {river} hexside"
        assert bridges[pair]["river"] == river
    assert "13.1" in bridges["3636-3637"]["scenarios"]
    assert bridges["3636-3637"]["from_turn"]["13.1"] == "9 July"
    assert bridges["3636-3637"]["armor_may_use"] is False
    for pair in ("3336-3337", "1919-2019"):
        assert "13.1" not in bridges[pair]["scenarios"]
        assert {"13.2", "13.3"} <= set(bridges[pair]["scenarios"])
    for s, b in bridges.items():
        assert s in sides_with(mapdata, b["river"]), s


def test_victory_hexes_of_the_july_scenario(mapdata: dict[str, Any], left_bank: set[str]) -> None:
    """RS/RS 13.1: 5 points for 2535, 3 for 2330, 1 each for 2538, 2643, 3349 and 3949. Our reading: 2535
    is the east end of the main bridge at the Holsten mouth, 2330 is Bain Tsagan west of the Halha."""
    points = {"2535": 5, "2330": 3, "2538": 1, "2643": 1, "3349": 1, "3949": 1}
    victory = {p["hex"]: p for p in mapdata["places"] if p.get("victory")}
    assert set(victory) == set(points)
    for h, vp in points.items():
        assert victory[h]["victory_points"] == vp
        assert victory[h]["victory"] == ["13.1"]
        assert victory[h]["provenance"].startswith("rulebook: 13.1")
    assert "2330" in left_bank
    assert not {"2535", "2538", "2643", "3349", "3949"} & left_bank
    assert "2435-2535" in sides_with(mapdata, "halha") & sides_with(mapdata, "bridge")


def test_uzuru_pond_depots(mapdata: dict[str, Any], left_bank: set[str]) -> None:
    """RS/RS 13.2 special rule 6: the Japanese depots in the Uzuru Pond area are in hex 3823."""
    depot = place(mapdata, "3823", depot=True)
    assert depot["provenance"].startswith("rulebook: 13.2")
    assert "3823" not in left_bank
    assert "3823" not in mapdata["areas"]["disputed_area"]["hexes"]


def test_soviet_entry_hexes(mapdata: dict[str, Any], left_bank: set[str], grid: Grid) -> None:
    """RS/RS 4.1 and RS/RS 10.1 with the S&T 158 errata: Soviet reinforcements enter at 1308-1314, on the
    western map edge, north of the Halha."""
    for pos in range(8, 15):
        h = f"13{pos:02d}"
        p = place(mapdata, h, name="Soviet entry hex")
        assert p["entry"]["side"] == "soviet"
        assert p["provenance"].startswith("errata: S&T 158")
        assert int(h[:2]) == grid.lines[0]
        assert h not in left_bank


def test_supply_edges(mapdata: dict[str, Any], grid: Grid) -> None:
    """RS/RS 10.1: the whole western edge supplies the Soviets (errata: S&T 158); the eastern edge, and
    the northern edge east of the westernmost Japanese unit's line, supply the Japanese."""
    edges = {(e["side"], e["edge"]): e for e in mapdata["supply_edges"]}
    west = {h for h in rectangle(grid) if int(h[:2]) == grid.lines[0]}
    east = {h for h in rectangle(grid) if int(h[:2]) == grid.lines[1]}
    north = {h for h in rectangle(grid) if int(h[2:]) == grid.positions[0]}
    assert set(edges[("soviet", "west")]["hexes"]) == west
    assert edges[("soviet", "west")]["provenance"].startswith("errata: S&T 158")
    assert set(edges[("japan", "east")]["hexes"]) == east
    assert set(edges[("japan", "north")]["hexes"]) == north
    assert edges[("japan", "north")]["condition"] == "east-of-westernmost-friendly-line"
    assert set(edges) == {("soviet", "west"), ("japan", "east"), ("japan", "north")}


def test_disputed_area_and_west_of_the_halha(mapdata: dict[str, Any], grid: Grid, left_bank: set[str]) -> None:
    """RS/RS 13.2: the Disputed Area runs from the Halha to the Soviet Border Claim line and the map
    edges; RS/RS 13.1 counts units west of the Halha."""
    blocked = sides_with(mapdata, "halha") | sides_with(mapdata, "border-claim")
    disputed = flood(grid, "2535", blocked)
    assert set(mapdata["areas"]["disputed_area"]["hexes"]) == disputed
    assert set(mapdata["areas"]["west_of_halha"]["hexes"]) == left_bank
    assert not disputed & left_bank
    assert "2535" in disputed


SETUP_BANKS: list[tuple[str, str, list[str]]] = [
    # (case, bank, hexes). Japanese set-ups of 13.1 are east of the Halha.
    ("13.1", "right", ["2614", "2713", "2714", "2814", "2815", "2914", "2014", "2015", "2113", "2114", "2115",
                       "2213", "2214", "2215", "4643", "4540", "4538"]),
    # 13.1 special rule 1 speaks of Soviet units west of the Halha: the 7th Armored Brigade, the 185th
    # artillery, 22/8 cavalry, 2/11 tanks and the 1AG HQ.
    ("13.1", "left", ["1835", "1932", "1330", "1431", "2037", "2234", "2337", "2237"]),
    ("13.1", "right", ["2948", "2747", "3639", "3733", "3928", "3628", "3432", "3033", "3235", "2734", "2535",
                       "3124", "2824", "2523"]),
    ("13.2", "right", ["3337", "1809", "1810", "1908", "1909", "1711", "1811", "1812", "1816", "1817", "1916",
                       "1613", "1614", "1712", "1713", "1714", "1813", "1814", "1913", "1914", "2433", "2434",
                       "2532", "2533", "2634", "2635", "2734", "2735", "2835", "3039", "3949", "4848", "2847"]),
    ("13.2", "left", ["2233", "2234", "2235", "2335", "2339", "2340", "2341", "2440", "2441", "2442", "2044",
                      "2045", "2144", "2145", "2245", "2246", "2237"]),
]


@pytest.mark.parametrize(("case", "bank", "hexes"), SETUP_BANKS)
def test_setup_hexes_are_on_the_map_and_bank(case: str, bank: str, hexes: list[str], grid: Grid,
                                             left_bank: set[str]) -> None:
    """RS/RS 13.1 and RS/RS 13.2 set-up hexes, each on the side of the Halha its scenario implies."""
    for h in hexes:
        assert grid.on_map(h), h
        assert (h in left_bank) == (bank == "left"), f"{case} {h} should be on the {bank} bank"


def test_roads_are_contiguous(mapdata: dict[str, Any], grid: Grid) -> None:
    """RS/RS 5.22: roads are interdiction targets; a road only crosses the Halha on a bridge."""
    bridges = sides_with(mapdata, "bridge")
    halha = sides_with(mapdata, "halha")
    assert mapdata["roads"]
    for road in mapdata["roads"]:
        hexes = road["hexes"]
        assert len(hexes) >= 2 and all(grid.on_map(h) for h in hexes), road["name"]
        assert path_is_contiguous(grid, hexes), road["name"]
        for a, b in zip(hexes, hexes[1:], strict=False):
            assert side(a, b) not in halha or side(a, b) in bridges, (road["name"], a, b)


def test_the_generator_reproduces_the_map(mapdata: dict[str, Any]) -> None:
    """`python -m tools.rs_map` writes exactly scenarios/red-star/map.yaml and the SVG preview (unless the
    map is a player's transcription: another file, or one whose default provenance is an overlay)."""
    if MAP != DATA / "map.yaml" or mapdata["default_provenance"].startswith("overlay:"):
        pytest.skip("checking a transcription, not the generated map")
    from tools.rs_map import generate

    model, yaml_text, svg_text = generate.make()
    assert model.failures == []
    assert generate.MAP_YAML.read_text(encoding="utf-8") == yaml_text
    assert generate.MAP_SVG.read_text(encoding="utf-8") == svg_text


# -- the charts ----------------------------------------------------------------------------------------------


def crt_cell(tables: dict[str, Any], column: str, die: int) -> tuple[str, str]:
    crt = tables["crt"]
    i = crt["columns"].index(column)
    row = next(r for r in crt["cells"] if r["die"] == die)
    prov = row["provenance"] if isinstance(row["provenance"], str) else row["provenance"][i]
    return row["results"][i], prov


def test_crt_shape(tables: dict[str, Any]) -> None:
    """RS/RS 6.1: one six-sided die per firefight; the columns run from 1 to 35+ and 1, 2, 3, 5, 8, 10, 12
    are consecutive (examples of play, data-notes.md); RS/RS 6.6: results are steps lost / morale result."""
    crt = tables["crt"]
    cols = crt["columns"]
    assert cols[0] == "1" and cols[-1] == "35+"
    start = cols.index("1")
    assert cols[start:start + 7] == ["1", "2", "3", "5", "8", "10", "12"]
    assert crt["column_minimum"] == sorted(crt["column_minimum"]) and len(crt["column_minimum"]) == len(cols)
    assert len(crt["columns_provenance"]) == len(cols)
    assert crt["dice"] == "1d6" and crt["die_range"] == [1, 6]
    assert sorted(r["die"] for r in crt["cells"]) == [1, 2, 3, 4, 5, 6]
    for row in crt["cells"]:
        assert len(row["results"]) == len(cols)
        if isinstance(row["provenance"], list):
            assert len(row["provenance"]) == len(cols)
    assert crt["shifts_past_end"] == "clamp"
    assert crt["shifts_past_end_provenance"].startswith("errata: S&T 158")


@pytest.mark.parametrize(("column", "die", "result"), [
    ("3", 5, "-/-"), ("3", 6, "-/-"), ("5", 4, "-/1"), ("8", 1, "1/2"), ("12", 3, "-/2")])
def test_crt_known_cells(tables: dict[str, Any], column: str, die: int, result: str) -> None:
    """RS/RS 6.6: the cells the published examples of play show (data-notes.md)."""
    value, prov = crt_cell(tables, column, die)
    assert value == result
    assert prov.split(":")[0] in {"rulebook", "errata", "derived", "overlay"}


def test_crt_lower_rolls_favour_the_firer(tables: dict[str, Any]) -> None:
    """Lower die rolls are better for the firer (data-notes.md): steps lost never grow with the die."""
    crt = tables["crt"]
    rows = sorted(crt["cells"], key=lambda r: r["die"])

    def steps(r: str) -> int:
        return 0 if r.split("/")[0] == "-" else int(r.split("/")[0])

    for i in range(len(crt["columns"])):
        column = [steps(r["results"][i]) for r in rows]
        assert column == sorted(column, reverse=True), crt["columns"][i]


def cec(cells: list[dict[str, Any]], firer: str, target: str) -> dict[str, Any]:
    found = [c for c in cells if c["firer"] == firer and c["target"] == target]
    assert len(found) == 1, (firer, target)
    return found[0]


def test_combat_effectiveness_known_cells(tables: dict[str, Any]) -> None:
    """RS/RS 6.4 and the S&T 158 errata: leg at armor x1/2, antitank at armor x2, armor at leg x2, weapons
    direct fire at armor x1/2 (normal if adjacent), and leg, weapons direct and indirect fire at an HQ x2;
    the S&T 163 version of the HQ column is an option, off by default."""
    chart = tables["combat_effectiveness"]
    cells = chart["cells"]
    assert cec(cells, "leg", "armor")["multiplier"] == "1/2"
    assert cec(cells, "weapons-antitank", "armor")["multiplier"] == "2"
    assert cec(cells, "armor", "leg")["multiplier"] == "2"
    wdf = cec(cells, "weapons-direct-fire", "armor")
    assert (wdf["multiplier"], wdf["adjacent_multiplier"]) == ("1/2", "1")
    assert wdf["provenance"].startswith("errata: S&T 158")
    for firer in ("leg", "weapons-direct-fire", "weapons-indirect-fire"):
        cell = cec(cells, firer, "hq")
        assert cell["multiplier"] == "2" and cell["provenance"].startswith("errata: S&T 158"), firer
    for firer in chart["firers"]:
        for target in chart["targets"]:
            cec(cells, firer, target)
    option = next(o for o in chart["options"] if o["id"] == "hq-column-st163")
    assert option["default"] is False and option["provenance"].startswith("errata: S&T 163")
    for firer in ("armor", "leg", "weapons-direct-fire"):
        assert cec(option["cells"], firer, "hq")["multiplier"] == "2"
    assert chart["rounding"] == "up"  # RS/RS 6.43


def test_terrain_effects(tables: dict[str, Any], mapdata: dict[str, Any]) -> None:
    """RS/RS 11.3: a bridge costs +2 MP; RS/RS 2.3: motorized means a movement allowance of 16 or more;
    every terrain and hexside feature of the map has a line on the chart."""
    tec = tables["terrain_effects"]
    assert tec["motorized_minimum_ma"] == 16
    sides = {s["feature"]: s for s in tec["hexsides"]}
    assert sides["bridge"]["move"] == {"non_motorized": "2", "motorized": "2"}
    assert sides["bridge"]["provenance"]["move"].startswith("rulebook: 11.3")
    assert sides["halha"]["move"] == {"non_motorized": None, "motorized": None}
    assert sides["slope"]["shift"] == 1 and sides["stream"]["shift"] == 1
    assert {t["terrain"] for t in tec["terrain"]} == set(mapdata["terrain_types"])
    assert set(sides) == HEXSIDE_FEATURES


def test_morale_option_table(tables: dict[str, Any]) -> None:
    """RS/RS 6.62 and the Morale Option Table: six outcomes; a failed defender retreats every unit."""
    outcomes = {(o["choice"], o["owner"]): o for o in tables["morale_options"]["outcomes"]}
    assert len(outcomes) == 6
    fail = outcomes[("fail", "defender")]
    assert (fail["retreat"], fail["factors_lost"], fail["disruption"]) == ("all-units-in-hex", "morale", 2)
    assert outcomes[("pass", "defender")]["retreat"] == "none"


# -- the counters --------------------------------------------------------------------------------------------


def units(counters: dict[str, Any]) -> dict[str, dict[str, Any]]:
    out = {u["id"]: u for u in counters["units"]}
    assert len(out) == len(counters["units"]), "unit ids must be unique"
    return out


def test_counters_motorized_and_steps(counters: dict[str, Any]) -> None:
    """RS/RS 2.3: motorized exactly when the printed MA is 16 or more; RS/RS 2.4: a unit with a reduced
    side has two steps, and its back is weaker than its front."""
    for u in counters["units"]:
        if u["class"] not in ("Armor", "Leg", "Weapons", "HQ"):
            continue
        assert u["motorized"] == (u["full"]["movement"] >= 16), u["id"]
        if u["reduced"] is None:
            assert u["steps"] == 1, u["id"]
        else:
            assert u["steps"] == 2 and u["reduced"]["combat"] < u["full"]["combat"], u["id"]
        assert ("range" in u["full"]) == (u["type"] in ("artillery", "motorized-artillery")), u["id"]


def test_july_setup_units(counters: dict[str, Any], grid: Grid) -> None:
    """RS/RS 13.1: the Soviet units placed in single hexes, with the values the scenario prints."""
    by_hex: dict[str, list[tuple[int, ...]]] = {}
    for u in counters["units"]:
        where = u.get("setup", {})
        if where.get("scenario") == "13.1" and "hex" in where:
            f = u["full"]
            by_hex.setdefault(where["hex"], []).append(tuple(f[k] for k in ("combat", "range", "movement") if k in f))
            assert grid.on_map(where["hex"])
        for h in where.get("hexes", []):
            assert grid.on_map(h)
    expected: dict[str, list[tuple[int, ...]]] = {
        "1835": [(3, 15)], "2948": [(3, 15)], "2747": [(2, 20)], "1932": [(5, 18)], "3639": [(3, 20)],
        "1330": [(4, 20), (5, 20)], "1431": [(3, 20)], "3733": [(3, 20)], "3928": [(3, 20)], "3628": [(3, 20)],
        "3432": [(2, 6, 20)], "3033": [(3, 6, 20)], "3235": [(3, 6, 20)], "2734": [(3, 16)], "2535": [(2, 20)],
        "3124": [(4, 20)], "2824": [(5, 20)], "2523": [(3, 20)], "2037": [(5, 21, 20)], "2234": [(5, 8, 20)],
        "2337": [(4, 9, 20)], "2237": [(1, 24)], "4643": [(2, 15)], "4540": [(2, 15)], "4538": [(2, 15)],
    }
    assert {h: sorted(v) for h, v in by_hex.items()} == {h: sorted(v) for h, v in expected.items()}


def test_july_task_forces(counters: dict[str, Any]) -> None:
    """RS/RS 13.1: the Yasuoka and Kobayashi task forces, unit by unit."""
    def force(area: str) -> list[str]:
        return sorted(f"{u['full']['combat']}-" + "-".join(str(u["full"][k]) for k in ("range", "movement")
                                                           if k in u["full"])
                      for u in counters["units"]
                      if u.get("setup", {}).get("area") == area and u["class"] != "Special")
    assert force("Yasuoka Task Force") == sorted(["4-16", "5-16", "4-10", "4-10", "1-3-15", "1-15", "3-10", "1-20",
                                                  "3-6-15"])
    assert force("Kobayashi Task Force") == sorted(
        ["4-10"] * 3 + ["1-3-15", "1-15"] + ["4-10"] * 3 + ["1-3-15", "1-15"] + ["4-10"] * 3 + ["1-3-20", "1-20"]
        + ["4-10", "2-15", "2-10", "1-15", "1-15", "3-6-15", "4-5-15", "3-9-20", "1-24"])
    reserve = [u["id"] for u in counters["units"] if u.get("setup", {}).get("reserve")]
    assert reserve == ["jp-3-64"]
    bridge = units(counters)["jp-bridge"]
    assert bridge["class"] == "Special" and bridge["setup"]["with"] == "jp-23-eng"  # RS/RS 11.2


def test_counter_errata(counters: dict[str, Any]) -> None:
    """The S&T 158 errata (data-notes.md and the errata printed with RS/RS 2.1): 1/12 AA proficiency 5;
    the 24 and 149 artillery are 2-6-20; the 23 cavalry has light armor +2; the 26 antitank company is an
    antitank unit; the 3 July Soviet reinforcement is two 5-18 tank battalions and a 4-6-20 artillery."""
    u = units(counters)
    assert u["jp-1-12-aa"]["proficiency"] == 5
    assert u["jp-1-12-aa"]["provenance"]["proficiency"].startswith("errata: S&T 158")
    for art in ("su-24-art", "su-149-art"):
        assert u[art]["full"] == {"combat": 2, "range": 6, "movement": 20}
    assert u["jp-23-cav"]["light_armor"] == 2
    assert u["jp-26-at"]["type"] == "antitank"
    tanks_3_july = [x for x in counters["units"] if x.get("arrives", {}).get("turn") == "3 July"
                    and x["formation_id"] == "11"]
    assert sorted((x["type"], x["full"]["combat"], x["full"]["movement"]) for x in tanks_3_july) == [
        ("motorized-artillery", 4, 20), ("tank", 5, 18), ("tank", 5, 18)]


def test_examples_fix_reduced_values(counters: dict[str, Any]) -> None:
    """RS/RS 4.23: the 1/24 motorized battalion is 3 full and 1 reduced; RS/RS 9.2: a Soviet infantry
    regiment is 8-10 full and 4-10 reduced."""
    u = units(counters)
    assert (u["su-1-24"]["full"]["combat"], u["su-1-24"]["reduced"]["combat"]) == (3, 1)
    for reg in ("su-602-82", "su-603-82"):
        assert (u[reg]["full"], u[reg]["reduced"]) == ({"combat": 8, "movement": 10}, {"combat": 4, "movement": 10})


def test_unit_counts_and_reinforcements(counters: dict[str, Any]) -> None:
    """RS/RS 13.1 and the reinforcement lists up to 12 July, the scenario's last turn: sides are Japan
    (with Manchukuo) and the Soviets (with Mongolia), RS/RS 2.5."""
    us = counters["units"]
    ground = [u for u in us if u["class"] in ("Armor", "Leg", "Weapons", "HQ")]
    japan = [u for u in ground if u["side"] == "japan"]
    soviet = [u for u in ground if u["side"] == "soviet"]
    assert len([u for u in japan if "setup" in u]) == 36
    assert len([u for u in soviet if "setup" in u]) == 23
    turns = sorted({u["arrives"]["turn"] for u in us if "arrives" in u})
    assert turns == ["11 July", "12 July", "3 July", "8 July"]
    assert {u["nationality"] for u in japan} == {"japan", "manchukuo"}
    assert {u["nationality"] for u in soviet} == {"ussr", "mongolia"}
    assert len([u for u in us if u["class"] == "Air"]) == 10


PRINTED_SIZES = {  # unit -> (size, the case that prints it)
    "jp-3tk": ("III", "13.1"), "jp-4tk": ("III", "13.1"), "jp-3-64": ("II", "13.1"), "jp-24-eng": ("III", "13.1"),
    "jp-1-12-aa": ("I", "13.1"), "jp-2-13-art": ("I", "13.1"), "jp-25-at": ("I", "13.1"), "jp-27-at": ("I", "13.1"),
    "jp-1-13-art": ("II", "13.1"), "jp-3-13-art": ("II", "13.1"), "jp-1ind-art": ("III", "13.1"),
    "jp-23-hq": ("XX", "13.1"), "mn-22-8": ("III", "13.1"), "mn-23-8": ("III", "13.1"), "su-1-149": ("II", "13.1"),
    "su-2-149": ("II", "13.1"), "su-3-149": ("II", "13.1"), "su-149-art": ("I", "13.1"), "su-1ag-hq": ("XXX", "4.23"),
    "su-1-24": ("II", "4.23"), "jp-m-art": ("III", "2.5"), "mk-8-cav": ("III", "13.2"),
}


def test_unit_sizes_printed_in_the_rules(counters: dict[str, Any]) -> None:
    """RS/RS 2.6, 4.23 example, 13.1: every unit size the rules print is the counter's size, with rulebook
    provenance naming the case ("2d co., 13 Artillery Regiment" is a company)."""
    units = {u["id"]: u for u in counters["units"]}
    for unit_id, (size, case) in PRINTED_SIZES.items():
        unit = units[unit_id]
        assert unit["size"] == size, unit_id
        assert unit["provenance"]["size"].startswith(f"rulebook: {case}"), unit_id
