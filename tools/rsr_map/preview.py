"""The Red Sun Rising land map's geography-check preview, drawn by rsr/draw (tools/hexmap/preview.py):
terrain, hex numbers, rivers and impassable sides, roads and rail, places, the naval code areas as coloured
inner rings, and the real (warped) coast and rivers as thin lines to compare with the hexes."""

from __future__ import annotations

from collections.abc import Sequence

from rsr.draw.hexmap import Label, Layout, Link, Scene, SideLine
from rsr.hexgrid import Grid as RuleGrid
from tools.hexmap.preview import corner_ring, fit_affine, line, preview_svg
from tools.rsr_map.build import MapModel
from tools.rsr_map.grid import hex_id

AREA_COLOUR = {"A": "#d62728", "B": "#9467bd", "C": "#1f77b4", "D": "#2ca02c", "E": "#ff7f0e"}
COAST = 'fill="none" stroke="#3d6e96" stroke-width="0.8" stroke-opacity="0.6"'
RIVER = 'fill="none" stroke="#4f8fd6" stroke-width="0.8" stroke-opacity="0.7"'


def scene(model: MapModel, coastlines: Sequence[Sequence[tuple[float, float]]] = ()) -> Scene:
    g = model.grid
    layout = Layout(RuleGrid(g.shifted_lines, g.lines, g.positions), "north")
    terrain = {hex_id(h): t for h, t in sorted(model.terrain.items())}
    out = Scene(layout, terrain, "Red Sun Rising: PROVISIONAL land map, drawn from real geography by tools/rsr_map",
                "not the published map (docs/red-sun-rising/map.md)")
    corners = [(g.lines[0], g.positions[0]), (g.lines[0], g.positions[1]), (g.lines[1], g.positions[0])]
    to_pixels = fit_affine([(g.centre_grid(h), layout.centre(hex_id(h))) for h in corners])

    def geo(p: tuple[float, float]) -> tuple[float, float]:
        return to_pixels(g.latlon_to_grid(*p))

    for area, hexes in sorted(model.code_areas.items()):
        style = f'fill="none" stroke="{AREA_COLOUR[area]}" stroke-width="1.6" stroke-dasharray="3,1.5"'
        out.overlays += [line(corner_ring(layout, hex_id(h), 0.82), lambda p: p, style, True) for h in hexes]
    out.overlays += [line(poly, geo, COAST, True) for poly in coastlines]
    out.overlays += [line(course, geo, RIVER) for _, course in sorted(model.river_lines.items())]
    out.sides += [SideLine(hex_id(a), hex_id(b), "river") for a, b in sorted(model.rivers)]
    out.sides += [SideLine(hex_id(a), hex_id(b), "impassable") for a, b in sorted(model.impassable)]
    out.links += [Link(tuple(hex_id(h) for h in hexes), "track") for _, hexes in sorted(model.roads.items())]
    out.links += [Link(tuple(hex_id(h) for h in hexes), "rail") for _, hexes in sorted(model.rail.items())]
    for place in model.places:
        marks = [m for m, key in (("port", "port"), ("railhead", "railhead")) if place.get(key)]
        text = str(place["name"]) + (f" ({', '.join(marks)})" if marks else "")
        out.labels.append(Label(str(place["hex"]), text, bool(place.get("city")),
                                "#bb0000" if place.get("fortress") else ""))
    out.legend = [("", "terrain: clear, rough (dots), mountain (peaks), sea"),
                  ("", "blue sides: rivers; black sides: impassable; brown dashes: roads; black with ties: rail"),
                  ("", "bold: city; red ring: fortress; dashed inner rings: naval code areas A-E (7.5), "
                       + ", ".join(f"{a} {c}" for a, c in AREA_COLOUR.items())),
                  ("", "thin lines: the real coast and rivers after the local nudges")]
    return out


def render(model: MapModel, coastlines: Sequence[Sequence[tuple[float, float]]] = ()) -> str:
    """The preview as SVG text. ``coastlines`` are warped land polygons (latitude, longitude)."""
    return preview_svg(scene(model, coastlines))
