"""rsr map for both rulesets (issue 15): counters, stacks, markers, and an arrow for every move, attack
(also when the attackers died), retreat and advance of the packet; cropping; PNG without a system program.

Cases drawn: RSR 9.2 (moves), 11.11 (retreat before combat), 11.2 (attacks), 11.3 (advance), 13.2 (trench
markers); RS/RS 5.7 (disruption markers), 6.1 (combats), 6.3 (defensive fire), 6.7 (retreats), 6.8 (advances).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from rsr import games as game_actions
from rsr.cli import main
from rsr.draw import draw_position
from rsr.draw.hexmap import crop_hexes
from rsr.draw.scenes import arrows_from_events
from rsr.engine import Event
from tests.support.played import played_game


def test_arrows_follow_the_units_through_the_packet() -> None:
    start = {"a1": "1001", "a2": "1002", "d1": "1102"}
    events = [
        Event("moved", "a1 moves", "RSR 9.2", {"unit": "a1", "frm": "1001", "path": ["1101", "1201"]}),
        Event("combat", "attack 1 on 1102", "RSR 11.2", {"attack": 1, "hex": "1102", "result": "2/1",
                                                          "attackers": [{"unit": "a1"}, {"unit": "a2"}]}),
        Event("eliminated", "a1 eliminated", "RSR 11.54", {"unit": "a1", "hex": "1201"}),
        Event("eliminated", "a2 eliminated", "RSR 11.54", {"unit": "a2", "hex": "1002"}),
        Event("retreat", "d1 retreats", "RSR 11.11", {"unit": "d1", "frm": "1102", "path": ["1103"], "success": True}),
        Event("advance", "b advances", "RSR 11.3", {"unit": "b", "frm": "1002", "to": "1102"}),
    ]
    arrows = arrows_from_events(start, events)
    kinds = [(a.kind, a.hexes, a.lost) for a in arrows]
    # the attack comes from where each attacker stood at the time (a1 had moved to 1201), and both arrows
    # are drawn although every attacker died, marked as lost
    assert ("move", ("1001", "1101", "1201"), True) in kinds
    assert ("attack", ("1201", "1102"), True) in kinds
    assert ("attack", ("1002", "1102"), True) in kinds
    assert ("retreat", ("1102", "1103"), False) in kinds
    assert ("advance", ("1002", "1102"), False) in kinds


def _svg(runner: CliRunner, game_dir: Path, seq: int, tmp_path: Path, *extra: str) -> str:
    out = tmp_path / f"map-{seq}.svg"
    result = runner.invoke(main, ["map", str(game_dir), str(seq), "--out", str(out), *extra])
    assert result.exit_code == 0, result.output
    return out.read_text()


@pytest.mark.parametrize("ruleset_id", ["red-sun-rising", "red-star"])
def test_every_packet_map_shows_its_attacks_moves_and_counters(ruleset_id: str, tmp_path: Path) -> None:
    game_dir = played_game(ruleset_id)
    result = game_actions.load_game(game_dir, cache=False)  # every pass of the game
    attacks = 0
    middle = result.passes[len(result.passes) // 2]
    assert _svg(CliRunner(), game_dir, middle.resolved, tmp_path) == draw_position(result, middle)[0]
    for record in result.passes:
        svg, _ = draw_position(result, record)  # what `rsr map GAME SEQ` writes, without replaying the log again
        assert svg.startswith("<svg") and 'id="rsr-map"' in svg
        titles = re.findall(r'class="arrow arrow-attack"[^>]*><title>([^<]*)</title>', svg)
        for event in record.events:
            if event.kind == "combat":  # RSR 11.2: one arrow per attacking hex, named by attack number
                attacks += 1
                assert any(t.startswith(f"attack {event.data['attack']} on {event.data['hex']}") for t in titles)
            if event.kind == "combat-start":  # RS/RS 6.1
                attacks += 1
                assert any(t.startswith(f"{event.data['combat']}:") for t in titles)
            if event.kind == "moved" and event.data.get("path"):
                assert 'class="arrow arrow-move"' in svg and f">{event.data['path'][-1]}</text>" in svg
        for unit in result.ruleset.describe(record.position.state)[1:]:
            match = re.match(r"\s+(\d{4}) \[[^\]]*\]: (.*)", unit)
            if match and f">{match.group(1)}</text>" in svg:  # the hex is in the cropped picture
                first = match.group(2).split(",")[0].split()[0]
                assert f'data-unit="{first}"' in svg
    assert attacks >= 1  # the demo of either ruleset fights at least once


def test_crop_around_a_hex_and_the_whole_map(tmp_path: Path) -> None:
    game_dir = played_game("red-sun-rising")
    result = game_actions.load_game(game_dir, cache=False)
    record = result.passes[0]
    _, scene = draw_position(result, record)
    near = crop_hexes(scene, "1908", 1)
    assert "1908" in near and len(near) < 40
    assert all(scene.layout.grid.distance(h, "1908") <= 3 for h in near)
    whole = _svg(CliRunner(), game_dir, record.resolved, tmp_path, "--whole")
    assert whole.count("<polygon") >= len(scene.terrain)
    bad = CliRunner().invoke(main, ["map", str(game_dir), "--around", "9999", "--out", str(tmp_path / "x.svg")])
    assert bad.exit_code == 2 and "9999" in bad.output


def test_png_is_written_by_a_python_package(tmp_path: Path) -> None:
    game_dir = played_game("red-star")
    out = tmp_path / "map.png"
    result = CliRunner().invoke(main, ["map", str(game_dir), "--out", str(out), "--radius", "2"])
    assert result.exit_code == 0, result.output
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert 600 <= width <= 2400 and 400 <= height <= 2400  # email-image size
