"""Human-readable reports rendered from events (docs/architecture.md: reports come from events).

The frame (dice, events, position, what comes next) is common; each ruleset adds its own tables
through ``report_tables(events)``.
"""

from __future__ import annotations

from rsr.engine import Request
from rsr.game import PassRecord, Replay


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
    for title, table in result.ruleset.report_tables(record.events):
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
