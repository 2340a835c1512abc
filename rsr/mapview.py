"""A picture of a Red Sun Rising position as SVG: terrain, rivers, rail, roads, places, units, and the
moves and attacks of one resolution, so a player can check a report (and the provisional map) by eye."""

from __future__ import annotations

import math
from html import escape

from rsr.engine import Event
from rsr.rulesets.red_sun_rising.state import RsrState

RADIUS = 14.0
WIDTH = math.sqrt(3) * RADIUS
COLOURS = {"clear": "#ece6c8", "rough": "#cdb98c", "mountain": "#9b876a", "sea": "#a9cbe3"}
SIDE_COLOURS = {"russia": "#2f5d9b", "japan": "#b8322a"}


def centre(state: RsrState, hex_id: str) -> tuple[float, float]:
    grid = state.static.grid
    x2, line = grid.doubled(hex_id)
    top = grid.lines[1]
    return x2 * WIDTH / 2 + WIDTH, (top - line) * 1.5 * RADIUS + 2 * RADIUS


def hex_points(x: float, y: float) -> str:
    corners = [(x + RADIUS * math.cos(math.radians(60 * i + 30)), y + RADIUS * math.sin(math.radians(60 * i + 30)))
               for i in range(6)]
    return " ".join(f"{cx:.1f},{cy:.1f}" for cx, cy in corners)


def edge(state: RsrState, first: str, second: str) -> tuple[float, float, float, float]:
    (x1, y1), (x2, y2) = centre(state, first), centre(state, second)
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    length = math.hypot(x2 - x1, y2 - y1)
    px, py = -(y2 - y1) / length * RADIUS / 2, (x2 - x1) / length * RADIUS / 2
    return mx - px, my - py, mx + px, my + py


def render(state: RsrState, events: list[Event] | None = None, title: str = "") -> str:
    static = state.static
    hexes = sorted(static.terrain)
    xs = [centre(state, h)[0] for h in hexes]
    ys = [centre(state, h)[1] for h in hexes]
    width, height = max(xs) + 2 * WIDTH, max(ys) + 3 * RADIUS
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif">',
           f'<title>{escape(title)}</title>',
           '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" '
           'orient="auto"><path d="M0,0 L10,5 L0,10 z"/></marker></defs>']
    for hex_id in hexes:
        x, y = centre(state, hex_id)
        out.append(f'<polygon points="{hex_points(x, y)}" fill="{COLOURS.get(static.terrain[hex_id], "#fff")}" '
                   'stroke="#8a8a8a" stroke-width="0.4"/>')
        out.append(f'<text x="{x:.1f}" y="{y - RADIUS * 0.55:.1f}" font-size="4" text-anchor="middle" '
                   f'fill="#555">{hex_id}</text>')
    for side_id, features in sorted(static.hexsides.items()):
        first, second = side_id.split("-")
        x1, y1, x2, y2 = edge(state, first, second)
        colour = "#2b6cb0" if "river" in features else "#000"
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" '
                   'stroke-width="2.2"/>')
    for links, colour, dash in ((static.road_links, "#8b5a2b", "3,2"), (static.rail_links, "#111", "")):
        for link in sorted(links):
            first, second = link.split("-")
            (x1, y1), (x2, y2) = centre(state, first), centre(state, second)
            style = f' stroke-dasharray="{dash}"' if dash else ""
            out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" '
                       f'stroke-width="1.6"{style}/>')
    for hex_id, place in sorted(static.places.items()):
        x, y = centre(state, hex_id)
        weight = "bold" if place.city else "normal"
        out.append(f'<text x="{x:.1f}" y="{y + RADIUS * 0.85:.1f}" font-size="5" font-weight="{weight}" '
                   f'text-anchor="middle">{escape(place.name)}{" ★" if place.fortress else ""}</text>')
    stacks: dict[str, list[str]] = {}
    for unit_id, unit in sorted(state.units.items()):
        if unit.hex and unit.steps > 0:
            stacks.setdefault(unit.hex, []).append(unit_id)
    for hex_id, ids in sorted(stacks.items()):
        x, y = centre(state, hex_id)
        side = state.units[ids[0]].side
        out.append(f'<rect x="{x - 8:.1f}" y="{y - 5:.1f}" width="16" height="9" rx="1.5" '
                   f'fill="{SIDE_COLOURS.get(side, "#444")}"><title>{escape(", ".join(ids))}</title></rect>')
        out.append(f'<text x="{x:.1f}" y="{y + 2:.1f}" font-size="6" fill="#fff" text-anchor="middle">'
                   f'{len(ids)}</text>')
    for event in events or []:
        if event.kind == "moved" and "path" in event.data:
            points = [centre(state, h) for h in [event.data["frm"], *event.data["path"]]]
            line = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
            out.append(f'<polyline points="{line}" fill="none" stroke="#1a7f37" stroke-width="1.5" '
                       f'marker-end="url(#arrow)"><title>{escape(event.text)}</title></polyline>')
        if event.kind == "combat":
            tx, ty = centre(state, event.data["hex"])
            for attacker in event.data["attackers"]:
                attacker_unit = state.units.get(attacker["unit"])
                if attacker_unit is None or not attacker_unit.hex:
                    continue
                sx, sy = centre(state, attacker_unit.hex)
                out.append(f'<line x1="{sx:.1f}" y1="{sy:.1f}" x2="{tx:.1f}" y2="{ty:.1f}" stroke="#d00" '
                           f'stroke-width="1.5" marker-end="url(#arrow)"><title>{escape(event.text)}</title></line>')
    out.append(f'<text x="6" y="12" font-size="9">{escape(title)}</text>')
    out.append(f'<text x="6" y="{height - 6:.0f}" font-size="6" fill="#555">{escape(static.map_provenance)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
