"""Milestone checkpoints (issue 24 target 1): a command about an old packet of a long game replays from the
milestone before it, not from the start, and finds exactly what a full replay finds."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rsr import cache
from rsr import games as game_actions
from rsr import reports as report_actions
from rsr.cli import main
from rsr.demo import run_demo
from rsr.gamedir import load_log
from rsr.log import replay


@pytest.fixture(scope="module")
def july_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("milestones") / "demo"
    run_demo(out, echo=lambda _: None, scenario="july-1939", ruleset_id="red-star")
    return next(out.glob("audit/game-*"))


def test_old_packets_come_from_the_milestone_before_them(july_game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "MILESTONE", 16)  # (the July game is some 60 packets long)
    packets = load_log(july_game)
    assert len(packets) > 3 * cache.MILESTONE
    full = {r.resolved: r for r in replay(packets).passes}
    home = cache.HomeCheckpoints()
    home.load(july_game)  # the first command: replays all, keeps the milestones and the newest
    kept = sorted(p.name.split("-")[0] for p in (home.root / packets[0].game).glob("*.pickle"))
    assert f"{cache.MILESTONE:06d}" in kept and f"{2 * cache.MILESTONE:06d}" in kept
    monkeypatch.setattr(cache, "_REPLAYS", {})  # (as in a new process)
    result = game_actions.load_game(july_game)
    assert not result.complete and result.passes[0].resolver > 3 * cache.MILESTONE
    started: list[int] = []
    real_replay = cache.replay

    def spy(packets_given: list, checkpoints: object = None, **kw: object) -> object:
        done = real_replay(packets_given, checkpoints, **kw)  # type: ignore[arg-type]
        started.append(done.passes[0].resolver if not done.complete else -1)
        return done

    monkeypatch.setattr(cache, "replay", spy)
    for seq in (5, cache.MILESTONE - 1, cache.MILESTONE + 3, 2 * cache.MILESTONE - 2):
        mine = report_actions.resolutions(result, None, seq)
        assert len(mine) == 1
        record, truth = mine[0], full[seq]
        assert (record.resolved, record.resolver, record.state_hash) == (truth.resolved, truth.resolver,
                                                                         truth.state_hash)
        assert [r.to_json() for r in record.rolls] == [r.to_json() for r in truth.rolls]
        assert [(e.kind, e.data) for e in record.events] == [(e.kind, e.data) for e in truth.events]
        assert record.position is not None  # (a report draws the position; state_hash above is its digest)
    assert started == [-1] + [cache.MILESTONE] * 3  # (none before packet 16; 16 resolves packet 15)


def test_dice_show_of_an_old_packet_after_a_checkpoint(july_game: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "MILESTONE", 16)
    runner = CliRunner()
    first = runner.invoke(main, ["dice", "show", str(july_game), "40"])  # replays all, keeps checkpoints
    assert first.exit_code == 0, first.output
    monkeypatch.setattr(cache, "_REPLAYS", {})  # (as in a new process)
    again = runner.invoke(main, ["dice", "show", str(july_game), "40"])  # starts from the newest checkpoint
    assert again.exit_code == 0, again.output
    assert again.output == first.output and "rolls" in again.output
    late = runner.invoke(main, ["report", str(july_game), "7", "--format", "md"])
    assert late.exit_code == 0 and "packet 7" in late.output


def test_replay_seq_from_a_checkpoint_shows_the_frame_a_full_replay_shows(july_game: Path, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "MILESTONE", 16)
    monkeypatch.setenv("RSR_HOME", str(tmp_path / "fresh-home"))
    runner = CliRunner()
    last = max(r.resolved for r in replay(load_log(july_game)).passes)  # (the demo's length follows its dice)
    assert last > 2 * cache.MILESTONE
    for seq in ("7", "20", str(last)):
        monkeypatch.setattr(cache, "_REPLAYS", {})
        full = runner.invoke(main, ["replay", str(july_game), "--seq", seq])  # the first: no checkpoint yet
        assert full.exit_code == 0, full.output
        monkeypatch.setattr(cache, "_REPLAYS", {})
        kept = runner.invoke(main, ["replay", str(july_game), "--seq", seq])
        assert kept.exit_code == 0, kept.output
        assert kept.output == full.output and f"packet {seq} (" in kept.output
        monkeypatch.setenv("RSR_HOME", str(tmp_path / f"fresh-home-{seq}"))
    monkeypatch.setattr(cache, "_REPLAYS", {})
    bad = runner.invoke(main, ["replay", str(july_game), "--seq", "500"])
    assert bad.exit_code == 2 and "packet 500 has no resolution (resolved packets: 1-" in bad.output


def test_the_email_of_a_packet_from_a_checkpoint_is_the_one_a_full_replay_writes(
        july_game: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``rsr mail`` (and ``submit --mail``) take the game from the home's checkpoints and the report of the
    pass the packet resolves from the milestone before it (issue 24 target 1), with the same words."""
    from rsr.mail import send as mail_send

    monkeypatch.setattr(cache, "MILESTONE", 16)
    monkeypatch.setenv("RSR_HOME", str(tmp_path / "mail-home"))
    packets = load_log(july_game)
    full = replay(packets)
    seqs = (len(packets) - 1, len(packets) - 2, 2 * cache.MILESTONE + 3, 5)
    want = {seq: mail_send.last_report(full, packets[seq]) for seq in seqs}
    assert all(want[seq] is not None for seq in seqs)
    cache.HomeCheckpoints().load(july_game)  # the first command: replays all, keeps the milestones and the newest
    started: list[int] = []
    real_replay = cache.replay

    def spy(packets_given: list, checkpoints: object = None, **kw: object) -> object:
        done = real_replay(packets_given, checkpoints, **kw)  # type: ignore[arg-type]
        started.append(-len(packets_given) if done.complete else done.passes[0].resolver)
        return done

    for seq in seqs:
        monkeypatch.setattr(cache, "_REPLAYS", {})  # (as in a new process)
        started.clear()
        monkeypatch.setattr(cache, "replay", spy)
        message = mail_send.packet_message(july_game, packets[seq], None, None)
        monkeypatch.setattr(cache, "replay", real_replay)
        # from the newest checkpoint, then (an older packet) from the milestone before it: from the invitation
        # only before the first milestone
        assert started[0] > 3 * cache.MILESTONE
        milestone = (seq - 1) // cache.MILESTONE * cache.MILESTONE
        assert started[1:] == ([] if seq == len(packets) - 1 else [-(seq + 1)] if milestone == 0 else [milestone])
        report = want[seq]
        assert report is not None
        attached = {part.get_filename(): part.get_content() for part in message.iter_attachments()}
        assert attached[f"report-{report[0]:04d}.md"] == report[1]
        assert message.get_body(preferencelist=("plain",)).get_content().endswith(report[1])  # type: ignore[union-attr]
