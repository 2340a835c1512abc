"""A player's transcription of the printed sheets, bound into the game (issue 25; rsr/transcription.py).

The acceptance game: the bots play the one-turn contact position (RS/RS 13.1 units) on a partial
transcription that changes the CRT's 15 column and the terrain of hex 4424, and the same game (same bots,
same dice stream) on rsr's own data; the two agree event for event until the first event that read a
transcribed value. The transcription game is also played by mail and verified on a third copy holding only
the packets (rsr verify and tools/independent_verify.py).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rsr import transcription
from rsr.cli import main
from rsr.engine import Event, initial_position
from rsr.errors import BadInput
from rsr.fairdice import KeyedDice
from rsr.rulesets import get_ruleset
from rsr.scenario import load_scenario
from rsr.yamlio import dump_yaml, load_yaml_file

REPO = Path(__file__).resolve().parents[1]
SCENARIO = "july-1939-contact"
CHANGED_COLUMN = 7  # "15"
CHANGED_HEX = "4424"


def write(path: Path, kind: str, entries: list[dict[str, Any]]) -> Path:
    path.write_text(dump_yaml({"transcription": 1, "ruleset": "red-star", "kind": kind, "entries": entries}))
    return path


def crt_column(tmp_path: Path) -> Path:
    """Column 15 as a player's (invented) printed chart: '2/1' throughout, and one cell copied unchanged."""
    entries = [{"at": f"crt/cells/{row}/results/{CHANGED_COLUMN}", "value": "2/1", "copied": True}
               for row in range(6)]
    entries.append({"at": "crt/cells/0/results/0", "value": "-/1", "copied": True})
    entries.append({"at": "crt/cells/1/results/0", "value": "4/4", "copied": False})  # not copied: ignored
    return write(tmp_path / "crt.yaml", "tables", entries)


def one_hex(tmp_path: Path) -> Path:
    return write(tmp_path / "map.yaml", "map", [{"at": f"terrain/{CHANGED_HEX}", "value": "dunes", "copied": True}])


# -- rsr data export / check ----------------------------------------------------------------------------


def test_export_lists_every_crt_cell_in_reading_order_with_its_provenance() -> None:
    form = transcription.export_form("red-star", "tables")
    cells = [e for e in form["entries"] if e["at"].startswith("crt/cells/")]
    assert [e["at"] for e in cells[:2]] == ["crt/cells/0/results/0", "crt/cells/0/results/1"]
    assert len(cells) == 6 * 12
    first = next(e for e in cells if e["at"] == "crt/cells/0/results/4")
    assert first["label"] == "crt.cells[die=1].results[column 8]"
    assert first["source"] == "derived" and "column 8, die 1 gave 1/2" in first["shipped"]
    assert all(e["copied"] is False for e in form["entries"])
    assert next(e for e in cells if e["at"] == "crt/cells/0/results/5")["source"] == "provisional"


def test_an_exported_form_reads_back_and_checks(tmp_path: Path) -> None:
    for kind in transcription.kinds_of("red-star"):
        path = tmp_path / f"{kind}.yaml"
        scenario = SCENARIO if kind == transcription.TURN_RECORD else None  # (a Turn Record is one scenario's)
        path.write_text(transcription.form_text(transcription.export_form("red-star", kind, scenario)))
        read, result = transcription.check(path)
        assert read.kind == kind and result.copied == 0 and result.provisional


def test_check_refuses_a_value_that_contradicts_an_example_of_play(tmp_path: Path) -> None:
    path = write(tmp_path / "bad.yaml", "tables", [{"at": "crt/cells/0/results/4", "value": "2/2", "copied": True}])
    with pytest.raises(BadInput, match=r"contradicts '1/2'.*column 8, die 1 gave 1/2"):
        transcription.check(path)
    run = CliRunner().invoke(main, ["data", "check", str(path)])
    assert run.exit_code == 2 and "example of play" in run.output and "Traceback" not in run.output


def test_check_refuses_an_errata_value(tmp_path: Path) -> None:
    at = "crt/shifts_past_end"
    path = write(tmp_path / "bad.yaml", "tables", [{"at": at, "value": "refuse", "copied": True}])
    with pytest.raises(BadInput, match="errata: S&T 158"):
        transcription.check(path)


