"""What each ruleset puts on its map: terrain, hexside features, lines, places, counters and markers, and
the arrows of one resolution pass (moves, attacks, fire, retreats, advances).

Arrows are found by walking the pass's events from the position before it, so an attack whose units
were all eliminated still gets its arrow, from the hex the units attacked from (marked with a cross).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rsr.draw.counters import CounterPic
from rsr.draw.hexmap import Arrow, Label, Layout, Link, Scene, SideLine
from rsr.engine import Event

RSR_SYMBOLS = {  # counter type -> (symbol, size marker)
    "infantry-division": ("infantry", "XX"), "infantry-brigade": ("infantry", "X"), "army": ("hq", "XXXX"),
    "shq": ("hq", "XXXXX"), "siege-artillery": ("siege", ""), "cavalry-division": ("cavalry", "XX"),
    "cavalry-brigade": ("cavalry", "X"), "artillery-brigade": ("artillery", "X"), "garrison": ("garrison", ""),
    "naval-brigade": ("naval", "X"),
}
SIDE_TAG = {"japan": "jp", "soviet": "su"}
RS_SYMBOLS = {
    "infantry": "infantry", "motorized-infantry": "mech", "cavalry": "cavalry", "light-tank": "armor",
    "tank": "armor", "artillery": "artillery", "motorized-artillery": "artillery", "antitank": "antitank",
    "anti-aircraft": "antiair", "engineer": "engineer", "headquarters": "hq", "bridge": "bridge",
}


@dataclass
class _Walk:
    """Where every unit is while the events of a pass are read in order."""

    hexes: dict[str, str]
    eliminated: set[str] = field(default_factory=set)
    arrows: list[tuple[Arrow, tuple[str, ...]]] = field(default_factory=list)

    def add(self, kind: str, hexes: list[str], title: str, units: list[str]) -> None:
        clean = [h for h in hexes if h]
        if len(clean) >= 2:
            self.arrows.append((Arrow(kind, tuple(clean), title), tuple(units)))

    def finish(self) -> list[Arrow]:
        out = []
        for arrow, units in self.arrows:
            lost = bool(units) and all(u in self.eliminated for u in units) and arrow.kind in ("attack", "fire",
                                                                                                  "move")
            out.append(Arrow(arrow.kind, arrow.hexes, arrow.title, lost))
        return out


def _sources(walk: _Walk, units: list[str]) -> dict[str, list[str]]:
    by_hex: dict[str, list[str]] = {}
    for unit in units:
        where = walk.hexes.get(unit)
        if where:
            by_hex.setdefault(where, []).append(unit)
    return dict(sorted(by_hex.items()))


def declared_attacks(inputs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The attacks an orders packet declared (RSR ``attacks``, RS/RS ``combats``), as ``{hex, attackers}``."""
    found = []
    for item in inputs:
        answer = item.get("answer") if isinstance(item, dict) else None
        if not isinstance(answer, dict):
            continue
        lists = [answer.get(key) for key in ("attacks", "combats")]  # RS/RS attack choices map combat ids
        for raw in [raw for found in lists if isinstance(found, list) for raw in found]:
            if isinstance(raw, dict) and isinstance(raw.get("hex"), str):
                units = raw.get("attackers") or raw.get("units") or []
                found.append({"hex": raw["hex"], "attackers": [str(u) for u in units]})
    return found


