"""Report tables for the tactical naval battle: the battle hour by hour (weather, range and how it
was reached, torpedo attacks, the morale track, ships sunk) and every gunnery and torpedo roll."""

from __future__ import annotations

from rsr.engine import Event

ROLL_KINDS = ("naval-gunnery", "naval-flotilla-gunnery", "naval-return-fire", "naval-torpedo")


def hours_table(events: list[Event]) -> list[str]:
    """RSR 4.4: one row per hour of every battle, with the morale track (RSR 8.7)."""
    rows = []
    for e in events:
        d = e.data
        if e.kind == "naval-setup":
            rows.append(f"| setup | {d['weather']} | {d['range']} | hex {d['hex']}, {d['hours']} hours, flagships "
                        f"{d['flagships']['russia']} / {d['flagships']['japan']} | | {d['morale']['russia']} | "
                        f"{d['morale']['japan']} | |")
        elif e.kind == "naval-hour":
            sunk = ", ".join(d["sunk"]["russia"] + d["sunk"]["japan"])
            rows.append(f"| {d['hour']} | {d['weather']} | {d['range']} | {d['how']} | {d['torpedo'] or ''} | "
                        f"{d['morale']['russia']} | {d['morale']['japan']} | {sunk} |")
        elif e.kind in ("naval-break-off", "naval-admiral", "naval-maneuver", "naval-refused", "naval-battle-over",
                        "naval-search", "naval-range-choice", "naval-targets-choice",  # + asked hour by hour
                        "naval-lost-sight"):
            rows.append(f"| {d.get('hour', '')} | | | {e.text} ({e.case}) | | | | |")
    return ["| hour | weather | range | how | torpedo attack | Russian morale | Japanese morale | sunk so far |",
            "|---|---|---|---|---|---|---|---|", *rows] if rows else []


def rolls_table(events: list[Event]) -> list[str]:
    """RSR 8.52, RSR 8.54, RSR 8.61, RSR 18.83: every roll on the Naval CRT, its modifiers and what it did."""
    rows = [f"| {e.data.get('hour', '')} | {e.kind.removeprefix('naval-')} | {e.data['firer']} | {e.data['target']} | "
            f"{e.data['column']} | {e.data['die']} | {e.data['modifier']:+d} | {e.data['result']} | "
            f"{e.data['outcome']}{' (**provisional**)' if e.provisional else ''} |"
            for e in events if e.kind in ROLL_KINDS]
    return ["| hour | fire | ship | target | column | die | modifier | result | outcome |",
            "|---|---|---|---|---|---|---|---|---|", *rows] if rows else []


def tables(events: list[Event]) -> list[tuple[str, list[str]]]:
    return [("Naval battle, hour by hour", hours_table(events)), ("Naval battle rolls", rolls_table(events))]
