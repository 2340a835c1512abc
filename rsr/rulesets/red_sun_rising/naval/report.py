"""Report tables for the Strategic Naval Sequence: initiative, each fleet's route per round,
searches, raids, embarking and landing, blockade, mines, attrition and losses at sea, repairs."""

from __future__ import annotations

from rsr.engine import Event


def initiative_table(events: list[Event]) -> list[str]:
    """RSR 5.0: each fleet's initiative, rolled or automatic."""
    rows = []
    for e in events:
        if e.kind != "initiative":
            continue
        d = e.data
        if "die" in d:
            rows.append(f"| {d['fleet']} | {d['die']} | +{d['modifier']} | {d['rating']} | "
                        f"{'at sea' if d['initiative'] else 'in port'} | {e.case} |")
        else:
            rows.append(f"| {d['fleet']} | - | - | - | at sea | {e.case} |")
    return ["| fleet | die | season | rating | result | case |", "|---|---|---|---|---|---|", *rows] if rows else []


def routes_table(events: list[Event]) -> list[str]:
    """RSR 7.1: the hex of every fleet and merchant fleet that moved, round by round."""
    routes: dict[str, dict[int, int]] = {}
    starts: dict[str, int | None] = {}
    for e in events:
        if e.kind != "naval-move":
            continue
        who = str(e.data.get("fleet") or e.data.get("merchant"))
        starts.setdefault(who, e.data.get("frm"))
        routes.setdefault(who, {})[int(e.data["round"])] = e.data["to"]
    if not routes:
        return []
    lines = ["| fleet | start | " + " | ".join(f"r{r}" for r in range(1, 11)) + " |", "|---|---|" + "---|" * 10]
    for who in sorted(routes):
        start = starts[who]
        cells, here = [], start
        for rnd in range(1, 11):
            if rnd in routes[who]:
                here = routes[who][rnd]
                cells.append(f"**{here}**")
            else:
                cells.append("" if here is None else str(here))
        lines.append(f"| {who} | {'off map' if start is None else start} | " + " | ".join(cells) + " |")
    return lines


def naval_events_table(events: list[Event]) -> list[str]:
    """Searches (RSR 6.0), raids (RSR 7.2), transport (RSR 7.4-7.5), blockade (RSR 15.0), mines (RSR 16.0),
    attrition (RSR 15.1), lost at sea (RSR 15.2), repairs, captures and naval brigades (RSR 18.1, RSR 18.2,
    RSR 18.5), sailing-order conditions, admirals arriving, withdrawn and appointed (RSR 17.3, RSR 19.3, RSR 8.79)."""
    kinds = ("search", "raid", "embark", "landing", "blockade", "mines", "blockade-attrition", "lost-at-sea",
             "repair", "fleet-captured", "naval-brigade", "composition", "sailing-orders", "morale",
             "admiral-withdrawn", "admiral-arrives", "admiral-appointed", "merchant-recalled")  # RSR 17.3, RSR 19.3
    rows = [f"| {e.kind} | {e.text}{' (**provisional**)' if e.provisional else ''} | {e.case or ''} |"
            for e in events if e.kind in kinds]
    return ["| what | detail | case |", "|---|---|---|", *rows] if rows else []


def tables(events: list[Event]) -> list[tuple[str, list[str]]]:
    from rsr.rulesets.red_sun_rising.naval.battle_report import tables as battle_tables

    return [("Naval initiative", initiative_table(events)), ("Naval routes", routes_table(events)),
            ("Naval events", naval_events_table(events))] + battle_tables(events)
