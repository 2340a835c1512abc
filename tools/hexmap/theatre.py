"""A theatre map drawn from real geography on a :class:`~tools.hexmap.grid.GeoGrid` (Red Sun Rising's land
map, tools/rsr_map): land and sea from coast polygons, clear/rough/mountain from relief areas, river
hexsides where a river crosses the line between two hex centres, impassable hexsides across straits, rail
and roads routed over land through their waypoints, towns, and the coast split into naval code areas.

The ruleset's geography file gives the data (``geo``): the polygons, rivers, towns and lines; the places
and facts the rules pin to hexes (``PINNED``, ``FACTS``); the local displacements that make the geography
agree with them (``CONTROLS``); hand-set terrain and town hexes with their reasons; how the coast is split
(``CODE_AREAS``).
"""

from __future__ import annotations

import heapq
import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from types import ModuleType

from tools.hexmap.fit import Warp
from tools.hexmap.geometry import LatLon, Polygon, densify, segments_cross
from tools.hexmap.grid import ROW, GeoGrid, Hex, hex_id, parse_hex, side_of

Waypoint = str | LatLon  # a place name, a point, or "@" and a hex number or alias

# Adjacent land hexes whose centre-to-centre line is at least this much sea get an impassable hexside.
STRAIT_SEA_FRACTION = 0.5


@dataclass(frozen=True)
class CoastSplit:
    """How the coast is cut into code areas: ``first`` is (area, from hex, to hex), the stretch between two
    coastal hexes; ``rest`` is (area, place, area): the rest of that stretch, cut at the coast hex nearest
    the place; ``other`` is (start place, area, place, area): the stretch of coast through the start
    place's hex, cut likewise. A hex on two stretches stays in the area named first."""

    first: tuple[str, str, str]
    rest: tuple[str, str, str]
    other: tuple[str, str, str, str]

    def order(self) -> list[str]:
        return [self.first[0], self.rest[0], self.rest[2], self.other[1], self.other[3]]


# ---------------------------------------------------------------------------------------------------
# the drawn map
# ---------------------------------------------------------------------------------------------------


