"""Human-readable reports rendered from events (docs/architecture.md: reports come from events).

The frame (dice, events, position, what comes next) is common; each ruleset adds its own tables
through ``report_tables(events)``.
"""

from __future__ import annotations

import html
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rsr.engine import Event, Request
from rsr.log import PassRecord, Replay
from rsr.safetext import markdown, visible_lines
from rsr.transcription import sheet_name
from rsr.words import plain_value, plural


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
    carried = result.packets[0].payload["invite"].get("data") if result.packets else None
    if carried:  # the game plays on a player's transcription of the printed sheets
        lines += ["Played on the inviter's transcription of the printed " + " and ".join(
            f"{sheet_name(d['kind'])} ({plural(len(d['set']), 'value')})" for d in carried) + "; only the values still "
            "provisional are flagged.", ""]
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
        lines.append(f"* {event_words(event)}")
    lines += ["", "## Dice", ""]
    if record.rolls:
        lines += ["| n | die | value | purpose |", "|---|---|---|---|"]
        lines += [f"| {r.n} | d{r.sides} | {r.value} | {r.purpose} |" for r in record.rolls]
    else:
        lines.append("No die was rolled.")
    lines += ["", "## Position", "", "```"] + (
        result.ruleset.describe(record.position.state) if record.position else ["(position not kept)"]) + ["```", ""]
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


# -- reports a player reads (rsr report): text, Markdown for an email body, HTML with the map -------------------

WIDTH = 80


@dataclass
class Group:
    """The events of one part of the sequence of play (a stage, an assault round, a segment)."""

    title: str
    lines: list[str] = field(default_factory=list)


@dataclass
class DieLine:
    n: int | None
    sides: int
    value: int
    purpose: str
    result: str = ""


@dataclass
class PassReport:
    """Everything a report of one resolution says, before it is laid out as text, Markdown or HTML."""

    title: str
    facts: list[str]
    message: str | None
    provisional: list[str]
    victory: list[str]
    groups: list[Group]
    losses: list[str]
    sealed: list[str]
    dice: list[DieLine]
    tables: list[tuple[str, list[str], list[list[str]]]]
    position: list[str]
    next: str
    seq: int


STAGE_START = ("round", "segment")


def event_words(event: Event) -> str:
    """An event in plain words. Combat and firefight lines are rebuilt from their data so every die reads
    "die 1, modified to -1 -> 2/1" with each modifier and its case."""
    d = event.data
    flag = " [provisional]" if event.provisional else ""
    if event.kind == "combat" and "attack_strength" in d:
        attackers = " + ".join(f"{a['unit']} ({a['strength']})" for a in d["attackers"])
        defenders = " + ".join(f"{x['unit']} ({x['strength']})" for x in d["defenders"])
        odds = d["column"] or "worse than 1-3"
        if d["die"] is None:
            roll = f"no die: {d['result']} (RSR 11.57)"
        elif d.get("modifiers"):
            mods = ", ".join(f"{m['value']:+d} {m['reason']} ({m['case']})" for m in d["modifiers"])
            roll = f"die {d['die']}, modified to {d['modified_die']} -> {d['result']} (modifiers: {mods})"
        else:
            roll = f"die {d['die']} -> {d['result']}"
        return (f"attack {d['attack']} on {d['hex']}: {attackers} = {d['attack_strength']} against {defenders} = "
                f"{d['defence_strength']}, odds {odds}; {roll} ({event.case}){flag}")
    if event.kind == "firefight" and "column" in d:
        shifts = "".join(f", {s['value']:+d} {s['reason']} ({s['case']})" for s in d.get("shifts", []))
        firing = ", ".join(f"{f['unit']} ({f['used']})" for f in d.get("firing", []))
        final = f" -> {d['column']}" if shifts else ""
        return (f"firefight {d['firefight']} of {d['combat']}: {d['side']} {firing} fire {d['strength']} at "
                f"{d['target']} in {d['target_hex']}: column {d['base_column']}{shifts}{final}; "
                f"die {d['die']} -> {d['result']} ({event.case}){flag}")
    case = f" ({event.case})" if event.case and event.case not in event.text else ""
    return f"{event.text}{case}{flag}"


