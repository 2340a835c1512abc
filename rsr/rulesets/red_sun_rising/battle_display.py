"""The Tactical Naval Display of a Red Sun Rising naval battle (RSR 8.2) after one hour, from the battle's
events.

Drawn from the events alone (``naval-setup``, ``naval-hour``, the rolls, ``naval-secondary``,
``naval-admiral``, ``naval-morale``, ``naval-break-off``, ``naval-battle-over``), so both players draw the
same picture from the log: the two battlelines face each other box by box (the Japanese above, the
Russians below), each side's Secondary Force beside its line and its flotillas outside it; the range track
with the marker at the hour's range and the weather's maximum sighting range (RSR 8.41, RSR 8.81-8.83); every ship
with its name, class and attack-defense values, disabled ships with an orange band, sunk ships greyed and
crossed out in the box they last held; the flagship starred; and every gunnery, return-fire, flotilla and
torpedo roll of the hour as a line from the firer to its target, red when it sank, orange when it
disabled, grey dashed when it did nothing. The panel lists the hour's rolls, morale and casualties.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Any

from rsr.draw.counters import SIDE_STYLE
from rsr.engine import Event
from rsr.errors import BadInput
from rsr.rulesets.red_sun_rising.naval.battle_report import ROLL_KINDS
from rsr.rulesets.red_sun_rising.naval.tactical import MAX_SIGHTING  # RSR 8.41, RSR 8.81-8.83

SIDES = ("japan", "russia")          # drawn top to bottom
SHOT_COLOURS = {"sunk": "#d11a1a", "disabled": "#e07000", "no effect": "#8a8a8a"}
BOX_W, BOX_H, GAP = 66.0, 44.0, 6.0
PANEL = 330.0
LEFT = 110.0


@dataclass
class Battle:
    """One battle of a packet: its events from the set-up to the end."""

    hex: int
    events: list[Event]

    @property
    def setup(self) -> dict[str, Any]:
        return next(e.data for e in self.events if e.kind == "naval-setup")

    def hours(self) -> list[int]:
        return [int(e.data["hour"]) for e in self.events if e.kind == "naval-hour"]


@dataclass
class Picture:
    """What the display shows after ``hour``: where every ship is, what state it is in, and the hour's rolls."""

    hour: int
    weather: str
    range: int
    how: str
    torpedo: str | None
    morale: dict[str, int]
    boxes: dict[str, tuple[str, str, int]] = field(default_factory=dict)   # ship -> (side, row, box)
    disabled: set[str] = field(default_factory=set)
    sunk: dict[str, int] = field(default_factory=dict)                      # ship -> hour sunk
    shots: list[Event] = field(default_factory=list)
    notes: list[Event] = field(default_factory=list)


def battles_in(events: list[Event]) -> list[Battle]:
    """RSR 4.4: every battle fought in a pass, from its ``naval-setup`` to its ``naval-battle-over``."""
    found: list[Battle] = []
    current: list[Event] | None = None
    for event in events:
        if event.kind == "naval-setup":
            current = [event]
            found.append(Battle(int(event.data["hex"]), current))
        elif current is not None:
            current.append(event)
            if event.kind == "naval-battle-over":
                current = None
    return found


def _place(boxes: dict[str, tuple[str, str, int]], side: str, display: dict[str, Any]) -> None:
    for box, ship in display.get("battleline", {}).items():
        boxes[ship] = (side, "line", int(box))
    for box, ships in display.get("secondary", {}).items():
        for ship in ships:
            boxes[ship] = (side, "secondary", int(box))
    for box, ship in display.get("flotillas", {}).items():
        boxes[ship] = (side, "flotillas", int(box))


