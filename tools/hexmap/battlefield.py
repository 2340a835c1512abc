"""A battlefield map drawn from real geography on a :class:`~tools.hexmap.grid.PlaneGrid` (Red Sun/Red
Star's Nomonhan map, tools/rs_map): the banks of a major river (the Halha), the bluff over its left bank, a
minor river that becomes a stream upstream (the Holsten), a border-claim line, heights and dune fields in a
kilometre plane, projected by a similarity fitted to the hexes the rules name (fit.py).

Banks, the two sides of the minor river and the two sides of the claim are decided per hex (by which side
of the projected line its centre falls); the river, stream and border hexsides are then exactly the sides
between hexes on different sides, so every such line is an unbroken chain of hexsides. A hex's
classification can be nudged (the geography file's ``NUDGES``) and the hexsides follow. The geography file
(``geo``) also lists the set-ups, bridges, rule places and entry hexes the drawing must honour.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from tools.hexmap.fit import Projection, fit_similarity
from tools.hexmap.geometry import Point, dist_to_polyline, ellipse, point_in_polygon
from tools.hexmap.grid import PlaneGrid, route, side_id

MARSH_DISTANCE = 0.8  # grid units: east-bank hexes this close to the Halha are flood-plain swamp (2.7)
MEADOW_DISTANCE = 0.45  # grid units: the Holsten's narrow grassy valley
FAR = 500.0


@dataclass
class MapModel:
    grid: PlaneGrid
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


class Builder:
    def __init__(self, geo: ModuleType, grid: PlaneGrid | None = None) -> None:
        self.geo = geo
        self.grid = grid = grid or self.geo.GRID
        self.proj = fit_similarity(grid, self.geo.LANDMARKS, self.geo.ANCHORS)
        self.m = MapModel(grid, self.proj)

    def p(self, pts: Sequence[tuple[float, float]]) -> list[Point]:
        return [self.proj(q) for q in pts]

    # -- classification ----------------------------------------------------------------------------

    def classify(self) -> None:
        g, m = self.grid, self.m
        halha = self.p(self.geo.HALHA)
        bluff = self.p(self.geo.WEST_BLUFF)
        holsten = self.p(self.geo.HOLSTEN)
        claim = self.p(self.geo.CLAIM_LINE)
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
        for name, centre, rx, ry in self.geo.HEIGHTS:
            poly = self.p(ellipse(centre, rx, ry))
            m.areas[f"height:{name}"] = poly
            m.heights[name] = [h for h in g.hexes() if point_in_polygon(g.centre(h), poly)]
        for name, pts in self.geo.DUNES:
            m.areas[f"dunes:{name}"] = self.p(pts)
        for kind, h, value, reason in self.geo.NUDGES:
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
        dunes = [self.p(pts) for _, pts in self.geo.DUNES]
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
        for kind, h, value, reason in self.geo.NUDGES:
            if kind == "terrain":
                m.terrain[h] = value
                m.notes.append(f"nudge: {h} terrain {value}: {reason}")

    # -- hexsides ----------------------------------------------------------------------------------

    def sides(self) -> None:
        g, m = self.grid, self.m
        stream_x = self.proj((self.geo.HOLSTEN_STREAM_FROM_X, 0.0))[0]
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
        for br in self.geo.BRIDGES:
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
            return self.proj(self.geo.LANDMARKS[w])
        return self.proj(w)

    def road_hexes(self) -> None:
        g, m = self.grid, self.m
        bridges = {br.side for br in self.geo.BRIDGES}
        halha_sides = {s["side"] for s in m.hexsides if s["feature"] == "halha"}
        holsten_sides = {s["side"] for s in m.hexsides if s["feature"] == "minor-river"}
        blocked = (halha_sides | holsten_sides) - bridges
        for name, points in self.geo.ROADS:
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
        fixed = {p.name for p in self.geo.RULE_PLACES}
        for p in self.geo.RULE_PLACES:
            item: dict[str, Any] = {"hex": p.hex, "name": p.name}
            if p.victory_points:
                item["victory"] = [self.geo.JULY]
                item["victory_points"] = p.victory_points
            if p.depot:
                item["depot"] = True
                item["scenarios"] = [self.geo.AUGUST]
            item["provenance"] = p.provenance
            if p.name_provenance:
                item["name_provenance"] = p.name_provenance
            m.places.append(item)
        for name, where in self.geo.LANDMARKS.items():
            if name in fixed or name in self.geo.CROSSINGS:
                continue
            h = g.nearest(self.proj(where))
            if h is not None and not any(x["hex"] == h for x in m.places):
                m.places.append({"hex": h, "name": name})
        for h in self.geo.SOVIET_ENTRY:
            m.places.append({"hex": h, "name": "Soviet entry hex",
                             "entry": {"side": "soviet", "scenarios": list(self.geo.ALL_SCENARIOS)},
                             "provenance": self.geo.ENTRY_PROVENANCE})
        m.places.sort(key=lambda x: (x["hex"], x["name"]))
        m.disputed = sorted(h for h in g.hexes() if m.bank[h] == "right" and h not in m.outside_claim)
        m.west_of_halha = sorted(h for h in g.hexes() if m.bank[h] == "left")

    # -- what the rules require --------------------------------------------------------------------

    def check(self) -> None:
        g, m = self.grid, self.m
        for st in self.geo.SETUPS:
            for h in st.hexes:
                if not g.on_map(h):
                    m.failures.append(f"NAMED HEX {h} ({st.scenario} {st.label}) is off the map")
                elif m.bank[h] != st.bank:
                    m.failures.append(f"NAMED HEX {h} ({st.scenario} {st.label}) should be on the {st.bank} bank")
        for p in self.geo.RULE_PLACES:
            if m.bank[p.hex] != p.bank:
                m.failures.append(f"NAMED HEX {p.hex} ({p.name}) should be on the {p.bank} bank")
        for h, what in self.geo.OUTSIDE_CLAIM:
            if h not in m.outside_claim:
                m.failures.append(f"NAMED HEX {h}: {what} should lie outside the Disputed Area")
        for h in self.geo.SOVIET_ENTRY:
            if m.bank[h] != "right":
                m.failures.append(f"NAMED HEX {h}: a Soviet entry hex should be north of the Halha")
        for side, why in self.geo.HALHA_SIDES:
            if not [s for s in m.hexsides if s["side"] == side and s["feature"] == "halha"]:
                m.failures.append(f"NAMED HEX {why}")

    def build(self) -> MapModel:
        self.classify()
        self.paint()
        self.sides()
        self.road_hexes()
        self.place_list()
        self.check()
        return self.m


def build(geo: ModuleType) -> MapModel:
    """The battlefield map of a geography file, on its ``GRID``."""
    return Builder(geo).build()
