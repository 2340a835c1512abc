"""Generate the provisional Red Sun Rising land map and its SVG preview: the map library tools/hexmap (a
theatre map) over this ruleset's geography file (geography.py).

    python -m tools.rsr_map           # write scenarios/red-sun-rising/map.yaml and the SVG
    python -m tools.rsr_map --check   # fail if the written files are not what the code makes
    python -m tools.rsr_map --fit     # show how well shifted_lines even/odd fit the rulebook
    python tools/rsr_map/generate.py  # the same, run as a script
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tools.hexmap.generate import theatre  # noqa: E402
from tools.rsr_map import geography  # noqa: E402

GENERATOR = theatre(geography)
MAP_YAML, MAP_SVG = GENERATOR.map_yaml, GENERATOR.map_svg
make, main = GENERATOR.make, GENERATOR.main

if __name__ == "__main__":
    raise SystemExit(main())