def test_check_refuses_what_the_schema_refuses_and_unknown_places(tmp_path: Path) -> None:
    path = write(tmp_path / "bad.yaml", "tables", [{"at": "crt/cells/0/results/5", "value": "x", "copied": True}])
    with pytest.raises(BadInput, match=r"crt.cells\[0\].results\[5\]"):
        transcription.check(path)
    path = write(tmp_path / "bad.yaml", "tables", [{"at": "crt/cells/9/results/0", "value": "1/1", "copied": True}])
    with pytest.raises(BadInput, match="not a position"):
        transcription.check(path)
    path = write(tmp_path / "bad.yaml", "map", [{"at": "terrain/4424", "value": "lava", "copied": True}])
    with pytest.raises(BadInput, match="lava"):  # not on the Terrain Effects Chart
        transcription.check(path)


def test_check_lists_what_stays_provisional(tmp_path: Path) -> None:
    read, result = transcription.check(crt_column(tmp_path))
    assert result.copied == 7 and len(result.changed) == 6
    labels = set(result.provisional)
    assert "crt.cells[die=1].results[column 15]" not in labels
    assert "crt.cells[die=1].results[column 1]" not in labels  # copied unchanged: no longer provisional
    assert "crt.cells[die=2].results[column 1]" in labels  # not copied
    run = CliRunner().invoke(main, ["data", "check", str(tmp_path / "crt.yaml")])
    assert run.exit_code == 0, run.output
    assert "7 values transcribed, 6 differ" in " ".join(run.output.split()) and "still provisional" in run.output


def test_a_copied_value_is_no_longer_flagged_as_provisional(tmp_path: Path) -> None:
    scenario = load_scenario("red-star", SCENARIO)
    changed = transcription.scenario_with(scenario, [transcription.load_file(crt_column(tmp_path))])
    rows = changed.data["tables"]["crt"]["cells"]
    assert rows[2]["results"][CHANGED_COLUMN] == "2/1" and rows[2]["provenance"][CHANGED_COLUMN].startswith("overlay")
    assert rows[2]["provenance"][0].startswith("provisional")
    assert changed.sha256 != scenario.sha256
    assert scenario.data["tables"]["crt"]["cells"][2]["results"][CHANGED_COLUMN] != "2/1"  # shipped: unchanged


# -- the acceptance game ---------------------------------------------------------------------------------


def bot_game(scenario: Any) -> list[Event]:
    """The bots play the whole scenario on one dice stream (the same key for both games)."""
    ruleset = get_ruleset("red-star")
    state = initial_position(ruleset, scenario, {}).state
    dice = KeyedDice(b"issue-25".ljust(32, b"."))
    events: list[Event] = []
    for _ in range(500):
        request = ruleset.next_request(state)
        if request is None:
            return events
        answer = ruleset.bot(state, request)
        item = next(i for i in answer if i.get("request") == request.id)
        state, new = ruleset.apply(state, request, item["answer"], dice)
        events += new
    raise AssertionError("the game did not end")


def reads_a_transcribed_value(event: Event, kinds: set[str]) -> bool:
    """A firefight resolved on the transcribed CRT column, or at a target in the transcribed hex."""
    if event.kind != "firefight":
        return False
    return ("tables" in kinds and event.data.get("column") == "15") or (
        "map" in kinds and event.data.get("target_hex") == CHANGED_HEX)


