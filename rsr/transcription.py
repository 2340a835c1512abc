"""A player's transcription of the printed map, counters or charts (docs/<ruleset>/data.md).

The shipped data under ``scenarios/<ruleset>/`` is partly our own stand-in (``provisional:`` provenance,
docs/data-format.md). A transcription is a player's own YAML file that replaces single values of one data
file (``map``, ``counters`` or ``tables``) with what the printed sheet shows:

    transcription: 1
    ruleset: red-star
    kind: tables
    entries:
      - {at: crt/cells/0/results/4, label: "...", value: "1/2", copied: true, shipped: "...", source: "..."}

``at`` names the value by its path in the data file (keys and list positions joined by ``/``); an entry
marked ``copied: false`` replaces nothing (one without ``copied`` does), so a form exported by
``rsr data export`` (every entry ``copied: false``) can be filled in cell by cell and is a partial
transcription until every cell is copied. A copied value takes the
provenance ``overlay: transcription`` wherever the data file gives that value a provenance of its own, so
reports stop flagging it; a value the rulebooks pin (``rulebook:``, ``errata:``, ``derived:``) may be
copied but not contradicted.

In a game the copied entries travel inside the invitation (``invite.data``, docs/protocol.md), and the
scenario hash the invitation pins is that of the data with them applied.
"""

from __future__ import annotations

import copy
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rsr.canonical import canonical_bytes
from rsr.errors import BadInput, printable
from rsr.provenance import is_provisional

#: the data files a transcription may replace values of, by the name a scenario includes them under, in the
#: order the invitation carries them (the land sheets first; the turn track and naval data after)
KINDS = ("map", "counters", "tables", "track", "naval", "naval_map", "turn_record")
FILES = {"map": "map.yaml", "counters": "counters.yaml", "tables": "tables.yaml", "track": "turns.yaml",
         "naval": "naval.yaml", "naval_map": "naval-map.yaml"}
#: the Red Sun/Red Star Turn Record, which rsr keeps in each scenario file (its ``turns``), not in a data file
TURN_RECORD = "turn_record"
#: what each kind is called in a sentence ("the inviter's transcription of the printed turn track")
SHEET_NAMES = {"map": "map", "counters": "counters", "tables": "tables", "track": "turn track",
               "naval": "naval data", "naval_map": "naval map", "turn_record": "Turn Record"}
#: kinds whose lists of plain values (a turn's arrivals, a season's months, a range of dice) are one value
#: each: the printed sheet gives the whole list, and its length may differ from the stand-in's
WHOLE_LIST_KINDS = ("track", "naval", "naval_map", "turn_record")
FORMAT = 1
OVERLAY = "overlay: transcription"
PINNED = ("rulebook", "errata", "derived")
MAX_ENTRIES = 20000
SKIPPED_KEYS = {"provenance", "default_provenance", "note", "notes", "case", "description", "title",
                "ruleset", "id", "die", "firer", "target"}  # (the last: names of things, not printed values)
LABEL_KEYS = ("die", "id", "firer", "target", "terrain", "feature", "side", "hex", "cause", "choice", "owner",
              "turn", "month", "number", "code")

#: a Red Sun/Red Star counter's fields that its provenance ``unit`` covers (scenarios/red-star/counters.yaml)
UNIT_FIELDS = {"side", "nationality", "name", "class", "type", "unit_id", "formation_id"}
#: a provenance key that covers several fields of its item (scenarios/red-sun-rising/naval.yaml): the
#: identity of a ship or an admiral, and a ship's strengths
IDENTITY_SLOTS = {"unit": UNIT_FIELDS, "ship": {"side", "name", "class"}, "admiral": {"side", "name"}}
SHARED_SLOTS = {"values": ("attack", "defense")}

Scalar = str | int | bool | None
Value = Scalar | list[Scalar]


@dataclass(frozen=True)
class Entry:
    at: str
    value: Value


@dataclass(frozen=True)
class Transcription:
    ruleset: str
    kind: str
    entries: tuple[Entry, ...]
    scenario: str | None = None  # the scenario whose Turn Record it is (TURN_RECORD only; not in an invitation)

    def to_json(self) -> dict[str, Any]:
        """The form the invitation carries: only the copied values, in the file's order."""
        return {"kind": self.kind, "set": [{"at": e.at, "value": e.value} for e in self.entries]}


