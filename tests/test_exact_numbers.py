"""Issue 20 §3, exact types: where a rule input is a number, YAML's ``true`` (a bool, which Python counts as
the int 1) is refused, not read as hex 1 or order 1. Naval sailing orders and rounds (RSR 4.14, 7.1), sealed
routes (issue 22), conditional reserve orders and reserve moves (RS/RS 7.63)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from rsr.errors import RulesError
from rsr.rulesets.red_star import reserves
from rsr.rulesets.red_sun_rising.naval import orders


@pytest.mark.parametrize("fleet", [{"route": [True]}, {"route": [2413, False]}, {"return_if_enemy_within": True}])
def test_sailing_orders_refuse_a_bool_where_a_number_goes(fleet: dict[str, Any]) -> None:
    with pytest.raises(RulesError, match="route is at most ten naval hex numbers|return_if_enemy_within"):
        orders.check_orders({"fleets": {"f1": fleet}}, "russia")
    numbers = {k: ([1, 2413] if k == "route" else 1) for k in fleet}
    assert orders.check_orders({"fleets": {"f1": numbers}}, "russia")["fleets"]["f1"] == numbers


def test_merchant_routes_and_round_moves_refuse_a_bool() -> None:
    with pytest.raises(RulesError, match="route is at most ten naval hex numbers"):
        orders.check_orders({"merchants": {"m1": {"route": [True]}}}, "japan")
    assert orders.check_orders({"merchants": {"m1": {"route": [1]}}}, "japan")
    for key in ("fleets", "merchants"):
        with pytest.raises(RulesError, match="naval hex number"):
            orders.check_round({key: {"x1": True}})
        assert orders.check_round({key: {"x1": 1}}) == {key: {"x1": 1}}


def test_sealed_routes_refuse_a_bool() -> None:
    state = SimpleNamespace(naval=SimpleNamespace(orders={"russia": {}}, fleets={}))
    with pytest.raises(RulesError, match="at most ten naval hex numbers"):
        orders.take_routes(state, "russia", {"fleets": {"f1": [True]}})
    with pytest.raises(RulesError, match="is not a russia fleet"):  # a number goes on to the next check
        orders.take_routes(state, "russia", {"fleets": {"f1": [1]}})


def test_conditional_reserve_orders_refuse_a_bool_distance() -> None:
    item = {"units": ["jp-1"], "path": ["4210"], "when": {"enemy_within": True, "of": "4210"}}
    with pytest.raises(RulesError, match="a conditional reserve order is"):
        reserves.check_standing([item])
    reserves.check_standing([{**item, "when": {"enemy_within": 2, "of": "4210"}}])


@pytest.mark.parametrize("numbers", [[True], ["1"], "1"])
def test_a_reserve_move_refuses_orders_that_are_not_numbers(numbers: Any) -> None:
    with pytest.raises(RulesError, match="numbers of its conditional orders"):
        reserves.parse(None, "japan", None, {"moves": [], "orders": numbers})  # type: ignore[arg-type]
