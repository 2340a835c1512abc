"""The Red Sun Rising Strategic Naval Map as a :class:`~rsr.draw.hexmap.Scene`.

Sea hexes by kind (high seas, coastal, port: RSR 6.1) with the numbers players use, the land as the grid
cells that hold no sea hex, impassable hexsides, ports ringed in the colour of the side they are friendly
to, the coded hexes A-E (RSR 7.5); fleets as counters (side colours, admiral and morale, ships afloat, BLK on
blockade, SEA on the at-sea side), merchant fleets with their cargo, mines; and the packet's naval action:
one arrow per fleet or merchant fleet per movement round, numbered with the round (RSR 7.1, RSR 19.2), and a tag on
every hex where a search (RSR 6.0), raid (RSR 7.2), embarkation or landing (RSR 7.4-7.5), blockade attrition
(RSR 15.1), loss at sea (RSR 15.2), mine attack (RSR 16.0) or battle (RSR 8.0) happened. The panel lists each route and
every such event with its dice, flagged where it rests on provisional data.
"""

from __future__ import annotations

from typing import Any

from rsr.draw.counters import CounterPic
from rsr.draw.hexmap import Arrow, Label, Layout, Scene, SideLine
from rsr.engine import Event

#: event kinds of the naval game: a pass holding one of them (and no land action) draws the naval map
NAVAL_KINDS = ("naval-move", "search", "raid", "embark", "landing", "blockade", "blockade-attrition", "mines",
               "lost-at-sea", "naval-battle", "naval-setup", "initiative", "round", "sailing-orders",
               "composition", "fleet-captured", "naval-brigade", "repair")
LAND_KINDS = ("moved", "combat", "combat-start", "retreat", "advance", "firefight")
#: the tag drawn on a hex for each kind of naval event (the panel gives the whole text)
TAGS = {"search": "SRCH", "raid": "RAID", "embark": "EMB", "landing": "LAND", "blockade-attrition": "ATTR",
        "lost-at-sea": "LOST", "naval-setup": "BTL", "fleet-captured": "CAPT"}
PORT_RING = {"russia": "#17357a", "japan": "#b06a00", "neutral": "#777777"}
SIDE_SHORT = {"russia": "RU", "japan": "JP"}


def is_naval_pass(events: list[Event]) -> bool:
    """A packet whose resolution played the naval game and moved nothing on the land map."""
    kinds = {e.kind for e in events}
    return any(k in kinds for k in NAVAL_KINDS) and not any(k in kinds for k in LAND_KINDS)


def fleet_label(fleet_id: str, side: str) -> str:
    """``jp-fleet-1`` -> ``JP 1``, ``ru-fleet-baltic`` -> ``RU baltic``: fits the top of a counter."""
    rest = fleet_id.split("-fleet-", 1)[-1] if "-fleet-" in fleet_id else fleet_id
    return f"{SIDE_SHORT.get(side, side[:2].upper())} {rest}"


def cell_of(static: Any, number: int | None, entry_from: int | None = None) -> str:
    """The grid cell of a naval hex; ``None`` (a fleet entering the map, RSR 19.2) is the cell just south of
    ``entry_from``, off the map, where its arrow starts."""
    if number is None or number not in static.hexes:
        cell = static.hexes[entry_from].cell if entry_from in static.hexes else "0101"
        line = int(cell[:2]) - 1
        return f"{line:02d}{cell[2:]}" if line >= 0 else cell
    return str(static.hexes[number].cell)


def _port_side(port: Any, control: dict[str, str]) -> str:
    return control.get(port.land_hex, port.friendly) if port.land_hex else port.friendly


def naval_map_scene(static: Any, control: dict[str, str], title: str, subtitle: str) -> Scene:
    """The map alone (also the generator's preview, tools/rsr_naval_map): sea hexes by kind with their
    numbers and code letters, the land, impassable hexsides, ports ringed by the side they serve."""
    grid = static.grid
    layout = Layout(grid, "north", 56.0)  # larger hexes: a counter, or a stack's chips, leave the number readable
    terrain: dict[str, str] = {}
    numbers: dict[str, str] = {}
    for line in range(grid.lines[0], grid.lines[1] + 1):
        for position in range(grid.positions[0], grid.positions[1] + 1):
            cell = f"{line:02d}{position:02d}"
            terrain[cell], numbers[cell] = "land", ""
    for number, item in sorted(static.hexes.items()):
        terrain[item.cell] = item.kind
        code = static.code_of(number)
        numbers[item.cell] = f"{number}" + (f" {code}" if code else "")
    scene = Scene(layout, terrain, title, subtitle, numbers=numbers, number_size=10.0, stack_dy=6.0, zoom=1.0,
                  marker_room=10.0, list_arrows=False, chips=True)
    for first, second in sorted(static.impassable):
        scene.sides.append(SideLine(static.hexes[first].cell, static.hexes[second].cell, "impassable"))
    by_hex: dict[int, list[Any]] = {}
    for port in static.ports:
        by_hex.setdefault(port.hex, []).append(port)
    for number, ports in sorted(by_hex.items()):
        sides = {_port_side(p, control) for p in ports}
        ring = PORT_RING[sides.pop()] if len(sides) == 1 else PORT_RING["neutral"]
        home = " (home)" if any(p.home for p in ports) else ""
        scene.labels.append(Label(static.hexes[number].cell, "⚓ " + ", ".join(p.name for p in ports) + home,
                                  True, ring))
    scene.legend = [("", "sea: high seas (dark), coastal (light); sand: land; black sides: impassable"),
                    ("", "⚓ port, ring in the colour of the side it is friendly to; A-E coded hexes (7.5)")]
    scene.notes = [f"map: {static.map_provenance}"]
    return scene


