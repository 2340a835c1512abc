"""The provisional Red Sun Rising Strategic Naval Map, drawn from real geography (see generate.py)."""