# -- paths and provenance -----------------------------------------------------------------------------------


def _step(container: Any, key: str, where: str) -> tuple[Any, str | int]:
    if isinstance(container, dict):
        if key not in container:
            raise BadInput(f"{where}: no {printable(key)!r} here")
        return container[key], key
    if isinstance(container, list):
        if not key.isdigit() or int(key) >= len(container):
            raise BadInput(f"{where}: {printable(key)!r} is not a position in a list of {len(container)}")
        return container[int(key)], int(key)
    raise BadInput(f"{where}: {printable(key)!r} goes below a single value")


def is_plain_list(node: Any) -> bool:
    """A list of plain values (no mapping or list inside), which WHOLE_LIST_KINDS transcribe as one value."""
    return isinstance(node, list) and not any(isinstance(item, dict | list) for item in node)


def resolve(doc: Any, at: str, where: str, whole_lists: bool = False) -> tuple[list[Any], list[str | int]]:
    """The containers along ``at`` (the data file first, the value last) and the keys taken."""
    chain = [doc]
    keys: list[str | int] = []
    for part in at.split("/"):
        value, key = _step(chain[-1], part, where)
        chain.append(value)
        keys.append(key)
    if isinstance(chain[-1], dict | list) and not (whole_lists and is_plain_list(chain[-1])):
        raise BadInput(f"{where}: {printable(at)} is not a single value")
    return chain, keys


def _own_slot(chain: list[Any], keys: list[str | int]) -> tuple[Any, str | int] | None:
    """Where the value's own provenance is or can be written, if the data file gives it one."""
    parent, key = chain[-2], keys[-1]
    if isinstance(parent, dict):
        prov = parent.get("provenance")
        if isinstance(prov, dict) and key in prov:
            return prov, key
        if isinstance(prov, dict) and key in UNIT_FIELDS and "unit" in prov:  # a counter's identity
            return prov, "unit"
        for slot, fields in [*IDENTITY_SLOTS.items(), *SHARED_SLOTS.items()]:
            if isinstance(prov, dict) and key in fields and slot in prov:  # a ship's identity or strengths
                return prov, slot
        if isinstance(parent.get(f"{key}_provenance"), str):
            return parent, f"{key}_provenance"
    if isinstance(parent, list) and len(chain) >= 3 and isinstance(chain[-3], dict):
        owner, name = chain[-3], keys[-2]
        for slot in ("provenance", f"{name}_provenance"):
            prov = owner.get(slot)
            if isinstance(prov, list) and isinstance(key, int) and key < len(prov):
                return prov, key
    if len(chain) >= 3 and isinstance(chain[-3], dict) and isinstance(chain[-2], dict):
        prov = chain[-3].get("provenance")  # a counter's provenance keyed by the field holding the value
        if isinstance(prov, dict) and keys[-2] in prov:
            return prov, keys[-2]
    return None


def provenance_of(chain: list[Any], keys: list[str | int]) -> str:
    """The provenance that covers one value: its own, else its item's, else the nearest default."""
    slot = _own_slot(chain, keys)
    if slot is not None:
        return str(slot[0][slot[1]])
    for index in range(len(chain) - 2, -1, -1):
        node = chain[index]
        if isinstance(node, dict):
            below = keys[index] if index < len(keys) else None
            if isinstance(node.get("provenance"), str) and (index > 0 or below is None):
                return str(node["provenance"])
            if below is not None and isinstance(node.get(f"{below}_provenance"), str):
                return str(node[f"{below}_provenance"])
            if isinstance(node.get("default_provenance"), str):
                return str(node["default_provenance"])
    for index in range(len(chain) - 2, -1, -1):  # a chart that names its case and nothing else: the case's
        if isinstance(chain[index], dict) and isinstance(chain[index].get("case"), str):
            return f"rulebook: {chain[index]['case']}"
    return "provisional: no provenance given"