def naval_scene(state: Any, events: list[Event], title: str, subtitle: str) -> Scene:
    """The Strategic Naval Map after a pass: :func:`naval_map_scene` with the fleets, merchant fleets, mines
    and the pass's routes and events."""
    static, naval = state.naval_static, state.naval
    scene = naval_map_scene(static, state.control, title, subtitle)
    for key, level in sorted(naval.mines.items(), key=lambda kv: int(kv[0])):
        if level and int(key) in static.hexes:
            scene.hex_markers.setdefault(static.hexes[int(key)].cell, []).append(f"M{level}")
    ashore: dict[int, int] = {}
    for _unit, number in sorted(naval.ashore.items()):
        ashore[number] = ashore.get(number, 0) + 1
    for number, count in sorted(ashore.items()):
        scene.hex_markers.setdefault(static.hexes[number].cell, []).append(f"U{count}")
    off_map = []
    for fleet_id, fleet in sorted(naval.fleets.items()):
        afloat = [s for s in fleet.ships if s not in naval.sunk]
        if fleet.arrives or fleet.hex not in static.hexes:
            off_map.append(f"{fleet_id} ({static.admiral(fleet.admiral).name}): off the map, enters on turn "
                           f"{fleet.arrives} (RSR 19.2)")
            continue
        if not afloat:
            continue
        scene.stacks.setdefault(static.hexes[fleet.hex].cell, []).append(fleet_pic(static, naval, fleet, afloat))
    for merchant_id, merchant in sorted(naval.merchants.items()):
        if merchant_id in naval.landed or merchant.hex not in static.hexes:
            continue
        cargo = f"{len(merchant.cargo)} unit{'s' * (len(merchant.cargo) != 1)}" if merchant.cargo else "empty"
        scene.stacks.setdefault(static.hexes[merchant.hex].cell, []).append(CounterPic(
            merchant_id, "japan", "merchant", "merchant", cargo, title=f"merchant fleet {merchant_id}, naval hex "
            f"{merchant.hex}: " + (", ".join(merchant.cargo) if merchant.cargo else "no cargo") + " (RSR 7.4)",
            label=merchant_id.upper()))
    scene.arrows, routes = route_arrows(static, events)
    for event in events:
        tag = TAGS.get(event.kind)
        number = event.data.get("hex")
        if event.kind == "mines" and "die" in event.text:
            tag = "HIT"
        if number is None and event.kind in ("blockade-attrition", "embark", "landing", "lost-at-sea"):
            number = _where(naval, event.data)
        if tag and isinstance(number, int) and number in static.hexes:
            markers = scene.hex_markers.setdefault(static.hexes[number].cell, [])
            if tag not in markers:
                markers.append(tag)
    scene.notes = naval_notes(events, routes, off_map) + scene.notes
    scene.legend += [("", "fleet: admiral, morale m, ships afloat (14/2d: 2 of them disabled)"),
                    ("", "BLK on blockade, SEA at sea (in-Port side otherwise), RTN sent home"),
                    ("", "arrows: each fleet's move in each round, the round in the badge"),
                    ("", "tags: M2 mines of level 2, HIT a mine attack, SRCH search, RAID raid, EMB embarkation, "
                         "LAND landing, ATTR blockade attrition, LOST lost at sea, BTL battle, CAPT captured, "
                         "U3 three land units waiting")]
    return scene


def _where(naval: Any, data: dict[str, Any]) -> int | None:
    fleet = naval.fleets.get(str(data.get("fleet", "")))
    if fleet is not None:
        return int(fleet.hex)
    merchant = naval.merchants.get(str(data.get("merchant", "")))
    return int(merchant.hex) if merchant is not None else None


