"""First run (issue 10): listing scenarios, demo help, shell completion, rules options on ``rsr new``."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.shell_completion import BashComplete
from click.testing import CliRunner, Result

from rsr import games as game_actions
from rsr.cli import main
from rsr.errors import BadInput
from rsr.packet import read_packets


def rsr(home: Path, *args: str) -> Result:
    return CliRunner().invoke(main, list(args), env={"RSR_HOME": str(home)}, catch_exceptions=False)


def test_scenarios_lists_every_ruleset_one_line_each(tmp_path: Path) -> None:
    out = rsr(tmp_path, "scenarios")
    assert out.exit_code == 0, out.output
    lines = [line for line in out.output.splitlines() if not line.startswith(" ")]  # (a long title wraps at 80
    # columns onto indented lines)
    assert all(len(line) <= 80 for line in out.output.splitlines())
    rows = {tuple(line.split()[:2]) for line in lines}
    for pair in [("liaoyang-1904", "red-sun-rising"), ("korea-1904", "red-sun-rising"),
                 ("july-1939-contact", "red-star"), ("july-1939", "red-star")]:
        assert pair in rows, out.output
    assert all(len(line.split()) >= 3 for line in lines), "each line has a title"
    assert len(lines) == len(rows)


def test_demo_help_shows_both_rulesets_and_their_scenarios(tmp_path: Path) -> None:
    out = rsr(tmp_path, "demo", "--help")
    assert out.exit_code == 0
    text = out.output
    assert "red-sun-rising:" in text and "red-star:" in text
    assert "liaoyang-1904" in text and "july-1939-contact" in text


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_prints_the_click_script(tmp_path: Path, shell: str) -> None:
    out = rsr(tmp_path, "completion", shell)
    assert out.exit_code == 0
    assert "_RSR_COMPLETE" in out.output
    assert f"{shell}_complete" in out.output


def test_completion_script_is_valid_bash(tmp_path: Path) -> None:
    script = tmp_path / "rsr.bash"
    script.write_text(rsr(tmp_path, "completion", "bash").output)
    run = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr


def test_completion_refuses_an_unknown_shell(tmp_path: Path) -> None:
    out = rsr(tmp_path, "completion", "tcsh")
    assert out.exit_code == 2


def _complete(args: list[str], incomplete: str) -> list[str]:
    return [item.value for item in BashComplete(main, {}, "rsr", "_RSR_COMPLETE").get_completions(args, incomplete)]


def test_completion_offers_scenarios_of_the_ruleset_given(rsr_home: Path) -> None:
    assert _complete(["new", "--ruleset", "red-star", "--scenario"], "") == [
        "july-1939", "july-1939-artillery", "july-1939-contact"]
    assert _complete(["demo", "--scenario"], "liao") == ["liaoyang-1904", "liaoyang-turn-1904"]


def test_completion_offers_stored_key_names(rsr_home: Path) -> None:
    from rsr import keys as keystore

    keystore.new_key("alice")
    keystore.new_key("bob")
    assert _complete(["submit", "game-x", "--key"], "") == ["alice", "bob"]
    assert _complete(["key", "show"], "a") == ["alice"]


def test_completion_offers_game_directories(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "games" / "game-0123abcd" / "turns").mkdir(parents=True)
    (tmp_path / "game-ffff0000" / "turns").mkdir(parents=True)
    (tmp_path / "notes").mkdir()
    monkeypatch.chdir(tmp_path)
    assert _complete(["status"], "") == ["game-ffff0000", "games/game-0123abcd"]
    assert _complete(["receive"], "games/") == ["games/game-0123abcd"]
    assert _complete(["status"], f"{tmp_path}/ga") == [f"{tmp_path}/game-ffff0000", f"{tmp_path}/games/game-0123abcd"]
    fallback = BashComplete(main, {}, "rsr", "_RSR_COMPLETE").get_completions(["status"], "no")
    assert [(i.value, i.type) for i in fallback] == [("no", "dir")], "other folders: the shell completes them"


# -- rules options -----------------------------------------------------------------------------------------


def test_option_values_keep_their_yaml_types() -> None:
    parsed = game_actions.parse_rule_options(["turns=3", "ratio=1.5", "fog=true", "mode=strict", "code='3'",
                                         "label=no", "neg=-2"])
    assert parsed == {"turns": 3, "ratio": 1.5, "fog": True, "mode": "strict", "code": "3", "label": "no",
                      "neg": -2}
    assert [type(v) for v in parsed.values()] == [int, float, bool, str, str, str, int]


@pytest.mark.parametrize("item, message", [
    ("turns", "NAME=VALUE"), ("Bad=1", "NAME=VALUE"), ("x=", "one number"), ("x=[1, 2]", "one number"),
    ("x={a: 1}", "one number"), ("x=.nan", "finite"), ("x=2024-01-01", "quote"), ("x=: bad", "--option x"),
])
def test_bad_options_are_refused(item: str, message: str) -> None:
    with pytest.raises(BadInput, match=message):
        game_actions.parse_rule_options([item])


def test_an_option_given_twice_is_refused() -> None:
    with pytest.raises(BadInput, match="twice"):
        game_actions.parse_rule_options(["a=1", "a=2"])


@pytest.fixture
def duel_everywhere(duel_registered: None, monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The test duel ruleset for ``rsr new`` too; records the options its initial_state receives and refuses
    an option named ``unknown`` the way the rulesets refuse options they do not have."""
    from rsr.rulesets import REGISTRY
    from tests.support.duel import Duel, duel_scenario

    seen: list[dict[str, Any]] = []

    class OptionDuel(Duel):
        def initial_state(self, scenario: Any, options: dict[str, Any]) -> Any:
            seen.append(dict(options))
            if "unknown" in options:
                raise BadInput("ruleset duel has no option 'unknown'")
            return super().initial_state(scenario, options)

    monkeypatch.setitem(REGISTRY, "duel", OptionDuel)
    monkeypatch.setattr(game_actions, "load_scenario", lambda rs, name: duel_scenario())
    return seen


def test_new_passes_options_into_the_invite(tmp_path: Path, rsr_home: Path,
                                            duel_everywhere: list[dict[str, Any]]) -> None:
    assert rsr(rsr_home, "key", "new", "alice").exit_code == 0
    out = rsr(rsr_home, "new", str(tmp_path), "--ruleset", "duel", "--scenario", "duel", "--side", "attacker",
              "--key", "alice", "--option", "rounds=3", "--option", "label='7'", "--option", "bold=true")
    assert out.exit_code == 0, out.output
    assert "rules option rounds = 3" in out.output
    invite = next(tmp_path.glob("game-*/turns/0000-*"))
    packet = read_packets(invite.read_text(), None)[0]
    assert packet.payload["invite"]["options"] == {"rounds": 3, "label": "7", "bold": True}
    assert duel_everywhere[0] == {"rounds": 3, "label": "7", "bold": True}


def test_new_refuses_an_option_the_ruleset_refuses_and_writes_nothing(tmp_path: Path, rsr_home: Path,
                                                                     duel_everywhere: list[dict[str, Any]]) -> None:
    assert rsr(rsr_home, "key", "new", "alice").exit_code == 0
    games = tmp_path / "games"
    games.mkdir()
    out = rsr(rsr_home, "new", str(games), "--ruleset", "duel", "--scenario", "duel", "--side", "attacker",
              "--key", "alice", "--option", "unknown=1")
    assert out.exit_code == 2
    assert "no option 'unknown'" in out.output
    assert list(games.iterdir()) == []
