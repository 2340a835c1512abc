"""The Red Sun/Red Star hex grid in plane coordinates.

Hex numbers are ``AABB`` (docs/data-format.md): ``AA`` is the line, ``BB`` the position along it. On this
map the lines run north-south and are numbered eastward (the west edge is the Soviet side, rulebook 10.1
and its example), and the positions are numbered southward (assumed: the low positions 08-14 of the
Soviet entry hexes lie north of the Halha, and the example of 10.1 ties low positions to the northern
edge). Alternate lines sit half a hex further south: ``shifted_lines: odd`` (see fit.py for why).

Geometry is done in *grid units*: one unit is the distance between the centres of two neighbouring hexes
(3/4 mile on the ground, rulebook 2.9). ``x`` grows eastward, ``y`` grows southward. The hexes are flat
topped: the centres of one line are one unit apart, the lines sqrt(3)/2 apart.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from rsr.hexgrid import Grid as RuleGrid
from tools.hexmap.geometry import Point, dist_to_segment

COL = math.sqrt(3) / 2  # east-west distance between line centres
RADIUS = 1 / math.sqrt(3)  # centre to corner of a hex one unit across its flats



def hex_id(line: int, pos: int) -> str:
    return f"{line:02d}{pos:02d}"


def parse(h: str) -> tuple[int, int]:
    return int(h[:2]), int(h[2:])


def side_id(a: str, b: str) -> str:
    low, high = sorted((a, b))
    return f"{low}-{high}"


@dataclass(frozen=True)
class MapGrid:
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
                yield hex_id(line, pos)

    def on_map(self, h: str) -> bool:
        return self.rule_grid.on_map(h)

    def centre(self, h: str) -> Point:
        line, pos = parse(h)
        return (line - self.lines[0]) * COL, pos + (0.5 if self.shifted(line) else 0.0)

    def corners(self, h: str) -> list[Point]:
        cx, cy = self.centre(h)
        return [(cx + RADIUS * math.cos(math.radians(a)), cy + RADIUS * math.sin(math.radians(a)))
                for a in range(0, 360, 60)]

    def neighbours(self, h: str) -> list[str]:
        return self.rule_grid.neighbours(h)

    def adjacent(self, a: str, b: str) -> bool:
        return self.rule_grid.adjacent(a, b)

    def side_ends(self, a: str, b: str) -> tuple[Point, Point]:
        """The two corners shared by neighbouring hexes ``a`` and ``b``."""
        ca = self.corners(a)
        cb = self.corners(b)
        shared = [p for p in ca if any(math.dist(p, q) < 1e-6 for q in cb)]
        assert len(shared) == 2, (a, b)
        return shared[0], shared[1]

    def side_mid(self, a: str, b: str) -> Point:
        (ax, ay), (bx, by) = self.centre(a), self.centre(b)
        return (ax + bx) / 2, (ay + by) / 2

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
                h = hex_id(line, pos)
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

    def trace(self, a: Point, b: Point, step: float = 0.05) -> list[str]:
        """The hexes a straight segment from ``a`` to ``b`` passes through, as a contiguous path."""
        n = max(1, math.ceil(math.dist(a, b) / step))
        out: list[str] = []
        for i in range(n + 1):
            t = i / n
            h = self.nearest((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
            if h is not None and (not out or out[-1] != h):
                if out and not self.adjacent(out[-1], h):
                    # passed exactly through a corner: step through a hex that touches both
                    common = sorted(set(self.neighbours(out[-1])) & set(self.neighbours(h)))
                    if common:
                        out.append(common[0])
                out.append(h)
        return out


# -- plane geometry ------------------------------------------------------------------------------------


def route(grid: MapGrid, start: str, end: str, a: Point, b: Point, blocked: set[str]) -> list[str] | None:
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
