"""Fitting real geography to the rulebook's hexes, and the tables that chose ``shifted_lines``.

Two fits, one per kind of grid (grid.py):

* on a :class:`GeoGrid` the latitude/longitude fit is fixed (data-notes.md); a :class:`Warp` then moves the
  geography near each :class:`~tools.hexmap.named.Control` smoothly onto the hex the rules name, and
  :func:`geo_shift_report` measures how well each ``shifted_lines`` choice puts real places, the real
  railway and the rules' neighbouring hexes where the rules say (``python -m tools.rsr_map --fit``);
* on a :class:`PlaneGrid` a similarity (uniform scale, rotation, translation) from the kilometre plane to
  grid units is fitted by least squares to landmarks whose hexes the rules fix (:func:`fit_similarity`),
  and :func:`plane_shift_report` shows it with the set-up areas each ``shifted_lines`` choice keeps compact
  (``python -m tools.rs_map --fit``).

The data (anchors, checks, controls) is in each ruleset's geography file.
"""

from __future__ import annotations

import cmath
import dataclasses
import itertools
import math
from collections.abc import Callable, Iterable
from types import ModuleType

from tools.hexmap.geometry import LatLon, Point
from tools.hexmap.grid import GeoGrid, PlaneGrid, hex_id, parse_hex
from tools.hexmap.named import Control, Setup

# ---------------------------------------------------------------------------------------------------------
# latitude and longitude: the warp, and the shifted_lines table
# ---------------------------------------------------------------------------------------------------------


class Warp:
    """Smooth local displacement of geography toward the rulebook's hexes (the geography file's CONTROLS)."""

    def __init__(self, grid: GeoGrid, controls: Iterable[Control]) -> None:
        self.items: list[tuple[LatLon, LatLon, float]] = []
        for c in controls:
            target = grid.centre_latlon(parse_hex(c.target)) if isinstance(c.target, str) else c.target
            self.items.append((c.real, (target[0] - c.real[0], target[1] - c.real[1]), c.sigma))

    def displacement(self, lat: float, lon: float) -> LatLon:
        wsum, dlat, dlon = 0.0, 0.0, 0.0
        coslat = math.cos(math.radians(lat))
        for (rlat, rlon), (dy, dx), sigma in self.items:
            d2 = (lat - rlat) ** 2 + ((lon - rlon) * coslat) ** 2
            w = math.exp(-d2 / sigma**2)
            wsum += w
            dlat += w * dy
            dlon += w * dx
        norm = max(1.0, wsum)
        return dlat / norm, dlon / norm

    def __call__(self, p: LatLon) -> LatLon:
        dy, dx = self.displacement(*p)
        return p[0] + dy, p[1] + dx


def geo_shift_report(geo: ModuleType) -> str:
    """For ``shifted_lines`` even and odd: how far each real place of ``geo.FIT_PLACES`` lies from the hex
    the rules name, how far the rail hexes of ``geo.FIT_RAIL`` lie from the real railway, whether the hex
    pairs of ``geo.FIT_PAIRS`` are adjacent, and how far the rings of ``geo.FIT_RINGS`` lie from their
    centre hex."""
    grids = {s: dataclasses.replace(geo.GRID, shifted_lines=s) for s in ("even", "odd")}
    centre_hex, centre_name, rings = geo.FIT_RINGS
    w = 52
    out = ["shifted_lines fit against the rulebook's hexes (distances in hex widths; lower is better)", ""]
    out.append(f"{'check':{w}} {'even':>14} {'odd':>14}")
    totals = dict.fromkeys(grids, 0.0)
    for name, h in geo.FIT_PLACES:
        cells = []
        for s, g in grids.items():
            d = g.grid_distance(parse_hex(h), *geo.PLACES[name])
            totals[s] += d
            cells.append(f"{d:.2f} ({hex_id(g.hex_at(*geo.PLACES[name]))})")
        out.append(f"{'real ' + name + ' from ' + h + ' (falls in)':{w}} {cells[0]:>14} {cells[1]:>14}")
    for h in geo.FIT_RAIL:
        cells = []
        for s, g in grids.items():
            d = g.dist_to_latlon_line(parse_hex(h), geo.REAL_RAILWAY)
            totals[s] += d
            cells.append(f"{d:.2f}")
        out.append(f"{'rail hex ' + h + ' from the real railway':{w}} {cells[0]:>14} {cells[1]:>14}")
    for a, b, why in geo.FIT_PAIRS:
        cells = ["adjacent" if g.adjacent(parse_hex(a), parse_hex(b)) else "NOT adjacent" for g in grids.values()]
        out.append(f"{a + '-' + b + ' (' + why + ')':{w}} {cells[0]:>14} {cells[1]:>14}")
    for label, hexes in rings.items():
        cells = [" ".join(str(g.distance(parse_hex(centre_hex), parse_hex(h))) for h in hexes)
                 for g in grids.values()]
        out.append(f"{'hexes from ' + centre_hex + ' (' + centre_name + '), ' + label:{w}} "
                   f"{cells[0]:>14} {cells[1]:>14}")
    out.append(f"{'sum of distances':{w}} {totals['even']:>14.2f} {totals['odd']:>14.2f}")
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------------------
# the kilometre plane: a similarity fitted to anchors, and the shifted_lines table
# ---------------------------------------------------------------------------------------------------------


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


