"""Generate the provisional Red Sun Rising land map and its SVG preview: the map library tools/hexmap (a
theatre map) over this ruleset's geography file (geography.py).

    python -m tools.rsr_map           # write scenarios/red-sun-rising/map.yaml and the SVG
    python -m tools.rsr_map --check   # fail if the written files are not what the code makes
    python -m tools.rsr_map --fit     # show how well shifted_lines even/odd fit the rulebook
"""

from tools.hexmap.generate import theatre
from tools.rsr_map import geography

GENERATOR = theatre(geography)
MAP_YAML, MAP_SVG, make, main = GENERATOR.map_yaml, GENERATOR.map_svg, GENERATOR.make, GENERATOR.main
