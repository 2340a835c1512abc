"""``rsr data show``: the whole map with a player's transcription applied (rsr/transcription.py).

Kept apart from rsr/transcription.py, which the log replay imports, so that drawing never joins an import
circle with the replay.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
        return ruleset.naval_transcription_svg(transcription, scenario)
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
