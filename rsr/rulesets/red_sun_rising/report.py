"""Report tables for Red Sun Rising: supply, activation, movement, combats, retreats and advances."""

from __future__ import annotations

from rsr.engine import Event


def _modifiers(event: Event) -> str:
    mods = event.data.get("modifiers") or []
    return ", ".join(f"{m['value']:+d} {m['reason']} ({m['case']})" for m in mods) or "none"


def combat_table(events: list[Event]) -> list[str]:
    """RSR 11.2: each attack with strengths, odds, modifiers and their cases, die, result and the losses."""
    rows: list[list[str]] = []
    round_label = "1"
    for event in events:
        if event.kind == "round":
            round_label = event.text.split()[2] if event.text.startswith("assault round") else round_label
        elif event.kind == "combat":
            d = event.data
            attackers = " + ".join(f"{a['unit']} ({a['strength']})" for a in d["attackers"])
            defenders = " + ".join(f"{x['unit']} ({x['strength']})" for x in d["defenders"])
            odds = f"{d['attack_strength']}:{d['defence_strength']} = {d['column'] or 'below 1-3 (automatic)'}"
            die = "-" if d["die"] is None else str(d["die"])
            row = "-" if d["row"] is None else str(d["row"])
            flag = "**provisional**" if event.provisional else "printed"
            rows.append([round_label, str(d["attack"]), d["hex"], attackers, defenders, odds, _modifiers(event), die,
                         row, d["result"], "", flag])
        elif event.kind in ("reduced", "eliminated") and rows:
            loss = event.data.get("unit", "?") + (" reduced" if event.kind == "reduced" else " eliminated")
            rows[-1][10] = f"{rows[-1][10]}, {loss}" if rows[-1][10] else loss
    if not rows:
        return []
    lines = ["| round | # | defender hex | attackers | defenders | odds | modifiers | die | row | result | losses "
             "| data |", "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]


def retreat_table(events: list[Event]) -> list[str]:
    """RSR 11.1x and RSR 11.3: retreats before combat and advances after it."""
    rows = []
    for event in events:
        d = event.data
        if event.kind == "retreat":
            where = " -> ".join([d["frm"], *d.get("path", [])]) if d.get("success") else d["frm"]
            rows.append(f"| {d['unit']} | retreat before combat | {where} | {d['die']} | "
                        f"{'retreats' if d['success'] else 'stays'} |")
        elif event.kind == "retreat-loss":
            rows.append(f"| {d['unit']} | two-hex retreat | | {d['die']} | loses a step |")
        elif event.kind == "advance":
            rows.append(f"| {d['unit']} | advance after combat | {d['frm']} -> {d['to']} | | |")
    if not rows:
        return []
    return ["| unit | what | hexes | die | result |", "|---|---|---|---|---|", *rows]


def supply_table(events: list[Event]) -> list[str]:
    """RSR 10.x: units judged out of supply, attrition, fortress supply levels."""
    rows = [f"| {e.data.get('unit') or e.data.get('hex')} | {e.text} | {e.case} |" for e in events
            if e.kind in ("supply", "attrition", "supply-level")]
    return ["| unit or hex | what | case |", "|---|---|---|", *rows] if rows else []


def activation_table(events: list[Event]) -> list[str]:
    """RSR 9.11: each activation roll with its response value and how it was made up."""
    rows = [e for e in events if e.kind == "activation"]
    if not rows:
        return []
    lines = ["| unit | die | season | total | response | made up of | result |", "|---|---|---|---|---|---|---|"]
    for e in rows:
        d = e.data
        if "die" not in d:
            lines.append(f"| {d['unit']} | - | - | - | - | {e.text.split(': ', 1)[-1]} ({e.case}) | "
                         f"{'activated' if d['activated'] else 'no attempt'} |")
            continue
        lines.append(f"| {d['unit']} | {d['die']} | +{d['modifier']} | {d['total']} | {d['response']} | "
                     f"{'; '.join(d['parts'])} | {'activated' if d['activated'] else 'fails'} |")
    return lines


def moves_table(events: list[Event]) -> list[str]:
    rows = [e for e in events if (e.kind == "moved" and "path" in e.data) or e.kind == "path-cut"]
    if not rows:
        return []
    lines = ["| unit | from | path | MP | note |", "|---|---|---|---|---|"]
    for e in rows:
        d = e.data
        if e.kind == "path-cut":
            lines.append(f"| {d['unit']} | | | | stopped in {d['at']}: {d['reason']} |")
        else:
            lines.append(f"| {d['unit']} | {d['frm']} | {' '.join(d['path'])} | {_mp_text(d['cost'])} | |")
    return lines


def _mp_text(cost: str) -> str:
    """Movement points as the rules write them: "1 1/2", not "3/2" (the event keeps the exact fraction)."""
    from fractions import Fraction

    from rsr.rulesets.red_sun_rising.movement import fraction_text

    try:
        return fraction_text(Fraction(cost))
    except (ValueError, ZeroDivisionError):
        return cost


def result_table(events: list[Event]) -> list[str]:
    """RSR 19.4: how the game ended: winner, level, the cities Japan held and the rule that decided."""
    rows = [e for e in events if e.kind == "game-over" and "winner" in e.data]
    lines = ["| winner | level | cities Japan controls | decided by |", "|---|---|---|---|"]
    for e in rows:
        d = e.data
        lines.append(f"| {d['winner']} | {d['level']} | {len(d['cities'])} ({' '.join(d['cities']) or '-'}) | "
                     f"{d['decided_by']} |")
    return lines if rows else []


def tables(events: list[Event]) -> list[tuple[str, list[str]]]:
    from rsr.rulesets.red_sun_rising.naval.report import tables as naval_tables  # naval game

    return [("Result", result_table(events))] + naval_tables(events) + [
        ("Supply", supply_table(events)), ("Activation", activation_table(events)),
            ("Movement", moves_table(events)), ("Combats", combat_table(events)),
            ("Retreats and advances", retreat_table(events))]
