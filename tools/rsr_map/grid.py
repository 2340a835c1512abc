"""The Red Sun Rising land hex grid and its fit to latitude and longitude.

Hex numbers are ``AABB``: ``AA`` is the line, ``BB`` the position along it (docs/data-format.md). Lines
run west to east and are stacked northward; alternate lines are offset by half a hex toward higher
``BB`` (which ones is ``shifted_lines``). The fit to the real map comes from
the notes on the rulebook's missing components ("Derived"): each line is about 0.205 degrees of latitude north of the
one before, each position about 0.296 degrees of longitude east of the one before, and the centre of
hex 0801 (Port Arthur) is at 38.80 N 121.25 E.

Geometry is done in *grid space*: ``x`` is the position plus the half-hex offset of shifted lines, and a
line number ``r`` may be fractional. Hexes are pointy-topped, one unit wide, lines sqrt(3)/2 apart.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

LAT0 = 38.80  # centre of hex 0801 (Port Arthur), degrees north
LON0 = 121.25  # degrees east
DLAT = 0.205  # degrees of latitude per line
DLON = 0.296  # degrees of longitude per position
ANCHOR = (8, 1)  # hex 0801
ROW = math.sqrt(3) / 2  # distance between line centres in hex widths
SIZE = 1 / math.sqrt(3)  # centre-to-corner distance of a unit-wide pointy hex

Hex = tuple[int, int]  # (line, position)

# The six directions as cube-coordinate steps (q, r); r is the line.
_DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def hex_id(h: Hex) -> str:
    """The four-digit number of a hex, e.g. (8, 1) -> "0801"."""
    return f"{h[0]:02d}{h[1]:02d}"


def parse_hex(s: str) -> Hex:
    """Inverse of hex_id."""
    if len(s) != 4 or not s.isdigit():
        raise ValueError(f"not a four-digit hex number: {s!r}")
    return int(s[:2]), int(s[2:])


@dataclass(frozen=True)
class Grid:
    """A rectangle of hexes with one shifted_lines convention."""

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
        lat = LAT0 + (r - ANCHOR[0]) * DLAT
        lon = LON0 + (x - self.x(ANCHOR)) * DLON
        return lat, lon

    def latlon_to_grid(self, lat: float, lon: float) -> tuple[float, float]:
        r = ANCHOR[0] + (lat - LAT0) / DLAT
        x = self.x(ANCHOR) + (lon - LON0) / DLON
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

    def corners(self, h: Hex) -> list[tuple[float, float]]:
        """The six corners of h in grid space (x, r), clockwise from the top."""
        cx, cr = self.centre_grid(h)
        out = []
        for k in range(6):
            ang = math.radians(90 - 60 * k)
            out.append((cx + SIZE * math.cos(ang), cr + SIZE * math.sin(ang) / ROW))
        return out

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


def _cube_round(qf: float, rf: float) -> tuple[int, int]:
    sf = -qf - rf
    q, r, s = round(qf), round(rf), round(sf)
    dq, dr, ds = abs(q - qf), abs(r - rf), abs(s - sf)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return q, r


def side_id(a: Hex, b: Hex) -> str:
    """A hexside named by its two hexes, lower number first."""
    ia, ib = sorted((hex_id(a), hex_id(b)))
    return f"{ia}-{ib}"
