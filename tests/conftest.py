"""Shared fixtures: an isolated key store per test, and the dice test vectors (tests/vectors/)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
VECTORS = REPO / "tests" / "vectors" / "dice-v1.json"


@pytest.fixture(autouse=True)
def rsr_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "rsr-home"
    monkeypatch.setenv("RSR_HOME", str(home))
    monkeypatch.delenv("RSR_PASSPHRASE", raising=False)
    return home


@pytest.fixture
def vectors() -> dict[str, Any]:
    return json.loads(VECTORS.read_text())


@pytest.fixture
def duel_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the test-only duel ruleset (tests/support/duel.py) and its scenario available to the game layer."""
    from rsr import log as gamemod
    from rsr.rulesets import REGISTRY
    from tests.support.duel import Duel, duel_scenario

    monkeypatch.setitem(REGISTRY, "duel", Duel)
    real = gamemod.load_scenario
    monkeypatch.setattr(gamemod, "load_scenario",
                        lambda rs, name: duel_scenario() if rs == "duel" else real(rs, name))
