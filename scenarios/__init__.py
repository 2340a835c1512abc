"""Scenario data, shipped in the rsr package as rsr.data.scenarios (see rsr/data/__init__.py)."""