def fleet_pic(static: Any, naval: Any, fleet: Any, afloat: list[str]) -> CounterPic:
    admiral = static.admiral(fleet.admiral).name
    disabled = [s for s in afloat if s in naval.disabled]
    markers = tuple(m for m, on in (("BLK", fleet.blockade), ("SEA", fleet.at_sea), ("RTN", fleet.returning)) if on)
    ships = ", ".join(static.ship(s).name + (" (disabled)" if s in disabled else "") for s in afloat)
    return CounterPic(fleet.id, fleet.side, "fleet", f"{admiral[:9]} m{fleet.morale}",
                      f"{len(afloat)} sh" if not disabled else f"{len(afloat)}/{len(disabled)}d", False, markers,
                      f"{fleet.id}, admiral {admiral}, morale {fleet.morale}, naval hex {fleet.hex}, "
                      f"{'at sea' if fleet.at_sea else 'in port'}{', on blockade' if fleet.blockade else ''}: {ships}",
                      fleet_label(fleet.id, fleet.side))


def route_arrows(static: Any, events: list[Event]) -> tuple[list[Arrow], dict[str, list[tuple[int, Any, Any]]]]:
    """RSR 7.1, RSR 19.2: one arrow per ``naval-move`` event (a step of one hex in one round, or an entry onto
    the map), coloured by who moved; each mover gets its own offset so that routes along one hexside stay
    apart. Also the routes, mover -> [(round, from, to)], for the panel."""
    routes: dict[str, list[tuple[int, Any, Any]]] = {}
    kinds: dict[str, str] = {}
    for event in events:
        if event.kind != "naval-move":
            continue
        d = event.data
        who = str(d.get("fleet") or d.get("merchant"))
        routes.setdefault(who, []).append((int(d.get("round", 0)), d.get("frm"), d.get("to")))
        kinds[who] = "route-merchant" if d.get("merchant") else f"route-{'russia' if who.startswith('ru') else 'japan'}"
    movers = sorted(routes)
    arrows = []
    for event in events:
        if event.kind != "naval-move":
            continue
        d = event.data
        who = str(d.get("fleet") or d.get("merchant"))
        offset = (movers.index(who) - (len(movers) - 1) / 2) * 6.0
        frm, to = d.get("frm"), d.get("to")
        arrows.append(Arrow(kinds[who], (cell_of(static, frm, to), cell_of(static, to)), event.text,
                            label=str(d.get("round", "")), offset=offset))
    return arrows, routes


def naval_notes(events: list[Event], routes: dict[str, list[tuple[int, Any, Any]]], off_map: list[str]) -> list[str]:
    """The panel: each route round by round, then every search, raid, transport, blockade, mine, attrition
    and battle of the packet in the report's words, with [provisional] where the data is a stand-in."""
    lines = []
    if routes:
        lines.append("# Routes (round: hex)")
        for who, steps in sorted(routes.items()):
            start = "off map" if steps[0][1] is None else str(steps[0][1])
            lines.append(f"{who}: {start} " + " ".join(f"r{rnd}:{to}" for rnd, _, to in steps))
    kinds = ("search", "raid", "embark", "landing", "blockade", "mines", "blockade-attrition", "lost-at-sea",
             "naval-battle-over", "fleet-captured", "naval-brigade", "repair", "sailing-orders", "composition")
    happened = [e for e in events if e.kind in kinds]
    if happened:
        lines.append("# Naval events")
        lines += [f"{e.text}{' [provisional]' if e.provisional else ''}" for e in happened]
    return lines + off_map


def transcription_svg(transcription: Any, scenario: Any) -> str:
    """``rsr data show`` of Red Sun Rising's naval data: the Strategic Naval Map (RSR 3.1) with the
    transcription applied, every sea hex numbered, those whose values it copies (kind, place, port) marked T."""
    from rsr.draw.hexmap import render
    from rsr.rulesets.red_sun_rising.naval.data import load_naval

    static = load_naval(scenario.data)
    if static is None:  # (playable() found a scenario with the naval game: not reached)
        raise ValueError("no naval data")
    nmap = scenario.data["naval_map"]
    marked: set[int] = set()
    for entry in transcription.entries if transcription.kind == "naval_map" else ():
        parts = entry.at.split("/")
        if parts[0] == "hexes" and len(parts) > 1 and parts[1].isdigit():
            marked.add(int(nmap["hexes"][int(parts[1])]["number"]))
        elif parts[0] in ("ports", "code_hexes") and len(parts) > 1 and parts[1].isdigit():
            marked.add(int(nmap[parts[0]][int(parts[1])]["hex"]))
    subtitle = (f"{len(transcription.entries)} value(s) transcribed ({len(marked)} naval hexes marked T); the "
                "rest is rsr's provisional naval map" if transcription.kind == "naval_map"
                else "the transcription is of the naval data, not of the naval map")
    scene = naval_map_scene(static, {}, "red-sun-rising naval map: transcription", subtitle)
    scene.hex_markers = {static.hexes[n].cell: ["T"] for n in sorted(marked) if n in static.hexes}
    return render(scene)
