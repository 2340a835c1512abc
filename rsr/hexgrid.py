"""The hex grid both rulebooks share: ``AABB`` numbers, neighbours, distance, hexsides, paths with costs.

``AA`` indexes a line of hexes, ``BB`` the position along it; alternate lines are offset by half a hex
(``shifted_lines`` says which), see docs/data-format.md. Internally a hex is mapped to doubled
coordinates ``(x2, y)`` with ``x2 = 2*BB + shift`` and ``y = AA``, in which the six neighbours are
``(x2 +- 2, y)`` and ``(x2 +- 1, y +- 1)``.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction

from rsr.errors import BadInput

HEX_RE = re.compile(r"^\d{4}$")
Cost = Fraction


@dataclass(frozen=True)
class Grid:
    """A rectangle of ``AABB`` hexes with a given line offset."""

    shifted_lines: str = "even"
    lines: tuple[int, int] = (1, 99)
    positions: tuple[int, int] = (1, 99)

    def __post_init__(self) -> None:
        if self.shifted_lines not in ("even", "odd"):
            raise BadInput(f"shifted_lines must be 'even' or 'odd', not {self.shifted_lines!r}")

    def parse(self, hex_id: str) -> tuple[int, int]:
        if not isinstance(hex_id, str) or not HEX_RE.match(hex_id):
            raise BadInput(f"{hex_id!r} is not a four-digit hex number")
        return int(hex_id[:2]), int(hex_id[2:])

    def on_map(self, hex_id: str) -> bool:
        a, b = self.parse(hex_id)
        return self.lines[0] <= a <= self.lines[1] and self.positions[0] <= b <= self.positions[1]

    def _shift(self, a: int) -> int:
        return 1 if (a % 2 == 0) == (self.shifted_lines == "even") else 0

    def doubled(self, hex_id: str) -> tuple[int, int]:
        found = _DOUBLED.get((self, hex_id))
        if found is None:
            a, b = self.parse(hex_id)
            found = _DOUBLED[(self, hex_id)] = (2 * b + self._shift(a), a)
        return found

    def from_doubled(self, x2: int, y: int) -> str | None:
        b2 = x2 - self._shift(y)
        if b2 % 2 or y < 0 or b2 < 0 or y > 99 or b2 > 198:
            return None
        hex_id = f"{y:02d}{b2 // 2:02d}"
        return hex_id if self.on_map(hex_id) else None

    def neighbours(self, hex_id: str) -> list[str]:
        known = _NEIGHBOURS.get((self, hex_id))
        if known is None:
            x2, y = self.doubled(hex_id)
            found = (self.from_doubled(x2 + dx, y + dy)
                     for dx, dy in ((2, 0), (-2, 0), (1, 1), (-1, 1), (1, -1), (-1, -1)))
            known = _NEIGHBOURS[(self, hex_id)] = tuple(sorted(h for h in found if h is not None))
        return list(known)

    def adjacent(self, first: str, second: str) -> bool:
        return self.distance(first, second) == 1

    def distance(self, first: str, second: str) -> int:
        x1, y1 = self.doubled(first)
        x2, y2 = self.doubled(second)
        dx, dy = abs(x1 - x2), abs(y1 - y2)
        return dy + max(0, (dx - dy) // 2)


# Pure memos of the two questions replay asks most (supply and movement searches): the answers depend
# only on the grid (a frozen value) and the hex number. Only valid hex numbers get in (parse checks).
_DOUBLED: dict[tuple[Grid, str], tuple[int, int]] = {}
_NEIGHBOURS: dict[tuple[Grid, str], tuple[str, ...]] = {}


def hexside(first: str, second: str) -> str:
    """The name of the side between two hexes: lower number first."""
    low, high = sorted((first, second))
    return f"{low}-{high}"


def reachable(grid: Grid, start: str, step_cost: Callable[[str, str], Cost | None], budget: Cost,
              may_continue: Callable[[str], bool] | None = None) -> dict[str, Cost]:
    """Cheapest cost to every hex reachable from ``start`` within ``budget``.

    ``step_cost(a, b)`` is the cost to step from ``a`` into adjacent ``b``, or None if forbidden;
    ``may_continue(h)`` False means a path may end in ``h`` but not go on from it (e.g. a zone of control).
    Ties are broken by hex number, so the result never depends on iteration order.
    """
    best: dict[str, Cost] = {start: Fraction(0)}
    heap: list[tuple[Cost, str]] = [(Fraction(0), start)]
    while heap:
        cost, here = heapq.heappop(heap)
        if cost > best.get(here, cost):
            continue
        if here != start and may_continue is not None and not may_continue(here):
            continue
        for there in grid.neighbours(here):
            step = step_cost(here, there)
            if step is None:
                continue
            total = cost + step
            if total <= budget and total < best.get(there, total + 1):
                best[there] = total
                heapq.heappush(heap, (total, there))
    return best


def path_is_contiguous(grid: Grid, hexes: Iterable[str]) -> bool:
    items = list(hexes)
    return all(grid.adjacent(a, b) for a, b in zip(items, items[1:], strict=False))