@dataclass
class MapModel:
    grid: GeoGrid
    terrain: dict[Hex, str] = field(default_factory=dict)
    rivers: dict[tuple[Hex, Hex], str] = field(default_factory=dict)
    impassable: set[tuple[Hex, Hex]] = field(default_factory=set)
    rail: dict[str, list[Hex]] = field(default_factory=dict)
    roads: dict[str, list[Hex]] = field(default_factory=dict)
    places: list[dict[str, object]] = field(default_factory=list)
    code_areas: dict[str, list[Hex]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    # warped geography, kept for the preview
    river_lines: dict[str, list[LatLon]] = field(default_factory=dict)
    coast_lines: list[list[LatLon]] = field(default_factory=list)

    @property
    def failures(self) -> list[str]:
        """The notes that stop the generator: a named hex the drawing does not honour, no code areas."""
        return [n for n in self.notes if n.startswith(("NAMED HEX", "CODE AREAS"))]

    def is_land(self, h: Hex) -> bool:
        return self.terrain.get(h, "sea") != "sea"

    def coastal(self, h: Hex) -> bool:
        return self.is_land(h) and any(
            self.grid.on_map(n) and self.terrain[n] == "sea" for n in self.grid.neighbours(h)
        )


class Builder:
    def __init__(self, geo: ModuleType, grid: GeoGrid | None = None, use_warp: bool = True) -> None:
        self.geo = geo
        self.grid = grid = grid or self.geo.GRID
        self.warp = Warp(grid, self.geo.CONTROLS if use_warp else [])
        self.land = [Polygon([self.warp(p) for p in densify(poly)]) for poly in self.geo.LAND]
        self.mountain = [Polygon([self.warp(p) for p in densify(poly)]) for poly in self.geo.MOUNTAIN.values()]
        self.clear = [Polygon([self.warp(p) for p in densify(poly)]) for poly in self.geo.CLEAR.values()]
        self.model = MapModel(grid)

    # -- point classification ------------------------------------------------------------------------
    def is_land_point(self, p: LatLon) -> bool:
        return any(poly.contains(*p) for poly in self.land)

    def relief(self, p: LatLon) -> str:
        if any(poly.contains(*p) for poly in self.mountain):
            return "mountain"
        if any(poly.contains(*p) for poly in self.clear):
            return "clear"
        return "rough"

    # -- steps -----------------------------------------------------------------------------------------
    def build(self) -> MapModel:
        self._terrain()
        self._impassable()
        self._rivers()
        self._lines()
        self._places()
        self._code_areas()
        self._check_facts()
        self.model.coast_lines = [[self.warp(p) for p in poly] for poly in self.geo.LAND]
        return self.model

    def _terrain(self) -> None:
        m = self.model
        for h in self.grid.hexes():
            samples = self.grid.sample_points(h)
            land = [self.is_land_point(p) for p in samples]
            n_land = sum(land)
            is_land = n_land * 2 > len(samples) or (n_land * 2 == len(samples) and land[0])
            if not is_land:
                m.terrain[h] = "sea"
                continue
            kinds = [self.relief(p) for p, on_land in zip(samples, land, strict=True) if on_land]
            n = len(kinds)
            mountain = kinds.count("mountain")
            rough_or_worse = mountain + kinds.count("rough")
            centre = self.relief(samples[0]) if land[0] else kinds[0]
            if mountain * 2 > n:
                m.terrain[h] = "mountain"
            elif rough_or_worse * 2 > n:
                m.terrain[h] = "rough"
            elif rough_or_worse * 2 == n:
                m.terrain[h] = "clear" if centre == "clear" else "rough"
            else:
                m.terrain[h] = "clear"
        for hid, (terrain, why) in sorted(self.geo.TERRAIN_OVERRIDES.items()):
            h = parse_hex(hid)
            if terrain == "land":
                terrain = self.relief(self.grid.centre_latlon(h))
            m.terrain[h] = terrain
            m.notes.append(f"terrain of {hid} set to {terrain}: {why}")

    def _pairs(self) -> list[tuple[Hex, Hex]]:
        """Each pair of adjacent on-map hexes once, in hex-number order."""
        out = []
        for h in self.grid.hexes():
            for n in self.grid.neighbours(h):
                if self.grid.on_map(n) and hex_id(h) < hex_id(n):
                    out.append((h, n))
        return out

    def _segment_points(self, a: Hex, b: Hex, k: int = 12) -> list[LatLon]:
        (ax, ar), (bx, br) = self.grid.centre_grid(a), self.grid.centre_grid(b)
        return [self.grid.grid_to_latlon(ax + (bx - ax) * i / k, ar + (br - ar) * i / k) for i in range(k + 1)]

    def _impassable(self) -> None:
        m = self.model
        forced = {parse_hex(k) for k, v in self.geo.TERRAIN_OVERRIDES.items() if v[0] != "sea"}
        for a, b in self._pairs():
            if not (m.is_land(a) and m.is_land(b)):
                continue
            pts = self._segment_points(a, b)
            sea = sum(not (self.is_land_point(p) or self.grid.hex_at(*p) in forced) for p in pts)
            if sea >= STRAIT_SEA_FRACTION * len(pts):
                m.impassable.add((a, b))

    def _rivers(self) -> None:
        m = self.model
        lines: list[tuple[str, list[LatLon]]] = []
        for name, pts in self.geo.RIVERS.items():
            warped = [self.warp(p) for p in densify(pts, closed=False)]
            m.river_lines[name] = warped
            lines.append((name, warped))
        for a, b in self._pairs():
            if not (m.is_land(a) and m.is_land(b)) or (a, b) in m.impassable:
                continue
            ca, cb = self.grid.centre_latlon(a), self.grid.centre_latlon(b)
            lo_lat, hi_lat = min(ca[0], cb[0]), max(ca[0], cb[0])
            lo_lon, hi_lon = min(ca[1], cb[1]), max(ca[1], cb[1])
            for name, pts in lines:
                hit = False
                for p, q in zip(pts, pts[1:], strict=False):
                    if max(p[0], q[0]) < lo_lat or min(p[0], q[0]) > hi_lat:
                        continue
                    if max(p[1], q[1]) < lo_lon or min(p[1], q[1]) > hi_lon:
                        continue
                    if segments_cross(ca, cb, p, q):
                        hit = True
                        break
                if hit:
                    m.rivers[(a, b)] = name
                    break

    # -- rail and roads --------------------------------------------------------------------------------
    def land_hex(self, p: LatLon) -> Hex:
        """The hex of a (warped) point; a coastal point that falls in a sea hex goes to the nearest
        adjacent land hex."""
        m = self.model
        h = self.grid.hex_at(*p)
        if self.grid.on_map(h) and not m.is_land(h):
            shore = [n for n in self.grid.neighbours(h) if self.grid.on_map(n) and m.is_land(n)]
            if shore:
                h = min(shore, key=lambda n: (self.grid.grid_distance(n, *p), hex_id(n)))
        return h

    def place_hex(self, name: str) -> Hex:
        if name in self.geo.PINNED:
            return parse_hex(self.geo.PINNED[name].hex)
        if name in self.geo.PLACE_OVERRIDES:
            return parse_hex(self.geo.PLACE_OVERRIDES[name][0])
        return self.land_hex(self.warp(self.geo.PLACES[name]))

    def waypoint_hex(self, w: Waypoint) -> Hex:
        if isinstance(w, tuple):
            return self.land_hex(self.warp(w))
        if w.startswith("@"):
            key = w[1:]
            return parse_hex(self.geo.ALIASES.get(key, key))
        return self.place_hex(w)

    def path(self, waypoints: Sequence[Waypoint]) -> list[Hex]:
        """Contiguous land hexes through every waypoint, hugging the straight line between them."""
        hexes = [self.waypoint_hex(w) for w in waypoints]
        out: list[Hex] = [hexes[0]]
        for a, b in zip(hexes, hexes[1:], strict=False):
            for h in self.route(a, b)[1:]:
                if h in out:  # a waypoint doubled back: cut the loop
                    out = out[: out.index(h) + 1]
                else:
                    out.append(h)
        return out

    def route(self, a: Hex, b: Hex) -> list[Hex]:
        """Cheapest run of adjacent land hexes from a to b that crosses no impassable hexside; each hex
        costs one plus a penalty for straying from the straight line a-b. Falls back to the straight hex
        line when no land route exists."""
        m = self.model
        if a == b:
            return [a]
        ax, ar = self.grid.centre_grid(a)
        bx, br = self.grid.centre_grid(b)
        vx, vy = bx - ax, (br - ar) * ROW
        vlen2 = vx * vx + vy * vy

        def stray(h: Hex) -> float:
            hx, hr = self.grid.centre_grid(h)
            px, py = hx - ax, (hr - ar) * ROW
            t = max(0.0, min(1.0, (px * vx + py * vy) / vlen2))
            return math.hypot(px - t * vx, py - t * vy)

        best: dict[Hex, float] = {a: 0.0}
        prev: dict[Hex, Hex] = {}
        heap: list[tuple[float, str, Hex]] = [(0.0, hex_id(a), a)]
        while heap:
            cost, _, h = heapq.heappop(heap)
            if h == b:
                break
            if cost > best[h]:
                continue
            for n in self.grid.neighbours(h):
                if not self.grid.on_map(n) or not m.is_land(n):
                    continue
                key = (h, n) if hex_id(h) < hex_id(n) else (n, h)
                if key in m.impassable:
                    continue
                c = cost + 1.0 + 0.8 * stray(n) ** 2
                if c < best.get(n, math.inf) - 1e-12:
                    best[n] = c
                    prev[n] = h
                    heapq.heappush(heap, (c, hex_id(n), n))
        if b not in prev:
            return self.grid.line_between(a, b)
        out = [b]
        while out[-1] != a:
            out.append(prev[out[-1]])
        return out[::-1]

    def _lines(self) -> None:
        m = self.model
        for kind, table, store in (("rail", self.geo.RAILWAYS, m.rail), ("road", self.geo.ROADS, m.roads)):
            for name, wps in table.items():
                hexes = self.path(wps)
                store[name] = hexes
                for h in hexes:
                    if not self.grid.on_map(h):
                        m.notes.append(f"{kind} {name}: {hex_id(h)} is off the map")
                    elif not m.is_land(h):
                        m.notes.append(f"{kind} {name}: {hex_id(h)} is sea")
                for a, b in zip(hexes, hexes[1:], strict=False):
                    key = (a, b) if hex_id(a) < hex_id(b) else (b, a)
                    if key in m.impassable:
                        m.notes.append(f"{kind} {name}: crosses impassable hexside {side_of(a, b)}")

    # -- places ----------------------------------------------------------------------------------------
    def _places(self) -> None:
        m = self.model
        taken: dict[Hex, str] = {}
        for pin in self.geo.PINNED.values():
            h = parse_hex(pin.hex)
            entry: dict[str, object] = {"hex": pin.hex, "name": pin.name}
            for key in ("city", "port", "fortress"):
                if getattr(pin, key):
                    entry[key] = True
            if pin.railhead:
                entry["railhead"] = pin.railhead
            entry["provenance"] = pin.provenance
            m.places.append(entry)
            taken[h] = pin.name
        pinned_names = {key for key in self.geo.PINNED} | {p.name for p in self.geo.PINNED.values()}
        for name, ll in self.geo.PLACES.items():
            if name in pinned_names:
                continue
            p = self.warp(ll)
            h = self.place_hex(name)
            if name in self.geo.PLACE_OVERRIDES:
                m.notes.append(f"place {name} put in {hex_id(h)}: {self.geo.PLACE_OVERRIDES[name][1]}")
            elif h != self.grid.hex_at(*p):
                m.notes.append(f"place {name} falls in a sea hex: moved to the nearest land hex {hex_id(h)}")
            if not self.grid.on_map(h) or not m.is_land(h):
                m.notes.append(f"place {name} falls on {hex_id(h)}, which is off the map or sea: left out")
                continue
            if h in taken:
                m.notes.append(f"place {name} shares hex {hex_id(h)} with {taken[h]}: left out")
                continue
            taken[h] = name
            entry = {"hex": hex_id(h), "name": name}
            if name in self.geo.CITIES:
                entry["city"] = True
            if name in self.geo.PORTS:
                entry["port"] = True
            if name in self.geo.PLACE_PROVENANCE:
                entry["provenance"] = self.geo.PLACE_PROVENANCE[name]
            m.places.append(entry)
        m.places.sort(key=lambda e: str(e["hex"]))

    # -- code areas --------------------------------------------------------------------------------------
    def coast_chains(self) -> list[list[Hex]]:
        """The land-sea boundary as chains of land hexes, in order along the coast."""
        m = self.model
        edges: dict[tuple[tuple[int, int], tuple[int, int]], Hex] = {}
        for a, b in self._pairs():
            if m.is_land(a) == m.is_land(b):
                continue
            land = a if m.is_land(a) else b
            edges[self.grid.side_corners(a, b)] = land
        at: dict[tuple[int, int], list[tuple[tuple[int, int], tuple[int, int]]]] = defaultdict(list)
        for e in sorted(edges):
            at[e[0]].append(e)
            at[e[1]].append(e)
        used: set[tuple[tuple[int, int], tuple[int, int]]] = set()
        chains: list[list[Hex]] = []
        starts = sorted(v for v, es in at.items() if len(es) == 1) + sorted(at)
        for v in starts:
            for e in at[v]:
                if e in used:
                    continue
                chain: list[Hex] = []
                cur_v, cur_e = v, e
                while cur_e not in used:
                    used.add(cur_e)
                    land = edges[cur_e]
                    if not chain or chain[-1] != land:
                        chain.append(land)
                    nxt_v = cur_e[1] if cur_e[0] == cur_v else cur_e[0]
                    nxt = [f for f in at[nxt_v] if f not in used]
                    if not nxt:
                        break
                    cur_v, cur_e = nxt_v, nxt[0]
                chains.append(chain)
        return _merge_chains(chains)

    def _code_areas(self) -> None:
        m = self.model
        chains = self.coast_chains()
        try:
            self._split_coast(chains)
        except (RuntimeError, ValueError) as exc:
            m.notes.append(f"CODE AREAS: {exc}")

    def _split_coast(self, chains: list[list[Hex]]) -> None:
        m = self.model
        split: CoastSplit = self.geo.CODE_AREAS
        first_area, from_hex, to_hex = split.first
        first, last = parse_hex(from_hex), parse_hex(to_hex)

        def find(h: Hex) -> list[Hex]:
            for c in chains:
                if h in c:
                    return c
            raise RuntimeError(f"{hex_id(h)} is not on any coast")

        west = find(first)
        if last not in west:
            raise RuntimeError(f"{from_hex} and {to_hex} are not on one stretch of coast")
        if west.index(first) > west.index(last):
            west.reverse()
        i, j = west.index(first), west.index(last)
        m.code_areas[first_area] = _unique(west[i : j + 1])
        rest = west[j + 1 :]
        near_area, place, far_area = split.rest
        cut = _nearest_index(self, rest, place)
        m.code_areas[near_area] = _unique(rest[: cut + 1])
        m.code_areas[far_area] = _unique(rest[cut + 1 :])
        start, near_area, place, far_area = split.other
        east = find(self.place_hex(start))
        if east.index(self.place_hex(start)) < east.index(self.place_hex(place)):
            east.reverse()
        cut = _nearest_index(self, east, place)
        m.code_areas[near_area] = _unique(east[: cut + 1])
        m.code_areas[far_area] = _unique(east[cut + 1 :])
        seen: set[Hex] = set()
        for area in split.order():  # a hex on two stretches (a corner of the coast) stays in the first
            m.code_areas[area] = [h for h in m.code_areas[area] if h not in seen]
            seen.update(m.code_areas[area])

    def _check_facts(self) -> None:
        m = self.model
        rail_hexes = {h for line in m.rail.values() for h in line}
        for f in self.geo.FACTS:
            h = parse_hex(f.hex)
            problems = []
            if f.land and not m.is_land(h):
                problems.append("not land")
            if f.coastal and not m.coastal(h):
                problems.append("not coastal")
            if f.rail and h not in rail_hexes:
                problems.append("not on the rail")
            if problems:
                m.notes.append(f"NAMED HEX {f.hex} ({f.cite}): " + ", ".join(problems))


def _merge_chains(chains: list[list[Hex]]) -> list[list[Hex]]:
    """Join chains that end on the same land hex (the coast leaves the map edge and comes back there)."""
    chains = [c for c in chains if c]
    merged = True
    while merged:
        merged = False
        for i in range(len(chains)):
            for j in range(len(chains)):
                if i == j:
                    continue
                a, b = chains[i], chains[j]
                if a[-1] == b[0]:
                    joined = a + b[1:]
                elif a[-1] == b[-1]:
                    joined = a + b[-2::-1]
                elif a[0] == b[0] and i < j:
                    joined = a[::-1] + b[1:]
                else:
                    continue
                chains = [c for k, c in enumerate(chains) if k not in (i, j)] + [joined]
                merged = True
                break
            if merged:
                break
    return chains


def _unique(hexes: Iterable[Hex]) -> list[Hex]:
    out: list[Hex] = []
    for h in hexes:
        if h not in out:
            out.append(h)
    return out


def _nearest_index(b: Builder, chain: Sequence[Hex], place: str) -> int:
    target = b.warp(b.geo.PLACES[place])
    return min(range(len(chain)), key=lambda k: (b.grid.grid_distance(chain[k], *target), k))


def build(geo: ModuleType) -> MapModel:
    """The theatre map of a geography file, on its ``GRID``."""
    return Builder(geo).build()
