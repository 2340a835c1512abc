"""Project the geography onto the hex grid: terrain, hexsides, roads, places, areas.

Banks, the two sides of the Holsten and the two sides of the border claim are decided per hex (by which
side of the projected line its centre falls); the river, stream and border hexsides are then exactly the
sides between hexes on different sides, so every such line is an unbroken chain of hexsides. A hex's
classification can be nudged (named.NUDGES) and the hexsides follow.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tools.hexmap.geometry import Point, dist_to_polyline, point_in_polygon
from tools.rs_map import geography as geo
from tools.rs_map import named
from tools.rs_map.fit import Projection, fit
from tools.rs_map.grid import MapGrid, route, side_id

MARSH_DISTANCE = 0.8  # grid units: east-bank hexes this close to the Halha are flood-plain swamp (2.7)
MEADOW_DISTANCE = 0.45  # grid units: the Holsten's narrow grassy valley
FAR = 500.0


@dataclass
class MapModel:
    grid: MapGrid
    projection: Projection
    terrain: dict[str, str] = field(default_factory=dict)
    bank: dict[str, str] = field(default_factory=dict)
    plateau: set[str] = field(default_factory=set)
    holsten_south: set[str] = field(default_factory=set)
    outside_claim: set[str] = field(default_factory=set)
    heights: dict[str, list[str]] = field(default_factory=dict)
    hexsides: list[dict[str, Any]] = field(default_factory=list)
    roads: dict[str, list[str]] = field(default_factory=dict)
    places: list[dict[str, Any]] = field(default_factory=list)
    disputed: list[str] = field(default_factory=list)
    west_of_halha: list[str] = field(default_factory=list)
    lines: dict[str, list[Point]] = field(default_factory=dict)  # projected geography for the preview
    areas: dict[str, list[Point]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def features(self, side: str) -> list[dict[str, Any]]:
        return [s for s in self.hexsides if s["side"] == side]


def ellipse(centre: tuple[float, float], rx: float, ry: float, n: int = 24) -> list[tuple[float, float]]:
    return [(centre[0] + rx * math.cos(2 * math.pi * i / n), centre[1] + ry * math.sin(2 * math.pi * i / n))
            for i in range(n)]


class Builder:
    def __init__(self, grid: MapGrid) -> None:
        self.grid = grid
        self.proj = fit(grid)
        self.m = MapModel(grid, self.proj)

    def p(self, pts: Sequence[tuple[float, float]]) -> list[Point]:
        return [self.proj(q) for q in pts]

    # -- classification ----------------------------------------------------------------------------

    def classify(self) -> None:
        g, m = self.grid, self.m
        halha = self.p(geo.HALHA)
        bluff = self.p(geo.WEST_BLUFF)
        holsten = self.p(geo.HOLSTEN)
        claim = self.p(geo.CLAIM_LINE)
        m.lines.update(halha=halha, bluff=bluff, holsten=holsten, claim=claim)
        left_poly = halha + [(-FAR, FAR)]
        plateau_poly = bluff + [(-FAR, FAR)]
        south_poly = holsten + [(FAR, FAR), (holsten[0][0], FAR)]
        east_poly = claim + [(FAR, claim[-1][1]), (FAR, claim[0][1])]
        for h in g.hexes():
            c = g.centre(h)
            m.bank[h] = "left" if point_in_polygon(c, left_poly) else "right"
            if m.bank[h] == "left" and point_in_polygon(c, plateau_poly):
                m.plateau.add(h)
            if m.bank[h] == "right" and point_in_polygon(c, south_poly):
                m.holsten_south.add(h)
            if m.bank[h] == "right" and point_in_polygon(c, east_poly):
                m.outside_claim.add(h)
        for name, centre, rx, ry in geo.HEIGHTS:
            poly = self.p(ellipse(centre, rx, ry))
            m.areas[f"height:{name}"] = poly
            m.heights[name] = [h for h in g.hexes() if point_in_polygon(g.centre(h), poly)]
        for name, pts in geo.DUNES:
            m.areas[f"dunes:{name}"] = self.p(pts)
        for kind, h, value, reason in named.NUDGES:
            if kind == "bank":
                m.bank[h] = value
                if value == "right":
                    m.plateau.discard(h)
            elif kind == "plateau":
                (m.plateau.add if value == "yes" else m.plateau.discard)(h)
            elif kind == "holsten":
                (m.holsten_south.add if value == "south" else m.holsten_south.discard)(h)
            elif kind == "claim":
                (m.outside_claim.add if value == "outside" else m.outside_claim.discard)(h)
            elif kind == "height":
                name, _, what = value.partition(":")
                if what == "add" and h not in m.heights[name]:
                    m.heights[name] = sorted(m.heights[name] + [h])
                elif what == "remove":
                    m.heights[name] = [x for x in m.heights[name] if x != h]
            if kind != "terrain":
                m.notes.append(f"nudge: {h} {kind} {value}: {reason}")
        # a hex off the right bank cannot be south of the Holsten or outside the claim
        m.holsten_south &= {h for h, b in m.bank.items() if b == "right"}
        m.outside_claim &= {h for h, b in m.bank.items() if b == "right"}

    # -- terrain -----------------------------------------------------------------------------------

    def paint(self) -> None:
        g, m = self.grid, self.m
        halha, holsten = m.lines["halha"], m.lines["holsten"]
        in_height = {h for hexes in m.heights.values() for h in hexes}
        dunes = [self.p(pts) for _, pts in geo.DUNES]
        for h in g.hexes():
            c = g.centre(h)
            if m.bank[h] == "left":
                m.terrain[h] = "clear" if h in m.plateau else "marsh"
            elif h not in in_height and dist_to_polyline(c, halha) <= MARSH_DISTANCE:
                m.terrain[h] = "marsh"
            elif any(point_in_polygon(c, poly) for poly in dunes):
                m.terrain[h] = "dunes"
            elif dist_to_polyline(c, holsten) <= MEADOW_DISTANCE:
                m.terrain[h] = "clear"
            else:
                m.terrain[h] = "desert"
        for kind, h, value, reason in named.NUDGES:
            if kind == "terrain":
                m.terrain[h] = value
                m.notes.append(f"nudge: {h} terrain {value}: {reason}")

    # -- hexsides ----------------------------------------------------------------------------------

    def sides(self) -> None:
        g, m = self.grid, self.m
        stream_x = self.proj((geo.HOLSTEN_STREAM_FROM_X, 0.0))[0]
        height_of = {h: name for name, hexes in m.heights.items() for h in hexes}
        out: dict[tuple[str, str], dict[str, Any]] = {}

        def add(a: str, b: str, feature: str, **extra: Any) -> None:
            key = (side_id(a, b), feature)
            if key not in out:
                out[key] = {"side": key[0], "feature": feature, **extra}

        pairs = sorted({side_id(a, b) for a in g.hexes() for b in g.neighbours(a)})
        for s in pairs:
            a, b = s.split("-")
            if m.bank[a] != m.bank[b]:
                add(a, b, "halha")
                high = a if a in m.plateau else b if b in m.plateau else None
                if high:
                    add(a, b, "slope", up=high)
            elif m.bank[a] == "left":
                if (a in m.plateau) != (b in m.plateau):
                    add(a, b, "slope", up=a if a in m.plateau else b)
            else:
                if (a in m.holsten_south) != (b in m.holsten_south):
                    add(a, b, "minor-river" if g.side_mid(a, b)[0] < stream_x else "stream")
                if (a in m.outside_claim) != (b in m.outside_claim):
                    add(a, b, "border-claim")
            ha, hb = height_of.get(a), height_of.get(b)
            if ha != hb and (s, "slope") not in out:
                if ha and not hb:
                    add(a, b, "slope", up=a)
                elif hb and not ha:
                    add(a, b, "slope", up=b)
        for br in named.BRIDGES:
            a, b = br.side.split("-")
            if (br.side, br.river) not in out:
                m.failures.append(f"NAMED HEXSIDE {br.side}: the {br.name} needs a {br.river} hexside there")
            item: dict[str, Any] = {"side": br.side, "feature": "bridge", "river": br.river, "name": br.name,
                                    "scenarios": list(br.scenarios)}
            if br.from_turn:
                item["from_turn"] = dict(br.from_turn)
            if not br.armor_may_use:
                item["armor_may_use"] = False
            item["provenance"] = br.provenance
            out[(br.side, "bridge")] = item
        m.hexsides = [out[k] for k in sorted(out)]

    # -- roads -------------------------------------------------------------------------------------

    def waypoint(self, w: str | tuple[float, float]) -> Point:
        if isinstance(w, str):
            if w.startswith("hex:"):
                return self.grid.centre(w[4:])
            return self.proj(geo.LANDMARKS[w])
        return self.proj(w)

    def road_hexes(self) -> None:
        g, m = self.grid, self.m
        bridges = {br.side for br in named.BRIDGES}
        halha_sides = {s["side"] for s in m.hexsides if s["feature"] == "halha"}
        holsten_sides = {s["side"] for s in m.hexsides if s["feature"] == "minor-river"}
        blocked = (halha_sides | holsten_sides) - bridges
        for name, points in geo.ROADS:
            pts = [self.waypoint(w) for w in points]
            stops = [w[4:] if isinstance(w, str) and w.startswith("hex:") else g.nearest_on_map(pt)
                     for w, pt in zip(points, pts, strict=True)]
            path: list[str] = []
            for (a, sa), (b, sb) in zip(zip(pts, stops, strict=True), list(zip(pts, stops, strict=True))[1:],
                                        strict=False):
                if sa is None or sb is None or sa == sb:
                    continue
                leg = route(g, sa, sb, a, b, blocked)
                if leg is None:
                    m.failures.append(f"ROAD {name}: no way from {sa} to {sb} without fording a river")
                    continue
                path.extend(leg if not path else leg[1:])
            # drop back-and-forth wiggles (a hex visited twice) so the road is a simple path
            simple: list[str] = []
            for h in path:
                if h in simple:
                    del simple[simple.index(h) + 1:]
                else:
                    simple.append(h)
            m.roads[name] = simple
            m.lines[f"road:{name}"] = pts
            for h1, h2 in zip(simple, simple[1:], strict=False):
                s = side_id(h1, h2)
                if s in halha_sides and s not in bridges:
                    m.failures.append(f"ROAD {name} crosses the Halha at {s} with no bridge")
                if s in holsten_sides and s not in bridges:
                    m.notes.append(f"road {name} fords the Holsten at {s}")

    # -- places and areas --------------------------------------------------------------------------

    def place_list(self) -> None:
        g, m = self.grid, self.m
        fixed = {p.name for p in named.RULE_PLACES}
        for p in named.RULE_PLACES:
            item: dict[str, Any] = {"hex": p.hex, "name": p.name}
            if p.victory_points:
                item["victory"] = [named.JULY]
                item["victory_points"] = p.victory_points
            if p.depot:
                item["depot"] = True
                item["scenarios"] = [named.AUGUST]
            item["provenance"] = p.provenance
            if p.name_provenance:
                item["name_provenance"] = p.name_provenance
            m.places.append(item)
        for name, where in geo.LANDMARKS.items():
            if name in fixed or name.endswith("bridge") or name.endswith("Bridge") or name == "north crossing":
                continue
            h = g.nearest(self.proj(where))
            if h is not None and not any(x["hex"] == h for x in m.places):
                m.places.append({"hex": h, "name": name})
        for h in named.SOVIET_ENTRY:
            m.places.append({"hex": h, "name": "Soviet entry hex",
                             "entry": {"side": "soviet", "scenarios": list(named.ALL_SCENARIOS)},
                             "provenance": named.ENTRY_PROVENANCE})
        m.places.sort(key=lambda x: (x["hex"], x["name"]))
        m.disputed = sorted(h for h in g.hexes() if m.bank[h] == "right" and h not in m.outside_claim)
        m.west_of_halha = sorted(h for h in g.hexes() if m.bank[h] == "left")

    # -- what the rules require --------------------------------------------------------------------

    def check(self) -> None:
        g, m = self.grid, self.m
        for st in named.SETUPS:
            for h in st.hexes:
                if not g.on_map(h):
                    m.failures.append(f"NAMED HEX {h} ({st.scenario} {st.label}) is off the map")
                elif m.bank[h] != st.bank:
                    m.failures.append(f"NAMED HEX {h} ({st.scenario} {st.label}) should be on the {st.bank} bank")
        for p in named.RULE_PLACES:
            if m.bank[p.hex] != p.bank:
                m.failures.append(f"NAMED HEX {p.hex} ({p.name}) should be on the {p.bank} bank")
        if "3823" not in m.outside_claim:
            m.failures.append("NAMED HEX 3823: the Uzuru depots should lie outside the Disputed Area")
        for h in named.SOVIET_ENTRY:
            if m.bank[h] != "right":
                m.failures.append(f"NAMED HEX {h}: a Soviet entry hex should be north of the Halha")
        kawamata = [s for s in m.hexsides if s["side"] == "2435-2535" and s["feature"] == "halha"]
        if not kawamata:
            m.failures.append("NAMED HEX 2535 should be at the east end of a Halha bridge")

    def build(self) -> MapModel:
        self.classify()
        self.paint()
        self.sides()
        self.road_hexes()
        self.place_list()
        self.check()
        return self.m