def _mark_overlay(chain: list[Any], keys: list[str | int]) -> None:
    """Give a copied value the provenance ``overlay``, in the place the rules read it from."""
    slot = _own_slot(chain, keys)
    parent, key = chain[-2], keys[-1]
    if slot is not None and slot[1] in SHARED_SLOTS and slot[1] != key:  # one strength of two: split the mark
        prov, shared = slot
        mark = prov.pop(shared)
        for name in SHARED_SLOTS[str(shared)]:
            if name in parent:
                prov.setdefault(name, mark)
        prov[key] = OVERLAY
        return
    if slot is not None:
        slot[0][slot[1]] = OVERLAY
        return
    if isinstance(parent, dict) and isinstance(parent.get("provenance"), dict):  # a mark of its own beside
        parent["provenance"][key] = OVERLAY  # the item's others, which stay in force
        return
    if isinstance(parent, list) and len(chain) >= 3 and isinstance(chain[-3], dict) and isinstance(key, int):
        owner = chain[-3]
        prov = owner.get("provenance")
        if keys[-2] == "results" and (isinstance(prov, str) or prov is None):  # a table row: one mark per cell
            base = prov if isinstance(prov, str) else provenance_of(chain, keys)
            owner["provenance"] = [base] * len(parent)
            owner["provenance"][key] = OVERLAY
        return  # (a place in a list of hexes, a grid's bounds: the list's own mark stays in force)
    if isinstance(parent, dict) and len(chain) >= 3 and isinstance(chain[-3], list):
        parent["provenance"] = OVERLAY  # an item of a list (a chart cell, a place): its own mark
    # otherwise (a hex's terrain in the map's terrain mapping) the file's default stays in force


def source_of(provenance: str) -> str:
    return provenance.split(":", 1)[0].strip()


# -- export ----------------------------------------------------------------------------------------------


def _label(chain: list[Any], keys: list[str | int]) -> str:
    parts: list[str] = []
    for index, key in enumerate(keys):
        node = chain[index + 1]
        container = chain[index]
        if isinstance(key, int):
            named = [f"{k}={node[k]}" for k in LABEL_KEYS if isinstance(node, dict) and k in node]
            if isinstance(node, dict) and "id" not in node and isinstance(node.get("name"), str):  # a port, a city
                named = [f"name={node['name']}", *named]
            columns = None
            if index >= 1 and isinstance(chain[index - 1], dict):
                for back in range(index - 1, -1, -1):
                    if isinstance(chain[back], dict) and isinstance(chain[back].get("columns"), list):
                        columns = chain[back]["columns"]
                        break
            if keys[index - 1] == "results" and columns and len(columns) == len(container):
                named = [f"column {columns[key]}"]
            parts.append(f"[{', '.join(named) or key + 1}]")
        else:
            parts.append(("." if parts else "") + str(key))
    return "".join(parts)


def _walk(doc: Any, chain: list[Any], keys: list[str | int], whole_lists: bool = False) -> Any:
    node = chain[-1]
    if isinstance(node, dict):
        for key, value in node.items():
            if key in SKIPPED_KEYS or str(key).endswith("_provenance"):
                continue
            yield from _walk(doc, [*chain, value], [*keys, str(key)], whole_lists)
    elif whole_lists and keys and is_plain_list(node):
        if not any(isinstance(item, float) for item in node):  # (a drawing's coordinates: not printed)
            yield chain, keys
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _walk(doc, [*chain, value], [*keys, index], whole_lists)
    elif keys and not isinstance(node, float):
        yield chain, keys


def export_form(ruleset: str, kind: str, scenario: str | None = None) -> dict[str, Any]:
    """Every value of the shipped data file as a transcription form, in the file's (the sheet's) order."""
    if kind == TURN_RECORD:
        return turn_record_form(ruleset, scenario)
    if scenario is not None:
        raise BadInput(f"--scenario goes with {TURN_RECORD} (the other kinds are shared by every scenario)")
    doc = shipped(ruleset, kind)
    entries = []
    for chain, keys in _walk(doc, [doc], [], kind in WHOLE_LIST_KINDS):
        prov = provenance_of(chain, keys)
        entries.append({"at": "/".join(str(k) for k in keys), "label": _label(chain, keys), "value": chain[-1],
                        "copied": False, "source": source_of(prov), "shipped": prov})
    return {"transcription": FORMAT, "ruleset": ruleset, "kind": kind, "by": "", "entries": entries}


