"""The scenario catalogue (rsr/catalogue.py, issue 24 target 5): the same list as parsing every file, the
big data files never parsed, the kept listing used only while the files are unchanged, and no ruleset,
schema or YAML library loaded by ``rsr scenarios`` once the listing is kept."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rsr import catalogue
from rsr import scenario as scenario_mod
from rsr.yamlio import load_yaml_file


def parsed_the_slow_way(root: Path) -> list[tuple[str, str, str]]:
    rows = []
    for ruleset in ("red-star", "red-sun-rising"):
        for path in sorted((root / ruleset).glob("*.yaml"), key=lambda p: p.stem):
            data = load_yaml_file(path)
            if isinstance(data, dict) and "include" in data and "ruleset" in data:
                rows.append((ruleset, path.stem, str(data.get("title", "")).strip()))
    return rows


def test_the_catalogue_is_what_parsing_every_file_gives() -> None:
    root = scenario_mod.SCENARIO_ROOT
    expected = parsed_the_slow_way(root)
    assert len(expected) >= 9
    assert catalogue.catalogue(root) == expected  # made
    assert catalogue.catalogue(root) == expected  # kept
    assert scenario_mod.available("red-star") == [n for r, n, _ in expected if r == "red-star"]


def test_data_files_are_skipped_unparsed(monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: list[str] = []
    real = catalogue.scenario_data

    def spy(path: Path) -> dict | None:
        from rsr import yamlio

        original = yamlio.load_yaml_file
        monkeypatch.setattr(yamlio, "load_yaml_file", lambda p: parsed.append(p.name) or original(p))
        try:
            return real(path)
        finally:
            monkeypatch.setattr(yamlio, "load_yaml_file", original)

    monkeypatch.setattr(catalogue, "scenario_data", spy)
    catalogue.available("red-star", scenario_mod.SCENARIO_ROOT)
    assert "map.yaml" not in parsed and "counters.yaml" not in parsed and "tables.yaml" not in parsed
    assert "july-1939.yaml" in parsed


def test_a_changed_file_is_read_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "scenarios"
    shutil.copytree(scenario_mod.SCENARIO_ROOT, root)
    first = catalogue.catalogue(root)
    path = root / "red-star" / "july-1939.yaml"
    text = path.read_text()
    path.write_text(text.replace('title: "Japanese July Attack', 'title: "Retitled July Attack'))
    os.utime(path, ns=(1, 1))
    changed = catalogue.catalogue(root)
    assert changed != first and ("red-star", "july-1939", "Retitled July Attack, 2-12 July 1939 (13.1)") in changed
    (root / "red-star" / "july-1939-copy.yaml").write_text(text)  # a new scenario appears
    assert ("red-star", "july-1939-copy") in {(r, n) for r, n, _ in catalogue.catalogue(root)}


def test_a_damaged_kept_listing_is_ignored(tmp_path: Path) -> None:
    root = scenario_mod.SCENARIO_ROOT
    expected = parsed_the_slow_way(root)
    catalogue.catalogue(root)
    kept = catalogue.kept_path()
    kept.write_text(kept.read_text().replace("Japanese July", "Forged July"))
    assert catalogue.catalogue(root) == expected
    kept.write_text("{not json")
    assert catalogue.catalogue(root) == expected
    kept.unlink()
    kept.symlink_to(tmp_path / "elsewhere.json")
    (tmp_path / "elsewhere.json").write_text(kept.parent.joinpath("x").name)
    assert catalogue.catalogue(root) == expected  # (never read through a link)


def test_scenarios_loads_no_rules_schemas_or_yaml_once_kept(rsr_home: Path) -> None:
    probe = ("import sys\nfrom rsr.cli import main\n"
             "try:\n    main(['scenarios'])\nexcept SystemExit:\n    pass\n"
             "heavy = [m for m in sys.modules if m.split('.')[0] in ('yaml', 'jsonschema', 'rich', 'cryptography')"
             " or m.startswith('rsr.rulesets.')"
             " or m in ('rsr.scenario', 'rsr.schemas', 'rsr.games', 'rsr.orders', 'rsr.reports')]\n"
             "print('HEAVY', heavy)\n")
    env = dict(os.environ, RSR_HOME=str(rsr_home))
    runs = [subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
            for _ in range(2)]
    assert "july-1939" in runs[0].stdout and "july-1939" in runs[1].stdout
    assert runs[1].stdout.strip().splitlines()[-1] == "HEAVY []"
