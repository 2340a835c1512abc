"""`python -m tools.rsr_naval_map`: see generate.py."""

from tools.rsr_naval_map.generate import main

raise SystemExit(main())
