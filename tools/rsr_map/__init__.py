"""Draw the provisional Red Sun Rising land map from real geography (see docs/red-sun-rising/map.md)."""
