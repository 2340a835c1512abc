"""The generators' geography-check previews are drawn by rsr/draw, the one drawing module of the project
(game maps, the naval map, the previews): each generator builds an :class:`rsr.draw.hexmap.Scene` from its
model (preview.py in tools/rsr_map, tools/rs_map; tools/rsr_naval_map uses the naval map's own scene) and
adds the real geography as overlays, placed with :func:`fit_affine`."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rsr.draw.hexmap import Layout, Overlay, Scene, render

Point = tuple[float, float]


def fit_affine(pairs: Sequence[tuple[Point, Point]]) -> Callable[[Point], Point]:
    """The affine map that takes the first point of each of three pairs to the second (a generator's own
    plane, or latitude and longitude, to the drawing's pixels). The three points must not be collinear."""
    (u1, v1), (u2, v2), (u3, v3) = (p for p, _ in pairs[:3])
    det = u1 * (v2 - v3) - v1 * (u2 - u3) + (u2 * v3 - u3 * v2)
    if abs(det) < 1e-12:
        raise ValueError("fit_affine: the three points are collinear")

    def solve(t1: float, t2: float, t3: float) -> tuple[float, float, float]:  # t = a*u + b*v + c (Cramer)
        a = (t1 * (v2 - v3) - v1 * (t2 - t3) + (t2 * v3 - t3 * v2)) / det
        b = (u1 * (t2 - t3) - t1 * (u2 - u3) + (u2 * t3 - u3 * t2)) / det
        c = (u1 * (v2 * t3 - v3 * t2) - v1 * (u2 * t3 - u3 * t2) + t1 * (u2 * v3 - u3 * v2)) / det
        return a, b, c

    ax, bx, cx = solve(*(q[0] for _, q in pairs[:3]))
    ay, by, cy = solve(*(q[1] for _, q in pairs[:3]))
    return lambda p: (ax * p[0] + bx * p[1] + cx, ay * p[0] + by * p[1] + cy)


def corner_ring(layout: Layout, hex_id: str, scale: float = 1.0) -> tuple[Point, ...]:
    """The corners of a hex, pulled toward its centre by ``scale`` (an inner ring marks a hex's group)."""
    cx, cy = layout.centre(hex_id)
    return tuple((cx + (x - cx) * scale, cy + (y - cy) * scale) for x, y in layout.corners(hex_id))


def line(points: Sequence[Point], to_pixels: Callable[[Point], Point], style: str, closed: bool = False) -> Overlay:
    return Overlay(tuple(to_pixels(p) for p in points), style, closed)


def preview_svg(scene: Scene) -> str:
    """Every hex of the scene."""
    return render(scene, sorted(scene.terrain))