@pytest.mark.parametrize("kinds", [{"tables"}, {"map"}, {"tables", "map"}])
def test_a_game_on_a_transcription_differs_exactly_where_the_transcription_does(tmp_path: Path,
                                                                                 kinds: set[str]) -> None:
    shipped = load_scenario("red-star", SCENARIO)
    files = {"tables": crt_column, "map": one_hex}
    read = [transcription.load_file(files[kind](tmp_path)) for kind in sorted(kinds)]
    transcribed = transcription.scenario_with(
        shipped, transcription.from_invite("red-star", transcription.invite_data(read)))
    ours, theirs = bot_game(shipped), bot_game(transcribed)
    plain = [(e.kind, e.data) for e in ours]
    other = [(e.kind, e.data) for e in theirs]
    first = next(i for i, (a, b) in enumerate(zip(plain, other, strict=False)) if a != b)
    # the same game, event for event, up to the first event that read a transcribed value ...
    assert not any(reads_a_transcribed_value(e, kinds) for e in ours[:first])
    assert reads_a_transcribed_value(ours[first], kinds), ours[first]
    mine, yours = ours[first].data, theirs[first].data
    assert (mine["combat"], mine["firefight"], mine["die"]) == (yours["combat"], yours["firefight"], yours["die"])
    if kinds == {"map"}:  # ... where the transcribed hex's dunes shift the column (RS/RS 6.52)
        assert any(s["reason"] == f"dunes in {CHANGED_HEX}" for s in yours["shifts"])
        assert yours["column"] != mine["column"]
    else:  # ... where the transcribed column gives its own result on the same die
        assert yours["column"] == "15" and yours["result"] == "2/1" != mine["result"]
    if "tables" in kinds:  # reports flag only what stays provisional: column 15, never once transcribed
        assert any("CRT 15" in p for e in ours for p in e.provisional)
        assert not any("CRT 15" in p for e in theirs for p in e.provisional)


def test_the_transcription_game_by_mail_verifies_on_a_third_copy(tmp_path: Path) -> None:
    from rsr import games as game_actions
    from rsr.demo import run_demo
    from rsr.gamedir import load_log
    from rsr.log import replay

    data = [crt_column(tmp_path), one_hex(tmp_path)]
    out = tmp_path / "demo"
    alice = run_demo(out, echo=lambda _: None, scenario=SCENARIO, ruleset_id="red-star", data_files=data)
    copies = [alice, *out.glob("players/bob/games/game-*"), *out.glob("audit/game-*")]
    assert len(copies) == 3
    invite = load_log(alice)[0]
    carried = invite.payload["invite"]["data"]
    assert [d["kind"] for d in carried] == ["map", "tables"]
    first = replay(load_log(alice))
    assert first.scenario.data["map"]["terrain"][CHANGED_HEX] == "dunes"
    hashes = [p.state_hash for p in first.passes]
    for copy in copies[1:]:
        assert [p.state_hash for p in replay(load_log(copy)).passes] == hashes
    audit = copies[2]
    assert sorted(p.name for p in audit.iterdir()) == ["turns"]  # only the packets
    game_actions.verify_game(audit)
    for copy in copies:
        run = subprocess.run([sys.executable, str(REPO / "tools" / "independent_verify.py"), str(copy)],
                             capture_output=True, text=True, check=False)
        assert run.returncode == 0, run.stdout + run.stderr
    reports = sorted((alice / "reports").glob("*.md"))
    assert reports and all("Played on the inviter's transcription of the printed map (1 value) and tables "
                           "(7 values)" in r.read_text() for r in reports)
    lines = game_actions.transcription_lines(invite)
    assert any("terrain.4424 (terrain/4424): desert -> dunes" in line for line in lines), lines


def test_the_scenario_hash_pins_the_transcription(tmp_path: Path) -> None:
    """An invitation whose carried data does not hash to its pinned scenario is refused at replay."""
    from rsr.errors import VerificationError
    from rsr.log import _check_invite
    from rsr.packet import Packet

    scenario = load_scenario("red-star", SCENARIO)
    data = transcription.invite_data([transcription.load_file(one_hex(tmp_path))])
    payload = {"v": 2, "seq": 0, "side": "japan", "invite": {
        "ruleset": "red-star", "ruleset_version": get_ruleset("red-star").version, "scenario": SCENARIO,
        "scenario_sha256": scenario.sha256, "options": {}, "keys": {}, "names": {}, "data": data}}
    fake = Packet(payload, b"", b"")
    with pytest.raises(VerificationError, match="hashes to"):
        _check_invite(fake)


def test_a_game_without_a_transcription_carries_nothing_new(tmp_path: Path, rsr_home: Path) -> None:
    from rsr import games as game_actions
    from rsr import keys as keystore

    keystore.new_key("a")
    _, packet = game_actions.new_game(tmp_path, "red-star", SCENARIO, "japan", "a", "A")
    assert "data" not in packet.payload["invite"]
    assert packet.payload["invite"]["scenario_sha256"] == load_scenario("red-star", SCENARIO).sha256
    assert game_actions.transcription_lines(packet) == []