def _groups(start: str, events: list[Event]) -> list[Group]:
    groups = [Group(start)]
    for event in events:
        if event.kind == "die":
            continue
        if event.kind in STAGE_START:
            groups.append(Group(event_words(event).split(" (")[0]))
            continue
        groups[-1].lines.append(event_words(event))
        if event.kind == "stage" and " ends" in event.text:
            groups.append(Group("Then"))
    return [g for g in groups if g.lines]


def _dice(record: PassRecord) -> list[DieLine]:
    """Every die with its purpose and the result it gave (the first event after it that is not a die)."""
    lines: list[DieLine] = []
    events = record.events
    for index, event in enumerate(events):
        if event.kind != "die":
            continue
        after = next((e for e in events[index + 1:] if e.kind not in ("die", "policy")), None)
        lines.append(DieLine(event.data.get("n"), event.data["sides"], event.data["value"], event.data["purpose"],
                             event_words(after) if after else ""))
    if not lines:  # a ruleset that records rolls without die events
        lines = [DieLine(r.n, r.sides, r.value, r.purpose) for r in record.rolls]
    return lines


def _table_cells(table: list[str]) -> tuple[list[str], list[list[str]]]:
    def cells(line: str) -> list[str]:
        return [c.strip() for c in line.strip().strip("|").split("|")]

    return cells(table[0]), [cells(line) for line in table[2:]]


def victory_lines(result: Replay, state: Any) -> list[str]:
    """The ruleset's ``result(state)`` where it has one: who won, at which level and by which case first,
    then whatever else the verdict names (cities held, points)."""
    from rsr.progress import verdict_text

    verdict = result.ruleset.result(state)
    if not verdict:
        return ["The game goes on: no result yet."] if not getattr(state, "finished", False) else []
    if not isinstance(verdict, dict):
        return [str(verdict)]
    said = verdict_text(verdict)
    details = [f"{key.replace('_', ' ')}: {plain_value(value)}" for key, value in verdict.items()
               if key not in ("winner", "level", "case")]
    return [said[:1].upper() + said[1:] + "."] + details


def build_report(result: Replay, record: PassRecord) -> PassReport:
    from rsr.draw import state_before

    packet = result.packets[record.resolved] if record.resolved < len(result.packets) else None
    author = packet.side if packet else "?"
    before = result.ruleset.describe(state_before(result, record))
    facts = [f"Ruleset {result.ruleset.id} {result.ruleset.version}, scenario {result.scenario.name}, game "
             f"{result.game_id}.",
             f"Packet {record.resolved} was written by {author} ({markdown(result.names.get(author, '?'))}); its "
             "dice come "
             f"from the secret {record.resolver_side} revealed in packet {record.resolver} (key "
             f"{record.key.hex()[:16]}...)."]
    carried = result.packets[0].payload["invite"].get("data") if result.packets else None
    if carried:  # the game plays on a player's transcription of the printed sheets
        facts.append("Played on the inviter's transcription of the printed " + " and ".join(
            f"{sheet_name(d['kind'])} ({plural(len(d['set']), 'value')})" for d in carried) + "; only the values still "
            "provisional are flagged.")
    if packet is not None:
        inputs = packet.payload.get("inputs") or []
        facts.append(f"It carried {plural(len(inputs), 'input')}" + (": " + ", ".join(
            markdown(i.get("request") or i.get("unseal") or i.get("policy")) for i in inputs) if inputs else "") + ".")
        for key in ("time", "timestamp", "signed_at"):
            if packet.payload.get(key):
                facts.append(f"Signed at {markdown(packet.payload[key])}.")
    facts += [f"Void answer ({e.case or 'no case'}; contract version 2, docs/protocol.md): {markdown(e.text)}."
              for e in record.events if e.kind == "void"]
    message = packet.payload.get("message") if packet is not None else None
    message = "\n".join(visible_lines(message)) if message else None  # (escaped: docs/protocol.md)
    provisional = sorted({p for e in record.events for p in e.provisional})
    losses = [event_words(e) for e in record.events if e.kind in ("eliminated", "reduced", "retreat-loss")]
    sealed = [event_words(e) for e in record.events if e.kind in ("sealed", "unsealed", "choices")
              and (e.kind != "choices" or e.data.get("sealed"))]
    tables = []
    for title, table in result.ruleset.report_tables(record.events):
        if table:
            head, rows = _table_cells(table)
            tables.append((title, head, rows))
    waiting = record.waiting
    if waiting is None:
        nxt = "The game is over."
    else:
        nxt = f"The game now asks {waiting.side}: {waiting.prompt} ({waiting.id}, {waiting.case})."
    return PassReport(
        title=f"Game {result.game_id[:8]}: packet {record.resolved} ({author}) resolved", facts=facts,
        message=str(message) if message else None, provisional=provisional,
        victory=victory_lines(result, record.after.state),
        groups=_groups(before[0] if before else "Resolution", record.events), losses=losses, sealed=sealed,
        dice=_dice(record), tables=tables, position=result.ruleset.describe(record.after.state), next=nxt,
        seq=record.resolved)