def picture(battle: Battle, hour: int | None) -> Picture:
    """The display after ``hour`` (0: the set-up; None: the last hour). Sunk ships keep the box they held."""
    played = battle.hours()
    if hour is None:
        hour = played[-1] if played else 0
    if hour and hour not in played:
        raise BadInput(f"--hour {hour}: the battle in naval hex {battle.hex} has hours "
                       + (f"1-{played[-1]}" if played else "none") + " (0 is the set-up)")
    setup = battle.setup
    pic = Picture(hour, setup["weather"], int(setup["range"]), "set-up", None, dict(setup["morale"]))
    for side in SIDES:
        _place(pic.boxes, side, setup["display"][side])
    last = played[-1] if played else 0
    for event in battle.events:
        d = event.data
        if event.kind == "naval-battle-over":
            if hour == last:
                pic.notes.append(event)
            continue
        at = d.get("hour")
        if at is None or int(at) > hour:
            continue
        if event.kind == "naval-hour":
            pic.weather, pic.range, pic.how, pic.torpedo = d["weather"], int(d["range"]), d["how"], d["torpedo"]
            pic.morale = dict(d["morale"])
            pic.disabled = set()
            for side in SIDES:
                _place(pic.boxes, side, d["display"][side])
                pic.disabled |= set(d["display"][side].get("disabled", []))
        elif event.kind in ROLL_KINDS:
            if d["outcome"] == "sunk":
                pic.sunk.setdefault(d["target"], int(at))
            if int(at) == hour:
                pic.shots.append(event)
        elif int(at) == hour:
            pic.notes.append(event)
    pic.disabled -= set(pic.sunk)
    return pic


def _x(box: int) -> float:
    return LEFT + (box - 1) * (BOX_W + GAP)


ROWS = {("japan", "flotillas"): 0, ("japan", "secondary"): 1, ("japan", "line"): 2,
        ("russia", "line"): 3, ("russia", "secondary"): 4, ("russia", "flotillas"): 5}
ROW_NAMES = {"flotillas": "Flotillas", "secondary": "Secondary Force", "line": "Battleline"}


def _y(side: str, row: str) -> float:
    index = ROWS[(side, row)]
    return 96.0 + index * (BOX_H + 14) + (26.0 if index >= 3 else 0.0)


def _ship_svg(static: Any, ship_id: str, x: float, y: float, disabled: bool, sunk: int | None,
              flagship: bool) -> list[str]:
    ship = static.ship(ship_id)
    fill, ink = SIDE_STYLE.get(ship.side, ("#777777", "#ffffff"))
    provisional = "provisional" in ship.provenance  # as the naval rules flag a ship's values (mines.py)
    state = "sunk" if sunk is not None else ("disabled" if disabled else "ok")
    title = (f"{ship.name} ({ship_id}), class {ship.cls}, attack {ship.attack}, defense {ship.defense}"
             + (" [provisional values]" if provisional else "") + ("" if state == "ok" else f": {state}")
             + (f" in hour {sunk}" if sunk is not None else "") + (", flagship" if flagship else ""))
    out = [f'<g class="ship ship-{state}" data-ship="{escape(ship_id)}"><title>{escape(title)}</title>']
    if sunk is not None:
        fill, ink = "#d0d0d0", "#555555"
    out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{BOX_W:.1f}" height="{BOX_H:.1f}" rx="3" fill="{fill}" '
               'stroke="#1a1a1a" stroke-width="0.8"/>')
    name = ship_id.split("-", 1)[-1].upper() if ship.cls in ("DF", "TF") else ship.name  # flotillas by number
    name = name if len(name) <= 12 else name[:11] + "."
    out.append(f'<text x="{x + BOX_W / 2:.1f}" y="{y + 12:.1f}" font-size="8.5" font-weight="bold" '
               f'text-anchor="middle" fill="{ink}">{"★ " if flagship else ""}{escape(name)}</text>')
    out.append(f'<text x="{x + BOX_W / 2:.1f}" y="{y + 26:.1f}" font-size="9" text-anchor="middle" fill="{ink}">'
               f'{escape(ship.cls)} {ship.attack}-{ship.defense}{"*" if provisional else ""}</text>')
    if disabled:
        out.append(f'<rect x="{x:.1f}" y="{y + BOX_H - 12:.1f}" width="{BOX_W:.1f}" height="12" fill="#ff9a1f"/>')
        out.append(f'<text x="{x + BOX_W / 2:.1f}" y="{y + BOX_H - 3:.1f}" font-size="8" font-weight="bold" '
                   'text-anchor="middle" fill="#111">DISABLED</text>')
    if sunk is not None:
        out.append(f'<path d="M{x + 4:.1f},{y + 4:.1f} L{x + BOX_W - 4:.1f},{y + BOX_H - 4:.1f} M{x + 4:.1f},'
                   f'{y + BOX_H - 4:.1f} L{x + BOX_W - 4:.1f},{y + 4:.1f}" stroke="#d11a1a" stroke-width="2.4"/>')
        out.append(f'<text x="{x + BOX_W / 2:.1f}" y="{y + BOX_H - 4:.1f}" font-size="8" font-weight="bold" '
                   f'text-anchor="middle" fill="#a00000">SUNK h{sunk}</text>')
    out.append("</g>")
    return out


