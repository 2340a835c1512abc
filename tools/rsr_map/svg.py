"""SVG preview of the drawn map, for checking the geography by eye."""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

from tools.rsr_map.build import MapModel
from tools.rsr_map.grid import ROW, Hex, hex_id

W = 26.0  # hex width in pixels
MARGIN = 30.0
FILL = {"sea": "#bcd9ef", "clear": "#f3efc8", "rough": "#cdbf8a", "mountain": "#9b8066"}
AREA_COLOUR = {"A": "#d62728", "B": "#9467bd", "C": "#1f77b4", "D": "#2ca02c", "E": "#ff7f0e"}


def _fmt(v: float) -> str:
    return f"{v:.1f}"


class Canvas:
    def __init__(self, model: MapModel) -> None:
        self.m = model
        g = model.grid
        self.x0 = g.positions[0] - 1.0
        self.top = g.lines[1] + 1.0
        self.width = (g.positions[1] - g.positions[0] + 2.5) * W + 2 * MARGIN
        self.height = (g.lines[1] - g.lines[0] + 2) * ROW * W + 2 * MARGIN + 70

    def px(self, x: float, r: float) -> tuple[float, float]:
        return MARGIN + (x - self.x0) * W, MARGIN + (self.top - r) * ROW * W

    def centre(self, h: Hex) -> tuple[float, float]:
        return self.px(*self.m.grid.centre_grid(h))

    def corner(self, key: tuple[int, int]) -> tuple[float, float]:
        return self.px(key[0] / 2, key[1] / 3)

    def geo(self, lat: float, lon: float) -> tuple[float, float]:
        return self.px(*self.m.grid.latlon_to_grid(lat, lon))


def _polyline(points: Sequence[tuple[float, float]], style: str) -> str:
    pts = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in points)
    return f'<polyline points="{pts}" {style}/>'


def _label_spot(cx: float, cy: float, tw: float, th: float,
                boxes: Sequence[tuple[float, float, float, float]], width: float) -> tuple[float, float]:
    """Baseline-left point for a label near (cx, cy) that overlaps no box, if one of the tries does."""
    tries = [(cx + 7, cy + 10), (cx + 7, cy - 3), (cx - 7 - tw, cy + 10), (cx - 7 - tw, cy - 3),
             (cx - tw / 2, cy + 17), (cx - tw / 2, cy - 9), (cx + 7, cy + 20), (cx - 7 - tw, cy + 20)]
    for lx, ly in tries:
        if lx + tw > width - 4 or lx < 4:
            continue
        box = (lx, ly - th, lx + tw, ly)
        if not any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in boxes):
            return lx, ly
    return tries[0] if tries[0][0] + tw <= width - 4 else tries[2]


