"""The arrows and the focus of one resolution pass (moves, attacks, fire, retreats, advances), read from its
events; each ruleset builds the rest of its map (terrain, hexside features, lines, places, counters and
markers) in its own package (its ``map_scene`` hook, rsr/rulesets/base.py).

Arrows are found by walking the pass's events from the position before it, so an attack whose units
were all eliminated still gets its arrow, from the hex the units attacked from (marked with a cross).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rsr.draw.hexmap import Arrow
from rsr.engine import Event


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
