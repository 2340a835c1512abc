"""What a player types and reads, through the real command line at 80 columns (issue 23 sections 2, 3, 5):
hexes read as written, sealed choices revealed by a bare submit, scenarios that pick their ruleset, output
a person reads (wrapped, no Python reprs, plurals, a quiet closed pipe), and resignation."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from rsr.cli import main

COLUMNS = 80


def rsr(home: Path, *args: str, input: str | None = None) -> Result:
    env = {"RSR_HOME": str(home), "COLUMNS": str(COLUMNS), "EDITOR": ""}
    return CliRunner().invoke(main, list(args), env=env, input=input, catch_exceptions=False)


def ok(home: Path, *args: str, input: str | None = None) -> str:
    out = rsr(home, *args, input=input)
    assert out.exit_code == 0, out.output
    assert_fits(out.output)
    return out.output


def assert_fits(text: str) -> None:
    """Every line a person reads fits 80 columns (but for one word alone on its line: a long path of the test's
    temporary folder), and holds no Python repr of a mapping or list."""
    for line in text.splitlines():
        assert len(line) <= COLUMNS or len(line.split()) == 1, f"{len(line)} columns: {line!r}"
        assert "{'" not in line and "['" not in line.replace("['0", "").replace("['1", "") or line.startswith("#"), line


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Players type short relative paths: the tests do too (the output then fits as it does for them)."""
    monkeypatch.chdir(tmp_path)


def two_homes(tmp_path: Path, scenario: str, side: str, *extra: str) -> tuple[Path, Path, Path, Path]:
    """Alice starts ``scenario`` as ``side`` (the ruleset picked by the scenario's name), Bob accepts, and
    Alice receives the acceptance: (alice's home, alice's game, bob's home, bob's game), relative paths."""
    alice, bob = Path("alice"), Path("bob")
    for home in (alice, bob):
        (home / "games").mkdir(parents=True)
    ok(alice, "key", "new", "alice")
    ok(bob, "key", "new", "bob")
    ok(alice, "new", str(alice / "games"), "--scenario", scenario, "--side", side, "--key", "alice", *extra)
    a_dir = next((alice / "games").glob("game-*"))
    ok(bob, "accept", str(a_dir), "--key", "bob", "--dir", str(bob / "games"))
    b_dir = next((bob / "games").glob("game-*"))
    ok(alice, "receive", str(a_dir), str(next((b_dir / "turns").glob("0001-*"))))
    return alice, a_dir, bob, b_dir


def attack_orders(hex_text: str) -> str:
    return ("inputs:\n- request: t7/russia/combat/r1/attacks\n  answer:\n    attacks:\n"
            f"    - hex: {hex_text}\n      attackers: [ru-es1]\n      command: null\n      advance: []\n"
            "    advance_into: {}\n    last_round: false\n")


# -- section 2: no YAML traps -------------------------------------------------------------------------------


def test_hexes_are_read_as_the_text_written(tmp_path: Path) -> None:
    alice, a_dir, _, _ = two_homes(tmp_path, "liaoyang-1904", "russia")
    orders = tmp_path / "orders.yaml"
    orders.write_text(attack_orders("1807"))  # unquoted: once an int, refused as "not a hex"
    out = ok(alice, "orders", "check", str(a_dir), str(orders))
    assert "1 input accepted" in out and "attack 1 on 1807" in out
    orders.write_text(attack_orders("0414"))  # unquoted with a leading zero: YAML 1.1 reads octal 268
    refused = rsr(alice, "orders", "check", str(a_dir), str(orders))
    assert refused.exit_code == 2
    assert "0414" in refused.output and "268" not in refused.output


def test_templates_write_every_hex_quoted(tmp_path: Path) -> None:
    alice, a_dir, _, _ = two_homes(tmp_path, "liaoyang-1904", "russia")
    text = ok(alice, "orders", "template", str(a_dir))
    import re

    bare = [line for line in text.splitlines() if re.search(r"(?<!')\b\d{4}\b(?!')", line.split("#")[-1])
            and not line.startswith("#")]
    assert not bare, bare
    assert "- '1807'" in text


