"""The map library of the scenario-map generators: one library, a geography file per map.

Each generator package keeps only its data and an entry point: ``geography.py`` (the real geography with
its sources, the rulebook's named hexes and nudges, the fit checks, the map file's ids and provenance
strings) and ``generate.py`` (a :class:`~tools.hexmap.cli.Generator` over it; ``python -m tools.<map>``):

* tools/rsr_map: the Red Sun Rising land map, a *theatre* map (theatre.py);
* tools/rs_map: the Red Sun/Red Star Nomonhan map, a *battlefield* map (battlefield.py);
* tools/rsr_naval_map: the Red Sun Rising Strategic Naval Map, a *naval* map (naval.py).

The library, one module per concern:

* grid.py: hex and hexside names, the latitude/longitude grid and the plane grid, road routing;
* geometry.py: point-in-polygon, distances, densifying, segment crossing;
* fit.py: fitting geography to the rulebook's hexes (warp, similarity) and the shifted_lines tables;
* named.py: the kinds of thing a rulebook says about hexes (pinned places, facts, set-ups, bridges, nudges);
* theatre.py, battlefield.py, naval.py: the projection of each kind of map onto its grid;
* yamlmap.py (over yamlout.py): the map YAML files, written byte-stable; their summaries;
* preview.py: the geography-check previews, drawn by rsr/draw (the one drawing module of the project, which
  also draws the game maps of both rulesets and the naval displays);
* cli.py, generate.py: the command line (write, ``--check``, ``--fit``) and a generator for each kind.
"""
