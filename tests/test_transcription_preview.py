"""The acceptor sees what an invitation's transcription replaces before he signs (issue 25, "Bound into the
game"): ``rsr accept --preview``, ``rsr data diff``, and the lines ``rsr accept`` prints, all through the real
command line. Values from the invitation are the inviter's: hostile until escaped (rsr/safetext.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from rsr import transcription
from rsr.cli import main
from rsr.errors import BadInput
from rsr.scenario import load_scenario
from rsr.yamlio import dump_yaml

RED_STAR = "july-1939-contact"
HOSTILE = "Viceroy \x1b[2J\x1b]0;owned\x07\u202eevil\u200b\r\nforged line"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def write(path: Path, ruleset: str, kind: str, entries: list[dict[str, Any]]) -> Path:
    path.write_text(dump_yaml({"transcription": 1, "ruleset": ruleset, "kind": kind, "entries": entries}))
    return path


def many_crt_cells(tmp_path: Path) -> tuple[Path, int]:
    """Every provisional cell of the Red Sun/Red Star CRT changed: far more than accept lists."""
    form = transcription.export_form("red-star", "tables")
    entries = [{"at": e["at"], "value": "4/4" if e["value"] != "4/4" else "3/3", "copied": True}
               for e in form["entries"] if e["at"].startswith("crt/cells/") and e["source"] == "provisional"]
    return write(tmp_path / "crt.yaml", "red-star", "tables", entries), len(entries)


def invite_game(tmp_path: Path, ruleset: str, scenario: str, side: str, data: Path | None) -> Path:
    for name in ("alice", "bob"):
        assert run("key", "new", name).exit_code == 0
    args = ["new", str(tmp_path / "alice"), "--ruleset", ruleset, "--scenario", scenario, "--side", side,
            "--key", "alice"]
    made = run(*args, *(["--data", str(data)] if data else []))
    assert made.exit_code == 0, made.output
    return next((tmp_path / "alice").glob("game-*/turns/0000-*.rsr"))


def assert_terminal_safe(output: str) -> None:
    assert "\x1b" not in output and "\u202e" not in output and "\u200b" not in output and "\x07" not in output
    assert "\r" not in output
    # (a file name of the test's own, unbreakable, is the one thing allowed past 80 columns)
    assert all(len(line) <= 80 for line in output.splitlines() if "pytest-" not in line), output


def test_preview_shows_the_replaced_value_escaped_and_signs_nothing(tmp_path: Path, rsr_home: Path) -> None:
    """A provisional text value (an HQ's historical commander) replaced by a hostile string: the preview
    shows where it is, the shipped value and the escaped new one, wrapped at 80 columns, and writes nothing;
    the real accept that follows is not refused and prints the same."""
    data = write(tmp_path / "t.yaml", "red-sun-rising", "counters",
                 [{"at": "command_units/0/historical", "value": HOSTILE, "copied": True}])
    assert run("data", "check", str(data)).exit_code == 0  # the signer's check takes it
    invite = invite_game(tmp_path, "red-sun-rising", "liaoyang-1904", "russia", data)
    target = tmp_path / "bob"
    preview = run("accept", str(invite), "--key", "bob", "--dir", str(target), "--preview")
    assert preview.exit_code == 0, preview.output
    assert_terminal_safe(preview.output)
    flat = " ".join(preview.output.split())
    assert "played on the inviter's transcription of the printed sheets" in flat
    assert ("command_units[id=ru-shq-alexiev, side=russia].historical (command_units/0/historical): "
            "Viceroy E. I. Alekseyev -> Viceroy \\x1b[2J\\x1b]0;owned\\x07\\u202eevil\\u200b\\x0d\\x0aforge...") in flat
    # (bounded: 60 characters as shown, the escapes counted)
    assert "still provisional" in flat and "values of the map" in flat and "values of the counters" in flat
    assert "nothing signed or written" in flat
    assert not target.exists()
    assert not (rsr_home / "journal").exists() or "accept" not in "".join(
        p.read_text() for p in (rsr_home / "journal").rglob("*") if p.is_file())
    accepted = run("accept", str(invite), "--key", "bob", "--dir", str(target))
    assert accepted.exit_code == 0, accepted.output  # the preview signed nothing: the invitation is still open
    assert_terminal_safe(accepted.output)
    assert "Viceroy E. I. Alekseyev -> Viceroy \\x1b[2J" in " ".join(accepted.output.split())


def test_a_long_list_is_summed_up_and_data_diff_lists_every_value(tmp_path: Path, rsr_home: Path) -> None:
    data, count = many_crt_cells(tmp_path)
    assert count > transcription.SHOWN_CHANGES + 5
    invite = invite_game(tmp_path, "red-star", RED_STAR, "japan", data)
    preview = run("accept", str(invite), "--key", "bob", "--dir", str(tmp_path / "bob"), "--preview")
    assert preview.exit_code == 0, preview.output
    assert_terminal_safe(preview.output)
    listed = [line for line in preview.output.splitlines() if "-> 4/4" in line or "-> 3/3" in line]
    assert len(listed) == transcription.SHOWN_CHANGES
    flat = " ".join(preview.output.split())
    assert f"{count} values transcribed, {count} of them different" in flat
    assert (f"... and {count - transcription.SHOWN_CHANGES} more (rsr data diff on the invitation lists every "
            "one)") in flat
    for source in (str(invite), str(invite.parents[1])):  # the invitation file, or the game directory
        diff = run("data", "diff", source)
        assert diff.exit_code == 0, diff.output
        assert_terminal_safe(diff.output)
        assert len([line for line in diff.output.splitlines() if "-> 4/4" in line or "-> 3/3" in line]) == count
        assert "crt.cells[die=1].results[column 15] (crt/cells/0/results/7):" in " ".join(diff.output.split())
        assert "... and" not in diff.output


def test_data_diff_lists_what_stays_provisional_on_request(tmp_path: Path, rsr_home: Path) -> None:
    data = write(tmp_path / "m.yaml", "red-star", "map", [{"at": "terrain/4424", "value": "dunes"}])
    invite = invite_game(tmp_path, "red-star", RED_STAR, "japan", data)
    plain = run("data", "diff", str(invite))
    assert plain.exit_code == 0 and "terrain.4424 (terrain/4424): desert -> dunes" in plain.output
    assert "provisional: tables crt.cells" not in plain.output
    full = run("data", "diff", str(invite), "--provisional")
    assert full.exit_code == 0, full.output
    assert "  provisional: tables crt.cells[die=2].results[column 1]" in full.output
    assert "  provisional: map terrain.4424" not in full.output  # transcribed: no longer provisional


def test_an_invitation_on_rsr_own_data_says_so(tmp_path: Path, rsr_home: Path) -> None:
    invite = invite_game(tmp_path, "red-star", RED_STAR, "japan", None)
    diff = run("data", "diff", str(invite))
    assert diff.exit_code == 0 and "played on rsr's own data: no transcription" in diff.output
    preview = run("accept", str(invite), "--key", "bob", "--dir", str(tmp_path / "bob"), "--preview")
    assert preview.exit_code == 0 and "terms: red-star" in preview.output
    assert "transcription" not in preview.output


def test_data_diff_of_something_else_is_one_line_and_exit_2(tmp_path: Path, rsr_home: Path) -> None:
    other = tmp_path / "notes.txt"
    other.write_text("no packet here\n")
    for source in (other, tmp_path):
        diff = run("data", "diff", str(source))
        assert diff.exit_code == 2, diff.output
        assert len(diff.output.strip().splitlines()) == 1 and "Traceback" not in diff.output


def test_every_value_the_signer_takes_the_preview_shows(tmp_path: Path, rsr_home: Path) -> None:
    """Accept refuses nothing the signer's check accepts: the longest text a transcription may hold, made of
    the characters that act on a terminal, in a provisional text value."""
    nasty = ("\x1b[31m\x9b\u2028\u202e\ufeff\x00" * 40)[:200]
    data = write(tmp_path / "t.yaml", "red-star", "map", [{"at": "scenarios/13.1", "value": nasty}])
    assert run("data", "check", str(data)).exit_code == 0
    invite = invite_game(tmp_path, "red-star", RED_STAR, "japan", data)
    for args in (["accept", str(invite), "--key", "bob", "--dir", str(tmp_path / "bob"), "--preview"],
                 ["data", "diff", str(invite)],
                 ["accept", str(invite), "--key", "bob", "--dir", str(tmp_path / "bob")]):
        shown = run(*args)
        assert shown.exit_code == 0, shown.output
        assert_terminal_safe(shown.output)
        assert "\x9b" not in shown.output and "\x00" not in shown.output and "\u2028" not in shown.output
        assert "scenarios.13.1 (scenarios/13.1): Japanese July Attack" in " ".join(shown.output.split())


def test_a_mailed_invitation_points_to_the_preview_and_inbox_names_the_transcription(tmp_path: Path,
                                                                                       rsr_home: Path) -> None:
    data = write(tmp_path / "m.yaml", "red-star", "map", [{"at": "terrain/4424", "value": "dunes"}])
    for name in ("alice", "bob"):
        assert run("key", "new", name).exit_code == 0
    made = run("new", str(tmp_path / "alice"), "--scenario", RED_STAR, "--side", "japan", "--key", "alice",
               "--data", str(data), "--opponent-email", "bob@example.test", "--mail")
    assert made.exit_code == 0, made.output
    message = next((tmp_path / "alice").rglob("*.eml"))
    assert "--preview" in message.read_text()
    maildir = tmp_path / "Maildir"
    for sub in ("new", "cur", "tmp"):
        (maildir / sub).mkdir(parents=True)
    (maildir / "new" / "1.eml").write_bytes(message.read_bytes())
    listed = run("inbox", str(tmp_path / "bob"), "--maildir", str(maildir))
    assert listed.exit_code == 0, listed.output
    assert "on their transcription of the printed map" in " ".join(listed.output.split())
    preview = run("accept", "--maildir", str(maildir), "--key", "bob", "--dir", str(tmp_path / "bob"), "--preview")
    assert preview.exit_code == 0, preview.output
    assert "terrain.4424 (terrain/4424): desert -> dunes" in preview.output
    assert not (tmp_path / "bob").exists() or not any((tmp_path / "bob").iterdir())


def test_a_transcription_cannot_rewrite_provenance_or_ids(tmp_path: Path, rsr_home: Path) -> None:
    """Only what rsr data export lists may be transcribed: a provenance rewritten to hide a stand-in, or an
    id, is refused by the signer's check and, in an invitation, at replay (before any die)."""
    for at, value in (("crt/cells/1/provenance/0", "rulebook: 6.6"), ("default_provenance", "rulebook: 6.6"),
                      ("crt/provenance", "rulebook: 6.6")):
        bad = write(tmp_path / "bad.yaml", "red-star", "tables", [{"at": at, "value": value}])
        refused = run("data", "check", str(bad))
        assert refused.exit_code == 2 and "not a value of the printed sheets" in refused.output, (at, refused.output)
        with pytest.raises(BadInput, match="not a value of the printed sheets"):
            transcription.scenario_with(load_scenario("red-star", RED_STAR),
                                        [transcription.Transcription("red-star", "tables",
                                                                     (transcription.Entry(at, value),))])
    bad = write(tmp_path / "bad.yaml", "red-star", "counters", [{"at": "units/0/id", "value": "jp-x"}])
    assert run("data", "check", str(bad)).exit_code == 2


def test_data_check_of_the_opponents_file_shows_its_values_escaped(tmp_path: Path) -> None:
    """The acceptor checks the inviter's file before the game (docs/red-star/data.md): its strings are his."""
    data = write(tmp_path / "t.yaml", "red-sun-rising", "counters",
                 [{"at": "command_units/0/historical", "value": HOSTILE + "x" * 150}])
    checked = run("data", "check", str(data))
    assert checked.exit_code == 0, checked.output
    assert_terminal_safe(checked.output)
    assert "1 value transcribed, 1 differs from rsr's" in " ".join(checked.output.split())
    assert "-> Viceroy \\x1b[2J" in " ".join(checked.output.split()) and "xxxxxxxxxx" not in checked.output
