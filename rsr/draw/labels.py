"""Place names that do not cover each other: each label tries a few spots around its hex and takes the first
that overlaps no label placed before it (nor, if it can, a counter); pure and ordered, so the same scene
always gives the same picture.
"""

from __future__ import annotations

from dataclasses import dataclass

Box = tuple[float, float, float, float]  # left, top, right, bottom


@dataclass(frozen=True)
class Placed:
    x: float
    y: float         # the text's baseline
    box: Box


def text_box(x: float, y: float, text: str, size: float, bold: bool = False) -> Box:
    """The box of a centred text with its baseline at ``y``, by the average width of a DejaVu Sans glyph."""
    width = len(text) * size * (0.62 if bold else 0.57)
    return x - width / 2, y - size * 0.8, x + width / 2, y + size * 0.25


def overlap(a: Box, b: Box) -> float:
    """The area two boxes share (0 when apart)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def candidates(x: float, y: float, radius: float) -> list[tuple[float, float]]:
    """Where a hex's label may go, best first: under the centre (the usual place), then a line lower or
    higher, then shifted to either side, then above the counter."""
    low = y + radius * 0.86
    spots = [(x, low), (x, low + 10), (x, low - 10), (x + radius * 0.5, low), (x - radius * 0.5, low),
             (x + radius * 0.5, low + 10), (x - radius * 0.5, low + 10), (x, y - radius * 0.55)]
    return spots


def outside(box: Box, bounds: Box | None) -> float:
    """How much of ``box`` lies beyond the picture's ``bounds`` (its area, roughly)."""
    if bounds is None:
        return 0.0
    return (box[2] - box[0]) * (box[3] - box[1]) - overlap(box, bounds)


def place(items: list[tuple[float, float, str, float, bool]], radius: float,
          obstacles: list[Box] | None = None, bounds: Box | None = None) -> list[Placed]:
    """Each (hex centre x, y, text, font size, bold) in order: the first spot overlapping no earlier label and
    inside the picture, else the spot overlapping least; among spots clear of labels, the one covering the
    fewest counters."""
    placed: list[Placed] = []
    soft = obstacles or []
    for x, y, text, size, bold in items:
        best: tuple[float, float, int] | None = None
        choice = Placed(x, y + radius * 0.86, text_box(x, y + radius * 0.86, text, size, bold))
        for index, (cx, cy) in enumerate(candidates(x, y, radius)):
            box = text_box(cx, cy, text, size, bold)
            hard = sum(overlap(box, other.box) for other in placed) + outside(box, bounds)
            covered = sum(overlap(box, other) for other in soft)
            score = (hard, covered, index)
            if best is None or score < best:
                best, choice = score, Placed(cx, cy, box)
            if hard == 0 and covered == 0:
                break
        placed.append(choice)
    return placed
