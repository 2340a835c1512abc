"""Geometry both map generators use: point-in-polygon tests (a banded one for long lat/lon coastlines, a plain
even-odd one for plane polygons), distances to segments and polylines, densifying and segment crossing."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence

LatLon = tuple[float, float]
Point = tuple[float, float]


class Polygon:
    """A polygon in (lat, lon) with a banded edge index for fast point-in-polygon tests."""

    BAND = 0.1

    def __init__(self, points: Sequence[LatLon]) -> None:
        self.points = list(points)
        self.bands: dict[int, list[tuple[float, float, float, float]]] = defaultdict(list)
        n = len(self.points)
        for i in range(n):
            (a_lat, a_lon), (b_lat, b_lon) = self.points[i], self.points[(i + 1) % n]
            lo, hi = min(a_lat, b_lat), max(a_lat, b_lat)
            for band in range(math.floor(lo / self.BAND), math.floor(hi / self.BAND) + 1):
                self.bands[band].append((a_lat, a_lon, b_lat, b_lon))

    def contains(self, lat: float, lon: float) -> bool:
        inside = False
        for a_lat, a_lon, b_lat, b_lon in self.bands.get(math.floor(lat / self.BAND), ()):
            if (a_lat > lat) != (b_lat > lat):
                cross = a_lon + (lat - a_lat) * (b_lon - a_lon) / (b_lat - a_lat)
                if lon < cross:
                    inside = not inside
        return inside


def densify(points: Sequence[LatLon], step: float = 0.04, closed: bool = True) -> list[LatLon]:
    """Insert points so that no segment is longer than `step` degrees (so a warp bends it smoothly)."""
    out: list[LatLon] = []
    n = len(points)
    for i in range(n if closed else n - 1):
        a, b = points[i], points[(i + 1) % n]
        k = max(1, math.ceil(math.hypot(b[0] - a[0], b[1] - a[1]) / step))
        out.extend((a[0] + (b[0] - a[0]) * j / k, a[1] + (b[1] - a[1]) * j / k) for j in range(k))
    if not closed:
        out.append(points[-1])
    return out


def segments_cross(p1: LatLon, p2: LatLon, q1: LatLon, q2: LatLon) -> bool:
    def orient(a: LatLon, b: LatLon, c: LatLon) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2 = orient(q1, q2, p1), orient(q1, q2, p2)
    d3, d4 = orient(p1, p2, q1), orient(p1, p2, q2)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0)


def point_in_polygon(p: Point, poly: list[Point]) -> bool:
    """Even-odd rule."""
    x, y = p
    inside = False
    n = len(poly)
    for i in range(n):
        (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xc = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if xc > x:
                inside = not inside
    return inside


def dist_to_segment(p: Point, a: Point, b: Point) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / length2))
    return math.dist(p, (ax + t * dx, ay + t * dy))


def dist_to_polyline(p: Point, line: list[Point]) -> float:
    return min(dist_to_segment(p, a, b) for a, b in zip(line, line[1:], strict=False))


def ellipse(centre: Point, rx: float, ry: float, n: int = 24) -> list[Point]:
    return [(centre[0] + rx * math.cos(2 * math.pi * i / n), centre[1] + ry * math.sin(2 * math.pi * i / n))
            for i in range(n)]
