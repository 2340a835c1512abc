"""Where rsr's data lives: the scenarios and the JSON Schemas, found through the installed package.

In the repository they sit at the top level (``scenarios/``, ``schemas/``); the build maps them into the
package as ``rsr.data.scenarios`` and ``rsr.data.schemas`` (pyproject.toml), so a wheel carries them and an
editable install points at the repository folders. Nothing here looks at the source tree directly.
"""

from __future__ import annotations

import importlib
from pathlib import Path


def _package_dir(package: str) -> Path:
    module = importlib.import_module(package)
    paths = [Path(entry) for entry in getattr(module, "__path__", [])]
    folders = [path for path in paths if path.is_dir()]
    if not folders:
        raise RuntimeError(f"rsr is installed without its data package {package} (reinstall rsr)")
    return folders[0]


def scenarios_dir() -> Path:
    """The folder holding ``<ruleset>/<scenario>.yaml`` and the data files they include."""
    return _package_dir("rsr.data.scenarios")


def schemas_dir() -> Path:
    """The folder holding ``<name>.schema.json``."""
    return _package_dir("rsr.data.schemas")
