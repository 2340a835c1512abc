"""The map library both scenario-map generators share (tools/rsr_map for Red Sun Rising, tools/rs_map for Red
Sun/Red Star): the YAML writer (yamlout.py), plane and latitude/longitude geometry (geometry.py) and the
command line that writes or checks the generated files (cli.py).

What differs per ruleset stays in its own package: the real geography (``geography.py``), the rulebook's
named hexes (``named.py``), the grid orientation and fit (``grid.py``, ``fit.py``), the projection onto
the grid (``build.py``) and what its geography-check preview shows (``preview.py``). Every picture is
drawn by rsr/draw, one module for the game maps of both rulesets, the naval map and these previews
(``preview.py`` here: placing the real geography over the hexes).
"""