def _wrap(text: str, first: str = "", rest: str = "  ", width: int = WIDTH) -> list[str]:
    return textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False,
                         break_long_words=True) or [first.rstrip()]


def _list_rows(head: list[str], rows: list[list[str]], bullet: str) -> list[str]:
    """A table as a list: one item per row, 'column: value' pairs, wrapped to 80 columns."""
    out: list[str] = []
    for row in rows:
        pairs = [f"{h}: {v}" for h, v in zip(head, row, strict=False) if v and v != "-"]
        out += _wrap("; ".join(pairs), bullet, " " * len(bullet))
    return out


def _table_width(head: list[str], rows: list[list[str]]) -> int:
    widths = [max([len(h)] + [len(r[i]) if i < len(r) else 0 for r in rows]) for i, h in enumerate(head)]
    return sum(widths) + 3 * len(widths) + 1


def report_markdown(report: PassReport) -> str:
    """Markdown for an email body: headings and lists, and no table wider than 80 columns."""
    out = [f"# {report.title}", ""]
    for fact in report.facts:
        out += _wrap(fact, "", "")
    out.append("")
    if report.message:
        out += ["## Message from the sender", ""] + [f"> {markdown(line)}" for line in report.message.split("\n")]
        out.append("")
    if report.provisional:
        out += ["## Provisional data", "", "These results rest on stand-in data, not the printed charts:", ""]
        for item in report.provisional:
            out += _wrap(item, "* ", "  ")
        out.append("")
    if report.victory:
        out += ["## Result", ""] + [line for v in report.victory for line in _wrap(v, "* ", "  ")] + [""]
    out += ["## What happened, in the sequence of play", ""]
    if not report.groups:
        out += ["Nothing: no input of this packet could be applied yet.", ""]
    for group in report.groups:
        out += [f"### {group.title}", ""]
        for line in group.lines:
            out += _wrap(line, "* ", "  ")
        out.append("")
    if report.losses:
        out += ["## Losses", ""] + [line for item in report.losses for line in _wrap(item, "* ", "  ")] + [""]
    if report.sealed:
        out += ["## Sealed choices", ""] + [line for item in report.sealed for line in _wrap(item, "* ", "  ")]
        out.append("")
    out += ["## Dice", ""]
    if not report.dice:
        out += ["No die was rolled.", ""]
    for die in report.dice:
        label = f"#{die.n} " if die.n is not None else ""
        out += _wrap(f"{label}d{die.sides} = {die.value}: {die.purpose}", "* ", "  ")
        if die.result:
            out += _wrap(f"gave: {die.result}", "  ", "    ")
    out.append("")
    for title, head, rows in report.tables:
        out += [f"## {title}", ""]
        if _table_width(head, rows) <= WIDTH:
            out += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
            out += ["| " + " | ".join(row) + " |" for row in rows]
        else:
            out += _list_rows(head, rows, "* ")
        out.append("")
    out += ["## Position", "", "```"] + [line for p in report.position for line in _wrap(p, "", "      ")]
    out += ["```", "", "## Next", ""] + _wrap(report.next, "", "") + [""]
    return "\n".join(out)