def render(model: MapModel, coastlines: Sequence[Sequence[tuple[float, float]]] = ()) -> str:
    """The preview as SVG text. `coastlines` are warped land polygons, drawn faintly for comparison."""
    c = Canvas(model)
    g = model.grid
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_fmt(c.width)}" height="{_fmt(c.height)}" '
        f'viewBox="0 0 {_fmt(c.width)} {_fmt(c.height)}" font-family="DejaVu Sans, sans-serif">',
        f'<rect width="{_fmt(c.width)}" height="{_fmt(c.height)}" fill="white"/>',
    ]
    # hexes
    for h in g.hexes():
        pts = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in (c.px(*p) for p in g.corners(h)))
        out.append(f'<polygon points="{pts}" fill="{FILL[model.terrain[h]]}" stroke="#8a8a8a" '
                   f'stroke-width="0.4"/>')
    # code areas: a coloured inner ring on each coastal hex
    for area, hexes in sorted(model.code_areas.items()):
        for h in hexes:
            cx, cy = c.centre(h)
            pts = " ".join(
                f"{_fmt(cx + (x - cx) * 0.82)},{_fmt(cy + (y - cy) * 0.82)}"
                for x, y in (c.px(*p) for p in g.corners(h))
            )
            out.append(f'<polygon points="{pts}" fill="none" stroke="{AREA_COLOUR[area]}" '
                       f'stroke-width="1.3" stroke-dasharray="3,1.5"/>')
    # hex numbers
    for h in g.hexes():
        cx, cy = c.centre(h)
        colour = "#555" if model.terrain[h] != "sea" else "#7fa3bf"
        out.append(f'<text x="{_fmt(cx)}" y="{_fmt(cy - 0.30 * W)}" font-size="5.2" text-anchor="middle" '
                   f'fill="{colour}">{hex_id(h)}</text>')
    # faint real (warped) coastline, clipped to the map
    x1, y1 = c.px(g.positions[0] - 0.5, g.lines[1] + 0.6)
    x2, y2 = c.px(g.positions[1] + 1.0, g.lines[0] - 0.6)
    out.append(f'<clipPath id="map"><rect x="{_fmt(x1)}" y="{_fmt(y1)}" width="{_fmt(x2 - x1)}" '
               f'height="{_fmt(y2 - y1)}"/></clipPath>')
    out.append('<g clip-path="url(#map)">')
    for poly in coastlines:
        ring = [c.geo(*p) for p in poly] + [c.geo(*poly[0])]
        out.append(_polyline(ring, 'fill="none" stroke="#3d6e96" stroke-width="0.6" stroke-opacity="0.6"'))
    for course in model.river_lines.values():
        out.append(_polyline([c.geo(*p) for p in course],
                             'fill="none" stroke="#4f8fd6" stroke-width="0.6" stroke-opacity="0.7"'))
    out.append("</g>")
    # river and impassable hexsides
    for (a, b), _name in sorted(model.rivers.items()):
        (x1, y1), (x2, y2) = (c.corner(k) for k in g.side_corners(a, b))
        out.append(f'<line x1="{_fmt(x1)}" y1="{_fmt(y1)}" x2="{_fmt(x2)}" y2="{_fmt(y2)}" '
                   f'stroke="#1f5fbf" stroke-width="2.6" stroke-linecap="round"/>')
    for a, b in sorted(model.impassable):
        (x1, y1), (x2, y2) = (c.corner(k) for k in g.side_corners(a, b))
        out.append(f'<line x1="{_fmt(x1)}" y1="{_fmt(y1)}" x2="{_fmt(x2)}" y2="{_fmt(y2)}" '
                   f'stroke="#8b0000" stroke-width="3" stroke-linecap="round"/>')
    # roads, then rail on top
    for _name, hexes in sorted(model.roads.items()):
        out.append(_polyline([c.centre(h) for h in hexes],
                             'fill="none" stroke="#8b4513" stroke-width="1.6" stroke-dasharray="4,2"'))
    for _name, hexes in sorted(model.rail.items()):
        track = [c.centre(h) for h in hexes]
        out.append(_polyline(track, 'fill="none" stroke="black" stroke-width="2.4"'))
        out.append(_polyline(track, 'fill="none" stroke="white" stroke-width="1" stroke-dasharray="3,3"'))
    # places; labels go where they overlap nothing placed before
    boxes: list[tuple[float, float, float, float]] = []
    for p in model.places:
        h = (int(str(p["hex"])[:2]), int(str(p["hex"])[2:]))
        cx, cy = c.centre(h)
        boxes.append((cx - 7, cy - 7, cx + 7, cy + 7))
    for p in model.places:
        h = (int(str(p["hex"])[:2]), int(str(p["hex"])[2:]))
        cx, cy = c.centre(h)
        if p.get("fortress"):
            out.append(f'<circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="5" fill="none" stroke="#b00" '
                       f'stroke-width="1.8"/>')
        if p.get("city"):
            out.append(f'<rect x="{_fmt(cx - 3)}" y="{_fmt(cy - 3)}" width="6" height="6" fill="#c00"/>')
        else:
            out.append(f'<circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="2.2" fill="#333"/>')
        if p.get("port"):
            out.append(f'<circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="7.5" fill="none" stroke="#0050a0" '
                       f'stroke-width="1"/>')
        if p.get("railhead"):
            out.append(f'<rect x="{_fmt(cx - 7)}" y="{_fmt(cy - 7)}" width="14" height="14" fill="none" '
                       f'stroke="black" stroke-width="1.5"/>')
        name = str(p["name"])
        tw, th = 5.2 * len(name), 9.0
        lx, ly = _label_spot(cx, cy, tw, th, boxes, c.width)
        boxes.append((lx, ly - th, lx + tw, ly))
        out.append(f'<text x="{_fmt(lx)}" y="{_fmt(ly)}" font-size="8.5" font-weight="bold" '
                   f'fill="#222" stroke="white" stroke-width="2.2" paint-order="stroke">{escape(name)}</text>')
    # legend
    ly = c.height - 55
    items = [("clear", FILL["clear"]), ("rough", FILL["rough"]), ("mountain", FILL["mountain"]),
             ("sea", FILL["sea"])]
    x = MARGIN
    for name, colour in items:
        out.append(f'<rect x="{_fmt(x)}" y="{_fmt(ly)}" width="14" height="10" fill="{colour}" stroke="#888"/>')
        out.append(f'<text x="{_fmt(x + 18)}" y="{_fmt(ly + 9)}" font-size="10">{name}</text>')
        x += 80
    for text, style in (("river", 'stroke="#1f5fbf" stroke-width="2.6"'),
                        ("impassable", 'stroke="#8b0000" stroke-width="3"'),
                        ("rail", 'stroke="black" stroke-width="2.4"'),
                        ("road", 'stroke="#8b4513" stroke-width="1.6" stroke-dasharray="4,2"')):
        out.append(f'<line x1="{_fmt(x)}" y1="{_fmt(ly + 5)}" x2="{_fmt(x + 16)}" y2="{_fmt(ly + 5)}" {style}/>')
        out.append(f'<text x="{_fmt(x + 20)}" y="{_fmt(ly + 9)}" font-size="10">{text}</text>')
        x += 90
    for area, colour in AREA_COLOUR.items():
        out.append(f'<rect x="{_fmt(x)}" y="{_fmt(ly)}" width="12" height="10" fill="none" stroke="{colour}" '
                   f'stroke-width="1.5"/>')
        out.append(f'<text x="{_fmt(x + 15)}" y="{_fmt(ly + 9)}" font-size="10">code {area}</text>')
        x += 62
    for i, line in enumerate((
        "PROVISIONAL Red Sun Rising land map, drawn from real geography by tools/rsr_map: not the published map.",
        "Red square: city; red ring: fortress; blue ring: port; black box: Russian railhead; dashed hex rings: "
        "naval code areas; thin lines: the real coast and rivers after the local nudges.",
    )):
        out.append(f'<text x="{_fmt(MARGIN)}" y="{_fmt(ly + 26 + 13 * i)}" font-size="10" fill="#444">'
                   f"{escape(line)}</text>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
