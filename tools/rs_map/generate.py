"""Generate the provisional Red Sun/Red Star map of the Nomonhan battlefield and its SVG preview: the map
library tools/hexmap (a battlefield map) over this ruleset's geography file (geography.py).

    python -m tools.rs_map            # write scenarios/red-star/map.yaml and the SVG preview
    python -m tools.rs_map --check    # fail if the written files are not what the code makes
    python -m tools.rs_map --fit      # show the projection fit and the shifted_lines comparison
    python tools/rs_map/generate.py   # the same, run as a script
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tools.hexmap.generate import battlefield  # noqa: E402
from tools.rs_map import geography  # noqa: E402

GENERATOR = battlefield(geography)
MAP_YAML, MAP_SVG = GENERATOR.map_yaml, GENERATOR.map_svg
make, main = GENERATOR.make, GENERATOR.main

if __name__ == "__main__":
    raise SystemExit(main())