def test_new_refuses_a_transcription_for_the_other_ruleset(tmp_path: Path, rsr_home: Path) -> None:
    from rsr import keys as keystore

    keystore.new_key("a")
    path = write(tmp_path / "t.yaml", "map", [{"at": "terrain/4424", "value": "dunes", "copied": True}])
    run = CliRunner().invoke(main, ["new", str(tmp_path / "g"), "--scenario", "liaoyang-1904", "--side", "russia",
                                    "--key", "a", "--data", str(path)])
    assert run.exit_code == 2 and "Traceback" not in run.output, run.output
    assert not (tmp_path / "g").exists() or not any((tmp_path / "g").iterdir())


def test_load_yaml_of_an_exported_form_keeps_hex_numbers_as_text(tmp_path: Path) -> None:
    path = tmp_path / "map.yaml"
    path.write_text(transcription.form_text(transcription.export_form("red-star", "map")))
    raw = load_yaml_file(path)
    entry = next(e for e in raw["entries"] if e["at"] == f"terrain/{CHANGED_HEX}")
    assert entry["value"] == "desert" and entry["label"] == f"terrain.{CHANGED_HEX}"


def test_data_show_draws_the_transcribed_map_with_hex_numbers(tmp_path: Path) -> None:
    out = tmp_path / "map.svg"
    run = CliRunner().invoke(main, ["data", "show", str(one_hex(tmp_path)), "--out", str(out)])
    assert run.exit_code == 0, run.output
    svg = out.read_text()
    assert f">{CHANGED_HEX}</text>" in svg and ">1301</text>" in svg
    assert "1 value(s) transcribed (1 hex terrain)" in svg
    run = CliRunner().invoke(main, ["data", "show", str(one_hex(tmp_path)), "--out", str(tmp_path / "map.txt")])
    assert run.exit_code == 2 and not (tmp_path / "map.txt").exists()


def test_red_sun_rising_tables_pin_the_printed_crt_rows(tmp_path: Path) -> None:
    """RSR 11.57 prints rows 0-2 of the land CRT: a transcription may not change them, but may replace the
    provisional cells below."""
    def one(at: str, value: str) -> Path:
        path = tmp_path / "rsr.yaml"
        path.write_text(dump_yaml({"transcription": 1, "ruleset": "red-sun-rising", "kind": "tables",
                                   "entries": [{"at": at, "value": value, "copied": True}]}))
        return path

    with pytest.raises(BadInput, match="rulebook: 11.57"):
        transcription.check(one("land_crt/cells/0/results/0", "1/-"))
    read, result = transcription.check(one("land_crt/cells/3/results/5", "2/2"))
    assert result.copied == 1 and "land_crt.cells[die=3].results[column 4-1]" not in result.provisional


def test_an_entry_written_by_hand_without_copied_counts(tmp_path: Path) -> None:
    path = write(tmp_path / "t.yaml", "tables", [{"at": f"crt/cells/0/results/{CHANGED_COLUMN}", "value": "2/1"}])
    read, result = transcription.check(path)
    assert result.copied == 1 and read.entries[0].value == "2/1"


def test_counters_pin_the_printed_factors_and_take_a_transcribed_proficiency(tmp_path: Path) -> None:
    """RS/RS 13.1 prints the 3rd Tank Regiment as 4-16; its proficiency is our stand-in."""
    bad = write(tmp_path / "c.yaml", "counters", [{"at": "units/0/full/combat", "value": 5, "copied": True}])
    with pytest.raises(BadInput, match=r"rulebook: 13.1 \(3 Tank Regiment 4-16\)"):
        transcription.check(bad)
    bad = write(tmp_path / "c.yaml", "counters", [{"at": "units/0/name", "value": "3rd Tanks", "copied": True}])
    with pytest.raises(BadInput, match="rulebook: 13.1"):
        transcription.check(bad)
    good = write(tmp_path / "c.yaml", "counters", [{"at": "units/0/proficiency", "value": 5, "copied": True}])
    read, result = transcription.check(good)
    assert result.changed == [("units/0/proficiency", "units[id=jp-3tk, side=japan].proficiency", 4, 5)]
    applied = transcription.scenario_with(load_scenario("red-star", SCENARIO), [read])
    unit = applied.data["counters"]["units"][0]
    assert unit["proficiency"] == 5 and unit["provenance"]["proficiency"] == transcription.OVERLAY