@pytest.mark.usefixtures("duel_registered")
def test_submit_without_orders_reveals_the_sealed_choice(tmp_path: Path, rsr_home: Path) -> None:
    from tests.support.games import duel_game

    game_dir, _ = duel_game(tmp_path, {}, 2)  # hot-seat: both keys in this home
    orders = Path("attack.yaml")
    orders.write_text("inputs:\n- {request: r1/attack, answer: 2, seal: true}\n")
    ok(rsr_home, "submit", str(game_dir), str(orders), "--key", "att")
    orders.write_text("inputs:\n- {request: r1/defend, answer: 2}\n")
    ok(rsr_home, "submit", str(game_dir), str(orders), "--key", "def")
    assert "reveal" in ok(rsr_home, "orders", "template", str(game_dir), "--key", "att")
    out = ok(rsr_home, "submit", str(game_dir), "--key", "att")  # no orders: the template's own answer
    assert "revealing your sealed choice" in out and "wrote packet 4" in out
    from rsr.gamedir import load_log

    inputs = load_log(game_dir)[4].payload["inputs"]
    assert inputs[0]["unseal"] == "r1/attack" and inputs[0]["choice"] == 2


def test_a_scenario_name_picks_its_ruleset(tmp_path: Path) -> None:
    _, a_dir, _, _ = two_homes(tmp_path, "july-1939-contact", "soviet")
    assert "ruleset: red-star" in (a_dir / "game.yaml").read_text()


# -- section 5: resigning -----------------------------------------------------------------------------------


def test_resign_ends_the_game_for_both_copies_and_a_third(tmp_path: Path) -> None:
    alice, a_dir, bob, b_dir = two_homes(tmp_path, "liaoyang-1904", "russia")
    refused = rsr(bob, "resign", str(b_dir), "--yes")
    assert refused.exit_code == 2 and "russia's" in refused.output  # not bob's packet to write
    kept = rsr(alice, "resign", str(a_dir), input="n\n")
    assert kept.exit_code == 2 and "not resigned" in kept.output
    assert not list((a_dir / "turns").glob("0002-*"))
    out = ok(alice, "resign", str(a_dir), input="y\n")
    assert "japan wins (decisive, russia resigned)" in out
    packet = next((a_dir / "turns").glob("0002-*"))
    got = ok(bob, "receive", str(b_dir), str(packet))
    assert "russia's packet 2 is a resignation" in got and "japan wins (decisive, russia resigned)" in got
    for home, game in ((alice, a_dir), (bob, b_dir)):
        assert "the game is over: japan wins (decisive, russia resigned)" in ok(home, "status", str(game))
        after = rsr(home, "submit", str(game), "--pass")
        assert after.exit_code == 2 and "the game is over" in after.output
    third = Path("referee") / "game"
    (third / "turns").mkdir(parents=True)
    for item in sorted((a_dir / "turns").glob("*.rsr")):
        (third / "turns" / item.name).write_bytes(item.read_bytes())
    verified = ok(Path("referee-home"), "verify", str(third))
    assert "verified: 3 packets, 1 resolution, 0 dice" in verified
    assert "japan wins (decisive, russia resigned)" in verified
    inbox = ok(alice, "inbox", str(alice / "games"))
    assert "3 packets the game is over" in " ".join(inbox.split())


def test_a_resignation_goes_alone(tmp_path: Path) -> None:
    alice, a_dir, _, _ = two_homes(tmp_path, "liaoyang-1904", "russia")
    orders = Path("orders.yaml")
    orders.write_text(attack_orders("'1807'") + "- resign: true\n")
    refused = rsr(alice, "submit", str(a_dir), str(orders))
    assert refused.exit_code == 2 and "a resignation goes alone" in refused.output
    assert not list((a_dir / "turns").glob("0002-*"))


# -- section 3: output a person reads ------------------------------------------------------------------------


