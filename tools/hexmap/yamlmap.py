"""The map YAML files the generators write (docs/data-format.md), and the summary each prints.

Hand-written through yamlout.py so that the layout is stable and readable and regenerating gives the same
bytes. What each file says about its own provenance (ids, header, provenance strings) comes from the
ruleset's geography file (``geo``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from types import ModuleType

from tools.hexmap import yamlout
from tools.hexmap.battlefield import MapModel as BattlefieldModel
from tools.hexmap.grid import hex_id, side_of
from tools.hexmap.theatre import MapModel as TheatreModel

q, plain, value = yamlout.q, yamlout.plain, yamlout.value


def _head(header: Iterable[str], comments: Iterable[str], width: int, map_id: str) -> list[str]:
    """The header comment, one comment block per generator note, and the map id."""
    out = list(header)
    for text in comments:
        out.extend(yamlout.comment(text, width))
    out.append(f"id: {map_id}")
    return out


def _terrain(hexes: Iterable[str], terrain: dict[str, str]) -> list[str]:
    return ["terrain:"] + [f"  {q(h)}: {terrain[h]}" for h in hexes]


def _named_hex_lists(key: str, items: Iterable[tuple[str, str | None, Sequence[str]]], width: int) -> list[str]:
    """``key:`` and one item per (first field, provenance or None, hexes): a named list of hexes."""
    out = []
    for name, provenance, hexes in items:
        out.append(f"  - {name}")
        if provenance is not None:
            out.append(f"    provenance: {q(provenance)}")
        out.append(f"    hexes: {yamlout.hex_list(list(hexes), 11, width)}")
    return [f"{key}:"] + out


# ---------------------------------------------------------------------------------------------------------
# a theatre map (Red Sun Rising)
# ---------------------------------------------------------------------------------------------------------

THEATRE_LIST_WIDTH = 100
THEATRE_COMMENT_WIDTH = 108


def theatre_yaml(m: TheatreModel, geo: ModuleType) -> str:
    g = m.grid
    width = THEATRE_LIST_WIDTH
    out = _head(geo.HEADER, ["generator note: " + n for n in m.notes], THEATRE_COMMENT_WIDTH, geo.MAP_ID)
    out.append(
        f"grid: {{line_axis: north, shifted_lines: {g.shifted_lines}, lines: [{g.lines[0]}, {g.lines[1]}], "
        f"positions: [{g.positions[0]}, {g.positions[1]}], provenance: {q(geo.GRID_PROVENANCE)}}}"
    )
    out.append(f"default_provenance: {q(geo.DEFAULT_PROVENANCE)}")
    out += _terrain([hex_id(h) for h in g.hexes()], {hex_id(h): t for h, t in m.terrain.items()})
    out.append("hexsides:")
    sides: list[tuple[str, str]] = []
    for (a, b), name in m.rivers.items():
        sides.append((side_of(a, b), f"{{side: {q(side_of(a, b))}, feature: river, name: {plain(name)}}}"))
    for a, b in m.impassable:
        sides.append((side_of(a, b), f"{{side: {q(side_of(a, b))}, feature: impassable, "
                                     f"provenance: {q(geo.IMPASSABLE_PROVENANCE)}}}"))
    out += [f"  - {text}" for _, text in sorted(sides)]
    out += _named_hex_lists("rail", ((f"line: {plain(name)}", geo.RAIL_PROVENANCE[name], [hex_id(h) for h in hexes])
                                     for name, hexes in m.rail.items()), width)
    out += _named_hex_lists("roads", ((f"name: {q(name)}", None, [hex_id(h) for h in hexes])
                                      for name, hexes in m.roads.items()), width)
    out.append("places:")
    for p in m.places:
        fields = [f"hex: {q(str(p['hex']))}", f"name: {q(str(p['name']))}"]
        for key in ("city", "port", "fortress"):
            if p.get(key):
                fields.append(f"{key}: true")
        if p.get("railhead"):
            fields.append(f"railhead: {p['railhead']}")
        if p.get("provenance"):
            fields.append(f"provenance: {q(str(p['provenance']))}")
        out.append("  - {" + ", ".join(fields) + "}")
    out += _named_hex_lists("code_areas", ((f"area: {area}", geo.CODE_PROVENANCE.get(area, geo.OTHER_CODE_PROVENANCE),
                                            [hex_id(h) for h in m.code_areas[area]]) for area in sorted(m.code_areas)),
                            width)
    return "\n".join(out) + "\n"


def theatre_summary(m: TheatreModel) -> str:
    counts = {t: sum(1 for v in m.terrain.values() if v == t) for t in ("clear", "rough", "mountain", "sea")}
    land = counts["clear"] + counts["rough"] + counts["mountain"]
    g = m.grid
    return (
        f"grid lines {g.lines[0]}-{g.lines[1]} x positions {g.positions[0]}-{g.positions[1]} "
        f"({len(m.terrain)} hexes), shifted_lines={g.shifted_lines}\n"
        f"land {land} (clear {counts['clear']}, rough {counts['rough']}, mountain {counts['mountain']}), "
        f"sea {counts['sea']}\n"
        f"river hexsides {len(m.rivers)}, impassable hexsides {len(m.impassable)}, "
        f"rail hexes {len({h for v in m.rail.values() for h in v})}, roads {len(m.roads)}, places {len(m.places)} "
        f"(cities {sum(1 for p in m.places if p.get('city'))}, ports {sum(1 for p in m.places if p.get('port'))})"
    )


# ---------------------------------------------------------------------------------------------------------
# a battlefield map (Red Sun/Red Star)
# ---------------------------------------------------------------------------------------------------------

BATTLEFIELD_WIDTH = 110


def battlefield_yaml(m: BattlefieldModel, geo: ModuleType) -> str:
    g = m.grid
    proj = m.projection
    width = BATTLEFIELD_WIDTH
    fit_line = (f"fit: {proj.km_per_hex:.3f} km per hex (rulebook 2.9: 3/4 mile = {geo.KM_PER_HEX:.3f}), "
                f"rotation {proj.rotation_deg:+.1f} degrees")
    out = _head(geo.HEADER, [fit_line] + ["generator note: " + n for n in m.notes], width, geo.MAP_ID)
    out.append(f"ruleset: {geo.RULESET}")
    out.append(f"grid: {{line_axis: east, position_axis: south, shifted_lines: {g.shifted_lines}, "
               f"lines: [{g.lines[0]}, {g.lines[1]}], positions: [{g.positions[0]}, {g.positions[1]}],")
    out.append(f"       provenance: {q(geo.GRID_PROVENANCE)}}}")
    out.append(f"default_provenance: {q(geo.DEFAULT_PROVENANCE)}")
    out.append("scenarios:")
    out += [f"  {q(k)}: {q(v)}" for k, v in geo.SCENARIO_TITLES.items()]
    out.append("terrain_types:")
    out += [f"  {k}: {{provenance: {q(v)}}}" for k, v in geo.TERRAIN_TYPES.items()]
    out.append("hexside_features:")
    out += [f"  {k}: {{provenance: {q(v)}}}" for k, v in geo.FEATURES.items()]
    out += _terrain(g.hexes(), m.terrain)
    out.append("hexsides:")
    out += ["  - {" + ", ".join(f"{k}: {value(v)}" for k, v in s.items()) + "}" for s in m.hexsides]
    out += _named_hex_lists("roads", ((f"name: {q(name)}", None, hexes) for name, hexes in m.roads.items()), width)
    out.append("places:")
    out += ["  - {" + ", ".join(f"{k}: {value(v)}" for k, v in p.items()) + "}" for p in m.places]
    out.append("supply_edges:")
    edges = {"west": [h for h in g.hexes() if h.startswith(f"{g.lines[0]:02d}")],
             "east": [h for h in g.hexes() if h.startswith(f"{g.lines[1]:02d}")],
             "north": [h for h in g.hexes() if int(h[2:]) == g.positions[0]]}
    for side, edge, condition, provenance in geo.SUPPLY_EDGES:
        out.append(f"  - side: {side}")
        out.append(f"    edge: {edge}")
        if condition:
            out.append(f"    condition: {condition}")
        out.append(f"    provenance: {q(provenance)}")
        out.append(f"    hexes: {yamlout.hex_list(edges[edge], 11, width)}")
    out.append("areas:")
    for key, provenance, hexes in (("disputed_area", geo.DISPUTED_PROVENANCE, m.disputed),
                                   ("west_of_halha", geo.WEST_OF_HALHA_PROVENANCE, m.west_of_halha)):
        out.append(f"  {key}:")
        out.append(f"    provenance: {q(provenance)}")
        out.append(f"    hexes: {yamlout.hex_list(hexes, 11, width)}")
    return "\n".join(out) + "\n"


def battlefield_summary(m: BattlefieldModel) -> str:
    counts: dict[str, int] = {}
    for t in m.terrain.values():
        counts[t] = counts.get(t, 0) + 1
    feats: dict[str, int] = {}
    for s in m.hexsides:
        feats[s["feature"]] = feats.get(s["feature"], 0) + 1
    g = m.grid
    return (f"grid lines {g.lines[0]}-{g.lines[1]} x positions {g.positions[0]}-{g.positions[1]} "
            f"({len(m.terrain)} hexes), shifted_lines={g.shifted_lines}\n"
            f"terrain {dict(sorted(counts.items()))}\nhexsides {dict(sorted(feats.items()))}\n"
            f"roads {len(m.roads)}, places {len(m.places)}, disputed area {len(m.disputed)} hexes, "
            f"west of the Halha {len(m.west_of_halha)} hexes")