def form_text(form: dict[str, Any]) -> str:
    import yaml

    head = (f"# Transcription form for the {form['kind']} of {form['ruleset']} (rsr data export; docs/"
            f"{form['ruleset']}/data.md).\n# For each value you copy from your printed sheet: write it as `value` "
            "and set `copied: true`.\n# Entries left `copied: false` (or deleted) keep the shipped value. "
            "`source: provisional` marks our stand-ins;\n# rulebook/errata/derived values are pinned by the "
            "rules and `rsr data check` refuses a contradiction.\n")
    lines = [head, yaml.safe_dump({k: v for k, v in form.items() if k != "entries"}, sort_keys=False,
                                  allow_unicode=True, width=1000), "entries:\n"]
    for entry in form["entries"]:
        lines.append("  - " + yaml.safe_dump(entry, default_flow_style=True, sort_keys=False, allow_unicode=True,
                                             width=100000).strip() + "\n")
    return "".join(lines)


# -- reading and checking --------------------------------------------------------------------------------


def shipped(ruleset: str, kind: str) -> Any:
    from rsr.rulesets import get_ruleset
    from rsr.scenario import SCENARIO_ROOT, _validate_part
    from rsr.yamlio import load_yaml_file

    get_ruleset(ruleset)
    if kind not in KINDS:
        raise BadInput(f"no data kind {printable(kind)!r} (known: {', '.join(KINDS)})")
    if kind == TURN_RECORD:
        raise BadInput(f"the {sheet_name(kind)} is kept in each scenario: name the scenario")
    path = SCENARIO_ROOT / ruleset / FILES[kind]
    if kind not in kinds_of(ruleset):
        raise BadInput(f"{ruleset} has no {kind} data (its kinds: {', '.join(kinds_of(ruleset))})")
    doc = load_yaml_file(path)
    _validate_part(ruleset, kind, doc, str(path))
    return doc


def sheet_name(kind: object) -> str:
    """A kind of data as a sentence names it (the kind itself when rsr does not know it)."""
    return SHEET_NAMES.get(str(kind), str(kind))


def keeps_turn_record_in_scenarios(ruleset: str) -> bool:
    """Whether ``ruleset`` keeps its turn track in each scenario (its ``turn_record_in_scenarios`` hook)."""
    from rsr.rulesets import get_ruleset

    return get_ruleset(ruleset).turn_record_in_scenarios


def kinds_of(ruleset: str) -> tuple[str, ...]:
    """The kinds of data ``ruleset`` ships, which a transcription may replace values of."""
    from rsr.scenario import SCENARIO_ROOT

    return tuple(kind for kind in KINDS if kind in FILES and (SCENARIO_ROOT / ruleset / FILES[kind]).is_file()
                 ) + ((TURN_RECORD,) if keeps_turn_record_in_scenarios(ruleset) else ())


def parse(raw: Any, where: str) -> Transcription:
    """A transcription file's copied entries, checked for shape (not yet against the data)."""
    from rsr.schemas import validate

    validate("transcription", raw, where)
    if raw["transcription"] != FORMAT:
        raise BadInput(f"{where}: transcription format {raw['transcription']}; this rsr reads format {FORMAT}")
    entries = []
    seen: set[str] = set()
    for index, item in enumerate(raw["entries"]):
        if not item.get("copied", True):  # an entry written by hand, without `copied`, means it
            continue
        if item["at"] in seen:
            raise BadInput(f"{where}: entries[{index}]: {printable(item['at'])} is given twice")
        seen.add(item["at"])
        entries.append(Entry(item["at"], item["value"]))
    if (raw["kind"] == TURN_RECORD) != ("scenario" in raw):
        raise BadInput(f"{where}: a transcription of the {sheet_name(TURN_RECORD)}, and only one, names its "
                       "scenario (`scenario:`)")
    return Transcription(raw["ruleset"], raw["kind"], tuple(entries), raw.get("scenario"))


def load_file(path: Path) -> Transcription:
    from rsr.yamlio import load_yaml_file

    return parse(load_yaml_file(path), str(path))


@dataclass(frozen=True)
class CheckResult:
    copied: int
    changed: list[tuple[str, str, Value, Value]]  # (at, label, shipped value, transcribed value)
    provisional: list[str]                         # labels of values still provisional


