"""A PBEM player's day (issue 10): never stuck, and always knowing what happened and what comes next.

Two players with their own homes (RSR_HOME) exchange packet files: the sample game of ``rsr demo`` is
played once, then each step is re-lived through the command line from a copy of a player's game directory
that holds the log up to the packet being received, exactly as that player's machine held it.
"""

from __future__ import annotations

import itertools
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner, Result

from rsr import progress
from rsr.cli import main
from rsr.demo import run_demo


def rsr(home: Path, *args: str, input: str | None = None, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(main, list(args), env={"RSR_HOME": str(home), **(env or {})}, input=input,
                              catch_exceptions=False)


_COPIES = itertools.count()


class Sample:
    """A finished sample game: both homes and the signed packets in order."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.turns = sorted(next(out.glob("players/alice/games/game-*")).joinpath("turns").iterdir())
        self.sides = {"alice": self.turns[0].name.split("-")[1], "bob": self.turns[1].name.split("-")[1]}

    def home(self, player: str) -> Path:
        """The player's rsr home as it would be on a second computer: keys and sealed choices, no signing
        journal. Each test rewinds the finished game and signs again at a seq the player already signed,
        which the journal of the player's own home rightly refuses (docs/protocol.md)."""
        import shutil

        original = self.out / "players" / player / "rsr-home"
        copy = self.out / "homes" / f"{player}-{next(_COPIES)}"
        shutil.copytree(original, copy, ignore=shutil.ignore_patterns("journal", "cache"))
        return copy

    def player_for(self, side: str) -> str:
        return next(p for p, s in self.sides.items() if s == side)

    def side_of(self, seq: int) -> str:
        return self.turns[seq].name.split("-")[1]

    def log_upto(self, tmp: Path, count: int) -> Path:
        """A game directory holding packets 0..count-1."""
        game = tmp / f"game-upto-{count}"
        (game / "turns").mkdir(parents=True)
        for path in self.turns[:count]:
            shutil.copy(path, game / "turns" / path.name)
        return game

    def receive(self, tmp: Path, seq: int) -> tuple[str, Path, Result]:
        """The recipient of packet ``seq`` receives it into its log of packets 0..seq-1."""
        recipient = self.player_for(next(s for s in self.sides.values() if s != self.side_of(seq)))
        game = self.log_upto(tmp, seq)
        return recipient, game, rsr(self.home(recipient), "receive", str(game), str(self.turns[seq]))


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Sample:
    out = tmp_path_factory.mktemp("day") / "demo"
    run_demo(out, echo=lambda _: None)
    return Sample(out)


# -- C: after rsr receive --------------------------------------------------------------------------------------


def _first_packet_with_dice(sample: Sample, tmp: Path) -> int:
    for seq in range(3, len(sample.turns)):
        out = rsr(sample.home("alice"), "dice", "show", str(sample.log_upto(tmp / f"probe{seq}", seq + 1)),
                  str(seq - 1))
        if out.exit_code == 0 and "n=0 " in out.output:
            return seq
    raise AssertionError("the sample game rolled no dice")


def test_receive_summary_shows_my_public_dice_and_what_is_asked(sample: Sample, tmp_path: Path) -> None:
    seq = _first_packet_with_dice(sample, tmp_path)  # the opponent's packet that reveals my packet's dice
    recipient, game, out = sample.receive(tmp_path, seq)
    assert out.exit_code == 0, out.output
    me = sample.sides[recipient]
    assert max(len(line) for line in out.output.splitlines()) <= 80  # wrapped for the terminal
    text = " ".join(out.output.split())  # the summary's lines, wrapped, read as one
    assert f"your packet {seq - 1}, resolved with the dice {sample.side_of(seq)} revealed in packet {seq}" in text
    dice = re.search(r"your dice, now public: (.*)", text)
    assert dice, text
    report = re.search(rf"report: (reports/{seq - 1:04d}-{me}\.md)", text)
    assert report, text
    report_text = (game / report.group(1)).read_text()
    for value in re.findall(r"d6=(\d)", dice.group(1)):
        assert f"| {value} |" in report_text, "the report pointed to holds my dice"
    assert "Nothing: no input of this packet could be applied yet." not in report_text
    assert re.search(r"^now: ", out.output, re.MULTILINE)


@pytest.fixture(scope="module")
def turn_sample(tmp_path_factory: pytest.TempPathFactory) -> Sample:
    """A whole land turn: movement rolls activation dice before the attacks, so the side that moved waits
    for a packet that only reveals them."""
    out = tmp_path_factory.mktemp("turn") / "demo"
    run_demo(out, echo=lambda _: None, scenario="liaoyang-turn-1904")
    return Sample(out)


def test_receive_says_to_send_an_empty_packet_to_reveal_the_opponents_dice(turn_sample: Sample,
                                                                          tmp_path: Path) -> None:
    sample = turn_sample
    for seq in range(2, len(sample.turns) - 1):
        recipient, _, out = sample.receive(tmp_path / str(seq), seq)
        assert out.exit_code == 0, out.output
        text = " ".join(out.output.split())  # wrapped at 80 columns
        if "send a packet with no orders so the dice of packet" in text:
            assert f"so the dice of packet {seq} ({sample.side_of(seq)}'s) can be revealed" in text
            assert "then " + sample.side_of(seq) + " is asked:" in text
            return
    raise AssertionError("no packet of the sample game asked for an empty reveal packet")


# -- C: rsr status ----------------------------------------------------------------------------------------------


def test_status_right_after_signing_waits_for_the_opponent(sample: Sample, tmp_path: Path) -> None:
    """After Russia signs its attacks, status does not ask Russia for them again."""
    first_side = sample.sides["alice"]
    game = sample.log_upto(tmp_path, 3)  # alice has just signed packet 2
    assert sample.side_of(2) == first_side
    out = rsr(sample.home("alice"), "status", str(game))
    assert out.exit_code == 0, out.output
    other = sample.sides["bob"]
    assert f"waiting for {other}'s packet" in out.output
    assert f"the game asks {first_side}" not in out.output
    assert "(yours)" not in out.output
    before = rsr(sample.home("alice"), "status", str(sample.log_upto(tmp_path / "before", 2)))
    assert f"next packet: {first_side}'s (yours)" in before.output
    assert f"the game asks {first_side} (you):" in before.output


def test_status_never_mixes_my_packet_with_a_request_of_the_opponent(sample: Sample, tmp_path: Path) -> None:
    for count in range(2, len(sample.turns) + 1):
        game = sample.log_upto(tmp_path / str(count), count)
        for player, side in sample.sides.items():
            text = rsr(sample.home(player), "status", str(game)).output
            other = next(s for s in sample.sides.values() if s != side)
            if "(yours)" in text:
                assert f"the game asks {other}" not in text, text


def test_signed_time_is_shown_when_a_packet_carries_one() -> None:
    when = progress.signed_time({"time": "2026-03-01T10:00:00Z"})
    assert when is not None and when.isoformat() == "2026-03-01T10:00:00+00:00"
    assert progress.signed_time({"time": 1772359200}) == when
    assert progress.signed_time({}) is None and progress.signed_time({"time": "soon"}) is None
    later = when.replace(hour=15)
    assert progress.ago(when, later) == "5 hours ago"


# -- B: never stuck --------------------------------------------------------------------------------------------


def test_template_stays_valid_yaml_when_pasted(sample: Sample, tmp_path: Path) -> None:
    game = sample.log_upto(tmp_path, 2)
    template = rsr(sample.home("alice"), "orders", "template", str(game), env={"COLUMNS": "40"})
    assert template.exit_code == 0, template.output
    data = yaml.safe_load(template.output)
    assert isinstance(data, dict) and isinstance(data["inputs"], list) and data["inputs"][0]["request"]
    played = rsr(sample.home("alice"), "play", str(game), input="\n\n", env={"COLUMNS": "40"})
    printed = played.output.split("paste your orders")[0]
    assert yaml.safe_load(printed) == data, "play prints the same template, unwrapped"


def test_play_refuses_an_empty_answer_while_a_request_is_pending(sample: Sample, tmp_path: Path) -> None:
    game = sample.log_upto(tmp_path, 2)
    before = sorted(p.name for p in (game / "turns").iterdir())
    out = rsr(sample.home("alice"), "play", str(game), input="\nn\n")
    assert out.exit_code == 2
    assert "no orders given while the game asks you" in out.output and "nothing signed" in out.output
    assert sorted(p.name for p in (game / "turns").iterdir()) == before


def test_play_signs_a_pass_the_player_confirms(sample: Sample, tmp_path: Path) -> None:
    game = sample.log_upto(tmp_path, 2)
    out = rsr(sample.home("alice"), "play", str(game), input="\ny\ny\n")
    assert out.exit_code == 0, out.output
    assert "Pass, answering it with" in out.output and "wrote packet 2" in out.output
    from rsr.gamedir import load_log

    inputs = load_log(game)[2].payload["inputs"]
    assert len(inputs) == 1 and inputs[0]["answer"]["attacks"] == []


def test_play_signs_the_template_pasted_back_with_orders(sample: Sample, tmp_path: Path) -> None:
    game = sample.log_upto(tmp_path, 2)
    orders = next(sample.out.glob("mail/0002-orders-*.yaml")).read_text()
    out = rsr(sample.home("alice"), "play", str(game), input=orders + "\ny\n")
    assert out.exit_code == 0, out.output
    assert "wrote packet 2" in out.output


# -- B: the end of the game ---------------------------------------------------------------------------------------


def test_game_over_refuses_more_orders_and_status_shows_it(sample: Sample, tmp_path: Path) -> None:
    game = sample.log_upto(tmp_path, len(sample.turns))
    last_author = sample.player_for(sample.side_of(len(sample.turns) - 1))
    waiting_player = next(p for p in sample.sides if p != last_author)
    orders = tmp_path / "orders.yaml"
    orders.write_text("inputs: []\n")
    for command in (["submit", str(game)], ["submit", str(game), str(orders)], ["play", str(game)],
                    ["orders", "template", str(game)]):
        out = rsr(sample.home(waiting_player), *command)
        assert out.exit_code == 2, (command, out.output)
        assert out.output.startswith("rsr: the game is over") and "no more packets" in out.output
        assert len(out.output.strip().splitlines()) == 1
    assert len(list((game / "turns").iterdir())) == len(sample.turns)
    status = rsr(sample.home(waiting_player), "status", str(game))
    assert "the game is over" in status.output


@pytest.fixture
def verdict(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Give the sample's ruleset a ``result`` method (the rulesets add their own victory rules)."""
    from rsr.rulesets.red_sun_rising.ruleset import RedSunRising

    given = {"winner": "japan", "level": "marginal victory", "case": "test verdict"}
    monkeypatch.setattr(RedSunRising, "result", lambda self, state: given if self.next_request(state) is None
                        else None, raising=False)
    return given


def test_status_and_final_report_name_the_winner(sample: Sample, tmp_path: Path, verdict: dict[str, Any]) -> None:
    game = sample.log_upto(tmp_path, len(sample.turns))
    out = rsr(sample.home("alice"), "status", str(game))
    assert "the game is over: japan wins (marginal victory, test verdict)" in out.output
    shown = rsr(sample.home("alice"), "report", str(game), "--format", "md")
    assert "## Result" in shown.output and "Japan wins (marginal victory, test verdict)" in shown.output
    from rsr.reports import write_reports

    last = write_reports(game, None)[-1]
    assert "Japan wins (marginal victory, test verdict)" in last.read_text()
    refused = rsr(sample.home("bob"), "submit", str(game))
    assert refused.exit_code == 2 and "japan wins" in refused.output


def test_a_result_reported_early_ends_the_game(sample: Sample, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rsr.rulesets.red_sun_rising.ruleset import RedSunRising

    monkeypatch.setattr(RedSunRising, "result", lambda self, state: {"winner": "russia", "level": "decisive"},
                        raising=False)
    game = sample.log_upto(tmp_path, 4)
    out = rsr(sample.home("alice"), "submit", str(game))
    assert out.exit_code == 2 and "russia wins (decisive)" in out.output


# -- C: checking dice by hand -------------------------------------------------------------------------------------


def test_dice_show_feeds_dice_roll(sample: Sample) -> None:
    audit = next(sample.out.glob("audit/game-*"))
    checked = 0
    for seq in range(2, len(sample.turns) - 1):
        out = rsr(sample.home("alice"), "dice", "show", str(audit), str(seq))
        assert out.exit_code == 0, out.output
        fields = dict(re.findall(r"^(reveal|game|packet-hash) +([0-9a-f]+)$", out.output, re.MULTILINE))
        rolls = [(int(n), int(s), int(v)) for n, s, v in re.findall(r"n=(\d+) sides=(\d+) value=(\d+)", out.output)]
        assert len(fields) == 3
        for n, sides, value in rolls:
            again = rsr(sample.home("alice"), "dice", "roll", "--reveal", fields["reveal"], "--game", fields["game"],
                        "--packet-hash", fields["packet-hash"], "--sides", str(sides), "--start", str(n))
            assert again.exit_code == 0 and again.output.split() == [str(value)]
            checked += 1
        by_n = {n: value for n, _, value in rolls}
        for command in re.findall(r"^check: rsr (.*)$", out.output, re.MULTILINE):
            start, count = (int(x) for x in re.findall(r"--(?:start|count) (\d+)", command))
            again = rsr(sample.home("alice"), *command.split())
            assert again.output.split() == [str(by_n[n]) for n in range(start, start + count)]
    assert checked > 0


def test_dice_show_explains_packets_without_public_dice(sample: Sample, tmp_path: Path) -> None:
    game = sample.log_upto(tmp_path, 4)
    out = rsr(sample.home("alice"), "dice", "show", str(game), "3")
    assert out.exit_code == 2 and "packet 4 reveals them" in out.output
    out = rsr(sample.home("alice"), "dice", "show", str(game), "9")
    assert out.exit_code == 2 and "no packet 9" in out.output
