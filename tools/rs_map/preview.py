"""The Red Sun/Red Star map's geography-check preview, drawn by rsr/draw (tools/hexmap/preview.py): terrain,
hex numbers, the Halha, the Holsten, streams, the border claim, slopes, bridges, roads, the Disputed Area
tinted, the victory hexes, and the projected real rivers, claim line, bluff and areas as thin lines."""

from __future__ import annotations

from rsr.draw.hexmap import Label, Layout, Link, Scene, SideLine
from tools.hexmap.preview import corner_ring, fit_affine, line, preview_svg
from tools.rs_map.build import MapModel

REAL = 'fill="none" stroke="#202020" stroke-width="0.8" stroke-opacity="0.5"'
AREA = 'fill="none" stroke="#603010" stroke-width="0.8" stroke-dasharray="2,2"'
DISPUTED = 'fill="#ff4040" fill-opacity="0.08" stroke="none"'


def scene(model: MapModel) -> Scene:
    g = model.grid
    layout = Layout(g.rule_grid, "east")
    out = Scene(layout, dict(sorted(model.terrain.items())),
                "Red Sun/Red Star: PROVISIONAL map of the Nomonhan battlefield, drawn by tools/rs_map",
                "not the published map (docs/red-star/map.md)")
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
            out.sides.append(SideLine(a, b, "bridge" if len(side["scenarios"]) == 4 else "bridge-other"))
        else:
            out.sides.append(SideLine(a, b, feature))
    for place in model.places:
        points = place.get("victory_points")
        text = "entry" if place.get("entry") else str(place.get("name", ""))
        text += f" {points} VP" if points else ""
        text += " (depot)" if place.get("depot") else ""
        out.labels.append(Label(str(place["hex"]), text, bool(points), "#c00000" if points else ""))
    out.legend = [("", "terrain: clear, desert, dunes (waves), marsh (tufts)"),
                  ("", "Halha (thick blue), Holsten (blue), streams; border claim (red dashes)"),
                  ("", "slopes: ticks toward the lower hex; bridges: black, purple when not in every scenario"),
                  ("", "roads (brown), tracks (dashed); Disputed Area tinted pink; victory hexes of 13.1 ringed"),
                  ("", "thin lines: the real rivers, claim, bluff and areas, projected")]
    return out


def render(model: MapModel) -> str:
    return preview_svg(scene(model))
