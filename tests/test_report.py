"""rsr report (issue 15, and the 80-column item of issue 10): what each input did in the sequence of play,
every die with its purpose and result, losses, moves, provisional data, what is asked next; Markdown for an
email body, plain text for a terminal or a pipe, one self-contained HTML page, and an HTML replay.

Cases whose events are reported: RSR 9.2, 11.2, 11.4x, 11.5x; RS/RS 6.3, 6.62, 6.7, 6.8.
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner

from rsr import games as game_actions
from rsr import reports as report_actions
from rsr.cli import main
from rsr.report import build_report, report_markdown, report_text, victory_lines
from rsr.rulesets.base import BaseRuleset
from tests.support.played import played_game

RULESETS = ["red-sun-rising", "red-star"]


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_markdown_and_text_say_every_die_move_loss_and_fit_80_columns(ruleset_id: str) -> None:
    game_dir = played_game(ruleset_id)
    result = game_actions.load_game(game_dir, cache=False)
    seen_modified = False
    for record in result.passes:
        report = build_report(result, record)
        md, text = report_markdown(report), report_text(report)
        for output in (md, text):
            assert max(len(line) for line in output.splitlines()) <= 80
            assert "…" not in output
        assert not [line for line in md.splitlines() if line.startswith("|") and len(line) > 80]
        words = flat(md)
        for roll in record.rolls:  # every die: its value and its purpose
            assert f"d{roll.sides} = {roll.value}: {flat(roll.purpose)}" in words
        for event in record.events:
            d = event.data
            if event.kind == "moved" and d.get("path"):
                assert d["unit"] in words and d["path"][-1] in words
            if event.kind == "advance" and d.get("to"):
                assert f"{d['unit']} advances {d['frm']} -> " in words
            if event.kind in ("eliminated", "reduced"):
                assert "## Losses" in md and d["unit"] in md.split("## Losses")[1]
            if event.kind == "combat" and d.get("modifiers") and d.get("die") is not None:
                assert f"die {d['die']}, modified to {d['modified_die']} -> {d['result']}" in words
                seen_modified = True
        if any(e.provisional for e in record.events):
            assert "## Provisional data" in md and "[provisional]" in md
        assert ("The game now asks" in words) or ("The game is over" in words)
    if ruleset_id == "red-sun-rising":
        assert seen_modified  # the demo's attacks are on rough or mountain hexes


def test_report_command_formats_and_errors(tmp_path: Path) -> None:
    game_dir = played_game("red-sun-rising")
    runner = CliRunner()
    text = runner.invoke(main, ["report", str(game_dir), "--last"])
    assert text.exit_code == 0, text.output
    assert "WHAT HAPPENED, IN THE SEQUENCE OF PLAY" in text.output or "DICE" in text.output
    assert max(len(line) for line in text.output.splitlines()) <= 80
    md = runner.invoke(main, ["report", str(game_dir), "2", "--format", "md"])
    assert md.exit_code == 0 and md.output.startswith("# Game ")
    both = runner.invoke(main, ["report", str(game_dir), "2", "--last"])
    assert both.exit_code == 2 and "not both" in both.output
    missing = runner.invoke(main, ["report", str(game_dir), "999"])
    assert missing.exit_code == 2


def _one_page(game_dir: Path, seq: int, tmp_path: Path) -> str:
    out = tmp_path / f"report-{seq}.html"
    result = CliRunner().invoke(main, ["report", str(game_dir), str(seq), "--html", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out.read_text()


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_html_report_is_self_contained_with_map_and_dice_table(ruleset_id: str, tmp_path: Path) -> None:
    game_dir = played_game(ruleset_id)
    result = game_actions.load_game(game_dir, cache=False)
    record = max(result.passes, key=lambda r: len(r.rolls))  # the packet with the most dice
    page = _one_page(game_dir, record.resolved, tmp_path)
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"<(script|link|img)[^>]+(src|href)=", page)  # nothing fetched from elsewhere
    assert re.search(r'<figure id="map"[^>]*><label for="zoom"[^>]*><svg', page)  # full width, click to enlarge
    rows = re.findall(r"<tr><td>(\d*)</td><td>d(\d+)</td><td>(\d+)</td><td>([^<]*)</td>", page)
    assert [(int(n), int(s), int(v)) for n, s, v, _ in rows] == [(r.n, r.sides, r.value) for r in record.rolls]
    if any(e.provisional for e in record.events):
        assert 'id="provisional"' in page


def test_html_replay_links_every_packet(tmp_path: Path) -> None:
    game_dir = played_game("red-sun-rising")
    result = game_actions.load_game(game_dir, cache=False)
    out = tmp_path / "replay"
    made = CliRunner().invoke(main, ["report", str(game_dir), "--html", "--all", "--out", str(out)])
    assert made.exit_code == 0, made.output
    pages = sorted(out.glob("packet-*.html"))
    assert len(pages) == len(result.passes)
    for i, page in enumerate(pages):
        text = page.read_text()
        if i + 1 < len(pages):
            assert f'id="next" href="{pages[i + 1].name}"' in text
        if i:
            assert f'id="prev" href="{pages[i - 1].name}"' in text
    assert all(p.name in (out / "index.html").read_text() for p in pages)
    refused = CliRunner().invoke(main, ["report", str(game_dir), "--all"])
    assert refused.exit_code == 2


def test_victory_state_comes_from_the_rulesets_result() -> None:
    state: Any = SimpleNamespace(finished=True)
    judged = SimpleNamespace(ruleset=SimpleNamespace(result=lambda s: {"winner": "japan", "level": "marginal"}))
    assert victory_lines(judged, state) == ["Japan wins (marginal)."]  # type: ignore[arg-type]
    silent = SimpleNamespace(ruleset=BaseRuleset())  # the base class's hook: no result, ever
    assert victory_lines(silent, state) == []  # type: ignore[arg-type]
    assert victory_lines(silent, SimpleNamespace(finished=False)) == [  # type: ignore[arg-type]
        "The game goes on: no result yet."]


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_replay_prints_one_frame_with_map_and_report(ruleset_id: str) -> None:
    game_dir = played_game(ruleset_id)
    result = game_actions.load_game(game_dir, cache=False)
    record = result.passes[len(result.passes) // 2]
    frame = CliRunner().invoke(main, ["replay", str(game_dir), "--seq", str(record.resolved)])
    assert frame.exit_code == 0, frame.output
    out = frame.output
    assert f"packet {record.resolved} (" in out and f"packet {record.resolved} (" in out.split("map")[0]
    assert "map" in out and f"Game {result.game_id[:8]}: packet {record.resolved}" in out
    assert re.search(r"[JRS]\d", out)  # a stack token on the character map
    assert max(len(line) for line in out.splitlines()) <= 80  # piped: 80 columns
    last = CliRunner().invoke(main, ["replay", str(game_dir)])  # no terminal: the last frame, no questions
    assert last.exit_code == 0 and f"packet {result.passes[-1].resolved} (" in last.output
    bad = CliRunner().invoke(main, ["replay", str(game_dir), "--seq", "999"])
    assert bad.exit_code == 2 and "999" in bad.output


@pytest.mark.parametrize("ruleset_id", ["red-sun-rising", "red-star"])
def test_the_html_replay_written_page_by_page_is_the_one_drawn_from_every_position(
        ruleset_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``report --all --html`` draws and writes each page while the log replays, keeping two positions, not
    all (issue 24 target 2); its pages are byte for byte those drawn from a replay that kept every position,
    for a third party and for each player (whose next packet's pass comes last), at several lengths."""
    import shutil

    from rsr.report import replay_pages, write_replay_pages

    audit = played_game(ruleset_id)
    homes = [None, *sorted((audit.parents[1] / "players").glob("*/rsr-home"))]
    files = sorted((audit / "turns").iterdir())
    pending = 0
    for length in (3, 4, len(files)):
        game = tmp_path / f"game-{length}" / audit.name
        (game / "turns").mkdir(parents=True)
        for path in files[:length]:
            shutil.copy(path, game / "turns" / path.name)
        for n, home in enumerate(homes):
            monkeypatch.setenv("RSR_HOME", str(home or tmp_path / "no-keys"))
            result = game_actions.load_game(game, cache=False)
            want = replay_pages(result, report_actions.resolutions(result, None))
            out = tmp_path / f"out-{length}-{n}"
            assert write_replay_pages(game, lambda result: game_actions.choose_key(result, None), out) == len(want)
            assert sorted(p.name for p in out.iterdir()) == sorted(want)
            for name, page in want.items():
                assert (out / name).read_text() == page, (length, home, name)
            pending += len(want) - 1 > length - 2  # (a player's own pass, last)
    assert pending >= 2
