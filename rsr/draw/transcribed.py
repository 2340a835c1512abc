"""``rsr data show``: the whole map with a player's transcription applied (issue 25, rsr/transcription.py).

Kept apart from rsr/transcription.py, which the log replay imports, so that drawing never joins an import
circle with the replay.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rsr.transcription import Transcription


def map_svg(transcription: Transcription, where: str) -> str:
    """``rsr data show``: the whole map with the transcription applied, every hex numbered, no counters,
    the hexes whose terrain the transcription gives marked T, to hold against the printed sheet."""
    from rsr.draw import make_scene
    from rsr.draw.hexmap import render
    from rsr.engine import initial_position
    from rsr.rulesets import get_ruleset
    from rsr.transcription import playable

    ruleset = get_ruleset(transcription.ruleset)
    scenario = playable(transcription, where)
    if transcription.kind in ("naval_map", "naval"):
        return naval_map_svg(transcription, scenario)
    state = initial_position(ruleset, scenario, {}).state
    title = f"{ruleset.id} map: {'transcription' if transcription.kind == 'map' else 'rsr data'}"
    changed = sorted({e.at.split("/")[1] for e in transcription.entries
                      if transcription.kind == "map" and e.at.startswith("terrain/")})
    subtitle = (f"{len(transcription.entries)} value(s) transcribed ({len(changed)} hex terrain); the rest is "
                "rsr's provisional map" if transcription.kind == "map" else "the transcription is not of the map")
    scene = make_scene(ruleset.id, state, state, [], title, subtitle, scenario.data["map"])
    scene.stacks = {}
    scene.arrows = []
    scene.hex_markers = {h: ["T"] for h in changed}
    scene.number_size = 6.0
    return render(scene)


def naval_map_svg(transcription: Transcription, scenario: Any) -> str:
    """``rsr data show`` of Red Sun Rising's naval data: the Strategic Naval Map (3.1) with the
    transcription applied, every sea hex numbered, those whose values it copies (kind, place, port) marked T."""
    from rsr.draw.hexmap import render
    from rsr.draw.naval import naval_map_scene
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
