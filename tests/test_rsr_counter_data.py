"""Checks on the Red Sun Rising counter and Turn Record Track data (scenarios/red-sun-rising).

The counter values and the Turn Record Track are not in the rulebook text; these tests pin what the rules
do fix (set-ups, steps, the example values, the turn calendar, replacement months) and that every value
says where it comes from (docs/data-format.md).
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from rsr.schemas import SCHEMA_DIR, validate
from rsr.yamlio import load_yaml_file

SCENARIO = Path(__file__).resolve().parent.parent / "scenarios" / "red-sun-rising"
SOURCES = ("rulebook", "errata", "derived", "provisional", "overlay")
PROVENANCE_RE = re.compile(r"^(" + "|".join(SOURCES) + r"): \S")

VALUE_FIELDS = ("strength", "command", "movement")
IDENTITY_FIELDS = ("name", "type", "setup", "army", "kind")
DIVISION_TYPES = {"infantry-division", "cavalry-division"}
COMBAT_TYPES = DIVISION_TYPES | {
    "cavalry-brigade",
    "artillery-brigade",
    "siege-artillery",
    "infantry-brigade",
    "garrison",
    "naval-brigade",
}

# RSR 19.1, hex by hex on the Strategic Naval Map: (divisions, Kobe brigades, cavalry brigades,
# artillery brigades, siege artillery regiments).
JP_SETUP: dict[str, tuple[list[str], list[str], list[str], list[str], int]] = {
    "14": (["jp-6"], ["jp-k6"], ["jp-cav1"], ["jp-art1"], 1),
    "24": (["jp-12"], ["jp-k12"], ["jp-cav2"], ["jp-art2"], 1),
    "25": (["jp-5", "jp-11"], ["jp-k5", "jp-k11"], [], [], 1),
    "26": (["jp-4", "jp-10"], ["jp-k4", "jp-k10"], [], [], 1),
    "27": (["jp-1", "jp-9", "jp-g"], ["jp-k1", "jp-k9", "jp-kg"], [], [], 1),
    "35": (["jp-3"], ["jp-k3"], [], [], 1),
    "47": (["jp-2", "jp-7", "jp-8"], ["jp-k2", "jp-k7", "jp-k8"], [], [], 1),
}

# RSR 19.2, hex by hex on the land map: combat units and command units.
RU_SETUP: dict[str, list[str]] = {
    "0801": ["ru-es3", "ru-es4", "ru-es7", "ru-tr", "ru-or", "ru-gar-pa"],
    "2937": ["ru-gar-vlad", "ru-es1", "ru-es6", "ru-es8"],
    "2734": ["ru-es2"],
    "3316": ["ru-es5", "ru-es9"],
}
RU_SETUP_COMMAND: dict[str, str] = {"0801": "ru-pa-stoessel", "2937": "ru-1m"}


@cache
def _load(name: str) -> dict[str, Any]:
    data = load_yaml_file(SCENARIO / name)
    assert isinstance(data, dict), f"{name}: top level must be a mapping"
    return data


def counters() -> dict[str, Any]:
    return _load("counters.yaml")


def turns_data() -> dict[str, Any]:
    return _load("turns.yaml")


def combat_units() -> list[dict[str, Any]]:
    return list(counters()["combat_units"])


def command_units() -> list[dict[str, Any]]:
    return list(counters()["command_units"])


def by_id() -> dict[str, dict[str, Any]]:
    return {u["id"]: u for u in command_units() + combat_units()}


def turns() -> list[dict[str, Any]]:
    return list(turns_data()["turns"])


def resolve(item: dict[str, Any], field: str, default: str) -> str:
    """The provenance of one value of an item: the lookup order of the comment in counters.yaml."""
    prov = item.get("provenance")
    if isinstance(prov, str):
        return prov
    if isinstance(prov, dict):
        base = field.split(".")[-1]
        keys = [field]
        if base != field:
            keys.append(base)
        if base in VALUE_FIELDS:
            keys.append("values")
        if base in IDENTITY_FIELDS:
            keys.append("unit")
        for key in keys:
            if key in prov:
                return str(prov[key])
    return default


def unit_value_fields(unit: dict[str, Any]) -> list[str]:
    fields = [f for f in IDENTITY_FIELDS if f in unit]
    fields += [f for f in ("steps", "defend_only", "alternate_for") if f in unit]
    for side in ("full", "reduced"):
        if side in unit:
            fields += [f"{side}.{v}" for v in VALUE_FIELDS]
    fields += [f for f in VALUE_FIELDS if f in unit]
    return fields


def value_of(item: dict[str, Any], field: str) -> Any:
    node: Any = item
    for part in field.split("."):
        node = node[part]
    return node


def units_of(side: str, unit_type: str) -> list[dict[str, Any]]:
    return [u for u in combat_units() if u["side"] == side and u["type"] == unit_type]


def on_map_at_start(unit: dict[str, Any]) -> bool:
    return isinstance(unit.get("setup"), dict)


# ------------------------------------------------------------------------------------------- loading


def test_yaml_loads() -> None:
    """Both files load with the project's strict YAML loader as mappings with their top-level keys."""
    assert {"default_provenance", "command_units", "combat_units"} <= counters().keys()
    assert {"default_provenance", "seasons", "cities", "turns"} <= turns_data().keys()