def apply(doc: Any, transcription: Transcription, where: str) -> tuple[Any, CheckResult]:
    """The data file with the copied values in it; refuses one that contradicts a pinned value."""
    if transcription.kind == TURN_RECORD:
        return apply_turn_record(doc, transcription, where)
    original = doc
    doc = copy.deepcopy(doc)
    changed = []
    copied: set[str] = set()
    whole = transcription.kind in WHOLE_LIST_KINDS
    for entry in transcription.entries:
        here = f"{where}: {printable(entry.at)}"
        if any(part in SKIPPED_KEYS or part.endswith("_provenance") for part in entry.at.split("/")):
            raise BadInput(f"{here}: not a value of the printed sheets (ids, notes and provenance are rsr's own; "
                           "rsr data export lists what may be transcribed)")
        chain, keys = resolve(doc, entry.at, here, whole)
        old_chain, old_keys = resolve(original, entry.at, here, whole)
        prov = provenance_of(old_chain, old_keys)
        shipped_value = old_chain[-1]
        if entry.value != shipped_value and source_of(prov) in PINNED:
            raise BadInput(f"{here}: {printable(repr(entry.value))} contradicts {printable(repr(shipped_value))}, "
                           f"which the rules pin ({printable(prov)})")
        if type(entry.value) is not type(shipped_value) and shipped_value is not None and entry.value is not None:
            raise BadInput(f"{here}: {printable(repr(entry.value))} is a {type(entry.value).__name__}; the shipped "
                           f"value {printable(repr(shipped_value))} is a {type(shipped_value).__name__}")
        if entry.value != shipped_value:
            changed.append((entry.at, _label(old_chain, old_keys), shipped_value, entry.value))
        chain[-2][keys[-1]] = entry.value
        _mark_overlay(chain, keys)
        copied.add(entry.at)
    provisional = []
    for chain, keys in _walk(original, [original], [], whole):
        at = "/".join(str(k) for k in keys)
        if at not in copied and is_provisional(provenance_of(chain, keys)):
            provisional.append(_label(chain, keys))
    return doc, CheckResult(len(copied), changed, provisional)


def check(path: Path) -> tuple[Transcription, CheckResult]:
    """``rsr data check``: the file's shape, then its values against the shipped data and the schema."""
    from rsr.scenario import _validate_part

    transcription = load_file(path)
    if transcription.kind == TURN_RECORD:
        base = turn_record_of(transcription.ruleset, transcription.scenario)
        doc, result = apply(base, transcription, str(path))
        _validate_part(transcription.ruleset, "scenario", doc, f"{path} (applied)")
    else:
        doc, result = apply(shipped(transcription.ruleset, transcription.kind), transcription, str(path))
        _validate_part(transcription.ruleset, transcription.kind, doc, f"{path} (applied)")
    playable(transcription, str(path))
    return transcription, result


def playable(transcription: Transcription, where: str) -> Any:
    """The ruleset builds a game on it (what the schema cannot say: terrain on the chart, hexes adjacent)."""
    from rsr.catalogue import available
    from rsr.errors import RulesError
    from rsr.rulesets import get_ruleset
    from rsr.scenario import SCENARIO_ROOT, load_scenario

    ruleset = get_ruleset(transcription.ruleset)
    names = available(ruleset.id, SCENARIO_ROOT) if transcription.scenario is None else [transcription.scenario]
    for name in names:
        scenario = load_scenario(ruleset.id, name)
        if transcription.kind == TURN_RECORD or (
                scenario.data["scenario"]["include"].get(transcription.kind) == FILES[transcription.kind]):
            try:
                ruleset.initial_state(scenario_with(scenario, [transcription]), {})
            except (RulesError, BadInput) as exc:
                raise BadInput(f"{where}: scenario {name} cannot be played on it: {exc}") from exc
            return scenario_with(scenario, [transcription])
    raise BadInput(f"{where}: no scenario of {ruleset.id} plays on {FILES[transcription.kind]}")


# -- in a game --------------------------------------------------------------------------------------------


def invite_data(transcriptions: list[Transcription]) -> list[dict[str, Any]]:
    kinds = [t.kind for t in transcriptions]
    for kind in kinds:
        if kinds.count(kind) > 1:
            raise BadInput(f"two transcriptions of the {kind}: merge them into one file")
    return [t.to_json() for t in sorted(transcriptions, key=lambda t: KINDS.index(t.kind))]


def from_invite(ruleset: str, items: list[dict[str, Any]]) -> list[Transcription]:
    return [Transcription(ruleset, item["kind"], tuple(Entry(e["at"], e["value"]) for e in item["set"]))
            for item in items]


