"""The Red Sun/Red Star rules options that give the other reading of a case the text leaves open
(docs/red-star/interpretations.md, "Readings the text leaves open"; RS/RS 5.1, RS/RS 5.41, RS/RS 6.1).

Each travels in the invitation and is shown at accept. They are declared in code, so the scenario data, and the
hash a game in progress pins, stay as they were (tests/test_corpus.py replays games begun before them)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rsr.cli import main
from rsr.rulesets import get_ruleset
from rsr.rulesets.red_star.ruleset import READING_OPTIONS
from rsr.scenario import load_scenario


def cli(home: Path, *args: str) -> object:
    return CliRunner().invoke(main, list(args), env={"RSR_HOME": str(home)})


def test_every_reading_option_names_its_case_and_its_default() -> None:
    for name, text in READING_OPTIONS.items():
        assert text.startswith("RS/RS ") and "default" in text, name


@pytest.mark.parametrize("name", sorted(READING_OPTIONS))
def test_reading_option_travels_in_the_invitation_and_is_shown_at_accept(tmp_path: Path, name: str) -> None:
    alice, bob = tmp_path / "alice", tmp_path / "bob"
    for home in (alice, bob):
        (home / "games").mkdir(parents=True)
    assert cli(alice, "key", "new", "alice").exit_code == 0  # type: ignore[attr-defined]
    assert cli(bob, "key", "new", "bob").exit_code == 0  # type: ignore[attr-defined]
    out = cli(alice, "new", str(alice / "games"), "--ruleset", "red-star", "--scenario", "july-1939-contact",
              "--side", "japan", "--key", "alice", "--option", f"{name}=true")
    assert out.exit_code == 0, out.output  # type: ignore[attr-defined]
    invite = next((next((alice / "games").glob("game-*")) / "turns").glob("0000-*"))
    out = cli(bob, "accept", str(invite), "--key", "bob", "--dir", str(bob / "games"), "--name", "Bob")
    assert out.exit_code == 0, out.output  # type: ignore[attr-defined]
    assert f"{name}=true" in out.output  # type: ignore[attr-defined]


def test_a_reading_option_is_true_or_false() -> None:
    from rsr.errors import BadInput

    ruleset = get_ruleset("red-star")
    scenario = load_scenario("red-star", "july-1939-contact")
    with pytest.raises(BadInput, match="true or false"):
        ruleset.initial_state(scenario, {"defender-fires-free": "yes"})
    assert ruleset.initial_state(scenario, {"defender-fires-free": True}).options["defender-fires-free"] is True


DOC = Path(__file__).resolve().parents[1] / "docs" / "red-star" / "interpretations.md"
CASES = Path(__file__).resolve().parents[1] / "tests" / "cases" / "red-star"


def _section(title: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(f"## {title}")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def test_every_reading_option_is_in_the_index_and_has_a_case_file_of_its_own() -> None:
    import yaml

    index = _section("Index: readings the text leaves open")
    for name in [*READING_OPTIONS, "fired-off-each-player-turn"]:
        assert f"`{name}`" in index, name
        with_it = [p.name for p in sorted(CASES.glob("*.yaml"))
                   if name in ((yaml.safe_load(p.read_text(encoding="utf-8")).get("changes") or {}).get("options")
                               or {})]
        assert with_it, f"no case file plays with option {name}"


def test_every_case_file_the_readings_name_exists() -> None:
    import re

    section = _section("Readings the text leaves open (issue 22)")
    named = set(re.findall(r"`([a-z0-9]+(?:-[a-z0-9]+){2,})`", section)) - set(READING_OPTIONS) - {
        "fired-off-each-player-turn"}
    assert len(named) >= 15
    missing = sorted(n for n in named if not (CASES / f"{n}.yaml").exists())
    assert not missing, missing
