"""Raids on merchant fleets (RSR 7.2 with errata): the Raiding Impulse and the Russian's choice of victim."""

from __future__ import annotations

from typing import Any

from rsr.decisions import Decision, Policy
from rsr.engine import Context, Request
from rsr.errors import RulesError
from rsr.rulesets.red_sun_rising.naval.state import NavalAsk, NavalState, on_map_fleets


def raid_victims(naval: NavalState, hex_number: int) -> list[str]:
    return sorted(m for m, merchant in naval.merchants.items() if merchant.hex == hex_number)


def raid_by_policy(naval: NavalState, hex_number: int, rule: str) -> str:
    """Standing policy ``raid`` (RSR 7.2): ``most-cargo`` sinks the merchant fleet carrying the most land units
    (ties: lowest id), ``lowest-id`` the lowest id."""
    victims = raid_victims(naval, hex_number)
    if rule == "most-cargo":
        return sorted(victims, key=lambda m: (-len(naval.merchants[m].cargo), m))[0]
    return victims[0]


def raid(state: Any, ctx: Context) -> bool:
    """RSR 7.2 (with errata): a Russian at-sea fleet with morale above zero, which has not broken off a battle
    at morale zero this stage (RSR 8.76 errata), sinks one merchant fleet in its hex, whatever Japanese fleets are
    there; the cargo goes with it (RSR 7.42). Where the hex holds several, the Russian picks (:data:`RAID`);
    False while that choice is awaited (in ``state.ask``)."""
    naval: NavalState = state.naval
    raiders = [f for f in on_map_fleets(naval, "russia") if f.at_sea and f.morale > 0 and not f.broke_off]
    for hex_number in sorted({f.hex for f in raiders}):
        victims = raid_victims(naval, hex_number)
        if not victims or f"{hex_number}:done" in naval.raid_choices:
            continue  # nothing to sink, or sunk already before a choice in a later hex was asked
        chosen = victims[0] if len(victims) == 1 else naval.raid_choices.get(str(hex_number))
        if chosen is None:
            state.ask = raid_ask(state, hex_number)
            return False
        merchant = naval.merchants.pop(chosen)
        naval.raid_choices[f"{hex_number}:done"] = chosen
        raider = next(f.id for f in raiders if f.hex == hex_number)
        for unit_id in merchant.cargo:
            state.units[unit_id].steps = 0
        state.merchant_fleets.pop(merchant.id, None)
        ctx.emit("raid", f"round {naval.round}: {raider} raids naval hex {hex_number}: merchant fleet {merchant.id} "
                 "is sunk" + (f" with {', '.join(merchant.cargo)}" if merchant.cargo else ""), "RSR 7.2",
                 fleet=raider, hex=hex_number, merchant=merchant.id, cargo=list(merchant.cargo), round=naval.round)
    naval.raid_choices = {}
    return True


def _apply(state: Any, ctx: Context, ask: Any, answer: Any) -> None:
    naval: NavalState = state.naval
    hex_number = int(ask.data["hex"])
    victims = raid_victims(naval, hex_number)
    if not isinstance(answer, dict) or set(answer) != {"sink"} or answer["sink"] not in victims:
        raise RulesError(f"a raid answer is {{sink: merchant fleet}}, one of {', '.join(victims)} (RSR 7.2)")
    naval.raid_choices[str(hex_number)] = str(answer["sink"])  # the Raiding Impulse goes on (flow.py)


def _by_policy(state: Any, ask: Any, request: Request, rule: Any) -> Any:
    if rule in ("most-cargo", "lowest-id"):
        return {"sink": raid_by_policy(state.naval, int(request.options["hex"]), rule)}
    return None


def raid_ask(state: Any, hex_number: int) -> NavalAsk:
    """RSR 7.2: asked in the Raiding Impulse for the hex whose raid waits for the Russian's choice."""
    base = state.request_base()
    return NavalAsk("naval-raid", "russia", f"{base}/round{state.naval.round}/russia/raid/hex{hex_number}",
                    {"hex": hex_number})


RAID = Decision(
    kind="naval-raid", ids="t<turn>/naval/round<round>/russia/raid/hex<hex>", case="RSR 7.2",
    who="the Russian, when a raiding fleet shares its hex with more than one merchant fleet",
    prompt=lambda state, ask: (f"round {state.naval.round}: your fleet raids naval hex {ask.data['hex']}: "
                               "which merchant fleet sinks?"),
    options=lambda state, ask: {"hex": ask.data["hex"],
                                "merchants": {m: list(state.naval.merchants[m].cargo)
                                              for m in raid_victims(state.naval, ask.data["hex"])}},
    template=lambda state, ask: {"sink": raid_by_policy(state.naval, ask.data["hex"], "most-cargo")},
    policy=Policy("raid", ("most-cargo", "lowest-id", "ask"), _by_policy, default="most-cargo"), apply=_apply)
