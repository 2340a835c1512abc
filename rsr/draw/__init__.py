"""Maps of a game position for every ruleset: ``draw_position`` gives SVG, ``svg_to_png`` a PNG.

hexmap.py draws any :class:`~rsr.draw.hexmap.Scene`; each ruleset says what it puts on it through its
hooks (``map_scene``, ``naval_scene``, ``battle_svg``: rsr/rulesets/base.py), with the arrows of a pass from
scenes.py; counters.py draws a counter. PNG comes from resvg-py (a self-contained wheel: no system program or
library is needed, unlike cairosvg, which needs the system's libcairo, and draws the haloed place names
wrong; docs/maps-and-reports.md has the comparison).
"""

from __future__ import annotations

from typing import Any

from rsr.draw.hexmap import Scene, crop_hexes, fronts, render
from rsr.draw.scenes import declared_attacks
from rsr.engine import Event, initial_position
from rsr.errors import BadInput
from rsr.rulesets import get_ruleset


def state_before(result: Any, record: Any) -> Any:
    """The ruleset state just before ``record``'s pass (the previous pass's, or the game's start)."""
    previous = None
    for other in result.passes:
        if other.resolved >= record.resolved:
            break
        previous = other
    if previous is not None:
        return previous.position.state
    if result.passes and record.resolved > result.passes[-1].resolved:
        return result.position.state
    if not getattr(result, "complete", True) and record.resolver > 2:
        # the replay started from a checkpoint at this very pass: the position before it is a shorter replay
        from rsr.cache import HomeCheckpoints
        from rsr.log import replay

        return replay(result.packets[:record.resolver], HomeCheckpoints()).position.state
    options = result.packets[0].payload["invite"]["options"]
    return initial_position(result.ruleset, result.scenario, options).state


def make_scene(ruleset_id: str, state: Any, before: Any, events: list[Event], title: str, subtitle: str,
               map_data: dict[str, Any] | None = None, declared: list[dict[str, Any]] | None = None) -> Scene:
    """The land map of ``state`` as the ruleset ``ruleset_id`` draws it (its ``map_scene`` hook)."""
    return get_ruleset(ruleset_id).map_scene(state, before, events, title, subtitle, map_data, declared)


def wants_naval(result: Any, record: Any | None, view: str) -> bool:
    """Which map: ``view`` 'land' or 'naval' as asked; 'auto' draws the Strategic Naval Map for a packet whose
    resolution played the naval game and moved nothing on land (the map its player needs to see)."""
    state = record.position.state if record else result.position.state
    has_naval = result.ruleset.has_naval_map(state)
    if view == "naval" and not has_naval:
        raise BadInput(f"--naval: scenario {result.scenario.name} has no naval game")
    if view != "auto":
        return view == "naval"
    return has_naval and record is not None and result.ruleset.is_naval_pass(record.events)


def draw_position(result: Any, record: Any | None, around: str | None = None, radius: int = 3,
                  whole: bool = False, view: str = "auto") -> tuple[str, Scene]:
    """SVG of the position after ``record``'s pass (or the start), with the pass's arrows; the land map, or
    the Strategic Naval Map (``view``, see :func:`wants_naval`)."""
    if wants_naval(result, record, view):
        return draw_naval(result, record, around, radius, whole)
    if around is not None:
        state = record.position.state if record else result.position.state
        if around not in state.static.terrain:
            raise BadInput(f"--around {around}: no such hex on the {result.ruleset.id} map")
    declared: list[dict[str, Any]] = []
    if record is None:
        state = state_before(result, _Start())
        before, events, label = state, [], "start of the game"
    else:
        state = record.position.state
        before, events = state_before(result, record), record.events
        author = result.packets[record.resolved].side if record.resolved < len(result.packets) else "?"
        label = f"packet {record.resolved} ({author}) resolved"
        if record.resolved < len(result.packets):
            declared = declared_attacks(result.packets[record.resolved].payload.get("inputs") or [])
    describe = result.ruleset.describe(state)
    title = f"Game {result.game_id[:8]}, {result.scenario.name}: {label}"
    scene = result.ruleset.map_scene(state, before, events, title, describe[0] if describe else "",
                                     result.scenario.data.get("map"), declared)
    shown = crop_hexes(scene, around, radius, whole)
    scene.notes = off_picture_note(scene, shown) + scene.notes
    return render(scene, shown), scene


def off_picture_note(scene: Scene, shown: list[str]) -> list[str]:
    """Lines for the panel naming what the cropped picture leaves out: the packet's arrows drawn nowhere in
    it, or, for a packet that did nothing on the map, the other fronts (``--around`` or ``--whole`` show them)."""
    keep = set(shown)
    lines = []
    missed = [a for a in scene.arrows if not keep.intersection(a.hexes)]
    if missed:
        lines.append("# This packet, off the picture (--around HEX draws it)")
        seen: set[str] = set()
        for arrow in missed:
            if arrow.title not in seen:
                seen.add(arrow.title)
                lines.append(f"{arrow.hexes[-1]}: {arrow.title}")
    if scene.arrows or scene.focus:
        return lines
    left_out = [front for front in fronts(scene) if not keep.intersection(front)]
    if left_out:
        lines.append(f"Also in contact, not drawn (--around HEX): around {', '.join(f[0] for f in left_out)}")
    return lines


def draw_naval(result: Any, record: Any | None, around: str | None = None, radius: int = 3,
               whole: bool = False) -> tuple[str, Scene]:
    """The Strategic Naval Map after ``record``'s pass: the whole map unless ``around`` (a naval hex number)
    asks for the part around one hex (it is small enough to read whole at email size)."""
    state = record.position.state if record else result.position.state
    events = record.events if record else []
    label = f"packet {record.resolved} resolved" if record else "now"
    describe = result.ruleset.describe(state)
    title = f"Game {result.game_id[:8]}, {result.scenario.name}: Strategic Naval Map, {label}"
    scene = result.ruleset.naval_scene(state, events, title, describe[0] if describe else "")
    if around is None:
        return render(scene, crop_hexes(scene, whole=True)), scene
    return render(scene, crop_hexes(scene, result.ruleset.naval_cell(state, around), radius, whole)), scene


def draw_battle(result: Any, record: Any | None, at_hex: str | None = None, hour: int | None = None) -> str:
    """The Tactical Naval Display of the naval battle fought in ``record``'s pass after ``hour``."""
    if record is None:
        raise BadInput("no resolution yet: no naval battle to draw")
    state = record.position.state
    if not result.ruleset.has_naval_map(state):
        raise BadInput(f"--battle: scenario {result.scenario.name} has no naval game")
    title = f"Game {result.game_id[:8]}, {result.scenario.name}, packet {record.resolved}"
    return result.ruleset.battle_svg(state, record.events, title, at_hex, hour)


class _Start:
    resolved = -1


def svg_to_png(svg: str, zoom: float = 1.5) -> bytes:
    """Rasterise with resvg (system fonts are used for the text when present)."""
    try:
        import resvg_py
    except ImportError as exc:  # pragma: no cover - it is a declared dependency
        raise BadInput("PNG needs the resvg-py package (pip install resvg-py); write .svg instead") from exc
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=zoom))
