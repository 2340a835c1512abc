"""Generator of the provisional Red Sun/Red Star (Nomonhan 1939) map: `python -m tools.rs_map`."""
