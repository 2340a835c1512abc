"""Hex grids for the map generators, and the hex and hexside names both rulesets use.

Hex numbers are ``AABB`` (docs/data-format.md): ``AA`` is the line, ``BB`` the position along it. Two
grids lay them out for projecting real geography:

* :class:`GeoGrid`: pointy-topped hexes whose lines run west to east and stack northward, tied to latitude
  and longitude by a linear :class:`LatLonFit` (Red Sun Rising: tools/rsr_map). Geometry is done in *grid
  space*: ``x`` is the position plus the half-hex offset of shifted lines, the line number ``r`` may be
  fractional; hexes are one unit wide, lines sqrt(3)/2 apart. Hexes are ``(line, position)`` tuples.
* :class:`PlaneGrid`: flat-topped hexes whose lines run north-south and are numbered eastward, positions
  growing southward, in *grid units* (one unit between neighbouring centres; Red Sun/Red Star:
  tools/rs_map). Hexes are their four-digit numbers. :func:`route` finds straight roads on it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from rsr.hexgrid import Grid as RuleGrid
from tools.hexmap.geometry import Point, dist_to_segment

ROW = math.sqrt(3) / 2  # distance between line centres in hex widths
SIZE = 1 / math.sqrt(3)  # centre-to-corner distance of a hex one unit across its flats
COL = ROW  # east-west distance between line centres of a PlaneGrid

Hex = tuple[int, int]  # (line, position)


def hex_id(h: Hex) -> str:
    """The four-digit number of a hex, e.g. (8, 1) -> "0801"."""
    return f"{h[0]:02d}{h[1]:02d}"


def parse_hex(s: str) -> Hex:
    """Inverse of hex_id."""
    if len(s) != 4 or not s.isdigit():
        raise ValueError(f"not a four-digit hex number: {s!r}")
    return int(s[:2]), int(s[2:])


def side_id(a: str, b: str) -> str:
    """A hexside named by its two hexes, lower number first."""
    low, high = sorted((a, b))
    return f"{low}-{high}"


def side_of(a: Hex, b: Hex) -> str:
    """:func:`side_id` of two ``(line, position)`` hexes."""
    return side_id(hex_id(a), hex_id(b))


def span(first: str, last: str) -> list[str]:
    """``span("3743", "3746")`` -> 3743 3744 3745 3746 (one line) or the same position on several lines."""
    a1, b1, a2, b2 = int(first[:2]), int(first[2:]), int(last[:2]), int(last[2:])
    if a1 == a2:
        return [f"{a1:02d}{b:02d}" for b in range(b1, b2 + 1)]
    assert b1 == b2, (first, last)
    return [f"{a:02d}{b1:02d}" for a in range(a1, a2 + 1)]


# ---------------------------------------------------------------------------------------------------------
# GeoGrid: latitude and longitude
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LatLonFit:
    """Where the grid lies on the globe: the centre of hex ``anchor`` is at (``lat0``, ``lon0``); each line
    is ``dlat`` degrees north of the one before, each position ``dlon`` degrees east."""

    lat0: float
    lon0: float
    dlat: float
    dlon: float
    anchor: Hex


@dataclass(frozen=True)
class GeoGrid:
    """A rectangle of pointy-topped hexes with one shifted_lines convention, fitted to latitude/longitude."""

    fit: LatLonFit
    shifted_lines: str = "even"
    lines: tuple[int, int] = (1, 33)
    positions: tuple[int, int] = (1, 40)

    # -- offsets and cube coordinates ---------------------------------------------------------------
    def is_shifted(self, line: int) -> bool:
        """True when this line sits half a hex further along (toward higher positions)."""
        return (line % 2 == 0) == (self.shifted_lines == "even")

    def _c(self) -> float:
        return 0.5 if self.shifted_lines == "even" else 0.0

    def x(self, h: Hex) -> float:
        """Grid-space x of the hex centre."""
        return h[1] + (0.5 if self.is_shifted(h[0]) else 0.0)

    def cube(self, h: Hex) -> tuple[int, int, int]:
        q = round(self.x(h) - h[0] / 2 - self._c())
        r = h[0]
        return q, r, -q - r

    def from_cube(self, q: int, r: int) -> Hex:
        x = q + r / 2 + self._c()
        pos = x - (0.5 if self.is_shifted(r) else 0.0)
        return r, round(pos)

    # -- adjacency -----------------------------------------------------------------------------------
    def neighbours(self, h: Hex) -> list[Hex]:
        """The six neighbours by the rule in docs/data-format.md, whether or not on the map."""
        line, pos = h
        if self.is_shifted(line):
            other = (pos, pos + 1)
        else:
            other = (pos - 1, pos)
        out: list[Hex] = [(line, pos - 1), (line, pos + 1)]
        for dl in (-1, 1):
            out.extend((line + dl, p) for p in other)
        return out

    def adjacent(self, a: Hex, b: Hex) -> bool:
        return b in self.neighbours(a)

    def distance(self, a: Hex, b: Hex) -> int:
        qa, ra, sa = self.cube(a)
        qb, rb, sb = self.cube(b)
        return max(abs(qa - qb), abs(ra - rb), abs(sa - sb))

    def on_map(self, h: Hex) -> bool:
        return self.lines[0] <= h[0] <= self.lines[1] and self.positions[0] <= h[1] <= self.positions[1]

    def hexes(self) -> list[Hex]:
        """Every hex of the rectangle, in hex-number order."""
        return [
            (line, pos)
            for line in range(self.lines[0], self.lines[1] + 1)
            for pos in range(self.positions[0], self.positions[1] + 1)
        ]

    def line_between(self, a: Hex, b: Hex) -> list[Hex]:
        """Contiguous hexes from a to b inclusive (cube-coordinate line drawing)."""
        n = self.distance(a, b)
        if n == 0:
            return [a]
        qa, ra, _ = self.cube(a)
        qb, rb, _ = self.cube(b)
        out: list[Hex] = []
        for i in range(n + 1):
            t = i / n
            # the tiny nudge keeps ties on hexsides deterministic
            qf = qa + (qb - qa) * t + 1e-6
            rf = ra + (rb - ra) * t + 2e-6
            out.append(self.from_cube(*_cube_round(qf, rf)))
        return out

    # -- projection ------------------------------------------------------------------------------------
    def centre_grid(self, h: Hex) -> tuple[float, float]:
        """(x, line) of the hex centre in grid space."""
        return self.x(h), float(h[0])

    def grid_to_latlon(self, x: float, r: float) -> tuple[float, float]:
        f = self.fit
        lat = f.lat0 + (r - f.anchor[0]) * f.dlat
        lon = f.lon0 + (x - self.x(f.anchor)) * f.dlon
        return lat, lon

    def latlon_to_grid(self, lat: float, lon: float) -> tuple[float, float]:
        f = self.fit
        r = f.anchor[0] + (lat - f.lat0) / f.dlat
        x = self.x(f.anchor) + (lon - f.lon0) / f.dlon
        return x, r

    def centre_latlon(self, h: Hex) -> tuple[float, float]:
        return self.grid_to_latlon(*self.centre_grid(h))

    def hex_at_grid(self, x: float, r: float) -> Hex:
        """The hex containing grid point (x, r)."""
        qf = x - r / 2 - self._c()
        return self.from_cube(*_cube_round(qf, r))

    def hex_at(self, lat: float, lon: float) -> Hex:
        """The hex containing a geographic point (may be off the rectangle)."""
        return self.hex_at_grid(*self.latlon_to_grid(lat, lon))

    def grid_distance(self, h: Hex, lat: float, lon: float) -> float:
        """Distance in hex widths from the centre of h to a geographic point."""
        x, r = self.latlon_to_grid(lat, lon)
        cx, cr = self.centre_grid(h)
        return math.hypot(x - cx, (r - cr) * ROW)

    def corner_keys(self, h: Hex) -> list[tuple[int, int]]:
        """Exact integer keys of the six corners: (2x, 3r +- 1 or 2). Shared corners share keys."""
        cx, cr = self.centre_grid(h)
        x2, r3 = round(2 * cx), 3 * round(cr)
        return [(x2, r3 + 2), (x2 + 1, r3 + 1), (x2 + 1, r3 - 1), (x2, r3 - 2), (x2 - 1, r3 - 1), (x2 - 1, r3 + 1)]

    def side_corners(self, a: Hex, b: Hex) -> tuple[tuple[int, int], tuple[int, int]]:
        """The two corner keys of the hexside between adjacent hexes a and b."""
        shared = sorted(set(self.corner_keys(a)) & set(self.corner_keys(b)))
        if len(shared) != 2:
            raise ValueError(f"{hex_id(a)} and {hex_id(b)} are not adjacent")
        return shared[0], shared[1]

    def sample_points(self, h: Hex) -> list[tuple[float, float]]:
        """19 geographic sample points spread over the hex, centre first."""
        cx, cr = self.centre_grid(h)
        pts = [(cx, cr)]
        inr = SIZE * ROW  # inradius
        for k in range(6):
            a_corner = math.radians(90 - 60 * k)
            a_edge = math.radians(60 - 60 * k)
            for ang, rad in ((a_corner, 0.45 * SIZE), (a_edge, 0.55 * inr), (a_corner, 0.85 * SIZE)):
                pts.append((cx + rad * math.cos(ang), cr + rad * math.sin(ang) / ROW))
        return [self.grid_to_latlon(x, r) for x, r in pts]

    def dist_to_latlon_line(self, h: Hex, pts: list[tuple[float, float]]) -> float:
        """Distance in hex widths from the centre of h to a (lat, lon) polyline."""
        cx, cr = self.centre_grid(h)
        best = math.inf
        for (la, lo), (lb, lob) in zip(pts, pts[1:], strict=False):
            ax, ar = self.latlon_to_grid(la, lo)
            bx, br = self.latlon_to_grid(lb, lob)
            vx, vy = bx - ax, (br - ar) * ROW
            px, py = cx - ax, (cr - ar) * ROW
            t = max(0.0, min(1.0, (px * vx + py * vy) / (vx * vx + vy * vy)))
            best = min(best, math.hypot(px - t * vx, py - t * vy))
        return best


def _cube_round(qf: float, rf: float) -> tuple[int, int]:
    sf = -qf - rf
    q, r, s = round(qf), round(rf), round(sf)
    dq, dr, ds = abs(q - qf), abs(r - rf), abs(s - sf)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return q, r


# ---------------------------------------------------------------------------------------------------------
# PlaneGrid: a kilometre plane
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlaneGrid:
    """Flat-topped hexes, lines numbered eastward, positions southward; ``x`` east, ``y`` south."""

    shifted_lines: str
    lines: tuple[int, int]
    positions: tuple[int, int]

    @property
    def rule_grid(self) -> RuleGrid:
        return RuleGrid(self.shifted_lines, self.lines, self.positions)

    def shifted(self, line: int) -> bool:
        return (line % 2 == 0) == (self.shifted_lines == "even")

    def hexes(self) -> Iterator[str]:
        for line in range(self.lines[0], self.lines[1] + 1):
            for pos in range(self.positions[0], self.positions[1] + 1):
                yield hex_id((line, pos))

    def on_map(self, h: str) -> bool:
        return self.rule_grid.on_map(h)

    def centre(self, h: str) -> Point:
        line, pos = parse_hex(h)
        return (line - self.lines[0]) * COL, pos + (0.5 if self.shifted(line) else 0.0)

    def neighbours(self, h: str) -> list[str]:
        return self.rule_grid.neighbours(h)

    def adjacent(self, a: str, b: str) -> bool:
        return self.rule_grid.adjacent(a, b)

    def side_mid(self, a: str, b: str) -> Point:
        (ax, ay), (bx, by) = self.centre(a), self.centre(b)
        return (ax + bx) / 2, (ay + by) / 2

    def target(self, where: str) -> Point:
        """The centre of a hex, or the middle of a hexside ``AABB-CCDD``."""
        if "-" in where:
            a, b = where.split("-")
            return self.side_mid(a, b)
        return self.centre(where)

    def nearest(self, p: Point) -> str | None:
        """The hex whose centre is nearest to ``p`` (None off the map)."""
        x, y = p
        line0 = round(x / COL) + self.lines[0]
        best: tuple[float, str] | None = None
        for line in (line0 - 1, line0, line0 + 1):
            if not self.lines[0] <= line <= self.lines[1]:
                continue
            pos0 = round(y - (0.5 if self.shifted(line) else 0.0))
            for pos in (pos0 - 1, pos0, pos0 + 1):
                if not self.positions[0] <= pos <= self.positions[1]:
                    continue
                h = hex_id((line, pos))
                d = math.dist(self.centre(h), p)
                if best is None or (d, h) < best:
                    best = (d, h)
        return None if best is None else best[1]

    def nearest_on_map(self, p: Point) -> str:
        """The hex nearest to ``p`` after pulling ``p`` inside the map rectangle."""
        x = min(max(p[0], 0.0), (self.lines[1] - self.lines[0]) * COL)
        y = min(max(p[1], float(self.positions[0])), self.positions[1] + 0.5)
        h = self.nearest((x, y))
        assert h is not None
        return h


def route(grid: PlaneGrid, start: str, end: str, a: Point, b: Point, blocked: set[str]) -> list[str] | None:
    """A shortest hex path from ``start`` to ``end`` that keeps closest to the segment ``a``-``b``.

    Among all paths of the fewest steps (never crossing a hexside in ``blocked``), the one whose hex
    centres deviate least in total from the straight segment; ties go to the lower hex number. This keeps
    roads straight where a plain nearest-hex trace would zigzag between two lines.
    """
    dist = grid.rule_grid.distance
    total = dist(start, end)
    for extra in range(0, 4):  # allow a detour of a few steps if a blocked hexside is in the way
        length = total + extra
        layer: dict[str, tuple[float, list[str]]] = {start: (0.0, [start])}
        for k in range(1, length + 1):
            nxt: dict[str, tuple[float, list[str]]] = {}
            for h in sorted(layer):
                cost, path = layer[h]
                for n in grid.neighbours(h):
                    if side_id(h, n) in blocked or n in path or dist(n, end) > length - k:
                        continue
                    c = cost + dist_to_segment(grid.centre(n), a, b)
                    if n not in nxt or (c, path) < (nxt[n][0], nxt[n][1][:-1]):
                        nxt[n] = (c, path + [n])
            layer = nxt
        if end in layer:
            return layer[end][1]
    return None