def test_counters_match_schema() -> None:
    """counters.yaml passes the JSON Schema the scenario loader applies to it."""
    name = "red-sun-rising.counters"
    assert (SCHEMA_DIR / f"{name}.schema.json").exists()
    validate(name, counters(), str(SCENARIO / "counters.yaml"))


def test_ids_unique_and_prefixed() -> None:
    """Every id is unique across command and combat units and starts with its side's prefix."""
    ids = [u["id"] for u in command_units() + combat_units()]
    dupes = [i for i, n in Counter(ids).items() if n > 1]
    assert not dupes, f"duplicate ids: {dupes}"
    prefix = {"japan": "jp-", "russia": "ru-"}
    for u in command_units() + combat_units():
        assert u["id"].startswith(prefix[u["side"]]), u["id"]


def test_known_types_and_kinds() -> None:
    """Combat unit types and command unit kinds come from the fixed vocabulary (counter summary, case 3.2)."""
    for u in combat_units():
        assert u["type"] in COMBAT_TYPES, u["id"]
    for c in command_units():
        assert c["kind"] in {"shq", "army"}, c["id"]


# ------------------------------------------------------------------------------------------- set-ups


def test_japanese_setup_counts() -> None:
    """RSR 19.1: 13 infantry divisions (Guards and 1st-12th), 13 Kobe brigades, 2 cavalry brigades,
    2 artillery brigades and 7 siege artillery regiments, all Japanese land units of the set-up."""
    assert len(units_of("japan", "infantry-division")) == 13
    assert len(units_of("japan", "infantry-brigade")) == 13
    assert len(units_of("japan", "cavalry-brigade")) == 2
    assert len(units_of("japan", "artillery-brigade")) == 2
    assert len(units_of("japan", "siege-artillery")) == 7
    japanese = [u for u in combat_units() if u["side"] == "japan"]
    assert len(japanese) == 37
    assert all(u["setup"]["map"] == "naval" for u in japanese)


@pytest.mark.parametrize("hex_id", sorted(JP_SETUP))
def test_japanese_setup_by_hex(hex_id: str) -> None:
    """RSR 19.1: each strategic naval hex holds exactly the units the set-up lists, at full strength."""
    divisions, kobe, cavalry, artillery, siege = JP_SETUP[hex_id]
    here = [u for u in combat_units() if u["side"] == "japan" and u["setup"]["hex"] == hex_id]
    ids = {u["id"] for u in here if u["type"] != "siege-artillery"}
    assert ids == set(divisions + kobe + cavalry + artillery)
    assert sum(u["type"] == "siege-artillery" for u in here) == siege
    assert not any(u["setup"].get("reduced") for u in here)
    for u in here:
        assert resolve(u, "setup", "").startswith("rulebook: 19.1"), u["id"]


def test_russian_setup() -> None:
    """RSR 19.2: East Siberian divisions 1-9, the Tr and Or cavalry divisions and the PA and Vlad
    garrisons (13 combat units), hex by hex, divisions starting one step reduced; Stoessel at 0801 and
    Limivitch (1M) at 2937."""
    assert len([u for u in units_of("russia", "infantry-division") if u["id"].startswith("ru-es")]) == 9
    at_start = [u for u in combat_units() if u["side"] == "russia" and on_map_at_start(u)]
    assert len(at_start) == 13
    for hex_id, ids in RU_SETUP.items():
        here = {u["id"] for u in at_start if u["setup"]["hex"] == hex_id}
        assert here == set(ids), hex_id
    for u in at_start:
        assert u["setup"]["map"] == "land"
        assert bool(u["setup"].get("reduced")) == (u["steps"] == 2), u["id"]
        assert resolve(u, "setup", "").startswith("rulebook: 19.2"), u["id"]
    assert {u["id"] for u in at_start if u["type"] == "cavalry-division"} == {"ru-tr", "ru-or"}
    assert {u["id"] for u in at_start if u["type"] == "garrison"} == {"ru-gar-pa", "ru-gar-vlad"}
    units = by_id()
    for hex_id, cid in RU_SETUP_COMMAND.items():
        assert units[cid]["setup"] == {"map": "land", "hex": hex_id}
        assert resolve(units[cid], "setup", "").startswith("rulebook: 19.2")
    assert units["ru-1m"]["name"] == "Limivitch" and units["ru-1m"]["army"] == "1M"