def report_text(report: PassReport) -> str:
    """Plain text for a terminal or a pipe: 80 columns, lists instead of tables, nothing cut short."""
    rule = "=" * min(WIDTH, len(report.title))
    md = report_markdown(report)
    out: list[str] = []
    table: list[list[str]] = []
    for line in md.splitlines():
        if table and not line.startswith("|"):
            out += _aligned(table)
            table = []
        line = _plain(line)
        if line.startswith("# "):
            out += [line[2:], rule]
        elif line.startswith("## "):
            out += [line[3:].upper()]
        elif line.startswith("### "):
            out += [line[4:] + ":"]
        elif line == "```":
            continue
        elif line.startswith("|---"):
            continue
        elif line.startswith("| "):
            table.append([c.strip() for c in line.strip().strip("|").split("|")])
        else:
            out.append(line)
    out += _aligned(table)
    return "\n".join(out) + "\n"


def _plain(line: str) -> str:
    """A Markdown line without its emphasis and code marks, for the text report."""
    return line.replace("**", "").replace("`", "")


def _aligned(rows: list[list[str]]) -> list[str]:
    """Table rows as text with aligned columns (numbers to the right, words to the left), two spaces apart."""
    if not rows:
        return []
    count = max(len(row) for row in rows)
    rows = [row + [""] * (count - len(row)) for row in rows]
    widths = [max(len(row[i]) for row in rows) for i in range(count)]
    numeric = [all(_numeric(row[i]) for row in rows[1:] if row[i]) and any(row[i] for row in rows[1:])
               for i in range(count)]
    return ["  " + "  ".join(cell.rjust(w) if num else cell.ljust(w)
                             for cell, w, num in zip(row, widths, numeric, strict=True)).rstrip() for row in rows]


def _numeric(cell: str) -> bool:
    return cell.lstrip("+-").replace("/", "").replace(".", "").replace(" ", "").replace("%", "").isdigit()


def _html_list(items: list[str], css: str = "") -> str:
    cls = f' class="{css}"' if css else ""
    return f"<ul{cls}>" + "".join(f"<li>{html.escape(i)}</li>" for i in items) + "</ul>"


HTML_STYLE = """
body{font-family:DejaVu Sans,Verdana,sans-serif;max-width:1200px;margin:1em auto;padding:0 1em;color:#222}
h1{font-size:1.4em}h2{font-size:1.15em;border-bottom:1px solid #ccc;margin-top:1.4em}h3{font-size:1em}
.provisional{background:#fff4d6;border-left:4px solid #e0a000;padding:.4em .8em}
table{border-collapse:collapse;font-size:.85em;margin:.5em 0}td,th{border:1px solid #bbb;padding:2px 6px;
vertical-align:top;text-align:left}th{background:#eee}
#map{width:calc(100vw - 2em);margin:0 0 0 calc(50% - 50vw + 1em);overflow-x:auto}
#map svg{display:block;box-sizing:border-box;width:100%;max-width:calc(var(--w) * 1.5);height:auto;
border:1px solid #ccc;cursor:zoom-in}
#zoom:checked+figure svg{width:calc(var(--w) * 2.5);max-width:none;cursor:zoom-out}
#map figcaption{font-size:.85em;color:#555}
nav{margin:.5em 0;font-size:.95em}nav a{margin-right:1em}pre{background:#f6f6f6;padding:.5em;overflow-x:auto}
blockquote{border-left:3px solid #999;margin:0;padding-left:.8em;color:#444}
"""


def map_figure(svg: str) -> str:
    """The map across the whole window (not the report's column), at most 1.5 times its own size (the PNG's
    zoom); a click on it (a CSS checkbox: the page has no script) shows it 2.5 times its size, scrolling."""
    match = re.search(r'<svg [^>]*?width="(\d+)"', svg)
    width = f"{match.group(1)}px" if match else "100%"
    return (f'<h2>Map</h2><input type="checkbox" id="zoom" hidden><figure id="map" style="--w:{width}">'
            f'<label for="zoom" title="click to enlarge or shrink the map">{svg}</label>'
            "<figcaption>Click the map to enlarge it; click again to fit the window.</figcaption></figure>")


