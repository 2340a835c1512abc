"""The Red Sun Rising land map as a :class:`~rsr.draw.hexmap.Scene`: terrain, rivers, roads and rail, places,
trenches, destroyed fortresses and counters, with the arrows of one resolution pass (rsr/draw/scenes.py)."""

from __future__ import annotations

from typing import Any

from rsr.draw.counters import CounterPic
from rsr.draw.hexmap import Label, Layout, Link, Scene, SideLine
from rsr.draw.scenes import arrows_from_events, focus_hexes
from rsr.engine import Event

RSR_SYMBOLS = {  # counter type -> (symbol, size marker)
    "infantry-division": ("infantry", "XX"), "infantry-brigade": ("infantry", "X"), "army": ("hq", "XXXX"),
    "shq": ("hq", "XXXXX"), "siege-artillery": ("siege", ""), "cavalry-division": ("cavalry", "XX"),
    "cavalry-brigade": ("cavalry", "X"), "artillery-brigade": ("artillery", "X"), "garrison": ("garrison", ""),
    "naval-brigade": ("naval", "X"),
}


def rsr_positions(state: Any) -> dict[str, str]:
    return {u.id: u.hex for u in state.units.values() if u.hex and u.steps > 0}


def rsr_scene(state: Any, before: Any, events: list[Event], title: str, subtitle: str,
              declared: list[dict[str, Any]] | None = None) -> Scene:
    static = state.static
    layout = Layout(static.grid, "north")
    scene = Scene(layout, dict(static.terrain), title, subtitle)
    for side_id, features in sorted(static.hexsides.items()):
        first, second = side_id.split("-")
        for feature in features:
            scene.sides.append(SideLine(first, second, feature))
    scene.links += [Link(tuple(s.split("-")), "road") for s in sorted(static.road_links)]
    scene.links += [Link(tuple(s.split("-")), "rail") for s in sorted(static.rail_links)]
    for hex_id, place in sorted(static.places.items()):
        name = place.name + (" ★" if place.fortress else "")
        owner = state.control.get(hex_id)
        scene.labels.append(Label(hex_id, name + (f" ({owner})" if owner and place.city else ""), place.city))
    for hex_id, level in sorted(state.trenches.items()):
        if level:
            scene.hex_markers.setdefault(hex_id, []).append(f"T{level}")
    for hex_id in state.destroyed_fortresses:
        scene.hex_markers.setdefault(hex_id, []).append("fortress destroyed")
    for unit_id, unit in sorted(state.units.items()):
        if not unit.hex or unit.steps <= 0:
            continue
        counter = static.counter(unit_id)
        symbol, size = RSR_SYMBOLS.get(counter.type, ("infantry", ""))
        values = counter.values(unit.steps)
        text = f"cmd {values.command}" if counter.command_unit else f"{values.strength}-{values.command}-" \
                                                                       f"{values.movement}"
        markers = ("OOS",) if not unit.in_supply else ()
        reduced = counter.steps > 1 and unit.steps < counter.steps
        scene.stacks.setdefault(unit.hex, []).append(CounterPic(
            unit_id, unit.side, symbol, size, text, reduced, markers,
            f"{unit_id} {counter.name} ({counter.type}) {text}, {unit.steps} of {counter.steps} steps"
            + ("" if unit.in_supply else ", out of supply")))
    for pics in scene.stacks.values():
        pics.sort(key=lambda p: (p.symbol == "hq", p.unit))  # command units lie under the combat units
    scene.arrows = arrows_from_events(rsr_positions(before), events, declared)
    scene.focus = focus_hexes(rsr_positions(before), rsr_positions(state), events)
    scene.legend = [("", "terrain: clear, rough (dots), mountain (peaks), sea"),
                    ("", "blue sides: rivers; brown: roads; black with ties: rail"),
                    ("", "counter: id, size, type symbol, strength-command-move"),
                    ("", "white band: reduced; OOS: out of supply; T1-T3: trench; ★ fortress")]
    scene.notes = [f"map: {static.map_provenance}"]
    return scene
