"""The provisional Red Sun Rising land map (scenarios/red-sun-rising/map.yaml) is well formed and agrees
with what the rulebook says about particular hexes.

The hex adjacency rule is written out here from docs/data-format.md, independently of the generator.
Set RSR_MAP_YAML to check another file of the same shape instead (e.g. a transcription of the real map:
docs/red-sun-rising/map.md).
"""

from __future__ import annotations

import os
import re
import sys
from collections import defaultdict, deque
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
GENERATED = ROOT / "scenarios" / "red-sun-rising" / "map.yaml"
MAP = Path(os.environ.get("RSR_MAP_YAML", GENERATED))
TERRAINS = {"clear", "rough", "mountain", "sea"}
SOURCES = {"rulebook", "errata", "derived", "provisional", "overlay"}
HEX_RE = re.compile(r"^\d{4}$")


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    with MAP.open(encoding="utf-8") as f:
        loaded = yaml.safe_load(f)
    assert isinstance(loaded, dict)
    return loaded


# -- the adjacency rule of docs/data-format.md -----------------------------------------------------------


def split(h: str) -> tuple[int, int]:
    assert HEX_RE.match(h), h
    return int(h[:2]), int(h[2:])


def neighbours(h: str, shifted_lines: str) -> set[str]:
    """With `even`, even lines sit half a hex toward higher positions: AABB touches AA(BB+-1) and, on
    each adjacent line, BB and BB+1 when AA is even, BB-1 and BB when AA is odd (mirrored for `odd`)."""
    line, pos = split(h)
    shifted = (line % 2 == 0) == (shifted_lines == "even")
    other = (pos, pos + 1) if shifted else (pos - 1, pos)
    out = {(line, pos - 1), (line, pos + 1)}
    out |= {(line + d, p) for d in (-1, 1) for p in other}
    return {f"{a:02d}{b:02d}" for a, b in out}


def adjacent(a: str, b: str, shifted_lines: str) -> bool:
    return b in neighbours(a, shifted_lines)


def shift(data: dict[str, Any]) -> str:
    return str(data["grid"]["shifted_lines"])


def rectangle(data: dict[str, Any]) -> set[str]:
    (l0, l1), (p0, p1) = data["grid"]["lines"], data["grid"]["positions"]
    return {f"{line:02d}{pos:02d}" for line in range(l0, l1 + 1) for pos in range(p0, p1 + 1)}


def is_land(data: dict[str, Any], h: str) -> bool:
    return bool(data["terrain"].get(h, "sea") != "sea")


def coastal(data: dict[str, Any], h: str) -> bool:
    """Land next to a sea hex (coastal is derived, never listed)."""
    return is_land(data, h) and any(data["terrain"].get(n) == "sea" for n in neighbours(h, shift(data)))


