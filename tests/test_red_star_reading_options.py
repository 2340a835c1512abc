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
