"""The Red Sun/Red Star map as a :class:`~rsr.draw.hexmap.Scene`: terrain, rivers, slopes and bridges, places
and victory hexes, counters with their markers, interdiction markers, with the arrows of one resolution pass
(rsr/draw/scenes.py) and the fate of the fire missions in the panel."""

from __future__ import annotations

from typing import Any

from rsr.draw.counters import CounterPic
from rsr.draw.hexmap import Label, Layout, Link, Scene, SideLine
from rsr.draw.scenes import arrows_from_events, focus_hexes
from rsr.engine import Event

SIDE_TAG = {"japan": "jp", "soviet": "su"}
RS_SYMBOLS = {
    "infantry": "infantry", "motorized-infantry": "mech", "cavalry": "cavalry", "light-tank": "armor",
    "tank": "armor", "artillery": "artillery", "motorized-artillery": "artillery", "antitank": "antitank",
    "anti-aircraft": "antiair", "engineer": "engineer", "headquarters": "hq", "bridge": "bridge",
}


def rs_positions(state: Any) -> dict[str, str]:
    return {u.id: u.hex for u in state.units.values() if u.on_map and u.hex}


def rs_scene(state: Any, before: Any, events: list[Event], title: str, subtitle: str,
             map_data: dict[str, Any] | None = None) -> Scene:
    static = state.static
    layout = Layout(static.grid, "east")
    scene = Scene(layout, dict(static.terrain), title, subtitle)
    for side_id, features in sorted(static.features.items()):
        first, second = side_id.split("-")
        for feature in features:
            if feature == "slope":
                up = static.slope_up.get(side_id, first)
                scene.sides.append(SideLine(first, second, "slope", second if up == first else first))
            elif feature != "bridge":
                scene.sides.append(SideLine(first, second, feature))
    for side_id, bridge in sorted(static.bridges.items()):
        first, second = side_id.split("-")
        if side_id in state.destroyed_bridges:
            style = "bridge-destroyed"
        elif bridge.scenarios and state.scenario_key not in bridge.scenarios:
            continue
        else:
            style = "bridge"
        scene.sides.append(SideLine(first, second, style))
    scene.links += [Link(tuple(s.split("-")), "road") for s in sorted(static.road_links)]
    names = {str(p["hex"]): str(p.get("name", "")) for p in (map_data or {}).get("places", [])
             if not p.get("entry")}
    for hex_id in sorted(set(names) | set(static.victory_points)):
        points = static.victory_points.get(hex_id)
        text = names.get(hex_id, "")
        if points:
            holder = state.victory_hexes.get(hex_id)
            text = f"{text} {points} VP" + (f" ({holder})" if holder else "")
        scene.labels.append(Label(hex_id, text.strip(), bool(points), "#c00000" if points else ""))
    for unit in state.on_map():
        counter = state.counter(unit.id)
        values = counter.face(unit.reduced).printed()
        markers = unit.markers(short=True)
        scene.stacks.setdefault(unit.hex or "", []).append(CounterPic(
            unit.id, unit.side, RS_SYMBOLS.get(counter.type, "infantry"), counter.size or "", values,
            unit.reduced, tuple(markers),
            f"{unit.id} {counter.name} ({counter.type}, proficiency {counter.proficiency}) {values}"
            + (" reduced" if unit.reduced else "") + "".join(f" [{m}]" for m in markers)))
    scene.arrows = arrows_from_events(rs_positions(before), events)
    scene.focus = focus_hexes(rs_positions(before), rs_positions(state), events)
    for side, marked in sorted(state.interdiction.items()):  # RS/RS 5.22: the marker and its factors
        for hex_id, factors in sorted(marked.items()):
            scene.hex_markers.setdefault(hex_id, []).append(f"INT{factors} {SIDE_TAG.get(side, side[:2])}")
    scene.notes = fire_notes(events)
    scene.legend = [("", "terrain: clear, desert, dunes (waves), marsh (tufts)"),
                    ("", "blue: Halha, rivers, streams; red dashes: border claim"),
                    ("", "ticks: slope down; black bar: bridge (red ✕: blown)"),
                    ("", "counter: id, size, symbol, combat-(range-)move"),
                    ("", "D1/D2 disrupted, F fired, R reserve, T truck; band: reduced")]
    if any(state.interdiction.values()):
        scene.legend.append(("", "INT7 jp: interdiction marker of 7 factors (Japanese)"))
    scene.notes += [f"map: {static.map_provenance}"]
    return scene


#: artillery events with no arrow of their own: the panel gives them in the report's words
FIRE_NOTE_KINDS = ("wasted", "cancelled", "suppressed", "interdiction", "interdicted", "interdiction-off")


def fire_notes(events: list[Event]) -> list[str]:
    """RS/RS 5.22, RS/RS 5.41, RS/RS 5.51: what became of the fire missions beyond their arrows (guns out of range or
    silenced, interdiction rolls of units entering a marked hex, markers taken off)."""
    lines = [f"{e.text}{' [provisional]' if e.provisional else ''}" for e in events if e.kind in FIRE_NOTE_KINDS]
    return ["# Artillery", *lines] if lines else []
