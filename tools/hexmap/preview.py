"""The generators' geography-check previews are drawn by rsr/draw, the one drawing module of the project
(game maps, the naval map, the previews): each kind of map becomes an :class:`rsr.draw.hexmap.Scene`
(:func:`theatre_scene`, :func:`battlefield_scene`; tools/rsr_naval_map uses the naval map's own scene) with
the real geography added as overlays, placed with :func:`fit_affine`.

The theatre preview shows terrain, hex numbers, rivers and impassable sides, roads and rail, places, the
naval code areas as coloured inner rings, and the real (warped) coast and rivers as thin lines to compare
with the hexes. The battlefield preview shows terrain, hex numbers, the major and minor rivers, streams,
the border claim, slopes, bridges, roads, the Disputed Area tinted, the victory hexes, and the projected
real rivers, claim line, bluff and areas as thin lines."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import ModuleType

from rsr.draw.hexmap import Label, Layout, Link, Overlay, Scene, SideLine, render
from rsr.hexgrid import Grid as RuleGrid
from tools.hexmap.battlefield import MapModel as BattlefieldModel
from tools.hexmap.grid import hex_id
from tools.hexmap.theatre import MapModel as TheatreModel

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


# ---------------------------------------------------------------------------------------------------------
# a theatre map (Red Sun Rising)
# ---------------------------------------------------------------------------------------------------------

COAST = 'fill="none" stroke="#3d6e96" stroke-width="0.8" stroke-opacity="0.6"'
RIVER = 'fill="none" stroke="#4f8fd6" stroke-width="0.8" stroke-opacity="0.7"'


def theatre_scene(model: TheatreModel, geo: ModuleType) -> Scene:
    """The theatre map with the real (warped) coast and rivers; title, legend and the colour of each code
    area from the geography file."""
    g = model.grid
    layout = Layout(RuleGrid(g.shifted_lines, g.lines, g.positions), "north")
    terrain = {hex_id(h): t for h, t in sorted(model.terrain.items())}
    out = Scene(layout, terrain, *geo.PREVIEW_TITLE)
    corners = [(g.lines[0], g.positions[0]), (g.lines[0], g.positions[1]), (g.lines[1], g.positions[0])]
    to_pixels = fit_affine([(g.centre_grid(h), layout.centre(hex_id(h))) for h in corners])

    def latlon(p: tuple[float, float]) -> tuple[float, float]:
        return to_pixels(g.latlon_to_grid(*p))

    for area, hexes in sorted(model.code_areas.items()):
        style = f'fill="none" stroke="{geo.CODE_AREA_COLOUR[area]}" stroke-width="1.6" stroke-dasharray="3,1.5"'
        out.overlays += [line(corner_ring(layout, hex_id(h), 0.82), lambda p: p, style, True) for h in hexes]
    out.overlays += [line(poly, latlon, COAST, True) for poly in model.coast_lines]
    out.overlays += [line(course, latlon, RIVER) for _, course in sorted(model.river_lines.items())]
    out.sides += [SideLine(hex_id(a), hex_id(b), "river") for a, b in sorted(model.rivers)]
    out.sides += [SideLine(hex_id(a), hex_id(b), "impassable") for a, b in sorted(model.impassable)]
    out.links += [Link(tuple(hex_id(h) for h in hexes), "track") for _, hexes in sorted(model.roads.items())]
    out.links += [Link(tuple(hex_id(h) for h in hexes), "rail") for _, hexes in sorted(model.rail.items())]
    for place in model.places:
        marks = [m for m, key in (("port", "port"), ("railhead", "railhead")) if place.get(key)]
        text = str(place["name"]) + (f" ({', '.join(marks)})" if marks else "")
        out.labels.append(Label(str(place["hex"]), text, bool(place.get("city")),
                                "#bb0000" if place.get("fortress") else ""))
    out.legend = [("", text) for text in geo.PREVIEW_LEGEND]
    return out


# ---------------------------------------------------------------------------------------------------------
# a battlefield map (Red Sun/Red Star)
# ---------------------------------------------------------------------------------------------------------

REAL = 'fill="none" stroke="#202020" stroke-width="0.8" stroke-opacity="0.5"'
AREA = 'fill="none" stroke="#603010" stroke-width="0.8" stroke-dasharray="2,2"'
DISPUTED = 'fill="#ff4040" fill-opacity="0.08" stroke="none"'


def battlefield_scene(model: BattlefieldModel, geo: ModuleType) -> Scene:
    """The battlefield map with the projected real lines and areas; title and legend from the geography
    file; a bridge absent from some scenario drawn apart."""
    g = model.grid
    layout = Layout(g.rule_grid, "east")
    out = Scene(layout, dict(sorted(model.terrain.items())), *geo.PREVIEW_TITLE)
    first, last = g.lines, g.positions
    corners = [f"{first[0]:02d}{last[0]:02d}", f"{first[0]:02d}{last[1]:02d}", f"{first[1]:02d}{last[0]:02d}"]
    to_pixels = fit_affine([(g.centre(h), layout.centre(h)) for h in corners])
    out.overlays += [line(corner_ring(layout, h), lambda p: p, DISPUTED, True) for h in model.disputed]
    out.overlays += [line(model.lines[key], to_pixels, REAL) for key in ("halha", "holsten", "claim", "bluff")]
    out.overlays += [line(poly, to_pixels, AREA, True) for _, poly in sorted(model.areas.items())]
    for name, hexes in sorted(model.roads.items()):
        out.links.append(Link(tuple(hexes), "track" if "track" in name else "road"))
    for side in model.hexsides:
        a, b = side["side"].split("-")
        feature = side["feature"]
        if feature == "slope":
            out.sides.append(SideLine(a, b, "slope", b if side["up"] == a else a))
        elif feature == "bridge":
            always = len(side["scenarios"]) == len(geo.ALL_SCENARIOS)
            out.sides.append(SideLine(a, b, "bridge" if always else "bridge-other"))
        else:
            out.sides.append(SideLine(a, b, feature))
    for place in model.places:
        points = place.get("victory_points")
        text = "entry" if place.get("entry") else str(place.get("name", ""))
        text += f" {points} VP" if points else ""
        text += " (depot)" if place.get("depot") else ""
        out.labels.append(Label(str(place["hex"]), text, bool(points), "#c00000" if points else ""))
    out.legend = [("", text) for text in geo.PREVIEW_LEGEND]
    return out
