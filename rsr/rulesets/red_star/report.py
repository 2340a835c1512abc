"""Report tables for Red Sun/Red Star: secret choices, firefights, morale, retreats and advances, movement.

Each firefight is one row: the firing units with printed and used factors, the strength after Combat
Effectiveness, the column and every shift with its reason, the die and the result; the losses, morale
checks, retreats and advances that followed are listed under it.
"""

from __future__ import annotations

from rsr.engine import Event


def choices_table(events: list[Event]) -> list[str]:
    """RS/RS 6.21, RS/RS 6.22: lead units and armor protection of each combat, and when sealed ones were revealed."""
    rows = []
    for event in events:
        d = event.data
        if event.kind == "choices":
            lead = ", ".join(f"{unit} in {hex_id}" for hex_id, unit in sorted(d["lead"].items()))
            rows.append(f"| {d['combat']} | {d['role']} | {lead} | {'yes' if d['armor_protection'] else 'no'} | "
                        f"{'sealed, revealed' if d.get('sealed') else 'in the clear or by policy'} |")
        elif event.kind == "sealed":
            rows.append(f"| {d.get('request', '')} | {d.get('side', '')} | (sealed) | | {event.text} |")
    if not rows:
        return []
    return ["| combat | side | lead units | armor protection | how |", "|---|---|---|---|---|", *rows]


def firefight_table(events: list[Event]) -> list[str]:
    """RS/RS 6.3-6.62: every firefight and what it did."""
    rows: list[list[str]] = []
    for event in events:
        d = event.data
        if event.kind == "firefight":
            firing = " + ".join(f"{f['unit']} ({f['used']}" + (f" of {f['printed']}" if f["used"] != f["printed"]
                                                             else "") + ")" for f in d["firing"])
            classes = ", ".join(f"{c['class']} {c['factors']}x{c['multiplier']}={c['value']}" for c in d["by_class"])
            shifts = ", ".join(f"{s['value']:+d} {s['reason']} ({s['case']})" for s in d["shifts"]) or "none"
            flag = "**provisional**" if event.provisional else "printed"
            rows.append([d["combat"], str(d["firefight"]), d["side"] + (" (night)" if d.get("night") else ""), firing,
                         f"{d['strength']} ({classes})", f"{d['target']} in {d['target_hex']}", d["base_column"],
                         shifts, d["column"], str(d["die"]), d["result"], "", flag])
        elif rows and event.kind in ("reduced", "eliminated", "morale", "retreat", "advance", "disrupted",
                                     "replacement-credit", "night-result"):
            rows[-1][11] = (rows[-1][11] + "; " if rows[-1][11] else "") + event.text
    if not rows:
        return []
    head = ["| combat | # | firing side | firing units (factors used) | strength | target | column | shifts | "
            "final column | die | result | what followed | data |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    return head + ["| " + " | ".join(cell.replace("|", "/") for cell in row) + " |" for row in rows]


def movement_table(events: list[Event]) -> list[str]:
    """RS/RS 7.1-7.4: moves, trucks, cut paths."""
    rows = []
    for event in events:
        d = event.data
        if event.kind == "moved":
            rows.append(f"| {d['unit']} | {' -> '.join([d['frm'], *d['path']])} | {event.text.split('(')[-1][:-1]} |")
        elif event.kind in ("truck", "path-cut", "arrives", "delayed", "entry-moved", "returns", "overstacked"):
            rows.append(f"| {d.get('unit', '')} | {event.text} | {event.case} |")
    if not rows:
        return []
    return ["| unit | where | note |", "|---|---|---|", *rows]


def points_table(events: list[Event]) -> list[str]:
    """RS/RS 4.21, RS/RS 4.3, RS/RS 6.61: support and replacement points received, spent and credited."""
    rows = [f"| {e.text} | {e.case} |" for e in events
            if e.kind in ("support", "replacement-points", "replacement-credit", "replaced", "withdrawn")]
    return ["| points | case |", "|---|---|", *rows] if rows else []


ARTILLERY_KINDS = ("announced", "fire-mission", "wasted", "cancelled", "counterbattery-declared", "counterbattery-pass",
                   "counterbattery", "suppressed", "direct-support", "support-off", "interdiction", "interdicted",
                   "interdiction-off")


def artillery_table(events: list[Event]) -> list[str]:
    """RS/RS 5.0-5.53: missions with cost, column, modifiers, die and result; counterbattery chains
    in declaration order then resolution order (last declared first); direct support; interdiction rolls."""
    rows = []
    for event in events:
        if event.kind in ARTILLERY_KINDS:
            d = event.data
            what = {"counterbattery-declared": f"declared, level {d.get('level')}",
                    "counterbattery": f"resolved, level {d.get('level')}"}.get(event.kind, event.kind)
            flag = "**provisional**" if event.provisional else ""
            rows.append(f"| {what} | {event.text.replace('|', '/')} | {event.case or ''} | {flag} |")
    return ["| step | what happened | case | data |", "|---|---|---|---|", *rows] if rows else []


def reserves_table(events: list[Event]) -> list[str]:
    """RS/RS 7.6-7.64: reserve moves are interruptions of the enemy's movement, marked so."""
    rows = [f"| {'interruption' if e.kind == 'reserve-moved' else e.kind} | {e.text} | {e.case} |" for e in events
            if e.kind in ("reserve-moved", "reserve-lost", "release", "reserve", "bridge")]
    return ["| step | what happened | case |", "|---|---|---|", *rows] if rows else []


def tables(events: list[Event]) -> list[tuple[str, list[str]]]:
    return [("Force adjustment and points", points_table(events)), ("Artillery", artillery_table(events)),
            ("Movement", movement_table(events)), ("Reserves and bridges", reserves_table(events)),
            ("Secret choices", choices_table(events)), ("Firefights", firefight_table(events))]
