"""Which shifted_lines convention (even or odd) makes the rulebook's hexes sit where the rules put them?

Both conventions share the grid fit of data-notes.md (line -> latitude, position -> longitude, 0801 at
Port Arthur); they differ only in which lines sit half a hex east. The test measures, for each:

* how far (in hex widths) the real place lies from the centre of the hex the rules name for it;
* how far the hexes the Player's Notes put on the railway lie from the real 1904 railway;
* whether hexes the rules treat as neighbours or as a continuous line are adjacent;
* how the two Liaoyang defence lines of the Player's Notes sit around the Liaoyang hex: the inner line
  (2007 1908 1909 1910) should be closer than the outer (1907 1807 1808 1809 1811).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tools.rsr_map import geography as geo
from tools.rsr_map.grid import ROW, Grid, Hex, hex_id, parse_hex

PLACE_CHECKS: list[tuple[str, str]] = [
    ("Dalny", "0803"), ("Vladivostok", "2937"), ("Kuanchengtzu", "3316"), ("Novokievsk", "2734"),
    ("Seoul", "0220"), ("Newchwang (Yingkou)", "1706"), ("Liaoyang", "2008"),
]
RAIL_CHECKS = ["1004", "1105", "1606"]
REAL_RAILWAY = [
    (38.80, 121.25), (38.84, 121.45), (39.03, 121.68), (39.40, 121.97), (39.63, 122.00), (40.18, 122.12),
    (40.40, 122.35), (40.63, 122.50), (40.85, 122.75), (41.10, 123.00), (41.27, 123.17),
]
INNER = ["2007", "1908", "1909", "1910"]
OUTER = ["1907", "1807", "1808", "1809", "1811"]
PAIRS = [("1004", "1105", "rail hexes named together"), ("1606", "1706", "landing next to the rail hex"),
         ("2007", "1908", "inner line"), ("1908", "1909", "inner line"), ("1909", "1910", "inner line"),
         ("1907", "1807", "outer line"), ("1807", "1808", "outer line"), ("1808", "1809", "outer line")]


def _dist_to_polyline(grid: Grid, h: Hex, pts: list[tuple[float, float]]) -> float:
    cx, cr = grid.centre_grid(h)
    best = math.inf
    for (la, lo), (lb, lob) in zip(pts, pts[1:], strict=False):
        ax, ar = grid.latlon_to_grid(la, lo)
        bx, br = grid.latlon_to_grid(lb, lob)
        vx, vy = bx - ax, (br - ar) * ROW
        px, py = cx - ax, (cr - ar) * ROW
        t = max(0.0, min(1.0, (px * vx + py * vy) / (vx * vx + vy * vy)))
        best = min(best, math.hypot(px - t * vx, py - t * vy))
    return best


@dataclass
class Fit:
    places: dict[str, float]  # place -> distance from its named hex
    landed: dict[str, str]  # place -> hex the real place falls in
    rail: dict[str, float]  # rail hex -> distance from the real railway
    pairs: dict[tuple[str, str], bool]  # -> adjacent?
    inner: dict[str, int]  # inner-line hex -> hexes from 2008
    outer: dict[str, int]

    def total(self) -> float:
        return sum(self.places.values()) + sum(self.rail.values())


def measure(shift: str) -> Fit:
    grid = Grid(shifted_lines=shift)
    lyg = parse_hex("2008")
    return Fit(
        places={name: grid.grid_distance(parse_hex(h), *geo.PLACES[name]) for name, h in PLACE_CHECKS},
        landed={name: hex_id(grid.hex_at(*geo.PLACES[name])) for name, _ in PLACE_CHECKS},
        rail={h: _dist_to_polyline(grid, parse_hex(h), REAL_RAILWAY) for h in RAIL_CHECKS},
        pairs={(a, b): grid.adjacent(parse_hex(a), parse_hex(b)) for a, b, _ in PAIRS},
        inner={h: grid.distance(lyg, parse_hex(h)) for h in INNER},
        outer={h: grid.distance(lyg, parse_hex(h)) for h in OUTER},
    )


def report() -> str:
    res = {s: measure(s) for s in ("even", "odd")}
    even, odd = res["even"], res["odd"]
    w = 52
    out = ["shifted_lines fit against the rulebook's hexes (distances in hex widths; lower is better)", ""]
    out.append(f"{'check':{w}} {'even':>14} {'odd':>14}")
    for name, h in PLACE_CHECKS:
        cells = [f"{f.places[name]:.2f} ({f.landed[name]})" for f in (even, odd)]
        out.append(f"{'real ' + name + ' from ' + h + ' (falls in)':{w}} {cells[0]:>14} {cells[1]:>14}")
    for h in RAIL_CHECKS:
        cells = [f"{f.rail[h]:.2f}" for f in (even, odd)]
        out.append(f"{'rail hex ' + h + ' from the real railway':{w}} {cells[0]:>14} {cells[1]:>14}")
    for a, b, why in PAIRS:
        cells = ["adjacent" if f.pairs[(a, b)] else "NOT adjacent" for f in (even, odd)]
        out.append(f"{a + '-' + b + ' (' + why + ')':{w}} {cells[0]:>14} {cells[1]:>14}")
    for label, key in (("inner line", "inner"), ("outer line", "outer")):
        cells = [" ".join(str(v) for v in getattr(f, key).values()) for f in (even, odd)]
        out.append(f"{'hexes from 2008 (Liaoyang), ' + label:{w}} {cells[0]:>14} {cells[1]:>14}")
    out.append(f"{'sum of distances':{w}} {even.total():>14.2f} {odd.total():>14.2f}")
    return "\n".join(out)
