"""Merchant transport and transfer to the land map (RSR 7.4-7.45, RSR 7.5, RSR 15.21)."""

from __future__ import annotations

from typing import Any

from rsr.decisions import Decision
from rsr.engine import Context
from rsr.errors import RulesError
from rsr.rulesets.red_sun_rising.naval.state import NavalAsk, season

CAPACITY = 4  # RSR 7.4: command points per merchant fleet per Naval Movement Stage


def transport_cost(state: Any, unit_id: str) -> int:
    """RSR 7.4, RSR 7.41, RSR 7.43: a unit's command value; command units free; siege artillery 4."""
    counter = state.static.counter(unit_id)
    if counter.command_unit:
        return 0
    if counter.type == "siege-artillery":
        return 4
    return counter.values(state.units[unit_id].steps).command


def check_cargo(state: Any, merchant_id: str, cargo: list[str]) -> None:
    """RSR 7.4: at most four command points of land units (command units ride free)."""
    total = sum(transport_cost(state, u) for u in cargo)
    if total > CAPACITY:
        raise RulesError(f"merchant fleet {merchant_id} carries {total} command points; at most {CAPACITY} "
                         "(RSR 7.4, 7.41, 7.43)")


def landing_hexes(state: Any, code: str, season: str) -> list[str]:
    """RSR 7.5: any coastal land hex of the code area; in winter only a friendly port in it; never a hex
    holding enemy land units (RSR 7.45 errata)."""
    static = state.static
    coast = sorted(h for h, area in static.code_areas.items() if area == code)
    if season == "winter":
        coast = [h for h in coast if friendly_land_port(state, h)]
    return [h for h in coast if not state.units_in(h, "russia")]


def friendly_land_port(state: Any, hex_id: str) -> bool:
    """A land-map port the Japanese may use: a city he controls (RSR 19.4), or a port friendly to him by the
    naval map when no one has taken it (Korean ports, provisional)."""
    place = state.static.places.get(hex_id)
    if place is None or not place.port:
        return False
    if hex_id in state.control:
        return bool(state.control[hex_id] == "japan")
    return any(p.land_hex == hex_id and p.friendly == "japan" for p in state.naval_static.ports)


def cargo_list(raw: Any, where: str) -> list[str]:
    if not isinstance(raw, list) or not all(isinstance(u, str) for u in raw):
        raise RulesError(f"{where}: cargo is a list of unit ids")
    return list(raw)


# -- the decision: the Japanese Reinforcement Stage's transfer to the land map (RSR 7.5) -----------------------

def landing_options(state: Any) -> dict[str, Any]:
    naval = state.naval
    static = state.naval_static
    out = {}
    for merchant in [naval.merchants[m] for m in sorted(naval.merchants)]:
        code = static.code_of(merchant.hex)
        if code is None or merchant.id in state.merchant_fleets:
            continue
        out[merchant.id] = {"code": code, "cargo": list(merchant.cargo),
                            "hexes": landing_hexes(state, code, season(state))}
    return out


def landing_ask(state: Any, base: str) -> NavalAsk | None:
    """RSR 7.5: asked once in the Japanese Reinforcement Stage, when a merchant fleet lies in a coded hex."""
    naval = state.naval
    if naval is None or naval.transfer_done or not landing_options(state):
        return None
    return NavalAsk("naval-landings", "japan", f"{base}/landings")


def _apply_landings(state: Any, ctx: Context, ask: Any, answer: Any) -> None:
    """RSR 7.5, RSR 7.44-7.45, RSR 15.21: place the merchant counter and its cargo on the chosen coastal hex."""
    naval = state.naval
    if not isinstance(answer, dict) or not isinstance(answer.get("landings", {}), dict) or set(answer) - {"landings"}:
        raise RulesError("a landing answer is {landings: {merchant fleet: land hex}}")
    options = landing_options(state)  # in winter only friendly ports (RSR 7.5; interpretations.md, RSR 7.5)
    for merchant_id, hex_id in sorted(answer.get("landings", {}).items()):
        if merchant_id not in options:
            raise RulesError(f"{merchant_id} is not a merchant fleet in a coded hex (RSR 7.4, 7.5)")
        if str(hex_id) not in options[merchant_id]["hexes"]:
            raise RulesError(f"{merchant_id} may land only on {', '.join(options[merchant_id]['hexes']) or 'no hex'} "
                             "(RSR 7.5, 7.45)")
        merchant = naval.merchants[merchant_id]
        state.merchant_fleets[merchant_id] = str(hex_id)
        for unit_id in merchant.cargo:
            state.units[unit_id].hex = str(hex_id)  # RSR 7.44: no activation needed
        code = options[merchant_id]["code"]
        ctx.emit("landing", f"merchant fleet {merchant_id} transfers from naval hex {merchant.hex} "
                 f"(code {code}) to {hex_id}"
                 + (f" with {', '.join(merchant.cargo)}" if merchant.cargo else ""), "RSR 7.5",
                 provisional=[] if code == "A" else [f"coded hex {code} of the naval map: provisional"],
                 merchant=merchant_id, hex=str(hex_id), cargo=list(merchant.cargo))
        merchant.cargo = []
        naval.landed.append(merchant_id)
    naval.transfer_done = True


LANDINGS = Decision(
    kind="naval-landings", ids="t<turn>/japan/reinforcement/landings", case="RSR 7.5",
    who="the Japanese, in his Reinforcement Stage, when a merchant fleet lies in a coded hex",
    prompt=lambda state, ask: ("Japanese Reinforcement Stage: merchant fleets in coded hexes may transfer to the land "
                               "map with their cargo"),
    options=lambda state, ask: {"merchants": landing_options(state)}, template=lambda state, ask: {"landings": {}},
    apply=_apply_landings,
    schema={"type": "object", "additionalProperties": False, "properties": {"landings": {"type": "object"}}},
    shape="a landing answer is {landings: {merchant fleet: land hex}}")
