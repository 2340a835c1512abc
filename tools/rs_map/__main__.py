"""`python -m tools.rs_map`: see generate.py."""

from tools.rs_map.generate import main

raise SystemExit(main())
