"""The same scene as the SVG map, in characters for a terminal (``rsr replay``): each hex a short token,
laid out by the hex centres, so both grid orientations come out right.

Token: the first letter of the side and the number of units (``J3``), else a terrain letter; a ``*``
marks a hex an arrow of the packet touches.
"""

from __future__ import annotations

import math

from rsr.draw.hexmap import Scene

TERRAIN_LETTERS = {"clear": ".", "rough": ":", "mountain": "^", "sea": "~", "desert": ".", "dunes": ":",
                   "marsh": ",", "high-seas": "~", "coastal": "~", "port": "P", "land": "#"}
CELL = 5  # characters per hex across


def text_map(scene: Scene, hexes: list[str]) -> list[str]:
    """Rows of text; the hex numbers of the corners are printed under the map."""
    if not hexes:
        return []
    layout = scene.layout
    width = math.sqrt(3) * layout.radius
    across = width if layout.line_axis == "north" else 1.5 * layout.radius
    down = 1.5 * layout.radius if layout.line_axis == "north" else width / 2
    centres = {h: layout.centre(h) for h in hexes}
    x0 = min(x for x, _ in centres.values())
    y0 = min(y for _, y in centres.values())
    cells: dict[tuple[int, int], str] = {}
    action = set(scene.action_hexes())
    for h, (x, y) in centres.items():
        col = round((x - x0) / across * CELL)
        row = round((y - y0) / down)
        pics = scene.stacks.get(h) or []
        if pics:
            token = f"{pics[0].side[:1].upper()}{len(pics)}"
        else:
            token = TERRAIN_LETTERS.get(scene.terrain.get(h, ""), "?")
        if h in action:
            token += "*"
        cells[(row, col)] = token
    rows = max(r for r, _ in cells) + 1
    cols = max(c for _, c in cells) + CELL
    out = []
    for r in range(rows):
        line = [" "] * cols
        for (row, col), token in cells.items():
            if row == r:
                line[col:col + len(token)] = list(token)
        out.append("".join(line).rstrip())
    named = [h for h in hexes if scene.numbers.get(h, h)] or hexes  # the naval map: land cells have no number
    corner = min(named, key=lambda h: (centres[h][1], centres[h][0]))
    last = max(named, key=lambda h: (centres[h][1], centres[h][0]))
    out.append(f"top left {scene.numbers.get(corner, corner)}, bottom right {scene.numbers.get(last, last)}")
    out.append("J/R/S3: 3 japan/russia/soviet units")
    out.append("*: this packet's action")
    return out