def scenario_with(scenario: Any, transcriptions: list[Transcription]) -> Any:
    """The scenario with the transcriptions applied and its hash recomputed (rsr.scenario.Scenario)."""
    from rsr.scenario import Scenario, _validate_part

    if not transcriptions:
        return scenario
    data = dict(scenario.data)
    include = data["scenario"]["include"]
    for transcription in transcriptions:
        if transcription.ruleset != scenario.ruleset:
            raise BadInput(f"the transcription is for {transcription.ruleset}, the scenario for {scenario.ruleset}")
        kind = transcription.kind
        if transcription.scenario is not None and transcription.scenario != scenario.name:
            raise BadInput(f"the transcription is of the {sheet_name(kind)} of scenario "
                           f"{printable(transcription.scenario)}, not of {scenario.name}")
        if kind == TURN_RECORD and not keeps_turn_record_in_scenarios(scenario.ruleset):
            raise BadInput(f"{scenario.ruleset} has no {sheet_name(kind)} in its scenarios")
        if kind != TURN_RECORD and include.get(kind) != FILES[kind]:
            raise BadInput(f"scenario {scenario.name} does not play on {FILES[kind]}, which the transcription "
                           "changes")
        where = f"transcription of the {sheet_name(kind)}"
        part = "scenario" if kind == TURN_RECORD else kind
        data[part], _ = apply(data[part], transcription, where)
        _validate_part(scenario.ruleset, part, data[part], where)
        consistent(data, kind, where)
    digest = hashlib.sha256(canonical_bytes(data)).hexdigest()
    return Scenario(scenario.ruleset, scenario.name, data, digest)


def consistent(data: dict[str, Any], kind: str, where: str) -> None:
    """What the schema cannot say about a transcribed turn track or naval map: the names it uses exist
    (RSR 17.11 arrivals and withdrawals are counters, admirals are on the naval sheet), every month is in one
    season, and the naval map's ports and areas are hexes of it."""
    if kind == "track":  # RSR 17.11, 17.3 (arrivals, withdrawals), 19.4 (seasons)
        _track_consistent(data, where)
    if kind == "naval_map":  # RSR 3.1, 7.5, 17.11, 19.2
        _naval_map_consistent(data["naval_map"], where)
    if kind == TURN_RECORD:  # RS/RS 13.1: the units that arrive are counters of the scenario
        units = {u["id"] for u in (data.get("counters") or {}).get("units", []) if isinstance(u, dict)}
        for index, turn in enumerate(data["scenario"]["turns"]):
            for field in ("reinforcements", "withdraw"):
                for name in turn.get(field, []):
                    if units and name not in units:
                        raise BadInput(f"{where}: turns/{index}/{field}: no counter {printable(str(name))!r}")


def _track_consistent(data: dict[str, Any], where: str) -> None:
    track = data["track"]
    months = sorted(m for season in track["seasons"].values() if isinstance(season, list) for m in season)
    if months != list(range(1, 13)):
        raise BadInput(f"{where}: seasons: the twelve months must each be in one season, not {months}")
    counters = data.get("counters") or {}
    units = {u["id"] for group in ("command_units", "combat_units") for u in counters.get(group, [])
             if isinstance(u, dict)}
    admirals = {a["name"] for a in (data.get("naval") or {}).get("admirals", []) if isinstance(a, dict)}
    for index, turn in enumerate(track["turns"]):
        for field, known, what in (("arrive", units, "counter"), ("withdraw", units, "counter"),
                                   ("admirals_arrive", admirals, "admiral"),
                                   ("admirals_withdraw", admirals, "admiral")):
            if not known:
                continue
            for name in turn.get(field, []):
                if name not in known:
                    raise BadInput(f"{where}: turns/{index}/{field}: no {what} {printable(str(name))!r}")


def _naval_map_consistent(nmap: dict[str, Any], where: str) -> None:
    numbers = {h["number"] for h in nmap["hexes"]}
    used = [("ports", p["hex"]) for p in nmap["ports"]] + [("code_hexes", c["hex"]) for c in nmap["code_hexes"]]
    used += [("japanese_home_ports", h) for h in nmap["japanese_home_ports"]["hexes"]]
    used += [("baltic_entry", h) for h in nmap["baltic_entry"]["hexes"]]
    for field, number in used:
        if number not in numbers:
            raise BadInput(f"{where}: {field}: naval hex {printable(str(number))} is not on the map")


@dataclass(frozen=True)
class KindSummary:
    """What one data file of a game holds: the values a transcription copied, those that differ from the
    shipped ones (at, label, shipped, transcribed), and the labels of the values still provisional."""
    kind: str
    copied: int
    changed: list[tuple[str, str, Value, Value]]
    provisional: list[str]


