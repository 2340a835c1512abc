"""Whole demo games for the report, map and odds tests, played once per test process and shared read-only."""

from __future__ import annotations

import functools
import os
import tempfile
from pathlib import Path

from rsr.demo import run_demo

SCENARIOS = {"red-sun-rising": "liaoyang-1904", "red-star": "july-1939-contact"}


@functools.cache
def played_game(ruleset_id: str) -> Path:
    """The audit copy of a finished demo game of ``ruleset_id`` (keys are random, so the dice differ per run)."""
    out = Path(tempfile.mkdtemp(prefix=f"rsr-played-{ruleset_id}-")) / "demo"
    before = os.environ.get("RSR_HOME")
    try:
        run_demo(out, echo=lambda _: None, scenario=SCENARIOS[ruleset_id], ruleset_id=ruleset_id)
    finally:
        if before is not None:
            os.environ["RSR_HOME"] = before
    return next(out.glob("audit/game-*"))
