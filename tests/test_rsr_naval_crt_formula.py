"""RSR 8.24: the provisional Naval CRT stand-in against every printed cell, so that what interpretations.md says
about it (which printed cells it reproduces and which it misses) is checked, not just stated."""

from __future__ import annotations

from rsr.rulesets.red_sun_rising.naval.data import NavalStatic, load_naval
from rsr.scenario import load_scenario


def _static() -> NavalStatic:
    static = load_naval(load_scenario("red-sun-rising", "naval-1905").data)
    assert static is not None
    return static


def stand_in(column: int, die: int) -> int:
    """The formula interpretations.md gives for cells the table does not print."""
    return max(0, column - 5 + die)


def test_every_printed_cell_is_used_as_printed() -> None:
    """Printed cells win over the stand-in (RSR 8.24)."""
    static = _static()
    cells = static.crt_cells
    assert sum(len(rows) for rows in cells.values()) == 11  # columns 4-8, rows 1-2, and column 4 row 3
    for column, rows in sorted(cells.items()):
        for die, printed in sorted(rows.items()):
            assert static.crt(column, die)[0] == printed


def test_the_stand_in_matches_only_what_interpretations_md_says() -> None:
    """interpretations.md (RSR 8.24): the stand-in gives column 4 rows 1 and 3 as printed, and one more than the
    printed cells of columns 5-8 rows 1-2 and of column 4 row 2; no straight line fits every printed cell."""
    cells = _static().crt_cells
    matches = sorted((c, d) for c, rows in cells.items() for d, v in rows.items() if stand_in(c, d) == v)
    one_more = sorted((c, d) for c, rows in cells.items() for d, v in rows.items() if stand_in(c, d) == v + 1)
    assert matches == [(4, 1), (4, 3)]
    assert one_more == sorted([(4, 2)] + [(c, d) for c in range(5, 9) for d in (1, 2)])
    # column 4 jumps by 2 from row 2 to row 3 while every printed row moves by 1: no line c*a + d*b + k fits
    assert cells[4][3] - cells[4][2] == 2 and all(cells[c][2] - cells[c][1] == 1 for c in range(5, 9))


def test_unprinted_cells_are_the_stand_in_and_provisional() -> None:
    static = _static()
    for column in range(1, 9):
        for die in range(1, 7):
            if die in static.crt_cells.get(column, {}):
                continue
            assert static.crt(column, die) == (stand_in(column, die), True)
