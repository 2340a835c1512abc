"""Issue 23 §3: a report heads the activation dice with their own stage (RSR 9.11 in the Land Movement Stage),
not with the Reinforcement Stage whose answer the same packet carried (RSR 4.2, sequence of play)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from rsr import games as game_actions
from rsr.cli import main
from rsr.demo import run_demo


def test_activation_dice_come_under_the_land_movement_stage_heading(tmp_path: Path) -> None:
    game = run_demo(tmp_path / "demo", echo=lambda _: None, scenario="liaoyang-turn-1904")
    result = game_actions.load_game(game, cache=False)
    seq = next(r.resolved for r in result.passes if any(e.kind == "activation" for e in r.events))
    home = tmp_path / "demo" / "players" / "alice" / "rsr-home"
    out = CliRunner().invoke(main, ["report", str(game), str(seq)], env={"RSR_HOME": str(home)})
    assert out.exit_code == 0, out.output
    story = out.output.split("WHAT HAPPENED", 1)[1].split("\nDICE", 1)[0]
    heads = [line for line in story.splitlines() if line.endswith(":") and not line.startswith(("*", " "))]
    first_activation = story.index("against response")
    head_before = [h for h in heads if story.index(h) < first_activation][-1]
    assert head_before.endswith("Land Movement Stage:"), story
