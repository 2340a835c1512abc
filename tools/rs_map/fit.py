"""Fitting the geography to the rulebook's hexes, and the choice of ``shifted_lines``.

The projection is a similarity (uniform scale, rotation, translation) from the kilometre plane of
geography.py to grid units, fitted by least squares to the landmarks whose hexes the rulebook fixes
(``ANCHORS``). The fitted scale is checked against the rulebook's 3/4 mile per hex (2.9).

``shifted_lines``: the three bridge pairs the rulebook names (3636/3637, 3336/3337, 2019/1919) are
neighbours under either choice, because ``AABB`` always touches ``AA(BB+-1)`` on its own line and
``BB`` on the next line; they cannot decide it. The scenario set-up areas do: 13.1 and 13.2 give the
set-up of each group as a short list of hexes, and printed set-up areas are compact blobs. With ``odd``
every multi-hex area is one connected blob (1711/1811-1812, 1816-1817/1916 and 3647/3747/3848 are tight
triangles); with ``even`` four areas fall apart (see ``compare_shifts``).
"""

from __future__ import annotations

import cmath
import itertools
import math
from collections.abc import Callable

from tools.rs_map import geography as geo
from tools.rs_map.grid import MapGrid, Point
from tools.rs_map.named import SETUPS

KM_PER_HEX = 0.75 * 1.609344  # rulebook 2.9: a hex is about 3/4 mile across

# (landmark, hex or hexside it must fall on, why)
ANCHORS: list[tuple[str, str, str]] = [
    ("Kawamata bridge", "2435-2535",
     "derived: 2535 is the 5-point hex of 13.1 and holds the 36th Division engineers in 13.1 and 13.2"),
    ("north crossing", "1919-2019", "rulebook: 13.1 special rule 2 (the unnamed bridge)"),
    ("Old Engineer Bridge", "3636-3637", "rulebook: 11.3 and 13.1 special rule 2"),
    ("New Engineer Bridge", "3336-3337", "rulebook: 13.1 special rule 2"),
    ("Uzuru Pond", "3823", "rulebook: 13.2 special rule 6 (the depots)"),
]
# landmarks compared with a hex but not fitted to it
CHECKS: list[tuple[str, str, str]] = [
    ("Khamar-Daba", "2237", "the 1st Army Group HQ sets up there in 13.1 and 13.2"),
    ("Bain Tsagan", "2330", "the 3-point hex of 13.1, read as the height the Japanese crossed to"),
]


def target(grid: MapGrid, where: str) -> Point:
    if "-" in where:
        a, b = where.split("-")
        return grid.side_mid(a, b)
    return grid.centre(where)


class Projection:
    """km (x east, y north) -> grid units (x east, y south)."""

    def __init__(self, a: complex, b: complex) -> None:
        self.a = a
        self.b = b

    def __call__(self, p: tuple[float, float]) -> Point:
        w = self.a * complex(p[0], p[1]) + self.b
        return w.real, -w.imag

    @property
    def km_per_hex(self) -> float:
        return 1 / abs(self.a)

    @property
    def rotation_deg(self) -> float:
        return math.degrees(cmath.phase(self.a))


def fit(grid: MapGrid) -> Projection:
    zs = [complex(*geo.LANDMARKS[name]) for name, _, _ in ANCHORS]
    ws = [complex(x, -y) for x, y in (target(grid, where) for _, where, _ in ANCHORS)]
    zm = sum(zs) / len(zs)
    wm = sum(ws) / len(ws)
    a = sum((w - wm) * (z - zm).conjugate() for z, w in zip(zs, ws, strict=True)) / sum(
        abs(z - zm) ** 2 for z in zs)
    # round so that the output does not depend on the last bits of floating point arithmetic
    a = complex(round(a.real, 9), round(a.imag, 9))
    b = wm - a * zm
    return Projection(a, complex(round(b.real, 9), round(b.imag, 9)))


def residuals(grid: MapGrid, proj: Projection) -> list[tuple[str, str, float]]:
    out = []
    for name, where, _ in ANCHORS + CHECKS:
        out.append((name, where, math.dist(proj(geo.LANDMARKS[name]), target(grid, where))))
    return out


def _components(adjacent: Callable[[str, str], bool], hexes: list[str]) -> int:
    left = set(hexes)
    count = 0
    while left:
        count += 1
        stack = [left.pop()]
        while stack:
            h = stack.pop()
            near = {g for g in left if adjacent(h, g)}
            left -= near
            stack.extend(near)
    return count


def compare_shifts(grid: MapGrid) -> dict[str, dict[str, tuple[int, int]]]:
    """For each choice: (connected pieces, diameter in hexes) of every set-up area of two or more hexes."""
    out: dict[str, dict[str, tuple[int, int]]] = {}
    for shifted in ("even", "odd"):
        g = MapGrid(shifted, grid.lines, grid.positions)
        rows: dict[str, tuple[int, int]] = {}
        for setup in SETUPS:
            hexes = list(setup.hexes)
            if len(hexes) < 2 or setup.scattered:
                continue
            diameter = max(g.rule_grid.distance(a, b) for a, b in itertools.combinations(hexes, 2))
            rows[f"{setup.scenario} {setup.label}"] = (_components(g.adjacent, hexes), diameter)
        out[shifted] = rows
    return out


def report(grid: MapGrid) -> str:
    proj = fit(grid)
    lines = [f"fitted scale {proj.km_per_hex:.3f} km per hex (rulebook 2.9: {KM_PER_HEX:.3f}), "
             f"rotation {proj.rotation_deg:+.1f} degrees"]
    for name, where, d in residuals(grid, proj):
        kind = "anchor" if any(name == n for n, _, _ in ANCHORS) else "check"
        lines.append(f"  {kind:6s} {name:22s} -> {where:9s} off by {d:.2f} hex")
    lines.append("bridge pairs adjacent: " + ", ".join(
        f"{p}: even={MapGrid('even', grid.lines, grid.positions).adjacent(*p.split('/'))} "
        f"odd={MapGrid('odd', grid.lines, grid.positions).adjacent(*p.split('/'))}"
        for p in ("3636/3637", "3336/3337", "2019/1919")))
    table = compare_shifts(grid)
    lines.append(f"{'set-up area':50s} {'even':>12s} {'odd':>12s}")
    for key in table["even"]:
        e, o = table["even"][key], table["odd"][key]
        lines.append(f"{key:50s} {e[0]:>3d} pc {e[1]:>2d} hx  {o[0]:>3d} pc {o[1]:>2d} hx")
    totals = {s: (sum(v[0] for v in t.values()), sum(v[1] for v in t.values())) for s, t in table.items()}
    lines.append(f"{'total':50s} {totals['even'][0]:>3d} pc {totals['even'][1]:>2d} hx  "
                 f"{totals['odd'][0]:>3d} pc {totals['odd'][1]:>2d} hx")
    return "\n".join(lines)
