"""JSON Schemas, shipped in the rsr package as rsr.data.schemas (see rsr/data/__init__.py)."""
