"""One hex-map drawing for both rulesets: a :class:`Scene` (what to show) rendered to SVG.

The rulesets differ only in what they put into the scene (rsr/draw/red_sun_rising.py,
rsr/draw/red_star.py) and in the orientation of their grids: Red Sun Rising numbers its hex lines as
rows stacked northward with pointy-topped hexes; Red Sun/Red Star numbers them as columns running
eastward, positions southward, with flat-topped hexes (docs/data-format.md, ``line_axis``).

Everything here is pure and ordered: the same scene always gives the same bytes.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass, field
from html import escape

from rsr.draw.counters import SIZE, CounterPic, counter_svg
from rsr.draw.labels import place
from rsr.hexgrid import Grid

RADIUS = 36.0
PANEL = 300.0  # width of the side panel listing stacks and arrows

Point = tuple[float, float]


@dataclass(frozen=True)
class Layout:
    """Where a hex is drawn. ``line_axis`` 'north' (RSR) or 'east' (RS/RS)."""

    grid: Grid
    line_axis: str
    radius: float = RADIUS

    def centre(self, hex_id: str) -> Point:
        x2, line = self.grid.doubled(hex_id)
        r = self.radius
        if self.line_axis == "north":  # pointy tops; lines are rows, numbered upward
            return x2 * math.sqrt(3) * r / 2, -line * 1.5 * r
        return line * 1.5 * r, x2 * math.sqrt(3) * r / 2  # flat tops; lines are columns, positions downward

    def corners(self, hex_id: str) -> list[Point]:
        x, y = self.centre(hex_id)
        start = 30 if self.line_axis == "north" else 0
        return [(x + self.radius * math.cos(math.radians(start + 60 * i)),
                 y + self.radius * math.sin(math.radians(start + 60 * i))) for i in range(6)]

    def side_ends(self, first: str, second: str) -> tuple[Point, Point]:
        """The two ends of the hexside between two adjacent hexes."""
        (x1, y1), (x2, y2) = self.centre(first), self.centre(second)
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        px, py = -(y2 - y1) / length * self.radius / 2, (x2 - x1) / length * self.radius / 2
        return (mx - px, my - py), (mx + px, my + py)


@dataclass(frozen=True)
class SideLine:
    """A hexside feature (river, slope, bridge...) drawn along or across the side."""

    first: str
    second: str
    style: str       # a key of SIDE_STYLES
    down: str = ""   # for a slope: the lower hex (ticks point to it)


@dataclass(frozen=True)
class Link:
    """A road or rail line along a chain of hexes."""

    hexes: tuple[str, ...]
    style: str  # "road" | "track" | "rail"


@dataclass(frozen=True)
class Label:
    hex: str
    text: str
    bold: bool = False
    ring: str = ""    # a colour: a ring around the hex centre (victory hexes)


@dataclass(frozen=True)
class Arrow:
    """A move, attack, retreat, advance or fire, hex to hex; ``title`` is what the report says of it."""

    kind: str                 # "move" | "attack" | "retreat" | "advance" | "fire" | "route-<side>" (naval)
    hexes: tuple[str, ...]
    title: str
    lost: bool = False        # the unit that made it was eliminated in the same packet
    label: str = ""           # a badge at the arrow's middle (the naval movement round)
    offset: float = 0.0       # pixels to the arrow's right, so routes sharing a hexside stay apart


@dataclass(frozen=True)
class Overlay:
    """A line or an area in the scene's pixels, over the terrain and under everything else, clipped to the
    drawn hexes (the map generators' previews: the real coast and rivers, code areas, a tinted region)."""

    points: tuple[Point, ...]
    style: str                # SVG presentation attributes
    closed: bool = False


@dataclass
class Scene:
    layout: Layout
    terrain: dict[str, str]               # hex -> terrain type (a key of TERRAIN)
    title: str = ""
    subtitle: str = ""
    sides: list[SideLine] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    stacks: dict[str, list[CounterPic]] = field(default_factory=dict)
    hex_markers: dict[str, list[str]] = field(default_factory=dict)   # hex -> short marker texts
    arrows: list[Arrow] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    legend: list[tuple[str, str]] = field(default_factory=list)       # (swatch colour, text)
    overlays: list[Overlay] = field(default_factory=list)
    numbers: dict[str, str] = field(default_factory=dict)             # hex -> the number printed (default: hex)
    number_size: float = 7.0
    zoom: float = 1.5                 # the PNG's zoom that keeps it at email size
    stack_dy: float = 0.0             # counters sit this far below the hex centre (under a large number)
    marker_room: float = 0.0          # counters move this far right in a hex with markers (the naval map)
    list_arrows: bool = True          # the panel lists every arrow (the naval map lists routes in its notes)
    chips: bool = False               # a stack of several counters drawn as one chip each (the naval map's fleets)
    focus: list[str] = field(default_factory=list)  # hexes the packet's events name (units hit, guns firing...)

    def action_hexes(self) -> list[str]:
        found = {h for a in self.arrows for h in a.hexes}
        return sorted(h for h in found if h in self.terrain)


TERRAIN = {
    "clear": "#eef0c8", "rough": "#d4c08e", "mountain": "#a88e6c", "sea": "#b3d3ea", "desert": "#f0deae",
    "dunes": "#dcb56e", "marsh": "#a8d6c6",
    "high-seas": "#8fbde3", "coastal": "#bcdaf0", "port": "#bcdaf0", "land": "#e6dfc6",
}
PATTERNS = {
    "rough": '<circle cx="3" cy="3" r="0.9" fill="#8f7a4c"/><circle cx="9" cy="9" r="0.9" fill="#8f7a4c"/>',
    "mountain": '<path d="M1,10 L6,3 L11,10" fill="none" stroke="#5e4a32" stroke-width="1"/>',
    "dunes": '<path d="M0,8 Q3,4 6,8 T12,8" fill="none" stroke="#a67f3a" stroke-width="0.8"/>',
    "marsh": '<path d="M2,9 L4,9 M3,9 L3,6 M8,4 L10,4 M9,4 L9,1" stroke="#2f7a63" stroke-width="0.8"/>',
}
SIDE_STYLES = {
    "river": 'stroke="#2c6fc2" stroke-width="4" stroke-linecap="round"',
    "halha": 'stroke="#1f5fbf" stroke-width="5" stroke-linecap="round"',
    "minor-river": 'stroke="#3f8fef" stroke-width="3.2" stroke-linecap="round"',
    "stream": 'stroke="#5fafff" stroke-width="1.8" stroke-linecap="round"',
    "border-claim": 'stroke="#c0302a" stroke-width="2" stroke-dasharray="5,3"',
    "impassable": 'stroke="#222" stroke-width="4.5" stroke-linecap="round"',
}
LINK_STYLES = {
    "road": 'stroke="#8b5a2b" stroke-width="2.2"',
    "track": 'stroke="#8b5a2b" stroke-width="1.8" stroke-dasharray="5,3"',
    "rail": 'stroke="#222" stroke-width="2.2"',
}
ARROW_COLOURS = {"move": "#1a7f37", "attack": "#d11a1a", "retreat": "#7b3fbf", "advance": "#d97706",
                 "fire": "#e0601a", "bombard": "#b0126a", "interdict": "#00838f", "counterbattery": "#5d4037",
                 "route-russia": "#17357a", "route-japan": "#b06a00", "route-merchant": "#1a7f37"}


def _f(value: float) -> str:
    return f"{value:.1f}"


def _pts(points: Iterable[Point]) -> str:
    return " ".join(f"{_f(x)},{_f(y)}" for x, y in points)


def within(layout: Layout, hexes: Iterable[str], centres: list[str], radius: int) -> list[str]:
    """The hexes inside the rectangle that holds every one of ``centres`` and ``radius`` hexes around them."""
    points = [layout.centre(c) for c in centres]
    margin = layout.radius * math.sqrt(3) * (radius + 0.2)
    x0, x1 = min(p[0] for p in points) - margin, max(p[0] for p in points) + margin
    y0, y1 = min(p[1] for p in points) - margin, max(p[1] for p in points) + margin
    return sorted(h for h in hexes if x0 <= layout.centre(h)[0] <= x1 and y0 <= layout.centre(h)[1] <= y1)


def contact_hexes(scene: Scene) -> list[str]:
    """Occupied hexes with an enemy stack at most two hexes away: where the next action will be."""
    grid = scene.layout.grid
    sides = {h: {p.side for p in pics} for h, pics in scene.stacks.items() if pics}
    return [h for h in sorted(sides) if any(grid.distance(h, o) <= 2 and sides[o] - sides[h]
                                            for o in sides if o != h)]


MAX_PICTURE = 1500.0  # pixels of the scene (before the PNG's zoom) a cropped picture may span either way


def groups_of(scene: Scene, hexes: list[str], apart: int) -> list[list[str]]:
    """``hexes`` in groups: hexes at most ``apart`` hexes from a member join its group; largest first."""
    grid = scene.layout.grid
    groups: list[list[str]] = []
    for h in hexes:
        joined = [g for g in groups if any(grid.distance(h, o) <= apart for o in g)]
        merged = sorted({h, *(x for g in joined for x in g)})
        groups = [g for g in groups if g not in joined] + [merged]
    return sorted(groups, key=lambda g: (-len(g), g))


def span(scene: Scene, hexes: list[str], radius: int) -> float:
    points = [scene.layout.centre(h) for h in hexes]
    margin = 2 * scene.layout.radius * math.sqrt(3) * (radius + 0.2)
    return max(max(p[0] for p in points) - min(p[0] for p in points),
               max(p[1] for p in points) - min(p[1] for p in points)) + margin


def main_action(scene: Scene, centres: list[str], radius: int) -> list[str]:
    """The packet's action hexes, or, when they lie so far apart that one picture of them all would exceed
    :data:`MAX_PICTURE`, the largest group of them (the panel names the others)."""
    if not centres or span(scene, centres, radius) <= MAX_PICTURE:
        return centres
    groups = groups_of(scene, centres, 6)
    return max(groups, key=lambda g: (sum(1 for a in scene.arrows if set(a.hexes) & set(g)), len(g)))  # first of equals


def fronts(scene: Scene) -> list[list[str]]:
    """The hexes in contact (:func:`contact_hexes`) grouped into fronts: hexes at most four apart join one
    front. Largest first (then in hex order)."""
    return groups_of(scene, contact_hexes(scene), 4)


def largest_front(scene: Scene) -> list[str]:
    found = fronts(scene)
    return found[0] if found else []


def nearest_enemies(scene: Scene) -> list[str]:
    """The two enemy stacks closest to each other (the front, when no two are in contact); the first pair
    in hex order among equals."""
    grid = scene.layout.grid
    sides = {h: {p.side for p in pics} for h, pics in sorted(scene.stacks.items()) if pics and h in scene.terrain}
    pairs = [(grid.distance(h, o), h, o) for h in sides for o in sides if h < o and sides[h] ^ sides[o]]
    return sorted(min(pairs)[1:]) if pairs else []


def crop_hexes(scene: Scene, around: str | None = None, radius: int = 3, whole: bool = False) -> list[str]:
    """Which hexes to draw: the whole map, the hexes around one hex, or those around the packet's action:
    every hex an arrow touches and every hex its events name (a gun that fired, a unit hit or arriving);
    for a packet that did nothing on the map, the largest front (where the two sides are in contact), else the
    two enemy stacks nearest each other, else every stack; the whole map only when no unit is on it."""
    every = sorted(scene.terrain)
    if whole:
        return every
    if around is not None:
        return within(scene.layout, every, [around], radius)
    centres = main_action(scene, sorted(set(scene.action_hexes()) | {h for h in scene.focus if h in scene.terrain}),
                          radius)
    if not centres:
        centres = largest_front(scene) or nearest_enemies(scene) or sorted(h for h, pics in scene.stacks.items()
                                                                            if pics and h in scene.terrain)
    if not centres:
        return every
    return within(scene.layout, every, centres, radius)


BEND = {"attack": 0.0, "fire": 0.2, "retreat": -0.2, "advance": -0.22, "move": 0.0, "bombard": 0.12,
        "interdict": 0.12, "counterbattery": -0.12}


def _arrow_d(layout: Layout, arrow: Arrow) -> tuple[str, Point]:
    """The SVG path of an arrow and its starting point. The ends stop at the counters' edges; a one-hex
    arrow bends by its kind, so that an attack, the fire back and the advance between the same two hexes
    stay apart."""
    points = [layout.centre(h) for h in arrow.hexes]
    (x1, y1), (x2, y2) = points[-2], points[-1]
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    if arrow.offset:
        points = [(x - uy * arrow.offset, y + ux * arrow.offset) for x, y in points]
    route = arrow.kind.startswith("route")  # a naval route runs hex to hex: its steps join up
    end, begin = (0.34, 0.0) if route else (0.6, 0.3)
    points[-1] = (x2 - ux * layout.radius * end, y2 - uy * layout.radius * end)
    (a1, b1), (a2, b2) = points[0], points[1]
    first = math.hypot(a2 - a1, b2 - b1) or 1.0
    points[0] = (a1 + (a2 - a1) / first * layout.radius * begin, b1 + (b2 - b1) / first * layout.radius * begin)
    bend = BEND.get(arrow.kind, 0.0)
    if len(points) == 2 and bend:
        (sx, sy), (ex, ey) = points
        mx, my = (sx + ex) / 2 - uy * length * bend, (sy + ey) / 2 + ux * length * bend
        return f"M{_f(sx)},{_f(sy)} Q{_f(mx)},{_f(my)} {_f(ex)},{_f(ey)}", points[0]
    return "M" + " L".join(f"{_f(x)},{_f(y)}" for x, y in points), points[0]


def render(scene: Scene, hexes: list[str] | None = None) -> str:
    """The scene as one SVG document, drawing only ``hexes`` (default: all)."""
    layout = scene.layout
    shown = sorted(hexes if hexes is not None else scene.terrain)
    keep = set(shown)
    # hexes off the drawn map that an arrow comes from (a fleet entering the map) widen the picture
    outside = sorted({h for a in scene.arrows for h in a.hexes if h not in scene.terrain and any(
        k in keep for k in a.hexes)})
    xs = [x for h in shown for x, _ in layout.corners(h)] + [layout.centre(h)[0] for h in outside]
    ys = [y for h in shown for _, y in layout.corners(h)] + [layout.centre(h)[1] for h in outside]
    left, top = min(xs) - 6, min(ys) - 34
    map_width, map_height = max(xs) + 6 - left, max(ys) + 6 - top
    width = map_width + PANEL
    panel_lines = _panel_lines(scene, keep)
    height = max(map_height + 40, 60 + 13 * len(panel_lines))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="{_f(left)} {_f(top)} {width:.0f} {height:.0f}" font-family="DejaVu Sans, Verdana, sans-serif" '
           f'id="rsr-map">',
           f'<title>{escape(scene.title)}</title>', "<defs>"]
    for kind, colour in sorted(ARROW_COLOURS.items()):
        out.append(f'<marker id="head-{kind}" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="4.5" '
                   f'markerHeight="4.5" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/>'
                   "</marker>")
    for name, body in sorted(PATTERNS.items()):
        out.append(f'<pattern id="pat-{name}" width="12" height="12" patternUnits="userSpaceOnUse">{body}</pattern>')
    out.append("</defs>")
    out.append(f'<rect x="{_f(left)}" y="{_f(top)}" width="{width:.0f}" height="{height:.0f}" fill="#ffffff"/>')
    # terrain
    for h in shown:
        terrain = scene.terrain[h]
        pts = _pts(layout.corners(h))
        out.append(f'<polygon points="{pts}" fill="{TERRAIN.get(terrain, "#fff")}" stroke="#9a9a9a" '
                   f'stroke-width="0.6"><title>{h} {terrain}</title></polygon>')
        if terrain in PATTERNS:
            out.append(f'<polygon points="{pts}" fill="url(#pat-{terrain})" stroke="none"/>')
    if scene.overlays:
        out.append(f'<clipPath id="hexes"><rect x="{_f(left + 6)}" y="{_f(top + 34)}" width="{_f(map_width - 12)}" '
                   f'height="{_f(map_height - 40)}"/></clipPath><g clip-path="url(#hexes)">')
        for overlay in scene.overlays:
            shape = "polygon" if overlay.closed else "polyline"
            out.append(f'<{shape} points="{_pts(overlay.points)}" {overlay.style}/>')
        out.append("</g>")
    # links, then hexside features on top of them
    for link in scene.links:
        for a, b in zip(link.hexes, link.hexes[1:], strict=False):
            if a in keep or b in keep:
                (x1, y1), (x2, y2) = layout.centre(a), layout.centre(b)
                out.append(f'<line x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" y2="{_f(y2)}" '
                           f'{LINK_STYLES[link.style]}/>')
                if link.style == "rail":
                    out += _rail_ties((x1, y1), (x2, y2))
    for side in scene.sides:
        if side.first not in keep and side.second not in keep:
            continue
        out += _side_svg(layout, side)
    # counters
    for h, pics in sorted(scene.stacks.items()):
        if h not in keep or not pics:
            continue
        x, y = layout.centre(h)
        x += scene.marker_room if scene.hex_markers.get(h) else 0.0
        if scene.chips and len(pics) > 1:
            out += _chips_svg(x, y + scene.stack_dy, pics, layout.radius)
        else:
            out += _stack_svg(x, y + scene.stack_dy, pics)
    # hex numbers over the counters, with a halo: a stack never hides the number of its hex
    for h in shown:
        x, y = layout.centre(h)
        number = scene.numbers.get(h, h)
        if number:
            out.append(f'<text x="{_f(x)}" y="{_f(y - layout.radius * 0.66 + scene.number_size - 7)}" '
                       f'font-size="{_f(scene.number_size)}" text-anchor="middle" fill="#555" stroke="#ffffff" '
                       f'stroke-width="1.6" stroke-opacity="0.7" paint-order="stroke" class="hex-number">'
                       f'{escape(number)}</text>')
    for h, markers in sorted(scene.hex_markers.items()):
        if h not in keep:
            continue
        x, y = layout.centre(h)
        below = not scene.marker_room and bool(scene.stacks.get(h))  # under the counter, not over its values
        run = x - sum(6 + 5.2 * len(t) + 2 for t in markers) / 2
        for i, text in enumerate(markers):
            mx, my = x - layout.radius * 0.84, y - 5 + (i - (len(markers) - 1) / 2) * 11
            if below:
                mx, my = run, y + 19
                run += 6 + 5.2 * len(text) + 2
            out.append(f'<rect x="{_f(mx)}" y="{_f(my)}" width="{_f(6 + 5.2 * len(text))}" height="10" rx="2" '
                       f'fill="#fff7c2" stroke="#6b5a00" stroke-width="0.6" class="hex-marker"/>')
            out.append(f'<text x="{_f(mx + 3)}" y="{_f(my + 7.6)}" font-size="7.5" fill="#3a3000">'
                       f'{escape(text)}</text>')
    # places and hex markers
    labels = [label for label in scene.labels if label.hex in keep]
    for label in labels:
        if label.ring:
            x, y = layout.centre(label.hex)
            out.append(f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(layout.radius * 0.8)}" fill="none" '
                       f'stroke="{label.ring}" stroke-width="2.2"/>')
    counters = [_stack_box(layout.centre(h), scene, h, len(pics)) for h, pics in sorted(scene.stacks.items())
                if h in keep and pics]
    spots = place([(*layout.centre(label.hex), label.text, 8.0, label.bold) for label in labels], layout.radius,
                  counters, (left + 2, top + 34, left + map_width - 2, top + map_height))
    for label, spot in zip(labels, spots, strict=True):
        weight = "bold" if label.bold else "normal"
        out.append(f'<text x="{_f(spot.x)}" y="{_f(spot.y)}" font-size="8" font-weight="{weight}" '
                   f'text-anchor="middle" stroke="#ffffff" stroke-width="2.5" paint-order="stroke" class="place">'
                   f'{escape(label.text)}</text>')
    # arrows over the counters; the heads stop at the target counter's edge so its values stay readable
    for index, arrow in enumerate(scene.arrows):
        if not any(h in keep for h in arrow.hexes) or len(arrow.hexes) < 2:
            continue
        d, start = _arrow_d(layout, arrow)
        colour = ARROW_COLOURS.get(arrow.kind, "#000")
        dash = ' stroke-dasharray="6,3"' if arrow.kind in ("fire", "retreat") or arrow.lost else ""
        if arrow.kind in ("bombard", "interdict", "counterbattery"):  # indirect fire: dotted, over the counters
            dash = ' stroke-dasharray="2,3"'

        width_px = 3.6 if arrow.kind == "attack" else 2.8
        out.append(f'<path d="{d}" fill="none" stroke="#ffffff" stroke-width="{width_px + 2.4}" '
                   'stroke-opacity="0.8" stroke-linejoin="round"/>')
        out.append(f'<path class="arrow arrow-{arrow.kind}" data-n="{index}" d="{d}" fill="none" '
                   f'stroke="{colour}" stroke-width="{width_px}"{dash} stroke-linejoin="round" '
                   f'marker-end="url(#head-{arrow.kind})"><title>{escape(arrow.title)}</title></path>')
        if arrow.label:
            mx, my = _middle(layout, arrow)
            out.append(f'<circle cx="{_f(mx)}" cy="{_f(my)}" r="5.6" fill="#fff" stroke="{colour}" '
                       'stroke-width="1.2"/>')
            out.append(f'<text x="{_f(mx)}" y="{_f(my + 2.8)}" font-size="7.5" font-weight="bold" fill="{colour}" '
                       f'text-anchor="middle" class="arrow-label">{escape(arrow.label)}</text>')
        if arrow.lost:
            sx, sy = start
            out.append(f'<text x="{_f(sx)}" y="{_f(sy + 5)}" font-size="15" font-weight="bold" fill="{colour}" '
                       'text-anchor="middle" stroke="#fff" stroke-width="2" paint-order="stroke">✕</text>')
    # title and panel
    out.append(f'<text x="{_f(left + 6)}" y="{_f(top + 15)}" font-size="13" font-weight="bold">'
               f'{escape(scene.title)}</text>')
    out.append(f'<text x="{_f(left + 6)}" y="{_f(top + 28)}" font-size="9" fill="#444">{escape(scene.subtitle)}</text>')
    px, py = left + map_width + 8, top + 44
    out.append(f'<rect x="{_f(px - 4)}" y="{_f(top + 34)}" width="{_f(PANEL - 8)}" height="{_f(height - 40)}" '
               'fill="#f7f7f4" stroke="#ccc"/>')
    for i, (kind, text) in enumerate(panel_lines):
        weight = ' font-weight="bold"' if kind == "head" else ""
        colour = ARROW_COLOURS.get(kind, "#222")
        out.append(f'<text x="{_f(px)}" y="{_f(py + 13 * i)}" font-size="9"{weight} fill="{colour}">'
                   f'{escape(text)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _stack_box(centre: Point, scene: Scene, hex_id: str, count: int) -> tuple[float, float, float, float]:
    """Where a hex's stack lies (its counters and the ones peeking out), for placing labels around it."""
    x, y = centre
    x += scene.marker_room if scene.hex_markers.get(hex_id) else 0.0
    y += scene.stack_dy
    if scene.chips and count > 1:
        width, height = chip_size(scene.layout.radius, count)
        return x - width / 2, y - height / 2, x + width / 2, y + height / 2
    half, peek = SIZE / 2, 4.0 * (min(count, 4) - 1)
    return x - half - peek / 2, y - half - peek / 2, x + half + peek / 2, y + half + peek / 2


def _wrap(kind: str, text: str, size: int = 54) -> list[tuple[str, str]]:
    return [(kind, line) for line in textwrap.wrap(text, size, subsequent_indent="   ")] or [(kind, "")]


def _panel_lines(scene: Scene, keep: set[str]) -> list[tuple[str, str]]:
    """Stacks of more than one counter, what happened (arrows), the legend and the provenance notes."""
    lines: list[tuple[str, str]] = []
    stacked = [(h, pics) for h, pics in sorted(scene.stacks.items()) if h in keep and len(pics) > 1]
    if stacked:
        lines.append(("head", "Stacks (top counter drawn first)"))
        for h, pics in stacked:
            lines += _wrap("text", f"{scene.numbers.get(h) or h}: " + ", ".join(p.short() for p in pics))
    shown = [a for a in scene.arrows if any(h in keep for h in a.hexes)] if scene.list_arrows else []
    if shown:
        lines.append(("head", "This packet"))
        listed: set[str] = set()
        for arrow in shown:
            text = ("✕ " if arrow.lost else "") + arrow.title
            if text not in listed:  # one line for a mission fired from several hexes
                listed.add(text)
                lines += _wrap(arrow.kind, text)
    if scene.legend:
        lines.append(("head", "Key"))
        for _, text in scene.legend:
            lines += _wrap("text", text)
    for note in scene.notes:
        lines += [("head", note[2:])] if note.startswith("# ") else _wrap("text", note)
    return lines


def _middle(layout: Layout, arrow: Arrow) -> Point:
    """The middle of an arrow's last step (where its badge goes), with the arrow's offset."""
    (x1, y1), (x2, y2) = layout.centre(arrow.hexes[-2]), layout.centre(arrow.hexes[-1])
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    mx, my = (x1 + x2) / 2 - ux * layout.radius * 0.15, (y1 + y2) / 2 - uy * layout.radius * 0.15
    return mx - uy * arrow.offset, my + ux * arrow.offset


def _rail_ties(p: Point, q: Point) -> list[str]:
    (x1, y1), (x2, y2) = p, q
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    out = []
    for t in (0.25, 0.5, 0.75):
        cx, cy = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
        out.append(f'<line x1="{_f(cx - uy * 3.5)}" y1="{_f(cy + ux * 3.5)}" x2="{_f(cx + uy * 3.5)}" '
                   f'y2="{_f(cy - ux * 3.5)}" stroke="#222" stroke-width="1.2"/>')
    return out


def _side_svg(layout: Layout, side: SideLine) -> list[str]:
    (x1, y1), (x2, y2) = layout.side_ends(side.first, side.second)
    if side.style in SIDE_STYLES:
        return [f'<line x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" y2="{_f(y2)}" {SIDE_STYLES[side.style]}/>']
    (ax, ay), (bx, by) = layout.centre(side.first), layout.centre(side.second)
    if side.style == "slope":
        low = side.down or side.second
        lx, ly = layout.centre(low)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        out = []
        for t in (-0.3, 0.0, 0.3):
            sx, sy = mx + (x2 - x1) * t, my + (y2 - y1) * t
            out.append(f'<line x1="{_f(sx)}" y1="{_f(sy)}" x2="{_f(sx + (lx - mx) * 0.25)}" '
                       f'y2="{_f(sy + (ly - my) * 0.25)}" stroke="#6b3d12" stroke-width="1.4"/>')
        return out
    if side.style in ("bridge", "bridge-destroyed", "bridge-other"):
        colour = {"bridge": "#222", "bridge-destroyed": "#d11a1a", "bridge-other": "#8a1a8a"}[side.style]
        out = [f'<line x1="{_f(ax * 0.65 + bx * 0.35)}" y1="{_f(ay * 0.65 + by * 0.35)}" '
               f'x2="{_f(bx * 0.65 + ax * 0.35)}" y2="{_f(by * 0.65 + ay * 0.35)}" stroke="{colour}" '
               'stroke-width="5"/>']
        if side.style == "bridge-destroyed":
            mx, my = (ax + bx) / 2, (ay + by) / 2
            out.append(f'<text x="{_f(mx)}" y="{_f(my + 5)}" font-size="14" font-weight="bold" fill="#d11a1a" '
                       'text-anchor="middle">✕</text>')
        return out
    return []


CHIP_HEIGHT = 13.0


def chip_size(radius: float, count: int) -> tuple[float, float]:
    return radius * 1.3, count * (CHIP_HEIGHT + 1.5)


def _chips_svg(x: float, y: float, pics: list[CounterPic], radius: float) -> list[str]:
    """A stack as one chip per counter, top counter first, each in its side's colours with its short name,
    values (ships afloat) and markers: a big fleet under a small one stays in sight, with its size."""
    fill_ink = {"russia": ("#3a6db0", "#ffffff"), "japan": ("#e8d27a", "#1a1a1a"), "soviet": ("#b5473a", "#ffffff")}
    width, height = chip_size(radius, len(pics))
    listing = escape("; ".join(p.title or p.short() for p in pics))
    out = [f'<g class="stack chips"><title>{listing}</title>']
    top = y - height / 2
    for i, pic in enumerate(pics):
        fill, ink = fill_ink.get(pic.side, ("#777777", "#ffffff"))
        cy = top + i * (CHIP_HEIGHT + 1.5)
        text = " ".join(t for t in (pic.label or pic.unit, pic.values, *pic.markers) if t)
        size = min(8.0, (width - 4) / max(len(text), 1) / 0.6)
        out.append(f'<g class="counter chip" data-unit="{escape(pic.unit)}"><title>{escape(pic.title or pic.short())}'
                   f'</title><rect x="{_f(x - width / 2)}" y="{_f(cy)}" width="{_f(width)}" height="{_f(CHIP_HEIGHT)}" '
                   f'rx="3" fill="{fill}" stroke="#1a1a1a" stroke-width="0.8"/>'
                   f'<text x="{_f(x)}" y="{_f(cy + CHIP_HEIGHT / 2 + size * 0.36)}" font-size="{_f(size)}" '
                   f'font-weight="bold" text-anchor="middle" fill="{ink}">{escape(text)}</text></g>')
    out.append("</g>")
    return out


def _stack_svg(x: float, y: float, pics: list[CounterPic]) -> list[str]:
    """A stack as it lies on the table: the counters below peek out up and to the right of the top one."""
    listing = escape("; ".join(p.title or p.short() for p in pics))
    out = [f'<g class="stack"><title>{listing}</title>']
    shown = pics[:4]
    step = 4.0
    for depth in range(len(shown) - 1, -1, -1):
        dx, dy = depth * step, -depth * step
        out.append(counter_svg(shown[depth], x + dx - step * (len(shown) - 1) / 2,
                               y + dy + step * (len(shown) - 1) / 2, top=depth == 0))
    if len(pics) > 1:
        bx, by = x + 17 + step * (len(shown) - 1) / 2, y - 19 - step * (len(shown) - 1) / 2
        out.append(f'<circle cx="{_f(bx)}" cy="{_f(by)}" r="6.5" fill="#111" stroke="#fff" stroke-width="1"/>')
        out.append(f'<text x="{_f(bx)}" y="{_f(by + 3)}" font-size="8.5" font-weight="bold" fill="#fff" '
                   f'text-anchor="middle">{len(pics)}</text>')
    out.append("</g>")
    return out
