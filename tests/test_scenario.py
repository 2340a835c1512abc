"""Scenario loading (docs/architecture.md): schema errors name the file and path; YAML is read safely."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import rsr.scenario as scenario_mod
from rsr.errors import BadInput
from rsr.scenario import load_scenario
from rsr.yamlio import load_yaml_text


def copy_scenarios(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "scenarios"
    shutil.copytree(scenario_mod.SCENARIO_ROOT / "red-sun-rising", root / "red-sun-rising")
    monkeypatch.setattr(scenario_mod, "SCENARIO_ROOT", root)
    return root / "red-sun-rising"


def test_scenario_hash_is_stable_and_covers_all_files() -> None:
    first = load_scenario("red-sun-rising", "liaoyang-1904")
    assert set(first.data) == {"scenario", "map", "counters", "tables", "track"}
    assert first.sha256 == load_scenario("red-sun-rising", "liaoyang-1904").sha256


def test_a_changed_table_cell_changes_the_hash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = load_scenario("red-sun-rising", "liaoyang-1904").sha256
    folder = copy_scenarios(tmp_path, monkeypatch)
    tables = folder / "tables.yaml"
    tables.write_text(tables.read_text().replace('"3/1", "2/1"', '"3/1", "3/1"', 1))
    assert load_scenario("red-sun-rising", "liaoyang-1904").sha256 != before


def test_schema_error_names_file_and_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = copy_scenarios(tmp_path, monkeypatch)
    tables = folder / "tables.yaml"
    tables.write_text(tables.read_text().replace('provenance: "rulebook: 9.46"}', 'provenance: "my guess"}', 1))
    with pytest.raises(BadInput) as err:
        load_scenario("red-sun-rising", "liaoyang-1904")
    assert "tables.yaml: $.terrain_effects.terrain[0].provenance" in str(err.value)


def test_overlay_replaces_a_file_and_changes_the_pin(tmp_path: Path) -> None:
    overlay = tmp_path / "overlay"
    overlay.mkdir()
    text = (scenario_mod.SCENARIO_ROOT / "red-sun-rising" / "tables.yaml").read_text()
    (overlay / "tables.yaml").write_text(text.replace("provisional: stand-in beyond the printed pattern",
                                                      "overlay: transcribed from my copy of the game"))
    base = load_scenario("red-sun-rising", "liaoyang-1904")
    over = load_scenario("red-sun-rising", "liaoyang-1904", overlay)
    assert over.sha256 != base.sha256
    assert "overlay: transcribed" in str(over.data["tables"])


def test_yaml_11_booleans_stay_strings_and_aliases_are_refused() -> None:
    assert load_yaml_text("side: no\nmove: on\nok: true", "t") == {"side": "no", "move": "on", "ok": True}
    with pytest.raises(BadInput, match="aliases are not allowed"):
        load_yaml_text("a: &x [1, 2]\nb: [*x, *x]", "orders.yaml")
    with pytest.raises(BadInput, match="orders.yaml: line 1"):
        load_yaml_text("inputs: [", "orders.yaml")
