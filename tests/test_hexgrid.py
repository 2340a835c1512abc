"""The shared hex grid (docs/data-format.md): neighbours, distance, hexsides, costs."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rsr.errors import BadInput
from rsr.hexgrid import Grid, hexside, path_is_contiguous, reachable


def test_neighbours_follow_the_shift_convention() -> None:
    grid = Grid("even")
    assert grid.neighbours("1908") == ["1807", "1808", "1907", "1909", "2007", "2008"]  # odd line
    assert grid.neighbours("2008") == ["1908", "1909", "2007", "2009", "2108", "2109"]  # even line
    odd = Grid("odd")
    assert odd.neighbours("1908") == ["1808", "1809", "1907", "1909", "2008", "2009"]


def test_neighbours_are_symmetric_and_distance_one() -> None:
    grid = Grid("even", (1, 12), (1, 12))
    for a in range(1, 13):
        for b in range(1, 13):
            hex_id = f"{a:02d}{b:02d}"
            for other in grid.neighbours(hex_id):
                assert hex_id in grid.neighbours(other)
                assert grid.distance(hex_id, other) == 1


def test_distance_matches_breadth_first_steps() -> None:
    grid = Grid("even", (1, 10), (1, 10))
    costs = reachable(grid, "0505", lambda a, b: Fraction(1), Fraction(20))
    for hex_id, cost in costs.items():
        assert grid.distance("0505", hex_id) == cost


def test_map_edges_and_bad_numbers() -> None:
    grid = Grid("even", (1, 5), (1, 5))
    assert "0000" not in grid.neighbours("0101")
    assert not grid.on_map("0606")
    with pytest.raises(BadInput, match="four-digit"):
        grid.parse("12a4")


def test_hexside_names_lower_first_and_paths() -> None:
    assert hexside("1412", "1411") == "1411-1412"
    grid = Grid("even")
    assert path_is_contiguous(grid, ["1807", "1908", "2008"])
    assert not path_is_contiguous(grid, ["1807", "2008"])


def test_reachable_respects_fractional_costs_and_stops() -> None:
    grid = Grid("even", (1, 9), (1, 9))
    road = Fraction(1, 3)
    costs = reachable(grid, "0505", lambda a, b: road, Fraction(1))
    assert max(grid.distance("0505", h) for h in costs) == 3
    stop = reachable(grid, "0505", lambda a, b: Fraction(1), Fraction(5), may_continue=lambda h: h != "0506")
    assert "0506" in stop