def test_every_command_a_player_runs_fits_80_columns(tmp_path: Path) -> None:
    alice, a_dir, bob, b_dir = two_homes(tmp_path, "liaoyang-1904", "russia")
    orders = Path("orders.yaml")
    orders.write_text(attack_orders("1807"))
    for args in (["--help"], ["scenarios"], ["status", str(a_dir)], ["orders", "template", str(a_dir)],
                 ["orders", "check", str(a_dir), str(orders)], ["odds", str(a_dir), "1807:ru-es1,ru-es5"],
                 ["submit", str(a_dir), str(orders)], ["inbox", str(alice / "games")], ["verify", str(a_dir)],
                 ["status", str(a_dir)]):
        ok(alice, *args)
    hopeless = ok(alice, "odds", str(a_dir), "1808:ru-es9")  # worse than 1-3: an automatic result, no die
    assert "no die" in hopeless and "die none" not in hopeless
    for command in ("new", "accept", "submit", "receive", "status", "report", "map", "odds", "play", "resign"):
        ok(alice, command, "--help")
    got = ok(bob, "receive", str(b_dir), str(next((a_dir / "turns").glob("0002-*"))))
    assert "russia's packet 2 carries 1 order" in got and "order(s)" not in got
    ok(bob, "status", str(b_dir))
    text = ok(bob, "report", str(b_dir))
    assert "**" not in text and "`" not in text
    ok(bob, "orders", "template", str(b_dir))


def test_rsr_case_is_kept_out_of_the_players_help(tmp_path: Path) -> None:
    shown = ok(tmp_path, "--help")
    assert "resign" in shown and "\n  case" not in shown
    assert "Run adjudication cases" in ok(tmp_path, "case", "run", "--help")  # still there for contributors


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first line: every write fails with EPIPE
    try:
        done = subprocess.run([sys.executable, "-c", "from rsr.cli import main; main()", "scenarios"],
                              stdout=write_end, stderr=subprocess.PIPE, timeout=120, env={**os.environ,
                              "RSR_HOME": str(tmp_path / "home")})
    finally:
        os.close(write_end)
    assert done.stderr == b"" and done.returncode == 0


def test_play_without_an_editor_pastes_at_the_terminal(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    from rsr.cli import edit_in_editor

    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.delenv("EDITOR", raising=False)
    assert edit_in_editor("inputs: []\n") is None
    assert "no EDITOR set" in capsys.readouterr().out
    monkeypatch.setenv("EDITOR", "false")
    assert edit_in_editor("inputs: []\n") is None
    out = " ".join(capsys.readouterr().out.split())
    assert "the editor 'false' failed" in out and "pasted here instead" in out


def test_words_for_people() -> None:
    from rsr.words import plain_value, plural

    assert [plural(1, "packet"), plural(2, "packet"), plural(1, "city"), plural(3, "city")] == [
        "1 packet", "2 packets", "1 city", "3 cities"]
    assert plain_value({"refuse_in_port": False, "combats": [], "cities": ["0220", "0803"]}) == (
        "refuse_in_port: false; combats: none; cities: [0220, 0803]")


def test_the_battle_scenario_says_what_must_happen_first(tmp_path: Path) -> None:
    from fractions import Fraction

    from rsr.rulesets.red_sun_rising.naval.outlook import sortie_chance

    assert sortie_chance(2, 0) == sortie_chance(3, 1) == Fraction(1, 3) and sortie_chance(1, 2) == 0  # RSR 5.0
    home = Path("vitgeft")
    ok(home, "key", "new", "vitgeft")
    Path("games").mkdir()
    out = " ".join(ok(home, "new", "games", "--scenario", "naval-battle-1904", "--side", "russia",
                      "--key", "vitgeft").split())
    assert ("note: ru-fleet-1 (russia) puts to sea only with command initiative: a die + 0 (summer) at most "
            "Vitgeft's rating 2: 2 of the 6 faces of the die, 1 chance in 3") in out
    assert "search that finds the enemy fleet" in out
    quiet = ok(home, "new", "games", "--scenario", "liaoyang-1904", "--side", "russia", "--key", "vitgeft")
    assert "note:" not in quiet