def summarise(scenario: Any, transcriptions: list[Transcription]) -> list[KindSummary]:
    """Every data file the scenario plays on, in KINDS order: what the transcriptions replace in it and what
    stays provisional (a file nobody transcribed is all rsr's own). ``scenario`` holds the shipped data."""
    by_kind = {t.kind: t for t in transcriptions}
    found = []
    for kind in KINDS:
        if kind == TURN_RECORD and kind in by_kind:
            base = scenario.data["scenario"]
        elif kind not in scenario.data or not isinstance(scenario.data[kind], dict):
            continue
        else:
            base = scenario.data[kind]
        transcription = by_kind.get(kind, Transcription(scenario.ruleset, kind, ()))
        _, result = apply(base, transcription, f"transcription of the {kind}")
        found.append(KindSummary(kind, result.copied, result.changed, result.provisional))
    return found


#: how many replaced values ``rsr accept`` and ``rsr new`` list before summing up the rest
SHOWN_CHANGES = 12
VALUE_WIDTH = 60
LABEL_WIDTH = 100


def shown_value(value: Value) -> str:
    """A value from a packet as a person reads it: plain (words.plain_value), hidden characters escaped and
    the length bounded (safetext.visible); quoted when it is text that could pass for something else."""
    from rsr.words import plain_value

    text = plain_value(value)
    if isinstance(value, str) and (text != text.strip() or text in ("", "none", "true", "false")
                                   or text.lstrip("-").isdigit()):
        text = repr(text)
    return bounded(text, VALUE_WIDTH)


def bounded(text: str, width: int) -> str:
    """``text`` with every hidden character escaped (safetext.visible), cut after ``width`` characters as
    shown, never inside an escape: so that one word of it still fits an 80-column line."""
    from rsr.safetext import visible

    out: list[str] = []
    length = 0
    for ch in text:
        piece = visible(ch)
        if length + len(piece) > width:
            return "".join(out) + "..."
        out.append(piece)
        length += len(piece)
    return "".join(out)


def describe(scenario: Any, transcriptions: list[Transcription], limit: int | None = SHOWN_CHANGES,
             list_provisional: bool = False) -> list[str]:
    """What the transcriptions replace, for the acceptor to read before he signs (``rsr accept --preview``,
    ``rsr data diff``) and after (``rsr accept``): each replaced value as ``where (path): shipped ->
    transcribed``, at most ``limit`` of them (None: all), then how many values of each data file stay
    provisional (with ``list_provisional``, each of them).

    Only display: it refuses nothing that the replay accepted (every string is escaped and bounded)."""
    from rsr.words import plural

    summaries = summarise(scenario, transcriptions)
    lines = []
    listed = 0
    hidden = 0
    for item in summaries:
        if not any(t.kind == item.kind for t in transcriptions):
            continue
        lines.append(f"the {sheet_name(item.kind)}: {plural(item.copied, 'value')} transcribed, "
                     f"{len(item.changed)} of them different from rsr's shipped values" + (":" if item.changed else ""))
        for at, label, old, new in item.changed:
            if limit is not None and listed >= limit:
                hidden += 1
                continue
            listed += 1
            lines.append(f"  {bounded(label, LABEL_WIDTH)} ({bounded(at, LABEL_WIDTH)}): {shown_value(old)} -> "
                         f"{shown_value(new)}")
    if hidden:
        lines.append(f"  ... and {hidden} more (rsr data diff on the invitation lists every one)")
    left = [f"{plural(len(item.provisional), 'value')} of the {sheet_name(item.kind)}" for item in summaries
            if item.provisional]
    if left:
        lines.append("still provisional (rsr's stand-ins, flagged in every report that uses them): "
                     + ", ".join(left))
    if list_provisional:
        for item in summaries:
            for label in item.provisional:
                lines.append(f"  provisional: {item.kind} {bounded(label, LABEL_WIDTH)}")
    return lines


# -- the Red Sun/Red Star Turn Record (kept per scenario) --------------------------------------------------

#: RS/RS 4.2 (replacement pools) and 13.1: each side's pools as the scenarios give them
TURN_RECORD_POOLS = {"japan": ("leg", "armor", "manchu"), "soviet": ("leg", "armor", "mongol")}