def report_html(report: PassReport, svg: str, nav: str = "") -> str:
    """One self-contained HTML page: the report with the map inline (SVG) and a table of every die."""
    e = html.escape
    parts = [f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{e(report.title)}</title>",
             f"<style>{HTML_STYLE}</style></head><body>", nav, f"<h1>{e(report.title)}</h1>",
             "".join(f"<p>{e(f)}</p>" for f in report.facts)]
    if report.message:
        parts.append(f"<h2>Message from the sender</h2><blockquote>{e(report.message)}</blockquote>")
    if report.provisional:
        parts.append('<div class="provisional" id="provisional"><strong>Provisional data was used.</strong> '
                     "These results rest on stand-in data, not the printed charts:"
                     + _html_list(report.provisional) + "</div>")
    if report.victory:
        parts.append("<h2>Result</h2>" + _html_list(report.victory))
    parts.append(map_figure(svg))
    parts.append("<h2>What happened, in the sequence of play</h2>")
    if not report.groups:
        parts.append("<p>Nothing: no input of this packet could be applied yet.</p>")
    for group in report.groups:
        parts.append(f"<h3>{e(group.title)}</h3>" + _html_list(group.lines))
    if report.losses:
        parts.append("<h2>Losses</h2>" + _html_list(report.losses))
    if report.sealed:
        parts.append("<h2>Sealed choices</h2>" + _html_list(report.sealed))
    parts.append('<h2>Dice</h2><table id="dice"><tr><th>#</th><th>die</th><th>value</th><th>purpose</th>'
                 "<th>what it gave</th></tr>")
    for die in report.dice:
        parts.append(f"<tr><td>{'' if die.n is None else die.n}</td><td>d{die.sides}</td><td>{die.value}</td>"
                     f"<td>{e(die.purpose)}</td><td>{e(die.result)}</td></tr>")
    parts.append("</table>")
    if not report.dice:
        parts.append("<p>No die was rolled.</p>")
    for title, head, rows in report.tables:
        parts.append(f"<h2>{e(title)}</h2><table><tr>" + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr>")
        parts += ["<tr>" + "".join(f"<td>{e(c.replace('**', ''))}</td>" for c in row) + "</tr>" for row in rows]
        parts.append("</table>")
    parts.append("<h2>Position</h2><pre>" + e("\n".join(report.position)) + "</pre>")
    parts.append(f"<h2>Next</h2><p>{e(report.next)}</p>{nav}</body></html>")
    return "\n".join(parts) + "\n"


def replay_pages(result: Replay, records: list[PassRecord]) -> dict[str, str]:
    """A browsable HTML replay: an index and one self-contained page per resolved packet, linked both ways."""
    names = [_page_name(r) for r in records]
    pages: dict[str, str] = {}
    index = [_index_line(result, names[i], r) for i, r in enumerate(records)]
    for i, record in enumerate(records):
        pages[names[i]] = _replay_page(result, record, i, names, len(records))
    pages["index.html"] = _index_page(result, index)
    return pages


def _page_name(record: PassRecord) -> str:
    return f"packet-{record.resolved:04d}.html"


def _index_line(result: Replay, name: str, record: PassRecord) -> str:
    return (f"<li><a href=\"{name}\">packet {record.resolved} ({result.side_for_seq(record.resolved)}): "
            f"{html.escape(result.ruleset.describe(record.after.state)[0])}</a></li>")


def _replay_page(result: Replay, record: PassRecord, i: int, names: list[str], count: int) -> str:
    """Page ``i`` of ``count`` (``names`` holds the names of pages ``i - 1`` to ``i + 1`` at least)."""
    from rsr.draw import draw_position

    links = ['<a href="index.html">all packets</a>']
    links.append(f'<a id="prev" href="{names[i - 1]}">&larr; previous</a>' if i else "")
    links.append(f'<a id="next" href="{names[i + 1]}">next &rarr;</a>' if i + 1 < count else "")
    nav = "<nav>" + "".join(links) + f" packet {i + 1} of {count}</nav>"
    svg, _ = draw_position(result, record)
    return report_html(build_report(result, record), svg, nav)


def _index_page(result: Replay, index: list[str]) -> str:
    title = f"Game {result.game_id[:8]} ({result.ruleset.id}, {result.scenario.name})"
    return (f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title}</title>"
            f"<style>{HTML_STYLE}</style></head><body><h1>{title}: replay</h1><ol>"
            + "".join(index) + "</ol></body></html>\n")