def test_russian_builds_and_naval_brigades() -> None:
    """Cases 17.0 and 18.5: units outside 19.2 enter only by building or, for the two naval brigades,
    by fleet disbandment; the build pool covers the Ca, Sb and Ur Cossacks of the abbreviation list."""
    russian = [u for u in combat_units() if u["side"] == "russia"]
    for u in russian:
        assert on_map_at_start(u) or u["setup"] in {"build", "disband"}, u["id"]
    naval = [u for u in russian if u["type"] == "naval-brigade"]
    assert len(naval) == 2 and all(u["setup"] == "disband" for u in naval)
    assert {"ru-ca", "ru-sb", "ru-ur"} <= {u["id"] for u in russian if u["setup"] == "build"}
    assert all(u["setup"] != "build" for u in combat_units() if u["side"] == "japan")


def test_command_units() -> None:
    """Cases 18.7 and 3.2: Alexiev is an SHQ; Smirnov is the alternative to Stoessel for the PA command;
    each side has one SHQ and army HQs."""
    units = by_id()
    assert units["ru-shq-alexiev"]["kind"] == "shq"
    smirnov, stoessel = units["ru-pa-smirnov"], units["ru-pa-stoessel"]
    assert smirnov["alternate_for"] == "ru-pa-stoessel"
    assert smirnov["army"] == stoessel["army"] == "PA"
    for side in ("japan", "russia"):
        kinds = Counter(c["kind"] for c in command_units() if c["side"] == side)
        assert kinds["shq"] >= 1 and kinds["army"] >= 1, side
    assert {c.get("army") for c in command_units() if c["side"] == "russia"} >= {"1M", "2M", "3M", "ED", "PA"}


# ------------------------------------------------------------------------------------------- values


def test_steps_and_reduced_sides() -> None:
    """Case 11.5: divisions have two steps and a reduced side; brigades and other one-step units have none."""
    for u in combat_units():
        expected = 2 if u["type"] in DIVISION_TYPES else 1
        assert u["steps"] == expected, u["id"]
        assert ("reduced" in u) == (expected == 2), u["id"]
        for v in VALUE_FIELDS:
            assert isinstance(u["full"][v], int) and u["full"][v] >= 0, u["id"]
            if "reduced" in u:
                assert 0 <= u["reduced"][v] <= u["full"][v], u["id"]


def test_example_values() -> None:
    """RSR 11.51 (and case 11.52): every value derived from the examples equals them (division 8-2-5
    reducing to 4-1-5, brigade 3-1-7), and the examples appear in the counter mix."""
    example_division = {"full": (8, 2, 5), "reduced": (4, 1, 5)}
    seen_division = seen_brigade = False
    for u in combat_units():
        for side in ("full", "reduced"):
            if side not in u:
                continue
            for i, v in enumerate(VALUE_FIELDS):
                prov = resolve(u, f"{side}.{v}", counters()["default_provenance"])
                if prov.startswith("derived: 11.51 example division"):
                    assert u[side][v] == example_division[side][i], (u["id"], side, v)
        triple = tuple(u["full"][v] for v in VALUE_FIELDS)
        if u["steps"] == 2 and triple == (8, 2, 5):
            seen_division |= tuple(u["reduced"][v] for v in VALUE_FIELDS) == (4, 1, 5)
        if u["steps"] == 1 and triple == (3, 1, 7):
            seen_brigade = True
    assert seen_division and seen_brigade


def test_garrisons_and_siege_artillery() -> None:
    """Cases 18.6 and 18.9: garrisons defend only and never move; siege artillery is one-step and Japanese."""
    for u in combat_units():
        if u["type"] == "garrison":
            assert u["side"] == "russia" and u.get("defend_only") is True, u["id"]
            assert u["full"]["movement"] == 0, u["id"]
            assert resolve(u, "defend_only", "").startswith("rulebook: 18.6")
        else:
            assert "defend_only" not in u, u["id"]
        if u["type"] == "siege-artillery":
            assert u["side"] == "japan" and u["steps"] == 1, u["id"]


def test_every_value_has_provenance() -> None:
    """Every counter value resolves to a provenance of a known source, and provenance maps name only real
    fields (docs/data-format.md)."""
    default = counters()["default_provenance"]
    assert PROVENANCE_RE.match(default)
    for u in command_units() + combat_units():
        fields = unit_value_fields(u)
        for field in fields:
            prov = resolve(u, field, default)
            assert PROVENANCE_RE.match(prov), (u["id"], field, prov)
        prov_map = u.get("provenance")
        if isinstance(prov_map, dict):
            allowed = set(fields) | {f.split(".")[-1] for f in fields} | {"unit", "values"}
            assert set(prov_map) <= allowed, (u["id"], set(prov_map) - allowed)


