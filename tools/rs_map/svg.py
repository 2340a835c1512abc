"""SVG preview of the provisional map, to check the geography by eye."""

from __future__ import annotations

from tools.rs_map.build import MapModel

SCALE = 22.0  # pixels per grid unit
MARGIN = 30.0
COLOURS = {"clear": "#dfe8b0", "desert": "#ecd9a6", "dunes": "#d9b36c", "marsh": "#9ccfc0"}
FEATURE_STYLE = {
    "halha": 'stroke="#1f5fbf" stroke-width="5" stroke-linecap="round"',
    "minor-river": 'stroke="#3f8fef" stroke-width="3" stroke-linecap="round"',
    "stream": 'stroke="#5fafff" stroke-width="1.6" stroke-linecap="round"',
    "border-claim": 'stroke="#c0302a" stroke-width="2.2" stroke-dasharray="6,3"',
}


def _xy(p: tuple[float, float]) -> str:
    return f"{MARGIN + p[0] * SCALE:.1f},{MARGIN + p[1] * SCALE:.1f}"


def _f(v: float) -> str:
    return f"{v:.1f}"


def render(m: MapModel) -> str:
    g = m.grid
    width = MARGIN * 2 + ((g.lines[1] - g.lines[0]) * 0.866 + 1) * SCALE
    height = MARGIN * 2 + (g.positions[1] + 1.5) * SCALE
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif">',
           '<title>Red Sun/Red Star: provisional map of the Nomonhan battlefield (tools/rs_map)</title>',
           f'<rect width="{width:.0f}" height="{height:.0f}" fill="white"/>']
    disputed = set(m.disputed)
    for h in g.hexes():
        pts = " ".join(_xy(c) for c in g.corners(h))
        out.append(f'<polygon points="{pts}" fill="{COLOURS[m.terrain[h]]}" stroke="#b8b8b8" stroke-width="0.4"/>')
        if h in disputed:
            out.append(f'<polygon points="{pts}" fill="#ff4040" fill-opacity="0.07" stroke="none"/>')
    for h in g.hexes():
        cx, cy = g.centre(h)
        out.append(f'<text x="{_f(MARGIN + cx * SCALE)}" y="{_f(MARGIN + (cy - 0.3) * SCALE)}" font-size="4.5" '
                   f'text-anchor="middle" fill="#777">{h}</text>')
    for name, hexes in m.roads.items():
        pts = " ".join(_xy(g.centre(h)) for h in hexes)
        dash = ' stroke-dasharray="4,2"' if "track" in name else ""
        out.append(f'<polyline points="{pts}" fill="none" stroke="#7a4a1a" stroke-width="2"{dash}/>')
    for s in m.hexsides:
        a, b = s["side"].split("-")
        p, q = g.side_ends(a, b)
        feature = s["feature"]
        if feature in FEATURE_STYLE:
            out.append(f'<line x1="{_f(MARGIN + p[0] * SCALE)}" y1="{_f(MARGIN + p[1] * SCALE)}" '
                       f'x2="{_f(MARGIN + q[0] * SCALE)}" y2="{_f(MARGIN + q[1] * SCALE)}" {FEATURE_STYLE[feature]}/>')
        elif feature == "slope":
            # hachure: a short tick from the side's middle toward the lower hex
            low = b if s["up"] == a else a
            mx, my = g.side_mid(a, b)
            lx, ly = g.centre(low)
            for t in (-0.25, 0.0, 0.25):
                sx, sy = mx + (q[0] - p[0]) * t, my + (q[1] - p[1]) * t
                ex, ey = sx + (lx - mx) * 0.28, sy + (ly - my) * 0.28
                out.append(f'<line x1="{_f(MARGIN + sx * SCALE)}" y1="{_f(MARGIN + sy * SCALE)}" '
                           f'x2="{_f(MARGIN + ex * SCALE)}" y2="{_f(MARGIN + ey * SCALE)}" stroke="#6b3d12" '
                           f'stroke-width="1.2"/>')
    for s in m.hexsides:
        if s["feature"] != "bridge":
            continue
        a, b = s["side"].split("-")
        (ax, ay), (bx, by) = g.centre(a), g.centre(b)
        colour = "#000" if len(s["scenarios"]) == 4 else "#8a1a8a"
        out.append(f'<line x1="{_f(MARGIN + (ax * 0.62 + bx * 0.38) * SCALE)}" '
                   f'y1="{_f(MARGIN + (ay * 0.62 + by * 0.38) * SCALE)}" '
                   f'x2="{_f(MARGIN + (bx * 0.62 + ax * 0.38) * SCALE)}" '
                   f'y2="{_f(MARGIN + (by * 0.62 + ay * 0.38) * SCALE)}" stroke="{colour}" stroke-width="5"/>')
    # the real geography, projected, as thin lines (to compare with the hexsides)
    for key in ("halha", "holsten", "claim", "bluff"):
        pts = " ".join(_xy(p) for p in m.lines[key])
        out.append(f'<polyline points="{pts}" fill="none" stroke="#202020" stroke-width="0.6" '
                   f'stroke-opacity="0.5"/>')
    for poly in m.areas.values():
        pts = " ".join(_xy(p) for p in poly)
        out.append(f'<polygon points="{pts}" fill="none" stroke="#603010" stroke-width="0.6" '
                   f'stroke-dasharray="2,2"/>')
    for pl in m.places:
        cx, cy = g.centre(pl["hex"])
        x, y = MARGIN + cx * SCALE, MARGIN + cy * SCALE
        if pl.get("victory_points"):
            out.append(f'<circle cx="{_f(x)}" cy="{_f(y)}" r="6" fill="none" stroke="#c00000" stroke-width="2"/>')
            out.append(f'<text x="{_f(x + 7)}" y="{_f(y + 10)}" font-size="9" fill="#c00000">'
                       f'{pl["victory_points"]} VP</text>')
        if pl.get("depot"):
            out.append(f'<rect x="{_f(x - 5)}" y="{_f(y - 5)}" width="10" height="10" fill="none" '
                       f'stroke="#203080" stroke-width="2"/>')
        if pl.get("entry"):
            out.append(f'<circle cx="{_f(x)}" cy="{_f(y)}" r="3" fill="#c00000"/>')
            continue
        out.append(f'<text x="{_f(x)}" y="{_f(y + 4)}" font-size="8.5" text-anchor="middle" fill="#000" '
                   f'font-weight="bold">{pl["name"]}</text>')
    lx = MARGIN
    ly = height - 8
    out.append(f'<text x="{_f(lx)}" y="{_f(ly)}" font-size="10" fill="#333">PROVISIONAL: clear / desert / dunes / '
               'marsh; Halha (thick blue), Holsten (blue), stream, border claim (red dashes), slopes (ticks toward '
               'the lower hex), bridges (black; purple = not in every scenario), roads (brown), Disputed Area '
               '(pink tint), victory hexes of 13.1 (red rings)</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