def battle_svg(static: Any, battle: Battle, pic: Picture, title: str) -> str:
    """The display as one SVG document (pure: the same events give the same bytes)."""
    setup = battle.setup
    flagships = setup.get("flagships", {})
    last_box = max([b for _, _, b in pic.boxes.values()] + [7])
    map_w = LEFT + last_box * (BOX_W + GAP) + 10
    width = map_w + PANEL
    lines = _panel(static, battle, pic)
    height = max(_y("russia", "flotillas") + BOX_H + 30, 64 + 11.5 * len(lines))
    total = len(battle.hours())
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="DejaVu Sans, Verdana, sans-serif" id="rsr-battle">',
           f'<title>{escape(title)}</title>',
           '<defs><marker id="shot-head" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="4" markerHeight="4" '
           'orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="context-stroke"/></marker></defs>',
           f'<rect width="{width:.0f}" height="{height:.0f}" fill="#ffffff"/>',
           f'<rect x="4" y="84" width="{map_w - 8:.0f}" height="{height - 90:.0f}" fill="#dcebf7"/>',
           f'<text x="8" y="18" font-size="13" font-weight="bold">{escape(title)}</text>',
           f'<text x="8" y="34" font-size="10" fill="#333" class="battle-hour">'
           f'{"set-up" if pic.hour == 0 else f"hour {pic.hour} of {total}"}: {escape(pic.weather)}, range '
           f'{pic.range} ({escape(pic.how)}), maximum sighting {MAX_SIGHTING.get(pic.weather, "?")}'
           f'{f"; torpedo attack: {pic.torpedo}" if pic.torpedo else ""}; morale Russian {pic.morale.get("russia")}, '
           f'Japanese {pic.morale.get("japan")}</text>']
    # the range track (RSR 8.4): boxes 0-6 with the marker on the hour's range; a range opened beyond the track
    # (RSR 8.43: past the sighting limit, back to search) gets boxes up to it
    out.append('<text x="8" y="62" font-size="9" font-weight="bold">Range</text>')
    for r in range(0, max(7, pic.range + 1)):
        x = LEFT + r * 34
        sighted = r <= MAX_SIGHTING.get(pic.weather, 6)
        out.append(f'<rect x="{x:.1f}" y="48" width="30" height="22" fill="{"#ffffff" if sighted else "#e4e4e4"}" '
                   'stroke="#555" stroke-width="0.8"/>')
        out.append(f'<text x="{x + 15:.1f}" y="63" font-size="10" text-anchor="middle">{r}</text>')
        if r == pic.range:
            out.append(f'<rect class="range-marker" x="{x - 2:.1f}" y="46" width="34" height="26" fill="none" '
                       'stroke="#d11a1a" stroke-width="2.6"/>')
    # row names and box numbers
    for (side, row), _ in sorted(ROWS.items(), key=lambda kv: kv[1]):
        y = _y(side, row)
        who = "Japanese" if side == "japan" else "Russian"
        out.append(f'<text x="8" y="{y + 18:.1f}" font-size="9" font-weight="bold">{who}</text>')
        out.append(f'<text x="8" y="{y + 30:.1f}" font-size="8.5">{ROW_NAMES[row]}</text>')
    for box in range(1, last_box + 1):
        out.append(f'<text x="{_x(box) + BOX_W / 2:.1f}" y="{_y("russia", "line") - 8:.1f}" font-size="8" '
                   f'text-anchor="middle" fill="#445">box {box}</text>')
    centres: dict[str, tuple[float, float]] = {}
    stacked: dict[tuple[str, str, int], int] = {}
    ships: list[str] = []
    for ship, (side, row, box) in sorted(pic.boxes.items(), key=lambda kv: (kv[1], kv[0])):
        depth = stacked.get((side, row, box), 0)
        stacked[(side, row, box)] = depth + 1
        x, y = _x(box) + depth * 5, _y(side, row) - depth * 5
        centres[ship] = (x + BOX_W / 2, y + BOX_H / 2)
        ships += _ship_svg(static, ship, x, y, ship in pic.disabled, pic.sunk.get(ship), ship == flagships.get(side))
    for n, shot in enumerate(pic.shots):
        d = shot.data
        if d["firer"] not in centres or d["target"] not in centres:
            continue
        (x1, y1), (x2, y2) = centres[d["firer"]], centres[d["target"]]
        down = 1 if y2 > y1 else -1
        lane = 5.0 if d.get("side") == "japan" else -5.0  # fire both ways between two boxes stays apart
        x1, x2 = x1 + lane, x2 + lane
        y2 = y2 - down * BOX_H * 0.5
        colour = SHOT_COLOURS.get(d["outcome"], "#555")
        dash = ' stroke-dasharray="4,3"' if d["outcome"] == "no effect" else ""
        width_px = 1.2 if d["outcome"] == "no effect" else 2.4
        kind = shot.kind.removeprefix("naval-")
        out.append(f'<path class="shot shot-{kind} outcome-{d["outcome"].replace(" ", "-")}" data-n="{n}" '
                   f'd="M{x1:.1f},{y1:.1f} L{x2:.1f},{y2:.1f}" stroke="{colour}" stroke-width="{width_px}"{dash} '
                   f'fill="none" marker-end="url(#shot-head)"><title>{escape(shot.text)}</title></path>')
    out += ships  # over the lines of fire, so that every ship's values stay readable
    px = map_w + 6
    out.append(f'<rect x="{px - 4:.1f}" y="44" width="{PANEL - 8:.0f}" height="{height - 50:.0f}" fill="#f7f7f4" '
               'stroke="#ccc"/>')
    for i, (kind, text) in enumerate(lines):
        weight = ' font-weight="bold"' if kind == "head" else ""
        colour = {"sunk": SHOT_COLOURS["sunk"], "disabled": "#b05000"}.get(kind, "#222")
        out.append(f'<text x="{px:.1f}" y="{58 + 11.5 * i:.1f}" font-size="8.2"{weight} fill="{colour}">'
                   f'{escape(text)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _panel(static: Any, battle: Battle, pic: Picture) -> list[tuple[str, str]]:
    import textwrap

    def wrap(kind: str, text: str) -> list[tuple[str, str]]:
        return [(kind, t) for t in textwrap.wrap(text, 66, subsequent_indent="   ")]

    lines: list[tuple[str, str]] = [("head", f"Naval battle in hex {battle.hex} (RSR 8.0)")]
    if pic.shots:
        lines.append(("head", f"Rolls of hour {pic.hour} (firer -> target: column, die, result)"))
        for shot in pic.shots:
            d = shot.data
            flag = " [provisional]" if shot.provisional else ""
            lines += wrap(d["outcome"] if d["outcome"] != "no effect" else "text",
                          f"{shot.kind.removeprefix('naval-')}: {d['firer']} -> {d['target']}: col {d['column']}, "
                          f"die {d['die']} {d['modifier']:+d} = {d['result']}: {d['outcome']}{flag}")
    elif pic.hour:
        lines.append(("text", f"hour {pic.hour}: no gunnery ({pic.how})"))
    if pic.notes:
        lines.append(("head", "Morale, admirals, break-off"))
        for note in pic.notes:
            if note.kind not in ("naval-hour",):
                lines += wrap("text", note.text + (" [provisional]" if note.provisional else ""))
    lines.append(("head", "Key"))
    lines += wrap("text", "Japanese above, Russian below; each ship fires at the enemy ship in its own box "
                  "or the next (RSR 8.52); ★ flagship; class B battleship, C cruiser, DF destroyer, TF torpedo "
                  "flotilla; attack-defense, * provisional values")
    lines += wrap("text", "lines: the hour's rolls, red sank, orange disabled, grey dashed no effect")
    return lines


def display_svg(static: Any, events: list[Event], title: str, at_hex: str | None = None,
                hour: int | None = None) -> str:
    """The SVG of the display of the pass's battle (the first, or the one in naval hex ``at_hex``)."""
    battles = battles_in(events)
    if not battles:
        raise BadInput("no naval battle was fought in this packet's resolution (give the SEQ of the packet "
                       "that resolved it)")
    if at_hex is not None:
        chosen = [b for b in battles if str(b.hex) == at_hex]
        if not chosen:
            raise BadInput(f"--battle {at_hex}: the battles of this packet were in naval hex "
                           + ", ".join(str(b.hex) for b in battles))
        battle = chosen[0]
    else:
        battle = battles[0]
    pic = picture(battle, hour)
    return battle_svg(static, battle, pic, title + f": Tactical Naval Display, hex {battle.hex}")