def turn_record_of(ruleset: str, scenario: str | None) -> Any:
    """The scenario file whose ``turns`` a Turn Record transcription replaces values of (not to be changed)."""
    from rsr.rulesets import get_ruleset
    from rsr.scenario import load_scenario

    if not get_ruleset(ruleset).turn_record_in_scenarios:
        raise BadInput(f"{ruleset} keeps its turn track in a data file: export kind track")
    if not scenario:
        raise BadInput(f"the {sheet_name(TURN_RECORD)} is kept in each scenario: name one (--scenario)")
    return load_scenario(ruleset, scenario).data["scenario"]


def turn_record_values(doc: Any) -> list[tuple[str, str, Value, str]]:
    """Every value a printed Turn Record gives, turn by turn (RS/RS 4.0: support and replacement points,
    reinforcements, withdrawals): (at, label, value, provenance), a value the scenario leaves out read as none
    (0 points, no units), as the rules read it (rsr/rulesets/red_star/force.py)."""
    values: list[tuple[str, str, Value, str]] = []
    default = str(doc.get("turn_provenance", "provisional: the Turn Record is missing"))
    for index, turn in enumerate(doc["turns"]):
        label = f"turns[date={turn.get('date', index + 1)}]"
        prov = str(turn.get("provenance", default))
        for side in TURN_RECORD_POOLS:
            values.append((f"turns/{index}/support/{side}", f"{label}.support.{side}",
                           int((turn.get("support") or {}).get(side, 0)), prov))
        for side, pools in TURN_RECORD_POOLS.items():
            given = (turn.get("replacements") or {}).get(side) or {}
            for pool in pools:
                values.append((f"turns/{index}/replacements/{side}/{pool}", f"{label}.replacements.{side}.{pool}",
                               int(given.get(pool, 0)), prov))
        for field in ("reinforcements", "withdraw"):
            values.append((f"turns/{index}/{field}", f"{label}.{field}", list(turn.get(field, [])), prov))
    return values


def turn_record_form(ruleset: str, scenario: str | None) -> dict[str, Any]:
    doc = turn_record_of(ruleset, scenario)
    entries = [{"at": at, "label": label, "value": value, "copied": False, "source": source_of(prov),
                "shipped": prov} for at, label, value, prov in turn_record_values(doc)]
    return {"transcription": FORMAT, "ruleset": ruleset, "kind": TURN_RECORD, "scenario": scenario, "by": "",
            "entries": entries}


def apply_turn_record(doc: Any, transcription: Transcription, where: str) -> tuple[Any, CheckResult]:
    """The scenario file with the copied Turn Record values in its ``turns`` (a value it left out is added)."""
    values = {at: (label, value, prov) for at, label, value, prov in turn_record_values(doc)}
    new = copy.deepcopy(doc)
    changed: list[tuple[str, str, Value, Value]] = []
    copied: set[str] = set()
    for entry in transcription.entries:
        here = f"{where}: {printable(entry.at)}"
        if entry.at not in values:
            raise BadInput(f"{here}: not a value of the {sheet_name(TURN_RECORD)} (rsr data export lists them)")
        label, old, prov = values[entry.at]
        if source_of(prov) in PINNED and entry.value != old:
            raise BadInput(f"{here}: {printable(repr(entry.value))} contradicts {printable(repr(old))}, which the "
                           f"rules pin ({printable(prov)})")
        parts = entry.at.split("/")
        turn = new["turns"][int(parts[1])]
        if parts[2] in ("reinforcements", "withdraw"):
            if not isinstance(entry.value, list) or not all(isinstance(v, str) for v in entry.value):
                raise BadInput(f"{here}: the units that arrive or leave are a list of counter ids")
            turn[parts[2]] = list(entry.value)
        elif isinstance(entry.value, bool) or not isinstance(entry.value, int) or entry.value < 0:
            raise BadInput(f"{here}: {printable(repr(entry.value))} is not a number of points")
        elif parts[2] == "support":
            turn.setdefault("support", {})[parts[3]] = entry.value
        else:
            turn.setdefault("replacements", {}).setdefault(parts[3], {})[parts[4]] = entry.value
        if entry.value != old:
            changed.append((entry.at, label, old, entry.value))
        copied.add(entry.at)
    provisional = [label for at, (label, _, prov) in values.items() if at not in copied and is_provisional(prov)]
    return new, CheckResult(len(copied), changed, provisional)
