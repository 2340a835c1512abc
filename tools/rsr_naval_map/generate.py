"""Generate the provisional Red Sun Rising Strategic Naval Map and its SVG preview: the map library
tools/hexmap (a naval map) over this map's geography file (geography.py).

    python -m tools.rsr_naval_map           # write scenarios/red-sun-rising/naval-map.yaml and the SVG
    python -m tools.rsr_naval_map --check   # fail if the written files are not what the code makes
"""

from tools.hexmap.generate import naval
from tools.rsr_naval_map import geography

GENERATOR = naval(geography)
MAP_YAML, MAP_SVG, make, main = GENERATOR.map_yaml, GENERATOR.map_svg, GENERATOR.make, GENERATOR.main