def place(data: dict[str, Any], h: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = [p for p in data["places"] if p["hex"] == h]
    assert len(found) == 1, f"expected one place in {h}, found {found}"
    return found[0]


def rail_graph(data: dict[str, Any]) -> dict[str, set[str]]:
    g: dict[str, set[str]] = defaultdict(set)
    for line in data["rail"]:
        for a, b in zip(line["hexes"], line["hexes"][1:], strict=False):
            g[a].add(b)
            g[b].add(a)
    return g


def reachable(g: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = {start}, deque([start])
    while todo:
        for n in g[todo.popleft()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def rail_hexes(data: dict[str, Any]) -> set[str]:
    return {h for line in data["rail"] for h in line["hexes"]}


# -- shape -------------------------------------------------------------------------------------------------


def test_yaml_loads_with_the_expected_sections(data: dict[str, Any]) -> None:
    for key in ("id", "grid", "default_provenance", "terrain", "hexsides", "rail", "roads", "places",
                "code_areas"):
        assert key in data, key
    assert data["grid"]["line_axis"] == "north"
    assert data["grid"]["shifted_lines"] in ("even", "odd")


def test_every_hex_of_the_rectangle_has_a_terrain(data: dict[str, Any]) -> None:
    terrain = data["terrain"]
    assert set(terrain) == rectangle(data)
    assert all(isinstance(k, str) for k in terrain)
    bad = {h: t for h, t in terrain.items() if t not in TERRAINS}
    assert not bad


def test_provenance_strings_name_a_known_source(data: dict[str, Any]) -> None:
    strings = [data["default_provenance"], data["grid"]["provenance"]]
    for section in ("hexsides", "rail", "roads", "places", "code_areas"):
        strings += [item["provenance"] for item in data[section] if "provenance" in item]
    for s in strings:
        source, _, reason = s.partition(": ")
        assert source in SOURCES and reason, s


@pytest.mark.parametrize("section,key", [("rail", "line"), ("roads", "name")])
def test_rail_and_road_paths_are_contiguous_land(data: dict[str, Any], section: str, key: str) -> None:
    for item in data[section]:
        hexes = item["hexes"]
        assert len(hexes) >= 2, item[key]
        assert len(set(hexes)) == len(hexes), f"{item[key]} visits a hex twice"
        for a, b in zip(hexes, hexes[1:], strict=False):
            assert adjacent(a, b, shift(data)), f"{item[key]}: {a} and {b} are not adjacent"
        for h in hexes:
            assert h in data["terrain"] and is_land(data, h), f"{item[key]}: {h} is not a land hex"


def test_every_hexside_names_two_adjacent_hexes(data: dict[str, Any]) -> None:
    seen: set[str] = set()
    impassable: set[str] = set()
    for side in data["hexsides"]:
        a, b = side["side"].split("-")
        assert a < b, f"{side['side']}: lower number first"
        assert a in data["terrain"] and b in data["terrain"], side
        assert adjacent(a, b, shift(data)), f"{side['side']} is not a hexside"
        assert side["feature"] in ("river", "impassable"), side
        if side["feature"] == "river":
            assert side.get("name"), side
            assert is_land(data, a) and is_land(data, b), f"river {side['side']} touches sea"
        else:
            impassable.add(side["side"])
        assert side["side"] not in seen, f"{side['side']} listed twice"
        seen.add(side["side"])
    for item in data["rail"] + data["roads"]:
        for a, b in zip(item["hexes"], item["hexes"][1:], strict=False):
            assert "-".join(sorted((a, b))) not in impassable, f"{a}-{b} crosses an impassable hexside"


def test_places_are_on_land_in_distinct_hexes(data: dict[str, Any]) -> None:
    hexes = [p["hex"] for p in data["places"]]
    assert len(set(hexes)) == len(hexes)
    for p in data["places"]:
        assert is_land(data, p["hex"]), p


def test_code_areas_are_disjoint_coastal_land(data: dict[str, Any]) -> None:
    seen: set[str] = set()
    assert [a["area"] for a in data["code_areas"]] == ["A", "B", "C", "D", "E"]
    for area in data["code_areas"]:
        for h in area["hexes"]:
            assert coastal(data, h), f"code area {area['area']}: {h} is not coastal land"
            assert h not in seen, f"{h} is in two code areas"
            seen.add(h)


# -- what the rulebook says about particular hexes ---------------------------------------------------------


def test_port_arthur(data: dict[str, Any]) -> None:
    """Hex 0801 is Port Arthur, a fortress (RSR 13.2) and port, where the Russian set-up puts its garrison
    (RSR 19.2); it is a coastal land hex on the rail."""
    p = place(data, "0801")
    assert p["name"] == "Port Arthur"
    assert p.get("fortress") and p.get("port") and p.get("city")
    assert coastal(data, "0801")
    assert "0801" in rail_hexes(data)


def test_dalny(data: dict[str, Any]) -> None:
    """Hex 0803 is Dalny, a port where transports may stay in winter (RSR 7.5), on a rail line the
    Japanese may trace to (RSR 18.42); coastal land."""
    p = place(data, "0803")
    assert p["name"] == "Dalny" and p.get("port")
    assert not p.get("fortress")  # RSR 13.2: the only fortresses are 0801 and 2937
    assert coastal(data, "0803")
    assert "0803" in rail_hexes(data)


def test_vladivostok(data: dict[str, Any]) -> None:
    """Hex 2937 is Vladivostok, a fortress (RSR 13.2) and port, set up with its garrison (RSR 19.2);
    coastal land on the rail."""
    p = place(data, "2937")
    assert p["name"] == "Vladivostok"
    assert p.get("fortress") and p.get("port") and p.get("city")
    assert coastal(data, "2937")
    assert "2937" in rail_hexes(data)


def test_only_two_fortresses(data: dict[str, Any]) -> None:
    """RSR 13.2: Port Arthur and Vladivostok are the only fortresses."""
    assert sorted(p["hex"] for p in data["places"] if p.get("fortress")) == ["0801", "2937"]


def test_russian_railheads_are_rail_hexes_joined_to_their_lines(data: dict[str, Any]) -> None:
    """RSR 10.11: hexes 3316 and 3337 are Russian general supply sources, and rail hexes joined to them
    by contiguous rail are too; RSR 10.14 and 18.41 need Port Arthur and Vladivostok joined to them."""
    g = rail_graph(data)
    for h in ("3316", "3337"):
        assert h in g, f"{h} is not on a rail line"
        p = place(data, h)
        assert p.get("railhead") == "russia"
    north = reachable(g, "3316")
    assert {"0801", "0803", "2008"} <= north, "Port Arthur, Dalny and Liaoyang must reach 3316 by rail"
    assert "2937" in reachable(g, "3337"), "Vladivostok must reach 3337 by rail"
    # every rail line touches the network of one of the two railheads
    for line in data["rail"]:
        assert set(line["hexes"]) & (north | reachable(g, "3337")), line["line"]


def test_railway_between_port_arthur_and_liaoyang(data: dict[str, Any]) -> None:
    """Player's Notes (printed after the rules): the rail from Port Arthur to Liaoyang passes 1606 and 1105 or
    1004; a landing at 1706 (a coastal hex) threatens 1606."""
    rail = rail_hexes(data)
    assert "1606" in rail and ("1105" in rail or "1004" in rail)
    assert coastal(data, "1706")
    assert adjacent("1606", "1706", shift(data))


def test_code_area_a_runs_from_1701_to_1210(data: dict[str, Any]) -> None:
    """RSR 7.5: a transport in naval code A lands on a coastal hex from 1701 to 1210, or in winter in
    Port Arthur (0801) or Dalny (0803)."""
    a = next(area["hexes"] for area in data["code_areas"] if area["area"] == "A")
    assert a[0] == "1701" and a[-1] == "1210"
    assert {"0801", "0803", "1706"} <= set(a)
    assert coastal(data, "1701") and coastal(data, "1210")


def test_liaoyang_defence_lines_ring_liaoyang(data: dict[str, Any]) -> None:
    """Player's Notes: an outer line 1907 1807 1808 1809 1811 and an inner line 2007 1908 1909 1910 around
    Liaoyang; on this map Liaoyang is 2008, the inner line touches it and the outer line is further out."""
    assert place(data, "2008")["name"] == "Liaoyang"
    s = shift(data)
    inner, outer = ["2007", "1908", "1909", "1910"], ["1907", "1807", "1808", "1809"]
    for line in (inner, outer):
        for a, b in zip(line, line[1:], strict=False):
            assert adjacent(a, b, s), f"{a}-{b}"
    assert all(adjacent("2008", h, s) for h in inner[:3])
    assert not any(adjacent("2008", h, s) for h in outer + ["1811"])
    for h in inner + outer + ["1811"]:
        assert is_land(data, h)


def test_named_set_up_and_yalu_hexes_are_land(data: dict[str, Any]) -> None:
    """RSR 19.2 sets up a division in 2734; the Player's Notes put a rearguard at 1412 by the Yalu."""
    assert is_land(data, "2734") and is_land(data, "1412")
    yalu = {s["side"] for s in data["hexsides"] if s.get("name") == "Yalu"}
    assert any("1412" in side.split("-") for side in yalu), "1412 should touch the Yalu"


@pytest.mark.skipif(MAP != GENERATED, reason="checking another map file")
def test_generator_reproduces_the_file() -> None:
    """map.yaml is exactly what tools/rsr_map makes (it is generated, not hand-edited)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tools.rsr_map.generate import make

    _, text, _ = make()
    assert text == GENERATED.read_text(encoding="utf-8"), "run `python -m tools.rsr_map` to regenerate"
