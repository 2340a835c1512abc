"""Generate the provisional Red Sun/Red Star map of the Nomonhan battlefield and its SVG preview: the map
library tools/hexmap (a battlefield map) over this ruleset's geography file (geography.py).

    python -m tools.rs_map            # write scenarios/red-star/map.yaml and the SVG preview
    python -m tools.rs_map --check    # fail if the written files are not what the code makes
    python -m tools.rs_map --fit      # show the projection fit and the shifted_lines comparison
"""

from tools.hexmap.generate import battlefield
from tools.rs_map import geography

GENERATOR = battlefield(geography)
MAP_YAML, MAP_SVG, make, main = GENERATOR.map_yaml, GENERATOR.map_svg, GENERATOR.make, GENERATOR.main
