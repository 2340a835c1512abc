"""Human-readable reports rendered from events (DESIGN.md 2: reports come from events)."""

from __future__ import annotations

from rsr.engine import Event, Request
from rsr.game import PassRecord, Replay


def _modifiers(event: Event) -> str:
    mods = event.data.get("modifiers") or []
    return ", ".join(f"{m['value']:+d} {m['reason']} ({m['case']})" for m in mods) or "none"


def combat_table(events: list[Event]) -> list[str]:
    combats = [e for e in events if e.kind == "combat"]
    if not combats:
        return []
    lines = ["| # | defender hex | attackers | defenders | odds | modifiers | die | row | result | data |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for e in combats:
        d = e.data
        attackers = " + ".join(f"{a['unit']} ({a['strength']})" for a in d["attackers"])
        defenders = " + ".join(f"{x['unit']} ({x['strength']})" for x in d["defenders"])
        odds = f"{d['attack_strength']}:{d['defence_strength']} = {d['column'] or 'below 1-3 (automatic)'}"
        die = "-" if d["die"] is None else str(d["die"])
        row = "-" if d["row"] is None else str(d["row"])
        flag = "**provisional**" if e.provisional else "printed"
        lines.append(f"| {d['attack']} | {d['hex']} | {attackers} | {defenders} | {odds} | {_modifiers(e)} | {die} "
                     f"| {row} | {d['result']} | {flag} |")
    return lines


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
            lines.append(f"| {d['unit']} | {d['frm']} | {' '.join(d['path'])} | {d['cost']} | |")
    return lines


def request_line(request: Request | None) -> str:
    if request is None:
        return "The game is over."
    return f"The game now asks **{request.side}**: {request.prompt} (`{request.id}`, {request.case})."


def pass_markdown(result: Replay, record: PassRecord) -> str:
    resolved = result.packets[record.resolved] if record.resolved < len(result.packets) else None
    author = resolved.side if resolved else "?"
    lines = [
        f"# Game {result.game_id[:8]}: packet {record.resolved} ({author}) resolved",
        "",
        f"Ruleset {result.ruleset.id} {result.ruleset.version}, scenario {result.scenario.name}. "
        f"The dice of packet {record.resolved} are keyed by the secret {record.resolver_side} reveals in packet "
        f"{record.resolver}; key `{record.key.hex()}`.",
        "",
    ]
    provisional = sorted({p for e in record.events for p in e.provisional})
    if provisional:
        lines += ["> **Provisional data was used.** These results rest on stand-in data, not the printed charts:", ">"]
        lines += [f"> * {p}" for p in provisional]
        lines.append("")
    for title, table in (("Activation", activation_table(record.events)), ("Movement", moves_table(record.events)),
                         ("Combats", combat_table(record.events))):
        if table:
            lines += [f"## {title}", ""] + table + [""]
    lines += ["## What happened", ""]
    if not record.events:
        lines.append("Nothing: no input of this packet could be applied yet.")
    for event in record.events:
        case = f" ({event.case})" if event.case and event.case not in event.text else ""
        lines.append(f"* {event.text}{case}")
    lines += ["", "## Dice", ""]
    if record.rolls:
        lines += ["| n | die | value | purpose |", "|---|---|---|---|"]
        lines += [f"| {r.n} | d{r.sides} | {r.value} | {r.purpose} |" for r in record.rolls]
    else:
        lines.append("No die was rolled.")
    lines += ["", "## Position", "", "```"] + result.ruleset.describe(record.position.state) + ["```", ""]
    lines += ["## Next", "", request_line(record.waiting), ""]
    return "\n".join(lines)


def dice_audit(result: Replay) -> list[str]:
    """Every roll of the game with its key and purpose (``rsr verify --dice``)."""
    lines = []
    for record in result.passes:
        lines.append(f"packet {record.resolved} key {record.key.hex()} "
                     f"(reveal in packet {record.resolver}, {record.resolver_side})")
        for roll in record.rolls:
            lines.append(f"  #{roll.n} d{roll.sides} = {roll.value}  {roll.purpose}")
    return lines