# ------------------------------------------------------------------------------------------- turns


def test_turn_calendar() -> None:
    """RSR 19.4 (and case 18.8): 23 monthly Game-Turns, February 1904 to December 1905, numbered 1-23."""
    ts = turns()
    assert len(ts) == 23
    assert [t["turn"] for t in ts] == list(range(1, 24))
    months = [t["month"] for t in ts]
    assert months[0] == "1904-02" and months[-1] == "1905-12"
    for i, m in enumerate(months):
        year, month = divmod(i + 1, 12)
        assert m == f"{1904 + year}-{month + 1:02d}", m
    assert ts[0].get("special_rules") == ["18.8"]


def test_replacement_steps() -> None:
    """RSR 17.22: a Japanese Replacement Step in exactly the January, April, July and October turns."""
    for t in turns():
        month = int(t["month"][5:])
        assert t["japanese_replacement_step"] is (month in (1, 4, 7, 10)), t["month"]
        assert resolve(t, "japanese_replacement_step", "") == "rulebook: 17.22"
    assert sum(t["japanese_replacement_step"] for t in turns()) == 7


def test_seasons() -> None:
    """RSR 19.4: every month has one season of four, and each turn's season follows the mapping."""
    seasons = {k: v for k, v in turns_data()["seasons"].items() if k != "provenance"}
    assert set(seasons) == {"winter", "spring", "summer", "autumn"}
    months = sorted(m for ms in seasons.values() for m in ms)
    assert months == list(range(1, 13))
    assert PROVENANCE_RE.match(turns_data()["seasons"]["provenance"])
    season_of = {m: s for s, ms in seasons.items() for m in ms}
    for t in turns():
        assert t["season"] == season_of[int(t["month"][5:])], t["month"]


def test_cities_required() -> None:
    """RSR 19.4: a city count at the end of every season within the game, never falling and below the six
    that already mean a Japanese decisive victory; the cities include the hexes the rulebook names."""
    ts = turns()
    cities = turns_data()["cities"]
    assert len({c["name"] for c in cities}) == len(cities)
    hexes = {c["hex"]: c for c in cities if "hex" in c}
    assert {"0801", "0803", "2937"} <= set(hexes)
    for c in hexes.values():
        assert resolve(c, "hex", "").startswith("rulebook:"), c["name"]
    required: list[int] = []
    for i, t in enumerate(ts):
        season_ends = i + 1 < len(ts) and ts[i + 1]["season"] != t["season"]
        assert ("cities_required" in t) == season_ends, t["month"]
        if season_ends:
            required.append(t["cities_required"])
    assert required == sorted(required)
    assert 1 <= required[0] and required[-1] < 6 and required[-1] <= len(cities)


def test_arrivals_and_withdrawals() -> None:
    """RSR 19.2 (and cases 17.11, 17.3): arriving and withdrawn command units exist; each arrives once, is
    withdrawn only after it arrived, and a side never has two SHQs at once; the Baltic fleet admiral comes
    in May 1905."""
    units = by_id()
    commands = {c["id"] for c in command_units()}
    present = {c["id"] for c in command_units() if on_map_at_start(c)}
    arrived: Counter[str] = Counter()
    for t in turns():
        for cid in t["arrive"]:
            assert cid in commands, (t["month"], cid)
            assert cid not in present, (t["month"], cid)
            arrived[cid] += 1
            present.add(cid)
        for cid in t["withdraw"]:
            assert cid in present, (t["month"], cid)
            present.remove(cid)
        for side in ("japan", "russia"):
            shqs = [c for c in present if units[c]["side"] == side and units[c]["kind"] == "shq"]
            assert len(shqs) <= 1, (t["month"], shqs)
    track = {c["id"] for c in command_units() if c["setup"] == "track"}
    assert set(arrived) == track and all(n == 1 for n in arrived.values())
    may_1905 = next(t for t in turns() if t["month"] == "1905-05")
    assert "Rozhestvansky" in may_1905["admirals_arrive"]
    assert resolve(may_1905, "admirals_arrive", "").startswith("rulebook: 19.2")


def test_turn_values_have_provenance() -> None:
    """Every Turn Record Track value resolves to a provenance of a known source (docs/data-format.md)."""
    default = turns_data()["default_provenance"]
    assert PROVENANCE_RE.match(default)
    for t in turns():
        assert isinstance(t["russian_command_points"], int) and t["russian_command_points"] >= 0
        fields = [k for k in t if k != "provenance"]
        for field in fields:
            assert PROVENANCE_RE.match(resolve(t, field, default)), (t["month"], field)
        assert set(t.get("provenance", {})) <= set(fields), t["month"]
    for c in turns_data()["cities"]:
        for field in ("hex", "city"):
            assert PROVENANCE_RE.match(resolve(c, field, default)), (c["name"], field)