def arrows_from_events(start: dict[str, str], events: list[Event],
                       declared: list[dict[str, Any]] | None = None) -> list[Arrow]:
    """Moves, attacks, defensive fire, retreats and advances of one pass, for both rulesets' events.

    ``declared`` attacks of the packet that no combat event resolved in this pass (e.g. RSR 11.53, a command
    unit attacked alone, which needs no die) are drawn from where their units stood at the start."""
    walk = _Walk(dict(start))
    resolved_hexes = {e.data.get("hex") for e in events if e.kind in ("combat", "combat-start")}
    for number, attack in enumerate(declared or [], start=1):
        if attack["hex"] in resolved_hexes:
            continue
        for where, units in _sources(walk, attack["attackers"]).items():
            if where != attack["hex"]:
                walk.add("attack", [where, attack["hex"]], f"declared attack {number} on {attack['hex']}: "
                         f"{', '.join(units)} (no die rolled in this packet)", units)
    for event in events:
        d = event.data
        if event.kind == "moved" and d.get("unit"):
            path = list(d.get("path") or ([d["to"]] if d.get("to") else []))
            frm = d.get("frm") or walk.hexes.get(d["unit"], "")
            walk.add("move", [frm, *path], event.text, [d["unit"]])
            if path:
                walk.hexes[d["unit"]] = path[-1]
        elif event.kind in ("combat", "combat-start"):
            attackers = [a["unit"] if isinstance(a, dict) else a for a in d.get("attackers", [])]
            label = f"attack {d['attack']} on {d['hex']}" if "attack" in d else f"{d.get('combat', '')}"
            for where, units in _sources(walk, attackers).items():
                if where != d["hex"]:
                    walk.add("attack", [where, d["hex"]], f"{label}: {', '.join(units)} attack {d['hex']}"
                             + (f" -> {d['result']}" if d.get("result") else ""), units)
        elif event.kind == "firefight" and d.get("role") == "defender":
            firing = [f["unit"] for f in d.get("firing", [])]
            for where, units in _sources(walk, firing).items():
                if where != d["target_hex"]:
                    walk.add("fire", [where, d["target_hex"]], f"{', '.join(units)} fire at {d['target']} in "
                             f"{d['target_hex']}: die {d['die']} -> {d['result']}", units)
        elif event.kind == "retreat" and d.get("path") and d.get("success", True):
            units = list(d.get("units") or [d["unit"]])
            walk.add("retreat", [d["frm"], *d["path"]], event.text, units)
            for unit in units:
                walk.hexes[unit] = d["path"][-1]
        elif event.kind == "advance" and d.get("unit") and d.get("to"):
            walk.add("advance", [d["frm"], *(d.get("path") or [d["to"]])], event.text, [d["unit"]])
            walk.hexes[d["unit"]] = d["to"]
        elif event.kind == "fire-mission" and d.get("hex"):  # RS/RS 5.21, 5.22: one arrow a firing hex
            kind = "interdict" if d.get("mission_kind") == "interdict" else "bombard"
            for where, units in _sources(walk, list(d.get("artillery") or [])).items():
                if where != d["hex"]:
                    walk.add(kind, [where, d["hex"]], event.text, units)
        elif event.kind == "counterbattery" and d.get("target") in walk.hexes:  # RS/RS 5.42
            target_hex = walk.hexes[d["target"]]
            for where, units in _sources(walk, list(d.get("artillery") or [])).items():
                if where != target_hex:
                    walk.add("counterbattery", [where, target_hex], event.text, units)
        elif event.kind == "eliminated" and d.get("unit"):
            walk.eliminated.add(d["unit"])
    return walk.finish()


#: events that say where a packet acted although they draw no arrow (guns announcing, units hit, arriving...)
FOCUS_KINDS = ("announced", "fire-mission", "counterbattery", "counterbattery-declared", "interdiction",
               "interdicted", "arrives", "eliminated", "reduced", "disrupted", "suppressed", "wasted", "cancelled",
               "declared", "combat-start", "moved", "retreat", "advance", "firefight", "morale")
_UNIT_KEYS = ("unit", "units", "target", "artillery", "attackers", "defenders")
_HEX_KEYS = ("hex", "target_hex", "frm", "to")


def focus_hexes(before: dict[str, str], after: dict[str, str], events: list[Event]) -> list[str]:
    """Every hex a pass's events name or touch through their units (before or after the pass): where the packet
    acted, also when it drew no arrow (a fire mission from off the picture, a unit hit, a unit arriving)."""
    found: set[str] = set()
    for event in events:
        if event.kind not in FOCUS_KINDS:
            continue
        d = event.data
        found.update(str(d[k]) for k in _HEX_KEYS if isinstance(d.get(k), str) and d.get(k))
        for key in _UNIT_KEYS:
            value = d.get(key)
            units = [value] if isinstance(value, str) else value if isinstance(value, list) else []
            for unit in units:
                unit_id = unit.get("unit") if isinstance(unit, dict) else unit
                found.update(h for h in (before.get(str(unit_id)), after.get(str(unit_id))) if h)
    return sorted(found)


# -- Red Sun Rising ----------------------------------------------------------------------------------------


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


# -- Red Sun/Red Star -------------------------------------------------------------------------------------


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
        face = counter.face(unit.reduced)
        values = f"{face.combat}-{face.range}-{face.movement}" if face.range else f"{face.combat}-{face.movement}"
        markers: list[str] = []
        if unit.disruption:
            markers.append(f"D{unit.disruption}")
        if unit.fired:
            markers.append("F")
        if unit.reserve:
            markers.append("R")
        if unit.truck:
            markers.append("T")
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
    """RS/RS 5.22, 5.41, 5.51: what became of the fire missions beyond their arrows (guns out of range or
    silenced, interdiction rolls of units entering a marked hex, markers taken off)."""
    lines = [f"{e.text}{' [provisional]' if e.provisional else ''}" for e in events if e.kind in FIRE_NOTE_KINDS]
    return ["# Artillery", *lines] if lines else []