def fit_similarity(grid: PlaneGrid, landmarks: dict[str, tuple[float, float]],
                   anchors: list[tuple[str, str, str]]) -> Projection:
    """The least-squares similarity taking each anchor's landmark to its hex or hexside ``(name, where, why)``."""
    zs = [complex(*landmarks[name]) for name, _, _ in anchors]
    ws = [complex(x, -y) for x, y in (grid.target(where) for _, where, _ in anchors)]
    zm = sum(zs) / len(zs)
    wm = sum(ws) / len(ws)
    a = sum((w - wm) * (z - zm).conjugate() for z, w in zip(zs, ws, strict=True)) / sum(
        abs(z - zm) ** 2 for z in zs)
    # round so that the output does not depend on the last bits of floating point arithmetic
    a = complex(round(a.real, 9), round(a.imag, 9))
    b = wm - a * zm
    return Projection(a, complex(round(b.real, 9), round(b.imag, 9)))


def components(adjacent: Callable[[str, str], bool], hexes: list[str]) -> int:
    """How many connected pieces the hexes form."""
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


def compare_shifts(grid: PlaneGrid, setups: Iterable[Setup]) -> dict[str, dict[str, tuple[int, int]]]:
    """For each choice: (connected pieces, diameter in hexes) of every set-up area of two or more hexes."""
    out: dict[str, dict[str, tuple[int, int]]] = {}
    for shifted in ("even", "odd"):
        g = PlaneGrid(shifted, grid.lines, grid.positions)
        rows: dict[str, tuple[int, int]] = {}
        for setup in setups:
            hexes = list(setup.hexes)
            if len(hexes) < 2 or setup.scattered:
                continue
            diameter = max(g.rule_grid.distance(a, b) for a, b in itertools.combinations(hexes, 2))
            rows[f"{setup.scenario} {setup.label}"] = (components(g.adjacent, hexes), diameter)
        out[shifted] = rows
    return out


def plane_shift_report(geo: ModuleType) -> str:
    """The fitted scale and rotation against ``geo.KM_PER_HEX``, each anchor's and check's miss, whether the
    bridge pairs are neighbours, and the set-up areas under each ``shifted_lines`` choice."""
    grid = geo.GRID
    proj = fit_similarity(grid, geo.LANDMARKS, geo.ANCHORS)
    lines = [f"fitted scale {proj.km_per_hex:.3f} km per hex (rulebook 2.9: {geo.KM_PER_HEX:.3f}), "
             f"rotation {proj.rotation_deg:+.1f} degrees"]
    for name, where, _ in geo.ANCHORS + geo.CHECKS:
        d = math.dist(proj(geo.LANDMARKS[name]), grid.target(where))
        kind = "anchor" if any(name == n for n, _, _ in geo.ANCHORS) else "check"
        lines.append(f"  {kind:6s} {name:22s} -> {where:9s} off by {d:.2f} hex")
    lines.append("bridge pairs adjacent: " + ", ".join(
        f"{p}: even={PlaneGrid('even', grid.lines, grid.positions).adjacent(*p.split('/'))} "
        f"odd={PlaneGrid('odd', grid.lines, grid.positions).adjacent(*p.split('/'))}"
        for p in geo.FIT_BRIDGE_PAIRS))
    table = compare_shifts(grid, geo.SETUPS)
    lines.append(f"{'set-up area':50s} {'even':>12s} {'odd':>12s}")
    for key in table["even"]:
        e, o = table["even"][key], table["odd"][key]
        lines.append(f"{key:50s} {e[0]:>3d} pc {e[1]:>2d} hx  {o[0]:>3d} pc {o[1]:>2d} hx")
    totals = {s: (sum(v[0] for v in t.values()), sum(v[1] for v in t.values())) for s, t in table.items()}
    lines.append(f"{'total':50s} {totals['even'][0]:>3d} pc {totals['even'][1]:>2d} hx  "
                 f"{totals['odd'][0]:>3d} pc {totals['odd'][1]:>2d} hx")
    return "\n".join(lines)