def write_replay_pages(game_dir: Path, key_of: Callable[[Replay], Any], out: Path) -> int:
    """``rsr report --all --html``: the pages of :func:`replay_pages`, the same bytes, each drawn and written
    while the log replays from the invitation, its position dropped once the next pass is drawn (memory flat in
    the game's length: every position of a long game kept took gigabytes). Returns how
    many pages were written. ``key_of(result)``: this player's key of the game (BadInput: none here)."""
    from rsr.errors import BadInput
    from rsr.fileio import atomic_write
    from rsr.gamedir import read_log
    from rsr.log import my_side, pending_pass, replay
    from rsr.packet import forget_checks

    forget_checks()  # the whole game from scratch, as before
    packets = read_log(game_dir, lazy=True).packets
    passes = max(len(packets) - 2, 0)  # packet N >= 2 resolves packet N - 1: pages 1 to len - 2, in order
    index: list[str] = []
    key: list[Any] = []  # this player's key, and whether its next packet carries a pass (the last page)
    names = [f"packet-{seq:04d}.html" for seq in range(1, len(packets))]

    def mine(result: Replay) -> bool:
        if not key:
            try:  # (as reports.resolutions: a third party without a key of this game sees the log's passes)
                pair = key_of(result)
                key.append(pair if my_side(result, pair) == result.side_for_seq(len(packets)) else None)
            except BadInput:
                key.append(None)
        return key[0] is not None

    def page(result: Replay, record: PassRecord) -> None:
        i = len(index)
        if record.resolved != i + 1:
            raise BadInput(f"packet {record.resolver} resolves packet {record.resolved}, not {i + 1}")
        count = passes + (1 if mine(result) else 0)
        atomic_write(out / names[i], _replay_page(result, record, i, names, count).encode())
        index.append(_index_line(result, names[i], record))

    result = replay(packets, keep_positions=False, on_pass=page)
    last: PassRecord | None = None
    if mine(result):
        try:
            last = pending_pass(result, key[0])
        except BadInput:
            last = None
    if last is None and key and key[0] is not None and index:  # (no pass of mine after all: counted one too many)
        _recount(out, names[:len(index)], passes + 1, passes)
    if last is not None:
        i = len(index)
        atomic_write(out / names[i], _replay_page(result, last, i, names, passes + 1).encode())
        index.append(_index_line(result, names[i], last))
    if not index:  # (nothing written)
        raise BadInput("no resolution to report yet")
    atomic_write(out / "index.html", _index_page(result, index).encode())
    return len(index) + 1


def _recount(out: Path, names: list[str], was: int, now: int) -> None:
    """Pages written as ``packet i of was`` say ``now`` instead, and the last links to no next page (the
    player's key did not reproduce its commitment: no pass of its own comes last). One page at a time."""
    from rsr.fileio import atomic_write, read_limited

    for i, name in enumerate(names):
        text = read_limited(out / name, 256 * 1024 * 1024, "page").decode()
        text = text.replace(f" packet {i + 1} of {was}</nav>", f" packet {i + 1} of {now}</nav>", 1)
        if i + 1 == len(names):
            text = text.replace(f'<a id="next" href="packet-{i + 2:04d}.html">next &rarr;</a>', "", 1)
        atomic_write(out / name, text.encode())


def replay_frame(result: Replay, record: PassRecord, index: int, count: int, width: int) -> Any:
    """One frame of ``rsr replay``: the map in characters and the report, side by side when the terminal is
    wide enough (120 columns), else one above the other."""
    from rich.console import Group as RichGroup
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    from rsr.draw import draw_position
    from rsr.draw.hexmap import crop_hexes
    from rsr.draw.textmap import text_map

    _, scene = draw_position(result, record)
    picture = "\n".join(text_map(scene, crop_hexes(scene, radius=2)))
    built = build_report(result, record)
    body = report_text(built)
    author = result.packets[record.resolved].side if record.resolved < len(result.packets) else "?"
    head = Text(f"packet {record.resolved} ({author}), dice revealed by packet {record.resolver}: "
                f"{scene.subtitle}", style="bold")  # numbered as the log numbers its packets
    left = Panel(Text(picture, no_wrap=True, overflow="crop"), title="map", expand=False)
    right = Panel(Text(body), title="report")
    if width >= 120:
        grid = Table.grid(padding=1)
        grid.add_column(no_wrap=True)
        grid.add_column(ratio=1)
        grid.add_row(left, right)
        return RichGroup(head, grid)
    return RichGroup(head, left, Text(body))
