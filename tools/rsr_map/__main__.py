"""`python -m tools.rsr_map`: see generate.py."""

from tools.rsr_map.generate import main

raise SystemExit(main())
