"""The two kinds of map generator, each over a ruleset's geography file:

* :func:`theatre`: a map drawn from coasts, relief, rivers, rail, roads and towns in latitude and
  longitude (theatre.py; Red Sun Rising's land map, tools/rsr_map);
* :func:`battlefield`: a map drawn from a major and a minor river, a bluff, a border claim, heights and
  dunes in a kilometre plane (battlefield.py; Red Sun/Red Star's Nomonhan map, tools/rs_map);
* :func:`naval`: a coarse strategic naval map of sea hexes and ports, numbered by the roles the rulebook
  gives its hexes (naval.py; Red Sun Rising's Strategic Naval Map, tools/rsr_naval_map).
"""

from __future__ import annotations

from types import ModuleType

from tools.hexmap import battlefield as battlefield_map
from tools.hexmap import naval as naval_map
from tools.hexmap import theatre as theatre_map
from tools.hexmap.cli import Generator
from tools.hexmap.fit import geo_shift_report, plane_shift_report
from tools.hexmap.preview import battlefield_scene, preview_svg, theatre_scene
from tools.hexmap.yamlmap import battlefield_summary, battlefield_yaml, theatre_summary, theatre_yaml


def _theatre_preview(model: theatre_map.MapModel, geo: ModuleType) -> str:
    return preview_svg(theatre_scene(model, geo))


def _battlefield_preview(model: battlefield_map.MapModel, geo: ModuleType) -> str:
    return preview_svg(battlefield_scene(model, geo))


def theatre(geo: ModuleType) -> Generator:
    return Generator(geo, theatre_map.build, theatre_yaml, _theatre_preview, theatre_summary, geo_shift_report)


def battlefield(geo: ModuleType) -> Generator:
    return Generator(geo, battlefield_map.build, battlefield_yaml, _battlefield_preview, battlefield_summary,
                     plane_shift_report)


def naval(geo: ModuleType) -> Generator:
    return Generator(geo, naval_map.build, naval_map.to_yaml, naval_map.preview, naval_map.summary)
